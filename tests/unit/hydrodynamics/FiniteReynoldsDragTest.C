// Finite-Re drag on the Stokes resistance (FiniteReynoldsDrag.H) and the
// correlations behind it (DragCorrelations.H).
#include "hydrodynamics/FiniteReynoldsDrag.H"
#include "orientation/Orientation.H"
#include "shape/Superellipsoid.H"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

using namespace superellipsoid;

namespace
{

// Force and coefficient are a product of O(1) factors: round-off only
constexpr double algebraTolerance = 1e-12;

// Reference C_D values are printed to 6 significant digits: half a unit
// in the last one
constexpr double sixDigitTolerance = 5e-6;

const FluidProperties water{998.2, 1.0e-6};

struct TutorialShape
{
    std::string name;
    HydrodynamicParticle particle;
    double dEq;
};

//- The six shapes of tutorials/cylinderFilling (d_eq = 1 cm): exact
//  tensors for the ellipsoids, the boundary element tensors the tutorial
//  gives for the others
std::vector<TutorialShape> tutorialShapes()
{
    struct Spec { const char* name; double ac, bc, e1, e2; Vector3 K; };
    const Vector3 none = Vector3::Zero();
    const std::vector<Spec> specs =
    {
        {"sphere", 1, 1, 1, 1, none},
        {"prolate", 2, 1, 1, 1, none},
        {"oblate", 2, 2, 1, 1, none},
        {"cube", 1, 1, 0.2, 0.2, Vector3(7.73302, 7.73302, 7.73302)},
        {"diamond", 1, 1, 1.6, 1.6, Vector3(4.93901, 4.93901, 4.93901)},
        {"cylinder", 1, 1, 0.2, 1, Vector3(7.06090, 7.06090, 6.96977)}
    };
    const double dEq = 0.01;
    const double V = M_PI/6*dEq*dEq*dEq;
    std::vector<TutorialShape> shapes;
    for (const Spec& s : specs)
    {
        const double c = std::cbrt(V/Superellipsoid::volumeFormula(s.ac, s.bc, 1, s.e1, s.e2));
        TutorialShape t;
        t.name = s.name;
        t.dEq = dEq;
        t.particle.c = c;
        t.particle.volume = V;
        t.particle.density = 2500;
        t.particle.tensors = s.K == none
            ? exactEllipsoidResistance(s.ac*c, s.bc*c, c)
            : givenResistanceTensors(Matrix3(s.K.asDiagonal()), 8*Matrix3::Identity(), Matrix3::Zero());
        shapes.push_back(t);
    }
    return shapes;
}

HydrodynamicParticle sphere(double d)
{
    HydrodynamicParticle p;
    p.tensors = exactEllipsoidResistance(d/2, d/2, d/2);
    p.c = d/2;
    p.volume = M_PI/6*d*d*d;
    p.density = 2500;
    return p;
}

//- Slip speed giving Re for a diameter d in water
double slipFor(double Re, double d)
{
    return Re*water.kinematicViscosity/d;
}

} // namespace


TEST(StokesLimit, EqualsBrennerForTheSixTutorialShapes)
{
    // f(Re) - 1 = 0.15 Re^0.687 = 6e-14 at Re = 1e-18: below the tolerance
    std::mt19937_64 rng(16);
    const FiniteReynoldsSettings sn;
    for (const TutorialShape& s : tutorialShapes())
    {
        const Matrix3 R = rotationMatrix(randomOrientation(rng));
        const Vector3 slip = slipFor(1e-18, s.dEq)*Vector3(0.3, -0.5, 0.8).normalized();

        FlowAtParticle flow;
        flow.fluidVelocity = slip;
        ForceTerms dragOnly;
        dragOnly.gravityBuoyancy = false;
        const HydrodynamicForce brenner = hydrodynamicForce(s.particle, water, R, flow, dragOnly);

        const FiniteReynoldsDrag D =
            finiteReynoldsDrag(s.particle, water, R, slip, s.dEq, sn);

        EXPECT_NEAR((D.force - brenner.drag).norm(), 0, algebraTolerance*brenner.drag.norm()) << s.name;
        EXPECT_NEAR
        (
            (D.dragCoefficient - brenner.dragCoefficient).norm(), 0,
            algebraTolerance*brenner.dragCoefficient.norm()
        ) << s.name;
        EXPECT_TRUE(D.correction.inValidatedRange);

        // Particle at rest in fluid at rest: Re = 0, exactly Brenner's C
        const FiniteReynoldsDrag D0 =
            finiteReynoldsDrag(s.particle, water, R, Vector3::Zero(), s.dEq, sn);
        EXPECT_EQ(D0.correction.factor, 1.0) << s.name;
    }
}

TEST(StokesLimit, CorrectionApproachesOneAsSchillerNaumannPower)
{
    // (f - 1)/Re^0.687 = 0.15 for every Re <= 1000: the leading term of the
    // correction, so Brenner is approached as Re^0.687. f is rounded to
    // half an ulp of 1 (1.1e-16) before 1 is subtracted: the quotient
    // carries 1.1e-16/Re^0.687 of round-off
    for (double Re : {1e-12, 1e-6, 1e-2, 1.0})
    {
        const double f = stokesDragCorrection(DragCorrelation::SchillerNaumann, Re);
        const double roundOff = 2.2e-16/std::pow(Re, 0.687) + algebraTolerance;
        EXPECT_NEAR((f - 1)/std::pow(Re, 0.687), 0.15, roundOff) << Re;
    }
}

TEST(StokesLimit, StokesCorrelationIsBrennerAtAnyReynoldsNumber)
{
    FiniteReynoldsSettings stokes;
    stokes.correlation = DragCorrelation::Stokes;
    const HydrodynamicParticle p = tutorialShapes()[2].particle;   // oblate
    std::mt19937_64 rng(3);
    const Matrix3 R = rotationMatrix(randomOrientation(rng));
    const Vector3 slip(0, 0, slipFor(500, 0.01));
    FlowAtParticle flow;
    flow.fluidVelocity = slip;
    const HydrodynamicForce brenner = hydrodynamicForce(p, water, R, flow);
    const FiniteReynoldsDrag D = finiteReynoldsDrag(p, water, R, slip, 0.01, stokes);
    EXPECT_NEAR((D.force - brenner.drag).norm(), 0, algebraTolerance*brenner.drag.norm());
    EXPECT_FALSE(D.correction.inValidatedRange);   // Re 500 > 1
}

TEST(SphereDrag, FollowsTheSchillerNaumannCurve)
{
    // C_D from an independent double-precision evaluation of
    // 24/Re (1 + 0.15 Re^0.687), printed to 6 digits; the force is
    // compared as C_D = |F| / (1/8 rho pi d^2 |w|^2)
    const struct { double Re, CD; } table[] =
    {
        {0.1, 247.401}, {1, 27.6000}, {10, 4.15107}, {100, 1.09173},
        {500, 0.562665}, {999.999999, 0.438288}
    };
    const double d = 0.002;
    const HydrodynamicParticle p = sphere(d);
    std::mt19937_64 rng(5);
    for (const auto& row : table)
    {
        const Vector3 slip = slipFor(row.Re, d)*Vector3(1, 2, -2)/3;
        const Matrix3 R = rotationMatrix(randomOrientation(rng));
        const FiniteReynoldsDrag D =
            finiteReynoldsDrag(p, water, R, slip, d, FiniteReynoldsSettings());
        const double CD = D.force.norm()/(0.125*water.density*M_PI*d*d*slip.squaredNorm());
        EXPECT_NEAR(CD, row.CD, sixDigitTolerance*row.CD) << "Re " << row.Re;
        EXPECT_NEAR(CD, schillerNaumannDragCoefficient(row.Re), algebraTolerance*row.CD);
        // Along the slip: a sphere has no lift
        EXPECT_NEAR(D.force.cross(slip).norm(), 0, algebraTolerance*D.force.norm()*slip.norm());
        EXPECT_TRUE(D.correction.inValidatedRange);
    }
}

TEST(SphereDrag, NewtonPlateauAboveTheFitRange)
{
    EXPECT_EQ(schillerNaumannDragCoefficient(2000), 0.44);
    const DragCorrection c = dragCorrection(FiniteReynoldsSettings(), 2000);
    EXPECT_NEAR(c.factor, 0.44*2000/24, algebraTolerance*c.factor);
    EXPECT_FALSE(c.inValidatedRange);
    // The fit ends 0.4 % below the plateau (0.43829 vs 0.44): no large jump
    EXPECT_NEAR(schillerNaumannDragCoefficient(1000)/0.44, 1, 0.005);
}

TEST(Incidence, ProlateKeepsTheStokesSinSquaredStructure)
{
    // K = K_par e e + K_perp (I - e e): the drag along the slip is
    // C0 + (C90 - C0) sin^2 phi and the lift (C90 - C0) sin phi cos phi,
    // exactly, at every Re (one scalar factor on K)
    const double c = 1e-3;
    HydrodynamicParticle p;
    p.tensors = exactEllipsoidResistance(2.5*c, c, c);
    p.c = c;
    p.volume = 4.0/3*M_PI*2.5*c*c*c;
    const double dv = std::cbrt(6*p.volume/M_PI);
    const double speed = slipFor(100, dv);
    auto dragAndLift = [&](double phi)
    {
        // Symmetry axis x' at angle phi to the slip along global x
        const Matrix3 R = Eigen::AngleAxisd(phi, Vector3::UnitZ()).toRotationMatrix().transpose();
        const FiniteReynoldsDrag D = finiteReynoldsDrag
        (
            p, water, R, Vector3(speed, 0, 0), dv, FiniteReynoldsSettings()
        );
        EXPECT_NEAR(D.correction.reynolds, 100, 1e-10);
        return std::pair<double, double>(D.force.x(), D.force.y());
    };
    const double F0 = dragAndLift(0).first, F90 = dragAndLift(M_PI/2).first;
    EXPECT_GT(F90, F0);
    for (double deg : {15.0, 30.0, 45.0, 60.0, 75.0})
    {
        const double phi = deg*M_PI/180;
        const auto [drag, lift] = dragAndLift(phi);
        const double s = std::sin(phi), co = std::cos(phi);
        EXPECT_NEAR(drag, F0 + (F90 - F0)*s*s, algebraTolerance*F90) << deg;
        EXPECT_NEAR(std::abs(lift), (F90 - F0)*s*co, algebraTolerance*F90) << deg;
    }
}

TEST(HinderedSettling, DiFeliceExponentMatchesTabulatedValues)
{
    // Independent double-precision evaluation, printed to 5 decimals (half
    // a unit); symmetric in log10 Re about 1.5
    const struct { double Re, chi; } table[] =
    {
        {0.1, 3.67144}, {1, 3.48898}, {10, 3.12638}, {std::pow(10, 1.5), 3.05000}, {1000, 3.48898}
    };
    for (const auto& row : table)
    {
        EXPECT_NEAR(diFeliceExponent(row.Re), row.chi, 5e-6) << row.Re;
    }
}

namespace
{

//- U/u_t of a sphere suspension: force balance with the hindered drag,
//  f(eps Re) eps^-chi 3 pi mu d w = V (rho_p - rho_f) g for the interstitial
//  slip w, settling velocity U = eps w (zero net volume flux), u_t the
//  isolated terminal velocity (eps = 1, no voidage function)
double hinderedVelocityRatio(double d, double deltaRho, double eps)
{
    const double mu = water.dynamicViscosity();
    const double weight = M_PI/6*d*d*d*deltaRho*9.81;
    auto terminalSlip = [&](const FiniteReynoldsSettings& s, double fluidFraction)
    {
        double lo = 0, hi = weight/(3*M_PI*mu*d);   // Stokes bound (f >= 1, eps^-chi >= 1)
        for (int i = 0; i < 200; ++i)
        {
            const double w = 0.5*(lo + hi);
            const double Re = w*d/water.kinematicViscosity;
            const double F = dragCorrection(s, Re, fluidFraction).factor*3*M_PI*mu*d*w;
            (F < weight ? lo : hi) = w;
        }
        return 0.5*(lo + hi);
    };
    FiniteReynoldsSettings hindered;
    hindered.denseDrag = DenseDragLaw::DiFelice;
    const double ut = terminalSlip(FiniteReynoldsSettings(), 1);
    return eps*terminalSlip(hindered, eps)/ut;
}

} // namespace

TEST(HinderedSettling, CreepingLimitIsRichardsonZakiExponent)
{
    // Re_t ~ 1e-7: n = 1 + chi(0) = 4.7 (Rowe's creeping limit); f - 1 and
    // the chi deficit are < 1e-5 there
    const double d = 1e-5, deltaRho = 0.1;
    for (double eps : {0.9, 0.7, 0.5})
    {
        EXPECT_NEAR(hinderedVelocityRatio(d, deltaRho, eps)/std::pow(eps, 4.7), 1, 1e-4) << eps;
    }
}

TEST(HinderedSettling, LowReynoldsFollowsRichardsonZakiRowe)
{
    // Solid fractions 0.1 and 0.3 at Re_t ~ 0.1-0.5: Richardson-Zaki with
    // Rowe's exponent n(Re_t) = (4.7 + 0.41 Re_t^0.75)/(1 + 0.175 Re_t^0.75)
    // (Rowe 1987) within 10 %, the acceptance band for one empirical law
    // against another
    const double d = 1e-4, deltaRho = 1000;
    const double nu = water.kinematicViscosity;
    double lo = 0, hi = M_PI/6*d*d*d*deltaRho*9.81/(3*M_PI*water.dynamicViscosity()*d);
    for (int i = 0; i < 200; ++i)
    {
        const double w = 0.5*(lo + hi);
        const double F = stokesDragCorrection(DragCorrelation::SchillerNaumann, w*d/nu)
                        *3*M_PI*water.dynamicViscosity()*d*w;
        (F < M_PI/6*d*d*d*deltaRho*9.81 ? lo : hi) = w;
    }
    const double Ret = lo*d/nu;
    ASSERT_GT(Ret, 0.1);
    ASSERT_LT(Ret, 1.0);
    const double r = std::pow(Ret, 0.75);
    const double n = (4.7 + 0.41*r)/(1 + 0.175*r);
    for (double solid : {0.1, 0.3})
    {
        const double eps = 1 - solid;
        EXPECT_NEAR(hinderedVelocityRatio(d, deltaRho, eps)/std::pow(eps, n), 1, 0.10) << solid;
    }
}

TEST(Validity, RangesOfEachCorrelation)
{
    EXPECT_TRUE(validatedRange(DragCorrelation::SchillerNaumann).contains(1000));
    EXPECT_FALSE(validatedRange(DragCorrelation::SchillerNaumann).contains(1000.5));
    EXPECT_TRUE(validatedRange(DragCorrelation::Stokes).contains(0.99));
    EXPECT_FALSE(validatedRange(DragCorrelation::Stokes).contains(1.01));
    EXPECT_EQ(dragCorrelationFromName("SchillerNaumann"), DragCorrelation::SchillerNaumann);
    EXPECT_EQ(dragCorrelationName(DragCorrelation::Stokes), "Stokes");
}

TEST(BadInput, ThrowsNamingTheParameter)
{
    auto message = [](auto&& f)
    {
        try { f(); } catch (const std::invalid_argument& e) { return std::string(e.what()); }
        return std::string("no throw");
    };
    EXPECT_NE(message([]{ dragCorrelationFromName("Ganser"); }).find("Ganser"), std::string::npos);
    EXPECT_NE(message([]{ dragCorrection(FiniteReynoldsSettings(), -1); }).find("Re"), std::string::npos);
    EXPECT_NE(message([]{ dragCorrection(FiniteReynoldsSettings(), NAN); }).find("Re"), std::string::npos);
    EXPECT_NE(message([]{ dragCorrection(FiniteReynoldsSettings(), 1, 0); }).find("fluidFraction"), std::string::npos);
    EXPECT_NE(message([]{ dragCorrection(FiniteReynoldsSettings(), 1, 1.5); }).find("fluidFraction"), std::string::npos);
    EXPECT_NE(message([]{ schillerNaumannDragCoefficient(0); }).find("Re"), std::string::npos);
    EXPECT_NE
    (
        message([]{ finiteReynoldsDrag(sphere(1e-3), water, Matrix3::Identity(), Vector3::UnitX(),
                                       -1, FiniteReynoldsSettings()); })
       .find("equivalentDiameter"),
        std::string::npos
    );
}
