// External force, torque and damping held constant over a step (the fluid
// forcing the OpenFOAM layer evaluates once per fluid step), integrated by
// the collision step's move, against closed-form solutions.
#include "SolverTestHelpers.H"

#include <gtest/gtest.h>

#include <cmath>

using namespace superellipsoid;

namespace
{

constexpr double density = 1000;
constexpr double radius = 0.5e-3;

//- One sphere in free space (no walls, no partner: no contact)
ParticleSystem oneSphere(const Vector3& velocity, const Vector3& omega)
{
    ParticleSystem s;
    s.shapes.push_back(Superellipsoid::sphere(radius));
    s.particles.push_back(makeParticle(0, 0, s.shapes[0], density, Pose(), velocity, omega));
    return s;
}

} // namespace


TEST(ExternalForcing, ConstantForceGivesTheExactParabolaForAnySubsteps)
{
    // a = g + F/m constant: v = v0 + a t, x = v0 t + a t^2/2 exactly per
    // substep, so the substep count changes round-off only. Tolerance
    // 1e-15 m on ~1e-3 m: a few ulp accumulated over <= 40 substeps.
    const Vector3 v0(0.1, -0.2, 0.05);
    const double dt = 1e-3;
    for (int n : {1, 7, 40})
    {
        ParticleSystem s = oneSphere(v0, Vector3::Zero());
        const Vector3 force = s.particles[0].mass*Vector3(2, 0, -3);
        s.particles[0].externalForce = force;
        CollisionSettings settings;
        settings.gravity = Vector3(0, 0, -9.81);
        settings.fixedSubsteps = n;
        CollisionStep step(settings);
        step.advance(s, dt);
        const Vector3 a = settings.gravity + force/s.particles[0].mass;
        EXPECT_LT((s.particles[0].velocity - (v0 + a*dt)).norm(), 1e-15) << n;
        EXPECT_LT((s.particles[0].pose.position - (v0*dt + 0.5*a*dt*dt)).norm(), 1e-15) << n;
    }
}


TEST(ExternalForcing, RotationalDampingRelaxesExactlyToTheTerminalSpin)
{
    // Sphere, J = j I, damping D = d I, torque T0': the free drift leaves
    // omega' unchanged and each kick is exact, so
    //     omega'(t) = T0'/d + (omega'_0 - T0'/d) exp(-d t / j)
    // for any substep count; relaxation time j/d = 1e-3 s = the step.
    // Tolerance 1e-12 relative: round-off of the exponentials.
    const Vector3 omega0(300, -100, 50);
    const double dt = 1e-3;
    for (int n : {1, 10})
    {
        ParticleSystem s = oneSphere(Vector3::Zero(), omega0);
        Particle& p = s.particles[0];
        const double j = p.principalMoments[0];
        const double d = j/1e-3;
        const Vector3 torque(0, 0, 0.02*d);
        p.externalTorque = torque;
        p.externalDamping = d*Matrix3::Identity();
        CollisionSettings settings;
        settings.fixedSubsteps = n;
        CollisionStep step(settings);
        step.advance(s, dt);
        const Vector3 expected = torque/d + (omega0 - torque/d)*std::exp(-d*dt/j);
        EXPECT_LT((p.angularVelocity - expected).norm(), 1e-12*omega0.norm()) << n;
    }
}


TEST(ExternalForcing, NonFiniteDampingIsRejected)
{
    ParticleSystem s = oneSphere(Vector3::Zero(), Vector3::Zero());
    s.particles[0].externalDamping(1, 2) = std::nan("");
    CollisionStep step{CollisionSettings()};
    EXPECT_THROW(step.advance(s, 1e-3), std::invalid_argument);
}


TEST(ExternalForcing, MoveAloneEqualsTheMoveOfAnImpulseSubstepWithoutContacts)
{
    // The layer drives substeps as move + detect + resolve + remove: with
    // no contact the result must equal impulseSubstep bit for bit
    ParticleSystem a = oneSphere(Vector3(0.3, 0, 0), Vector3(10, 20, 30));
    a.particles[0].externalForce = Vector3(1e-3, 0, 0);
    a.particles[0].externalTorque = Vector3(0, 1e-9, 0);
    a.particles[0].externalDamping = 1e-8*Matrix3::Identity();
    ParticleSystem b = a;
    CollisionStep stepA{CollisionSettings()}, stepB{CollisionSettings()};
    CollisionDiagnostics diag;
    stepA.move(a, 1e-4);
    stepB.impulseSubstep(b, 1e-4, diag);
    EXPECT_EQ(a.particles[0].pose.position, b.particles[0].pose.position);
    EXPECT_EQ(a.particles[0].velocity, b.particles[0].velocity);
    EXPECT_EQ(a.particles[0].angularVelocity, b.particles[0].angularVelocity);
    EXPECT_EQ(a.particles[0].pose.orientation.coeffs(), b.particles[0].pose.orientation.coeffs());
}


TEST(ExternalForcing, ResistanceIsImplicitAndItsImpulseIsCounted)
{
    // m dv/dt = m g + F - C v, C anisotropic and stiff (relaxation times
    // 1e-3 to 1e-2 of the step): backward Euler in every substep stays
    // bounded and reaches its fixed point, the terminal velocity
    // C^-1 (m g + F), exactly; the momentum m (v - v0) = dt (m g + F) -
    // resistedImpulse holds per step. Tolerances: round-off of 3x3
    // solves and of sums over <= 10 substeps (1e-12 relative); after 20
    // steps the start's part decays below 101^-20 (n = 1, slowest mode).
    const double dt = 1e-3;
    for (int n : {1, 10})
    {
        ParticleSystem s = oneSphere(Vector3(0.5, -0.3, 0.2), Vector3::Zero());
        Particle& p = s.particles[0];
        const double m = p.mass;
        const Matrix3 C = (m/dt)*Vector3(1e3, 3e2, 1e2).asDiagonal();
        p.externalResistance = C;
        p.externalForce = C*Vector3(0, 0, 0.05);
        CollisionSettings settings;
        settings.gravity = Vector3(0, 0, -9.81);
        settings.fixedSubsteps = n;
        settings.model = CollisionModel::none;
        CollisionStep step(settings);
        const Vector3 vTerminal = C.inverse()*(m*settings.gravity + p.externalForce);
        for (int k = 0; k < 20; ++k)
        {
            const Vector3 v0 = p.velocity;
            step.advance(s, dt);
            const Vector3 change = dt*(m*settings.gravity + p.externalForce) - p.resistedImpulse;
            EXPECT_LT((m*(p.velocity - v0) - change).norm(), 1e-12*m*v0.norm()) << n;
        }
        EXPECT_LT((p.velocity - vTerminal).norm(), 1e-12*vTerminal.norm()) << n;
    }
}


TEST(ExternalForcing, ContactHeldColumnFeelsTheDragOfItsWholeSlip)
{
    // A column of five spheres on a floor in an upward flow Uc whose drag
    // C Uc carries half of each weight, the drag's relaxation time m/c
    // equal to the step. The contacts hold the spheres at rest, so the
    // drag impulse must be dt c Uc: the resistance is implicit in the
    // contact solve (mass m + h c), and nothing is resisted. Integrated
    // over a free fall of the step instead (the drag step-implicit, then
    // held constant), each sphere would get dt (c Uc + x m |g|)/(1 + x),
    // x = 1: 50 % too much. Tolerance 1e-6 of dt c Uc: the relax leaves
    // speeds of restingTolerance (1e-4) |a| h, resisted at h c of them
    // (x <= 1).
    for (CollisionModel model : {CollisionModel::impulse, CollisionModel::softContact})
    {
        const double d = 1e-3, dt = 1e-3;
        ParticleSystem s = test::column(Superellipsoid::sphere(0.5*d), 5, 0, 2000);
        CollisionSettings settings;
        settings.gravity = Vector3(0, 0, -9.81);
        settings.model = model;
        CollisionStep step(settings);
        for (int k = 0; k < 300; ++k)
        {
            for (Particle& p : s.particles)
            {
                const double c = p.mass/dt;
                p.externalResistance = c*Matrix3::Identity();
                p.externalForce = Vector3(0, 0, 0.5*p.mass*9.81);
            }
            step.advance(s, dt);
        }
        for (const Particle& p : s.particles)
        {
            const double dragImpulse = dt*p.externalForce.z() - p.resistedImpulse.z();
            EXPECT_NEAR(dragImpulse, dt*p.externalForce.z(), 1e-6*dt*p.externalForce.z())
                << (model == CollisionModel::impulse ? "impulse" : "softContact") << " id " << p.id;
            EXPECT_LT(p.velocity.norm(), 1e-6) << p.id;
        }
    }
}
