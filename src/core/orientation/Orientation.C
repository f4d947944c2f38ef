/*---------------------------------------------------------------------------*\
    Orientation by unit quaternions, [Wedel2023] Sect. 2.2, Eqs. (11)-(13).
    See Orientation.H for the conventions and the Eq. (12) of [Wedel2023] erratum.
\*---------------------------------------------------------------------------*/
#include "orientation/Orientation.H"

#include <cmath>
#include <sstream>
#include <stdexcept>

namespace superellipsoid
{

namespace
{

constexpr double pi = 3.14159265358979323846;

//- Below this sin(theta/2) (or cos(theta/2)) the Euler angles are in gimbal
//  lock: only phi + psi (or phi - psi) is defined and psi is set to 0.
constexpr double gimbalTolerance = 1e-12;

//- Below this rotation angle the exponential map uses its Taylor series
constexpr double smallRotationAngle = 1e-4;

//- Wrap an angle into (-pi, pi]
double wrapAngle(double angle)
{
    double wrapped = std::remainder(angle, 2*pi);   // in [-pi, pi]
    if (wrapped <= -pi)
    {
        wrapped += 2*pi;
    }
    return wrapped;
}

} // namespace


Quaternion quaternionFromEulerAngles(const EulerAngles& angles)
{
    // Eq. (11) of [Wedel2023]: e = q_z(phi) (x) q_x(theta) (x) q_z(psi)
    const double halfSum = 0.5*(angles.phi + angles.psi);
    const double halfDiff = 0.5*(angles.phi - angles.psi);
    const double cosHalfTheta = std::cos(0.5*angles.theta);
    const double sinHalfTheta = std::sin(0.5*angles.theta);

    return fromEulerParameters(Vector4
    (
        std::cos(halfSum)*cosHalfTheta,
        std::cos(halfDiff)*sinHalfTheta,
        std::sin(halfDiff)*sinHalfTheta,
        std::sin(halfSum)*cosHalfTheta
    ));
}


EulerAngles eulerAnglesFromQuaternion(const Quaternion& eIn)
{
    // Invert Eq. (11) of [Wedel2023] written as two complex numbers:
    //   e0 + i e3 = cos(theta/2) exp(i (phi + psi)/2)
    //   e1 + i e2 = sin(theta/2) exp(i (phi - psi)/2)
    const Quaternion e = normalisedOrientation(eIn);
    const double e0 = e.w(), e1 = e.x(), e2 = e.y(), e3 = e.z();

    const double cosHalfTheta = std::hypot(e0, e3);
    const double sinHalfTheta = std::hypot(e1, e2);

    EulerAngles angles;
    angles.theta = 2*std::atan2(sinHalfTheta, cosHalfTheta);   // [0, pi]

    if (sinHalfTheta < gimbalTolerance)
    {
        // theta = 0: rotation about z by phi + psi only; take psi = 0
        angles.phi = wrapAngle(2*std::atan2(e3, e0));
        angles.psi = 0;
        angles.theta = 0;
    }
    else if (cosHalfTheta < gimbalTolerance)
    {
        // theta = pi: only phi - psi is defined; take psi = 0
        angles.phi = wrapAngle(2*std::atan2(e2, e1));
        angles.psi = 0;
        angles.theta = pi;
    }
    else
    {
        const double sum = 2*std::atan2(e3, e0);    // phi + psi
        const double diff = 2*std::atan2(e2, e1);   // phi - psi
        angles.phi = wrapAngle(0.5*(sum + diff));
        angles.psi = wrapAngle(0.5*(sum - diff));
    }
    return angles;
}


Matrix3 rotationMatrix(const Quaternion& e)
{
    // Eq. (12) of [Wedel2023], with the erratum R(2,3) = 2[e2e3 + e0e1] (see Orientation.H):
    // R = (e0^2 - |e|^2) I + 2 e e^T - 2 e0 [e]x maps global to particle.
    const double e0 = e.w(), e1 = e.x(), e2 = e.y(), e3 = e.z();

    Matrix3 R;
    R << e0*e0 + e1*e1 - e2*e2 - e3*e3,  2*(e1*e2 + e0*e3),  2*(e1*e3 - e0*e2),
         2*(e1*e2 - e0*e3),  e0*e0 - e1*e1 + e2*e2 - e3*e3,  2*(e2*e3 + e0*e1),
         2*(e1*e3 + e0*e2),  2*(e2*e3 - e0*e1),  e0*e0 - e1*e1 - e2*e2 + e3*e3;
    return R;
}


Vector4 quaternionRate(const Quaternion& e, const Vector3& omegaParticle)
{
    // Eq. (13) of [Wedel2023]: de/dt = 1/2 G^T omega', i.e. de/dt = 1/2 e (x) (0, omega')
    const double e0 = e.w(), e1 = e.x(), e2 = e.y(), e3 = e.z();

    Eigen::Matrix<double, 4, 3> GT;
    GT << -e1, -e2, -e3,
           e0, -e3,  e2,
           e3,  e0, -e1,
          -e2,  e1,  e0;
    return 0.5*GT*omegaParticle;
}


Vector4 toEulerParameters(const Quaternion& e)
{
    return Vector4(e.w(), e.x(), e.y(), e.z());
}


Quaternion fromEulerParameters(const Vector4& e)
{
    // Eigen's constructor order is (w, x, y, z) = (e0, e1, e2, e3)
    return Quaternion(e(0), e(1), e(2), e(3));
}


Quaternion randomOrientation(std::mt19937_64& rng)
{
    // Shoemake (1992), "Uniform random rotations", Graphics Gems III:
    // uniform on S^3, hence Haar-uniform on SO(3).
    std::uniform_real_distribution<double> uniform(0.0, 1.0);
    const double u1 = uniform(rng);
    const double u2 = uniform(rng);
    const double u3 = uniform(rng);

    const double r1 = std::sqrt(1 - u1);
    const double r2 = std::sqrt(u1);
    const double a1 = 2*pi*u2;
    const double a2 = 2*pi*u3;

    return fromEulerParameters(Vector4
    (
        r2*std::cos(a2),
        r1*std::sin(a1),
        r1*std::cos(a1),
        r2*std::sin(a2)
    ));
}


Quaternion normalisedOrientation(const Quaternion& e)
{
    const double norm = e.norm();
    if (!(norm > 0) || !std::isfinite(norm))
    {
        std::ostringstream msg;
        msg << "normalisedOrientation: quaternion e = [" << e.w() << ", "
            << e.x() << ", " << e.y() << ", " << e.z()
            << "] has norm " << norm << ", cannot normalise";
        throw std::invalid_argument(msg.str());
    }
    return Quaternion(e.coeffs()/norm);
}


Quaternion quaternionFromRotationVector(const Vector3& rotationVector)
{
    // exp((0, v)/2) = (cos(|v|/2), sin(|v|/2) v/|v|)
    const double angle = rotationVector.norm();
    double scalar, vectorScale;
    if (angle < smallRotationAngle)
    {
        // Taylor series, truncation error O(angle^4) relative ~ 1e-17
        const double angle2 = angle*angle;
        scalar = 1 - angle2/8;
        vectorScale = 0.5 - angle2/48;
    }
    else
    {
        scalar = std::cos(0.5*angle);
        vectorScale = std::sin(0.5*angle)/angle;
    }
    Quaternion q(scalar, vectorScale*rotationVector.x(),
        vectorScale*rotationVector.y(), vectorScale*rotationVector.z());
    return q.normalized();
}

} // namespace superellipsoid
