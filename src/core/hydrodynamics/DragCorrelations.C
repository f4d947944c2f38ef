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

} // namespace


DragCorrelationRange validatedRange(DragCorrelation correlation)
{
    switch (correlation)
    {
        case DragCorrelation::Stokes:
            return {0, stokesRegimeReynoldsLimit};
        case DragCorrelation::SchillerNaumann:
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
    throw std::invalid_argument
    (
        "drag correlation must be Stokes or SchillerNaumann, got '" + name + "'"
    );
}


std::string dragCorrelationName(DragCorrelation correlation)
{
    switch (correlation)
    {
        case DragCorrelation::Stokes: return "Stokes";
        case DragCorrelation::SchillerNaumann: return "SchillerNaumann";
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


double stokesDragCorrection(DragCorrelation correlation, double Re)
{
    requireReynolds(Re, true);
    switch (correlation)
    {
        case DragCorrelation::Stokes:
            return 1;
        case DragCorrelation::SchillerNaumann:
            // C_D Re/24, written without the 1/Re so that Re = 0 gives 1
            return Re > schillerNaumannMaxReynolds
                ? 0.44*Re/24
                : 1 + 0.15*std::pow(Re, 0.687);
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
