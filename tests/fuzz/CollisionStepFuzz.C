// Fuzz target: the multi-particle collision step (src/core/solver,
// CollisionStep.H): 2-8 particles of 1-3 shapes in a cluster (possibly
// overlapping deeply, coincident centres), with no walls, a floor, a closed
// box or tilted faces (possibly cutting through particles), impulse or
// soft-contact model with random laws and settings, one or two steps.
// Checks: the step returns (no exception for a valid system: a non-finite
// state would throw), every state finite, |e| = 1, diagnostics finite and
// consistent; without walls and body forces the impulse model conserves
// linear momentum and, for axisymmetric inertia (exact free rotation), does
// not increase the kinetic energy.
#include "FuzzInput.H"

#include "solver/CollisionStep.H"

#include <vector>

using namespace superellipsoid;
using namespace superellipsoid::fuzz;

namespace
{

//- Substeps per step above which dt is shortened (run time per input)
constexpr int maxFuzzSubsteps = 64;

WallFace quad(const Vector3& c, const Vector3& u, const Vector3& v)
{
    const Vector3 pts[4] = {c - u - v, c + u - v, c + u + v, c - u + v};
    return WallFace::fromVertices(pts, 4);
}

//- Closed box [lo, hi], normals into the box
void addBox(WallSet& walls, const Vector3& lo, const Vector3& hi, const Vector3& wallVelocity)
{
    const Vector3 c = 0.5*(lo + hi), h = 0.5*(hi - lo);
    const Vector3 ex = Vector3::UnitX(), ey = Vector3::UnitY(), ez = Vector3::UnitZ();
    walls.add(quad(Vector3(c.x(), c.y(), lo.z()), h.x()*ex, h.y()*ey), 0, wallVelocity);
    walls.add(quad(Vector3(c.x(), c.y(), hi.z()), h.y()*ey, h.x()*ex), 1);
    walls.add(quad(Vector3(lo.x(), c.y(), c.z()), h.y()*ey, h.z()*ez), 2);
    walls.add(quad(Vector3(hi.x(), c.y(), c.z()), h.z()*ez, h.y()*ey), 3);
    walls.add(quad(Vector3(c.x(), lo.y(), c.z()), h.z()*ez, h.x()*ex), 4);
    walls.add(quad(Vector3(c.x(), hi.y(), c.z()), h.x()*ex, h.z()*ez), 5);
}

//- Relative asymmetry of the two closest moments (0: symmetric top)
double inertiaAsymmetry(const Vector3& I)
{
    const double d01 = std::abs(I(0) - I(1)), d12 = std::abs(I(1) - I(2)), d02 = std::abs(I(0) - I(2));
    return std::min({d01, d12, d02})/I.maxCoeff();
}

void checkState(const ParticleSystem& s)
{
    for (const Particle& p : s.particles)
    {
        requireFinite(p.pose.position, "position finite");
        requireFinite(p.velocity, "velocity finite");
        requireFinite(p.angularVelocity, "angular velocity finite");
        requireFinite(p.contactForce, "contact force finite");
        requireFinite(p.contactTorque, "contact torque finite");
        require(p.pose.orientation.coeffs().allFinite(), "orientation finite");
        require(std::abs(p.pose.orientation.norm() - 1) <= 1e-12, "|e| = 1", p.pose.orientation.norm() - 1);
    }
}

void checkDiagnostics(const CollisionDiagnostics& d, int substeps)
{
    require(d.substeps == substeps, "diagnostics count the substeps", d.substeps);
    for (long x : {d.pairContacts, d.wallContacts, d.pairCollisions, d.wallCollisions, d.sweepCapHits,
                   d.restingCapHits, d.restingImpulses, d.candidatePairs, d.obbRejections,
                   d.localMinimumRestarts, d.detection.failures, d.wallDetection.failures})
    {
        require(x >= 0, "diagnostic counter >= 0", double(x));
    }
    require(d.detection.detections == d.detection.touching + d.detection.separated + d.detection.failures,
            "every detection has a status", double(d.detection.detections));
    requireFinite(d.maxOverlapRatio, "max overlap ratio finite");
    require(d.maxOverlapRatio >= 0, "max overlap ratio >= 0", d.maxOverlapRatio);
    requireFinite(d.translationalEnergy, "translational energy finite");
    requireFinite(d.rotationalEnergy, "rotational energy finite");
}

} // namespace


extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    Input in(data, size);
    ParticleSystem s;
    const double c0 = in.logUniform(1e-5, 1);
    const int nShapes = in.integer(1, 3);
    for (int k = 0; k < nShapes; ++k) s.shapes.push_back(in.shape(c0, 10*c0));
    double rMax = 0;
    for (const Superellipsoid& sh : s.shapes) rMax = std::max(rMax, sh.boundingRadius());

    // Cluster: box of side ~ (n)^(1/3) bounding diameters times a density
    // factor (0.3: deep overlaps, 3: dilute)
    const int n = in.integer(2, 8);
    const double side = 2*rMax*std::cbrt(double(n))*in.logUniform(0.3, 3);
    const double speedScale = c0*in.logUniform(1e-2, 1e4);      // [m/s]: sizes per second
    for (int i = 0; i < n; ++i)
    {
        Pose pose;
        pose.position = (i > 0 && in.byte() % 8 == 0) ? s.particles[i - 1].pose.position   // coincident
                      : Vector3(0.5*side*in.uniformVector(-1, 1));
        pose.orientation = in.orientation();
        const int shapeIndex = in.integer(0, nShapes - 1);
        const Vector3 v = in.vector(1e-3, 10)*speedScale;
        const Vector3 w = in.vector(1e-3, 10)*speedScale/c0;
        s.particles.push_back
        (
            makeParticle(100 - 7*i, shapeIndex, s.shapes[shapeIndex], in.logUniform(1, 1e4), pose, v, w)
        );
    }

    // Walls
    const int wallMode = in.byte() % 4;
    const Vector3 wallVelocity = in.byte() % 4 == 0 ? Vector3(in.vector(1e-3, 1)*speedScale) : Vector3(Vector3::Zero());
    if (wallMode == 1)
    {
        // Floor at a height within the cluster
        const double z = 0.5*side*in.uniform(-1.2, 0.2);
        s.walls.add(quad(Vector3(0, 0, z), 2*side*Vector3::UnitX(), 2*side*Vector3::UnitY()), 0, wallVelocity);
    }
    else if (wallMode == 2)
    {
        const double half = 0.5*side*in.uniform(0.8, 1.5) + rMax;
        addBox(s.walls, -half*Vector3::Ones(), half*Vector3::Ones(), wallVelocity);
    }
    else if (wallMode == 3)
    {
        // Tilted faces around the cluster (edges and corners)
        for (int k = 0, nf = in.integer(1, 4); k < nf; ++k)
        {
            const Vector3 nrm = in.direction();
            const Vector3 u = nrm.unitOrthogonal(), v = nrm.cross(u);
            const double depth = in.uniform(0, 1.2);
            const double shift = in.uniform(-0.5, 0.5);
            const Vector3 c = -0.5*side*depth*nrm + side*shift*u;
            const double lengthU = in.logUniform(0.1, 2);
            const double lengthV = in.logUniform(0.1, 2);
            s.walls.add(quad(c, side*lengthU*u, side*lengthV*v), k, wallVelocity);
        }
    }

    // Settings
    CollisionSettings settings;
    const int model = in.byte() % 8;
    settings.model = model < 5 ? CollisionModel::impulse
                   : model < 7 ? CollisionModel::softContact : CollisionModel::none;
    settings.pairLaw = in.impulseLaw();
    settings.wallLaw = in.impulseLaw();
    settings.maxSweeps = in.integer(1, 20);
    settings.maxRestingSweeps = in.integer(0, 200);
    settings.restingSpeedFactor = in.uniform(0, 4);
    settings.restingTolerance = in.uniform(1e-3, 1);
    settings.restingOverlap = in.uniform(0, 1e-2);
    settings.overlapPasses = in.integer(1, 8);
    settings.overlapCheckRatio = in.byte() % 4 == 0 ? 0.0 : in.logUniform(1e-4, 1);
    settings.softLaw = in.softLaw();
    settings.particleMaterial = in.material();
    settings.wallMaterial = in.material();
    settings.softReferenceSpeed = in.logUniform(1e-3, 10);
    const bool bodyForce = in.flag();
    if (bodyForce) settings.gravity = in.vector(1e-3, 1e3);   // [m/s^2], g = 9.81 inside
    settings.displacementFraction = in.logUniform(0.01, 1);
    settings.fixedSubsteps = in.byte() % 4 == 0 ? in.integer(1, 10) : 0;
    settings.wallRegionAngle = in.uniform(0, pi);
    CollisionStep step(settings);

    // Step length: up to ~1000 sizes of travel; shortened so that the
    // automatic choice needs at most maxFuzzSubsteps substeps
    double dt = in.logUniform(1e-4, 1e3)*c0/speedScale;
    const int needed = step.chooseSubsteps(s, dt);
    if (needed > maxFuzzSubsteps) dt *= double(maxFuzzSubsteps)/needed;

    const bool conservative = settings.model == CollisionModel::impulse && s.walls.size() == 0 && !bodyForce;
    bool symmetricTops = true;
    for (const Particle& p : s.particles) symmetricTops = symmetricTops && inertiaAsymmetry(p.principalMoments) < 1e-14;
    const Vector3 momentum0 = linearMomentum(s);
    const double energy0 = translationalKineticEnergy(s) + rotationalKineticEnergy(s);
    double momentumScale = 0;
    for (const Particle& p : s.particles) momentumScale += p.mass*p.velocity.norm();

    for (int k = 0, nSteps = in.integer(1, 2); k < nSteps; ++k)
    {
        const int substeps = step.chooseSubsteps(s, dt);
        print("dt", dt); print("substeps", double(substeps)); print("model", double(int(settings.model)));
        print("pair law model", double(int(settings.pairLaw.tangential))); print("eps_n", settings.pairLaw.normalRestitution);
        print("mu", settings.pairLaw.frictionCoefficient); print("eps_t", settings.pairLaw.tangentialRestitution);
        for (const Superellipsoid& sh : s.shapes) print("shape", sh);
        for (const Particle& p : s.particles)
        {
            print("particle position", p.pose.position); print("  velocity", p.velocity);
            print("  omega'", p.angularVelocity); print("  mass", p.mass); print("  moments", p.principalMoments);
        }
        const CollisionDiagnostics d = step.advance(s, dt);
        if (verbose()) std::fprintf(stderr, "%s\n", d.summary().c_str());
        for (const Particle& p : s.particles) { print("after: velocity", p.velocity); print("  omega'", p.angularVelocity); }
        checkState(s);
        checkDiagnostics(d, substeps);
        if (conservative)
        {
            // Impulses are equal and opposite (Eq. 63 of [Wedel2023]); overlap removal and
            // free motion do not change momentum
            // Scale: |m v| before and after (spin can start translation)
            double scale = momentumScale;
            for (const Particle& p : s.particles) scale += p.mass*p.velocity.norm();
            const double tol = 1e-10*scale*d.substeps*(1 + d.pairCollisions);
            require((linearMomentum(s) - momentum0).norm() <= tol, "linear momentum conserved",
                    (linearMomentum(s) - momentum0).norm()/std::max(scale, 1e-300));
            if (symmetricTops)
            {
                const double energy = translationalKineticEnergy(s) + rotationalKineticEnergy(s);
                require(energy <= energy0*(1 + 1e-9*d.substeps*(1 + d.pairCollisions)),
                        "kinetic energy not increased", (energy - energy0)/energy0);
            }
        }
    }
    return 0;
}
