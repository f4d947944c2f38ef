// Packed-bed reference laws (PackedBedLaws.H) for the ErgunTestMPI set-up
// of CFDEMcoupling: 10 000 spheres of 1 mm and 2000 kg/m^3 in a column of
// radius 13.85 mm, gas nu = 1.5e-4 m^2/s, rho = 10 kg/m^3, eps = 0.451335,
// bed height L = 15.6 mm. Reference numbers: hand evaluations of each
// formula, quoted to the digits given.
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

constexpr double algebraTolerance = 1e-12;
constexpr double eps = 0.451335;
constexpr double bedHeight = 0.0156;


} // namespace


TEST(Ergun, PressureDropOfTheErgunTestColumn)
{
    // Delta p over L = 15.6 mm: 23.0, 57.5, 115.1, 230.5 Pa, quoted to
    // 0.1 Pa: half a unit is 0.05 Pa
    const BedMaterial bed = ergunTestBed();
    const struct { double U, dp; } table[] = {{0.002, 23.0}, {0.005, 57.5}, {0.010, 115.1}, {0.020, 230.5}};
    for (const auto& row : table)
    {
        EXPECT_NEAR(ergunPressureGradient(bed, eps, row.U)*bedHeight, row.dp, 0.05) << row.U;
    }
}

TEST(Ergun, SphericityScalesTheDiameter)
{
    // Ergun(Phi, d) = Ergun(1, Phi d): d enters only as the Sauter 6 V/S
    BedMaterial shaped = ergunTestBed();
    shaped.sphericity = 0.8;
    BedMaterial sphere = ergunTestBed();
    sphere.diameter = 0.8e-3;
    EXPECT_NEAR(ergunPressureGradient(shaped, 0.4, 0.3)/ergunPressureGradient(sphere, 0.4, 0.3), 1,
                algebraTolerance);
}

TEST(Ergun, MinimumFluidizationVelocity)
{
    // Viscous branch of the tutorial's script: d^2 (rho_p - rho_f) g eps^3
    // /(150 mu (1 - eps)) = 0.0145388 m/s; the inertial term lowers the
    // full root by 0.2 % to 0.0145090 (hand evaluation, 6 digits)
    const BedMaterial bed = ergunTestBed();
    const double Umf = ergunMinimumFluidizationVelocity(bed, eps);
    EXPECT_NEAR(Umf, 0.0145090, 5e-8);
    EXPECT_NEAR(ergunPressureGradient(bed, eps, Umf)/buoyantWeightGradient(bed, eps), 1, algebraTolerance);
    // At U_mf the drop over L is the bed's weight per volume times L:
    // 167.1 Pa (Ergun at the viscous-branch U_mf would give 167.4 Pa)
    EXPECT_NEAR(ergunPressureGradient(bed, eps, Umf)*bedHeight, 167.1, 0.05);
}

TEST(Ergun, BisectionFindsTheClosedFormRoot)
{
    const BedMaterial bed = ergunTestBed();
    const MinimumFluidization m = minimumFluidizationVelocity
    (
        [&](double U) { return ergunPressureGradient(bed, eps, U); },
        buoyantWeightGradient(bed, eps),
        1e-3
    );
    // The bisection stops at 1e-13 relative
    EXPECT_NEAR(m.velocity/ergunMinimumFluidizationVelocity(bed, eps), 1, 1e-12);
    EXPECT_GT(m.iterations, 10);
}

TEST(Fluidization, BedWeightPlateau)
{
    // N V_p (rho_p - rho_f) g/A = 169.6 Pa (quoted to 0.1 Pa)
    const BedMaterial bed = ergunTestBed();
    const double solidVolume = 10000*M_PI/6*1e-9;
    const double area = M_PI*0.01385*0.01385;
    EXPECT_NEAR(bedWeightPerArea(bed, solidVolume, area), 169.6, 0.05);
}

TEST(Fluidization, WenYu)
{
    // Ar = 86.764, Re_mf = sqrt(33.7^2 + 0.0408 Ar) - 33.7 = 0.052481,
    // U_mf = 0.0078721 m/s (hand evaluation): 46 % below
    // Ergun at the simulated eps, whence only a plausibility band
    const BedMaterial bed = ergunTestBed();
    EXPECT_NEAR(wenYuMinimumFluidizationVelocity(bed), 0.0078721, 5e-8);
}

TEST(PackedBed, BadInputThrows)
{
    const BedMaterial bed = ergunTestBed();
    auto message = [](auto&& f)
    {
        try { f(); } catch (const std::invalid_argument& e) { return std::string(e.what()); }
        return std::string("no throw");
    };
    EXPECT_NE(message([&]{ ergunPressureGradient(bed, 1, 0.01); }).find("fluidFraction"), std::string::npos);
    EXPECT_NE(message([&]{ ergunPressureGradient(bed, 0.4, -1); }).find("U"), std::string::npos);
    BedMaterial light = bed;
    light.particleDensity = 5;
    EXPECT_NE(message([&]{ ergunMinimumFluidizationVelocity(light, 0.4); }).find("particleDensity"),
              std::string::npos);
    BedMaterial shaped = bed;
    shaped.sphericity = 1.2;
    EXPECT_THROW(ergunPressureGradient(shaped, 0.4, 0.01), std::invalid_argument);
    EXPECT_THROW(bedWeightPerArea(bed, 1e-6, 0), std::invalid_argument);
    // A law that never reaches the weight (here: zero drag)
    EXPECT_THROW(minimumFluidizationVelocity([](double) { return 0.0; }, 1, 1), std::invalid_argument);
}
