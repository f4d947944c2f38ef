/*---------------------------------------------------------------------------*\
    superellipsoidFoam: BrennerDragForce (see BrennerDragForce.H).
\*---------------------------------------------------------------------------*/

#include "BrennerDragForce.H"
#include "eigenConversions.H"
#include "fvcGrad.H"
#include "mathematicalConstants.H"

#include "orientation/Orientation.H"

// * * * * * * * * * * * * * Private Member Functions  * * * * * * * * * * * //

template<class CloudType>
Foam::word Foam::BrennerDragForce<CloudType>::gradUName() const
{
    return "grad(" + this->owner().U().name() + ')';
}


// * * * * * * * * * * * * * * * * Constructors  * * * * * * * * * * * * * * //

template<class CloudType>
Foam::BrennerDragForce<CloudType>::BrennerDragForce
(
    CloudType& owner,
    const fvMesh& mesh,
    const dictionary& dict
)
:
    ParticleForce<CloudType>(owner, mesh, dict, typeName, false),
    gradUPtr_(nullptr),
    gradUInterpPtr_(nullptr)
{}


template<class CloudType>
Foam::BrennerDragForce<CloudType>::BrennerDragForce
(
    CloudType& owner,
    const fvMesh& mesh,
    const dictionary& dict,
    const word& forceType,
    const bool readCoeffs
)
:
    ParticleForce<CloudType>(owner, mesh, dict, forceType, readCoeffs),
    gradUPtr_(nullptr),
    gradUInterpPtr_(nullptr)
{}


template<class CloudType>
Foam::BrennerDragForce<CloudType>::BrennerDragForce
(
    const BrennerDragForce<CloudType>& df
)
:
    ParticleForce<CloudType>(df),
    gradUPtr_(nullptr),
    gradUInterpPtr_(nullptr)
{}


// * * * * * * * * * * * * * * * Member Functions  * * * * * * * * * * * * * //

template<class CloudType>
bool Foam::BrennerDragForce<CloudType>::isBrennerType(const word& type)
{
    return type == BrennerDragForce::typeName || type == "BrennerFiniteReDrag";
}


template<class CloudType>
const Foam::BrennerDragForce<CloudType>*
Foam::BrennerDragForce<CloudType>::find
(
    const PtrList<ParticleForce<CloudType>>& forces
)
{
    // By the run-time selection name (unique in the force table; nothing
    // derives from BrennerDragForce): called twice per parcel and
    // (collision) substep, a failing dynamic_cast (hierarchy walk) cost 7 %
    // of a sphere-collision run, a typeid comparison (mangled-name strcmp
    // across libraries) still 1.7 %
    forAll(forces, i)
    {
        if (isBrennerType(forces[i].type()))
        {
            return static_cast<const BrennerDragForce*>(&forces[i]);
        }
    }
    return nullptr;
}


template<class CloudType>
Foam::tensor Foam::BrennerDragForce<CloudType>::translationalResistance
(
    const tensor& R,
    const superellipsoidShapeTable::entry& shape,
    const scalar muc
)
{
    using namespace superellipsoidConversions;

    // Eq. (5) of [Wedel2023]: F = pi mu c K.(u - v), Eq. (6): K = R^T K' R (global frame)
    return toFoam
    (
        superellipsoid::translationalResistance
        (
            shape.resistance.K, shape.shape.c(), muc, toEigen(R)
        )
    );
}


template<class CloudType>
Foam::scalar Foam::BrennerDragForce<CloudType>::dragFactor
(
    const typename CloudType::parcelType&,
    const typename CloudType::parcelType::trackingData&,
    const scalar,
    const superellipsoidShapeTable::entry&
) const
{
    return 1;
}


template<class CloudType>
void Foam::BrennerDragForce<CloudType>::cacheFields(const bool store)
{
    if (store)
    {
        gradUPtr_.reset
        (
            new volTensorField(gradUName(), fvc::grad(this->owner().U()))
        );

        // The scheme is looked up by the field name, e.g. grad(U.air)
        gradUInterpPtr_.reset
        (
            interpolation<tensor>::New
            (
                this->owner().solution().interpolationSchemes(),
                gradUPtr_()
            ).ptr()
        );
    }
    else
    {
        gradUInterpPtr_.clear();
        gradUPtr_.clear();
    }
}


template<class CloudType>
Foam::forceSuSp Foam::BrennerDragForce<CloudType>::calcCoupled
(
    const typename CloudType::parcelType&,
    const typename CloudType::parcelType::trackingData&,
    const scalar,
    const scalar,
    const scalar,
    const scalar
) const
{
    return forceSuSp(Zero, 0);
}


template<class CloudType>
Foam::tensor Foam::BrennerDragForce<CloudType>::gradU
(
    const typename CloudType::parcelType& p
) const
{
    if (!gradUInterpPtr_.valid())
    {
        FatalErrorInFunction
            << "grad(U) interpolation not cached: cacheFields(true) was not"
            << " called" << exit(FatalError);
    }

    return gradUInterpPtr_->interpolate
    (
        p.coordinates(),
        p.currentTetIndices()
    );
}


template<class CloudType>
void Foam::BrennerDragForce<CloudType>::torqueAndDamping
(
    const superellipsoid::Matrix3& gradU,
    const superellipsoid::Quaternion& e,
    const superellipsoidShapeTable::entry& shape,
    const scalar rhoc,
    const scalar muc,
    const scalar rhop,
    superellipsoid::Vector3& torque,
    superellipsoid::Matrix3& damping
)
{
    superellipsoid::HydrodynamicParticle particle;
    particle.tensors = shape.resistance;
    particle.c = shape.shape.c();
    particle.volume = shape.shape.volume();
    particle.density = rhop;

    superellipsoid::FluidProperties fluid;
    fluid.density = rhoc;
    fluid.kinematicViscosity = muc/rhoc;

    // Eq. (21) of [Wedel2023] with the strain and spin of Eqs. (22)-(23); omega' enters
    // only through the damping, so it is not needed here
    const superellipsoid::HydrodynamicTorque T = superellipsoid::hydrodynamicTorque
    (
        particle,
        fluid,
        superellipsoid::rotationMatrix(e),
        gradU,
        superellipsoid::Vector3::Zero()
    );

    torque = T.atRestParticleFrame;
    damping = T.dampingParticleFrame;
}


// ************************************************************************* //
