/*---------------------------------------------------------------------------*\
    superellipsoidFoam: the per-processor restart file of the contact
    history (see the header).
\*---------------------------------------------------------------------------*/

#include "superellipsoidContactHistory.H"
#include "superellipsoidContactRecords.H"
#include "Time.H"
#include "cloud.H"

// * * * * * * * * * * * * * * Static Data Members * * * * * * * * * * * * * //

const Foam::word Foam::superellipsoidContactHistory::objectName
(
    "superellipsoidContacts"
);


// * * * * * * * * * * * * * * * Member Functions  * * * * * * * * * * * * * //

Foam::IOobject Foam::superellipsoidContactHistory::io
(
    const objectRegistry& mesh,
    const word& cloudName,
    const IOobject::readOption r
)
{
    return IOobject
    (
        objectName,
        mesh.time().timeName(),
        "uniform"/cloud::prefix/cloudName,
        mesh,
        r,
        IOobject::NO_WRITE,
        false
    );
}


Foam::superellipsoidContactHistory::superellipsoidContactHistory
(
    const IOobject& io,
    const dictionary& entries,
    const std::vector<superellipsoid::PairRecord>& records
)
:
    localIOdictionary(io, entries),
    records_(records)
{}


bool Foam::superellipsoidContactHistory::writeData(Ostream& os) const
{
    localIOdictionary::writeData(os);
    os.writeEntry("nRecords", label(records_.size()));
    os.writeEntry
    (
        "recordSize", superellipsoidContactRecords::recordSize
    );
    os.writeKeyword("records");
    superellipsoidContactRecords::writeWords(os, records_);
    os  << token::END_STATEMENT << nl;
    return os.good();
}


// ************************************************************************* //
