#include "hydrodynamics/HydrodynamicForces.H"
#include "hydrodynamics/InputChecks.H"

#include <Eigen/Dense>

#include <cmath>
#include <sstream>
#include <stdexcept>

namespace superellipsoid
{

namespace
{

constexpr double pi = 3.14159265358979323846;

using inputChecks::requirePositive;
using inputChecks::requireFinite;

void validate(const HydrodynamicParticle& particle, const FluidProperties& fluid)
{
    requirePositive("particle c", particle.c);
    requirePositive("particle volume", particle.volume);
    requirePositive("particle density", particle.density);
    requirePositive("fluid density", fluid.density);
    requirePositive("fluid kinematicViscosity", fluid.kinematicViscosity);
    requireFinite("resistance tensors K", particle.tensors.K);
    requireFinite("resistance tensors Omega", particle.tensors.Omega);
    requireFinite("resistance tensors Pi", particle.tensors.Pi);
}

} // namespace


Matrix3 toGlobalFrame(const Matrix3& particleTensor, const Matrix3& globalToParticle)
{
    return globalToParticle.transpose()*particleTensor*globalToParticle;
}


Matrix3 translationalResistance
(
    const Matrix3& K,
    double c,
    double dynamicViscosity,
    const Matrix3& globalToParticle
)
{
    return pi*dynamicViscosity*c*toGlobalFrame(K, globalToParticle);
}


HydrodynamicForce hydrodynamicForce
(
    const HydrodynamicParticle& particle,
    const FluidProperties& fluid,
    const Matrix3& globalToParticle,
    const FlowAtParticle& flow,
    const ForceTerms& terms
)
{
    validate(particle, fluid);
    requireFinite("globalToParticle", globalToParticle);
    requireFinite("fluidVelocity", flow.fluidVelocity);
    requireFinite("particleVelocity", flow.particleVelocity);
    requireFinite("fluidMaterialAcceleration", flow.fluidMaterialAcceleration);
    requireFinite("fluidAccelerationAlongParticle", flow.fluidAccelerationAlongParticle);
    requireFinite("gravity", flow.gravity);

    const double Vp = particle.volume;
    const double rhoF = fluid.density;
    HydrodynamicForce F;
    F.effectiveMass = particle.density*Vp;

    if (terms.drag)
    {
        // Eqs. (5)-(6) of [Wedel2023]: F_D = pi rho_f nu_f c R^T K' R (u - v)
        F.dragCoefficient = translationalResistance
        (
            particle.tensors.K, particle.c, fluid.dynamicViscosity(), globalToParticle
        );
        F.drag = F.dragCoefficient*(flow.fluidVelocity - flow.particleVelocity);
    }
    if (terms.gravityBuoyancy)
    {
        // Eq. (7) of [Wedel2023], first term: V_p (rho_p - rho_f) g
        F.gravityBuoyancy = Vp*(particle.density - rhoF)*flow.gravity;
    }
    if (terms.pressureGradient)
    {
        // Eq. (7) of [Wedel2023], second term: V_p rho_f Du/Dt
        F.pressureGradient = Vp*rhoF*flow.fluidMaterialAcceleration;
    }
    if (terms.addedMass)
    {
        // Eq. (7) of [Wedel2023], third term: -1/2 V_p rho_f (dv/dt - du/dt); dv/dt moved left
        F.addedMass = 0.5*Vp*rhoF*flow.fluidAccelerationAlongParticle;
        F.effectiveMass += 0.5*Vp*rhoF;
    }
    F.total = F.drag + F.gravityBuoyancy + F.pressureGradient + F.addedMass;
    return F;
}


Vector3 implicitVelocityUpdate
(
    const HydrodynamicForce& force,
    const Vector3& fluidVelocity,
    const Vector3& particleVelocity,
    double dt
)
{
    requirePositive("dt", dt);
    requirePositive("effectiveMass", force.effectiveMass);
    // (m I + dt C) v_new = m v + dt (F_other + C u)
    const Vector3 other = force.total - force.drag;
    const Matrix3 lhs = force.effectiveMass*Matrix3::Identity() + dt*force.dragCoefficient;
    const Vector3 rhs =
        force.effectiveMass*particleVelocity
      + dt*(other + force.dragCoefficient*fluidVelocity);
    // lhs is symmetric positive definite with condition number <= 1 +
    // dt |C|/m: the closed-form 3x3 inverse (cofactors) is accurate and
    // costs a fraction of a general LU (this solve runs once per particle
    // and time step)
    return lhs.inverse()*rhs;
}


Vector3 implicitVelocityChange
(
    const HydrodynamicForce& force,
    const Vector3& fluidVelocity,
    const Vector3& particleVelocity,
    double dt
)
{
    requirePositive("dt", dt);
    requirePositive("effectiveMass", force.effectiveMass);
    const Vector3 other = force.total - force.drag;
    const Matrix3 lhs = force.effectiveMass*Matrix3::Identity() + dt*force.dragCoefficient;
    const Vector3 rhs = dt*(other + force.dragCoefficient*(fluidVelocity - particleVelocity));
    return lhs.inverse()*rhs;
}


Vector3 terminalVelocity
(
    const HydrodynamicParticle& particle,
    const FluidProperties& fluid,
    const Matrix3& globalToParticle,
    const Vector3& gravity
)
{
    validate(particle, fluid);
    requireFinite("gravity", gravity);
    validateResistanceTensors(particle.tensors);
    // Eq. (7) of [Wedel2023] at steady state: 0 = V_p (rho_p - rho_f) g - C v
    const Matrix3 C = translationalResistance
    (
        particle.tensors.K, particle.c, fluid.dynamicViscosity(), globalToParticle
    );
    return C.llt().solve(particle.volume*(particle.density - fluid.density)*gravity);
}


FlowGradientInParticleFrame flowGradientInParticleFrame
(
    const Matrix3& gradU,
    const Matrix3& globalToParticle
)
{
    requireFinite("gradU", gradU);
    requireFinite("globalToParticle", globalToParticle);
    // L(i, j) = d u_i/d x_j = gradU(j, i); L' = R L R^T
    const Matrix3 L = globalToParticle*gradU.transpose()*globalToParticle.transpose();
    FlowGradientInParticleFrame g;
    // Eq. (22) of [Wedel2023]
    g.strainRate <<
        0.5*(L(2, 1) + L(1, 2)),
        0.5*(L(0, 2) + L(2, 0)),
        0.5*(L(1, 0) + L(0, 1));
    // Eq. (23) of [Wedel2023]
    g.spin <<
        0.5*(L(2, 1) - L(1, 2)),
        0.5*(L(0, 2) - L(2, 0)),
        0.5*(L(1, 0) - L(0, 1));
    return g;
}


HydrodynamicTorque hydrodynamicTorque
(
    const HydrodynamicParticle& particle,
    const FluidProperties& fluid,
    const Matrix3& globalToParticle,
    const Matrix3& gradU,
    const Vector3& angularVelocityParticleFrame
)
{
    validate(particle, fluid);
    requireFinite("angularVelocity", angularVelocityParticleFrame);
    const FlowGradientInParticleFrame g = flowGradientInParticleFrame(gradU, globalToParticle);

    // Eq. (21) of [Wedel2023]
    const double c = particle.c;
    const double scale = pi*fluid.dynamicViscosity()*c*c*c;
    HydrodynamicTorque T;
    T.dampingParticleFrame = scale*particle.tensors.Omega;
    T.dampingGlobal = toGlobalFrame(T.dampingParticleFrame, globalToParticle);
    T.atRestParticleFrame =
        scale*(particle.tensors.Pi*g.strainRate + particle.tensors.Omega*g.spin);
    T.particleFrame =
        T.atRestParticleFrame - T.dampingParticleFrame*angularVelocityParticleFrame;
    T.global = globalToParticle.transpose()*T.particleFrame;
    return T;
}


Vector3 torqueFreeAngularVelocity
(
    const ResistanceTensors& tensors,
    const FlowGradientInParticleFrame& gradient
)
{
    // Eq. (21) of [Wedel2023] = 0: Omega' (spin - omega) = -Pi' s
    return gradient.spin + tensors.Omega.llt().solve(tensors.Pi*gradient.strainRate);
}


double particleReynoldsNumber
(
    const Vector3& slipVelocity,
    double equivalentDiameter,
    double kinematicViscosity
)
{
    requireFinite("slipVelocity", slipVelocity);
    requirePositive("equivalentDiameter", equivalentDiameter);
    requirePositive("kinematicViscosity", kinematicViscosity);
    return slipVelocity.norm()*equivalentDiameter/kinematicViscosity;
}


double stokesNumber
(
    double particleDensity, double fluidDensity, double equivalentDiameter,
    double velocityScale, double kinematicViscosity, double lengthScale
)
{
    requirePositive("particleDensity", particleDensity);
    requirePositive("fluidDensity", fluidDensity);
    requirePositive("equivalentDiameter", equivalentDiameter);
    requirePositive("velocityScale", velocityScale);
    requirePositive("kinematicViscosity", kinematicViscosity);
    requirePositive("lengthScale", lengthScale);
    // Eq. (10) of [Wedel2023]
    return (particleDensity/fluidDensity)*equivalentDiameter*equivalentDiameter
          *velocityScale/(18*kinematicViscosity*lengthScale);
}


DensityRatioParameters densityRatioParameters(double particleDensity, double fluidDensity)
{
    requirePositive("particleDensity", particleDensity);
    requirePositive("fluidDensity", fluidDensity);
    // Eq. (9) of [Wedel2023]
    const double denominator = particleDensity + 0.5*fluidDensity;
    return {fluidDensity/denominator, particleDensity/denominator};
}

} // namespace superellipsoid
