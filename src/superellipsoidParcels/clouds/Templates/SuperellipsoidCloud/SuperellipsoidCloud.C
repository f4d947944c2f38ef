/*---------------------------------------------------------------------------*\
    superellipsoidFoam: SuperellipsoidCloud (see SuperellipsoidCloud.H).
\*---------------------------------------------------------------------------*/

#include "SuperellipsoidCloud.H"
#include "eigenConversions.H"
#include "mathematicalConstants.H"
#include "unitConversion.H"
#include "OStringStream.H"
#include "Switch.H"

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
    else
    {
        FatalIOErrorInFunction(inj)
            << "Bad entry orientation " << mode
            << ": expected fixed or random" << nl
            << exit(FatalIOError);
    }

    injectOmegaP_ = inj.getOrDefault<vector>("angularVelocity", Zero);

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
    injectOmegaP_(Zero)
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
    injectOmegaP_(c.injectOmegaP_)
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
    injectOmegaP_(c.injectOmegaP_)
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

        this->solve(*this, td);
    }
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
