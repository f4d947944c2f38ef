// Block update of a face contact in the relax passes (ContactSolver.H).
//
// Per-point projected Gauss-Seidel on a face manifold with Coulomb friction
// converges slowly: the normal rows of four coplanar points have rank 3, the
// eight friction rows span only the three in-plane motions, and each
// friction impulse below the centre of mass tilts the body, which the normal
// rows then correct (a column of 3 frictional cubes after landing: the point
// residual falls by 0.983 per sweep). A face that sticks locks all six
// relative motions of the two bodies, so its impulses follow from one 6 x 6
// solve: the wrench (F, T) at the points' centroid that stops the relative
// twist, K (F, T) = -(u, w_rel) with K the pair's twist-wrench matrix
// (Eqs. (63), (70) of [Wedel2023] at the centroid). The accumulated wrench is
// then split over the points: the normal force and the tilting torque by the
// least-norm split, lambda = A^T (A A^T)^-1 (F_n, T_t); the tangential force
// evenly and the twist about n by the points' distances, t_i = F_t/N +
// T_n (n x d_i)/sum |d_i|^2. The split is accepted only if it is admissible,
// every lambda_i >= 0 and |t_i| <= mu lambda_i; otherwise the contact takes
// its per-point updates (it lifts a point or slides). Any admissible split is
// a solution (a face's split is statically indeterminate).
#include "solver/ContactSolver.H"

#include <Eigen/Dense>

#include <cmath>

namespace superellipsoid
{

namespace
{

//- Skew matrix [r]x with [r]x f = r x f
Matrix3 skew(const Vector3& r)
{
    Matrix3 m;
    m << 0, -r.z(), r.y(),
         r.z(), 0, -r.x(),
         -r.y(), r.x(), 0;
    return m;
}

//- Admissibility margin of the split: round-off of a sum of four impulses
constexpr double splitMargin = 1e-12;

//- Determinant of the points' in-plane second moment below this times its
//  trace squared: the touching points lie on a line (a face needs three
//  points that span it; a rectangle of aspect 1:30 gives 1e-3)
constexpr double collinearity = 1e-9;

//- A point that touches (no gap, no speculative target)
bool touchingPoint(const ConstraintPoint& q) { return q.depth >= 0 && !(q.gapSpeed > 0); }

} // namespace


bool ContactSolver::blockEligible(const ContactConstraint& c) const
{
    // A frictional face of three or more touching points between bodies
    // whose normal rows are the plain r x n (no surface of revolution)
    if (c.count < 3 || !(c.friction > 0)) return false;
    int touching = 0;
    for (int i = 0; i < c.count; ++i) touching += touchingPoint(c.points[i]);
    if (touching < 3) return false;
    if (symmetry_[c.a].kind != SurfaceSymmetry::Kind::none) return false;
    return c.b < 0 || symmetry_[c.b].kind == SurfaceSymmetry::Kind::none;
}


//- Split of a face's wrench over its points (Description)
struct FaceSplit
{
    double normal[maxManifoldPoints];
    double tangent[maxManifoldPoints][2];
};


bool ContactSolver::blockUpdate(ContactConstraint& c, double slack, double& change, bool& moved, int held)
{
    // Centroid of the touching points (lever arms of A and B to it),
    // in-plane offsets d_i; a speculative point (a gap left) takes no
    // impulse: a locked face keeps its gap, which its target allows
    const int N = c.count;
    const Vector3& n = c.normal;
    bool touching[maxManifoldPoints];
    int M = 0;
    Vector3 rA = Vector3::Zero(), rB = Vector3::Zero();
    for (int i = 0; i < N; ++i)
    {
        touching[i] = touchingPoint(c.points[i]);
        if (!touching[i]) continue;
        rA += c.points[i].rA;
        rB += c.points[i].rB;
        ++M;
    }
    rA /= M;
    rB /= M;
    Vector3 d[maxManifoldPoints];
    for (int i = 0; i < N; ++i)
    {
        d[i] = c.points[i].rA - rA;
        d[i] -= d[i].dot(n)*n;
    }

    // Accumulated wrench at the centroid plus the one that stops the twist
    Vector3 F = Vector3::Zero(), T = Vector3::Zero();
    for (int i = 0; i < N; ++i)
    {
        const ConstraintPoint& q = c.points[i];
        const Vector3 P = q.normalImpulse*n + q.tangentImpulse[0]*c.tangent[0] + q.tangentImpulse[1]*c.tangent[1];
        F += P;
        T += d[i].cross(P);
    }
    Vector3 dF, dT;
    if (!stoppingWrench(c, rA, rB, held, dF, dT)) return false;
    FaceSplit split;
    if (!splitWrench(c, touching, d, F + dF, T + dT, split)) return false;

    // Admissible: apply the changes of every point's impulses
    for (int i = 0; i < N; ++i)
    {
        ConstraintPoint& q = c.points[i];
        const double dn = split.normal[i] - q.normalImpulse;
        const double d0 = split.tangent[i][0] - q.tangentImpulse[0], d1 = split.tangent[i][1] - q.tangentImpulse[1];
        q.normalImpulse = split.normal[i];
        q.tangentImpulse[0] = split.tangent[i][0];
        q.tangentImpulse[1] = split.tangent[i][1];
        if (dn != 0) applyNormalImpulse(c, i, dn);
        if (d0 != 0 || d1 != 0) applyImpulse(c, i, d0*c.tangent[0] + d1*c.tangent[1]);
        readyTangentMasses(c, i);
        const double du = std::abs(dn)/q.normalMass + std::abs(d0)/q.tangentMass[0] + std::abs(d1)/q.tangentMass[1];
        change += du;
        moved = moved || du > slack;
    }
    return true;
}


bool ContactSolver::stoppingWrench
(
    const ContactConstraint& c, const Vector3& rA, const Vector3& rB, int held, Vector3& F, Vector3& T
) const
{
    // Relative twist (u, w) of B against A at the centroid and the
    // twist-wrench matrix K of a wrench (F, T) on B there (-(F, T) on A),
    // Eqs. (63), (70) of [Wedel2023]: u' = u + K_uF F + K_uT T, ...; a
    // held body (a support in a load propagation) takes no part in K
    Vector3 u = -(velocity_[c.a] + omega_[c.a].cross(rA)), w = -omega_[c.a];
    u += c.b >= 0 ? Vector3(velocity_[c.b] + omega_[c.b].cross(rB)) : c.wallVelocity;
    if (c.b >= 0) w += omega_[c.b];
    Eigen::Matrix<double, 6, 6> K = Eigen::Matrix<double, 6, 6>::Zero();
    auto add = [&](int body, const Vector3& r)
    {
        if (body < 0 || body == held) return;
        const Matrix3& I = inverseInertia_[body];
        const Matrix3 S = skew(r);
        K.topLeftCorner<3, 3>() += inverseMass_[body]*Matrix3::Identity() - S*I*S;
        K.topRightCorner<3, 3>() += -S*I;
        K.bottomRightCorner<3, 3>() += I;
    };
    add(c.a, rA);
    add(c.b, rB);
    K.bottomLeftCorner<3, 3>() = K.topRightCorner<3, 3>().transpose();
    Eigen::Matrix<double, 6, 1> twist;
    twist << u, w;
    const Eigen::Matrix<double, 6, 1> W = K.ldlt().solve(-twist);
    if (!W.allFinite()) return false;
    F = W.head<3>();
    T = W.tail<3>();
    return true;
}


bool ContactSolver::splitWrench
(
    const ContactConstraint& c, const bool touching[], const Vector3 d[],
    const Vector3& F, const Vector3& T, FaceSplit& split
) const
{
    // Normal force and tilting torque: least-norm split A^T (A A^T)^-1 b
    // over the touching points (rows: 1, (d_i x n).t0, (d_i x n).t1)
    const Vector3& n = c.normal;
    Eigen::Matrix<double, 3, maxManifoldPoints> A = Eigen::Matrix<double, 3, maxManifoldPoints>::Zero();
    int M = 0;
    double dd = 0;
    for (int i = 0; i < c.count; ++i)
    {
        if (!touching[i]) continue;
        const Vector3 e = d[i].cross(n);
        A(0, i) = 1;
        A(1, i) = e.dot(c.tangent[0]);
        A(2, i) = e.dot(c.tangent[1]);
        dd += d[i].squaredNorm();
        ++M;
    }
    // Touching points on a line (their in-plane second moment, the lower
    // block of A A^T, singular): not a face
    const Matrix3 AAt = A*A.transpose();
    const double S00 = AAt(1, 1), S11 = AAt(2, 2), S01 = AAt(1, 2);
    if (!(S00*S11 - S01*S01 > collinearity*(S00 + S11)*(S00 + S11))) return false;
    const Vector3 b(F.dot(n), T.dot(c.tangent[0]), T.dot(c.tangent[1]));
    const Eigen::Matrix<double, maxManifoldPoints, 1> lambda = A.transpose()*AAt.ldlt().solve(b);
    if (!lambda.allFinite()) return false;

    // Tangential force evenly, the twist about n by the distances; each
    // point inside its Coulomb disc (an infinite mu: no limit)
    const Vector3 Ft = F - F.dot(n)*n;
    const double Tn = T.dot(n);
    for (int i = 0; i < c.count; ++i)
    {
        split.normal[i] = split.tangent[i][0] = split.tangent[i][1] = 0;
        if (!touching[i]) continue;
        if (lambda(i) < -splitMargin*std::abs(b.x())) return false;
        split.normal[i] = std::max(lambda(i), 0.0);
        const Vector3 ti = Ft/M + (Tn/dd)*n.cross(d[i]);
        split.tangent[i][0] = ti.dot(c.tangent[0]);
        split.tangent[i][1] = ti.dot(c.tangent[1]);
        const double limit = c.friction*split.normal[i];
        if (std::hypot(split.tangent[i][0], split.tangent[i][1]) > limit*(1 + splitMargin)) return false;
    }
    return true;
}

} // namespace superellipsoid
