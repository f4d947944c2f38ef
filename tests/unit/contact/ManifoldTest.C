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
