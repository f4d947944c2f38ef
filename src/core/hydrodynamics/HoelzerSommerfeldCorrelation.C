#include "hydrodynamics/HoelzerSommerfeldCorrelation.H"
#include "math/InvalidArgument.H"

#include <cmath>

namespace superellipsoid
{

namespace
{

void requirePositiveFinite(const char* name, double value)
{
    if (!(value > 0) || !std::isfinite(value))
    {
        throwInvalidArgument(name, value, "must be finite and > 0");
    }
}

} // namespace


HoelzerSommerfeldTerms hoelzerSommerfeldTerms
(
    double Re,
    const OrientedSphericities& phi,
    const HoelzerSommerfeldVariant& variant
)
{
    if (!std::isfinite(Re) || Re < 0)
    {
        throwInvalidArgument("Reynolds number Re", Re, "must be finite and >= 0");
    }
    if (!(phi.sphericity > 0 && phi.sphericity <= 1))
    {
        throwInvalidArgument("sphericity Phi", phi.sphericity, "must be in (0, 1]");
    }
    requirePositiveFinite("crosswise sphericity", phi.crosswise);
    requirePositiveFinite("lengthwise sphericity", phi.lengthwise);

    const double first =
        variant.firstTerm == HoelzerSommerfeldFirstTerm::lengthwise
      ? phi.lengthwise : phi.crosswise;
    const double logPhi =
        variant.logarithm == HoelzerSommerfeldLogarithm::log10
      ? std::log10(phi.sphericity) : std::log(phi.sphericity);
    // 0.42 10^(0.4 (-log Phi)^0.2): 0.42 at Phi = 1
    const double newton = 0.42*std::pow(10.0, 0.4*std::pow(-logPhi, 0.2))/phi.crosswise;

    return
    {
        8/std::sqrt(first) + 16/std::sqrt(phi.sphericity),
        3*std::sqrt(Re)/std::pow(phi.sphericity, 0.75) + newton*Re
    };
}


double hoelzerSommerfeldDragCoefficient
(
    double Re,
    const OrientedSphericities& sphericities,
    const HoelzerSommerfeldVariant& variant
)
{
    if (!(Re > 0))
    {
        throwInvalidArgument("Reynolds number Re", Re, "must be finite and > 0");
    }
    const HoelzerSommerfeldTerms t = hoelzerSommerfeldTerms(Re, sphericities, variant);
    return (t.stokes + t.inertial)/Re;
}

} // namespace superellipsoid
