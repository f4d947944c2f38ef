// Frictionless contact and bodies of revolution: an exact invariant.
#include "SolverTestHelpers.H"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>

using namespace superellipsoid;
using namespace superellipsoid::test;

namespace
{

struct RevolutionCase
{
    const char* name;
    Superellipsoid shape;
    int axis;           //- symmetry axis in the particle frame
};

} // namespace


TEST(AxialSpin, FrictionlessContactLeavesTheSpinOfBodiesOfRevolutionZero)
{
    // Every normal of a surface of revolution meets its axis, so a
    // frictionless contact force has no moment about it; with I1 = I2,
    // Euler's equation I3 dw3/dt = tau3 keeps the axial spin w3 constant.
    // 30 bodies of each such tutorial shape thrown down into a box without
    // spin form a frictionless pile (eps_n = 0.2) over 0.5 s; the axial
    // spin must stay zero for every body, under both collision models.
    // Measured: |w.a| <= 8e-12 rad/s (impulse) and 1.2e-13 (soft) against
    // spins up to 225 rad/s, round-off; bound 1e-10 of the largest spin.
    // With the plain lever arms r x n the cylinder-like bodies spun up to
    // 4.9 rad/s (impulse) and 2.2 rad/s (soft) about their axes.
    for (const CollisionModel model : {CollisionModel::impulse, CollisionModel::softContact})
    {
        // The filling tutorial's bodies of revolution
        const RevolutionCase cases[] = {{"prolate", equivalentShape(2, 1, 1, 1), 0},
                                        {"oblate", equivalentShape(2, 2, 1, 1), 2},
                                        {"cylinder", equivalentShape(1, 1, 0.2, 1), 2}};
        for (const RevolutionCase& c : cases)
        {
            const double dt = 1e-4;
            ParticleSystem s = thrownPile(c.shape);
            CollisionSettings settings;
            settings.model = model;
            settings.gravity = Vector3(0, 0, -9.81);
            settings.pairLaw = settings.wallLaw = ImpulseLaw::frictionless(0.2);
            settings.softLaw.restitution = 0.2;
            CollisionStep step(settings);
            double worstAxial = 0, worstSpin = 0, axialEnergy = 0;
            for (int k = 0; k < 5000; ++k)
            {
                step.advance(s, dt);
                for (const Particle& p : s.particles)
                {
                    const Vector3 w = globalAngularVelocity(p);
                    const Vector3 a = p.pose.particleToGlobal().col(c.axis);
                    worstAxial = std::max(worstAxial, std::abs(w.dot(a)));
                    worstSpin = std::max(worstSpin, w.norm());
                }
            }
            for (const Particle& p : s.particles)
            {
                const Vector3 w = globalAngularVelocity(p);
                const Vector3 a = p.pose.particleToGlobal().col(c.axis);
                axialEnergy += 0.5*p.principalMoments(c.axis)*w.dot(a)*w.dot(a);
            }
            std::printf("%-5s %-8s largest |w.a| %.3e rad/s, largest |w| %.3e rad/s; at 0.5 s axial spin "
                        "energy %.3e J of rotational %.3e J\n",
                        model == CollisionModel::impulse ? "impulse" : "soft", c.name, worstAxial, worstSpin,
                        axialEnergy, rotationalKineticEnergy(s));
            EXPECT_LT(worstAxial, 1e-10*worstSpin) << c.name;
        }
    }
}
