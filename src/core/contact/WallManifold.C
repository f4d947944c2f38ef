#include "contact/ManifoldGeometry.H"

namespace superellipsoid
{

ContactManifold wallManifold
(
    const Superellipsoid&, const Pose& pose, const Plane&, const Contact& contact
)
{
    ContactManifold m;
    m.normal = contact.normal;
    if (!contact.touching()) return m;
    m.count = 1;
    m.points[0].point = contact.point;
    m.points[0].pointInA = pose.toParticleFrame(contact.point);
    m.points[0].depth = contact.overlap;
    return m;
}

ContactManifold wallManifold
(
    const Superellipsoid& shape, const Pose& pose, const WallFace& face, const Contact& contact
)
{
    return wallManifold(shape, pose, face.plane(), contact);
}

} // namespace superellipsoid
