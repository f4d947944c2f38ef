#include "hydrodynamics/FiniteReynoldsDrag.H"

#include <cmath>
#include <sstream>
#include <stdexcept>

namespace superellipsoid
{

namespace
{

constexpr double pi = 3.14159265358979323846;

[[noreturn]] void badValue(const char* name, double value, const char* requirement)
{
    std::ostringstream os;
    os.precision(17);
    os << name << " must be " << requirement << ", got " << value;
    throw std::invalid_argument(os.str());
}

} // namespace


DragCorrection dragCorrection
(
    DragCorrelation correlation,
    DenseDragLaw denseLaw,
    double Re,
    double fluidFraction,
    double sphericity
)
{
    const DenseDragFactor h = denseDragFactor(denseLaw, fluidFraction, Re);
    DragCorrection c;
    c.reynolds = h.singleReynolds;
    c.factor = stokesDragCorrection(correlation, c.reynolds, sphericity)*h.factor;
    c.inValidatedRange =
        h.inValidatedRange && validatedRange(correlation).contains(c.reynolds);
    return c;
}


DragCorrection dragCorrection
(
    const FiniteReynoldsSettings& settings,
    double Re,
    double fluidFraction,
    double sphericity
)
{
    // Di Felice (1994) for fluid-only buoyancy (DenseDragLaws.H): isolated
    // law at the superficial Re = eps Re, times eps^-chi. The range checked
    // is the correlation's alone; the overload above also checks the law's.
    DragCorrection c = dragCorrection
    (
        settings.correlation,
        settings.hinderedSettling ? DenseDragLaw::DiFelice : DenseDragLaw::None,
        Re,
        fluidFraction,
        sphericity
    );
    c.inValidatedRange = validatedRange(settings.correlation).contains(c.reynolds);
    return c;
}


FiniteReynoldsDrag finiteReynoldsDrag
(
    const HydrodynamicParticle& particle,
    const FluidProperties& fluid,
    const Matrix3& globalToParticle,
    const Vector3& slip,
    double equivalentDiameter,
    const FiniteReynoldsSettings& settings,
    double fluidFraction,
    double sphericity
)
{
    if (!(equivalentDiameter > 0) || !std::isfinite(equivalentDiameter))
    {
        badValue("equivalentDiameter", equivalentDiameter, "finite and > 0");
    }
    if (!(particle.c > 0) || !std::isfinite(particle.c))
    {
        badValue("particle c", particle.c, "finite and > 0");
    }
    if (!(fluid.kinematicViscosity > 0) || !std::isfinite(fluid.kinematicViscosity))
    {
        badValue("fluid kinematicViscosity", fluid.kinematicViscosity, "finite and > 0");
    }
    if (!(fluid.density > 0) || !std::isfinite(fluid.density))
    {
        badValue("fluid density", fluid.density, "finite and > 0");
    }

    if (!slip.allFinite())
    {
        badValue("slip velocity |u - v|", slip.norm(), "finite");
    }

    FiniteReynoldsDrag D;
    D.correction = dragCorrection
    (
        settings,
        particleReynoldsNumber(slip, equivalentDiameter, fluid.kinematicViscosity),
        fluidFraction,
        sphericity
    );
    // Eqs. (5)-(6) of [Wedel2023] scaled by f: F = f pi mu c R^T K' R (u - v)
    D.dragCoefficient =
        D.correction.factor*pi*fluid.dynamicViscosity()*particle.c
       *toGlobalFrame(particle.tensors.K, globalToParticle);
    D.force = D.dragCoefficient*slip;
    return D;
}

} // namespace superellipsoid
