// Surface area and sphericity (Sphericity.H) and the Haider-Levenspiel law
// that uses it (DragCorrelations.H).
#include "hydrodynamics/FiniteReynoldsDrag.H"
#include "hydrodynamics/Sphericity.H"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

using namespace superellipsoid;

namespace
{

// Carlson's integrals are accurate to ~1e-16: closed forms to round-off
constexpr double roundOff = 1e-13;

} // namespace


TEST(SurfaceArea, EllipsoidClosedFormMatchesKnownAreas)
{
    // Sphere 4 pi r^2; prolate 2:1:1 2 pi b^2 (1 + a/(b e) asin e),
    // e = sqrt(1 - b^2/a^2) (textbook closed form) = 21.4784353
    EXPECT_NEAR(ellipsoidSurfaceArea(3, 3, 3), 36*M_PI, roundOff*36*M_PI);
    const double e = std::sqrt(0.75);
    const double prolate = 2*M_PI*(1 + 2/e*std::asin(e));
    EXPECT_NEAR(ellipsoidSurfaceArea(2, 1, 1), prolate, roundOff*prolate);
    EXPECT_NEAR(ellipsoidSurfaceArea(1, 2, 1), prolate, roundOff*prolate);
    EXPECT_NEAR(prolate, 21.4784353, 5e-8);
    // Oblate 2:2:1: 2 pi a^2 + pi c^2/e ln((1 + e)/(1 - e)), e = sqrt(1 - c^2/a^2)
    const double eo = std::sqrt(0.75);
    const double oblate = 2*M_PI*4 + M_PI/eo*std::log((1 + eo)/(1 - eo));
    EXPECT_NEAR(ellipsoidSurfaceArea(2, 2, 1), oblate, roundOff*oblate);
}

TEST(SurfaceArea, QuadratureMatchesTheEllipsoidClosedForm)
{
    // The quadrature path on an ellipsoid (eps = 1 + 1e-12 forces it):
    // 100 x 100 nodes per octant resolve the smooth integrand to < 1e-8
    const Superellipsoid nearlyEllipsoid(3, 2, 1, 1 + 1e-12, 1 + 1e-12);
    EXPECT_NEAR(surfaceArea(nearlyEllipsoid)/ellipsoidSurfaceArea(3, 2, 1), 1, 1e-8);
}

TEST(SurfaceArea, SuperellipsoidsMatchTabulatedAreas)
{
    // Independent values (a 400 x 800 full-sphere quadrature, printed to
    // the digits shown; 1e-6 absolute is its uncertainty for the second). The boxy shapes converge
    // more slowly: 1e-7 relative at 100 x 100 per octant
    const Superellipsoid rounded(1, 1, 1, 0.5, 0.5);
    EXPECT_NEAR(rounded.volume(), 6.481987352, 5e-10);
    EXPECT_NEAR(surfaceArea(rounded), 17.58718907, 2e-6);
    EXPECT_NEAR(sphericity(rounded), 0.9559309, 5e-7);
    const Superellipsoid triaxial(2, 1.5, 1, 0.8, 0.6);
    EXPECT_NEAR(surfaceArea(triaxial), 33.536903, 3e-6);
    EXPECT_NEAR(sphericity(triaxial), 0.924229, 5e-7);
}

TEST(Sphericity, SphereIsOneAndProlateMatchesTabulatedValue)
{
    EXPECT_EQ(sphericity(Superellipsoid::sphere(0.3)), 1.0);
    EXPECT_NEAR(sphericity(Superellipsoid(2, 1, 1, 1, 1)), 0.928739, 5e-7);
}

TEST(HaiderLevenspiel, CoefficientsAndDragMatchTabulatedValues)
{
    // Independent double-precision evaluation (6 digits: half a unit)
    const HaiderLevenspielCoefficients k = haiderLevenspielCoefficients(1);
    EXPECT_NEAR(k.A, 0.186244, 5e-7);
    EXPECT_NEAR(k.B, 0.6529, 1e-12);
    EXPECT_NEAR(k.C, 0.437316, 5e-7);
    EXPECT_NEAR(k.D, 7185.35, 5e-3);
    EXPECT_NEAR(haiderLevenspielDragCoefficient(100, 1), 1.14984, 5e-6);
    EXPECT_NEAR(haiderLevenspielDragCoefficient(100, 0.928739), 1.12341, 5e-6);
}

TEST(HaiderLevenspiel, CorrectionIsCDRe24AndOneAtZero)
{
    for (double phi : {1.0, 0.9, 0.7})
    {
        EXPECT_EQ(stokesDragCorrection(DragCorrelation::HaiderLevenspiel, 0, phi), 1.0);
        for (double Re : {0.1, 10.0, 300.0})
        {
            EXPECT_NEAR
            (
                stokesDragCorrection(DragCorrelation::HaiderLevenspiel, Re, phi),
                haiderLevenspielDragCoefficient(Re, phi)*Re/24,
                roundOff*Re
            );
        }
    }
    // Sphere: 5 % above Schiller-Naumann at Re = 100 (1.14984 vs 1.09173)
    EXPECT_NEAR
    (
        haiderLevenspielDragCoefficient(100, 1)/schillerNaumannDragCoefficient(100), 1.0532, 5e-4
    );
}

TEST(BadInput, SphericityOutsideUnitIntervalThrows)
{
    EXPECT_THROW(haiderLevenspielCoefficients(0), std::invalid_argument);
    EXPECT_THROW(haiderLevenspielCoefficients(1.01), std::invalid_argument);
    EXPECT_THROW(dragCorrection(FiniteReynoldsSettings(), 1, 1, 1.5), std::invalid_argument);
    EXPECT_THROW(ellipsoidSurfaceArea(1, 0, 1), std::invalid_argument);
    EXPECT_THROW(surfaceArea(Superellipsoid(1, 1, 1, 0.5, 0.5), 2), std::invalid_argument);
    EXPECT_EQ(dragCorrelationFromName("HaiderLevenspiel"), DragCorrelation::HaiderLevenspiel);
}

TEST(HaiderLevenspiel, ProlateDragIsTheFactorTimesBrenner)
{
    // finiteReynoldsDrag passes the sphericity and the fluid fraction to
    // the factor: F = f_HL(eps Re, Phi) eps^-chi F_Brenner exactly
    const Superellipsoid prolate(2e-3, 1e-3, 1e-3, 1, 1);
    HydrodynamicParticle p;
    p.tensors = exactEllipsoidResistance(2e-3, 1e-3, 1e-3);
    p.c = 1e-3;
    p.volume = prolate.volume();
    const FluidProperties water{1000, 1e-6};
    const double dv = prolate.volumeEquivalentDiameter();
    const double phi = sphericity(prolate);
    const Vector3 slip(0.02, -0.01, 0.05);
    const double Re = slip.norm()*dv/water.kinematicViscosity;

    FlowAtParticle flow;
    flow.fluidVelocity = slip;
    ForceTerms dragOnly;
    dragOnly.gravityBuoyancy = false;
    const Matrix3 R = Eigen::AngleAxisd(0.7, Vector3(1, 2, 3).normalized()).toRotationMatrix();
    const Vector3 brenner = hydrodynamicForce(p, water, R, flow, dragOnly).drag;

    FiniteReynoldsSettings hl;
    hl.correlation = DragCorrelation::HaiderLevenspiel;
    const FiniteReynoldsDrag D =
        finiteReynoldsDrag(p, water, R, slip, dv, hl, 1, phi);
    const double f = stokesDragCorrection(DragCorrelation::HaiderLevenspiel, Re, phi);
    EXPECT_GT(f, 1.5);
    EXPECT_NEAR((D.force - f*brenner).norm(), 0, roundOff*f*brenner.norm());

    hl.denseDrag = DenseDragLaw::DiFelice;
    const double eps = 0.6;
    const FiniteReynoldsDrag H =
        finiteReynoldsDrag(p, water, R, slip, dv, hl, eps, phi);
    const double fh =
        stokesDragCorrection(DragCorrelation::HaiderLevenspiel, eps*Re, phi)
       *std::pow(eps, -diFeliceExponent(eps*Re));
    EXPECT_NEAR((H.force - fh*brenner).norm(), 0, roundOff*fh*brenner.norm());
    EXPECT_NEAR(H.correction.reynolds, eps*Re, roundOff*Re);
}
