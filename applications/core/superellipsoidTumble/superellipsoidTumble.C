/*---------------------------------------------------------------------------*\
Application
    superellipsoidTumble

Description
    Core-level (OpenFOAM-free) demonstration: torque-free tumbling of a
    superellipsoid started close to its intermediate principal axis (the
    "tennis-racket" or Dzhanibekov effect). Prints the mass properties
    (Eqs. (17)-(19) of [Wedel2023]), integrates Euler's equations (14)-(16) with
    the Lie-group splitting of dynamics/RigidBodyRotation, and summarises the
    number of flips of the intermediate axis and the conservation of energy,
    |L| and |e|.

Usage
    superellipsoidTumble [a b c eps1 eps2 [density [steps]]]
    Defaults: a = 3, b = 2, c = 1, eps1 = 0.5, eps2 = 0.8 (SI lengths, m),
    density = 1000 kg/m^3, steps = 100000.

\*---------------------------------------------------------------------------*/
#include "dynamics/RigidBodyRotation.H"
#include "shape/Superellipsoid.H"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

using namespace superellipsoid;

int main(int argc, char* argv[])
{
    double a = 3, b = 2, c = 1, eps1 = 0.5, eps2 = 0.8, density = 1000;
    long nSteps = 100000;
    if (argc != 1 && argc != 6 && argc != 7 && argc != 8)
    {
        std::fprintf(stderr, "Usage: %s [a b c eps1 eps2 [density [steps]]]\n", argv[0]);
        return 1;
    }
    try
    {
        if (argc >= 6)
        {
            a = std::stod(argv[1]); b = std::stod(argv[2]); c = std::stod(argv[3]);
            eps1 = std::stod(argv[4]); eps2 = std::stod(argv[5]);
        }
        if (argc >= 7) density = std::stod(argv[6]);
        if (argc >= 8) nSteps = std::stol(argv[7]);
        if (!(density > 0) || nSteps < 1)
        {
            throw std::invalid_argument("density and steps must be positive");
        }

        const Superellipsoid shape(a, b, c, eps1, eps2);
        const Vector3 I = shape.principalMoments(density);
        std::printf("Superellipsoid a = %g, b = %g, c = %g, eps1 = %g, eps2 = %g, density = %g\n",
            a, b, c, eps1, eps2, density);
        std::printf("  volume            %.10g m^3\n", shape.volume());
        std::printf("  mass              %.10g kg\n", shape.mass(density));
        std::printf("  principal moments %.10g %.10g %.10g kg m^2 (x', y', z')\n", I.x(), I.y(), I.z());

        // Spin about the intermediate axis, perturbed by 1% about the others
        int intermediate = 0;
        for (int k = 0; k < 3; ++k)
        {
            if (I(k) != I.minCoeff() && I(k) != I.maxCoeff()) intermediate = k;
        }
        RotationalState state;
        state.angularVelocity = Vector3::Constant(0.01);
        state.angularVelocity(intermediate) = 1.0;   // rad/s
        const double dt = 5e-3;                        // s, omega dt = 0.005

        const double energy0 = rotationalKineticEnergy(state, I);
        const Vector3 momentum0 = angularMomentumGlobal(state, I);
        double maxEnergyDrift = 0, maxMomentumDrift = 0;
        long flips = 0;
        const long reportEvery = std::max(1L, nSteps/10);

        std::printf("Torque-free rotation about axis %d, dt = %g s, %ld steps\n", intermediate, dt, nSteps);
        for (long n = 1; n <= nSteps; ++n)
        {
            const double before = state.angularVelocity(intermediate);
            advanceRotation(state, I, Vector3::Zero(), dt);
            if (before*state.angularVelocity(intermediate) < 0) ++flips;

            maxEnergyDrift = std::max(maxEnergyDrift,
                std::abs(rotationalKineticEnergy(state, I)/energy0 - 1));
            maxMomentumDrift = std::max(maxMomentumDrift,
                (angularMomentumGlobal(state, I) - momentum0).norm()/momentum0.norm());

            if (n % reportEvery == 0)
            {
                const Vector3& w = state.angularVelocity;
                std::printf("  t = %8.2f s  omega' = (%+.4f %+.4f %+.4f) rad/s  flips %ld  dE/E %.2e\n",
                    n*dt, w.x(), w.y(), w.z(), flips, maxEnergyDrift);
            }
        }

        std::printf("Summary\n");
        std::printf("  intermediate-axis flips        %ld in %g s\n", flips, nSteps*dt);
        std::printf("  max relative energy drift      %.3e\n", maxEnergyDrift);
        std::printf("  max relative drift of L        %.3e\n", maxMomentumDrift);
        std::printf("  |e| - 1 at the end             %.3e\n", state.orientation.norm() - 1);
        return 0;
    }
    catch (const std::exception& err)
    {
        std::fprintf(stderr, "superellipsoidTumble: %s\n", err.what());
        return 1;
    }
}
