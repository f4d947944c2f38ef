/*---------------------------------------------------------------------------*\
    superellipsoidFoam: superellipsoidHaloExchange (see the header).
\*---------------------------------------------------------------------------*/

#include "superellipsoidHaloExchange.H"
#include "superellipsoidPeriodicImages.H"
#include "superellipsoidContactRecords.H"
#include "Pstream.H"
#include "PstreamBuffers.H"
#include "processorPolyPatch.H"
#include "clockTime.H"

#include <algorithm>

namespace contactRecords = Foam::superellipsoidContactRecords;

namespace Foam
{
    defineTypeNameAndDebug(superellipsoidHaloExchange, 0);
}


// * * * * * * * * * * * * * * * Local Functions * * * * * * * * * * * * * //

namespace
{

//- Doubles per particle in the all-gather: id, shape, position (3),
//  quaternion (4), velocity (3), omega' (3), mass, moments (3), external
//  force (3) and resistance (9): the body force g + (F - C v)/m of a
//  contact's resting speed and of the substep count, and the ghost's move,
//  must be the owner's, buoyancy and drag included
constexpr int particleRecord = 31;


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
    for (int i = 0; i < 3; ++i) buf[k++] = p.externalForce[i];
    for (int i = 0; i < 9; ++i) buf[k++] = p.externalResistance(i);
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
    for (int i = 0; i < 3; ++i) p.externalForce[i] = buf[k++];
    for (int i = 0; i < 9; ++i) p.externalResistance(i) = buf[k++];
    return p;
}

//- Finish the sends of pBufs: sizes received per processor (serial, with
//  periodic images only: nothing is sent, all zero)
Foam::labelList finishedSends(Foam::PstreamBuffers& pBufs)
{
    Foam::labelList recvSizes(Foam::Pstream::nProcs(), Foam::Zero);
    if (Foam::Pstream::parRun())
    {
        pBufs.finishedSends(recvSizes);
    }
    return recvSizes;
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

//- Does a parcel of bounding radius r at x reach box: within r plus the
//  box's largest bounding radius (necessary for touching any of its
//  parcels; margin 1e-9 relative)
bool reaches
(
    const superellipsoid::Vector3& x,
    const double r,
    const Foam::superellipsoidHaloExchange::ProcessorBox& box
)
{
    if (box[6] < 0) return false;
    const double reach = (r + box[6])*(1 + 1e-9);
    return distanceSqr(x, &box[0], &box[3]) <= reach*reach;
}

} // End anonymous namespace


// * * * * * * * * * * * * Private Member Functions  * * * * * * * * * * * //

Foam::List<Foam::superellipsoidHaloExchange::ProcessorBox>
Foam::superellipsoidHaloExchange::gatherBoxes
(
    const std::vector<superellipsoid::Particle>& local,
    const std::vector<superellipsoid::Superellipsoid>& shapes
)
{
    List<ProcessorBox> boxes(Pstream::nProcs());
    ProcessorBox& box = boxes[Pstream::myProcNo()];
    for (int i = 0; i < 3; ++i)
    {
        box[i] = GREAT;
        box[3 + i] = -GREAT;
    }
    box[6] = -1;
    for (const superellipsoid::Particle& p : local)
    {
        for (int i = 0; i < 3; ++i)
        {
            box[i] = min(box[i], p.pose.position[i]);
            box[3 + i] = max(box[3 + i], p.pose.position[i]);
        }
        box[6] = max(box[6], shapes[p.shapeIndex].boundingRadius());
    }

    // The first synchronisation point of the substep: its time is mostly
    // waiting for the slowest processor (load imbalance)
    const clockTime waitTimer;
    if (Pstream::parRun())
    {
        Pstream::gatherList(boxes);
        Pstream::scatterList(boxes);
    }
    counters_.waitTime += waitTimer.elapsedTime();
    return boxes;
}


Foam::List<Foam::scalarList> Foam::superellipsoidHaloExchange::packGhosts
(
    const std::vector<superellipsoid::Particle>& local,
    const std::vector<superellipsoid::Superellipsoid>& shapes,
    const List<ProcessorBox>& boxes
) const
{
    const label me = Pstream::myProcNo();
    const auto isGhostOf = [&](const superellipsoid::Particle& p, const label j)
    {
        return j != me
            && reaches(p.pose.position, shapes[p.shapeIndex].boundingRadius(), boxes[j]);
    };

    // Count, size the buffers, then pack
    List<scalarList> ghostBuf(boxes.size());
    labelList nGhost(boxes.size(), Zero);
    for (const superellipsoid::Particle& p : local)
    {
        forAll(boxes, j)
        {
            if (isGhostOf(p, j)) ++nGhost[j];
        }
    }
    forAll(ghostBuf, j)
    {
        ghostBuf[j].setSize(nGhost[j]*particleRecord);
        nGhost[j] = 0;
    }
    for (const superellipsoid::Particle& p : local)
    {
        forAll(boxes, j)
        {
            if (isGhostOf(p, j)) pack(p, ghostBuf[j], nGhost[j]);
        }
    }
    return ghostBuf;
}


Foam::List<Foam::DynamicList<Foam::scalar>>
Foam::superellipsoidHaloExchange::packImages
(
    const std::vector<superellipsoid::Particle>& local,
    const std::vector<superellipsoid::Superellipsoid>& shapes,
    const List<ProcessorBox>& boxes,
    std::vector<superellipsoid::Particle>& ownImages
) const
{
    // Own parcel p under transform k, to every processor (this one too)
    // whose box it reaches, by the same test as a ghost
    const label me = Pstream::myProcNo();
    List<DynamicList<scalar>> imageBuf(boxes.size());
    for (const superellipsoid::Particle& p : local)
    {
        const double r = shapes[p.shapeIndex].boundingRadius();
        images_.checkId(p);
        for (std::size_t k = 0; k < images_.size(); ++k)
        {
            const superellipsoid::Particle image = images_.image(p, k);
            forAll(boxes, j)
            {
                if (!reaches(image.pose.position, r, boxes[j]))
                {
                    continue;
                }
                if (j == me)
                {
                    ownImages.push_back(image);
                    continue;
                }
                scalarList one(particleRecord);
                label m = 0;
                pack(image, one, m);
                imageBuf[j].append(one);
            }
        }
    }
    return imageBuf;
}


Foam::scalarList Foam::superellipsoidHaloExchange::packLostRecords
(
    const std::vector<superellipsoid::Particle>& local,
    superellipsoid::PairCache& cache
)
{
    // The parcels that tracking moved to another processor since the last
    // exchange
    std::vector<long> ids(local.size());
    for (std::size_t i = 0; i < local.size(); ++i) ids[i] = local[i].id;
    std::sort(ids.begin(), ids.end());
    std::vector<long> lost;
    std::set_difference
    (
        ownedIds_.begin(), ownedIds_.end(), ids.begin(), ids.end(),
        std::back_inserter(lost)
    );
    ownedIds_.swap(ids);

    // Their records (the new owner overwrites its copy, which misses the
    // part of the contact it did not see)
    const auto isLost = [&lost](long id)
    {
        return std::binary_search(lost.begin(), lost.end(), id);
    };
    std::vector<superellipsoid::PairRecord> records;
    for (const std::pair<long, long>& k : ownedPairs_)
    {
        if (!isLost(k.first) && !(k.second >= 0 && isLost(k.second)))
        {
            continue;
        }
        const std::uint64_t key = k.second >= 0
          ? superellipsoid::PairCache::pairKey(k.first, k.second)
          : superellipsoid::PairCache::wallKey(k.first, int(-1 - k.second));
        const superellipsoid::PairRecord* rec = cache.find(key);
        if (rec)
        {
            records.push_back(*rec);
            records.back().key = key;
        }
    }
    contactRecords::sortUnique(records);

    scalarList recordBuf(label(records.size())*contactRecords::recordSize);
    label k = 0;
    for (const superellipsoid::PairRecord& r : records)
    {
        contactRecords::pack(r, recordBuf, k);
    }
    counters_.recordsSent += label(records.size());
    return recordBuf;
}


Foam::label Foam::superellipsoidHaloExchange::sendAndReceive
(
    const List<scalarList>& ghostBuf,
    const List<DynamicList<scalar>>& imageBuf,
    const scalarList& recordBuf,
    superellipsoid::PairCache& cache,
    std::vector<superellipsoid::Particle>& all,
    std::vector<label>& ghostHome
) const
{
    // Ghosts and images to the processors within reach, records to the
    // mesh neighbours (all three lists to every destination that gets
    // anything)
    const label me = Pstream::myProcNo();
    boolList sendTo(ghostBuf.size(), false);
    forAll(ghostBuf, j)
    {
        sendTo[j] = ghostBuf[j].size() > 0 || imageBuf[j].size() > 0;
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
            toProc << ghostBuf[j] << recordBuf << imageBuf[j];
        }
    }
    const labelList recvSizes(finishedSends(pBufs));

    label nReceived = 0;
    forAll(recvSizes, j)
    {
        if (j == me || recvSizes[j] == 0) continue;
        UIPstream fromProc(j, pBufs);
        const scalarList ghosts(fromProc);
        const scalarList recs(fromProc);
        const scalarList images(fromProc);
        for (const scalarList* buf : {&ghosts, &images})
        {
            for (label k = 0; k < buf->size(); )
            {
                all.push_back(unpack(*buf, k));
                ghostHome.push_back(j);
                ++nReceived;
            }
        }
        for (label k = 0; k < recs.size(); )
        {
            superellipsoid::PairRecord rec = contactRecords::unpack(recs, k);
            superellipsoid::PairRecord& mine = cache.acquire(rec.key);
            rec.key = mine.key;
            rec.touched = true;
            mine = rec;
        }
    }
    return nReceived;
}


void Foam::superellipsoidHaloExchange::sortById
(
    const std::vector<superellipsoid::Particle>& local,
    const std::vector<label>& ghostHome,
    std::vector<superellipsoid::Particle>& all
)
{
    const auto byId = [](const superellipsoid::Particle& a, const superellipsoid::Particle& b)
    {
        return a.id < b.id;
    };

    // The processor of each parcel in the same order
    std::vector<std::pair<long, label>> homes(all.size());
    for (std::size_t i = 0; i < all.size(); ++i)
    {
        homes[i] =
        {
            all[i].id,
            i < local.size() ? Pstream::myProcNo() : ghostHome[i - local.size()]
        };
    }

    // A serial cloud injects by id: nothing to sort then
    if (!std::is_sorted(all.begin(), all.end(), byId))
    {
        std::sort(all.begin(), all.end(), byId);
        std::sort(homes.begin(), homes.end());
    }
    home_.resize(all.size());
    for (std::size_t i = 0; i < all.size(); ++i)
    {
        home_[i] = homes[i].second;
    }

    owned_.assign(all.size(), 0);
    localToGlobal_.resize(local.size());
    for (std::size_t i = 0; i < local.size(); ++i)
    {
        // Own parcels in id order keep their positions: try i first
        const auto it =
            i < all.size() && all[i].id == local[i].id
          ? all.begin() + i
          : std::lower_bound
            (
                all.begin(), all.end(), local[i].id,
                [](const superellipsoid::Particle& p, long id) { return p.id < id; }
            );
        localToGlobal_[i] = label(it - all.begin());
        owned_[localToGlobal_[i]] = 1;
    }
}


// * * * * * * * * * * * * * * * * Constructors  * * * * * * * * * * * * * * //

Foam::superellipsoidHaloExchange::superellipsoidHaloExchange
(
    const fvMesh& mesh,
    const superellipsoidPeriodicImages& images
)
:
    images_(images),
    meshNeighbours_(),
    owned_(),
    home_(),
    localToGlobal_(),
    ownedIds_(),
    ownedPairs_(),
    counters_(),
    reductionsBefore_(0)
{
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


// * * * * * * * * * * * * * * * Member Functions  * * * * * * * * * * * * * //

bool Foam::superellipsoidHaloExchange::active() const
{
    return Pstream::parRun() || !images_.empty();
}


void Foam::superellipsoidHaloExchange::exchange
(
    const std::vector<superellipsoid::Particle>& local,
    const std::vector<superellipsoid::Superellipsoid>& shapes,
    superellipsoid::PairCache& cache,
    std::vector<superellipsoid::Particle>& all
)
{
    const clockTime timer;
    all = local;
    // Processor of each received ghost, in receiving order
    std::vector<label> ghostHome;

    if (active())
    {
        const List<ProcessorBox> boxes(gatherBoxes(local, shapes));
        const List<scalarList> ghostBuf(packGhosts(local, shapes, boxes));
        std::vector<superellipsoid::Particle> ownImages;
        const List<DynamicList<scalar>> imageBuf
        (
            packImages(local, shapes, boxes, ownImages)
        );
        const scalarList recordBuf(packLostRecords(local, cache));
        for (const superellipsoid::Particle& image : ownImages)
        {
            all.push_back(image);
            ghostHome.push_back(Pstream::myProcNo());
        }
        const label nReceived =
            sendAndReceive(ghostBuf, imageBuf, recordBuf, cache, all, ghostHome);
        counters_.ghosts += nReceived;
        ++counters_.exchanges;
        if (debug)
        {
            Pout<< "superellipsoidHaloExchange: " << local.size()
                << " own parcels, ghosts received " << nReceived
                << ", records sent " << recordBuf.size()/contactRecords::recordSize
                << endl;
        }
    }

    sortById(local, ghostHome, all);
    counters_.exchangeTime += timer.elapsedTime();
}


std::vector<superellipsoid::BoundaryImpulse>
Foam::superellipsoidHaloExchange::exchangeImpulses
(
    const std::vector<superellipsoid::StepContact>& contacts
)
{
    const clockTime timer;
    const label nProcs = Pstream::nProcs();
    const label me = Pstream::myProcNo();
    constexpr int size = superellipsoid::boundaryImpulseSize;

    // The owners' impulses (8 doubles per contact) to the processors of
    // the ghosts, point to point
    std::vector<superellipsoid::BoundaryImpulse> mine;
    std::vector<int> ghost;
    superellipsoid::ownedBoundaryImpulses
    (
        contacts, owned_, mine, ghost, images_.stride(), images_.transforms()
    );
    labelList nSend(nProcs, Zero);
    for (const int b : ghost)
    {
        ++nSend[home_[b]];
    }
    List<scalarList> buf(nProcs);
    forAll(buf, j)
    {
        buf[j].setSize(nSend[j]*size);
        nSend[j] = 0;
    }
    for (std::size_t m = 0; m < mine.size(); ++m)
    {
        const label j = home_[ghost[m]];
        superellipsoid::packBoundaryImpulse(mine[m], &buf[j][nSend[j]++*size]);
    }

    // Own images' contacts stay here
    std::vector<superellipsoid::BoundaryImpulse> received;
    for (label k = 0; k < buf[me].size(); k += size)
    {
        received.push_back(superellipsoid::unpackBoundaryImpulse(&buf[me][k]));
    }
    PstreamBuffers pBufs(Pstream::commsTypes::nonBlocking);
    forAll(buf, j)
    {
        if (j != me && buf[j].size())
        {
            UOPstream toProc(j, pBufs);
            toProc << buf[j];
        }
    }
    const labelList recvSizes(finishedSends(pBufs));
    forAll(recvSizes, j)
    {
        if (j == me || recvSizes[j] == 0) continue;
        UIPstream fromProc(j, pBufs);
        const scalarList recs(fromProc);
        for (label k = 0; k < recs.size(); k += size)
        {
            received.push_back(superellipsoid::unpackBoundaryImpulse(&recs[k]));
        }
    }
    counters_.impulsesSent += label(mine.size());
    counters_.impulseTime += timer.elapsedTime();
    return received;
}


void Foam::superellipsoidHaloExchange::rememberOwnedContacts
(
    const std::vector<superellipsoid::Particle>& all,
    const std::vector<superellipsoid::CandidatePair>& pairs,
    const std::vector<superellipsoid::StepContact>& contacts
)
{
    ownedPairs_.clear();
    for (const superellipsoid::CandidatePair& cp : pairs)
    {
        if (owned_[cp.i] || owned_[cp.j])
        {
            ownedPairs_.emplace_back(all[cp.i].id, all[cp.j].id);
        }
    }
    for (const superellipsoid::StepContact& c : contacts)
    {
        if (c.b < 0 && owned_[c.a])
        {
            ownedPairs_.emplace_back(all[c.a].id, -1 - c.idB);
        }
    }
}


void Foam::superellipsoidHaloExchange::countReductions(const long total)
{
    counters_.sweepReductions = total - reductionsBefore_;
    reductionsBefore_ = total;
}


// ************************************************************************* //
