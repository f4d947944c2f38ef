// A pile across a periodic boundary (CollisionStep::shareImageMotion): the
// contacts with translated images of own particles act on the particles
// themselves in one relax, so a pile whose every layer is closed through
// the boundary rests like a pile between walls. Each substep emulates the
// OpenFOAM layer: move the particles, add their images across x = 0 and
// x = L (ids + k imageStride, sorted by id), detect, resolve, correct the
// overlaps, keep the particles. References: the floor carries the weight
// (exact invariant of a pile at rest), the bodies are at rest, the relax
// converges within a few sweeps.
#include "SolverTestHelpers.H"
#include "solver/BoundaryImpulses.H"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

using namespace superellipsoid;
using namespace superellipsoid::test;

namespace
{

constexpr double r = 5e-4;
constexpr long stride = 1L << 29;             // as the OpenFOAM layer's for one pair
constexpr int perLayer = 4, layers = 8;
constexpr double L = 2*r*perLayer;            // a layer of perLayer spheres closes the period

//- Spheres in a hexagonal stack in the x-z plane, periodic in x: layer j
//  shifted by r, each sphere on two of the layer below, 1e-3 r apart
ParticleSystem stack()
{
    ParticleSystem s;
    s.shapes.push_back(Superellipsoid::sphere(r));
    addFloor(s.walls, 0, 100*L);
    long id = 0;
    for (int j = 0; j < layers; ++j)
    {
        for (int i = 0; i < perLayer; ++i)
        {
            Pose p;
            p.position = Vector3(std::fmod((2*i + 1 + j)*r, L), 0, r*(1 + 1e-3) + j*std::sqrt(3.0)*r*(1 + 1e-3));
            s.particles.push_back(makeParticle(id++, 0, s.shapes[0], 2000, p));
        }
    }
    return s;
}

struct Substep
{
    int sweeps = 0;
    double floorImpulse = 0, maxSpeed = 0;
};

//- One substep h of the own particles with their images (share: the
//  images move with their particles in the relax)
Substep substep(CollisionStep& step, ParticleSystem& own, double h, bool share)
{
    step.move(own, h);
    ParticleSystem all = own;
    const int n = own.size();
    for (int k = 1; k <= 2; ++k)
    {
        PeriodicTransform T;
        T.translation = Vector3(k == 1 ? L : -L, 0, 0);
        for (int i = 0; i < n; ++i)
        {
            all.particles.push_back(periodicImage(own.particles[i], T, own.particles[i].id + k*stride));
        }
    }
    std::vector<char> owned(all.size(), 0);
    std::fill(owned.begin(), owned.begin() + n, 1);
    if (share) step.shareImageMotion(imageBodies(all, owned, stride));
    CollisionDiagnostics diag;
    step.detect(all, diag);
    Substep out;
    out.sweeps = step.resolveSweeps(all, diag, h);
    step.removeOverlaps(all);
    for (int i = 0; i < n; ++i)
    {
        own.particles[i] = all.particles[i];
        double& x = own.particles[i].pose.position.x();
        x -= L*std::floor(x/L);
        out.maxSpeed = std::max(out.maxSpeed, own.particles[i].velocity.norm());
    }
    for (const StepContact& c : step.contacts())
    {
        if (c.b < 0 && c.a < n) out.floorImpulse += c.restingImpulse;
    }
    return out;
}

} // namespace


// Frictionless and frictional (mu 0.5) stacks of 8 layers: after 0.05 s
// (500 substeps of 0.1 ms) the floor's resting impulse over the last 100
// substeps is the weight M g h to 1e-6 (the relax tolerance 1e-4 |a| h per
// point, over the 8 layers' sums: 1e-6 is a loose bound on a converged
// relax, and a relax of the particle and its ghost copy separately stops
// at its cap far from it), every speed below 1e-4 |g| h (resting residual)
// and at most 20 relax sweeps per substep (a settled warm-started relax
// needs a few; the cap is 200)
TEST(PeriodicPile, RestsAcrossThePeriodicBoundary)
{
    for (const double mu : {0.0, 0.5})
    {
        CollisionSettings settings;
        settings.gravity = Vector3(0, 0, -9.81);
        settings.pairLaw = mu > 0 ? ImpulseLaw::withFriction(0.3, mu) : ImpulseLaw::frictionless(0.3);
        settings.wallLaw = settings.pairLaw;
        ParticleSystem own = stack();
        CollisionStep step(settings);
        const double h = 1e-4;
        double weight = 0;
        for (const Particle& p : own.particles) weight += p.mass*9.81*h;
        int worstSweeps = 0;
        double worstLoad = 0, worstSpeed = 0;
        for (int k = 0; k < 500; ++k)
        {
            const Substep s = substep(step, own, h, true);
            if (k < 400) continue;
            worstSweeps = std::max(worstSweeps, s.sweeps);
            worstLoad = std::max(worstLoad, std::abs(s.floorImpulse/weight - 1));
            worstSpeed = std::max(worstSpeed, s.maxSpeed);
        }
        EXPECT_LT(worstLoad, 1e-6) << "mu " << mu;
        EXPECT_LT(worstSpeed, 1e-4*9.81*h) << "mu " << mu;
        EXPECT_LE(worstSweeps, 20) << "mu " << mu;
    }
}
