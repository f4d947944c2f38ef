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
