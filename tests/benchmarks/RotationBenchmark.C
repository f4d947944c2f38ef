// Cost of one rotational step (ns per particle per step) of
// dynamics/RigidBodyRotation: torque-free, with torque, with a full damping
// matrix (exact exponential kick), and the inertialess Jeffery update.
#include "dynamics/RigidBodyRotation.H"

#include <benchmark/benchmark.h>

using namespace superellipsoid;

namespace
{

const Vector3 moments(1.0, 2.0, 3.0);

RotationalState tumbling()
{
    RotationalState s;
    s.orientation = normalisedOrientation(Quaternion(0.9, 0.1, -0.3, 0.2));
    s.angularVelocity = Vector3(0.01, 1.0, 0.02);
    return s;
}

} // namespace


static void BM_AdvanceRotationTorqueFree(benchmark::State& bench)
{
    RotationalState s = tumbling();
    for (auto _ : bench)
    {
        advanceRotation(s, moments, Vector3::Zero(), 1e-3);
        benchmark::DoNotOptimize(s);
    }
}
BENCHMARK(BM_AdvanceRotationTorqueFree);


static void BM_AdvanceRotationWithTorque(benchmark::State& bench)
{
    RotationalState s = tumbling();
    const Vector3 torque(0.1, -0.2, 0.05);
    for (auto _ : bench)
    {
        advanceRotation(s, moments, torque, 1e-3);
        benchmark::DoNotOptimize(s);
    }
}
BENCHMARK(BM_AdvanceRotationWithTorque);


static void BM_AdvanceRotationWithDampingMatrix(benchmark::State& bench)
{
    RotationalState s = tumbling();
    const Vector3 torque(0.1, -0.2, 0.05);
    Matrix3 damping;
    damping << 0.4, 0.1, 0.0,
               0.1, 0.3, -0.05,
               0.0, -0.05, 0.6;
    for (auto _ : bench)
    {
        advanceRotation(s, moments, torque, damping, 1e-3);
        benchmark::DoNotOptimize(s);
    }
}
BENCHMARK(BM_AdvanceRotationWithDampingMatrix);


static void BM_AdvanceOrientationPrescribedJeffery(benchmark::State& bench)
{
    // Prolate spheroid r = 3 in simple shear, omega' from Jeffery's equation
    const double beta = 0.8;
    const Vector3 halfVorticity(0, 0, -0.5);
    Matrix3 strain = Matrix3::Zero();
    strain(0, 1) = strain(1, 0) = 0.5;
    auto omegaParticle = [&](const Quaternion& e)
    {
        const Vector3 p = e*Vector3::UnitX();
        return Vector3(e.conjugate()*(halfVorticity + beta*p.cross(strain*p)));
    };
    Quaternion e = normalisedOrientation(Quaternion(0.9, 0.1, -0.3, 0.2));
    for (auto _ : bench)
    {
        e = advanceOrientationPrescribed(e, omegaParticle, 1e-3);
        benchmark::DoNotOptimize(e);
    }
}
BENCHMARK(BM_AdvanceOrientationPrescribedJeffery);

BENCHMARK_MAIN();
