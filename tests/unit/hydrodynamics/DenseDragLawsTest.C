// Dense (voidage) drag laws as a factor on the isolated drag
// (DenseDragLaws.H): published check values, limits, the model-B form and
// each law's fixed-bed gradient against Ergun (PackedBedLaws.H).
#include "hydrodynamics/DenseDragLaws.H"
#include "hydrodynamics/FiniteReynoldsDrag.H"
#include "ErgunTestBed.H"
#include "hydrodynamics/PackedBedLaws.H"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>

using namespace superellipsoid;
using superellipsoid::bedTest::ergunTestBed;

namespace
{

// Products and quotients of O(1) terms: round-off only
constexpr double algebraTolerance = 1e-12;


} // namespace


TEST(Tenneti, MatchesCheckValues)
{
    // F(phi, Re_m) of [Tenneti2011] in the form of MFiX's DRAG_TGS, evaluated
    // independently in double precision, to 8 significant digits: 5e-6
    // relative is generous by 100x and still catches a changed coefficient
    const struct { double phi, Re, F; } table[] =
    {
        {0.1, 1, 2.71501}, {0.3, 100, 22.33773}, {0.5, 300, 144.78791}
    };
    for (const auto& row : table)
    {
        EXPECT_NEAR(tennetiDragForce(row.phi, row.Re)/row.F, 1, 5e-6) << row.phi;
    }
}

TEST(Tenneti, IsolatedLimitIsSchillerNaumann)
{
    // phi = 0: F = 1 + 0.15 Re^0.687 exactly, and the factor h is 1
    for (double Re : {0.0, 0.1, 10.0, 300.0})
    {
        EXPECT_NEAR(tennetiDragForce(0, Re), stokesDragCorrection(DragCorrelation::SchillerNaumann, Re),
                    algebraTolerance);
        EXPECT_NEAR(denseDragFactor(DenseDragLaw::Tenneti, 1, Re).factor, 1, algebraTolerance);
    }
}

TEST(Tenneti, StokesLimitHasNoInertialTerm)
{
    // Re_m = 0: F = (1 + 5.81 phi)/eps^3 + 0.48 phi^(1/3)/eps^4
    const double phi = 0.4, eps = 0.6;
    const double expected = (1 + 5.81*phi)/std::pow(eps, 3) + 0.48*std::cbrt(phi)/std::pow(eps, 4);
    EXPECT_NEAR(tennetiDragForce(phi, 0), expected, algebraTolerance);
    EXPECT_NEAR(denseDragFactor(DenseDragLaw::Tenneti, eps, 0).factor, eps*expected, algebraTolerance);
}

TEST(Beetstra, StokesLimitIsCarmanKozenyPlusDiluteTerm)
{
    // Re_m = 0: F = 10 phi/eps^2 + eps^2 (1 + 1.5 sqrt(phi)); its first term
    // gives Carman-Kozeny's -dp/dz = 180 mu phi^2 U/(eps^3 d^2)
    for (double phi : {0.1, 0.4, 0.55})
    {
        const double eps = 1 - phi;
        EXPECT_NEAR(beetstraDragForce(phi, 0),
                    10*phi/(eps*eps) + eps*eps*(1 + 1.5*std::sqrt(phi)), algebraTolerance);
    }
    EXPECT_NEAR(beetstraDragForce(0, 0), 1, algebraTolerance);
}

TEST(Beetstra, MatchesItsClosedFormAtFiniteReynolds)
{
    // The inertial term 0.413 Re/(24 eps^2) (1/eps + 3 phi eps + 8.4 Re^-0.343)
    // /(1 + 10^(3 phi) Re^-(1 + 4 phi)/2) as written in [Beetstra2007]
    // (OpenFOAM v1912 Beetstra.C and MFiX DRAG_BVK agree), at Re_m = 50
    const double phi = 0.3, eps = 0.7, Re = 50;
    const double F0 = 10*phi/(eps*eps) + eps*eps*(1 + 1.5*std::sqrt(phi));
    const double F1 = 0.413*Re/(24*eps*eps)*(1/eps + 3*phi*eps + 8.4*std::pow(Re, -0.343))
                     /(1 + std::pow(10, 3*phi)*std::pow(Re, -(1 + 4*phi)/2));
    EXPECT_NEAR(beetstraDragForce(phi, Re)/(F0 + F1), 1, algebraTolerance);
}

TEST(Beetstra, IsolatedLimitGivesUnitFactor)
{
    for (double Re : {0.0, 1e-8, 1.0, 1000.0})
    {
        EXPECT_NEAR(denseDragFactor(DenseDragLaw::Beetstra, 1, Re).factor, 1, algebraTolerance) << Re;
    }
}

TEST(DiFelice, FactorIsEpsToMinusChiAtSuperficialReynolds)
{
    // The form dragCorrection(denseDrag DiFelice) uses: h = eps^-chi(eps Re)
    const double eps = 0.6, Re = 20;
    const DenseDragFactor h = denseDragFactor(DenseDragLaw::DiFelice, eps, Re);
    EXPECT_NEAR(h.factor, std::pow(eps, -diFeliceExponent(eps*Re)), algebraTolerance);
    EXPECT_EQ(h.singleReynolds, eps*Re);
    FiniteReynoldsSettings s;
    s.denseDrag = DenseDragLaw::DiFelice;
    EXPECT_NEAR(dragCorrection(s, Re, eps).factor,
                h.factor*stokesDragCorrection(s.correlation, eps*Re), algebraTolerance);
    EXPECT_NEAR(denseDragFactor(DenseDragLaw::DiFelice, eps, 0).factor, std::pow(eps, -3.7),
                algebraTolerance);
}

TEST(DenseDrag, SingleLawIsEvaluatedAtTheSuperficialReynolds)
{
    for (DenseDragLaw law : {DenseDragLaw::DiFelice, DenseDragLaw::Beetstra, DenseDragLaw::Tenneti})
    {
        EXPECT_EQ(denseDragFactor(law, 0.5, 8).singleReynolds, 4) << denseDragLawName(law);
    }
    const DenseDragFactor dilute = denseDragFactor(DenseDragLaw::None, 0.5, 8);
    EXPECT_EQ(dilute.singleReynolds, 8);
    EXPECT_EQ(dilute.factor, 1);
}

TEST(DenseDrag, CorrectionOnTheStokesDragCombinesBoth)
{
    // dragCorrection(settings, ...) = f(Re_single) h, the factor
    // FiniteReynoldsDrag applies to Brenner's resistance
    const double eps = 0.5, Re = 40;
    const auto settings = [](DragCorrelation correlation, DenseDragLaw law)
    {
        FiniteReynoldsSettings s;
        s.correlation = correlation;
        s.denseDrag = law;
        return s;
    };
    const DragCorrection c = dragCorrection
    (
        settings(DragCorrelation::HaiderLevenspiel, DenseDragLaw::Beetstra), Re, eps, 0.9
    );
    EXPECT_EQ(c.reynolds, eps*Re);
    EXPECT_NEAR(c.factor, stokesDragCorrection(DragCorrelation::HaiderLevenspiel, eps*Re, 0.9)
                         *denseDragFactor(DenseDragLaw::Beetstra, eps, Re).factor, algebraTolerance);
    EXPECT_TRUE(c.inValidatedRange);
    // Out of range through the law (eps below the floor) or the
    // correlation (Stokes above Re_single = 1)
    EXPECT_FALSE(dragCorrection(settings(DragCorrelation::SchillerNaumann, DenseDragLaw::Tenneti), 1, 0.3)
                 .inValidatedRange);
    EXPECT_FALSE(dragCorrection(settings(DragCorrelation::Stokes, DenseDragLaw::Tenneti), 10, 0.5)
                 .inValidatedRange);
}

TEST(DenseDrag, SphereForceIsThePublishedModelBForce)
{
    // h F_single for a sphere with the law's own isolated drag is the total
    // fluid force of the fixed-bed simulations: Beetstra 3 pi mu d |w| F_B,
    // Tenneti 3 pi mu d eps |w| F_TGS (in units of 3 pi mu d |w|)
    const double eps = 0.55, Re = 30, Rem = eps*Re;
    const DenseDragFactor b = denseDragFactor(DenseDragLaw::Beetstra, eps, Re);
    EXPECT_NEAR(b.factor*beetstraDragForce(0, Rem), beetstraDragForce(1 - eps, Rem), algebraTolerance);
    const DenseDragFactor t = denseDragFactor(DenseDragLaw::Tenneti, eps, Re);
    EXPECT_NEAR(t.factor*stokesDragCorrection(DragCorrelation::SchillerNaumann, Rem),
                eps*tennetiDragForce(1 - eps, Rem), algebraTolerance);
}

TEST(DenseDrag, ResolvedLawsAgreeInTheStokesLimit)
{
    // Both fit random sphere arrays at Re -> 0 (lattice Boltzmann and
    // immersed boundary): their total forces F_B and eps F_TGS agree within
    // 10 % for phi 0.1-0.5 (0.91-0.94), the average accuracy [Beetstra2007]
    // states for its own fit. This also pins the normalisations: without
    // the eps on F_TGS the ratio would be 1.17-1.82 for phi 0.2-0.5.
    for (double phi : {0.1, 0.2, 0.3, 0.4, 0.5})
    {
        const double eps = 1 - phi;
        EXPECT_NEAR(eps*tennetiDragForce(phi, 0)/beetstraDragForce(phi, 0), 1, 0.10) << phi;
    }
}

TEST(DenseDrag, PackedBedAgainstErgunAtLowReynolds)
{
    // ErgunTestMPI material, Re_m 0.013-0.067, ratio to Ergun's gradient:
    //  - Beetstra: Carman-Kozeny's 180 over Ergun's 150, times the dilute
    //    term: 1.22-1.24 at eps 0.45 (derived, docs/dense-beds.md);
    //  - Tenneti: 1.11 (derived, same);
    //  - Di Felice: 0.85 (derived also with CFDEMcoupling's form of it):
    //    a correct Di Felice bed sits ~15 % below Ergun at eps 0.45.
    // Bands of +-0.02: the spread of each ratio over U = 0.002-0.01 m/s.
    const BedMaterial bed = ergunTestBed();
    const double eps = 0.45;
    for (double U : {0.002, 0.005, 0.01})
    {
        const double ergun = ergunPressureGradient(bed, eps, U);
        auto ratio = [&](DenseDragLaw law)
        {
            return denseBedPressureGradient(bed, law, DragCorrelation::SchillerNaumann, eps, U)/ergun;
        };
        EXPECT_NEAR(ratio(DenseDragLaw::Beetstra), 1.23, 0.02) << U;
        EXPECT_NEAR(ratio(DenseDragLaw::Tenneti), 1.11, 0.02) << U;
        EXPECT_NEAR(ratio(DenseDragLaw::DiFelice), 0.85, 0.02) << U;
    }
}

TEST(DenseDrag, MinimumFluidizationOfEachLaw)
{
    // ErgunTestMPI material at eps = 0.40 and 0.45: U_mf where each law's
    // fixed-bed gradient reaches (1 - eps)(rho_p - rho_f) g, against an
    // independent Python evaluation of the same formulas (7 digits; 1e-6
    // relative covers its bisection and the rounding)
    const BedMaterial bed = ergunTestBed();
    const struct { double eps, ergun, diFelice, beetstra, tenneti; } table[] =
    {
        {0.40, 0.00924375, 0.009682251, 0.007526849, 0.008382743},
        {0.45, 0.01434611, 0.01683479, 0.01156739, 0.01292100}
    };
    for (const auto& row : table)
    {
        const double weight = buoyantWeightGradient(bed, row.eps);
        auto Umf = [&](DenseDragLaw law)
        {
            return minimumFluidizationVelocity
            (
                [&](double U)
                {
                    return denseBedPressureGradient(bed, law, DragCorrelation::SchillerNaumann, row.eps, U);
                },
                weight,
                1e-3
            ).velocity;
        };
        EXPECT_NEAR(ergunMinimumFluidizationVelocity(bed, row.eps)/row.ergun, 1, 1e-6);
        EXPECT_NEAR(Umf(DenseDragLaw::DiFelice)/row.diFelice, 1, 1e-6);
        EXPECT_NEAR(Umf(DenseDragLaw::Beetstra)/row.beetstra, 1, 1e-6);
        EXPECT_NEAR(Umf(DenseDragLaw::Tenneti)/row.tenneti, 1, 1e-6);
    }
}

TEST(DenseDrag, BedGradientIsTheCarmanKozenyFormAtZeroReynolds)
{
    // Beetstra's n F_total at U -> 0 equals 18 mu phi U F_B(phi, 0)/(eps d^2)
    // exactly (n = 6 phi/(pi d^3), F_total = 3 pi mu d (U/eps) F_B)
    const BedMaterial bed = ergunTestBed();
    const double eps = 0.4, phi = 0.6, U = 1e-9;
    const double expected = 18*bed.dynamicViscosity*phi*U*beetstraDragForce(phi, 0)
                           /(eps*bed.diameter*bed.diameter);
    EXPECT_NEAR(denseBedPressureGradient(bed, DenseDragLaw::Beetstra, DragCorrelation::Stokes, eps, U)
               /expected, 1, 1e-6);   // Re_m ~ 7e-9: the inertial term is < 1e-6
}

TEST(DenseDrag, RangesReportLawsOutsideThem)
{
    EXPECT_TRUE(denseDragFactor(DenseDragLaw::Beetstra, 0.45, 100).inValidatedRange);
    EXPECT_FALSE(denseDragFactor(DenseDragLaw::Beetstra, 0.45, 2300).inValidatedRange);  // Re_m 1035
    EXPECT_FALSE(denseDragFactor(DenseDragLaw::Tenneti, 0.30, 1).inValidatedRange);      // below the floor
    EXPECT_TRUE(denseDragFactor(DenseDragLaw::DiFelice, minimumFluidFraction, 1).inValidatedRange);
    EXPECT_TRUE(denseDragFactor(DenseDragLaw::None, 0.995, 1).inValidatedRange);
    EXPECT_FALSE(denseDragFactor(DenseDragLaw::None, 0.45, 1).inValidatedRange);         // packed bed
    EXPECT_TRUE(validatedRange(DenseDragLaw::Tenneti).contains(1, 0));
}

TEST(DenseDrag, NamesRoundTrip)
{
    for (DenseDragLaw law :
         {DenseDragLaw::None, DenseDragLaw::DiFelice, DenseDragLaw::Beetstra, DenseDragLaw::Tenneti})
    {
        EXPECT_EQ(denseDragLawFromName(denseDragLawName(law)), law);
    }
    EXPECT_EQ(denseDragLawName(DenseDragLaw::None), "none");
}

TEST(DenseDrag, BadInputThrowsNamingTheValue)
{
    auto message = [](auto&& f)
    {
        try { f(); } catch (const std::invalid_argument& e) { return std::string(e.what()); }
        return std::string("no throw");
    };
    EXPECT_NE(message([]{ denseDragLawFromName("KochHill"); }).find("KochHill"), std::string::npos);
    EXPECT_NE(message([]{ denseDragFactor(DenseDragLaw::Beetstra, 0, 1); }).find("fluidFraction"),
              std::string::npos);
    EXPECT_NE(message([]{ denseDragFactor(DenseDragLaw::Beetstra, 1.2, 1); }).find("1.2"),
              std::string::npos);
    EXPECT_NE(message([]{ denseDragFactor(DenseDragLaw::Tenneti, 0.5, -1); }).find("Re"),
              std::string::npos);
    EXPECT_THROW(denseDragFactor(DenseDragLaw::DiFelice, 0.5, NAN), std::invalid_argument);
    EXPECT_THROW(beetstraDragForce(1, 1), std::invalid_argument);
    EXPECT_THROW(tennetiDragForce(-0.1, 1), std::invalid_argument);
}
