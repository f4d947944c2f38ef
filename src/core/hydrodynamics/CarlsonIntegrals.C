#include "hydrodynamics/CarlsonIntegrals.H"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace superellipsoid
{

namespace
{

void requireNonNegativeFinite(const char* function, const char* name, double value)
{
    if (!(value >= 0) || !std::isfinite(value))
    {
        throw std::invalid_argument
        (
            std::string(function) + ": argument " + name
          + " must be finite and >= 0, got " + std::to_string(value)
        );
    }
}

// Upper bound on duplication steps: each step reduces the spread by 4,
// so 100 steps cover any double-precision input range.
constexpr int maxDuplicationSteps = 100;

} // namespace


double carlsonRF(double x, double y, double z)
{
    requireNonNegativeFinite("carlsonRF", "x", x);
    requireNonNegativeFinite("carlsonRF", "y", y);
    requireNonNegativeFinite("carlsonRF", "z", z);
    if ((x == 0) + (y == 0) + (z == 0) > 1)
    {
        throw std::invalid_argument
        (
            "carlsonRF: at most one of x, y, z may be zero, got ("
          + std::to_string(x) + ", " + std::to_string(y) + ", "
          + std::to_string(z) + ")"
        );
    }

    double mu = 0, X = 0, Y = 0, Z = 0;
    for (int step = 0; step < maxDuplicationSteps; ++step)
    {
        mu = (x + y + z)/3;
        X = 1 - x/mu;
        Y = 1 - y/mu;
        Z = 1 - z/mu;
        if (std::max({std::abs(X), std::abs(Y), std::abs(Z)}) < carlsonDuplicationTolerance)
        {
            break;
        }
        const double sx = std::sqrt(x), sy = std::sqrt(y), sz = std::sqrt(z);
        const double lambda = sx*sy + sx*sz + sy*sz;
        x = (x + lambda)/4;
        y = (y + lambda)/4;
        z = (z + lambda)/4;
    }

    // Fifth-order Taylor series in the elementary symmetric functions
    const double E2 = X*Y - Z*Z;
    const double E3 = X*Y*Z;
    return (1 - E2/10 + E3/14 + E2*E2/24 - 3*E2*E3/44)/std::sqrt(mu);
}


double carlsonRD(double x, double y, double z)
{
    requireNonNegativeFinite("carlsonRD", "x", x);
    requireNonNegativeFinite("carlsonRD", "y", y);
    requireNonNegativeFinite("carlsonRD", "z", z);
    if (z == 0 || (x == 0 && y == 0))
    {
        throw std::invalid_argument
        (
            "carlsonRD: need z > 0 and x + y > 0, got ("
          + std::to_string(x) + ", " + std::to_string(y) + ", "
          + std::to_string(z) + ")"
        );
    }

    double sum = 0, factor = 1;
    double mu = 0, X = 0, Y = 0, Z = 0;
    for (int step = 0; step < maxDuplicationSteps; ++step)
    {
        mu = (x + y + 3*z)/5;
        X = 1 - x/mu;
        Y = 1 - y/mu;
        Z = 1 - z/mu;
        if (std::max({std::abs(X), std::abs(Y), std::abs(Z)}) < carlsonDuplicationTolerance)
        {
            break;
        }
        const double sx = std::sqrt(x), sy = std::sqrt(y), sz = std::sqrt(z);
        const double lambda = sx*sy + sx*sz + sy*sz;
        sum += factor/(sz*(z + lambda));
        factor /= 4;
        x = (x + lambda)/4;
        y = (y + lambda)/4;
        z = (z + lambda)/4;
    }

    // Series constants (Carlson 1995): 3/14, 1/6, 9/22, 3/26, 9/88, 9/52
    const double ea = X*Y;
    const double eb = Z*Z;
    const double ec = ea - eb;
    const double ed = ea - 6*eb;
    const double ee = ed + 2*ec;
    const double series =
        1
      + ed*(-3.0/14 + (9.0/88)*ed - (9.0/52)*Z*ee)
      + Z*((1.0/6)*ee + Z*(-(9.0/22)*ec + Z*(3.0/26)*ea));
    return 3*sum + factor*series/(mu*std::sqrt(mu));
}

} // namespace superellipsoid
