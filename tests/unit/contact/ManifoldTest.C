// Contact manifolds: point, line and face contacts against exact geometry,
// symmetry, rigid-motion invariance and persistence.
#include "contact/ContactTestHelpers.H"
#include "contact/ManifoldGeometry.H"
#include "contact/ParticleContact.H"
#include "contact/WallContact.H"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

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
// patch's diagonal points, where the normal turns by 0.01 rad: 0.577 c
// from the centre along each axis), equal depths = the overlap (by the
// fourfold symmetry; 1e-9 c is the Newton tolerance of the depth rays) and
// their centroid under the centre.
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
        // cube's surface lies 8e-4 c above its lowest plane
        EXPECT_NEAR(p.point.z(), -0.005, 0.5e-3);
        EXPECT_NEAR((p.pointInA - pose.toParticleFrame(p.point)).norm(), 0, 1e-12);
        centroid += p.point/4;
    }
    EXPECT_NEAR(centroid.x(), pose.position.x(), 1e-9);
    EXPECT_NEAR(centroid.y(), pose.position.y(), 1e-9);
}

// Cube face on cube face, B offset by (0.5, 0.3) c: four points at the
// corners of the overlap of the two patches, each the support points of
// the 0.01 rad tilts about the face normal: 0.00707^(1/9) = 0.577 c on the
// diagonals, 0.01^(1/9) = 0.599 c on the axes, so the rectangle
// [0.5 - s, s] x [0.3 - s, s] with s = 0.59 c to +-0.02 c. Depths: the
// overlap to within 1e-3 c (a patch corner lies 8e-4 c above its face's
// lowest plane).
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
    const double s = 0.59;
    const Eigen::Vector2d corners[4] = {{0.5 - s, 0.3 - s}, {s, 0.3 - s}, {s, s}, {0.5 - s, s}};
    for (const Eigen::Vector2d& corner : corners)
    {
        double nearest = 1e300;
        for (int i = 0; i < 4; ++i)
        {
            nearest = std::min(nearest, (m.points[i].point.head<2>() - corner).lpNorm<Eigen::Infinity>());
        }
        EXPECT_LT(nearest, 0.02) << corner.transpose();
    }
    for (int i = 0; i < 4; ++i)
    {
        EXPECT_LE(m.points[i].depth, 0.01 + 1e-9);
        EXPECT_GE(m.points[i].depth, 0.01 - 1e-3);
    }
    EXPECT_NEAR(m.maxDepth(), c.overlap, 1e-15);
}

// Cube on a floor tilted by theta = 2e-4 about y (below the snap limit:
// the patch stays about the face centre): the depths vary linearly along x with
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

namespace
{

//- Largest distance from a point of m1 to the nearest point of m2 (and
//  the depth difference there): the manifolds as sets of points
double setDistance(const ContactManifold& m1, const ContactManifold& m2)
{
    double worst = 0;
    for (int i = 0; i < m1.count; ++i)
    {
        double nearest = 1e300;
        for (int j = 0; j < m2.count; ++j)
        {
            nearest = std::min
            (
                nearest,
                (m1.points[i].point - m2.points[j].point).norm() + std::abs(m1.points[i].depth - m2.points[j].depth)
            );
        }
        worst = std::max(worst, nearest);
    }
    return worst;
}

//- Random pairs in contact along a random common normal, overlap 1e-3 to
//  0.05 c; every fourth pair two face-like bodies (eps 0.2) nearly aligned
struct RandomPair
{
    Superellipsoid A = Superellipsoid::sphere(1), B = Superellipsoid::sphere(1);
    Pose pA, pB;
};

RandomPair randomPair(std::mt19937_64& rng, int k)
{
    using namespace superellipsoid::testing;
    RandomPair p;
    p.A = randomShape(rng, 0.2, 1.8, 3);
    p.B = randomShape(rng, 0.2, 1.8, 3);
    p.pA.orientation = Quaternion(Eigen::AngleAxisd(uniform(rng, 0, M_PI), randomUnit(rng)));
    p.pB.orientation = Quaternion(Eigen::AngleAxisd(uniform(rng, 0, M_PI), randomUnit(rng)));
    Vector3 n = randomUnit(rng);
    if (k % 4 == 0)
    {
        p.A = Superellipsoid(uniform(rng, 1, 2), 1, uniform(rng, 0.5, 1), 0.2, 0.2);
        p.B = Superellipsoid(uniform(rng, 1, 2), 1, uniform(rng, 0.5, 1), 0.2, 0.2);
        p.pB.orientation = p.pA.orientation*Quaternion(Eigen::AngleAxisd(uniform(rng, -1, 1), Vector3::UnitZ()));
        n = p.pA.directionToGlobalFrame(Vector3::UnitZ());
    }
    placeWithCommonNormal(p.A, p.pA, p.B, p.pB, n, uniform(rng, 1e-3, 0.05)*std::min(p.A.c(), p.B.c()));
    if (k % 4 == 0) p.pB.position += p.pA.directionToGlobalFrame(Vector3(uniform(rng, -0.5, 0.5), uniform(rng, -0.5, 0.5), 0));
    return p;
}

} // namespace

// Swapping A and B mirrors the manifold: the same points and depths, the
// normal reversed. Both orders clip the same two polygons (in the other
// order) and the largest quadrilateral of a polygon does not depend on
// its first vertex: equal to round-off (1e-9 c: the depth rays' tolerance).
TEST(ContactManifold, SwappingTheBodiesMirrorsTheManifold)
{
    std::mt19937_64 rng(14);
    int multi = 0;
    for (int k = 0; k < 200; ++k)
    {
        const RandomPair p = randomPair(rng, k);
        const Contact c = detectParticleContact(p.A, p.pA, p.B, p.pB);
        if (!c.touching()) continue;
        Contact swapped = c;
        swapped.normal = -c.normal;
        std::swap(swapped.pointOnA, swapped.pointOnB);
        const ContactManifold m = pairManifold(p.A, p.pA, p.B, p.pB, c);
        const ContactManifold ms = pairManifold(p.B, p.pB, p.A, p.pA, swapped);
        ASSERT_EQ(m.count, ms.count) << k;
        EXPECT_NEAR((m.normal + ms.normal).norm(), 0, 1e-15);
        const double lc = std::min(p.A.c(), p.B.c());
        EXPECT_LT(setDistance(m, ms), 1e-9*lc) << k;
        EXPECT_LT(setDistance(ms, m), 1e-9*lc) << k;
        multi += m.count > 1;
    }
    EXPECT_GT(multi, 30);   // the face pairs give face manifolds
}

// A rigid motion of both bodies moves the manifold with them: the points
// transform, the depths are unchanged (the contact is transformed with
// them; the ring directions are tied to the body axes, so only the
// tangent basis of the clipping differs). The polygon vertices and depths
// are Newton iterates converged to 1e-9 c, so two evaluations differ by up
// to a few 1e-9 c: tolerance 1e-8 c.
TEST(ContactManifold, RigidMotionMovesTheManifold)
{
    std::mt19937_64 rng(41);
    for (int k = 0; k < 200; ++k)
    {
        const RandomPair p = randomPair(rng, k);
        const Contact c = detectParticleContact(p.A, p.pA, p.B, p.pB);
        if (!c.touching()) continue;
        const Quaternion R(Eigen::AngleAxisd(superellipsoid::testing::uniform(rng, 0, M_PI), superellipsoid::testing::randomUnit(rng)));
        const Vector3 t(1.5, -2, 0.7);
        Pose qA = p.pA, qB = p.pB;
        qA.orientation = R*p.pA.orientation;
        qB.orientation = R*p.pB.orientation;
        qA.position = R*p.pA.position + t;
        qB.position = R*p.pB.position + t;
        Contact cm = c;
        cm.normal = R*c.normal;
        cm.point = R*c.point + t;
        cm.pointOnA = R*c.pointOnA + t;
        cm.pointOnB = R*c.pointOnB + t;
        const ContactManifold m = pairManifold(p.A, p.pA, p.B, p.pB, c);
        ContactManifold moved = pairManifold(p.A, qA, p.B, qB, cm);
        ASSERT_EQ(m.count, moved.count) << k;
        for (int i = 0; i < moved.count; ++i)
        {
            moved.points[i].point = R.conjugate()*(moved.points[i].point - t);
        }
        const double lc = std::min(p.A.c(), p.B.c());
        EXPECT_LT(setDistance(m, moved), 1e-8*lc) << k;
        EXPECT_LT(setDistance(moved, m), 1e-8*lc) << k;
    }
}

// Invariants on random pairs, deep overlaps and extreme shapes included:
// finite, 1..4 points, the deepest as deep as the detection's overlap,
// every point inside both bodies' bounding spheres grown by the overlap
// and 0.02 of the larger radius (a point is halfway between the surfaces,
// half the local gap out where they do not overlap; the patches lie
// within 0.02 rad of the tangent plane).
TEST(ContactManifold, RandomPairsGiveValidManifolds)
{
    std::mt19937_64 rng(7);
    for (int k = 0; k < 400; ++k)
    {
        RandomPair p = randomPair(rng, k);
        if (k % 5 == 1)
        {
            // Deep overlap and needle-like or extreme squareness
            p.A = Superellipsoid(superellipsoid::testing::uniform(rng, 3, 10), 0.5, 0.5, 0.1, superellipsoid::testing::uniform(rng, 0.1, 1.9));
            p.pB.position = p.pA.position + 0.5*(p.pB.position - p.pA.position);
        }
        const Contact c = detectParticleContact(p.A, p.pA, p.B, p.pB);
        if (!c.touching()) continue;
        const ContactManifold m = pairManifold(p.A, p.pA, p.B, p.pB, c);
        ASSERT_GE(m.count, 1) << k;
        ASSERT_LE(m.count, maxManifoldPoints) << k;
        EXPECT_TRUE(m.normal.allFinite());
        EXPECT_NEAR(m.maxDepth(), c.overlap, 1e-12*std::max(1.0, c.overlap)) << k;
        for (int i = 0; i < m.count; ++i)
        {
            const ManifoldPoint& q = m.points[i];
            ASSERT_TRUE(q.point.allFinite() && q.pointInA.allFinite() && std::isfinite(q.depth)) << k;
            const double spread = 0.02*std::max(p.A.boundingRadius(), p.B.boundingRadius());
            EXPECT_LE((q.point - p.pA.position).norm(), p.A.boundingRadius() + c.overlap + spread) << k;
            EXPECT_LE((q.point - p.pB.position).norm(), p.B.boundingRadius() + c.overlap + spread) << k;
        }
    }
}

// A tilt of 1e-16 rad of a face-down cube does not move its wall
// manifold: the patch is taken about the face centre (a raw support point
// jumps by ~ tilt^(1/9) ~ 0.02 c). Equal to round-off (1e-12 c).
TEST(ContactManifold, TinyTiltDoesNotMoveTheWallPoints)
{
    const Plane floor = floorPlane();
    Pose pose;
    pose.position = Vector3(0, 0, 0.99);
    const ContactManifold m0 = wallManifold(cube, pose, floor, detectWallContact(cube, pose, floor));
    for (const Vector3& axis : {Vector3(1, 0, 0), Vector3(0, 1, 0), Vector3(1, 2, 0).normalized()})
    {
        Pose tilted = pose;
        tilted.orientation = Quaternion(Eigen::AngleAxisd(1e-16, axis));
        const Contact c = detectWallContact(cube, tilted, floor);
        // The detection's point is the face centre's foot on the mid-plane
        EXPECT_LT((c.point - Vector3(0, 0, -0.005)).norm(), 1e-12);
        EXPECT_GT((c.pointOnA - Vector3(0, 0, -0.01)).norm(), 1e-3);   // the raw support point jumps
        const ContactManifold m = wallManifold(cube, tilted, floor, c);
        ASSERT_EQ(m.count, 4);
        EXPECT_LT(setDistance(m, m0), 1e-12);
        EXPECT_LT(setDistance(m0, m), 1e-12);
    }
}

// Where the scalar curvature weighting is exact (two spheres of any radii:
// the point on the centre line; a symmetric pair of ellipsoids: the
// midpoint) the manifold's one point is the detection's point (1e-12:
// round-off)
TEST(ContactManifold, SmoothBodiesKeepTheDetectedPoint)
{
    const Superellipsoid small = Superellipsoid::sphere(0.5), big = Superellipsoid::sphere(2);
    Pose pA, pB;
    pB.position = Vector3(1.2, 1.1, -0.4).normalized()*2.45;
    Contact c = detectParticleContact(small, pA, big, pB);
    ContactManifold m = pairManifold(small, pA, big, pB, c);
    ASSERT_EQ(m.count, 1);
    EXPECT_LT((m.points[0].point - c.point).norm(), 1e-12);
    EXPECT_NEAR(m.points[0].depth, 0.05, 1e-12);

    const Superellipsoid prolate(2, 1, 1, 1, 1);
    pA.orientation = Quaternion(Eigen::AngleAxisd(0.3, Vector3(1, 2, 3).normalized()));
    pB.orientation = pA.orientation;
    pA.position = Vector3(-1.1, 0.2, 0);
    pB.position = -pA.position;   // point symmetry x -> -x swaps A and B
    c = detectParticleContact(prolate, pA, prolate, pB);
    ASSERT_TRUE(c.touching());
    m = pairManifold(prolate, pA, prolate, pB, c);
    ASSERT_EQ(m.count, 1);
    EXPECT_LT((m.points[0].point - c.point).norm(), 1e-9);
    EXPECT_LT(m.points[0].point.norm(), 1e-9);
}

// A cube face-down half over the edge of a finite wall face (the square
// [-2, 0.3] x [-2, 2]): its patch is clipped at x = 0.3, so the points
// lie at x <= 0.3 and two of them on it (exact to round-off); an edge
// contact of the face gives one point at the detected point.
TEST(ContactManifold, FaceContactIsClippedToTheFacePolygon)
{
    const Vector3 corners[4] = {{-2, -2, 0}, {0.3, -2, 0}, {0.3, 2, 0}, {-2, 2, 0}};
    const WallFace face = WallFace::fromVertices(corners, 4);
    Pose pose;
    pose.position = Vector3(0.1, 0, 0.99);
    const Contact c = detectFaceContact(cube, pose, face);
    ASSERT_TRUE(c.touching());
    ASSERT_EQ(c.feature, WallFeature::Face);
    const ContactManifold m = wallManifold(cube, pose, face, c);
    ASSERT_EQ(m.count, 4);
    int onClipLine = 0;
    for (int i = 0; i < 4; ++i)
    {
        EXPECT_LE(m.points[i].point.x(), 0.3 + 1e-12);
        onClipLine += std::abs(m.points[i].point.x() - 0.3) < 1e-12;
        // The clip points lie inside the flat face, the patch corners
        // 8e-4 c higher near its rim: depths within 1e-3 c of the overlap
        EXPECT_LE(m.points[i].depth, 0.01 + 1e-12);
        EXPECT_GE(m.points[i].depth, 0.01 - 1e-3);
    }
    EXPECT_EQ(onClipLine, 2);
    EXPECT_NEAR(m.maxDepth(), c.overlap, 1e-15);

    // Over the edge: the particle's centre beyond the face
    pose.position = Vector3(1.2, 0, 0.5);
    pose.orientation = Quaternion(Eigen::AngleAxisd(0.7, Vector3::UnitY()));
    const Contact e = detectFaceContact(cube, pose, face);
    ASSERT_TRUE(e.touching());
    ASSERT_EQ(e.feature, WallFeature::Edge);
    const ContactManifold me = wallManifold(cube, pose, face, e);
    ASSERT_EQ(me.count, 1);
    // The particle's deepest point, half the overlap back onto the
    // mid-surface; for this regular edge contact within 1e-5 c of the
    // detection's point (a needle's edge point can lie far along the edge)
    EXPECT_EQ(me.points[0].point, Vector3(e.pointOnA + 0.5*e.overlap*e.normal));
    EXPECT_LE((me.points[0].point - e.point).norm(), 1e-5);
    EXPECT_EQ(me.points[0].depth, e.overlap);
}

// Persistence: a face-down cube moved by a small rigid motion (1e-4 c,
// 1e-4 rad, below the snap limit) keeps its four points in its own frame
// (the patch is fixed in the body), so every point matches its previous
// one within manifoldMatchTolerance (to 2e-4 c: the patch is fixed in the
// body, the points' projection onto the mid-plane moves by the tilt times
// 0.6 c); the opposite face (upside down) has none in common.
TEST(ContactManifold, SmallMotionMatchesEveryPoint)
{
    const Plane floor = floorPlane();
    Pose pose;
    pose.position = Vector3(0, 0, 0.99);
    const ContactManifold m0 = wallManifold(cube, pose, floor, detectWallContact(cube, pose, floor));
    Pose moved = pose;
    moved.position += Vector3(1e-4, -0.5e-4, 0);
    moved.orientation = Quaternion(Eigen::AngleAxisd(1e-4, Vector3(1, 2, 0).normalized()));
    const ContactManifold m1 = wallManifold(cube, moved, floor, detectWallContact(cube, moved, floor));
    ASSERT_EQ(m1.count, 4);
    std::array<int, maxManifoldPoints> index;
    EXPECT_EQ(matchManifoldPoints(m0, m1, manifoldMatchTolerance*cube.c(), index), 4);
    for (int i = 0; i < 4; ++i)
    {
        ASSERT_GE(index[i], 0);
        EXPECT_LT((m1.points[i].pointInA - m0.points[index[i]].pointInA).norm(), 2e-4);
    }
    Pose upsideDown = pose;
    upsideDown.orientation = Quaternion(Eigen::AngleAxisd(M_PI, Vector3::UnitX()));
    const ContactManifold m2 = wallManifold(cube, upsideDown, floor, detectWallContact(cube, upsideDown, floor));
    EXPECT_EQ(matchManifoldPoints(m0, m2, manifoldMatchTolerance*cube.c(), index), 0);
}
