// Load propagation of the contact solver (ContactSolver.H): the first
// iterate of the relax passes by shock propagation with the loads returned.
//
// Plain Gauss-Seidel moves a change of load by one contact per sweep, and
// the error of a chain of n contacts decays like cos^2(pi/(n + 1)) per sweep:
// a landing body's weight reaches the floor under a column of 20 only after
// hundreds of sweeps. Shock propagation ([Guendelman2003]) orders the
// contacts from the supports upward: each body is brought to rest on its
// supports as if they were fixed (infinite mass), so the velocities of a
// stack are resolved in one pass; its impulses on the supports are held
// back. Here they are then returned from the top down: each body takes the
// impulses held back from the bodies above it and is brought to rest on its
// supports again, passing its whole load down. A column gets its exact
// impulses, (n - i) m g h, in one upward and one downward pass; a pile gets
// the vertical load paths, and the relax passes that follow resolve the
// coupling that the levels ignore (bodies side by side, friction). Every
// impulse acts on both bodies in the end (momentum is exchanged exactly),
// and the relax passes converge to the same solution from any first iterate.
#include "solver/ContactSolver.H"

#include <algorithm>
#include <cmath>
#include <limits>

namespace superellipsoid
{

namespace
{

//- Level of a body without a chain of resting contacts to a wall
constexpr int unreached = std::numeric_limits<int>::max();

//- Gauss-Seidel passes over a body's support points (its supports held
//  fixed: a small, well-conditioned problem); they stop earlier once no
//  update changes a speed by more than the relax tolerance
constexpr int supportPasses = 8;

} // namespace


void ContactSolver::buildLevels()
{
    // Resting contacts per body (offsets into bodyContacts_)
    const int n = int(velocity_.size()), nc = int(constraints_.size());
    contactStart_.assign(n + 1, 0);
    for (const ContactConstraint& c : constraints_)
    {
        if (!(c.restingSpeed > 0)) continue;
        ++contactStart_[c.a + 1];
        if (c.b >= 0) ++contactStart_[c.b + 1];
    }
    for (int i = 0; i < n; ++i) contactStart_[i + 1] += contactStart_[i];
    bodyContacts_.resize(contactStart_[n]);
    level_.assign(contactStart_.begin(), contactStart_.end() - 1);   // fill positions
    for (int k = 0; k < nc; ++k)
    {
        const ContactConstraint& c = constraints_[k];
        if (!(c.restingSpeed > 0)) continue;
        bodyContacts_[level_[c.a]++] = k;
        if (c.b >= 0) bodyContacts_[level_[c.b]++] = k;
    }

    // Levels by breadth-first search from the walls: a body on a wall is
    // level 1, one on it level 2, ...; canonical contact order, so the
    // order does not depend on particle storage
    level_.assign(n, unreached);
    bodyOrder_.clear();
    for (const ContactConstraint& c : constraints_)
    {
        if (c.b >= 0 || !(c.restingSpeed > 0) || level_[c.a] == 1) continue;
        level_[c.a] = 1;
        bodyOrder_.push_back(c.a);
    }
    for (std::size_t head = 0; head < bodyOrder_.size(); ++head)
    {
        const int i = bodyOrder_[head];
        for (int e = contactStart_[i]; e < contactStart_[i + 1]; ++e)
        {
            const ContactConstraint& c = constraints_[bodyContacts_[e]];
            const int other = c.a == i ? c.b : c.a;
            if (other < 0 || level_[other] != unreached) continue;
            level_[other] = level_[i] + 1;
            bodyOrder_.push_back(other);
        }
    }
}


void ContactSolver::holdOnSupports(int body, const CollisionSettings& settings, CollisionDiagnostics& diag)
{
    // Projected Gauss-Seidel on the points of the body's supports (walls
    // and bodies of a lower level), the supports held fixed: the impulses
    // are accumulated in the points as the relax's, the supports' share of
    // each update is held back (heldVelocity_, heldOmega_)
    if (!unbalanced(body, settings)) return;
    for (int pass = 0; pass < supportPasses; ++pass)
    {
        bool moved = false;
        for (int e = contactStart_[body]; e < contactStart_[body + 1]; ++e)
        {
            ContactConstraint& c = constraints_[bodyContacts_[e]];
            const int other = c.a == body ? c.b : c.a;
            if (other >= 0 && !(level_[other] < level_[body])) continue;
            const double slack = settings.restingTolerance*c.restingSpeed;
            const Vector3 v0 = other >= 0 ? velocity_[other] : Vector3::Zero();
            const Vector3 w0 = other >= 0 ? omega_[other] : Vector3::Zero();
            // A sticking face at once (ContactSolverBlock.C), else per point
            double change = 0;
            if (blockEligible(c) && blockUpdate(c, slack, change, moved, other))
            {
                holdBack(other, v0, w0);
                diag.restingImpulses += c.count;
                continue;
            }
            for (int i = 0; i < c.count; ++i) moved = holdPoint(c, i, body, slack, diag) || moved;
        }
        if (!moved) break;
    }
}


void ContactSolver::holdBack(int support, const Vector3& v0, const Vector3& w0)
{
    // The support's share of an update held back, its velocity restored
    if (support < 0) return;
    heldVelocity_[support] += velocity_[support] - v0;
    heldOmega_[support] += omega_[support] - w0;
    velocity_[support] = v0;
    omega_[support] = w0;
}


bool ContactSolver::holdPoint(ContactConstraint& c, int i, int body, double slack, CollisionDiagnostics& diag)
{
    // The relax's point update with the body's own masses (its support
    // held fixed); true if a speed changed by more than slack
    ConstraintPoint& q = c.points[i];
    const bool onA = c.a == body;
    const int other = onA ? c.b : c.a;
    const Vector3 v0 = other >= 0 ? velocity_[other] : Vector3::Zero();
    const Vector3 w0 = other >= 0 ? omega_[other] : Vector3::Zero();
    const double w = inverseMass_[body];
    const Matrix3& I = inverseInertia_[body];
    bool moved = false;
    if (c.friction > 0)
    {
        // t.u -> 0 along each tangent, accumulated impulse onto the disc
        // |t| <= mu Lambda_n (no limit if mu is infinite)
        const Vector3 u = relativeVelocity(c, i);
        const Vector3& r = onA ? q.rA : q.rB;
        double t[2];
        for (int d = 0; d < 2; ++d)
        {
            const Vector3 arm = r.cross(c.tangent[d]);
            t[d] = q.tangentImpulse[d] - c.tangent[d].dot(u)/(w + arm.dot(I*arm));
        }
        const double limit = c.friction*q.normalImpulse, norm = std::sqrt(t[0]*t[0] + t[1]*t[1]);
        if (norm > limit)
        {
            t[0] *= limit/norm;
            t[1] *= limit/norm;
        }
        const Vector3 P = (t[0] - q.tangentImpulse[0])*c.tangent[0] + (t[1] - q.tangentImpulse[1])*c.tangent[1];
        q.tangentImpulse[0] = t[0];
        q.tangentImpulse[1] = t[1];
        if (P.squaredNorm() > 0)
        {
            applyImpulse(c, i, P);
            holdBack(other, v0, w0);
            ++diag.restingImpulses;
            moved = P.norm()*w > slack;
        }
    }
    // Normal: n.u + gap/h -> 0, accumulated impulse >= 0
    const double mass = 1.0/(w + (onA ? q.armA.dot(q.spinA) : q.armB.dot(q.spinB)));
    const double lambda = std::max(q.normalImpulse - mass*closingSpeed(c, i), 0.0);
    const double delta = lambda - q.normalImpulse;
    q.normalImpulse = lambda;
    if (delta != 0)
    {
        applyNormalImpulse(c, i, delta);
        holdBack(other, v0, w0);
        ++diag.restingImpulses;
        moved = moved || std::abs(delta)/mass > slack;
    }
    return moved;
}


bool ContactSolver::unbalanced(int body, const CollisionSettings& settings) const
{
    // One support: its impulses are unique, the update is neutral at
    // convergence. Several: only if some normal update at a support point
    // would change a speed by more than the relax tolerance, so that a
    // balanced body keeps the split of its statically indeterminate
    // impulses that the relax converged to (re-split every substep, a
    // pyramid of spheres kept a residual at the tolerance and its supports
    // 1.4e-6 off the weight). With the stop on a sweep's energy (tau > 0)
    // the relax leaves more than that tolerance: the gate is then its
    // measure, the support updates' sum m_eff du^2/2 against tau m
    // (|a| h)^2/2 (gated per point, the pyramid was re-split every substep
    // and carried its weight only to 1.8e-2 at tau = 1e-3)
    int supports = 0;
    bool moving = false;
    double energy = 0, bound = 0;
    for (int e = contactStart_[body]; e < contactStart_[body + 1]; ++e)
    {
        const ContactConstraint& c = constraints_[bodyContacts_[e]];
        const int other = c.a == body ? c.b : c.a;
        if (other >= 0 && !(level_[other] < level_[body])) continue;
        ++supports;
        const double slack = settings.restingTolerance*c.restingSpeed;
        const double energyBound = 0.5*settings.restingEnergyTolerance*c.restingSpeed*c.restingSpeed;
        bound = std::max(bound, energyBound/inverseMass_[body]);
        for (int i = 0; i < c.count; ++i)
        {
            const ConstraintPoint& q = c.points[i];
            const double lambda = std::max(q.normalImpulse - q.normalMass*closingSpeed(c, i), 0.0);
            moving = moving || std::abs(lambda - q.normalImpulse) > slack*q.normalMass;
            energy += 0.5*(lambda - q.normalImpulse)*(lambda - q.normalImpulse)/q.normalMass;
        }
    }
    if (settings.restingEnergyTolerance > 0) moving = energy > bound;
    return supports == 1 || moving;
}


void ContactSolver::propagateLoads(const CollisionSettings& settings, CollisionDiagnostics& diag)
{
    buildLevels();
    const int n = int(velocity_.size());
    heldVelocity_.assign(n, Vector3::Zero());
    heldOmega_.assign(n, Vector3::Zero());
    // Supports upward: each body at rest on its (fixed) supports
    for (const int i : bodyOrder_) holdOnSupports(i, settings, diag);
    // Loads downward: each body takes what the bodies above held back on
    // it and passes it on to its own supports
    for (auto it = bodyOrder_.rbegin(); it != bodyOrder_.rend(); ++it)
    {
        const int i = *it;
        velocity_[i] += heldVelocity_[i];
        omega_[i] += heldOmega_[i];
        heldVelocity_[i].setZero();
        heldOmega_[i].setZero();
        holdOnSupports(i, settings, diag);
    }
}

} // namespace superellipsoid
