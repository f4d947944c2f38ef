// The incidence law of Froehlich, Meinke & Schroeder (2020) as transcribed
// (FroehlichCorrelation.H), pinned by check values computed from the
// transcription with an independent evaluator.
#include "hydrodynamics/FroehlichCorrelation.H"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

using namespace superellipsoid;

namespace
{

// The check values are printed to 5 decimals: half a unit of the last
// digit (1e-5 relative or better for values >= 0.5, 1.7e-5 for 0.29)
constexpr double halfLastDigit = 5e-6;

// C_L and C_T at 0 and 90 deg are zero up to cos(pi/2) ~ 6e-17 times O(10)
constexpr double zeroTolerance = 1e-14;

double rad(double degrees) { return degrees*M_PI/180; }

struct CheckValue
{
    double beta, Re, phi, drag, liftMAIA, liftLnBeta, torque;
};

// Values at b = 2.5 and 5, both lift readings
const CheckValue checkValues[] =
{
    {2.5, 1, 0, 26.39126, 0, 0, 0},
    {2.5, 1, 45, 29.60450, 2.97581, 2.97581, 1.39335},
    {2.5, 1, 90, 32.81774, 0, 0, 0},
    {2.5, 10, 0, 3.80266, 0, 0, 0},
    {2.5, 10, 30, 4.18616, 0.61703, 0.62119, 0.72748},
    {2.5, 10, 45, 4.56966, 0.73186, 0.73680, 0.84002},
    {2.5, 10, 60, 4.95317, 0.64656, 0.65093, 0.72748},
    {2.5, 10, 90, 5.33667, 0, 0, 0},
    {2.5, 100, 0, 0.80876, 0, 0, 0},
    {2.5, 100, 30, 0.99060, 0.28762, 0.29287, 0.45369},
    {2.5, 100, 45, 1.17244, 0.36355, 0.37019, 0.52387},
    {2.5, 100, 60, 1.35428, 0.33700, 0.34316, 0.45369},
    {2.5, 100, 90, 1.53612, 0, 0, 0},
    {2.5, 300, 0, 0.38688, 0, 0, 0},
    {2.5, 300, 45, 0.68695, 0.28756, 0.29433, 0.42244},
    {2.5, 300, 90, 0.98702, 0, 0, 0},
    {5, 10, 0, 4.01068, 0, 0, 0},
    {5, 10, 45, 5.53772, 1.35356, 1.28965, 1.72964},
    {5, 10, 90, 7.06477, 0, 0, 0},
    {5, 100, 0, 0.77200, 0, 0, 0},
    {5, 100, 30, 1.11667, 0.49659, 0.43550, 0.77947},
    {5, 100, 45, 1.46134, 0.66301, 0.58145, 0.90005},
    {5, 100, 60, 1.80601, 0.64119, 0.56231, 0.77947},
    {5, 100, 90, 2.15068, 0, 0, 0},
};

double tolerance(double reference)
{
    return reference == 0 ? zeroTolerance : halfLastDigit;
}

} // namespace


TEST(FroehlichCorrelation, MatchesCheckValuesForBothLiftReadings)
{
    for (const CheckValue& v : checkValues)
    {
        SCOPED_TRACE("b = " + std::to_string(v.beta) + ", Re = " + std::to_string(v.Re)
                   + ", phi = " + std::to_string(v.phi));
        const FroehlichCoefficients m =
            froehlichCoefficients(v.Re, v.beta, rad(v.phi), FroehlichLiftExponent::mAIA);
        const FroehlichCoefficients l =
            froehlichCoefficients(v.Re, v.beta, rad(v.phi), FroehlichLiftExponent::lnBeta);
        EXPECT_NEAR(m.drag, v.drag, tolerance(v.drag));
        EXPECT_NEAR(m.lift, v.liftMAIA, tolerance(v.liftMAIA));
        EXPECT_NEAR(l.lift, v.liftLnBeta, tolerance(v.liftLnBeta));
        EXPECT_NEAR(m.torque, v.torque, tolerance(v.torque));
        EXPECT_EQ(l.drag, m.drag);
        EXPECT_EQ(l.torque, m.torque);
    }
}


TEST(FroehlichCorrelation, StokesDragsAreOberbecksClosedForms)
{
    // Axial 16 pi mu a e^3 U/((1+e^2) L - 2e), transverse 32 pi mu a e^3 U/
    // (2e + (3e^2-1) L), L = ln((1+e)/(1-e)), on 6 pi mu r_v U, times 24:
    // 23.0776 / 27.5191 at b = 2.5 and 25.0503 / 33.2772 at b = 5
    for (double beta : {1.25, 2.5, 5.0, 10.0, 32.0})
    {
        const double e = std::sqrt(1 - 1/(beta*beta));
        const double L = std::log((1 + e)/(1 - e));
        const double scale = 24/(6*M_PI*std::cbrt(beta));
        const double axial = scale*16*M_PI*beta*e*e*e/((1 + e*e)*L - 2*e);
        const double transverse = scale*32*M_PI*beta*e*e*e/(2*e + (3*e*e - 1)*L);
        const FroehlichStokesDrag st = froehlichStokesDrag(beta);
        // Carlson integrals against a closed form with cancellation in
        // (1+e^2) L - 2e: 1e-12 relative
        EXPECT_NEAR(st.axial, axial, 1e-12*axial);
        EXPECT_NEAR(st.transverse, transverse, 1e-12*transverse);
    }
    EXPECT_NEAR(froehlichStokesDrag(2.5).axial, 23.0776, 5e-5);
    EXPECT_NEAR(froehlichStokesDrag(2.5).transverse, 27.5191, 5e-5);
    // Sphere: Stokes' 24, to round-off of the Carlson integrals
    EXPECT_NEAR(froehlichStokesDrag(1).axial, 24, 1e-13);
}


TEST(FroehlichCorrelation, SphereIsTheStandardCurveWithoutLiftOrTorque)
{
    // ln b = 0: f_d = 1 + 0.15 Re^0.687 (Schiller-Naumann), no torque
    for (double Re : {0.5, 10.0, 100.0})
    {
        const FroehlichDragFactors f = froehlichDragFactors(Re, 1);
        const double sn = 1 + 0.15*std::pow(Re, 0.687);
        EXPECT_DOUBLE_EQ(f.axial, sn);
        EXPECT_DOUBLE_EQ(f.transverse, sn);
        EXPECT_EQ(froehlichTorqueMaximum(Re, 1), 0.0);
        EXPECT_DOUBLE_EQ(froehlichLiftAngle(Re, 1, 0.3), 0.3);
    }
}


TEST(FroehlichCorrelation, FactorsAreOneInTheStokesLimit)
{
    const FroehlichDragFactors f = froehlichDragFactors(0, 2.5);
    EXPECT_EQ(f.axial, 1.0);
    EXPECT_EQ(f.transverse, 1.0);
    EXPECT_EQ(froehlichLiftScale(0, 2.5, FroehlichLiftExponent::mAIA), 1.0);
    EXPECT_EQ(froehlichLiftAngle(0.5, 2.5, 0.7), 0.7);   // f_shift = 1 for Re <= 1
}


TEST(FroehlichCorrelation, LiftMaximumMovesTowardsBroadsideWithRe)
{
    // psi < phi for Re > 1: the lift peaks beyond 45 deg (DNS: C_L(30) < C_L(60))
    const FroehlichCoefficients c30 = froehlichCoefficients(100, 2.5, rad(30));
    const FroehlichCoefficients c60 = froehlichCoefficients(100, 2.5, rad(60));
    EXPECT_LT(c30.lift, c60.lift);
    EXPECT_LT(froehlichLiftAngle(100, 2.5, rad(45)), rad(45));
}


TEST(FroehlichCorrelation, BadInputThrows)
{
    EXPECT_THROW(froehlichCoefficients(0, 2.5, 0.1), std::invalid_argument);
    EXPECT_THROW(froehlichCoefficients(-1, 2.5, 0.1), std::invalid_argument);
    EXPECT_THROW(froehlichCoefficients(10, 0.5, 0.1), std::invalid_argument);
    EXPECT_THROW(froehlichCoefficients(10, NAN, 0.1), std::invalid_argument);
    EXPECT_THROW(froehlichCoefficients(10, 2.5, 2.0), std::invalid_argument);
    EXPECT_THROW(froehlichCoefficients(10, 2.5, -0.1), std::invalid_argument);
    EXPECT_THROW(froehlichDragFactors(INFINITY, 2.5), std::invalid_argument);
    EXPECT_THROW(froehlichTorqueMaximum(0, 2.5), std::invalid_argument);
    try
    {
        froehlichStokesDrag(0.5);
        FAIL() << "oblate aspect ratio accepted";
    }
    catch (const std::invalid_argument& e)
    {
        EXPECT_NE(std::string(e.what()).find("0.5"), std::string::npos) << e.what();
    }
}


TEST(FroehlichCorrelation, LiftExponentNamesRoundTrip)
{
    for (FroehlichLiftExponent e : {FroehlichLiftExponent::mAIA, FroehlichLiftExponent::lnBeta})
    {
        EXPECT_EQ(froehlichLiftExponentFromName(froehlichLiftExponentName(e)), e);
    }
    try
    {
        froehlichLiftExponentFromName("paper");
        FAIL() << "unknown name accepted";
    }
    catch (const std::invalid_argument& e)
    {
        EXPECT_NE(std::string(e.what()).find("'paper'"), std::string::npos) << e.what();
    }
}
