#include "contact/ParticleContact.H"
#include "contact/BoundingVolumes.H"
#include "contact/ManifoldBuilder.H"
#include "contact/NewtonLagrange.H"
#include "contact/SupportPoint.H"

#include <algorithm>
#include <cmath>
#include <limits>

namespace superellipsoid
{

namespace
{

//- Relative placement of B seen from A's particle frame: x_B = M x_A + t
struct RelativeFrame
{
    Matrix3 M;
    Vector3 t;

    RelativeFrame(const Pose& poseA, const Pose& poseB)
    {
        const Matrix3 QA = poseA.particleToGlobal();
        const Matrix3 QBt = poseB.globalToParticle();
        M = QBt*QA;
        t = QBt*(poseA.position - poseB.position);
    }
};


//- Part 1 Newton (Eqs. 56-59 of [Wedel2023]) in A's frame from z0
NewtonLagrangeResult part1Newton
(
    const Superellipsoid& A, const Superellipsoid& B, const RelativeFrame& f,
    const Vector4& z0, double tol, int maxIterations
)
{
    auto eval = [&](const Vector4& z, Vector4& F, Eigen::Matrix4d& J) -> bool
    {
        const Vector3 x = z.head<3>();
        const ShapeDerivatives dA = A.derivatives(x, 2);
        const ShapeDerivatives dB = B.derivatives(f.M*x + f.t, 2);
        const Vector3 g2 = f.M.transpose()*dB.gradient;
        // Eq. (56) of [Wedel2023]: grad S2 + lambda grad S1 = 0;  Eq. (57): S1 = 0
        F.head<3>() = g2 + z(3)*dA.gradient;
        F(3) = dA.value;
        // Eq. (59) of [Wedel2023]
        J.topLeftCorner<3, 3>() = f.M.transpose()*dB.hessian*f.M + z(3)*dA.hessian;
        J.topRightCorner<3, 1>() = dA.gradient;
        J.bottomLeftCorner<1, 3>() = dA.gradient.transpose();
        J(3, 3) = 0;
        return F.allFinite() && J.allFinite();
    };
    const double L = A.c();
    return dampedNewtonLagrange(eval, z0, Vector4(L, L, L, 1.0), tol, maxIterations);
}


//- Lagrange multiplier estimate at x: least squares of Eq. (56) of [Wedel2023]
double multiplierAt
(
    const Superellipsoid& A, const Superellipsoid& B, const RelativeFrame& f, const Vector3& x
)
{
    const Vector3 gA = A.gradient(x);
    const Vector3 g2 = f.M.transpose()*B.gradient(f.M*x + f.t);
    double lambda = -g2.dot(gA)/gA.squaredNorm();
    if (!(lambda > 0) || !std::isfinite(lambda))
    {
        // The wanted minimum has opposed gradients (lambda > 0)
        lambda = g2.norm()/gA.norm();
    }
    return std::isfinite(lambda) ? lambda : 1.0;
}


bool acceptPart1(const NewtonLagrangeResult& r)
{
    return r.converged && r.z(3) > 0 && r.z.allFinite();
}


inline Superellipsoid blend(const Superellipsoid& s, double r, double k)
{
    // k = 1 is the shape itself (1 + (eps - 1) rounds below eps = 0.1)
    if (k == 1) return s;
    return Superellipsoid
    (
        r + k*(s.a() - r), r + k*(s.b() - r), r + k*(s.c() - r),
        1.0 + k*(s.eps1() - 1.0), 1.0 + k*(s.eps2() - 1.0)
    );
}


//- Initial guess of Part 1: A's support point towards B's centre, or one
//  of A's bounding-box corners projected onto S1, whichever is deepest in
//  S2 (its S2 value in best)
Vector3 part1InitialGuess
(
    const Superellipsoid& A, const Superellipsoid& B, const RelativeFrame& f,
    const Vector3& towardsB, double& best
)
{
    Vector3 x0 = supportPoint(A, towardsB);
    best = B.insideOut(f.M*x0 + f.t);
    const Vector3 h = A.boundingBoxHalfExtents();
    for (int k = 0; k < 8; ++k)
    {
        const Vector3 corner((k & 1 ? 1 : -1)*h.x(), (k & 2 ? 1 : -1)*h.y(), (k & 4 ? 1 : -1)*h.z());
        if (corner.dot(towardsB) <= 0) continue;
        const Vector3 xc = radialProjection(A, corner);
        const double s = B.insideOut(f.M*xc + f.t);
        if (s < best)
        {
            best = s;
            x0 = xc;
        }
    }
    return x0;
}


//- Part 1 by continuation from the volume-equivalent spheres to the true
//  shapes in continuationSteps steps; the last step's result (iterations
//  added to iterations)
NewtonLagrangeResult part1Continuation
(
    const Superellipsoid& A, const Superellipsoid& B, const RelativeFrame& f,
    const Vector3& towardsB, double tol, int maxIterations, int& iterations
)
{
    const double rA = 0.5*A.volumeEquivalentDiameter();
    const double rB = 0.5*B.volumeEquivalentDiameter();
    Vector3 x = rA*towardsB.normalized();
    double lambda = 0;
    NewtonLagrangeResult r;
    for (int k = 1; k <= continuationSteps; ++k)
    {
        const double s = double(k)/continuationSteps;
        const Superellipsoid Ak = blend(A, rA, s);
        const Superellipsoid Bk = blend(B, rB, s);
        if (k == 1)
        {
            x = radialProjection(Ak, x);
            lambda = multiplierAt(Ak, Bk, f, x);
        }
        Vector4 zk;
        zk.head<3>() = x;
        zk(3) = lambda;
        r = part1Newton(Ak, Bk, f, zk, tol, std::max(maxIterations/2, 10));
        iterations += r.iterations;
        if (r.z.allFinite() && r.z(3) > 0)
        {
            x = r.z.head<3>();
            lambda = r.z(3);
        }
    }
    return r;
}

} // namespace


PairPart1Result pairContactPart1
(
    const Superellipsoid& A, const Pose& poseA,
    const Superellipsoid& B, const Pose& poseB,
    int maxIterations, bool allowContinuation
)
{
    const RelativeFrame f(poseA, poseB);
    const double tol = contactToleranceFactor*std::min(A.c(), B.c());
    PairPart1Result out;

    const Vector3 towardsB = poseA.toParticleFrame(poseB.position);
    double best;
    const Vector3 x0 = part1InitialGuess(A, B, f, towardsB, best);
    Vector4 z0;
    z0.head<3>() = x0;
    z0(3) = multiplierAt(A, B, f, x0);

    NewtonLagrangeResult r = part1Newton(A, B, f, z0, tol, maxIterations);
    out.iterations = r.iterations;

    // An unconverged iterate with opposed gradients is still a usable
    // start for the common-normal step when continuation is not wanted
    const bool usable = r.z.allFinite() && r.z(3) > 0;
    if (!acceptPart1(r) && (allowContinuation || !usable))
    {
        out.usedFallback = true;
        r = part1Continuation(A, B, f, towardsB, tol, maxIterations, out.iterations);
    }

    out.converged = acceptPart1(r);
    out.pointInA = r.z.head<3>();
    out.multiplier = r.z(3);
    out.insideOutB = B.insideOut(f.M*out.pointInA + f.t);
    if (!std::isfinite(out.insideOutB) || !out.pointInA.allFinite())
    {
        out.converged = false;
        out.pointInA = x0;
        out.insideOutB = best;
    }
    return out;
}


namespace
{

//- delta(n), the support points and the 2x2 tangent-plane Hessian of
//  h_A(n) + h_B(-n):  d x*/d n = |grad S| (P H P)^+ on the tangent plane
struct DirectionalOverlap
{
    Vector3 pA, pB;
    double delta;
    SupportGeometry gA, gB;   // support points (particle frames) and shares
};

//- A Pose with its rotation matrix evaluated once (the frame changes of
//  the iterations below then cost a 3x3 product instead of a quaternion
//  rotation); same interface as the Pose members used here
struct MatrixPose
{
    Matrix3 Q;          //- particle -> global
    Vector3 position;

    explicit MatrixPose(const Pose& pose)
    :
        Q(pose.particleToGlobal()), position(pose.position)
    {}

    Vector3 directionToParticleFrame(const Vector3& d) const { return Q.transpose()*d; }
    Vector3 directionToGlobalFrame(const Vector3& dp) const { return Q*dp; }
    Vector3 toGlobalFrame(const Vector3& rp) const { return Q*rp + position; }
};


template<class PoseType>
inline DirectionalOverlap directionalOverlap
(
    const Superellipsoid& A, const PoseType& poseA,
    const Superellipsoid* B, const PoseType& poseB, const Vector3& n
)
{
    DirectionalOverlap d;
    d.gA = supportGeometry(A, poseA.directionToParticleFrame(n));
    d.pA = poseA.toGlobalFrame(d.gA.point);
    if (B)
    {
        d.gB = supportGeometry(*B, poseB.directionToParticleFrame(-n));
        d.pB = poseB.toGlobalFrame(d.gB.point);
    }
    else
    {
        d.pB = poseB.position;
    }
    d.delta = n.dot(d.pA - d.pB);
    return d;
}


//- Orthonormal tangent basis (t1, t2) of a unit vector n, t1 from the
//  coordinate axis least aligned with n (one reciprocal square root)
inline void tangentBasis(const Vector3& n, Vector3& t1, Vector3& t2)
{
    const Vector3 e = std::abs(n.x()) < 0.6 ? Vector3::UnitX()
                    : (std::abs(n.y()) < 0.6 ? Vector3::UnitY() : Vector3::UnitZ());
    const Vector3 v = e - e.dot(n)*n;
    t1 = (1.0/std::sqrt(v.squaredNorm()))*v;
    t2 = n.cross(t1);
}


//- Tangent-plane curvature-radius tensor of one body at its support point
//  for global tangent vectors t1, t2 (derivatives from the support shares:
//  no powers)
inline Eigen::Matrix2d supportHessian
(
    const Superellipsoid& s, const MatrixPose& pose, const SupportGeometry& g,
    const Vector3& t1, const Vector3& t2
)
{
    const SupportSecondOrder d = supportGradientHessian(s, g);
    const Vector3 u1 = pose.directionToParticleFrame(t1);
    const Vector3 u2 = pose.directionToParticleFrame(t2);
    Eigen::Matrix2d Mt;
    Mt(0, 0) = u1.dot(d.hessian*u1);
    Mt(0, 1) = Mt(1, 0) = u1.dot(d.hessian*u2);
    Mt(1, 1) = u2.dot(d.hessian*u2);
    const double det = Mt.determinant();
    const double tr = Mt.trace();
    // Guard singular curvature (flat face): radius capped at 1e8 c
    const double floor = 1e-8*tr*tr + 1e-300;
    // |grad S| Mt^-1: one scalar factor instead of four divisions
    const double scale = d.gradient.norm()/std::max(det, floor);
    Eigen::Matrix2d inv;
    inv << scale*Mt(1, 1), -scale*Mt(0, 1), -scale*Mt(1, 0), scale*Mt(0, 0);
    return inv;
}


} // namespace


namespace
{

//- Riemannian Newton step on the sphere, (K_A + K_B - delta I) s = -g, with
//  a Levenberg-type shift where K is not safely positive definite (far from
//  the minimum, or delta beyond a curvature radius)
Eigen::Vector2d newtonDirection
(
    const Superellipsoid& A, const MatrixPose& poseA,
    const Superellipsoid* B, const MatrixPose& poseB,
    const DirectionalOverlap& cur, const Vector3& t1, const Vector3& t2,
    const Eigen::Vector2d& g, double lengthScale
)
{
    Eigen::Matrix2d K = supportHessian(A, poseA, cur.gA, t1, t2);
    if (B)
    {
        K += supportHessian(*B, poseB, cur.gB, t1, t2);
    }
    K.diagonal().array() -= cur.delta;
    K(0, 1) = K(1, 0) = 0.5*(K(0, 1) + K(1, 0));
    const double mean = 0.5*K.trace();
    const double dev = std::sqrt(0.25*(K(0, 0) - K(1, 1))*(K(0, 0) - K(1, 1)) + K(0, 1)*K(0, 1));
    const double eigMax = mean + dev, eigMin = mean - dev;
    const double eigFloor = 1e-12*std::max(std::abs(eigMax), lengthScale);
    if (!(eigMin > eigFloor))
    {
        K.diagonal().array() += 1e-3*std::max(std::abs(eigMax), lengthScale*1e-3) - eigMin;
    }
    return -K.inverse()*g;
}


//- The step s limited to 0.5 rad; a gradient step where s is not finite
void limitStep(Eigen::Vector2d& s, const Eigen::Vector2d& g, double lengthScale)
{
    if (!s.allFinite())
    {
        s = -g/lengthScale;
    }
    const double sn = s.norm();
    if (!(sn < 0.5))
    {
        s *= 0.5/(sn > 0 ? sn : 1.0);
        if (!s.allFinite()) s = -g/lengthScale;
    }
}


//- Outcome of one line search along the sphere
struct LineSearchResult
{
    bool accepted = false;      //- a trial decreased delta (n, cur updated)
    bool converged = false;     //- the full step was stationary (see below)
};


//- Newton step n + alpha s (alpha halved from 1) until delta decreases
LineSearchResult newtonLineSearch
(
    const Superellipsoid& A, const MatrixPose& poseA,
    const Superellipsoid* B, const MatrixPose& poseB,
    const Eigen::Vector2d& s, const Vector3& t1, const Vector3& t2, double tol,
    Vector3& n, DirectionalOverlap& cur
)
{
    LineSearchResult out;
    double alpha = 1;
    for (int h = 0; h <= maxLineSearchHalvings; ++h, alpha *= 0.5)
    {
        const Vector3 nTrial = (n + alpha*(s(0)*t1 + s(1)*t2)).normalized();
        const DirectionalOverlap trial = directionalOverlap(A, poseA, B, poseB, nTrial);
        if (trial.delta < cur.delta)
        {
            // Converged in the sense of [Wedel2023] (points move < tol):
            // near-vertex support points (eps -> 2) barely move with n
            // (the distances only where the decrease test passes: two
            // square roots saved on most steps)
            const double decrease = cur.delta - trial.delta;
            // or delta is flat to 1e-6 tol along a full Newton step (the
            // overlap nearly equals the sum of the curvature radii, so the
            // normal is ill-defined but the overlap is exact)
            const bool stationary =
                (
                    decrease <= tol*1e-3
                 && (trial.pA - cur.pA).norm() + (trial.pB - cur.pB).norm() <= tol
                )
             || decrease <= tol*1e-6;
            n = nTrial;
            cur = trial;
            out.accepted = true;
            out.converged = stationary && h == 0;
            break;
        }
    }
    return out;
}


//- Steepest descent along -g with the step halved from 0.1 rad down to
//  ~1e-7 rad, for when the Newton direction gives no decrease (kink-like
//  minimum of a flat face, or a poor curvature estimate); false if no
//  step decreases delta
bool steepestDescent
(
    const Superellipsoid& A, const MatrixPose& poseA,
    const Superellipsoid* B, const MatrixPose& poseB,
    const Eigen::Vector2d& g, const Vector3& t1, const Vector3& t2,
    Vector3& n, DirectionalOverlap& cur
)
{
    const Vector3 dn = -(g(0)*t1 + g(1)*t2)/g.norm();
    double step = 0.1;
    for (int h = 0; h < 20; ++h, step *= 0.5)
    {
        const Vector3 nTrial = (n + step*dn).normalized();
        const DirectionalOverlap trial = directionalOverlap(A, poseA, B, poseB, nTrial);
        if (trial.delta < cur.delta)
        {
            n = nTrial;
            cur = trial;
            return true;
        }
    }
    return false;
}


//- Decrease of delta / tol below which a flat face's refinement has
//  settled (refineCommonNormal): a resting face contact starts from the
//  last substep's normal within 1e-2 tol of its minimum of delta, where
//  |g| stays near 1e5 tol; the stagnation test alone needs six iterations
//  of history (in the 100-cube lattice pile at rest: 7 iterations of 2.6
//  overlap evaluations per face contact and substep)
constexpr double settledDecrease = 5e-2;


CommonNormalResult refineCommonNormal
(
    const Superellipsoid& A, const MatrixPose& poseA,
    const Superellipsoid* B, const MatrixPose& poseB,
    const Vector3& n0, double tol, bool stopWhenSeparated = true,
    DirectionalOverlap* finalState = nullptr
)
{
    CommonNormalResult out;
    Vector3 n = n0.normalized();
    if (!n.allFinite() || !(n.squaredNorm() > 0.5))
    {
        n = Vector3::UnitX();   // no direction given (zero or non-finite n0)
    }
    DirectionalOverlap cur = directionalOverlap(A, poseA, B, poseB, n);
    const double lengthScale = A.boundingRadius() + (B ? B->boundingRadius() : 0.0);

    double deltaHistory[5];
    for (double& d : deltaHistory) d = std::numeric_limits<double>::max();
    for (int it = 0; it <= maxNewtonIterations; ++it)
    {
        out.iterations = it;
        if (cur.delta < 0 && stopWhenSeparated)
        {
            out.separated = true;
            out.converged = true;
            break;
        }
        // delta five iterations ago (stagnation test below)
        const double deltaFiveAgo = deltaHistory[it%5];
        deltaHistory[it%5] = cur.delta;
        out.recentDecrease = deltaFiveAgo - cur.delta;
        Vector3 t1, t2;
        tangentBasis(n, t1, t2);
        const Vector3 gap = cur.pA - cur.pB;
        const Eigen::Vector2d g(t1.dot(gap), t2.dot(gap));   // tangential gradient
        if (g.norm() <= tol)
        {
            out.converged = true;
            break;
        }
        if (it == maxNewtonIterations)
        {
            break;
        }
        Eigen::Vector2d s = newtonDirection(A, poseA, B, poseB, cur, t1, t2, g, lengthScale);
        // Flat-face safeguard: the support point of a nearly flat face jumps
        // with n, so |g| may stall above tol while delta is converged. Accept
        // a Newton decrement g^T K^-1 g / 2 (the predicted remaining decrease
        // of delta) below settledDecrease tol when the last iteration also
        // decreased delta by less (predicted and actual agree); after a few
        // iterations a decrement below 1e-3 tol, or a decrease over the last
        // five below 1e-2 tol, alone
        const double decrement = -0.5*g.dot(s);
        const double lastDecrease = deltaHistory[(it + 4)%5] - cur.delta;
        const bool settled = it >= 1 && decrement <= settledDecrease*tol && lastDecrease <= settledDecrease*tol;
        if (settled || (it >= 6 && (decrement <= 1e-3*tol || deltaFiveAgo - cur.delta <= 1e-2*tol)))
        {
            out.converged = true;
            break;
        }
        limitStep(s, g, lengthScale);

        const LineSearchResult search = newtonLineSearch(A, poseA, B, poseB, s, t1, t2, tol, n, cur);
        if (search.converged)
        {
            out.converged = true;
            out.iterations = it + 1;
            break;
        }
        if (!search.accepted && !steepestDescent(A, poseA, B, poseB, g, t1, t2, n, cur))
        {
            // No descent down to 1e-7 rad: delta is at its minimum to
            // round-off even if the support points have not met (flat
            // faces: the point on a flat patch is not unique)
            out.converged = true;
            break;
        }
    }

    out.separated = cur.delta < 0;
    out.normal = n;
    out.pointOnA = cur.pA;
    out.pointOnB = cur.pB;
    out.overlap = cur.delta;
    if (finalState) *finalState = cur;     // support geometry at out.normal
    return out;
}

} // namespace


CommonNormalResult refineCommonNormal
(
    const Superellipsoid& A, const Pose& poseA,
    const Superellipsoid* B, const Pose& poseB,
    const Vector3& n0, double tol, bool stopWhenSeparated
)
{
    return refineCommonNormal(A, MatrixPose(poseA), B, MatrixPose(poseB), n0, tol, stopWhenSeparated);
}


Contact detectSphereContact
(
    double rA, const Pose& poseA, double rB, const Pose& poseB, ContactWarmStart* warm
)
{
    // Closed form of steps 0-3 for two spheres: delta(n) = rA + rB - n.dc
    // is minimal along the centre line, n = dc/|dc| (the generic cold start
    // converges there at iteration 0); support points pA = cA + rA n,
    // pB = cB - rB n; both curvatures are isotropic, so the curvature-
    // weighted point lies on the centre line and its mid-plane projection
    // is (pA + pB)/2. Same early exits and conventions as the generic path.
    Contact c;
    c.feature = WallFeature::None;
    const Vector3 dc = poseB.position - poseA.position;
    const double rSum = rA + rB;
    const double d2 = dc.squaredNorm();
    if (d2 > rSum*rSum)
    {
        // Bounding spheres apart (step 0): no points, as the generic path
        const double d = std::sqrt(d2);
        c.status = ContactStatus::Separated;
        c.overlap = std::min(0.0, rSum - d);
        c.normal = dc/d;
        if (warm) warm->valid = false;
        return c;
    }
    const double d = std::sqrt(d2);
    // Coincident centres: A's z' axis, as the generic centre line
    c.normal = d > 0 ? Vector3(dc/d) : poseA.directionToGlobalFrame(Vector3::UnitZ());
    c.pointOnA = poseA.position + rA*c.normal;
    c.pointOnB = poseB.position - rB*c.normal;
    c.point = 0.5*(c.pointOnA + c.pointOnB);
    c.overlap = c.normal.dot(c.pointOnA - c.pointOnB);   // = rSum - d, as delta(n)
    c.status = c.overlap > 0 ? ContactStatus::Touching : ContactStatus::Separated;
    if (warm)
    {
        warm->valid = c.touching();
        if (warm->valid)
        {
            warm->normalInA = poseA.directionToParticleFrame(c.normal);
            warm->pointInA = poseA.toParticleFrame(c.pointOnA);
        }
    }
    return c;
}


Contact detectParticleContact
(
    const Superellipsoid& A, const Pose& poseA,
    const Superellipsoid& B, const Pose& poseB,
    ContactWarmStart* warm, bool contactPoint
)
{
    if (A.isSphere() && B.isSphere())
    {
        return detectSphereContact(A.a(), poseA, B.a(), poseB, warm);
    }
    return detectParticleContactGeneric(A, poseA, B, poseB, warm, contactPoint);
}


namespace
{

//- A pair as the stages of detectParticleContactGeneric see it: rotation
//  matrices evaluated once, the centre line and the Newton tolerance
struct PairGeometry
{
    const Superellipsoid& A;
    const Pose& poseA;
    const Superellipsoid& B;
    const Pose& poseB;
    MatrixPose mA, mB;
    Vector3 dc;             //- centre of B minus centre of A
    Vector3 centreLine;     //- unit; A's z' axis for coincident centres
    double tol;

    PairGeometry
    (
        const Superellipsoid& shapeA, const Pose& pA, const Superellipsoid& shapeB, const Pose& pB,
        const MatrixPose& matrixA, const MatrixPose& matrixB
    )
    :
        A(shapeA), poseA(pA), B(shapeB), poseB(pB), mA(matrixA), mB(matrixB),
        dc(pB.position - pA.position),
        // Coincident centres have no centre line: A's thinnest principal
        // axis z' (the penetration direction of aligned bodies)
        centreLine
        (
            dc == Vector3::Zero() ? pA.directionToGlobalFrame(Vector3::UnitZ()) : Vector3(dc.normalized())
        ),
        tol(contactToleranceFactor*std::min(shapeA.c(), shapeB.c()))
    {}

    DirectionalOverlap along(const Vector3& n) const
    {
        return directionalOverlap(A, mA, &B, mB, n);
    }

    CommonNormalResult refine
    (
        const Vector3& n0, bool stopWhenSeparated = true, DirectionalOverlap* last = nullptr
    ) const
    {
        return refineCommonNormal(A, mA, &B, mB, n0, tol, stopWhenSeparated, last);
    }
};


//- Cheap exact separation test along the centre line (two support points):
//  delta(dc) < 0 is a separating axis. Fills c (and warm) if separated.
bool separatedAlongCentreLine(const PairGeometry& p, ContactWarmStart* warm, Contact& c)
{
    const Vector3& u = p.centreLine;
    const DirectionalOverlap d0 = p.along(u);
    if (!(d0.delta < 0))
    {
        return false;
    }
    c.status = ContactStatus::Separated;
    c.overlap = d0.delta;
    c.normal = u;
    c.pointOnA = d0.pA;
    c.pointOnB = d0.pB;
    c.point = 0.5*(d0.pA + d0.pB);   // no caller uses a separated pair's point
    // The separating centre line becomes the warm normal: the next
    // detection starts from it, and its gap certifies the pair until the
    // bodies have moved by it (CollisionStep::gapCertified)
    if (warm)
    {
        warm->valid = true;
        warm->normalInA = p.mA.directionToParticleFrame(u);
        warm->pointInA = d0.gA.point;
        c.warmSeparated = true;
    }
    return true;
}


//- Common normal of the production path and what its last stage knew
struct CommonNormalStage
{
    CommonNormalResult cn;
    DirectionalOverlap last;    //- support geometry at cn.normal (haveLast)
    bool haveLast = true;       //- false after the fallback path
    bool keepWarm = false;      //- separated at the warm normal itself: keep it
};


//- Step 3 from the warm normal, else from the centre line (a swap-symmetric
//  start; exact for spheres). The cold start minimises a separated pair on
//  to minus its distance, so that the reported gap does not depend on the
//  start (warm and cold agree).
CommonNormalStage warmOrColdCommonNormal(const PairGeometry& p, const ContactWarmStart* warm, Contact& c)
{
    CommonNormalStage s;
    bool done = false;
    if (warm && warm->valid)
    {
        s.cn = p.refine(p.poseA.directionToGlobalFrame(warm->normalInA), true, &s.last);
        c.iterations += s.cn.iterations;
        done = s.cn.converged;
        s.keepWarm = s.cn.separated && s.cn.iterations == 0;
        c.warmSeparated = s.keepWarm;
    }
    if (!done)
    {
        s.cn = p.refine(p.centreLine, false, &s.last);
        c.iterations += s.cn.iterations;
    }
    return s;
}


//- Steps 1-3 of the paper's path. Part 1 (Eqs. 51-59 of [Wedel2023]) runs
//  for (A in B) and (B in A), so that the set of starting normals is
//  swap-symmetric. Part 2, the virtual wall through p1 with normal
//  grad S1/|grad S1|, has the support point of B in -n as its closed-form
//  solution, which step 3 evaluates at every n, starting from this one.
//  Step 3 refines both Part 2 normals; the overlap is the MINIMUM of
//  delta(n) (penetration depth), so the smaller converged minimum wins
//  (elongated bodies can have two local minima; the symmetric start set
//  makes the choice order-free).
CommonNormalResult commonNormalFromPart1(const PairGeometry& p, Contact& c)
{
    const PairPart1Result p1 = pairContactPart1(p.A, p.poseA, p.B, p.poseB, productionPart1Iterations, false);
    const PairPart1Result p1r = pairContactPart1(p.B, p.poseB, p.A, p.poseA, productionPart1Iterations, false);
    c.iterations += p1.iterations + p1r.iterations;

    Vector3 n = p.poseA.directionToGlobalFrame(p.A.unitNormal(p1.pointInA));
    Vector3 nr = -p.poseB.directionToGlobalFrame(p.B.unitNormal(p1r.pointInA));
    if (!n.allFinite()) n = p.centreLine;
    if (!nr.allFinite()) nr = p.centreLine;

    CommonNormalResult cn = p.refine(n);
    c.iterations += cn.iterations;
    if (!cn.separated && n.dot(nr) < 1 - 1e-6)
    {
        const CommonNormalResult cn2 = p.refine(nr);
        c.iterations += cn2.iterations;
        if (cn2.separated || (cn2.converged && (!cn.converged || cn2.overlap < cn.overlap))
         || (!cn.converged && !cn2.converged && cn2.overlap < cn.overlap))
        {
            cn = cn2;
        }
    }
    return cn;
}


//- The two principal axes of A and B (signed towards B) with the smallest
//  delta, smallest first; dc where fewer than two are finite
struct PrincipalAxes
{
    double delta[2] = {std::numeric_limits<double>::max(), std::numeric_limits<double>::max()};
    Vector3 axis[2];
};


PrincipalAxes principalAxes(const PairGeometry& p)
{
    PrincipalAxes out;
    out.axis[0] = out.axis[1] = p.dc;
    for (int k = 0; k < 6; ++k)
    {
        Vector3 e = (k < 3 ? p.poseA : p.poseB).directionToGlobalFrame(Vector3::Unit(k % 3));
        if (e.dot(p.dc) < 0) e = -e;
        const double d = p.along(e).delta;
        if (d < out.delta[0])
        {
            out.delta[1] = out.delta[0]; out.axis[1] = out.axis[0];
            out.delta[0] = d; out.axis[0] = e;
        }
        else if (d < out.delta[1])
        {
            out.delta[1] = d; out.axis[1] = e;
        }
    }
    return out;
}


//- Restarts of an unconverged step 3: from the last normal (fresh Newton
//  state), from the centre line, then from the principal axes of A and B
//  with the smallest and second smallest delta. For nearly parallel flat
//  faces (eps -> 0.2) delta(n) has a kink-like minimum at a face normal, as
//  the minimum of the separating-axis test of two boxes does.
void restartCommonNormal(const PairGeometry& p, CommonNormalResult& cn, Contact& c)
{
    PrincipalAxes axes;
    for (int attempt = 0; attempt < 4 && !cn.converged; ++attempt)
    {
        c.usedFallback = true;
        Vector3 start = attempt == 0 ? cn.normal : p.dc;
        if (attempt == 2) axes = principalAxes(p);
        if (attempt >= 2) start = axes.axis[attempt - 2];
        const CommonNormalResult cn3 = p.refine(start);
        c.iterations += cn3.iterations;
        if (cn3.converged || cn3.overlap < cn.overlap) cn = cn3;
    }
}


//- Every delta(n) bounds the penetration depth from above, so a converged
//  minimum above delta along a principal axis (signed towards B) is a
//  local minimum, as flat faces in contact (eps -> 0.2) produce: the
//  minimum refined from the best axis, or delta along that axis, whichever
//  is smaller, replaces it
void keepPrincipalAxisMinimum(const PairGeometry& p, CommonNormalResult& cn, Contact& c)
{
    const PrincipalAxes axes = principalAxes(p);
    const Vector3& axis = axes.axis[0];
    const double best = axes.delta[0];
    if (!(best < cn.overlap - p.tol))
    {
        return;
    }
    const CommonNormalResult r = p.refine(axis, false);
    c.iterations += r.iterations;
    if (r.overlap < best)
    {
        cn = r;
    }
    else
    {
        const DirectionalOverlap d = p.along(axis);
        cn.normal = axis;
        cn.pointOnA = d.pA;
        cn.pointOnB = d.pB;
        cn.overlap = d.delta;
    }
    cn.converged = true;
    cn.separated = cn.overlap < 0;
}


//- A converged minimum above delta at the centre line is a local minimum,
//  not the penetration depth (deep overlaps with needle-like bodies, fuzz
//  corpus input particleContact/deep-fallbackLocalMinimum): delta of any
//  direction separates the bodies, so the centre line's is the better
//  estimate
void keepCentreLineMinimum(const PairGeometry& p, CommonNormalResult& cn)
{
    const DirectionalOverlap d = p.along(p.centreLine);
    if (d.delta < cn.overlap - p.tol)
    {
        cn.normal = p.centreLine;
        cn.pointOnA = d.pA;
        cn.pointOnB = d.pB;
        cn.overlap = d.delta;
        cn.separated = d.delta < 0;
    }
}


//- The paper's path (steps 1-3) with its restarts, for when the production
//  path has not converged
CommonNormalResult fallbackCommonNormal(const PairGeometry& p, Contact& c)
{
    c.usedFallback = true;
    CommonNormalResult cn = commonNormalFromPart1(p, c);
    restartCommonNormal(p, cn, c);
    // Last resort: delta stagnant to within tol over five Newton steps
    // (slow linear convergence at near-vertex support points, eps -> 2)
    if (!cn.converged && cn.recentDecrease <= p.tol)
    {
        c.usedFallback = true;
        cn.converged = true;
    }
    if (cn.converged && !cn.separated)
    {
        keepPrincipalAxisMinimum(p, cn, c);
    }
    if (cn.converged && !cn.separated)
    {
        keepCentreLineMinimum(p, cn);
    }
    return cn;
}


//- A touching result within the tolerance whose support points lie
//  laterally apart is not a common normal: the gradient of delta(n) is
//  pA - pB, and a step-size stop at a steep support map ends there (the
//  centre line along the face normal of a thin plate beside a large body,
//  fuzz corpus input particleContact/crash-thinPlateBesideBody). delta
//  along n tilted towards pB - pA by 1e-6 to ~1 rad is tried: a negative
//  one is a separating axis, a certificate of separation.
void certifyLateralSeparation(const PairGeometry& p, CommonNormalResult& cn)
{
    const Vector3 gap = cn.pointOnB - cn.pointOnA;
    const Vector3 lateral = gap - gap.dot(cn.normal)*cn.normal;
    if (!(lateral.norm() > p.tol))
    {
        return;
    }
    const Vector3 t = lateral.normalized();
    for (double angle = 1e-6; angle < 1.6; angle *= 4)
    {
        const Vector3 u = (std::cos(angle)*cn.normal + std::sin(angle)*t).normalized();
        const DirectionalOverlap d = p.along(u);
        if (d.delta < 0)
        {
            cn.separated = true;
            cn.overlap = d.delta;
            cn.normal = u;
            cn.pointOnA = d.pA;
            cn.pointOnB = d.pB;
            return;
        }
    }
}


//- Step 4 and the result: status, contact point and warm start from the
//  common normal of the stage s
void finishContact
(
    const PairGeometry& p, const CommonNormalStage& s, bool contactPoint,
    ContactWarmStart* warm, Contact& c
)
{
    const CommonNormalResult& cn = s.cn;
    c.normal = cn.normal;
    c.pointOnA = cn.pointOnA;
    c.pointOnB = cn.pointOnB;
    c.overlap = cn.overlap;
    if (!cn.converged)
    {
        c.status = ContactStatus::Failed;
    }
    else
    {
        // Exactly touching (overlap 0) is not yet a contact (ContactTypes.H)
        c.status = cn.separated || !(cn.overlap > 0) ? ContactStatus::Separated : ContactStatus::Touching;
    }
    if (c.status == ContactStatus::Touching && contactPoint)
    {
        // Contact point: the curvature rule in the tangent plane,
        // p = (C_A + C_B)^+ (C_A c_A + C_B c_B) (ManifoldBuilder.H), on the
        // mid-plane of the support points
        const PosedShape pa{p.A, p.mA.Q, p.mA.position}, pb{p.B, p.mB.Q, p.mB.position};
        ManifoldSide sa, sb;
        sa.body = &pa;
        sb.body = &pb;
        c.point = curvatureContactPoint
        (
            sa, sb, cn.normal, std::min(p.A.c(), p.B.c()),
            s.haveLast ? &s.last.gA : nullptr, s.haveLast ? &s.last.gB : nullptr
        );
    }
    else
    {
        c.point = 0.5*(cn.pointOnA + cn.pointOnB);   // not used: separated, or a manifold follows
    }
    if (warm && !s.keepWarm)
    {
        warm->valid = c.status != ContactStatus::Failed;
        warm->normalInA = p.poseA.directionToParticleFrame(c.normal);
        warm->pointInA = p.poseA.toParticleFrame(c.pointOnA);
    }
}

} // namespace


Contact detectParticleContactGeneric
(
    const Superellipsoid& A, const Pose& poseA,
    const Superellipsoid& B, const Pose& poseB,
    ContactWarmStart* warm, bool contactPoint
)
{
    Contact c;
    c.feature = WallFeature::None;

    // 0. Pre-evaluation (Fig. 8)
    const Vector3 dc = poseB.position - poseA.position;
    const double rSum = A.boundingRadius() + B.boundingRadius();
    if (dc.squaredNorm() > rSum*rSum)
    {
        c.status = ContactStatus::Separated;
        c.overlap = std::min(0.0, rSum - dc.norm());
        c.normal = dc.normalized();
        if (warm) warm->valid = false;
        return c;
    }
    // Rotation matrices once for the OBB test and all later stages; the
    // pair's last separating box axis is tried first. Boxes apart keep the
    // warm start: the last common normal restarts the pair when they meet
    const MatrixPose mA(poseA), mB(poseB);
    if
    (
        !obbOverlap
        (
            poseA.position, mA.Q, A.boundingBoxHalfExtents(),
            poseB.position, mB.Q, B.boundingBoxHalfExtents(),
            0, warm ? &warm->boxAxis : nullptr
        )
    )
    {
        c.status = ContactStatus::Separated;
        c.boxesSeparated = true;
        c.overlap = std::min(0.0, rSum - dc.norm());
        c.normal = dc.norm() > 0 ? Vector3(dc.normalized()) : Vector3::UnitX();
        return c;
    }
    const PairGeometry p(A, poseA, B, poseB, mA, mB);
    if (!(warm && warm->valid) && separatedAlongCentreLine(p, warm, c))
    {
        return c;
    }

    // 3. Common normal from the warm normal or the centre line; the paper's
    //    steps 1-3 where that does not converge
    CommonNormalStage s = warmOrColdCommonNormal(p, warm, c);
    if (!s.cn.converged)
    {
        s.haveLast = false;   // the contact point re-evaluates the support geometry
        s.cn = fallbackCommonNormal(p, c);
    }
    // A touching result within the tolerance may still be separated
    if (s.cn.converged && !s.cn.separated && s.cn.overlap <= p.tol)
    {
        certifyLateralSeparation(p, s.cn);
    }
    finishContact(p, s, contactPoint, warm, c);
    return c;
}



double directionalOverlap
(
    const Superellipsoid& shapeA, const Pose& poseA,
    const Superellipsoid& shapeB, const Pose& poseB,
    const Vector3& n
)
{
    return supportValue(shapeA, poseA.directionToParticleFrame(n))
         + supportValue(shapeB, poseB.directionToParticleFrame(-n)) - n.dot(poseB.position - poseA.position);
}


} // namespace superellipsoid
