// An oblate 2:2:1 settling in water at Re_p ~ 100 from a 30 deg tilt: with
// the Munk pitching torque (PitchingTorque.H) it turns broadside, in Stokes
// flow it keeps its tilt. The parcel's integrators in a quiescent fluid:
// backward Euler with the finite-Re drag and the tensor added mass
// (FiniteReynoldsDrag.H, AddedMass.H) for the velocity, the kick-drift-kick
// rotation step with the torque at the midpoint orientation
// (RigidBodyRotation.H), as SuperellipsoidParcel does.
#include "dynamics/RigidBodyRotation.H"
#include "hydrodynamics/AddedMass.H"
#include "hydrodynamics/FiniteReynoldsDrag.H"
#include "hydrodynamics/PitchingTorque.H"
#include "orientation/Orientation.H"
#include "shape/Superellipsoid.H"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <vector>

using namespace superellipsoid;

namespace
{

const FluidProperties water{1000, 1.0e-6};
const Vector3 gravity(0, 0, -9.81);

struct SettlingResult
{
    double finalTilt = 0;     // angle of the short axis z' from the vertical [rad]
    double maxReynolds = 0;
    double meanReynolds = 0;  // over the last tenth of the run
};

//- Settle the oblate from rest for a time with the torque model
SettlingResult settle(PitchingTorqueModel model, double initialTilt, double duration, double dt)
{
    // d_v = 1 mm, rho_p = 2000: Re_p ~ 100 at the terminal velocity
    const double dEq = 1e-3, rhoP = 2000;
    const double V = M_PI/6*dEq*dEq*dEq;
    const double c = std::cbrt(3*V/(16*M_PI));   // half-axes 2c, 2c, c
    const Superellipsoid body(2*c, 2*c, c, 1, 1);
    const ShapeParameters shape = ShapeParameters::of(body);

    HydrodynamicParticle p;
    p.tensors = exactEllipsoidResistance(2*c, 2*c, c);
    p.c = c;
    p.volume = V;
    p.density = rhoP;
    const Vector3 J = body.principalMoments(rhoP);
    const double mp = rhoP*V, mf = water.density*V;
    const FiniteReynoldsSettings sn;

    RotationalState state;
    state.orientation = quaternionFromRotationVector(initialTilt*Vector3::UnitX());
    Vector3 v = Vector3::Zero();

    // Particle-frame torque at an orientation: Munk's from the current slip
    // (Brenner's at-rest torque is zero in a fluid at rest)
    auto torqueAt = [&](const Quaternion& e)
    {
        const Matrix3 R = rotationMatrix(e);
        const Matrix3 MaParticle = addedMassTensor(shape, water.density, V, Matrix3::Identity());
        return pitchingTorque(model, MaParticle, R*(-v));
    };
    const Matrix3 damping =
        M_PI*water.dynamicViscosity()*c*c*c*p.tensors.Omega;

    SettlingResult result;
    const int nSteps = static_cast<int>(std::lround(duration/dt));
    int nMean = 0;
    for (int n = 0; n < nSteps; ++n)
    {
        // Velocity: (M + dt C) v_new = M v + dt (m_p - m_f) g
        const Matrix3 R = rotationMatrix(state.orientation);
        const FiniteReynoldsDrag D =
            finiteReynoldsDrag(p, water, R, -v, dEq, sn);
        const Matrix3 M =
            mp*Matrix3::Identity() + addedMassTensor(shape, water.density, V, R);
        v += implicitVelocityChange(M, D.dragCoefficient, (mp - mf)*gravity, Vector3::Zero(), v, dt);

        // Rotation: torque at the midpoint orientation (predictor half step)
        RotationalState half = state;
        kickAngularMomentum(half, J, torqueAt(half.orientation), damping, 0.5*dt);
        driftFreeRotation(half, J, 0.5*dt);
        advanceRotation(state, J, torqueAt(half.orientation), damping, dt);

        const double Re = particleReynoldsNumber(v, dEq, water.kinematicViscosity);
        result.maxReynolds = std::max(result.maxReynolds, Re);
        if (n >= nSteps - nSteps/10)
        {
            result.meanReynolds += Re;
            ++nMean;
        }
    }
    result.meanReynolds /= nMean;
    const Vector3 shortAxis = rotationMatrix(state.orientation).transpose()*Vector3::UnitZ();
    result.finalTilt = std::acos(std::min(1.0, std::abs(shortAxis.z())));
    return result;
}

constexpr double degree = M_PI/180;

} // namespace


TEST(OblateSettling, TurnsBroadsideWithTheMunkTorque)
{
    // Linearised about broadside: I theta'' + D theta' + K theta = 0 with
    // K = rho_f V (k_z - k_x) |w|^2; period ~ 30 ms, damping time 2 I/D
    // ~ 0.1 s. After 1 s (10 damping times) a 30 deg tilt has decayed below
    // 30 e^-10 deg; 0.1 deg leaves room for the nonlinear start and the
    // coupling with the sideways drift. A wrong sign turns it edge-on (90).
    const SettlingResult r = settle(PitchingTorqueModel::Munk, 30*degree, 1.0, 1e-4);
    std::printf("Munk: final tilt %.3g deg, Re_p %.1f (max %.1f)\n",
                r.finalTilt/degree, r.meanReynolds, r.maxReynolds);
    EXPECT_LT(r.finalTilt, 0.1*degree);
    EXPECT_GT(r.meanReynolds, 50);
    EXPECT_LT(r.meanReynolds, 200);
}

TEST(OblateSettling, KeepsItsTiltInStokesFlow)
{
    // Without a pitching torque a body with three symmetry planes feels no
    // torque in a fluid at rest (Eq. 21 of [Wedel2023] with zero gradient):
    // omega' stays zero and the tilt is kept to round-off
    const SettlingResult r = settle(PitchingTorqueModel::none, 30*degree, 1.0, 1e-4);
    EXPECT_NEAR(r.finalTilt, 30*degree, 1e-12);
}

TEST(OblateSettling, SmallTiltOscillatesWithTheMunkPeriod)
{
    // Undamped, slip frozen at 0.13 m/s along the vertical: a 0.5 deg tilt
    // about x' oscillates with 2 pi (I_x/(rho_f V (k_z - k_x) |w|^2))^1/2,
    // the bound munkPitchingPeriod gives (I_x the smallest moment). The
    // torque goes as sin(2 theta)/2, so the measured period (zero crossings
    // over 5 periods, 2000 steps per period) is longer by the pendulum's
    // (2 theta_0)^2/16 = 1.9e-5, plus a second-order step error ~1e-6: 1e-4
    const double dEq = 1e-3, rhoP = 2500;
    const double V = M_PI/6*dEq*dEq*dEq;
    const double c = std::cbrt(3*V/(16*M_PI));
    const Superellipsoid body(2*c, 2*c, c, 1, 1);
    const ShapeParameters shape = ShapeParameters::of(body);
    const Vector3 J = body.principalMoments(rhoP);
    const Matrix3 Ma = addedMassTensor(shape, water.density, V, Matrix3::Identity());
    const Vector3 slip(0, 0, 0.13);

    const double period = munkPitchingPeriod(Ma.diagonal(), J, slip);
    const Vector3 k = ellipsoidAddedMassCoefficients(2*c, 2*c, c);
    EXPECT_NEAR(period, 2*M_PI*std::sqrt(J.x()/(water.density*V*(k.z() - k.x())*slip.squaredNorm())),
                1e-14*period);

    RotationalState state;
    state.orientation = quaternionFromRotationVector(0.5*degree*Vector3::UnitX());
    const double dt = period/2000;
    auto torqueAt = [&](const Quaternion& e)
    {
        return munkTorque(Ma, rotationMatrix(e)*slip);
    };
    auto tilt = [](const Quaternion& e)
    {
        const Vector3 z = rotationMatrix(e).transpose()*Vector3::UnitZ();
        return std::atan2(-z.y(), z.z());
    };
    std::vector<double> crossings;
    double previous = tilt(state.orientation);
    for (int n = 1; n <= 5*2000 + 100; ++n)
    {
        RotationalState half = state;
        kickAngularMomentum(half, J, torqueAt(half.orientation), Matrix3::Zero(), 0.5*dt);
        driftFreeRotation(half, J, 0.5*dt);
        advanceRotation(state, J, torqueAt(half.orientation), Matrix3::Zero(), dt);
        const double current = tilt(state.orientation);
        if ((previous > 0) != (current > 0))
        {
            crossings.push_back((n - 1 + previous/(previous - current))*dt);
        }
        previous = current;
    }
    ASSERT_GE(crossings.size(), 10u);
    const double measured = 2*(crossings.back() - crossings.front())/(crossings.size() - 1);
    std::printf("Munk pitching period %.6g s, measured %.6g s\n", period, measured);
    EXPECT_NEAR(measured, period, 1e-4*period);

    // No slip or an isotropic added mass: no oscillation
    EXPECT_TRUE(std::isinf(munkPitchingPeriod(Ma.diagonal(), J, Vector3::Zero())));
    EXPECT_TRUE(std::isinf(munkPitchingPeriod(Vector3::Constant(2.0), J, slip)));
    EXPECT_THROW(munkPitchingPeriod(Ma.diagonal(), Vector3(1, 0, 1), slip), std::invalid_argument);
}
