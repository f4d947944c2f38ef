/*---------------------------------------------------------------------------*\
    superellipsoidFoam: softContact superellipsoid collision model (see header).
\*---------------------------------------------------------------------------*/

#include "softContactSuperellipsoidCollision.H"
#include "addToRunTimeSelectionTable.H"
#include "superellipsoidDictionaryChecks.H"

#include "dynamics/RigidBodyRotation.H"

namespace Foam
{
namespace superellipsoidCollisionModels
{
    defineTypeNameAndDebug(softContact, 0);
    addToRunTimeSelectionTable(superellipsoidCollisionModel, softContact, dictionary);
}
}


// * * * * * * * * * * * * * Static Member Functions * * * * * * * * * * * //

superellipsoid::ContactMaterial
Foam::superellipsoidCollisionModels::softContact::readMaterial
(
    const Foam::dictionary& dict,
    const superellipsoid::ContactMaterial& defaults
)
{
    superellipsoid::ContactMaterial m = defaults;
    superellipsoidDictionaryChecks::checkKeywords
    (
        dict, {"youngsModulus", "poissonsRatio"}, "softContact wall material"
    );
    if (dict.found("youngsModulus"))
    {
        m.youngsModulus = superellipsoidCollisionModel::readPositive(dict, "youngsModulus");
        m.rigid = false;
    }
    if (dict.found("poissonsRatio"))
    {
        m.poissonRatio = superellipsoidCollisionModel::readBounded(dict, "poissonsRatio", -0.999, 0.5);
    }
    return m;
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

    settings_.particleMaterial = superellipsoid::ContactMaterial::elastic
    (
        readPositive(dict, "youngsModulus"),
        readBounded(dict, "poissonsRatio", -0.999, 0.5)
    );
    settings_.wallMaterial = settings_.particleMaterial;
    if (dict.found("wall"))
    {
        settings_.wallMaterial =
            readMaterial(dict.subDict("wall"), settings_.particleMaterial);
    }
    settings_.softLaw.restitution = readBounded
    (
        dict, "epsilonN",
        superellipsoid::SoftContactLaw::minimumRestitution, 1
    );
    const scalar mu = dict.found("mu") ? readBounded(dict, "mu", 0, GREAT) : 0;
    settings_.softLaw.staticFriction = mu;
    settings_.softLaw.dynamicFriction = mu;
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
    const label steps =
        superellipsoidDictionaryChecks::readLabelOrDefault(dict, "stepsPerContact", 20);
    if (steps < superellipsoid::SoftContactLaw::minimumStepsPerContact)
    {
        FatalIOErrorInFunction(dict)
            << "Bad entry stepsPerContact " << steps << ": must be >= "
            << superellipsoid::SoftContactLaw::minimumStepsPerContact
            << nl << exit(FatalIOError);
    }
    settings_.softLaw.stepsPerContact = steps;
    settings_.softReferenceSpeed =
        dict.found("referenceSpeed") ? readPositive(dict, "referenceSpeed") : 1.0;

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
