/*---------------------------------------------------------------------------*\
    superellipsoidFoam: SuperellipsoidCloud, input: the shapes, the injected parcels'
    orientation, the run-time checks and the per-step invariants
    (see SuperellipsoidCloud.H).
\*---------------------------------------------------------------------------*/

#include "superellipsoidDictionaryChecks.H"
#include "unitConversion.H"
#include "Switch.H"
#include "Tuple2.H"

// * * * * * * * * * * * * * * * Local Functions * * * * * * * * * * * * * //

namespace Foam
{
namespace superellipsoidCloudInput
{
    //- At most one drag: BrennerDrag or BrennerFiniteReDrag, and no other
    //  "...Drag" force beside it
    template<class ForceList>
    void checkOneDrag
    (
        const ForceList& forces,
        const dictionary& subModelProperties
    )
    {
        // BrennerDrag is the superellipsoid's whole Stokes drag (Eq. 5 of [Wedel2023]): a
        // second drag model would count the drag twice
        wordList forceNames;
        bool brenner = false;
        forAll(forces, i)
        {
            const word type(forces[i].type());
            forceNames.append(type);
            brenner = brenner || type == "BrennerDrag" || type == "BrennerFiniteReDrag";
        }
        if (forceNames.found("BrennerDrag") && forceNames.found("BrennerFiniteReDrag"))
        {
            FatalIOErrorInFunction
            (
                subModelProperties.subDict("particleForces")
            )
                << "Bad entries BrennerDrag and BrennerFiniteReDrag: both are"
                << " the full drag of a superellipsoid; keep one" << nl
                << exit(FatalIOError);
        }
        if (brenner)
        {
            for (const word& type : forceNames)
            {
                if
                (
                    type != "BrennerDrag" && type != "BrennerFiniteReDrag"
                 && type.size() > 4
                 && type.compare(type.size() - 4, 4, "Drag") == 0
                )
                {
                    FatalIOErrorInFunction
                    (
                        subModelProperties.subDict("particleForces")
                    )
                        << "Bad entries BrennerDrag and " << type
                        << ": BrennerDrag is the full drag of a superellipsoid"
                        << " (Eq. 5 of [Wedel2023]); remove " << type << nl
                        << exit(FatalIOError);
                }
            }
        }
    }
} // End namespace superellipsoidCloudInput
} // End namespace Foam


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

    // Each shape's data for the laws of the fluid-force model (dry clouds:
    // Stokes, unused)
    const fluidForceType* model = fluidForce();
    shapes_ = std::make_shared<const superellipsoidShapeTable>
    (
        props.subDict("shapes"),
        cacheDir,
        model ? model->laws() : superellipsoid::FluidForceSettings(),
        model ? model->lawDict() : props,
        time.globalPath()
    );

    namespace checks = superellipsoidDictionaryChecks;

    const dictionary& inj = props.subDict("injectedParcels");

    injectShapeId_ = shapes_->find(inj.get<word>("shape"), inj, "shape");

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
    readInjectionOrientation(inj, mode);
    injectOmegaP_ = checks::readVectorOrDefault(inj, "angularVelocity", Zero);

    readChecks();

    readCollisionModel(props);

    Info<< "Superellipsoid cloud " << this->name() << nl;
    shapes_->writeInfo(Info);
    Info<< "    injected parcels: shape " << (*shapes_)[injectShapeId_].name
        << ", orientation " << mode << endl;
}


template<class CloudType>
void Foam::SuperellipsoidCloud<CloudType>::readInjectionOrientation
(
    const dictionary& inj,
    const word& mode
)
{
    namespace checks = superellipsoidDictionaryChecks;

    // Euler angles in degrees (z-x-z, Eq. 11 of [Wedel2023]) -> quaternion
    const auto fromDegrees = [](const vector& angles)
    {
        superellipsoid::EulerAngles euler;
        euler.phi = degToRad(angles.x());
        euler.theta = degToRad(angles.y());
        euler.psi = degToRad(angles.z());
        return superellipsoid::quaternionFromEulerAngles(euler);
    };

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

}


template<class CloudType>
void Foam::SuperellipsoidCloud<CloudType>::readCollisionModel
(
    const dictionary& props
)
{
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

    superellipsoidCloudInput::checkOneDrag(this->forces(), this->subModelProperties());

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



// ************************************************************************* //
