/*---------------------------------------------------------------------------*\
Application
    superellipsoidFilling

Description
    OpenFOAM-free demo of the multi-particle collision step ([Wedel2023]
    Sect. 5.3, the cylinderFilling tutorial without fluid): particles dropped
    into a vertical cylinder D = 0.057 m (faceted: nSides side faces and a
    floor fan of nSides triangles), eps_n = 0.2, frictionless (--mu: Coulomb
    friction), Dt = 1e-5 s (--step; --substeps N per step, 0: from physics),
    rho = 1000 kg/m^3, gravity; random non-overlapping start positions and
    random orientations (or --lattice: a jittered lattice); runs until at
    rest (kinetic energy below restFraction of its peak) or a time cap.

Usage
    superellipsoidFilling [--shape sphere|prolate|oblate|cube|diamond|cylinder]
                          [--particles N] [--tmax T] [--quick] [--seed S]
                          [--output prefix] [--mu M] [--step DT] [--substeps N]
                          [--resting-fraction F] [--lattice]
                          [--half-axis C] [--eps E] [--resting-sweeps N]
                          [--resting-energy E] [--plain-relax] [--momentum]

    --mu M       Coulomb friction coefficient of pairs and walls (default 0)
    --step DT    step of CollisionStep::advance (default 1e-5 s, the seed's)
    --substeps N substeps per step; 0 (default): from physics, the largest
                 displacement per substep <= 0.1 of the smallest half axis
                 and, while contacts rest, |g| h^2 <= F c (CollisionStep.H)
    --resting-fraction F  restingDisplacementFraction (default 1e-4; 0: off)
    --quick      30 particles injected below 0.15 m, tmax 1 s
    --lattice    start on a jittered lattice instead of random insertion:
                 12 per layer (a 4 x 4 square of spacing 12.5 mm centred
                 on the axis, without its corners), layers 12.5 mm apart
                 from z = 1 cm, centres jittered uniformly by +-0.2 mm in
                 x and y (bodies up to 12.1 mm across never overlap),
                 random orientations
    --half-axis C  smallest half axis c [m] instead of d_eq = 1 cm
    --eps E      eps1 = eps2 = E (blockiness 2/E) instead of the shape's
    --resting-sweeps N  maxRestingSweeps, the cap of the relax sweeps per
                 substep (default 200, ContactSolver.H)
    --resting-energy E  restingEnergyTolerance, the relax's stop on a
                 sweep's energy (default 0: off, ContactSolver.H)
    --plain-relax  relax passes without load propagation and face blocks
                 (propagateLoads and blockFaces off: per-point Gauss-Seidel)
    --momentum   restingMomentum: a conjugate-gradient momentum step after
                 each relax sweep (ContactSolverMomentum.C)
    --output P   writes P_energy.csv (kinetic and potential energy m g z,
                 and the collision diagnostics, every 1e-3 s), P_particles.csv (final state:
                 id, position, quaternion w x y z, half axes a b c, eps1
                 eps2, velocity, angular velocity), P.vtp (VTK PolyData of
                 the triangulated true shapes, cell data particleId and
                 shapeId; ParaView opens it without plugins) and
                 P_particles.vtp (centres with orientation, half axes, eps,
                 velocity, angular velocity; glyphs, OVITO), written by
                 src/core/output (docs/visualisation.md).
                 Default prefix: filling_<shape>.

    Shapes (lambda1 = a/c, lambda2 = b/c, eps1, eps2; the seed's Table 2
    values are not in its text, these are representative choices):
      sphere   (1, 1, 1, 1)       prolate  (2, 1, 1, 1)    aspect 2:1:1
      oblate   (2, 2, 1, 1)       aspect 2:2:1
      cube     (1, 1, 0.2, 0.2)   diamond  (1, 1, 1.6, 1.6)
      cylinder (1, 1, 0.2, 1)     circular section, flat ends, length 2c = diameter

\*---------------------------------------------------------------------------*/
#include "output/VtkPolyData.H"
#include "solver/CollisionStep.H"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <iostream>
#include <map>
#include <random>
#include <string>
#include <vector>

using namespace superellipsoid;

namespace
{

constexpr double pi = 3.14159265358979323846;
constexpr double cylinderDiameter = 0.057;     // [m], Sect. 5.3
constexpr double cylinderLength = 0.4;         // [m]
constexpr int nSides = 64;                     // side faces
constexpr double equivalentDiameter = 0.01;    // d_eq [m]
constexpr double particleDensity = 1000;       // [kg/m^3]
constexpr double restitution = 0.2;            // eps_n, wall and pair
constexpr double seedTimeStep = 1e-5;          // Dt [s] of Sect. 5.3 (default)
constexpr double gravity = 9.81;               // [m/s^2]
constexpr double restFraction = 1e-6;          // at rest: KE < restFraction * peak KE
constexpr double progressInterval = 0.1;       // [s] between progress lines
constexpr double historyInterval = 1e-3;       // [s] between energy-history rows
constexpr int meshEta = 12, meshOmega = 24;    // triangulation of each particle (VTP)

//- Shape in units of c: lambda1 = a/c, lambda2 = b/c, eps1, eps2 (Table 2
//  values are not in the text; representative choices, documented in
//  docs/collision-step.md)
struct ShapeSpec { double lambda1, lambda2, eps1, eps2; };

const std::map<std::string, ShapeSpec> shapeTable =
{
    {"sphere",   {1.0, 1.0, 1.0, 1.0}},
    {"prolate",  {2.0, 1.0, 1.0, 1.0}},
    {"oblate",   {2.0, 2.0, 1.0, 1.0}},
    {"cube",     {1.0, 1.0, 0.2, 0.2}},
    {"diamond",  {1.0, 1.0, 1.6, 1.6}},
    {"cylinder", {1.0, 1.0, 0.2, 1.0}}
};

//- The shape at c = halfAxis, or (halfAxis 0) at d_eq = equivalentDiameter
Superellipsoid scaledShape(const ShapeSpec& s, double halfAxis)
{
    // c from V(a, b, c) = c^3 V(lambda1, lambda2, 1) = pi d_eq^3 / 6
    const double unitVolume = Superellipsoid::volumeFormula(s.lambda1, s.lambda2, 1.0, s.eps1, s.eps2);
    const double c = halfAxis > 0 ? halfAxis : std::cbrt(pi*std::pow(equivalentDiameter, 3)/6/unitVolume);
    return Superellipsoid(s.lambda1*c, s.lambda2*c, c, s.eps1, s.eps2);
}

//- --lattice (Usage): n bodies of shape 0 at rest on the jittered lattice;
//  false if bodies of the shape could overlap there
bool latticeStart(ParticleSystem& system, int n, std::mt19937_64& rng)
{
    constexpr double spacing = 12.5e-3, jitter = 0.2e-3, firstLayer = 0.01;
    const Superellipsoid& shape = system.shapes[0];
    if (2*shape.boundingRadius() > spacing - 2*jitter) return false;
    std::uniform_real_distribution<double> u(-jitter, jitter);
    for (int k = 0; system.size() < n; ++k)
    {
        const int layer = k/12, site = k % 12;
        // 4 x 4 square without its corners: sites 1, 2, 4..11, 13, 14
        const int cell = site < 2 ? site + 1 : site < 10 ? site + 2 : site + 3;
        const double x = (cell % 4 - 1.5)*spacing, y = (cell/4 - 1.5)*spacing;
        Pose pose;
        pose.position = Vector3(x + u(rng), y + u(rng), firstLayer + layer*spacing);
        pose.orientation = randomOrientation(rng);
        system.particles.push_back(makeParticle(system.size(), 0, shape, particleDensity, pose));
    }
    return true;
}

//- Face with its normal pointing towards 'inside' (vertex order flipped if needed)
WallFace inwardFace(Vector3 pts[], int n, const Vector3& inside)
{
    WallFace f = WallFace::fromVertices(pts, n);
    if (f.normal.dot(inside - pts[0]) < 0)
    {
        for (int i = 0; i < n/2; ++i) std::swap(pts[i], pts[n - 1 - i]);
        f = WallFace::fromVertices(pts, n);
    }
    return f;
}

void addCylinder(WallSet& walls)
{
    const double R = 0.5*cylinderDiameter;
    const Vector3 axisPoint(0, 0, 0.5*cylinderLength);
    for (int k = 0; k < nSides; ++k)
    {
        const double t0 = 2*pi*k/nSides, t1 = 2*pi*(k + 1)/nSides;
        const Vector3 p0(R*std::cos(t0), R*std::sin(t0), 0), p1(R*std::cos(t1), R*std::sin(t1), 0);
        const Vector3 up(0, 0, cylinderLength);
        Vector3 side[4] = {p0, p1, p1 + up, p0 + up};
        walls.add(inwardFace(side, 4, axisPoint), 0);           // patch 0: side
        Vector3 floor[3] = {Vector3::Zero(), p0, p1};
        walls.add(inwardFace(floor, 3, axisPoint), 1);          // patch 1: floor
    }
}

//- Height of the particle top: OBB half extent along z, sum_k h_k |e_k . z|
double topOf(const Particle& p, const Superellipsoid& s)
{
    const Matrix3 Q = p.pose.particleToGlobal();
    return p.pose.position.z() + s.a()*std::abs(Q(2, 0)) + s.b()*std::abs(Q(2, 1)) + s.c()*std::abs(Q(2, 2));
}

//- Potential energy in gravity, sum m g z (floor z = 0)
double potentialEnergy(const ParticleSystem& system)
{
    double e = 0;
    for (const Particle& p : system.particles) e += p.mass*gravity*p.pose.position.z();
    return e;
}

//- Final state, one particle per row
void writeParticles(const std::string& file, const ParticleSystem& system)
{
    std::ofstream os(file);
    os.precision(12);
    os << "id,x,y,z,qw,qx,qy,qz,a,b,c,eps1,eps2,vx,vy,vz,omegaX,omegaY,omegaZ\n";
    for (const Particle& p : system.particles)
    {
        const Superellipsoid& s = system.shapes[p.shapeIndex];
        const Vector3& x = p.pose.position;
        const Quaternion& q = p.pose.orientation;
        const Vector3 w = globalAngularVelocity(p);
        os << p.id << ',' << x.x() << ',' << x.y() << ',' << x.z() << ',' << q.w() << ',' << q.x() << ','
           << q.y() << ',' << q.z() << ',' << s.a() << ',' << s.b() << ',' << s.c() << ',' << s.eps1() << ','
           << s.eps2() << ',' << p.velocity.x() << ',' << p.velocity.y() << ',' << p.velocity.z() << ','
           << w.x() << ',' << w.y() << ',' << w.z() << "\n";
    }
}

//- VTK PolyData of the final state (src/core/output): true surfaces
//  (P.vtp) and particle centres with their state (P_particles.vtp)
void writeVtp(const std::string& prefix, const ParticleSystem& system)
{
    std::vector<VtkParticle> particles;
    for (const Particle& p : system.particles)
    {
        VtkParticle v;
        v.id = p.id;
        v.shapeId = p.shapeIndex;
        v.pose = p.pose;
        v.velocity = p.velocity;
        v.angularVelocity = globalAngularVelocity(p);
        particles.push_back(v);
    }
    writeSurfacesVtp(prefix + ".vtp", particles, system.shapes, SurfaceResolution{meshEta, meshOmega});
    writeParticlesVtp(prefix + "_particles.vtp", particles, system.shapes);
}

//- The command line (Usage)
struct Options
{
    std::string shapeName = "cube", prefix;
    int nParticles = 100;
    double tMax = 1.5, injectionHeight = cylinderLength, timeStep = seedTimeStep, mu = 0;
    int substeps = 0;
    double restingFraction = CollisionSettings().restingDisplacementFraction;
    double halfAxis = 0, eps = 0;
    int restingSweeps = CollisionSettings().maxRestingSweeps;
    double restingEnergy = CollisionSettings().restingEnergyTolerance;
    bool lattice = false, plainRelax = false, momentum = false;
    std::uint64_t seed = 1;
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
        if (arg == "--shape") o.shapeName = value();
        else if (arg == "--particles") o.nParticles = std::atoi(value().c_str());
        else if (arg == "--tmax") o.tMax = std::atof(value().c_str());
        else if (arg == "--seed") o.seed = std::strtoull(value().c_str(), nullptr, 10);
        else if (arg == "--output") o.prefix = value();
        else if (arg == "--mu") o.mu = std::atof(value().c_str());
        else if (arg == "--step") o.timeStep = std::atof(value().c_str());
        else if (arg == "--substeps") o.substeps = std::atoi(value().c_str());
        else if (arg == "--resting-fraction") o.restingFraction = std::atof(value().c_str());
        else if (arg == "--lattice") o.lattice = true;
        else if (arg == "--plain-relax") o.plainRelax = true;
        else if (arg == "--momentum") o.momentum = true;
        else if (arg == "--half-axis") o.halfAxis = std::atof(value().c_str());
        else if (arg == "--eps") o.eps = std::atof(value().c_str());
        else if (arg == "--resting-sweeps") o.restingSweeps = std::atoi(value().c_str());
        else if (arg == "--resting-energy") o.restingEnergy = std::atof(value().c_str());
        else if (arg == "--quick") { o.nParticles = 30; o.injectionHeight = 0.15; o.tMax = 1.0; }
        else
        {
            std::cerr << "usage: " << argv[0] << " [--shape sphere|prolate|oblate|cube|diamond|cylinder]"
                      << " [--particles N] [--tmax T] [--quick] [--seed S] [--output prefix]"
                      << " [--mu M] [--step DT] [--substeps N] [--resting-fraction F]"
                      << " [--lattice] [--half-axis C] [--eps E] [--resting-sweeps N]"
                      << " [--resting-energy E] [--plain-relax] [--momentum]\n";
            return arg == "--help" ? 0 : 1;
        }
    }
    if (!shapeTable.count(o.shapeName) || o.nParticles < 1 || !(o.tMax > 0) || !(o.mu >= 0)
     || !(o.timeStep > 0) || o.substeps < 0 || !(o.halfAxis >= 0) || !(o.eps >= 0 && o.eps <= 2)
     || o.restingSweeps < 0 || !(o.restingEnergy >= 0 && o.restingEnergy <= 1))
    {
        std::cerr << "invalid --shape " << o.shapeName << ", --particles " << o.nParticles
                  << ", --tmax " << o.tMax << ", --mu " << o.mu << ", --step " << o.timeStep
                  << ", --substeps " << o.substeps << ", --half-axis " << o.halfAxis
                  << ", --eps " << o.eps << ", --resting-sweeps " << o.restingSweeps
                  << " or --resting-energy " << o.restingEnergy << "\n";
        return 1;
    }
    return -1;
}

//- Fills system with n bodies of shape 0 at random positions below height
//  whose bounding spheres do not overlap (random sequential insertion),
//  after those that latticeStart placed; false if they do not fit
bool insertParticles
(
    ParticleSystem& system,
    int n,
    double height,
    std::mt19937_64& rng
)
{
    const Superellipsoid& shape = system.shapes[0];
    const double Rb = shape.boundingRadius(), R = 0.5*cylinderDiameter*std::cos(pi/nSides);
    std::uniform_real_distribution<double> u(0, 1);
    for (int attempts = 0; system.size() < n; ++attempts)
    {
        if (attempts > 1000000) return false;
        const double r = (R - Rb)*std::sqrt(u(rng)), phi = 2*pi*u(rng);
        const Vector3 x(r*std::cos(phi), r*std::sin(phi), Rb + (height - 2*Rb)*u(rng));
        bool free = true;
        for (const Particle& q : system.particles) free = free && (q.pose.position - x).norm() > 2*Rb;
        if (!free) continue;
        Pose pose;
        pose.position = x;
        pose.orientation = randomOrientation(rng);
        system.particles.push_back(makeParticle(system.size(), 0, shape, particleDensity, pose));
    }
    return true;
}

//- The collision settings of the options: impulse law eps_n (and mu) for
//  pairs and walls, gravity, substeps and the relax passes' settings
CollisionSettings fillingSettings(const Options& o)
{
    CollisionSettings settings;
    settings.pairLaw = o.mu > 0
      ? ImpulseLaw::withFriction(restitution, o.mu) : ImpulseLaw::frictionless(restitution);
    settings.wallLaw = settings.pairLaw;
    settings.gravity = Vector3(0, 0, -gravity);
    settings.fixedSubsteps = o.substeps;
    settings.restingDisplacementFraction = o.restingFraction;
    settings.maxRestingSweeps = o.restingSweeps;
    settings.restingEnergyTolerance = o.restingEnergy;
    settings.propagateLoads = settings.blockFaces = !o.plainRelax;
    settings.restingMomentum = o.momentum;
    return settings;
}

//- What the run adds up over its steps for the summary
struct RunTotals
{
    double t = 0, cpu = 0, peakEnergy = 0, maxOverlapRatio = 0, lastOverlapRatio = 0;
    long particleSubsteps = 0, totalSubsteps = 0, steps = 0, failures = 0, fallbacks = 0, maxNewton = 0;
    int maxStepSubsteps = 0;
    bool atRest = false;
    CollisionDiagnostics total;

    //- Adds one step's diagnostics d of a system of n particles
    void add(const CollisionDiagnostics& d, int n)
    {
        particleSubsteps += long(d.substeps)*n;
        totalSubsteps += d.substeps;
        maxStepSubsteps = std::max(maxStepSubsteps, d.substeps);
        ++steps;
        maxOverlapRatio = std::max(maxOverlapRatio, d.maxOverlapRatio);
        lastOverlapRatio = d.maxOverlapRatio;
        failures += d.detection.failures + d.wallDetection.failures;
        fallbacks += d.detection.fallbacks + d.wallDetection.fallbacks;
        maxNewton = std::max<long>(maxNewton, d.detection.maxIterations);
        total.detection += d.detection;
        total.restingSweeps += d.restingSweeps;
        total.restingSubsteps += d.restingSubsteps;
        total.restingCapHits += d.restingCapHits;
        total.restingEnergyStops += d.restingEnergyStops;
        total.maxRestingSweeps = std::max(total.maxRestingSweeps, d.maxRestingSweeps);
        total.restingImpulses += d.restingImpulses;
        total.pairCollisions += d.pairCollisions;
        total.wallCollisions += d.wallCollisions;
        total.collisionStagnations += d.collisionStagnations;
    }
};

//- Steps of timeStep until at rest (kinetic energy below restFraction of
//  its peak) or tMax, writing the energy history to csv and a progress line
//  every progressInterval
RunTotals runFilling
(
    ParticleSystem& system,
    CollisionStep& step,
    double timeStep,
    double tMax,
    std::ofstream& csv
)
{
    RunTotals r;
    const std::clock_t start = std::clock();
    const long historySteps = std::max(1L, std::lround(historyInterval/timeStep));
    const long progressSteps = std::max(1L, std::lround(progressInterval/timeStep));
    for (long n = 1; r.t < tMax - 0.5*timeStep; ++n)
    {
        const CollisionDiagnostics d = step.advance(system, timeStep);
        r.t += timeStep;
        r.add(d, system.size());
        const double energy = d.translationalEnergy + d.rotationalEnergy;
        r.peakEnergy = std::max(r.peakEnergy, energy);
        if (n % historySteps == 0)
        {
            csv << r.t << ',' << energy << ',' << energy/std::max(r.peakEnergy, 1e-300) << ','
                << potentialEnergy(system) << ',' << d.csvRow() << "\n";
        }
        if (n % progressSteps == 0)
        {
            std::printf("t = %.4f s  KE = %.3e J (%.1e of peak)  %s\n", r.t, energy,
                        energy/std::max(r.peakEnergy, 1e-300), d.summary().c_str());
        }
        // At rest: below restFraction of the peak after the pile has formed
        // (a falling cloud never satisfies it: its energy grows until impact)
        if (r.t > 0.05 && energy < restFraction*r.peakEnergy)
        {
            r.atRest = true;
            break;
        }
    }
    r.cpu = double(std::clock() - start)/CLOCKS_PER_SEC;
    return r;
}

//- The summary of the run; the number of particles lost (not finite, or
//  outside the cylinder)
int printSummary
(
    const Options& o,
    const ParticleSystem& system,
    const RunTotals& r
)
{
    const Superellipsoid& shape = system.shapes[0];
    int lost = 0;
    double fillHeight = 0;
    for (const Particle& p : system.particles)
    {
        const Vector3& x = p.pose.position;
        if (!x.allFinite() || std::hypot(x.x(), x.y()) > 0.5*cylinderDiameter || x.z() < 0) ++lost;
        fillHeight = std::max(fillHeight, topOf(p, shape));
    }
    const double packing = system.size()*shape.volume()/(0.25*pi*cylinderDiameter*cylinderDiameter*fillHeight);
    const CollisionDiagnostics& total = r.total;
    std::printf("\nsummary (%s, %d particles)\n", o.shapeName.c_str(), system.size());
    std::printf("  simulated time          %.4f s (%s)\n", r.t, r.atRest ? "at rest: KE < 1e-6 of peak" : "time cap");
    std::printf("  filling height          %.4f m (top of the highest particle)\n", fillHeight);
    std::printf("  packing fraction        %.3f (N V_p / (pi D^2/4 H))\n", packing);
    std::printf("  largest overlap / c     %.3e over the run, %.3e in the last step\n",
                r.maxOverlapRatio, r.lastOverlapRatio);
    std::printf("  particles lost          %d\n", lost);
    std::printf("  impulses pair / wall    %ld / %ld; %ld frictional multi-point collisions stagnated\n",
                total.pairCollisions, total.wallCollisions, total.collisionStagnations);
    std::printf("  Newton iterations       mean %.2f, max %ld; failures %ld, fallbacks %ld\n",
                total.detection.meanIterations(), r.maxNewton, r.failures, r.fallbacks);
    std::printf("  resting sweeps          mean %.2f, max %d per substep; %ld of %ld substeps capped; "
                "%.3g resting impulses per substep; %ld stopped on the energy\n",
                total.meanRestingSweeps(), total.maxRestingSweeps, total.restingCapHits, total.restingSubsteps,
                double(total.restingImpulses)/std::max(total.restingSubsteps, 1L), total.restingEnergyStops);
    std::printf("  substeps per step       mean %.2f, max %d (step %.1e s)\n",
                double(r.totalSubsteps)/std::max(r.steps, 1L), r.maxStepSubsteps, o.timeStep);
    std::printf("  CPU time                %.2f s, %.3f us per particle-substep, %.1f s per simulated s\n",
                r.cpu, 1e6*r.cpu/std::max(r.particleSubsteps, 1L), r.cpu/std::max(r.t, 1e-300));
    return lost;
}

} // namespace


int main(int argc, char** argv)
{
    Options o;
    const int status = parseOptions(argc, argv, o);
    if (status >= 0) return status;

    ParticleSystem system;
    ShapeSpec spec = shapeTable.at(o.shapeName);
    if (o.eps > 0) spec.eps1 = spec.eps2 = o.eps;
    system.shapes.push_back(scaledShape(spec, o.halfAxis));
    const Superellipsoid& shape = system.shapes[0];
    addCylinder(system.walls);

    std::mt19937_64 rng(o.seed);
    if (o.lattice && !latticeStart(system, o.nParticles, rng))
    {
        std::cerr << "--lattice: bodies of bounding radius " << shape.boundingRadius()
                  << " m do not fit the lattice\n";
        return 1;
    }
    if (!insertParticles(system, o.nParticles, o.injectionHeight, rng))
    {
        std::cerr << "could not insert " << o.nParticles << " particles without overlap\n";
        return 1;
    }

    CollisionStep step(fillingSettings(o));
    std::printf("superellipsoidFilling: %d x %s (a, b, c) = (%.4g, %.4g, %.4g) m, eps = (%.2g, %.2g), "
                "d_eq = %.3g m, cylinder D = %.3g m with %d side + %d floor faces, eps_n = %.2g, "
                "mu = %.2g, Dt = %.1e s, substeps %s\n",
                o.nParticles, o.shapeName.c_str(), shape.a(), shape.b(), shape.c(), shape.eps1(),
                shape.eps2(), equivalentDiameter, cylinderDiameter, nSides, nSides, restitution, o.mu,
                o.timeStep, o.substeps > 0 ? std::to_string(o.substeps).c_str() : "from physics (0.1 c per substep)");

    const std::string prefix = o.prefix.empty() ? "filling_" + o.shapeName : o.prefix;
    std::ofstream csv(prefix + "_energy.csv");
    csv << "time,kineticEnergy,kineticEnergyByPeak,potentialEnergy," << CollisionDiagnostics::csvHeader() << "\n";
    csv.precision(12);

    const RunTotals totals = runFilling(system, step, o.timeStep, o.tMax, csv);
    const int lost = printSummary(o, system, totals);
    std::printf("  kinetic-energy history  %s_energy.csv\n", prefix.c_str());
    writeParticles(prefix + "_particles.csv", system);
    writeVtp(prefix, system);
    std::printf("  final states            %s_particles.csv, %s.vtp (true shapes), %s_particles.vtp\n"
                "                          (centres with orientation, half axes, eps: ParaView, OVITO)\n",
                prefix.c_str(), prefix.c_str(), prefix.c_str());
    return lost == 0 ? 0 : 2;
}
