#include "contact/BoundingVolumes.H"

#include <cmath>

namespace superellipsoid
{

bool boundingSpheresOverlap
(
    const Vector3& cA, double rA, const Vector3& cB, double rB, double margin
)
{
    const double r = rA + rB + margin;
    return (cB - cA).squaredNorm() <= r*r;
}


bool boundingSpheresOverlap
(
    const Superellipsoid& shapeA, const Pose& poseA,
    const Superellipsoid& shapeB, const Pose& poseB,
    double margin
)
{
    return boundingSpheresOverlap
    (
        poseA.position, shapeA.boundingRadius(),
        poseB.position, shapeB.boundingRadius(),
        margin
    );
}


bool obbOverlap
(
    const Vector3& cA, const Matrix3& QA, const Vector3& hA,
    const Vector3& cB, const Matrix3& QB, const Vector3& hB,
    double margin, int* lastAxis
)
{
    // Work in A's box frame: C = QA^T QB (B's axes in A's frame), t = QA^T (cB - cA)
    const Matrix3 C = QA.transpose()*QB;
    const Vector3 t = QA.transpose()*(cB - cA);
    // Guard against parallel edges (cross products ~ 0): standard epsilon
    constexpr double parallelGuard = 1e-12;
    Matrix3 absC = C.cwiseAbs().array() + parallelGuard;

    // Axis k in 0..14: 0-2 A's axes, 3-5 B's axes, 6-14 A_i x B_j
    auto separated = [&](int k) -> bool
    {
        if (k < 3)
        {
            const double rb = hB.dot(absC.row(k));
            return std::abs(t(k)) > hA(k) + rb + margin;
        }
        if (k < 6)
        {
            const int j = k - 3;
            const double ra = hA.dot(absC.col(j));
            return std::abs(t.dot(C.col(j))) > ra + hB(j) + margin;
        }
        const int i = (k - 6)/3;
        const int j = (k - 6)%3;
        const int i1 = (i + 1)%3, i2 = (i + 2)%3;
        const int j1 = (j + 1)%3, j2 = (j + 2)%3;
        // L = A_i x B_j in A's frame; |t.L| vs projected radii
        const double ra = hA(i1)*absC(i2, j) + hA(i2)*absC(i1, j);
        const double rb = hB(j1)*absC(i, j2) + hB(j2)*absC(i, j1);
        const double tl = t(i2)*C(i1, j) - t(i1)*C(i2, j);
        return std::abs(tl) > ra + rb + margin;
    };

    const int first = lastAxis ? *lastAxis : -1;
    if (first >= 0 && first < 15 && separated(first))
    {
        return false;
    }
    // Fully unrolled: the axis index is then a constant in every test (no
    // branches on k, no integer division for the cross-product axes)
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC unroll 15
#endif
    for (int k = 0; k < 15; ++k)
    {
        if (k != first && separated(k))
        {
            if (lastAxis) *lastAxis = k;
            return false;
        }
    }
    return true;
}


bool obbOverlap
(
    const Superellipsoid& shapeA, const Pose& poseA,
    const Superellipsoid& shapeB, const Pose& poseB,
    double margin, int* lastAxis
)
{
    return obbOverlap
    (
        poseA.position, poseA.particleToGlobal(), shapeA.boundingBoxHalfExtents(),
        poseB.position, poseB.particleToGlobal(), shapeB.boundingBoxHalfExtents(),
        margin, lastAxis
    );
}


bool boundingSphereTouchesPlane
(
    const Superellipsoid& shape, const Pose& pose, const Plane& plane, double margin
)
{
    return plane.signedDistance(pose.position) <= shape.boundingRadius() + margin;
}


bool obbTouchesPlane
(
    const Superellipsoid& shape, const Pose& pose, const Plane& plane, double margin
)
{
    const Vector3 np = pose.directionToParticleFrame(plane.normal);
    const double reach = shape.boundingBoxHalfExtents().dot(np.cwiseAbs());
    return plane.signedDistance(pose.position) <= reach + margin;
}

} // namespace superellipsoid
