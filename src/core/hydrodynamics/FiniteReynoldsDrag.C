#include "hydrodynamics/FiniteReynoldsDrag.H"
#include "hydrodynamics/InputChecks.H"

#include <cmath>
#include <sstream>
#include <stdexcept>

namespace superellipsoid
{

using inputChecks::badValue;

namespace
{

constexpr double pi = 3.14159265358979323846;

} // namespace


DragCorrection dragCorrection
(
    const FiniteReynoldsSettings& settings,
    double Re,
    double fluidFraction,
    double sphericity
)
{
    const DenseDragFactor h = denseDragFactor(settings.denseDrag, fluidFraction, Re);
    DragCorrection c;
    c.reynolds = h.singleReynolds;
    c.factor = stokesDragCorrection(settings.correlation, c.reynolds, sphericity)*h.factor;
    c.inValidatedRange =
        h.inValidatedRange && validatedRange(settings.correlation).contains(c.reynolds);
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
