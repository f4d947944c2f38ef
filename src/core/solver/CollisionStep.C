#include "solver/CollisionStep.H"
#include "contact/ManifoldGeometry.H"
#include "collision/ContactCurvature.H"
#include "contact/BoundingVolumes.H"
#include "contact/ParticleContact.H"
#include "contact/SupportPoint.H"
#include "dynamics/RigidBodyRotation.H"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>

namespace superellipsoid
{

namespace
{

//- A contact approaches if n.u < -approachTolerance * (largest |n.u| of
//  the substep): round-off of an exactly resolved eps_n = 0 contact
//  (n.u+ ~ 1e-16 |u-|) must not count as approaching again
constexpr double approachTolerance = 1e-9;

//- Initial capacity of the per-particle wall-contact buffer
constexpr int initialFaceContacts = 64;

//- Enlargement of a particle's cached wall-face query box per side, as a
//  fraction of the box size (CollisionStep::wallCandidates): a particle
//  re-queries the face grid after moving ~ its bounding radius
constexpr double wallQueryMargin = 0.5;

[[noreturn]] void invalidSetting(const char* name, double value, const char* requirement)
{
    std::ostringstream os;
    os << "CollisionSettings: " << name << " = " << value << " " << requirement;
    throw std::invalid_argument(os.str());
}

//- Velocity of the material point p of a particle, Eq. (64)
Vector3 pointVelocity(const Particle& q, const Vector3& p)
{
    return q.velocity + globalAngularVelocity(q).cross(p - q.pose.position);
}

RigidBody rigidBodyOf(const Particle& q)
{
    return RigidBody::particle
    (
        q.mass, q.principalMoments, q.pose.orientation, q.pose.position,
        q.velocity, globalAngularVelocity(q)
    );
}

//- Write the post-collision velocities back (omega' = e^-1 omega)
void storeVelocities(Particle& q, const Vector3& v, const Vector3& omegaGlobal)
{
    q.velocity = v;
    q.angularVelocity = q.pose.orientation.conjugate()*omegaGlobal;
}

bool isZero(const Vector3& v) { return v.x() == 0 && v.y() == 0 && v.z() == 0; }

void checkParticleFinite(const ParticleSystem& system)
{
    for (std::size_t i = 0; i < system.particles.size(); ++i)
    {
        const Particle& p = system.particles[i];
        if (!p.pose.position.allFinite() || !p.velocity.allFinite()
         || !p.angularVelocity.allFinite() || !p.pose.orientation.coeffs().allFinite())
        {
            std::ostringstream os;
            os << "CollisionStep: particle " << p.id << " (index " << i
               << ") has a non-finite state after the step";
            throw std::runtime_error(os.str());
        }
    }
}

//- Point of the face plane inside the convex polygon (edge half-planes)
bool pointInFace(const WallFace& face, const Vector3& p)
{
    for (int k = 0; k < face.nVertices; ++k)
    {
        const Vector3& a = face.vertices[k];
        const Vector3& b = face.vertices[(k + 1)%face.nVertices];
        if ((b - a).cross(face.normal).dot(p - a) > 0) return false;
    }
    return true;
}

//- Relative tolerance of coplanarity (normals and plane offsets)
constexpr double coplanarTolerance = 1e-9;

//- Group id per face: faces with the same unit normal and offset n.p
//  (to coplanarTolerance) share an id. Sort-based, O(F log F).
void groupCoplanarFaces(const std::vector<WallFace>& faces, std::vector<int>& group)
{
    const int n = int(faces.size());
    group.assign(n, -1);
    double scale = 0;
    for (const WallFace& f : faces)
        for (int k = 0; k < f.nVertices; ++k) scale = std::max(scale, f.vertices[k].cwiseAbs().maxCoeff());
    scale = std::max(scale, std::numeric_limits<double>::min());
    std::vector<std::pair<std::array<double, 4>, int>> keys(n);
    for (int f = 0; f < n; ++f)
    {
        const Vector3& nf = faces[f].normal;
        keys[f] = {{nf.x(), nf.y(), nf.z(), nf.dot(faces[f].vertices[0])/scale}, f};
    }
    std::sort(keys.begin(), keys.end());
    int id = -1;
    for (int k = 0; k < n; ++k)
    {
        bool same = k > 0;
        for (int c = 0; c < 4 && same; ++c)
        {
            same = std::abs(keys[k].first[c] - keys[k - 1].first[c]) <= coplanarTolerance;
        }
        if (!same) ++id;
        group[keys[k].second] = id;
    }
}

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

//- Relative margin by which a candidate normal must beat the detected
//  overlap to trigger a restart (round-off of converged minima is ~1e-12)
constexpr double restartMargin = 1e-6;

} // namespace


void validateCollisionSettings(const CollisionSettings& s)
{
    validateImpulseLaw(s.pairLaw);
    validateImpulseLaw(s.wallLaw);
    if (s.maxSweeps < 1) invalidSetting("maxSweeps", s.maxSweeps, "must be >= 1");
    if (s.maxRestingSweeps < 0) invalidSetting("maxRestingSweeps", s.maxRestingSweeps, "must be >= 0");
    if (!(s.restingSpeedFactor >= 0 && std::isfinite(s.restingSpeedFactor)))
    {
        invalidSetting("restingSpeedFactor", s.restingSpeedFactor, "must be >= 0 and finite");
    }
    if (!(s.restingTolerance > 0 && s.restingTolerance <= 1))
    {
        invalidSetting("restingTolerance", s.restingTolerance, "must be in (0, 1]");
    }
    if (!(s.warmStartFactor >= 0 && s.warmStartFactor <= 1))
    {
        invalidSetting("warmStartFactor", s.warmStartFactor, "must be in [0, 1]");
    }
    if (!(s.restingOverlap >= 0 && s.restingOverlap <= 1e-2))
    {
        invalidSetting("restingOverlap", s.restingOverlap, "must be in [0, 1e-2]");
    }
    if (s.overlapPasses < 1) invalidSetting("overlapPasses", s.overlapPasses, "must be >= 1");
    if (!(s.displacementFraction > 0 && s.displacementFraction <= 1))
    {
        invalidSetting("displacementFraction", s.displacementFraction, "must be in (0, 1]");
    }
    if (s.fixedSubsteps < 0) invalidSetting("fixedSubsteps", s.fixedSubsteps, "must be >= 0");
    if (s.maxSubsteps < 1) invalidSetting("maxSubsteps", s.maxSubsteps, "must be >= 1");
    if (!s.gravity.allFinite()) invalidSetting("|gravity|", s.gravity.norm(), "must be finite");
    if (!(s.softReferenceSpeed > 0 && std::isfinite(s.softReferenceSpeed)))
    {
        invalidSetting("softReferenceSpeed", s.softReferenceSpeed, "must be positive and finite");
    }
    if (!(s.wallRegionAngle >= 0 && s.wallRegionAngle <= 3.14159265358979323846))
    {
        invalidSetting("wallRegionAngle", s.wallRegionAngle, "must be in [0, pi]");
    }
}


CollisionStep::CollisionStep(const CollisionSettings& settings)
:
    settings_(settings)
{
    validateCollisionSettings(settings_);
    if (settings_.model == CollisionModel::softContact)
    {
        pairModel_.reset
        (
            new SoftContactModel(settings_.particleMaterial, settings_.particleMaterial, settings_.softLaw)
        );
        wallModel_.reset
        (
            new SoftContactModel(settings_.particleMaterial, settings_.wallMaterial, settings_.softLaw)
        );
    }
    faceContacts_.resize(initialFaceContacts);
    regionContacts_.resize(initialFaceContacts);
}


double CollisionStep::minimumHalfAxis(const ParticleSystem& system) const
{
    double c = std::numeric_limits<double>::max();
    for (const Superellipsoid& s : system.shapes) c = std::min(c, s.c());
    return c;
}


int CollisionStep::chooseSubsteps(const ParticleSystem& system, double dt) const
{
    if (settings_.fixedSubsteps > 0) return settings_.fixedSubsteps;
    if (system.particles.empty()) return 1;

    // Largest displacement of a surface point over dt (see Description)
    double maxDisplacement = 0, maxSpeed = 0;
    for (const Particle& p : system.particles)
    {
        const double R = system.shapes[p.shapeIndex].boundingRadius();
        const Vector3 a = settings_.gravity + p.externalForce/p.mass;
        const double d = p.velocity.norm()*dt + 0.5*a.norm()*dt*dt + p.angularVelocity.norm()*R*dt;
        maxDisplacement = std::max(maxDisplacement, d);
        maxSpeed = std::max(maxSpeed, p.velocity.norm() + a.norm()*dt + p.angularVelocity.norm()*R);
    }
    const double allowed = settings_.displacementFraction*minimumHalfAxis(system);
    double n = std::ceil(maxDisplacement/allowed);

    if (settings_.model == CollisionModel::softContact)
    {
        // h <= t_c / stepsPerContact for the shortest contact: smallest m*
        // and largest R* (curvature radius cap, flat wall) at the impact speed
        const double impactSpeed = std::max(settings_.softReferenceSpeed, 2*maxSpeed);
        double hSoft = std::numeric_limits<double>::max();
        for (const Particle& p : system.particles)
        {
            const Superellipsoid& s = system.shapes[p.shapeIndex];
            const double Rcap = defaultCurvatureCap*0.5*s.volumeEquivalentDiameter();
            hSoft = std::min(hSoft, stableTimeStep(pairModel_->parameters(0.5*p.mass, Rcap), impactSpeed));
            hSoft = std::min(hSoft, stableTimeStep(wallModel_->parameters(p.mass, Rcap), impactSpeed));
        }
        n = std::max(n, std::ceil(dt/hSoft));
    }
    if (!(n >= 1)) return 1;
    return int(std::min(n, double(settings_.maxSubsteps)));
}


void CollisionStep::moveParticles(ParticleSystem& system, double h) const
{
    for (Particle& p : system.particles)
    {
        // Constant acceleration: exact translation over h
        const Vector3 a = settings_.gravity + p.externalForce/p.mass;
        p.pose.position += h*p.velocity + 0.5*h*h*a;
        p.velocity += h*a;

        // Euler's equations, Eqs. (13)-(16), Lie-group splitting
        RotationalState s{p.pose.orientation, p.angularVelocity};
        if (isZero(p.externalTorque))
        {
            driftFreeRotation(s, p.principalMoments, h);
        }
        else
        {
            advanceRotation(s, p.principalMoments, p.externalTorque, h);
        }
        p.pose.orientation = s.orientation;
        p.angularVelocity = s.angularVelocity;
    }
}


const std::vector<StepContact>& CollisionStep::detect
(
    ParticleSystem& system,
    CollisionDiagnostics& diag
)
{
    const int n = system.size();
    contacts_.clear();
    if (n == 0) return contacts_;

    // Particle cell list, cell size = largest bounding diameter
    centres_.resize(n);
    radii_.resize(n);
    double rMax = 0;
    for (int i = 0; i < n; ++i)
    {
        centres_[i] = system.particles[i].pose.position;
        radii_[i] = system.shapes[system.particles[i].shapeIndex].boundingRadius();
        rMax = std::max(rMax, radii_[i]);
    }
    const double cellSize = 2*rMax;
    cells_.build(centres_.data(), radii_.data(), n, cellSize);
    cells_.findPairs(pairs_);
    diag.candidatePairs += long(pairs_.size());

    // Pairs: OBB (cached axis) -> narrow phase with warm start; A = smaller id
    for (const CandidatePair& cp : pairs_)
    {
        int a = cp.i, b = cp.j;
        if (system.particles[b].id < system.particles[a].id) std::swap(a, b);
        const Particle& A = system.particles[a];
        const Particle& B = system.particles[b];
        const Superellipsoid& sA = system.shapes[A.shapeIndex];
        const Superellipsoid& sB = system.shapes[B.shapeIndex];
        const std::uint64_t key = PairCache::pairKey(A.id, B.id);
        PairRecord& rec = cache_.acquire(key);
        // Two spheres: the bounding spheres of the cell list are the bodies
        // (OBB test void, one minimum of delta(n): no global-minimum check)
        const bool spheres = sA.isSphere() && sB.isSphere();
        if (!spheres && !obbOverlap(sA, A.pose, sB, B.pose, 0, &rec.obbAxis))
        {
            ++diag.obbRejections;
            rec.history = TangentialHistory();
            continue;
        }
        Contact c = detectParticleContact(sA, A.pose, sB, B.pose, &rec.warm);
        diag.detection.record(c);
        // Global-minimum check: the common-normal Newton can converge to a
        // LOCAL minimum of delta(n) (flat faces: one near every face normal),
        // whose normal is wrong and whose overlap is too large (measured:
        // 0.73 c reported for a true penetration depth of 0.006 c between
        // two eps = 0.2 cubes). For a deep contact delta is also evaluated
        // along the 15 separating axes of the two OBBs (face normals of each
        // body, cross products of their axes), both signs; if one is
        // smaller, detection restarts from it (warm start) and the smaller
        // minimum is kept.
        const double cPair = std::min(sA.c(), sB.c());
        if (!spheres && c.touching() && c.overlap > settings_.overlapCheckRatio*cPair)
        {
            double bestDelta = c.overlap*(1 - restartMargin);
            Vector3 bestNormal = Vector3::Zero();
            auto tryNormal = [&](const Vector3& n)
            {
                for (const double sign : {1.0, -1.0})
                {
                    const double delta = directionalOverlap(sA, A.pose, sB, B.pose, sign*n);
                    if (delta < bestDelta)
                    {
                        bestDelta = delta;
                        bestNormal = sign*n;
                    }
                }
            };
            const Matrix3 QA = A.pose.particleToGlobal(), QB = B.pose.particleToGlobal();
            for (int i = 0; i < 3; ++i)
            {
                tryNormal(QA.col(i));
                tryNormal(QB.col(i));
                for (int j = 0; j < 3; ++j)
                {
                    // Edge-edge directions (the 15 separating axes of two boxes)
                    const Vector3 e = QA.col(i).cross(QB.col(j));
                    if (e.norm() > 1e-6) tryNormal(e.normalized());
                }
            }
            if (bestNormal.squaredNorm() > 0)
            {
                ContactWarmStart restart;
                restart.normalInA = A.pose.directionToParticleFrame(bestNormal);
                restart.pointInA = supportPoint(sA, restart.normalInA);
                restart.valid = true;
                const Contact r = detectParticleContact(sA, A.pose, sB, B.pose, &restart);
                diag.detection.record(r);
                if (r.status != ContactStatus::Failed && (!r.touching() || r.overlap < c.overlap))
                {
                    c = r;
                    rec.warm = restart;
                    ++diag.localMinimumRestarts;
                }
            }
        }
        if (!c.touching())
        {
            rec.history = TangentialHistory();
            continue;
        }
        StepContact sc;
        sc.a = a;
        sc.b = b;
        sc.idA = A.id;
        sc.idB = B.id;
        sc.point = CollisionPoint{c.point, c.normal, c.overlap};
        sc.overlap = c.overlap;
        sc.halfAxis = std::min(sA.c(), sB.c());
        sc.overlapRatio = c.overlap/sc.halfAxis;
        sc.key = key;
        if (settings_.model == CollisionModel::softContact)
        {
            sc.manifold = pairManifold(sA, A.pose, sB, B.pose, c);
        }
        contacts_.push_back(sc);
    }

    // Walls: face grid -> boxes -> bounding sphere / OBB vs plane -> face
    // contact -> one contact per wall region (Sect. 3.4.3)
    const WallSet& walls = system.walls;
    if (walls.size() > 0)
    {
        if (!wallGridValid_ || wallGrid_.cellSize() != cellSize || wallGrid_.nFaces() != walls.size())
        {
            wallGrid_.build(walls.faces, cellSize);
            groupCoplanarFaces(walls.faces, facePlane_);
            wallGridValid_ = true;
            for (WallQueryCache& q : wallQueries_) q.id = -1;
        }
        for (int i = 0; i < n; ++i)
        {
            const Particle& P = system.particles[i];
            const Superellipsoid& s = system.shapes[P.shapeIndex];
            const Vector3 extent = Vector3::Constant(radii_[i]);
            wallCandidates(i, P.id, P.pose.position - extent, P.pose.position + extent);
            int nFace = 0;
            auto addFaceContact = [&](Contact c, int f)
            {
                c.faceIndex = f;
                if (nFace == int(faceContacts_.size()))
                {
                    faceContacts_.resize(2*faceContacts_.size());
                    regionContacts_.resize(faceContacts_.size());
                }
                faceContacts_[nFace++] = c;
            };
            planesDone_.clear();
            for (const int f : faceCandidates_)
            {
                const int plane = facePlane_[f];
                if (std::find(planesDone_.begin(), planesDone_.end(), plane) != planesDone_.end())
                {
                    continue;
                }
                const Plane wall = walls.faces[f].plane();
                // One-sided faces (as detectFaceContact): centre behind = no contact
                if (wall.signedDistance(P.pose.position) <= 0
                 || !boundingSphereTouchesPlane(s, P.pose, wall) || !obbTouchesPlane(s, P.pose, wall))
                {
                    planesDone_.push_back(plane);
                    continue;
                }
                // Plane contact once per coplanar group (closed form, Eqs. 43-50)
                Contact c = detectWallContact(s, P.pose, wall);
                diag.wallDetection.record(c);
                if (!c.touching())
                {
                    planesDone_.push_back(plane);
                    continue;
                }
                int inside = -1;
                for (const int g : faceCandidates_)
                {
                    if (facePlane_[g] == plane && pointInFace(walls.faces[g], c.pointOnB))
                    {
                        inside = g;
                        break;
                    }
                }
                if (inside >= 0)
                {
                    c.feature = WallFeature::Face;
                    addFaceContact(c, inside);
                    planesDone_.push_back(plane);
                    continue;
                }
                // Rim: edges and vertices of this face
                const Contact e = detectFaceContact(s, P.pose, walls.faces[f]);
                diag.wallDetection.record(e);
                if (e.touching()) addFaceContact(e, f);
            }
            const int nRegion = selectWallContacts
            (
                faceContacts_.data(), nFace, regionContacts_.data(), settings_.wallRegionAngle
            );
            for (int r = 0; r < nRegion; ++r)
            {
                const Contact& c = regionContacts_[r];
                StepContact sc;
                sc.a = i;
                sc.b = -1;
                sc.face = c.faceIndex;
                sc.idA = P.id;
                sc.idB = c.faceIndex;
                // CollisionPoint normal from the particle INTO the wall
                sc.point = CollisionPoint{c.point, -c.normal, c.overlap};
                sc.overlap = c.overlap;
                sc.halfAxis = s.c();
                sc.overlapRatio = c.overlap/s.c();
                sc.key = PairCache::wallKey(P.id, c.faceIndex);
                if (settings_.model == CollisionModel::softContact)
                {
                    // A face contact may span a coplanar group: its plane
                    const WallFace& face = walls.faces[c.faceIndex];
                    sc.manifold = c.feature == WallFeature::Face
                        ? wallManifold(s, P.pose, face.plane(), c) : wallManifold(s, P.pose, face, c);
                }
                cache_.acquire(sc.key);
                contacts_.push_back(sc);
            }
        }
    }

    // Canonical order: independent of particle storage order
    std::sort
    (
        contacts_.begin(), contacts_.end(),
        [](const StepContact& x, const StepContact& y)
        {
            if (x.idA != y.idA) return x.idA < y.idA;
            const bool wx = x.b < 0, wy = y.b < 0;
            if (wx != wy) return wy;            // pairs before walls
            return x.idB < y.idB;
        }
    );

    for (const StepContact& c : contacts_)
    {
        (c.b < 0 ? diag.wallContacts : diag.pairContacts) += 1;
        diag.maxOverlapRatio = std::max(diag.maxOverlapRatio, c.overlapRatio);
    }
    return contacts_;
}


void CollisionStep::wallCandidates(int i, long id, const Vector3& lo, const Vector3& hi)
{
    // Faces whose boxes overlap [lo, hi], ascending: the faces of a query
    // with a box enlarged by wallQueryMargin (its half size) on each side,
    // kept per particle while [lo, hi] stays inside it, filtered by the
    // same box test as WallFaceGrid::query (an ascending superset filtered
    // gives exactly query(lo, hi): no change of results, only of cost)
    if (int(wallQueries_.size()) <= i) wallQueries_.resize(i + 1);
    WallQueryCache& q = wallQueries_[i];
    if (q.id != id || !((lo.array() >= q.lo.array()).all() && (hi.array() <= q.hi.array()).all()))
    {
        const Vector3 margin = wallQueryMargin*(hi - lo);
        q.id = id;
        q.lo = lo - margin;
        q.hi = hi + margin;
        wallGrid_.query(q.lo, q.hi, q.faces);
    }
    faceCandidates_.clear();
    for (const int f : q.faces)
    {
        if (wallGrid_.faceBoxOverlaps(f, lo, hi)) faceCandidates_.push_back(f);
    }
}


int CollisionStep::resolveSweeps(ParticleSystem& system, CollisionDiagnostics& diag, double h)
{
    const int nc = int(contacts_.size());
    if (nc == 0)
    {
        storeRestingImpulses();
        return 0;
    }
    approach_.resize(nc);
    restingSpeed_.assign(nc, 0.0);
    accumulated_.assign(nc, 0.0);
    best_.assign(system.size(), -1);

    // Frictionless laws (impulse along n only, Eqs. 73-74, 82-86): the
    // sweeps work on global velocities and per-contact constants (the
    // positions do not change during the sweeps), see prepareNormalSweeps
    const bool normalOnly = settings_.pairLaw.tangential == TangentialModel::frictionless
                         && settings_.wallLaw.tangential == TangentialModel::frictionless;
    if (normalOnly) prepareNormalSweeps(system);
    // Laws without friction effect (frictionless, eps_t = 1, mu = 0) get
    // the full sequential-impulse solver: warm start and release of
    // accumulated impulse (Description). With friction the resting phase
    // only pushes: a normal-only warm start would cancel the approach that
    // triggers a resting contact's friction impulse, and a normal-only
    // release would leave its tangential impulse behind (measured: the
    // frictional cylinder fill then hit the 200-sweep cap every substep)
    const bool sequentialImpulses =
        withoutFriction(settings_.pairLaw) && withoutFriction(settings_.wallLaw);

    // Normal relative velocity n.u of contact k, Eq. (64); u = v_B - v_A
    // at the contact point (B = wall: its velocity)
    auto normalSpeed = [&](const StepContact& c)
    {
        if (normalOnly)
        {
            const NormalSweepContact& q = sweepContacts_[&c - contacts_.data()];
            const Vector3 uA = sweepVelocity_[c.a] + sweepOmega_[c.a].cross(q.rA);
            const Vector3 uB = c.b >= 0
                ? Vector3(sweepVelocity_[c.b] + sweepOmega_[c.b].cross(q.rB))
                : system.walls.velocity[c.face];
            return c.point.normal.dot(uB - uA);
        }
        const Particle& A = system.particles[c.a];
        const Vector3 uB = c.b >= 0
            ? pointVelocity(system.particles[c.b], c.point.point)
            : system.walls.velocity[c.face];
        return c.point.normal.dot(uB - pointVelocity(A, c.point.point));
    };

    // Impulse lambda n on B (-lambda n on A) at contact k, no friction:
    // the normal part of the resting solver (warm start, release)
    auto applyNormalImpulse = [&](int k, double lambda)
    {
        const StepContact& c = contacts_[k];
        const Vector3& n = c.point.normal;
        if (normalOnly)
        {
            const NormalSweepContact& q = sweepContacts_[k];
            sweepVelocity_[c.a] -= (lambda*inverseMass_[c.a])*n;
            sweepOmega_[c.a] -= lambda*q.spinA;
            sweepChanged_[c.a] = 1;
            if (c.b >= 0)
            {
                sweepVelocity_[c.b] += (lambda*inverseMass_[c.b])*n;
                sweepOmega_[c.b] += lambda*q.spinB;
                sweepChanged_[c.b] = 1;
            }
            return;
        }
        Particle& A = system.particles[c.a];
        RigidBody a = rigidBodyOf(A);
        RigidBody b = c.b >= 0 ? rigidBodyOf(system.particles[c.b]) : RigidBody::wall(system.walls.velocity[c.face]);
        applyImpulse(a, b, c.point.point, lambda*n);
        storeVelocities(A, a.velocity, a.angularVelocity);
        if (c.b >= 0) storeVelocities(system.particles[c.b], b.velocity, b.angularVelocity);
    };

    // Resting speed per contact: |a| h, the approach speed that the body
    // force a = g + F_ext/m builds up in one substep (Description)
    bool anyBodyForce = false;
    if (h > 0 && settings_.restingSpeedFactor > 0)
    {
        for (int k = 0; k < nc; ++k)
        {
            const StepContact& c = contacts_[k];
            auto accel = [&](int i)
            {
                const Particle& q = system.particles[i];
                return (settings_.gravity + q.externalForce/q.mass).norm();
            };
            const double a = c.b >= 0 ? std::max(accel(c.a), accel(c.b)) : accel(c.a);
            restingSpeed_[k] = a*h;
            if (a > 0)
            {
                contacts_[k].allowedOverlap = settings_.restingOverlap*c.halfAxis;
                anyBodyForce = true;
            }
        }
    }
    auto isResting = [&](int k)
    {
        return -approach_[k] < settings_.restingSpeedFactor*restingSpeed_[k];
    };
    const bool restingPhase = anyBodyForce && settings_.maxRestingSweeps > 0;

    // Warm start (Description, "Resting contacts"): the accumulated
    // normal impulse of the previous substep, applied before anything else
    if (restingPhase && sequentialImpulses && settings_.warmStartFactor > 0)
    {
        for (int k = 0; k < nc; ++k)
        {
            if (!(restingSpeed_[k] > 0)) continue;
            const PairRecord* rec = cache_.find(contacts_[k].key);
            if (!rec || !(rec->normalImpulse > 0)) continue;
            accumulated_[k] = settings_.warmStartFactor*rec->normalImpulse;
            applyNormalImpulse(k, accumulated_[k]);
            ++diag.restingImpulses;
        }
    }

    double speedScale = 0;
    for (int k = 0; k < nc; ++k)
    {
        speedScale = std::max(speedScale, std::abs(normalSpeed(contacts_[k])));
    }
    const double tolerance = approachTolerance*speedScale;

    // Resolve contact k with eps_n, or eps_n -> 0 if resting; returns the
    // normal impulse n.P (>= 0)
    ImpulseLaw pairResting = settings_.pairLaw, wallResting = settings_.wallLaw;
    pairResting.normalRestitution = 0;
    wallResting.normalRestitution = 0;
    auto resolve = [&](int k, bool resting) -> double
    {
        const StepContact& c = contacts_[k];
        double normalImpulse = 0;
        if (normalOnly)
        {
            // P = lambda n on B with n.u+ = -eps_n n.u- (Eq. 65/75):
            // lambda = -(1 + eps_n) n.u- / (n.K.n), exactly resolveImpulse's
            // frictionless branch (Thomson-Tait: dT = -(1 - eps_n^2) ... <= 0)
            const double un = normalSpeed(c);
            const double epsN = resting ? 0.0
                : (c.b >= 0 ? settings_.pairLaw.normalRestitution : settings_.wallLaw.normalRestitution);
            if (un < 0)
            {
                normalImpulse = -(1 + epsN)*un*sweepContacts_[k].inverseEffectiveMass;
                applyNormalImpulse(k, normalImpulse);
            }
            ++(c.b >= 0 ? diag.pairCollisions : diag.wallCollisions);
            if (resting) ++diag.restingImpulses;
            return normalImpulse;
        }
        Particle& A = system.particles[c.a];
        if (c.b >= 0)
        {
            Particle& B = system.particles[c.b];
            const ImpulseResult r = resolveImpulse
            (
                rigidBodyOf(A), rigidBodyOf(B), c.point, resting ? pairResting : settings_.pairLaw
            );
            storeVelocities(A, r.velocityA, r.angularVelocityA);
            storeVelocities(B, r.velocityB, r.angularVelocityB);
            normalImpulse = r.normalImpulse;
            ++diag.pairCollisions;
        }
        else
        {
            const ImpulseResult r = resolveWallImpulse
            (
                rigidBodyOf(A), system.walls.velocity[c.face], c.point,
                resting ? wallResting : settings_.wallLaw
            );
            storeVelocities(A, r.velocityA, r.angularVelocityA);
            normalImpulse = r.normalImpulse;
            ++diag.wallCollisions;
        }
        if (resting) ++diag.restingImpulses;
        return normalImpulse;
    };

    // Deepest first; ties by canonical index (smaller first)
    auto deeper = [&](int k, int l)
    {
        return contacts_[k].overlap > contacts_[l].overlap
            || (contacts_[k].overlap == contacts_[l].overlap && k < l);
    };

    // Phase 1: matchings of the approaching contacts (collisions)
    int sweeps = 0;
    for (int sweep = 0; sweep <= settings_.maxSweeps; ++sweep)
    {
        bool anyFast = false, anyResting = false;
        for (int k = 0; k < nc; ++k)
        {
            approach_[k] = normalSpeed(contacts_[k]);
            if (approach_[k] < -tolerance)
            {
                (isResting(k) ? anyResting : anyFast) = true;
            }
        }
        // Nothing approaches, or only resting contacts that phase 2 handles
        if (!anyFast && (!anyResting || restingPhase)) break;
        if (sweep == settings_.maxSweeps)
        {
            if (anyFast) ++diag.sweepCapHits;
            break;
        }

        // Matching: the deepest approaching contact of every particle
        for (const StepContact& c : contacts_)
        {
            best_[c.a] = -1;
            if (c.b >= 0) best_[c.b] = -1;
        }
        for (int k = 0; k < nc; ++k)
        {
            if (!(approach_[k] < -tolerance)) continue;
            const StepContact& c = contacts_[k];
            if (best_[c.a] < 0 || deeper(k, best_[c.a])) best_[c.a] = k;
            if (c.b >= 0 && (best_[c.b] < 0 || deeper(k, best_[c.b]))) best_[c.b] = k;
        }

        // Resolve the matching (disjoint contacts: order irrelevant)
        for (int k = 0; k < nc; ++k)
        {
            const StepContact& c = contacts_[k];
            if (!(approach_[k] < -tolerance) || best_[c.a] != k || (c.b >= 0 && best_[c.b] != k))
            {
                continue;
            }
            resolve(k, isResting(k));
        }
        sweeps = sweep + 1;
    }
    diag.maxSweeps = std::max(diag.maxSweeps, sweeps);

    // Phase 2: resting-contact solver (projected Gauss-Seidel, sequential
    // impulses with accumulated clamped impulses) over EVERY contact under a
    // body force, canonical order, target n.u = 0: an approaching contact
    // gets lambda = -n.u/(n.K.n) (eps_n -> 0; with friction resolveImpulse's
    // resting law), a separating one gives back up to its accumulated
    // impulse (normal only; without friction only), so the accumulated
    // impulse stays >= 0. Until no contact approaches, or separates while it
    // holds an impulse, faster than restingTolerance |a| h, or
    // maxRestingSweeps
    int restingSweeps = 0;
    if (restingPhase)
    {
        for (int sweep = 0; ; ++sweep)
        {
            bool converged = true;
            for (int k = 0; k < nc; ++k)
            {
                if (!(restingSpeed_[k] > 0)) continue;
                const double un = normalSpeed(contacts_[k]);
                const double slack = std::max(tolerance, settings_.restingTolerance*restingSpeed_[k]);
                // With friction only the resting contacts (slower than
                // restingSpeedFactor |a| h), as before the sequential
                // impulses: from zero impulses every substep (no warm start)
                // a deep frictional pile does not converge over all contacts
                // (the 13-layer fill of case_cylinderEmptying hit the cap of
                // 200 sweeps every substep: 196 instead of 58 CPU-s)
                approach_[k] = un;
                const bool approaching = un < -slack && (sequentialImpulses || isResting(k));
                const bool release = sequentialImpulses && un > slack && accumulated_[k] > 0;
                if (!approaching && !release) continue;
                converged = false;
                if (sweep == settings_.maxRestingSweeps) break;
                if (approaching)
                {
                    accumulated_[k] += resolve(k, true);
                }
                else
                {
                    // n.u -> 0 with lambda = -n.u/(n.K.n), clamped: accumulated >= 0
                    const double nKn = normalOnly
                        ? 1.0/sweepContacts_[k].inverseEffectiveMass : normalCompliance(system, k);
                    const double lambda = std::max(-un/nKn, -accumulated_[k]);
                    accumulated_[k] += lambda;
                    applyNormalImpulse(k, lambda);
                    ++diag.restingImpulses;
                }
            }
            if (converged) break;
            if (sweep == settings_.maxRestingSweeps)
            {
                ++diag.restingCapHits;
                break;
            }
            restingSweeps = sweep + 1;
        }
        diag.maxRestingSweeps = std::max(diag.maxRestingSweeps, restingSweeps);
    }
    if (normalOnly) finishNormalSweeps(system);
    storeRestingImpulses();
    return sweeps + restingSweeps;
}


double CollisionStep::normalCompliance(const ParticleSystem& system, int k) const
{
    // n.K.n, Eq. (73)
    const StepContact& c = contacts_[k];
    const RigidBody a = rigidBodyOf(system.particles[c.a]);
    const RigidBody b = c.b >= 0 ? rigidBodyOf(system.particles[c.b]) : RigidBody::wall();
    return c.point.normal.dot(collisionMatrix(a, b, c.point.point)*c.point.normal);
}


void CollisionStep::storeRestingImpulses()
{
    // Records of the last substep's impulses are reset first, so a contact
    // that was not detected in this substep does not keep a stale one
    for (const std::uint64_t key : warmKeys_)
    {
        if (PairRecord* rec = cache_.find(key)) rec->normalImpulse = 0;
    }
    warmKeys_.clear();
    const int nc = int(contacts_.size());
    for (int k = 0; k < nc; ++k)
    {
        StepContact& c = contacts_[k];
        c.restingImpulse = k < int(accumulated_.size()) ? accumulated_[k] : 0.0;
        if (!(c.restingImpulse > 0)) continue;
        if (PairRecord* rec = cache_.find(c.key))
        {
            rec->normalImpulse = c.restingImpulse;
            warmKeys_.push_back(c.key);
        }
    }
}


void CollisionStep::prepareNormalSweeps(const ParticleSystem& system)
{
    // Global velocities and inverse masses of the particles in contact;
    // per contact the lever arms r = p - x, the spin change per unit impulse
    // I^-1 (r x n) (global I^-1 = Q diag(1/I') Q^T, Eq. 62) and
    // 1/(n.K.n) with n.K.n = sum (1/m + (r x n).I^-1 (r x n)), Eq. (73)
    const int n = system.size();
    sweepVelocity_.resize(n);
    sweepOmega_.resize(n);
    inverseMass_.resize(n);
    sweepChanged_.assign(n, 0);
    sweepInverseInertia_.resize(n);
    sweepReady_.assign(n, 0);
    auto ready = [&](int i)
    {
        if (sweepReady_[i]) return;
        const Particle& p = system.particles[i];
        const Matrix3 Q = p.pose.orientation.toRotationMatrix();
        sweepVelocity_[i] = p.velocity;
        sweepOmega_[i] = Q*p.angularVelocity;
        inverseMass_[i] = 1.0/p.mass;
        sweepInverseInertia_[i] = Q*p.principalMoments.cwiseInverse().asDiagonal()*Q.transpose();
        sweepReady_[i] = 1;
    };
    const int nc = int(contacts_.size());
    sweepContacts_.resize(nc);
    for (int k = 0; k < nc; ++k)
    {
        const StepContact& c = contacts_[k];
        NormalSweepContact& q = sweepContacts_[k];
        const Vector3& nrm = c.point.normal;
        ready(c.a);
        q.rA = c.point.point - system.particles[c.a].pose.position;
        const Vector3 armA = q.rA.cross(nrm);
        q.spinA = sweepInverseInertia_[c.a]*armA;
        double nKn = inverseMass_[c.a] + armA.dot(q.spinA);
        if (c.b >= 0)
        {
            ready(c.b);
            q.rB = c.point.point - system.particles[c.b].pose.position;
            const Vector3 armB = q.rB.cross(nrm);
            q.spinB = sweepInverseInertia_[c.b]*armB;
            nKn += inverseMass_[c.b] + armB.dot(q.spinB);
        }
        q.inverseEffectiveMass = 1.0/nKn;
    }
}


void CollisionStep::finishNormalSweeps(ParticleSystem& system) const
{
    // omega' = e^-1 omega; only particles that received an impulse
    for (int i = 0; i < system.size(); ++i)
    {
        if (!sweepChanged_[i]) continue;
        storeVelocities(system.particles[i], sweepVelocity_[i], sweepOmega_[i]);
    }
}


void CollisionStep::removeOverlaps(ParticleSystem& system)
{
    const int n = system.size();
    displacement_.assign(n, Vector3::Zero());

    // Remaining overlap of contact c after the displacements so far
    // (linearised: translation moves both surfaces rigidly along n)
    auto remaining = [&](const StepContact& c)
    {
        const Vector3& nAB = c.point.normal;
        const Vector3 dB = c.b >= 0 ? displacement_[c.b] : Vector3::Zero();
        return c.overlap - c.allowedOverlap - nAB.dot(dB - displacement_[c.a]);
    };

    // Gauss-Seidel relaxation in canonical order: every contact (pair:
    // Sect. 5.3 split by inverse mass; wall: inverse mass 0) removes what
    // is left of its overlap; a few passes let a stack settle as a whole
    for (int pass = 0; pass < settings_.overlapPasses; ++pass)
    {
        for (const StepContact& c : contacts_)
        {
            const double left = remaining(c);
            if (!(left > 0)) continue;
            RigidBody a, b;
            a.inverseMass = 1.0/system.particles[c.a].mass;
            a.position = system.particles[c.a].pose.position;
            b.inverseMass = c.b >= 0 ? 1.0/system.particles[c.b].mass : 0.0;
            b.position = c.b >= 0 ? system.particles[c.b].pose.position : c.point.point;
            const OverlapCorrection d = overlapRemoval(a, b, CollisionPoint{c.point.point, c.point.normal, left});
            displacement_[c.a] += d.displacementA;
            if (c.b >= 0) displacement_[c.b] += d.displacementB;
        }
    }
    // Walls last (canonical order: ascending face per particle): out of the
    // wall by what is left, never into it. Translation moves a plane
    // contact's deepest point rigidly, so delta - n.d is exact there.
    for (const StepContact& c : contacts_)
    {
        if (c.b >= 0) continue;
        const double left = remaining(c);
        if (left > 0) displacement_[c.a] -= left*c.point.normal;
    }
    for (int i = 0; i < n; ++i)
    {
        system.particles[i].pose.position += displacement_[i];
    }
}


void CollisionStep::impulseSubstep(ParticleSystem& system, double h, CollisionDiagnostics& diag)
{
    moveParticles(system, h);
    detect(system, diag);
    resolveSweeps(system, diag, h);
    removeOverlaps(system);
    ++diag.substeps;
}


void CollisionStep::softForces(ParticleSystem& system, double h, CollisionDiagnostics& diag)
{
    for (Particle& p : system.particles)
    {
        p.contactForce.setZero();
        p.contactTorque.setZero();
    }
    for (const StepContact& c : contacts_)
    {
        Particle& A = system.particles[c.a];
        const Superellipsoid& sA = system.shapes[A.shapeIndex];
        const RigidBody bodyA = rigidBodyOf(A);
        // Hertz radius at the detection's point (the deepest), one per contact
        const double radiusA = surfaceCurvatureRadius(sA, A.pose, c.point.point, CurvatureModel::mean);
        PairRecord& rec = cache_.acquire(c.key);
        // Springs of points that moved by more than this in A's frame restart
        const double matchDistance = manifoldMatchTolerance*c.halfAxis;
        ContactManifold m = c.manifold;
        SoftContactResult r;
        if (c.b >= 0)
        {
            Particle& B = system.particles[c.b];
            const Superellipsoid& sB = system.shapes[B.shapeIndex];
            const RigidBody bodyB = rigidBodyOf(B);
            const double radiusB =
                surfaceCurvatureRadius(sB, B.pose, c.point.point, CurvatureModel::mean);
            const SoftContactParameters p = pairModel_->parameters(bodyA, bodyB, radiusA, radiusB);
            r = softManifoldForce(bodyA, bodyB, m, p, rec.history, matchDistance, h);
            B.contactForce += r.forceOnB;
            B.contactTorque += B.pose.orientation.conjugate()*r.torqueOnB;
            ++diag.pairCollisions;
        }
        else
        {
            const RigidBody wall = RigidBody::wall(system.walls.velocity[c.face]);
            const SoftContactParameters p = wallModel_->parameters
            (
                bodyA, wall, radiusA, std::numeric_limits<double>::infinity()
            );
            m.normal = -m.normal;   // the force law's normal points from A into B (the wall)
            r = softManifoldForce(bodyA, wall, m, p, rec.history, matchDistance, h);
            ++diag.wallCollisions;
        }
        rec.history = r.history;
        A.contactForce -= r.forceOnB;
        A.contactTorque += A.pose.orientation.conjugate()*r.torqueOnA;
    }
}


void CollisionStep::softSubstep(ParticleSystem& system, double h, CollisionDiagnostics& diag)
{
    // Velocity Verlet: kick(h/2) with the last forces, drift(h)
    const Matrix3 noDamping = Matrix3::Zero();
    for (Particle& p : system.particles)
    {
        const Vector3 a = settings_.gravity + (p.externalForce + p.contactForce)/p.mass;
        p.velocity += 0.5*h*a;
        RotationalState s{p.pose.orientation, p.angularVelocity};
        const Vector3 torque = p.externalTorque + p.contactTorque;
        if (!isZero(torque)) kickAngularMomentum(s, p.principalMoments, torque, noDamping, 0.5*h);
        p.pose.position += h*p.velocity;
        driftFreeRotation(s, p.principalMoments, h);
        p.pose.orientation = s.orientation;
        p.angularVelocity = s.angularVelocity;
    }
    // Forces at the new positions, then kick(h/2)
    detect(system, diag);
    softForces(system, h, diag);
    for (Particle& p : system.particles)
    {
        const Vector3 a = settings_.gravity + (p.externalForce + p.contactForce)/p.mass;
        p.velocity += 0.5*h*a;
        const Vector3 torque = p.externalTorque + p.contactTorque;
        if (!isZero(torque))
        {
            RotationalState s{p.pose.orientation, p.angularVelocity};
            kickAngularMomentum(s, p.principalMoments, torque, noDamping, 0.5*h);
            p.angularVelocity = s.angularVelocity;
        }
    }
    ++diag.substeps;
}


CollisionDiagnostics CollisionStep::advance(ParticleSystem& system, double dt)
{
    if (!(std::isfinite(dt) && dt > 0))
    {
        std::ostringstream os;
        os << "CollisionStep::advance: dt = " << dt << " must be positive and finite";
        throw std::invalid_argument(os.str());
    }
    validateParticleSystem(system);

    CollisionDiagnostics diag;
    const int n = chooseSubsteps(system, dt);
    const double h = dt/n;
    for (int k = 0; k < n; ++k)
    {
        switch (settings_.model)
        {
            case CollisionModel::impulse: impulseSubstep(system, h, diag); break;
            case CollisionModel::softContact: softSubstep(system, h, diag); break;
            case CollisionModel::none: moveParticles(system, h); ++diag.substeps; break;
        }
    }
    cache_.dropUntouched();
    checkParticleFinite(system);
    diag.translationalEnergy = translationalKineticEnergy(system);
    diag.rotationalEnergy = rotationalKineticEnergy(system);
    return diag;
}

} // namespace superellipsoid
