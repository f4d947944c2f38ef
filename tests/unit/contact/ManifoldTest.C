// Contact manifolds: point, line and face contacts against exact geometry,
// symmetry, rigid-motion invariance and persistence.
#include "contact/ManifoldGeometry.H"
#include "contact/ParticleContact.H"
#include "contact/WallContact.H"

#include <gtest/gtest.h>

#include <cmath>

using namespace superellipsoid;

// Two spheres: one point on the centre line at the mid-plane, depth =
// overlap (exact closed form; 1e-12 is round-off on unit lengths)
TEST(ContactManifold, SpheresGiveOnePointOnTheCentreLine)
{
    const Superellipsoid s = Superellipsoid::sphere(1);
    Pose pA, pB;
    pB.position = Vector3(1.9, 0, 0);
    const Contact c = detectParticleContact(s, pA, s, pB);
    const ContactManifold m = pairManifold(s, pA, s, pB, c);
    ASSERT_EQ(m.count, 1);
    EXPECT_NEAR((m.points[0].point - Vector3(0.95, 0, 0)).norm(), 0, 1e-12);
    EXPECT_NEAR(m.points[0].depth, 0.1, 1e-12);
}

// An unchanged manifold matches itself point by point (exact invariant)
TEST(ContactManifold, MatchingAnUnchangedManifoldIsTheIdentity)
{
    ContactManifold m;
    m.count = 4;
    for (int i = 0; i < 4; ++i)
    {
        m.points[i].pointInA = Vector3(i & 1 ? 0.5 : -0.5, i & 2 ? 0.5 : -0.5, -1);
    }
    std::array<int, maxManifoldPoints> index;
    EXPECT_EQ(matchManifoldPoints(m, m, 0.05, index), 4);
    for (int i = 0; i < 4; ++i) EXPECT_EQ(index[i], i);
    // A point moved beyond the radius is new
    ContactManifold moved = m;
    moved.points[2].pointInA.x() += 0.1;
    EXPECT_EQ(matchManifoldPoints(m, moved, 0.05, index), 3);
    EXPECT_EQ(index[2], -1);
    EXPECT_THROW(matchManifoldPoints(m, m, -1, index), std::invalid_argument);
}

namespace
{

const Superellipsoid cube(1, 1, 1, 0.2, 0.2);
const Superellipsoid cylinder(1, 1, 1, 0.2, 1.0);   // axis z', round section

Plane floorPlane()
{
    Plane p;
    p.point = Vector3::Zero();
    p.normal = Vector3::UnitZ();
    return p;
}

} // namespace

// Crossed cylinder-like bodies (eps1 = 0.2: flat along the axis, round
// across), A's axis along y, B's along z, B shifted 0.25 c along its own
// axis: the point is the crossing of the two contact generators, x = 0
// (mid-plane), y = 0 (A's generator is the line z = 0, x = 1 - d), z = 0
// (B's is y = 0). Each curvature tensor is 1/c across and ~1e-10/c along
// the axis (the flat profile's H ~ z^8 at the support point's ~0.05 c
// jump), so the rule itself is exact to ~1e-10 c; the detected normal is
// converged to ~4e-6 rad here (delta(n) is flat along B's generator) and
// A's support point moves by c per radian: tolerance 1e-5 c. The
// curvature-weighted scalar rule put the point 0.125 c off.
TEST(ContactManifold, CrossedCylindersMeetAtTheCrossingOfTheGenerators)
{
    Pose pA, pB;
    pA.orientation = Quaternion(Eigen::AngleAxisd(0.5*M_PI, Vector3::UnitX()));
    pA.position = Vector3(-0.995, 0, 0);
    pB.position = Vector3(0.995, 0, 0.25);
    const Contact c = detectParticleContact(cylinder, pA, cylinder, pB);
    ASSERT_TRUE(c.touching());
    const ContactManifold m = pairManifold(cylinder, pA, cylinder, pB, c);
    ASSERT_EQ(m.count, 1);
    EXPECT_LT(m.points[0].point.norm(), 1e-5) << m.points[0].point.transpose();
    EXPECT_NEAR(m.points[0].depth, 0.01, 1e-6);
}

// Cube face-down on a floor: four points in the corner regions (the
// patch is the face cut tau = 1e-3 c below its lowest plane, the
// superellipse |x|^10 + |y|^10 = 10 tau: half width 0.59-0.63 c), equal
// depths = the overlap (by the fourfold symmetry; 1e-9 c is the Newton
// tolerance of the depth rays) and their centroid under the centre.
TEST(ContactManifold, CubeFaceDownOnFloorHasFourEqualCorners)
{
    Pose pose;
    pose.position = Vector3(0.3, -0.2, 0.99);
    const Plane floor = floorPlane();
    const Contact c = detectWallContact(cube, pose, floor);
    const ContactManifold m = wallManifold(cube, pose, floor, c);
    ASSERT_EQ(m.count, 4);
    Vector3 centroid = Vector3::Zero();
    for (int i = 0; i < 4; ++i)
    {
        const ManifoldPoint& p = m.points[i];
        EXPECT_NEAR(p.depth, 0.01, 1e-9);
        const Vector3 local = p.point - pose.position;
        EXPECT_GT(std::abs(local.x()), 0.55);
        EXPECT_LT(std::abs(local.x()), 0.64);
        EXPECT_GT(std::abs(local.y()), 0.55);
        EXPECT_LT(std::abs(local.y()), 0.64);
        // Mid-surface: halfway into the overlap at the point, where the
        // cube's surface lies up to tau above its lowest plane
        EXPECT_NEAR(p.point.z(), -0.005, 0.5e-3 + 1e-9);
        EXPECT_NEAR((p.pointInA - pose.toParticleFrame(p.point)).norm(), 0, 1e-12);
        centroid += p.point/4;
    }
    EXPECT_NEAR(centroid.x(), pose.position.x(), 1e-9);
    EXPECT_NEAR(centroid.y(), pose.position.y(), 1e-9);
}

// Cube face on cube face, B offset by (0.5, 0.3) c: four points at the
// corners of the overlap of the two patches (each the square-like
// superellipse |x|^10 + |y|^10 = 10 tau of half width 0.59 c on the
// diagonal to 0.63 c on the axes, tau = 1e-3 c): the rectangle
// [0.5 - s, s] x [0.3 - s, s] with s = 0.61 c, to the +-0.03 c of that
// rounding. Depths: the overlap to within tau (a corner lies up to tau
// above each face's lowest plane).
TEST(ContactManifold, OffsetCubeFacesGiveTheOverlapRectangle)
{
    Pose pA, pB;
    pB.position = Vector3(0.5, 0.3, 1.99);
    const Contact c = detectParticleContact(cube, pA, cube, pB);
    ASSERT_TRUE(c.touching());
    // The detected normal is converged to ~4e-6 rad (delta(n) is flat to
    // second order about a face normal); the patches are taken about the
    // face centres within manifoldSnapAngle of it
    EXPECT_NEAR((c.normal - Vector3::UnitZ()).norm(), 0, 1e-5);
    const ContactManifold m = pairManifold(cube, pA, cube, pB, c);
    ASSERT_EQ(m.count, 4);
    const double s = 0.61;
    const Eigen::Vector2d corners[4] = {{0.5 - s, 0.3 - s}, {s, 0.3 - s}, {s, s}, {0.5 - s, s}};
    for (const Eigen::Vector2d& corner : corners)
    {
        double nearest = 1e300;
        for (int i = 0; i < 4; ++i)
        {
            nearest = std::min(nearest, (m.points[i].point.head<2>() - corner).lpNorm<Eigen::Infinity>());
        }
        EXPECT_LT(nearest, 0.03) << corner.transpose();
    }
    for (int i = 0; i < 4; ++i)
    {
        EXPECT_LE(m.points[i].depth, 0.01 + 1e-9);
        EXPECT_GE(m.points[i].depth, 0.01 - 1e-3);
    }
    EXPECT_NEAR(m.maxDepth(), c.overlap, 1e-15);
}

// Cube on a floor tilted by theta = 2e-4 about y (the whole face within
// tau = 1e-3 c of its lowest point): the depths vary linearly along x with
// slope theta, the face being a plane to (x/c)^10/10 ~ 1e-3 of that
// variation; checked between the points on either side (2e-8 c).
TEST(ContactManifold, TiltedCubeDepthsVaryLinearly)
{
    const double theta = 2e-4;
    Pose pose;
    pose.orientation = Quaternion(Eigen::AngleAxisd(theta, Vector3::UnitY()));
    const Plane floor = floorPlane();
    pose.position = Vector3(0, 0, 0.99);
    const Contact c = detectWallContact(cube, pose, floor);
    const ContactManifold m = wallManifold(cube, pose, floor, c);
    ASSERT_EQ(m.count, 4);
    // Exact: the face z' = -c rotated by theta about y is the plane
    // z = -x tan(theta) + const: deeper by tan(theta) per unit of x
    int deepest = 0;
    for (int i = 1; i < 4; ++i) if (m.points[i].depth > m.points[deepest].depth) deepest = i;
    for (int i = 0; i < 4; ++i)
    {
        const double dx = m.points[i].point.x() - m.points[deepest].point.x();
        EXPECT_NEAR(m.points[i].depth - m.points[deepest].depth, std::tan(theta)*dx, 2e-8) << i;
    }
    EXPECT_NEAR(m.points[deepest].depth, c.overlap, 1e-15);
}

// Cylinder-like body lying on a floor (axis along x): a line contact, two
// points on the generator under the axis, symmetric about the centre
// (mirror symmetry x -> -x; 1e-9 c Newton tolerance), each as deep as
// the overlap (the generator is parallel to the floor)
TEST(ContactManifold, CylinderOnItsSideHasTwoPointsOnTheGenerator)
{
    Pose pose;
    pose.orientation = Quaternion(Eigen::AngleAxisd(0.5*M_PI, Vector3::UnitY()));
    pose.position = Vector3(0, 0, 0.99);
    const Plane floor = floorPlane();
    const Contact c = detectWallContact(cylinder, pose, floor);
    const ContactManifold m = wallManifold(cylinder, pose, floor, c);
    ASSERT_EQ(m.count, 2);
    EXPECT_NEAR(m.points[0].point.x() + m.points[1].point.x(), 0, 1e-9);
    EXPECT_GT(std::abs(m.points[0].point.x()), 0.5);
    for (int i = 0; i < 2; ++i)
    {
        EXPECT_NEAR(m.points[i].point.y(), 0, 1e-9);
        EXPECT_NEAR(m.points[i].depth, 0.01, 1e-9);
    }
}
