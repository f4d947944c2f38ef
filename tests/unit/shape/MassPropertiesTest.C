/*---------------------------------------------------------------------------*\
    Volume and principal moments of inertia of superellipsoids ([Wedel2023],
    Eqs. 17-19 of [Wedel2023] and the volume formula) against closed forms (sphere,
    ellipsoid), the box limit eps -> 0 and an independent numerical
    integration over the body.
\*---------------------------------------------------------------------------*/
#include "shape/Superellipsoid.H"
#include "math/SpecialFunctions.H"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>

using namespace superellipsoid;

namespace
{

//- Tanh-sinh (double-exponential) quadrature of f(x, L - x) over [0, L]:
//  x = L/(1 + e^(-2u)), L - x = L/(1 + e^(2u)), u = pi/2 sinh(t), t = k h.
//  Converges exponentially even with algebraic end-point singularities such
//  as (1 - x^p)^(1/p); f receives the distance to the upper end point
//  separately so that it can be evaluated without cancellation.
double tanhSinh
(
    const std::function<double(double, double)>& f,
    double L,
    double h
)
{
    double sum = 0;
    const int n = static_cast<int>(std::ceil(3.2/h));
    for (int k = -n; k <= n; ++k)
    {
        const double t = k*h;
        const double u = 0.5*M_PI*std::sinh(t);
        const double x = L/(1 + std::exp(-2*u));
        const double xc = L/(1 + std::exp(2*u));
        const double w = L*0.5*M_PI*std::cosh(t)/(2*std::cosh(u)*std::cosh(u));
        if (x > 0 && xc > 0 && w > 0) sum += w*f(x, xc);
    }
    return h*sum;
}

//- 1 - (1 - d)^e, accurate for small d
double oneMinusPowComplement(double d, double e)
{
    return -std::expm1(e*std::log1p(-std::min(d, 1.0)));
}

//- Integrals over the first octant of the unit-scaled body
//  (|x|^p + |y|^p)^q + |z|^r <= 1 of {1, x^2, y^2, z^2}, by nested tanh-sinh
//  with the inner z-integral done analytically (z_max, z_max^3/3)
struct Octant { double one, x2, y2, z2; };

Octant integrateOctant(double eps1, double eps2, double h)
{
    const double p = 2/eps2, q = eps2/eps1, r = 2/eps1;
    Octant result{0, 0, 0, 0};
    double* out[4] = {&result.one, &result.x2, &result.y2, &result.z2};
    for (int moment = 0; moment < 4; ++moment)
    {
        *out[moment] = tanhSinh
        (
            [&](double x, double xc)
            {
                // A = 1 - x^p = y_max^p
                const double A = x < 0.5 ? 1 - std::pow(x, p) : oneMinusPowComplement(xc, p);
                const double yMax = std::pow(A, 1/p);
                auto integrand = [&](double y, double yc)
                    {
                        // z_max^r = 1 - u^q, u = x^p + y^p, evaluated from u
                        // where u is small and from 1 - u = y_max^p - y^p
                        // (nearer end point) where u is close to 1, to
                        // avoid cancellation (u^q with q = 0.2 amplifies it)
                        const double u = std::pow(x, p) + std::pow(y, p);
                        double zr;
                        if (u < 0.5)
                        {
                            zr = 1 - std::pow(u, q);
                        }
                        else
                        {
                            const double oneMinusU = y < 0.5*yMax
                                ? A - std::pow(y, p)
                                : A*oneMinusPowComplement(yc/yMax, p);
                            zr = oneMinusPowComplement(oneMinusU, q);
                        }
                        const double zMax = std::pow(zr, 1/r);
                        switch (moment)
                        {
                            case 0: return zMax;
                            case 1: return x*x*zMax;
                            case 2: return y*y*zMax;
                            default: return zMax*zMax*zMax/3;
                        }
                    };
                // (x^p + y^p)^q has a kink-like transition at y ~ x that is
                // sharp for small x: split the y-interval there
                // (distance to y_max in the lower part: (y_max - x) + (x - y))
                if (x >= yMax) return tanhSinh(integrand, yMax, h);
                const double ySplit = x;
                const double lower = tanhSinh
                (
                    [&](double y, double yc) { return integrand(y, (yMax - x) + yc); },
                    ySplit, h
                );
                const double upper = tanhSinh
                (
                    [&](double y, double yc) { return integrand(ySplit + y, yc); },
                    yMax - ySplit, h
                );
                return lower + upper;
            },
            1.0, h
        );
    }
    return result;
}

} // End anonymous namespace


TEST(MassProperties, SphereVolumeAndInertiaAreClosedForms)
{
    // V = 4/3 pi R^3, I = 2/5 m R^2; 1e-12: a few ulp of tgamma
    const double R = 0.37, rho = 2500;
    const Superellipsoid s = Superellipsoid::sphere(R);
    const double V = 4.0/3.0*M_PI*R*R*R;
    EXPECT_NEAR(s.volume(), V, 1e-12*V);
    EXPECT_NEAR(s.mass(rho), rho*V, 1e-12*rho*V);
    EXPECT_NEAR(s.volumeEquivalentDiameter(), 2*R, 1e-12*R);
    const Vector3 I = s.principalMoments(rho);
    for (int i = 0; i < 3; ++i) EXPECT_NEAR(I(i), 0.4*rho*V*R*R, 1e-12*rho*V*R*R);
}


TEST(MassProperties, EllipsoidVolumeAndInertiaAreClosedForms)
{
    // V = 4/3 pi abc, I_x' = m (b^2 + c^2)/5 etc.; 1e-12 as above
    const double a = 3, b = 2, c = 0.5, rho = 7;
    const Superellipsoid s(a, b, c, 1, 1);
    const double V = 4.0/3.0*M_PI*a*b*c;
    const double m = rho*V;
    EXPECT_NEAR(s.volume(), V, 1e-12*V);
    const Vector3 I = s.principalMoments(rho);
    EXPECT_NEAR(I(0), m*(b*b + c*c)/5, 1e-12*m*a*a);
    EXPECT_NEAR(I(1), m*(a*a + c*c)/5, 1e-12*m*a*a);
    EXPECT_NEAR(I(2), m*(a*a + b*b)/5, 1e-12*m*a*a);
    EXPECT_NEAR(s.volumeEquivalentDiameter(), 2*std::cbrt(a*b*c), 1e-12*a);
}


TEST(MassProperties, BoxLimitVolumeTendsTo8abcQuadratically)
{
    // Small-eps expansion of the volume formula (log Gamma(1 + x) =
    // -gamma x + zeta(2)/2 x^2 + O(x^3)):
    //   V/(8abc) = 1 - pi^2/6 (eps2^2/4 + eps1^2/2) + O(eps^3)
    // At eps = 1e-3 the O(eps^3) remainder is ~1e-9 relative; the
    // quadratic term itself is 1.2e-6, so this tests the eps -> 0 limit.
    const double a = 3, b = 2, c = 1;
    for (double eps : {1e-3, 2e-3})
    {
        const double ratio = Superellipsoid::volumeFormula(a, b, c, eps, eps)/(8*a*b*c);
        const double expected = 1 - M_PI*M_PI/6*(0.25*eps*eps + 0.5*eps*eps);
        EXPECT_NEAR(ratio, expected, 1e-8) << "eps = " << eps;
        EXPECT_LT(ratio, 1.0);
    }
    // At the smallest admissible eps = 0.1 the shape is a rounded box
    // (V = 0.989 * 8abc); the same expansion holds up to the O(eps^3)
    // remainder, which is ~1.15 eps^3 for eps1 = eps2 (deviations 1.15e-3,
    // 1.5e-4, 9.5e-6 at eps = 0.1, 0.05, 0.02: cubic), hence 1.5e-3
    const Superellipsoid box(a, b, c, 0.1, 0.1);
    const double expected01 = 1 - M_PI*M_PI/6*(0.25*0.01 + 0.5*0.01);
    EXPECT_NEAR(box.volume()/(8*a*b*c), expected01, 1.5e-3);
    EXPECT_LT(box.volume(), 8*a*b*c);
}


TEST(MassProperties, VolumeAndInertiaMatchNumericalIntegration)
{
    // a:b:c = 3:2:1, eps in {0.3, 1.5} (all four pairs). Reference: nested
    // tanh-sinh quadrature of the body in Cartesian coordinates (independent
    // of the Beta-function algebra). Its error is estimated by halving the
    // step: the two levels agree to < 1e-12 relative (asserted; measured
    // ~1e-15), so the 1e-6 relative tolerance is met with a wide
    // margin and we assert 1e-10.
    const double a = 3, b = 2, c = 1, rho = 1.3;
    for (double eps1 : {0.3, 1.5})
    {
        for (double eps2 : {0.3, 1.5})
        {
            const Superellipsoid s(a, b, c, eps1, eps2);
            const Octant coarse = integrateOctant(eps1, eps2, 1.0/16);
            const Octant fine = integrateOctant(eps1, eps2, 1.0/32);
            EXPECT_NEAR(coarse.one, fine.one, 1e-12*fine.one);
            EXPECT_NEAR(coarse.x2, fine.x2, 1e-12*fine.x2);
            EXPECT_NEAR(coarse.z2, fine.z2, 1e-12*fine.z2);

            const double V = 8*a*b*c*fine.one;
            const double Mx = 8*a*a*a*b*c*fine.x2;
            const double My = 8*a*b*b*b*c*fine.y2;
            const double Mz = 8*a*b*c*c*c*fine.z2;
            EXPECT_NEAR(s.volume(), V, 1e-10*V) << eps1 << " " << eps2;
            const Vector3 I = s.principalMoments(rho);
            EXPECT_NEAR(I(0), rho*(My + Mz), 1e-10*rho*(My + Mz)) << eps1 << " " << eps2;
            EXPECT_NEAR(I(1), rho*(Mx + Mz), 1e-10*rho*(Mx + Mz)) << eps1 << " " << eps2;
            EXPECT_NEAR(I(2), rho*(Mx + My), 1e-10*rho*(Mx + My)) << eps1 << " " << eps2;
        }
    }
}


TEST(MassProperties, PrincipalMomentsAreEqs17To19AsPrinted)
{
    // The implementation goes through second moments; this checks that it
    // equals the printed Eqs. (17)-(19) of [Wedel2023] (1e-13: roundoff)
    const double a = 2.5, b = 1.2, c = 0.7, e1 = 0.4, e2 = 1.7, rho = 3;
    const Superellipsoid s(a, b, c, e1, e2);
    const auto B = betaFunction;
    const double pre = 0.5*rho*a*b*c*e1*e2;
    const double inPlane = B(1.5*e2, 0.5*e2)*B(0.5*e1, 2*e1 + 1);
    const double axial = 4*c*c*B(0.5*e2, 0.5*e2 + 1)*B(1.5*e1, e1 + 1);
    const Vector3 I = s.principalMoments(rho);
    EXPECT_NEAR(I(0), pre*(b*b*inPlane + axial), 1e-13*I(0));
    EXPECT_NEAR(I(1), pre*(a*a*inPlane + axial), 1e-13*I(1));
    EXPECT_NEAR(I(2), pre*(a*a + b*b)*inPlane, 1e-13*I(2));
    // Ordering a >= b >= c implies I_x' <= I_y' <= I_z'
    EXPECT_LE(I(0), I(1));
    EXPECT_LE(I(1), I(2));
}


TEST(MassProperties, BetaFunctionMatchesKnownValues)
{
    // B(1/2, 1/2) = pi, B(1, n) = 1/n, B(2, 3) = 1/12; symmetric
    EXPECT_NEAR(betaFunction(0.5, 0.5), M_PI, 1e-14);
    EXPECT_NEAR(betaFunction(1, 7), 1.0/7, 1e-15);
    EXPECT_NEAR(betaFunction(2, 3), 1.0/12, 1e-15);
    EXPECT_NEAR(betaFunction(0.3, 2.1), betaFunction(2.1, 0.3), 1e-14);
    EXPECT_NEAR(std::exp(logBetaFunction(200, 100)), betaFunction(200, 100), 1e-12*betaFunction(200, 100));
    EXPECT_THROW(betaFunction(0, 1), std::domain_error);
}
