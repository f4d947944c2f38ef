/*---------------------------------------------------------------------------*\
    superellipsoidFoam: impulse superellipsoid collision model (see header).
\*---------------------------------------------------------------------------*/

#include "impulseSuperellipsoidCollision.H"
#include "eigenConversions.H"
#include "addToRunTimeSelectionTable.H"
#include "superellipsoidDictionaryChecks.H"

namespace Foam
{
namespace superellipsoidCollisionModels
{
    defineTypeNameAndDebug(impulse, 0);
    addToRunTimeSelectionTable(superellipsoidCollisionModel, impulse, dictionary);
}
}


// * * * * * * * * * * * * * Static Member Functions * * * * * * * * * * * //

superellipsoid::ImpulseLaw
Foam::superellipsoidCollisionModels::impulse::readLaw
(
    const Foam::dictionary& dict,
    const superellipsoid::ImpulseLaw& defaults,
    const bool isWall
)
{
    superellipsoid::ImpulseLaw law = defaults;
    if (isWall)
    {
        superellipsoidDictionaryChecks::checkKeywords
        (
            dict, {"epsilonN", "epsilonT", "mu"}, "impulse wall law"
        );
    }
    else
    {
        superellipsoidDictionaryChecks::checkKeywords
        (
            dict, {"epsilonN", "epsilonT", "mu", "wall"}, "impulse law"
        );
    }
    if (dict.found("epsilonN"))
    {
        law.normalRestitution = superellipsoidCollisionModel::readBounded(dict, "epsilonN", 0, 1);
    }
    const bool hasEpsT = dict.found("epsilonT");
    const bool hasMu = dict.found("mu");
    if (hasEpsT && hasMu)
    {
        FatalIOErrorInFunction(dict)
            << "Bad entries epsilonT " << dict.get<Foam::scalar>("epsilonT")
            << " and mu " << dict.get<Foam::scalar>("mu")
            << ": give at most one tangential parameter" << Foam::nl
            << Foam::exit(Foam::FatalIOError);
    }
    if (hasEpsT)
    {
        law = superellipsoid::ImpulseLaw::withTangentialRestitution
        (
            law.normalRestitution, superellipsoidCollisionModel::readBounded(dict, "epsilonT", -1, 1)
        );
    }
    else if (hasMu)
    {
        law = superellipsoid::ImpulseLaw::withFriction
        (
            law.normalRestitution, superellipsoidCollisionModel::readBounded(dict, "mu", 0, Foam::GREAT)
        );
    }
    return law;
}



void Foam::superellipsoidCollisionModels::impulse::readRestingContacts
(
    const Foam::dictionary& dict
)
{
    using namespace superellipsoidDictionaryChecks;
    checkKeywords
    (
        dict,
        {"maxSweeps", "tolerance", "speedFactor", "allowedOverlap", "warmStart"},
        "restingContacts (impulse model)"
    );
    // Ranges of superellipsoid::validateCollisionSettings
    if (dict.found("maxSweeps"))
    {
        const label sweeps = readLabel(dict, "maxSweeps");
        checkRange<label>(dict, "maxSweeps", sweeps, 0);
        settings_.maxRestingSweeps = sweeps;
    }
    if (dict.found("tolerance"))
    {
        settings_.restingTolerance = readBounded(dict, "tolerance", SMALL, 1);
    }
    if (dict.found("speedFactor"))
    {
        settings_.restingSpeedFactor = readBounded(dict, "speedFactor", 0, GREAT);
    }
    if (dict.found("allowedOverlap"))
    {
        settings_.restingOverlap = readBounded(dict, "allowedOverlap", 0, 1e-2);
    }
    if (dict.found("warmStart"))
    {
        settings_.warmStartFactor = readBounded(dict, "warmStart", 0, 1);
    }
}


// * * * * * * * * * * * * * * * * Constructors  * * * * * * * * * * * * * * //

Foam::superellipsoidCollisionModels::impulse::impulse
(
    const dictionary& dict,
    const fvMesh& mesh,
    const superellipsoidShapeTable& shapes,
    const vector& g
)
:
    superellipsoidCollisionModel
    (
        typeName, superellipsoid::CollisionModel::impulse, dict, mesh, shapes
    )
{
    const dictionary& coeffs = dict.optionalSubDict("impulseCoeffs");
    settings_.pairLaw = readLaw(coeffs, superellipsoid::ImpulseLaw::frictionless(1), false);
    settings_.wallLaw = settings_.pairLaw;
    if (coeffs.found("wall"))
    {
        settings_.wallLaw = readLaw(coeffs.subDict("wall"), settings_.pairLaw, true);
    }
    // Used by the core only for the substep rule and resting contacts
    settings_.gravity = superellipsoidConversions::toEigen(g);

    // Resting-contact solver (docs/collision-step.md "Resting contacts")
    if (dict.found("restingContacts"))
    {
        readRestingContacts(dict.subDict("restingContacts"));
    }

    initialise(dict);
}


// * * * * * * * * * * * * * * * Member Functions  * * * * * * * * * * * * * //

void Foam::superellipsoidCollisionModels::impulse::collide(const scalar h)
{
    try
    {
        // Impulse model: the parcels were moved by tracking; detect,
        // resolve in sweeps, remove overlaps (core, [Wedel2023] Sect. 4)
        const superellipsoid::CollisionDiagnostics before = diag_;
        step_->detect(system_, diag_);
        beginVelocityPhases();
        step_->resolveSweeps(system_, diag_, h);
        endVelocityPhases();
        step_->removeOverlaps(system_);
        ++diag_.substeps;
        finishSubstep(before);
    }
    catch (const std::exception& err)
    {
        FatalErrorInFunction
            << "Collision step failed at time " << mesh_.time().timeName()
            << ": " << err.what() << nl << exit(FatalError);
    }
}


// ************************************************************************* //
