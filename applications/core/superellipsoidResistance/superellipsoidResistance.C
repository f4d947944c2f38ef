/*---------------------------------------------------------------------------*\
Application
    superellipsoidResistance

Description
    Prints the particle-frame resistance tensors K, Omega, Pi (Eqs. 5 and 21
    of [Wedel2023], normalised by c) of a superellipsoid.

Usage
    superellipsoidResistance a b c eps1 eps2 [options]
      --resolution N     boundary element resolution (target panel count)
      --numerical        use the boundary element solver even for ellipsoids
      --cache DIR        cache directory (per-shape files)
      --convergence      table over resolutions vs. the finest one (and vs.
                         the exact values for ellipsoids)
      --resolutions N1,N2,...   resolutions of the convergence table

\*---------------------------------------------------------------------------*/
#include "hydrodynamics/ResistanceTensors.H"
#include "hydrodynamics/StokesResistanceSolver.H"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

using namespace superellipsoid;

namespace
{

void printTensors(const ResistanceTensors& t)
{
    const char* names[3] = {"K", "Omega", "Pi"};
    const Matrix3* m[3] = {&t.K, &t.Omega, &t.Pi};
    for (int k = 0; k < 3; ++k)
    {
        std::printf("%-6s", names[k]);
        for (int r = 0; r < 3; ++r)
        {
            std::printf("  [% .8e % .8e % .8e]", (*m[k])(r, 0), (*m[k])(r, 1), (*m[k])(r, 2));
        }
        std::printf("\n");
    }
}

Eigen::Matrix<double, 9, 1> diagonals(const ResistanceTensors& t)
{
    Eigen::Matrix<double, 9, 1> d;
    d << t.K.diagonal(), t.Omega.diagonal(), t.Pi.diagonal();
    return d;
}

//- Largest relative deviation over the 9 diagonal entries; Pi entries are
//  measured relative to Omega of the same axis (Pi may vanish)
double worstDeviation(const ResistanceTensors& t, const ResistanceTensors& ref)
{
    const auto d = diagonals(t), r = diagonals(ref);
    double worst = 0;
    for (int i = 0; i < 9; ++i)
    {
        const double scale = i < 6 ? std::abs(r[i]) : std::abs(r[i - 3]);
        worst = std::max(worst, std::abs(d[i] - r[i])/scale);
    }
    return worst;
}

int usage()
{
    std::cerr << "usage: superellipsoidResistance a b c eps1 eps2 [--resolution N]"
                 " [--numerical] [--cache DIR] [--convergence] [--resolutions N1,N2,..]\n";
    return 2;
}

} // namespace


int main(int argc, char** argv)
{
    if (argc < 6) return usage();
    try
    {
        ShapeParameters shape
        {
            std::stod(argv[1]), std::stod(argv[2]), std::stod(argv[3]),
            std::stod(argv[4]), std::stod(argv[5])
        };
        ResistanceOptions options;
        bool convergence = false;
        std::vector<int> resolutions{216, 384, 600, 864, 1176, 1536, 1944, 2400};
        for (int i = 6; i < argc; ++i)
        {
            const std::string arg = argv[i];
            if (arg == "--resolution" && i + 1 < argc) options.resolution = std::stoi(argv[++i]);
            else if (arg == "--numerical") options.source = ResistanceSource::numerical;
            else if (arg == "--cache" && i + 1 < argc) options.cacheDirectory = argv[++i];
            else if (arg == "--convergence") convergence = true;
            else if (arg == "--resolutions" && i + 1 < argc)
            {
                resolutions.clear();
                std::stringstream list(argv[++i]);
                std::string item;
                while (std::getline(list, item, ',')) resolutions.push_back(std::stoi(item));
            }
            else return usage();
        }

        if (!convergence)
        {
            std::printf("shape a=%g b=%g c=%g eps1=%g eps2=%g (normalised by c)\n",
                        shape.a, shape.b, shape.c, shape.eps1, shape.eps2);
            printTensors(makeResistanceTensors(shape, options));
            return 0;
        }

        const bool exact = shape.isEllipsoid();
        std::vector<StokesResistanceResult> results;
        for (int n : resolutions)
        {
            results.push_back(solveStokesResistance(shape, n));
        }
        const ResistanceTensors reference = exact
            ? exactEllipsoidResistance(shape.a, shape.b, shape.c)
            : results.back().tensors;
        std::printf("# shape a=%g b=%g c=%g eps1=%g eps2=%g; reference: %s\n",
                    shape.a, shape.b, shape.c, shape.eps1, shape.eps2,
                    exact ? "exact ellipsoid" : "finest resolution");
        std::printf("# %10s %7s %9s %10s %10s %10s %10s %10s %10s %10s %10s %10s %9s\n",
                    "resolution", "panels", "seconds", "Kxx", "Kyy", "Kzz",
                    "Omxx", "Omyy", "Omzz", "Pixx", "Piyy", "Pizz", "maxErr%");
        for (const StokesResistanceResult& r : results)
        {
            const auto d = diagonals(r.tensors);
            std::printf("  %10d %7d %9.2f", resolutions[&r - &results[0]], r.panelCount, r.seconds);
            for (int i = 0; i < 9; ++i) std::printf(" %10.5g", d[i]);
            std::printf(" %9.3f\n", 100*worstDeviation(r.tensors, reference));
        }
        if (exact)
        {
            const auto d = diagonals(reference);
            std::printf("  %10s %7s %9s", "exact", "-", "-");
            for (int i = 0; i < 9; ++i) std::printf(" %10.5g", d[i]);
            std::printf("\n");
        }
    }
    catch (const std::exception& e)
    {
        std::cerr << "superellipsoidResistance: " << e.what() << "\n";
        return 1;
    }
    return 0;
}
