#include "collision/ContactCurvature.H"
#include "math/InvalidArgument.H"

#include <Eigen/LU>
#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>

namespace superellipsoid
{

namespace
{

[[noreturn]] void invalid(const std::string& name, double value, const char* why)
{
    throwInvalidArgument(name, value, why);
}

void checkDerivatives(const Vector3& g, const Matrix3& H)
{
    if (!g.allFinite() || !(g.norm() > 0))
    {
        invalid("gradient norm", g.norm(), "must be finite and non-zero");
    }
    if (!H.allFinite()) invalid("hessian norm", H.norm(), "must be finite");
}

} // namespace


double meanCurvature(const Vector3& g, const Matrix3& H)
{
    checkDerivatives(g, H);
    const double g2 = g.squaredNorm();
    // Eq. (39) of [Podlozhnyuk2017]; negative for convex bodies with outward gradient
    return std::abs(g.dot(H*g) - g2*H.trace())/(2*g2*std::sqrt(g2));
}


double gaussianCurvature(const Vector3& g, const Matrix3& H)
{
    checkDerivatives(g, H);
    Eigen::Matrix4d bordered = Eigen::Matrix4d::Zero();
    bordered.topLeftCorner<3, 3>() = H;
    bordered.topRightCorner<3, 1>() = g;
    bordered.bottomLeftCorner<1, 3>() = g.transpose();
    const double g2 = g.squaredNorm();
    return std::abs(-bordered.determinant()/(g2*g2));
}


double curvatureRadius
(
    const Vector3& gradient,
    const Matrix3& hessian,
    CurvatureModel model,
    double volumeEquivalentRadius,
    double capFactor
)
{
    if (!(std::isfinite(volumeEquivalentRadius) && volumeEquivalentRadius > 0))
    {
        invalid("volumeEquivalentRadius", volumeEquivalentRadius, "must be positive and finite");
    }
    if (!(std::isfinite(capFactor) && capFactor > 0))
    {
        invalid("capFactor", capFactor, "must be positive and finite");
    }
    const double cap = capFactor*volumeEquivalentRadius;
    const double K = model == CurvatureModel::mean
        ? meanCurvature(gradient, hessian)
        : std::sqrt(gaussianCurvature(gradient, hessian));
    // Flat point (K = 0) or nearly flat: the cap applies
    if (!(K*cap > 1)) return cap;
    return 1/K;
}


double surfaceCurvatureRadius
(
    const Superellipsoid& shape,
    const Pose& pose,
    const Vector3& contactPoint,
    CurvatureModel model,
    double capFactor
)
{
    if (!contactPoint.allFinite()) invalid("contactPoint", contactPoint.norm(), "must be finite");
    if (shape.isSphere())
    {
        // Closed form: the level sets of a sphere's S are the
        // concentric spheres, so both curvature models give 1/rho at the
        // distance rho of the point from the centre; the same cap and
        // centre rule as below (volume-equivalent radius = a)
        if (!(std::isfinite(capFactor) && capFactor > 0))
        {
            invalid("capFactor", capFactor, "must be positive and finite");
        }
        const double rho = (contactPoint - pose.position).norm();
        const double volumeRadius = shape.a();
        if (!(rho > 0)) return volumeRadius;
        const double cap = capFactor*volumeRadius;
        return rho < cap ? rho : cap;
    }
    // Curvature is invariant under rotation: evaluate in the particle frame (Eq. 27 of [Wedel2023])
    const ShapeDerivatives d = shape.derivatives(pose.toParticleFrame(contactPoint), 2);
    const double volumeRadius = 0.5*shape.volumeEquivalentDiameter();
    // The contact point of a deep overlap can reach the centre, where S has no
    // gradient and no surface curvature: the volume-equivalent sphere's radius
    // stands in (found by fuzzing the soft-contact collision step)
    if (!d.gradient.allFinite() || !(d.gradient.norm() > 0)) return volumeRadius;
    return curvatureRadius(d.gradient, d.hessian, model, volumeRadius, capFactor);
}


double effectiveRadius(double radiusA, double radiusB)
{
    if (!(radiusA > 0) || std::isnan(radiusA)) invalid("radiusA", radiusA, "must be positive");
    if (!(radiusB > 0) || std::isnan(radiusB)) invalid("radiusB", radiusB, "must be positive");
    const double curvatureSum = 1/radiusA + 1/radiusB;
    if (!(curvatureSum > 0)) invalid("radiusA", radiusA, "both radii infinite (two flat surfaces)");
    return 1/curvatureSum;
}

} // namespace superellipsoid
