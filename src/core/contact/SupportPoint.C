#include "contact/SupportPoint.H"

#include <algorithm>
#include <cmath>

namespace superellipsoid
{

namespace
{

//- Largest integer exponent done by repeated multiplication
constexpr double maxIntegerExponent = 64;

//- t^n for t >= 0 and integer n >= 1 by binary powering
inline double intPow(double t, int n)
{
    double result = 1.0;
    for (;;)
    {
        if (n & 1) result *= t;
        n >>= 1;
        if (!n) return result;
        t *= t;
    }
}

//- r^(q - 1) for a ratio r in [0, 1], q = p/(p - 1), p = 2/eps:
//  q - 1 = 1/(p - 1) = eps/(2 - eps). An integer q - 1 (eps = 1.8: 9,
//  eps = 1.5: 3, eps = 4/3: 2) is done by multiplication.
struct DualExponent
{
    double qm1;
    int qm1Int;

    explicit DualExponent(double eps)
    :
        qm1(eps/(2.0 - eps)), qm1Int(0)
    {
        const double n = std::nearbyint(qm1);
        if (n >= 1 && n <= maxIntegerExponent && std::abs(qm1 - n) <= 1e-12*qm1)
        {
            qm1Int = int(n);
        }
    }

    double power(double r) const
    {
        if (r == 1.0) return 1.0;
        if (!(r > 0)) return 0.0;
        return qm1Int ? intPow(r, qm1Int) : std::pow(r, qm1);
    }
};


//- Maximiser (u1, u2, u3) >= 0 of D.u on the unit p-ball in 3D and the
//  value ||D||_q (eps1 = eps2: Barr's function is a single p-norm, one
//  normalising power instead of two and the ratio powers independent)
inline double pBallSupport3(const double D[3], double eps, double u[3])
{
    const double m = std::max({D[0], D[1], D[2]});
    if (!(m > 0))
    {
        u[0] = u[1] = u[2] = 0;
        return 0;
    }
    const double r[3] = {D[0]/m, D[1]/m, D[2]/m};
    if (eps == 1.0)
    {
        const double sq = std::sqrt(r[0]*r[0] + r[1]*r[1] + r[2]*r[2]);
        for (int i = 0; i < 3; ++i) u[i] = r[i]/sq;
        return m*sq;
    }
    const DualExponent e(eps);
    const double w[3] = {e.power(r[0]), e.power(r[1]), e.power(r[2])};
    const double s = w[0]*r[0] + w[1]*r[1] + w[2]*r[2];    // ||r||_q^q, in [1, 3]
    const double sInvP = std::pow(s, 0.5*eps);             // ||r||_q^(q-1)
    for (int i = 0; i < 3; ++i) u[i] = w[i]/sInvP;
    return m*s/sInvP;
}


//- Maximiser (u1, u2) >= 0 of D.u on the unit p-ball in 2D and the value
//  ||D||_q, for D1, D2 >= 0, q = p/(p-1). eps = 2/p.
inline double pBallSupport2(double D1, double D2, double eps, double& u1, double& u2)
{
    const double m = D1 > D2 ? D1 : D2;
    if (!(m > 0))
    {
        u1 = 0;
        u2 = 0;
        return 0;
    }
    const double r1 = D1/m;
    const double r2 = D2/m;
    if (eps == 1.0)
    {
        // p = q = 2
        const double s = r1*r1 + r2*r2;
        const double sq = std::sqrt(s);
        u1 = r1/sq;
        u2 = r2/sq;
        return m*sq;
    }
    // Only the smaller ratio needs a power (the larger is 1)
    const DualExponent e(eps);
    const double w1 = e.power(r1);
    const double w2 = e.power(r2);
    const double s = w1*r1 + w2*r2;                // ||r||_q^q, in [1, 2]
    const double sInvP = std::pow(s, 0.5*eps);     // ||r||_q^(q-1) = s^(1/p)
    u1 = w1/sInvP;
    u2 = w2/sInvP;
    return m*s/sInvP;                              // m ||r||_q = m s^(1/q)
}

} // namespace


Vector3 supportPoint(const Superellipsoid& shape, const Vector3& d, double& value)
{
    const double Dx = shape.a()*std::abs(d.x());
    const double Dy = shape.b()*std::abs(d.y());
    const double Dz = shape.c()*std::abs(d.z());

    if (shape.eps1() == shape.eps2())
    {
        // Single p-ball (cube-like, diamond-like, ellipsoids)
        const double D[3] = {Dx, Dy, Dz};
        double u[3];
        value = pBallSupport3(D, shape.eps1(), u);
        return Vector3
        (
            std::copysign(shape.a()*u[0], d.x()),
            std::copysign(shape.b()*u[1], d.y()),
            std::copysign(shape.c()*u[2], d.z())
        );
    }

    // Inner (x'-y') p2-ball, then outer (rho, z') p1-ball
    double ux, uy, rho, w;
    const double hxy = pBallSupport2(Dx, Dy, shape.eps2(), ux, uy);
    value = pBallSupport2(hxy, Dz, shape.eps1(), rho, w);

    return Vector3
    (
        std::copysign(shape.a()*rho*ux, d.x()),
        std::copysign(shape.b()*rho*uy, d.y()),
        std::copysign(shape.c()*w, d.z())
    );
}


Vector3 supportPoint(const Superellipsoid& shape, const Vector3& d)
{
    double h;
    return supportPoint(shape, d, h);
}


double supportValue(const Superellipsoid& shape, const Vector3& d)
{
    double h;
    supportPoint(shape, d, h);
    return h;
}


Vector3 radialProjection(const Superellipsoid& shape, const Vector3& xp)
{
    const double s1 = shape.insideOut(xp) + 1.0;
    if (!(s1 > 0) || !std::isfinite(s1))
    {
        return xp;
    }
    return xp*std::pow(s1, -0.5*shape.eps1());
}

} // namespace superellipsoid
