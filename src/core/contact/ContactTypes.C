#include "contact/ContactTypes.H"

#include <stdexcept>
#include <string>

namespace superellipsoid
{

Plane Plane::fromPoints(const Vector3& a, const Vector3& b, const Vector3& c)
{
    // Eq. (24) of [Wedel2023]
    const Vector3 n = (c - a).cross(b - a);
    const double len = n.norm();
    if (!(len > 0) || !std::isfinite(len))
    {
        throw std::invalid_argument("Plane::fromPoints: collinear or non-finite points (|n| = "
            + std::to_string(len) + ")");
    }
    return Plane{a, n/len};
}


WallFace WallFace::fromVertices(const Vector3* points, int n)
{
    if (n < 3 || n > maxFaceVertices)
    {
        throw std::invalid_argument("WallFace::fromVertices: nVertices = " + std::to_string(n)
            + " (need 3.." + std::to_string(maxFaceVertices) + ")");
    }
    WallFace f;
    f.nVertices = n;
    Vector3 area = Vector3::Zero();   // Newell: sum v_k x v_{k+1} = 2 A n
    for (int k = 0; k < n; ++k)
    {
        f.vertices[k] = points[k];
        area += points[k].cross(points[(k + 1)%n]);
    }
    const double len = area.norm();
    if (!(len > 0) || !std::isfinite(len))
    {
        throw std::invalid_argument("WallFace::fromVertices: degenerate polygon (2 area = "
            + std::to_string(len) + ")");
    }
    f.normal = area/len;
    return f;
}


FaceEdges edgeHalfPlanes(const WallFace& face)
{
    FaceEdges edges{};
    for (int k = 0; k < face.nVertices; ++k)
    {
        const Vector3& a = face.vertices[k];
        const Vector3& b = face.vertices[(k + 1)%face.nVertices];
        edges[k] = (b - a).cross(face.normal);
    }
    return edges;
}

} // namespace superellipsoid
