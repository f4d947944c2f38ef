/*---------------------------------------------------------------------------*\
    superellipsoidFoam: SuperellipsoidCloud, particle bookkeeping per patch (initial + injected =
    present + escaped + removed), kept across restarts
    (see SuperellipsoidCloud.H).
\*---------------------------------------------------------------------------*/

#include "wallPolyPatch.H"

// * * * * * * * * * * * * * * * Member Functions  * * * * * * * * * * * * * //

template<class CloudType>
void Foam::SuperellipsoidCloud<CloudType>::countEscape(const label patchi)
{
    if (patchi >= 0 && patchi < escapedLocal_.size())
    {
        ++escapedLocal_[patchi];
    }
}


template<class CloudType>
void Foam::SuperellipsoidCloud<CloudType>::storeBookkeeping()
{
    dictionary& out = this->outputProperties();

    // Bookkeeping: global counts, escapes per patch name
    labelList escaped(escapedLocal_);
    Pstream::listCombineGather(escaped, plusEqOp<label>());
    Pstream::listCombineScatter(escaped);
    HashTable<label, word> total(escapedBefore_);
    const polyBoundaryMesh& patches = this->mesh().boundaryMesh();
    forAll(escaped, patchi)
    {
        total(patches[patchi].name()) += escaped[patchi];
    }
    dictionary book;
    book.add("initial", nInitial_);
    book.add("removed", nRemoved_);
    dictionary esc;
    for (const word& name : total.sortedToc())
    {
        esc.add(name, total[name]);
    }
    book.add("escaped", esc);
    out.set("superellipsoidBookkeeping", book);
}


template<class CloudType>
void Foam::SuperellipsoidCloud<CloudType>::restoreBookkeeping
(
    const label nReadBeforeLost
)
{
    const dictionary& out = this->outputProperties();
    const label present = returnReduce(this->size(), sumOp<label>());
    const label lostOnReading = nReadBeforeLost - present;

    label injected = 0;
    forAll(this->injectors(), i)
    {
        injected += this->injectors()[i].parcelsAddedTotal();
    }

    const dictionary* bookPtr = out.findDict("superellipsoidBookkeeping");
    if (bookPtr)
    {
        nInitial_ = bookPtr->get<label>("initial");
        nRemoved_ = bookPtr->get<label>("removed") + lostOnReading;
        const dictionary& esc = bookPtr->subDict("escaped");
        for (const entry& e : esc)
        {
            escapedBefore_.set(e.keyword(), esc.get<label>(e.keyword()));
        }
    }
    else
    {
        // First start (or a case written before the bookkeeping): parcels
        // present that the injectors did not add are initial parcels
        nInitial_ = nReadBeforeLost - injected;
        nRemoved_ = lostOnReading;
    }
    if (lostOnReading)
    {
        WarningInFunction
            << lostOnReading << " parcel(s) of cloud " << this->name()
            << " not found in the mesh when reading time "
            << this->db().time().timeName() << ": counted as removed" << endl;
    }
}


template<class CloudType>
void Foam::SuperellipsoidCloud<CloudType>::writeBookkeeping()
{
    labelList escaped(escapedLocal_);
    Pstream::listCombineGather(escaped, plusEqOp<label>());
    Pstream::listCombineScatter(escaped);

    HashTable<label, word> total(escapedBefore_);
    const polyBoundaryMesh& patches = this->mesh().boundaryMesh();
    forAll(escaped, patchi)
    {
        total(patches[patchi].name()) += escaped[patchi];
    }
    label nEscaped = 0, nWall = 0;
    for (const word& name : total.toc())
    {
        nEscaped += total[name];
        const label patchi = patches.findPatchID(name);
        if (patchi >= 0 && isA<wallPolyPatch>(patches[patchi]))
        {
            nWall += total[name];
        }
    }

    label injected = 0;
    forAll(this->injectors(), i)
    {
        injected += this->injectors()[i].parcelsAddedTotal();
    }
    const label present = returnReduce(this->size(), sumOp<label>());
    const label imbalance = nInitial_ + injected - present - nEscaped - nRemoved_;

    Info<< nl << "Particle bookkeeping of cloud " << this->name() << " at time "
        << this->db().time().timeName() << ":" << nl
        << "    initial " << nInitial_ << " + injected " << injected
        << " = present " << present << " + escaped " << nEscaped
        << " + removed " << nRemoved_
        << (imbalance ? "  NOT BALANCED" : "  (balanced)") << nl;
    for (const word& name : total.sortedToc())
    {
        const label patchi = patches.findPatchID(name);
        Info<< "    escaped through patch " << name << " ("
            << (patchi >= 0 ? patches[patchi].type() : word("not in mesh"))
            << "): " << total[name] << nl;
    }
    Info<< "    lost through walls: " << nWall << nl << endl;

    if (imbalance || nWall)
    {
        if (checkInvariants_)
        {
            FatalErrorInFunction
                << "Particle bookkeeping of cloud " << this->name()
                << ": imbalance " << imbalance << ", " << nWall
                << " parcel(s) lost through walls" << nl << exit(FatalError);
        }
        WarningInFunction
            << "Particle bookkeeping of cloud " << this->name()
            << ": imbalance " << imbalance << ", " << nWall
            << " parcel(s) lost through walls" << endl;
    }
}



// ************************************************************************* //
