/*---------------------------------------------------------------------------*\
Application
    superellipsoidScaling

Description
    Cost of the core's multi-particle collision step (CollisionStep,
    impulse model) against the particle count N, for the scaling
    study (tests/benchmarks/studies/coreScaling/Allrun). Prints ONE line of
    key=value figures.

    Particles: a generic superellipsoid (a, b, c) = (1.3, 1.1, 1) mm,
    eps1 = 0.5, eps2 = 0.7 (non-integer exponents: no fast path),
    rho = 1000 kg/m^3, random orientations, on a cubic lattice.
    Configurations:
      packed   filling-like: lattice spacing 2.05 a (most neighbours touch),
               gravity, a closed box of 6 wall faces around the lattice
               (floor touching the bottom layer), random velocities
               0.01 m/s: resting contacts, collision and resting sweeps and
               wall contacts as in a settling pile
      dilute   particle-laden flow: lattice spacing 5 a, no walls, no
               gravity, random velocities 0.1 m/s (the broad phase finds
               candidates, few pairs touch)
    Both: eps_n = 0.2, frictionless (the filling's laws), substep
    h = 1e-5 s, 10 substeps per advance() (as the OpenFOAM layer calls it
    per fluid step: validation, cache pruning and energies included).
    The first warmupSteps advance() calls (first-touch allocations, warm
    starts) are not timed.

    Figures: process CPU time (clock_gettime CLOCK_PROCESS_CPUTIME_ID) per
    particle-substep, pair + wall contacts per CPU second, Newton
    iterations of the pair narrow phase (mean per detection, max),
    detection failures, resident memory (VmRSS of /proc/self/status) after
    the run minus before building the system, per particle.

Usage
    superellipsoidScaling --particles N --config packed|dilute [--steps S]
                          [--warmup W]

\*---------------------------------------------------------------------------*/
#include "solver/CollisionStep.H"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <iostream>
#include <random>
#include <string>

using namespace superellipsoid;

namespace
{

constexpr double halfAxis = 1e-3;               // c [m]
constexpr double substep = 1e-5;                // h [s]
constexpr int substepsPerStep = 10;
constexpr double restitution = 0.2;

double cpuSeconds()
{
    timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return double(t.tv_sec) + 1e-9*double(t.tv_nsec);
}

//- Resident set size [bytes] (Linux), 0 if unavailable
double residentBytes()
{
    std::ifstream status("/proc/self/status");
    std::string key;
    while (status >> key)
    {
        if (key == "VmRSS:")
        {
            double kb = 0;
            status >> kb;
            return 1024*kb;
        }
        std::getline(status, key);
    }
    return 0;
}

WallFace boxFace(const Vector3& centre, const Vector3& u, const Vector3& v)
{
    Vector3 pts[4] = {centre - u - v, centre + u - v, centre + u + v, centre - u + v};
    return WallFace::fromVertices(pts, 4);
}

ParticleSystem lattice(int n, bool packed)
{
    ParticleSystem s;
    s.shapes.emplace_back(1.3*halfAxis, 1.1*halfAxis, halfAxis, 0.5, 0.7);
    const Superellipsoid& shape = s.shapes[0];
    std::mt19937_64 rng(42);
    std::uniform_real_distribution<double> u(-1, 1);
    const int side = int(std::ceil(std::cbrt(double(n))));
    const double spacing = (packed ? 2.05 : 5.0)*shape.a();
    const double speed = packed ? 0.01 : 0.1;
    for (int i = 0; i < n; ++i)
    {
        Pose p;
        p.position = spacing*Vector3(i % side, (i/side) % side, i/(side*side));
        p.orientation = randomOrientation(rng);
        s.particles.push_back(makeParticle(i, 0, shape, 1000, p, speed*Vector3(u(rng), u(rng), u(rng))));
    }
    if (packed)
    {
        // Closed box: floor just touching the bottom layer's lowest points
        // (a particle's lowest point is at most its bounding radius below
        // its centre), sides and lid half a spacing outside the lattice
        const double R = shape.boundingRadius();
        const double lo = -0.5*spacing, hi = (side - 0.5)*spacing;
        const double nLayers = std::ceil(double(n)/(side*side));
        const double top = (nLayers - 0.5)*spacing + R;
        const double floorZ = -shape.c();
        const Vector3 mid(0.5*(lo + hi), 0.5*(lo + hi), 0.5*(floorZ + top));
        const double hx = 0.5*(hi - lo), hz = 0.5*(top - floorZ);
        auto add = [&](const Vector3& c, const Vector3& a, const Vector3& b, const Vector3& inward)
        {
            WallFace f = boxFace(c, a, b);
            if (f.normal.dot(inward) < 0) f = boxFace(c, b, a);
            s.walls.add(f, 0);
        };
        add(Vector3(mid.x(), mid.y(), floorZ), Vector3(hx, 0, 0), Vector3(0, hx, 0), Vector3::UnitZ());
        add(Vector3(mid.x(), mid.y(), top), Vector3(hx, 0, 0), Vector3(0, hx, 0), -Vector3::UnitZ());
        add(Vector3(lo, mid.y(), mid.z()), Vector3(0, hx, 0), Vector3(0, 0, hz), Vector3::UnitX());
        add(Vector3(hi, mid.y(), mid.z()), Vector3(0, hx, 0), Vector3(0, 0, hz), -Vector3::UnitX());
        add(Vector3(mid.x(), lo, mid.z()), Vector3(hx, 0, 0), Vector3(0, 0, hz), Vector3::UnitY());
        add(Vector3(mid.x(), hi, mid.z()), Vector3(hx, 0, 0), Vector3(0, 0, hz), -Vector3::UnitY());
    }
    return s;
}

//- The command line (Usage)
struct Options
{
    int n = 1000, steps = 20, warmup = 2;
    std::string config = "packed";
};

//- Reads the command line into o; -1 to go on, else the exit status
int parseOptions(int argc, char** argv, Options& o)
{
    for (int i = 1; i < argc; ++i)
    {
        const std::string arg = argv[i];
        auto value = [&]() -> std::string
        {
            if (i + 1 >= argc) { std::cerr << "missing value for " << arg << "\n"; std::exit(1); }
            return argv[++i];
        };
        if (arg == "--particles") o.n = std::atoi(value().c_str());
        else if (arg == "--config") o.config = value();
        else if (arg == "--steps") o.steps = std::atoi(value().c_str());
        else if (arg == "--warmup") o.warmup = std::atoi(value().c_str());
        else
        {
            std::cerr << "usage: " << argv[0]
                      << " --particles N --config packed|dilute [--steps S] [--warmup W]\n";
            return arg == "--help" ? 0 : 1;
        }
    }
    if (o.n < 1 || o.steps < 1 || o.warmup < 0 || (o.config != "packed" && o.config != "dilute"))
    {
        std::cerr << "invalid --particles " << o.n << ", --steps " << o.steps << ", --warmup " << o.warmup
                  << " or --config " << o.config << "\n";
        return 1;
    }
    return -1;
}

//- Frictionless impulse law eps_n for pairs and walls, fixed substeps;
//  gravity for the packed lattice
CollisionSettings scalingSettings(bool packed)
{
    CollisionSettings settings;
    settings.pairLaw = ImpulseLaw::frictionless(restitution);
    settings.wallLaw = ImpulseLaw::frictionless(restitution);
    settings.fixedSubsteps = substepsPerStep;
    if (packed) settings.gravity = Vector3(0, 0, -9.81);
    return settings;
}

//- What the timed steps add up
struct Totals
{
    CollisionDiagnostics total;
    long substeps = 0, pairContacts = 0, wallContacts = 0;
    int maxSweeps = 0, maxResting = 0;
    double cpu = 0;
};

//- steps steps of dt, timed by process CPU time
Totals timedSteps(CollisionStep& step, ParticleSystem& system, double dt, int steps)
{
    Totals r;
    const double t0 = cpuSeconds();
    for (int k = 0; k < steps; ++k)
    {
        const CollisionDiagnostics d = step.advance(system, dt);
        r.substeps += d.substeps;
        r.pairContacts += d.pairContacts;
        r.wallContacts += d.wallContacts;
        r.maxSweeps = std::max(r.maxSweeps, d.maxSweeps);
        r.maxResting = std::max(r.maxResting, d.maxRestingSweeps);
        r.total.detection += d.detection;
        r.total.wallDetection += d.wallDetection;
        r.total.candidatePairs += d.candidatePairs;
        r.total.pairCollisions += d.pairCollisions;
        r.total.wallCollisions += d.wallCollisions;
    }
    r.cpu = cpuSeconds() - t0;
    return r;
}

} // namespace


int main(int argc, char** argv)
{
    Options o;
    if (const int status = parseOptions(argc, argv, o); status >= 0)
    {
        return status;   // --help or a bad option
    }
    const int n = o.n;
    const bool packed = o.config == "packed";

    const double rss0 = residentBytes();
    ParticleSystem system = lattice(n, packed);
    CollisionStep step(scalingSettings(packed));
    const double dt = substepsPerStep*substep;

    for (int k = 0; k < o.warmup; ++k) step.advance(system, dt);

    const Totals r = timedSteps(step, system, dt, o.steps);
    const CollisionDiagnostics& total = r.total;
    const double cpu = r.cpu;
    const double rss = residentBytes();
    const double particleSubsteps = double(n)*double(r.substeps);
    int lost = 0;
    for (const Particle& p : system.particles) lost += !p.pose.position.allFinite();

    std::printf("config=%s N=%d substeps=%ld cpu_s=%.4f us_per_particle_substep=%.4f "
                "us_per_substep=%.2f contacts_per_particle=%.3f contacts_per_s=%.4g "
                "candidates_per_particle=%.3f impulses_per_particle_substep=%.3f "
                "newton_mean=%.3f newton_max=%d failures=%ld fallbacks=%ld "
                "max_sweeps=%d max_resting_sweeps=%d bytes_per_particle=%.0f nonfinite=%d\n",
                o.config.c_str(), n, r.substeps, cpu, 1e6*cpu/particleSubsteps, 1e6*cpu/double(r.substeps),
                double(r.pairContacts + r.wallContacts)/particleSubsteps,
                double(r.pairContacts + r.wallContacts)/std::max(cpu, 1e-12),
                double(total.candidatePairs)/particleSubsteps,
                double(total.pairCollisions + total.wallCollisions)/particleSubsteps,
                total.detection.meanIterations(), total.detection.maxIterations,
                total.detection.failures + total.wallDetection.failures,
                total.detection.fallbacks + total.wallDetection.fallbacks,
                r.maxSweeps, r.maxResting, (rss - rss0)/n, lost);
    return lost == 0 ? 0 : 2;
}
