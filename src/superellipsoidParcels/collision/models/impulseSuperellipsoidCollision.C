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
    // Each key read once into law and checked by the core's
    // validateImpulseLaw (superellipsoidSettingChecks.H)
    using superellipsoidSettingChecks::readLawEntry;
    readLawEntry(dict, "epsilonN", law.normalRestitution, law);
    superellipsoidDictionaryChecks::rejectTogether
    (
        dict, "epsilonT", "mu", "give at most one tangential parameter"
    );
    if (dict.found("epsilonT"))
    {
        law = superellipsoid::ImpulseLaw::withTangentialRestitution(law.normalRestitution, 1);
        readLawEntry(dict, "epsilonT", law.tangentialRestitution, law);
    }
    else if (dict.found("mu"))
    {
        law = superellipsoid::ImpulseLaw::withFriction(law.normalRestitution, 0);
        readLawEntry(dict, "mu", law.frictionCoefficient, law);
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
        {
            "maxSweeps", "tolerance", "energyTolerance", "speedFactor",
            "allowedOverlap", "warmStart", "momentum"
        },
        "restingContacts (impulse model)"
    );
    // Each key read once into settings_ and checked by the core
    // (superellipsoidSettingChecks.H)
    using superellipsoidSettingChecks::readSetting;
    readSetting(dict, "maxSweeps", settings_.maxRestingSweeps, settings_);
    readSetting(dict, "tolerance", settings_.restingTolerance, settings_);
    readSetting(dict, "energyTolerance", settings_.restingEnergyTolerance, settings_);
    readSetting(dict, "speedFactor", settings_.restingSpeedFactor, settings_);
    readSetting(dict, "allowedOverlap", settings_.restingOverlap, settings_);
    readSetting(dict, "warmStart", settings_.warmStartFactor, settings_);
    settings_.restingMomentum =
        readSwitchOrDefault(dict, "momentum", settings_.restingMomentum);
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
        endVelocityPhases(h);
        step_->removeOverlaps(system_);
        ++diag_.substeps;
        finishSubstep(before);
    });
}


// ************************************************************************* //
