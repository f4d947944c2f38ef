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

    // Gravity acts through the cloud's forces (tracking), not the core
    settings_.gravity = superellipsoid::Vector3::Zero();

    initialise(modelDict);
}


// * * * * * * * * * * * * * * * Member Functions  * * * * * * * * * * * * * //

void Foam::superellipsoidCollisionModels::softContact::collide(const scalar h)
{
    try
    {
        // Soft contact: only the forces at the current positions are
        // wanted. CollisionStep::softForces is private, so the velocity
        // Verlet substep is called on a copy shifted back by one drift
        // (no force, no gravity: its first kick is zero and its drift
        // brings the copy exactly to the current pose; the drift of
        // the free rotation is time-reversible). Only contactForce and
        // contactTorque are used by the cloud.
        poses_.resize(system_.particles.size());
        for (std::size_t i = 0; i < system_.particles.size(); ++i)
        {
            superellipsoid::Particle& p = system_.particles[i];
            poses_[i] = p.pose;
            p.externalForce.setZero();
            p.externalTorque.setZero();
            p.contactForce.setZero();
            p.contactTorque.setZero();
            p.pose.position -= h*p.velocity;
            superellipsoid::RotationalState s{p.pose.orientation, p.angularVelocity};
            superellipsoid::driftFreeRotation(s, p.principalMoments, -h);
            p.pose.orientation = s.orientation.normalized();
            p.angularVelocity = s.angularVelocity;
        }
        velocities_.resize(system_.particles.size());
        for (std::size_t i = 0; i < system_.particles.size(); ++i)
        {
            velocities_[i] = system_.particles[i].velocity;
        }

        const superellipsoid::CollisionDiagnostics before = diag_;
        step_->softSubstep(system_, h, diag_);
        finishSubstep(before);

        for (std::size_t i = 0; i < system_.particles.size(); ++i)
        {
            superellipsoid::Particle& p = system_.particles[i];
            p.pose = poses_[i];
            p.velocity = velocities_[i];
        }
    }
    catch (const std::exception& err)
    {
        FatalErrorInFunction
            << "Collision step failed at time " << mesh_.time().timeName()
            << ": " << err.what() << nl << exit(FatalError);
    }
}


// ************************************************************************* //
