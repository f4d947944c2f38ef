/*---------------------------------------------------------------------------*\
    superellipsoidFoam: superellipsoidCollisionModel (see the header).
\*---------------------------------------------------------------------------*/

#include "superellipsoidCollisionModel.H"
#include "superellipsoidShapeTable.H"
#include "eigenConversions.H"
#include "wallPolyPatch.H"
#include "Time.H"
#include "Pstream.H"
#include "superellipsoidDictionaryChecks.H"
#include "PstreamBuffers.H"
#include "processorPolyPatch.H"
#include "clockTime.H"

#include "dynamics/RigidBodyRotation.H"

#include <algorithm>
#include <numeric>
#include <stdexcept>

// * * * * * * * * * * * * * * * Local Functions * * * * * * * * * * * * * //

namespace
{

//- Doubles per particle in the all-gather: id, shape, position (3),
//  quaternion (4), velocity (3), omega' (3), mass, moments (3)
constexpr int particleRecord = 19;

//- Doubles per wall face: n, vertices (3 maxFaceVertices), patch, velocity (3)
constexpr int faceRecord = 2 + 3*superellipsoid::maxFaceVertices + 3;


void pack(const superellipsoid::Particle& p, Foam::scalarList& buf, Foam::label& k)
{
    buf[k++] = Foam::scalar(p.id);
    buf[k++] = p.shapeIndex;
    for (int i = 0; i < 3; ++i) buf[k++] = p.pose.position[i];
    buf[k++] = p.pose.orientation.w();
    buf[k++] = p.pose.orientation.x();
    buf[k++] = p.pose.orientation.y();
    buf[k++] = p.pose.orientation.z();
    for (int i = 0; i < 3; ++i) buf[k++] = p.velocity[i];
    for (int i = 0; i < 3; ++i) buf[k++] = p.angularVelocity[i];
    buf[k++] = p.mass;
    for (int i = 0; i < 3; ++i) buf[k++] = p.principalMoments[i];
}


superellipsoid::Particle unpack(const Foam::scalarList& buf, Foam::label& k)
{
    superellipsoid::Particle p;
    p.id = long(buf[k++]);
    p.shapeIndex = int(buf[k++]);
    for (int i = 0; i < 3; ++i) p.pose.position[i] = buf[k++];
    const double w = buf[k++], x = buf[k++], y = buf[k++], z = buf[k++];
    p.pose.orientation = superellipsoid::Quaternion(w, x, y, z);
    for (int i = 0; i < 3; ++i) p.velocity[i] = buf[k++];
    for (int i = 0; i < 3; ++i) p.angularVelocity[i] = buf[k++];
    p.mass = buf[k++];
    for (int i = 0; i < 3; ++i) p.principalMoments[i] = buf[k++];
    return p;
}

//- Doubles per pair-cache record: key (two 32-bit halves), warm start
//  (normal, point, multiplier, valid), tangential spring, OBB axis,
//  resting-contact impulse (warm start of the resting-contact solver)
constexpr int recordSize = 15;


void packRecord
(
    const std::uint64_t key,
    const superellipsoid::PairRecord& r,
    Foam::scalarList& buf,
    Foam::label& k
)
{
    buf[k++] = Foam::scalar(key >> 32);
    buf[k++] = Foam::scalar(key & 0xffffffffULL);
    for (int i = 0; i < 3; ++i) buf[k++] = r.warm.normalInA[i];
    for (int i = 0; i < 3; ++i) buf[k++] = r.warm.pointInA[i];
    buf[k++] = r.warm.multiplier;
    buf[k++] = r.warm.valid;
    for (int i = 0; i < 3; ++i) buf[k++] = r.history.displacement[i];
    buf[k++] = r.obbAxis;
    buf[k++] = r.normalImpulse;
}


std::uint64_t unpackRecord
(
    const Foam::scalarList& buf,
    Foam::label& k,
    superellipsoid::PairRecord& r
)
{
    const std::uint64_t hi = std::uint64_t(buf[k++]);
    const std::uint64_t key = (hi << 32) | std::uint64_t(buf[k++]);
    for (int i = 0; i < 3; ++i) r.warm.normalInA[i] = buf[k++];
    for (int i = 0; i < 3; ++i) r.warm.pointInA[i] = buf[k++];
    r.warm.multiplier = buf[k++];
    r.warm.valid = buf[k++] != 0;
    for (int i = 0; i < 3; ++i) r.history.displacement[i] = buf[k++];
    r.obbAxis = int(buf[k++]);
    r.normalImpulse = buf[k++];
    return key;
}


//- Sort a list of pair-cache records by key (keyOf(record)) and keep the
//  first record of each key
template<class Record, class KeyOf>
void sortUniqueBy(std::vector<Record>& records, KeyOf keyOf)
{
    std::sort
    (
        records.begin(), records.end(),
        [&keyOf](const Record& x, const Record& y) { return keyOf(x) < keyOf(y); }
    );
    records.erase
    (
        std::unique
        (
            records.begin(), records.end(),
            [&keyOf](const Record& x, const Record& y) { return keyOf(x) == keyOf(y); }
        ),
        records.end()
    );
}


//- Squared distance of a point to an axis-aligned box
double distanceSqr
(
    const superellipsoid::Vector3& x,
    const double* lo,
    const double* hi
)
{
    double d2 = 0;
    for (int i = 0; i < 3; ++i)
    {
        const double d = x[i] < lo[i] ? lo[i] - x[i] : (x[i] > hi[i] ? x[i] - hi[i] : 0);
        d2 += d*d;
    }
    return d2;
}

} // End anonymous namespace


// * * * * * * * * * * * * * * Static Data Members * * * * * * * * * * * * //

namespace Foam
{
    defineTypeNameAndDebug(superellipsoidCollisionModel, 0);
    defineRunTimeSelectionTable(superellipsoidCollisionModel, dictionary);
}


// * * * * * * * * * * * * * Static Member Functions * * * * * * * * * * * //

Foam::scalar Foam::superellipsoidCollisionModel::readBounded
(
    const Foam::dictionary& dict,
    const Foam::word& key,
    const Foam::scalar lo,
    const Foam::scalar hi
)
{
    // Missing, wrong type, not finite, out of range: FatalIOError
    return superellipsoidDictionaryChecks::readBounded(dict, key, lo, hi);
}


Foam::scalar Foam::superellipsoidCollisionModel::readPositive
(
    const Foam::dictionary& dict,
    const Foam::word& key
)
{
    return superellipsoidDictionaryChecks::readPositive(dict, key);
}


Foam::autoPtr<Foam::superellipsoidCollisionModel>
Foam::superellipsoidCollisionModel::New
(
    const dictionary& cloudDict,
    const fvMesh& mesh,
    const superellipsoidShapeTable& shapes,
    const vector& g
)
{
    // No 'superellipsoidCollision' dictionary: model none
    const dictionary* dictPtr = cloudDict.findDict("superellipsoidCollision");
    const dictionary& dict = dictPtr ? *dictPtr : dictionary::null;
    const word modelType(dictPtr ? dict.get<word>("model") : word("none"));

    auto cstrIter = dictionaryConstructorTablePtr_->cfind(modelType);
    if (!cstrIter.found())
    {
        FatalIOErrorInFunction(dict)
            << "Bad entry model " << modelType << ": expected one of";
        for (const word& name : dictionaryConstructorTablePtr_->sortedToc())
        {
            FatalIOError << ' ' << name;
        }
        FatalIOError << nl << exit(FatalIOError);
    }

    return autoPtr<superellipsoidCollisionModel>(cstrIter()(dict, mesh, shapes, g));
}


// * * * * * * * * * * * * * * * * Constructors  * * * * * * * * * * * * * * //

Foam::superellipsoidCollisionModel::superellipsoidCollisionModel
(
    const word& modelName,
    const superellipsoid::CollisionModel model,
    const dictionary& dict,
    const fvMesh& mesh,
    const superellipsoidShapeTable& shapes
)
:
    mesh_(mesh),
    modelName_(modelName),
    settings_(),
    step_(),
    system_(),
    local_(),
    localToGlobal_(),
    owned_(),
    meshNeighbours_(),
    ownedIds_(),
    ownedPairs_(),
    ghostsThisStep_(0),
    exchangesThisStep_(0),
    recordsSent_(0),
    exchangeTime_(0),
    waitTime_(0),
    wallsBuilt_(false),
    wallsReported_(false),
    diag_(),
    truncatedDisplacements_(0),
    wallBackstops_(0),
    csv_(),
    stopAtRest_(0),
    peakEnergy_(0),
    stopSet_(false)
{
    settings_.model = model;
    if (model == superellipsoid::CollisionModel::none)
    {
        return;
    }

    // Unknown keywords (typos) are errors, not silently ignored
    superellipsoidDictionaryChecks::checkKeywords
    (
        dict,
        {
            "model", "nSubCycles", "displacementFraction", "maxSweeps",
            "stopAtRest", "restingContacts", "impulseCoeffs", "softContactCoeffs"
        },
        "superellipsoidCollision"
    );

    const label nSub =
        superellipsoidDictionaryChecks::readLabelOrDefault(dict, "nSubCycles", 0);
    if (nSub < 0)
    {
        FatalIOErrorInFunction(dict)
            << "Bad entry nSubCycles " << nSub
            << ": must be >= 1 (fixed) or 0 (automatic)" << nl
            << exit(FatalIOError);
    }
    settings_.fixedSubsteps = nSub;
    if (dict.found("displacementFraction"))
    {
        settings_.displacementFraction =
            readBounded(dict, "displacementFraction", SMALL, 1);
    }
    if (dict.found("maxSweeps"))
    {
        const label sweeps =
            superellipsoidDictionaryChecks::readLabel(dict, "maxSweeps");
        if (sweeps < 1)
        {
            FatalIOErrorInFunction(dict)
                << "Bad entry maxSweeps " << sweeps << ": must be >= 1"
                << nl << exit(FatalIOError);
        }
        settings_.maxSweeps = sweeps;
    }

    if (dict.found("stopAtRest"))
    {
        // In [0, 1): at 1 a growing kinetic energy would stop the run
        stopAtRest_ = readBounded(dict, "stopAtRest", 0, 1 - SMALL);
    }

    for (label i = 0; i < shapes.size(); ++i)
    {
        system_.shapes.push_back(shapes[i].shape);
    }

    // Processors a parcel can be transferred to by tracking
    DynamicList<label> neighbours;
    for (const polyPatch& pp : mesh.boundaryMesh())
    {
        const processorPolyPatch* ppp = isA<processorPolyPatch>(pp);
        if (ppp && !neighbours.found(ppp->neighbProcNo()))
        {
            neighbours.append(ppp->neighbProcNo());
        }
    }
    meshNeighbours_.transfer(neighbours);
}


// * * * * * * * * * * * * * * Protected Member Functions  * * * * * * * * * //

void Foam::superellipsoidCollisionModel::initialise(const dictionary& dict)
{
    try
    {
        superellipsoid::validateCollisionSettings(settings_);
        step_.reset(new superellipsoid::CollisionStep(settings_));
    }
    catch (const std::invalid_argument& err)
    {
        FatalIOErrorInFunction(dict)
            << "Bad superellipsoidCollision settings: " << err.what() << nl
            << exit(FatalIOError);
    }

    Info<< "    superellipsoid collisions: model " << modelName_;
    if (settings_.fixedSubsteps > 0)
    {
        Info<< ", " << settings_.fixedSubsteps << " substeps per step";
    }
    else
    {
        Info<< ", substeps from physics (displacement fraction "
            << settings_.displacementFraction << " of c_min)";
    }
    Info<< endl;
}


// * * * * * * * * * * * * * * * Member Functions  * * * * * * * * * * * * * //

void Foam::superellipsoidCollisionModel::buildWalls(const volVectorField& U)
{
    if (wallsBuilt_)
    {
        return;
    }
    wallsBuilt_ = true;

    const polyBoundaryMesh& patches = mesh_.boundaryMesh();
    const pointField& points = mesh_.points();
    label nFaces = 0, nSplit = 0;
    superellipsoid::WallSet localWalls;

    for (const polyPatch& pp : patches)
    {
        if (!isA<wallPolyPatch>(pp))
        {
            continue;
        }
        const vectorField& Uw = U.boundaryField()[pp.index()];
        forAll(pp, i)
        {
            const face& f = pp[i];
            // OpenFOAM's boundary normals point out of the domain: reverse
            // the vertex order so the core's normal points into the fluid
            std::vector<superellipsoid::Vector3> v(f.size());
            forAll(f, k)
            {
                v[k] = superellipsoidConversions::toEigen(points[f[f.size() - 1 - k]]);
            }
            const superellipsoid::Vector3 uw =
                superellipsoidConversions::toEigen(Uw[i]);
            if (label(v.size()) <= superellipsoid::maxFaceVertices)
            {
                localWalls.add
                (
                    superellipsoid::WallFace::fromVertices(v.data(), int(v.size())),
                    pp.index(), uw
                );
                ++nFaces;
            }
            else
            {
                // Fan triangulation
                ++nSplit;
                for (std::size_t k = 1; k + 1 < v.size(); ++k)
                {
                    const superellipsoid::Vector3 tri[3] = {v[0], v[k], v[k + 1]};
                    localWalls.add
                    (
                        superellipsoid::WallFace::fromVertices(tri, 3),
                        pp.index(), uw
                    );
                    ++nFaces;
                }
            }
        }
    }

    // All-gather the faces of all processors (walls owned by another
    // processor are seen too), in a decomposition-independent order:
    // by patch, then centroid
    List<scalarList> all(Pstream::nProcs());
    scalarList& mine = all[Pstream::myProcNo()];
    mine.setSize(localWalls.size()*faceRecord);
    label k = 0;
    for (label f = 0; f < localWalls.size(); ++f)
    {
        const superellipsoid::WallFace& wf = localWalls.faces[f];
        mine[k++] = wf.nVertices;
        for (int j = 0; j < superellipsoid::maxFaceVertices; ++j)
        {
            for (int i = 0; i < 3; ++i) mine[k++] = wf.vertices[j][i];
        }
        mine[k++] = localWalls.patch[f];
        for (int i = 0; i < 3; ++i) mine[k++] = localWalls.velocity[f][i];
    }
    Pstream::gatherList(all);
    Pstream::scatterList(all);

    struct faceEntry
    {
        int patch;
        superellipsoid::Vector3 centroid, velocity;
        std::vector<superellipsoid::Vector3> vertices;
    };
    std::vector<faceEntry> faces;
    for (const scalarList& buf : all)
    {
        for (label j = 0; j < buf.size(); j += faceRecord)
        {
            faceEntry e;
            label m = j;
            const int n = int(buf[m++]);
            for (int v = 0; v < superellipsoid::maxFaceVertices; ++v, m += 3)
            {
                if (v < n)
                {
                    e.vertices.emplace_back(buf[m], buf[m + 1], buf[m + 2]);
                }
            }
            e.patch = int(buf[m++]);
            e.velocity = superellipsoid::Vector3(buf[m], buf[m + 1], buf[m + 2]);
            e.centroid = superellipsoid::Vector3::Zero();
            for (const auto& x : e.vertices) e.centroid += x;
            e.centroid /= double(e.vertices.size());
            faces.push_back(std::move(e));
        }
    }
    std::sort
    (
        faces.begin(), faces.end(),
        [](const faceEntry& a, const faceEntry& b)
        {
            if (a.patch != b.patch) return a.patch < b.patch;
            for (int i = 0; i < 3; ++i)
            {
                if (a.centroid[i] != b.centroid[i]) return a.centroid[i] < b.centroid[i];
            }
            return false;
        }
    );
    system_.walls = superellipsoid::WallSet();
    for (const faceEntry& e : faces)
    {
        system_.walls.add
        (
            superellipsoid::WallFace::fromVertices(e.vertices.data(), int(e.vertices.size())),
            e.patch, e.velocity
        );
    }
    reduce(nFaces, sumOp<label>());
    reduce(nSplit, sumOp<label>());
    step_->invalidateWalls();

    if (wallsReported_)
    {
        // Walls converted again (moving mesh): no new log line / CSV
        return;
    }
    wallsReported_ = true;

    Info<< "    superellipsoid collisions: " << nFaces << " wall faces";
    if (nSplit)
    {
        Info<< " (" << nSplit << " faces fan-triangulated)";
    }
    Info<< endl;

    // CSV of the per-step diagnostics
    if (Pstream::master())
    {
        const fileName dir
        (
            mesh_.time().globalPath()/"postProcessing"/"superellipsoidCollisions"
           /mesh_.time().timeName(mesh_.time().startTime().value())
        );
        mkDir(dir);
        csv_.reset(new OFstream(dir/"collisions.csv"));
        csv_().precision(12);
        csv_() << "time," << superellipsoid::CollisionDiagnostics::csvHeader().c_str()
            << ",truncatedDisplacements,wallBackstops,ghosts" << endl;
    }
}


void Foam::superellipsoidCollisionModel::exchangeParticles()
{
    const clockTime timer;
    std::vector<superellipsoid::Particle>& all = system_.particles;
    all = local_;

    if (Pstream::parRun())
    {
        const label nProcs = Pstream::nProcs();
        const label me = Pstream::myProcNo();

        // 1. Bounding box of the own parcel centres and largest bounding
        //    radius, all processors (7 doubles each; empty: radius -1)
        List<FixedList<scalar, 7>> boxes(nProcs);
        FixedList<scalar, 7>& box = boxes[me];
        for (int i = 0; i < 3; ++i)
        {
            box[i] = GREAT;
            box[3 + i] = -GREAT;
        }
        box[6] = -1;
        for (const superellipsoid::Particle& p : local_)
        {
            for (int i = 0; i < 3; ++i)
            {
                box[i] = min(box[i], p.pose.position[i]);
                box[3 + i] = max(box[3 + i], p.pose.position[i]);
            }
            box[6] = max(box[6], system_.shapes[p.shapeIndex].boundingRadius());
        }
        {
            // The first synchronisation point of the substep: its time is
            // mostly waiting for the slowest processor (load imbalance)
            const clockTime waitTimer;
            Pstream::gatherList(boxes);
            Pstream::scatterList(boxes);
            waitTime_ += waitTimer.elapsedTime();
        }

        // 2. Ghosts: own parcel p goes to processor j if its bounding
        //    sphere, grown by j's largest bounding radius, reaches j's box
        //    (necessary for touching any parcel of j; margin 1e-9 relative)
        auto isGhostOf = [&](const superellipsoid::Particle& p, const label j)
        {
            if (j == me || boxes[j][6] < 0) return false;
            const double r = system_.shapes[p.shapeIndex].boundingRadius();
            const double reach = (r + boxes[j][6])*(1 + 1e-9);
            return distanceSqr(p.pose.position, &boxes[j][0], &boxes[j][3]) <= reach*reach;
        };
        // Count, size the buffers, then pack
        List<scalarList> ghostBuf(nProcs);
        labelList nGhost(nProcs, Zero);
        for (const superellipsoid::Particle& p : local_)
        {
            for (label j = 0; j < nProcs; ++j)
            {
                if (isGhostOf(p, j)) ++nGhost[j];
            }
        }
        forAll(ghostBuf, j)
        {
            ghostBuf[j].setSize(nGhost[j]*particleRecord);
            nGhost[j] = 0;
        }
        for (const superellipsoid::Particle& p : local_)
        {
            for (label j = 0; j < nProcs; ++j)
            {
                if (isGhostOf(p, j)) pack(p, ghostBuf[j], nGhost[j]);
            }
        }

        // 3. Contact history of the parcels that tracking moved to another
        //    processor since the last collision substep: their records go
        //    to the mesh neighbours (the new owner overwrites its copy,
        //    which misses the part of the contact it did not see)
        scalarList recordBuf;
        {
            std::vector<long> ids(local_.size());
            for (std::size_t i = 0; i < local_.size(); ++i) ids[i] = local_[i].id;
            std::sort(ids.begin(), ids.end());
            std::vector<long> lost;
            std::set_difference
            (
                ownedIds_.begin(), ownedIds_.end(), ids.begin(), ids.end(),
                std::back_inserter(lost)
            );
            ownedIds_.swap(ids);

            std::vector<std::pair<std::uint64_t, superellipsoid::PairRecord>> records;
            if (!lost.empty())
            {
                const auto isLost = [&lost](long id)
                {
                    return std::binary_search(lost.begin(), lost.end(), id);
                };
                for (const std::pair<long, long>& k : ownedPairs_)
                {
                    if (!isLost(k.first) && !(k.second >= 0 && isLost(k.second)))
                    {
                        continue;
                    }
                    const std::uint64_t key = k.second >= 0
                      ? superellipsoid::PairCache::pairKey(k.first, k.second)
                      : superellipsoid::PairCache::wallKey(k.first, int(-1 - k.second));
                    const superellipsoid::PairRecord* rec = step_->pairCache().find(key);
                    if (rec)
                    {
                        records.emplace_back(key, *rec);
                    }
                }
                sortUniqueBy
                (
                    records,
                    [](const auto& r) { return r.first; }
                );
            }
            recordBuf.setSize(label(records.size())*recordSize);
            label k = 0;
            for (const auto& r : records)
            {
                packRecord(r.first, r.second, recordBuf, k);
            }
            recordsSent_ += label(records.size());
        }

        // 4. Point-to-point exchange: ghosts to the processors within
        //    reach, records to the mesh neighbours (both lists to every
        //    destination that gets anything)
        boolList sendTo(nProcs, false);
        forAll(ghostBuf, j)
        {
            sendTo[j] = ghostBuf[j].size() > 0;
        }
        if (recordBuf.size())
        {
            for (const label j : meshNeighbours_)
            {
                sendTo[j] = true;
            }
        }
        PstreamBuffers pBufs(Pstream::commsTypes::nonBlocking);
        forAll(sendTo, j)
        {
            if (sendTo[j] && j != me)
            {
                UOPstream toProc(j, pBufs);
                toProc << ghostBuf[j] << recordBuf;
            }
        }
        labelList recvSizes;
        pBufs.finishedSends(recvSizes);

        label nReceived = 0;
        forAll(recvSizes, j)
        {
            if (j == me || recvSizes[j] == 0) continue;
            UIPstream fromProc(j, pBufs);
            const scalarList buf(fromProc);
            const scalarList recs(fromProc);
            for (label k = 0; k < buf.size(); )
            {
                all.push_back(unpack(buf, k));
                ++nReceived;
            }
            for (label k = 0; k < recs.size(); )
            {
                superellipsoid::PairRecord rec;
                const std::uint64_t key = unpackRecord(recs, k, rec);
                superellipsoid::PairRecord& mine = step_->pairCache().acquire(key);
                rec.key = mine.key;
                rec.touched = true;
                mine = rec;
            }
        }
        ghostsThisStep_ += nReceived;
        if (debug)
        {
            Pout<< "superellipsoidCollisionModel: " << local_.size()
                << " own parcels, ghosts sent " << nGhost << " received "
                << nReceived << ", records sent " << recordBuf.size()/recordSize
                << endl;
        }
        ++exchangesThisStep_;
    }

    // Canonical order (by id): the same on every processor and in serial
    std::sort
    (
        all.begin(), all.end(),
        [](const superellipsoid::Particle& a, const superellipsoid::Particle& b)
        {
            return a.id < b.id;
        }
    );

    owned_.assign(all.size(), 0);
    localToGlobal_.resize(local_.size());
    for (std::size_t i = 0; i < local_.size(); ++i)
    {
        const auto it = std::lower_bound
        (
            all.begin(), all.end(), local_[i].id,
            [](const superellipsoid::Particle& p, long id) { return p.id < id; }
        );
        localToGlobal_[i] = label(it - all.begin());
        owned_[localToGlobal_[i]] = 1;
    }

    exchangeTime_ += timer.elapsedTime();
}


void Foam::superellipsoidCollisionModel::finishSubstep
(
    const superellipsoid::CollisionDiagnostics& before
)
{
    // Touching contacts of this processor (sums over processors = serial)
    long pairs = 0, walls = 0;
    const std::vector<superellipsoid::StepContact>& contacts = step_->contacts();
    for (const superellipsoid::StepContact& c : contacts)
    {
        if (owned_[c.a])
        {
            ++(c.b >= 0 ? pairs : walls);
        }
    }
    diag_.pairContacts = before.pairContacts + pairs;
    diag_.wallContacts = before.wallContacts + walls;

    if (!Pstream::parRun())
    {
        return;
    }

    // Keys of the records an own parcel uses (shipped if it leaves)
    ownedPairs_.clear();
    const std::vector<superellipsoid::Particle>& ps = system_.particles;
    for (const superellipsoid::CandidatePair& cp : step_->candidatePairs())
    {
        if (owned_[cp.i] || owned_[cp.j])
        {
            ownedPairs_.emplace_back(ps[cp.i].id, ps[cp.j].id);
        }
    }
    for (const superellipsoid::StepContact& c : contacts)
    {
        if (c.b < 0 && owned_[c.a])
        {
            ownedPairs_.emplace_back(ps[c.a].id, -1 - long(c.face));
        }
    }
}


std::vector<superellipsoid::PairRecord>
Foam::superellipsoidCollisionModel::gatheredRecords() const
{
    std::vector<superellipsoid::PairRecord> records = step_->pairCache().records();
    if (Pstream::parRun())
    {
        // Records with an own parcel (owners of both partners hold equal
        // copies; a processor that saw a pair only as ghosts may not)
        const auto own = [this](long id)
        {
            return std::binary_search(ownedIds_.begin(), ownedIds_.end(), id);
        };
        List<scalarList> all(Pstream::nProcs());
        scalarList& mine = all[Pstream::myProcNo()];
        mine.setSize(label(records.size())*recordSize);
        label k = 0;
        for (const superellipsoid::PairRecord& r : records)
        {
            long first = 0, second = 0;
            const bool wall = superellipsoid::PairCache::decodeKey(r.key, first, second);
            if (own(first) || (!wall && own(second)))
            {
                packRecord(r.key, r, mine, k);
            }
        }
        mine.setSize(k);
        Pstream::gatherList(all);
        Pstream::scatterList(all);
        records.clear();
        for (const scalarList& buf : all)
        {
            for (label j = 0; j < buf.size(); )
            {
                superellipsoid::PairRecord r;
                r.key = unpackRecord(buf, j, r);
                records.push_back(r);
            }
        }
    }
    sortUniqueBy
    (
        records,
        [](const superellipsoid::PairRecord& r) { return r.key; }
    );
    return records;
}


Foam::label Foam::superellipsoidCollisionModel::nSubSteps(const scalar Dt) const
{
    label n = 1;
    try
    {
        n = step_->chooseSubsteps(system_, Dt);
    }
    catch (const std::exception& err)
    {
        FatalErrorInFunction
            << "Collision substeps: " << err.what() << nl << exit(FatalError);
    }
    reduce(n, maxOp<label>());
    return n;
}


void Foam::superellipsoidCollisionModel::endStep(const scalar time)
{
    step_->pairCache().dropUntouched();

    // Energies of the own parcels (system_ also holds ghosts)
    scalar eTrans = 0, eRot = 0;
    for (const superellipsoid::Particle& p : local_)
    {
        eTrans += 0.5*p.mass*p.velocity.squaredNorm();
        eRot += 0.5*p.angularVelocity.dot(p.principalMoments.cwiseProduct(p.angularVelocity));
    }

    // Counts of this processor's parcels: summed over processors
    label truncated = truncatedDisplacements_;
    label backstops = wallBackstops_;
    scalar ghosts = exchangesThisStep_ ? scalar(ghostsThisStep_)/exchangesThisStep_ : 0;
    scalar exchangeTime = exchangeTime_;
    scalar waitTime = waitTime_;
    label records = recordsSent_;

    if (Pstream::parRun())
    {
        // Sums over processors; the touching-contact counts are exact
        // (finishSubstep), the work counters (candidates, detections,
        // Newton iterations, impulses) count a contact between an own
        // parcel and a ghost on both processors
        superellipsoid::CollisionDiagnostics& d = diag_;
        scalarList sums
        ({
            scalar(d.pairContacts), scalar(d.wallContacts),
            scalar(d.pairCollisions), scalar(d.wallCollisions),
            scalar(d.sweepCapHits), scalar(d.restingCapHits),
            scalar(d.restingImpulses), scalar(d.candidatePairs),
            scalar(d.obbRejections), scalar(d.localMinimumRestarts),
            scalar(d.detection.detections), scalar(d.detection.touching),
            scalar(d.detection.separated), scalar(d.detection.failures),
            scalar(d.detection.fallbacks), scalar(d.detection.newtonIterations),
            scalar(d.wallDetection.detections), scalar(d.wallDetection.touching),
            scalar(d.wallDetection.separated), scalar(d.wallDetection.failures),
            scalar(d.wallDetection.fallbacks), scalar(d.wallDetection.newtonIterations),
            eTrans, eRot, scalar(truncated), scalar(backstops), scalar(ghosts),
            scalar(recordsSent_)
        });
        scalarList maxima
        ({
            scalar(d.substeps), scalar(d.maxSweeps), scalar(d.maxRestingSweeps),
            scalar(d.detection.maxIterations), scalar(d.wallDetection.maxIterations),
            d.maxOverlapRatio, exchangeTime, waitTime
        });
        Pstream::listCombineGather(sums, plusEqOp<scalar>());
        Pstream::listCombineScatter(sums);
        Pstream::listCombineGather(maxima, maxEqOp<scalar>());
        Pstream::listCombineScatter(maxima);

        label k = 0;
        d.pairContacts = long(sums[k++]); d.wallContacts = long(sums[k++]);
        d.pairCollisions = long(sums[k++]); d.wallCollisions = long(sums[k++]);
        d.sweepCapHits = long(sums[k++]); d.restingCapHits = long(sums[k++]);
        d.restingImpulses = long(sums[k++]); d.candidatePairs = long(sums[k++]);
        d.obbRejections = long(sums[k++]); d.localMinimumRestarts = long(sums[k++]);
        for (superellipsoid::ContactCounters* c : {&d.detection, &d.wallDetection})
        {
            c->detections = long(sums[k++]); c->touching = long(sums[k++]);
            c->separated = long(sums[k++]); c->failures = long(sums[k++]);
            c->fallbacks = long(sums[k++]); c->newtonIterations = long(sums[k++]);
        }
        eTrans = sums[k++]; eRot = sums[k++];
        truncated = label(sums[k++]); backstops = label(sums[k++]);
        ghosts = sums[k++];
        records = label(sums[k++]);

        k = 0;
        d.substeps = int(maxima[k++]); d.maxSweeps = int(maxima[k++]);
        d.maxRestingSweeps = int(maxima[k++]);
        d.detection.maxIterations = int(maxima[k++]);
        d.wallDetection.maxIterations = int(maxima[k++]);
        d.maxOverlapRatio = maxima[k++];
        exchangeTime = maxima[k++];
        waitTime = maxima[k++];
    }
    diag_.translationalEnergy = eTrans;
    diag_.rotationalEnergy = eRot;

    // At rest: kinetic energy below stopAtRest of its peak (after the
    // peak). The energies are the global sums, so every processor decides
    // alike. The run ends with THIS time step, which is written: the
    // parcels are final here, writeAndEnd writes now and marks the step a
    // write time, so the solver's runTime.write() at the end of the step
    // writes it again with the fluid solved (stopAt writeNow would only
    // act at the next time increment, one step later)
    const scalar energy = eTrans + eRot;
    peakEnergy_ = max(peakEnergy_, energy);
    if (stopAtRest_ > 0 && !stopSet_ && peakEnergy_ > 0 && energy < stopAtRest_*peakEnergy_)
    {
        stopSet_ = true;
        Info<< "    collisions (" << modelName_ << "): at rest at time " << time
            << " (kinetic energy " << energy/peakEnergy_ << " of its peak < stopAtRest "
            << stopAtRest_ << "): the run ends with this time step" << endl;
        const_cast<Time&>(mesh_.time()).writeAndEnd();
    }

    Info<< "    collisions (" << modelName_ << "): "
        << diag_.summary().c_str()
        << ", truncated overlap displacements " << truncated
        << ", wall backstops " << backstops;
    if (Pstream::parRun())
    {
        Info<< ", ghosts " << ghosts << ", contact records sent " << records
            << ", halo exchange " << exchangeTime << " s (waiting "
            << waitTime << " s)";
    }
    Info<< endl;
    if (backstops)
    {
        WarningInFunction
            << backstops << " parcel centre(s) reached a wall face at time "
            << time << ": the patch interaction model acted as backstop"
            << " (collision substeps too large?)" << endl;
    }

    if (csv_.valid())
    {
        csv_() << time << ',' << diag_.csvRow().c_str() << ','
            << truncated << ',' << backstops << ',' << ghosts << endl;
    }

    diag_ = superellipsoid::CollisionDiagnostics();
    truncatedDisplacements_ = 0;
    wallBackstops_ = 0;
    ghostsThisStep_ = 0;
    exchangesThisStep_ = 0;
    exchangeTime_ = 0;
    waitTime_ = 0;
    recordsSent_ = 0;
}


// ************************************************************************* //
