#include "hydrodynamics/DenseDragLaws.H"
#include "hydrodynamics/InputChecks.H"
#include "hydrodynamics/DragCorrelations.H"

#include <cmath>
#include <sstream>
#include <stdexcept>

namespace superellipsoid
{

using inputChecks::badValue;

namespace
{

void requireSolidFraction(double phi)
{
    if (!(phi >= 0 && phi < 1))
    {
        badValue("solidFraction", phi, "in [0, 1)");
    }
}

void requireReynolds(double Re)
{
    if (!std::isfinite(Re) || Re < 0)
    {
        badValue("Reynolds number Re", Re, "finite and >= 0");
    }
}

//- Beetstra's inertial term, multiplied through by Re^((1 + 4 phi)/2) so
//  that Re = 0 gives 0 without an infinite power
double beetstraInertialTerm(double phi, double Re)
{
    const double eps = 1 - phi;
    const double p = 0.5 + 2*phi;
    const double Rp = std::pow(Re, p);
    return 0.413/(24*eps*eps)
        *(Re/eps + 3*phi*eps*Re + 8.4*std::pow(Re, 0.657))
        *Rp/(Rp + std::pow(10.0, 3*phi));
}

} // namespace


DenseDragLaw denseDragLawFromName(const std::string& name)
{
    if (name == "none") return DenseDragLaw::None;
    if (name == "DiFelice") return DenseDragLaw::DiFelice;
    if (name == "Beetstra") return DenseDragLaw::Beetstra;
    if (name == "Tenneti") return DenseDragLaw::Tenneti;
    throw std::invalid_argument
    (
        "dense drag law must be none, DiFelice, Beetstra or Tenneti, got '" + name + "'"
    );
}


std::string denseDragLawName(DenseDragLaw law)
{
    switch (law)
    {
        case DenseDragLaw::None: return "none";
        case DenseDragLaw::DiFelice: return "DiFelice";
        case DenseDragLaw::Beetstra: return "Beetstra";
        case DenseDragLaw::Tenneti: return "Tenneti";
    }
    throw std::invalid_argument("denseDragLawName: unknown DenseDragLaw");
}


DenseDragRange validatedRange(DenseDragLaw law)
{
    switch (law)
    {
        case DenseDragLaw::None:
            return {diluteMaxSolidFraction, schillerNaumannMaxReynolds};
        case DenseDragLaw::DiFelice:
        case DenseDragLaw::Beetstra:
        case DenseDragLaw::Tenneti:
            return {1 - minimumFluidFraction, schillerNaumannMaxReynolds};
    }
    throw std::invalid_argument("validatedRange: unknown DenseDragLaw");
}


double beetstraDragForce(double phi, double Re)
{
    requireSolidFraction(phi);
    requireReynolds(Re);
    const double eps = 1 - phi;
    // Stokes part: Carman-Kozeny 10 phi/eps^2 plus the dilute correction
    const double F0 = 10*phi/(eps*eps) + eps*eps*(1 + 1.5*std::sqrt(phi));
    return F0 + beetstraInertialTerm(phi, Re);
}


double tennetiDragForce(double phi, double Re)
{
    requireSolidFraction(phi);
    requireReynolds(Re);
    const double eps = 1 - phi;
    const double eps3 = eps*eps*eps;
    const double phi3 = phi*phi*phi;
    const double isolated = 1 + 0.15*std::pow(Re, 0.687);
    return isolated/eps3
        + 5.81*phi/eps3 + 0.48*std::cbrt(phi)/(eps3*eps)
        + phi3*Re*(0.95 + 0.61*phi3/(eps*eps));
}


DenseDragFactor denseDragFactor(DenseDragLaw law, double eps, double Re)
{
    requireReynolds(Re);
    if (!(eps > 0 && eps <= 1))
    {
        badValue("fluidFraction", eps, "in (0, 1]");
    }

    DenseDragFactor h;
    h.singleReynolds = law == DenseDragLaw::None ? Re : eps*Re;
    const double Rem = eps*Re;
    const double phi = 1 - eps;
    switch (law)
    {
        case DenseDragLaw::None:
            h.factor = 1;
            break;
        case DenseDragLaw::DiFelice:
            // chi(0) = 3.7, the limit of diFeliceExponent as Re -> 0
            h.factor = std::pow(eps, -(Rem > 0 ? diFeliceExponent(Rem) : 3.7));
            break;
        case DenseDragLaw::Beetstra:
            h.factor = beetstraDragForce(phi, Rem)/beetstraDragForce(0, Rem);
            break;
        case DenseDragLaw::Tenneti:
            h.factor = eps*tennetiDragForce(phi, Rem)/(1 + 0.15*std::pow(Rem, 0.687));
            break;
    }
    h.inValidatedRange = validatedRange(law).contains(eps, Rem);
    return h;
}

} // namespace superellipsoid
