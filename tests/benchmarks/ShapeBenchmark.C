/*---------------------------------------------------------------------------*\
    Cost of the superellipsoid inside-out function and its derivatives
    (Eq. 3 of [Wedel2023]): ns per Superellipsoid::derivatives() call at orders
    0..3, for eps = 1 (integer exponents: fast path, no std::pow) and for
    eps = 0.3 / 1.7 (general path, std::pow).
    Run: build/<dir>/tests/benchmarks/ShapeBenchmark
\*---------------------------------------------------------------------------*/
#include "shape/Superellipsoid.H"

#include <benchmark/benchmark.h>

#include <random>
#include <vector>

using namespace superellipsoid;

namespace
{

//- 1024 points around the surface (scaled radius 0.8 .. 1.2), random signs
std::vector<Vector3> samplePoints(const Superellipsoid& s)
{
    std::mt19937_64 rng(1);
    std::uniform_real_distribution<double> U(-1, 1);
    std::vector<Vector3> points;
    for (int i = 0; i < 1024; ++i)
    {
        const Vector3 x = s.surfacePoint(0.5*M_PI*U(rng), M_PI*U(rng));
        points.push_back((1 + 0.2*U(rng))*x);
    }
    return points;
}

void derivativesCall(benchmark::State& state, double eps1, double eps2)
{
    const Superellipsoid s(3, 2, 1, eps1, eps2);
    const int order = static_cast<int>(state.range(0));
    const std::vector<Vector3> points = samplePoints(s);
    std::size_t i = 0;
    for (auto _ : state)
    {
        ShapeDerivatives d = s.derivatives(points[i++ & 1023], order);
        benchmark::DoNotOptimize(d);
    }
}

} // End anonymous namespace

BENCHMARK_CAPTURE(derivativesCall, eps1_fastPath, 1.0, 1.0)->DenseRange(0, 3);
BENCHMARK_CAPTURE(derivativesCall, eps0p3_general, 0.3, 0.3)->DenseRange(0, 3);
BENCHMARK_CAPTURE(derivativesCall, eps1p7_general, 1.7, 1.7)->DenseRange(0, 3);
BENCHMARK_CAPTURE(derivativesCall, eps0p3_1p7_mixed, 0.3, 1.7)->DenseRange(0, 3);

BENCHMARK_MAIN();
