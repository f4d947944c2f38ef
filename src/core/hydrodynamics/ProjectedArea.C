#include "hydrodynamics/ProjectedArea.H"
#include "contact/SupportPoint.H"
#include "math/InvalidArgument.H"

#include <algorithm>
#include <cmath>
#include <vector>

namespace superellipsoid
{

namespace
{

constexpr double pi = 3.14159265358979323846;

//- Unit vector of a finite non-zero direction (throws otherwise)
Vector3 unitDirection(const Vector3& direction)
{
    const double n = direction.norm();
    if (!(n > 0) || !std::isfinite(n))
    {
        throwInvalidArgument
        (
            "projection direction", direction.transpose(), "must be finite and non-zero"
        );
    }
    return direction/n;
}

//- Angles theta in [0, 2 pi) at which m = cos(theta) e1 + sin(theta) e2
//  has a zero component, sorted, the first repeated + 2 pi at the end.
//  There the support point crosses a coordinate plane of the body, where
//  a boxy surface (eps < 1) has zero curvature and h' ~ |theta - theta_i|^gamma,
//  gamma = eps/(2 - eps).
std::vector<double> arcEnds(const Vector3& e1, const Vector3& e2)
{
    std::vector<double> ends;
    for (int i = 0; i < 3; ++i)
    {
        if (std::hypot(e1(i), e2(i)) > 1e-12)
        {
            // cos(theta) e1_i + sin(theta) e2_i = 0
            const double zero = std::atan2(e2(i), e1(i)) + 0.5*pi;
            for (double theta : {zero, zero + pi})
            {
                ends.push_back(std::fmod(theta + 4*pi, 2*pi));
            }
        }
    }
    std::sort(ends.begin(), ends.end());
    ends.push_back(ends.front() + 2*pi);
    return ends;
}

//- 1/2 int (h^2 - h'^2) dtheta over one arc: the midpoint rule after the
//  sigmoid theta = start + length w(tau), w = tau^3/(tau^3 + (1 - tau)^3),
//  which flattens the end-point singularities (measured error ~ N^-4 over
//  eps in [0.1, 1.9]); the weights are normalised to integrate 1 exactly
double arcArea
(
    const Superellipsoid& shape,
    const Vector3& e1,
    const Vector3& e2,
    double start,
    double length,
    int arcNodes
)
{
    double sum = 0, weights = 0;
    for (int j = 0; j < arcNodes; ++j)
    {
        const double tau = (j + 0.5)/arcNodes;
        const double t3 = tau*tau*tau, s3 = (1 - tau)*(1 - tau)*(1 - tau);
        const double w = t3/(t3 + s3);
        const double dw = 3*tau*tau*(1 - tau)*(1 - tau)/((t3 + s3)*(t3 + s3));
        const double theta = start + length*w;
        const double s = std::sin(theta), c = std::cos(theta);
        const Vector3 m = c*e1 + s*e2;
        // h = x*.m, h' = x*.dm/dtheta
        const Vector3 x = supportPoint(shape, m);
        const double h = x.dot(m), hPrime = x.dot(-s*e1 + c*e2);
        sum += dw*(h*h - hPrime*hPrime);
        weights += dw;
    }
    return 0.5*length*sum/weights;
}

} // namespace


double ellipsoidProjectedArea(const Vector3& halfAxes, const Vector3& directionParticle)
{
    if (!(halfAxes.minCoeff() > 0) || !halfAxes.allFinite())
    {
        throwInvalidArgument("ellipsoid half-axes", halfAxes.transpose(), "must be finite and > 0");
    }
    const Vector3 n = unitDirection(directionParticle);
    const double a = halfAxes(0), b = halfAxes(1), c = halfAxes(2);
    return pi*Vector3(n(0)*b*c, n(1)*c*a, n(2)*a*b).norm();
}


double supportProjectedArea
(
    const Superellipsoid& shape,
    const Vector3& directionParticle,
    int nodes
)
{
    const Vector3 n = unitDirection(directionParticle);
    if (nodes < 8)
    {
        throwInvalidArgument("projected-area nodes", nodes, "must be >= 8");
    }

    // Orthonormal e1, e2 spanning the plane normal to n
    const Vector3 helper =
        std::abs(n(0)) < 0.9 ? Vector3::UnitX() : Vector3::UnitY();
    const Vector3 e1 = n.cross(helper).normalized();
    const Vector3 e2 = n.cross(e1);

    // Arcs shorter than minArcNodes steps of 2 pi/nodes merge into the next
    constexpr int minArcNodes = 16;
    const double minArc = 2*pi*minArcNodes/nodes;
    const std::vector<double> ends = arcEnds(e1, e2);
    double area = 0;
    double start = ends.front();
    for (std::size_t k = 1; k < ends.size(); ++k)
    {
        const double length = ends[k] - start;
        if (length < minArc && k + 1 < ends.size())
        {
            continue;
        }
        const int arcNodes = std::max(minArcNodes, int(std::ceil(nodes*length/(2*pi))));
        area += arcArea(shape, e1, e2, start, length, arcNodes);
        start = ends[k];
    }
    return area;
}


double projectedArea
(
    const Superellipsoid& shape,
    const Vector3& directionParticle,
    int nodes
)
{
    return shape.isEllipsoid()
         ? ellipsoidProjectedArea(shape.halfAxes(), directionParticle)
         : supportProjectedArea(shape, directionParticle, nodes);
}

} // namespace superellipsoid
