#include "hydrodynamics/ParticleFluidForce.H"
#include "hydrodynamics/AddedMass.H"
#include "hydrodynamics/InputChecks.H"
#include "hydrodynamics/Sphericity.H"

#include <Eigen/Eigenvalues>

namespace superellipsoid
{

namespace
{
constexpr double pi = 3.14159265358979323846;
}


ShapeHydrodynamics shapeHydrodynamics
(
    const Superellipsoid& shape,
    const ResistanceTensors& tensors
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
    HydrodynamicParticle particle;
    particle.tensors = shape.tensors;
    particle.c = shape.c;
    particle.volume = shape.volume;

    // Isotropic factor on Brenner's tensor (FiniteReynoldsDrag.H)
    const FiniteReynoldsDrag D = finiteReynoldsDrag
    (
        particle, fluid, globalToParticle, slip, shape.equivalentDiameter,
        settings.drag, fluidFraction, shape.sphericity
    );

    ParticleFluidForce F;
    F.resistance = D.dragCoefficient;
    F.force = D.force;
    F.correction = D.correction;
    F.maxResistance =
        D.correction.factor*pi*fluid.dynamicViscosity()*shape.c*shape.maxK;
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

    HydrodynamicParticle particle;
    particle.tensors = shape.tensors;
    particle.c = shape.c;
    particle.volume = shape.volume;

    // Eq. (21) of [Wedel2023]; omega' enters through the damping only
    const HydrodynamicTorque T = hydrodynamicTorque
    (
        particle, fluid, globalToParticle, gradU, Vector3::Zero()
    );

    ParticleFluidTorque torque;
    torque.damping = T.dampingParticleFrame;
    if (settings.pitching != PitchingTorqueModel::none)
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
