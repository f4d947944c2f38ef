#include "hydrodynamics/PackedBedLaws.H"
#include "hydrodynamics/InputChecks.H"

#include <cmath>
#include <sstream>
#include <stdexcept>

namespace superellipsoid
{

using inputChecks::badValue;
using inputChecks::requirePositive;

namespace
{

constexpr double pi = 3.14159265358979323846;

void checkBed(const BedMaterial& bed)
{
    requirePositive("fluidDensity", bed.fluidDensity);
    requirePositive("dynamicViscosity", bed.dynamicViscosity);
    requirePositive("diameter", bed.diameter);
    requirePositive("gravity", bed.gravity);
    if (!(bed.particleDensity > bed.fluidDensity) || !std::isfinite(bed.particleDensity))
    {
        badValue("particleDensity", bed.particleDensity, "finite and > fluidDensity");
    }
    if (!(bed.sphericity > 0 && bed.sphericity <= 1))
    {
        badValue("sphericity", bed.sphericity, "in (0, 1]");
    }
}

void checkPacked(double eps)
{
    if (!(eps > 0 && eps < 1))
    {
        badValue("fluidFraction", eps, "in (0, 1)");
    }
}

void checkVelocity(double U)
{
    if (!(U >= 0) || !std::isfinite(U))
    {
        badValue("superficial velocity U", U, "finite and >= 0");
    }
}

} // namespace


double ergunPressureGradient(const BedMaterial& bed, double eps, double U)
{
    checkBed(bed);
    checkPacked(eps);
    checkVelocity(U);
    const double phi = 1 - eps;
    const double dEff = bed.sphericity*bed.diameter;   // = 6 V_p/S_p
    const double eps3 = eps*eps*eps;
    return 150*bed.dynamicViscosity*phi*phi*U/(eps3*dEff*dEff)
         + 1.75*bed.fluidDensity*phi*U*U/(eps3*dEff);
}


double buoyantWeightGradient(const BedMaterial& bed, double eps)
{
    checkBed(bed);
    checkPacked(eps);
    return (1 - eps)*(bed.particleDensity - bed.fluidDensity)*bed.gravity;
}


double bedWeightPerArea(const BedMaterial& bed, double solidVolume, double area)
{
    checkBed(bed);
    requirePositive("solidVolume", solidVolume);
    requirePositive("area", area);
    return solidVolume*(bed.particleDensity - bed.fluidDensity)*bed.gravity/area;
}


double ergunMinimumFluidizationVelocity(const BedMaterial& bed, double eps)
{
    // Ergun = a U^2 + b U; a U^2 + b U = c has the root
    // 2c/(b + sqrt(b^2 + 4ac)), free of cancellation
    const double c = buoyantWeightGradient(bed, eps);
    const double dEff = bed.sphericity*bed.diameter;
    const double eps3 = eps*eps*eps;
    const double a = 1.75*bed.fluidDensity*(1 - eps)/(eps3*dEff);
    const double b = 150*bed.dynamicViscosity*(1 - eps)*(1 - eps)/(eps3*dEff*dEff);
    return 2*c/(b + std::sqrt(b*b + 4*a*c));
}


double wenYuMinimumFluidizationVelocity(const BedMaterial& bed)
{
    checkBed(bed);
    const double mu = bed.dynamicViscosity;
    const double d = bed.diameter;
    const double Ar = bed.fluidDensity*(bed.particleDensity - bed.fluidDensity)
                     *bed.gravity*d*d*d/(mu*mu);
    const double Remf = std::sqrt(33.7*33.7 + 0.0408*Ar) - 33.7;
    return Remf*mu/(bed.fluidDensity*d);
}


MinimumFluidization minimumFluidizationVelocity
(
    const std::function<double(double)>& pressureGradient,
    double weightGradient,
    double velocityScale
)
{
    requirePositive("weightGradient", weightGradient);
    requirePositive("velocityScale", velocityScale);

    MinimumFluidization m;
    double lo = 0, hi = velocityScale;
    for (int doubling = 0; pressureGradient(hi) < weightGradient; ++doubling)
    {
        if (doubling == 200)
        {
            badValue("weightGradient (not reached by the law)", weightGradient, "reachable");
        }
        lo = hi;
        hi *= 2;
    }
    while (hi - lo > 1e-13*hi)
    {
        const double mid = 0.5*(lo + hi);
        (pressureGradient(mid) < weightGradient ? lo : hi) = mid;
        ++m.iterations;
    }
    m.velocity = 0.5*(lo + hi);
    return m;
}


double denseBedPressureGradient
(
    const BedMaterial& bed,
    DenseDragLaw law,
    DragCorrelation singleLaw,
    double eps,
    double U
)
{
    checkBed(bed);
    checkPacked(eps);
    checkVelocity(U);
    const double d = bed.diameter;
    const double w = U/eps;                                   // interstitial slip
    const double nu = bed.dynamicViscosity/bed.fluidDensity;
    const DenseDragFactor h = denseDragFactor(law, eps, w*d/nu);
    const double f = stokesDragCorrection(singleLaw, h.singleReynolds, bed.sphericity);
    const double force = h.factor*f*3*pi*bed.dynamicViscosity*d*w;   // model B, per particle
    const double n = (1 - eps)/(pi/6*d*d*d);                 // particles per volume
    return n*force;
}

} // namespace superellipsoid
