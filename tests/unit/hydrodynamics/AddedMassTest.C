// Added mass of an ellipsoid (Lamb) and the implicit update with added
// mass and fluid stress (AddedMass.H).
#include "hydrodynamics/AddedMass.H"
#include "hydrodynamics/FiniteReynoldsDrag.H"
#include "orientation/Orientation.H"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <stdexcept>
#include <string>

using namespace superellipsoid;

namespace
{

// Carlson's RD is accurate to ~1e-16 relative; k = alpha0/(2 - alpha0)
// loses at most a factor ~10: 1e-13 is round-off
constexpr double roundOff = 1e-13;

// Reference coefficients from an independent 30-digit (mpmath) evaluation
// of Lamb's integrals, printed to 6 digits: half a unit in the last one
constexpr double sixDigits = 5e-7;

} // namespace


TEST(AddedMass, SphereCoefficientIsOneHalf)
{
    const Vector3 k = ellipsoidAddedMassCoefficients(3, 3, 3);
    EXPECT_NEAR((k - Vector3::Constant(0.5)).norm(), 0, roundOff);
}

TEST(AddedMass, ProlateTwoToOneMatchesLamb)
{
    // Lamb: axial 0.2100, transverse 0.7042 (to 1e-4); mpmath 0.210015,
    // 0.704210 (6 digits)
    const Vector3 k = ellipsoidAddedMassCoefficients(2, 1, 1);
    EXPECT_NEAR(k.x(), 0.2100, 1e-4);
    EXPECT_NEAR(k.y(), 0.7042, 1e-4);
    EXPECT_NEAR(k.x(), 0.210015, sixDigits);
    EXPECT_NEAR(k.y(), 0.704210, sixDigits);
    EXPECT_NEAR(k.z(), k.y(), roundOff);
}

TEST(AddedMass, OblateAndTriaxialMatchTabulatedValues)
{
    const Vector3 oblate = ellipsoidAddedMassCoefficients(1, 1, 0.5);
    EXPECT_NEAR(oblate.x(), 0.309586, sixDigits);
    EXPECT_NEAR(oblate.y(), 0.309586, sixDigits);
    EXPECT_NEAR(oblate.z(), 1.115060, sixDigits);
    const Vector3 triaxial = ellipsoidAddedMassCoefficients(3, 2, 1);
    EXPECT_NEAR(triaxial.x(), 0.185256, sixDigits);
    EXPECT_NEAR(triaxial.y(), 0.364543, sixDigits);
    EXPECT_NEAR(triaxial.z(), 1.36153, 5e-6);   // printed to 5 decimals
}

TEST(AddedMass, TensorTurnsWithTheBody)
{
    // Eq. (6) of [Wedel2023]: M_a = R^T rho V diag(k) R; its axial component along the
    // body's x' axis is k_x rho V whatever the orientation
    std::mt19937_64 rng(11);
    const ShapeParameters prolate{2, 1, 1, 1, 1};
    const double rho = 998, V = 4.0/3*M_PI*2;
    const Vector3 k = ellipsoidAddedMassCoefficients(2, 1, 1);
    for (int i = 0; i < 5; ++i)
    {
        const Matrix3 R = rotationMatrix(randomOrientation(rng));
        const Matrix3 M = addedMassTensor(prolate, rho, V, R);
        const Vector3 axis = R.transpose()*Vector3::UnitX();   // x' in the global frame
        EXPECT_NEAR(axis.dot(M*axis), k.x()*rho*V, roundOff*rho*V);
        EXPECT_NEAR((M - M.transpose()).norm(), 0, roundOff*rho*V);
        EXPECT_NEAR(M.trace(), k.sum()*rho*V, roundOff*rho*V);
    }
}

TEST(AddedMass, SuperellipsoidUsesTheEllipsoidOfEqualHalfAxes)
{
    // The documented approximation: coefficients of (a, b, c) with eps = 1,
    // the particle's own volume
    const ShapeParameters cube{1, 1, 1, 0.2, 0.2};
    const Matrix3 M = addedMassTensor(cube, 1000, 7.5, Matrix3::Identity());
    EXPECT_NEAR((M - 0.5*1000*7.5*Matrix3::Identity()).norm(), 0, roundOff*7500);
}

TEST(NeutrallyBuoyant, FollowsAUniformlyAcceleratingFluidExactly)
{
    // rho_p = rho_f in u(t) = a t: v = u solves (m I + M_a) dv/dt =
    // (m_f I + M_a) Du/Dt + C (u - v) exactly, and backward Euler keeps it
    // to round-off for any orientation and drag; a missing fluid-stress
    // or added-mass term makes the particle lag by O(1)
    const double rho = 1000, c = 1e-3;
    const ShapeParameters shape{2*c, 2*c, c, 1, 1};   // oblate 2:2:1
    HydrodynamicParticle p;
    p.tensors = exactEllipsoidResistance(shape.a, shape.b, shape.c);
    p.c = c;
    p.volume = 4.0/3*M_PI*shape.a*shape.b*shape.c;
    p.density = rho;
    const FluidProperties fluid{rho, 1e-6};
    const double dv = std::cbrt(6*p.volume/M_PI);

    std::mt19937_64 rng(2);
    const Matrix3 R = rotationMatrix(randomOrientation(rng));
    const Vector3 a(0.3, -2.0, 1.1);
    const Matrix3 Ma = addedMassTensor(shape, rho, p.volume, R);
    const double m = rho*p.volume;

    Vector3 v = Vector3::Zero();
    const double dt = 1e-3;
    for (int n = 1; n <= 2000; ++n)
    {
        const Vector3 u = a*n*dt;    // fluid at the end of the step
        const FiniteReynoldsDrag D =
            finiteReynoldsDrag(p, fluid, R, u - v, dv, FiniteReynoldsSettings());
        const FluidInertiaForce I = fluidInertiaForce(m, m, Ma, a);
        v += implicitVelocityChange(I.massMatrix, D.dragCoefficient, I.fluidStress + I.addedMass, u, v, dt);
    }
    const Vector3 u = a*2000*dt;
    EXPECT_NEAR((v - u).norm(), 0, 1e-12*u.norm());
}

TEST(NeutrallyBuoyant, SphereFromRestFollowsTheAnalyticHistory)
{
    // rho_p = rho_f sphere pulled from rest by a constant force F in still
    // fluid, Stokes drag C = 3 pi mu d: v = F/C (1 - exp(-t/tau)) with
    // tau = (m + m/2)/C (added mass 1/2). Backward Euler with h = tau/2000
    // has a global error <= h/(2 e tau) v_inf = 9.2e-5 v_inf; 2e-4 allows
    // it and still fails for tau = m/C (no added mass: 0.12 v_inf at t = tau)
    const double rho = 1000, d = 1e-4;
    const ShapeParameters shape{d/2, d/2, d/2, 1, 1};
    const double V = M_PI/6*d*d*d, m = rho*V;
    const double C = 3*M_PI*1e-3*d;
    const double tau = 1.5*m/C;
    const Vector3 F(0, 0, 1e-9);
    const Vector3 vInf = F/C;
    const Matrix3 Ma = addedMassTensor(shape, rho, V, Matrix3::Identity());
    const FluidInertiaForce I = fluidInertiaForce(m, m, Ma, Vector3::Zero());
    EXPECT_NEAR((I.massMatrix - 1.5*m*Matrix3::Identity()).norm(), 0, roundOff*m);

    const double h = tau/2000;
    Vector3 v = Vector3::Zero();
    int n = 0;
    for (double tEnd : {0.5*tau, tau, 2*tau, 5*tau})
    {
        for (; n*h < tEnd - 0.5*h; ++n)
        {
            v += implicitVelocityChange(I.massMatrix, C*Matrix3::Identity(), F, Vector3::Zero(), v, h);
        }
        const Vector3 exact = vInf*(1 - std::exp(-n*h/tau));
        EXPECT_NEAR((v - exact).norm(), 0, 2e-4*vInf.norm()) << "t/tau " << n*h/tau;
    }
}

TEST(LightParticle, ImplicitAddedMassIsStableAtLargeSteps)
{
    // rho_p/rho_f = 1e-3 (a bubble-like particle): with the added mass
    // explicit, m_p dv/dt = -C v - M_a dv/dt|old diverges once M_a > m_p.
    // Here the decay of an initial velocity in still fluid is monotone and
    // matches the discrete solution v_n = v_0 (1 + h/tau)^-n for any step,
    // tau = (m_p + m_f/2)/C
    const double rhoF = 1000, rhoP = 1, d = 1e-3;
    const ShapeParameters shape{d/2, d/2, d/2, 1, 1};
    const double V = M_PI/6*d*d*d;
    const double C = 3*M_PI*1e-3*d;
    const Matrix3 Ma = addedMassTensor(shape, rhoF, V, Matrix3::Identity());
    const FluidInertiaForce I = fluidInertiaForce(rhoP*V, rhoF*V, Ma, Vector3::Zero());
    const double tau = (rhoP*V + 0.5*rhoF*V)/C;
    for (double h : {0.1*tau, 10*tau, 1000*tau})
    {
        Vector3 v(1, 0, 0);
        for (int n = 1; n <= 20; ++n)
        {
            const Vector3 vNew = v + implicitVelocityChange
            (
                I.massMatrix, C*Matrix3::Identity(), Vector3::Zero(), Vector3::Zero(), v, h
            );
            ASSERT_GT(vNew.x(), 0);
            ASSERT_LT(vNew.x(), v.x());
            v = vNew;
            EXPECT_NEAR(v.x(), std::pow(1 + h/tau, -n), roundOff) << h/tau;
        }
    }
}

TEST(BadInput, AddedMassThrowsNamingTheParameter)
{
    auto message = [](auto&& f)
    {
        try { f(); } catch (const std::invalid_argument& e) { return std::string(e.what()); }
        return std::string("no throw");
    };
    EXPECT_NE(message([]{ ellipsoidAddedMassCoefficients(0, 1, 1); }).find("a"), std::string::npos);
    EXPECT_NE
    (
        message([]{ addedMassTensor(ShapeParameters{1, 1, 1, 1, 1}, -1, 1, Matrix3::Identity()); }).find("fluidDensity"),
        std::string::npos
    );
    EXPECT_NE
    (
        message([]{ addedMassTensor(Vector3(0.5, -1, 0.5), 1000, 1, Matrix3::Identity()); }).find("coefficient"),
        std::string::npos
    );
    EXPECT_NE
    (
        message([]{ fluidInertiaForce(0, 1, Matrix3::Zero(), Vector3::Zero()); }).find("particleMass"),
        std::string::npos
    );
    EXPECT_NE
    (
        message([]{ implicitVelocityChange(Matrix3::Identity(), Matrix3::Zero(), Vector3::Zero(),
                                           Vector3::Zero(), Vector3::Zero(), 0); }).find("dt"),
        std::string::npos
    );
}

TEST(AddedInertia, ReproducesLambsTableAndTabulatedValues)
{
    // Lamb (1918), prolate spheroids: k' = 0.367 at axis ratio 2.51 (3
    // decimals: half a unit); mpmath values of the same formula to 6 digits
    const Vector3 lamb = ellipsoidAddedInertiaCoefficients(2.51, 1, 1);
    EXPECT_NEAR(lamb.y(), 0.367, 5e-4);
    EXPECT_NEAR(lamb.z(), lamb.y(), roundOff);

    const Vector3 prolate = ellipsoidAddedInertiaCoefficients(2, 1, 1);
    EXPECT_EQ(prolate.x(), 0);   // b = c: no added moment about the axis
    EXPECT_NEAR(prolate.y(), 0.239424, sixDigits);
    EXPECT_NEAR(prolate.z(), 0.239424, sixDigits);
    EXPECT_NEAR(ellipsoidAddedInertiaCoefficients(5, 1, 1).y(), 0.699851, sixDigits);
    const Vector3 oblate = ellipsoidAddedInertiaCoefficients(1, 1, 0.5);
    EXPECT_NEAR(oblate.x(), 0.338578, sixDigits);
    EXPECT_NEAR(oblate.y(), 0.338578, sixDigits);
    EXPECT_EQ(oblate.z(), 0);
    const Vector3 triaxial = ellipsoidAddedInertiaCoefficients(3, 2, 1);
    EXPECT_NEAR(triaxial.x(), 0.383267, sixDigits);
    EXPECT_NEAR(triaxial.y(), 0.708236, sixDigits);
    EXPECT_NEAR(triaxial.z(), 0.059900, sixDigits);
    EXPECT_EQ(ellipsoidAddedInertiaCoefficients(3, 3, 3), Vector3::Zero());
}

TEST(AddedInertia, MomentsScaleWithTheDisplacedFluidsMoment)
{
    // I'_y = k'_y rho_f V (c^2 + a^2)/5 for the prolate 2:1 of half-axes
    // (2, 1, 1) mm in water; a superellipsoid uses its ellipsoid's k'
    const double rho = 998.2, s = 1e-3, V = 4.0/3*M_PI*2*s*s*s;
    const Vector3 I = addedMomentsOfInertia(ShapeParameters{2*s, s, s, 1, 1}, rho, V);
    const Vector3 k = ellipsoidAddedInertiaCoefficients(2, 1, 1);
    EXPECT_EQ(I.x(), 0);
    EXPECT_NEAR(I.y(), k.y()*rho*V*5*s*s/5, roundOff*I.y());
    EXPECT_NEAR(I.z(), I.y(), roundOff*I.y());
    const Vector3 Ibox = addedMomentsOfInertia(ShapeParameters{2*s, s, s, 0.5, 0.5}, rho, 0.8*V);
    EXPECT_NEAR((Ibox - 0.8*I).norm(), 0, roundOff*I.norm());
    EXPECT_THROW(addedMomentsOfInertia(ShapeParameters{2*s, s, s, 1, 1}, 0, V), std::invalid_argument);
}
