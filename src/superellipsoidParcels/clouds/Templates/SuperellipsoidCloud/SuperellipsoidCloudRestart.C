/*---------------------------------------------------------------------------*\
    superellipsoidFoam: SuperellipsoidCloud, restart data: the bookkeeping and the collision
    model's contact history in the cloud's output properties
    (see SuperellipsoidCloud.H).
\*---------------------------------------------------------------------------*/

#include "superellipsoidContactRecords.H"

#include <stdexcept>

// * * * * * * * * * * * * * Private Member Functions  * * * * * * * * * * * //

template<class CloudType>
void Foam::SuperellipsoidCloud<CloudType>::storeRestartData()
{
    storeBookkeeping();

    dictionary& out = this->outputProperties();

    // Contact history of the collision model (records of every
    // processor's own parcels, gathered: the same on every processor)
    if (seCollision_ && seCollision_->active())
    {
        const std::vector<superellipsoid::PairRecord> records =
            seCollision_->gatheredRecords();
        dictionary contacts;
        contacts.add("model", seCollision_->modelName());
        contacts.add("idFold", idFold_);
        contacts.add("nRecords", label(records.size()));
        // superellipsoidContactRecords layout (its doubles per record:
        // absent in files of the older layout), hex-coded doubles
        contacts.add("recordSize", superellipsoidContactRecords::recordSize);
        contacts.add("records", superellipsoidContactRecords::toWords(records));
        out.set("superellipsoidContacts", contacts);
    }
}


template<class CloudType>
void Foam::SuperellipsoidCloud<CloudType>::restoreRestartData
(
    const label nReadBeforeLost
)
{
    restoreBookkeeping(nReadBeforeLost);

    const dictionary& out = this->outputProperties();
    const dictionary* contactsPtr = out.findDict("superellipsoidContacts");
    if (!contactsPtr || !seCollision_ || !seCollision_->active())
    {
        return;
    }
    const dictionary& contacts = *contactsPtr;
    if (contacts.get<word>("model") != seCollision_->modelName())
    {
        Info<< "    contact history of model "
            << contacts.get<word>("model") << " not used by model "
            << seCollision_->modelName() << endl;
        return;
    }
    const label oldFold = contacts.get<label>("idFold");
    const label n = contacts.get<label>("nRecords");
    if (!contacts.found("records"))
    {
        // An older layout: start cold (warm starts, springs rebuild)
        Info<< "    contact history in an older layout: not used" << endl;
        return;
    }
    // No recordSize: the older layout without per-point impulses (they
    // start as the total normal impulse shared evenly)
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
            << "Bad contact history: idFold " << oldFold << ", nRecords " << n
            << ", records not " << n << " x " << size
            << " hex-coded doubles: truncated or corrupt file" << nl
            << exit(FatalIOError);
    }
    if (size == superellipsoidContactRecords::legacyRecordSize)
    {
        Info<< "    contact history in the older layout: per-point"
            << " impulses shared evenly" << endl;
    }

    // Ids of the writing run (origId*oldFold + origProc) -> this run's
    const auto remap = [&](const long id)
    {
        return long(id/oldFold)*idFold_ + long(id % oldFold);
    };
    superellipsoid::PairCache& cache = seCollision_->pairCache();
    cache.clear();
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
    Info<< "    contact history: " << n << " records read from "
        << this->outputProperties().objectPath() << endl;
}



// ************************************************************************* //
