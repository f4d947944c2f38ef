// Contact detection micro-benchmarks (issue 3): us per detection, cold and warm
// start, for five shape families, particle-particle and particle-plane, and the
// pre-evaluation filters. Each benchmark cycles through 256 random near-contact
// configurations (overlap in [0, 0.05] c, common normal by construction), so
// the figures are averages over orientations, not a single lucky case.
// Run: build/<dir>/tests/benchmarks/ContactBenchmark --benchmark_min_time=0.5
#include "contact/BoundingVolumes.H"
#include "contact/ParticleContact.H"
#include "contact/SupportPoint.H"
#include "contact/WallContact.H"
#include "orientation/Orientation.H"

#include <benchmark/benchmark.h>

#include <random>
#include <vector>

using namespace superellipsoid;

namespace
{

struct Family
{
    const char* name;
    double a, b, c, eps1, eps2;
};

const Family families[] =
{
    {"sphere", 1, 1, 1, 1, 1},
    {"prolate2", 2, 1, 1, 1, 1},
    {"cube0.2", 1, 1, 1, 0.2, 0.2},
    {"diamond1.8", 1, 1, 1, 1.8, 1.8},
    {"cylinder", 1, 1, 1, 0.2, 1.0}   // eps1 = 0.2 flat ends along z', eps2 = 1 round section
};

Vector3 randomUnit(std::mt19937_64& rng)
{
    std::normal_distribution<double> g;
    return Vector3(g(rng), g(rng), g(rng)).normalized();
}

struct PairCase
{
    Pose pA, pB;
};

std::vector<PairCase> makePairs(const Superellipsoid& s, int n, unsigned seed)
{
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> u(0, 0.05);
    std::vector<PairCase> cases;
    for (int i = 0; i < n; ++i)
    {
        PairCase pc;
        pc.pA.orientation = randomOrientation(rng);
        pc.pB.orientation = randomOrientation(rng);
        const Vector3 nrm = randomUnit(rng);
        const Vector3 pA = pc.pA.toGlobalFrame(supportPoint(s, pc.pA.directionToParticleFrame(nrm)));
        const Vector3 xB = supportPoint(s, pc.pB.directionToParticleFrame(-nrm));
        pc.pB.position = pA - u(rng)*s.c()*nrm - pc.pB.directionToGlobalFrame(xB);
        cases.push_back(pc);
    }
    return cases;
}

void reportCounters(benchmark::State& state, const ContactCounters& c)
{
    state.counters["iter/det"] = c.meanIterations();
    state.counters["fail"] = double(c.failures);
    state.counters["touching%"] = 100.0*double(c.touching)/double(c.detections ? c.detections : 1);
}

void BM_PairCold(benchmark::State& state)
{
    const Family& f = families[state.range(0)];
    const Superellipsoid s(f.a, f.b, f.c, f.eps1, f.eps2);
    const auto cases = makePairs(s, 256, 7);
    ContactCounters counters;
    std::size_t i = 0;
    for (auto _ : state)
    {
        const PairCase& pc = cases[i++ & 255];
        const Contact c = detectParticleContact(s, pc.pA, s, pc.pB);
        counters.record(c);
        benchmark::DoNotOptimize(c);
    }
    state.SetLabel(f.name);
    reportCounters(state, counters);
}

// Warm: each configuration is advanced by a small rigid motion (1e-3 c,
// 1e-3 rad) per call and detected with the stored warm start, as in a DEM
// sub-step of an enduring contact
void BM_PairWarm(benchmark::State& state)
{
    const Family& f = families[state.range(0)];
    const Superellipsoid s(f.a, f.b, f.c, f.eps1, f.eps2);
    auto cases = makePairs(s, 256, 7);
    std::vector<ContactWarmStart> warm(cases.size());
    for (std::size_t k = 0; k < cases.size(); ++k)
    {
        detectParticleContact(s, cases[k].pA, s, cases[k].pB, &warm[k]);
    }
    std::mt19937_64 rng(9);
    std::vector<Vector3> drift(cases.size());
    std::vector<Quaternion> spin(cases.size());
    for (std::size_t k = 0; k < cases.size(); ++k)
    {
        drift[k] = 1e-3*s.c()*randomUnit(rng);
        spin[k] = Quaternion(Eigen::AngleAxisd(1e-3, randomUnit(rng)));
    }
    ContactCounters counters;
    std::size_t i = 0;
    int sign = 1;
    for (auto _ : state)
    {
        const std::size_t k = i++ & 255;
        if (k == 0) sign = ((i >> 8) / 20) % 2 ? -1 : 1;   // oscillate so pairs stay in contact
        PairCase& pc = cases[k];
        pc.pB.position += sign*drift[k];
        pc.pB.orientation = sign > 0 ? pc.pB.orientation*spin[k] : pc.pB.orientation*spin[k].conjugate();
        const Contact c = detectParticleContact(s, pc.pA, s, pc.pB, &warm[k]);
        counters.record(c);
        benchmark::DoNotOptimize(c);
    }
    state.SetLabel(f.name);
    reportCounters(state, counters);
}

void BM_PlaneClosedForm(benchmark::State& state)
{
    const Family& f = families[state.range(0)];
    const Superellipsoid s(f.a, f.b, f.c, f.eps1, f.eps2);
    const auto cases = makePairs(s, 256, 11);
    const Plane w{Vector3::Zero(), Vector3::UnitZ()};
    std::size_t i = 0;
    for (auto _ : state)
    {
        Pose p = cases[i++ & 255].pA;
        p.position.z() = 0.9*s.c();
        benchmark::DoNotOptimize(detectWallContact(s, p, w));
    }
    state.SetLabel(f.name);
}

void BM_PlanePaperNewton(benchmark::State& state)
{
    const Family& f = families[state.range(0)];
    const Superellipsoid s(f.a, f.b, f.c, f.eps1, f.eps2);
    const auto cases = makePairs(s, 256, 11);
    const Plane w{Vector3::Zero(), Vector3::UnitZ()};
    ContactCounters counters;
    std::size_t i = 0;
    for (auto _ : state)
    {
        Pose p = cases[i++ & 255].pA;
        p.position.z() = supportValue(s, p.directionToParticleFrame(-w.normal)) - 0.01*s.c();
        const Contact c = detectWallContactNewton(s, p, w);
        counters.record(c);
        benchmark::DoNotOptimize(c);
    }
    state.SetLabel(f.name);
    reportCounters(state, counters);
}

void BM_BoundingSpheres(benchmark::State& state)
{
    const Superellipsoid s(2, 1, 1, 0.5, 0.5);
    const auto cases = makePairs(s, 256, 13);
    const double r = s.boundingRadius();
    std::size_t i = 0;
    for (auto _ : state)
    {
        const PairCase& pc = cases[i++ & 255];
        benchmark::DoNotOptimize(boundingSpheresOverlap(pc.pA.position, r, pc.pB.position, r));
    }
}

void BM_ObbSat15(benchmark::State& state)
{
    const Superellipsoid s(2, 1, 1, 0.5, 0.5);
    const auto cases = makePairs(s, 256, 13);
    std::vector<Matrix3> Q(256 * 2);
    for (int k = 0; k < 256; ++k)
    {
        Q[2*k] = cases[k].pA.particleToGlobal();
        Q[2*k + 1] = cases[k].pB.particleToGlobal();
    }
    const Vector3 h = s.halfAxes();
    std::size_t i = 0;
    for (auto _ : state)
    {
        const std::size_t k = i++ & 255;
        benchmark::DoNotOptimize(obbOverlap(cases[k].pA.position, Q[2*k], h, cases[k].pB.position, Q[2*k + 1], h));
    }
}

void BM_SupportPoint(benchmark::State& state)
{
    const Family& f = families[state.range(0)];
    const Superellipsoid s(f.a, f.b, f.c, f.eps1, f.eps2);
    std::mt19937_64 rng(3);
    std::vector<Vector3> dirs(256);
    for (auto& d : dirs) d = randomUnit(rng);
    std::size_t i = 0;
    for (auto _ : state)
    {
        benchmark::DoNotOptimize(supportPoint(s, dirs[i++ & 255]));
    }
    state.SetLabel(f.name);
}

} // namespace

BENCHMARK(BM_PairCold)->DenseRange(0, 4)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_PairWarm)->DenseRange(0, 4)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_PlaneClosedForm)->DenseRange(0, 4)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_PlanePaperNewton)->DenseRange(0, 4)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_SupportPoint)->DenseRange(0, 4)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_BoundingSpheres)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_ObbSat15)->Unit(benchmark::kMicrosecond);

BENCHMARK_MAIN();
