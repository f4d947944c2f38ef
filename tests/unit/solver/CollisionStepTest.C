// Multi-particle collision step: impulse model ([Wedel2023] Sects. 4, 5.1-5.3)
// and soft contact, against analytic references and invariants.
#include "SolverTestHelpers.H"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <numeric>

#include "contact/ParticleContact.H"

using namespace superellipsoid;
using namespace superellipsoid::test;

namespace
{

constexpr double density = 1000;
constexpr double radius = 0.5e-3;           // d_eq = 1 mm

ParticleSystem twoSpheres(double gap, double speed)
{
    ParticleSystem s;
    s.shapes.push_back(Superellipsoid::sphere(radius));
    Pose a, b;
    b.position = Vector3(2*radius + gap, 0, 0);
    s.particles.push_back(makeParticle(0, 0, s.shapes[0], density, a, Vector3(speed, 0, 0)));
    s.particles.push_back(makeParticle(1, 0, s.shapes[0], density, b));
    return s;
}

double totalEnergy(const ParticleSystem& s)
{
    return translationalKineticEnergy(s) + rotationalKineticEnergy(s);
}

//- Random cluster of symmetric-top shapes (sphere, prolate a > b = c,
//  oblate a = b > c, cube-like a = b = c): their free rotation is exact in
//  the core integrator, so kinetic energy changes only in collisions
ParticleSystem randomCluster(int n, std::uint64_t seed, double spacing)
{
    ParticleSystem s;
    s.shapes.push_back(Superellipsoid::sphere(radius));
    s.shapes.push_back(Superellipsoid(2*radius, 0.6*radius, 0.6*radius, 1.0, 1.0));
    s.shapes.push_back(Superellipsoid(radius, radius, 0.5*radius, 0.7, 1.0));
    s.shapes.push_back(Superellipsoid(0.8*radius, 0.8*radius, 0.8*radius, 0.3, 0.3));
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> u(-1, 1);
    const int side = int(std::ceil(std::cbrt(double(n))));
    for (int i = 0; i < n; ++i)
    {
        Pose p;
        p.position = spacing*Vector3(i % side, (i/side) % side, i/(side*side))
                   + 0.1*spacing*Vector3(u(rng), u(rng), u(rng));
        p.orientation = randomOrientation(rng);
        const Vector3 v = -0.2*p.position/spacing + 0.05*Vector3(u(rng), u(rng), u(rng));
        const Vector3 w = 50*Vector3(u(rng), u(rng), u(rng));
        s.particles.push_back(makeParticle(i, i % 4, s.shapes[i % 4], density, p, v, w));
    }
    return s;
}

//- The same positions, orientations and velocities, bit for bit
::testing::AssertionResult sameStates(const ParticleSystem& a, const ParticleSystem& b)
{
    if (a.size() != b.size()) return ::testing::AssertionFailure() << "different particle counts";
    for (int i = 0; i < a.size(); ++i)
    {
        const Particle& p = a.particles[i];
        const Particle& q = b.particles[i];
        if
        (
            p.pose.position != q.pose.position || p.pose.orientation.coeffs() != q.pose.orientation.coeffs()
         || p.velocity != q.velocity || p.angularVelocity != q.angularVelocity
        )
        {
            return ::testing::AssertionFailure() << "particle " << i << " differs";
        }
    }
    return ::testing::AssertionSuccess();
}

//- The same records (keys, in storage order) with the same springs
bool sameRecords(const PairCache& a, const PairCache& b)
{
    const std::vector<PairRecord> ra = a.records(), rb = b.records();
    if (ra.size() != rb.size()) return false;
    for (std::size_t i = 0; i < ra.size(); ++i)
    {
        if (ra[i].key != rb[i].key || ra[i].history.count != rb[i].history.count
         || ra[i].history.displacement != rb[i].history.displacement)
        {
            return false;
        }
    }
    return true;
}

} // namespace


TEST(HeadOnSpheres, PostVelocitiesAndCollisionInstantAreExact)
{
    // Equal spheres, A at speed v onto B at rest, gap g: contact at
    // t_col = g/v; after it v_A = (1 - e)/2 v, v_B = (1 + e)/2 v
    // (momentum and Eq. (65) of [Wedel2023] n.u+ = -e n.u-)
    const double e = 0.8, v = 1.0, gap = 3e-3;
    ParticleSystem s = twoSpheres(gap, v);
    CollisionSettings settings;
    settings.pairLaw = ImpulseLaw::frictionless(e);
    CollisionStep step(settings);
    const double h = 1e-5;                   // 10 um per substep
    double t = 0, tDetected = -1;
    for (int k = 0; k < 600 && tDetected < 0; ++k)
    {
        CollisionDiagnostics d;
        step.impulseSubstep(s, h, d);
        t += h;
        if (d.pairCollisions > 0) tDetected = t;
    }
    const double tCollision = gap/v;
    // Detected at the end of the first substep after first contact
    EXPECT_GE(tDetected, tCollision - 1e-12*tCollision);
    EXPECT_LT(tDetected, tCollision + h);
    // Exact to round-off (the impulse is linear algebra): 1e-12 v
    EXPECT_NEAR(s.particles[0].velocity.x(), 0.5*(1 - e)*v, 1e-12*v);
    EXPECT_NEAR(s.particles[1].velocity.x(), 0.5*(1 + e)*v, 1e-12*v);
    EXPECT_LT(s.particles[0].velocity.tail<2>().norm(), 1e-12*v);
    EXPECT_LT(s.particles[1].angularVelocity.norm()*radius, 1e-12*v);
    // Overlap removed: the spheres just touch
    const double distance = (s.particles[1].pose.position - s.particles[0].pose.position).norm();
    EXPECT_NEAR(distance, 2*radius, 1e-9*radius);
}


TEST(SphereDrop, BouncesToEpsSquaredOfItsHeight)
{
    // Dropped from rest at height H (gap to the floor) under gravity: the
    // rebound speed is e v_impact, so the apex gap is e^2 H. The collision
    // is detected up to one substep late, with an overlap <= v h that is
    // then removed: apex error <= a few substep displacements (0.1 c each)
    const double e = 0.5, H = 5e-3, g = 9.81;
    ParticleSystem s;
    s.shapes.push_back(Superellipsoid::sphere(radius));
    Pose p;
    p.position = Vector3(0, 0, radius + H);
    s.particles.push_back(makeParticle(0, 0, s.shapes[0], density, p));
    addFloor(s.walls, 0.0, 0.01);
    CollisionSettings settings;
    settings.wallLaw = ImpulseLaw::frictionless(e);
    settings.gravity = Vector3(0, 0, -g);
    CollisionStep step(settings);
    const double dt = 1e-4;
    bool bounced = false;
    double apex = 0;
    long wallCollisions = 0;
    for (int k = 0; k < 1000; ++k)
    {
        const CollisionDiagnostics d = step.advance(s, dt);
        wallCollisions += d.wallCollisions;
        const double vz = s.particles[0].velocity.z();
        if (wallCollisions > 0 && vz > 0) bounced = true;
        if (bounced && vz <= 0)
        {
            apex = s.particles[0].pose.position.z() - radius;
            break;
        }
    }
    ASSERT_TRUE(bounced);
    const double substepDisplacement = settings.displacementFraction*radius;
    EXPECT_NEAR(apex, e*e*H, 2*substepDisplacement);
    EXPECT_EQ(wallCollisions, 1);
}


TEST(ParticleOnlySystem, MomentumIsConservedAndEnergyNeverIncreases)
{
    // No walls, no gravity: every impulse is internal (Eq. 63 of [Wedel2023]); the
    // frictional law is energy-consistent (dT <= 0 per impulse)
    ParticleSystem s = randomCluster(27, 11, 2.2e-3);
    CollisionSettings settings;
    settings.pairLaw = ImpulseLaw::withFriction(0.7, 0.3);
    CollisionStep step(settings);
    const Vector3 p0 = linearMomentum(s);
    double scale = 0;
    for (const Particle& q : s.particles) scale += q.mass*q.velocity.norm();
    double energy = totalEnergy(s);
    const double energy0 = energy;
    long collisions = 0;
    for (int k = 0; k < 100; ++k)
    {
        const CollisionDiagnostics d = step.advance(s, 2e-4);
        collisions += d.pairCollisions;
        const double e = totalEnergy(s);
        // Round-off of the impulse algebra: 1e-12 relative per step
        EXPECT_LE(e, energy*(1 + 1e-12)) << "step " << k;
        energy = e;
        // Round-off of summing 27 momenta: 1e-13 of sum m|v|
        EXPECT_LT((linearMomentum(s) - p0).norm(), 1e-13*scale) << "step " << k;
        EXPECT_EQ(d.detection.failures, 0);
    }
    EXPECT_GT(collisions, 20);              // the cluster did collide
    EXPECT_LT(energy, 0.95*energy0);        // and dissipated
}


TEST(ParticleOnlySystem, ElasticFrictionlessCollisionsConserveEnergy)
{
    ParticleSystem s = randomCluster(27, 5, 2.2e-3);
    CollisionSettings settings;
    settings.pairLaw = ImpulseLaw::frictionless(1.0);
    CollisionStep step(settings);
    const double energy0 = totalEnergy(s);
    long collisions = 0;
    for (int k = 0; k < 100; ++k)
    {
        collisions += step.advance(s, 2e-4).pairCollisions;
    }
    EXPECT_GT(collisions, 20);
    // eps_n = 1 frictionless conserves T exactly per impulse; round-off
    // over ~1e2 impulses and the exact symmetric-top drift: 1e-10
    EXPECT_NEAR(totalEnergy(s), energy0, 1e-10*energy0);
}


TEST(NewtonsCradle, SweepsTransferTheMomentumToTheLastSphere)
{
    // Three touching equal spheres, the first moving onto the row: elastic
    // frictionless sweeps give (0, 0, v) as the sequential-impulse solution
    // of the cradle; one sweep (the paper's one partner per step) gives (0, v, 0)
    for (int maxSweeps : {10, 1})
    {
        ParticleSystem s;
        s.shapes.push_back(Superellipsoid::sphere(radius));
        const double spacing = 2*radius*(1 - 1e-6);
        for (int i = 0; i < 3; ++i)
        {
            Pose p;
            p.position = Vector3(i*spacing, 0, 0);
            s.particles.push_back(makeParticle(i, 0, s.shapes[0], density, p,
                                               Vector3(i == 0 ? 1.0 : 0.0, 0, 0)));
        }
        CollisionSettings settings;
        settings.maxSweeps = maxSweeps;
        CollisionStep step(settings);
        CollisionDiagnostics d;
        step.impulseSubstep(s, 1e-6, d);
        const double v0 = s.particles[0].velocity.x(), v1 = s.particles[1].velocity.x(),
                     v2 = s.particles[2].velocity.x();
        if (maxSweeps == 10)
        {
            EXPECT_EQ(d.maxSweeps, 2);
            EXPECT_NEAR(v0, 0, 1e-12);
            EXPECT_NEAR(v1, 0, 1e-12);
            EXPECT_NEAR(v2, 1, 1e-12);
        }
        else
        {
            EXPECT_EQ(d.sweepCapHits, 1);
            EXPECT_NEAR(v0, 0, 1e-12);
            EXPECT_NEAR(v1, 1, 1e-12);
            EXPECT_NEAR(v2, 0, 1e-12);
        }
    }
}


TEST(CentricImpacts, NonSphericalShapesGainNoAngularVelocity)
{
    // Impacts along a symmetry axis: contact point on the line of centres,
    // so the impulse has no moment (Eq. 70 of [Wedel2023]). Residual: contact points are
    // converged to 1e-6 c (contactToleranceFactor), so |omega| R / |v| < 1e-5.
    // Orientations are exact (identity) for the flat-faced and pointed
    // shapes: a round-off tilt of 1e-16 moves the support point of a nearly
    // flat face (eps = 0.3) by ~(1e-16)^(eps/(2 - eps)) ~ 1e-3 c, a true
    // eccentric impact (the "minor numerical shifts" of Sect. 5.2.1).
    const Superellipsoid cube(0.6e-3, 0.5e-3, 0.4e-3, 0.3, 0.3);
    const Superellipsoid prolate(1.0e-3, 0.4e-3, 0.4e-3, 1.0, 1.0);
    const Superellipsoid diamond(0.6e-3, 0.6e-3, 0.6e-3, 1.6, 1.6);
    for (const Superellipsoid& shape : {cube, prolate, diamond})
    {
        // Wall: falling along -z; the prolate also with x' and y' vertical
        std::vector<Quaternion> orientations{Quaternion::Identity()};
        if (shape.eps1() == 1.0)
        {
            orientations.push_back(rotationAbout(Vector3::UnitY(), 0.5*pi));
            orientations.push_back(rotationAbout(Vector3::UnitX(), 0.5*pi));
        }
        for (const Quaternion& q : orientations)
        {
            ParticleSystem s;
            s.shapes.push_back(shape);
            Pose p;
            p.orientation = q;
            p.position = Vector3(0, 0, shape.a() + 0.2e-3);
            s.particles.push_back(makeParticle(0, 0, shape, density, p, Vector3(0, 0, -1)));
            addFloor(s.walls, 0.0, 0.01);
            CollisionSettings settings;
            settings.wallLaw = ImpulseLaw::frictionless(0.6);
            CollisionStep step(settings);
            long collisions = 0;
            for (int k = 0; k < 20; ++k) collisions += step.advance(s, 1e-4).wallCollisions;
            ASSERT_EQ(collisions, 1);
            EXPECT_NEAR(s.particles[0].velocity.z(), 0.6, 1e-9);
            EXPECT_LT(s.particles[0].angularVelocity.norm()*shape.boundingRadius(), 1e-5);
        }
        // Pair: head-on along x (A: phi = 0; B: phi = -90 deg for the
        // ellipsoid as in Sect. 5.2, phi = 0 for the others, see above)
        ParticleSystem s;
        s.shapes.push_back(shape);
        Pose a, b;
        if (shape.eps1() == 1.0) b.orientation = rotationAbout(Vector3::UnitZ(), -0.5*pi);
        const double halfWidthB = shape.eps1() == 1.0 ? shape.b() : shape.a();
        b.position = Vector3(shape.a() + halfWidthB + 0.3e-3, 0, 0);
        s.particles.push_back(makeParticle(0, 0, shape, density, a, Vector3(1, 0, 0)));
        s.particles.push_back(makeParticle(1, 0, shape, density, b));
        CollisionStep step{CollisionSettings()};
        long collisions = 0;
        for (int k = 0; k < 20; ++k) collisions += step.advance(s, 1e-4).pairCollisions;
        ASSERT_EQ(collisions, 1);
        EXPECT_NEAR(s.particles[1].velocity.x(), 1.0, 1e-9);
        for (const Particle& q : s.particles)
        {
            EXPECT_LT(q.angularVelocity.norm()*shape.boundingRadius(), 1e-5);
        }
    }
}


TEST(ClosedBox, FiftyRandomSuperellipsoidsStayInsideAndSettle)
{
    // 50 random shapes with random velocities in a closed box under
    // gravity, eps_n = 0.5 with friction: nobody leaves, nothing is NaN,
    // the mechanical energy decays, overlaps stay small
    const double L = 8e-3;
    ParticleSystem s;
    std::mt19937_64 rng(2024);
    std::uniform_real_distribution<double> u(0, 1);
    for (int k = 0; k < 5; ++k)
    {
        const double eps1 = 0.3 + 1.3*u(rng), eps2 = 0.3 + 1.3*u(rng);
        const double c = 0.35e-3, b = c*(1 + u(rng)), a = b*(1 + u(rng));
        s.shapes.emplace_back(a, b, c, eps1, eps2);
    }
    const double spacing = L/4;
    for (int i = 0; i < 50; ++i)
    {
        Pose p;
        p.position = Vector3((i % 4 + 0.5)*spacing, ((i/4) % 4 + 0.5)*spacing, (i/16 + 0.5)*spacing);
        p.orientation = randomOrientation(rng);
        const Vector3 v(u(rng) - 0.5, u(rng) - 0.5, u(rng) - 0.5);
        s.particles.push_back(makeParticle(i, i % 5, s.shapes[i % 5], density, p, 0.5*v));
    }
    addBox(s.walls, Vector3::Zero(), Vector3::Constant(L));
    CollisionSettings settings;
    settings.gravity = Vector3(0, 0, -9.81);
    settings.pairLaw = ImpulseLaw::withFriction(0.5, 0.3);
    settings.wallLaw = ImpulseLaw::withFriction(0.5, 0.3);
    CollisionStep step(settings);
    auto mechanical = [&]()
    {
        double e = totalEnergy(s);
        for (const Particle& q : s.particles) e += q.mass*9.81*q.pose.position.z();
        return e;
    };
    const double e0 = mechanical();
    double maxOverlap = 0;
    long failures = 0, collisions = 0;
    for (int k = 0; k < 300; ++k)
    {
        const CollisionDiagnostics d = step.advance(s, 1e-3);
        maxOverlap = std::max(maxOverlap, d.maxOverlapRatio);
        failures += d.detection.failures + d.wallDetection.failures;
        collisions += d.pairCollisions + d.wallCollisions;
        for (const Particle& q : s.particles)
        {
            ASSERT_TRUE(q.pose.position.allFinite() && q.velocity.allFinite());
            ASSERT_TRUE((q.pose.position.array() > 0).all() && (q.pose.position.array() < L).all())
                << "particle " << q.id << " left the box at step " << k;
        }
    }
    EXPECT_GT(collisions, 100);
    EXPECT_EQ(failures, 0);
    // Overlap per substep <= the displacement per substep (0.1 c) plus what
    // stacked contacts accumulate within one substep: 0.5 c bound
    EXPECT_LT(maxOverlap, 0.5);
    // Energy above the resting floor level decays (eps_n = 0.5, 300 steps)
    double eFloor = 0;
    for (const Particle& q : s.particles) eFloor += q.mass*9.81*0.35e-3;
    EXPECT_LT(mechanical() - eFloor, 0.5*(e0 - eFloor));
    EXPECT_LT(totalEnergy(s), 0.05*(e0 - eFloor));
}


TEST(TimeStepConvergence, OneReferenceTimeWithTenSubstepsMatchesAPointOne)
{
    // [Wedel2023] Sect. 5.1: wall impact from p0 = 5 d_eq at u0 = 1 m/s,
    // t_ref = d_eq/u0. Dt = t_ref with 10 substeps runs the same substeps as
    // Dt = 0.1 t_ref: trajectories agree to round-off; both are within one
    // substep displacement (0.1 d_eq) of Dt = 0.001 t_ref
    const double dEq = 1e-3, u0 = 1, tRef = dEq/u0;
    const Superellipsoid shapes[] =
        {Superellipsoid::sphere(0.5e-3), Superellipsoid(0.8e-3, 0.45e-3, 0.35e-3, 0.3, 0.3)};
    for (const Superellipsoid& shape : shapes)
    {
        auto run = [&](double dtOverTref, int substeps)
        {
            ParticleSystem s;
            s.shapes.push_back(shape);
            Pose p;
            p.position = Vector3(0, 0, 5*dEq);
            p.orientation = rotationAbout(Vector3::UnitY(), 0.25*pi);     // eccentric
            s.particles.push_back(makeParticle(0, 0, shape, density, p, Vector3(0, 0, -u0)));
            addFloor(s.walls, 0.0, 0.05);
            CollisionSettings settings;
            settings.wallLaw = ImpulseLaw::frictionless(0.9);
            settings.fixedSubsteps = substeps;
            CollisionStep step(settings);
            std::vector<double> z;                  // height at t = k t_ref
            const int perRef = int(std::lround(1/dtOverTref));
            for (int k = 0; k < 10*perRef; ++k)
            {
                step.advance(s, dtOverTref*tRef);
                if ((k + 1) % perRef == 0) z.push_back(s.particles[0].pose.position.z());
            }
            return z;
        };
        const std::vector<double> coarse = run(1, 10), tenth = run(0.1, 1), fine = run(0.001, 1);
        ASSERT_EQ(coarse.size(), 10u);
        for (int k = 0; k < 10; ++k)
        {
            EXPECT_NEAR(coarse[k], tenth[k], 1e-12*dEq) << "t/t_ref = " << k + 1;
            EXPECT_NEAR(tenth[k], fine[k], 0.1*dEq) << "t/t_ref = " << k + 1;
        }
    }
}


TEST(Subcycling, SubstepsFollowTheDisplacementFraction)
{
    // |v| Dt = 1 d_eq, fraction 0.1 of c = 0.5 mm: ceil(1 / 0.05) = 20
    ParticleSystem s = twoSpheres(5e-3, 1.0);
    CollisionStep step{CollisionSettings()};
    EXPECT_EQ(step.chooseSubsteps(s, 1e-3), 20);
    CollisionSettings fixed;
    fixed.fixedSubsteps = 7;
    EXPECT_EQ(CollisionStep(fixed).chooseSubsteps(s, 1e-3), 7);
    CollisionSettings bad;
    bad.displacementFraction = 0;
    EXPECT_THROW({ CollisionStep x(bad); }, std::invalid_argument);
    EXPECT_THROW(step.advance(s, -1.0), std::invalid_argument);
}


TEST(CandidatePairs, VerletListGivesTheTrajectoryOfACellListPerDetection)
{
    // A cluster of 64 mixed shapes collapsing onto its centre in steps of
    // 1 ms (impulse 0.2 s; soft, whose substeps follow the contact time,
    // 0.03 s), both models: with the pair list's skin (default 0.3 of
    // the largest bounding radius) and rebuilt at every detection (skin 0)
    // the states agree to the last bit; the kept pairs filtered by the
    // spheres of now are the cell list's pairs (BroadPhase.H), and the
    // contacts are sorted canonically whatever the order of the pairs
    for (const CollisionModel model : {CollisionModel::impulse, CollisionModel::softContact})
    {
        ParticleSystem kept = randomCluster(64, 17, 2.2*radius);
        ParticleSystem rebuilt = kept;
        CollisionSettings settings;
        settings.model = model;
        settings.pairLaw = settings.wallLaw = ImpulseLaw::withFriction(0.5, 0.3);
        CollisionSettings everyDetection = settings;
        everyDetection.pairListSkin = 0;
        CollisionStep a(settings), b(everyDetection);
        long contacts = 0;
        const int steps = model == CollisionModel::impulse ? 200 : 30;
        for (int k = 0; k < steps; ++k)
        {
            contacts += a.advance(kept, 1e-3).pairContacts;
            b.advance(rebuilt, 1e-3);
        }
        EXPECT_GT(contacts, 1000) << "the cluster collides";
        std::printf("%s: pair-list builds %ld with the skin, %ld without\n",
                    model == CollisionModel::impulse ? "impulse" : "soft", a.pairListBuilds(), b.pairListBuilds());
        EXPECT_LT(2*a.pairListBuilds(), b.pairListBuilds()) << "the list is kept across detections";
        EXPECT_TRUE(sameStates(kept, rebuilt));
    }
    CollisionSettings bad;
    bad.pairListSkin = -0.1;
    EXPECT_THROW({ CollisionStep x(bad); }, std::invalid_argument);
    bad.pairListSkin = 1.5;
    EXPECT_THROW({ CollisionStep x(bad); }, std::invalid_argument);
}


TEST(Subcycling, RestingContactsBoundTheBodyForceDisplacement)
{
    // A sphere (c = 0.5 mm) under gravity: falling free, the displacement
    // rule alone gives 1 substep per 1 ms step (g Dt^2/2 = 4.9e-6 m <
    // 0.1 c); resting on a floor (its contact carried an impulse), also
    // g h^2 <= restingDisplacementFraction c: n = ceil(Dt sqrt(g/(f c)))
    // = ceil(1e-3 sqrt(9.81/5e-8)) = 15 for f = 1e-4; f = 0 switches the
    // bound off
    const double g = 9.81, dt = 1e-3;
    CollisionSettings settings;
    settings.gravity = Vector3(0, 0, -g);
    settings.pairLaw = settings.wallLaw = ImpulseLaw::withFriction(0.2, 0.5);
    ParticleSystem s;
    s.shapes.push_back(Superellipsoid::sphere(radius));
    Pose p;
    p.position = Vector3(0, 0, 20*radius);
    s.particles.push_back(makeParticle(0, 0, s.shapes[0], density, p));
    addFloor(s.walls, 0, 0.1);
    CollisionStep step(settings);
    EXPECT_EQ(step.chooseSubsteps(s, dt), 1);
    for (int k = 0; k < 300; ++k) step.advance(s, dt);      // fallen 9.5 mm by 0.05 s, then at rest
    ASSERT_LT(s.particles[0].velocity.norm(), 1e-6);
    const int expected = int(std::ceil(dt*std::sqrt(g/(settings.restingDisplacementFraction*radius))));
    EXPECT_EQ(expected, 15);
    EXPECT_EQ(step.chooseSubsteps(s, dt), expected);
    settings.restingDisplacementFraction = 0;
    CollisionStep unbounded(settings);
    for (int k = 0; k < 300; ++k) unbounded.advance(s, dt);
    EXPECT_EQ(unbounded.chooseSubsteps(s, dt), 1);
    settings.restingDisplacementFraction = -1;
    EXPECT_THROW({ CollisionStep x(settings); }, std::invalid_argument);
}


TEST(Determinism, ResultDoesNotDependOnParticleStorageOrder)
{
    // Contacts are sorted canonically by ids: reversing the arrays must give
    // the same state per id (bitwise up to summation order: 1e-14 relative)
    ParticleSystem s1 = randomCluster(27, 17, 2.2e-3);
    ParticleSystem s2 = s1;
    std::reverse(s2.particles.begin(), s2.particles.end());
    CollisionSettings settings;
    settings.pairLaw = ImpulseLaw::withFriction(0.6, 0.2);
    CollisionStep a(settings), b(settings);
    for (int k = 0; k < 50; ++k)
    {
        a.advance(s1, 2e-4);
        b.advance(s2, 2e-4);
    }
    for (const Particle& p : s1.particles)
    {
        const Particle& q = s2.particles[s2.size() - 1 - p.id];
        ASSERT_EQ(q.id, p.id);
        EXPECT_LT((p.pose.position - q.pose.position).norm(), 1e-14*2e-3);
        EXPECT_LT((p.velocity - q.velocity).norm(), 1e-12);
    }
}


TEST(GapCertificates, ChangeTheCostNotTheResult)
{
    // A contracting cluster of 27 random superellipsoids spinning at up to
    // 1000 rad/s, with friction, in substeps of 2e-5 s (a long end turns
    // by up to 4e-5 m per substep). Run a certifies near-miss pairs by the
    // gap left at their warm normal (CollisionStep::gapCertified); run b
    // forgets every gap before each substep, as a restart does, and so
    // detects every candidate pair. The states must be bitwise equal, and
    // a must have used certificates. (Without the rotation terms of the
    // certificate run a misses contacts and the states differ.)
    ParticleSystem s1 = randomCluster(27, 23, 2.2e-3);
    for (Particle& p : s1.particles) p.angularVelocity *= 20;
    ParticleSystem s2 = s1;
    CollisionSettings settings;
    settings.pairLaw = ImpulseLaw::withFriction(0.6, 0.2);
    CollisionStep a(settings), b(settings);
    CollisionDiagnostics da, db;
    for (int k = 0; k < 1000; ++k)
    {
        a.impulseSubstep(s1, 2e-5, da);
        for (const PairRecord& r : b.pairCache().records())
        {
            b.pairCache().find(r.key)->gapStamp = -1;
        }
        b.impulseSubstep(s2, 2e-5, db);
    }
    EXPECT_GT(a.gapCertificates(), 1000) << a.gapCertificates();
    EXPECT_EQ(b.gapCertificates(), 0);
    EXPECT_GT(da.pairContacts, 50);
    EXPECT_EQ(da.pairContacts, db.pairContacts);
    for (int i = 0; i < s1.size(); ++i)
    {
        const Particle& p = s1.particles[i];
        const Particle& q = s2.particles[i];
        EXPECT_EQ(p.pose.position, q.pose.position) << "particle " << p.id;
        EXPECT_EQ(p.pose.orientation.coeffs(), q.pose.orientation.coeffs()) << "particle " << p.id;
        EXPECT_EQ(p.velocity, q.velocity) << "particle " << p.id;
        EXPECT_EQ(p.angularVelocity, q.angularVelocity) << "particle " << p.id;
    }
}


TEST(SoftContact, SphereWallReboundMatchesRestitution)
{
    // Hertz law with the exactly calibrated damping: rebound speed e v0;
    // velocity Verlet with >= 20 substeps per contact: ~1% error
    const double e = 0.7;
    ParticleSystem s;
    s.shapes.push_back(Superellipsoid::sphere(radius));
    Pose p;
    p.position = Vector3(0, 0, radius + 0.05e-3);
    s.particles.push_back(makeParticle(0, 0, s.shapes[0], density, p, Vector3(0, 0, -1)));
    addFloor(s.walls, 0.0, 0.01);
    CollisionSettings settings;
    settings.model = CollisionModel::softContact;
    settings.softLaw.restitution = e;
    CollisionStep step(settings);
    int substeps = 0;
    for (int k = 0; k < 40; ++k) substeps += step.advance(s, 1e-5).substeps;
    EXPECT_NEAR(s.particles[0].velocity.z(), e, 0.02*e);
    EXPECT_GT(substeps, 40);
    EXPECT_LT(s.particles[0].angularVelocity.norm(), 1e-9);
}


TEST(SoftContact, PairConservesMomentum)
{
    ParticleSystem s = twoSpheres(0.02e-3, 1.0);
    CollisionSettings settings;
    settings.model = CollisionModel::softContact;
    settings.softLaw.restitution = 0.5;
    CollisionStep step(settings);
    const Vector3 p0 = linearMomentum(s);
    for (int k = 0; k < 40; ++k) step.advance(s, 1e-5);
    EXPECT_LT((linearMomentum(s) - p0).norm(), 1e-12*p0.norm());
    // Post-collision: equal masses, v_B - v_A = e v0 (calibrated law)
    EXPECT_NEAR(s.particles[1].velocity.x() - s.particles[0].velocity.x(), 0.5, 0.02*0.5);
}


TEST(SoftContact, ForcesFromTheStateContinueAnUndampedRun)
{
    // The OpenFOAM layer rebuilds the particles every fluid step and
    // restarts the leapfrog with softForcesAtState (springs not advanced).
    // Undamped and frictionless (eps_n = 1) the force depends on the
    // positions alone, so the recomputed forces are those of the last
    // closing half and the split run is the unbroken one, bit for bit
    CollisionSettings settings;
    settings.model = CollisionModel::softContact;
    settings.softLaw.restitution = 1;
    ParticleSystem a = twoSpheres(0.02e-3, 1.0), b = a;
    CollisionStep stepA(settings), stepB(settings);
    const int n = stepA.chooseSubsteps(a, 1e-5);
    const double h = 1e-5/n;
    CollisionDiagnostics diag, scratch;
    for (int k = 0; k < 40*n; ++k)
    {
        stepA.softSubstep(a, h, diag);
        if (k % n == 0)
        {
            for (Particle& p : b.particles) p.contactForce = p.contactTorque = Vector3::Zero();
            stepB.softForcesAtState(b, scratch);
        }
        stepB.softOpen(b, h);
        stepB.softClose(b, h, diag);
    }
    EXPECT_GT(scratch.pairCollisions, 0);   // split inside the contact
    EXPECT_NEAR(a.particles[1].velocity.x(), 1.0, 0.02);   // elastic exchange
    for (int i = 0; i < 2; ++i)
    {
        EXPECT_EQ(a.particles[i].pose.position, b.particles[i].pose.position);
        EXPECT_EQ(a.particles[i].velocity, b.particles[i].velocity);
    }
}


TEST(SoftContact, StartOfAStepOfSpheresTakesTheLastDetectionBitForBit)
{
    // Each fluid step of the OpenFOAM layer starts with softForcesAtState.
    // Spheres in the state their last closing half detected take its
    // contacts (CollisionStep::sameDetectedState): the run equals one that
    // detects at every start (walls invalidated: the kept state is
    // cleared) to the last bit, particles and pair cache. 30 spheres thrown
    // into a box (pairs and walls), damped (eps_n 0.5), mu 0.3, 0.15 s in
    // fluid steps of 1 ms, each ended as the layer ends it (dropUntouched)
    CollisionSettings settings;
    settings.model = CollisionModel::softContact;
    settings.softLaw.restitution = 0.5;
    settings.softLaw.staticFriction = settings.softLaw.dynamicFriction = 0.3;
    settings.gravity = Vector3(0, 0, -9.81);
    ParticleSystem kept = thrownPile(Superellipsoid::sphere(5e-3)), detected = kept;
    CollisionStep a(settings), b(settings);
    CollisionDiagnostics diagA, diagB, startA, startB;
    const double dt = 1e-3;
    const int steps = 150;
    for (int step = 0; step < steps; ++step)
    {
        const int n = a.chooseSubsteps(kept, dt);
        ASSERT_EQ(n, b.chooseSubsteps(detected, dt));
        a.softForcesAtState(kept, startA);
        b.invalidateWalls();
        b.softForcesAtState(detected, startB);
        for (int k = 0; k < n; ++k)
        {
            a.softSubstep(kept, dt/n, diagA);
            b.softSubstep(detected, dt/n, diagB);
        }
        a.pairCache().dropUntouched();
        b.pairCache().dropUntouched();
        ASSERT_TRUE(sameRecords(a.pairCache(), b.pairCache())) << "step " << step;
    }
    EXPECT_GT(startA.pairCollisions, steps) << "steps start inside pair contacts";
    EXPECT_GT(startA.wallCollisions, steps) << "steps start inside wall contacts";
    EXPECT_EQ(a.detections() + steps - 1, b.detections()) << "every start but the first took the kept contacts";
    EXPECT_TRUE(sameStates(kept, detected));
}


TEST(SoftContact, KicksDampTheSpinToTheTerminalValue)
{
    // Fluid torque T0' - D omega' of the soft substeps: the kicks integrate
    // it exactly (kickAngularMomentum), so a body spun up from rest about
    // a principal axis reaches omega' = D^-1 T0' (1e-9: round-off of 1e4
    // kicks; without the damping omega' grows as T t / J)
    ParticleSystem s;
    s.shapes.push_back(Superellipsoid(2*radius, radius, radius, 1, 1));
    s.particles.push_back(makeParticle(0, 0, s.shapes[0], density, Pose()));
    Particle& p = s.particles[0];
    const double J = p.principalMoments.x();
    const double relaxation = 1e-3;            // J / D
    p.externalTorque = Vector3(1e-9, 0, 0);
    p.externalDamping = Matrix3::Identity()*(J/relaxation);
    CollisionSettings settings;
    settings.model = CollisionModel::softContact;
    CollisionStep step(settings);
    CollisionDiagnostics diag;
    for (int k = 0; k < 10000; ++k) step.softSubstep(s, 1e-5, diag);   // 100 relaxation times
    const double terminal = p.externalTorque.x()*relaxation/J;
    EXPECT_NEAR(p.angularVelocity.x(), terminal, 1e-9*terminal);
    EXPECT_LT(p.angularVelocity.tail<2>().norm(), 1e-9*terminal);
}


TEST(SoftContact, MirrorFaceIsTheCollisionWithTheMirrorImage)
{
    // A symmetry plane (mirror face) x = 0: an eccentric prolate hitting it
    // obliquely and spinning must move exactly as in the collision with its
    // mirror image (a second body: reflected position and velocity, proper
    // orientation M Q D with D = diag(-1, 1, 1), omega' -> -D omega'), with
    // friction on (the image's surface moves with A's along the plane, so
    // neither run rubs). 1e-5 relative: the pair's overlap comes from the
    // Newton search of the common normal (tolerance 1e-6 c), the plane's
    // in closed form; measured 5e-9 (v) and 3e-8 (omega) with friction,
    // 1.2e-7 and 1.2e-6 without. A Hertz radius taken off the plane (at
    // the wall's mid-surface, delta/2 from it) is 6e-5 (v) off
    ParticleSystem mirror, pair;
    const Superellipsoid prolate(2*radius, radius, radius, 1, 1);
    mirror.shapes.push_back(prolate);
    pair.shapes.push_back(prolate);
    Pose a;
    a.orientation = rotationAbout(Vector3::UnitZ(), 0.5);
    a.position = Vector3(-2*radius, 0, 0);
    const Vector3 v(1, 0.3, 0), w(0, 50, 300);
    mirror.particles.push_back(makeParticle(0, 0, prolate, density, a, v, w));
    mirror.walls.add(quad(Vector3::Zero(), 0.01*Vector3::UnitZ(), 0.01*Vector3::UnitY()), 0, Vector3::Zero(), true);
    const Matrix3 M = Matrix3::Identity() - 2*Vector3::UnitX()*Vector3::UnitX().transpose();
    const Matrix3 D = Vector3(-1, 1, 1).asDiagonal();
    Pose b;
    b.orientation = Quaternion(M*a.orientation.toRotationMatrix()*D);
    b.position = M*a.position;
    pair.particles.push_back(makeParticle(0, 0, prolate, density, a, v, w));
    pair.particles.push_back(makeParticle(1, 0, prolate, density, b, M*v, -(D*w)));
    CollisionSettings settings;
    settings.model = CollisionModel::softContact;
    settings.softLaw.restitution = 0.7;
    settings.softLaw.staticFriction = settings.softLaw.dynamicFriction = 0.5;
    CollisionStep stepMirror(settings), stepPair(settings);
    CollisionDiagnostics dm, dp;
    const double h = 1e-5/stepPair.chooseSubsteps(pair, 1e-5);
    for (int k = 0; k < 2000; ++k)
    {
        stepMirror.softSubstep(mirror, h, dm);
        stepPair.softSubstep(pair, h, dp);
    }
    EXPECT_GT(dm.wallCollisions, 0);
    const Particle& pm = mirror.particles[0];
    const Particle& pp = pair.particles[0];
    EXPECT_LT(pm.velocity.x(), 0);                      // rebounded
    EXPECT_LT((pm.velocity - pp.velocity).norm(), 1e-5*v.norm());
    EXPECT_LT((pm.angularVelocity - pp.angularVelocity).norm(), 1e-5*w.norm());
    EXPECT_LT((pm.pose.position - pp.pose.position).norm(), 1e-5*radius);
}


TEST(RestingContacts, StackOfThreeSpheresOnAFloorComesToRest)
{
    // Three spheres (d = 1 cm) dropped in a column onto a floor, eps_n =
    // 0.2, frictionless, Dt = 1e-5 s: after 0.3 s they rest in a column at
    // heights r, 3r, 5r. Resting contacts (approach < 2 g h) are resolved
    // with eps_n -> 0 and swept until they approach slower than 1e-2 g h
    const double r = 5e-3, h = 1e-5, g = 9.81;
    ParticleSystem s;
    s.shapes.push_back(Superellipsoid::sphere(r));
    for (int i = 0; i < 3; ++i)
    {
        Pose p;
        p.position = Vector3(0, 0, r + 0.004 + i*(2*r + 0.004));
        s.particles.push_back(makeParticle(i, 0, s.shapes[0], density, p));
    }
    addFloor(s.walls, 0, 0.1);
    CollisionSettings settings;
    settings.gravity = Vector3(0, 0, -g);
    settings.pairLaw = ImpulseLaw::frictionless(0.2);
    settings.wallLaw = ImpulseLaw::frictionless(0.2);
    CollisionStep step(settings);
    double peak = 0;
    CollisionDiagnostics last;
    for (int k = 0; k < 30000; ++k)
    {
        last = step.advance(s, h);
        peak = std::max(peak, totalEnergy(s));
    }
    // At rest every velocity is the residual of the resting sweeps, below
    // 1e-2 g h = 1e-6 m/s against a peak speed ~ 0.4 m/s: KE/peak < 1e-9
    EXPECT_LT(totalEnergy(s), 1e-9*peak);
    EXPECT_EQ(last.sweepCapHits, 0);
    EXPECT_EQ(last.restingCapHits, 0);
    EXPECT_EQ(last.pairContacts, 2);
    EXPECT_EQ(last.wallContacts, 1);
    // Overlaps: the allowed resting overlap 1e-5 c plus g h^2 per substep
    EXPECT_LT(last.maxOverlapRatio, 1e-3);
    for (int i = 0; i < 3; ++i)
    {
        // Column heights (2i + 1) r to 1e-3 r (overlaps of 1e-5 r each)
        EXPECT_NEAR(s.particles[i].pose.position.z(), (2*i + 1)*r, 1e-3*r);
        EXPECT_LT(s.particles[i].pose.position.head<2>().norm(), 1e-9*r);
    }
}


TEST(DeepContacts, OverlapIsTheGlobalMinimumOfTheDirectionalOverlap)
{
    // The penetration depth is the MINIMUM over n of the directional
    // overlap delta(n) = h_A(n) + h_B(-n) - n.(c_B - c_A), so the reported
    // overlap can never exceed delta at any n. The common-normal Newton
    // started on the centre line can stop in a LOCAL minimum near another
    // face normal of flat-faced shapes: in superellipsoidFilling this gave
    // overlaps of 0.1-0.7 c (true depth 0.006 c) with a wrong normal, and the
    // impulse and overlap removal then pushed particles 0.7 c into their
    // neighbours. Case 1 (found by a random search over eps = 0.2 cube
    // pairs) was reported as 0.994 c while delta = 0.428 c at a face normal;
    // detect() checks the face normals of deep contacts and restarts.
    // Cases 2: cubes in the plane z = 0 (B turned about z), scanned in-plane.
    const double c = 0.0041;                 // cube-like d_eq = 1 cm, as in the demo
    const Superellipsoid cube(c, c, c, 0.2, 0.2);
    auto delta = [&](const Pose& a, const Pose& b, const Vector3& n)
    {
        return directionalOverlap(cube, a, cube, b, n);
    };
    auto detectedOverlap = [&](const Pose& a, const Pose& b)
    {
        ParticleSystem s;
        s.shapes.push_back(cube);
        s.particles.push_back(makeParticle(0, 0, cube, density, a));
        s.particles.push_back(makeParticle(1, 0, cube, density, b));
        CollisionStep step{CollisionSettings()};
        CollisionDiagnostics d;
        const std::vector<StepContact>& contacts = step.detect(s, d);
        return contacts.size() == 1 ? contacts[0].overlap : -1.0;
    };
    // At the kink-like minima of eps = 0.2 faces the Newton stops up to
    // 2.6e-3 c above the true minimum (measured); a local minimum is off by
    // 0.1-0.7 c: tolerance 5e-3 c
    const double tolerance = 5e-3*c;

    // Case 1 (random-search configuration)
    {
        Pose a, b;
        a.orientation = Quaternion(0.14441568970045282, -0.57464505292881973, 0.62208541106764381, -0.5117977266944207);
        b.position = Vector3(-0.0075219329036759477, -0.0028887711339580318, 0.0023703530236424668);
        b.orientation = Quaternion(-0.83483588355608185, 0.32459472301635772, -0.17817377370627555, -0.40735907953589906);
        // (not re-normalised: the trap depends on the last bits, as in a
        // simulation whose quaternions carry round-off)
        double upper = std::numeric_limits<double>::max();
        const int nScan = 20000;                 // Fibonacci directions on the sphere
        for (int k = 0; k < nScan; ++k)
        {
            const double z = 1 - 2*(k + 0.5)/nScan, r = std::sqrt(1 - z*z), phi = 2.399963229728653*k;
            upper = std::min(upper, delta(a, b, Vector3(r*std::cos(phi), r*std::sin(phi), z)));
        }
        const double overlap = detectedOverlap(a, b);
        ASSERT_GT(overlap, 0);
        EXPECT_LT(overlap, upper + tolerance);
        EXPECT_LT(overlap, 0.45*c);              // face-normal value 0.428 c, not 0.994 c
    }

    // Cases 2 (in-plane scan, dtheta = 3e-5: resolution ~1e-9 c)
    int checked = 0;
    for (const double dx : {1.5, 1.7, 1.9})
    {
        for (const double dy : {0.6, 1.0, 1.4, 1.7})
        {
            for (const double turn : {0.0, 0.15, 0.3})
            {
                Pose a, b;
                b.position = c*Vector3(dx, dy, 0);
                b.orientation = rotationAbout(Vector3::UnitZ(), turn);
                double depth = std::numeric_limits<double>::max();
                const int nScan = 200000;
                for (int k = 0; k < nScan; ++k)
                {
                    const double theta = 2*pi*k/nScan;
                    depth = std::min(depth, delta(a, b, Vector3(std::cos(theta), std::sin(theta), 0)));
                }
                if (depth < 1e-3*c) continue;       // separated or grazing: nothing to compare
                EXPECT_NEAR(detectedOverlap(a, b), depth, tolerance) << "dx " << dx << " dy " << dy << " turn " << turn;
                ++checked;
            }
        }
    }
    EXPECT_GE(checked, 20);
}


TEST(RestingContacts, PileOfThirtyRandomSuperellipsoidsInABoxSettles)
{
    // 30 random flat-faced superellipsoids (d ~ 1 cm, eps 0.3-0.6, three
    // different half axes each) thrown down at 1.5 m/s into a 6 x 6 x 18 cm
    // box, eps_n = 0.2, Coulomb mu = 0.5, Dt = 1e-4 s, gravity: within 3 s
    // the kinetic energy falls below 1e-6 of its peak (the pile is at rest:
    // the rms speed is then < 1e-3 of the impact speed), nobody leaves
    // the box and the overlaps stay below the displacement per substep
    const double r = 5e-3, L = 12*r, dt = 1e-4;
    ParticleSystem s;
    std::mt19937_64 shapeRng(11);
    std::uniform_real_distribution<double> u(0, 1);
    for (int k = 0; k < 30; ++k)
    {
        const double eps1 = 0.3 + 0.3*u(shapeRng), eps2 = 0.3 + 0.3*u(shapeRng);
        const double a = r*(1.0 + 0.5*u(shapeRng)), b = r*(0.85 + 0.15*u(shapeRng)), c = r*(0.6 + 0.25*u(shapeRng));
        s.shapes.emplace_back(a, b, c, eps1, eps2);
    }
    addBox(s.walls, Vector3::Zero(), Vector3(L, L, 3*L));
    std::mt19937_64 rng(7);
    for (int i = 0; i < 30; ++i)
    {
        Pose p;
        p.position = Vector3((i % 3 + 0.5)*L/3, ((i/3) % 3 + 0.5)*L/3, 3.2*r*(i/9) + 2*r)
                   + 0.1*r*Vector3(u(rng), u(rng), u(rng));
        p.orientation = randomOrientation(rng);
        const Vector3 v = 0.5*Vector3(u(rng) - 0.5, u(rng) - 0.5, u(rng) - 0.5) - Vector3(0, 0, 1.5);
        s.particles.push_back(makeParticle(i, i, s.shapes[i], density, p, v));
    }
    CollisionSettings settings;
    settings.gravity = Vector3(0, 0, -9.81);
    settings.pairLaw = ImpulseLaw::withFriction(0.2, 0.5);
    settings.wallLaw = ImpulseLaw::withFriction(0.2, 0.5);
    CollisionStep step(settings);
    double peak = 0, lowest = std::numeric_limits<double>::max(), maxOverlap = 0;
    for (int k = 0; k < 30000; ++k)
    {
        const CollisionDiagnostics d = step.advance(s, dt);
        const double e = d.translationalEnergy + d.rotationalEnergy;
        peak = std::max(peak, e);
        if (k*dt > 0.5) lowest = std::min(lowest, e);
        maxOverlap = std::max(maxOverlap, d.maxOverlapRatio);
    }
    for (const Particle& q : s.particles)
    {
        EXPECT_TRUE((q.pose.position.array() > 0).all() && (q.pose.position.array() < Vector3(L, L, 3*L).array()).all())
            << "particle " << q.id << " left the box";
    }
    EXPECT_LT(lowest, 1e-6*peak);
    // An overlap is created within one substep, in which no surface point
    // moves more than displacementFraction c = 0.1 c (impacts at ~2 m/s:
    // 0.06 c measured); resting overlaps are 1e-5 c
    EXPECT_LT(maxOverlap, 0.1);
}


TEST(FrictionlessSweeps, FastPathEqualsTheGeneralImpulseSolution)
{
    // The frictionless sweeps use per-contact constants (lever arms,
    // I^-1 (r x n), 1/(n.K.n)) and global velocities; eps_t = 1 restitution
    // is the same law through resolveImpulse (its frictionless branch) per
    // impulse. One detection + collision and resting sweeps of a dense
    // cluster of four shapes on a floor under gravity (many simultaneous
    // contacts): velocities agree to round-off, 1e-12 of the largest speed
    // (the two paths differ only in the order of floating-point operations)
    ParticleSystem fast = randomCluster(27, 3, 1.9*radius);
    addFloor(fast.walls, -0.8*radius, 0.1);
    for (Particle& p : fast.particles) p.velocity.z() -= 0.05;
    ParticleSystem general = fast;
    CollisionSettings settings;
    settings.gravity = Vector3(0, 0, -9.81);
    settings.pairLaw = ImpulseLaw::frictionless(0.4);
    settings.wallLaw = ImpulseLaw::frictionless(0.3);
    CollisionStep fastStep(settings);
    settings.pairLaw = ImpulseLaw::withTangentialRestitution(0.4, 1.0);
    settings.wallLaw = ImpulseLaw::withTangentialRestitution(0.3, 1.0);
    CollisionStep generalStep(settings);
    const double h = 1e-5;
    CollisionDiagnostics dFast, dGeneral;
    fastStep.detect(fast, dFast);
    generalStep.detect(general, dGeneral);
    ASSERT_EQ(fastStep.contacts().size(), generalStep.contacts().size());
    ASSERT_GT(dFast.pairContacts, 10);
    ASSERT_GT(dFast.wallContacts, 3);
    fastStep.resolveSweeps(fast, dFast, h);
    generalStep.resolveSweeps(general, dGeneral, h);
    EXPECT_EQ(dFast.pairCollisions, dGeneral.pairCollisions);
    EXPECT_EQ(dFast.wallCollisions, dGeneral.wallCollisions);
    double vMax = 0, wMax = 0;
    for (const Particle& p : general.particles)
    {
        vMax = std::max(vMax, p.velocity.norm());
        wMax = std::max(wMax, p.angularVelocity.norm());
    }
    for (int i = 0; i < fast.size(); ++i)
    {
        EXPECT_LT((fast.particles[i].velocity - general.particles[i].velocity).norm(), 1e-12*vMax) << i;
        EXPECT_LT((fast.particles[i].angularVelocity - general.particles[i].angularVelocity).norm(), 1e-12*wMax)
            << i;
    }
}
