// Cost of the VTK output (src/core/output) per write: surfaces and particles
// files of N cube-like particles (resolution (12 24): 266 points, 528
// triangles each) into memory (formatting; ASCII, and binary with the
// file size) and to a file (+ I/O). Run:
//   build/<you>/tests/benchmarks/VtkOutputBenchmark
#include "output/VtkPolyData.H"

#include <benchmark/benchmark.h>

#include <cstdio>
#include <random>
#include <sstream>
#include <string>
#include <vector>

using namespace superellipsoid;

namespace
{

std::vector<VtkParticle> particles(int n)
{
    std::mt19937_64 rng(1);
    std::uniform_real_distribution<double> U(-1, 1);
    std::vector<VtkParticle> out(n);
    for (int i = 0; i < n; ++i)
    {
        out[i].id = i;
        out[i].pose.position = Vector3(0.02*U(rng), 0.02*U(rng), 0.2 + 0.2*U(rng));
        out[i].pose.orientation = randomOrientation(rng);
        out[i].velocity = Vector3(U(rng), U(rng), U(rng));
    }
    return out;
}

const std::vector<Superellipsoid> shapes{Superellipsoid(4e-3, 4e-3, 4e-3, 0.2, 0.2)};

void surfacesToMemory(benchmark::State& state)
{
    const auto p = particles(int(state.range(0)));
    const VtkFormat format = state.range(1) ? VtkFormat::binary : VtkFormat::ascii;
    std::size_t bytes = 0;
    for (auto _ : state)
    {
        std::ostringstream os;
        writeSurfacesVtp(os, p, shapes, SurfaceResolution(), format);
        bytes = os.str().size();
        benchmark::DoNotOptimize(bytes);
    }
    state.counters["MB"] = double(bytes)/1e6;
    state.counters["kB_per_particle"] = double(bytes)/1e3/double(p.size());
}

void surfacesToFile(benchmark::State& state)
{
    const auto p = particles(int(state.range(0)));
    const std::string file = "/tmp/sefoam_VtkOutputBenchmark.vtp";
    for (auto _ : state) writeSurfacesVtp(file, p, shapes);
    std::remove(file.c_str());
}

void particlesToMemory(benchmark::State& state)
{
    const auto p = particles(int(state.range(0)));
    for (auto _ : state)
    {
        std::ostringstream os;
        writeParticlesVtp(os, p, shapes);
        benchmark::DoNotOptimize(os.str().size());
    }
}

} // namespace

// Args: particles, binary (0: ASCII)
BENCHMARK(surfacesToMemory)->Args({100, 0})->Args({300, 0})->Args({300, 1})->Unit(benchmark::kMillisecond);
BENCHMARK(surfacesToFile)->Arg(100)->Arg(300)->Unit(benchmark::kMillisecond);
BENCHMARK(particlesToMemory)->Arg(300)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
