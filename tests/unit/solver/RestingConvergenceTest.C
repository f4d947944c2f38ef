// Convergence of the resting-contact relax (ContactSolver.H) in stacks that
// plain Gauss-Seidel resolves only in O(N^2) sweeps: a frictional column of
// 20 cubes and a four-layer pyramid of spheres on a floor. References:
// static equilibrium (the supports carry the weight above them, m g h per
// body and substep, exactly in momentum) and rest; the relax must reach its
// tolerance in every substep within a few sweeps once the bodies have
// landed (the landing impacts themselves may still take up to the cap).
#include "SolverTestHelpers.H"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

using namespace superellipsoid;
using namespace superellipsoid::test;

namespace
{

constexpr double density = 1000;
constexpr double g = 9.81;
constexpr double dt = 1e-4;                 // one substep per step at rest (c = 5 mm)

//- Bound of the relax sweeps per substep once the bodies have landed: a
//  formed stack warm-starts and its relax confirms in 1 sweep; the bound
//  leaves room for a correction sweep and the one that confirms it
constexpr int sweepBound = 3;

//- Bound of the relax sweeps in any substep with the stop on a sweep's
//  energy, landings included: a quarter of the default cap of 200
constexpr int landingBound = 50;

double kineticEnergy(const ParticleSystem& s)
{
    return translationalKineticEnergy(s) + rotationalKineticEnergy(s);
}

CollisionSettings frictionalSettings(double mu)
{
    CollisionSettings settings;
    settings.gravity = Vector3(0, 0, -g);
    settings.pairLaw = ImpulseLaw::withFriction(0.2, mu);
    settings.wallLaw = settings.pairLaw;
    settings.propagateLoads = true;
    settings.blockFaces = true;
    return settings;
}

//- What the relax did over a run: largest sweeps of a substep and substeps
//  at the cap, over the whole run and from settle on; kinetic energy at
//  the end
struct RunResult
{
    int maxRestingSweeps = 0, maxSettledSweeps = 0;
    long restingCapHits = 0, settledCapHits = 0;
    double finalEnergy = 0;
    double substep = 0;                     // h of the last step
};

//- Fluid step k of base dt: dt itself, or (varying) dt (1 + 0.3 sin 2.4k),
//  as an adjustable fluid step (maxCo) changes it, and with it the
//  substep h
double stepOf(int k, double base, bool varying)
{
    return varying ? base*(1 + 0.3*std::sin(2.4*k)) : base;
}

RunResult run(ParticleSystem& s, CollisionStep& step, double duration, double settle,
              double base = dt, bool varying = false)
{
    RunResult r;
    double t = 0;
    for (int k = 0; t < duration - 0.5*base; ++k)
    {
        const double dtk = stepOf(k, base, varying);
        const CollisionDiagnostics d = step.advance(s, dtk);
        const double start = t;
        t += dtk;
        r.maxRestingSweeps = std::max(r.maxRestingSweeps, d.maxRestingSweeps);
        r.restingCapHits += d.restingCapHits;
        r.substep = dtk/d.substeps;
        if (start < settle) continue;
        r.maxSettledSweeps = std::max(r.maxSettledSweeps, d.maxRestingSweeps);
        r.settledCapHits += d.restingCapHits;
    }
    r.finalEnergy = kineticEnergy(s);
    return r;
}

//- Column of 20 cube-like bodies (c = 5 mm, eps 0.2, mu = 0.5) face down,
//  0.1 mm apart above a floor, run for 0.4 s. Checks: at rest (KE < 1e-12
//  J, speeds ~4e-5 m/s against g h = 1e-3 m/s); from 0.05 s on (the last
//  body lands at 0.02 s) no relax at its cap and at most bound sweeps;
//  the normal impulses of the contact below body i sum to the weight above
//  it, (n - i) m g h, to 1e-6 (the tolerance of the column of 5,
//  ContactSolverTest.C)
RunResult checkCubeColumn(const CollisionSettings& settings, int bound)
{
    const int n = 20;
    ParticleSystem s = column(Superellipsoid(5e-3, 5e-3, 5e-3, 0.2, 0.2), n, 1e-4, density);
    CollisionStep step(settings);
    const RunResult r = run(s, step, 0.4, 0.05);
    std::printf("stack of %d cubes: relax sweeps max %d (%ld at the cap), from 0.05 s max %d (%ld at the cap), "
                "KE at 0.4 s %.2e J\n", n, r.maxRestingSweeps, r.restingCapHits, r.maxSettledSweeps,
                r.settledCapHits, r.finalEnergy);
    EXPECT_LT(r.finalEnergy, 1e-12);
    EXPECT_EQ(r.settledCapHits, 0);
    EXPECT_LE(r.maxSettledSweeps, bound);
    EXPECT_EQ(int(step.contacts().size()), n);
    if (int(step.contacts().size()) != n) return r;
    const double mgh = s.particles[0].mass*g*dt;
    double worst = 0;
    for (const StepContact& c : step.contacts())
    {
        const int above = c.b < 0 ? n : n - c.b;
        worst = std::max(worst, std::abs(c.restingImpulse/(above*mgh) - 1));
        EXPECT_NEAR(c.restingImpulse, above*mgh, 1e-6*above*mgh) << "contact below body " << n - above;
    }
    std::printf("  largest relative error of the carried weight %.2e\n", worst);
    return r;
}

//- Square pyramid of spheres (r = 5 mm, mu = 0.5) in a box whose walls
//  touch the bottom layer: layers of 4 x 4, 3 x 3, 2 x 2 and 1, each sphere
//  in a pocket of the layer below, 10 um above it, 0.4 s (on a bare floor
//  the bottom spheres roll apart: Coulomb friction does not resist
//  rolling). References: the walls' impulses on the bodies sum vertically
//  to the weight of all 30, 30 m g h (momentum balance of bodies at rest,
//  whatever the statically indeterminate split), to 1e-6; at rest; from
//  settle (by default 0.02 s: the top sphere lands by 0.007 s) no relax
//  at its cap and at most bound sweeps; returns the run's figures
RunResult checkPyramid(const CollisionSettings& settings, int bound, double settle = 0.02)
{
    const double r = 5e-3, gap = 1e-5;
    ParticleSystem s;
    s.shapes.push_back(Superellipsoid::sphere(r));
    for (int layer = 0, id = 0; layer < 4; ++layer)
    {
        const int m = 4 - layer;
        for (int i = 0; i < m; ++i)
        {
            for (int j = 0; j < m; ++j)
            {
                Pose p;
                p.position = Vector3((2*i + layer)*r, (2*j + layer)*r, r + gap + layer*(std::sqrt(2.0)*r + gap));
                s.particles.push_back(makeParticle(id++, 0, s.shapes[0], density, p));
            }
        }
    }
    addBox(s.walls, Vector3(-r, -r, 0), Vector3(7*r, 7*r, 12*r));
    CollisionStep step(settings);
    const RunResult r0 = run(s, step, 0.4, settle);
    // Impulse of a wall contact on the wall: the body takes its negative
    double support = 0;
    for (const StepContact& c : step.contacts())
    {
        if (c.b < 0) support -= c.impulse.z();
    }
    const double weight = s.size()*s.particles[0].mass*g*dt;
    std::printf("pyramid of %d spheres: relax sweeps max %d (%ld at the cap), from %g s max %d (%ld at the "
                "cap), KE at 0.4 s %.2e J, wall support / weight - 1 = %.2e\n", s.size(), r0.maxRestingSweeps,
                r0.restingCapHits, settle, r0.maxSettledSweeps, r0.settledCapHits, r0.finalEnergy, support/weight - 1);
    EXPECT_LT(r0.finalEnergy, 1e-12);
    EXPECT_EQ(r0.settledCapHits, 0);
    EXPECT_LE(r0.maxSettledSweeps, bound);
    EXPECT_NEAR(support, weight, 1e-6*weight);
    return r0;
}

} // namespace


TEST(RestingConvergence, FrictionalStackOfTwentyCubesConvergesInFewSweeps)
{
    // checkCubeColumn with load propagation and face blocks: every
    // substep's relax converges within sweepBound sweeps. Plain
    // Gauss-Seidel moves the weight of a landing body by one contact per
    // sweep: it stopped at its cap of 200 in 1112 substeps after 0.05 s,
    // its impulses not within 1e-6.
    checkCubeColumn(frictionalSettings(0.5), sweepBound);
}


TEST(RestingConvergence, FourLayerPyramidOfSpheresConvergesInFewSweeps)
{
    // checkPyramid with load propagation and face blocks: from 0.02 s on
    // (the top sphere lands by 0.007 s) every substep's relax converges
    // within sweepBound sweeps (plain Gauss-Seidel: up to its cap of 200
    // sweeps at 0.03-0.04 s, as the bottom layer's split against the walls
    // settles)
    checkPyramid(frictionalSettings(0.5), sweepBound);
}


TEST(RestingConvergence, EnergyStopKeepsTheColumnOfCubesExact)
{
    // checkCubeColumn with load propagation, face blocks and the stop on
    // the sweep's energy, at the value to use (restingEnergyTolerance
    // 1e-3) and a looser one (1e-2): the column's loads are statically
    // determinate, so the load propagation gives them exactly and the stop
    // only ends the confirming sweeps. The bound holds in every substep,
    // landings included (measured 3): the stop ends a landing's relax
    // once its sweeps carry less than tau E_h
    for (const double tau : {1e-3, 1e-2})
    {
        CollisionSettings settings = frictionalSettings(0.5);
        settings.restingEnergyTolerance = tau;
        const RunResult r = checkCubeColumn(settings, sweepBound);
        EXPECT_LE(r.maxRestingSweeps, sweepBound) << "tau " << tau;
        EXPECT_EQ(r.restingCapHits, 0) << "tau " << tau;
    }
}


TEST(RestingConvergence, EnergyStopKeepsThePyramidOfSpheresExact)
{
    // checkPyramid with load propagation, face blocks and the stop on the
    // sweep's energy (restingEnergyTolerance 1e-3). The pyramid's loads are
    // statically indeterminate: a first iterate that re-split them every
    // substep would undo the continuation from the last substep that lets
    // an early-stopped relax converge over substeps. So the load
    // propagation re-solves a body with several supports only if its
    // support updates carry more than tau m (|a| h)^2/2 (ContactSolverLoads.C),
    // the measure of the stop itself; gated at restingTolerance per point,
    // it re-split the pyramid in every substep and its walls carried the
    // weight only to 1.8e-2, the bodies moving (KE 1e-11 J at 0.4 s).
    // The landings stay below landingBound sweeps (measured 31, the cap
    // 200). The bottom layer touches the side walls and its neighbours at
    // zero overlap, exactly: the last bit of an overlap decides whether
    // such a contact exists. Until round-off has shifted the layer into
    // contact (0.12 s) its pairs appear and vanish (49-61 pair contacts),
    // each a cold start, and the stop takes up to 16 sweeps: the bound
    // holds from 0.15 s on (measured 1)
    CollisionSettings settings = frictionalSettings(0.5);
    settings.restingEnergyTolerance = 1e-3;
    const RunResult r = checkPyramid(settings, sweepBound, 0.15);
    EXPECT_LE(r.maxRestingSweeps, landingBound);
    EXPECT_EQ(r.restingCapHits, 0);
}


TEST(RestingConvergence, ColumnOfSpheresRestsWhenTheSubstepChanges)
{
    // Column of 20 spheres (d = 1 mm, 2000 kg/m^3, eps 0.3, mu = 0.5) on a
    // floor, library defaults (plain Gauss-Seidel), fluid steps of 1 ms
    // +-30 % (stepOf), automatic substeps: h changes by up to ~10 % from
    // step to step. A resting impulse is a force times h, so the warm
    // start is scaled by h/h_prev; unscaled, every load was off by
    // |1 - h/h_prev| after a change, and the relax capped in 1034 of 4500
    // substeps over 0.3 s (the landings only: 44), the weights 1e-4 off.
    // From 0.1 s on (landed by 0.03 s): no cap, at most sweepBound sweeps
    // (measured 1), the contact below body i carries (n - i) m g h to 1e-6
    // (measured 1e-10), at rest (KE < 1e-6 of n m (g h)^2/2)
    const int n = 20;
    ParticleSystem s = column(Superellipsoid::sphere(5e-4), n, 1e-5, 2000);
    CollisionSettings settings;
    settings.gravity = Vector3(0, 0, -g);
    settings.pairLaw = ImpulseLaw::withFriction(0.3, 0.5);
    settings.wallLaw = settings.pairLaw;
    CollisionStep step(settings);
    const RunResult res = run(s, step, 0.3, 0.1, 1e-3, true);
    const double m = s.particles[0].mass, gh = g*res.substep;
    double worst = 0;
    for (const StepContact& c : step.contacts())
    {
        const int above = c.b < 0 ? n : n - c.b;
        worst = std::max(worst, std::abs(c.restingImpulse/(above*m*gh) - 1));
    }
    std::printf("column of %d spheres, varying step: relax sweeps max %d (%ld at the cap), from 0.1 s max %d "
                "(%ld at the cap), KE %.2e J, weight error %.2e\n", n, res.maxRestingSweeps, res.restingCapHits,
                res.maxSettledSweeps, res.settledCapHits, res.finalEnergy, worst);
    EXPECT_EQ(int(step.contacts().size()), n);
    EXPECT_EQ(res.settledCapHits, 0);
    EXPECT_LE(res.maxSettledSweeps, sweepBound);
    EXPECT_LT(worst, 1e-6);
    EXPECT_LT(res.finalEnergy, 1e-6*n*m*gh*gh/2);
}


TEST(RestingConvergence, PyramidRestsWhenTheSubstepChanges)
{
    // checkPyramid's pyramid (load propagation and face blocks) with fluid
    // steps of 1e-4 s +-30 % (stepOf): the warm start scaled by h/h_prev
    // keeps the settled relax within sweepBound sweeps
    const double r = 5e-3, gap = 1e-5;
    ParticleSystem s;
    s.shapes.push_back(Superellipsoid::sphere(r));
    for (int layer = 0, id = 0; layer < 4; ++layer)
    {
        const int m = 4 - layer;
        for (int i = 0; i < m*m; ++i)
        {
            Pose p;
            p.position = Vector3((2*(i % m) + layer)*r, (2*(i/m) + layer)*r, r + gap + layer*(std::sqrt(2.0)*r + gap));
            s.particles.push_back(makeParticle(id++, 0, s.shapes[0], density, p));
        }
    }
    addBox(s.walls, Vector3(-r, -r, 0), Vector3(7*r, 7*r, 12*r));
    CollisionStep step(frictionalSettings(0.5));
    const RunResult res = run(s, step, 0.4, 0.02, dt, true);
    double support = 0;
    for (const StepContact& c : step.contacts())
    {
        if (c.b < 0) support -= c.impulse.z();
    }
    const double weight = s.size()*s.particles[0].mass*g*res.substep;
    std::printf("pyramid, varying step: relax sweeps from 0.02 s max %d (%ld at the cap), KE %.2e J, "
                "wall support / weight - 1 = %.2e\n", res.maxSettledSweeps, res.settledCapHits, res.finalEnergy,
                support/weight - 1);
    EXPECT_EQ(res.settledCapHits, 0);
    EXPECT_LE(res.maxSettledSweeps, sweepBound);
    EXPECT_NEAR(support, weight, 1e-6*weight);
    EXPECT_LT(res.finalEnergy, 1e-12);
}


TEST(RestingConvergence, EnergyStopHoldsAFrictionalPyramidOnFrictionlessWalls)
{
    // checkPyramid with frictionless walls under the frictional pyramid,
    // plain Gauss-Seidel and the stop on the sweep's energy (1e-3). Every
    // body of a floor contact is held by friction on the bodies beside and
    // above it, so the floor contacts need not reach restingTolerance
    // before the stop: what their residual leaves is taken back by that
    // friction in the next substep. References as for the frictional
    // walls: the floor carries the weight to 1e-6 (frictionless walls
    // carry it all in the normal), rest, and from 0.02 s on at most
    // sweepBound sweeps; the landings below landingBound (as above)
    CollisionSettings settings = frictionalSettings(0.5);
    settings.wallLaw = ImpulseLaw::frictionless(0.2);
    settings.propagateLoads = false;
    settings.blockFaces = false;
    settings.restingEnergyTolerance = 1e-3;
    const RunResult r = checkPyramid(settings, sweepBound);
    EXPECT_LE(r.maxRestingSweeps, landingBound);
    EXPECT_EQ(r.restingCapHits, 0);
}


TEST(RestingConvergence, MomentumStepResolvesAColumnFromZeroInFewerSweeps)
{
    // One substep of a column of 10 frictionless spheres (d = 1 cm) touching
    // each other and the floor (1e-7 m deep), at rest, relaxed from zero
    // impulses (nothing stored yet) to restingTolerance 1e-8: the error of
    // plain Gauss-Seidel on a chain of n contacts decays like
    // rho = cos^2(pi/(n + 1)) = 0.92 per sweep. The momentum step must reach
    // the same solution, the contact below sphere i carrying (n - i) m g h
    // (static equilibrium), in at most half the sweeps. Tolerance: a
    // contracting iteration whose last change is below 1e-8 g h is within
    // 1e-8/(1 - rho) = 1.2e-7 g h of its limit per body, worth m of impulse
    // each, summed over the n bodies: 1.2e-6 m g h, bound 1e-5 (n - i) m g h
    const int n = 10;
    const double r = 5e-3, h = 1e-4;
    int sweeps[2] = {0, 0};
    for (const bool momentum : {false, true})
    {
        ParticleSystem s;
        s.shapes.push_back(Superellipsoid::sphere(r));
        for (int i = 0; i < n; ++i)
        {
            Pose p;
            p.position = Vector3(0, 0, r - 1e-7 + i*(2*r - 1e-7));
            s.particles.push_back(makeParticle(i, 0, s.shapes[0], density, p));
        }
        addFloor(s.walls, 0, 0.1);
        CollisionSettings settings;
        settings.gravity = Vector3(0, 0, -g);
        settings.pairLaw = settings.wallLaw = ImpulseLaw::frictionless(0.2);
        settings.fixedSubsteps = 1;
        settings.maxRestingSweeps = 10000;
        settings.restingTolerance = 1e-8;
        settings.restingMomentum = momentum;
        CollisionStep step(settings);
        const CollisionDiagnostics d = step.advance(s, h);
        sweeps[momentum] = d.maxRestingSweeps;
        EXPECT_EQ(d.restingCapHits, 0);
        ASSERT_EQ(int(step.contacts().size()), n);
        const double mgh = s.particles[0].mass*g*h;
        for (const StepContact& c : step.contacts())
        {
            const int i = c.b < 0 ? 0 : c.b;
            EXPECT_NEAR(c.restingImpulse, (n - i)*mgh, 1e-5*(n - i)*mgh) << "momentum " << momentum << ", sphere " << i;
            // The impulse on B (the wall: downward) of all phases, the
            // momentum steps' through the bodies, is the accumulated normal
            // impulse to round-off
            const double onB = c.b < 0 ? -c.impulse.z() : c.impulse.z();
            EXPECT_NEAR(onB, c.restingImpulse, 1e-12*n*mgh) << "momentum " << momentum << ", sphere " << i;
        }
    }
    std::printf("column of %d spheres from zero impulses: %d relax sweeps, %d with the momentum step\n",
                n, sweeps[0], sweeps[1]);
    EXPECT_LE(2*sweeps[1], sweeps[0]);
}


TEST(RestingConvergence, MomentumStepKeepsThePyramidOfSpheresExact)
{
    // checkPyramid with plain Gauss-Seidel, the stop on the sweep's energy
    // (1e-3) and the momentum step: the same references as without it,
    // landings below landingBound
    CollisionSettings settings = frictionalSettings(0.5);
    settings.propagateLoads = false;
    settings.blockFaces = false;
    settings.restingEnergyTolerance = 1e-3;
    settings.restingMomentum = true;
    const RunResult r = checkPyramid(settings, sweepBound);
    EXPECT_LE(r.maxRestingSweeps, landingBound);
    EXPECT_EQ(r.restingCapHits, 0);
}


TEST(RestingConvergence, MomentumStepKeepsTheColumnOfCubesExact)
{
    // checkCubeColumn with load propagation, face blocks, the stop on the
    // sweep's energy (1e-3) and the momentum step: the same references as
    // without it (EnergyStopKeepsTheColumnOfCubesExact), the bound in every
    // substep. The momentum does not replace the load propagation there:
    // with plain Gauss-Seidel it left the weights 4.8e-3 off (1.8e-2
    // without it), the relax at its cap while the bodies land
    CollisionSettings settings = frictionalSettings(0.5);
    settings.restingEnergyTolerance = 1e-3;
    settings.restingMomentum = true;
    const RunResult r = checkCubeColumn(settings, sweepBound);
    EXPECT_LE(r.maxRestingSweeps, sweepBound);
    EXPECT_EQ(r.restingCapHits, 0);
}
