#include "hydrodynamics/ZastawnyCorrelation.H"

#include <cmath>
#include <sstream>
#include <stdexcept>

namespace superellipsoid
{

namespace
{

constexpr double halfPi = 1.57079632679489661923;

//- a0..a8, b1..b10, c1..c10 of one ellipsoid
struct ZastawnySet
{
    double a[9];
    double b[10];
    double c[10];
};

constexpr ZastawnySet aspectRatio5to4 =
{
    {1.95, 18.12, 1.023, 4.26, 0.384, 21.52, 0.99, 2.86, 0.26},
    {0.083, -0.21, 1.582, 0.851, 1.842, -0.802, -0.006, 0.874, 0.009, 0.57},
    {0.935, 0.146, -0.469, 0.145, 0.116, 0.748, 0.041, 0.221, 0.657, 0.044}
};

constexpr ZastawnySet aspectRatio5to2 =
{
    {2.0, 5.1, 0.48, 15.52, 1.05, 24.68, 0.98, 3.19, 0.21},
    {6.079, 0.898, 0.704, -0.028, 1.067, 0.0025, 0.818, 1.049, 0, 0},
    {2.078, 0.279, 0.372, 0.018, 0.98, 0, 0, 1, 0, 0}
};

//- (k1/Re^k2 + k3/Re^k4) sin^(k5 + k6 Re^k7) phi cos^(k8 + k9 Re^k10) phi
double liftTorqueForm(const double k[10], double Re, double phi)
{
    return
        (k[0]/std::pow(Re, k[1]) + k[2]/std::pow(Re, k[3]))
       *std::pow(std::sin(phi), k[4] + k[5]*std::pow(Re, k[6]))
       *std::pow(std::cos(phi), k[7] + k[8]*std::pow(Re, k[9]));
}

} // namespace


IncidenceCoefficients zastawnyCoefficients
(
    ZastawnyEllipsoid ellipsoid,
    double Re,
    double incidence
)
{
    if (!(Re >= zastawnyMinReynolds && Re <= zastawnyMaxReynolds))
    {
        std::ostringstream os;
        os.precision(17);
        os << "Re must be in [" << zastawnyMinReynolds << ", "
           << zastawnyMaxReynolds << "], got " << Re;
        throw std::invalid_argument(os.str());
    }
    if (!(incidence >= 0 && incidence <= halfPi))
    {
        std::ostringstream os;
        os.precision(17);
        os << "incidence must be in [0, pi/2], got " << incidence;
        throw std::invalid_argument(os.str());
    }

    const ZastawnySet& s =
        ellipsoid == ZastawnyEllipsoid::aspectRatio5to4
      ? aspectRatio5to4 : aspectRatio5to2;
    const double* a = s.a;

    const double drag0 = a[1]/std::pow(Re, a[2]) + a[3]/std::pow(Re, a[4]);
    const double drag90 = a[5]/std::pow(Re, a[6]) + a[7]/std::pow(Re, a[8]);

    IncidenceCoefficients C;
    C.drag = drag0 + (drag90 - drag0)*std::pow(std::sin(incidence), a[0]);
    C.lift = liftTorqueForm(s.b, Re, incidence);
    C.torque = liftTorqueForm(s.c, Re, incidence);
    return C;
}

} // namespace superellipsoid
