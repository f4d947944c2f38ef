#include "solver/ContactSolver.H"
#include "solver/PassStagnation.H"
#include "contact/ManifoldGeometry.H"
#include "math/SameBits.H"

#include <algorithm>
#include <cmath>
#include <limits>

namespace superellipsoid
{

namespace
{

//- A point approaches if n.u < -approachTolerance * (largest |n.u| of the
//  substep): round-off of an exactly resolved eps_n = 0 contact
//  (n.u+ ~ 1e-16 |u-|) must not count as approaching again
constexpr double approachTolerance = 1e-9;

//- Resolutions of a frictional one-point contact in a collision sweep:
//  resolveImpulse leaves it separating, so one suffices; the rest guard
//  round-off
constexpr int collisionPassesPerPoint = 4;

//- Gauss-Seidel passes of a multi-point collision (collidePoints) and
//  their stopping rule: speed changes below this fraction of the largest
//  approach: a centric face impact must not spin (case_wallCollision
//  allows 1e-9 rad/s; 1e-10 left 1.2e-7 rad/s)
constexpr int maxCollisionPasses = 10000;
constexpr double collisionTolerance = 1e-13;

//- A law whose impulse is the frictionless one (ImpulseCollision.H:
//  eps_t = 1 is exactly the frictionless variant; mu = 0 gives eps_t = 1)
bool withoutFriction(const ImpulseLaw& law)
{
    switch (law.tangential)
    {
        case TangentialModel::frictionless: return true;
        case TangentialModel::restitution: return law.tangentialRestitution == 1;
        case TangentialModel::coulombSchwager: return law.frictionCoefficient == 0;
    }
    return false;
}

//- Friction coefficient of the relax passes: Coulomb mu; a law with a
//  tangential restitution eps_t < 1 has no Coulomb limit (sticks); eps_t = 1
//  and mu = 0 are frictionless
double relaxFriction(const ImpulseLaw& law)
{
    switch (law.tangential)
    {
        case TangentialModel::frictionless: return 0;
        case TangentialModel::restitution:
            return law.tangentialRestitution == 1 ? 0 : std::numeric_limits<double>::infinity();
        case TangentialModel::coulombSchwager: return law.frictionCoefficient;
    }
    return 0;
}

//- |t0| + |t1| <= limit (1 - 4 eps) bounds |(t0, t1)| below limit,
//  round-off of both included: the Coulomb clamp is then known to be void,
//  with the same result
inline bool insideDisc(double t0, double t1, double limit)
{
    return std::abs(t0) + std::abs(t1) <= limit*(1 - 4*std::numeric_limits<double>::epsilon());
}

//- Scale (t0, t1) onto the Coulomb disc of radius limit if outside it.
//  sqrt of the sum of squares, not std::hypot: impulses squared stay far
//  inside the double range, so hypot's overflow guard is not needed
inline void clampToDisc(double& t0, double& t1, double limit)
{
    const double tangential = std::sqrt(t0*t0 + t1*t1);
    if (tangential > limit)
    {
        const double s = limit/tangential;
        t0 *= s;
        t1 *= s;
    }
}

//- 1/(d.K.d) of a constraint row with linear part d (unit) and angular
//  parts armA (and armB), Eq. (73) of [Wedel2023]
double rowMass
(
    double wA, const Vector3& armA, const Matrix3& IA,
    double wB, const Vector3* armB, const Matrix3* IB
)
{
    double dKd = wA + armA.dot(IA*armA);
    if (armB) dKd += wB + armB->dot((*IB)*(*armB));
    return 1.0/dKd;
}

//- rowMass of a unit direction d at lever arms rA (and rB): arms r x d
double effectiveMass
(
    const Vector3& d, const Vector3& rA, double wA, const Matrix3& IA,
    const Vector3* rB, double wB, const Matrix3* IB
)
{
    const Vector3 armB = rB ? Vector3(rB->cross(d)) : Vector3::Zero();
    return rowMass(wA, rA.cross(d), IA, wB, rB ? &armB : nullptr, IB);
}

//- Rotation by the rotation vector theta (exact exponential map)
Quaternion rotationBy(const Vector3& theta)
{
    const double angle = theta.norm();
    if (!(angle > 0)) return Quaternion::Identity();
    return Quaternion(Eigen::AngleAxisd(angle, theta/angle));
}

//- The points of constraint c from the manifold of s: lever arms, normal
//  arms (SurfaceSymmetry.H) and the normal row's effective mass, Eq. (73)
//  of [Wedel2023] (a wall: zero inverse mass); the tangent rows' when
//  first used (ContactSolver::readyTangentMasses)
void preparePoints
(
    ContactConstraint& c,
    const StepContact& s,
    const ParticleSystem& system,
    const std::vector<double>& inverseMass,
    const std::vector<Matrix3>& inverseInertia,
    const std::vector<SurfaceSymmetry>& symmetry
)
{
    const Vector3& xA = system.particles[s.a].pose.position;
    const double wA = inverseMass[s.a];
    const Matrix3& IA = inverseInertia[s.a];
    c.count = s.manifold.count;
    for (int i = 0; i < c.count; ++i)
    {
        ConstraintPoint& q = c.points[i];
        q = ConstraintPoint();
        const Vector3& p = s.manifold.points[i].point;
        q.depth = s.manifold.points[i].depth;
        q.rA = p - xA;
        q.armA = symmetry[s.a].normalArm(q.rA, c.normal);
        q.spinA = IA*q.armA;
        if (s.b >= 0)
        {
            const Matrix3& IB = inverseInertia[s.b];
            q.rB = p - (system.particles[s.b].pose.position + s.offsetB);
            q.armB = symmetry[s.b].normalArm(q.rB, c.normal);
            q.spinB = IB*q.armB;
            q.normalMass = rowMass(wA, q.armA, IA, inverseMass[s.b], &q.armB, &IB);
        }
        else
        {
            q.normalMass = rowMass(wA, q.armA, IA, 0, nullptr, nullptr);
        }
    }
}

//- Resting speed |a| h: the approach a body force of acceleration a builds
//  in one substep h; the restitution threshold and allowed overlap of the
//  contact; the approach speed gap/h allowed to a separated point, at most
//  the resting speed (Description: speculative points)
void prepareResting
(
    ContactConstraint& c,
    StepContact& s,
    const CollisionSettings& settings,
    double h,
    double a
)
{
    c.restingSpeed = 0;
    c.restitutionThreshold = 0;
    s.allowedOverlap = 0;
    if (h > 0 && settings.restingSpeedFactor > 0)
    {
        c.restingSpeed = a*h;
        c.restitutionThreshold = std::max
        (
            settings.restingSpeedFactor*a*h, std::sqrt(2*a*settings.restitutionHeight*s.halfAxis)
        );
        if (a > 0) s.allowedOverlap = settings.restingOverlap*s.halfAxis;
    }
    for (int i = 0; i < c.count; ++i)
    {
        ConstraintPoint& q = c.points[i];
        q.gapSpeed = q.depth < 0 ? std::min(-q.depth/h, c.restingSpeed) : 0;
    }
}

//- Kinetic energy sum m (|a| h)^2/2 that the body force gives the bodies of
//  the resting contacts in a substep, |a| h the largest of each body's
//  contacts: the scale of the relax's stop on a sweep's energy. speed:
//  scratch of one entry per body, left zero
double bodyForceEnergy
(
    const std::vector<ContactConstraint>& constraints,
    const std::vector<double>& inverseMass,
    std::vector<double>& speed
)
{
    for (const ContactConstraint& c : constraints)
    {
        speed[c.a] = std::max(speed[c.a], c.restingSpeed);
        if (c.b >= 0) speed[c.b] = std::max(speed[c.b], c.restingSpeed);
    }
    double energy = 0;
    for (std::size_t i = 0; i < speed.size(); ++i)
    {
        if (inverseMass[i] > 0) energy += 0.5*speed[i]*speed[i]/inverseMass[i];
        speed[i] = 0;
    }
    return energy;
}

} // namespace


// * * * * * * * * * * * * * * * * Phases * * * * * * * * * * * * * * * * //

void ContactSolver::prepare
(
    const ParticleSystem& system,
    std::vector<StepContact>& contacts,
    const CollisionSettings& settings,
    double h
)
{
    const int n = system.size();
    velocity_.resize(n);
    omega_.resize(n);
    inverseMass_.resize(n);
    inverseInertia_.resize(n);
    symmetry_.resize(n);
    bodyForceAcceleration_.resize(n);
    ready_.assign(n, 0);
    changed_.assign(n, 0);
    auto ready = [&](int i)
    {
        if (ready_[i]) return;
        const Particle& p = system.particles[i];
        const Matrix3 Q = p.pose.orientation.toRotationMatrix();
        velocity_[i] = p.velocity;
        omega_[i] = Q*p.angularVelocity;
        // The implicit external resistance moves with the body's velocity:
        // an impulse P changes v by P/(m + h c) (isotropicResistance)
        inverseMass_[i] = 1.0/(p.mass + h*isotropicResistance(p));
        // Global I^-1 = Q diag(1/I') Q^T, Eq. (62) of [Wedel2023]
        inverseInertia_[i] = Q*p.principalMoments.cwiseInverse().asDiagonal()*Q.transpose();
        symmetry_[i] = surfaceSymmetry(system.shapes[p.shapeIndex], p.pose.orientation);
        // Body force a = g + F_ext/m (Description)
        bodyForceAcceleration_[i] = bodyAcceleration(p, settings.gravity).norm();
        ready_[i] = 1;
    };

    const int nc = int(contacts.size());
    constraints_.resize(nc);
    // Tangents of the last wall contact's normal: the contacts of a flat
    // wall share one (the same bits give the same frame); a pair's own
    Vector3 wallNormal = Vector3::Constant(std::numeric_limits<double>::quiet_NaN());
    Vector3 wallTangent[2] = {Vector3::Zero(), Vector3::Zero()};
    for (int k = 0; k < nc; ++k)
    {
        StepContact& s = contacts[k];
        ContactConstraint& c = constraints_[k];
        c.a = s.a;
        c.b = s.b;
        c.face = s.face;
        c.normal = s.manifold.normal;
        if (s.b >= 0 || !sameBits(c.normal.data(), wallNormal.data(), 3))
        {
            const Matrix3 frame = collisionFrame(c.normal);
            c.tangent[0] = frame.row(1).transpose();
            c.tangent[1] = frame.row(2).transpose();
            if (s.b < 0)
            {
                wallNormal = c.normal;
                wallTangent[0] = c.tangent[0];
                wallTangent[1] = c.tangent[1];
            }
        }
        else
        {
            c.tangent[0] = wallTangent[0];
            c.tangent[1] = wallTangent[1];
        }
        c.wallVelocity = s.b < 0 ? system.walls.velocity[s.face] : Vector3::Zero();
        // A mirror face (symmetry plane): the body meets its mirror image,
        // frictionless with the pair's eps_n (ParticleSystem.H)
        c.law = s.b >= 0 ? settings.pairLaw
              : system.walls.isMirror(s.face) ? ImpulseLaw::frictionless(settings.pairLaw.normalRestitution)
              : settings.wallLaw;
        c.friction = relaxFriction(c.law);

        ready(s.a);
        if (s.b >= 0) ready(s.b);
        preparePoints(c, s, system, inverseMass_, inverseInertia_, symmetry_);
        const std::vector<double>& a = bodyForceAcceleration_;
        const double bodyForce = h > 0 && settings.restingSpeedFactor > 0
            ? (s.b >= 0 ? std::max(a[s.a], a[s.b]) : a[s.a])
            : 0;
        prepareResting(c, s, settings, h, bodyForce);
        c.collided = false;
    }
}


void ContactSolver::warmStart
(
    const std::vector<StepContact>& contacts,
    const PairCache& cache,
    double factor,
    CollisionDiagnostics& diag
)
{
    const int nc = int(contacts.size());
    for (int k = 0; k < nc; ++k)
    {
        ContactConstraint& c = constraints_[k];
        if (!(c.restingSpeed > 0) || c.collided) continue;
        const PairRecord* rec = cache.find(contacts[k].key, contacts[k].record);
        if (!rec || !(rec->normalImpulse > 0)) continue;
        // Stored points matched to the new ones by their position in A's frame
        ContactManifold previous;
        previous.count = rec->pointCount;
        for (int j = 0; j < rec->pointCount; ++j) previous.points[j].pointInA = rec->points[j].pointInA;
        std::array<int, maxManifoldPoints> match;
        matchManifoldPoints(previous, contacts[k].manifold, manifoldMatchTolerance*contacts[k].halfAxis, match);
        for (int i = 0; i < c.count; ++i)
        {
            ConstraintPoint& q = c.points[i];
            if (rec->pointCount == 0)
            {
                // Only the sum is known (a record of a one-point solver)
                q.normalImpulse = factor*rec->normalImpulse/c.count;
            }
            else
            {
                if (match[i] < 0) continue;
                const PointImpulse& stored = rec->points[match[i]];
                q.normalImpulse = factor*stored.normal;
                for (int t = 0; t < 2; ++t) q.tangentImpulse[t] = factor*stored.tangential.dot(c.tangent[t]);
                // The normal turned since: stay inside the Coulomb disc
                clampToDisc(q.tangentImpulse[0], q.tangentImpulse[1], c.friction*q.normalImpulse);
            }
            applyNormalImpulse(c, i, q.normalImpulse);
            applyImpulse(c, i, q.tangentImpulse[0]*c.tangent[0] + q.tangentImpulse[1]*c.tangent[1]);
            ++diag.restingImpulses;
        }
    }
}


double ContactSolver::speedTolerance() const
{
    // Round-off of the substep's speeds: approachTolerance times the
    // largest |n.u| of any point (on any processor)
    double speedScale = 0;
    for (const ContactConstraint& c : constraints_)
    {
        for (int i = 0; i < c.count; ++i) speedScale = std::max(speedScale, std::abs(normalSpeed(c, i)));
    }
    return approachTolerance*globalMax(speedScale);
}


bool ContactSolver::restingApproach(int k) const
{
    return -approach_[k] < constraints_[k].restitutionThreshold;
}


bool ContactSolver::isCollision(int k, bool relaxPhase, double tolerance) const
{
    // With relax passes the resting contacts are theirs
    return approach_[k] < -tolerance && !(relaxPhase && restingApproach(k));
}


double ContactSolver::measureApproaches()
{
    // A contact's approach is that of its most approaching point
    double speedScale = 0;
    const int nc = int(constraints_.size());
    approach_.resize(nc);
    for (int k = 0; k < nc; ++k)
    {
        const ContactConstraint& c = constraints_[k];
        double u = std::numeric_limits<double>::max();
        for (int i = 0; i < c.count; ++i)
        {
            const double ui = normalSpeed(c, i);
            u = std::min(u, ui);
            speedScale = std::max(speedScale, std::abs(ui));
        }
        approach_[k] = u;
    }
    return speedScale;
}


ContactSolver::Approaches ContactSolver::classifyApproaches(bool relaxPhase, double tolerance)
{
    Approaches any;
    const int nc = int(constraints_.size());
    for (int k = 0; k < nc; ++k)
    {
        if (isCollision(k, relaxPhase, tolerance)) (restingApproach(k) ? any.resting : any.fast) = true;
    }
    // Decomposed: stop together (one reduction of both flags)
    const double flags = globalMax(2*any.fast + any.resting);
    any.fast = flags >= 2;
    any.resting = flags == 1 || flags == 3;
    return any;
}


void ContactSolver::matchDeepest
(
    const std::vector<StepContact>& contacts, bool relaxPhase, double tolerance
)
{
    // The deepest approaching contact of every particle; ties by canonical
    // index (smaller first)
    auto deeper = [&](int k, int l)
    {
        return contacts[k].overlap > contacts[l].overlap || (contacts[k].overlap == contacts[l].overlap && k < l);
    };
    best_.assign(ready_.size(), -1);
    const int nc = int(constraints_.size());
    for (int k = 0; k < nc; ++k)
    {
        if (!isCollision(k, relaxPhase, tolerance)) continue;
        const ContactConstraint& c = constraints_[k];
        if (best_[c.a] < 0 || deeper(k, best_[c.a])) best_[c.a] = k;
        if (c.b >= 0 && (best_[c.b] < 0 || deeper(k, best_[c.b]))) best_[c.b] = k;
    }
}


bool ContactSolver::collideContact(ContactConstraint& c, bool resting, double tolerance)
{
    const ImpulseLaw& law = c.law;
    c.collided = true;
    if (withoutFriction(law) || c.count > 1)
    {
        return collidePoints(c, resting ? 0.0 : law.normalRestitution, tolerance);
    }
    // One point: the seed's frictional impulse until it no longer approaches
    for (int pass = 0; pass < collisionPassesPerPoint; ++pass)
    {
        if (!(normalSpeed(c, 0) < -tolerance)) break;
        resolvePoint(c, 0, law, resting);
    }
    return false;
}


int ContactSolver::collide
(
    const std::vector<StepContact>& contacts,
    const CollisionSettings& settings,
    bool relaxPhase,
    CollisionDiagnostics& diag
)
{
    // The round-off of the speeds (speedTolerance) from the first
    // measurement of the approaches
    const double tolerance = approachTolerance*globalMax(measureApproaches());
    int sweeps = 0;
    for (int sweep = 0; sweep <= settings.maxSweeps; ++sweep)
    {
        // 1. Approaches: stop when nothing approaches, or only resting
        //    contacts that the relax passes handle
        if (sweep > 0) measureApproaches();
        const Approaches any = classifyApproaches(relaxPhase, tolerance);
        if (!any.fast && (!any.resting || relaxPhase)) break;
        if (sweep == settings.maxSweeps)
        {
            if (any.fast) ++diag.sweepCapHits;
            break;
        }
        // 2. Matching: the deepest approaching contact of every particle
        matchDeepest(contacts, relaxPhase, tolerance);
        // 3. Resolve the matching (disjoint contacts: order irrelevant)
        const int nc = int(constraints_.size());
        for (int k = 0; k < nc; ++k)
        {
            ContactConstraint& c = constraints_[k];
            if (!isCollision(k, relaxPhase, tolerance) || best_[c.a] != k || (c.b >= 0 && best_[c.b] != k)) continue;
            const bool resting = restingApproach(k);
            if (collideContact(c, resting, tolerance)) ++diag.collisionStagnations;
            ++(c.b >= 0 ? diag.pairCollisions : diag.wallCollisions);
            if (resting) ++diag.restingImpulses;
        }
        sweeps = sweep + 1;
    }
    diag.maxSweeps = std::max(diag.maxSweeps, sweeps);
    return sweeps;
}


bool ContactSolver::collidePoints(ContactConstraint& c, double epsN, double tolerance)
{
    // Points approaching now get the target n.u+ = -eps_n n.u-, with
    // friction the tangential target t.u+ = 0 inside the Coulomb disc of
    // the point's normal impulse (eps_t < 1 without mu: no limit); impulses
    // accumulated >= 0 over Gauss-Seidel passes until no update changes a
    // point's speed by more than collisionTolerance of the largest approach.
    // At convergence the normal part dissipates sum lambda_i (1 - eps_n)
    // n.u-_i / 2 >= 0 (Thomson-Tait), the friction updates only remove
    // slip; one point: -(1 + eps_n) n.u-/(n.K.n) in one pass,
    // Eq. (65)/(75) of [Wedel2023], as frictionlessNormalImpulse. With
    // friction also until the passes stagnate (PassStagnation.H)
    double target[maxManifoldPoints], lambda[maxManifoldPoints], friction[maxManifoldPoints][2];
    bool active[maxManifoldPoints];
    double scale = 0;
    for (int i = 0; i < c.count; ++i)
    {
        const double un = normalSpeed(c, i);
        active[i] = un < -tolerance;
        target[i] = -epsN*un;
        lambda[i] = friction[i][0] = friction[i][1] = 0;
        if (active[i]) scale = std::max(scale, -un);
    }
    PassStagnation stagnation;
    for (int pass = 0; pass < maxCollisionPasses; ++pass)
    {
        double change = 0;
        for (int i = 0; i < c.count; ++i)
        {
            if (!active[i]) continue;
            const ConstraintPoint& q = c.points[i];
            const double un = normalSpeed(c, i);
            const double next = std::max(lambda[i] + q.normalMass*(target[i] - un), 0.0);
            const double delta = next - lambda[i];
            lambda[i] = next;
            if (delta != 0) applyNormalImpulse(c, i, delta);
            change = std::max(change, std::abs(delta)/q.normalMass);
            if (c.friction > 0)
            {
                const Vector3 d = frictionUpdate(c, i, friction[i], c.friction*lambda[i]);
                change = std::max(change, d.norm());
            }
        }
        if (!(change > collisionTolerance*scale)) break;
        if (c.friction > 0 && stagnation.stagnates(pass, change)) return true;
    }
    return false;
}


ContactSolver::ContactVisit ContactSolver::relaxContact
(
    ContactConstraint& c, double slack, bool blockFaces, CollisionDiagnostics& diag
)
{
    ContactVisit visit;
    // A sticking face at once (ContactSolverBlock.C), else per point
    if (blockFaces && blockEligible(c) && blockUpdate(c, slack, visit.change, visit.moved))
    {
        diag.restingImpulses += c.count;
        return visit;
    }
    for (int i = 0; i < c.count; ++i)
    {
        ConstraintPoint& q = c.points[i];
        // Friction: t.u -> 0, accumulated impulse in the Coulomb disc. A
        // point with no normal impulse (or a momentum step's Lambda_n < 0)
        // has the disc {0}: with no tangential impulse either, its update
        // is zero and is skipped (a sticking law's limit inf*0 is not 0)
        const double limit = c.friction*std::max(q.normalImpulse, 0.0);
        if (c.friction > 0 && (limit != 0 || q.tangentImpulse[0] != 0 || q.tangentImpulse[1] != 0))
        {
            const Vector3 d = frictionUpdate(c, i, q.tangentImpulse, limit);
            if (d.squaredNorm() > 0) ++diag.restingImpulses;
            const double dn = d.norm();
            visit.energy += 0.5*(q.tangentMass[0]*d[0]*d[0] + q.tangentMass[1]*d[1]*d[1]);
            visit.change += dn;
            if (dn > slack) visit.moved = true;
        }
        // Normal: n.u + gap/h -> 0, accumulated impulse >= 0
        const double lambda = std::max(q.normalImpulse - q.normalMass*closingSpeed(c, i), 0.0);
        const double delta = lambda - q.normalImpulse;
        q.normalImpulse = lambda;
        if (delta != 0)
        {
            applyNormalImpulse(c, i, delta);
            ++diag.restingImpulses;
            const double du = std::abs(delta)/q.normalMass;
            visit.energy += 0.5*std::abs(delta)*du;
            visit.change += du;
            if (du > slack) visit.moved = true;
        }
    }
    return visit;
}


ContactSolver::RelaxSweep ContactSolver::relaxSweep
(
    const CollisionSettings& settings, double tolerance, CollisionDiagnostics& diag
)
{
    // Selective: after the first sweep a contact is visited again only if
    // its own last update moved a speed by more than its slack, or the
    // speed changes its bodies took since (from its neighbours' updates,
    // summed) exceed that slack; a skipped contact's update would stay
    // within the stop test's bound. Late sweeps touch the few contacts
    // still changing (a 1e4 packed pile: ~20 of 7500 after 50 sweeps)
    RelaxSweep sweep;
    const int nc = int(constraints_.size());
    for (int k = 0; k < nc; ++k)
    {
        ContactConstraint& c = constraints_[k];
        if (!(c.restingSpeed > 0)) continue;
        const double slack = std::max(tolerance, settings.restingTolerance*c.restingSpeed);
        // A wall contact's second body has no drift (0 and seen 0)
        const double since = drift_[c.a] - seen_[k][0] + (c.b >= 0 ? drift_[c.b] - seen_[k][1] : 0.0);
        if (!moved_[k] && since <= slack) continue;
        const ContactVisit visit = relaxContact(c, slack, settings.blockFaces, diag);
        sweep.energy += visit.energy;
        sweep.residual = std::max(sweep.residual, visit.change/c.restingSpeed);
        drift_[c.a] += visit.change;
        if (c.b >= 0) drift_[c.b] += visit.change;
        seen_[k] = {drift_[c.a], c.b >= 0 ? drift_[c.b] : 0.0};
        moved_[k] = visit.moved;
        if (visit.moved) sweep.converged = false;
        if (visit.moved && strict(c)) sweep.strictConverged = false;
    }
    return sweep;
}


bool ContactSolver::strict(const ContactConstraint& c) const
{
    // What a frictionless contact's residual leaves slides on in the next
    // substep unless friction on another contact of its bodies takes it
    // back; a wall contact's one body, a pair's both
    if (c.friction > 0) return false;
    return !held_[c.a] || (c.b >= 0 && !held_[c.b]);
}


int ContactSolver::relax(const CollisionSettings& settings, CollisionDiagnostics& diag)
{
    // 1. Bounds: round-off of the speeds; the energy bound tau E_h; the
    //    bodies held by friction (contacts of this processor)
    const double tolerance = speedTolerance();
    drift_.assign(velocity_.size(), 0.0);
    seen_.assign(constraints_.size(), {0.0, 0.0});
    moved_.assign(constraints_.size(), 1);
    held_.assign(velocity_.size(), 0);
    for (const ContactConstraint& c : constraints_)
    {
        if (!(c.restingSpeed > 0 && c.friction > 0)) continue;
        held_[c.a] = 1;
        if (c.b >= 0) held_[c.b] = 1;
    }
    const double bodyEnergy = bodyForceEnergy(constraints_, inverseMass_, drift_);
    const double energyBound = settings.restingEnergyTolerance*bodyEnergy;
    momentumStarted_ = false;

    // 2. Sweeps until every point converged, or (strict contacts
    //    converged) the sweep's energy is below the bound, or the cap
    RelaxSweep last;
    int sweeps = 0;
    bool energyStop = false;
    for (;; ++sweeps)
    {
        if (sweeps == settings.maxRestingSweeps)
        {
            ++diag.restingCapHits;
            break;
        }
        last = relaxSweep(settings, tolerance, diag);
        // All processors alike, one reduction: 2 goes on, 1 stops on the
        // energy, 0 converged
        const bool settled = last.strictConverged && !(last.energy > energyBound) && energyBound > 0;
        const double state = globalMax(2*(!last.converged && !settled) + !last.converged);
        if (state < 2)
        {
            energyStop = state > 0;
            ++sweeps;
            break;
        }
        if (settings.restingMomentum)
        {
            if (momentumStarted_) accelerate(last.energy);
            else beginMomentum(last.energy);
        }
    }

    // 3. Diagnostics: sweeps, the last sweep's residuals, how it stopped
    diag.maxRestingSweeps = std::max(diag.maxRestingSweeps, sweeps);
    diag.restingSweeps += sweeps;
    ++diag.restingSubsteps;
    diag.restingResidual = std::max(diag.restingResidual, last.residual);
    if (bodyEnergy > 0) diag.restingEnergyResidual = std::max(diag.restingEnergyResidual, last.energy/bodyEnergy);
    if (energyStop) ++diag.restingEnergyStops;
    return sweeps;
}


namespace
{

//- Any impulse at the point, of the collisions or the relax
bool hasImpulse(const ConstraintPoint& q)
{
    auto nonZero = [](const Vector3& v) { return v.x() != 0 || v.y() != 0 || v.z() != 0; };
    return q.normalImpulse != 0 || q.tangentImpulse[0] != 0 || q.tangentImpulse[1] != 0
        || nonZero(q.total) || nonZero(q.angularA) || nonZero(q.angularB);
}

} // namespace


void ContactSolver::store(std::vector<StepContact>& contacts, PairCache& cache)
{
    // Records of the last substep's impulses are reset first, so a contact
    // that was not detected in this substep does not keep a stale one
    for (const WarmRecord& w : warmRecords_)
    {
        if (PairRecord* rec = cache.find(w.key, w.record))
        {
            rec->normalImpulse = 0;
            rec->pointCount = 0;
        }
    }
    warmRecords_.clear();
    const int nc = int(contacts.size());
    for (int k = 0; k < nc; ++k)
    {
        StepContact& s = contacts[k];
        const ContactConstraint& c = constraints_[k];
        s.restingImpulse = 0;
        s.pointImpulse.fill(0);
        s.impulse.setZero();
        s.angularImpulseA.setZero();
        s.angularImpulseB.setZero();
        for (int i = 0; i < c.count; ++i)
        {
            const ConstraintPoint& q = c.points[i];
            s.pointImpulse[i] = q.normalImpulse;
            s.restingImpulse += q.normalImpulse;
            // A point without impulses adds zeros (most resting points)
            if (!hasImpulse(q)) continue;
            // Net impulse of all phases, P on B and -P on A at the point:
            // the collisions' (summed as applied) and the accumulated
            // resting impulse, the normal one through the normal arms
            const Vector3 t = q.tangentImpulse[0]*c.tangent[0] + q.tangentImpulse[1]*c.tangent[1];
            s.impulse += q.total + q.normalImpulse*c.normal + t;
            s.angularImpulseA += q.angularA - q.normalImpulse*q.armA - q.rA.cross(t);
            if (c.b >= 0) s.angularImpulseB += q.angularB + q.normalImpulse*q.armB + q.rB.cross(t);
        }
        if (!(s.restingImpulse > 0)) continue;
        PairRecord* rec = cache.find(s.key, s.record);
        if (!rec) continue;
        rec->normalImpulse = s.restingImpulse;
        rec->pointCount = c.count;
        for (int i = 0; i < c.count; ++i)
        {
            const ConstraintPoint& q = c.points[i];
            rec->points[i].pointInA = s.manifold.points[i].pointInA;
            rec->points[i].normal = q.normalImpulse;
            rec->points[i].tangential = q.tangentImpulse[0]*c.tangent[0] + q.tangentImpulse[1]*c.tangent[1];
        }
        warmRecords_.push_back(WarmRecord{s.key, cache.indexOf(*rec)});
    }
}


void ContactSolver::finish(ParticleSystem& system, double h) const
{
    // omega' = e^-1 omega; only particles that received an impulse. The
    // resistance's share of the change, h c dv, is resisted impulse
    for (int i = 0; i < system.size(); ++i)
    {
        if (!changed_[i]) continue;
        Particle& p = system.particles[i];
        p.resistedImpulse += (h*isotropicResistance(p))*(velocity_[i] - p.velocity);
        p.velocity = velocity_[i];
        p.angularVelocity = p.pose.orientation.conjugate()*omega_[i];
    }
}


int ContactSolver::solveVelocities
(
    ParticleSystem& system,
    std::vector<StepContact>& contacts,
    PairCache& cache,
    const CollisionSettings& settings,
    double h,
    CollisionDiagnostics& diag
)
{
    prepare(system, contacts, settings, h);
    // Relax passes follow if any contact carries a body force (on any processor)
    bool relaxPhase = false;
    for (const ContactConstraint& c : constraints_) relaxPhase = relaxPhase || c.restingSpeed > 0;
    relaxPhase = globalMax(relaxPhase) > 0 && settings.maxRestingSweeps > 0;

    // Decomposed: every processor sweeps (its reductions), with contacts or
    // not. Collision impulses are summed into the totals as applied; the
    // resting phases' are their accumulated impulses (store)
    trackTotals_ = true;
    int sweeps = contacts.empty() && !globalMax_ ? 0 : collide(contacts, settings, relaxPhase, diag);
    trackTotals_ = false;
    // Velocities the resting impulses start from (solvePositions)
    substep_ = relaxPhase ? h : 0;
    if (relaxPhase)
    {
        restingVelocity_ = velocity_;
        restingOmega_ = omega_;
    }
    // A resting impulse is a force times h: the stored ones scale with
    // h/h_prev (1 if h_prev is unknown, e.g. after a restart)
    if (relaxPhase && settings.warmStartFactor > 0)
    {
        const double scale = storedSubstep_ > 0 ? h/storedSubstep_ : 1.0;
        warmStart(contacts, cache, settings.warmStartFactor*scale, diag);
    }
    // Serial only: levels from one processor's contacts would make the
    // first iterate depend on the decomposition
    if (relaxPhase && settings.propagateLoads && !globalMax_) propagateLoads(settings, diag);
    if (relaxPhase) sweeps += relax(settings, diag);
    finish(system, h);
    store(contacts, cache);
    storedSubstep_ = substep_;
    return sweeps;
}


void ContactSolver::solvePositions
(
    ParticleSystem& system,
    const std::vector<StepContact>& contacts,
    int passes
)
{
    const int n = system.size();
    shift_.assign(n, Vector3::Zero());
    turn_.assign(n, Vector3::Zero());
    // The resting impulses' displacement h dv/2, h domega/2 (Description)
    for (int i = 0; i < n && substep_ > 0; ++i)
    {
        if (!ready_[i]) continue;
        const Particle& p = system.particles[i];
        shift_[i] = 0.5*substep_*(p.velocity - restingVelocity_[i]);
        turn_[i] = 0.5*substep_*(globalAngularVelocity(p) - restingOmega_[i]);
    }

    // Pseudo impulse at point i of contact c: removes the linearised depth
    // left, accumulated >= 0; moves and turns the bodies (Description);
    // returns whether it changed
    auto correct = [&](ContactConstraint& c, const StepContact& s, int i) -> bool
    {
        ConstraintPoint& q = c.points[i];
        double moved = -c.normal.dot(shift_[c.a]) - turn_[c.a].dot(q.armA);
        if (c.b >= 0) moved += c.normal.dot(shift_[c.b]) + turn_[c.b].dot(q.armB);
        const double left = q.depth - s.allowedOverlap - moved;
        const double lambda = std::max(q.positionImpulse + q.normalMass*left, 0.0);
        const double delta = lambda - q.positionImpulse;
        if (delta == 0) return false;
        q.positionImpulse = lambda;
        shift_[c.a] -= (delta*inverseMass_[c.a])*c.normal;
        turn_[c.a] -= delta*q.spinA;
        if (c.b >= 0)
        {
            shift_[c.b] += (delta*inverseMass_[c.b])*c.normal;
            turn_[c.b] += delta*q.spinB;
        }
        return true;
    };
    const int nc = int(constraints_.size());
    for (ContactConstraint& c : constraints_)
    {
        for (int i = 0; i < c.count; ++i) c.points[i].positionImpulse = 0;
    }
    // A pass that changes nothing leaves the state of the next one, so the
    // passes stop there (exact: the same result as all of them)
    bool changed = true;
    for (int pass = 0; pass < passes && changed; ++pass)
    {
        changed = false;
        for (int k = 0; k < nc; ++k)
        {
            for (int i = 0; i < constraints_[k].count; ++i)
            {
                changed = correct(constraints_[k], contacts[k], i) || changed;
            }
        }
    }
    // Walls last: what pair corrections left in a wall is removed
    for (int k = 0; k < nc && changed; ++k)
    {
        if (constraints_[k].b >= 0) continue;
        for (int i = 0; i < constraints_[k].count; ++i) correct(constraints_[k], contacts[k], i);
    }
    for (int i = 0; i < n; ++i)
    {
        if (!(i < int(ready_.size()) && ready_[i])) continue;
        Pose& pose = system.particles[i].pose;
        pose.position += shift_[i];
        pose.orientation = (rotationBy(turn_[i])*pose.orientation).normalized();
    }
}


// * * * * * * * * * * * * * * * Point helpers * * * * * * * * * * * * * * * //

Vector3 ContactSolver::frictionUpdate
(
    ContactConstraint& c, int i, double accumulated[2], double limit
)
{
    // t.u -> 0 per tangent, the accumulated impulse projected onto the disc
    // |Lambda_t| <= limit; returns the speed changes along the tangents
    readyTangentMasses(c, i);
    const ConstraintPoint& q = c.points[i];
    const Vector3 u = relativeVelocity(c, i);
    double t0 = accumulated[0] - q.tangentMass[0]*c.tangent[0].dot(u);
    double t1 = accumulated[1] - q.tangentMass[1]*c.tangent[1].dot(u);
    if (!insideDisc(t0, t1, limit)) clampToDisc(t0, t1, limit);
    const double d0 = t0 - accumulated[0], d1 = t1 - accumulated[1];
    accumulated[0] = t0;
    accumulated[1] = t1;
    if (d0 != 0 || d1 != 0) applyImpulse(c, i, d0*c.tangent[0] + d1*c.tangent[1]);
    return Vector3(d0/q.tangentMass[0], d1/q.tangentMass[1], 0);
}


void ContactSolver::readyTangentMasses(ContactConstraint& c, int i) const
{
    ConstraintPoint& q = c.points[i];
    if (q.tangentReady) return;
    // Eq. (73) of [Wedel2023] along t, with the masses of prepare
    const double wA = inverseMass_[c.a];
    const Matrix3& IA = inverseInertia_[c.a];
    for (int t = 0; t < 2; ++t)
    {
        q.tangentMass[t] = c.b >= 0
            ? effectiveMass(c.tangent[t], q.rA, wA, IA, &q.rB, inverseMass_[c.b], &inverseInertia_[c.b])
            : effectiveMass(c.tangent[t], q.rA, wA, IA, nullptr, 0, nullptr);
    }
    q.tangentReady = true;
}


Vector3 ContactSolver::relativeVelocity(const ContactConstraint& c, int i) const
{
    // u = v_B(p) - v_A(p), Eq. (64) of [Wedel2023]; B = wall: its velocity
    const ConstraintPoint& q = c.points[i];
    const Vector3 uA = velocity_[c.a] + omega_[c.a].cross(q.rA);
    const Vector3 uB = c.b >= 0 ? Vector3(velocity_[c.b] + omega_[c.b].cross(q.rB)) : c.wallVelocity;
    return uB - uA;
}


double ContactSolver::normalSpeed(const ContactConstraint& c, int i) const
{
    // n.u through the normal row: n.(v_B - v_A) + arm_B.omega_B - arm_A.omega_A
    const ConstraintPoint& q = c.points[i];
    const Vector3 vB = c.b >= 0 ? velocity_[c.b] : c.wallVelocity;
    double u = c.normal.dot(vB - velocity_[c.a]) - q.armA.dot(omega_[c.a]);
    if (c.b >= 0) u += q.armB.dot(omega_[c.b]);
    return u;
}


double ContactSolver::closingSpeed(const ContactConstraint& c, int i) const
{
    // n.u + gap/h: negative if the point closes its gap (if any) within the
    // substep (Description: speculative points)
    return normalSpeed(c, i) + c.points[i].gapSpeed;
}


void ContactSolver::applyImpulse(ContactConstraint& c, int i, const Vector3& impulse)
{
    // Eqs. (63), (70) of [Wedel2023]: P on B, -P on A at the point
    ConstraintPoint& q = c.points[i];
    const Vector3 angularA = q.rA.cross(impulse);
    if (trackTotals_)
    {
        q.total += impulse;
        q.angularA -= angularA;
    }
    velocity_[c.a] -= inverseMass_[c.a]*impulse;
    omega_[c.a] -= inverseInertia_[c.a]*angularA;
    changed_[c.a] = 1;
    if (c.b >= 0)
    {
        const Vector3 angularB = q.rB.cross(impulse);
        if (trackTotals_) q.angularB += angularB;
        velocity_[c.b] += inverseMass_[c.b]*impulse;
        omega_[c.b] += inverseInertia_[c.b]*angularB;
        changed_[c.b] = 1;
    }
}


void ContactSolver::applyNormalImpulse(ContactConstraint& c, int i, double lambda)
{
    // lambda n through the normal row: angular lambda arm, I^-1 arm prepared
    ConstraintPoint& q = c.points[i];
    if (trackTotals_)
    {
        q.total += lambda*c.normal;
        q.angularA -= lambda*q.armA;
        if (c.b >= 0) q.angularB += lambda*q.armB;
    }
    velocity_[c.a] -= (lambda*inverseMass_[c.a])*c.normal;
    omega_[c.a] -= lambda*q.spinA;
    changed_[c.a] = 1;
    if (c.b >= 0)
    {
        velocity_[c.b] += (lambda*inverseMass_[c.b])*c.normal;
        omega_[c.b] += lambda*q.spinB;
        changed_[c.b] = 1;
    }
}


double ContactSolver::resolvePoint(ContactConstraint& c, int i, const ImpulseLaw& law, bool resting)
{
    ConstraintPoint& q = c.points[i];
    const double epsN = resting ? 0.0 : law.normalRestitution;
    // The seed's energy-consistent frictional impulse at the point (its
    // lever arms: the point at the origin, the centres at -r)
    const int a = c.a, b = c.b;
    RigidBody A, B = RigidBody::wall(c.wallVelocity);
    A.inverseMass = inverseMass_[a];
    A.inverseInertia = inverseInertia_[a];
    A.position = -q.rA;
    A.velocity = velocity_[a];
    A.angularVelocity = omega_[a];
    if (b >= 0)
    {
        B.inverseMass = inverseMass_[b];
        B.inverseInertia = inverseInertia_[b];
        B.position = -q.rB;
        B.velocity = velocity_[b];
        B.angularVelocity = omega_[b];
    }
    ImpulseLaw collisionLaw = law;
    collisionLaw.normalRestitution = epsN;
    const ImpulseResult r = resolveImpulse
    (
        A, B, CollisionPoint{Vector3::Zero(), c.normal, std::max(q.depth, 0.0)}, collisionLaw
    );
    q.total += r.impulse;
    q.angularA -= q.rA.cross(r.impulse);
    if (b >= 0) q.angularB += q.rB.cross(r.impulse);
    velocity_[a] = r.velocityA;
    omega_[a] = r.angularVelocityA;
    changed_[a] = 1;
    if (b >= 0)
    {
        velocity_[b] = r.velocityB;
        omega_[b] = r.angularVelocityB;
        changed_[b] = 1;
    }
    return r.normalImpulse;
}

} // namespace superellipsoid
