// Soft contact through the collision step on contact manifolds: a pile at
// rest stays at rest (no spin pumped by a misplaced contact point).
#include "SolverTestHelpers.H"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>

using namespace superellipsoid;
using namespace superellipsoid::test;


TEST(SoftManifoldStep, CrossedCylindersRestWithoutSpinUp)
{
    // Cylinder-like bodies (eps1 = 0.2, round sections) lying on their
    // sides in a box under gravity, mu = 0.5: two short ones (radius and
    // half length 2 mm) along x at y = -/+2.5 mm, a larger one (radius 5 mm,
    // half length 4 mm) along y across both. Each crossing of a flat
    // generator with a round crown is a point contact at the crossing, on
    // each body's vertical through its axis: the forces have no torque
    // about the axes. With the points moved halfway to the upper centre
    // (1.25 mm lever arm about each lower axis, the old patch-centre mean)
    // the lower bodies spin up to 41 rad/s and the stack collapses.
    // Measured with the manifold points: the normal forces have no moment
    // about the axes (SurfaceSymmetry.H); the lower bodies rock about
    // their own axes (rolling on the floor) in a bounded oscillation of
    // the frictional springs, 1.45e-4 rad/s at most over 0.5-2 s and
    // 8 s alike (2.9e-7 m/s at the surface, bodies of 0.05 g); centres
    // still to 1.4e-5 c. Bounds: 1e-3 rad/s (the misplaced point gave
    // 41 rad/s) and 1e-4 c after the first 0.5 s (settling from touching
    // at zero overlap).
    const double rl = 2e-3, rt = 5e-3, ct = 4e-3, d = 2.5e-3, g = 9.81;
    ParticleSystem s;
    s.shapes.push_back(Superellipsoid(rl, rl, rl, 0.2, 1.0));   // axis along z'
    s.shapes.push_back(Superellipsoid(rt, rt, ct, 0.2, 1.0));
    Pose lower0, lower1, upper;
    lower0.orientation = lower1.orientation = rotationAbout(Vector3::UnitY(), M_PI/2);   // axis along x
    lower0.position = Vector3(0, -d, rl);
    lower1.position = Vector3(0, d, rl);
    upper.orientation = rotationAbout(Vector3::UnitX(), M_PI/2);                         // axis along y
    upper.position = Vector3(0, 0, 2*rl + rt);
    s.particles.push_back(makeParticle(0, 0, s.shapes[0], 1000, lower0));
    s.particles.push_back(makeParticle(1, 0, s.shapes[0], 1000, lower1));
    s.particles.push_back(makeParticle(2, 1, s.shapes[1], 1000, upper));
    // Side walls touching the lower bodies take the slight wedging of the
    // upper one's generator (not exactly flat for eps1 = 0.2)
    addBox(s.walls, Vector3(-0.02, -d - rl, 0), Vector3(0.02, d + rl, 0.05));
    CollisionSettings settings;
    settings.model = CollisionModel::softContact;
    settings.softLaw.restitution = 0.5;
    // Friction holds the upper body: its generator (eps1 = 0.2) rises 4.5 um
    // at the supports, so frictionless it slides off along its axis
    settings.softLaw.staticFriction = settings.softLaw.dynamicFriction = 0.5;
    settings.gravity = Vector3(0, 0, -g);
    CollisionStep step(settings);
    double spin = 0, drift = 0;
    Vector3 settled[3];
    for (int k = 1; k <= 2000; ++k)
    {
        step.advance(s, 1e-3);
        for (int i = 0; i < 3; ++i)
        {
            // angular velocity is in the particle frame: z' is the axis
            const Particle& p = s.particles[i];
            if (k > 500) spin = std::max(spin, std::abs(p.angularVelocity.z()));
            if (k == 500) settled[i] = p.pose.position;
            if (k > 500) drift = std::max(drift, (p.pose.position - settled[i]).norm());
        }
    }
    std::printf("crossed cylinders, 2 s: max spin about own axes %.3g rad/s, drift %.3g c\n",
                spin, drift/rl);
    EXPECT_LT(spin, 1e-3);
    EXPECT_LT(drift, 1e-4*rl);
}
