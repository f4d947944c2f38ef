/*---------------------------------------------------------------------------*\
    superellipsoidFoam: BrennerDragForce (see BrennerDragForce.H).
\*---------------------------------------------------------------------------*/

#include "BrennerDragForce.H"
#include "eigenConversions.H"
#include "fvcGrad.H"
#include "mathematicalConstants.H"


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
    gradUInterpPtr_(nullptr),
    settings_()
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
    gradUInterpPtr_(nullptr),
    settings_()
{}


template<class CloudType>
Foam::BrennerDragForce<CloudType>::BrennerDragForce
(
    const BrennerDragForce<CloudType>& df
)
:
    ParticleForce<CloudType>(df),
    SuperellipsoidFluidForce<CloudType>(),
    gradUPtr_(nullptr),
    gradUInterpPtr_(nullptr),
    settings_(df.settings_)
{}


// * * * * * * * * * * * * * * * Member Functions  * * * * * * * * * * * * * //

template<class CloudType>
Foam::superellipsoidParcelFlow Foam::BrennerDragForce<CloudType>::flow
(
    const typename CloudType::parcelType& p,
    const typename CloudType::parcelType::trackingData& td
) const
{
    if (!gradUInterpPtr_.valid())
    {
        FatalErrorInFunction
            << "grad(U) interpolation not cached: cacheFields(true) was not"
            << " called" << exit(FatalError);
    }

    superellipsoidParcelFlow flow;
    flow.slip = td.Uc() - p.U();
    flow.gradU = superellipsoidConversions::toEigen
    (
        gradUInterpPtr_->interpolate(p.coordinates(), p.currentTetIndices())
    );
    flow.fluid.density = td.rhoc();
    flow.fluid.kinematicViscosity = td.muc()/td.rhoc();
    flow.fluidFraction = fluidFraction(p);
    return flow;
}


template<class CloudType>
superellipsoid::ParticleFluidForce Foam::BrennerDragForce<CloudType>::force
(
    const typename CloudType::parcelType& p,
    const superellipsoidShapeTable::entry& shape,
    const superellipsoidParcelFlow& flow,
    const superellipsoid::Matrix3& R,
    const scalar dt
) const
{
    const superellipsoid::ParticleFluidForce F = superellipsoid::particleFluidForce
    (
        settings_, shape.hydrodynamics, flow.fluid, R,
        superellipsoidConversions::toEigen(flow.slip), flow.fluidFraction
    );
    record(p, F, dt);
    return F;
}


template<class CloudType>
superellipsoid::ParticleFluidTorque Foam::BrennerDragForce<CloudType>::torque
(
    const typename CloudType::parcelType&,
    const superellipsoidShapeTable::entry& shape,
    const superellipsoidParcelFlow& flow,
    const superellipsoid::Matrix3& R,
    const scalar
) const
{
    return superellipsoid::particleFluidTorque
    (
        settings_, shape.hydrodynamics, flow.fluid, R, flow.gradU,
        superellipsoidConversions::toEigen(flow.slip)
    );
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


// ************************************************************************* //
