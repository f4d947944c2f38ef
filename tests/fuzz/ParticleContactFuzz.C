// Fuzz target: superellipsoid - superellipsoid contact (seed 004 Sect. 3.5):
// detectParticleContact (cold, warm from its own record, warm from an
// arbitrary record), pairContactPart1 (Eqs. 51-59) and refineCommonNormal
// (also with a point as body B).
// Checks: well-formed contacts (finite, unit normal, status consistent with
// the overlap); a converged cold detection's overlap (up to min c), the
// minimum of the directional overlap delta(n), is not above delta at the
// centre line; the cold detection's manifold (checkManifold).
#include <limits>
#include "FuzzInput.H"

#include "contact/ManifoldGeometry.H"
#include "contact/ParticleContact.H"
#include "contact/SupportPoint.H"

using namespace superellipsoid;
using namespace superellipsoid::fuzz;

namespace
{

void checkCommonNormal(const CommonNormalResult& r)
{
    requireFinite(r.normal, "common normal finite");
    requireUnit(r.normal, "common normal is a unit vector");
    requireFinite(r.pointOnA, "common-normal pointOnA finite");
    requireFinite(r.pointOnB, "common-normal pointOnB finite");
    requireFinite(r.overlap, "common-normal overlap finite");
    requireFinite(r.recentDecrease, "common-normal recentDecrease finite");
    require(r.iterations >= 0, "common-normal iterations >= 0", r.iterations);
}

} // namespace


extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    Input in(data, size);
    const Superellipsoid A = in.shape(1e-6, 1e2);
    // B: similar size, or anywhere over eight decades (huge size ratios)
    const Superellipsoid B = in.flag() ? in.shape(1e-6, 1e2) : in.shape(0.1*A.c(), 10*A.c());
    Pose poseA, poseB;
    poseA.position = in.position(A.a());
    poseA.orientation = in.orientation();
    poseB.orientation = in.orientation();

    // B at f x (support distance along d): f = 0 coincident centres,
    // f = 1 a separating plane touches both, f > 1 apart
    const Vector3 d = in.direction();
    const double reach = supportValue(A, poseA.directionToParticleFrame(d))
                       + supportValue(B, poseB.directionToParticleFrame(-d));
    requireFinite(reach, "support distance finite");
    poseB.position = poseA.position + in.separationFraction()*reach*d;

    print("shape A", A); print("position A", poseA.position); print("orientation A", poseA.orientation);
    print("shape B", B); print("position B", poseB.position); print("orientation B", poseB.orientation);

    // Cold detection, with a warm-start record filled for the next call
    ContactWarmStart warm;
    const Contact cold = detectParticleContact(A, poseA, B, poseB, &warm);
    print("cold", cold);
    checkContact(cold);
    const Vector3 dc = poseB.position - poseA.position;
    const double scale = A.a() + B.a() + dc.norm();
    // Checked for overlaps up to the smaller body's c (the collision step
    // keeps overlaps near 0.1 c): deeper, e.g. a body inside a much larger
    // one, the fallback may stop at a higher local minimum of delta (open,
    // docs/fuzzing.md, corpus input deep-containmentLocalMinimum)
    if (cold.touching() && dc.norm() > 1e-6*scale && cold.overlap <= std::min(A.c(), B.c()))
    {
        const double atCentreLine = directionalOverlap(A, poseA, B, poseB, dc.normalized());
        // Tolerance: the Newton tolerance 1e-6 c, plus 1e-7 of the overlap
        // for a fallback that stops at another local minimum of delta when
        // the centre-line start did not converge (seen: 3.5e-8 relative,
        // eps 0.1/1.9 and size ratio 300, corpus input slow-fallbackMinimum)
        // plus the rounding of the centres: both overlaps come from positions
        // known only to an ulp of their magnitude (seen: bodies 1.7e9 m from
        // the origin, overlap = one ulp 2.4e-7 m, corpus crash-farFromOrigin)
        const double positionRounding =
            8*std::numeric_limits<double>::epsilon()*(poseA.position.norm() + poseB.position.norm());
        require(cold.overlap <= atCentreLine + 1e-6*std::min(A.c(), B.c()) + 1e-7*std::abs(cold.overlap)
                                + 1e-12*scale + positionRounding,
                "overlap (min of delta) not above delta at the centre line",
                cold.overlap - atCentreLine);
    }
    // Its manifold (bounding-box test on lengths of scale)
    checkManifold(pairManifold(A, poseA, B, poseB, cold), cold,
                  scale + poseA.position.norm() + poseB.position.norm(), A, poseA, &B, &poseB);
    if (warm.valid)
    {
        requireFinite(warm.normalInA, "warm normal finite");
        requireFinite(warm.pointInA, "warm point finite");
    }

    // Warm detection after a small rigid motion of B
    Pose movedB = poseB;
    const double move = in.logUniform(1e-12, 1e-1)*std::min(A.c(), B.c());
    movedB.position += move*in.direction();
    const Quaternion turn = in.orientation();
    const double turnFraction = 1 - in.unit();
    movedB.orientation = (poseB.orientation*turn.slerp(turnFraction, Quaternion::Identity())).normalized();
    const Contact warmed = detectParticleContact(A, poseA, B, movedB, &warm);
    print("warm", warmed);
    checkContact(warmed);

    // Warm detection from an arbitrary stored normal
    ContactWarmStart arbitrary;
    arbitrary.valid = true;
    arbitrary.normalInA = in.direction();
    arbitrary.pointInA = A.halfAxes().cwiseProduct(in.uniformVector(-2, 2));
    arbitrary.multiplier = in.uniform(-1, 10);
    const Contact arbitraryWarm = detectParticleContact(A, poseA, B, poseB, &arbitrary);
    print("arbitrary warm", arbitraryWarm);
    checkContact(arbitraryWarm);

    // Part 1 alone (the paper's method), with and without continuation
    const int part1Iterations = in.integer(0, maxNewtonIterations);
    const bool continuation = in.flag();
    const PairPart1Result p1 = pairContactPart1(A, poseA, B, poseB, part1Iterations, continuation);
    requireFinite(p1.pointInA, "Part 1 point finite");
    requireFinite(p1.multiplier, "Part 1 multiplier finite");
    requireFinite(p1.insideOutB, "Part 1 S2 finite");
    require(p1.iterations >= 0, "Part 1 iterations >= 0", p1.iterations);

    // Step 3 from an arbitrary normal, also with B a point (distance of a
    // point to the surface of A)
    const double tol = contactToleranceFactor*std::min(A.c(), B.c());
    const Vector3 start = in.direction();
    const bool stopWhenSeparated = in.flag();
    checkCommonNormal(refineCommonNormal(A, poseA, &B, poseB, start, tol, stopWhenSeparated));
    Pose point;
    point.position = poseA.toGlobalFrame
    (
        A.halfAxes().cwiseProduct(in.uniformVector(-1, 1))
    );
    const Vector3 pointStart = in.direction();
    const bool pointStopWhenSeparated = in.flag();
    checkCommonNormal(refineCommonNormal(A, poseA, nullptr, point, pointStart, tol, pointStopWhenSeparated));
    return 0;
}
