/*---------------------------------------------------------------------------*\
    superellipsoidFoam: softContact superellipsoid collision model (see header).
\*---------------------------------------------------------------------------*/

#include "softContactSuperellipsoidCollision.H"
#include "addToRunTimeSelectionTable.H"
#include "superellipsoidDictionaryChecks.H"
#include "superellipsoidSettingChecks.H"

#include "dynamics/RigidBodyRotation.H"

namespace Foam
{
namespace superellipsoidCollisionModels
{
    defineTypeNameAndDebug(softContact, 0);
    addToRunTimeSelectionTable(superellipsoidCollisionModel, softContact, dictionary);
}
}


// * * * * * * * * * * * * Private Member Functions  * * * * * * * * * * * //

void Foam::superellipsoidCollisionModels::softContact::readWallMaterial
(
    const dictionary& dict
)
{
    // Defaults: the particles' material; a given modulus makes the wall
    // elastic
    superellipsoidDictionaryChecks::checkKeywords
    (
        dict, {"youngsModulus", "poissonsRatio"}, "softContact wall material"
    );
    superellipsoid::ContactMaterial& m = settings_.wallMaterial;
    using superellipsoidSettingChecks::readSetting;
    if (dict.found("youngsModulus"))
    {
        m.rigid = false;
    }
    readSetting(dict, "youngsModulus", m.youngsModulus, settings_);
    readSetting(dict, "poissonsRatio", m.poissonRatio, settings_);
}


void Foam::superellipsoidCollisionModels::softContact::readNormalLaw
(
    const dictionary& dict
)
{
    const word law(dict.getOrDefault<word>("normalLaw", "hertz"));
    if (law == "hertz")
    {
        settings_.softLaw.normalLaw = superellipsoid::NormalForceLaw::hertz;
    }
    else if (law == "hooke")
    {
        settings_.softLaw.normalLaw = superellipsoid::NormalForceLaw::hooke;
    }
    else
    {
        FatalIOErrorInFunction(dict)
            << "Bad entry normalLaw " << law << ": expected hertz or hooke"
            << nl << exit(FatalIOError);
    }
}


// * * * * * * * * * * * * * * * * Constructors  * * * * * * * * * * * * * * //

Foam::superellipsoidCollisionModels::softContact::softContact
(
    const dictionary& modelDict,
    const fvMesh& mesh,
    const superellipsoidShapeTable& shapes,
    const vector& g
)
:
    superellipsoidCollisionModel
    (
        typeName, superellipsoid::CollisionModel::softContact, modelDict, mesh, shapes
    )
{
    superellipsoidDictionaryChecks::rejectIfFound
    (
        modelDict, "restingContacts",
        "the resting-contact solver belongs to model impulse"
    );
    const dictionary& dict = modelDict.subDict("softContactCoeffs");
    superellipsoidDictionaryChecks::checkKeywords
    (
        dict,
        {
            "youngsModulus", "poissonsRatio", "epsilonN", "mu", "normalLaw",
            "stepsPerContact", "referenceSpeed", "wall"
        },
        "softContact law"
    );

    // Each key read once into settings_ and checked by the core
    // (superellipsoidSettingChecks.H); the particles' material and the
    // restitution are required
    using superellipsoidSettingChecks::readEntry;
    using superellipsoidSettingChecks::readSetting;
    const auto validate = [this]()
    {
        superellipsoidSettingChecks::validateSettings(settings_);
    };
    superellipsoid::ContactMaterial& particle = settings_.particleMaterial;
    readEntry(dict, "youngsModulus", particle.youngsModulus, validate);
    readEntry(dict, "poissonsRatio", particle.poissonRatio, validate);
    settings_.wallMaterial = particle;
    if (dict.found("wall"))
    {
        readWallMaterial(dict.subDict("wall"));
    }
    readEntry(dict, "epsilonN", settings_.softLaw.restitution, validate);
    // mu: static and dynamic friction alike
    readSetting(dict, "mu", settings_.softLaw.staticFriction, settings_);
    settings_.softLaw.dynamicFriction = settings_.softLaw.staticFriction;
    readNormalLaw(dict);
    readSetting(dict, "stepsPerContact", settings_.softLaw.stepsPerContact, settings_);
    readSetting(dict, "referenceSpeed", settings_.softReferenceSpeed, settings_);

    // Gravity reaches the core in each parcel's fluid forcing (external
    // force of the fluid step), not as the core's gravity
    settings_.gravity = superellipsoid::Vector3::Zero();

    initialise(modelDict);
}


// * * * * * * * * * * * * * * * Member Functions  * * * * * * * * * * * * * //

void Foam::superellipsoidCollisionModels::softContact::beginFluidStep()
{
    coreCall("Contact forces of the start state", [&]()
    {
        // Not a substep: its contacts are not counted
        superellipsoid::CollisionDiagnostics uncounted;
        step_->softForcesAtState(system_, uncounted);
    });
}


void Foam::superellipsoidCollisionModels::softContact::moveSubstep
(
    const scalar h
)
{
    step_->softOpen(system_, h);
}


void Foam::superellipsoidCollisionModels::softContact::collide(const scalar h)
{
    coreCall("Collision step", [&]()
    {
        const superellipsoid::CollisionDiagnostics before = diag_;
        step_->softClose(system_, h, diag_);
        finishSubstep(before);
    });
}


// ************************************************************************* //
