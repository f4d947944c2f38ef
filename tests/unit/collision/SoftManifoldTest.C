// Soft contact on a manifold: restitution with lever arms, the shared
// stiffness of face contacts, per-point springs and rolling resistance.
#include "collision/SoftContact.H"
#include "CollisionTestHelpers.H"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>

using namespace superellipsoid;
using namespace superellipsoid::testing;

namespace
{

constexpr double infinity = std::numeric_limits<double>::infinity();
const ContactMaterial glass = ContactMaterial::elastic(5e7, 0.3);

//- Rigid body with body-fixed contact corners on the floor z = 0; velocity
//  Verlet with the angular momentum and a rotation-vector drift
struct CornerBody
{
    double mass = 1;
    Vector3 moments = Vector3::Ones();          // principal moments
    Quaternion q = Quaternion::Identity();
    Vector3 x = Vector3::Zero(), v = Vector3::Zero(), L = Vector3::Zero();
    std::vector<Vector3> corners;               // body frame

    Matrix3 inverseInertia() const
    {
        const Matrix3 Q = q.toRotationMatrix();
        return Q*moments.cwiseInverse().asDiagonal()*Q.transpose();
    }
    RigidBody body() const
    {
        return RigidBody::particle(mass, moments, q, x, v, inverseInertia()*L);
    }
    Vector3 corner(int i) const { return x + q*corners[i]; }

    //- Manifold on the floor: normal from the body into the floor (-z)
    ContactManifold manifold() const
    {
        ContactManifold m;
        m.normal = -Vector3::UnitZ();
        for (int i = 0; i < int(corners.size()); ++i)
        {
            const Vector3 c = corner(i);
            m.points[i].depth = -c.z();
            m.points[i].point = c + 0.5*m.points[i].depth*Vector3::UnitZ();
            m.points[i].pointInA = corners[i];
        }
        m.count = int(corners.size());
        return m;
    }
    void kick(const Vector3& F, const Vector3& T, double dt)
    {
        v += 0.5*dt/mass*F;
        L += 0.5*dt*T;
    }
    void drift(double dt)
    {
        x += dt*v;
        const Vector3 w = inverseInertia()*L;
        const double angle = w.norm()*dt;
        if (angle > 0) q = (Quaternion(Eigen::AngleAxisd(angle, w.normalized()))*q).normalized();
    }
};

//- Drop the body on the floor; returns -u_n(after)/u_n(before) of the
//  material point the force acts on, at corner 0 (body fixed)
double dropRestitution(CornerBody c, const SoftContactParameters& p, double dt)
{
    const RigidBody wall = RigidBody::wall();
    auto normalSpeed = [&]() { return c.body().pointVelocity(c.corner(0)).z(); };
    const double before = normalSpeed();
    TangentialHistory history;
    SoftContactResult f;
    bool touched = false;
    for (int step = 0; step < 200000; ++step)
    {
        c.kick(-f.forceOnB, f.torqueOnA, dt);
        c.drift(dt);
        f = softManifoldForce(c.body(), wall, c.manifold(), p, history, 1e-6, dt);
        history = f.history;
        c.kick(-f.forceOnB, f.torqueOnA, dt);
        touched = touched || f.inContact;
        if (touched && c.manifold().maxDepth() <= 0) return -normalSpeed()/before;
    }
    ADD_FAILURE() << "contact did not end";
    return 0;
}

} // namespace


TEST(SoftManifoldRestitution, EccentricCylinderRimImpactWithinOnePercent)
{
    // Flat-ended cylinder R = 0.01 m, length 0.04 m, tilted 60 deg about x,
    // lands on its lowest rim point r0 = (0, -R, -h) (body fixed during the
    // impact): lever arm 0.0123 m, n.K.n = 1.96/m, so a dashpot on m* = m
    // would damp sqrt(1.96) = 1.4 times too much (eps_n 0.7 -> ~0.6).
    // Glass-stiff (E = 5e10 Pa): the body turns by ~1e-3 rad during the
    // impact, so the lever arm is constant to 0.2 % (with E = 5e7 Pa it
    // turns by 0.013 rad and the rebound differs by 2 % from eps_n: a
    // finite-duration effect, not the law's).
    const ContactMaterial stiff = ContactMaterial::elastic(5e10, 0.25);
    const double R = 0.01, h = 0.02, rho = 1000, theta = M_PI/3, v = 0.5, e = 0.7;
    for (NormalForceLaw normalLaw : {NormalForceLaw::hertz, NormalForceLaw::hooke})
    {
        CornerBody c;
        c.mass = rho*M_PI*R*R*2*h;
        const double Ixx = c.mass*(3*R*R + 4*h*h)/12;
        c.moments = Vector3(Ixx, Ixx, 0.5*c.mass*R*R);
        c.q = Quaternion(Eigen::AngleAxisd(theta, Vector3::UnitX()));
        c.corners = {Vector3(0, -R, -h)};
        c.x = -(c.q*c.corners[0]) + 1e-12*Vector3::UnitZ();
        c.v = Vector3(0, 0, -v);
        SoftContactLaw law;
        law.normalLaw = normalLaw;
        law.restitution = e;
        const SoftContactModel model(stiff, ContactMaterial::rigidWall(), law);
        const SoftContactParameters p = model.parameters(c.body(), RigidBody::wall(), R, infinity);
        const double massRatio = normalEffectiveMass(c.body(), RigidBody::wall(), c.corner(0), -Vector3::UnitZ())/c.mass;
        ASSERT_LT(massRatio, 0.6);   // the lever arm matters
        // 400 steps per m* contact time (shorter here): dashpot half-step error << 1 %
        const double measured = dropRestitution(c, p, contactDuration(p, v)/400);
        EXPECT_NEAR(measured, e, 0.01*e);
        std::printf("%s rim impact: m_eff/m = %.3f, e = %.5f (eps_n %.2f)\n",
                    normalLaw == NormalForceLaw::hertz ? "Hertz" : "Hooke", massRatio, measured, e);
    }
}


TEST(SoftManifoldRestitution, FaceDroppedFlatReboundsWithEpsN)
{
    // Cube of half size s face down on four corner points: the dashpot mass
    // at the centre of the points is m, so the heave rebounds with eps_n
    // (per-point effective masses m/4 would give a quarter of the damping)
    const double s = 0.01, rho = 1000, v = 0.5, e = 0.5;
    CornerBody c;
    c.mass = rho*8*s*s*s;
    c.moments = Vector3::Constant(c.mass*4*s*s/6);
    c.corners = {Vector3(-s, -s, -s), Vector3(s, -s, -s), Vector3(s, s, -s), Vector3(-s, s, -s)};
    c.x = Vector3(0, 0, s + 1e-12);
    c.v = Vector3(0, 0, -v);
    SoftContactLaw law;
    law.restitution = e;
    const SoftContactModel model(glass, ContactMaterial::rigidWall(), law);
    const SoftContactParameters p = model.parameters(c.body(), RigidBody::wall(), 10*s, infinity);
    const double measured = dropRestitution(c, p, contactDuration(p, v)/400);
    EXPECT_NEAR(measured, e, 0.01*e);
    std::printf("face drop: e = %.5f (eps_n %.2f)\n", measured, e);
}


TEST(SoftManifoldStiffness, FlatFaceOfNPointsHasTheSinglePointForce)
{
    // N points at one depth: total force k delta^a, whatever N (exact up to
    // round-off), and a symmetric face has no torque about its centre
    for (NormalForceLaw normalLaw : {NormalForceLaw::hertz, NormalForceLaw::hooke})
    {
        SoftContactLaw law;
        law.normalLaw = normalLaw;
        law.restitution = 0.5;
        const SoftContactModel model(glass, ContactMaterial::rigidWall(), law);
        const RigidBody body = RigidBody::particle(1e-3, Vector3::Constant(1e-8), Quaternion::Identity(),
                                                   Vector3(0, 0, 0.01), Vector3::Zero(), Vector3::Zero());
        const SoftContactParameters p = model.parameters(body, RigidBody::wall(), 0.05, infinity);
        const double delta = 1e-5;
        const double single = p.normalStiffness*(normalLaw == NormalForceLaw::hertz ? std::pow(delta, 1.5) : delta);
        const Vector3 square[4] = {{-1, -1, 0}, {1, -1, 0}, {1, 1, 0}, {-1, 1, 0}};
        for (int N = 1; N <= maxManifoldPoints; ++N)
        {
            ContactManifold m;
            m.normal = -Vector3::UnitZ();
            m.count = N;
            for (int i = 0; i < N; ++i)
            {
                m.points[i].point = (N == 1 ? Vector3::Zero() : Vector3(0.005*square[N == 2 ? 2*i : i]));
                m.points[i].depth = delta;
            }
            const SoftContactResult r = softManifoldForce(body, RigidBody::wall(), m, p, {}, 1e-6, 1e-6);
            EXPECT_NEAR(r.normalForce, single, 1e-12*single) << N;
            EXPECT_EQ(r.points, N);
            if (N != 3) EXPECT_LE(r.torqueOnA.norm(), 1e-12*single*0.01) << N;
        }
    }
}


TEST(SoftManifoldSprings, PointsKeepTheirSpringsWhenReorderedAndFaceResistsTwist)
{
    // A square face twisting about n: the per-point spring-dashpots give a
    // torque about n against the twist (a single point gives none); permuting the
    // manifold's points between steps changes nothing (matched by pointInA)
    SoftContactLaw law;
    law.staticFriction = law.dynamicFriction = 0.5;
    const SoftContactModel model(glass, ContactMaterial::rigidWall(), law);
    const double s = 0.01;
    const RigidBody body = RigidBody::particle(8e-3, Vector3::Constant(5e-7), Quaternion::Identity(),
                                               Vector3(0, 0, s), Vector3::Zero(), Vector3(0, 0, 2));
    const SoftContactParameters p = model.parameters(body, RigidBody::wall(), 10*s, infinity);
    ContactManifold m;
    m.normal = -Vector3::UnitZ();
    m.count = 4;
    const Vector3 corners[4] = {{-s, -s, 0}, {s, -s, 0}, {s, s, 0}, {-s, s, 0}};
    for (int i = 0; i < 4; ++i)
    {
        m.points[i].point = corners[i];
        m.points[i].pointInA = corners[i] - body.position;
        m.points[i].depth = 1e-5;
    }
    const double dt = 1e-6, match = 0.05*s;
    const SoftContactResult first = softManifoldForce(body, RigidBody::wall(), m, p, {}, match, dt);
    ContactManifold permuted = m;
    for (int i = 0; i < 4; ++i) permuted.points[i] = m.points[(i + 1) % 4];
    const SoftContactResult a = softManifoldForce(body, RigidBody::wall(), m, p, first.history, match, dt);
    const SoftContactResult b = softManifoldForce(body, RigidBody::wall(), permuted, p, first.history, match, dt);
    EXPECT_LE((a.torqueOnA - b.torqueOnA).norm(), 1e-12*a.torqueOnA.norm());
    EXPECT_LT(first.torqueOnA.z(), 0);                              // against w_z > 0
    EXPECT_LT(a.torqueOnA.z(), first.torqueOnA.z());                // the springs grew by a second step
    ContactManifold one = m;
    one.count = 1;
    one.points[0].point = Vector3::Zero();
    const SoftContactResult single = softManifoldForce(body, RigidBody::wall(), one, p, {}, match, dt);
    EXPECT_LE(std::abs(single.torqueOnA.z()), 1e-15);
}


TEST(SoftManifoldTension, NoTensileForceWhileSeparatingFast)
{
    // A point separating faster than the spring pushes: the dashpot alone
    // would pull (F < 0); the law gives 0
    SoftContactLaw law;
    law.restitution = 0.1;
    const SoftContactModel model(glass, ContactMaterial::rigidWall(), law);
    Sphere s = Sphere::make(0.01, 2500);
    s.body.position = Vector3(0, 0.01 - 1e-9, 0);
    s.body.velocity = Vector3(0, 5, 0);
    const SoftContactParameters p = model.parameters(s.body, RigidBody::wall(), 0.01, infinity);
    const SoftContactResult r = softContactForce(s.body, RigidBody::wall(), sphereOnFloor(s, 0), p, {}, 1e-7);
    EXPECT_TRUE(r.inContact);
    EXPECT_EQ(r.normalForce, 0.0);
    EXPECT_EQ(r.forceOnB.norm(), 0.0);
}


TEST(RollingResistance, TwistAboutTheNormalIsNotRolling)
{
    // Sphere spinning about the floor normal, frictionless, mu_r = 0.1: no
    // tangential relative rotation, so the spin is kept exactly (a torque on
    // the whole relative spin would stop it in 0.03 s)
    const double r = 0.01, g = 9.81, dt = 1e-6;
    SoftContactLaw law;
    law.restitution = 0.5;
    law.rollingFriction = 0.1;
    const SoftContactModel model(glass, ContactMaterial::rigidWall(), law);
    Sphere s = Sphere::make(r, 2500);
    const SoftContactParameters p = model.parameters(s.body, RigidBody::wall(), r, infinity);
    s.body.position = Vector3(0, r - std::pow(s.mass*g/p.normalStiffness, 2.0/3.0), 0);
    s.body.angularVelocity = Vector3(0, 20, 0);
    const Vector3 gravity(0, -s.mass*g, 0);
    TangentialHistory history;
    SoftContactResult f;
    for (int step = 0; step < 20000; ++step)
    {
        s.kickDrift(gravity - f.forceOnB, f.torqueOnA, dt);
        f = softContactForce(s.body, RigidBody::wall(), sphereOnFloor(s, 0), p, history, dt);
        history = f.history;
        s.kick(gravity - f.forceOnB, f.torqueOnA, dt);
    }
    EXPECT_EQ(s.body.angularVelocity.y(), 20.0);
}


TEST(RollingResistance, RollingSphereComesToRestWithoutChatter)
{
    // Sphere rolling at 0.05 m/s with mu_r = 0.1 stops after ~0.1 s
    // ((5/7) mu_r g), then rocks on the rolling spring of its contact patch
    // (k_r = k_t a^2 = 2.5e3 N m, period 2 pi sqrt(I_p/k_r) = 0.94 s about
    // the contact point) critically damped: e^(-6.7 t). A constant torque
    // switching sign with the spin would keep |omega| ~ mu_r R m g dt / I =
    // 1.2e-3 rad/s for ever; here |omega| < 1e-6 rad/s over 2.5-3 s.
    const double r = 0.2, m = 1000, g = 9.81, dt = 1e-4, v0 = 0.05;
    SoftContactLaw law;
    law.restitution = 0.5;
    law.staticFriction = law.dynamicFriction = 0.5;
    law.rollingFriction = 0.1;
    const SoftContactModel model(ContactMaterial::elastic(1e10, 0.25), ContactMaterial::rigidWall(), law);
    Sphere s = Sphere::make(r, m/(4.0/3.0*M_PI*r*r*r));
    const SoftContactParameters p = model.parameters(s.body, RigidBody::wall(), r, infinity);
    s.body.position = Vector3(0, r - std::pow(m*g/p.normalStiffness, 2.0/3.0), 0);
    s.body.velocity = Vector3(v0, 0, 0);
    s.body.angularVelocity = Vector3(0, 0, -v0/r);
    const Vector3 gravity(0, -m*g, 0);
    TangentialHistory history;
    SoftContactResult f = softContactForce(s.body, RigidBody::wall(), sphereOnFloor(s, 0), p, history, 0);
    double t = 0, spinLate = 0;
    while (t < 3.0 - 0.5*dt)
    {
        s.kickDrift(gravity - f.forceOnB, f.torqueOnA, dt);
        t += dt;
        f = softContactForce(s.body, RigidBody::wall(), sphereOnFloor(s, 0), p, history, dt);
        history = f.history;
        s.kick(gravity - f.forceOnB, f.torqueOnA, dt);
        if (t > 2.5) spinLate = std::max(spinLate, s.body.angularVelocity.norm());
    }
    std::printf("rolling to rest: |omega| <= %.3g rad/s over 2.5-3 s, v = %.3g m/s\n",
                spinLate, s.body.velocity.norm());
    EXPECT_LT(spinLate, 1e-6);
}


TEST(HookeCalibration, ClippedDashpotMatchesTheClosedForm)
{
    // x'' = -max(0, x + 2 zeta x'), x(0) = 0, x'(0) = 1: the force vanishes
    // at w_d t = pi - atan2(2 zeta w_d, 1 - 2 zeta^2), w_d = sqrt(1 - zeta^2),
    // and e = -x'(t) there (Schwager & Poeschel 2007); the overlap ends
    // x(t)/e later (free flight, no force); the unclipped
    // -ln e / sqrt(pi^2 + ln^2 e) would give a different zeta
    for (double zeta : {0.05, 0.2, 0.5, 0.69})
    {
        const double wd = std::sqrt(1 - zeta*zeta);
        const double t = (M_PI - std::atan2(2*zeta*wd, 1 - 2*zeta*zeta))/wd;
        const double e = -std::exp(-zeta*t)*(std::cos(wd*t) - zeta/wd*std::sin(wd*t));
        const double x = std::exp(-zeta*t)*std::sin(wd*t)/wd;
        const HertzImpact h = dimensionlessHookeImpact(zeta);
        EXPECT_NEAR(h.restitution, e, 1e-6) << zeta;      // RK4 at step 2e-4, crossing interpolated
        EXPECT_NEAR(h.duration, t + x/e, 1e-6) << zeta;
        EXPECT_NEAR(hookeDampingRatio(e), zeta, 1e-7) << zeta;
        const double l = std::log(e);
        EXPECT_GT(std::abs(-l/std::sqrt(M_PI*M_PI + l*l) - zeta), 1e-3*zeta) << zeta;
    }
}
