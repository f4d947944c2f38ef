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
#include <stdexcept>
#include <utility>

namespace superellipsoid
{

namespace
{

//- Enlargement of a particle's cached wall-face query box per side, as a
//  fraction of the box size (CollisionStep::wallCandidates): a particle
//  re-queries the face grid after moving ~ its bounding radius
constexpr double wallQueryMargin = 0.5;

//- Point of the face plane inside the convex polygon: on the inner side of
//  every edge's half-plane, (b - a) x n . (p - a) <= 0 for the edge a -> b
bool pointInFace(const WallFace& face, const FaceEdges& edges, const Vector3& p)
{
    for (int k = 0; k < face.nVertices; ++k)
    {
        if (edges[k].dot(p - face.vertices[k]) > 0) return false;
    }
    return true;
}

//- Relative margin by which a candidate normal must beat the detected
//  overlap to trigger a restart (round-off of converged minima is ~1e-12)
constexpr double restartMargin = 1e-6;

//- Two spheres apart, |c_B - c_A| > r_A + r_B (detectSphereContact's
//  first test; the caller takes its result)
bool spheresApart(const Particle& A, const Superellipsoid& sA, const Particle& B, const Superellipsoid& sB)
{
    const double rSum = sA.a() + sB.a();
    return (B.pose.position - A.pose.position).squaredNorm() > rSum*rSum;
}

} // namespace


ContactManifold CollisionStep::faceManifold
(
    const Superellipsoid& shape, const Pose& pose, const WallSet& walls, const Contact& c
) const
{
    // A sphere's one point is its deepest, on a face, a plane, an edge or a
    // vertex (wallManifold's closed form)
    if (shape.isSphere()) return deepestPointManifold(pose, c);
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
    auto inGroup = [&](const Vector3& onWall)
    {
        // The face of the deepest point first: it holds most points
        if (pointInFace(face, faceEdges_[c.faceIndex], onWall)) return true;
        for (const int g : faceCandidates_)
        {
            if (facePlane_[g] == facePlane_[c.faceIndex] && pointInFace(walls.faces[g], faceEdges_[g], onWall))
            {
                return true;
            }
        }
        return false;
    };
    for (int k = 0; k < m.count; ++k)
    {
        const Vector3 onWall = m.points[k].point - face.plane().signedDistance(m.points[k].point)*face.normal;
        if (inGroup(onWall)) m.points[kept++] = m.points[k];
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
    contacts_.clear();
    nextRecord_ = 0;
    detectedStateKept_ = false;
    if (system.size() == 0) return contacts_;

    // 1. Broad phase: candidate pairs (a Verlet list over a cell list)
    const double cellSize = findCandidatePairs(system);
    diag.candidatePairs += long(pairs_.size());

    // 2. Each particle by ascending id: its pairs with larger ids, then its
    // walls. The contacts come out in canonical order (idA, pairs before
    // walls, idB), independent of the particle storage order, without
    // moving one
    rankParticles(system);
    startPairsByRank(system);
    const bool walls = system.walls.size() > 0;
    if (walls) prepareWalls(system.walls, cellSize);
    for (int r = 0; r < system.size(); ++r)
    {
        detectPairs(system, pairStart_[r], pairStart_[r + 1], diag);
        if (walls) detectParticleWalls(idOrder_[r], system, diag);
    }
    // 3. Contacts across the periodic boundary, folded out of that order
    if (!imageBody_.empty() && settings_.model == CollisionModel::impulse)
    {
        foldImageContacts(system);
        sortContacts(system);
    }

    for (const StepContact& c : contacts_)
    {
        (c.b < 0 ? diag.wallContacts : diag.pairContacts) += 1;
        diag.maxOverlapRatio = std::max(diag.maxOverlapRatio, c.overlapRatio);
    }
    return contacts_;
}


double CollisionStep::findCandidatePairs(const ParticleSystem& system)
{
    const int n = system.size();
    centres_.resize(n);
    radii_.resize(n);
    ids_.resize(n);
    double rMax = 0;
    for (int i = 0; i < n; ++i)
    {
        centres_[i] = system.particles[i].pose.position;
        radii_[i] = system.shapes[system.particles[i].shapeIndex].boundingRadius();
        ids_[i] = system.particles[i].id;
        rMax = std::max(rMax, radii_[i]);
    }
    trackMotion(system);
    ++detections_;
    pairList_.update(centres_.data(), radii_.data(), ids_.data(), n, settings_.pairListSkin*rMax, pairs_);
    return 2*rMax;
}


void CollisionStep::detectPairs(const ParticleSystem& system, int begin, int end, CollisionDiagnostics& diag)
{
    // OBB (cached axis) -> narrow phase with warm start; a has the smaller id.
    // A separated pair's spring restarts; only the soft model has springs
    // (the impulse model never reads them: no store into the record's
    // spring, a cache miss per separated candidate pair)
    const bool keepsSprings = settings_.model == CollisionModel::softContact;
    // The soft model takes the Hertz radius at the detection's point; the
    // impulse model acts on the manifold's points only
    const bool contactPoint = settings_.model == CollisionModel::softContact;
    for (int k = begin; k < end; ++k)
    {
        const int a = pairs_[k].i, b = pairs_[k].j;
        const Particle& A = system.particles[a];
        const Particle& B = system.particles[b];
        const Superellipsoid& sA = system.shapes[A.shapeIndex];
        const Superellipsoid& sB = system.shapes[B.shapeIndex];
        const std::uint64_t key = PairCache::pairKey(A.id, B.id);
        // Two spheres: the bounding spheres of the cell list are the bodies
        // (one minimum of delta(n): no global-minimum check). Others pass
        // the OBB test inside the detection, its cached axis first
        const bool spheres = sA.isSphere() && sB.isSphere();
        if (spheres && spheresApart(A, sA, B, sB))
        {
            // Apart: the closed form needs no warm start and the pair keeps
            // nothing, so its record is not touched (dropped at the step's
            // end, as a new one would start); a spring restarts
            const Contact c = detectParticleContact(sA, A.pose, sB, B.pose, nullptr, contactPoint);
            if (!c.touching())
            {
                diag.detection.record(c);
                if (keepsSprings)
                {
                    if (PairRecord* old = cache_.find(key, nextRecord_))
                    {
                        old->history = TangentialHistory();
                        nextRecord_ = cache_.indexOf(*old) + 1;
                    }
                }
                continue;
            }
        }
        PairRecord& rec = acquireInOrder(key);
        const std::size_t record = cache_.indexOf(rec);
        if (!spheres && gapCertified(rec, a, b, system))
        {
            if (keepsSprings) rec.history = TangentialHistory();
            continue;
        }
        Contact c = detectParticleContact(sA, A.pose, sB, B.pose, &rec.warm, contactPoint);
        if (c.boxesSeparated)
        {
            ++diag.obbRejections;
        }
        else
        {
            diag.detection.record(c);
        }
        // Separated along its warm normal: the gap there, less a round-off
        // margin, certifies the next detections (gapCertified)
        rec.gapStamp = -1;
        if (c.warmSeparated)
        {
            const double scale = sA.boundingRadius() + sB.boundingRadius()
                               + (B.pose.position - A.pose.position).norm();
            rec.gap = -c.overlap - 1e-12*scale;
            if (rec.gap > 0) rec.gapStamp = detections_;
        }
        const double cPair = std::min(sA.c(), sB.c());
        if (!spheres && c.touching() && c.overlap > settings_.overlapCheckRatio*cPair)
        {
            restartAtSeparatingAxes(A, sA, B, sB, contactPoint, c, rec, diag);
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
        sc.record = record;
    }
}


void CollisionStep::acquireDetectedRecords(const ParticleSystem& system)
{
    // The records detectPairs and detectParticleWalls mark: every candidate
    // pair's but two apart spheres', every contact's (each loop in the
    // records' order, the position after the last one tried first)
    nextRecord_ = 0;
    for (const CandidatePair& cp : pairs_)
    {
        const Particle& A = system.particles[cp.i];
        const Particle& B = system.particles[cp.j];
        const Superellipsoid& sA = system.shapes[A.shapeIndex];
        const Superellipsoid& sB = system.shapes[B.shapeIndex];
        if (sA.isSphere() && sB.isSphere() && spheresApart(A, sA, B, sB)) continue;
        acquireInOrder(PairCache::pairKey(A.id, B.id));
    }
    nextRecord_ = 0;
    for (StepContact& c : contacts_) c.record = cache_.indexOf(acquireInOrder(c.key));
}


void CollisionStep::restartAtSeparatingAxes
(
    const Particle& A, const Superellipsoid& sA,
    const Particle& B, const Superellipsoid& sB,
    bool contactPoint, Contact& c, PairRecord& rec, CollisionDiagnostics& diag
) const
{
    // Global-minimum check: the common-normal Newton can converge to a
    // LOCAL minimum of delta(n) (flat faces: one near every face normal),
    // whose normal is wrong and whose overlap is too large (0.73 c for a
    // true penetration depth of 0.006 c between two eps = 0.2 cubes). For a
    // deep contact delta is also evaluated along the 15 separating axes of
    // the two OBBs (face normals of each body, cross products of their
    // axes); if one is smaller, detection restarts from it (warm start) and
    // the smaller minimum is kept. One sign per axis: superellipsoids are
    // centrally symmetric (h(-d) = h(d) bit for bit), so
    // delta(+-n) = h_A + h_B -+ n.dc and the sign with n.dc >= 0 is never
    // the larger.
    double bestDelta = c.overlap*(1 - restartMargin);
    Vector3 bestNormal = Vector3::Zero();
    const Vector3 dc = B.pose.position - A.pose.position;
    auto tryNormal = [&](const Vector3& axis)
    {
        const Vector3 n = axis.dot(dc) >= 0 ? axis : Vector3(-axis);
        const double delta = directionalOverlap(sA, A.pose, sB, B.pose, n);
        if (delta < bestDelta)
        {
            bestDelta = delta;
            bestNormal = n;
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
    if (bestNormal.squaredNorm() == 0) return;

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


void CollisionStep::prepareWalls(const WallSet& walls, double cellSize)
{
    if (wallGridValid_ && wallGrid_.cellSize() == cellSize && wallGrid_.nFaces() == walls.size()) return;
    wallGrid_.build(walls.faces, cellSize);
    CoplanarGroups groups = groupCoplanarFaces(walls.faces);
    facePlane_.swap(groups.group);
    planeFace_.swap(groups.firstFace);
    faceEdges_.resize(walls.size());
    for (int f = 0; f < walls.size(); ++f) faceEdges_[f] = edgeHalfPlanes(walls.faces[f]);
    wallGridValid_ = true;
    for (WallQueryCache& q : wallQueries_) q.id = -1;
}


void CollisionStep::detectParticleWalls(int i, const ParticleSystem& system, CollisionDiagnostics& diag)
{
    // Face grid -> boxes -> bounding sphere / OBB vs plane -> face contact
    // -> one contact per wall region (Sect. 3.4.3)
    const WallSet& walls = system.walls;
    const Particle& P = system.particles[i];
    const Superellipsoid& s = system.shapes[P.shapeIndex];
    const int nFace = particleFaceContacts(i, P, s, walls, diag);
    // One face contact (touching, as every one kept) is its own region
    const Contact* region = faceContacts_.data();
    int nRegion = nFace;
    if (nFace > 1)
    {
        region = regionContacts_.data();
        nRegion = selectWallContacts
        (
            faceContacts_.data(), nFace, regionContacts_.data(), settings_.wallRegionAngle, wallMergeFraction*s.c()
        );
    }
    const std::size_t first = contacts_.size();
    for (int r = 0; r < nRegion; ++r)
    {
        addWallContact(i, P, s, walls, region[r]);
    }
    // By key face (insertion: a particle touches few walls)
    for (std::size_t k = first + 1; k < contacts_.size(); ++k)
    {
        for (std::size_t j = k; j > first && contacts_[j].idB < contacts_[j - 1].idB; --j)
        {
            std::swap(contacts_[j], contacts_[j - 1]);
        }
    }
}


int CollisionStep::particleFaceContacts
(
    int i, const Particle& P, const Superellipsoid& s, const WallSet& walls, CollisionDiagnostics& diag
)
{
    const Vector3 extent = Vector3::Constant(radii_[i]);
    wallCandidates(i, P.id, P.pose.position - extent, P.pose.position + extent);
    int nFace = 0;
    auto addFaceContact = [&](const Contact& c, int f)
    {
        if (nFace == int(faceContacts_.size()))
        {
            faceContacts_.resize(2*faceContacts_.size());
            regionContacts_.resize(faceContacts_.size());
        }
        faceContacts_[nFace] = c;
        faceContacts_[nFace++].faceIndex = f;
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
        // (a sphere's box holds its bounding sphere: no box test)
        if (wall.signedDistance(P.pose.position) <= 0 || !boundingSphereTouchesPlane(s, P.pose, wall)
         || (!s.isSphere() && !obbTouchesPlane(s, P.pose, wall)))
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
            if (facePlane_[g] == plane && pointInFace(walls.faces[g], faceEdges_[g], c.pointOnB))
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
    return nFace;
}


void CollisionStep::addWallContact
(
    int i, const Particle& P, const Superellipsoid& s, const WallSet& walls, const Contact& c
)
{
    StepContact& sc = contacts_.emplace_back();
    sc.a = i;
    sc.b = -1;
    sc.face = c.faceIndex;
    sc.idA = P.id;
    // A face contact is the plane's: its record (warm start, spring) stays
    // when the deepest point moves to another face of a flat wall meshed
    // into several (a face-down cube on a triangle fan: its support corner
    // changes with a tilt of 1e-16)
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
    sc.record = cache_.indexOf(acquireInOrder(sc.key));
}


PairRecord& CollisionStep::acquireInOrder(std::uint64_t key)
{
    PairRecord& rec = cache_.acquire(key, nextRecord_);
    nextRecord_ = cache_.indexOf(rec) + 1;
    return rec;
}


void CollisionStep::foldImageContacts(const ParticleSystem& system)
{
    // A contact across the periodic boundary is found as (p, image of q)
    // and (q, image of p), and again between images of both: the first
    // (p of the smaller id) is kept as a contact of p and q, q's lever
    // arms from the image's centre; the second is kept instead only if
    // the first was not found (round-off at touching); contacts of an
    // image as a (image pairs, image-wall) are copies and dropped. A
    // particle touching its own image keeps the image as a ghost
    if (int(imageBody_.size()) != system.size())
    {
        throw std::invalid_argument("CollisionStep::shareImageMotion: one body per particle expected");
    }
    auto shared = [&](int i) { return i >= 0 && imageBody_[i] >= 0 && imageBody_[i] != i; };
    auto fold = [&](StepContact& c)
    {
        const int real = imageBody_[c.b];
        c.offsetB = system.particles[c.b].pose.position - system.particles[real].pose.position;
        c.b = real;
    };
    folded_.clear();
    otherCopies_.clear();
    std::size_t kept = 0;
    for (StepContact& c : contacts_)
    {
        if (shared(c.a)) continue;
        if (imageBody_[c.a] == c.a && shared(c.b) && imageBody_[c.b] != c.a)
        {
            const long idB = system.particles[imageBody_[c.b]].id;
            if (idB < c.idA) { otherCopies_.push_back(std::move(c)); continue; }
            folded_.emplace_back(c.idA, idB);
            fold(c);
        }
        contacts_[kept++] = std::move(c);
    }
    contacts_.resize(kept);
    std::sort(folded_.begin(), folded_.end());
    for (StepContact& c : otherCopies_)
    {
        const std::pair<long, long> ids(system.particles[imageBody_[c.b]].id, c.idA);
        if (std::binary_search(folded_.begin(), folded_.end(), ids)) continue;
        fold(c);
        contacts_.push_back(std::move(c));
    }
}


void CollisionStep::rankParticles(const ParticleSystem& system)
{
    // Kept while the storage order keeps the ids ascending along it
    const int n = system.size();
    const Particle* P = system.particles.data();
    bool ranked = int(idOrder_.size()) == n;
    for (int k = 0; ranked && k + 1 < n; ++k)
    {
        ranked = P[idOrder_[k]].id < P[idOrder_[k + 1]].id;   // ids unique: a permutation
    }
    if (ranked) return;
    idOrder_.resize(n);
    for (int i = 0; i < n; ++i) idOrder_[i] = i;
    std::sort(idOrder_.begin(), idOrder_.end(), [P](int i, int j) { return P[i].id < P[j].id; });
    idRank_.resize(n);
    for (int k = 0; k < n; ++k) idRank_[idOrder_[k]] = k;
}


void CollisionStep::startPairsByRank(const ParticleSystem& system)
{
    // The candidate pairs come in canonical order (PairList): a counting
    // pass gives each rank's start
    const int n = system.size();
    pairStart_.assign(n + 1, 0);
    for (const CandidatePair& cp : pairs_) ++pairStart_[idRank_[cp.i] + 1];
    for (int r = 0; r < n; ++r) pairStart_[r + 1] += pairStart_[r];
}


void CollisionStep::sortContacts(const ParticleSystem& system)
{
    // Canonical order (idA, pairs before walls, idB). The keys are unique,
    // so a counting sort by the rank of idA (rankParticles), an insertion
    // sort of each particle's few contacts and one move per contact give
    // the order of sorting the contacts themselves, in linear time
    const int n = system.size();
    const int m = int(contacts_.size());
    bucketStart_.assign(n + 1, 0);
    for (const StepContact& c : contacts_) ++bucketStart_[idRank_[c.a] + 1];
    for (int r = 0; r < n; ++r) bucketStart_[r + 1] += bucketStart_[r];
    order_.resize(m);
    for (int k = 0; k < m; ++k) order_[bucketStart_[idRank_[contacts_[k].a]]++] = k;
    // bucketStart_[r] is now the end of rank r's contacts
    auto before = [this](int x, int y)
    {
        const StepContact& X = contacts_[x];
        const StepContact& Y = contacts_[y];
        if ((X.b < 0) != (Y.b < 0)) return Y.b < 0;   // pairs before walls
        return X.idB < Y.idB;
    };
    for (int r = 0, begin = 0; r < n; begin = bucketStart_[r++])
    {
        for (int k = begin + 1; k < bucketStart_[r]; ++k)
        {
            const int x = order_[k];
            int j = k;
            for (; j > begin && before(x, order_[j - 1]); --j) order_[j] = order_[j - 1];
            order_[j] = x;
        }
    }
    sortedContacts_.resize(m);
    for (int k = 0; k < m; ++k) sortedContacts_[k] = contacts_[order_[k]];
    contacts_.swap(sortedContacts_);
}


void CollisionStep::trackMotion(const ParticleSystem& system)
{
    // Rotation angle of q' q^-1 from the quaternion chord d = |q' -+ q|
    // (sign of the shorter arc): theta = 4 asin(d/2) <= 2 d/sqrt(1 - d^2/4)
    // (asin x <= x/sqrt(1 - x^2)); d <= sqrt(2) on the shorter arc
    // Sphere pairs are never certified (their detection is closed-form)
    const bool anyNonSphere = std::any_of
    (
        system.shapes.begin(), system.shapes.end(), [](const Superellipsoid& s) { return !s.isSphere(); }
    );
    if (!anyNonSphere)
    {
        lastId_.clear();
        return;
    }
    const int n = system.size();
    constexpr double unknown = std::numeric_limits<double>::infinity();
    shift_.assign(n, unknown);
    turn_.assign(n, unknown);
    for (int i = 0; i < std::min(n, int(lastId_.size())); ++i)
    {
        const Particle& p = system.particles[i];
        if (lastId_[i] != p.id) continue;
        const Pose& last = lastPose_[i];
        shift_[i] = (p.pose.position - last.position).norm();
        const Quaternion& q = p.pose.orientation;
        const Quaternion& q0 = last.orientation;
        const double sign = q.coeffs().dot(q0.coeffs()) < 0 ? -1.0 : 1.0;
        const double d = (q.coeffs() - sign*q0.coeffs()).norm();
        turn_[i] = 2*d/std::sqrt(std::max(1 - 0.25*d*d, 0.5));
    }
    lastId_.resize(n);
    lastPose_.resize(n);
    for (int i = 0; i < n; ++i)
    {
        lastId_[i] = system.particles[i].id;
        lastPose_[i] = system.particles[i].pose;
    }
}


bool CollisionStep::gapCertified
(
    PairRecord& rec, int a, int b, const ParticleSystem& system
)
{
    // delta at the warm normal n = Q_A n_A (it turns with A, so A's support
    // along it is constant): B's support moves by at most R_B |change of
    // Q_B^T n| <= R_B (theta_A + theta_B) (h is R-Lipschitz), n.dc by at most
    // theta_A |dc| + |dc_A| + |dc_B|. While the gap left stays positive, n
    // still separates, as the exact test would find, and the warm start
    // stays as it leaves it: only the cost changes. Valid only after a
    // detection in the previous call (no motion missed)
    if (rec.gapStamp != detections_ - 1 || !rec.warm.valid) return false;
    const Particle& A = system.particles[a];
    const Particle& B = system.particles[b];
    const double rB = system.shapes[B.shapeIndex].boundingRadius();
    const double dc = (B.pose.position - A.pose.position).norm();
    const double used = rB*(turn_[a] + turn_[b]) + turn_[a]*dc + shift_[a] + shift_[b];
    if (!(used < rec.gap)) return false;
    rec.gap -= used;
    rec.gapStamp = detections_;
    ++gapCertificates_;
    return true;
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
