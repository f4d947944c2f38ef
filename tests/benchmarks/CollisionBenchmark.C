// Cost of contact response: one impulse resolution (wall, pair; frictional,
// frictionless) and one soft-contact force evaluation. Run:
//   build/<you>/tests/benchmarks/CollisionBenchmark
#include "collision/ImpulseCollision.H"
#include "collision/SoftContact.H"
#include "orientation/Orientation.H"

#include <benchmark/benchmark.h>

#include <limits>
#include <random>
#include <vector>

using namespace superellipsoid;

namespace
{

struct Case
{
    RigidBody a, b;
    CollisionPoint contact;
};

//- Eccentric contacts on random ellipsoids (aspect ratio up to 4), approaching
std::vector<Case> makeCases(bool wall, int count)
{
    std::mt19937_64 rng(42);
    std::normal_distribution<double> N(0, 1);
    std::vector<Case> cases;
    for (int i = 0; i < count; ++i)
    {
        const Vector3 h(2, 1, 0.5);
        const Vector3 I = 0.2*Vector3(h.y()*h.y() + h.z()*h.z(), h.x()*h.x() + h.z()*h.z(), h.x()*h.x() + h.y()*h.y());
        const Quaternion q = randomOrientation(rng);
        const Vector3 d = Vector3(N(rng), N(rng), N(rng)).normalized();
        const Vector3 xp = h.cwiseProduct(d);
        Case c;
        c.contact.point = q*xp;
        c.contact.normal = (q*xp.cwiseQuotient(h.cwiseProduct(h))).normalized();
        c.contact.overlap = 1e-3;
        c.a = RigidBody::particle(1, I, q, Vector3::Zero(), -c.contact.normal.cross(Vector3(N(rng), N(rng), N(rng)))
                                  + 2*c.contact.normal, Vector3(N(rng), N(rng), N(rng)));
        c.b = wall ? RigidBody::wall()
                   : RigidBody::particle(1, I, q, c.contact.point + 1.5*c.contact.normal, Vector3::Zero(),
                                         Vector3(N(rng), N(rng), N(rng)));
        cases.push_back(c);
    }
    return cases;
}

void runImpulse(benchmark::State& state, bool wall, const ImpulseLaw& law)
{
    const std::vector<Case> cases = makeCases(wall, 1024);
    std::size_t i = 0;
    for (auto _ : state)
    {
        const Case& c = cases[i++ & 1023];
        benchmark::DoNotOptimize(resolveImpulse(c.a, c.b, c.contact, law));
    }
}

void ImpulseWallFrictionless(benchmark::State& s) { runImpulse(s, true, ImpulseLaw::frictionless(0.8)); }
void ImpulseWallFrictional(benchmark::State& s) { runImpulse(s, true, ImpulseLaw::withFriction(0.8, 0.3)); }
void ImpulsePairFrictionless(benchmark::State& s) { runImpulse(s, false, ImpulseLaw::frictionless(0.8)); }
void ImpulsePairFrictional(benchmark::State& s) { runImpulse(s, false, ImpulseLaw::withFriction(0.8, 0.3)); }

void SoftContactForceHertz(benchmark::State& state)
{
    const std::vector<Case> cases = makeCases(false, 1024);
    SoftContactLaw law;
    law.restitution = 0.7;
    law.staticFriction = law.dynamicFriction = 0.3;
    const SoftContactModel model(ContactMaterial::elastic(1e7, 0.3), ContactMaterial::elastic(1e7, 0.3), law);
    const SoftContactParameters p = model.parameters(0.5, 0.3);
    TangentialHistory history;
    std::size_t i = 0;
    for (auto _ : state)
    {
        const Case& c = cases[i++ & 1023];
        const SoftContactResult r = softContactForce(c.a, c.b, c.contact, p, history, 1e-5);
        history = r.history;
        benchmark::DoNotOptimize(r);
    }
}

void SoftContactParametersPerContact(benchmark::State& state)
{
    SoftContactLaw law;
    law.restitution = 0.7;
    const SoftContactModel model(ContactMaterial::elastic(1e7, 0.3), ContactMaterial::rigidWall(), law);
    const RigidBody a = RigidBody::particle(1, Vector3::Constant(0.1), Quaternion::Identity(),
                                            Vector3::Zero(), Vector3::Zero(), Vector3::Zero());
    double r = 0.3;
    for (auto _ : state)
    {
        r += 1e-12;
        benchmark::DoNotOptimize(model.parameters(a, RigidBody::wall(), r, std::numeric_limits<double>::infinity()));
    }
}

} // namespace

BENCHMARK(ImpulseWallFrictionless);
BENCHMARK(ImpulseWallFrictional);
BENCHMARK(ImpulsePairFrictionless);
BENCHMARK(ImpulsePairFrictional);
BENCHMARK(SoftContactForceHertz);
BENCHMARK(SoftContactParametersPerContact);

BENCHMARK_MAIN();
