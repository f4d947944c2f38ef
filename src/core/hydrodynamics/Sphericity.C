#include "hydrodynamics/Sphericity.H"
#include "hydrodynamics/CarlsonIntegrals.H"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <vector>

namespace superellipsoid
{

namespace
{

constexpr double pi = 3.14159265358979323846;

//- Gauss-Legendre rule on [0, 1]: nodes and weights
void gaussLegendreUnit(int n, std::vector<double>& x, std::vector<double>& w)
{
    x.assign(n, 0);
    w.assign(n, 0);
    for (int i = 0; i < n; ++i)
    {
        // Root i of P_n by Newton from Tricomi's estimate
        double t = std::cos(pi*(4*i + 3)/(4*n + 2));
        double derivative = 1;
        for (int iter = 0; iter < 50; ++iter)
        {
            double pPrev = 1, p = t;
            for (int k = 2; k <= n; ++k)
            {
                const double pNext = ((2*k - 1)*t*p - (k - 1)*pPrev)/k;
                pPrev = p;
                p = pNext;
            }
            derivative = n*(pPrev - t*p)/(1 - t*t);
            const double step = p/derivative;
            t -= step;
            if (std::abs(step) < 1e-15)
            {
                break;
            }
        }
        x[i] = 0.5*(1 + t);
        w[i] = 1/((1 - t*t)*derivative*derivative);   // [-1,1] weight / 2
    }
}

} // namespace


double carlsonRG(double x, double y, double z)
{
    // DLMF 19.21.10 with the middle argument as z: (x - z)(y - z) <= 0, no
    // cancellation; R_G is symmetric
    double v[3] = {x, y, z};
    std::sort(v, v + 3);
    const double lo = v[0], mid = v[1], hi = v[2];
    if (!(mid > 0))
    {
        std::ostringstream os;
        os << "carlsonRG: arguments must be >= 0 with at most one zero, got "
           << x << ", " << y << ", " << z;
        throw std::invalid_argument(os.str());
    }
    return 0.5*
    (
        mid*carlsonRF(lo, hi, mid)
      - (lo - mid)*(hi - mid)*carlsonRD(lo, hi, mid)/3
      + std::sqrt(lo*hi/mid)
    );
}


double ellipsoidSurfaceArea(double a, double b, double c)
{
    if (!(a > 0 && b > 0 && c > 0) || !std::isfinite(a*b*c))
    {
        std::ostringstream os;
        os << "ellipsoidSurfaceArea: half-axes a, b, c must be finite and > 0, got "
           << a << ", " << b << ", " << c;
        throw std::invalid_argument(os.str());
    }
    // DLMF 19.33.1: A = 3 V R_G(a^-2, b^-2, c^-2), V = 4/3 pi abc
    return 4*pi*a*b*c*carlsonRG(1/(a*a), 1/(b*b), 1/(c*c));
}


double surfaceArea(const Superellipsoid& shape, int nodes)
{
    if (shape.isEllipsoid())
    {
        return ellipsoidSurfaceArea(shape.a(), shape.b(), shape.c());
    }
    if (nodes < 4)
    {
        throw std::invalid_argument
        (
            "surfaceArea: nodes must be >= 4, got " + std::to_string(nodes)
        );
    }

    // One octant: mu = cos(theta) in [0, 1] (Gauss-Legendre), psi in
    // [0, pi/2] (midpoint rule: the integrand is even about both ends)
    std::vector<double> mu, wMu;
    gaussLegendreUnit(nodes, mu, wMu);
    const double r = 2/shape.eps1();
    const double dPsi = 0.5*pi/nodes;
    double area = 0;
    for (int i = 0; i < nodes; ++i)
    {
        const double sinTheta = std::sqrt(1 - mu[i]*mu[i]);
        for (int j = 0; j < nodes; ++j)
        {
            const double psi = (j + 0.5)*dPsi;
            const Vector3 u(sinTheta*std::cos(psi), sinTheta*std::sin(psi), mu[i]);
            // S + 1 at the unit ray, then the surface point x = rho u
            const double rho = std::pow(shape.insideOut(u) + 1, -1/r);
            const Vector3 x = rho*u;
            area += wMu[i]*dPsi*rho*rho*rho*shape.gradient(x).norm()/r;
        }
    }
    return 8*area;
}


double sphericity(const Superellipsoid& shape)
{
    // <= 1 by the isoperimetric inequality; a sphere's 1 may round above
    const double V = shape.volume();
    return std::min(std::cbrt(pi)*std::pow(6*V, 2.0/3)/surfaceArea(shape), 1.0);
}

} // namespace superellipsoid
