#include "contact/ManifoldBuilder.H"
#include "contact/ManifoldGeometry.H"

#include <algorithm>

namespace superellipsoid
{

ContactManifold pairManifold
(
    const Superellipsoid& shapeA, const Pose& poseA,
    const Superellipsoid& shapeB, const Pose& poseB,
    const Contact& contact
)
{
    if (!(shapeA.isSphere() && shapeB.isSphere()))
    {
        return pairManifoldGeneric(shapeA, poseA, shapeB, poseB, contact);
    }
    // Two spheres: a point contact on the centre line (curvature tensors
    // r^-1 I each), so one point, the detection's, at its overlap
    ContactManifold m;
    m.normal = contact.normal;
    if (!contact.touching()) return m;
    m.count = 1;
    m.points[0].point = contact.point;
    m.points[0].depth = contact.overlap;
    m.points[0].pointInA = poseA.particleToGlobal().transpose()*(contact.point - poseA.position);
    return m;
}


ContactManifold pairManifoldGeneric
(
    const Superellipsoid& shapeA, const Pose& poseA,
    const Superellipsoid& shapeB, const Pose& poseB,
    const Contact& contact
)
{
    ContactManifold m;
    m.normal = contact.normal;
    if (!contact.touching()) return m;
    const PosedShape A{shapeA, poseA.particleToGlobal(), poseA.position};
    const PosedShape B{shapeB, poseB.particleToGlobal(), poseB.position};
    ManifoldSide lower, upper;
    lower.body = &A;
    upper.body = &B;
    m = buildManifold(lower, upper, contact.normal, contact.overlap, std::min(shapeA.c(), shapeB.c()));
    for (int i = 0; i < m.count; ++i)
    {
        m.points[i].pointInA = A.Q.transpose()*(m.points[i].point - A.position);
    }
    return m;
}

} // namespace superellipsoid
