// Contact detection micro-benchmarks: us per detection, cold and warm
// start, for five shape families, particle-particle and particle-plane, the
// pre-evaluation filters, and us per contact manifold for the six tutorial
// shapes. Each benchmark cycles through 256 random near-contact
// configurations (overlap in [0, 0.05] c, common normal by construction).
//
// The targets are MEDIANS, so the pair benchmarks time every call on
// its own (steady_clock: TSC via vDSO here; the median cost of an empty timer
// pair is measured once and subtracted) and report, over all timed calls of
// all configurations, the counters
//     med_us   median us per detection      (the target figure)
//     p90_us   90th percentile
//     mean_us  mean of the timed calls
// Google Benchmark's own "Time" column is the mean per pass over the 256
// configurations (timer calls included), divided by 256 via the items rate.
// Run (spread over repetitions, machine shared):
//   build/<dir>/tests/benchmarks/ContactBenchmark --benchmark_min_time=0.5 \
//       --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include "contact/BoundingVolumes.H"
#include "contact/ManifoldGeometry.H"
#include "contact/ParticleContact.H"
#include "contact/SupportPoint.H"
#include "contact/WallContact.H"
#include "orientation/Orientation.H"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
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

using Clock = std::chrono::steady_clock;

inline double nanoseconds(Clock::time_point t0, Clock::time_point t1)
{
    return std::chrono::duration<double, std::nano>(t1 - t0).count();
}

//- Median cost of an empty timed region (two clock reads), subtracted from
//  every timed call
double timerOverhead()
{
    static const double overhead = []
    {
        std::vector<double> t(20001);
        for (double& x : t)
        {
            const auto t0 = Clock::now();
            benchmark::ClobberMemory();
            const auto t1 = Clock::now();
            x = nanoseconds(t0, t1);
        }
        std::nth_element(t.begin(), t.begin() + t.size()/2, t.end());
        return t[t.size()/2];
    }();
    return overhead;
}

//- Timed regions (ns) of callsPerRegion calls each -> median, p90, mean
//  per call in us (timer overhead subtracted once per region)
void reportDistribution(benchmark::State& state, std::vector<double>& ns, int callsPerRegion = 1)
{
    if (ns.empty()) return;
    const double off = timerOverhead();
    double sum = 0;
    for (double& x : ns)
    {
        x = std::max(0.0, x - off)/callsPerRegion;
        sum += x;
    }
    const auto quantile = [&](double q)
    {
        const std::size_t k = std::min(ns.size() - 1, std::size_t(q*double(ns.size())));
        std::nth_element(ns.begin(), ns.begin() + k, ns.end());
        return ns[k];
    };
    state.counters["med_us"] = 1e-3*quantile(0.5);
    state.counters["p90_us"] = 1e-3*quantile(0.9);
    state.counters["mean_us"] = 1e-3*sum/double(ns.size());
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
    timerOverhead();
    ContactCounters counters;
    std::vector<double> ns;
    ns.reserve(1 << 20);
    for (auto _ : state)
    {
        for (const PairCase& pc : cases)
        {
            const auto t0 = Clock::now();
            const Contact c = detectParticleContact(s, pc.pA, s, pc.pB);
            benchmark::DoNotOptimize(c);
            const auto t1 = Clock::now();
            if (ns.size() < ns.capacity()) ns.push_back(nanoseconds(t0, t1));
            counters.record(c);
        }
    }
    state.SetItemsProcessed(state.iterations()*std::int64_t(cases.size()));
    state.SetLabel(f.name);
    reportCounters(state, counters);
    reportDistribution(state, ns);
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
    timerOverhead();
    ContactCounters counters;
    std::vector<double> ns;
    ns.reserve(1 << 20);
    std::size_t pass = 0;
    for (auto _ : state)
    {
        // oscillate every 20 passes so that the pairs stay in contact
        const int sign = (pass++ / 20) % 2 ? -1 : 1;
        for (std::size_t k = 0; k < cases.size(); ++k)
        {
            PairCase& pc = cases[k];
            pc.pB.position += sign*drift[k];
            pc.pB.orientation = sign > 0 ? pc.pB.orientation*spin[k] : pc.pB.orientation*spin[k].conjugate();
            const auto t0 = Clock::now();
            const Contact c = detectParticleContact(s, pc.pA, s, pc.pB, &warm[k]);
            benchmark::DoNotOptimize(c);
            const auto t1 = Clock::now();
            if (ns.size() < ns.capacity()) ns.push_back(nanoseconds(t0, t1));
            counters.record(c);
        }
    }
    state.SetItemsProcessed(state.iterations()*std::int64_t(cases.size()));
    state.SetLabel(f.name);
    reportCounters(state, counters);
    reportDistribution(state, ns);
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

//- Filters cost nanoseconds, below the timer's resolution per call: each
//  configuration is timed as a batch of filterBatch repeated calls, and the
//  median/p90 are over configurations x passes of (batch time)/filterBatch
constexpr int filterBatch = 32;

template<class Filter>
void timeFilter(benchmark::State& state, int nCases, Filter&& filter)
{
    timerOverhead();
    std::vector<double> ns;
    ns.reserve(1 << 20);
    for (auto _ : state)
    {
        for (int k = 0; k < nCases; ++k)
        {
            const auto t0 = Clock::now();
            for (int r = 0; r < filterBatch; ++r)
            {
                benchmark::DoNotOptimize(filter(k));
            }
            const auto t1 = Clock::now();
            if (ns.size() < ns.capacity()) ns.push_back(nanoseconds(t0, t1));
        }
    }
    state.SetItemsProcessed(state.iterations()*std::int64_t(nCases)*filterBatch);
    reportDistribution(state, ns, filterBatch);
}

void BM_BoundingSpheres(benchmark::State& state)
{
    const Superellipsoid s(2, 1, 1, 0.5, 0.5);
    const auto cases = makePairs(s, 256, 13);
    const double r = s.boundingRadius();
    timeFilter(state, 256, [&](int k)
    {
        return boundingSpheresOverlap(cases[k].pA.position, r, cases[k].pB.position, r);
    });
}

// 15-axis SAT with precomputed rotation matrices (the boxes' axes)
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
    timeFilter(state, 256, [&](int k)
    {
        return obbOverlap(cases[k].pA.position, Q[2*k], h, cases[k].pB.position, Q[2*k + 1], h);
    });
}

// The filter as detectParticleContact calls it (rotation matrices from the
// quaternions included)
void BM_ObbSat15FromPoses(benchmark::State& state)
{
    const Superellipsoid s(2, 1, 1, 0.5, 0.5);
    const auto cases = makePairs(s, 256, 13);
    timeFilter(state, 256, [&](int k)
    {
        return obbOverlap(s, cases[k].pA, s, cases[k].pB);
    });
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

// Contact manifolds (ManifoldGeometry.H) of the six tutorial shapes
// (tutorials/cylinderFilling, unit c), us per manifold, the detection not
// timed. range(1) = 0: random orientations (mostly point contacts);
// 1: resting, the pair (or the particle and the floor) aligned along a
// principal axis with a random 1e-4 rad tilt (face, line and point
// manifolds). Counters: med_us, p90_us, mean_us (as above) and pts, the
// mean number of points.
const Family tutorialShapes[] =
{
    {"sphere", 1, 1, 1, 1, 1},
    {"prolate", 2, 1, 1, 1, 1},
    {"oblate", 2, 2, 1, 1, 1},
    {"cube", 1, 1, 1, 0.2, 0.2},
    {"diamond", 1, 1, 1, 1.6, 1.6},
    {"cylinder", 1, 1, 1, 0.2, 1.0}
};

Quaternion restingOrientation(std::mt19937_64& rng)
{
    // One of the principal axes (either sign) along z, tilted by 1e-4 rad
    static const Quaternion axes[3] =
    {
        Quaternion::Identity(),
        Quaternion(Eigen::AngleAxisd(0.5*M_PI, Vector3::UnitX())),
        Quaternion(Eigen::AngleAxisd(0.5*M_PI, Vector3::UnitY()))
    };
    const Quaternion flip(Eigen::AngleAxisd(rng() % 2 ? M_PI : 0.0, Vector3::UnitX()));
    const Quaternion spin(Eigen::AngleAxisd(std::uniform_real_distribution<double>(0, 2*M_PI)(rng), Vector3::UnitZ()));
    const Quaternion tilt(Eigen::AngleAxisd(1e-4, randomUnit(rng)));
    return tilt*spin*flip*axes[rng() % 3];
}

template<class Make>
void timeManifolds(benchmark::State& state, const Family& f, int nCases, Make&& make)
{
    timerOverhead();
    std::vector<double> ns;
    ns.reserve(1 << 20);
    long points = 0, manifolds = 0;
    for (auto _ : state)
    {
        for (int k = 0; k < nCases; ++k)
        {
            const auto t0 = Clock::now();
            const ContactManifold m = make(k);
            benchmark::DoNotOptimize(m);
            const auto t1 = Clock::now();
            if (ns.size() < ns.capacity()) ns.push_back(nanoseconds(t0, t1));
            points += m.count;
            ++manifolds;
        }
    }
    state.SetItemsProcessed(state.iterations()*std::int64_t(nCases));
    state.SetLabel(f.name);
    state.counters["pts"] = double(points)/double(manifolds ? manifolds : 1);
    reportDistribution(state, ns);
}

void BM_PairManifold(benchmark::State& state)
{
    const Family& f = tutorialShapes[state.range(0)];
    const Superellipsoid s(f.a, f.b, f.c, f.eps1, f.eps2);
    std::mt19937_64 rng(13);
    std::vector<PairCase> cases = makePairs(s, 256, 17);
    if (state.range(1) == 1)
    {
        for (PairCase& pc : cases)
        {
            pc.pA.orientation = restingOrientation(rng);
            pc.pB.orientation = restingOrientation(rng);
            const Vector3 up = Vector3::UnitZ();
            const Vector3 pA = pc.pA.toGlobalFrame(supportPoint(s, pc.pA.directionToParticleFrame(up)));
            const Vector3 xB = supportPoint(s, pc.pB.directionToParticleFrame(-up));
            pc.pB.position = pA - 0.01*s.c()*up - pc.pB.directionToGlobalFrame(xB)
                           + Vector3(0.01*s.c(), -0.005*s.c(), 0);
        }
    }
    std::vector<Contact> contacts;
    for (const PairCase& pc : cases) contacts.push_back(detectParticleContact(s, pc.pA, s, pc.pB));
    timeManifolds(state, f, int(cases.size()), [&](int k)
    {
        return pairManifold(s, cases[k].pA, s, cases[k].pB, contacts[k]);
    });
}

void BM_WallManifold(benchmark::State& state)
{
    const Family& f = tutorialShapes[state.range(0)];
    const Superellipsoid s(f.a, f.b, f.c, f.eps1, f.eps2);
    std::mt19937_64 rng(19);
    const Plane floor{Vector3::Zero(), Vector3::UnitZ()};
    std::vector<Pose> poses(256);
    std::vector<Contact> contacts;
    for (Pose& p : poses)
    {
        p.orientation = state.range(1) == 1 ? restingOrientation(rng) : randomOrientation(rng);
        p.position.z() = supportValue(s, p.directionToParticleFrame(-floor.normal)) - 0.01*s.c();
        contacts.push_back(detectWallContact(s, p, floor));
    }
    timeManifolds(state, f, int(poses.size()), [&](int k)
    {
        return wallManifold(s, poses[k], floor, contacts[k]);
    });
}

BENCHMARK(BM_PairCold)->DenseRange(0, 4)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_PairWarm)->DenseRange(0, 4)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_PlaneClosedForm)->DenseRange(0, 4)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_PlanePaperNewton)->DenseRange(0, 4)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_SupportPoint)->DenseRange(0, 4)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_BoundingSpheres)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_ObbSat15)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_ObbSat15FromPoses)->Unit(benchmark::kMicrosecond);

BENCHMARK(BM_PairManifold)->ArgsProduct({{0, 1, 2, 3, 4, 5}, {0, 1}})->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_WallManifold)->ArgsProduct({{0, 1, 2, 3, 4, 5}, {0, 1}})->Unit(benchmark::kMicrosecond);

BENCHMARK_MAIN();
