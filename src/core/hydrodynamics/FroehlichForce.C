#include "hydrodynamics/FroehlichForce.H"
#include "hydrodynamics/InputChecks.H"
#include "math/InvalidArgument.H"

#include <algorithm>
#include <cmath>

namespace superellipsoid
{

namespace
{

constexpr double pi = 3.14159265358979323846;

using inputChecks::requirePositive;

void validate
(
    const HydrodynamicParticle& particle,
    const EquivalentProlate& prolate,
    const FluidProperties& fluid,
    const Matrix3& globalToParticle,
    const Vector3& slip
)
{
    checkOrientedLawInput(particle, fluid, globalToParticle, slip);
    requirePositive("prolate equivalentDiameter", prolate.equivalentDiameter);
    if (!(prolate.aspectRatio >= 1) || !std::isfinite(prolate.aspectRatio))
    {
        throwInvalidArgument("prolate aspectRatio", prolate.aspectRatio, "must be finite and >= 1");
    }
    if (!(std::abs(prolate.axisParticleFrame.norm() - 1) < 1e-12))
    {
        throwInvalidArgument
        (
            "prolate axisParticleFrame", prolate.axisParticleFrame.transpose(), "must be a unit vector"
        );
    }
}

} // namespace


OrientedFluidForce froehlichForce
(
    const HydrodynamicParticle& particle,
    const EquivalentProlate& prolate,
    const FluidProperties& fluid,
    const Matrix3& globalToParticle,
    const Vector3& slip,
    FroehlichLiftExponent liftExponent
)
{
    validate(particle, prolate, fluid, globalToParticle, slip);
    const double mu = fluid.dynamicViscosity();
    const double beta = prolate.aspectRatio;
    const double d = prolate.equivalentDiameter;
    const double speed = slip.norm();

    OrientedFluidForce F;
    F.resistance = translationalResistance(particle.tensors.K, particle.c, mu, globalToParticle);
    F.reynolds = speed*d/fluid.kinematicViscosity;
    F.inValidatedRange = validatedRange(IncidenceLaw::Froehlich).contains(F.reynolds, beta);
    if (!(F.reynolds > 0))
    {
        return F;   // Brenner's force, no torque
    }

    // Brenner's principal resistances along and across p (body of revolution)
    const Vector3& pp = prolate.axisParticleFrame;
    const double kPar = pi*mu*particle.c*pp.dot(particle.tensors.K*pp);
    const double kPerp = 0.5*(pi*mu*particle.c*particle.tensors.K.trace() - kPar);

    const Vector3 u = slip/speed;
    const Vector3 p = globalToParticle.transpose()*pp;
    const double up = u.dot(p);
    const Vector3 uxp = u.cross(p);
    const double cosPhi = std::abs(up);
    const double sinPhi = uxp.norm();
    const double phi = std::min(std::atan2(sinPhi, cosPhi), 0.5*pi);

    // Drag: Brenner's principal resistances scaled by f_d,0 and f_d,90
    const FroehlichDragFactors f = froehlichDragFactors(F.reynolds, beta);
    const Matrix3 P = p*p.transpose();
    F.resistance +=
        (f.axial - 1)*kPar*P + (f.transverse - 1)*kPerp*(Matrix3::Identity() - P);

    // Lift: the law's minus the drag tensor's, along sin(phi) l_hat
    const double psi = froehlichLiftAngle(F.reynolds, beta, phi);
    const double sinRatio = sinPhi > 0 ? std::sin(psi)/sinPhi : 1.0;
    const double lambda =
        froehlichLiftScale(F.reynolds, beta, liftExponent)*(kPerp - kPar)*sinRatio*std::cos(psi)
      - (f.transverse*kPerp - f.axial*kPar)*cosPhi;
    const double sign = up > 0 ? 1.0 : (up < 0 ? -1.0 : 0.0);
    const Vector3 sinPhiLift = sign*(up*u - p);
    F.resistance += lambda*sinPhiLift*u.transpose();

    // Torque C_T t_hat on 1/2 rho_f |w|^2 A_v d_v/2, with C_T t_hat =
    // C_T,max 2 (u.p)(u x p)
    const double reference = 0.5*fluid.density*speed*speed*(0.25*pi*d*d)*0.5*d;
    const Vector3 T = reference*froehlichTorqueMaximum(F.reynolds, beta)*2*up*uxp;
    F.torqueParticleFrame = globalToParticle*T;
    return F;
}

} // namespace superellipsoid
