// Projected areas of superellipsoids (ProjectedArea.H) and their per-shape
// table (ProjectedAreaTable.H): closed forms of the ellipsoid and of the
// superellipse silhouettes along the axes, Cauchy's mean-projection
// identity, and published sphericities of a prolate spheroid.
#include "hydrodynamics/ProjectedArea.H"
#include "hydrodynamics/ProjectedAreaTable.H"
#include "hydrodynamics/Sphericity.H"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <stdexcept>

using namespace superellipsoid;

namespace
{

// Support-function integral at the default 1024 nodes (split, sigmoid-
// mapped midpoint rule, error ~ N^-4): measured <= 2e-10 for ellipsoids,
// round-off for the sphere (constant integrand, normalised weights)
constexpr double smoothIntegralTolerance = 1e-9;

// Table (31 nodes, Catmull-Rom) against the closed form of ellipsoids:
// largest error measured 5e-5 (random directions); 1e-4 leaves a factor 2
constexpr double ellipsoidTableTolerance = 1e-4;

Vector3 randomDirection(std::mt19937_64& rng)
{
    std::normal_distribution<double> g;
    return Vector3(g(rng), g(rng), g(rng)).normalized();
}

//- Area of the superellipse |x/a|^(2/e) + |y/b|^(2/e) = 1: 4ab Gamma(1+e/2)^2/Gamma(1+e)
double superellipseArea(double a, double b, double e)
{
    return 4*a*b*std::pow(std::tgamma(1 + 0.5*e), 2)/std::tgamma(1 + e);
}

} // namespace


TEST(ProjectedArea, SphereIsItsGreatCircle)
{
    // pi r^2 from every direction, by the closed form and by the integral
    const Superellipsoid sphere = Superellipsoid::sphere(0.7);
    std::mt19937_64 rng(3);
    for (int k = 0; k < 10; ++k)
    {
        const Vector3 n = randomDirection(rng);
        EXPECT_NEAR(projectedArea(sphere, n), M_PI*0.49, 1e-15);
        EXPECT_NEAR(supportProjectedArea(sphere, n), M_PI*0.49, smoothIntegralTolerance);
    }
}


TEST(ProjectedArea, SupportIntegralMatchesEllipsoidClosedForm)
{
    // pi sqrt((n_x bc)^2 + (n_y ca)^2 + (n_z ab)^2) for a prolate and a triaxial ellipsoid
    std::mt19937_64 rng(5);
    for (const Superellipsoid& e : {Superellipsoid(2.5, 1, 1, 1, 1), Superellipsoid(3, 2, 1, 1, 1)})
    {
        for (int k = 0; k < 20; ++k)
        {
            const Vector3 n = randomDirection(rng);
            const double exact = ellipsoidProjectedArea(e.halfAxes(), n);
            EXPECT_NEAR(supportProjectedArea(e, n), exact, smoothIntegralTolerance*exact);
        }
    }
    // Spheroid at incidence phi: pi b sqrt(b^2 cos^2 + a^2 sin^2); 45 deg of the 2:1 prolate: 4.967294
    EXPECT_NEAR(ellipsoidProjectedArea(Vector3(2, 1, 1), Vector3(1, 1, 0)), 4.967294, 5e-7);
}


TEST(ProjectedArea, SilhouettesAlongTheAxesAreSuperellipses)
{
    // Along z' the silhouette is the x'-y' superellipse (eps2), along x' and
    // y' the one of eps1. (2, 1.5, 1), eps1 = 0.8, eps2 = 0.6: published
    // values 5.071403, 6.761871, 10.817323 (7 digits)
    const Superellipsoid s(2, 1.5, 1, 0.8, 0.6);
    const double ax = superellipseArea(1.5, 1, 0.8);
    const double ay = superellipseArea(2, 1, 0.8);
    const double az = superellipseArea(2, 1.5, 0.6);
    // Split at the boxy points and sigmoid-mapped: ~1e-10 measured at the
    // default 1024 nodes
    const double tol = 1e-9;
    EXPECT_NEAR(projectedArea(s, Vector3::UnitX()), ax, tol*ax);
    EXPECT_NEAR(projectedArea(s, Vector3::UnitY()), ay, tol*ay);
    EXPECT_NEAR(projectedArea(s, Vector3::UnitZ()), az, tol*az);
    EXPECT_NEAR(ax, 5.071403, 5e-7);
    EXPECT_NEAR(ay, 6.761871, 5e-7);
    EXPECT_NEAR(az, 10.817323, 5e-7);
}


TEST(ProjectedArea, BoxyUnitShapeMatchesPublishedDiagonalValue)
{
    // (1, 1, 1), eps1 = eps2 = 0.5: 3.708149355 along an axis and
    // 4.40976 +- 1e-5 along (1, 0, 1)/sqrt(2) (surface quadrature)
    const Superellipsoid s(1, 1, 1, 0.5, 0.5);
    EXPECT_NEAR(projectedArea(s, Vector3::UnitZ()), 3.708149355, 1e-8);
    EXPECT_NEAR(projectedArea(s, Vector3(1, 0, 1)), 4.40976, 1.5e-5);
}


TEST(ProjectedArea, IntegralConvergesForBoxyAndPointedShapes)
{
    // The default 1024 nodes against 8192, at a generic direction, from
    // very boxy to pointed: measured < 7e-10 (the plain trapezoidal rule
    // gave 1e-3 for eps = 0.1)
    const Vector3 n = Vector3(0.3, 0.5, 0.8).normalized();
    for (const Superellipsoid& s :
        {Superellipsoid(1.5, 1, 1, 0.1, 0.1), Superellipsoid(2, 1.5, 1, 0.5, 0.5),
         Superellipsoid(2, 1.5, 1, 0.8, 0.6), Superellipsoid(1, 1, 1, 1.8, 1.8),
         Superellipsoid(1.5, 1, 1, 1.9, 1.9)})
    {
        const double fine = supportProjectedArea(s, n, 8192);
        EXPECT_NEAR(supportProjectedArea(s, n), fine, 2e-9*fine) << s.eps1();
    }
}


TEST(ProjectedArea, MeanOverDirectionsIsAQuarterOfTheSurface)
{
    // Cauchy: the mean of A_perp over the unit sphere is A/4, with A from
    // the independent surface quadrature (Sphericity.H). Gauss-Legendre in
    // cos(theta) x midpoint in psi on one octant (mirror symmetry)
    const Superellipsoid s(2, 1.5, 1, 0.5, 0.8);
    constexpr int n = 24;
    // Gauss-Legendre nodes on [0, 1] by Newton on P_n
    double mean = 0;
    for (int i = 0; i < n; ++i)
    {
        double t = std::cos(M_PI*(i + 0.75)/(n + 0.5)), dp = 1;
        for (int it = 0; it < 100; ++it)
        {
            double p0 = 1, p1 = t;
            for (int k = 2; k <= n; ++k)
            {
                const double p2 = ((2*k - 1)*t*p1 - (k - 1)*p0)/k;
                p0 = p1;
                p1 = p2;
            }
            dp = n*(p0 - t*p1)/(1 - t*t);
            t -= p1/dp;
        }
        const double mu = 0.5*(1 + t), w = 1/((1 - t*t)*dp*dp);
        for (int j = 0; j < 2*n; ++j)
        {
            const double psi = (j + 0.5)*0.5*M_PI/(2*n);
            const double st = std::sqrt(1 - mu*mu);
            mean += w/(2*n)*projectedArea(s, Vector3(st*std::cos(psi), st*std::sin(psi), mu));
        }
    }
    // A_perp has kinks of |n.nu| smoothed by the surface: 24 x 48 nodes
    // give ~1e-5 (measured 3e-6)
    const double quarter = 0.25*surfaceArea(s);
    EXPECT_NEAR(mean, quarter, 1e-5*quarter);
}


TEST(ProjectedAreaTable, InterpolatesEllipsoidClosedForm)
{
    std::mt19937_64 rng(7);
    for (const Superellipsoid& e : {Superellipsoid(2.5, 1, 1, 1, 1), Superellipsoid(3, 2, 1, 1, 1)})
    {
        const ProjectedAreaTable table = projectedAreaTable(e);
        for (int k = 0; k < 200; ++k)
        {
            const Vector3 n = randomDirection(rng);
            const double exact = ellipsoidProjectedArea(e.halfAxes(), n);
            EXPECT_NEAR(projectedAreas(table, n).crosswise, exact, ellipsoidTableTolerance*exact);
        }
        // Grid nodes (axes) are exact
        EXPECT_NEAR(projectedAreas(table, Vector3::UnitX()).crosswise,
                    ellipsoidProjectedArea(e.halfAxes(), Vector3::UnitX()), 1e-14);
    }
}


TEST(ProjectedAreaTable, InterpolatesBoxyAndPointedShapes)
{
    // Against the direct integral at random directions. Largest errors
    // measured: 1.5e-4 (eps 0.1), 3e-5 (eps 0.5), 4.7e-4 (eps 1.8): about
    // twice that as bounds
    std::mt19937_64 rng(11);
    const struct { Superellipsoid shape; double bound; } cases[] =
    {
        {Superellipsoid(1.5, 1, 1, 0.1, 0.1), 3e-4},
        {Superellipsoid(2, 1.5, 1, 0.5, 0.5), 1e-4},
        {Superellipsoid(1, 1, 1, 1.8, 1.8), 1e-3}
    };
    for (const auto& c : cases)
    {
        const ProjectedAreaTable table = projectedAreaTable(c.shape);
        double worst = 0;
        for (int k = 0; k < 60; ++k)
        {
            const Vector3 n = randomDirection(rng);
            const double exact = projectedArea(c.shape, n);
            worst = std::max(worst, std::abs(projectedAreas(table, n).crosswise/exact - 1));
        }
        std::printf("ProjectedAreaTable, eps = %.1f: largest relative error %.1e\n", c.shape.eps1(), worst);
        EXPECT_LT(worst, c.bound);
    }
}


TEST(ProjectedAreaTable, ProlateSphericitiesMatchPublishedValues)
{
    // 2.5:1 prolate: Phi_perp = A_v/A_perp and Phi_par = A_v/(A/2 - A_long)
    // at 0, 45, 90 deg: 1.842016 / 1.108183, 0.967474 / 0.944562,
    // 0.736806 / 0.790270 (A_long averaged numerically over the azimuth)
    const Superellipsoid s(2.5, 1, 1, 1, 1);
    const ProjectedAreaTable table = projectedAreaTable(s);
    const double d = s.volumeEquivalentDiameter(), Av = 0.25*M_PI*d*d;
    const double A = surfaceArea(s);
    const double published[3][2] = {{1.842016, 1.108183}, {0.967474, 0.944562}, {0.736806, 0.790270}};
    for (int k = 0; k < 3; ++k)
    {
        const double phi = 0.25*M_PI*k;
        const ProjectedAreas a = projectedAreas(table, Vector3(std::cos(phi), std::sin(phi), 0));
        // 6 decimals published, the table's areas ~5e-5: 1e-4 relative
        EXPECT_NEAR(Av/a.crosswise, published[k][0], 1e-4*published[k][0]);
        EXPECT_NEAR(Av/(0.5*A - a.longitudinal), published[k][1], 1e-4*published[k][1]);
    }
    // 2:1 prolate end-on: Phi_par(0) = 1.119150
    const Superellipsoid two(2, 1, 1, 1, 1);
    const double d2 = two.volumeEquivalentDiameter();
    const double along = projectedAreas(projectedAreaTable(two), Vector3::UnitX()).longitudinal;
    EXPECT_NEAR(0.25*M_PI*d2*d2/(0.5*surfaceArea(two) - along), 1.119150, 1e-4);
}


TEST(ProjectedAreaTable, SphereHasUnitSphericities)
{
    // A_perp = A_long = pi r^2, A/2 - A_long = pi r^2
    const ProjectedAreaTable table = projectedAreaTable(Superellipsoid::sphere(1));
    const ProjectedAreas a = projectedAreas(table, Vector3(0.2, -0.7, 0.4));
    EXPECT_NEAR(a.crosswise, M_PI, 1e-13);
    EXPECT_NEAR(a.longitudinal, M_PI, 1e-13);
}


TEST(ProjectedArea, BadInputThrows)
{
    const Superellipsoid s(2, 1.5, 1, 0.5, 0.5);
    EXPECT_THROW(projectedArea(s, Vector3::Zero()), std::invalid_argument);
    EXPECT_THROW(projectedArea(s, Vector3(NAN, 0, 1)), std::invalid_argument);
    EXPECT_THROW(projectedArea(s, Vector3::UnitZ(), 4), std::invalid_argument);
    EXPECT_THROW(ellipsoidProjectedArea(Vector3(1, 0, 1), Vector3::UnitZ()), std::invalid_argument);
    EXPECT_THROW(projectedAreaTable(s, 3), std::invalid_argument);
    EXPECT_THROW(projectedAreas(ProjectedAreaTable(), Vector3::UnitZ()), std::invalid_argument);
}
