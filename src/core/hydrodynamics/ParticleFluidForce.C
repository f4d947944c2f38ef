#include "hydrodynamics/ParticleFluidForce.H"
#include "hydrodynamics/AddedMass.H"
#include "hydrodynamics/InputChecks.H"
#include "hydrodynamics/Sphericity.H"

#include <Eigen/Eigenvalues>

#include <stdexcept>
#include <utility>

namespace superellipsoid
{

namespace
{

constexpr double pi = 3.14159265358979323846;

HydrodynamicParticle particleOf(const ShapeHydrodynamics& shape)
{
    HydrodynamicParticle particle;
    particle.tensors = shape.tensors;
    particle.c = shape.c;
    particle.volume = shape.volume;
    return particle;
}

//- The isolated particle's law at the slip w (global), fluid as given
OrientedFluidForce isolatedForce
(
    const FluidForceSettings& settings,
    const ShapeHydrodynamics& shape,
    const FluidProperties& fluid,
    const Matrix3& globalToParticle,
    const Vector3& slip
)
{
    const HydrodynamicParticle particle = particleOf(shape);
    switch (settings.incidence)
    {
        case IncidenceLaw::Froehlich:
            if (!shape.prolate)
            {
                throw std::invalid_argument("incidence Froehlich: the shape has no equivalent prolate");
            }
            return froehlichForce
            (
                particle, *shape.prolate, fluid, globalToParticle, slip, settings.liftExponent
            );
        case IncidenceLaw::HoelzerSommerfeld:
            if (!shape.hoelzerSommerfeld)
            {
                throw std::invalid_argument("incidence HoelzerSommerfeld: the shape has no projected-area table");
            }
            return hoelzerSommerfeldForce
            (
                particle, *shape.hoelzerSommerfeld, fluid, globalToParticle, slip,
                settings.hoelzerSommerfeld
            );
        case IncidenceLaw::resolvedTable:
            if (!shape.resolvedTable)
            {
                throw std::invalid_argument("incidence resolvedTable: the shape has no table");
            }
            return resolvedCoefficientForce
            (
                particle, *shape.resolvedTable, fluid, globalToParticle, slip,
                shape.equivalentDiameter
            );
        case IncidenceLaw::Stokes:
        case IncidenceLaw::isotropic:
            break;
    }

    // Brenner's tensor times f(Re) of the correlation (FiniteReynoldsDrag.H)
    FiniteReynoldsSettings isolated = settings.drag;
    isolated.denseDrag = DenseDragLaw::None;
    if (settings.incidence == IncidenceLaw::Stokes)
    {
        isolated.correlation = DragCorrelation::Stokes;
    }
    const FiniteReynoldsDrag D = finiteReynoldsDrag
    (
        particle, fluid, globalToParticle, slip, shape.equivalentDiameter,
        isolated, 1, shape.sphericity
    );
    OrientedFluidForce F;
    F.resistance = D.dragCoefficient;
    F.reynolds = D.correction.reynolds;
    F.inValidatedRange = D.correction.inValidatedRange;
    return F;
}

double largestSymmetricEigenvalue(const Matrix3& A)
{
    const Matrix3 S = 0.5*(A + A.transpose());
    return Eigen::SelfAdjointEigenSolver<Matrix3>(S, Eigen::EigenvaluesOnly).eigenvalues().maxCoeff();
}

} // namespace


void validateFluidForceSettings(const FluidForceSettings& settings)
{
    if
    (
        (
            settings.incidence == IncidenceLaw::Froehlich
         || settings.incidence == IncidenceLaw::resolvedTable
        )
     && settings.pitching != PitchingTorqueModel::none
    )
    {
        throw std::invalid_argument
        (
            "pitchingTorque " + pitchingTorqueModelName(settings.pitching)
          + " with incidence " + incidenceLawName(settings.incidence)
          + ": the law has its own pitching torque"
        );
    }
}


ShapeHydrodynamics shapeHydrodynamics
(
    const Superellipsoid& shape,
    const ResistanceTensors& tensors,
    const FluidForceSettings& settings,
    std::shared_ptr<const ResolvedCoefficientTable> table
)
{
    ShapeHydrodynamics s;
    s.tensors = tensors;
    s.maxK = Eigen::SelfAdjointEigenSolver<Matrix3>(tensors.K).eigenvalues().maxCoeff();
    s.c = shape.c();
    s.volume = shape.volume();
    s.equivalentDiameter = shape.volumeEquivalentDiameter();
    s.sphericity = sphericity(shape);
    s.addedMassCoefficients =
        ellipsoidAddedMassCoefficients(shape.a(), shape.b(), shape.c());
    if (settings.incidence == IncidenceLaw::Froehlich)
    {
        s.prolate = equivalentProlate(shape);
    }
    if (settings.incidence == IncidenceLaw::HoelzerSommerfeld)
    {
        s.hoelzerSommerfeld =
            std::make_shared<const HoelzerSommerfeldShape>(hoelzerSommerfeldShape(shape));
    }
    if (settings.incidence == IncidenceLaw::resolvedTable)
    {
        if (!table)
        {
            throw std::invalid_argument("incidence resolvedTable: no table of resolved coefficients given");
        }
        validateResolvedCoefficientTable(*table);
        requireTableMatchesShape(*table, shape);
        s.resolvedTable = std::move(table);
    }
    return s;
}


ParticleFluidForce particleFluidForce
(
    const FluidForceSettings& settings,
    const ShapeHydrodynamics& shape,
    const FluidProperties& fluid,
    const Matrix3& globalToParticle,
    const Vector3& slip,
    double fluidFraction
)
{
    inputChecks::requireFinite("slip", slip);
    inputChecks::requirePositive("fluid kinematicViscosity", fluid.kinematicViscosity);

    // Voidage function h at the interstitial Re; the isolated law at
    // Re_single = eps Re through the viscosity nu/eps, rescaled by eps
    const double Re =
        particleReynoldsNumber(slip, shape.equivalentDiameter, fluid.kinematicViscosity);
    const DenseDragFactor h = denseDragFactor(settings.drag.denseDrag, fluidFraction, Re);
    const double scale = settings.drag.denseDrag == DenseDragLaw::None ? 1 : fluidFraction;
    FluidProperties single = fluid;
    single.kinematicViscosity = fluid.kinematicViscosity/scale;

    const OrientedFluidForce law = isolatedForce(settings, shape, single, globalToParticle, slip);

    ParticleFluidForce F;
    F.resistance = (h.factor*scale)*law.resistance;
    F.force = F.resistance*slip;
    F.correction.reynolds = law.reynolds;
    F.correction.inValidatedRange = law.inValidatedRange && h.inValidatedRange;
    const bool isotropic =
        settings.incidence == IncidenceLaw::isotropic || settings.incidence == IncidenceLaw::Stokes;
    if (isotropic)
    {
        // A = f h pi mu c R^T K' R: its eigenvalues are those of f h pi mu c K'
        const DragCorrelation correlation =
            settings.incidence == IncidenceLaw::Stokes ? DragCorrelation::Stokes : settings.drag.correlation;
        F.correction.factor =
            stokesDragCorrection(correlation, law.reynolds, shape.sphericity)*h.factor;
        F.maxResistance =
            F.correction.factor*pi*fluid.dynamicViscosity()*shape.c*shape.maxK;
    }
    else
    {
        F.correction.factor = h.factor;
        F.maxResistance = largestSymmetricEigenvalue(F.resistance);
    }
    return F;
}


ParticleFluidTorque particleFluidTorque
(
    const FluidForceSettings& settings,
    const ShapeHydrodynamics& shape,
    const FluidProperties& fluid,
    const Matrix3& globalToParticle,
    const Matrix3& gradU,
    const Vector3& slip
)
{
    inputChecks::requireFinite("slip", slip);

    // Eq. (21) of [Wedel2023]; omega' enters through the damping only
    const HydrodynamicTorque T = hydrodynamicTorque
    (
        particleOf(shape), fluid, globalToParticle, gradU, Vector3::Zero()
    );

    ParticleFluidTorque torque;
    torque.damping = T.dampingParticleFrame;
    if
    (
        settings.incidence == IncidenceLaw::Froehlich
     || settings.incidence == IncidenceLaw::resolvedTable
    )
    {
        // The isolated particle's pitching torque (no dense law for torques)
        torque.pitching =
            isolatedForce(settings, shape, fluid, globalToParticle, slip).torqueParticleFrame;
    }
    else if (settings.pitching != PitchingTorqueModel::none)
    {
        // Particle frame: M_a' = rho_f V diag(k), w' = R w
        const Matrix3 Ma = addedMassTensor
        (
            shape.addedMassCoefficients, fluid.density, shape.volume,
            Matrix3::Identity()
        );
        torque.pitching =
            pitchingTorque(settings.pitching, Ma, globalToParticle*slip);
    }
    torque.atRest = T.atRestParticleFrame + torque.pitching;
    return torque;
}

} // namespace superellipsoid
