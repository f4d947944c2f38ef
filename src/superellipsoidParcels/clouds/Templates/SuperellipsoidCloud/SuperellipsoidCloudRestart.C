/*---------------------------------------------------------------------------*\
    superellipsoidFoam: SuperellipsoidCloud, restart data: the bookkeeping
    (cloud's output properties) and the collision model's contact history
    (one file per processor, superellipsoidContactHistory.H)
    (see SuperellipsoidCloud.H).
\*---------------------------------------------------------------------------*/

#include "superellipsoidContactHistory.H"
#include "superellipsoidContactRecords.H"

#include "IFstream.H"

#include <stdexcept>

// * * * * * * * * * * * * * * * Local Functions * * * * * * * * * * * * * //

namespace Foam
{
namespace superellipsoidRestart
{
    //- The records of a contact history of the current or the older
    //  layout (recordSize, or legacyRecordSize without per-point impulses:
    //  they start as the total normal impulse shared evenly), checked
    //  against idFold and nRecords; a truncated or corrupt file is a
    //  FatalIOError
    inline std::vector<superellipsoid::PairRecord> readRecords
    (
        const dictionary& contacts,
        const label oldFold,
        const label n
    )
    {
        const label size = contacts.getOrDefault<label>
        (
            "recordSize", superellipsoidContactRecords::legacyRecordSize
        );
        if
        (
            size != superellipsoidContactRecords::recordSize
         && size != superellipsoidContactRecords::legacyRecordSize
        )
        {
            FatalIOErrorInFunction(contacts)
                << "Bad entry recordSize " << size << ": expected "
                << superellipsoidContactRecords::recordSize << " (or "
                << superellipsoidContactRecords::legacyRecordSize
                << " for the older layout)" << nl << exit(FatalIOError);
        }
        std::vector<superellipsoid::PairRecord> records;
        if
        (
            oldFold < 1
         || !superellipsoidContactRecords::fromWords
            (
                contacts.get<wordList>("records"), records, size
            )
         || label(records.size()) != n
        )
        {
            FatalIOErrorInFunction(contacts)
                << "Bad contact history: idFold " << oldFold << ", nRecords "
                << n << ", records not " << n << " x " << size
                << " hex-coded doubles: truncated or corrupt file" << nl
                << exit(FatalIOError);
        }
        if (size == superellipsoidContactRecords::legacyRecordSize)
        {
            Info<< "    contact history in the older layout: per-point"
                << " impulses shared evenly" << endl;
        }
        return records;
    }
} // End namespace superellipsoidRestart
} // End namespace Foam


// * * * * * * * * * * * * * Private Member Functions  * * * * * * * * * * * //

template<class CloudType>
void Foam::SuperellipsoidCloud<CloudType>::storeRestartData()
{
    storeBookkeeping();

    // Files of older versions held the (gathered) history here
    this->outputProperties().remove("superellipsoidContacts");

    if (seCollision_ && seCollision_->active())
    {
        const std::vector<superellipsoid::PairRecord> records =
            seCollision_->records();
        dictionary entries;
        entries.add("model", seCollision_->modelName());
        entries.add("idFold", idFold_);
        entries.add("processor", Pstream::myProcNo());
        entries.add("nProcessors", Pstream::nProcs());
        superellipsoidContactHistory
        (
            superellipsoidContactHistory::io
            (
                this->mesh(), this->name(), IOobject::NO_READ
            ),
            entries,
            records
        ).writeObject
        (
            // Hex text either way: ascii, so that a serial run of the
            // reconstructed case can read every processor's file
            IOstream::ASCII,
            IOstream::currentVersion,
            this->mesh().time().writeCompression(),
            true
        );
    }
}


template<class CloudType>
Foam::label Foam::SuperellipsoidCloud<CloudType>::readContactHistory
(
    const dictionary& contacts
)
{
    if (contacts.get<word>("model") != seCollision_->modelName())
    {
        Info<< "    contact history of model "
            << contacts.get<word>("model") << " not used by model "
            << seCollision_->modelName() << endl;
        return 0;
    }
    const label oldFold = contacts.get<label>("idFold");
    const label n = contacts.get<label>("nRecords");
    if (!contacts.found("records"))
    {
        // An older layout: start cold (warm starts, springs rebuild)
        Info<< "    contact history in an older layout: not used" << endl;
        return 0;
    }
    const std::vector<superellipsoid::PairRecord> records =
        superellipsoidRestart::readRecords(contacts, oldFold, n);

    // Ids of the writing run (origId*oldFold + origProc) -> this run's
    const auto remap = [&](const long id)
    {
        return long(id/oldFold)*idFold_ + long(id % oldFold);
    };
    superellipsoid::PairCache& cache = seCollision_->pairCache();
    for (std::size_t k = 0; k < records.size(); ++k)
    {
        superellipsoid::PairRecord r = records[k];
        long first = 0, second = 0;
        const bool wall = superellipsoid::PairCache::decodeKey(r.key, first, second);
        try
        {
            r.key =
                wall
              ? superellipsoid::PairCache::wallKey(remap(first), int(second))
              : superellipsoid::PairCache::pairKey(remap(first), remap(second));
        }
        catch (const std::invalid_argument& err)
        {
            FatalIOErrorInFunction(contacts)
                << "Bad contact history record " << label(k) << ": "
                << err.what() << nl << exit(FatalIOError);
        }
        r.touched = false;
        cache.acquire(r.key) = r;
    }
    return n;
}


template<class CloudType>
void Foam::SuperellipsoidCloud<CloudType>::restoreRestartData
(
    const label nReadBeforeLost
)
{
    restoreBookkeeping(nReadBeforeLost);

    if (!seCollision_ || !seCollision_->active())
    {
        return;
    }

    // This processor's file; else the gathered history of older versions
    // in the output properties (complete on every processor)
    IOobject io = superellipsoidContactHistory::io
    (
        this->mesh(), this->name(), IOobject::READ_IF_PRESENT
    );
    seCollision_->pairCache().clear();
    label nRead = -1;
    bool otherDecomposition = false;
    fileName from = io.instance()/io.local()/io.name();
    if (io.typeHeaderOk<localIOdictionary>(false))
    {
        const localIOdictionary contacts(io);
        const label proc = contacts.getOrDefault<label>("processor", 0);
        const label nProcs = contacts.getOrDefault<label>("nProcessors", 1);
        // A serial file (decomposePar copies it to every processor) holds
        // all contacts; another processor's file only some
        otherDecomposition =
            nProcs > 1
         && (nProcs != Pstream::nProcs() || proc != Pstream::myProcNo());
        nRead = readContactHistory(contacts);

        // A serial run of a reconstructed case (reconstructPar copies
        // processor 0's file): the other processors' files where their
        // directories remain (a pair on both sides: either copy)
        if (otherDecomposition && !Pstream::parRun())
        {
            label nFiles = 1;
            for (label k = 0; k < nProcs; ++k)
            {
                const fileName f =
                    this->mesh().time().path()/("processor" + Foam::name(k))
                   /io.instance()/io.local()/io.name();
                if (k != proc && isFile(f))
                {
                    IFstream is(f);
                    nRead += readContactHistory(dictionary(is));
                    ++nFiles;
                }
            }
            otherDecomposition = nFiles < nProcs;
            Info<< "    contact history of " << nFiles << " of " << nProcs
                << " processors (processor*/" << io.instance()/io.local()
                << ')' << endl;
        }
    }
    else if
    (
        const dictionary* contactsPtr =
            this->outputProperties().findDict("superellipsoidContacts")
    )
    {
        nRead = readContactHistory(*contactsPtr);
        const IOdictionary& out = this->outputProperties();
        from = out.instance()/out.local()/out.name();
    }

    if (returnReduce(otherDecomposition, orOp<bool>()))
    {
        Info<< "    contact history written by another decomposition:"
            << " contacts recorded on other processors start cold" << endl;
    }
    if (returnReduce(nRead >= 0, orOp<bool>()))
    {
        Info<< "    contact history: "
            << returnReduce(max(nRead, label(0)), sumOp<label>())
            << " records read from " << (Pstream::parRun() ? "the processors' " : "")
            << from << endl;
    }
}



// ************************************************************************* //
