/*---------------------------------------------------------------------------*\
    superellipsoidFoam: bedStatistics (see bedStatistics.H).
\*---------------------------------------------------------------------------*/

#include "bedStatistics.H"
#include "addToRunTimeSelectionTable.H"
#include "surfaceFields.H"
#include "uniformDimensionedFields.H"
#include "volFields.H"

// * * * * * * * * * * * * * * Static Data Members * * * * * * * * * * * * * //

namespace Foam
{
namespace functionObjects
{
    defineTypeNameAndDebug(bedStatistics, 0);
    addToRunTimeSelectionTable(functionObject, bedStatistics, dictionary);
}
}


// * * * * * * * * * * * * * Private Member Functions  * * * * * * * * * * * //

Foam::scalar Foam::functionObjects::bedStatistics::patchAverage
(
    const scalarField& values,
    const scalarField& magSf
)
{
    const scalar area = returnReduce(sum(magSf), sumOp<scalar>());
    return returnReduce(sum(values*magSf), sumOp<scalar>())/max(area, VSMALL);
}


Foam::vector Foam::functionObjects::bedStatistics::patchCentroid
(
    const label patchi
) const
{
    const fvPatch& patch = mesh_.boundary()[patchi];
    const scalar area = returnReduce(sum(patch.magSf()), sumOp<scalar>());
    return returnReduce(sum(patch.Cf()*patch.magSf()), sumOp<vector>())/max(area, VSMALL);
}


const Foam::vector& Foam::functionObjects::bedStatistics::gravity() const
{
    // DPMFoam registers g with the time (meshObjects::gravity), other
    // solvers with the mesh
    const uniformDimensionedVectorField* g =
        time_.findObject<uniformDimensionedVectorField>("g");
    if (!g)
    {
        g = &mesh_.lookupObject<uniformDimensionedVectorField>("g");
    }
    return g->value();
}


Foam::label Foam::functionObjects::bedStatistics::readPatch
(
    const dictionary& dict,
    const word& keyword
) const
{
    const word name(dict.get<word>(keyword));
    const label patchi = mesh_.boundaryMesh().findPatchID(name);
    if (patchi < 0)
    {
        FatalIOErrorInFunction(dict)
            << "Bad entry " << keyword << ' ' << name
            << ": no such patch; patches: " << mesh_.boundaryMesh().names()
            << nl << exit(FatalIOError);
    }
    return patchi;
}


void Foam::functionObjects::bedStatistics::bedShape
(
    const volScalarField& alpha,
    row& r
) const
{
    const vector& g = gravity();
    const vector up(-g/max(mag(g), VSMALL));
    const vector base(patchCentroid(inlet_));
    const scalarField h((mesh_.C().primitiveField() - base) & up);
    const scalarField solid(1 - alpha.primitiveField());
    const scalarField& V = mesh_.V();

    // H = 2 <h> over the solids (Description)
    const scalar solidVolume = returnReduce(sum(solid*V), sumOp<scalar>());
    const scalar moment = returnReduce(sum(solid*V*h), sumOp<scalar>());
    r.bedHeight = solidVolume > 0 ? 2*moment/solidVolume : 0;
    r.maxSolidFraction = returnReduce(max(solid), maxOp<scalar>());

    // eps = 1 - V_s/V(H): all solids over the volume below H
    const scalar volume = volumeBelow(r.bedHeight, base, up);
    r.meanVoidage = volume > 0 ? 1 - solidVolume/volume : 1;
}


Foam::scalar Foam::functionObjects::bedStatistics::volumeBelow
(
    const scalar height,
    const point& base,
    const vector& up
) const
{
    // Each cell counts by the fraction of its vertical extent below the
    // height: exact for prismatic cells along g (a column's hex layers)
    const pointField& points = mesh_.points();
    const labelListList& cellPoints = mesh_.cellPoints();
    const scalarField& V = mesh_.V();

    scalar volume = 0;
    forAll(cellPoints, celli)
    {
        scalar low = GREAT;
        scalar high = -GREAT;
        for (const label pointi : cellPoints[celli])
        {
            const scalar h = (points[pointi] - base) & up;
            low = min(low, h);
            high = max(high, h);
        }
        const scalar below = (height - low)/max(high - low, VSMALL);
        volume += V[celli]*min(max(below, scalar(0)), scalar(1));
    }
    return returnReduce(volume, sumOp<scalar>());
}


Foam::functionObjects::bedStatistics::row
Foam::functionObjects::bedStatistics::compute() const
{
    const volScalarField& alpha = lookupObject<volScalarField>(alphaName_);
    const volScalarField& p = lookupObject<volScalarField>(pName_);
    const surfaceScalarField& phi = lookupObject<surfaceScalarField>(phiName_);
    const volScalarField& rho = lookupObject<volScalarField>(rhoName_);
    const vector& g = gravity();

    const fvPatch& in = mesh_.boundary()[inlet_];
    const fvPatch& out = mesh_.boundary()[outlet_];

    row r;
    const scalar inletArea = returnReduce(sum(in.magSf()), sumOp<scalar>());
    r.superficialVelocity =
        -returnReduce(sum(phi.boundaryField()[inlet_]), sumOp<scalar>())/max(inletArea, VSMALL);

    const scalar rhoIn = patchAverage(rho.boundaryField()[inlet_], in.magSf());
    const scalar pIn = patchAverage(p.boundaryField()[inlet_], in.magSf());
    const scalar pOut = patchAverage(p.boundaryField()[outlet_], out.magSf());
    r.pressureDrop = rhoIn*(pIn - pOut);
    r.bedPressureDrop =
        r.pressureDrop + rhoIn*(g & (patchCentroid(outlet_) - patchCentroid(inlet_)));

    bedShape(alpha, r);
    return r;
}


// * * * * * * * * * * * * * * * * Constructors  * * * * * * * * * * * * * * //

Foam::functionObjects::bedStatistics::bedStatistics
(
    const word& name,
    const Time& runTime,
    const dictionary& dict
)
:
    fvMeshFunctionObject(name, runTime, dict),
    inlet_(-1),
    outlet_(-1),
    alphaName_("alpha.air"),
    pName_("p"),
    phiName_("alphaPhi.air"),
    rhoName_("rho.air"),
    csv_()
{
    read(dict);

    Log << type() << ' ' << this->name() << ": inlet area "
        << returnReduce(sum(mesh_.boundary()[inlet_].magSf()), sumOp<scalar>())
        << " m^2, outlet area "
        << returnReduce(sum(mesh_.boundary()[outlet_].magSf()), sumOp<scalar>())
        << " m^2" << endl;

    if (Pstream::master())
    {
        const fileName dir
        (
            runTime.globalPath()/functionObject::outputPrefix/name
           /runTime.timeName()
        );
        mkDir(dir);
        csv_.reset(new OFstream(dir/"bedStatistics.csv"));
        csv_()
            << "time,superficialVelocity,pressureDrop,bedPressureDrop,"
            << "bedHeight,meanVoidage,maxSolidFraction" << endl;
    }
}


// * * * * * * * * * * * * * * * Member Functions  * * * * * * * * * * * * * //

bool Foam::functionObjects::bedStatistics::read(const dictionary& dict)
{
    fvMeshFunctionObject::read(dict);

    inlet_ = readPatch(dict, "inlet");
    outlet_ = readPatch(dict, "outlet");
    alphaName_ = dict.getOrDefault<word>("alpha", "alpha.air");
    pName_ = dict.getOrDefault<word>("p", "p");
    phiName_ = dict.getOrDefault<word>("phi", "alphaPhi.air");
    rhoName_ = dict.getOrDefault<word>("rho", "rho.air");

    for (const word& field : {alphaName_, pName_, rhoName_})
    {
        if (!foundObject<volScalarField>(field))
        {
            FatalIOErrorInFunction(dict)
                << "Bad entry: no volScalarField " << field
                << " (keywords alpha, p, rho)" << nl << exit(FatalIOError);
        }
    }
    if (!foundObject<surfaceScalarField>(phiName_))
    {
        FatalIOErrorInFunction(dict)
            << "Bad entry phi " << phiName_ << ": no surfaceScalarField of"
            << " that name" << nl << exit(FatalIOError);
    }
    return true;
}


bool Foam::functionObjects::bedStatistics::execute()
{
    return true;
}


bool Foam::functionObjects::bedStatistics::write()
{
    const row r = compute();

    Log << type() << ' ' << name() << ": U " << r.superficialVelocity
        << " m/s, dp " << r.pressureDrop << " Pa (bed " << r.bedPressureDrop
        << " Pa), bed height " << r.bedHeight << " m, voidage "
        << r.meanVoidage << ", max solid fraction " << r.maxSolidFraction
        << endl;

    if (csv_.valid())
    {
        csv_()
            << mesh_.time().timeName() << ',' << r.superficialVelocity << ','
            << r.pressureDrop << ',' << r.bedPressureDrop << ','
            << r.bedHeight << ',' << r.meanVoidage << ','
            << r.maxSolidFraction << endl;
    }
    return true;
}


// ************************************************************************* //
