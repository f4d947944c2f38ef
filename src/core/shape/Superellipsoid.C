/*---------------------------------------------------------------------------*\
    Superellipsoid shape: inside-out function (Eq. 3 of [Wedel2023]), its
    analytic derivatives up to third order, mass properties (Eqs. 17-19 of [Wedel2023]),
    bounding sphere and a parametric surface triangulation.
\*---------------------------------------------------------------------------*/
#include "shape/Superellipsoid.H"
#include "math/IntegerPower.H"

#include "math/SpecialFunctions.H"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

namespace superellipsoid
{

namespace
{

//- Exponent 'e' as an integer when it is one (within roundoff), else 0
int integerExponent(double e)
{
    const double n = std::round(e);
    return (n >= 1 && std::abs(e - n) <= 1e-12*e) ? static_cast<int>(n) : 0;
}

//- Dual exponent q - 1 = eps/(2 - eps) of the support map as an integer
//  when it is one (within roundoff, at most 64), else 0
int integerDualExponent(double e)
{
    const double n = std::nearbyint(e);
    return (n >= 1 && n <= 64 && std::abs(e - n) <= 1e-12*e) ? static_cast<int>(n) : 0;
}

//- t^e for t >= 0; integer exponents (n > 0) by multiplication (fast path)
inline double powNonNeg(double t, double e, int n)
{
    return n ? intPow(t, n) : std::pow(t, e);
}

//- Signed power sgn(v)|v|^e; magnitudes below 1e-15 are taken as 0
//  (cos(pi/2) evaluates to ~6e-17, whose power would not vanish for small e)
inline double signedPow(double v, double e)
{
    if (std::abs(v) < 1e-15) return 0.0;
    return std::copysign(std::pow(std::abs(v), e), v);
}

//- max over t in [0, 1] of A t^eps + B (1 - t)^eps for A, B > 0.
//  eps >= 1: convex (or linear) in t, maximum at an end point: max(A, B).
//  eps < 1: concave, unique stationary point where
//  A t^(eps-1) = B (1-t)^(eps-1), i.e. (1-t)/t = (B/A)^(1/(1-eps)).
double maxPowerPair(double A, double B, double eps)
{
    if (eps >= 1) return std::max(A, B);
    const double kInv = std::pow(B/A, 1.0/(1.0 - eps));
    const double t = 1.0/(1.0 + kInv);
    const double oneMinusT = kInv/(1.0 + kInv);
    return std::max({A*std::pow(t, eps) + B*std::pow(oneMinusT, eps), A, B});
}

std::string formatValue(double v)
{
    std::ostringstream os;
    os.precision(15);
    os << v;
    return os.str();
}

[[noreturn]] void invalid(const std::string& what)
{
    throw InvalidShape("superellipsoid: " + what);
}

//- Throws InvalidShape naming the parameter unless a >= b >= c > 0 (finite)
//  and eps1, eps2 in [minSquareness, maxSquareness]
void validateShape(double a, double b, double c, double eps1, double eps2)
{
    const char* names[3] = {"a", "b", "c"};
    const double values[3] = {a, b, c};
    for (int i = 0; i < 3; ++i)
    {
        if (!std::isfinite(values[i]) || !(values[i] > 0))
        {
            invalid
            (
                std::string(names[i]) + " = " + formatValue(values[i])
              + " must satisfy a >= b >= c > 0 (finite)"
            );
        }
    }
    if (!(b <= a))
    {
        invalid
        (
            "b = " + formatValue(b) + " must satisfy a >= b >= c > 0 (a = "
          + formatValue(a) + "); reorder the axes and rotate the orientation"
        );
    }
    if (!(c <= b))
    {
        invalid
        (
            "c = " + formatValue(c) + " must satisfy a >= b >= c > 0 (b = "
          + formatValue(b) + "); reorder the axes and rotate the orientation"
        );
    }
    const char* epsNames[2] = {"eps1", "eps2"};
    const double epsValues[2] = {eps1, eps2};
    for (int i = 0; i < 2; ++i)
    {
        if (!(epsValues[i] >= Superellipsoid::minSquareness && epsValues[i] <= Superellipsoid::maxSquareness))
        {
            invalid
            (
                std::string(epsNames[i]) + " = " + formatValue(epsValues[i])
              + " must lie in [" + formatValue(Superellipsoid::minSquareness) + ", "
              + formatValue(Superellipsoid::maxSquareness) + "]"
            );
        }
    }
}

//- Second moments (int x'^2 dV, int y'^2 dV, int z'^2 dV) of the body
Vector3 secondMomentsFormula(double a, double b, double c, double eps1, double eps2)
{
    // Derivation: with the superellipse "radius" rho,
    // rho^p = |x/a|^p + |y/b|^p, the body is rho^r + |z/c|^r <= 1. The unit superellipse |s|^p + |t|^p <= 1 has
    // area 4/p B(1/p, 1/p + 1) and int s^2 = 4/p B(3/p, 1/p + 1)
    // = eps2/2 B(3 eps2/2, eps2/2); a cross-section at height z scales by
    // R(z) = (1 - |z/c|^r)^(1/r) and int_0^1 (1 - t^r)^(k/r) t^j dt
    // = B((j+1)/r, k/r + 1)/r. Hence
    //   int x'^2 dV = 1/2 a^3 b c eps1 eps2 B(3eps2/2, eps2/2) B(eps1/2, 2eps1 + 1)
    //   int y'^2 dV = same with a^3 b -> a b^3
    //   int z'^2 dV = 2 a b c^3 eps1 eps2 B(eps2/2, eps2/2 + 1) B(3eps1/2, eps1 + 1)
    // which reproduce Eqs. (17)-(19) of [Wedel2023] (Jaklic et al. 2000) as
    // I_x' = rho (int y'^2 + int z'^2), etc.
    const double inPlane =
        0.5*a*b*c*eps1*eps2
       *betaFunction(1.5*eps2, 0.5*eps2)*betaFunction(0.5*eps1, 2*eps1 + 1);
    const double axial =
        2*a*b*c*eps1*eps2
       *betaFunction(0.5*eps2, 0.5*eps2 + 1)*betaFunction(1.5*eps1, eps1 + 1);
    return Vector3(inPlane*a*a, inPlane*b*b, axial*c*c);
}

} // End anonymous namespace


// * * * * * * * * * * * * * * * * Constructors  * * * * * * * * * * * * * * //

Superellipsoid::Superellipsoid(double a, double b, double c, double eps1, double eps2)
:
    a_(a), b_(b), c_(c), eps1_(eps1), eps2_(eps2)
{
    validateShape(a, b, c, eps1, eps2);

    p_ = 2.0/eps2_;
    q_ = eps2_/eps1_;
    r_ = 2.0/eps1_;
    pInt_ = integerExponent(p_);
    qInt_ = integerExponent(q_);
    rInt_ = integerExponent(r_);
    dual1_ = eps1_/(2.0 - eps1_);
    dual2_ = eps2_/(2.0 - eps2_);
    dual1Int_ = integerDualExponent(dual1_);
    dual2Int_ = integerDualExponent(dual2_);

    // S + 1 <= 2^q m^r and |X| <= m^p for the largest scaled coordinate m:
    // keep m^max(p, r) <= 1e200 so that values and derivatives (which add at
    // most a factor coordinateFloor()^-3 = 1e27 and 1/c^3) stay finite.
    farLimit_ = std::pow(10.0, 200.0/std::max(p_, r_));

    volume_ = volumeFormula(a_, b_, c_, eps1_, eps2_);

    secondMoments_ = secondMomentsFormula(a_, b_, c_, eps1_, eps2_);

    // Bounding radius: on the surface (first octant, Barr's form)
    //   |r|^2 = cos^(2eps1)eta [a^2 cos^(2eps2)w + b^2 sin^(2eps2)w]
    //         + c^2 sin^(2eps1)eta.
    // The bracket's maximum over w does not depend on eta and is
    // maxPowerPair(a^2, b^2, eps2) with t = cos^2 w; then the maximum over
    // eta is maxPowerPair(that, c^2, eps1) with t = cos^2 eta. Exact.
    const double rxy2 = maxPowerPair(a_*a_, b_*b_, eps2_);
    boundingRadius_ = std::sqrt(maxPowerPair(rxy2, c_*c_, eps1_))*(1 + 1e-14);
}


Superellipsoid Superellipsoid::sphere(double radius)
{
    return Superellipsoid(radius, radius, radius, 1.0, 1.0);
}


// * * * * * * * * * * * * * * Private Member Functions  * * * * * * * * * * //

double Superellipsoid::valueScaled(const double s[3]) const
{
    const double X = powNonNeg(std::abs(s[0]), p_, pInt_);
    const double Y = powNonNeg(std::abs(s[1]), p_, pInt_);
    const double F = powNonNeg(X + Y, q_, qInt_);
    const double G = powNonNeg(std::abs(s[2]), r_, rInt_);
    return F + G - 1.0;
}


Vector3 Superellipsoid::gradientScaled(const double s[3]) const
{
    // The gradient is continuous (all exponents exceed 1) and is evaluated
    // exactly, also at zero coordinates, where the floored values would be
    // wrong by O(1) for p close to 1: d|y|^p/dy = p|y|^(p-1) is still 0.35 at
    // |y| = 1e-9 for p = 1.05 but 0 at y = 0.
    //   F_x = r u^(q-1) |x|^(p-1) sgn x = r w_x^(1-1/p) u^((r-1)/p) sgn x
    // (both factors <= 1 near the axis, no under- or overflow), 0 at x = 0;
    //   G_z = r |z|^(r-1) sgn z.
    constexpr double floor = coordinateFloor();
    const double p = p_, r = r_;
    const double X = powNonNeg(std::abs(s[0]), p, pInt_);
    const double Y = powNonNeg(std::abs(s[1]), p, pInt_);
    const double u = X + Y;
    Vector3 g = Vector3::Zero();
    if (u > 0)
    {
        const double F = powNonNeg(u, q_, qInt_);
        const double w[2] = {X/u, Y/u};
        for (int i = 0; i < 2; ++i)
        {
            if (std::abs(s[i]) >= floor)
            {
                g(i) = r*F*w[i]/s[i];
            }
            else if (w[i] > 0)
            {
                g(i) = std::copysign
                (
                    r*std::pow(w[i], 1 - 1/p)*std::pow(u, (r - 1)/p), s[i]
                );
            }
        }
    }
    const double z = std::abs(s[2]);
    if (z >= floor)
    {
        g(2) = r*powNonNeg(z, r, rInt_)/s[2];
    }
    else if (z > 0)
    {
        g(2) = std::copysign(r*std::pow(z, r - 1), s[2]);
    }
    return g;
}


// * * * * * * * * * * * * * * * Member Functions  * * * * * * * * * * * * * //

void Superellipsoid::scaledCoordinates(const Vector3& xp, double s[3]) const
{
    s[0] = xp.x()/a_;
    s[1] = xp.y()/b_;
    s[2] = xp.z()/c_;
    double m = std::max({std::abs(s[0]), std::abs(s[1]), std::abs(s[2])});
    if (!std::isfinite(m))
    {
        // x'/a overflowed (huge point, small half-axis): rescale first
        const double M = xp.cwiseAbs().maxCoeff();
        if (!std::isfinite(M)) return;   // non-finite input: not guarded
        s[0] = (xp.x()/M)/a_;
        s[1] = (xp.y()/M)/b_;
        s[2] = (xp.z()/M)/c_;
        m = std::max({std::abs(s[0]), std::abs(s[1]), std::abs(s[2])});
        // the true m is m*M >= m*1e308/... > farLimit_ whenever the division
        // overflowed, so the projection below applies
        const double scale = farLimit_/m;
        for (int i = 0; i < 3; ++i) s[i] *= scale;
        return;
    }
    if (m > farLimit_)
    {
        const double scale = farLimit_/m;
        for (int i = 0; i < 3; ++i) s[i] *= scale;
    }
}


double Superellipsoid::insideOut(const Vector3& xp) const
{
    double s[3];
    scaledCoordinates(xp, s);
    return valueScaled(s);
}


namespace
{

//- Copies of the scaled coordinates s floored away from 0 for the
//  derivatives (sign kept, sign(0) = +1); true if any was floored
bool flooredCoordinates(const double (&s)[3], double floor, double (&t)[3])
{
    bool floored = false;
    for (int i = 0; i < 3; ++i)
    {
        if (std::abs(s[i]) < floor)
        {
            t[i] = std::signbit(s[i]) ? -floor : floor;
            floored = true;
        }
        else
        {
            t[i] = s[i];
        }
    }
    return floored;
}


//- What the second and third derivatives share: the exponents p, r, the
//  terms F, G of S + 1 = F + G, the logarithmic derivatives gx, gy, gz,
//  hx = gx/x, hy = gy/y, cA = (r - p)/r, the floored scaled coordinates t
//  and the inverse half axes
struct ScaledTerms
{
    double p, r, F, G, gx, gy, gz;
    double hx, hy, cA;
    double t[3];
    double ia, ib, ic;
};


//- Second derivatives (scaled): with F' = qF/u, F'' = q(q-1)F/u^2,
//  u_x = pX/x, u_xx = p(p-1)X/x^2 and pq = r:
//    F_xx = F [ (r-p)/r gx^2 + (p-1) gx/x ],  F_xy = F (r-p)/r gx gy,
//    G_zz = G (r-1)/r gz^2
void hessianFromTerms(const ScaledTerms& k, Matrix3& H)
{
    const double r = k.r, F = k.F, G = k.G, gx = k.gx, gy = k.gy, gz = k.gz;
    const double cA = k.cA, hx = k.hx, hy = k.hy;
    const double pm1 = k.p - 1.0;

    const double Fxx = F*(cA*gx*gx + pm1*hx);
    const double Fyy = F*(cA*gy*gy + pm1*hy);
    const double Fxy = F*cA*gx*gy;
    const double Gzz = G*((r - 1.0)/r)*gz*gz;

    H(0, 0) = Fxx*k.ia*k.ia;
    H(1, 1) = Fyy*k.ib*k.ib;
    H(0, 1) = H(1, 0) = Fxy*k.ia*k.ib;
    H(2, 2) = Gzz*k.ic*k.ic;
}


//- Third derivatives (scaled), with F''' = q(q-1)(q-2)F/u^3 and
//  u_xxx = p(p-1)(p-2)X/x^3:
//    F_xxx = F [ cB gx^3 + 3 cA (p-1) gx^2/x + (p-1)(p-2) gx/x^2 ]
//    F_xxy = F [ cB gx^2 gy + cA (p-1) gx gy/x ]
//    G_zzz = G (r-1)(r-2)/r^2 gz^3,      cB = (r-p)(r-2p)/r^2
//  T(i, j, k) stored as T[k](i, j); fully symmetric
void thirdFromTerms(const ScaledTerms& k, Tensor3& T)
{
    const double p = k.p, r = k.r, F = k.F, G = k.G, gx = k.gx, gy = k.gy, gz = k.gz;
    const double cA = k.cA, hx = k.hx, hy = k.hy;
    const double pm1 = p - 1.0;
    const double cB = (r - p)*(r - 2.0*p)/(r*r);
    const double pm1pm2 = pm1*(p - 2.0);

    const double Fxxx = F*(cB*gx*gx*gx + 3*cA*pm1*gx*hx + pm1pm2*hx/k.t[0]);
    const double Fyyy = F*(cB*gy*gy*gy + 3*cA*pm1*gy*hy + pm1pm2*hy/k.t[1]);
    const double Fxxy = F*(cB*gx*gx*gy + cA*pm1*hx*gy);
    const double Fxyy = F*(cB*gx*gy*gy + cA*pm1*gx*hy);
    const double Gzzz = G*((r - 1.0)*(r - 2.0)/(r*r))*gz*gz*gz;

    const double ia = k.ia, ib = k.ib, ic = k.ic;
    T[0](0, 0) = Fxxx*ia*ia*ia;
    T[1](1, 1) = Fyyy*ib*ib*ib;
    const double txxy = Fxxy*ia*ia*ib;
    const double txyy = Fxyy*ia*ib*ib;
    T[0](0, 1) = T[0](1, 0) = T[1](0, 0) = txxy;
    T[1](0, 1) = T[1](1, 0) = T[0](1, 1) = txyy;
    T[2](2, 2) = Gzzz*ic*ic*ic;
}

} // End anonymous namespace


ShapeDerivatives Superellipsoid::derivatives(const Vector3& xp, int order) const
{
    if (order < 0 || order > 3)
    {
        throw std::invalid_argument
        (
            "Superellipsoid::derivatives: order " + std::to_string(order)
          + " not in 0..3"
        );
    }

    ShapeDerivatives d;

    // Scaled coordinates (x'/a, y'/b, z'/c), far points projected radially
    double s[3];
    scaledCoordinates(xp, s);

    if (order == 0)
    {
        d.value = valueScaled(s);
        return d;
    }

    ScaledTerms k;
    const bool floored = flooredCoordinates(s, coordinateFloor(), k.t);
    const double* t = k.t;

    // S + 1 = F(u) + G, u = X + Y
    k.p = p_;
    k.r = r_;
    const double X = powNonNeg(std::abs(t[0]), k.p, pInt_);
    const double Y = powNonNeg(std::abs(t[1]), k.p, pInt_);
    const double u = X + Y;
    k.F = powNonNeg(u, q_, qInt_);
    k.G = powNonNeg(std::abs(t[2]), k.r, rInt_);

    d.value = floored ? valueScaled(s) : k.F + k.G - 1.0;

    // Logarithmic derivatives: w = X/u in [0, 1], gx = F_x/F = r w_x/x,
    // gy = r w_y/y, gz = G_z/G = r/z (all in scaled coordinates)
    const double wx = X/u;
    const double wy = Y/u;
    k.gx = k.r*wx/t[0];
    k.gy = k.r*wy/t[1];
    k.gz = k.r/t[2];

    k.ia = 1.0/a_;
    k.ib = 1.0/b_;
    k.ic = 1.0/c_;

    d.gradient = floored
        ? Vector3(gradientScaled(s).cwiseProduct(Vector3(k.ia, k.ib, k.ic)))
        : Vector3(k.F*k.gx*k.ia, k.F*k.gy*k.ib, k.G*k.gz*k.ic);
    if (order == 1) return d;

    k.cA = (k.r - k.p)/k.r;
    k.hx = k.gx/t[0];
    k.hy = k.gy/t[1];
    hessianFromTerms(k, d.hessian);
    if (order == 2) return d;

    thirdFromTerms(k, d.third);
    return d;
}


Vector3 Superellipsoid::gradient(const Vector3& xp) const
{
    return derivatives(xp, 1).gradient;
}


Matrix3 Superellipsoid::hessian(const Vector3& xp) const
{
    return derivatives(xp, 2).hessian;
}


Tensor3 Superellipsoid::thirdDerivatives(const Vector3& xp) const
{
    return derivatives(xp, 3).third;
}


Vector3 Superellipsoid::unitNormal(const Vector3& xp) const
{
    // Eq. (30) of [Wedel2023], n = grad S/|grad S|; scale by the largest component first so
    // that tiny or huge gradients normalise without underflow or overflow
    const Vector3 g = gradient(xp);
    const double m = g.cwiseAbs().maxCoeff();
    if (!(m > 0) || !std::isfinite(m))
    {
        // Not reachable with the coordinate floor; kept as a safe default
        return Vector3::UnitZ();
    }
    return (g/m).normalized();
}


double Superellipsoid::volume() const
{
    return volume_;
}


double Superellipsoid::volumeFormula
(
    double a, double b, double c, double eps1, double eps2
)
{
    // V = 2 a b c eps1 eps2 B(eps1/2 + 1, eps1) B(eps2/2, eps2/2)
    return
        2*a*b*c*eps1*eps2
       *betaFunction(0.5*eps1 + 1, eps1)*betaFunction(0.5*eps2, 0.5*eps2);
}


double Superellipsoid::volumeEquivalentDiameter() const
{
    return std::cbrt(6.0*volume_/M_PI);
}


double Superellipsoid::mass(double density) const
{
    return density*volume_;
}


Vector3 Superellipsoid::principalMoments(double density) const
{
    // Eqs. (17)-(19) of [Wedel2023]: I_x' = rho int (y'^2 + z'^2) dV, etc.
    const Vector3& M = secondMoments_;
    return density*Vector3(M.y() + M.z(), M.x() + M.z(), M.x() + M.y());
}


double Superellipsoid::boundingRadius() const
{
    return boundingRadius_;
}


Vector3 Superellipsoid::surfacePoint(double eta, double omega) const
{
    const double ce = signedPow(std::cos(eta), eps1_);
    const double se = signedPow(std::sin(eta), eps1_);
    const double cw = signedPow(std::cos(omega), eps2_);
    const double sw = signedPow(std::sin(omega), eps2_);
    return Vector3(a_*ce*cw, b_*ce*sw, c_*se);
}


SurfaceMesh Superellipsoid::triangulate(int nEta, int nOmega) const
{
    if (nEta < 2 || nOmega < 3)
    {
        throw std::invalid_argument
        (
            "Superellipsoid::triangulate: need nEta >= 2 and nOmega >= 3, got "
          + std::to_string(nEta) + " and " + std::to_string(nOmega)
        );
    }

    SurfaceMesh mesh;
    const int nRings = nEta - 1;
    mesh.points.reserve(2 + nRings*nOmega);
    mesh.triangles.reserve(2*nOmega*nEta);

    // Points: south pole, rings from south to north, north pole
    mesh.points.push_back(Vector3(0, 0, -c_));
    for (int i = 1; i <= nRings; ++i)
    {
        const double eta = -0.5*M_PI + M_PI*i/nEta;
        for (int j = 0; j < nOmega; ++j)
        {
            const double omega = -M_PI + 2*M_PI*j/nOmega;
            mesh.points.push_back(surfacePoint(eta, omega));
        }
    }
    mesh.points.push_back(Vector3(0, 0, c_));
    const int south = 0;
    const int north = 1 + nRings*nOmega;
    auto ring = [nOmega](int i, int j) { return 1 + (i - 1)*nOmega + (j % nOmega); };

    // Outward orientation: d/d omega x d/d eta points outwards, so
    // (P(i,j), P(i,j+1), P(i+1,j)) is counter-clockwise seen from outside
    for (int j = 0; j < nOmega; ++j)
    {
        mesh.triangles.push_back({south, ring(1, j + 1), ring(1, j)});
    }
    for (int i = 1; i < nRings; ++i)
    {
        for (int j = 0; j < nOmega; ++j)
        {
            mesh.triangles.push_back({ring(i, j), ring(i, j + 1), ring(i + 1, j)});
            mesh.triangles.push_back({ring(i, j + 1), ring(i + 1, j + 1), ring(i + 1, j)});
        }
    }
    for (int j = 0; j < nOmega; ++j)
    {
        mesh.triangles.push_back({north, ring(nRings, j), ring(nRings, j + 1)});
    }
    return mesh;
}


// * * * * * * * * * * * * * * * Global Functions  * * * * * * * * * * * * * //

ShapeDerivatives toGlobalFrame(const ShapeDerivatives& dp, const Matrix3& R)
{
    ShapeDerivatives d;
    d.value = dp.value;
    d.gradient = R.transpose()*dp.gradient;
    d.hessian = R.transpose()*dp.hessian*R;

    // T(i, j, k) = sum_n R_nk [R^T T'[n] R](i, j)
    Matrix3 rotated[3];
    for (int n = 0; n < 3; ++n)
    {
        rotated[n] = R.transpose()*dp.third[n]*R;
    }
    for (int k = 0; k < 3; ++k)
    {
        d.third[k] = R(0, k)*rotated[0] + R(1, k)*rotated[1] + R(2, k)*rotated[2];
    }
    return d;
}


ShapeDerivatives derivativesGlobal
(
    const Superellipsoid& shape,
    const Matrix3& R,
    const Vector3& rc,
    const Vector3& r,
    int order
)
{
    // Eq. (27) of [Wedel2023]: r' = R (r - r_c)
    return toGlobalFrame(shape.derivatives(R*(r - rc), order), R);
}

} // namespace superellipsoid
