#include "solver/CollisionStep.H"
#include "contact/BoundingVolumes.H"
#include "contact/ManifoldGeometry.H"
#include "contact/ParticleContact.H"
#include "contact/SupportPoint.H"
#include "solver/CoplanarGroups.H"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <utility>

namespace superellipsoid
{

namespace
{

//- Enlargement of a particle's cached wall-face query box per side, as a
//  fraction of the box size (CollisionStep::wallCandidates): a particle
//  re-queries the face grid after moving ~ its bounding radius
constexpr double wallQueryMargin = 0.5;

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

//- Relative margin by which a candidate normal must beat the detected
//  overlap to trigger a restart (round-off of converged minima is ~1e-12)
constexpr double restartMargin = 1e-6;

} // namespace


ContactManifold CollisionStep::faceManifold
(
    const Superellipsoid& shape, const Pose& pose, const WallSet& walls, const Contact& c
) const
{
    const WallFace& face = walls.faces[c.faceIndex];
    if (c.feature != WallFeature::Face)
    {
        return wallManifold(shape, pose, face, c);
    }
    // A flat wall meshed into coplanar faces: the body's patch may span
    // several of them, so it is clipped to their union (each point of the
    // plane's manifold kept if a coplanar candidate face holds it), not to
    // the one face that holds the deepest point
    ContactManifold m = wallManifold(shape, pose, face.plane(), c);
    int kept = 0;
    for (int k = 0; k < m.count; ++k)
    {
        const Vector3 onWall = m.points[k].point - face.plane().signedDistance(m.points[k].point)*face.normal;
        for (const int g : faceCandidates_)
        {
            if (facePlane_[g] == facePlane_[c.faceIndex] && pointInFace(walls.faces[g], onWall))
            {
                m.points[kept++] = m.points[k];
                break;
            }
        }
    }
    m.count = kept;
    return kept > 0 ? m : wallManifold(shape, pose, face, c);
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

    // Pairs: OBB (cached axis) -> narrow phase with warm start; A = smaller id.
    // A separated pair's spring restarts; only the soft model has springs
    // (the impulse model never reads them: no store into the record's
    // spring, a cache miss per separated candidate pair)
    const bool keepsSprings = settings_.model == CollisionModel::softContact;
    // The soft model takes the Hertz radius at the detection's point; the
    // impulse model acts on the manifold's points only
    const bool contactPoint = settings_.model == CollisionModel::softContact;
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
            if (keepsSprings) rec.history = TangentialHistory();
            continue;
        }
        Contact c = detectParticleContact(sA, A.pose, sB, B.pose, &rec.warm, contactPoint);
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
                const Contact r = detectParticleContact(sA, A.pose, sB, B.pose, &restart, contactPoint);
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
            if (keepsSprings) rec.history = TangentialHistory();
            continue;
        }
        StepContact& sc = contacts_.emplace_back();   // filled in place (no copy)
        sc.a = a;
        sc.b = b;
        sc.idA = A.id;
        sc.idB = B.id;
        sc.point = CollisionPoint{c.point, c.normal, c.overlap};
        sc.manifold = pairManifold(sA, A.pose, sB, B.pose, c);
        sc.overlap = c.overlap;
        sc.halfAxis = std::min(sA.c(), sB.c());
        sc.overlapRatio = c.overlap/sc.halfAxis;
        sc.key = key;
    }

    // Walls: face grid -> boxes -> bounding sphere / OBB vs plane -> face
    // contact -> one contact per wall region (Sect. 3.4.3)
    const WallSet& walls = system.walls;
    if (walls.size() > 0)
    {
        if (!wallGridValid_ || wallGrid_.cellSize() != cellSize || wallGrid_.nFaces() != walls.size())
        {
            wallGrid_.build(walls.faces, cellSize);
            CoplanarGroups groups = groupCoplanarFaces(walls.faces);
            facePlane_.swap(groups.group);
            planeFace_.swap(groups.firstFace);
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
                // Plane contact once per coplanar group (closed form, Eqs. 43-50 of [Wedel2023])
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
                StepContact& sc = contacts_.emplace_back();
                sc.a = i;
                sc.b = -1;
                sc.face = c.faceIndex;
                sc.idA = P.id;
                // A face contact is the plane's: its record (warm start,
                // spring) stays when the deepest point moves to another face
                // of a flat wall meshed into several (a face-down cube on a
                // triangle fan: its support corner changes with a tilt of
                // 1e-16)
                const int keyFace =
                    c.feature == WallFeature::Face ? planeFace_[facePlane_[c.faceIndex]] : c.faceIndex;
                sc.idB = keyFace;
                // CollisionPoint normal from the particle INTO the wall
                sc.point = CollisionPoint{c.point, -c.normal, c.overlap};
                // Solver convention: normal from the particle into the wall
                sc.manifold = faceManifold(s, P.pose, walls, c);
                sc.manifold.normal = -sc.manifold.normal;
                sc.overlap = c.overlap;
                sc.halfAxis = s.c();
                sc.overlapRatio = c.overlap/s.c();
                sc.key = PairCache::wallKey(P.id, keyFace);
                cache_.acquire(sc.key);
            }
        }
    }

    // Canonical order: independent of particle storage order. The keys
    // (idA, wall, idB) are unique, so sorting small keys and moving each
    // contact once gives the order of sorting the contacts themselves
    order_.resize(contacts_.size());
    for (std::size_t k = 0; k < contacts_.size(); ++k)
    {
        const StepContact& c = contacts_[k];
        order_[k] = ContactOrder{c.idA, c.b < 0, c.idB, k};
    }
    std::sort
    (
        order_.begin(), order_.end(),
        [](const ContactOrder& x, const ContactOrder& y)
        {
            if (x.idA != y.idA) return x.idA < y.idA;
            if (x.wall != y.wall) return y.wall;    // pairs before walls
            return x.idB < y.idB;
        }
    );
    sortedContacts_.resize(contacts_.size());
    for (std::size_t k = 0; k < order_.size(); ++k) sortedContacts_[k] = contacts_[order_[k].index];
    contacts_.swap(sortedContacts_);

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


} // namespace superellipsoid
