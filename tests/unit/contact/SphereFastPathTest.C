// Sphere fast paths: the closed forms must return what the generic
// superellipsoid paths return (same fields, conventions, status), compared
// over random poses. Reference: the generic path itself.
#include "ContactTestHelpers.H"
#include "contact/ManifoldGeometry.H"
#include "contact/ParticleContact.H"
#include "contact/WallContact.H"

#include <gtest/gtest.h>

using namespace superellipsoid;
using namespace superellipsoid::testing;

namespace
{

//- Status, points, normal and overlap of two results within tolerances
//  (lengths relative to r, the normal absolute)
void expectSameContact
(
    const Contact& fast, const Contact& generic, double r,
    double pointTol, double normalTol, double overlapTol, int i
)
{
    ASSERT_EQ(fast.status, generic.status) << i;
    EXPECT_EQ(fast.feature, generic.feature) << i;
    EXPECT_NEAR(fast.overlap, generic.overlap, overlapTol*r) << i;
    EXPECT_LE((fast.normal - generic.normal).norm(), normalTol) << i;
    EXPECT_LE((fast.pointOnA - generic.pointOnA).norm(), pointTol*r) << i;
    EXPECT_LE((fast.pointOnB - generic.pointOnB).norm(), pointTol*r) << i;
    EXPECT_LE((fast.point - generic.point).norm(), pointTol*r) << i;
}

//- Two spheres of radii in [0.2, 2] at random poses, their centres
//  (rA + rB) x a factor in [lo, hi] apart (lo = hi: that factor, not drawn)
struct SpherePair
{
    double rA, rB;
    Superellipsoid A, B;
    Pose pA, pB;
};

SpherePair randomSpherePair(std::mt19937_64& rng, double lo, double hi)
{
    const double rA = uniform(rng, 0.2, 2), rB = uniform(rng, 0.2, 2);
    SpherePair p{rA, rB, Superellipsoid::sphere(rA), Superellipsoid::sphere(rB), Pose(), Pose()};
    p.pA.position = Vector3(uniform(rng, -5, 5), uniform(rng, -5, 5), uniform(rng, -5, 5));
    p.pA.orientation = randomOrientation(rng);
    p.pB.orientation = randomOrientation(rng);
    const double factor = lo == hi ? lo : uniform(rng, lo, hi);
    p.pB.position = p.pA.position + (rA + rB)*factor*randomUnit(rng);
    return p;
}

} // namespace

// Cold detections: the generic path starts the common-normal Newton on the
// centre line, which is the exact minimum for spheres (tangential gap 0 at
// iteration 0), so both evaluate the same closed form: agreement to
// round-off, 1e-12 relative (a few ulps of the 1e1 coordinates times the
// handful of operations). Covers separated (bounding spheres apart and
// inside the bounding-sphere shell), touching and deep (d down to 1 %).
TEST(SphereFastPath, PairMatchesGenericColdPath)
{
    std::mt19937_64 rng(91);
    int touching = 0, separated = 0;
    for (int i = 0; i < 2000; ++i)
    {
        const SpherePair p = randomSpherePair(rng, 0.01, 1.3);
        const double rA = p.rA, rB = p.rB;
        const Superellipsoid& A = p.A;
        const Superellipsoid& B = p.B;
        const Pose& pA = p.pA;
        const Pose& pB = p.pB;
        ASSERT_TRUE(A.isSphere() && B.isSphere());
        const Contact generic = detectParticleContactGeneric(A, pA, B, pB);
        const Contact fast = detectParticleContact(A, pA, B, pB);
        if (std::abs(generic.overlap) < 1e-12*(rA + rB)) continue;   // touching exactly: either status
        touching += generic.touching();
        separated += !generic.touching();
        expectSameContact(fast, generic, rA + rB, 1e-12, 1e-12, 1e-12, i);
        EXPECT_EQ(fast.iterations, 0);
        EXPECT_FALSE(fast.usedFallback);
    }
    EXPECT_GT(touching, 1000);
    EXPECT_GT(separated, 200);
}

// Warm detections (the production path of a persistent pair): the generic
// path then converges the common-normal Newton from the stored normal to
// the tangential tolerance contactToleranceFactor c = 1e-6 r, i.e. points
// within ~1e-6 r and the normal within ~1e-6 / (curvature radii sum / r);
// the overlap is the minimum of delta(n), second order in the normal error.
// The pair moves by up to 2 % of r per step (a collision substep moves
// < 10 %), so each warm start is close to the answer as in production.
TEST(SphereFastPath, PairMatchesGenericWarmPath)
{
    std::mt19937_64 rng(92);
    int compared = 0;
    for (int k = 0; k < 100; ++k)
    {
        SpherePair p = randomSpherePair(rng, 0.95, 0.95);
        const double rA = p.rA, rB = p.rB;
        const Superellipsoid& A = p.A;
        const Superellipsoid& B = p.B;
        Pose& pA = p.pA;
        Pose& pB = p.pB;
        ContactWarmStart warmGeneric, warmFast;
        for (int step = 0; step < 20; ++step)
        {
            pB.position += 0.02*std::min(rA, rB)*randomUnit(rng);
            pA.orientation = (pA.orientation*Quaternion(Eigen::AngleAxisd(0.1, randomUnit(rng)))).normalized();
            const Contact generic = detectParticleContactGeneric(A, pA, B, pB, &warmGeneric);
            const Contact fast = detectParticleContact(A, pA, B, pB, &warmFast);
            if (!generic.touching() || generic.overlap < 1e-6*(rA + rB)) continue;
            ++compared;
            expectSameContact(fast, generic, rA + rB, 2e-6, 2e-6, 1e-9, k);
            // The warm start is written as the generic path writes it
            ASSERT_TRUE(warmFast.valid);
            EXPECT_LE((warmFast.normalInA - warmGeneric.normalInA).norm(), 2e-6);
        }
    }
    EXPECT_GT(compared, 1000);
}

// Coincident centres: no centre line; both use A's z' axis.
TEST(SphereFastPath, CoincidentCentresUseTheSameNormal)
{
    Pose pA, pB;
    pA.orientation = Quaternion(Eigen::AngleAxisd(0.7, Vector3(1, 2, 3).normalized()));
    pA.position = pB.position = Vector3(1, 2, 3);
    const Superellipsoid A = Superellipsoid::sphere(1), B = Superellipsoid::sphere(0.5);
    expectSameContact(detectParticleContact(A, pA, B, pB), detectParticleContactGeneric(A, pA, B, pB),
                      1.5, 1e-12, 1e-12, 1e-12, 0);
}

// Faces: a sphere near random convex faces (triangles and quads, any
// orientation), centres spread over the interior, edge and vertex zones.
// Interior and vertex contacts are closed forms on both paths (the vertex
// Newton starts at its exact minimum): round-off. Edge contacts: the
// generic bisection stops at the angle tolerance 1e-6 c/R = 1e-6 rad for a
// sphere, so the normal and pointOnA differ by <= 1e-6 (r); pointOnB (the
// foot of the centre on the edge line, independent of the angle) and the
// overlap (minimal in the angle: error r (1e-6)^2/2) to ~1e-12 r.
TEST(SphereFastPath, FaceMatchesGenericPath)
{
    std::mt19937_64 rng(93);
    int byFeature[4] = {0, 0, 0, 0};
    for (int i = 0; i < 3000; ++i)
    {
        const int nv = i%2 ? 4 : 3;
        // Convex polygon: points on a circle at increasing angles, then a
        // random rigid rotation and offset
        Vector3 v[4];
        const Quaternion q = randomOrientation(rng);
        const Vector3 offset(uniform(rng, -3, 3), uniform(rng, -3, 3), uniform(rng, -3, 3));
        const double R = uniform(rng, 0.5, 3);
        double angle = uniform(rng, 0, 2*M_PI);
        for (int k = 0; k < nv; ++k)
        {
            v[k] = q*Vector3(R*std::cos(angle), R*std::sin(angle), 0) + offset;
            angle += 2*M_PI/nv*uniform(rng, 0.5, 1.2);
        }
        const WallFace face = WallFace::fromVertices(v, nv);
        const double r = uniform(rng, 0.2, 1.5);
        const Superellipsoid s = Superellipsoid::sphere(r);
        Pose p;
        p.orientation = randomOrientation(rng);
        // Centre above the face's plane near its polygon (within 1.2 R + r)
        p.position = offset + q*Vector3(uniform(rng, -1.4, 1.4)*R, uniform(rng, -1.4, 1.4)*R, 0)
                   + uniform(rng, -0.2, 1.0)*r*face.normal;
        const Contact generic = detectFaceContact(s, p, face, false);
        const Contact fast = detectFaceContact(s, p, face);
        if (std::abs(generic.overlap) < 1e-9*r) continue;
        ++byFeature[int(generic.feature)];
        const bool edge = generic.feature == WallFeature::Edge;
        expectSameContact(fast, generic, r, edge ? 2e-6 : 1e-12, edge ? 2e-6 : 1e-12, 1e-11, i);
        if (edge)
        {
            EXPECT_LE((fast.pointOnB - generic.pointOnB).norm(), 1e-11*r) << i;
        }
    }
    // Every branch is exercised
    EXPECT_GT(byFeature[int(WallFeature::None)], 100);
    EXPECT_GT(byFeature[int(WallFeature::Face)], 100);
    EXPECT_GT(byFeature[int(WallFeature::Edge)], 100);
    EXPECT_GT(byFeature[int(WallFeature::Vertex)], 50);
}


// Manifold of two touching spheres: the closed form (one point, the
// detection's, at its overlap) against the general manifold builder on the
// same contact. Both evaluate the curvature rule of two spheres, whose
// point is the detection's mid-plane point: round-off, 1e-12 relative.
TEST(SphereFastPath, PairManifoldMatchesGenericBuilder)
{
    std::mt19937_64 rng(93);
    int compared = 0;
    for (int i = 0; i < 1000; ++i)
    {
        const SpherePair p = randomSpherePair(rng, 0.5, 0.999);
        const Superellipsoid& A = p.A;
        const Superellipsoid& B = p.B;
        const Pose& pA = p.pA;
        const Pose& pB = p.pB;
        const Contact c = detectParticleContact(A, pA, B, pB);
        ASSERT_TRUE(c.touching()) << i;
        const ContactManifold fast = pairManifold(A, pA, B, pB, c);
        const ContactManifold generic = pairManifoldGeneric(A, pA, B, pB, c);
        const double r = p.rA + p.rB;
        ASSERT_EQ(fast.count, generic.count) << i;
        ASSERT_EQ(fast.count, 1) << i;
        EXPECT_LE((fast.normal - generic.normal).norm(), 1e-12) << i;
        EXPECT_LE((fast.points[0].point - generic.points[0].point).norm(), 1e-12*r) << i;
        EXPECT_LE((fast.points[0].pointInA - generic.points[0].pointInA).norm(), 1e-12*r) << i;
        EXPECT_NEAR(fast.points[0].depth, generic.points[0].depth, 1e-12*r) << i;
        ++compared;
    }
    EXPECT_EQ(compared, 1000);
}


// Manifold of a sphere on a plane wall: the closed form (one point, half
// the overlap above the deepest point) against the general manifold
// builder (a wall has no curvature, so its point is the sphere's patch
// centre, its support point, on the mid-surface): 1e-12 relative.
TEST(SphereFastPath, WallManifoldMatchesGenericBuilder)
{
    std::mt19937_64 rng(95);
    for (int i = 0; i < 1000; ++i)
    {
        const double r = uniform(rng, 0.2, 2);
        const Superellipsoid s = Superellipsoid::sphere(r);
        Pose pose;
        pose.position = Vector3(uniform(rng, -5, 5), uniform(rng, -5, 5), uniform(rng, -5, 5));
        pose.orientation = randomOrientation(rng);
        Plane plane;
        plane.normal = randomUnit(rng);
        plane.point = pose.position - r*uniform(rng, 0.5, 0.999)*plane.normal;
        const Contact c = detectWallContact(s, pose, plane);
        ASSERT_TRUE(c.touching()) << i;
        const ContactManifold fast = wallManifold(s, pose, plane, c);
        const ContactManifold generic = wallManifoldGeneric(s, pose, plane, c);
        ASSERT_EQ(fast.count, 1) << i;
        ASSERT_EQ(generic.count, 1) << i;
        EXPECT_LE((fast.normal - generic.normal).norm(), 1e-12) << i;
        EXPECT_LE((fast.points[0].point - generic.points[0].point).norm(), 1e-12*r) << i;
        EXPECT_LE((fast.points[0].pointInA - generic.points[0].pointInA).norm(), 1e-12*r) << i;
        EXPECT_NEAR(fast.points[0].depth, generic.points[0].depth, 1e-12*r) << i;
    }
}
