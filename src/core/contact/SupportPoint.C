#include "contact/SupportPoint.H"
#include "math/IntegerPower.H"

#include <algorithm>
#include <cmath>

namespace superellipsoid
{

namespace
{

//- Largest integer exponent done by repeated multiplication
constexpr double maxIntegerExponent = 64;

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
//  Also the shares u_i^p = w_i r_i / s (sum 1), the terms of the p-norm.
inline double pBallSupport3(const double D[3], double eps, double u[3], double share[3])
{
    const double m = std::max({D[0], D[1], D[2]});
    if (!(m > 0))
    {
        for (int i = 0; i < 3; ++i) u[i] = share[i] = 0;
        return 0;
    }
    const double r[3] = {D[0]/m, D[1]/m, D[2]/m};
    if (eps == 1.0)
    {
        const double s = r[0]*r[0] + r[1]*r[1] + r[2]*r[2];
        const double sq = std::sqrt(s);
        for (int i = 0; i < 3; ++i)
        {
            u[i] = r[i]/sq;
            share[i] = r[i]*r[i]/s;
        }
        return m*sq;
    }
    const DualExponent e(eps);
    const double w[3] = {e.power(r[0]), e.power(r[1]), e.power(r[2])};
    const double s = w[0]*r[0] + w[1]*r[1] + w[2]*r[2];    // ||r||_q^q, in [1, 3]
    const double sInvP = std::pow(s, 0.5*eps);             // ||r||_q^(q-1)
    for (int i = 0; i < 3; ++i)
    {
        u[i] = w[i]/sInvP;
        share[i] = w[i]*r[i]/s;
    }
    return m*s/sInvP;
}


//- Maximiser (u1, u2) >= 0 of D.u on the unit p-ball in 2D and the value
//  ||D||_q, for D1, D2 >= 0, q = p/(p-1). eps = 2/p. Shares u_i^p.
inline double pBallSupport2
(
    double D1, double D2, double eps, double& u1, double& u2, double share[2]
)
{
    const double m = D1 > D2 ? D1 : D2;
    if (!(m > 0))
    {
        u1 = 0;
        u2 = 0;
        share[0] = share[1] = 0;
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
        share[0] = r1*r1/s;
        share[1] = r2*r2/s;
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
    share[0] = w1*r1/s;
    share[1] = w2*r2/s;
    return m*s/sInvP;                              // m ||r||_q = m s^(1/q)
}

} // namespace


SupportGeometry supportGeometry(const Superellipsoid& shape, const Vector3& d)
{
    SupportGeometry g;
    const double Dx = shape.a()*std::abs(d.x());
    const double Dy = shape.b()*std::abs(d.y());
    const double Dz = shape.c()*std::abs(d.z());

    if (shape.eps1() == shape.eps2())
    {
        // Single p-ball (cube-like, diamond-like, ellipsoids): q = 1,
        // F = X + Y
        const double D[3] = {Dx, Dy, Dz};
        double u[3], share[3];
        g.value = pBallSupport3(D, shape.eps1(), u, share);
        g.point = Vector3
        (
            std::copysign(shape.a()*u[0], d.x()),
            std::copysign(shape.b()*u[1], d.y()),
            std::copysign(shape.c()*u[2], d.z())
        );
        g.shareF = share[0] + share[1];
        g.shareG = share[2];
        if (g.shareF > 0)
        {
            g.shareX = share[0]/g.shareF;
            g.shareY = share[1]/g.shareF;
        }
        return g;
    }

    // Inner (x'-y') p2-ball, then outer (rho, z') p1-ball
    double ux, uy, rho, w, inner[2], outer[2];
    const double hxy = pBallSupport2(Dx, Dy, shape.eps2(), ux, uy, inner);
    g.value = pBallSupport2(hxy, Dz, shape.eps1(), rho, w, outer);
    g.point = Vector3
    (
        std::copysign(shape.a()*rho*ux, d.x()),
        std::copysign(shape.b()*rho*uy, d.y()),
        std::copysign(shape.c()*w, d.z())
    );
    g.shareX = inner[0];
    g.shareY = inner[1];
    g.shareF = outer[0];
    g.shareG = outer[1];
    return g;
}


ShapeDerivatives supportDerivatives(const Superellipsoid& shape, const SupportGeometry& g)
{
    const Vector3& x = g.point;
    const double t[3] = {x.x()/shape.a(), x.y()/shape.b(), x.z()/shape.c()};
    constexpr double floor = Superellipsoid::coordinateFloor();
    if (!(std::abs(t[0]) >= floor && std::abs(t[1]) >= floor && std::abs(t[2]) >= floor))
    {
        // Near a symmetry plane: the shape module's floored derivatives
        return shape.derivatives(x, 2);
    }
    // The formulas of Superellipsoid::derivatives with w_x = X/u = shareX,
    // w_y = shareY, F = shareF, G = shareG (on the surface F + G = 1)
    const double p = shape.exponentP(), r = shape.exponentR();
    const double F = g.shareF, G = g.shareG;
    const double gx = r*g.shareX/t[0];
    const double gy = r*g.shareY/t[1];
    const double gz = r/t[2];
    const double ia = 1.0/shape.a(), ib = 1.0/shape.b(), ic = 1.0/shape.c();

    ShapeDerivatives d;
    d.value = F + G - 1.0;
    d.gradient = Vector3(F*gx*ia, F*gy*ib, G*gz*ic);

    const double cA = (r - p)/r;
    const double pm1 = p - 1.0;
    const double hx = gx/t[0];
    const double hy = gy/t[1];
    Matrix3& H = d.hessian;
    H(0, 0) = F*(cA*gx*gx + pm1*hx)*ia*ia;
    H(1, 1) = F*(cA*gy*gy + pm1*hy)*ib*ib;
    H(0, 1) = H(1, 0) = F*cA*gx*gy*ia*ib;
    H(2, 2) = G*((r - 1.0)/r)*gz*gz*ic*ic;
    return d;
}


Vector3 supportPoint(const Superellipsoid& shape, const Vector3& d, double& value)
{
    const SupportGeometry g = supportGeometry(shape, d);
    value = g.value;
    return g.point;
}


Vector3 supportPoint(const Superellipsoid& shape, const Vector3& d)
{
    return supportGeometry(shape, d).point;
}


double supportValue(const Superellipsoid& shape, const Vector3& d)
{
    return supportGeometry(shape, d).value;
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
