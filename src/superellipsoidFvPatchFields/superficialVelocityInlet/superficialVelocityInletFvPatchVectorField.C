/*---------------------------------------------------------------------------*\
    superellipsoidFoam: superficialVelocityInlet (see
    superficialVelocityInletFvPatchVectorField.H).
\*---------------------------------------------------------------------------*/

#include "superficialVelocityInletFvPatchVectorField.H"
#include "addToRunTimeSelectionTable.H"
#include "volFields.H"

// * * * * * * * * * * * * * Private Member Functions  * * * * * * * * * * * //

const Foam::fvPatchScalarField&
Foam::superficialVelocityInletFvPatchVectorField::carrierFraction() const
{
    // The fraction is constructed after the velocity, so it is checked here
    // and not in the constructor
    const fileName file(internalField().objectPath());
    if (!db().foundObject<volScalarField>(alphaName_))
    {
        FatalIOError(FUNCTION_NAME, __FILE__, __LINE__, file)
            << "Bad entry alpha " << alphaName_ << " of patch "
            << patch().name() << ": no volScalarField of that name"
            << exit(FatalIOError);
    }

    const fvPatchScalarField& alphap =
        patch().lookupPatchField<volScalarField, scalar>(alphaName_);

    // A global minimum: every processor stops, also one without inlet faces
    const scalar alphaMin = gMin(alphap);
    if (alphaMin <= 0)
    {
        FatalIOError(FUNCTION_NAME, __FILE__, __LINE__, file)
            << "Bad entry alpha " << alphaName_ << " of patch "
            << patch().name() << ": carrier fraction " << alphaMin
            << " on the patch; the interstitial velocity U_s/alpha needs"
            << " alpha > 0" << exit(FatalIOError);
    }
    return alphap;
}


// * * * * * * * * * * * * * * * * Constructors  * * * * * * * * * * * * * * //

Foam::superficialVelocityInletFvPatchVectorField::
superficialVelocityInletFvPatchVectorField
(
    const fvPatch& p,
    const DimensionedField<vector, volMesh>& iF
)
:
    fixedValueFvPatchVectorField(p, iF),
    superficialVelocity_(),
    alphaName_()
{}


Foam::superficialVelocityInletFvPatchVectorField::
superficialVelocityInletFvPatchVectorField
(
    const fvPatch& p,
    const DimensionedField<vector, volMesh>& iF,
    const dictionary& dict
)
:
    fixedValueFvPatchVectorField(p, iF, dict, false),
    superficialVelocity_
    (
        PatchFunction1<vector>::New(p.patch(), "superficialVelocity", dict)
    ),
    alphaName_(dict.get<word>("alpha"))
{
    if (dict.found("value"))
    {
        fvPatchVectorField::operator=(vectorField("value", dict, p.size()));
    }
    else
    {
        fvPatchVectorField::operator=
        (
            superficialVelocity_->value(db().time().timeOutputValue())
        );
    }
}


Foam::superficialVelocityInletFvPatchVectorField::
superficialVelocityInletFvPatchVectorField
(
    const superficialVelocityInletFvPatchVectorField& ptf,
    const fvPatch& p,
    const DimensionedField<vector, volMesh>& iF,
    const fvPatchFieldMapper& mapper
)
:
    fixedValueFvPatchVectorField(ptf, p, iF, mapper),
    superficialVelocity_(ptf.superficialVelocity_.clone(p.patch())),
    alphaName_(ptf.alphaName_)
{}


Foam::superficialVelocityInletFvPatchVectorField::
superficialVelocityInletFvPatchVectorField
(
    const superficialVelocityInletFvPatchVectorField& ptf
)
:
    fixedValueFvPatchVectorField(ptf),
    superficialVelocity_(ptf.superficialVelocity_.clone(patch().patch())),
    alphaName_(ptf.alphaName_)
{}


Foam::superficialVelocityInletFvPatchVectorField::
superficialVelocityInletFvPatchVectorField
(
    const superficialVelocityInletFvPatchVectorField& ptf,
    const DimensionedField<vector, volMesh>& iF
)
:
    fixedValueFvPatchVectorField(ptf, iF),
    superficialVelocity_(ptf.superficialVelocity_.clone(patch().patch())),
    alphaName_(ptf.alphaName_)
{}


// * * * * * * * * * * * * * * * Member Functions  * * * * * * * * * * * * * //

void Foam::superficialVelocityInletFvPatchVectorField::autoMap
(
    const fvPatchFieldMapper& mapper
)
{
    fixedValueFvPatchVectorField::autoMap(mapper);
    superficialVelocity_().autoMap(mapper);
}


void Foam::superficialVelocityInletFvPatchVectorField::rmap
(
    const fvPatchVectorField& ptf,
    const labelList& addr
)
{
    fixedValueFvPatchVectorField::rmap(ptf, addr);

    const superficialVelocityInletFvPatchVectorField& tiptf =
        refCast<const superficialVelocityInletFvPatchVectorField>(ptf);

    superficialVelocity_().rmap(tiptf.superficialVelocity_(), addr);
}


void Foam::superficialVelocityInletFvPatchVectorField::updateCoeffs()
{
    if (updated())
    {
        return;
    }

    const scalar t = db().time().timeOutputValue();
    operator==(superficialVelocity_->value(t)/carrierFraction());
    fixedValueFvPatchVectorField::updateCoeffs();
}


void Foam::superficialVelocityInletFvPatchVectorField::write(Ostream& os) const
{
    fvPatchVectorField::write(os);
    superficialVelocity_->writeData(os);
    os.writeEntry("alpha", alphaName_);
    writeEntry("value", os);
}


// * * * * * * * * * * * * * * * * * * * * * * * * * * * * * * * * * * * * * //

namespace Foam
{
    makePatchTypeField
    (
        fvPatchVectorField,
        superficialVelocityInletFvPatchVectorField
    );
}

// ************************************************************************* //
