#include "hydrodynamics/AddedMass.H"
#include "hydrodynamics/InputChecks.H"
#include "hydrodynamics/HydrodynamicForces.H"

#include <Eigen/Dense>

#include <cmath>
#include <sstream>
#include <stdexcept>

namespace superellipsoid
{

using inputChecks::requirePositive;
using inputChecks::requireFinite;


Vector3 ellipsoidAddedMassCoefficients(double a, double b, double c)
{
    // Lamb's alpha0 = abc x the plain integral (ResistanceTensors.H)
    const EllipsoidIntegrals I = ellipsoidIntegrals(a, b, c);
    const Vector3 lamb = a*b*c*Vector3(I.alpha0, I.beta0, I.gamma0);
    // k = alpha0 / (2 - alpha0); alpha0 + beta0 + gamma0 = 2, each in (0, 2)
    return lamb.array()/(2 - lamb.array());
}


Matrix3 addedMassTensor
(
    const ShapeParameters& shape,
    double fluidDensity,
    double volume,
    const Matrix3& globalToParticle
)
{
    validateShapeParameters(shape);
    requirePositive("fluidDensity", fluidDensity);
    requirePositive("volume", volume);
    requireFinite("globalToParticle", globalToParticle);

    const Vector3 k = ellipsoidAddedMassCoefficients(shape.a, shape.b, shape.c);
    const Matrix3 particleFrame = (fluidDensity*volume*k).asDiagonal();
    return toGlobalFrame(particleFrame, globalToParticle);
}


FluidInertiaForce fluidInertiaForce
(
    double particleMass,
    double fluidMass,
    const Matrix3& addedMass,
    const Vector3& fluidMaterialAcceleration
)
{
    requirePositive("particleMass", particleMass);
    requirePositive("fluidMass", fluidMass);
    requireFinite("addedMass", addedMass);
    requireFinite("fluidMaterialAcceleration", fluidMaterialAcceleration);

    FluidInertiaForce F;
    F.massMatrix = particleMass*Matrix3::Identity() + addedMass;
    F.fluidStress = fluidMass*fluidMaterialAcceleration;
    F.addedMass = addedMass*fluidMaterialAcceleration;
    return F;
}


Vector3 implicitVelocityUpdate
(
    const Matrix3& massMatrix,
    const Matrix3& dragCoefficient,
    const Vector3& explicitForce,
    const Vector3& fluidVelocity,
    const Vector3& particleVelocity,
    double dt
)
{
    requirePositive("dt", dt);
    requireFinite("massMatrix", massMatrix);
    requireFinite("dragCoefficient", dragCoefficient);
    requireFinite("explicitForce", explicitForce);
    requireFinite("fluidVelocity", fluidVelocity);
    requireFinite("particleVelocity", particleVelocity);

    // (M + dt C) v_new = M v + dt (F + C u); M, C symmetric positive
    // (semi)definite, so the matrix is SPD: LDLT
    const Matrix3 lhs = massMatrix + dt*dragCoefficient;
    const Vector3 rhs =
        massMatrix*particleVelocity + dt*(explicitForce + dragCoefficient*fluidVelocity);
    return lhs.ldlt().solve(rhs);
}

} // namespace superellipsoid
