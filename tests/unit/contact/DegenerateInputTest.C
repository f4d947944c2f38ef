// Degenerate pair inputs found by fuzzing (tests/fuzz, docs/fuzzing.md; the
// crashing inputs are kept in tests/fuzz/corpus/particleContact/crash-*):
// coincident centres, exactly touching bodies, continuation at the
// squareness limits eps = 0.1 and 1.9.
#include "contact/ParticleContact.H"

#include <gtest/gtest.h>

using namespace superellipsoid;

namespace
{

//- |n| = 1 to round-off of one normalisation
constexpr double unitTolerance = 1e-12;

Pose posed(const Vector3& position, const Quaternion& orientation)
{
    Pose p;
    p.position = position;
    p.orientation = orientation;
    return p;
}

} // namespace


TEST(CoincidentCentres, EqualSpheresOverlapByTheirDiameter)
{
    // delta(n) = r + r - 0 for every n: the penetration depth is 2 r, and any
    // unit normal is a common normal
    const double r = 0.7;
    const Superellipsoid s = Superellipsoid::sphere(r);
    const Contact c = detectParticleContact(s, Pose{}, s, Pose{});
    EXPECT_EQ(c.status, ContactStatus::Touching);
    EXPECT_NEAR(c.normal.norm(), 1.0, unitTolerance);
    EXPECT_NEAR(c.overlap, 2*r, 1e-14);      // support values of a sphere are exact to round-off
    EXPECT_TRUE(c.point.allFinite() && c.pointOnA.allFinite() && c.pointOnB.allFinite());
}


TEST(CoincidentCentres, AlignedEllipsoidsPenetrateAlongTheirThinnestAxis)
{
    // Identical, equally oriented ellipsoids: delta(n) = 2 h(n) is smallest
    // along the thinnest axis z', where it is 2 c (exact reference)
    const Superellipsoid e(3.0, 2.0, 1.0, 1.0, 1.0);
    const Quaternion q = Quaternion(0.3, -0.5, 0.7, 0.2).normalized();
    const Pose p = posed(Vector3(1, -2, 3), q);
    const Contact c = detectParticleContact(e, p, e, p);
    EXPECT_EQ(c.status, ContactStatus::Touching);
    EXPECT_NEAR(c.normal.norm(), 1.0, unitTolerance);
    EXPECT_NEAR(c.overlap, 2*e.c(), 1e-9);   // Newton tolerance 1e-6 c enters delta quadratically
    EXPECT_NEAR(std::abs(c.normal.dot(q*Vector3::UnitZ())), 1.0, 1e-9);
}


TEST(CoincidentCentres, CommonNormalFromAZeroStartIsAUnitVector)
{
    // refineCommonNormal with no start direction (n0 = 0), B a point at A's
    // centre: the distance of the centre to the surface, min over n of
    // h_A(n) = c for this ellipsoid
    const Superellipsoid e(3.0, 2.0, 1.0, 1.0, 1.0);
    const CommonNormalResult r = refineCommonNormal(e, Pose{}, nullptr, Pose{}, Vector3::Zero(), 1e-6);
    EXPECT_NEAR(r.normal.norm(), 1.0, unitTolerance);
    EXPECT_TRUE(r.pointOnA.allFinite());
    EXPECT_GE(r.overlap, e.c() - 1e-12);     // h_A(n) >= c for every unit n
}


TEST(ExactlyTouching, ZeroOverlapIsNotAContact)
{
    // Unit spheres at distance 2: delta = 1 + 1 - 2 = 0 exactly. A Touching
    // contact has overlap > 0 (ContactTypes.H), so this pair is Separated
    const Superellipsoid s = Superellipsoid::sphere(1.0);
    const Contact c = detectParticleContact(s, Pose{}, s, posed(Vector3(2, 0, 0), Quaternion::Identity()));
    EXPECT_EQ(c.overlap, 0.0);
    EXPECT_EQ(c.status, ContactStatus::Separated);
    EXPECT_EQ(c.normal, Vector3::UnitX());
}


TEST(Continuation, ReachesTheTrueShapesAtTheSquarenessLimits)
{
    // The continuation blends from spheres to the shapes; at the last stage
    // 1 + (eps - 1) must give eps itself (it rounded to 0.0999...98 < 0.1,
    // and the blended shape threw InvalidShape). Box-like A (eps = 0.1) and
    // a sphere B of radius 0.5 centred at (1.25, 0, 0): p1 = argmin S2 on
    // S1 = 0 is the point of A's face x' = 1 nearest to B's centre, (1, 0, 0).
    for (const double eps : {Superellipsoid::minSquareness, Superellipsoid::maxSquareness})
    {
        const Superellipsoid A(1.0, 1.0, 1.0, eps, eps);
        const Superellipsoid B = Superellipsoid::sphere(0.5);
        const Pose pB = posed(Vector3(1.25, 0, 0), Quaternion::Identity());
        PairPart1Result r;
        // maxIterations = 0: the first Newton stage cannot converge, which
        // forces the continuation fallback
        ASSERT_NO_THROW(r = pairContactPart1(A, Pose{}, B, pB, 0, true)) << "eps = " << eps;
        EXPECT_TRUE(r.usedFallback);
        ASSERT_TRUE(r.converged) << "eps = " << eps;
        // Converged to the Newton tolerance 1e-6 c of the point
        EXPECT_NEAR((r.pointInA - Vector3::UnitX()).norm(), 0.0, 1e-6) << "eps = " << eps;
        EXPECT_NEAR(r.insideOutB, 0.25*0.25/(0.5*0.5) - 1, 1e-5) << "eps = " << eps;
    }
}


TEST(FallbackMinimum, NeverAboveTheCentreLineOverlap)
{
    // Fuzz input particleContact/deep-fallbackLocalMinimum: a near-sphere A
    // (eps 1.9/1.14) 0.9 c_A deep in a needle-like B (22.6 x 1.13 x 1.13 m,
    // eps 1.9/0.4). The centre-line Newton does not converge and the
    // fallback stopped in a local minimum of delta 2.5e-4 m above delta along
    // the centre line: the overlap is the MINIMUM of delta(n), so it may not
    // exceed any direction's delta (tolerance: the Newton tolerance 1e-6 c)
    const Superellipsoid A(0.19563409553983976, 0.19563409553964412, 0.19563409553964412,
                           1.8999999999999999, 1.1448157385095992);
    const Superellipsoid B(22.637154967850307, 1.1318577483925154, 1.1318577483925154,
                           1.8999999999999999, 0.40000000000000002);
    const Pose pA = posed(Vector3::Zero(),
        Quaternion(0.024367488027549487, 0.99651560896729419, -1.9537421986305871e-17, 0.079767578700685723).normalized());
    const Pose pB = posed(Vector3(0, 1.1509830318916563, 0), Quaternion(1, 0, -1.5157804963621777e-14, 0).normalized());
    const Contact c = detectParticleContact(A, pA, B, pB);
    ASSERT_TRUE(c.touching());
    EXPECT_TRUE(c.usedFallback);
    const double alongCentreLine = directionalOverlap(A, pA, B, pB, Vector3::UnitY());
    EXPECT_LE(c.overlap, alongCentreLine + 1e-6*A.c());   // was 2.5e-4 m (1.3e-3 c_A) above
    EXPECT_GT(c.overlap, 0.5*alongCentreLine);            // still the deep contact it is
}
