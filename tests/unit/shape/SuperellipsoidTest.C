/*---------------------------------------------------------------------------*\
    Superellipsoid geometry: parameter validation, Barr's parametric surface
    against the inside-out function (Eq. 3 of [Wedel2023]), unit normal (Eq. 30), bounding
    sphere and box, closed surface triangulation.
\*---------------------------------------------------------------------------*/
#include "shape/Superellipsoid.H"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <string>

using namespace superellipsoid;

namespace
{

const double epsList[] = {0.1, 0.3, 0.5, 1.0, 1.5, 1.9};

//- what() of the InvalidShape thrown for these parameters ("" if none)
std::string errorOf(double a, double b, double c, double e1, double e2)
{
    try
    {
        Superellipsoid(a, b, c, e1, e2);
    }
    catch (const InvalidShape& err)
    {
        return err.what();
    }
    return "";
}

bool contains(const std::string& text, const std::string& part)
{
    return text.find(part) != std::string::npos;
}

//- Largest |r| found by sampling the first parametric octant on a grid,
//  then zooming three times on a finer grid around the best sample. Every
//  sample is a surface point, so all must lie inside the bounding sphere.
double sampledMaxRadius(const Superellipsoid& s, double bound, int& violations)
{
    double best = 0, bestEta = 0, bestOmega = 0;
    double etaLo = 0, etaHi = 0.5*M_PI, omegaLo = 0, omegaHi = 0.5*M_PI;
    for (int level = 0; level < 4; ++level)
    {
        const int n = level == 0 ? 120 : 40;
        for (int i = 0; i <= n; ++i)
        {
            const double eta = etaLo + (etaHi - etaLo)*i/n;
            for (int j = 0; j <= n; ++j)
            {
                const double omega = omegaLo + (omegaHi - omegaLo)*j/n;
                const double r = s.surfacePoint(eta, omega).norm();
                if (r > bound) ++violations;
                if (r > best) { best = r; bestEta = eta; bestOmega = omega; }
            }
        }
        const double dEta = 2*(etaHi - etaLo)/n, dOmega = 2*(omegaHi - omegaLo)/n;
        etaLo = std::max(0.0, bestEta - dEta);
        etaHi = std::min(0.5*M_PI, bestEta + dEta);
        omegaLo = std::max(0.0, bestOmega - dOmega);
        omegaHi = std::min(0.5*M_PI, bestOmega + dOmega);
    }
    return best;
}

//- Enclosed volume of a closed triangulated surface, divergence theorem:
//  V = 1/6 sum p0 . (p1 x p2) (positive for outward orientation)
double meshVolume(const SurfaceMesh& mesh)
{
    double V = 0;
    for (const auto& t : mesh.triangles)
    {
        V += mesh.points[t[0]].dot(mesh.points[t[1]].cross(mesh.points[t[2]]));
    }
    return V/6;
}

} // End anonymous namespace


// * * * * * * * * * * * * * * * * Validation  * * * * * * * * * * * * * * * //

TEST(ShapeValidation, ErrorsNameTheParameterAndValue)
{
    EXPECT_EQ(errorOf(1, 2, 0.5, 1, 1).rfind("superellipsoid: b = 2 must satisfy a >= b >= c > 0 (a = 1)", 0), 0u)
        << errorOf(1, 2, 0.5, 1, 1);
    EXPECT_TRUE(contains(errorOf(3, 2, 2.5, 1, 1), "c = 2.5 must satisfy a >= b >= c > 0 (b = 2)"));
    EXPECT_TRUE(contains(errorOf(3, 2, 0, 1, 1), "c = 0"));
    EXPECT_TRUE(contains(errorOf(-1, 2, 1, 1, 1), "a = -1"));
    EXPECT_TRUE(contains(errorOf(INFINITY, 2, 1, 1, 1), "a = inf"));
    EXPECT_TRUE(contains(errorOf(3, NAN, 1, 1, 1), "b = nan"));
    EXPECT_TRUE(contains(errorOf(3, 2, 1, 0.05, 1), "eps1 = 0.05 must lie in [0.1, 1.9]"));
    EXPECT_TRUE(contains(errorOf(3, 2, 1, 1, 2), "eps2 = 2 must lie in [0.1, 1.9]"));
    EXPECT_TRUE(contains(errorOf(3, 2, 1, 1, NAN), "eps2 = nan"));
    EXPECT_THROW(Superellipsoid::sphere(-1), InvalidShape);
    EXPECT_THROW(Superellipsoid(1, 1, 1, 1, 1.95), std::invalid_argument);
}


TEST(ShapeValidation, LimitsAndEqualAxesAreAccepted)
{
    EXPECT_EQ(errorOf(1, 1, 1, 0.1, 1.9), "");
    EXPECT_EQ(errorOf(1, 1, 1, 1.9, 0.1), "");
    EXPECT_EQ(errorOf(1e-6, 1e-6, 1e-7, 1, 1), "");
    const Superellipsoid s = Superellipsoid::sphere(2);
    EXPECT_TRUE(s.isSphere());
    EXPECT_TRUE(s.isEllipsoid());
    EXPECT_FALSE(Superellipsoid(2, 2, 1, 1, 1).isSphere());
    EXPECT_FALSE(Superellipsoid(2, 2, 2, 0.5, 1).isEllipsoid());
    EXPECT_EQ(Superellipsoid(3, 2, 1, 0.5, 0.4).exponentP(), 5.0);
}


// * * * * * * * * * * * * * * * * Surface  * * * * * * * * * * * * * * * * //

TEST(ShapeSurface, ParametricPointsSatisfyInsideOutFunctionEq3)
{
    // Barr's parametric form satisfies Eq. (3) of [Wedel2023] identically; roundoff in
    // S is ~ (2/eps) * 1e-16 per term, so 1e-12 is safe. Includes the poles,
    // the equator and the meridians (zero coordinates).
    for (double e1 : epsList)
    {
        for (double e2 : epsList)
        {
            const Superellipsoid s(3, 2, 1, e1, e2);
            for (int i = 0; i <= 24; ++i)
            {
                const double eta = -0.5*M_PI + M_PI*i/24;
                for (int j = 0; j < 48; ++j)
                {
                    const double omega = -M_PI + 2*M_PI*j/48;
                    const Vector3 x = s.surfacePoint(eta, omega);
                    EXPECT_NEAR(s.insideOut(x), 0.0, 1e-12)
                        << "eps = " << e1 << ", " << e2 << " eta = " << eta << " omega = " << omega;
                }
            }
            EXPECT_EQ(s.surfacePoint(0.5*M_PI, 0.3), Vector3(0, 0, 1));
            EXPECT_EQ(s.surfacePoint(-0.5*M_PI, 0.3), Vector3(0, 0, -1));
            EXPECT_EQ(s.surfacePoint(0, 0), Vector3(3, 0, 0));
            EXPECT_NEAR((s.surfacePoint(0, 0.5*M_PI) - Vector3(0, 2, 0)).norm(), 0, 1e-15);
        }
    }
}


TEST(ShapeSurface, UnitNormalIsOutwardNormalizedGradientEq30)
{
    // On the surface: n = grad S/|grad S| (1e-14: only roundoff), |n| = 1,
    // and n . x > 0 (the body is star-shaped about its centre)
    for (double e1 : epsList)
    {
        for (double e2 : epsList)
        {
            const Superellipsoid s(2.5, 1.5, 1, e1, e2);
            for (int i = 1; i < 12; ++i)
            {
                for (int j = 0; j < 24; ++j)
                {
                    const Vector3 x = s.surfacePoint(-0.5*M_PI + M_PI*i/12, -M_PI + 2*M_PI*j/24 + 0.1);
                    const Vector3 n = s.unitNormal(x);
                    const Vector3 g = s.gradient(x);
                    EXPECT_LE((n - g/g.norm()).norm(), 1e-14);
                    EXPECT_NEAR(n.norm(), 1, 1e-15);
                    EXPECT_GT(n.dot(x), 0);
                }
            }
            // At the poles and axis ends the normal is exactly the axis
            // direction (the gradient is evaluated without the floor)
            EXPECT_EQ(s.unitNormal(Vector3(0, 0, 1)), Vector3(0, 0, 1));
            EXPECT_EQ(s.unitNormal(Vector3(2.5, 0, 0)), Vector3(1, 0, 0));
            EXPECT_EQ(s.unitNormal(Vector3(0, -1.5, 0)), Vector3(0, -1, 0));
        }
    }
}


// * * * * * * * * * * * * * * * * Bounds  * * * * * * * * * * * * * * * * //

TEST(ShapeBounds, BoundingRadiusIsTightAndSafe)
{
    // Safe: no surface sample lies outside. Tight: the sampled maximum
    // (grid plus three zooms, resolution ~2e-6 rad, |r| quadratic near its
    // maximum) is within 1e-6 relative of the bound.
    const Vector3 axes[] = {Vector3(3, 2, 1), Vector3(1, 1, 1), Vector3(2, 2, 0.5), Vector3(5, 1, 0.9)};
    for (const Vector3& ax : axes)
    {
        for (double e1 : epsList)
        {
            for (double e2 : epsList)
            {
                const Superellipsoid s(ax(0), ax(1), ax(2), e1, e2);
                const double R = s.boundingRadius();
                int violations = 0;
                const double sampled = sampledMaxRadius(s, R, violations);
                EXPECT_EQ(violations, 0) << ax.transpose() << " eps " << e1 << " " << e2;
                EXPECT_LE(R, sampled*(1 + 1e-6)) << ax.transpose() << " eps " << e1 << " " << e2;
            }
        }
    }
}


TEST(ShapeBounds, BoundingRadiusClosedFormsInTheLimits)
{
    // Sphere: R; ellipsoid and every eps <= 1 pair... for eps >= 1 the
    // farthest point is the end of the major axis: a. For the boxy eps = 0.1
    // the corner approaches sqrt(a^2 + b^2 + c^2) from below.
    // (1e-13: the bound is enlarged by 1e-14 relative)
    EXPECT_NEAR(Superellipsoid::sphere(0.7).boundingRadius(), 0.7, 1e-13);
    EXPECT_NEAR(Superellipsoid(3, 2, 1, 1, 1).boundingRadius(), 3, 1e-13);
    EXPECT_NEAR(Superellipsoid(3, 2, 1, 1.5, 1.9).boundingRadius(), 3, 1e-13);
    const double box = Superellipsoid(3, 2, 1, 0.1, 0.1).boundingRadius();
    EXPECT_LT(box, std::sqrt(14.0));
    EXPECT_GT(box, 0.95*std::sqrt(14.0));
    // Equal half-axes: a^2 2^(1 - eps) in each pair, e.g. eps = 0.5:
    // R^2 = a^2 2^0.5 ... then (that) and c^2 = a^2 combine likewise
    const double e = 0.5;
    const double rxy2 = std::pow(2.0, 1 - e);
    const double t = 1/(1 + std::pow(1/rxy2, 1/(1 - e)));
    const double expected = std::sqrt(rxy2*std::pow(t, e) + std::pow(1 - t, e));
    EXPECT_NEAR(Superellipsoid(1, 1, 1, e, e).boundingRadius(), expected, 1e-13);
}


TEST(ShapeBounds, OrientedBoundingBoxContainsTheSurface)
{
    // x' <= a etc. holds exactly for Barr's form: |cos|^eps <= 1
    const Superellipsoid s(3, 2, 1, 0.1, 1.7);
    const Vector3 h = s.boundingBoxHalfExtents();
    EXPECT_EQ(h, Vector3(3, 2, 1));
    const SurfaceMesh mesh = s.triangulate(40, 80);
    for (const Vector3& p : mesh.points)
    {
        EXPECT_TRUE((p.cwiseAbs().array() <= h.array()).all());
    }
}


// * * * * * * * * * * * * * * * Triangulation  * * * * * * * * * * * * * * //

TEST(ShapeTriangulation, MeshIsClosedAndConsistentlyOriented)
{
    // Every directed edge appears exactly once and its reverse exactly once
    // (closed 2-manifold with consistent orientation); Euler: V - E + F = 2
    const Superellipsoid s(3, 2, 1, 0.4, 1.2);
    const SurfaceMesh mesh = s.triangulate(7, 11);
    std::map<std::pair<int, int>, int> directed;
    for (const auto& t : mesh.triangles)
    {
        for (int k = 0; k < 3; ++k) ++directed[{t[k], t[(k + 1) % 3]}];
    }
    for (const auto& [edge, count] : directed)
    {
        EXPECT_EQ(count, 1);
        EXPECT_EQ(directed.count({edge.second, edge.first}), 1u);
    }
    const long V = mesh.points.size(), F = mesh.triangles.size(), E = directed.size()/2;
    EXPECT_EQ(V - E + F, 2);
    EXPECT_EQ(V, 2 + 6*11);
    EXPECT_THROW(s.triangulate(1, 10), std::invalid_argument);
    EXPECT_THROW(s.triangulate(4, 2), std::invalid_argument);
}


TEST(ShapeTriangulation, MeshVolumeConvergesToVolume)
{
    // Divergence theorem on the closed, outward-oriented mesh: the volume is
    // positive and converges to volume(); the error of an inscribed
    // polyhedron is O(h^2) on smooth shapes (eps = 1), slower where the
    // uniform parametric grid under-resolves the rounded edges (small eps)
    // or the pointed poles (eps > 1); we require a monotone decrease with
    // refinement and 1e-2 relative at 256 x 512.
    for (double e : {0.3, 1.0, 1.5})
    {
        const Superellipsoid s(3, 2, 1, e, e);
        double previous = INFINITY;
        for (int n : {16, 64, 256})
        {
            const double V = meshVolume(s.triangulate(n, 2*n));
            EXPECT_GT(V, 0);
            const double error = std::abs(V/s.volume() - 1);
            EXPECT_LT(error, previous) << "eps " << e << " n " << n;
            previous = error;
        }
        EXPECT_LT(previous, 1e-2) << "eps " << e;
    }
    // Sphere: O(h^2), at 256 x 512 below 1e-4
    const Superellipsoid sphere = Superellipsoid::sphere(1);
    EXPECT_NEAR(meshVolume(sphere.triangulate(256, 512)), sphere.volume(), 1e-4*sphere.volume());
}


TEST(Superellipsoid, RevolutionAxisOfEachKindOfShape)
{
    // z' where the x'-y' section is a circle (a = b, eps2 = 1), x' for a
    // prolate spheroid (b = c), none otherwise
    EXPECT_EQ(Superellipsoid(1, 1, 1, 0.2, 1).revolutionAxis(), 2);     // cylinder-like
    EXPECT_EQ(Superellipsoid(2, 2, 1, 1, 1).revolutionAxis(), 2);       // oblate
    EXPECT_EQ(Superellipsoid(2, 1, 1, 1, 1).revolutionAxis(), 0);       // prolate
    EXPECT_EQ(Superellipsoid(2, 1, 1, 0.5, 1).revolutionAxis(), -1);    // x'-z' section not a circle
    EXPECT_EQ(Superellipsoid(1, 1, 1, 0.2, 0.2).revolutionAxis(), -1);  // cube
    EXPECT_EQ(Superellipsoid(3, 2, 1, 1, 1).revolutionAxis(), -1);      // triaxial ellipsoid
}
