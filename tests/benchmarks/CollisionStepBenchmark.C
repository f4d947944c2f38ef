// Cost of the multi-particle collision step (solver/CollisionStep.H):
// us per particle-substep for N = 1e3, 1e4 random superellipsoids, dilute
// (lattice spacing 5 c) and packed (spacing 2.05 c: most neighbours touch),
// the cost of the broad phase alone (cell list build + pair search), and
// of the contact solver alone (velocity phases + position correction) per
// contact of a packed lattice under gravity; a settled column of spheres
// (relax sweeps per substep with a constant and a changing substep).
//   ./CollisionStepBenchmark --benchmark_counters_tabular=true
#include "solver/CollisionStep.H"
#include "solver/SolverTestHelpers.H"

#include <benchmark/benchmark.h>

#include <cmath>
#include <random>

using namespace superellipsoid;

namespace
{

constexpr double halfAxis = 1e-3;

ParticleSystem lattice(int n, double spacingOverC)
{
    ParticleSystem s;
    s.shapes.emplace_back(1.3*halfAxis, 1.1*halfAxis, halfAxis, 0.5, 0.7);
    std::mt19937_64 rng(42);
    std::uniform_real_distribution<double> u(-1, 1);
    const int side = int(std::ceil(std::cbrt(double(n))));
    const double spacing = spacingOverC*1.3*halfAxis;
    for (int i = 0; i < n; ++i)
    {
        Pose p;
        p.position = spacing*Vector3(i % side, (i/side) % side, i/(side*side));
        p.orientation = randomOrientation(rng);
        s.particles.push_back(makeParticle(i, 0, s.shapes[0], 1000, p,
                                           0.01*Vector3(u(rng), u(rng), u(rng))));
    }
    return s;
}

void BM_ImpulseSubstep(benchmark::State& state)
{
    const int n = int(state.range(0));
    const double spacing = state.range(1) ? 2.05 : 5.0;
    ParticleSystem s = lattice(n, spacing);
    CollisionSettings settings;
    settings.pairLaw = ImpulseLaw::frictionless(0.5);
    CollisionStep step(settings);
    CollisionDiagnostics d;
    for (auto _ : state)
    {
        step.impulseSubstep(s, 1e-5, d);
    }
    state.counters["us_per_particle_substep"] = benchmark::Counter
    (
        double(n)*state.iterations(), benchmark::Counter::kIsRate | benchmark::Counter::kInvert
    );
    state.counters["pairs_per_particle"] = double(d.pairContacts)/d.substeps/n;
    state.counters["candidates_per_particle"] = double(d.candidatePairs)/d.substeps/n;
    state.counters["newton_mean"] = d.detection.meanIterations();
    state.SetItemsProcessed(state.iterations()*n);
}

void BM_BroadPhase(benchmark::State& state)
{
    const int n = int(state.range(0));
    const double spacing = state.range(1) ? 2.05 : 5.0;
    ParticleSystem s = lattice(n, spacing);
    std::vector<Vector3> c(n);
    std::vector<double> r(n, s.shapes[0].boundingRadius());
    for (int i = 0; i < n; ++i) c[i] = s.particles[i].pose.position;
    CellList cells;
    std::vector<CandidatePair> pairs;
    for (auto _ : state)
    {
        cells.build(c.data(), r.data(), n, 2*r[0]);
        cells.findPairs(pairs);
        benchmark::DoNotOptimize(pairs.data());
    }
    state.counters["candidates_per_particle"] = double(pairs.size())/n;
    state.SetItemsProcessed(state.iterations()*n);
}

void BM_ContactSolver(benchmark::State& state)
{
    // Contacts of one detection, solved again every iteration (the state
    // drifts a little; the contacts, their points and laws stay)
    const int n = int(state.range(0));
    ParticleSystem s = lattice(n, 2.05);
    CollisionSettings settings;
    settings.gravity = Vector3(0, 0, -9.81);
    settings.pairLaw = state.range(1) ? ImpulseLaw::withFriction(0.5, 0.5) : ImpulseLaw::frictionless(0.5);
    CollisionStep step(settings);
    CollisionDiagnostics d;
    step.detect(s, d);
    const double contacts = double(step.contacts().size());
    double points = 0;
    for (const StepContact& c : step.contacts()) points += c.manifold.count;
    long sweeps = 0;
    for (auto _ : state)
    {
        sweeps += step.resolveSweeps(s, d, 1e-5);
        step.removeOverlaps(s);
    }
    state.counters["us_per_contact"] = benchmark::Counter
    (
        contacts*state.iterations(), benchmark::Counter::kIsRate | benchmark::Counter::kInvert
    );
    state.counters["contacts"] = contacts;
    state.counters["points_per_contact"] = points/contacts;
    state.counters["sweeps_per_substep"] = double(sweeps)/state.iterations();
}

void BM_RestingColumn(benchmark::State& state)
{
    // Settled column of N spheres (d = 1 mm, 2000 kg/m^3, eps 0.3, mu =
    // 0.5) on a floor, library defaults; timed: impulse substeps whose h
    // alternates between 6.4e-5 and 7.1e-5 s (varying, as the substep
    // count of an adjustable fluid step changes) or stays 7.1e-5 s. The
    // warm start scales with h/h_prev, so both take one relax sweep
    const int n = int(state.range(0));
    const double r = 5e-4, h = 7.1e-5;
    ParticleSystem s = test::column(Superellipsoid::sphere(r), n, 1e-5, 2000);
    CollisionSettings settings;
    settings.gravity = Vector3(0, 0, -9.81);
    settings.pairLaw = ImpulseLaw::withFriction(0.3, 0.5);
    settings.wallLaw = settings.pairLaw;
    CollisionStep step(settings);
    CollisionDiagnostics settle;
    for (int k = 0; k < 2000; ++k) step.impulseSubstep(s, h, settle);   // landed by 0.03 s
    CollisionDiagnostics d;
    long k = 0;
    for (auto _ : state)
    {
        step.impulseSubstep(s, state.range(1) && (k++ % 2) ? 6.4e-5 : h, d);
    }
    state.counters["us_per_contact"] = benchmark::Counter
    (
        double(n)*state.iterations(), benchmark::Counter::kIsRate | benchmark::Counter::kInvert
    );
    state.counters["sweeps_per_substep"] = d.meanRestingSweeps();
    state.counters["cap_hits"] = double(d.restingCapHits);
}

} // namespace

// Args: {N, packed?}. items_per_second inverted = seconds per particle-substep.
BENCHMARK(BM_ImpulseSubstep)->Args({1000, 0})->Args({1000, 1})->Args({10000, 0})->Args({10000, 1})
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_BroadPhase)->Args({1000, 0})->Args({1000, 1})->Args({10000, 0})->Args({10000, 1})
    ->Unit(benchmark::kMicrosecond);

// Args: {N, friction?}.
BENCHMARK(BM_ContactSolver)->Args({1000, 0})->Args({1000, 1})->Unit(benchmark::kMicrosecond);
// Args: {N, varying h?}.
BENCHMARK(BM_RestingColumn)->Args({20, 0})->Args({20, 1})->Args({40, 1})->Unit(benchmark::kMicrosecond);

BENCHMARK_MAIN();
