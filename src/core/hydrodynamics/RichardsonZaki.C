#include "hydrodynamics/RichardsonZaki.H"
#include "hydrodynamics/InputChecks.H"

#include <cmath>
#include <sstream>
#include <stdexcept>

namespace superellipsoid
{

using inputChecks::badValue;
using inputChecks::requirePositive;

double richardsonZakiExponent(double Ret)
{
    if (!(Ret >= 0) || !std::isfinite(Ret))
    {
        badValue("terminal Reynolds number Re_t", Ret, "finite and >= 0");
    }
    const double r = std::pow(Ret, 0.75);
    return (4.7 + 0.41*r)/(1 + 0.175*r);
}


double richardsonZakiVelocity(double ut, double Ret, double eps)
{
    requirePositive("terminalVelocity", ut);
    if (!(eps > 0 && eps <= 1))
    {
        badValue("fluidFraction", eps, "in (0, 1]");
    }
    return ut*std::pow(eps, richardsonZakiExponent(Ret));
}


double richardsonZakiFluidFraction(double ut, double Ret, double U)
{
    requirePositive("terminalVelocity", ut);
    if (!(U > 0 && U <= ut))
    {
        badValue("superficial velocity U", U, "in (0, terminalVelocity]");
    }
    return std::pow(U/ut, 1/richardsonZakiExponent(Ret));
}


double terminalReynoldsNumber(double Ar, DragCorrelation correlation, double sphericity)
{
    requirePositive("archimedesNumber", Ar);
    // f >= 1 for every correlation: the Stokes root Ar/18 bounds Re_t above
    double lo = 0, hi = Ar/18;
    while (hi - lo > 1e-14*hi)
    {
        const double Re = 0.5*(lo + hi);
        (18*stokesDragCorrection(correlation, Re, sphericity)*Re < Ar ? lo : hi) = Re;
    }
    return 0.5*(lo + hi);
}

} // namespace superellipsoid
