/*---------------------------------------------------------------------------*\
    superellipsoidFoam: superellipsoidCollisionModel (see the header).
\*---------------------------------------------------------------------------*/

#include "superellipsoidCollisionModel.H"
#include "superellipsoidShapeTable.H"
#include "superellipsoidContactRecords.H"
#include "superellipsoidDictionaryChecks.H"
#include "superellipsoidSettingChecks.H"
#include "Time.H"
#include "Pstream.H"
#include "clockTime.H"

#include "solver/BoundaryImpulses.H"

#include <stdexcept>

// * * * * * * * * * * * * * * Static Data Members * * * * * * * * * * * * //

namespace Foam
{
    defineTypeNameAndDebug(superellipsoidCollisionModel, 0);
    defineRunTimeSelectionTable(superellipsoidCollisionModel, dictionary);
}


// * * * * * * * * * * * * * Static Member Functions * * * * * * * * * * * //

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
    momentumBefore_(),
    images_(),
    halo_(),
    walls_(mesh),
    log_(mesh.time(), modelName),
    wallForces_(mesh.time(), mesh.boundaryMesh()),
    diag_(),
    waypoints_(),
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
            "distributorPatches", "propagateLoads", "blockFaces"
        },
        "superellipsoidCollision"
    );

    // nSubCycles: >= 1 fixed, 0 from physics
    using superellipsoidSettingChecks::readSetting;
    readSetting(dict, "nSubCycles", settings_.fixedSubsteps, settings_);
    readSetting(dict, "displacementFraction", settings_.displacementFraction, settings_);
    readSetting
    (
        dict, "restingDisplacementFraction", settings_.restingDisplacementFraction, settings_
    );
    readSetting(dict, "maxSweeps", settings_.maxSweeps, settings_);

    // The relax's load propagation and face blocks (core CollisionSettings.H)
    settings_.propagateLoads =
        dict.lookupOrDefault<Switch>("propagateLoads", settings_.propagateLoads);
    settings_.blockFaces =
        dict.lookupOrDefault<Switch>("blockFaces", settings_.blockFaces);
    if (settings_.propagateLoads && Pstream::parRun())
    {
        // Its levels come from one processor's contacts: the result would
        // depend on the decomposition
        FatalIOErrorInFunction(dict)
            << "Bad entry propagateLoads true: load propagation runs serial"
            << " only (set it false for a decomposed run)" << nl
            << exit(FatalIOError);
    }

    if (dict.found("distributorPatches"))
    {
        walls_.setDistributorPatches(dict.get<wordList>("distributorPatches"), dict);
    }

    if (dict.found("stopAtRest"))
    {
        // A setting of the layer alone. In [0, 1): at 1 a growing kinetic
        // energy would stop the run
        stopAtRest_ =
            superellipsoidDictionaryChecks::readBounded(dict, "stopAtRest", 0, 1 - SMALL);
    }

    for (label i = 0; i < shapes.size(); ++i)
    {
        system_.shapes.push_back(shapes[i].shape);
    }
    images_.reset(new superellipsoidPeriodicImages(mesh.boundaryMesh()));
    halo_.reset(new superellipsoidHaloExchange(mesh, *images_));
}


// * * * * * * * * * * * * * * Protected Member Functions  * * * * * * * * * //

void Foam::superellipsoidCollisionModel::initialise(const dictionary& dict)
{
    try
    {
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
                    halo_->counters().reductionTime += timer.elapsedTime();
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
        if (halo_->active())
        {
            // Ghosts and periodic images from the moved state of their owners
            for (std::size_t i = 0; i < nOwn; ++i)
            {
                local_[i] = result(i);
            }
            exchangeParticles();
        }
        collide(h);
        for (std::size_t i = 0; i < nOwn; ++i)
        {
            waypoints_[k*nOwn + i] = result(i).pose.position;
        }
    }

    // End state of the own parcels (energies, the cloud's scatter)
    for (std::size_t i = 0; i < nOwn; ++i)
    {
        local_[i] = result(i);
    }
    return n;
}


void Foam::superellipsoidCollisionModel::exchangeParticles()
{
    halo_->exchange(local_, system_.shapes, step_->pairCache(), system_.particles);
    if (!images_->transforms().empty())
    {
        // Contacts across a translational cyclic act on both parcels in
        // one solve (core CollisionStep::shareImageMotion)
        step_->shareImageMotion
        (
            superellipsoid::imageBodies
            (
                system_, halo_->owned(), images_->stride(), images_->transforms()
            )
        );
    }
}


void Foam::superellipsoidCollisionModel::beginVelocityPhases()
{
    momentumBefore_.resize(system_.particles.size());
    for (std::size_t i = 0; i < momentumBefore_.size(); ++i)
    {
        momentumBefore_[i] = superellipsoid::contactMomentum(system_.particles[i]);
    }
}


void Foam::superellipsoidCollisionModel::endVelocityPhases(const scalar h)
{
    const std::vector<superellipsoid::StepContact>& contacts = step_->contacts();
    const std::vector<char>& owned = halo_->owned();
    if (halo_->active())
    {
        // The owners' answers replace this processor's for the contacts
        // with a ghost (core BoundaryImpulses.H)
        const std::vector<superellipsoid::BoundaryImpulse> received =
            halo_->exchangeImpulses(contacts);
        coreCall("Boundary impulses", [&]()
        {
            halo_->counters().impulsesReplaced += superellipsoid::applyBoundaryImpulses
            (
                system_, contacts, owned, received, images_->stride(), h
            );
        });
    }
    log_.recordBalance
    (
        superellipsoid::contactMomentumBalance(system_, momentumBefore_, contacts, owned)
    );
}


void Foam::superellipsoidCollisionModel::finishSubstep
(
    const superellipsoid::CollisionDiagnostics& before
)
{
    // Touching contacts of this processor (sums over processors = serial)
    const std::vector<char>& owned = halo_->owned();
    long pairs = 0, walls = 0;
    const std::vector<superellipsoid::StepContact>& contacts = step_->contacts();
    for (const superellipsoid::StepContact& c : contacts)
    {
        // A contact with an image counts on the side that owns it
        if
        (
            owned[c.a]
         && !(c.b >= 0 && superellipsoid::realId(c.idB, images_->stride()) < c.idA)
        )
        {
            ++(c.b >= 0 ? pairs : walls);
        }
    }
    diag_.pairContacts = before.pairContacts + pairs;
    diag_.wallContacts = before.wallContacts + walls;
    wallForces_.add(system_.walls, contacts, owned);

    if (Pstream::parRun())
    {
        halo_->rememberOwnedContacts
        (
            system_.particles, step_->candidatePairs(), contacts
        );
    }
}


void Foam::superellipsoidCollisionModel::buildWalls(const volVectorField& U)
{
    if (walls_.upToDate())
    {
        return;
    }
    system_.walls = walls_.convert(U);
    step_->invalidateWalls();
    // The CSVs of the diagnostics and the wall forces open with the first
    // conversion
    log_.open();
    wallForces_.open(system_.walls);
}


void Foam::superellipsoidCollisionModel::stopIfAtRest
(
    const scalar time,
    const scalar energy
)
{
    // The energy is the global sum, so every processor decides alike. The
    // run ends with THIS time step, which is written: the parcels are
    // final here, writeAndEnd writes now and marks the step a write time,
    // so the solver's runTime.write() at the end of the step writes it
    // again with the fluid solved (stopAt writeNow would only act at the
    // next time increment, one step later)
    peakEnergy_ = max(peakEnergy_, energy);
    if (stopAtRest_ > 0 && !stopSet_ && peakEnergy_ > 0 && energy < stopAtRest_*peakEnergy_)
    {
        stopSet_ = true;
        Info<< "    collisions (" << modelName_ << "): at rest at time " << time
            << " (kinetic energy " << energy/peakEnergy_ << " of its peak < stopAtRest "
            << stopAtRest_ << "): the run ends with this time step" << endl;
        const_cast<Time&>(mesh_.time()).writeAndEnd();
    }
}


void Foam::superellipsoidCollisionModel::endStep(const scalar time)
{
    step_->pairCache().dropUntouched();

    // Energies of the own parcels (system_ also holds ghosts)
    diag_.translationalEnergy = 0;
    diag_.rotationalEnergy = 0;
    for (const superellipsoid::Particle& p : local_)
    {
        diag_.translationalEnergy += 0.5*p.mass*p.velocity.squaredNorm();
        diag_.rotationalEnergy +=
            0.5*p.angularVelocity.dot(p.principalMoments.cwiseProduct(p.angularVelocity));
    }

    halo_->countReductions(step_->contactSolver().globalReductions());
    const superellipsoidCollisionLog::StepTotals totals =
        log_.reduce(diag_, halo_->counters());
    stopIfAtRest(time, diag_.translationalEnergy + diag_.rotationalEnergy);
    log_.write(time, diag_, totals);
    wallForces_.write(time, mesh_.time().deltaTValue());

    diag_ = superellipsoid::CollisionDiagnostics();
    log_.reset();
    halo_->resetCounters();
}


std::vector<superellipsoid::PairRecord>
Foam::superellipsoidCollisionModel::records() const
{
    std::vector<superellipsoid::PairRecord> records = step_->pairCache().records();
    superellipsoidContactRecords::sortUnique(records);
    return records;
}


// ************************************************************************* //
