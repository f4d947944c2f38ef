/*---------------------------------------------------------------------------*\
    superellipsoidFoam: SuperellipsoidCloud (see SuperellipsoidCloud.H).
\*---------------------------------------------------------------------------*/

#include "SuperellipsoidCloud.H"
#include "eigenConversions.H"
#include "mathematicalConstants.H"
#include "OStringStream.H"

#include "orientation/Orientation.H"

#include <cstring>
#include <random>

// * * * * * * * * * * * * * * * * Constructors  * * * * * * * * * * * * * * //

template<class CloudType>
Foam::SuperellipsoidCloud<CloudType>::SuperellipsoidCloud
(
    const word& cloudName,
    const volScalarField& rho,
    const volVectorField& U,
    const volScalarField& mu,
    const dimensionedVector& g,
    bool readFields
)
:
    CloudType(cloudName, rho, U, mu, g, false),
    SuperellipsoidCloudState(),
    collisionParcels_(),
    fluidForce_(nullptr),
    fluidForceFound_(false)
{
    idFold_ = Pstream::nProcs();
    escapedLocal_.setSize(this->mesh().boundaryMesh().nNonProcessor(), Zero);
    if (this->solution().active())
    {
        readSuperellipsoidProperties();

        label nRead = 0;
        if (readFields)
        {
            // Values checked by SuperellipsoidParcel::setFields (sizes,
            // unit quaternions, finite spins, shape ids in the table)
            parcelType::readFields(*this);
            nRead = returnReduce(this->size(), sumOp<label>());
            this->deleteLostParticles();
        }

        // Collision ids of parcels written by an earlier decomposition
        // (origProc >= nProcs) stay distinct
        label maxOrigProc = 0;
        for (const parcelType& p : *this)
        {
            maxOrigProc = max(maxOrigProc, p.origProc());
        }
        reduce(maxOrigProc, maxOp<label>());
        idFold_ = max(Pstream::nProcs(), maxOrigProc + 1);

        restoreRestartData(nRead);
    }
}


template<class CloudType>
Foam::SuperellipsoidCloud<CloudType>::SuperellipsoidCloud
(
    SuperellipsoidCloud<CloudType>& c,
    const word& name
)
:
    CloudType(c, name),
    SuperellipsoidCloudState(c),
    collisionParcels_(),
    fluidForce_(nullptr),
    fluidForceFound_(false)
{}


template<class CloudType>
Foam::SuperellipsoidCloud<CloudType>::SuperellipsoidCloud
(
    const fvMesh& mesh,
    const word& name,
    const SuperellipsoidCloud<CloudType>& c
)
:
    CloudType(mesh, name, c),
    SuperellipsoidCloudState(c),
    collisionParcels_(),
    fluidForce_(nullptr),
    fluidForceFound_(false)
{}


// * * * * * * * * * * * * * * * Member Functions  * * * * * * * * * * * * * //

template<class CloudType>
Foam::scalar
Foam::SuperellipsoidCloud<CloudType>::rotationalKineticEnergyOfSystem() const
{
    scalar energy = 0;
    for (const parcelType& p : *this)
    {
        const vector J
        (
            superellipsoidConversions::toFoam
            (
                superellipsoid::Vector3(p.rho()*(*shapes_)[p.shapeId()].unitDensityMoments)
            )
        );
        energy += p.nParticle()*0.5*(p.omegaP() & vector(cmptMultiply(J, p.omegaP())));
    }
    return energy;
}


template<class CloudType>
void Foam::SuperellipsoidCloud<CloudType>::setParcelThermoProperties
(
    parcelType& parcel,
    const scalar lagrangianDt
)
{
    CloudType::setParcelThermoProperties(parcel, lagrangianDt);

    parcel.shapeId() = injectShapeId_;
    parcel.omegaP() = injectOmegaP_;

    // The injection position as given (position() differs from it by the
    // round-off of the barycentric coordinates, which depends on the
    // decomposition)
    const point pos(corePosition(parcel));
    if (orientationMode_ == orientationMode::fixed)
    {
        parcel.setOrientation(injectOrientation_);
    }
    else if (orientationMode_ == orientationMode::nearest)
    {
        std::size_t best = 0;
        for (std::size_t i = 1; i < injectPoints_.size(); ++i)
        {
            if (magSqr(injectPoints_[i] - pos) < magSqr(injectPoints_[best] - pos))
            {
                best = i;
            }
        }
        parcel.setOrientation(injectPointOrientations_[best]);
    }
    else
    {
        // Seed from the injection position bits, so that a parcel gets the
        // same orientation in serial and in parallel runs
        std::uint64_t key = std::uint64_t(seed_)*0x9E3779B97F4A7C15ULL;
        for (direction i = 0; i < vector::nComponents; ++i)
        {
            std::uint64_t bits;
            std::memcpy(&bits, &pos[i], sizeof(bits));
            key ^= bits + 0x9E3779B97F4A7C15ULL + (key << 6) + (key >> 2);
        }
        std::mt19937_64 rng(key);
        parcel.setOrientation(superellipsoid::randomOrientation(rng));
    }
}


template<class CloudType>
void Foam::SuperellipsoidCloud<CloudType>::checkParcelProperties
(
    parcelType& parcel,
    const scalar lagrangianDt,
    const bool fullyDescribed
)
{
    CloudType::checkParcelProperties(parcel, lagrangianDt, fullyDescribed);

    // d is the volume-equivalent diameter of the parcel's shape
    parcel.d() = (*shapes_)[parcel.shapeId()].dEq;
}


template<class CloudType>
void Foam::SuperellipsoidCloud<CloudType>::evolve()
{
    if (this->solution().canEvolve())
    {
        typename parcelType::trackingData td(*this);

        if (seCollision_ && seCollision_->active())
        {
            // InjectionModel::inject moves a new parcel with td.part(): a
            // half kick (no displacement) makes it start at the start of
            // the step, as parcels injected in later steps of a colliding
            // cloud do (v1912 would otherwise track the first step's
            // parcels twice)
            td.part() = parcelType::trackingData::tpVelocityHalfStep;
        }

        this->solve(*this, td);
    }
}


template<class CloudType>
Foam::point Foam::SuperellipsoidCloud<CloudType>::corePosition
(
    const parcelType& p
) const
{
    return p.exactPosition
    (
        exactPositionTolerance*(*shapes_)[p.shapeId()].shape.c()
    );
}


template<class CloudType>
void Foam::SuperellipsoidCloud<CloudType>::collectParcels()
{
    using namespace superellipsoidConversions;

    std::vector<superellipsoid::Particle>& local = seCollision_->localParticles();
    local.clear();
    collisionParcels_.clear();

    for (parcelType& p : *this)
    {
        if (!p.active())
        {
            continue;
        }
        superellipsoid::Particle q;
        // Persistent id: origProc and origId folded into one number (the
        // core's pair cache takes ids in [0, 2^31 - 2])
        q.id = long(p.origId())*idFold_ + long(p.origProc());
        if (q.id > maxCollisionId)
        {
            FatalErrorInFunction
                << "Parcel origId " << p.origId() << " origProc "
                << p.origProc() << ": collision id " << q.id
                << " exceeds the core's limit " << maxCollisionId
                << exit(FatalError);
        }
        q.shapeIndex = p.shapeId();
        q.pose.position = toEigen(corePosition(p));
        q.pose.orientation = p.orientation();
        q.velocity = toEigen(p.U());
        q.angularVelocity = toEigen(p.omegaP());
        q.mass = p.mass();
        q.principalMoments = p.rho()*(*shapes_)[p.shapeId()].unitDensityMoments;
        local.push_back(q);
        collisionParcels_.append(&p);
    }
}


template<class CloudType>
void Foam::SuperellipsoidCloud<CloudType>::scatterFluidStep
(
    const scalar Dt,
    const label nSubSteps
)
{
    using namespace superellipsoidConversions;

    waypoints_.clear();
    // Bent paths of this processor: id, then nSubSteps points
    DynamicList<scalar> bent;

    forAll(collisionParcels_, i)
    {
        parcelType& p = *collisionParcels_[i];
        const superellipsoid::Particle& q = seCollision_->result(i);

        p.U() = toFoam(q.velocity);
        p.omegaP() = toFoam(q.angularVelocity);

        // The resisted part of the drag's impulse, -sum h C v, to the
        // carrier (SuperellipsoidParcel::fluidForcing added the rest)
        if (this->solution().coupled())
        {
            this->UTrans()[p.cell()] += p.nParticle()*toFoam(q.resistedImpulse);
        }
        p.setOrientation(q.pose.orientation);
        p.setExactPosition(toFoam(q.pose.position));

        // The step's displacement, tracked by the pass after this
        // (SuperellipsoidParcel::moveDisplacement), carried in f()
        const superellipsoid::Vector3 start = toEigen(p.position());
        const superellipsoid::Vector3 chord = q.pose.position - start;
        p.f() = toFoam(chord)/Dt;

        // Largest distance of a waypoint from the chord
        const scalar tolerance =
            chordTolerance*(*shapes_)[p.shapeId()].shape.c();
        const scalar chordSqr = chord.squaredNorm();
        bool bends = false;
        for (label k = 0; k + 1 < nSubSteps && !bends; ++k)
        {
            const superellipsoid::Vector3 x = seCollision_->waypoint(k, i) - start;
            const scalar t =
                chordSqr > 0 ? min(max(x.dot(chord)/chordSqr, scalar(0)), scalar(1)) : 0;
            bends = (x - t*chord).norm() > tolerance;
        }
        if (bends)
        {
            bent.append(scalar(q.id));
            for (label k = 0; k < nSubSteps; ++k)
            {
                const superellipsoid::Vector3& w = seCollision_->waypoint(k, i);
                bent.append(w[0]);
                bent.append(w[1]);
                bent.append(w[2]);
            }
        }
    }

    // A parcel may cross processors in the tracking pass: every processor
    // gets the waypoints of all bent paths (rare: a path bends by more than
    // 0.1 c only in collisions with a large change of direction)
    List<scalarList> all(Pstream::nProcs());
    all[Pstream::myProcNo()].transfer(bent);
    if (Pstream::parRun())
    {
        Pstream::gatherList(all);
        Pstream::scatterList(all);
    }
    const label record = 1 + 3*nSubSteps;
    for (const scalarList& buf : all)
    {
        for (label j = 0; j + record <= buf.size(); j += record)
        {
            std::vector<point>& w = waypoints_[long(buf[j])];
            w.resize(nSubSteps);
            for (label k = 0; k < nSubSteps; ++k)
            {
                w[k] = point(buf[j + 1 + 3*k], buf[j + 2 + 3*k], buf[j + 3 + 3*k]);
            }
        }
    }
}


template<class CloudType>
const std::vector<Foam::point>*
Foam::SuperellipsoidCloud<CloudType>::trackWaypoints(const parcelType& p) const
{
    if (waypoints_.empty())
    {
        return nullptr;
    }
    const auto it =
        waypoints_.find(long(p.origId())*idFold_ + long(p.origProc()));
    return it == waypoints_.end() ? nullptr : &it->second;
}


template<class CloudType>
void Foam::SuperellipsoidCloud<CloudType>::countWallBackstop()
{
    if (seCollision_ && seCollision_->active())
    {
        seCollision_->countBackstop();
    }
}


template<class CloudType>
void Foam::SuperellipsoidCloud<CloudType>::countTruncatedDisplacement()
{
    if (seCollision_)
    {
        seCollision_->countTruncated();
    }
}


template<class CloudType>
template<class TrackCloudType>
void Foam::SuperellipsoidCloud<CloudType>::motion
(
    TrackCloudType& cloud,
    typename parcelType::trackingData& td
)
{
    if (!seCollision_ || !seCollision_->active())
    {
        CloudType::motion(cloud, td);
        return;
    }

    superellipsoidCollisionModel& model = *seCollision_;
    if (this->mesh().moving())
    {
        // Wall faces moved with the mesh: convert them again
        model.invalidateWalls();
    }
    model.buildWalls(this->U());

    const scalar Dt = this->db().time().deltaTValue();

    // Fluid forcing of each parcel, once per fluid step, as constant
    // external force, torque and damping of the core (coupling source
    // from the same velocity change)
    collectParcels();
    std::vector<superellipsoid::Particle>& local = model.localParticles();
    forAll(collisionParcels_, i)
    {
        collisionParcels_[i]->fluidForcing(cloud, td, Dt, local[i]);
    }
    cpuTime collisionTimer;
    model.exchangeParticles();

    // All collision substeps in the core, then one tracking pass from the
    // start to the end positions (through the waypoints where the path
    // bent); outlets remove, processor faces transfer
    const label n = model.advanceFluidStep(Dt);
    collisionCpuTime_ += collisionTimer.cpuTimeIncrement();
    scatterFluidStep(Dt, n);
    td.part() = parcelType::trackingData::tpRotationalTrack;
    Cloud<parcelType>::move(cloud, td, Dt);
    waypoints_.clear();

    endCollisionStep();

    // Parcels injected in the next step are not displaced by the injection
    td.part() = parcelType::trackingData::tpVelocityHalfStep;
}


template<class CloudType>
void Foam::SuperellipsoidCloud<CloudType>::endCollisionStep()
{
    superellipsoidCollisionModel& model = *seCollision_;
    const Time& time = this->db().time();
    if
    (
        checkInvariants_ && maxOverlapRatio_ > 0
     && !(model.diagnostics().maxOverlapRatio <= maxOverlapRatio_)
    )
    {
        FatalErrorInFunction
            << "Invariant violated at time " << time.timeName()
            << ": largest overlap / c_min " << model.diagnostics().maxOverlapRatio
            << " exceeds maxOverlapRatio " << maxOverlapRatio_
            << " (superellipsoidChecks of " << this->particleProperties().name()
            << "): a missed or unresolved collision" << nl << exit(FatalError);
    }
    model.endStep(time.value());
}


template<class CloudType>
void Foam::SuperellipsoidCloud<CloudType>::info()
{
    // Kinematic information; CollidingCloud's rotational energy assumes
    // spheres and is replaced by the superellipsoid one
    CloudType::cloudType::info();

    const scalar energy =
        returnReduce(rotationalKineticEnergyOfSystem(), sumOp<scalar>());

    Info<< "    Rotational kinetic energy       = " << energy << nl;

    if (checkInvariants_)
    {
        checkParcelInvariants();
    }
    if (this->db().time().writeTime())
    {
        // Bookkeeping written with the cloud's output properties by
        // postEvolve; the contact history file written here
        storeRestartData();
    }

    if (logParcels_)
    {
        // One line per parcel (all processors, master prints), full
        // precision; the position the collision core uses
        List<List<string>> lines(Pstream::nProcs());
        for (const parcelType& p : *this)
        {
            OStringStream os;
            os.precision(17);
            os  << "    parcel " << p.origProc() << ' ' << p.origId()
                << " shape " << (*shapes_)[p.shapeId()].name
                << " position " << corePosition(p)
                << " U " << p.U()
                << " e0 " << p.e0() << " e123 " << p.e()
                << " omegaP " << p.omegaP();
            lines[Pstream::myProcNo()].append(os.str());
        }
        Pstream::gatherList(lines);
        for (const List<string>& procLines : lines)
        {
            for (const string& line : procLines)
            {
                Info<< line.c_str() << nl;
            }
        }
    }
}


// * * * * * * * * * * * * * * * * * * Parts * * * * * * * * * * * * * * * //

#include "SuperellipsoidCloudInput.C"
#include "SuperellipsoidCloudBookkeeping.C"
#include "SuperellipsoidCloudRestart.C"

// ************************************************************************* //
