/*---------------------------------------------------------------------------*\
    superellipsoidFoam: superellipsoidCollisionModel (see the header).
\*---------------------------------------------------------------------------*/

#include "superellipsoidCollisionModel.H"
#include "superellipsoidShapeTable.H"
#include "eigenConversions.H"
#include "wallPolyPatch.H"
#include "Time.H"
#include "Pstream.H"
#include "superellipsoidDictionaryChecks.H"
#include "superellipsoidSettingChecks.H"
#include "PstreamBuffers.H"
#include "processorPolyPatch.H"
#include "clockTime.H"

#include "dynamics/RigidBodyRotation.H"

#include <algorithm>
#include <numeric>
#include <stdexcept>

// * * * * * * * * * * * * * * Static Data Members * * * * * * * * * * * * //

namespace Foam
{
    defineTypeNameAndDebug(superellipsoidCollisionModel, 0);
    defineRunTimeSelectionTable(superellipsoidCollisionModel, dictionary);
}


// * * * * * * * * * * * * * Static Member Functions * * * * * * * * * * * //

Foam::scalar Foam::superellipsoidCollisionModel::readBounded
(
    const Foam::dictionary& dict,
    const Foam::word& key,
    const Foam::scalar lo,
    const Foam::scalar hi
)
{
    // Missing, wrong type, not finite, out of range: FatalIOError
    return superellipsoidDictionaryChecks::readBounded(dict, key, lo, hi);
}


Foam::scalar Foam::superellipsoidCollisionModel::readPositive
(
    const Foam::dictionary& dict,
    const Foam::word& key
)
{
    return superellipsoidDictionaryChecks::readPositive(dict, key);
}


Foam::autoPtr<Foam::superellipsoidCollisionModel>
Foam::superellipsoidCollisionModel::New
(
    const dictionary& cloudDict,
    const fvMesh& mesh,
    const superellipsoidShapeTable& shapes,
    const vector& g
)
{
    // No 'superellipsoidCollision' dictionary: model none
    const dictionary* dictPtr = cloudDict.findDict("superellipsoidCollision");
    const dictionary& dict = dictPtr ? *dictPtr : dictionary::null;
    const word modelType(dictPtr ? dict.get<word>("model") : word("none"));

    auto cstrIter = dictionaryConstructorTablePtr_->cfind(modelType);
    if (!cstrIter.found())
    {
        FatalIOErrorInFunction(dict)
            << "Bad entry model " << modelType << ": expected one of";
        for (const word& name : dictionaryConstructorTablePtr_->sortedToc())
        {
            FatalIOError << ' ' << name;
        }
        FatalIOError << nl << exit(FatalIOError);
    }

    return autoPtr<superellipsoidCollisionModel>(cstrIter()(dict, mesh, shapes, g));
}


// * * * * * * * * * * * * * * * * Constructors  * * * * * * * * * * * * * * //

Foam::superellipsoidCollisionModel::superellipsoidCollisionModel
(
    const word& modelName,
    const superellipsoid::CollisionModel model,
    const dictionary& dict,
    const fvMesh& mesh,
    const superellipsoidShapeTable& shapes
)
:
    mesh_(mesh),
    modelName_(modelName),
    settings_(),
    step_(),
    system_(),
    local_(),
    localToGlobal_(),
    owned_(),
    meshNeighbours_(),
    cyclicTransforms_(),
    imageStride_(1L << 30),
    ownedIds_(),
    ownedPairs_(),
    ghostsThisStep_(0),
    exchangesThisStep_(0),
    recordsSent_(0),
    exchangeTime_(0),
    waitTime_(0),
    wallsBuilt_(false),
    distributorPatches_(),
    wallsReported_(false),
    diag_(),
    truncatedDisplacements_(0),
    wallBackstops_(0),
    csv_(),
    stopAtRest_(0),
    peakEnergy_(0),
    stopSet_(false)
{
    settings_.model = model;
    if (model == superellipsoid::CollisionModel::none)
    {
        return;
    }

    // Unknown keywords (typos) are errors, not silently ignored
    superellipsoidDictionaryChecks::checkKeywords
    (
        dict,
        {
            "model", "nSubCycles", "displacementFraction",
            "restingDisplacementFraction", "maxSweeps", "stopAtRest",
            "restingContacts", "impulseCoeffs", "softContactCoeffs",
            "distributorPatches"
        },
        "superellipsoidCollision"
    );

    // Ranges: superellipsoid::validateCollisionSettings (superellipsoidSettingChecks.H);
    // nSubCycles: >= 1 fixed, 0 from physics
    using superellipsoidSettingChecks::readSetting;
    if (dict.found("nSubCycles"))
    {
        readSetting(dict, "nSubCycles", settings_.fixedSubsteps, settings_);
    }
    if (dict.found("displacementFraction"))
    {
        readSetting(dict, "displacementFraction", settings_.displacementFraction, settings_);
    }
    if (dict.found("restingDisplacementFraction"))
    {
        readSetting
        (
            dict, "restingDisplacementFraction", settings_.restingDisplacementFraction, settings_
        );
    }
    if (dict.found("maxSweeps"))
    {
        readSetting(dict, "maxSweeps", settings_.maxSweeps, settings_);
    }

    if (dict.found("distributorPatches"))
    {
        distributorPatches_ = dict.get<wordList>("distributorPatches");
        for (const word& name : distributorPatches_)
        {
            if (mesh_.boundaryMesh().findPatchID(name) < 0)
            {
                FatalIOErrorInFunction(dict)
                    << "Bad entry distributorPatches: no patch " << name
                    << "; patches: " << mesh_.boundaryMesh().names() << nl
                    << exit(FatalIOError);
            }
        }
    }

    if (dict.found("stopAtRest"))
    {
        // In [0, 1): at 1 a growing kinetic energy would stop the run
        stopAtRest_ = readBounded(dict, "stopAtRest", 0, 1 - SMALL);
    }

    for (label i = 0; i < shapes.size(); ++i)
    {
        system_.shapes.push_back(shapes[i].shape);
    }

    // Processors a parcel can be transferred to by tracking
    DynamicList<label> neighbours;
    for (const polyPatch& pp : mesh.boundaryMesh())
    {
        const processorPolyPatch* ppp = isA<processorPolyPatch>(pp);
        if (ppp && !neighbours.found(ppp->neighbProcNo()))
        {
            neighbours.append(ppp->neighbProcNo());
        }
    }
    meshNeighbours_.transfer(neighbours);

    findPeriodicTransforms(mesh);
}


// * * * * * * * * * * * * * * Protected Member Functions  * * * * * * * * * //

void Foam::superellipsoidCollisionModel::initialise(const dictionary& dict)
{
    try
    {
        superellipsoid::validateCollisionSettings(settings_);
        step_.reset(new superellipsoid::CollisionStep(settings_));
        if (Pstream::parRun())
        {
            // The contact solver's stop decisions over all processors
            step_->setGlobalMax
            (
                [this](double x)
                {
                    const clockTime timer;
                    const scalar y = returnReduce(x, maxOp<scalar>());
                    reductionTime_ += timer.elapsedTime();
                    return y;
                }
            );
        }
    }
    catch (const std::invalid_argument& err)
    {
        FatalIOErrorInFunction(dict)
            << "Bad superellipsoidCollision settings: " << err.what() << nl
            << exit(FatalIOError);
    }

    Info<< "    superellipsoid collisions: model " << modelName_;
    if (settings_.fixedSubsteps > 0)
    {
        Info<< ", " << settings_.fixedSubsteps << " substeps per step";
    }
    else
    {
        Info<< ", substeps from physics (displacement fraction "
            << settings_.displacementFraction << " of c_min; resting: |a| h^2 <= "
            << settings_.restingDisplacementFraction << " c_min)";
    }
    Info<< endl;
}


// * * * * * * * * * * * * * * * Member Functions  * * * * * * * * * * * * * //

Foam::label Foam::superellipsoidCollisionModel::nSubSteps(const scalar Dt) const
{
    label n = 1;
    coreCall("Collision substep count", [&]() { n = step_->chooseSubsteps(system_, Dt); });
    reduce(n, maxOp<label>());
    return n;
}


void Foam::superellipsoidCollisionModel::moveSubstep(const scalar h)
{
    coreCall("Collision substep move", [&]() { step_->move(system_, h); });
}


Foam::label Foam::superellipsoidCollisionModel::advanceFluidStep
(
    const scalar Dt
)
{
    const label n = nSubSteps(Dt);
    const scalar h = Dt/n;
    const std::size_t nOwn = local_.size();
    waypoints_.resize(n*nOwn);
    beginFluidStep();

    for (label k = 0; k < n; ++k)
    {
        // Move with the constant fluid forcing (ghosts move too and are
        // replaced by the exchange)
        moveSubstep(h);
        if (Pstream::parRun() || !cyclicTransforms_.empty())
        {
            // Ghosts and periodic images from the moved state of their owners
            for (std::size_t i = 0; i < nOwn; ++i)
            {
                local_[i] = system_.particles[localToGlobal_[i]];
            }
            exchangeParticles();
        }
        collide(h);
        for (std::size_t i = 0; i < nOwn; ++i)
        {
            waypoints_[k*nOwn + i] = system_.particles[localToGlobal_[i]].pose.position;
        }
    }

    // End state of the own parcels (energies, the cloud's scatter)
    for (std::size_t i = 0; i < nOwn; ++i)
    {
        local_[i] = system_.particles[localToGlobal_[i]];
    }
    return n;
}


// ************************************************************************* //
