// Mirror faces (symmetry planes, ParticleSystem.H): the body meets its
// mirror image there, so an impact is frictionless with the pair's normal
// restitution whatever the wall law. Reference: the frictionless impulse
// on a flat face, Eq. (65) of [Wedel2023]: the normal velocity reverses
// by eps_n, the tangential velocity and the spin of a sphere are unchanged.
#include "SolverTestHelpers.H"

#include <gtest/gtest.h>

using namespace superellipsoid;
using namespace superellipsoid::test;

namespace
{

constexpr double r = 5e-3;

//- A sphere touching the floor z = 0 (a mirror face or a wall), moving
//  down and sideways; one detect + velocity phases
Particle impact(bool mirror)
{
    ParticleSystem s;
    s.shapes.push_back(Superellipsoid::sphere(r));
    Pose p;
    p.position = Vector3(0, 0, r - 1e-6);
    s.particles.push_back(makeParticle(0, 0, s.shapes[0], 1000, p, Vector3(0.3, 0, -1)));
    s.walls.add(quad(Vector3::Zero(), 0.1*Vector3::UnitX(), 0.1*Vector3::UnitY()), 0, Vector3::Zero(), mirror);
    CollisionSettings settings;
    settings.pairLaw = ImpulseLaw::frictionless(0.8);
    settings.wallLaw = ImpulseLaw::withFriction(0.3, 0.5);
    CollisionStep step(settings);
    CollisionDiagnostics diag;
    step.detect(s, diag);
    EXPECT_EQ(step.contacts().size(), 1u);
    step.resolveSweeps(s, diag);
    return s.particles[0];
}

} // namespace


// Tolerance 1e-12: the impulse -(1 + eps_n) m n.u along the detected
// normal, which is the face normal to the Newton tolerance of detection
TEST(MirrorFace, ImpactIsFrictionlessWithThePairRestitution)
{
    const Particle m = impact(true);
    EXPECT_NEAR(m.velocity.z(), 0.8, 1e-12);
    EXPECT_NEAR(m.velocity.x(), 0.3, 1e-12);
    EXPECT_NEAR(m.velocity.y(), 0, 1e-12);
    EXPECT_LT(m.angularVelocity.norm()*r, 1e-12);

    // The same face as a wall: the wall law (eps_n 0.3, friction) acts
    const Particle w = impact(false);
    EXPECT_NEAR(w.velocity.z(), 0.3, 1e-12);
    EXPECT_LT(w.velocity.x(), 0.3 - 0.01);
    EXPECT_GT(w.angularVelocity.norm()*r, 0.01);
}
