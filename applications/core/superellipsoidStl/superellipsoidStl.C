/*---------------------------------------------------------------------------*\
Application
    superellipsoidStl

Description
    Writes the surface of a superellipsoid as an ASCII STL (particle frame,
    centroid at the origin; Superellipsoid::triangulate) and prints its
    half-axes, volume, volume-equivalent diameter and the volume enclosed
    by the facets, one 'key value...' line each.

Usage
    superellipsoidStl a b c eps1 eps2 file.stl [options]
      --dEq D                scale a, b, c (then only their ratios count) so
                             that the volume-equivalent diameter is D
      --resolution nEta nOmega   latitude bands and longitudes (default 48 96)
      --name NAME            STL solid name (default body)

\*---------------------------------------------------------------------------*/
#include "output/AtomicFile.H"
#include "output/StlSurface.H"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <string>

using namespace superellipsoid;

namespace
{

int usage()
{
    std::cerr << "usage: superellipsoidStl a b c eps1 eps2 file.stl [--dEq D]"
                 " [--resolution nEta nOmega] [--name NAME]\n";
    return 2;
}

//- Parse a number or stop with the usage message
bool number(const char* text, double& value)
{
    char* end = nullptr;
    value = std::strtod(text, &end);
    return end != text && *end == '\0' && std::isfinite(value);
}

} // namespace


int main(int argc, char* argv[])
{
    if (argc < 7)
    {
        return usage();
    }
    double p[5];
    for (int i = 0; i < 5; ++i)
    {
        if (!number(argv[i + 1], p[i]))
        {
            return usage();
        }
    }
    const std::string file = argv[6];
    double dEq = 0;
    double nEta = 48, nOmega = 96;
    std::string name = "body";
    for (int i = 7; i < argc; ++i)
    {
        const std::string option = argv[i];
        if (option == "--dEq" && i + 1 < argc && number(argv[i + 1], dEq) && dEq > 0)
        {
            ++i;
        }
        else if (option == "--resolution" && i + 2 < argc && number(argv[i + 1], nEta) && number(argv[i + 2], nOmega))
        {
            i += 2;
        }
        else if (option == "--name" && i + 1 < argc)
        {
            name = argv[++i];
        }
        else
        {
            return usage();
        }
    }
    try
    {
        double scale = 1;
        if (dEq > 0)
        {
            scale = dEq/Superellipsoid(p[0], p[1], p[2], p[3], p[4]).volumeEquivalentDiameter();
        }
        const Superellipsoid shape(scale*p[0], scale*p[1], scale*p[2], p[3], p[4]);
        const SurfaceMesh mesh = shape.triangulate(int(nEta), int(nOmega));
        writeFileAtomically(file, [&](std::ostream& os) { writeStl(os, mesh, name); });
        std::printf("halfAxes %.12g %.12g %.12g\n", shape.a(), shape.b(), shape.c());
        std::printf("volume %.12g\n", shape.volume());
        std::printf("dEq %.12g\n", shape.volumeEquivalentDiameter());
        std::printf("triangulatedVolume %.12g\n", enclosedVolume(mesh));
        std::printf("triangles %zu\n", mesh.triangles.size());
    }
    catch (const std::exception& e)
    {
        std::cerr << "superellipsoidStl: " << e.what() << '\n';
        return 1;
    }
    return 0;
}
