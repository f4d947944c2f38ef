// Resting-contact solver of the impulse model (docs/collision-step.md,
// "Resting contacts"): sequential impulses with accumulated, clamped normal
// impulses, warm-started from the pair cache. References: static equilibrium
// (each contact of a resting stack carries the weight above it) and the
// decay of a frictionless pile to rest (no neutral mode in a square box).
#include "SolverTestHelpers.H"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>

using namespace superellipsoid;
using namespace superellipsoid::test;

namespace
{

constexpr double density = 1000;
constexpr double g = 9.81;
constexpr double h = 1e-5;                  // Dt of the cylinder filling ([Wedel2023] Sect. 5.3)
constexpr double r = 5e-3;                  // d = 1 cm

double kineticEnergy(const ParticleSystem& s)
{
    return translationalKineticEnergy(s) + rotationalKineticEnergy(s);
}

CollisionSettings fillingSettings()
{
    // The filling's laws: eps_n = 0.2, frictionless (eps_t = 1), gravity
    CollisionSettings settings;
    settings.gravity = Vector3(0, 0, -g);
    settings.pairLaw = ImpulseLaw::frictionless(0.2);
    settings.wallLaw = ImpulseLaw::frictionless(0.2);
    return settings;
}

//- Column of n spheres (d = 1 cm) 2 mm apart above a floor at z = 0
ParticleSystem column(int n)
{
    ParticleSystem s;
    s.shapes.push_back(Superellipsoid::sphere(r));
    for (int i = 0; i < n; ++i)
    {
        Pose p;
        p.position = Vector3(0, 0, r + 0.002 + i*(2*r + 0.002));
        s.particles.push_back(makeParticle(i, 0, s.shapes[0], density, p));
    }
    addFloor(s.walls, 0, 0.1);
    return s;
}

//- Settle the column of column(n) for 0.3 s, run 100 more substeps and
//  check the accumulated impulse of the contact below sphere i against the
//  weight it carries, (n - i) m g h (tolerance: see the first test);
//  returns the diagnostics of the last substep
CollisionDiagnostics settleColumnAndCheckImpulses(ParticleSystem& s, const CollisionSettings& settings)
{
    const int n = int(s.particles.size());
    CollisionStep step(settings);
    for (int k = 0; k < 30000; ++k) step.advance(s, h);         // 0.3 s: at rest
    const double mgh = s.particles[0].mass*g*h;
    CollisionDiagnostics d;
    for (int k = 0; k < 100; ++k) d = step.advance(s, h);
    EXPECT_EQ(int(step.contacts().size()), n);
    for (const StepContact& c : step.contacts())
    {
        // Contact below sphere i: the floor (i = 0) or sphere i - 1 with i
        const int i = c.b < 0 ? 0 : c.b;
        EXPECT_NEAR(c.restingImpulse, (n - i)*mgh, 0.04*mgh) << "contact below sphere " << i;
        EXPECT_TRUE(c.b < 0 || c.b == c.a + 1);
    }
    return d;
}

} // namespace


TEST(RestingContactSolver, StackImpulsesCarryTheWeightAbove)
{
    // Four spheres dropped in a column onto a floor come to rest; then, in
    // every substep, the move adds -g h to every velocity and the solver must
    // take it out again: static equilibrium of the column gives the normal
    // impulse per substep of the contact below sphere i (0 = bottom) as the
    // weight it carries, (n - i) m g h. The solver stops when every contact
    // approaches slower than restingTolerance g h (1e-2 g h); the residual
    // speeds of the n contacts add up to at most n 1e-2 g h, which bounds
    // the impulse error by m n 1e-2 g h = 0.04 m g h. Warm-started from the
    // last substep, the settled column needs at most 2 sweeps per substep
    // (one to correct, one to confirm) and no restitution impulse.
    const int n = 4;
    ParticleSystem s = column(n);
    const CollisionDiagnostics d = settleColumnAndCheckImpulses(s, fillingSettings());
    EXPECT_LE(d.maxRestingSweeps, 2);
    EXPECT_EQ(d.restingCapHits, 0);
    EXPECT_EQ(d.sweepCapHits, 0);
    EXPECT_EQ(d.maxSweeps, 0);
    // At rest: residual speeds ~1e-2 g h = 1e-6 m/s
    for (const Particle& p : s.particles) EXPECT_LT(p.velocity.norm(), 0.05*g*h);
}


TEST(RestingContactSolver, NoWarmStartGivesTheSameEquilibriumWithMoreSweeps)
{
    // The warm start changes the starting point of the iteration, not its
    // solution: without it the settled column carries the same impulses
    // (to the same tolerance) but every substep starts from zero impulses,
    // so plain Gauss-Seidel needs more sweeps (a chain of n contacts: >= n;
    // measured 60; the cap is raised so that it converges whatever the
    // default). The load propagation resolves the column from zero in its
    // two passes: one relax sweep confirms (ContactSolverLoads.C)
    const int n = 4;
    for (const bool loads : {false, true})
    {
        ParticleSystem s = column(n);
        CollisionSettings settings = fillingSettings();
        settings.warmStartFactor = 0;
        settings.maxRestingSweeps = 1000;
        settings.propagateLoads = loads;
        const CollisionDiagnostics d = settleColumnAndCheckImpulses(s, settings);
        std::printf("column of %d without warm start, load propagation %s: %d relax sweeps per substep\n",
                    n, loads ? "on" : "off", d.maxRestingSweeps);
        if (loads) EXPECT_EQ(d.maxRestingSweeps, 1);
        else EXPECT_GE(d.maxRestingSweeps, n);
        EXPECT_EQ(d.restingCapHits, 0);
    }
}


TEST(RestingContactSolver, FrictionlessSpherePileInABoxComesToRest)
{
    // 40 frictionless spheres (d = 1 cm, rho = 1000 kg/m^3, eps_n = 0.2,
    // zero spin: a sphere's spin stays zero) at random non-overlapping
    // positions in a closed 3.5 x 3.5 cm box (up to 10 cm high) fall under
    // gravity with Dt = 1e-5 s and form a pile of ~4 layers (impacts at up
    // to 1.3 m/s, peak at ~0.13 s). In a square box a frictionless sphere
    // pile has no neutral mode (no conserved angular momentum: the walls
    // are flat and the normals through the centres), so it must come to
    // rest: kinetic energy < 1e-6 of its peak within 1 s (measured with
    // seeds 3-11: at 0.26-0.71 s, this one 0.55 s; the last particles to
    // settle are perched on ridges between two spheres, an unstable
    // equilibrium left with the growth rate sqrt(g/2r) = 31/s). With the
    // resting sweeps of before (collision sweeps capped at 10, contacts
    // still approaching faster than 2 g h left to the overlap removal) the
    // pile kept velocities of cm/s into its contacts and stayed at
    // 3e-5 of the peak (1 s). Overlaps stay below the 1 % of c the filling requires.
    const double L = 0.035;
    ParticleSystem s;
    s.shapes.push_back(Superellipsoid::sphere(r));
    addBox(s.walls, Vector3::Zero(), Vector3(L, L, 0.12));
    std::mt19937_64 rng(3);
    std::uniform_real_distribution<double> u(0, 1);
    while (s.size() < 40)
    {
        const Vector3 x(r + (L - 2*r)*u(rng), r + (L - 2*r)*u(rng), r + (0.1 - 2*r)*u(rng));
        bool free = true;
        for (const Particle& q : s.particles) free = free && (q.pose.position - x).norm() > 2*r;
        if (!free) continue;
        Pose p;
        p.position = x;
        p.orientation = randomOrientation(rng);
        s.particles.push_back(makeParticle(s.size(), 0, s.shapes[0], density, p));
    }
    CollisionStep step(fillingSettings());
    double peak = 0, maxOverlap = 0, restTime = -1;
    for (int k = 1; k <= 100000; ++k)
    {
        const CollisionDiagnostics d = step.advance(s, h);
        const double e = kineticEnergy(s);
        peak = std::max(peak, e);
        if (k*h > 0.3) maxOverlap = std::max(maxOverlap, d.maxOverlapRatio);
        if (k*h > 0.2 && e < 1e-6*peak)
        {
            restTime = k*h;
            break;
        }
    }
    EXPECT_GT(restTime, 0) << "kinetic energy " << kineticEnergy(s)/peak << " of its peak at 1 s";
    EXPECT_LT(maxOverlap, 0.01);
    for (const Particle& q : s.particles)
    {
        EXPECT_TRUE((q.pose.position.array() > 0).all() && (q.pose.position.array() < Vector3(L, L, 0.12).array()).all())
            << "particle " << q.id << " left the box";
    }
}
