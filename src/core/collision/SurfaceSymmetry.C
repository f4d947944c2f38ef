#include "collision/SurfaceSymmetry.H"
#include "shape/Superellipsoid.H"

namespace superellipsoid
{

SurfaceSymmetry surfaceSymmetry(const Superellipsoid& shape, const Matrix3& Q)
{
    SurfaceSymmetry s;
    if (shape.isSphere())
    {
        s.kind = SurfaceSymmetry::Kind::sphere;
        return s;
    }
    const int k = shape.revolutionAxis();
    if (k >= 0)
    {
        s.kind = SurfaceSymmetry::Kind::axis;
        s.axis = Q.col(k);
    }
    return s;
}

} // namespace superellipsoid
