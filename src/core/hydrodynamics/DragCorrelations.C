#include "hydrodynamics/DragCorrelations.H"
#include "hydrodynamics/HydrodynamicForces.H"

#include <cmath>
#include <sstream>
#include <stdexcept>

namespace superellipsoid
{

namespace
{

void requireReynolds(double Re, bool allowZero)
{
    if (!std::isfinite(Re) || Re < 0 || (!allowZero && Re == 0))
    {
        std::ostringstream os;
        os.precision(17);
        os << "Reynolds number Re must be finite and " << (allowZero ? ">= 0" : "> 0")
           << ", got " << Re;
        throw std::invalid_argument(os.str());
    }
}

void requireSphericity(double phi)
{
    if (!(phi > 0 && phi <= 1))
    {
        std::ostringstream os;
        os.precision(17);
        os << "sphericity must be in (0, 1], got " << phi;
        throw std::invalid_argument(os.str());
    }
}

} // namespace


DragCorrelationRange validatedRange(DragCorrelation correlation)
{
    switch (correlation)
    {
        case DragCorrelation::Stokes:
            return {0, stokesRegimeReynoldsLimit};
        case DragCorrelation::SchillerNaumann:
        case DragCorrelation::HaiderLevenspiel:
            return {0, schillerNaumannMaxReynolds};
    }
    throw std::invalid_argument("validatedRange: unknown DragCorrelation");
}


DragCorrelation dragCorrelationFromName(const std::string& name)
{
    if (name == "Stokes")
    {
        return DragCorrelation::Stokes;
    }
    if (name == "SchillerNaumann")
    {
        return DragCorrelation::SchillerNaumann;
    }
    if (name == "HaiderLevenspiel")
    {
        return DragCorrelation::HaiderLevenspiel;
    }
    throw std::invalid_argument
    (
        "drag correlation must be Stokes, SchillerNaumann or HaiderLevenspiel, got '"
      + name + "'"
    );
}


std::string dragCorrelationName(DragCorrelation correlation)
{
    switch (correlation)
    {
        case DragCorrelation::Stokes: return "Stokes";
        case DragCorrelation::SchillerNaumann: return "SchillerNaumann";
        case DragCorrelation::HaiderLevenspiel: return "HaiderLevenspiel";
    }
    throw std::invalid_argument("dragCorrelationName: unknown DragCorrelation");
}


double schillerNaumannDragCoefficient(double Re)
{
    requireReynolds(Re, false);
    if (Re > schillerNaumannMaxReynolds)
    {
        return 0.44;
    }
    return 24/Re*(1 + 0.15*std::pow(Re, 0.687));
}


HaiderLevenspielCoefficients haiderLevenspielCoefficients(double phi)
{
    requireSphericity(phi);
    const double phi2 = phi*phi, phi3 = phi2*phi;
    HaiderLevenspielCoefficients k;
    k.A = std::exp(2.3288 - 6.4581*phi + 2.4486*phi2);
    k.B = 0.0964 + 0.5565*phi;
    k.C = std::exp(4.905 - 13.8944*phi + 18.4222*phi2 - 10.2599*phi3);
    k.D = std::exp(1.4681 + 12.2584*phi - 20.7322*phi2 + 15.8855*phi3);
    return k;
}


double haiderLevenspielDragCoefficient(double Re, double sphericity)
{
    requireReynolds(Re, false);
    const HaiderLevenspielCoefficients k = haiderLevenspielCoefficients(sphericity);
    return 24/Re*(1 + k.A*std::pow(Re, k.B)) + k.C/(1 + k.D/Re);
}


double stokesDragCorrection(DragCorrelation correlation, double Re, double sphericity)
{
    requireReynolds(Re, true);
    requireSphericity(sphericity);
    switch (correlation)
    {
        case DragCorrelation::Stokes:
            return 1;
        case DragCorrelation::SchillerNaumann:
            // C_D Re/24, written without the 1/Re so that Re = 0 gives 1
            return Re > schillerNaumannMaxReynolds
                ? 0.44*Re/24
                : 1 + 0.15*std::pow(Re, 0.687);
        case DragCorrelation::HaiderLevenspiel:
        {
            // C_D Re/24 = 1 + A Re^B + C Re^2 / (24 (Re + D)): 1 at Re = 0
            const HaiderLevenspielCoefficients k = haiderLevenspielCoefficients(sphericity);
            return 1 + k.A*std::pow(Re, k.B) + k.C*Re*Re/(24*(Re + k.D));
        }
    }
    throw std::invalid_argument("stokesDragCorrection: unknown DragCorrelation");
}


double diFeliceExponent(double Re)
{
    requireReynolds(Re, false);
    const double x = 1.5 - std::log10(Re);
    return 3.7 - 0.65*std::exp(-0.5*x*x);
}

} // namespace superellipsoid
