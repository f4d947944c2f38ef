#include "hydrodynamics/IncidenceLaw.H"
#include "hydrodynamics/DragCorrelations.H"
#include "hydrodynamics/HydrodynamicForces.H"
#include "hydrodynamics/InputChecks.H"

#include <stdexcept>

namespace superellipsoid
{

IncidenceLaw incidenceLawFromName(const std::string& name)
{
    if (name == "Stokes")
    {
        return IncidenceLaw::Stokes;
    }
    if (name == "isotropic")
    {
        return IncidenceLaw::isotropic;
    }
    if (name == "Froehlich")
    {
        return IncidenceLaw::Froehlich;
    }
    if (name == "HoelzerSommerfeld")
    {
        return IncidenceLaw::HoelzerSommerfeld;
    }
    if (name == "resolvedTable")
    {
        return IncidenceLaw::resolvedTable;
    }
    throw std::invalid_argument
    (
        "incidence law must be Stokes, isotropic, Froehlich, HoelzerSommerfeld or resolvedTable, got '"
      + name + "'"
    );
}


std::string incidenceLawName(IncidenceLaw law)
{
    switch (law)
    {
        case IncidenceLaw::Stokes: return "Stokes";
        case IncidenceLaw::isotropic: return "isotropic";
        case IncidenceLaw::Froehlich: return "Froehlich";
        case IncidenceLaw::HoelzerSommerfeld: return "HoelzerSommerfeld";
        case IncidenceLaw::resolvedTable: return "resolvedTable";
    }
    throw std::invalid_argument("incidenceLawName: unknown IncidenceLaw");
}


IncidenceLawRange validatedRange(IncidenceLaw law)
{
    constexpr double checkedAspectRatio = 2.5;   // the DNS shape (docs/hydrodynamics.md)
    constexpr double checkedMaxReynolds = 100;
    switch (law)
    {
        case IncidenceLaw::Stokes:
            return {0, stokesRegimeReynoldsLimit};
        case IncidenceLaw::isotropic:
            return {0, schillerNaumannMaxReynolds};
        case IncidenceLaw::Froehlich:
        case IncidenceLaw::HoelzerSommerfeld:
            return {0, checkedMaxReynolds, 1, checkedAspectRatio};
        case IncidenceLaw::resolvedTable:
            // The table's own range, checked by the law (ResolvedCoefficientForce.H)
            return {0, std::numeric_limits<double>::infinity()};
    }
    throw std::invalid_argument("validatedRange: unknown IncidenceLaw");
}


void checkOrientedLawInput
(
    const HydrodynamicParticle& particle,
    const FluidProperties& fluid,
    const Matrix3& globalToParticle,
    const Vector3& slip
)
{
    using inputChecks::requireFinite;
    using inputChecks::requirePositive;
    requirePositive("particle c", particle.c);
    requirePositive("fluid density", fluid.density);
    requirePositive("fluid kinematicViscosity", fluid.kinematicViscosity);
    requireFinite("resistance tensors K", particle.tensors.K);
    requireFinite("globalToParticle", globalToParticle);
    requireFinite("slip", slip);
}

} // namespace superellipsoid
