#include "contact/SupportPoint.H"

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
    // q - 1 = 1/(p - 1) = eps/(2 - eps);  1/p = eps/2. Only the smaller
    // ratio needs a power (the larger is 1); an integer q - 1 (eps = 1.8:
    // 9, eps = 1.5: 3, eps = 4/3: 2) is done by multiplication.
    const double qm1 = eps/(2.0 - eps);
    const double qm1Int = std::nearbyint(qm1);
    const bool integerQm1 = qm1Int >= 1 && qm1Int <= maxIntegerExponent
                         && std::abs(qm1 - qm1Int) <= 1e-12*qm1;
    const auto power = [&](double r)
    {
        if (r == 1.0) return 1.0;
        if (!(r > 0)) return 0.0;
        return integerQm1 ? intPow(r, int(qm1Int)) : std::pow(r, qm1);
    };
    const double w1 = power(r1);
    const double w2 = power(r2);
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
