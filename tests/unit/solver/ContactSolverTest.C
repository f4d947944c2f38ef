// Contact solver on manifold points (ContactSolver.H) under gravity:
// resting bodies against static equilibrium (the normal impulses of a
// substep carry the weight above, m g h), spin and drift of bodies that
// must stay at rest, and the energy budget of every substep of a pile.
#include "SolverTestHelpers.H"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <random>

using namespace superellipsoid;
using namespace superellipsoid::test;

namespace
{

constexpr double density = 1000;
constexpr double g = 9.81;

double kineticEnergy(const ParticleSystem& s)
{
    return translationalKineticEnergy(s) + rotationalKineticEnergy(s);
}

//- Kinetic plus potential energy in gravity (z up)
double totalEnergy(const ParticleSystem& s)
{
    double e = kineticEnergy(s);
    for (const Particle& p : s.particles) e += p.mass*g*p.pose.position.z();
    return e;
}

CollisionSettings gravitySettings(double mu)
{
    CollisionSettings settings;
    settings.gravity = Vector3(0, 0, -g);
    settings.pairLaw = mu > 0 ? ImpulseLaw::withFriction(0.2, mu) : ImpulseLaw::frictionless(0.2);
    settings.wallLaw = settings.pairLaw;
    return settings;
}

//- The six shapes of the filling tutorial, d_eq = 1 cm
std::vector<Superellipsoid> tutorialShapes()
{
    const double d = 0.01;
    auto scaled = [&](double a, double b, double e1, double e2)
    {
        const double V = Superellipsoid::volumeFormula(a, b, 1, e1, e2);
        const double k = std::cbrt(pi/6*d*d*d/V);
        return Superellipsoid(a*k, b*k, k, e1, e2);
    };
    return {scaled(1, 1, 1, 1), scaled(2, 1, 1, 1), scaled(2, 2, 1, 1),
            scaled(1, 1, 0.2, 0.2), scaled(1, 1, 1.6, 1.6), scaled(1, 1, 0.2, 1)};
}

} // namespace


TEST(ContactSolver, EnergyOfEverySubstepOfAPileNeverIncreases)
{
    // 30 bodies of each tutorial shape (d_eq = 1 cm, eps_n = 0.2,
    // frictionless) thrown down at 0.5 m/s into a 6 x 6 cm box form a pile
    // over 0.5 s. The move is exact for constant gravity, so in every
    // substep the kinetic energy may grow by the work of gravity over the
    // move, sum m g.(v h + g h^2/2), and no more: collisions with eps_n < 1
    // and the converged relax passes dissipate, and the position
    // correction changes no velocity (its lift of the centres is reported;
    // it returns the potential energy that the move spent inside the
    // overlap). Tolerance: round-off of the energy sums, 1e-12 of the
    // peak kinetic energy (~30 eps of each of 30 terms is 1e-14); a bounce
    // computed off a warm-start push broke it by 3e-3 of the peak.
    const char* names[] = {"sphere", "prolate", "oblate", "cube", "diamond", "cylinder"};
    const std::vector<Superellipsoid> shapes = tutorialShapes();
    for (int shape = 0; shape < 6; ++shape)
    {
        const double r = 5e-3, L = 12*r, dt = 1e-4;
        ParticleSystem s;
        s.shapes.push_back(shapes[shape]);
        addBox(s.walls, Vector3::Zero(), Vector3(L, L, 4*L));
        std::mt19937_64 rng(5);
        std::uniform_real_distribution<double> u(0, 1);
        for (int i = 0; i < 30; ++i)
        {
            Pose p;
            p.position = Vector3((i % 3 + 0.5)*L/3, ((i/3) % 3 + 0.5)*L/3, 2.6*r*(i/9) + 2*r)
                       + 0.1*r*Vector3(u(rng), u(rng), u(rng));
            p.orientation = randomOrientation(rng);
            const Vector3 v = 0.2*Vector3(u(rng) - 0.5, u(rng) - 0.5, u(rng) - 0.5) - Vector3(0, 0, 0.5);
            s.particles.push_back(makeParticle(i, 0, s.shapes[0], density, p, v));
        }
        CollisionStep step(gravitySettings(0));
        double worst = -1, peak = kineticEnergy(s), lift = 0;
        long substeps = 0, collisions = 0;
        for (int k = 0; k < 5000; ++k)
        {
            const int n = step.chooseSubsteps(s, dt);
            const double h = dt/n;
            CollisionDiagnostics d;
            for (int j = 0; j < n; ++j)
            {
                // Work of gravity over the move (r += v h + g h^2/2, exact)
                double work = 0;
                for (const Particle& p : s.particles) work -= p.mass*g*(p.velocity.z()*h - 0.5*g*h*h);
                const double before = kineticEnergy(s), potential = totalEnergy(s) - before;
                step.impulseSubstep(s, h, d);
                const double kinetic = kineticEnergy(s);
                worst = std::max(worst, (kinetic - before - work)/peak);
                EXPECT_LE(kinetic - before - work, 1e-12*peak) << names[shape] << " substep " << substeps;
                lift = std::max(lift, totalEnergy(s) - kinetic - (potential - work));
                peak = std::max(peak, kinetic);
                ++substeps;
            }
            collisions += d.pairCollisions + d.wallCollisions;
            step.pairCache().dropUntouched();
        }
        EXPECT_GT(collisions, 100) << names[shape];
        std::printf("%-8s %ld substeps, %ld collisions: largest budget %.2e of the peak KE, "
                    "largest lift by position correction %.2e J, KE at 0.5 s %.2e of the peak\n",
                    names[shape], substeps, collisions, worst, lift, kineticEnergy(s)/peak);
    }
}
