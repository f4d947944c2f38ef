#include "hydrodynamics/HoelzerSommerfeldForce.H"
#include "hydrodynamics/InputChecks.H"
#include "hydrodynamics/Sphericity.H"
#include "math/InvalidArgument.H"

#include <cmath>

namespace superellipsoid
{

namespace
{

constexpr double pi = 3.14159265358979323846;

} // namespace


HoelzerSommerfeldShape hoelzerSommerfeldShape(const Superellipsoid& shape)
{
    HoelzerSommerfeldShape s;
    s.equivalentDiameter = shape.volumeEquivalentDiameter();
    s.surfaceArea = surfaceArea(shape);
    s.sphericity = sphericity(shape);
    s.aspectRatio = shape.a()/shape.c();
    s.projectedAreas = projectedAreaTable(shape);
    return s;
}


OrientedSphericities orientedSphericities
(
    const HoelzerSommerfeldShape& shape,
    const Vector3& slipDirectionParticle
)
{
    const ProjectedAreas A = projectedAreas(shape.projectedAreas, slipDirectionParticle);
    const double d = shape.equivalentDiameter;
    const double Av = 0.25*pi*d*d;
    // A_long < A/2: the mean projection over a great circle is below the
    // largest, which is below half the surface
    const double lengthwiseArea = 0.5*shape.surfaceArea - A.longitudinal;
    if (!(lengthwiseArea > 0))
    {
        throwInvalidArgument("A/2 - A_long", lengthwiseArea, "must be > 0 (inconsistent shape data)");
    }
    return {shape.sphericity, Av/A.crosswise, Av/lengthwiseArea};
}


OrientedFluidForce hoelzerSommerfeldForce
(
    const HydrodynamicParticle& particle,
    const HoelzerSommerfeldShape& shape,
    const FluidProperties& fluid,
    const Matrix3& globalToParticle,
    const Vector3& slip,
    const HoelzerSommerfeldVariant& variant
)
{
    using inputChecks::requirePositive;
    checkOrientedLawInput(particle, fluid, globalToParticle, slip);
    requirePositive("shape equivalentDiameter", shape.equivalentDiameter);

    const double speed = slip.norm();
    OrientedFluidForce F;
    F.resistance = translationalResistance
    (
        particle.tensors.K, particle.c, fluid.dynamicViscosity(), globalToParticle
    );
    F.reynolds = speed*shape.equivalentDiameter/fluid.kinematicViscosity;
    F.inValidatedRange =
        validatedRange(IncidenceLaw::HoelzerSommerfeld).contains(F.reynolds, shape.aspectRatio);
    if (!(F.reynolds > 0))
    {
        return F;   // Brenner's force
    }

    const Vector3 u = slip/speed;
    const HoelzerSommerfeldTerms t = hoelzerSommerfeldTerms
    (
        F.reynolds, orientedSphericities(shape, globalToParticle*u), variant
    );
    // Along the slip: Brenner's drag times g = 1 + inertial/Stokes terms
    const double along = u.dot(F.resistance*u);
    F.resistance += (t.inertial/t.stokes)*along*(u*u.transpose());
    return F;
}

} // namespace superellipsoid
