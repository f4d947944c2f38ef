#include "math/SpecialFunctions.H"

#include <cmath>
#include <stdexcept>

namespace superellipsoid
{

double logBetaFunction(double x, double y)
{
    if (!(x > 0) || !(y > 0))
    {
        throw std::domain_error("logBetaFunction: arguments must be positive");
    }
    return std::lgamma(x) + std::lgamma(y) - std::lgamma(x + y);
}


double betaFunction(double x, double y)
{
    if (!(x > 0) || !(y > 0))
    {
        throw std::domain_error("betaFunction: arguments must be positive");
    }
    // tgamma is accurate to a few ulp and finite for arguments below ~171
    if (x + y < 170.0)
    {
        return std::tgamma(x)*std::tgamma(y)/std::tgamma(x + y);
    }
    return std::exp(logBetaFunction(x, y));
}

} // namespace superellipsoid
