/*---------------------------------------------------------------------------*\
    superellipsoidFoam: SuperellipsoidCloud (see SuperellipsoidCloud.H).
\*---------------------------------------------------------------------------*/

#include "SuperellipsoidCloud.H"
#include "eigenConversions.H"
#include "mathematicalConstants.H"
#include "unitConversion.H"
#include "OStringStream.H"
#include "Switch.H"
#include "subCycleTime.H"
#include "Tuple2.H"

#include "orientation/Orientation.H"

#include <cstring>
#include <random>

// * * * * * * * * * * * * * Private Member Functions  * * * * * * * * * * * //

template<class CloudType>
void Foam::SuperellipsoidCloud<CloudType>::readSuperellipsoidProperties()
{
    const dictionary& props = this->particleProperties();
    const Time& time = this->mesh().time();

    const fileName cacheDir
    (
        time.rootPath()/time.globalCaseName()/"constant"/"resistanceTensorCache"
    );

    shapes_ = std::make_shared<const superellipsoidShapeTable>
    (
        props.subDict("shapes"),
        cacheDir
    );

    const dictionary& inj = props.subDict("injectedParcels");

    injectShapeId_ = shapes_->find(inj.get<word>("shape"), inj, "shape");

    const word mode(inj.get<word>("orientation"));
    if (mode == "fixed")
    {
        orientationMode_ = orientationMode::fixed;
        const vector angles(inj.get<vector>("eulerAngles"));
        superellipsoid::EulerAngles euler;
        euler.phi = degToRad(angles.x());
        euler.theta = degToRad(angles.y());
        euler.psi = degToRad(angles.z());
        injectOrientation_ = superellipsoid::quaternionFromEulerAngles(euler);
    }
    else if (mode == "random")
    {
        orientationMode_ = orientationMode::random;
        seed_ = inj.getOrDefault<label>("seed", 0);
    }
    else if (mode == "nearest")
    {
        orientationMode_ = orientationMode::nearest;
        typedef Tuple2<point, vector> pointAngles;
        const List<pointAngles> table(inj.get<List<pointAngles>>("eulerAnglesAt"));
        if (table.empty())
        {
            FatalIOErrorInFunction(inj)
                << "Bad entry eulerAnglesAt " << table
                << ": needs at least one (point (phi theta psi))" << nl
                << exit(FatalIOError);
        }
        injectPoints_.clear();
        injectPointOrientations_.clear();
        for (const pointAngles& e : table)
        {
            superellipsoid::EulerAngles euler;
            euler.phi = degToRad(e.second().x());
            euler.theta = degToRad(e.second().y());
            euler.psi = degToRad(e.second().z());
            injectPoints_.push_back(e.first());
            injectPointOrientations_.push_back
            (
                superellipsoid::quaternionFromEulerAngles(euler)
            );
        }
    }
    else
    {
        FatalIOErrorInFunction(inj)
            << "Bad entry orientation " << mode
            << ": expected fixed, random or nearest" << nl
            << exit(FatalIOError);
    }

    injectOmegaP_ = inj.getOrDefault<vector>("angularVelocity", Zero);

    seCollision_.reset
    (
        superellipsoidCollisionModel::New
        (
            props, this->mesh(), *shapes_, this->g().value()
        ).ptr()
    );
    if
    (
        seCollision_->active()
     && this->subModelProperties().template getOrDefault<word>
        (
            "collisionModel", "none"
        ) != "none"
    )
    {
        FatalIOErrorInFunction(this->subModelProperties())
            << "Bad entry collisionModel "
            << this->subModelProperties().template get<word>("collisionModel")
            << ": must be none when superellipsoidCollision { model "
            << seCollision_->modelName() << "; } is used" << nl
            << exit(FatalIOError);
    }

    Info<< "Superellipsoid cloud " << this->name() << nl;
    shapes_->writeInfo(Info);
    Info<< "    injected parcels: shape " << (*shapes_)[injectShapeId_].name
        << ", orientation " << mode << endl;
}


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
    shapes_(),
    injectShapeId_(0),
    orientationMode_(orientationMode::fixed),
    injectOrientation_(superellipsoid::Quaternion::Identity()),
    seed_(0),
    injectPoints_(),
    injectPointOrientations_(),
    injectOmegaP_(Zero),
    seCollision_(),
    collisionParcels_()
{
    if (this->solution().active())
    {
        readSuperellipsoidProperties();

        if (readFields)
        {
            parcelType::readFields(*this);
            this->deleteLostParticles();
        }

        for (const parcelType& p : *this)
        {
            if (p.shapeId() < 0 || p.shapeId() >= shapes_->size())
            {
                FatalErrorInFunction
                    << "Parcel " << p.origId() << " of cloud " << this->name()
                    << " has shapeId " << p.shapeId() << " but only "
                    << shapes_->size() << " shapes are defined in "
                    << this->particleProperties().name()
                    << exit(FatalError);
            }
        }
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
    shapes_(c.shapes_),
    injectShapeId_(c.injectShapeId_),
    orientationMode_(c.orientationMode_),
    injectOrientation_(c.injectOrientation_),
    seed_(c.seed_),
    injectPoints_(c.injectPoints_),
    injectPointOrientations_(c.injectPointOrientations_),
    injectOmegaP_(c.injectOmegaP_),
    seCollision_(c.seCollision_),
    collisionParcels_()
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
    shapes_(c.shapes_),
    injectShapeId_(c.injectShapeId_),
    orientationMode_(c.orientationMode_),
    injectOrientation_(c.injectOrientation_),
    seed_(c.seed_),
    injectPoints_(c.injectPoints_),
    injectPointOrientations_(c.injectPointOrientations_),
    injectOmegaP_(c.injectOmegaP_),
    seCollision_(c.seCollision_),
    collisionParcels_()
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

    if (orientationMode_ == orientationMode::fixed)
    {
        parcel.setOrientation(injectOrientation_);
    }
    else if (orientationMode_ == orientationMode::nearest)
    {
        const point pos(parcel.position());
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
        const point pos(parcel.position());
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
void Foam::SuperellipsoidCloud<CloudType>::gatherParcels()
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
        q.id = long(p.origId())*Pstream::nProcs() + long(p.origProc());
        if (q.id > maxCollisionId)
        {
            FatalErrorInFunction
                << "Parcel origId " << p.origId() << " origProc "
                << p.origProc() << ": collision id " << q.id
                << " exceeds the core's limit " << maxCollisionId
                << exit(FatalError);
        }
        q.shapeIndex = p.shapeId();
        q.pose.position = toEigen(p.position());
        q.pose.orientation = p.orientation();
        q.velocity = toEigen(p.U());
        q.angularVelocity = toEigen(p.omegaP());
        q.mass = p.mass();
        q.principalMoments = p.rho()*(*shapes_)[p.shapeId()].unitDensityMoments;
        local.push_back(q);
        collisionParcels_.append(&p);
    }

    // All processors' parcels, sorted by id
    seCollision_->exchangeParticles();
}


template<class CloudType>
void Foam::SuperellipsoidCloud<CloudType>::scatterParcels(const scalar h)
{
    using namespace superellipsoidConversions;

    forAll(collisionParcels_, i)
    {
        parcelType& p = *collisionParcels_[i];
        const superellipsoid::Particle& q = seCollision_->result(i);

        if (seCollision_->soft())
        {
            // Leapfrog half kicks of SuperellipsoidParcel::move (global)
            p.f() = toFoam(q.contactForce);
            p.torque() = toFoam(superellipsoid::Vector3(q.pose.orientation*q.contactTorque));
            continue;
        }

        p.U() = toFoam(q.velocity);
        p.omegaP() = toFoam(q.angularVelocity);

        // Overlap removal: displacement tracked by the next pass
        // (SuperellipsoidParcel::moveDisplacement), carried in f()
        p.f() = (toFoam(superellipsoid::Vector3(q.pose.position)) - p.position())/h;
    }
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

    const Time& time = this->db().time();
    const scalar Dt = time.deltaTValue();

    gatherParcels();
    const label n = model.nSubSteps(Dt);

    autoPtr<subCycleTime> subCycle;
    if (n > 1)
    {
        subCycle.reset(new subCycleTime(const_cast<Time&>(time), n));
    }

    for (label k = 0; k < n; ++k)
    {
        if (subCycle.valid())
        {
            ++subCycle();
        }
        const scalar h = time.deltaTValue();

        if (model.soft())
        {
            td.part() = parcelType::trackingData::tpVelocityHalfStep;
            Cloud<parcelType>::move(cloud, td, h);
        }

        // Move: tracking with the fluid forces (and the rotation)
        td.part() = parcelType::trackingData::tpLinearTrack;
        Cloud<parcelType>::move(cloud, td, h);

        // Detect, resolve, remove overlaps (core)
        gatherParcels();
        model.collide(h);
        scatterParcels(h);

        if (!model.soft())
        {
            // Overlap-removal displacements by tracking (with processor
            // transfer); cell/tet data stay valid
            td.part() = parcelType::trackingData::tpRotationalTrack;
            Cloud<parcelType>::move(cloud, td, h);
        }

        if (model.soft())
        {
            td.part() = parcelType::trackingData::tpVelocityHalfStep;
            Cloud<parcelType>::move(cloud, td, h);
        }
    }

    if (subCycle.valid())
    {
        subCycle->endSubCycle();
    }

    gatherParcels();
    model.endStep(time.value());

    // Parcels injected in the next step are not displaced by the injection
    td.part() = parcelType::trackingData::tpVelocityHalfStep;
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

    if (this->particleProperties().template getOrDefault<Switch>("logParcels", false))
    {
        // One line per parcel (all processors, master prints), full precision
        List<List<string>> lines(Pstream::nProcs());
        for (const parcelType& p : *this)
        {
            OStringStream os;
            os.precision(17);
            os  << "    parcel " << p.origProc() << ' ' << p.origId()
                << " shape " << (*shapes_)[p.shapeId()].name
                << " position " << p.position()
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


// ************************************************************************* //
