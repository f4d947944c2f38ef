/*---------------------------------------------------------------------------*\
    superellipsoidFoam: superellipsoidCollisionModel (see the header).
\*---------------------------------------------------------------------------*/

#include "superellipsoidCollisionModel.H"
#include "superellipsoidShapeTable.H"
#include "eigenConversions.H"
#include "wallPolyPatch.H"
#include "Time.H"
#include "Pstream.H"

#include "dynamics/RigidBodyRotation.H"

#include <stdexcept>

// * * * * * * * * * * * * * * * Local Functions * * * * * * * * * * * * * //

namespace
{

//- Scalar entry in [lo, hi], FatalIOError naming keyword and value
Foam::scalar readBounded
(
    const Foam::dictionary& dict,
    const Foam::word& key,
    const Foam::scalar lo,
    const Foam::scalar hi
)
{
    const Foam::scalar value = dict.get<Foam::scalar>(key);
    if (!(value >= lo && value <= hi))
    {
        FatalIOErrorInFunction(dict)
            << "Bad entry " << key << ' ' << value
            << ": must lie in [" << lo << ", " << hi << "]" << Foam::nl
            << Foam::exit(Foam::FatalIOError);
    }
    return value;
}


Foam::scalar readPositive(const Foam::dictionary& dict, const Foam::word& key)
{
    const Foam::scalar value = dict.get<Foam::scalar>(key);
    if (!(value > 0))
    {
        FatalIOErrorInFunction(dict)
            << "Bad entry " << key << ' ' << value << ": must be positive"
            << Foam::nl << Foam::exit(Foam::FatalIOError);
    }
    return value;
}


//- eps_n with eps_t or mu (at most one of them): the core's ImpulseLaw
superellipsoid::ImpulseLaw readImpulseLaw
(
    const Foam::dictionary& dict,
    const superellipsoid::ImpulseLaw& defaults
)
{
    superellipsoid::ImpulseLaw law = defaults;
    if (dict.found("epsilonN"))
    {
        law.normalRestitution = readBounded(dict, "epsilonN", 0, 1);
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
            law.normalRestitution, readBounded(dict, "epsilonT", -1, 1)
        );
    }
    else if (hasMu)
    {
        law = superellipsoid::ImpulseLaw::withFriction
        (
            law.normalRestitution, readBounded(dict, "mu", 0, Foam::GREAT)
        );
    }
    return law;
}


superellipsoid::ContactMaterial readMaterial
(
    const Foam::dictionary& dict,
    const superellipsoid::ContactMaterial& defaults
)
{
    superellipsoid::ContactMaterial m = defaults;
    if (dict.found("youngsModulus"))
    {
        m.youngsModulus = readPositive(dict, "youngsModulus");
        m.rigid = false;
    }
    if (dict.found("poissonsRatio"))
    {
        m.poissonRatio = readBounded(dict, "poissonsRatio", -0.999, 0.5);
    }
    return m;
}

} // End anonymous namespace


// * * * * * * * * * * * * Private Member Functions  * * * * * * * * * * * //

void Foam::superellipsoidCollisionModel::readImpulse(const dictionary& dict)
{
    settings_.pairLaw =
        readImpulseLaw(dict, superellipsoid::ImpulseLaw::frictionless(1));
    settings_.wallLaw = settings_.pairLaw;
    if (dict.found("wall"))
    {
        settings_.wallLaw = readImpulseLaw(dict.subDict("wall"), settings_.pairLaw);
    }
}


void Foam::superellipsoidCollisionModel::readSoftContact(const dictionary& dict)
{
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
    const label steps = dict.getOrDefault<label>("stepsPerContact", 20);
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
}


// * * * * * * * * * * * * * * * * Constructors  * * * * * * * * * * * * * * //

Foam::superellipsoidCollisionModel::superellipsoidCollisionModel
(
    const dictionary& cloudDict,
    const fvMesh& mesh,
    const superellipsoidShapeTable& shapes,
    const vector& g
)
:
    mesh_(mesh),
    modelName_("none"),
    settings_(),
    step_(),
    system_(),
    wallsBuilt_(false),
    diag_(),
    truncatedDisplacements_(0),
    csv_()
{
    settings_.model = superellipsoid::CollisionModel::none;

    const dictionary* dictPtr = cloudDict.findDict("superellipsoidCollision");
    if (!dictPtr)
    {
        return;
    }
    const dictionary& dict = *dictPtr;

    modelName_ = dict.get<word>("model");
    if (modelName_ == "none")
    {
        return;
    }
    else if (modelName_ == "impulse")
    {
        settings_.model = superellipsoid::CollisionModel::impulse;
        readImpulse(dict.optionalSubDict("impulseCoeffs"));
        // Used by the core only for the substep rule and resting contacts
        settings_.gravity = superellipsoidConversions::toEigen(g);
    }
    else if (modelName_ == "softContact")
    {
        settings_.model = superellipsoid::CollisionModel::softContact;
        readSoftContact(dict.subDict("softContactCoeffs"));
        // Gravity acts through the cloud's forces (tracking), not the core
        settings_.gravity = superellipsoid::Vector3::Zero();
    }
    else
    {
        FatalIOErrorInFunction(dict)
            << "Bad entry model " << modelName_
            << ": expected impulse, softContact or none" << nl
            << exit(FatalIOError);
    }

    const label nSub = dict.getOrDefault<label>("nSubCycles", 0);
    if (nSub < 0)
    {
        FatalIOErrorInFunction(dict)
            << "Bad entry nSubCycles " << nSub
            << ": must be >= 1 (fixed) or 0 (automatic)" << nl
            << exit(FatalIOError);
    }
    settings_.fixedSubsteps = nSub;
    if (dict.found("displacementFraction"))
    {
        settings_.displacementFraction =
            readBounded(dict, "displacementFraction", SMALL, 1);
    }
    if (dict.found("maxSweeps"))
    {
        const label sweeps = dict.get<label>("maxSweeps");
        if (sweeps < 1)
        {
            FatalIOErrorInFunction(dict)
                << "Bad entry maxSweeps " << sweeps << ": must be >= 1"
                << nl << exit(FatalIOError);
        }
        settings_.maxSweeps = sweeps;
    }

    try
    {
        superellipsoid::validateCollisionSettings(settings_);
        step_.reset(new superellipsoid::CollisionStep(settings_));
    }
    catch (const std::invalid_argument& err)
    {
        FatalIOErrorInFunction(dict)
            << "Bad superellipsoidCollision settings: " << err.what() << nl
            << exit(FatalIOError);
    }

    if (Pstream::parRun())
    {
        FatalErrorInFunction
            << "superellipsoidCollision model " << modelName_
            << " is not yet implemented in parallel (pairs across processor"
            << " boundaries would be missed). Run in serial or use model none"
            << " (OpenFOAM's pairCollision)." << nl << exit(FatalError);
    }

    for (label i = 0; i < shapes.size(); ++i)
    {
        system_.shapes.push_back(shapes[i].shape);
    }

    Info<< "    superellipsoid collisions: model " << modelName_;
    if (settings_.fixedSubsteps > 0)
    {
        Info<< ", " << settings_.fixedSubsteps << " substeps per step";
    }
    else
    {
        Info<< ", substeps from physics (displacement fraction "
            << settings_.displacementFraction << " of c_min)";
    }
    Info<< endl;
}


// * * * * * * * * * * * * * * * Member Functions  * * * * * * * * * * * * * //

void Foam::superellipsoidCollisionModel::buildWalls(const volVectorField& U)
{
    if (wallsBuilt_)
    {
        return;
    }
    wallsBuilt_ = true;

    const polyBoundaryMesh& patches = mesh_.boundaryMesh();
    const pointField& points = mesh_.points();
    label nFaces = 0, nSplit = 0;

    for (const polyPatch& pp : patches)
    {
        if (!isA<wallPolyPatch>(pp))
        {
            continue;
        }
        const vectorField& Uw = U.boundaryField()[pp.index()];
        forAll(pp, i)
        {
            const face& f = pp[i];
            // OpenFOAM's boundary normals point out of the domain: reverse
            // the vertex order so the core's normal points into the fluid
            std::vector<superellipsoid::Vector3> v(f.size());
            forAll(f, k)
            {
                v[k] = superellipsoidConversions::toEigen(points[f[f.size() - 1 - k]]);
            }
            const superellipsoid::Vector3 uw =
                superellipsoidConversions::toEigen(Uw[i]);
            if (label(v.size()) <= superellipsoid::maxFaceVertices)
            {
                system_.walls.add
                (
                    superellipsoid::WallFace::fromVertices(v.data(), int(v.size())),
                    pp.index(), uw
                );
                ++nFaces;
            }
            else
            {
                // Fan triangulation
                ++nSplit;
                for (std::size_t k = 1; k + 1 < v.size(); ++k)
                {
                    const superellipsoid::Vector3 tri[3] = {v[0], v[k], v[k + 1]};
                    system_.walls.add
                    (
                        superellipsoid::WallFace::fromVertices(tri, 3),
                        pp.index(), uw
                    );
                    ++nFaces;
                }
            }
        }
    }
    step_->invalidateWalls();

    Info<< "    superellipsoid collisions: " << nFaces << " wall faces";
    if (nSplit)
    {
        Info<< " (" << nSplit << " faces fan-triangulated)";
    }
    Info<< endl;

    // CSV of the per-step diagnostics
    if (Pstream::master())
    {
        const fileName dir
        (
            mesh_.time().globalPath()/"postProcessing"/"superellipsoidCollisions"
           /mesh_.time().timeName(mesh_.time().startTime().value())
        );
        mkDir(dir);
        csv_.reset(new OFstream(dir/"collisions.csv"));
        csv_().precision(12);
        csv_() << "time," << superellipsoid::CollisionDiagnostics::csvHeader().c_str()
            << ",truncatedDisplacements" << endl;
    }
}


Foam::label Foam::superellipsoidCollisionModel::nSubSteps(const scalar Dt) const
{
    label n = 1;
    try
    {
        n = step_->chooseSubsteps(system_, Dt);
    }
    catch (const std::exception& err)
    {
        FatalErrorInFunction
            << "Collision substeps: " << err.what() << nl << exit(FatalError);
    }
    reduce(n, maxOp<label>());
    return n;
}


void Foam::superellipsoidCollisionModel::collide(const scalar h)
{
    try
    {
        if (!soft())
        {
            // Impulse model: the parcels were moved by tracking; detect,
            // resolve in sweeps, remove overlaps (core, seed 004 Sect. 4)
            step_->detect(system_, diag_);
            step_->resolveSweeps(system_, diag_, h);
            step_->removeOverlaps(system_);
            ++diag_.substeps;
        }
        else
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
            std::vector<superellipsoid::Vector3> v0;
            for (const auto& p : system_.particles) v0.push_back(p.velocity);

            step_->softSubstep(system_, h, diag_);

            for (std::size_t i = 0; i < system_.particles.size(); ++i)
            {
                superellipsoid::Particle& p = system_.particles[i];
                p.pose = poses_[i];
                p.velocity = v0[i];
            }
        }
    }
    catch (const std::exception& err)
    {
        FatalErrorInFunction
            << "Collision step failed at time " << mesh_.time().timeName()
            << ": " << err.what() << nl << exit(FatalError);
    }
}


void Foam::superellipsoidCollisionModel::endStep(const scalar time)
{
    step_->pairCache().dropUntouched();
    diag_.translationalEnergy = superellipsoid::translationalKineticEnergy(system_);
    diag_.rotationalEnergy = superellipsoid::rotationalKineticEnergy(system_);

    Info<< "    collisions (" << modelName_ << "): "
        << diag_.summary().c_str();
    if (truncatedDisplacements_)
    {
        Info<< ", truncated overlap displacements " << truncatedDisplacements_;
    }
    Info<< endl;

    if (csv_.valid())
    {
        csv_() << time << ',' << diag_.csvRow().c_str() << ','
            << truncatedDisplacements_ << endl;
    }

    diag_ = superellipsoid::CollisionDiagnostics();
    truncatedDisplacements_ = 0;
}


// ************************************************************************* //
