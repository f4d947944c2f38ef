/*---------------------------------------------------------------------------*\
    superellipsoidFoam: BrennerDragForce (see BrennerDragForce.H).
\*---------------------------------------------------------------------------*/

#include "BrennerDragForce.H"
#include "eigenConversions.H"
#include "fvcGrad.H"
#include "mathematicalConstants.H"
#include "resolvedCoefficientFile.H"

#include <stdexcept>


// * * * * * * * * * * * * * * * Local Functions * * * * * * * * * * * * * //

namespace Foam
{
namespace
{

//- A law that cannot give a parcel's force or torque (the core's
//  std::invalid_argument, e.g. Re above the shape's table) stops the run
//  naming the parcel, the shape and, for resolvedTable, the table file
void lawFailed
(
    const char* what,
    const label origProc,
    const label origId,
    const superellipsoidShapeTable::entry& shape,
    const superellipsoid::FluidForceSettings& settings,
    const dictionary& lawDict,
    const Time& time,
    const std::invalid_argument& err
)
{
    FatalErrorInFunction
        << "The " << what << " of parcel (" << origProc << ' ' << origId
        << ") of shape " << shape.name << " at time " << time.timeName()
        << ", incidence " << word(superellipsoid::incidenceLawName(settings.incidence))
        << ": " << err.what();
    if (settings.incidence == superellipsoid::IncidenceLaw::resolvedTable)
    {
        FatalError
            << nl << "    table of resolved coefficients "
            << resolvedCoefficientFileName(lawDict, time.globalPath(), shape.name);
    }
    FatalError << nl << exit(FatalError);
}

} // End anonymous namespace
} // End namespace Foam


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
    superellipsoid::ParticleFluidForce F;
    try
    {
        F = superellipsoid::particleFluidForce
        (
            settings_, shape.hydrodynamics, flow.fluid, R,
            superellipsoidConversions::toEigen(flow.slip), flow.fluidFraction
        );
    }
    catch (const std::invalid_argument& err)
    {
        lawFailed
        (
            "fluid force", p.origProc(), p.origId(), shape, settings_,
            this->lawDict(), this->mesh().time(), err
        );
    }
    record(p, F, dt);
    return F;
}


template<class CloudType>
superellipsoid::ParticleFluidTorque Foam::BrennerDragForce<CloudType>::torque
(
    const typename CloudType::parcelType& p,
    const superellipsoidShapeTable::entry& shape,
    const superellipsoidParcelFlow& flow,
    const superellipsoid::Matrix3& R,
    const scalar
) const
{
    try
    {
        return superellipsoid::particleFluidTorque
        (
            settings_, shape.hydrodynamics, flow.fluid, R, flow.gradU,
            superellipsoidConversions::toEigen(flow.slip)
        );
    }
    catch (const std::invalid_argument& err)
    {
        lawFailed
        (
            "fluid torque", p.origProc(), p.origId(), shape, settings_,
            this->lawDict(), this->mesh().time(), err
        );
    }
    return superellipsoid::ParticleFluidTorque();
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
