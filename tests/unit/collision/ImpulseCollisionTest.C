// Impulse collisions, [Wedel2023] Sect. 4 and 5.4: invariants and analytic references.
#include "collision/ImpulseCollision.H"
#include "CollisionTestHelpers.H"

#include <Eigen/LU>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <functional>
#include <random>
#include <string>

using namespace superellipsoid;
using namespace superellipsoid::testing;

namespace
{

// Round-off of a handful of 3x3 products and one LDLT solve with inertia
// condition numbers <= ~1e3: relative errors ~1e-14, so 1e-12 is a real check.
constexpr double roundoffTolerance = 1e-12;

//- A random eccentric pair: A and B are random solids touching at p, with
//  B oriented so that its outward normal at p is -n (n from A to B)
struct Configuration
{
    RigidBody a, b;
    CollisionPoint contact;
};

Configuration randomConfiguration(std::mt19937_64& rng, bool withWall)
{
    std::uniform_real_distribution<double> U(0, 1);
    std::normal_distribution<double> N(0, 1);
    auto randomSolid = [&]() { return static_cast<Solid>(std::uniform_int_distribution<int>(0, 2)(rng)); };
    // Elongated and blocky: aspect ratios up to 5
    auto randomAxes = [&]() { return Vector3(1 + 4*U(rng), 0.4 + 0.6*U(rng), 0.2 + 0.4*U(rng)); };

    Configuration cfg;
    const Solid solidA = randomSolid();
    const Vector3 hA = randomAxes();
    const Quaternion qA = randomOrientation(rng);
    const double mA = 0.5 + 2*U(rng);
    const SurfacePoint spA = randomSurfacePoint(solidA, hA, rng);
    const Vector3 cA(N(rng), N(rng), N(rng));
    cfg.contact.point = cA + qA*spA.point;
    cfg.contact.normal = (qA*spA.normal).normalized();
    cfg.a = RigidBody::particle(mA, principalMoments(solidA, mA, hA), qA, cA,
                                Vector3(N(rng), N(rng), N(rng)), Vector3(N(rng), N(rng), N(rng)));
    if (withWall)
    {
        cfg.b = RigidBody::wall(0.3*Vector3(N(rng), N(rng), N(rng)));
    }
    else
    {
        const Solid solidB = randomSolid();
        const Vector3 hB = randomAxes();
        const double mB = 0.5 + 2*U(rng);
        const SurfacePoint spB = randomSurfacePoint(solidB, hB, rng);
        const Quaternion q0 = randomOrientation(rng);
        const Quaternion qB = Quaternion::FromTwoVectors(q0*spB.normal, -cfg.contact.normal)*q0;
        const Vector3 cB = cfg.contact.point - qB*spB.point;
        cfg.b = RigidBody::particle(mB, principalMoments(solidB, mB, hB), qB.normalized(), cB,
                                    Vector3(N(rng), N(rng), N(rng)), Vector3(N(rng), N(rng), N(rng)));
    }
    // Make the bodies approach at the contact: shift A's velocity along n
    const double un = relativeContactVelocity(cfg.a, cfg.b, cfg.contact.point).dot(cfg.contact.normal);
    cfg.a.velocity += (std::max(0.0, un) + 0.05 + std::abs(N(rng)))*cfg.contact.normal;
    return cfg;
}

//- Kinetic energy of A (and B) in the frame of a translating wall
double kineticEnergy(const RigidBody& a, const RigidBody& b)
{
    if (!b.isWall()) return a.kineticEnergy() + b.kineticEnergy();
    RigidBody rel = a;
    rel.velocity -= b.velocity;
    return rel.kineticEnergy();
}

RigidBody after(const RigidBody& body, const Vector3& v, const Vector3& w)
{
    RigidBody out = body;
    out.velocity = v;
    out.angularVelocity = w;
    return out;
}

struct StudyCounts
{
    int cases = 0;
    int algebraicGains = 0;
    int energyLimited = 0;
};

//- Invariants of one resolved collision; returns whether the plain algebraic law gains energy
void checkInvariants(const Configuration& cfg, const ImpulseLaw& law, StudyCounts& counts)
{
    const ImpulseResult r = resolveImpulse(cfg.a, cfg.b, cfg.contact, law);
    const RigidBody a1 = after(cfg.a, r.velocityA, r.angularVelocityA);
    const RigidBody b1 = after(cfg.b, r.velocityB, r.angularVelocityB);
    const Vector3& p = cfg.contact.point;
    const Vector3& n = cfg.contact.normal;

    // Eq. (63) of [Wedel2023]: linear momentum of the pair
    if (!cfg.b.isWall())
    {
        const Vector3 p0 = cfg.a.linearMomentum() + cfg.b.linearMomentum();
        const Vector3 p1 = a1.linearMomentum() + b1.linearMomentum();
        const double scale = cfg.a.linearMomentum().norm() + cfg.b.linearMomentum().norm() + r.impulse.norm();
        ASSERT_LE((p1 - p0).norm(), roundoffTolerance*scale);
    }
    // Eq. (70) of [Wedel2023]: each body's angular momentum about the contact point
    for (const auto& pair : {std::make_pair(cfg.a, a1), std::make_pair(cfg.b, b1)})
    {
        const Vector3 L0 = pair.first.angularMomentumAbout(p);
        const Vector3 L1 = pair.second.angularMomentumAbout(p);
        const double scale = L0.norm() + (pair.first.position - p).norm()*r.impulse.norm() + 1e-300;
        ASSERT_LE((L1 - L0).norm(), roundoffTolerance*scale);
    }
    // Energy never increases; the reported dissipation is T- - T+
    const double T0 = kineticEnergy(cfg.a, cfg.b);
    const double T1 = kineticEnergy(a1, b1);
    ASSERT_LE(T1 - T0, roundoffTolerance*T0) << "energy gain " << T1 - T0;
    ASSERT_NEAR(r.energyDissipated, T0 - T1, 1e-10*T0);
    // Eq. (65) of [Wedel2023]: normal restitution exact
    const Vector3 u0 = relativeContactVelocity(cfg.a, cfg.b, p);
    const Vector3 u1 = relativeContactVelocity(a1, b1, p);
    ASSERT_NEAR(u1.dot(n), -law.normalRestitution*u0.dot(n), roundoffTolerance*(u0.norm() + u1.norm()));
    // A contact only pushes; with mu the impulse lies in the Coulomb cone
    ASSERT_GE(r.normalImpulse, -roundoffTolerance*r.impulse.norm());
    if (law.tangential == TangentialModel::coulombSchwager)
    {
        ASSERT_LE(r.tangentialImpulse.norm(), law.frictionCoefficient*r.normalImpulse + roundoffTolerance*r.impulse.norm());
    }

    counts.cases++;
    if (r.energyLimited) counts.energyLimited++;
    if (law.tangential == TangentialModel::restitution)
    {
        RigidBody a2 = cfg.a, b2 = cfg.b;
        applyImpulse(a2, b2, p, algebraicCollisionImpulse(cfg.a, cfg.b, cfg.contact,
                     law.normalRestitution, law.tangentialRestitution));
        if (kineticEnergy(a2, b2) > T0*(1 + 1e-9)) counts.algebraicGains++;
    }
}

ImpulseLaw randomFrictionalLaw(std::mt19937_64& rng)
{
    std::uniform_real_distribution<double> U(0, 1);
    if (U(rng) < 0.5) return ImpulseLaw::withTangentialRestitution(U(rng), 2*U(rng) - 1);
    return ImpulseLaw::withFriction(U(rng), 1.5*U(rng));
}

// Random eccentric study: 25 000 cases per variant, 1e5 in total
constexpr int casesPerVariant = 25000;

} // namespace


TEST(CollisionFrame, FirstAxisIsNormalAndFrameIsOrthonormal)
{
    std::mt19937_64 rng(1);
    for (int i = 0; i < 1000; ++i)
    {
        const Vector3 n = randomOrientation(rng)*Vector3::UnitX();
        const Matrix3 R0 = collisionFrame(n);
        // Sect. 4.1: e1'' = n; R0 orthogonal and proper (round-off level)
        EXPECT_LE((R0.row(0).transpose() - n).norm(), 1e-15);
        EXPECT_LE((R0*R0.transpose() - Matrix3::Identity()).norm(), 1e-14);
        EXPECT_NEAR(R0.determinant(), 1.0, 1e-14);
    }
}


TEST(GlobalInverseInertia, IsotropicExactlyAndRotatedOtherwise)
{
    std::mt19937_64 rng(7);
    std::uniform_real_distribution<double> moment(0.5, 2.0);
    for (int i = 0; i < 1000; ++i)
    {
        const Quaternion q = randomOrientation(rng);
        // Equal moments (a sphere, a cube): I^-1 = (1/I) 1 in every
        // orientation, to the bit (no rotation's round-off)
        const double I = moment(rng);
        const Matrix3 iso = globalInverseInertia(Vector3::Constant(I), q);
        EXPECT_TRUE(((iso - (1/I)*Matrix3::Identity()).array() == 0).all());
        // Unequal: Q diag(1/I') Q^T (Eq. 62 of [Wedel2023]), symmetric to
        // the bit; round-off of two 3x3 products of entries <= 2: 1e-14
        const Vector3 m(moment(rng), moment(rng), moment(rng));
        const Matrix3 Q = q.toRotationMatrix();
        const Matrix3 reference = Q*m.cwiseInverse().asDiagonal()*Q.transpose();
        const Matrix3 rotated = globalInverseInertia(m, q);
        EXPECT_LE((rotated - reference).norm(), 1e-14);
        EXPECT_TRUE(((rotated - rotated.transpose()).array() == 0).all());
    }
}


TEST(CollisionMatrix, ReproducesTheTwelveByTwelveConservationSystem)
{
    // Eqs. (63), (65), (67), (70) of [Wedel2023] as one 12x12 linear system in the unknowns
    // (c_A, c_B, psi_A, psi_B) -- Eqs. (71)-(72) of [Wedel2023] written in the global frame --
    // must give the same post-collision state as the collision-matrix form.
    std::mt19937_64 rng(2);
    std::uniform_real_distribution<double> U(0, 1);
    for (int i = 0; i < 200; ++i)
    {
        const Configuration cfg = randomConfiguration(rng, false);
        const double epsN = U(rng), epsT = 2*U(rng) - 1;
        const Vector3 p = cfg.contact.point;
        const Matrix3 R0 = collisionFrame(cfg.contact.normal);
        const double mA = 1/cfg.a.inverseMass, mB = 1/cfg.b.inverseMass;
        const Matrix3 IA = cfg.a.inverseInertia.inverse(), IB = cfg.b.inverseInertia.inverse();
        const Vector3 rA = p - cfg.a.position, rB = p - cfg.b.position;
        auto skew = [](const Vector3& r) {
            Matrix3 s; s << 0, -r.z(), r.y(), r.z(), 0, -r.x(), -r.y(), r.x(), 0; return s; };

        Eigen::Matrix<double, 12, 12> A = Eigen::Matrix<double, 12, 12>::Zero();
        Eigen::Matrix<double, 12, 1> b;
        // (63)
        A.block<3, 3>(0, 0) = mA*Matrix3::Identity();
        A.block<3, 3>(0, 3) = mB*Matrix3::Identity();
        b.segment<3>(0) = mA*cfg.a.velocity + mB*cfg.b.velocity;
        // (65), (67): R0 (c_BP - c_AP) = diag(-eps_n, eps_t, eps_t) R0 (v_BP - v_AP), c_iP = c_i - [r_i]x psi_i
        A.block<3, 3>(3, 0) = -R0;
        A.block<3, 3>(3, 3) = R0;
        A.block<3, 3>(3, 6) = R0*skew(rA);
        A.block<3, 3>(3, 9) = -R0*skew(rB);
        const Vector3 uMinus = relativeContactVelocity(cfg.a, cfg.b, p);
        b.segment<3>(3) = Vector3(-epsN, epsT, epsT).asDiagonal()*(R0*uMinus);
        // (70): I psi + (r_c - r_P) x m c = I omega + (r_c - r_P) x m v, per body
        A.block<3, 3>(6, 0) = -mA*skew(rA);
        A.block<3, 3>(6, 6) = IA;
        b.segment<3>(6) = IA*cfg.a.angularVelocity - mA*rA.cross(cfg.a.velocity);
        A.block<3, 3>(9, 3) = -mB*skew(rB);
        A.block<3, 3>(9, 9) = IB;
        b.segment<3>(9) = IB*cfg.b.angularVelocity - mB*rB.cross(cfg.b.velocity);
        const Eigen::Matrix<double, 12, 1> x = A.fullPivLu().solve(b);

        RigidBody a1 = cfg.a, b1 = cfg.b;
        applyImpulse(a1, b1, p, algebraicCollisionImpulse(cfg.a, cfg.b, cfg.contact, epsN, epsT));
        // Both are direct solves of the same well-posed system: agree to round-off
        const double scale = uMinus.norm() + cfg.a.velocity.norm() + cfg.b.velocity.norm()
                           + cfg.a.angularVelocity.norm() + cfg.b.angularVelocity.norm();
        EXPECT_LE((x.segment<3>(0) - a1.velocity).norm(), 1e-10*scale);
        EXPECT_LE((x.segment<3>(3) - b1.velocity).norm(), 1e-10*scale);
        EXPECT_LE((x.segment<3>(6) - a1.angularVelocity).norm(), 1e-10*scale);
        EXPECT_LE((x.segment<3>(9) - b1.angularVelocity).norm(), 1e-10*scale);
    }
}


TEST(ImpulsePair, FrictionalConservesMomentaAndNeverGainsEnergy)
{
    std::mt19937_64 rng(3);
    StudyCounts counts;
    for (int i = 0; i < casesPerVariant; ++i)
    {
        checkInvariants(randomConfiguration(rng, false), randomFrictionalLaw(rng), counts);
    }
    EXPECT_EQ(counts.cases, casesPerVariant);
    // The study must contain cases where the plain algebraic law (Eq. 67 of [Wedel2023]) creates energy
    EXPECT_GT(counts.algebraicGains, 0);
    EXPECT_GT(counts.energyLimited, 0);
    std::printf("pair frictional: %d cases, algebraic law gains energy in %d, energy bound active in %d\n",
                counts.cases, counts.algebraicGains, counts.energyLimited);
}


TEST(ImpulsePair, FrictionlessConservesMomentaAndNeverGainsEnergy)
{
    std::mt19937_64 rng(4);
    std::uniform_real_distribution<double> U(0, 1);
    StudyCounts counts;
    for (int i = 0; i < casesPerVariant; ++i)
    {
        checkInvariants(randomConfiguration(rng, false), ImpulseLaw::frictionless(U(rng)), counts);
    }
    EXPECT_EQ(counts.cases, casesPerVariant);
}


TEST(ImpulseWall, FrictionalConservesAngularMomentumAboutContactAndNeverGainsEnergy)
{
    std::mt19937_64 rng(5);
    StudyCounts counts;
    for (int i = 0; i < casesPerVariant; ++i)
    {
        checkInvariants(randomConfiguration(rng, true), randomFrictionalLaw(rng), counts);
    }
    EXPECT_EQ(counts.cases, casesPerVariant);
    EXPECT_GT(counts.algebraicGains, 0);
    std::printf("wall frictional: %d cases, algebraic law gains energy in %d, energy bound active in %d\n",
                counts.cases, counts.algebraicGains, counts.energyLimited);
}


TEST(ImpulseWall, FrictionlessConservesAngularMomentumAboutContactAndNeverGainsEnergy)
{
    std::mt19937_64 rng(6);
    std::uniform_real_distribution<double> U(0, 1);
    StudyCounts counts;
    for (int i = 0; i < casesPerVariant; ++i)
    {
        checkInvariants(randomConfiguration(rng, true), ImpulseLaw::frictionless(U(rng)), counts);
    }
    EXPECT_EQ(counts.cases, casesPerVariant);
}


TEST(ImpulseFrictionless, ElasticCollisionConservesEnergyExactly)
{
    std::mt19937_64 rng(7);
    for (int i = 0; i < 2000; ++i)
    {
        const Configuration cfg = randomConfiguration(rng, i % 2 == 0);
        const ImpulseResult r = resolveImpulse(cfg.a, cfg.b, cfg.contact, ImpulseLaw::frictionless(1.0));
        const double T0 = kineticEnergy(cfg.a, cfg.b);
        const double T1 = kineticEnergy(after(cfg.a, r.velocityA, r.angularVelocityA),
                                        after(cfg.b, r.velocityB, r.angularVelocityB));
        ASSERT_NEAR(T1, T0, roundoffTolerance*T0);
        // eps_t = 1 in the frictional variant is the frictionless collision
        const ImpulseResult rt = resolveImpulse(cfg.a, cfg.b, cfg.contact, ImpulseLaw::withTangentialRestitution(1.0, 1.0));
        ASSERT_LE((rt.impulse - r.impulse).norm(), roundoffTolerance*r.impulse.norm());
        ASSERT_LE(r.tangentialImpulse.norm(), roundoffTolerance*r.impulse.norm());
    }
}


TEST(SphereLimit, FrictionalVariantReproducesTangentialRestitutionLaw)
{
    // Spheres: K decouples normal and tangential directions, so Eq. (67) of [Wedel2023]
    // holds exactly and the algebraic and energy-consistent laws coincide.
    std::mt19937_64 rng(8);
    std::uniform_real_distribution<double> U(0, 1);
    std::normal_distribution<double> N(0, 1);
    for (int i = 0; i < 2000; ++i)
    {
        const double RA = 0.5 + U(rng), RB = 0.5 + U(rng);
        const double mA = 1 + U(rng), mB = 1 + U(rng);
        const Vector3 n = randomOrientation(rng)*Vector3::UnitX();
        RigidBody a = RigidBody::particle(mA, Vector3::Constant(0.4*mA*RA*RA), Quaternion::Identity(),
                                          Vector3::Zero(), Vector3(N(rng), N(rng), N(rng)), Vector3(N(rng), N(rng), N(rng)));
        RigidBody b = (i % 2 == 0)
            ? RigidBody::particle(mB, Vector3::Constant(0.4*mB*RB*RB), Quaternion::Identity(), (RA + RB)*n,
                                  Vector3(N(rng), N(rng), N(rng)), Vector3(N(rng), N(rng), N(rng)))
            : RigidBody::wall();
        const CollisionPoint c{RA*n, n, 0};
        const double un = relativeContactVelocity(a, b, c.point).dot(n);
        a.velocity += (std::max(0.0, un) + 0.1)*n;
        const double epsN = U(rng), epsT = 2*U(rng) - 1;
        const ImpulseResult r = resolveImpulse(a, b, c, ImpulseLaw::withTangentialRestitution(epsN, epsT));
        const Vector3 u0 = relativeContactVelocity(a, b, c.point);
        const Vector3 u1 = relativeContactVelocity(after(a, r.velocityA, r.angularVelocityA),
                                                   after(b, r.velocityB, r.angularVelocityB), c.point);
        const Vector3 ut0 = u0 - u0.dot(n)*n, ut1 = u1 - u1.dot(n)*n;
        ASSERT_LE((ut1 - epsT*ut0).norm(), roundoffTolerance*u0.norm());
        ASSERT_NEAR(u1.dot(n), -epsN*u0.dot(n), roundoffTolerance*u0.norm());
        ASSERT_FALSE(r.energyLimited);
        const Vector3 Palg = algebraicCollisionImpulse(a, b, c, epsN, epsT);
        ASSERT_LE((r.impulse - Palg).norm(), roundoffTolerance*Palg.norm());
    }
}


TEST(SphereLimit, GeneralisedAlphaIsTwoSeventhsAndSchwagerEpsTFollowsEq87)
{
    const double R = 0.3, m = 2;
    const Vector3 n = Vector3(1, 2, -1).normalized();
    const RigidBody a = RigidBody::particle(m, Vector3::Constant(0.4*m*R*R), Quaternion::Identity(),
                                            Vector3::Zero(), Vector3(1, 0.5, 0.2), Vector3(0.3, -2, 1));
    const RigidBody b = RigidBody::particle(m, Vector3::Constant(0.4*m*R*R), Quaternion::Identity(),
                                            2*R*n, Vector3(-1, 0, 0.4), Vector3::Zero());
    const CollisionPoint c{R*n, n, 0};
    const Matrix3 K = collisionMatrix(a, b, c.point);
    const Vector3 t = n.unitOrthogonal();
    // Eq. (88) of [Wedel2023]: alpha = 2/7 for homogeneous spheres (pair and wall)
    EXPECT_NEAR(generalisedAlpha(K, n, t), 2.0/7.0, 1e-14);
    EXPECT_NEAR(generalisedAlpha(collisionMatrix(a, RigidBody::wall(), c.point), n, t), 2.0/7.0, 1e-14);

    const double epsN = 0.6, mu = 0.1;
    const Vector3 u = relativeContactVelocity(a, b, c.point);
    const double gn = -u.dot(n), gt = (u - u.dot(n)*n).norm();
    const double expected = std::max(0.0, 1 - mu*(1 + epsN)/(2.0/7.0)*gn/gt);   // Eq. (87) of [Wedel2023]
    ASSERT_GT(expected, 0);   // this configuration slides
    const ImpulseResult r = resolveImpulse(a, b, c, ImpulseLaw::withFriction(epsN, mu));
    EXPECT_NEAR(r.tangentialRestitution, expected, 1e-14);
    EXPECT_EQ(r.regime, ImpulseRegime::sliding);
    // In the sliding regime of Eq. (87) of [Wedel2023] the impulse sits on the Coulomb cone |P_t| = mu P_n
    EXPECT_NEAR(r.tangentialImpulse.norm(), mu*r.normalImpulse, 1e-12*r.normalImpulse);
    // Large mu: sticking, eps_t = 0
    const ImpulseResult s = resolveImpulse(a, b, c, ImpulseLaw::withFriction(epsN, 10));
    EXPECT_EQ(s.regime, ImpulseRegime::sticking);
    EXPECT_EQ(s.tangentialRestitution, 0);
}


TEST(HeadOnSpheres, PostCollisionVelocitiesAreExact)
{
    const double m1 = 1, m2 = 3, v1 = 2, v2 = -1, e = 0.8, R = 0.5;
    const RigidBody a = RigidBody::particle(m1, Vector3::Constant(0.4*m1*R*R), Quaternion::Identity(),
                                            Vector3::Zero(), Vector3(v1, 0, 0), Vector3::Zero());
    const RigidBody b = RigidBody::particle(m2, Vector3::Constant(0.4*m2*R*R), Quaternion::Identity(),
                                            Vector3(2*R, 0, 0), Vector3(v2, 0, 0), Vector3::Zero());
    const CollisionPoint c{Vector3(R, 0, 0), Vector3::UnitX(), 0};
    const double c1 = (m1*v1 + m2*v2 - m2*e*(v1 - v2))/(m1 + m2);
    const double c2 = (m1*v1 + m2*v2 + m1*e*(v1 - v2))/(m1 + m2);
    for (const ImpulseLaw& law : {ImpulseLaw::frictionless(e), ImpulseLaw::withTangentialRestitution(e, -0.5),
                                  ImpulseLaw::withFriction(e, 0.4)})
    {
        const ImpulseResult r = resolveImpulse(a, b, c, law);
        // exact 1-D result; round-off only
        EXPECT_NEAR(r.velocityA.x(), c1, 1e-14);
        EXPECT_NEAR(r.velocityB.x(), c2, 1e-14);
        EXPECT_LE(r.velocityA.tail<2>().norm() + r.angularVelocityA.norm() + r.angularVelocityB.norm(), 1e-14);
        EXPECT_NEAR(r.energyDissipated, 0.5*m1*m2/(m1 + m2)*(1 - e*e)*(v1 - v2)*(v1 - v2), 1e-13);
    }
}


TEST(Kodam, EccentricCylinderOnWallMatchesEqs41And42)
{
    // Eqs. (41)-(42) of [Podlozhnyuk2017]: frictionless, zero spin, impact normal to the wall;
    // cylinder of diameter D, length L tilted by theta, landing on a corner C
    const double D = 0.02, L = 0.06, m = 0.05, V = 2.0;
    const double Iyy = m*(3*0.25*D*D + L*L)/12, Izz = 0.5*m*0.25*D*D;
    const double r = std::hypot(0.5*D, 0.5*L), alpha = std::atan2(L, D);
    for (double eps : {1.0, 0.7})
    {
        for (int deg = 5; deg <= 85; deg += 5)
        {
            const double theta = deg*M_PI/180;
            // Body axis z' along the cylinder axis, tilted about y by theta
            const Quaternion q(Eigen::AngleAxisd(theta, Vector3::UnitY()));
            const RigidBody cyl = RigidBody::particle(m, Vector3(Iyy, Iyy, Izz), q, Vector3::Zero(),
                                                      Vector3(0, 0, -V), Vector3::Zero());
            const Vector3 corner = q*Vector3(0.5*D, 0, -0.5*L);   // lowest corner
            const CollisionPoint c{corner, -Vector3::UnitZ(), 0};
            const ImpulseResult res = resolveWallImpulse(cyl, Vector3::Zero(), c, ImpulseLaw::frictionless(eps));
            const double lever = r*std::cos(alpha + theta);
            const double omegaKodam = m*V*(1 + eps)*lever/(Iyy + m*lever*lever);   // (41)
            const double VplusKodam = omegaKodam*lever - eps*V;                    // (42), V+ towards the wall
            // rotation about +y by theta makes Kodam's positive spin our -y
            EXPECT_NEAR(-res.angularVelocityA.y(), omegaKodam, 1e-12*std::abs(omegaKodam) + 1e-12)
                << "theta = " << deg;
            EXPECT_NEAR(-res.velocityA.z(), VplusKodam, 1e-12*V) << "theta = " << deg;
            EXPECT_LE(std::abs(res.angularVelocityA.x()) + std::abs(res.angularVelocityA.z()), 1e-12);
        }
    }
}


TEST(Centric, NonSphericalShapesGetNoAngularVelocity)
{
    // Contact on a principal axis with the normal along it (r || n): no torque
    // lever, so the post-collision spin stays zero for any inertia tensor.
    std::mt19937_64 rng(9);
    struct Shape { const char* name; Solid solid; Vector3 h; };
    const Shape shapes[] = {
        {"sphere", Solid::ellipsoid, Vector3(1, 1, 1)},
        {"prolate", Solid::ellipsoid, Vector3(3, 1, 1)},
        {"cube-like", Solid::box, Vector3(1, 0.8, 0.6)},
        {"diamond-like", Solid::octahedron, Vector3(2, 1, 0.7)}};
    for (const Shape& s : shapes)
    {
        for (int axis = 0; axis < 3; ++axis)
        {
            const Quaternion q = randomOrientation(rng);
            const Vector3 n = q*Vector3::Unit(axis);
            const Vector3 I = principalMoments(s.solid, 1.0, s.h);
            const RigidBody p = RigidBody::particle(1.0, I, q, Vector3::Zero(), 1.5*n, Vector3::Zero());
            const CollisionPoint c{s.h[axis]*n, n, 0};
            RigidBody partner = RigidBody::particle(2.0, principalMoments(s.solid, 2.0, s.h), q,
                                                    2*s.h[axis]*n, -0.5*n, Vector3::Zero());
            for (const ImpulseLaw& law : {ImpulseLaw::frictionless(0.9), ImpulseLaw::withTangentialRestitution(0.5, 0.3),
                                          ImpulseLaw::withFriction(0.2, 0.25)})
            {
                const ImpulseResult w = resolveWallImpulse(p, Vector3::Zero(), c, law);
                const ImpulseResult pp = resolveImpulse(p, partner, c, law);
                // round-off of the rotated inertia tensor only
                EXPECT_LE(w.angularVelocityA.norm(), 1e-13) << s.name;
                EXPECT_LE(pp.angularVelocityA.norm() + pp.angularVelocityB.norm(), 1e-13) << s.name;
                EXPECT_NEAR(w.velocityA.dot(n), -law.normalRestitution*1.5, 1e-13) << s.name;
            }
        }
    }
}


TEST(ImpulseWall, MovingWallReflectsInItsOwnFrame)
{
    const RigidBody p = RigidBody::particle(1, Vector3::Constant(0.1), Quaternion::Identity(),
                                            Vector3::Zero(), Vector3::Zero(), Vector3::Zero());
    const CollisionPoint c{Vector3(0.5, 0, 0), Vector3::UnitX(), 0};
    // wall approaching at 2 m/s; elastic: particle leaves at 2*2 m/s (Galilean reflection)
    const ImpulseResult r = resolveWallImpulse(p, Vector3(-2, 0, 0), c, ImpulseLaw::frictionless(1));
    EXPECT_NEAR(r.velocityA.x(), -4, 1e-14);
    EXPECT_NEAR(r.energyDissipated, 0, 1e-14);
    // receding wall: no impulse
    EXPECT_EQ(resolveWallImpulse(p, Vector3(2, 0, 0), c, ImpulseLaw::frictionless(1)).regime,
              ImpulseRegime::separating);
}


namespace
{
void expectThrowNaming(const std::function<void()>& f, const std::string& name)
{
    try
    {
        f();
        ADD_FAILURE() << "no exception for " << name;
    }
    catch (const std::invalid_argument& e)
    {
        EXPECT_NE(std::string(e.what()).find(name), std::string::npos) << e.what();
    }
}
}

TEST(ImpulseValidation, InvalidInputThrowsNamingTheParameter)
{
    const RigidBody a = RigidBody::particle(1, Vector3::Constant(1), Quaternion::Identity(),
                                            Vector3::Zero(), Vector3(1, 0, 0), Vector3::Zero());
    const CollisionPoint c{Vector3(0.5, 0, 0), Vector3::UnitX(), 0};
    const RigidBody w = RigidBody::wall();
    // The law is checked where it is made, once (validateImpulseLaw), not per collision
    expectThrowNaming([&] { validateImpulseLaw(ImpulseLaw::frictionless(1.5)); }, "normalRestitution = 1.5");
    expectThrowNaming([&] { validateImpulseLaw(ImpulseLaw::withTangentialRestitution(0.5, -1.2)); },
                      "tangentialRestitution = -1.2");
    expectThrowNaming([&] { validateImpulseLaw(ImpulseLaw::withFriction(0.5, -0.1)); }, "frictionCoefficient");
    expectThrowNaming([&] { algebraicCollisionImpulse(a, w, c, 0.5, 1.5); }, "tangentialRestitution");
    expectThrowNaming([&] { resolveImpulse(a, w, CollisionPoint{Vector3::Zero(), Vector3(2, 0, 0), 0},
                                           ImpulseLaw::frictionless(1)); }, "normal");
    expectThrowNaming([&] { resolveImpulse(w, w, c, ImpulseLaw::frictionless(1)); }, "inverseMass");
    expectThrowNaming([&] { RigidBody::particle(-1, Vector3::Constant(1), Quaternion::Identity(),
                                                Vector3::Zero(), Vector3::Zero(), Vector3::Zero()); }, "mass");
    expectThrowNaming([&] { RigidBody::particle(1, Vector3(1, 0, 1), Quaternion::Identity(),
                                                Vector3::Zero(), Vector3::Zero(), Vector3::Zero()); }, "principalMoments");
    RigidBody bad = a;
    bad.velocity.x() = std::nan("");
    expectThrowNaming([&] { resolveImpulse(bad, w, c, ImpulseLaw::frictionless(1)); }, "velocity");
}


TEST(ImpulseValidation, RangesIncludeTheirBoundsAndNothingBeyond)
{
    // The named bounds are valid values; the next doubles beyond them and NaN are not
    using L = ImpulseLaw;
    EXPECT_NO_THROW(validateImpulseLaw(L::withTangentialRestitution(L::minimumNormalRestitution,
                                                                    L::minimumTangentialRestitution)));
    EXPECT_NO_THROW(validateImpulseLaw(L::withTangentialRestitution(L::maximumNormalRestitution,
                                                                    L::maximumTangentialRestitution)));
    const double below = std::nextafter(L::minimumNormalRestitution, -1.0);
    const double above = std::nextafter(L::maximumNormalRestitution, 2.0);
    expectThrowNaming([&] { validateImpulseLaw(L::frictionless(below)); }, "normalRestitution");
    expectThrowNaming([&] { validateImpulseLaw(L::frictionless(above)); }, "must be in [0, 1]");
    expectThrowNaming([&] { validateImpulseLaw(L::frictionless(std::nan(""))); }, "normalRestitution");
    expectThrowNaming([&] { validateImpulseLaw(L::withTangentialRestitution(
                                0.5, std::nextafter(L::maximumTangentialRestitution, 2.0))); },
                      "must be in [-1, 1]");
}


TEST(CollisionMatrix, PrintedFrictionlessWallSystemIgnoresNormalAngularMomentumRow)
{
    // Eq. (86) of [Wedel2023] as printed imposes psi_x'' = omega_x'' (Eq. 83) and drops the x
    // row of Eq. (80) of [Wedel2023]. With a full inertia tensor in the collision frame
    // (I''_xy, I''_xz != 0) that row is then violated; our impulse form keeps it.
    // When the normal is a principal axis (I''_xy = I''_xz = 0) both agree.
    auto solvePrinted = [](const RigidBody& p, const CollisionPoint& c, double epsN) {
        const Matrix3 R0 = collisionFrame(c.normal);
        const double m = 1/p.inverseMass;
        const Matrix3 I = R0*p.inverseInertia.inverse()*R0.transpose();
        const Vector3 r = R0*(p.position - c.point);   // r'' = R0 r*, Eq. (60) of [Wedel2023]
        const Vector3 v = R0*p.velocity, w = R0*p.angularVelocity;
        Matrix3 A;
        A << 1, -r.z(), r.y(),
             m*r.z(), I(1, 1), I(1, 2),
             -m*r.y(), I(2, 1), I(2, 2);
        const Vector3 b(-epsN*(v.x() + r.y()*w.z() - r.z()*w.y()),
                        I(1, 1)*w.y() + I(1, 2)*w.z() + m*r.z()*v.x(),
                        I(2, 1)*w.y() + I(2, 2)*w.z() - m*r.y()*v.x());
        const Vector3 x = A.lu().solve(b);
        RigidBody out = p;
        out.velocity = R0.transpose()*Vector3(x[0], v.y(), v.z());
        out.angularVelocity = R0.transpose()*Vector3(w.x(), x[1], x[2]);
        return out;
    };
    const Vector3 I(0.3, 1.0, 1.2);
    const Vector3 pointLocal(0.8, 0.4, 0.1), normalLocal = Vector3(0.8, 0.4, 0.1).normalized();
    for (bool principal : {false, true})
    {
        const Quaternion q(Eigen::AngleAxisd(0.6, Vector3(1, -2, 0.5).normalized()));
        const Vector3 pl = principal ? Vector3(1, 0, 0) : pointLocal;
        const Vector3 nl = principal ? Vector3(1, 0, 0) : normalLocal;
        const RigidBody p = RigidBody::particle(1.0, I, q, Vector3::Zero(), -(q*nl) + Vector3(0.1, 0.2, -0.3),
                                                Vector3(0.5, -1, 0.3));
        CollisionPoint c{q*pl + Vector3(0, 0, 0.05), (q*nl).normalized(), 0};
        if (principal) c.point = q*pl;
        const RigidBody printed = solvePrinted(p, c, 0.8);
        const ImpulseResult ours = resolveWallImpulse(p, Vector3::Zero(), c, ImpulseLaw::frictionless(0.8));
        const Vector3 L0 = p.angularMomentumAbout(c.point);
        const double errPrinted = (printed.angularMomentumAbout(c.point) - L0).norm()/L0.norm();
        const double errOurs = (after(p, ours.velocityA, ours.angularVelocityA).angularMomentumAbout(c.point) - L0).norm()/L0.norm();
        EXPECT_LE(errOurs, roundoffTolerance);
        if (principal)
        {
            EXPECT_LE(errPrinted, 1e-12);   // identical when the normal is principal
            EXPECT_LE((printed.angularVelocity - ours.angularVelocityA).norm(), 1e-12);
        }
        else
        {
            EXPECT_GT(errPrinted, 1e-3);    // a real violation, not round-off
        }
    }
}
