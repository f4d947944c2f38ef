// Closed-form support (extreme) point of a superellipsoid, and the pre-evaluation filters.
#include "ContactTestHelpers.H"
#include "contact/BoundingVolumes.H"
#include "contact/SupportPoint.H"

#include <gtest/gtest.h>

using namespace superellipsoid;
using namespace superellipsoid::testing;

// Reference: for an ellipsoid h(n) = sqrt(n^T diag(a^2, b^2, c^2) n) (support
// function of a linear image of the ball). Round-off only: 1e-13 relative.
TEST(SupportPoint, EllipsoidMatchesSupportFunctionSqrtNtMN)
{
    std::mt19937_64 rng(1);
    const Superellipsoid s(3.0, 2.0, 0.5, 1.0, 1.0);
    const Vector3 h2 = s.halfAxes().cwiseProduct(s.halfAxes());
    for (int i = 0; i < 1000; ++i)
    {
        const Vector3 n = randomUnit(rng);
        const double exact = std::sqrt(n.cwiseProduct(n).dot(h2));
        EXPECT_NEAR(supportValue(s, n), exact, 1e-13*exact);
    }
}

// The support point lies on S = 0, its unit normal is the direction, and no
// sampled surface point goes further along the direction (definition of the
// extreme point). eps spans the range incl. the robustness limits 0.1, 1.9.
TEST(SupportPoint, IsOnSurfaceWithNormalAlongDirectionAndMaximal)
{
    std::mt19937_64 rng(2);
    const double epsValues[] = {0.1, 0.2, 0.5, 1.0, 1.5, 1.8, 1.9};
    for (double e1 : epsValues)
    {
        for (double e2 : epsValues)
        {
            const Superellipsoid s(2.0, 1.3, 0.7, e1, e2);
            for (int i = 0; i < 40; ++i)
            {
                Vector3 n = randomUnit(rng);
                if (i == 0) n = Vector3(0, 0, 1);          // axis directions: no pivot branch
                if (i == 1) n = Vector3(0, -1, 0);
                if (i == 2) n = Vector3(1e-300, 1, 1e-17).normalized();
                double h;
                const Vector3 x = supportPoint(s, n, h);
                ASSERT_TRUE(x.allFinite());
                EXPECT_NEAR(h, n.dot(x), 1e-12*h);
                // |S| <= 1e-12: the point is exact up to round-off
                EXPECT_NEAR(s.insideOut(x), 0.0, 1e-12) << e1 << " " << e2;
                // Normal along n: where S is smooth (not at a floored coordinate)
                if (x.cwiseAbs().minCoeff() > 1e-6)
                {
                    EXPECT_GT(s.unitNormal(x).dot(n), 1 - 1e-10);
                }
                for (int k = 0; k < 200; ++k)
                {
                    const Vector3 y = s.surfacePoint(uniform(rng, -M_PI/2, M_PI/2), uniform(rng, -M_PI, M_PI));
                    EXPECT_LE(n.dot(y), h*(1 + 1e-12));
                }
            }
        }
    }
}

// The common-normal Newton takes the curvature at a support point from the
// p-norm shares of the support computation instead of new powers: gradient
// and Hessian must equal the shape module's analytic derivatives there.
// Tolerance: the shares equal X/(X+Y), F, G to round-off (~1e-15 relative);
// the point's coordinates carry ~1e-16 relative error, which X = |x/a|^p
// amplifies by p <= 20 and the Hessian by at most p^2: 1e-11 relative to
// the largest entry. Axis directions exercise the floored fallback.
TEST(SupportPoint, DerivativesFromSharesEqualShapeDerivatives)
{
    std::mt19937_64 rng(5);
    const double epsValues[] = {0.1, 0.2, 0.5, 1.0, 1.5, 1.8, 1.9};
    for (double e1 : epsValues)
    {
        for (double e2 : epsValues)
        {
            const Superellipsoid s(2.0, 1.3, 0.7, e1, e2);
            for (int i = 0; i < 40; ++i)
            {
                Vector3 n = randomUnit(rng);
                if (i == 0) n = Vector3(0, 0, 1);
                if (i == 1) n = Vector3(0.6, 0, -0.8);
                const SupportGeometry g = supportGeometry(s, n);
                EXPECT_NEAR(g.shareF + g.shareG, 1.0, 1e-13);
                const ShapeDerivatives fast = supportDerivatives(s, g);
                const ShapeDerivatives ref = s.derivatives(g.point, 2);
                const double gScale = ref.gradient.norm();
                const double hScale = ref.hessian.cwiseAbs().maxCoeff();
                EXPECT_NEAR((fast.gradient - ref.gradient).norm(), 0.0, 1e-11*gScale) << e1 << " " << e2 << " " << i;
                EXPECT_NEAR((fast.hessian - ref.hessian).cwiseAbs().maxCoeff(), 0.0, 1e-11*hScale) << e1 << " " << e2 << " " << i;
                EXPECT_NEAR(fast.value, 0.0, 1e-12);
            }
        }
    }
}

// Fast paths of the support map: exponents cached per shape
// (Superellipsoid::dualExponent), reciprocals instead of divisions, and the
// non-integer powers as exp(a log r) instead of std::pow, against the
// general formula written out with std::pow and divisions (nested dual norm
// h = ||(||(Dx, Dy)||_q2, Dz)||_q1, maximiser u_i = (D_i/h)^(q-1)).
// Tolerance: exp(a log r) carries the 1-ulp error of log r as an absolute
// error |log r| 1.1e-16 in the exponent, amplified by a = q - 1 <= 19
// (eps <= 1.9): <= 4e-14 relative for ratios r >= 1e-8 (|log r| <= 18.5),
// plus a few ulps per operation: 1e-12 relative to the half axis (point)
// and to h (value).
TEST(SupportPoint, FastPowersMatchStdPowReference)
{
    // The cached exponent and its integer flag (eps = 1.8: q - 1 = 9)
    const double dualEps[] = {0.2, 0.5, 1.0, 4.0/3.0, 1.5, 1.8, 1.9};
    const int dualInt[] = {0, 0, 1, 2, 3, 9, 19};
    for (int k = 0; k < 7; ++k)
    {
        const Superellipsoid s(1, 1, 1, dualEps[k], 0.5);
        EXPECT_EQ(s.dualExponent(1), dualEps[k]/(2 - dualEps[k]));
        EXPECT_EQ(s.dualExponentInt(1), dualInt[k]) << dualEps[k];
        EXPECT_EQ(s.dualExponentInt(2), 0);
    }

    auto reference = [](const Superellipsoid& s, const Vector3& d, double& h)
    {
        const double q1 = (2/s.eps1())/(2/s.eps1() - 1), q2 = (2/s.eps2())/(2/s.eps2() - 1);
        const double Dx = s.a()*std::abs(d.x()), Dy = s.b()*std::abs(d.y()), Dz = s.c()*std::abs(d.z());
        const double hxy = std::pow(std::pow(Dx, q2) + std::pow(Dy, q2), 1/q2);
        h = std::pow(std::pow(hxy, q1) + std::pow(Dz, q1), 1/q1);
        const double rho = std::pow(hxy/h, q1 - 1), w = std::pow(Dz/h, q1 - 1);
        return Vector3
        (
            std::copysign(s.a()*rho*std::pow(Dx/hxy, q2 - 1), d.x()),
            std::copysign(s.b()*rho*std::pow(Dy/hxy, q2 - 1), d.y()),
            std::copysign(s.c()*w, d.z())
        );
    };
    std::mt19937_64 rng(6);
    const double epsValues[] = {0.1, 0.2, 0.3, 0.5, 0.7, 1.0, 1.3, 1.5, 1.8, 1.89, 1.9};
    for (double e1 : epsValues)
    {
        for (double e2 : epsValues)
        {
            const Superellipsoid s(2.0, 1.3, 0.7, e1, e2);
            for (int i = 0; i < 100; ++i)
            {
                Vector3 n = randomUnit(rng);
                // small ratios down to 1e-8 (near-flat faces, vertices)
                if (i % 4 == 1) n(i % 3) = std::copysign(std::pow(10.0, -uniform(rng, 3, 8)), n(i % 3));
                if (i % 4 == 2) n(2) = std::copysign(std::pow(10.0, -uniform(rng, 3, 8)), n(2));
                n.normalize();
                double hRef;
                const Vector3 ref = reference(s, n, hRef);
                const SupportGeometry g = supportGeometry(s, n);
                EXPECT_NEAR(g.value, hRef, 1e-12*hRef) << e1 << " " << e2 << " " << i;
                EXPECT_LE((g.point - ref).norm(), 1e-12*s.a()) << e1 << " " << e2 << " " << i;
                // The light derivative struct equals the full one (same formulas)
                const SupportSecondOrder light = supportGradientHessian(s, g);
                const ShapeDerivatives full = supportDerivatives(s, g);
                EXPECT_EQ(light.value, full.value);
                EXPECT_EQ((light.gradient - full.gradient).norm(), 0.0);
                EXPECT_EQ((light.hessian - full.hessian).norm(), 0.0);
            }
        }
    }
}


// S(t x) + 1 = t^(2/eps1) (S(x) + 1) makes the radial projection exact.
TEST(SupportPoint, RadialProjectionLandsOnSurface)
{
    std::mt19937_64 rng(3);
    for (int i = 0; i < 200; ++i)
    {
        const Superellipsoid s = randomShape(rng, 0.2, 1.8, 5);
        const Vector3 x = radialProjection(s, uniform(rng, 0.01, 10)*randomUnit(rng));
        EXPECT_NEAR(s.insideOut(x), 0.0, 1e-12);
    }
}

// Reference: two boxes along x with centres 2.5 apart and half extents 1 and
// 1.4 overlap (2.5 < 2.4 is false -> apart); rotating B by 45 deg about z
// brings its corner to 1.4 sqrt(2) = 1.98 > 1.5, so they then overlap.
TEST(ObbOverlap, SeparatingAxisTheoremOnKnownConfigurations)
{
    const Vector3 h(1, 1, 1), hB(1.4, 1.4, 1.4);
    const Matrix3 I = Matrix3::Identity();
    EXPECT_FALSE(obbOverlap(Vector3::Zero(), I, h, Vector3(2.5, 0, 0), I, hB));
    EXPECT_TRUE(obbOverlap(Vector3::Zero(), I, h, Vector3(2.3, 0, 0), I, hB));
    const Matrix3 R45 = Eigen::AngleAxisd(M_PI/4, Vector3::UnitZ()).toRotationMatrix();
    EXPECT_TRUE(obbOverlap(Vector3::Zero(), I, h, Vector3(2.5, 0, 0), R45, hB));
    // Edge-edge case only an A_i x B_j axis separates: two unit cubes rotated
    // 45 deg about x and about z, offset along (1,1,1)-ish so faces do not separate
    const Matrix3 Rx = Eigen::AngleAxisd(M_PI/4, Vector3::UnitX()).toRotationMatrix();
    const Matrix3 Rz = Eigen::AngleAxisd(M_PI/4, Vector3::UnitZ()).toRotationMatrix();
    const Vector3 hc(0.5, 0.5, 0.5);
    // Along the edge-edge axis (x) cross (z) = y: extents 0.5 sqrt2 each -> gap if |t_y| > sqrt2
    int axis = -1;
    EXPECT_FALSE(obbOverlap(Vector3::Zero(), Rx, hc, Vector3(0.3, 1.45, 0.3), Rz, hc, 0, &axis));
    EXPECT_TRUE(obbOverlap(Vector3::Zero(), Rx, hc, Vector3(0.3, 1.35, 0.3), Rz, hc));
}

// The OBB test is conservative: whenever the true shapes overlap (sampled
// surface point of B inside A) it must report an overlap. Random pairs.
TEST(ObbOverlap, NeverRejectsOverlappingShapes)
{
    std::mt19937_64 rng(4);
    int overlapping = 0;
    for (int i = 0; i < 2000; ++i)
    {
        const Superellipsoid A = randomShape(rng), B = randomShape(rng);
        Pose pA, pB;
        pA.orientation = randomOrientation(rng);
        pB.orientation = randomOrientation(rng);
        placeWithCommonNormal(A, pA, B, pB, randomUnit(rng), uniform(rng, -0.1, 0.1)*std::min(A.c(), B.c()));
        bool overlap = false;
        for (int k = 0; k < 300 && !overlap; ++k)
        {
            const Vector3 y = pB.toGlobalFrame(B.surfacePoint(uniform(rng, -M_PI/2, M_PI/2), uniform(rng, -M_PI, M_PI)));
            overlap = A.insideOut(pA.toParticleFrame(y)) < 0;
        }
        overlapping += overlap;
        if (overlap)
        {
            EXPECT_TRUE(obbOverlap(A, pA, B, pB));
            EXPECT_TRUE(boundingSpheresOverlap(A, pA, B, pB));
        }
    }
    EXPECT_GT(overlapping, 300);   // the sample does exercise the overlapping case
}
