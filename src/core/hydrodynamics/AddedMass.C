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


namespace
{

//- Lamb's added moment about the axis normal to the half-axes p, q, over
//  rho_f V (p^2 + q^2)/5; P, Q Lamb's integrals of p, q. Zero for p = q
//  (the 0/0 limit: the numerator vanishes to third order)
double addedInertiaRatio(double p, double q, double P, double Q)
{
    const double d = p*p - q*q;
    if (d == 0)
    {
        return 0;
    }
    const double moment = d*d*(Q - P)/(2*d + (p*p + q*q)*(P - Q));
    return moment/(p*p + q*q);
}

} // namespace


Vector3 ellipsoidAddedInertiaCoefficients(double a, double b, double c)
{
    const EllipsoidIntegrals I = ellipsoidIntegrals(a, b, c);
    const double alpha0 = a*b*c*I.alpha0;
    const double beta0 = a*b*c*I.beta0;
    const double gamma0 = a*b*c*I.gamma0;
    // Lamb (1918), x' then the cyclic exchanges
    return Vector3
    (
        addedInertiaRatio(b, c, beta0, gamma0),
        addedInertiaRatio(c, a, gamma0, alpha0),
        addedInertiaRatio(a, b, alpha0, beta0)
    );
}


Vector3 addedMomentsOfInertia
(
    const ShapeParameters& shape,
    double fluidDensity,
    double volume
)
{
    validateShapeParameters(shape);
    requirePositive("fluidDensity", fluidDensity);
    requirePositive("volume", volume);

    const double a2 = shape.a*shape.a, b2 = shape.b*shape.b, c2 = shape.c*shape.c;
    const Vector3 k = ellipsoidAddedInertiaCoefficients(shape.a, shape.b, shape.c);
    return fluidDensity*volume/5*k.cwiseProduct(Vector3(b2 + c2, c2 + a2, a2 + b2));
}


Matrix3 addedMassTensor
(
    const Vector3& coefficients,
    double fluidDensity,
    double volume,
    const Matrix3& globalToParticle
)
{
    for (int i = 0; i < 3; ++i) requirePositive("added-mass coefficient", coefficients[i]);
    requirePositive("fluidDensity", fluidDensity);
    requirePositive("volume", volume);
    requireFinite("globalToParticle", globalToParticle);

    const Matrix3 particleFrame = (fluidDensity*volume*coefficients).asDiagonal();
    return toGlobalFrame(particleFrame, globalToParticle);
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
    return addedMassTensor
    (
        ellipsoidAddedMassCoefficients(shape.a, shape.b, shape.c), fluidDensity, volume, globalToParticle
    );
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


} // namespace superellipsoid
