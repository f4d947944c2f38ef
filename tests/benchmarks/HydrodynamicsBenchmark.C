// Cost of the resistance tensors per shape and resolution, of their rotation
// to the global frame (Eq. 6 of [Wedel2023]), of one force + torque evaluation
// (Eqs. 5-7, 21-23 of [Wedel2023]), together and separately, and of the
// added-mass tensor per parcel from the shape (Carlson integrals) and from
// coefficients computed once per shape (what the parcels use), and of the
// incidence laws: per call (also the table-driven one), and the per-shape
// projected-area table.
#include "hydrodynamics/AddedMass.H"
#include "hydrodynamics/FroehlichForce.H"
#include "hydrodynamics/HoelzerSommerfeldForce.H"
#include "hydrodynamics/HydrodynamicForces.H"
#include "hydrodynamics/ResolvedCoefficientForce.H"
#include "hydrodynamics/StokesResistanceSolver.H"

#include <benchmark/benchmark.h>

using namespace superellipsoid;

static void BM_ExactEllipsoidTensors(benchmark::State& state)
{
    for (auto _ : state)
    {
        benchmark::DoNotOptimize(exactEllipsoidResistance(5, 3, 1));
    }
}
BENCHMARK(BM_ExactEllipsoidTensors);

// Boundary element tensors: shape index x resolution (one solve per iteration)
static void BM_BoundaryElementTensors(benchmark::State& state)
{
    static const ShapeParameters shapes[] =
    {
        {1, 1, 1, 1, 1}, {5, 3, 1, 1, 1}, {1, 1, 1, 0.2, 0.2}, {2, 1, 1, 1.8, 1.8}
    };
    const ShapeParameters& shape = shapes[state.range(0)];
    int panels = 0;
    for (auto _ : state)
    {
        const StokesResistanceResult r = solveStokesResistance(shape, int(state.range(1)));
        panels = r.panelCount;
        benchmark::DoNotOptimize(r.tensors.K(0, 0));
    }
    state.counters["panels"] = panels;
    state.SetLabel
    (
        "a" + std::to_string(shape.a) + " b" + std::to_string(shape.b)
      + " c" + std::to_string(shape.c) + " eps " + std::to_string(shape.eps1)
    );
}
BENCHMARK(BM_BoundaryElementTensors)
    ->ArgsProduct({{0, 1, 2, 3}, {216, 384, 864, defaultStokesResolution}})
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);

static void BM_ForceAndTorque(benchmark::State& state)
{
    HydrodynamicParticle particle;
    particle.tensors = exactEllipsoidResistance(5, 3, 1);
    particle.c = 1e-5;
    particle.volume = 4.0/3*3.14159*15e-15;
    particle.density = 2500;
    const FluidProperties water{1000, 1e-6};
    const Matrix3 R = Quaternion(Eigen::AngleAxisd(0.4, Vector3(1, 2, 3).normalized())).toRotationMatrix().transpose();
    FlowAtParticle flow;
    flow.fluidVelocity = Vector3(1e-3, 0, 0);
    flow.gravity = Vector3(0, 0, -9.81);
    Matrix3 gradU = Matrix3::Zero();
    gradU(1, 0) = 10;
    const ForceTerms allTerms{true, true, true, true};
    const Vector3 omega(1, 2, 3);
    for (auto _ : state)
    {
        const HydrodynamicForce F = hydrodynamicForce(particle, water, R, flow, allTerms);
        const HydrodynamicTorque T = hydrodynamicTorque(particle, water, R, gradU, omega);
        benchmark::DoNotOptimize(F.total);
        benchmark::DoNotOptimize(T.global);
    }
}
BENCHMARK(BM_ForceAndTorque);

// Per-parcel, per-step frame work: quaternion -> R, then K, Omega, Pi to the
// global frame, K_global = R^T K' R (Eq. 6 of [Wedel2023]); orientation changes every step
static void BM_TensorRotation(benchmark::State& state)
{
    const ResistanceTensors tensors = exactEllipsoidResistance(5, 3, 1);
    Quaternion q(Eigen::AngleAxisd(0.4, Vector3(1, 2, 3).normalized()));
    const Quaternion dq(Eigen::AngleAxisd(1e-3, Vector3(0, 0, 1)));
    for (auto _ : state)
    {
        q = (q*dq).normalized();
        const Matrix3 R = q.toRotationMatrix().transpose();
        const Matrix3 K = toGlobalFrame(tensors.K, R);
        const Matrix3 Omega = toGlobalFrame(tensors.Omega, R);
        const Matrix3 Pi = toGlobalFrame(tensors.Pi, R);
        benchmark::DoNotOptimize(K(0, 1) + Omega(1, 2) + Pi(2, 0));
    }
}
BENCHMARK(BM_TensorRotation);

// Force alone (Eqs. 5-7 of [Wedel2023]) and torque alone (Eqs. 21-23)
static HydrodynamicParticle benchmarkParticle()
{
    HydrodynamicParticle particle;
    particle.tensors = exactEllipsoidResistance(5, 3, 1);
    particle.c = 1e-5;
    particle.volume = 4.0/3*3.14159*15e-15;
    particle.density = 2500;
    return particle;
}

static void BM_ForceOnly(benchmark::State& state)
{
    const HydrodynamicParticle particle = benchmarkParticle();
    const FluidProperties water{1000, 1e-6};
    const Matrix3 R = Quaternion(Eigen::AngleAxisd(0.4, Vector3(1, 2, 3).normalized())).toRotationMatrix().transpose();
    FlowAtParticle flow;
    flow.fluidVelocity = Vector3(1e-3, 0, 0);
    flow.gravity = Vector3(0, 0, -9.81);
    const ForceTerms allTerms{true, true, true, true};
    for (auto _ : state)
    {
        const HydrodynamicForce F = hydrodynamicForce(particle, water, R, flow, allTerms);
        benchmark::DoNotOptimize(F.total);
    }
}
BENCHMARK(BM_ForceOnly);

static void BM_TorqueOnly(benchmark::State& state)
{
    const HydrodynamicParticle particle = benchmarkParticle();
    const FluidProperties water{1000, 1e-6};
    const Matrix3 R = Quaternion(Eigen::AngleAxisd(0.4, Vector3(1, 2, 3).normalized())).toRotationMatrix().transpose();
    Matrix3 gradU = Matrix3::Zero();
    gradU(1, 0) = 10;
    const Vector3 omega(1, 2, 3);
    for (auto _ : state)
    {
        const HydrodynamicTorque T = hydrodynamicTorque(particle, water, R, gradU, omega);
        benchmark::DoNotOptimize(T.global);
    }
}
BENCHMARK(BM_TorqueOnly);

// Global added-mass tensor of a 5:3:1 ellipsoid at a random-like rotation
static Matrix3 benchmarkRotation()
{
    return Eigen::AngleAxisd(0.7, Vector3(1, 2, 3).normalized()).toRotationMatrix();
}

static void BM_AddedMassFromShape(benchmark::State& state)
{
    const ShapeParameters shape{5, 3, 1, 1, 1};
    const Matrix3 R = benchmarkRotation();
    for (auto _ : state)
    {
        benchmark::DoNotOptimize(addedMassTensor(shape, 1000, 62.8, R));
    }
}
BENCHMARK(BM_AddedMassFromShape);

static void BM_AddedMassFromCoefficients(benchmark::State& state)
{
    const Vector3 k = ellipsoidAddedMassCoefficients(5, 3, 1);
    const Matrix3 R = benchmarkRotation();
    for (auto _ : state)
    {
        benchmark::DoNotOptimize(addedMassTensor(k, 1000, 62.8, R));
    }
}
BENCHMARK(BM_AddedMassFromCoefficients);

// One incidence-law force (+ torque) at Re ~ 50 on a 2.5:1 prolate at a
// generic orientation
static HydrodynamicParticle incidenceParticle()
{
    HydrodynamicParticle particle;
    particle.tensors = exactEllipsoidResistance(2.5e-4, 1e-4, 1e-4);
    particle.c = 1e-4;
    particle.volume = 4.0/3*3.14159265358979*2.5e-12;
    return particle;
}

static void BM_FroehlichForce(benchmark::State& state)
{
    const HydrodynamicParticle particle = incidenceParticle();
    const EquivalentProlate prolate = equivalentProlate(Superellipsoid(2.5e-4, 1e-4, 1e-4, 1, 1));
    const FluidProperties water{1000, 1e-6};
    const Matrix3 R = benchmarkRotation();
    const Vector3 slip(0.1, 0.02, -0.03);
    for (auto _ : state)
    {
        benchmark::DoNotOptimize(froehlichForce(particle, prolate, water, R, slip));
    }
}
BENCHMARK(BM_FroehlichForce);

static void BM_HoelzerSommerfeldForce(benchmark::State& state)
{
    const HydrodynamicParticle particle = incidenceParticle();
    const HoelzerSommerfeldShape shape =
        hoelzerSommerfeldShape(Superellipsoid(2.5e-4, 1e-4, 1e-4, 1, 1));
    const FluidProperties water{1000, 1e-6};
    const Matrix3 R = benchmarkRotation();
    const Vector3 slip(0.1, 0.02, -0.03);
    for (auto _ : state)
    {
        benchmark::DoNotOptimize(hoelzerSommerfeldForce(particle, shape, water, R, slip));
    }
}
BENCHMARK(BM_HoelzerSommerfeldForce);

// The table-driven law on a table of the 2.5:1 prolate: 7 Re nodes 1-1000,
// theta every 10 deg, phi every 15 deg (Brenner's force as coefficients)
static void BM_ResolvedCoefficientForce(benchmark::State& state)
{
    const HydrodynamicParticle particle = incidenceParticle();
    const Superellipsoid shape(2.5e-4, 1e-4, 1e-4, 1, 1);
    const double d = shape.volumeEquivalentDiameter();
    ResolvedCoefficientTable table;
    table.shape = resolvedShapeKey(shape);
    table.reynolds = {1, 3, 10, 30, 100, 300, 1000};
    table.unsteady.assign(table.reynolds.size(), false);
    for (int i = 0; i <= 9; ++i)
    {
        table.thetaDegrees.push_back(10.0*i);
    }
    for (int j = 0; j <= 6; ++j)
    {
        table.phiDegrees.push_back(15.0*j);
    }
    for (double Re : table.reynolds)
    {
        ResolvedCoefficientGrid::value_type F, T;
        for (double theta : table.thetaDegrees)
        {
            F.emplace_back();
            T.emplace_back();
            for (double phi : table.phiDegrees)
            {
                const Vector3 e = octantDirection(theta, phi);
                F.back().push_back((8*particle.c/(Re*d))*(particle.tensors.K*e));
                T.back().push_back(Vector3::Zero());
            }
        }
        table.forceCoefficients.push_back(F);
        table.torqueCoefficients.push_back(T);
    }
    validateResolvedCoefficientTable(table);
    const FluidProperties water{1000, 1e-6};
    const Matrix3 R = benchmarkRotation();
    const Vector3 slip(0.1, 0.02, -0.03);
    for (auto _ : state)
    {
        benchmark::DoNotOptimize(resolvedCoefficientForce(particle, table, water, R, slip, d));
    }
}
BENCHMARK(BM_ResolvedCoefficientForce);

// Per-shape setup of Hoelzer-Sommerfeld (surface area, projected-area table)
static void BM_HoelzerSommerfeldShape(benchmark::State& state)
{
    const Superellipsoid shape(2, 1.5, 1, 0.5, 0.5);
    for (auto _ : state)
    {
        benchmark::DoNotOptimize(hoelzerSommerfeldShape(shape).sphericity);
    }
}
BENCHMARK(BM_HoelzerSommerfeldShape)->Iterations(3)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
