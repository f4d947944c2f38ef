/*---------------------------------------------------------------------------*\
    superellipsoidFoam: impulse superellipsoid collision model (see header).
\*---------------------------------------------------------------------------*/

#include "impulseSuperellipsoidCollision.H"
#include "eigenConversions.H"
#include "addToRunTimeSelectionTable.H"
#include "superellipsoidDictionaryChecks.H"
#include "superellipsoidSettingChecks.H"

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
    // Ranges: superellipsoid::validateImpulseLaw (superellipsoidSettingChecks.H)
    using superellipsoidSettingChecks::readLawEntry;
    if (dict.found("epsilonN"))
    {
        law = readLawEntry
        (
            dict, "epsilonN",
            [&](const scalar e) { superellipsoid::ImpulseLaw l = law; l.normalRestitution = e; return l; }
        );
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
    const scalar epsN = law.normalRestitution;
    if (hasEpsT)
    {
        law = readLawEntry
        (
            dict, "epsilonT",
            [&](const scalar e) { return superellipsoid::ImpulseLaw::withTangentialRestitution(epsN, e); }
        );
    }
    else if (hasMu)
    {
        law = readLawEntry
        (
            dict, "mu",
            [&](const scalar mu) { return superellipsoid::ImpulseLaw::withFriction(epsN, mu); }
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
    // Ranges: superellipsoid::validateCollisionSettings (superellipsoidSettingChecks.H)
    using superellipsoidSettingChecks::readSetting;
    if (dict.found("maxSweeps")) readSetting(dict, "maxSweeps", settings_.maxRestingSweeps, settings_);
    if (dict.found("tolerance")) readSetting(dict, "tolerance", settings_.restingTolerance, settings_);
    if (dict.found("speedFactor")) readSetting(dict, "speedFactor", settings_.restingSpeedFactor, settings_);
    if (dict.found("allowedOverlap")) readSetting(dict, "allowedOverlap", settings_.restingOverlap, settings_);
    if (dict.found("warmStart")) readSetting(dict, "warmStart", settings_.warmStartFactor, settings_);
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
    coreCall("Collision step", [&]()
    {
        // Impulse model, after the move (moveSubstep): detect, resolve in
        // sweeps, remove overlaps (core, [Wedel2023] Sect. 4)
        const superellipsoid::CollisionDiagnostics before = diag_;
        step_->detect(system_, diag_);
        beginVelocityPhases();
        step_->resolveSweeps(system_, diag_, h);
        endVelocityPhases();
        step_->removeOverlaps(system_);
        ++diag_.substeps;
        finishSubstep(before);
    });
}


// ************************************************************************* //
