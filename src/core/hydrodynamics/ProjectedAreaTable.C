#include "hydrodynamics/ProjectedAreaTable.H"
#include "hydrodynamics/ProjectedArea.H"
#include "math/InvalidArgument.H"

#include <algorithm>
#include <cmath>

namespace superellipsoid
{

namespace
{

constexpr double pi = 3.14159265358979323846;

//- Octant direction at polar angle theta (from z') and azimuth psi (from x')
Vector3 octantDirection(double theta, double psi)
{
    const double s = std::sin(theta);
    return Vector3(s*std::cos(psi), s*std::sin(psi), std::cos(theta));
}

//- Catmull-Rom weights of the nodes i-1, i, i+1, i+2 at x in [0, 1]
void catmullRomWeights(double x, double w[4])
{
    const double x2 = x*x, x3 = x2*x;
    w[0] = 0.5*(-x3 + 2*x2 - x);
    w[1] = 0.5*(3*x3 - 5*x2 + 2);
    w[2] = 0.5*(-3*x3 + 4*x2 + x);
    w[3] = 0.5*(x3 - x2);
}

//- Grid angle at the grid variable v in [0, 1]: nodes cluster at both
//  edges, and any field smooth in the angle is even in v about them
double gridAngle(double v)
{
    return 0.25*pi*(1 - std::cos(pi*v));
}

//- Inverse of gridAngle
double gridVariable(double angle)
{
    return std::acos(std::min(std::max(1 - 4*angle/pi, -1.0), 1.0))/pi;
}

//- Node index mirrored about the edges (0 and n - 1)
int mirrored(int i, int n)
{
    return i < 0 ? -i : (i > n - 1 ? 2*(n - 1) - i : i);
}

//- Bicubic Catmull-Rom interpolation of a squared area, and its root
double interpolate(const std::vector<double>& squares, int n, const Vector3& direction)
{
    const Vector3 a = direction.cwiseAbs();
    const double theta = std::atan2(std::hypot(a(0), a(1)), a(2));
    const double psi = std::atan2(a(1), a(0));
    const double x = gridVariable(theta)*(n - 1), y = gridVariable(psi)*(n - 1);
    const int i = std::min(int(x), n - 2), j = std::min(int(y), n - 2);
    double wi[4], wj[4];
    catmullRomWeights(x - i, wi);
    catmullRomWeights(y - j, wj);

    double value = 0;
    for (int di = 0; di < 4; ++di)
    {
        for (int dj = 0; dj < 4; ++dj)
        {
            value += wi[di]*wj[dj]*squares[mirrored(i - 1 + di, n)*n + mirrored(j - 1 + dj, n)];
        }
    }
    return std::sqrt(std::max(value, 0.0));
}

//- A_long(n): trapezoidal mean of A_perp over a half turn normal to n
double longitudinalMean(const std::vector<double>& crosswise, int nodes, const Vector3& n)
{
    const Vector3 helper = std::abs(n(0)) < 0.9 ? Vector3::UnitX() : Vector3::UnitY();
    const Vector3 e1 = n.cross(helper).normalized();
    const Vector3 e2 = n.cross(e1);
    double sum = 0;
    for (int k = 0; k < longitudinalAreaDirections; ++k)
    {
        const double alpha = pi*k/longitudinalAreaDirections;
        sum += interpolate(crosswise, nodes, std::cos(alpha)*e1 + std::sin(alpha)*e2);
    }
    return sum/longitudinalAreaDirections;
}

} // namespace


ProjectedAreaTable projectedAreaTable(const Superellipsoid& shape, int nodes)
{
    if (nodes < 4)
    {
        throwInvalidArgument("projected-area table nodes", nodes, "must be >= 4");
    }
    ProjectedAreaTable table;
    table.nodes = nodes;
    table.crosswise.resize(nodes*nodes);
    table.longitudinal.resize(nodes*nodes);
    const double step = 1.0/(nodes - 1);
    for (int i = 0; i < nodes; ++i)
    {
        for (int j = 0; j < nodes; ++j)
        {
            const double A =
                projectedArea(shape, octantDirection(gridAngle(i*step), gridAngle(j*step)));
            table.crosswise[i*nodes + j] = A*A;
        }
    }
    for (int i = 0; i < nodes; ++i)
    {
        for (int j = 0; j < nodes; ++j)
        {
            const double A = longitudinalMean
            (
                table.crosswise, nodes, octantDirection(gridAngle(i*step), gridAngle(j*step))
            );
            table.longitudinal[i*nodes + j] = A*A;
        }
    }
    return table;
}


ProjectedAreas projectedAreas(const ProjectedAreaTable& table, const Vector3& directionParticle)
{
    const std::size_t expected = std::size_t(table.nodes)*table.nodes;
    if (table.nodes < 4 || table.crosswise.size() != expected || table.longitudinal.size() != expected)
    {
        throwInvalidArgument("projected-area table nodes", table.nodes, "table is empty or inconsistent");
    }
    const double length = directionParticle.norm();
    if (!(length > 0) || !std::isfinite(length))
    {
        throwInvalidArgument
        (
            "projection direction", directionParticle.transpose(), "must be finite and non-zero"
        );
    }
    return
    {
        interpolate(table.crosswise, table.nodes, directionParticle),
        interpolate(table.longitudinal, table.nodes, directionParticle)
    };
}

} // namespace superellipsoid
