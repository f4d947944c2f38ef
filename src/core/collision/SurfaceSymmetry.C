#include "collision/SurfaceSymmetry.H"
#include "shape/Superellipsoid.H"

namespace superellipsoid
{

SurfaceSymmetry surfaceSymmetry(const Superellipsoid& shape, const Quaternion& orientation)
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
        s.axis = orientation.toRotationMatrix().col(k);
    }
    return s;
}

} // namespace superellipsoid
