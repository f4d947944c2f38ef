/*---------------------------------------------------------------------------*\
    Derivatives of the inside-out function (Eq. 3 of [Wedel2023]) against finite
    differences, global-frame derivatives (Eq. 29 of [Wedel2023]) against the chain rule,
    and robustness at zero coordinates, the origin and far points.
\*---------------------------------------------------------------------------*/
#include "shape/Superellipsoid.H"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

using namespace superellipsoid;

namespace
{

//- Random valid shape: a in [0.5, 2], b/a and c/b in [0.3, 1], eps in [0.1, 1.9]
Superellipsoid randomShape(std::mt19937_64& rng)
{
    std::uniform_real_distribution<double> U(0, 1);
    const double a = 0.5 + 1.5*U(rng);
    const double b = a*(0.3 + 0.7*U(rng));
    const double c = b*(0.3 + 0.7*U(rng));
    const double eps1 = 0.1 + 1.8*U(rng);
    const double eps2 = 0.1 + 1.8*U(rng);
    return Superellipsoid(a, b, c, eps1, eps2);
}

//- Random particle-frame point with every scaled coordinate |x'/a| etc. in
//  [0.2, 1.5] (away from the zero coordinates where derivatives of |x|^p
//  with p < 3 are not smooth), random signs
Vector3 randomPoint(const Superellipsoid& s, std::mt19937_64& rng)
{
    std::uniform_real_distribution<double> U(0, 1);
    Vector3 x;
    for (int i = 0; i < 3; ++i)
    {
        const double mag = 0.2 + 1.3*U(rng);
        x(i) = (U(rng) < 0.5 ? -mag : mag)*s.halfAxes()(i);
    }
    return x;
}

//- Richardson-extrapolated central difference of f along axis i with step h:
//  (4 D(h/2) - D(h))/3, truncation error O(h^4)
//  (evaluated into the concrete result type: no dangling Eigen expressions)
template<class Fn>
auto richardson(const Fn& f, const Vector3& x, int i, double h)
{
    using Result = decltype(f(x));
    const Vector3 e = Vector3::Unit(i);
    auto D = [&](double step) -> Result
    {
        const Result plus = f(x + step*e);
        const Result minus = f(x - step*e);
        return (plus - minus)/(2*step);
    };
    const Result coarse = D(h);
    const Result fine = D(0.5*h);
    return Result((4*fine - coarse)/3);
}

// Step: 1e-3 of the half-axis. For |x'/a| >= 0.2 and exponents up to
// p = 2/0.1 = 20 the Taylor series of |x|^p converges with ratio
// ~ p h/|x| <= 0.1, so the O(h^4) Richardson truncation error is of relative
// order (0.1)^4 times modest combinatorial factors, ~1e-6 at worst; roundoff
// is ~1e-16 |f|/h ~ 1e-13 relative. Tolerance 1e-5 relative to the largest
// entry of the tensor (entries may cancel to ~0 individually).
constexpr double relStep = 1e-3;
constexpr double fdTolerance = 1e-5;
constexpr int nRandomCases = 400;

} // End anonymous namespace


TEST(Derivatives, GradientMatchesFiniteDifferenceOfS)
{
    std::mt19937_64 rng(11);
    for (int n = 0; n < nRandomCases; ++n)
    {
        const Superellipsoid s = randomShape(rng);
        const Vector3 x = randomPoint(s, rng);
        const Vector3 g = s.gradient(x);
        const double scale = g.cwiseAbs().maxCoeff();
        for (int i = 0; i < 3; ++i)
        {
            const double fd = richardson
            (
                [&](const Vector3& y) { return s.insideOut(y); },
                x, i, relStep*s.halfAxes()(i)
            );
            EXPECT_NEAR(g(i), fd, fdTolerance*scale)
                << "eps = " << s.eps1() << ", " << s.eps2() << " x = " << x.transpose();
        }
    }
}


TEST(Derivatives, HessianMatchesFiniteDifferenceOfGradient)
{
    std::mt19937_64 rng(12);
    for (int n = 0; n < nRandomCases; ++n)
    {
        const Superellipsoid s = randomShape(rng);
        const Vector3 x = randomPoint(s, rng);
        const Matrix3 H = s.hessian(x);
        const double scale = H.cwiseAbs().maxCoeff();
        EXPECT_LE((H - H.transpose()).cwiseAbs().maxCoeff(), 1e-14*scale);
        for (int j = 0; j < 3; ++j)
        {
            const Vector3 fd = richardson
            (
                [&](const Vector3& y) { return s.gradient(y); },
                x, j, relStep*s.halfAxes()(j)
            );
            for (int i = 0; i < 3; ++i)
            {
                EXPECT_NEAR(H(i, j), fd(i), fdTolerance*scale)
                    << "eps = " << s.eps1() << ", " << s.eps2() << " x = " << x.transpose();
            }
        }
    }
}


TEST(Derivatives, ThirdDerivativesMatchFiniteDifferenceOfHessian)
{
    std::mt19937_64 rng(13);
    for (int n = 0; n < nRandomCases; ++n)
    {
        const Superellipsoid s = randomShape(rng);
        const Vector3 x = randomPoint(s, rng);
        const Tensor3 T = s.thirdDerivatives(x);
        double scale = 0;
        for (int k = 0; k < 3; ++k) scale = std::max(scale, T[k].cwiseAbs().maxCoeff());
        for (int k = 0; k < 3; ++k)
        {
            // T[k](i, j) = d/dx_k of H(i, j)
            const Matrix3 fd = richardson
            (
                [&](const Vector3& y) { return Matrix3(s.hessian(y)); },
                x, k, relStep*s.halfAxes()(k)
            );
            for (int i = 0; i < 3; ++i)
            {
                for (int j = 0; j < 3; ++j)
                {
                    EXPECT_NEAR(T[k](i, j), fd(i, j), fdTolerance*scale)
                        << "k = " << k << " eps = " << s.eps1() << ", " << s.eps2()
                        << " x = " << x.transpose();
                    // Full symmetry of the third derivative
                    EXPECT_NEAR(T[k](i, j), T[i](j, k), 1e-14*scale);
                }
            }
        }
    }
}


TEST(Derivatives, IntegerExponentFastPathMatchesFiniteDifferences)
{
    // eps in {0.1, 0.2, 0.25, 0.5, 2/3, 1} give integer p or r (and q for
    // equal pairs): the repeated-multiplication path; mixed pairs combine
    // integer p with non-integer q. Same step and tolerance as above.
    const double epsList[] = {0.1, 0.2, 0.25, 0.5, 2.0/3.0, 1.0, 0.7};
    std::mt19937_64 rng(17);
    for (double e1 : epsList)
    {
        for (double e2 : epsList)
        {
            const Superellipsoid s(2.5, 1.7, 0.9, e1, e2);
            for (int n = 0; n < 5; ++n)
            {
                const Vector3 x = randomPoint(s, rng);
                const ShapeDerivatives d = s.derivatives(x, 3);
                double gScale = d.gradient.cwiseAbs().maxCoeff();
                double hScale = d.hessian.cwiseAbs().maxCoeff();
                double tScale = 0;
                for (int k = 0; k < 3; ++k) tScale = std::max(tScale, d.third[k].cwiseAbs().maxCoeff());
                for (int k = 0; k < 3; ++k)
                {
                    const double h = relStep*s.halfAxes()(k);
                    const double fdValue = richardson
                    (
                        [&](const Vector3& y) { return s.insideOut(y); }, x, k, h
                    );
                    const Vector3 fdGrad = richardson
                    (
                        [&](const Vector3& y) { return s.gradient(y); }, x, k, h
                    );
                    const Matrix3 fdHess = richardson
                    (
                        [&](const Vector3& y) { return Matrix3(s.hessian(y)); }, x, k, h
                    );
                    EXPECT_NEAR(d.gradient(k), fdValue, fdTolerance*gScale) << e1 << " " << e2;
                    EXPECT_LE((d.hessian.col(k) - fdGrad).cwiseAbs().maxCoeff(), fdTolerance*hScale)
                        << e1 << " " << e2;
                    // (+ FD roundoff ~1e-16 |H|/h: T vanishes for ellipsoids)
                    EXPECT_LE
                    (
                        (d.third[k] - fdHess).cwiseAbs().maxCoeff(),
                        fdTolerance*tScale + 1e-11*hScale/s.c()
                    ) << e1 << " " << e2;
                }
            }
        }
    }
}


TEST(Derivatives, OrdersAreConsistentAndLowerOrdersLeaveHigherZero)
{
    std::mt19937_64 rng(14);
    const Superellipsoid s = randomShape(rng);
    const Vector3 x = randomPoint(s, rng);
    const ShapeDerivatives d3 = s.derivatives(x, 3);
    for (int order = 0; order <= 3; ++order)
    {
        const ShapeDerivatives d = s.derivatives(x, order);
        EXPECT_EQ(d.value, d3.value);
        EXPECT_EQ(d.value, s.insideOut(x));
        EXPECT_EQ(d.gradient, order >= 1 ? d3.gradient : Vector3::Zero());
        EXPECT_EQ(d.hessian, order >= 2 ? d3.hessian : Matrix3::Zero());
        EXPECT_EQ(d.third[1], order >= 3 ? d3.third[1] : Matrix3::Zero());
    }
    EXPECT_THROW(s.derivatives(x, 4), std::invalid_argument);
    EXPECT_THROW(s.derivatives(x, -1), std::invalid_argument);
}


TEST(Derivatives, EllipsoidHasExactQuadraticDerivatives)
{
    // S = (x/a)^2 + (y/b)^2 + (z/c)^2 - 1: gradient 2x/a^2, Hessian
    // diag(2/a^2, 2/b^2, 2/c^2), third derivatives zero (fast integer path;
    // exact up to roundoff, 1e-14)
    const Superellipsoid s(3, 2, 1, 1, 1);
    const Vector3 x(0.7, -1.1, 0.4);
    const ShapeDerivatives d = s.derivatives(x, 3);
    EXPECT_NEAR(d.value, 0.7*0.7/9 + 1.21/4 + 0.16 - 1, 1e-14);
    EXPECT_NEAR(d.gradient(0), 2*0.7/9, 1e-14);
    EXPECT_NEAR(d.gradient(1), -2*1.1/4, 1e-14);
    EXPECT_NEAR(d.gradient(2), 2*0.4, 1e-14);
    const Matrix3 H = Vector3(2.0/9, 0.5, 2.0).asDiagonal();
    EXPECT_LE((d.hessian - H).cwiseAbs().maxCoeff(), 1e-14);
    for (int k = 0; k < 3; ++k) EXPECT_LE(d.third[k].cwiseAbs().maxCoeff(), 1e-14);
}


TEST(Derivatives, AllOutputsFiniteAtZeroCoordinatesOriginAndFarPoints)
{
    const double epsList[] = {0.1, 0.5, 1.0, 1.5, 1.9};
    const double far = 1e6;
    std::vector<Vector3> points =
    {
        Vector3(0, 0, 0),
        Vector3(1, 0, 0), Vector3(0, 1, 0), Vector3(0, 0, 1),
        Vector3(0.5, 0.5, 0), Vector3(0, 0.5, 0.5), Vector3(-0.5, 0, 0.5),
        Vector3(1e-12, -1e-300, 0), Vector3(-0.0, 0.0, -0.0),
        Vector3(far, 0, 0), Vector3(0, far, 0), Vector3(0, 0, -far),
        Vector3(far, far, far), Vector3(1e-9, 1e-9, far),
        Vector3(1e300, -1e300, 1e300), Vector3(1e308, 0, 0),
        Vector3(0, 0, -1e308), Vector3(1e-320, 1e-320, 1e-320)
    };
    for (double e1 : epsList)
    {
        for (double e2 : epsList)
        {
            // Also a tiny particle (half-axes ~1e-6: SI units for 1 um)
            for (double size : {1.0, 1e-6})
            {
                const Superellipsoid s(3*size, 2*size, size, e1, e2);
                for (const Vector3& x : points)
                {
                    const ShapeDerivatives d = s.derivatives(x*size, 3);
                    bool finite = std::isfinite(d.value) && d.gradient.allFinite()
                        && d.hessian.allFinite();
                    for (int k = 0; k < 3; ++k) finite = finite && d.third[k].allFinite();
                    EXPECT_TRUE(finite)
                        << "eps = " << e1 << ", " << e2 << " size " << size
                        << " x = " << x.transpose();
                    EXPECT_TRUE(s.unitNormal(x*size).allFinite());
                    EXPECT_NEAR(s.unitNormal(x*size).norm(), 1.0, 1e-14);
                }
                // The origin is inside, far points are outside
                EXPECT_DOUBLE_EQ(s.insideOut(Vector3::Zero()), -1.0);
                // (S + 1 >= farFieldLimit()^r >= 10^(200*1.05/20) beyond the limit)
                EXPECT_GT(s.insideOut(Vector3(1e300, 0, 0)), 1e10);
                EXPECT_GT(s.insideOut(Vector3(0, 0, -1e308)), 1e10);
                EXPECT_GT(s.insideOut(Vector3(1e12, 1e12, 0)*size), 1e10);
            }
        }
    }
}


TEST(Derivatives, ValueAtZeroCoordinatesIsNotAffectedByTheFloor)
{
    // The floor acts on derivatives only: S at (0, 0, c) is exactly 0 and
    // S at (a, 0, 0) is exactly 0 even for eps = 1.9 where the floor would
    // contribute (1e-9)^(2/1.9) ~ 3e-10.
    const Superellipsoid s(2, 1.5, 1, 1.9, 1.9);
    EXPECT_EQ(s.derivatives(Vector3(0, 0, 1), 3).value, 0.0);
    EXPECT_EQ(s.derivatives(Vector3(2, 0, 0), 2).value, 0.0);
    EXPECT_EQ(s.insideOut(Vector3(0, 1.5, 0)), 0.0);
}


TEST(Derivatives, GradientIsExactAndContinuousAtZeroCoordinates)
{
    // All exponents exceed 1, so grad S is continuous and its component
    // normal to a symmetry plane vanishes on it. For p = 2/1.9 = 1.05 the
    // component decays only like |y|^0.05 (0.35 r at |y/b| = 1e-9), so the
    // floor must not be used for it: across the floor (branch switch) the
    // gradient is continuous to the change of |y|^0.05 itself (~1e-3 here).
    const Superellipsoid s(2, 1.5, 1, 1.9, 1.9);
    const Vector3 onPlane(1.2, 0.0, 0.3);
    EXPECT_EQ(s.gradient(onPlane)(1), 0.0);
    EXPECT_EQ(s.gradient(Vector3(0, 0, 0.7)), Vector3(0, 0, s.gradient(Vector3(0, 0, 0.7))(2)));
    EXPECT_GT(s.gradient(Vector3(0, 0, 0.7))(2), 0);
    const double b = s.b(), f = Superellipsoid::coordinateFloor();
    const double below = s.gradient(Vector3(1.2, 0.999*f*b, 0.3))(1);
    const double above = s.gradient(Vector3(1.2, 1.001*f*b, 0.3))(1);
    EXPECT_GT(below, 0);
    EXPECT_NEAR(below, above, 1e-3*above);
    EXPECT_LT(s.gradient(Vector3(1.2, -1e-12*b, 0.3))(1), 0);
    EXPECT_EQ(s.gradient(Vector3::Zero()), Vector3::Zero());
}


TEST(Derivatives, FarPointsBeyondTheLimitAreProjectedRadially)
{
    // S + 1 is homogeneous of degree r = 2/eps1 in the scaled coordinates:
    // below farFieldLimit() S(lambda x) + 1 = lambda^r (S(x) + 1) (1e-12:
    // roundoff of pow); beyond it the point is projected onto the limit.
    const Superellipsoid s(3, 2, 1, 0.1, 0.1);
    EXPECT_GE(s.farFieldLimit(), 1e10);
    const Vector3 x(2.4, -1.8, 0.95);   // scaled (0.8, -0.9, 0.95): S + 1 = O(1)
    const double lambda = 1e3;
    EXPECT_NEAR
    (
        (s.insideOut(lambda*x) + 1)/(s.insideOut(x) + 1), std::pow(lambda, s.exponentR()),
        1e-12*std::pow(lambda, s.exponentR())
    );
    const Vector3 direction(3, 1, 0.5);  // largest scaled coordinate = 1
    EXPECT_EQ
    (
        s.insideOut(1e5*s.farFieldLimit()*direction),
        s.insideOut(s.farFieldLimit()*direction)
    );
}


TEST(Derivatives, UnitNormalIsNormalizedGradientEq30)
{
    std::mt19937_64 rng(15);
    for (int n = 0; n < 100; ++n)
    {
        const Superellipsoid s = randomShape(rng);
        const Vector3 x = randomPoint(s, rng);
        const Vector3 g = s.gradient(x);
        EXPECT_LE((s.unitNormal(x) - g/g.norm()).norm(), 1e-14);
    }
}


TEST(Derivatives, GlobalFrameDerivativesFollowTheChainRuleEq29)
{
    // S(r) = S'(R (r - r_c)): compare against finite differences in the
    // global frame (same step and tolerance argument as above)
    std::mt19937_64 rng(16);
    for (int n = 0; n < 50; ++n)
    {
        const Superellipsoid s = randomShape(rng);
        Eigen::Quaterniond q(Eigen::Vector4d::Random().normalized());
        const Matrix3 R = q.toRotationMatrix();   // any rotation will do
        const Vector3 rc = Vector3::Random();
        const Vector3 r = rc + R.transpose()*randomPoint(s, rng);
        const ShapeDerivatives d = derivativesGlobal(s, R, rc, r, 3);
        EXPECT_DOUBLE_EQ(d.value, s.insideOut(R*(r - rc)));
        const double h = relStep*s.c();
        double scale = 0;
        for (int k = 0; k < 3; ++k) scale = std::max(scale, d.third[k].cwiseAbs().maxCoeff());
        for (int k = 0; k < 3; ++k)
        {
            const Matrix3 fd = richardson
            (
                [&](const Vector3& y) { return Matrix3(derivativesGlobal(s, R, rc, y, 2).hessian); },
                r, k, h
            );
            EXPECT_LE((d.third[k] - fd).cwiseAbs().maxCoeff(), fdTolerance*scale);
        }
        const Vector3 fdGrad = Vector3
        (
            richardson([&](const Vector3& y) { return derivativesGlobal(s, R, rc, y, 0).value; }, r, 0, h),
            richardson([&](const Vector3& y) { return derivativesGlobal(s, R, rc, y, 0).value; }, r, 1, h),
            richardson([&](const Vector3& y) { return derivativesGlobal(s, R, rc, y, 0).value; }, r, 2, h)
        );
        EXPECT_LE((d.gradient - fdGrad).norm(), fdTolerance*d.gradient.norm());
    }
}
