#include "hydrodynamics/FroehlichCorrelation.H"
#include "hydrodynamics/ResistanceTensors.H"
#include "math/InvalidArgument.H"

#include <cmath>

namespace superellipsoid
{

namespace
{

constexpr double pi = 3.14159265358979323846;

// Table 5 of [Froehlich2020]: c_d,i, c_l,i, c_t,i (i = 1..)
constexpr double cd[8] = {-0.007, 1.0, 1.17, -0.07, 0.047, 1.14, 0.7, -0.008};
constexpr double cl[6] = {0.01, 0.86, 1.77, 0.34, 0.88, -0.05};
constexpr double ct[7] = {0.931, 0.675, 0.162, 0.657, 2.77, 0.178, 0.177};

void requireReynolds(double Re, bool allowZero)
{
    if (!std::isfinite(Re) || Re < 0 || (!allowZero && Re == 0))
    {
        throwInvalidArgument("Reynolds number Re", Re, allowZero ? "must be finite and >= 0" : "must be finite and > 0");
    }
}

void requireAspectRatio(double beta)
{
    if (!std::isfinite(beta) || !(beta >= 1))
    {
        throwInvalidArgument("aspect ratio b", beta, "must be finite and >= 1 (prolate)");
    }
}

void requireIncidence(double phi)
{
    if (!(phi >= 0 && phi <= 0.5*pi))
    {
        throwInvalidArgument("incidence phi [rad]", phi, "must be in [0, pi/2]");
    }
}

} // namespace


FroehlichLiftExponent froehlichLiftExponentFromName(const std::string& name)
{
    if (name == "mAIA")
    {
        return FroehlichLiftExponent::mAIA;
    }
    if (name == "lnBeta")
    {
        return FroehlichLiftExponent::lnBeta;
    }
    throw std::invalid_argument("Froehlich lift exponent must be mAIA or lnBeta, got '" + name + "'");
}


std::string froehlichLiftExponentName(FroehlichLiftExponent exponent)
{
    return exponent == FroehlichLiftExponent::lnBeta ? "lnBeta" : "mAIA";
}


FroehlichDragFactors froehlichDragFactors(double Re, double beta)
{
    requireReynolds(Re, true);
    requireAspectRatio(beta);
    const double B = std::log(beta);
    const double sphere = 1 + 0.15*std::pow(Re, 0.687);
    // Eq. (B6b) of [Froehlich2020] and its axial counterpart
    return
    {
        sphere + cd[0]*std::pow(B, cd[1])*std::pow(Re, cd[2] + cd[3]*B),
        sphere + cd[4]*std::pow(B, cd[5])*std::pow(Re, cd[6] + cd[7]*B)
    };
}


double froehlichLiftScale(double Re, double beta, FroehlichLiftExponent exponent)
{
    requireReynolds(Re, true);
    requireAspectRatio(beta);
    const double B = std::log(beta);
    const double e = cl[4] + cl[5]*(exponent == FroehlichLiftExponent::lnBeta ? B : 1.0);
    return 1 + cl[3]*std::pow(Re, e);
}


double froehlichLiftAngle(double Re, double beta, double phi)
{
    requireReynolds(Re, true);
    requireAspectRatio(beta);
    requireIncidence(phi);
    if (!(Re > 1))
    {
        return phi;   // f_shift = 1: the Stokes lift's angle, exactly
    }
    const double shift =
        1 + cl[0]*std::pow(std::log(beta), cl[1])*std::pow(std::log(Re), cl[2]);
    return 0.5*pi*std::pow(2*phi/pi, shift);
}


double froehlichTorqueMaximum(double Re, double beta)
{
    requireReynolds(Re, false);
    requireAspectRatio(beta);
    const double B = std::log(beta);
    // Eq. (3.16a) of [Froehlich2020] without its 2 sin phi cos phi
    return ct[0]*std::pow(B, ct[1])/std::pow(Re, ct[2])
         + ct[3]*std::pow(B, ct[4])/std::pow(Re, ct[5] + ct[6]*B);
}


FroehlichStokesDrag froehlichStokesDrag(double beta)
{
    requireAspectRatio(beta);
    // Half-axes (b, 1, 1): F = pi mu c K U with c = 1, and
    // Re C_D = 24 F/(6 pi mu r_v U) = 4 K/b^(1/3)
    const ResistanceTensors t = exactEllipsoidResistance(beta, 1, 1);
    const double scale = 4/std::cbrt(beta);
    return {scale*t.K(0, 0), scale*t.K(1, 1)};
}


FroehlichCoefficients froehlichCoefficients
(
    double Re,
    double beta,
    double phi,
    FroehlichLiftExponent exponent
)
{
    requireReynolds(Re, false);
    requireIncidence(phi);
    const FroehlichStokesDrag st = froehlichStokesDrag(beta);
    const FroehlichDragFactors f = froehlichDragFactors(Re, beta);
    const double s = std::sin(phi), c = std::cos(phi);
    const double psi = froehlichLiftAngle(Re, beta, phi);

    FroehlichCoefficients k;
    const double cd0 = st.axial*f.axial/Re, cd90 = st.transverse*f.transverse/Re;
    k.drag = cd0 + (cd90 - cd0)*s*s;
    k.lift =
        froehlichLiftScale(Re, beta, exponent)*(st.transverse - st.axial)/Re
       *std::sin(psi)*std::cos(psi);
    k.torque = 2*s*c*froehlichTorqueMaximum(Re, beta);
    return k;
}

} // namespace superellipsoid
