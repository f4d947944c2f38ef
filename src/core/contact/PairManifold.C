#include "contact/ManifoldGeometry.H"

namespace superellipsoid
{

ContactManifold pairManifold
(
    const Superellipsoid&, const Pose& poseA,
    const Superellipsoid&, const Pose&,
    const Contact& contact
)
{
    ContactManifold m;
    m.normal = contact.normal;
    if (!contact.touching()) return m;
    m.count = 1;
    m.points[0].point = contact.point;
    m.points[0].pointInA = poseA.toParticleFrame(contact.point);
    m.points[0].depth = contact.overlap;
    return m;
}

} // namespace superellipsoid
