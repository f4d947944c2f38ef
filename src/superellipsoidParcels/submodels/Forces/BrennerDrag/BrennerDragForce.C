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
    const BrennerDragForce<CloudType>& df
)
:
    ParticleForce<CloudType>(df),
    gradUPtr_(nullptr),
    gradUInterpPtr_(nullptr)
{}


// * * * * * * * * * * * * * * * Member Functions  * * * * * * * * * * * * * //

template<class CloudType>
const Foam::BrennerDragForce<CloudType>*
Foam::BrennerDragForce<CloudType>::find
(
    const PtrList<ParticleForce<CloudType>>& forces
)
{
    forAll(forces, i)
    {
        const BrennerDragForce* brenner =
            dynamic_cast<const BrennerDragForce*>(&forces[i]);
        if (brenner)
        {
            return brenner;
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
    // Eq. (5): F = pi mu c K.(u - v), K = R^T K' R (global frame)
    return
        (constant::mathematical::pi*muc*shape.shape.c())
       *(R.T() & shape.K & R);
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
Foam::tensor Foam::BrennerDragForce<CloudType>::velocityGradient
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

    // fvc::grad(U)_ij = du_j/dx_i, hence the transpose
    return gradUInterpPtr_->interpolate
    (
        p.coordinates(),
        p.currentTetIndices()
    ).T();
}


template<class CloudType>
void Foam::BrennerDragForce<CloudType>::torqueAndDamping
(
    const superellipsoid::Matrix3& L,
    const superellipsoid::Quaternion& e,
    const superellipsoidShapeTable::entry& shape,
    const scalar muc,
    superellipsoid::Vector3& torque,
    superellipsoid::Matrix3& damping
)
{
    const superellipsoid::Matrix3 R = superellipsoid::rotationMatrix(e);

    // Velocity gradient in the particle frame: L' = R L R^T
    const superellipsoid::Matrix3 Lp = R*L*R.transpose();

    // Eq. (22): off-diagonal strain rates (f', g', h')
    const superellipsoid::Vector3 strain
    (
        0.5*(Lp(2, 1) + Lp(1, 2)),
        0.5*(Lp(0, 2) + Lp(2, 0)),
        0.5*(Lp(1, 0) + Lp(0, 1))
    );

    // Eq. (23): spin (xi', eta', chi') = half the vorticity
    const superellipsoid::Vector3 spin
    (
        0.5*(Lp(2, 1) - Lp(1, 2)),
        0.5*(Lp(0, 2) - Lp(2, 0)),
        0.5*(Lp(1, 0) - Lp(0, 1))
    );

    // Eq. (21): T' = pi mu c^3 [Pi' s' + Omega' (w' - omega')]
    const scalar scale = constant::mathematical::pi*muc*pow3(shape.shape.c());
    torque = scale*(shape.resistance.Pi*strain + shape.resistance.Omega*spin);
    damping = scale*shape.resistance.Omega;
}


// ************************************************************************* //
