// Tests of orientation/Orientation: Eqs. (11)-(13) of [Wedel2023], the Eq. (12)
// erratum, Euler-angle round trips, and uniformity of random orientations.
#include "orientation/Orientation.H"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

using namespace superellipsoid;

namespace
{

constexpr double pi = 3.14159265358979323846;

//- Round-off level for O(1) quantities built from a handful of products
constexpr double roundOff = 1e-14;

Matrix3 cross(const Vector3& w)
{
    Matrix3 m;
    m << 0, -w.z(), w.y(),
         w.z(), 0, -w.x(),
         -w.y(), w.x(), 0;
    return m;
}

//- Distance between two rotations: quaternions are equal up to sign
double rotationDistance(const Quaternion& a, const Quaternion& b)
{
    return std::min((a.coeffs() - b.coeffs()).norm(), (a.coeffs() + b.coeffs()).norm());
}

double angleDifference(double a, double b)
{
    return std::abs(std::remainder(a - b, 2*pi));
}

//- Kolmogorov-Smirnov statistic of samples against a continuous CDF
template<class Cdf>
double ksStatistic(std::vector<double> samples, Cdf cdf)
{
    std::sort(samples.begin(), samples.end());
    const double n = samples.size();
    double d = 0;
    for (std::size_t i = 0; i < samples.size(); ++i)
    {
        const double F = cdf(samples[i]);
        d = std::max({d, (i + 1)/n - F, F - i/n});
    }
    return d;
}

//- Asymptotic KS critical value at significance 0.001: sqrt(-ln(0.0005)/2)
//  = 1.949; a correct sampler with a fixed seed exceeds it with prob. 0.1%.
double ksCritical(std::size_t n) { return 1.949/std::sqrt(double(n)); }

} // namespace


TEST(EulerAngles, Eq11IsComposedZXZAxisRotations)
{
    // Eq. (11) of [Wedel2023] = q_z(phi) q_x(theta) q_z(psi) (Goldstein's z-x-z convention)
    std::mt19937_64 rng(11);
    std::uniform_real_distribution<double> angle(-pi, pi);
    for (int i = 0; i < 100; ++i)
    {
        const EulerAngles a{angle(rng), std::abs(angle(rng)), angle(rng)};
        const Quaternion composed =
            Quaternion(Eigen::AngleAxisd(a.phi, Vector3::UnitZ()))
           *Quaternion(Eigen::AngleAxisd(a.theta, Vector3::UnitX()))
           *Quaternion(Eigen::AngleAxisd(a.psi, Vector3::UnitZ()));
        EXPECT_LT(rotationDistance(quaternionFromEulerAngles(a), composed), roundOff);
        EXPECT_NEAR(quaternionFromEulerAngles(a).norm(), 1, roundOff);
    }
}


TEST(RotationMatrix, IsOrthonormalWithUnitDeterminant)
{
    std::mt19937_64 rng(12);
    for (int i = 0; i < 1000; ++i)
    {
        const Matrix3 R = rotationMatrix(randomOrientation(rng));
        EXPECT_LT((R*R.transpose() - Matrix3::Identity()).cwiseAbs().maxCoeff(), 4*roundOff);
        EXPECT_NEAR(R.determinant(), 1, 4*roundOff);
    }
}


TEST(RotationMatrix, Eq12MapsGlobalToParticleLikePose)
{
    // Eq. (27) of [Wedel2023]: r' = R (r - r_c), R from Eq. (12) with the corrected (2,3) entry
    std::mt19937_64 rng(13);
    std::uniform_real_distribution<double> coord(-5, 5);
    for (int i = 0; i < 100; ++i)
    {
        Pose pose;
        pose.position = Vector3(coord(rng), coord(rng), coord(rng));
        pose.orientation = randomOrientation(rng);
        const Vector3 r(coord(rng), coord(rng), coord(rng));
        const Matrix3 R = rotationMatrix(pose.orientation);

        EXPECT_LT((R - pose.globalToParticle()).cwiseAbs().maxCoeff(), roundOff);
        EXPECT_LT((R.transpose() - pose.particleToGlobal()).cwiseAbs().maxCoeff(), roundOff);
        EXPECT_LT((R*(r - pose.position) - pose.toParticleFrame(r)).norm(), 100*roundOff);
        EXPECT_LT((pose.toGlobalFrame(R*(r - pose.position)) - r).norm(), 100*roundOff);
    }
}


TEST(RotationMatrix, PrintedEq12EntryTwoThreeIsATypo)
{
    // The matrix as printed in [Wedel2023] (both (2,3) and (3,2) = 2[e2e3 - e0e1])
    // is not orthogonal for a generic e; the corrected one is.
    const Quaternion e = normalisedOrientation(Quaternion(0.7, 0.3, -0.5, 0.4));
    Matrix3 printed = rotationMatrix(e);
    printed(1, 2) = 2*(e.y()*e.z() - e.w()*e.x());
    // ||R R^T - I|| of the printed matrix is O(|e0 e1|), here ~ 0.5
    EXPECT_GT((printed*printed.transpose() - Matrix3::Identity()).norm(), 0.1);
    EXPECT_NEAR(rotationMatrix(e)(1, 2), 2*(e.y()*e.z() + e.w()*e.x()), roundOff);
}


TEST(EulerAngles, RoundTripRecoversAngles)
{
    // Away from gimbal lock the inverse is unique with theta in [0, pi].
    // The error is ~ round-off / sin(theta): theta >= 0.01 gives <= 1e-12.
    std::mt19937_64 rng(14);
    std::uniform_real_distribution<double> angle(-pi, pi);
    std::uniform_real_distribution<double> polar(0.01, pi - 0.01);
    for (int i = 0; i < 1000; ++i)
    {
        const EulerAngles a{angle(rng), polar(rng), angle(rng)};
        const EulerAngles b = eulerAnglesFromQuaternion(quaternionFromEulerAngles(a));
        EXPECT_LT(angleDifference(a.phi, b.phi), 1e-12);
        EXPECT_NEAR(a.theta, b.theta, 1e-12);
        EXPECT_LT(angleDifference(a.psi, b.psi), 1e-12);
        EXPECT_GT(b.phi, -pi);
        EXPECT_LE(b.phi, pi);
        EXPECT_GT(b.psi, -pi);
        EXPECT_LE(b.psi, pi);
    }
}


TEST(EulerAngles, RoundTripFromQuaternionReproducesRotation)
{
    std::mt19937_64 rng(15);
    for (int i = 0; i < 1000; ++i)
    {
        const Quaternion e = randomOrientation(rng);
        const Quaternion back = quaternionFromEulerAngles(eulerAnglesFromQuaternion(e));
        EXPECT_LT(rotationDistance(e, back), 10*roundOff);
    }
}


TEST(EulerAngles, GimbalLockAtThetaZeroAndPiIsHandled)
{
    // theta = 0: only phi + psi defined; theta = pi: only phi - psi defined.
    // The inverse sets psi = 0 and must reproduce the rotation, without NaN.
    for (const double theta : {0.0, 1e-15, pi, pi - 1e-15})
    {
        const EulerAngles a{0.7, theta, -2.1};
        const Quaternion e = quaternionFromEulerAngles(a);
        const EulerAngles b = eulerAnglesFromQuaternion(e);
        EXPECT_TRUE(std::isfinite(b.phi) && std::isfinite(b.theta) && std::isfinite(b.psi));
        EXPECT_EQ(b.psi, 0.0);
        EXPECT_LT(rotationDistance(quaternionFromEulerAngles(b), e), 10*roundOff) << "theta " << theta;
        if (theta < 1)
        {
            EXPECT_LT(angleDifference(b.phi, a.phi + a.psi), 10*roundOff);
        }
        else
        {
            EXPECT_LT(angleDifference(b.phi, a.phi - a.psi), 10*roundOff);
        }
    }
}


TEST(QuaternionRate, Eq13IsHalfProductWithParticleOmega)
{
    // Eq. (13) of [Wedel2023] <=> de/dt = 1/2 e (x) (0, omega')
    std::mt19937_64 rng(16);
    const Quaternion e = randomOrientation(rng);
    const Vector3 w(0.3, -1.2, 2.0);
    const Quaternion product = e*Quaternion(0, w.x(), w.y(), w.z());
    EXPECT_LT((quaternionRate(e, w) - 0.5*toEulerParameters(product)).norm(), roundOff);
    // Rate is tangent to the unit sphere: d|e|^2/dt = 0
    EXPECT_NEAR(quaternionRate(e, w).dot(toEulerParameters(e)), 0, roundOff);
}


TEST(QuaternionRate, Eq13MatchesFiniteDifferenceOfEq12)
{
    // Rigid rotation with particle-frame omega': dR/dt = -[omega']x R.
    // Central difference of Eq. (12) of [Wedel2023] along Eq. (13): truncation O(h^2 |e''|)
    // ~ 1e-10 and round-off ~ 1e-16/h ~ 1e-11 for h = 1e-5; tolerance 1e-8.
    std::mt19937_64 rng(17);
    const double h = 1e-5;
    for (int i = 0; i < 20; ++i)
    {
        const Quaternion e = randomOrientation(rng);
        const Vector3 w = 2*Vector3::Random();
        const Vector4 rate = quaternionRate(e, w);
        const Vector4 e4 = toEulerParameters(e);
        const Matrix3 dRdt =
            (rotationMatrix(fromEulerParameters(e4 + h*rate))
           - rotationMatrix(fromEulerParameters(e4 - h*rate)))/(2*h);
        EXPECT_LT((dRdt + cross(w)*rotationMatrix(e)).cwiseAbs().maxCoeff(), 1e-8);
    }
}


TEST(QuaternionFromRotationVector, MatchesAngleAxisAndSolvesEq13)
{
    // Small angles use a Taylor series: same result as the closed form
    for (const double angle : {0.0, 1e-12, 1e-6, 0.99e-4, 1.01e-4, 0.5, 3.0, 6.0})
    {
        const Vector3 axis = Vector3(1, -2, 0.5).normalized();
        const Quaternion q = quaternionFromRotationVector(angle*axis);
        const Quaternion ref(Eigen::AngleAxisd(angle, axis));
        EXPECT_LT(rotationDistance(q, ref), roundOff) << "angle " << angle;
    }
    // e(t) = e0 exp(t omega') solves Eq. (13) of [Wedel2023]: central difference, O(h^2)
    std::mt19937_64 rng(18);
    const Quaternion e0 = randomOrientation(rng);
    const Vector3 w(0.4, 1.1, -0.7);
    const double t = 0.8, h = 1e-5;
    const Vector4 fd =
        (toEulerParameters(e0*quaternionFromRotationVector((t + h)*w))
       - toEulerParameters(e0*quaternionFromRotationVector((t - h)*w)))/(2*h);
    const Quaternion et = e0*quaternionFromRotationVector(t*w);
    EXPECT_LT((fd - quaternionRate(et, w)).norm(), 1e-9);
}


TEST(NormalisedOrientation, ScalesToUnitAndRejectsZero)
{
    const Quaternion e = normalisedOrientation(Quaternion(2, 0, 0, 0));
    EXPECT_NEAR(e.w(), 1, roundOff);
    EXPECT_THROW(normalisedOrientation(Quaternion(0, 0, 0, 0)), std::invalid_argument);
    EXPECT_THROW(normalisedOrientation(Quaternion(NAN, 0, 0, 0)), std::invalid_argument);
}


TEST(RandomOrientation, MeanRotationMatrixVanishes)
{
    // Haar measure: E[R_ij] = 0, Var[R_ij] = 1/3. With N samples the mean of
    // each entry has standard deviation sqrt(1/(3N)); bound 5 sigma.
    std::mt19937_64 rng(19);
    const int n = 100000;
    Matrix3 sum = Matrix3::Zero();
    for (int i = 0; i < n; ++i)
    {
        const Quaternion e = randomOrientation(rng);
        ASSERT_NEAR(e.norm(), 1, roundOff);
        sum += rotationMatrix(e);
    }
    const double sigma = std::sqrt(1.0/(3*n));
    EXPECT_LT((sum/n).cwiseAbs().maxCoeff(), 5*sigma);
}


TEST(RandomOrientation, RotatedAxisZComponentIsUniformOnMinusOneOne)
{
    // Archimedes: a uniformly oriented unit vector has z uniform on [-1, 1].
    std::mt19937_64 rng(20);
    const std::size_t n = 20000;
    std::vector<std::vector<double>> z(3);
    for (std::size_t i = 0; i < n; ++i)
    {
        const Matrix3 Q = rotationMatrix(randomOrientation(rng)).transpose();
        for (int axis = 0; axis < 3; ++axis)
        {
            z[axis].push_back(Q(2, axis));   // z of the rotated particle axis
        }
    }
    for (int axis = 0; axis < 3; ++axis)
    {
        const double d = ksStatistic(z[axis], [](double x) { return 0.5*(x + 1); });
        EXPECT_LT(d, ksCritical(n)) << "axis " << axis;
    }
}


TEST(RandomOrientation, RotationAngleFollowsHaarDensity)
{
    // Haar measure on SO(3): rotation angle density (1 - cos a)/pi on [0, pi],
    // CDF (a - sin a)/pi. A sampler uniform on one axis only would fail this.
    std::mt19937_64 rng(21);
    const std::size_t n = 20000;
    std::vector<double> angles;
    for (std::size_t i = 0; i < n; ++i)
    {
        const Quaternion e = randomOrientation(rng);
        angles.push_back(2*std::acos(std::min(1.0, std::abs(e.w()))));
    }
    const double d = ksStatistic(angles, [](double a) { return (a - std::sin(a))/pi; });
    EXPECT_LT(d, ksCritical(n));
}
