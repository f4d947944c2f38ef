#include "contact/ManifoldBuilder.H"
#include "contact/ManifoldGeometry.H"

namespace superellipsoid
{

namespace
{

ContactManifold particleOnWall
(
    const Superellipsoid& shape, const Pose& pose, const Vector3& wallPoint,
    const WallFace* face, const Contact& contact, bool generic = false
)
{
    // A sphere on a face: a point contact (curvature r^-1 I against 0) at
    // its deepest point, which the face contact holds
    if (shape.isSphere() && !generic) return deepestPointManifold(pose, contact);
    ContactManifold m;
    m.normal = contact.normal;
    if (!contact.touching()) return m;
    const PosedShape P{shape, pose.particleToGlobal(), pose.position};
    // The wall is the lower side (normal from the wall into the particle)
    ManifoldSide wall, particle;
    wall.wallPoint = wallPoint;
    wall.face = face;
    particle.body = &P;
    m = buildManifold(wall, particle, contact.normal, contact.overlap, shape.c());
    for (int i = 0; i < m.count; ++i)
    {
        m.points[i].pointInA = P.Q.transpose()*(m.points[i].point - P.position);
    }
    return m;
}

} // namespace


ContactManifold deepestPointManifold(const Pose& pose, const Contact& contact)
{
    ContactManifold m;
    m.normal = contact.normal;
    if (!contact.touching()) return m;
    m.count = 1;
    const Vector3 p = contact.pointOnA + 0.5*contact.overlap*contact.normal;
    m.points[0].point = p;
    m.points[0].pointInA = pose.toParticleFrame(p);
    m.points[0].depth = contact.overlap;
    return m;
}


ContactManifold wallManifold
(
    const Superellipsoid& shape, const Pose& pose, const Plane& plane, const Contact& contact
)
{
    return particleOnWall(shape, pose, plane.point, nullptr, contact);
}


ContactManifold wallManifoldGeneric
(
    const Superellipsoid& shape, const Pose& pose, const Plane& plane, const Contact& contact
)
{
    return particleOnWall(shape, pose, plane.point, nullptr, contact, true);
}


ContactManifold wallManifold
(
    const Superellipsoid& shape, const Pose& pose, const WallFace& face, const Contact& contact
)
{
    if (contact.feature == WallFeature::Face)
    {
        return particleOnWall(shape, pose, face.vertices[0], &face, contact);
    }
    // Edge or vertex of the face: a point contact at the particle's
    // deepest point (the feature cuts into the particle there). The edge
    // point of the detection can lie far along the edge from it
    return deepestPointManifold(pose, contact);
}

} // namespace superellipsoid
