#include "contact/SupportPoint.H"
#include "math/IntegerPower.H"

#include <algorithm>
#include <cmath>

namespace superellipsoid
{

namespace
{

//- r^(q - 1) for a ratio r in [0, 1], q = p/(p - 1), p = 2/eps:
//  q - 1 = 1/(p - 1) = eps/(2 - eps). An integer q - 1 (eps = 1.8: 9,
//  eps = 1.5: 3, eps = 4/3: 2) is done by multiplication. The exponent and
//  its integer flag are cached per shape (Superellipsoid::dualExponent).
struct DualExponent
{
    double qm1;
    int qm1Int;

    DualExponent(const Superellipsoid& shape, int k)
    :
        qm1(shape.dualExponent(k)), qm1Int(shape.dualExponentInt(k))
    {}

    double power(double r) const
    {
        if (r == 1.0) return 1.0;
        if (!(r > 0)) return 0.0;
        return qm1Int ? intPow(r, qm1Int) : std::exp(qm1*std::log(r));
    }
};


//- Ratios D_i/m to the largest component m (> 0), the largest exactly 1
//  (one reciprocal instead of a division per component; exact 1 keeps the
//  power of the largest ratio free)
template<int N>
inline void ratiosToLargest(const double D[N], double m, double r[N])
{
    const double im = 1.0/m;
    for (int i = 0; i < N; ++i)
    {
        r[i] = D[i] == m ? 1.0 : D[i]*im;
    }
}


//- Maximiser (u1, u2, u3) >= 0 of D.u on the unit p-ball in 3D and the
//  value ||D||_q (eps1 = eps2: Barr's function is a single p-norm, one
//  normalising power instead of two and the ratio powers independent)
//  Also the shares u_i^p = w_i r_i / s (sum 1), the terms of the p-norm.
//  Reciprocals of m, s and s^(1/p) replace the divisions per component.
inline double pBallSupport3
(
    const double D[3], double eps, const DualExponent& e, double u[3], double share[3]
)
{
    const double m = std::max({D[0], D[1], D[2]});
    if (!(m > 0))
    {
        for (int i = 0; i < 3; ++i) u[i] = share[i] = 0;
        return 0;
    }
    if (eps == 1.0)
    {
        // p = q = 2: |D| directly where D.D is safely in range (no ratios:
        // one division less on the dependency chain), else by the ratios
        const double s2 = D[0]*D[0] + D[1]*D[1] + D[2]*D[2];
        const bool direct = s2 > 1e-280 && s2 < 1e280;
        double r[3];
        if (direct)
        {
            r[0] = D[0], r[1] = D[1], r[2] = D[2];
        }
        else
        {
            ratiosToLargest<3>(D, m, r);
        }
        const double s = direct ? s2 : r[0]*r[0] + r[1]*r[1] + r[2]*r[2];
        const double sq = std::sqrt(s);
        const double isq = 1.0/sq;
        for (int i = 0; i < 3; ++i)
        {
            u[i] = r[i]*isq;
            share[i] = u[i]*u[i];
        }
        return direct ? sq : m*sq;
    }
    double r[3];
    ratiosToLargest<3>(D, m, r);
    const double w[3] = {e.power(r[0]), e.power(r[1]), e.power(r[2])};
    const double s = w[0]*r[0] + w[1]*r[1] + w[2]*r[2];    // ||r||_q^q, in [1, 3]
    // 1/||r||_q^(q-1) = s^(-1/p) directly (no division on the chain)
    const double iSInvP = std::exp(-0.5*eps*std::log(s)), iS = 1.0/s;
    for (int i = 0; i < 3; ++i)
    {
        u[i] = w[i]*iSInvP;
        share[i] = w[i]*r[i]*iS;
    }
    return m*s*iSInvP;
}


//- Maximiser (u1, u2) >= 0 of D.u on the unit p-ball in 2D and the value
//  ||D||_q, for D1, D2 >= 0, q = p/(p-1). eps = 2/p. Shares u_i^p.
inline double pBallSupport2
(
    double D1, double D2, double eps, const DualExponent& e,
    double& u1, double& u2, double share[2]
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
    const double D[2] = {D1, D2};
    double r[2];
    if (eps == 1.0)
    {
        // p = q = 2: |D| directly where D.D is safely in range (as in 3D)
        const double s2 = D1*D1 + D2*D2;
        const bool direct = s2 > 1e-280 && s2 < 1e280;
        if (direct)
        {
            r[0] = D1, r[1] = D2;
        }
        else
        {
            ratiosToLargest<2>(D, m, r);
        }
        const double s = direct ? s2 : r[0]*r[0] + r[1]*r[1];
        const double sq = std::sqrt(s);
        const double isq = 1.0/sq;
        u1 = r[0]*isq;
        u2 = r[1]*isq;
        share[0] = u1*u1;
        share[1] = u2*u2;
        return direct ? sq : m*sq;
    }
    ratiosToLargest<2>(D, m, r);
    // Only the smaller ratio needs a power (the larger is 1)
    const double w1 = e.power(r[0]);
    const double w2 = e.power(r[1]);
    const double s = w1*r[0] + w2*r[1];            // ||r||_q^q, in [1, 2]
    // 1/||r||_q^(q-1) = s^(-1/p) directly (no division on the chain)
    const double iSInvP = std::exp(-0.5*eps*std::log(s)), iS = 1.0/s;
    u1 = w1*iSInvP;
    u2 = w2*iSInvP;
    share[0] = w1*r[0]*iS;
    share[1] = w2*r[1]*iS;
    return m*s*iSInvP;                             // m ||r||_q = m s^(1/q)
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
        g.value = pBallSupport3(D, shape.eps1(), DualExponent(shape, 1), u, share);
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
    const double hxy = pBallSupport2(Dx, Dy, shape.eps2(), DualExponent(shape, 2), ux, uy, inner);
    g.value = pBallSupport2(hxy, Dz, shape.eps1(), DualExponent(shape, 1), rho, w, outer);
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


SupportSecondOrder supportGradientHessian(const Superellipsoid& shape, const SupportGeometry& g)
{
    SupportSecondOrder d;
    const Vector3& x = g.point;
    const double ia = 1.0/shape.a(), ib = 1.0/shape.b(), ic = 1.0/shape.c();
    const double t[3] = {x.x()*ia, x.y()*ib, x.z()*ic};
    constexpr double floor = Superellipsoid::coordinateFloor();
    if (!(std::abs(t[0]) >= floor && std::abs(t[1]) >= floor && std::abs(t[2]) >= floor))
    {
        // Near a symmetry plane: the shape module's floored derivatives
        const ShapeDerivatives full = shape.derivatives(x, 2);
        d.value = full.value;
        d.gradient = full.gradient;
        d.hessian = full.hessian;
        return d;
    }
    // The formulas of Superellipsoid::derivatives with w_x = X/u = shareX,
    // w_y = shareY, F = shareF, G = shareG (on the surface F + G = 1)
    const double p = shape.exponentP(), r = shape.exponentR();
    const double F = g.shareF, G = g.shareG;
    const double it0 = 1.0/t[0], it1 = 1.0/t[1], it2 = 1.0/t[2];
    const double gx = r*g.shareX*it0;
    const double gy = r*g.shareY*it1;
    const double gz = r*it2;

    d.value = F + G - 1.0;
    d.gradient = Vector3(F*gx*ia, F*gy*ib, G*gz*ic);

    const double cA = (r - p)/r;
    const double pm1 = p - 1.0;
    const double hx = gx*it0;
    const double hy = gy*it1;
    Matrix3& H = d.hessian;
    H(0, 0) = F*(cA*gx*gx + pm1*hx)*ia*ia;
    H(1, 1) = F*(cA*gy*gy + pm1*hy)*ib*ib;
    H(0, 1) = H(1, 0) = F*cA*gx*gy*ia*ib;
    H(2, 2) = G*((r - 1.0)/r)*gz*gz*ic*ic;
    H(0, 2) = H(2, 0) = H(1, 2) = H(2, 1) = 0;
    return d;
}


ShapeDerivatives supportDerivatives(const Superellipsoid& shape, const SupportGeometry& g)
{
    const SupportSecondOrder s = supportGradientHessian(shape, g);
    ShapeDerivatives d;
    d.value = s.value;
    d.gradient = s.gradient;
    d.hessian = s.hessian;
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
