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
#include "wallPolyPatch.H"
#include "superellipsoidDictionaryChecks.H"

#include "orientation/Orientation.H"

#include <cstdio>
#include <cstdlib>
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

    namespace checks = superellipsoidDictionaryChecks;

    const dictionary& inj = props.subDict("injectedParcels");

    injectShapeId_ = shapes_->find(inj.get<word>("shape"), inj, "shape");

    // Euler angles in degrees (z-x-z, Eq. 11 of [Wedel2023]) -> quaternion
    const auto fromDegrees = [](const vector& angles)
    {
        superellipsoid::EulerAngles euler;
        euler.phi = degToRad(angles.x());
        euler.theta = degToRad(angles.y());
        euler.psi = degToRad(angles.z());
        return superellipsoid::quaternionFromEulerAngles(euler);
    };

    // Unknown entries (typos) are errors; the entries of the other
    // orientation modes may stay (switching modes keeps them) and are not
    // used
    checks::checkKeywords
    (
        inj,
        {
            "shape", "orientation", "eulerAngles", "seed", "eulerAnglesAt",
            "angularVelocity"
        },
        "injectedParcels"
    );
    const word mode(inj.get<word>("orientation"));
    if (mode == "fixed")
    {
        orientationMode_ = orientationMode::fixed;
        injectOrientation_ = fromDegrees(checks::readVector(inj, "eulerAngles"));
    }
    else if (mode == "random")
    {
        orientationMode_ = orientationMode::random;
        seed_ = checks::readLabelOrDefault(inj, "seed", 0);
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
            if
            (
                !std::isfinite(magSqr(e.first()))
             || !std::isfinite(magSqr(e.second()))
            )
            {
                FatalIOErrorInFunction(inj)
                    << "Bad entry eulerAnglesAt: element " << e
                    << " is not finite" << nl << exit(FatalIOError);
            }
            injectPoints_.push_back(e.first());
            injectPointOrientations_.push_back(fromDegrees(e.second()));
        }
    }
    else
    {
        FatalIOErrorInFunction(inj)
            << "Bad entry orientation " << mode
            << ": expected fixed, random or nearest" << nl
            << exit(FatalIOError);
    }

    injectOmegaP_ = checks::readVectorOrDefault(inj, "angularVelocity", Zero);

    readChecks();

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
    collisionParcels_(),
    idFold_(Pstream::nProcs()),
    logParcels_(false),
    checkInvariants_(false),
    maxOverlapRatio_(0),
    nInitial_(0),
    escapedBefore_(),
    escapedLocal_(this->mesh().boundaryMesh().size(), Zero),
    nRemoved_(0)
{
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
    shapes_(c.shapes_),
    injectShapeId_(c.injectShapeId_),
    orientationMode_(c.orientationMode_),
    injectOrientation_(c.injectOrientation_),
    seed_(c.seed_),
    injectPoints_(c.injectPoints_),
    injectPointOrientations_(c.injectPointOrientations_),
    injectOmegaP_(c.injectOmegaP_),
    seCollision_(c.seCollision_),
    collisionParcels_(),
    idFold_(c.idFold_),
    logParcels_(c.logParcels_),
    checkInvariants_(c.checkInvariants_),
    maxOverlapRatio_(c.maxOverlapRatio_),
    nInitial_(c.nInitial_),
    escapedBefore_(c.escapedBefore_),
    escapedLocal_(c.escapedLocal_),
    nRemoved_(c.nRemoved_)
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
    collisionParcels_(),
    idFold_(c.idFold_),
    logParcels_(c.logParcels_),
    checkInvariants_(c.checkInvariants_),
    maxOverlapRatio_(c.maxOverlapRatio_),
    nInitial_(c.nInitial_),
    escapedBefore_(c.escapedBefore_),
    escapedLocal_(c.escapedLocal_),
    nRemoved_(c.nRemoved_)
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
void Foam::SuperellipsoidCloud<CloudType>::readChecks()
{
    namespace checks = superellipsoidDictionaryChecks;
    const dictionary& props = this->particleProperties();

    logParcels_ = props.getOrDefault<Switch>("logParcels", false);

    // Zero, negative or non-finite density: mass 0 -> division by zero in
    // the parcel update
    const scalar rho0 = this->constProps().rho0();
    if (!(rho0 > 0) || !std::isfinite(rho0))
    {
        FatalIOErrorInFunction(props.subDict("constantProperties"))
            << "Bad entry rho0 " << rho0
            << ": the particle density must be positive" << nl
            << exit(FatalIOError);
    }

    // BrennerDrag is the superellipsoid's whole Stokes drag (Eq. 5 of [Wedel2023]): a
    // second drag model would count the drag twice
    wordList forceNames;
    bool brenner = false;
    forAll(this->forces(), i)
    {
        const word type(this->forces()[i].type());
        forceNames.append(type);
        brenner = brenner || type == "BrennerDrag";
    }
    if (brenner)
    {
        for (const word& type : forceNames)
        {
            if
            (
                type != "BrennerDrag" && type.size() > 4
             && type.compare(type.size() - 4, 4, "Drag") == 0
            )
            {
                FatalIOErrorInFunction
                (
                    this->subModelProperties().subDict("particleForces")
                )
                    << "Bad entries BrennerDrag and " << type
                    << ": BrennerDrag is the full drag of a superellipsoid"
                    << " (Eq. 5 of [Wedel2023]); remove " << type << nl
                    << exit(FatalIOError);
            }
        }
    }

    const dictionary* dictPtr = props.findDict("superellipsoidChecks");
    if (dictPtr)
    {
        const dictionary& dict = *dictPtr;
        checks::checkKeywords
        (
            dict, {"invariants", "maxOverlapRatio"}, "superellipsoidChecks"
        );
        checkInvariants_ = dict.getOrDefault<Switch>("invariants", false);
        if (dict.found("maxOverlapRatio", keyType::LITERAL))
        {
            maxOverlapRatio_ = checks::readPositive(dict, "maxOverlapRatio");
        }
    }
    if (checkInvariants_)
    {
        Info<< "    run-time checks: invariants every step (|e| = 1 within "
            << maxQuaternionNormError << ", finite state";
        if (maxOverlapRatio_ > 0)
        {
            Info<< ", overlap / c_min <= " << maxOverlapRatio_;
        }
        Info<< "), bookkeeping balanced and no parcel lost through a wall"
            << " at the end" << endl;
    }
}


template<class CloudType>
void Foam::SuperellipsoidCloud<CloudType>::checkParcelInvariants() const
{
    const word timeName(this->db().time().timeName());
    for (const parcelType& p : *this)
    {
        const scalar qNorm = std::sqrt(sqr(p.e0()) + magSqr(p.e()));
        const bool finite =
            std::isfinite(magSqr(p.position())) && std::isfinite(magSqr(p.U()))
         && std::isfinite(magSqr(p.omegaP())) && std::isfinite(qNorm)
         && std::isfinite(p.d()) && std::isfinite(p.nParticle());
        const char* violated =
            !finite ? "non-finite state"
          : !(mag(qNorm - 1) <= maxQuaternionNormError) ? "|e| != 1"
          : (p.shapeId() < 0 || p.shapeId() >= shapes_->size()) ? "shapeId out of range"
          : !(p.d() > 0 && p.mass() > 0 && p.nParticle() > 0) ? "non-positive size or mass"
          : nullptr;
        if (violated)
        {
            FatalErrorInFunction
                << "Invariant violated (" << violated << ") at time "
                << timeName << ": parcel " << p.origProc() << ':'
                << p.origId() << " of cloud " << this->name()
                << " position " << p.position() << " U " << p.U()
                << " e0 " << p.e0() << " e123 " << p.e() << " |e| " << qNorm
                << " omegaP " << p.omegaP() << " shapeId " << p.shapeId()
                << " d " << p.d() << " nParticle " << p.nParticle() << nl
                << exit(FatalError);
        }
    }
}


template<class CloudType>
void Foam::SuperellipsoidCloud<CloudType>::countEscape(const label patchi)
{
    if (patchi >= 0 && patchi < escapedLocal_.size())
    {
        ++escapedLocal_[patchi];
    }
}


namespace Foam
{
namespace superellipsoidRestart
{
    //- A double as a word of its 16 hex digits (exact for any
    //  writePrecision): "x3ff0000000000000" is 1
    inline word toHex(const double v)
    {
        std::uint64_t bits;
        std::memcpy(&bits, &v, sizeof(bits));
        char buf[20];
        std::snprintf(buf, sizeof(buf), "x%016llx", static_cast<unsigned long long>(bits));
        return word(buf);
    }

    //- Inverse of toHex; false if w is not such a word
    inline bool fromHex(const word& w, double& v)
    {
        if (w.size() != 17 || w[0] != 'x') return false;
        char* end = nullptr;
        const unsigned long long bits = std::strtoull(w.c_str() + 1, &end, 16);
        if (end != w.c_str() + 17) return false;
        const std::uint64_t b = bits;
        std::memcpy(&v, &b, sizeof(v));
        return true;
    }
}
}


template<class CloudType>
void Foam::SuperellipsoidCloud<CloudType>::storeRestartData()
{
    dictionary& out = this->outputProperties();

    // Bookkeeping: global counts, escapes per patch name
    labelList escaped(escapedLocal_);
    Pstream::listCombineGather(escaped, plusEqOp<label>());
    Pstream::listCombineScatter(escaped);
    HashTable<label, word> total(escapedBefore_);
    const polyBoundaryMesh& patches = this->mesh().boundaryMesh();
    forAll(patches, patchi)
    {
        total(patches[patchi].name()) += escaped[patchi];
    }
    dictionary book;
    book.add("initial", nInitial_);
    book.add("removed", nRemoved_);
    dictionary esc;
    for (const word& name : total.sortedToc())
    {
        esc.add(name, total[name]);
    }
    book.add("escaped", esc);
    out.set("superellipsoidBookkeeping", book);

    // Contact history of the collision model (records of every
    // processor's own parcels, gathered: the same on every processor)
    if (seCollision_ && seCollision_->active())
    {
        const std::vector<superellipsoid::PairRecord> records =
            seCollision_->gatheredRecords();
        labelList labels(5*label(records.size()));
        wordList values(11*label(records.size()));
        label li = 0, vi = 0;
        for (const superellipsoid::PairRecord& r : records)
        {
            long first = 0, second = 0;
            const bool wall =
                superellipsoid::PairCache::decodeKey(r.key, first, second);
            labels[li++] = wall;
            labels[li++] = label(first);
            labels[li++] = label(second);
            labels[li++] = r.warm.valid;
            labels[li++] = r.obbAxis;
            for (int i = 0; i < 3; ++i) values[vi++] = superellipsoidRestart::toHex(r.warm.normalInA[i]);
            for (int i = 0; i < 3; ++i) values[vi++] = superellipsoidRestart::toHex(r.warm.pointInA[i]);
            values[vi++] = superellipsoidRestart::toHex(r.warm.multiplier);
            for (int i = 0; i < 3; ++i) values[vi++] = superellipsoidRestart::toHex(r.history.displacement[i]);
            values[vi++] = superellipsoidRestart::toHex(r.normalImpulse);
        }
        dictionary contacts;
        contacts.add("model", seCollision_->modelName());
        contacts.add("idFold", idFold_);
        contacts.add("nRecords", label(records.size()));
        contacts.add("labels", labels);     // wall? first second warm.valid obbAxis
        contacts.add("values", values);     // normalInA pointInA multiplier spring normalImpulse
        out.set("superellipsoidContacts", contacts);
    }
}


template<class CloudType>
void Foam::SuperellipsoidCloud<CloudType>::restoreRestartData
(
    const label nReadBeforeLost
)
{
    const dictionary& out = this->outputProperties();
    const label present = returnReduce(this->size(), sumOp<label>());
    const label lostOnReading = nReadBeforeLost - present;

    label injected = 0;
    forAll(this->injectors(), i)
    {
        injected += this->injectors()[i].parcelsAddedTotal();
    }

    const dictionary* bookPtr = out.findDict("superellipsoidBookkeeping");
    if (bookPtr)
    {
        nInitial_ = bookPtr->get<label>("initial");
        nRemoved_ = bookPtr->get<label>("removed") + lostOnReading;
        const dictionary& esc = bookPtr->subDict("escaped");
        for (const entry& e : esc)
        {
            escapedBefore_.set(e.keyword(), esc.get<label>(e.keyword()));
        }
    }
    else
    {
        // First start (or a case written before the bookkeeping): parcels
        // present that the injectors did not add are initial parcels
        nInitial_ = nReadBeforeLost - injected;
        nRemoved_ = lostOnReading;
    }
    if (lostOnReading)
    {
        WarningInFunction
            << lostOnReading << " parcel(s) of cloud " << this->name()
            << " not found in the mesh when reading time "
            << this->db().time().timeName() << ": counted as removed" << endl;
    }

    const dictionary* contactsPtr = out.findDict("superellipsoidContacts");
    if (!contactsPtr || !seCollision_ || !seCollision_->active())
    {
        return;
    }
    const dictionary& contacts = *contactsPtr;
    if (contacts.get<word>("model") != seCollision_->modelName())
    {
        Info<< "    contact history of model "
            << contacts.get<word>("model") << " not used by model "
            << seCollision_->modelName() << endl;
        return;
    }
    const label oldFold = contacts.get<label>("idFold");
    const label n = contacts.get<label>("nRecords");
    const labelList labels(contacts.get<labelList>("labels"));
    const wordList values(contacts.get<wordList>("values"));
    // 11 values per record; 10 in files written before the resting-contact
    // impulse was stored (read as 0: no warm start in the first substep)
    const label nValues = n > 0 && values.size() == 10*n ? 10 : 11;
    if (oldFold < 1 || n < 0 || labels.size() != 5*n || values.size() != nValues*n)
    {
        FatalIOErrorInFunction(contacts)
            << "Bad contact history: idFold " << oldFold << ", nRecords " << n
            << ", " << labels.size() << " labels (expected " << 5*n << "), "
            << values.size() << " values (expected " << 11*n
            << "): truncated or corrupt file" << nl << exit(FatalIOError);
    }

    // Ids of the writing run (origId*oldFold + origProc) -> this run's
    const auto remap = [&](const label id)
    {
        return long(id/oldFold)*idFold_ + long(id % oldFold);
    };
    superellipsoid::PairCache& cache = seCollision_->pairCache();
    cache.clear();
    for (label k = 0; k < n; ++k)
    {
        const label* l = &labels[5*k];
        double v[11] = {0};
        for (int i = 0; i < nValues; ++i)
        {
            if (!superellipsoidRestart::fromHex(values[nValues*k + i], v[i]))
            {
                FatalIOErrorInFunction(contacts)
                    << "Bad contact history: values[" << nValues*k + i << "] "
                    << values[nValues*k + i] << " is not a hex-coded double" << nl
                    << exit(FatalIOError);
            }
        }
        std::uint64_t key = 0;
        try
        {
            key =
                l[0]
              ? superellipsoid::PairCache::wallKey(remap(l[1]), int(l[2]))
              : superellipsoid::PairCache::pairKey(remap(l[1]), remap(l[2]));
        }
        catch (const std::invalid_argument& err)
        {
            FatalIOErrorInFunction(contacts)
                << "Bad contact history record " << k << ": " << err.what()
                << nl << exit(FatalIOError);
        }
        superellipsoid::PairRecord& r = cache.acquire(key);
        r.warm.valid = l[3];
        r.obbAxis = int(l[4]);
        r.warm.normalInA = superellipsoid::Vector3(v[0], v[1], v[2]);
        r.warm.pointInA = superellipsoid::Vector3(v[3], v[4], v[5]);
        r.warm.multiplier = v[6];
        r.history.displacement = superellipsoid::Vector3(v[7], v[8], v[9]);
        r.normalImpulse = v[10];
        r.touched = false;
    }
    Info<< "    contact history: " << n << " records read from "
        << this->outputProperties().objectPath() << endl;
}


template<class CloudType>
void Foam::SuperellipsoidCloud<CloudType>::writeBookkeeping()
{
    labelList escaped(escapedLocal_);
    Pstream::listCombineGather(escaped, plusEqOp<label>());
    Pstream::listCombineScatter(escaped);

    HashTable<label, word> total(escapedBefore_);
    const polyBoundaryMesh& patches = this->mesh().boundaryMesh();
    forAll(patches, patchi)
    {
        total(patches[patchi].name()) += escaped[patchi];
    }
    label nEscaped = 0, nWall = 0;
    for (const word& name : total.toc())
    {
        nEscaped += total[name];
        const label patchi = patches.findPatchID(name);
        if (patchi >= 0 && isA<wallPolyPatch>(patches[patchi]))
        {
            nWall += total[name];
        }
    }

    label injected = 0;
    forAll(this->injectors(), i)
    {
        injected += this->injectors()[i].parcelsAddedTotal();
    }
    const label present = returnReduce(this->size(), sumOp<label>());
    const label imbalance = nInitial_ + injected - present - nEscaped - nRemoved_;

    Info<< nl << "Particle bookkeeping of cloud " << this->name() << " at time "
        << this->db().time().timeName() << ":" << nl
        << "    initial " << nInitial_ << " + injected " << injected
        << " = present " << present << " + escaped " << nEscaped
        << " + removed " << nRemoved_
        << (imbalance ? "  NOT BALANCED" : "  (balanced)") << nl;
    for (const word& name : total.sortedToc())
    {
        const label patchi = patches.findPatchID(name);
        Info<< "    escaped through patch " << name << " ("
            << (patchi >= 0 ? patches[patchi].type() : word("not in mesh"))
            << "): " << total[name] << nl;
    }
    Info<< "    lost through walls: " << nWall << nl << endl;

    if (imbalance || nWall)
    {
        if (checkInvariants_)
        {
            FatalErrorInFunction
                << "Particle bookkeeping of cloud " << this->name()
                << ": imbalance " << imbalance << ", " << nWall
                << " parcel(s) lost through walls" << nl << exit(FatalError);
        }
        WarningInFunction
            << "Particle bookkeeping of cloud " << this->name()
            << ": imbalance " << imbalance << ", " << nWall
            << " parcel(s) lost through walls" << endl;
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

    // Leapfrog half kicks (soft model) without a Cloud::move pass: they
    // neither track nor transfer parcels. The closing half kick of substep
    // k and the opening one of k + 1 use the same force and orientation,
    // so they run in one loop (two half kicks each: the same arithmetic,
    // bit for bit, as the two passes did)
    auto halfKicks = [&cloud](const scalar h, const label nKicks)
    {
        for (parcelType& p : cloud)
        {
            for (label j = 0; j < nKicks; ++j)
            {
                p.halfKick(cloud, h);
            }
        }
    };

    for (label k = 0; k < n; ++k)
    {
        if (subCycle.valid())
        {
            ++subCycle();
        }
        const scalar h = time.deltaTValue();

        if (model.soft() && k == 0)
        {
            halfKicks(h, 1);
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
            // Closing half kick, and the next substep's opening one
            halfKicks(h, k + 1 < n ? 2 : 1);
        }
    }

    if (subCycle.valid())
    {
        subCycle->endSubCycle();
    }

    gatherParcels();
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

    if (checkInvariants_)
    {
        checkParcelInvariants();
    }
    if (this->db().time().writeTime())
    {
        // Written with the cloud's output properties by postEvolve
        storeRestartData();
    }

    if (logParcels_)
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
