/*---------------------------------------------------------------------------*\
    superellipsoidFoam: superellipsoidCollisionModel, the halo exchange of
    ghost parcels and contact records between processors, the ownership
    counts of a substep and the processor's contact records for a write
    (docs/openfoam-collisions.md "Parallel").
\*---------------------------------------------------------------------------*/

#include "superellipsoidCollisionModel.H"
#include "superellipsoidContactRecords.H"
#include "solver/BoundaryImpulses.H"
#include "Pstream.H"
#include "PstreamBuffers.H"
#include "clockTime.H"

#include <algorithm>

namespace contactRecords = Foam::superellipsoidContactRecords;

// * * * * * * * * * * * * * * * Local Functions * * * * * * * * * * * * * //

namespace
{

//- Doubles per particle in the all-gather: id, shape, position (3),
//  quaternion (4), velocity (3), omega' (3), mass, moments (3), external
//  force (3: the body force a = g + F/m of a contact's resting speed and of
//  the substep count must be the owner's, buoyancy and drag included)
constexpr int particleRecord = 22;


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
    return p;
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

} // End anonymous namespace


// * * * * * * * * * * * * * * * Member Functions  * * * * * * * * * * * * * //

void Foam::superellipsoidCollisionModel::exchangeParticles()
{
    const clockTime timer;
    std::vector<superellipsoid::Particle>& all = system_.particles;
    all = local_;
    // Processor of each received ghost, in receiving order
    std::vector<label> ghostHome;

    if (Pstream::parRun() || !cyclicTransforms_.empty())
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
            if (Pstream::parRun())
            {
                Pstream::gatherList(boxes);
                Pstream::scatterList(boxes);
            }
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

        // Periodic images (cyclics): own parcel p under transform T_k
        // (periodicImage: centre, orientation, velocity, force), id +
        // (k + 1) imageStride_, to every processor (this one too) whose box
        // it reaches, by the same test as a ghost
        List<DynamicList<scalar>> imageBuf(nProcs);
        std::vector<superellipsoid::Particle> ownImages;
        for (const superellipsoid::Particle& p : local_)
        {
            const double r = system_.shapes[p.shapeIndex].boundingRadius();
            if (p.id >= imageStride_)
            {
                FatalErrorInFunction
                    << "Parcel id " << p.id << " >= " << imageStride_
                    << ": no room for the ids of its "
                    << cyclicTransforms_.size() << " periodic images"
                    << exit(FatalError);
            }
            for (std::size_t k = 0; k < cyclicTransforms_.size(); ++k)
            {
                const superellipsoid::Particle image = superellipsoid::periodicImage
                (
                    p, cyclicTransforms_[k], p.id + long(k + 1)*imageStride_
                );
                for (label j = 0; j < nProcs; ++j)
                {
                    if (boxes[j][6] < 0) continue;
                    const double reach = (r + boxes[j][6])*(1 + 1e-9);
                    if (distanceSqr(image.pose.position, &boxes[j][0], &boxes[j][3]) > reach*reach)
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

            std::vector<superellipsoid::PairRecord> records;
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
                        records.push_back(*rec);
                        records.back().key = key;
                    }
                }
                sortUniqueBy
                (
                    records,
                    [](const superellipsoid::PairRecord& r) { return r.key; }
                );
            }
            recordBuf.setSize(label(records.size())*contactRecords::recordSize);
            label k = 0;
            for (const superellipsoid::PairRecord& r : records)
            {
                contactRecords::pack(r, recordBuf, k);
            }
            recordsSent_ += label(records.size());
        }

        // 4. Point-to-point exchange: ghosts to the processors within
        //    reach, records to the mesh neighbours (both lists to every
        //    destination that gets anything)
        boolList sendTo(nProcs, false);
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
        label nReceived = 0;
        ghostHome.clear();
        for (const superellipsoid::Particle& image : ownImages)
        {
            all.push_back(image);
            ghostHome.push_back(me);
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

        forAll(recvSizes, j)
        {
            if (j == me || recvSizes[j] == 0) continue;
            UIPstream fromProc(j, pBufs);
            const scalarList buf(fromProc);
            const scalarList recs(fromProc);
            const scalarList images(fromProc);
            for (label k = 0; k < buf.size(); )
            {
                all.push_back(unpack(buf, k));
                ghostHome.push_back(j);
                ++nReceived;
            }
            for (label k = 0; k < images.size(); )
            {
                all.push_back(unpack(images, k));
                ghostHome.push_back(j);
                ++nReceived;
            }
            for (label k = 0; k < recs.size(); )
            {
                superellipsoid::PairRecord rec = contactRecords::unpack(recs, k);
                superellipsoid::PairRecord& mine = step_->pairCache().acquire(rec.key);
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
                << nReceived << ", records sent " << recordBuf.size()/contactRecords::recordSize
                << endl;
        }
        ++exchangesThisStep_;
    }

    // Canonical order (by id): the same on every processor and in serial;
    // the processor of each parcel in the same order
    std::vector<std::pair<long, label>> homes(all.size());
    for (std::size_t i = 0; i < all.size(); ++i)
    {
        homes[i] =
        {
            all[i].id,
            i < local_.size() ? Pstream::myProcNo() : ghostHome[i - local_.size()]
        };
    }
    std::sort
    (
        all.begin(), all.end(),
        [](const superellipsoid::Particle& a, const superellipsoid::Particle& b)
        {
            return a.id < b.id;
        }
    );
    std::sort(homes.begin(), homes.end());
    home_.resize(all.size());
    for (std::size_t i = 0; i < all.size(); ++i)
    {
        home_[i] = homes[i].second;
    }

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


void Foam::superellipsoidCollisionModel::beginVelocityPhases()
{
    velocityBefore_.resize(system_.particles.size());
    for (std::size_t i = 0; i < velocityBefore_.size(); ++i)
    {
        velocityBefore_[i] = system_.particles[i].velocity;
    }
}


void Foam::superellipsoidCollisionModel::endVelocityPhases()
{
    const std::vector<superellipsoid::StepContact>& contacts = step_->contacts();
    if (Pstream::parRun() || !cyclicTransforms_.empty())
    {
        const clockTime timer;
        const label nProcs = Pstream::nProcs();
        const label me = Pstream::myProcNo();

        // The owners' impulses (8 doubles per contact) to the processors
        // of the ghosts, point to point
        std::vector<superellipsoid::BoundaryImpulse> mine;
        std::vector<int> ghost;
        superellipsoid::ownedBoundaryImpulses
        (
            contacts, owned_, mine, ghost, imageStride_, cyclicTransforms_
        );
        labelList nSend(nProcs, Zero);
        for (const int b : ghost)
        {
            ++nSend[home_[b]];
        }
        List<scalarList> buf(nProcs);
        forAll(buf, j)
        {
            buf[j].setSize(nSend[j]*superellipsoid::boundaryImpulseSize);
            nSend[j] = 0;
        }
        for (std::size_t m = 0; m < mine.size(); ++m)
        {
            const label j = home_[ghost[m]];
            superellipsoid::packBoundaryImpulse
            (
                mine[m], &buf[j][nSend[j]++*superellipsoid::boundaryImpulseSize]
            );
        }
        // Own images' contacts stay here
        std::vector<superellipsoid::BoundaryImpulse> received;
        for (label k = 0; k < buf[me].size(); k += superellipsoid::boundaryImpulseSize)
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
            for (label k = 0; k < recs.size(); k += superellipsoid::boundaryImpulseSize)
            {
                received.push_back(superellipsoid::unpackBoundaryImpulse(&recs[k]));
            }
        }
        coreCall("Boundary impulses", [&]()
        {
            boundaryImpulsesReplaced_ +=
                superellipsoid::applyBoundaryImpulses(system_, contacts, owned_, received, imageStride_);
        });
        boundaryImpulsesSent_ += label(mine.size());
        impulseExchangeTime_ += timer.elapsedTime();
    }

    const superellipsoid::ContactMomentumBalance b =
        superellipsoid::contactMomentumBalance(system_, velocityBefore_, contacts, owned_);
    for (int i = 0; i < 3; ++i)
    {
        balance_.append(b.change[i]);
    }
    for (int i = 0; i < 3; ++i)
    {
        balance_.append(b.wallImpulse[i]);
    }
    balance_.append(b.scale);
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
        // A contact with an image counts on the side that owns it
        if (owned_[c.a] && !(c.b >= 0 && superellipsoid::realId(c.idB, imageStride_) < c.idA))
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
            ownedPairs_.emplace_back(ps[c.a].id, -1 - c.idB);
        }
    }
}


std::vector<superellipsoid::PairRecord>
Foam::superellipsoidCollisionModel::records() const
{
    std::vector<superellipsoid::PairRecord> records = step_->pairCache().records();
    sortUniqueBy
    (
        records,
        [](const superellipsoid::PairRecord& r) { return r.key; }
    );
    return records;
}



// ************************************************************************* //
