#include "output/StlSurface.H"

#include "math/InvalidArgument.H"

#include <iomanip>
#include <ostream>
#include <stdexcept>

namespace superellipsoid
{

void writeStl(std::ostream& os, const SurfaceMesh& surface, const std::string& solidName)
{
    if (solidName.empty() || solidName.find_first_of(" \t\n") != std::string::npos)
    {
        throwInvalidArgument("solid name", "'" + solidName + "'", "must be one word");
    }
    const int nPoints = int(surface.points.size());
    os << std::setprecision(stlDigits) << "solid " << solidName << '\n';
    for (const auto& tri : surface.triangles)
    {
        for (const int i : tri)
        {
            if (i < 0 || i >= nPoints)
            {
                throwInvalidArgument("point index", i, "must index the surface's points");
            }
        }
        const Vector3& p0 = surface.points[tri[0]];
        const Vector3& p1 = surface.points[tri[1]];
        const Vector3& p2 = surface.points[tri[2]];
        const Vector3 areaNormal = (p1 - p0).cross(p2 - p0);
        const double twiceArea = areaNormal.norm();
        const Vector3 n = twiceArea > 0 ? Vector3(areaNormal/twiceArea) : Vector3(Vector3::Zero());
        os << "  facet normal " << n.x() << ' ' << n.y() << ' ' << n.z() << "\n    outer loop\n";
        for (const int i : tri)
        {
            const Vector3& p = surface.points[i];
            os << "      vertex " << p.x() << ' ' << p.y() << ' ' << p.z() << '\n';
        }
        os << "    endloop\n  endfacet\n";
    }
    os << "endsolid " << solidName << '\n';
    if (!os)
    {
        throw std::runtime_error("writeStl: the stream of solid '" + solidName + "' failed");
    }
}

double enclosedVolume(const SurfaceMesh& surface)
{
    double sixTimesVolume = 0;
    for (const auto& tri : surface.triangles)
    {
        sixTimesVolume += surface.points[tri[0]].dot(surface.points[tri[1]].cross(surface.points[tri[2]]));
    }
    return sixTimesVolume/6;
}

} // namespace superellipsoid
