/*---------------------------------------------------------------------------*\
    superellipsoidFoam: BrennerFiniteReDragForce (see BrennerFiniteReDragForce.H).
\*---------------------------------------------------------------------------*/

#include "BrennerFiniteReDragForce.H"
#include "superellipsoidDictionaryChecks.H"
#include "eigenConversions.H"
#include "fvcDdt.H"
#include "fvcGrad.H"

#include "hydrodynamics/AddedMass.H"

#include <stdexcept>

// * * * * * * * * * * * * * * * Local Functions * * * * * * * * * * * * * //

namespace Foam
{
namespace
{

//- The law a keyword names (default if absent); an unknown name stops with
//  a FatalIOError naming keyword, value and the expected names
template<class FromName>
auto readLawName
(
    const dictionary& coeffs,
    const word& keyword,
    const word& defaultName,
    FromName fromName,
    const char* expected
)
{
    const word name(coeffs.getOrDefault<word>(keyword, defaultName));
    try
    {
        return fromName(name);
    }
    catch (const std::invalid_argument&)
    {
        FatalIOErrorInFunction(coeffs)
            << "Bad entry " << keyword << ' ' << name << ": expected "
            << expected << nl << exit(FatalIOError);
    }
    return fromName(defaultName);
}

//- The laws of the coefficients dictionary, by name, into settings: drag
//  correlation, dense drag, incidence (resolvedTable needs tableDirectory),
//  lift exponent and pitching torque
inline void readLaws
(
    const dictionary& coeffs,
    superellipsoid::FluidForceSettings& settings
)
{
    namespace se = superellipsoid;
    settings.drag.correlation = readLawName
    (
        coeffs, "correlation", "SchillerNaumann", se::dragCorrelationFromName,
        "SchillerNaumann, HaiderLevenspiel or Stokes"
    );
    settings.drag.denseDrag = readLawName
    (
        coeffs, "denseDrag", "none", se::denseDragLawFromName,
        "none, DiFelice, Beetstra or Tenneti"
    );
    settings.incidence = readLawName
    (
        coeffs, "incidence", "isotropic", se::incidenceLawFromName,
        "isotropic, Froehlich, HoelzerSommerfeld or resolvedTable"
    );
    if
    (
        settings.incidence == se::IncidenceLaw::resolvedTable
     && !coeffs.found("tableDirectory", keyType::LITERAL)
    )
    {
        FatalIOErrorInFunction(coeffs)
            << "Missing entry tableDirectory: incidence resolvedTable reads"
            << " the table of every shape from"
            << " <tableDirectory>/<shape>.resolvedCoefficients" << nl
            << exit(FatalIOError);
    }
    settings.liftExponent = readLawName
    (
        coeffs, "liftExponent", "mAIA", se::froehlichLiftExponentFromName,
        "mAIA or lnBeta"
    );
    settings.pitching = readLawName
    (
        coeffs, "pitchingTorque", "none", se::pitchingTorqueModelFromName,
        "none or Munk"
    );
}

} // End anonymous namespace
} // End namespace Foam


// * * * * * * * * * * * * * * * * Constructors  * * * * * * * * * * * * * * //

template<class CloudType>
Foam::BrennerFiniteReDragForce<CloudType>::BrennerFiniteReDragForce
(
    CloudType& owner,
    const fvMesh& mesh,
    const dictionary& dict
)
:
    BrennerDragForce<CloudType>
    (
        owner, mesh, dict, typeName, dict.dictName() == typeName
    ),
    minFluidFraction_(0.36),
    addedMass_(false),
    DUcDtPtr_(nullptr),
    fluidFractionPtr_(nullptr),
    maxRe_(0),
    outside_(),
    floored_(),
    totalForce_(Zero),
    warned_(false),
    minStepsPerPeriod_(GREAT),
    pitchingWarned_(false)
{
    namespace checks = superellipsoidDictionaryChecks;
    const dictionary& coeffs = this->coeffs();
    checks::checkKeywords
    (
        coeffs,
        {
            "correlation", "denseDrag", "minFluidFraction", "addedMass",
            "pitchingTorque", "incidence", "liftExponent", "tableDirectory"
        },
        typeName
    );

    const word correlation(coeffs.getOrDefault<word>("correlation", "SchillerNaumann"));
    readLaws(coeffs, this->settings_);
    addedMass_ = checks::readSwitchOrDefault(coeffs, "addedMass", false);
    try
    {
        superellipsoid::validateFluidForceSettings(this->settings_);
    }
    catch (const std::invalid_argument& err)
    {
        FatalIOErrorInFunction(coeffs)
            << "Bad entries incidence and pitchingTorque: " << err.what() << nl
            << exit(FatalIOError);
    }

    // Random close packing 0.64 of spheres: eps below 0.36 is not a
    // suspension the voidage functions were fitted to
    minFluidFraction_ =
        coeffs.found("minFluidFraction")
      ? checks::readBounded
        (
            coeffs, "minFluidFraction", superellipsoid::minimumFluidFraction, 1
        )
      : superellipsoid::minimumFluidFraction;

    const superellipsoid::DragCorrelationRange range =
        superellipsoid::validatedRange(this->settings_.drag.correlation);
    Info<< "    " << typeName << ": correlation " << correlation
        << " (validated " << range.minReynolds << " <= Re_p <= "
        << range.maxReynolds << "), dense drag "
        << word(superellipsoid::denseDragLawName(this->settings_.drag.denseDrag))
        << ", incidence " << word(superellipsoid::incidenceLawName(this->settings_.incidence))
        << ", added mass " << (addedMass_ ? "tensor" : "off")
        << ", pitching torque "
        << word(superellipsoid::pitchingTorqueModelName(this->settings_.pitching)) << endl;
}


template<class CloudType>
Foam::BrennerFiniteReDragForce<CloudType>::BrennerFiniteReDragForce
(
    const BrennerFiniteReDragForce<CloudType>& df
)
:
    BrennerDragForce<CloudType>(df),
    minFluidFraction_(df.minFluidFraction_),
    addedMass_(df.addedMass_),
    DUcDtPtr_(nullptr),
    fluidFractionPtr_(nullptr),
    maxRe_(0),
    outside_(),
    floored_(),
    totalForce_(Zero),
    warned_(df.warned_),
    minStepsPerPeriod_(GREAT),
    pitchingWarned_(df.pitchingWarned_)
{}


// * * * * * * * * * * * * * * * Member Functions  * * * * * * * * * * * * * //

template<class CloudType>
Foam::scalar Foam::BrennerFiniteReDragForce<CloudType>::fluidFraction
(
    const typename CloudType::parcelType& p
) const
{
    if (!fluidFractionPtr_.valid())
    {
        return 1;
    }
    const scalar eps = fluidFractionPtr_()[p.cell()];
    if (eps < minFluidFraction_)
    {
        floored_.insert(labelPair(p.origProc(), p.origId()));
    }
    return min(max(eps, minFluidFraction_), scalar(1));
}


template<class CloudType>
void Foam::BrennerFiniteReDragForce<CloudType>::record
(
    const typename CloudType::parcelType& p,
    const superellipsoid::ParticleFluidForce& F,
    const scalar dt
) const
{
    maxRe_ = max(maxRe_, F.correction.reynolds);
    // A tracked parcel is forced once per tracking substep dt
    totalForce_ +=
        (p.nParticle()*dt/this->mesh().time().deltaTValue())
       *superellipsoidConversions::toFoam(F.force);
    if (!F.correction.inValidatedRange)
    {
        outside_.insert(labelPair(p.origProc(), p.origId()));
    }
}


template<class CloudType>
void Foam::BrennerFiniteReDragForce<CloudType>::fluidInertia
(
    const typename CloudType::parcelType& p,
    const typename CloudType::parcelType::trackingData& td,
    const superellipsoidShapeTable::entry& shape,
    const tensor& R,
    tensor& massMatrix,
    vector& force
) const
{
    using namespace superellipsoidConversions;

    if (!DUcDtPtr_.valid())
    {
        FatalErrorInFunction
            << "Du/Dt not cached: cacheFields(true) was not called"
            << exit(FatalError);
    }

    const scalar V = shape.shape.volume();
    const tensor Ma = toFoam
    (
        superellipsoid::addedMassTensor(shape.addedMassCoefficients, td.rhoc(), V, toEigen(R))
    );
    const vector& DUcDt = DUcDtPtr_()[p.cell()];

    massMatrix += Ma;
    force += td.rhoc()*V*DUcDt + (Ma & DUcDt);
}


template<class CloudType>
superellipsoid::ParticleFluidTorque
Foam::BrennerFiniteReDragForce<CloudType>::torque
(
    const typename CloudType::parcelType& p,
    const superellipsoidShapeTable::entry& shape,
    const superellipsoidParcelFlow& flow,
    const superellipsoid::Matrix3& R,
    const scalar dt
) const
{
    if (this->settings_.pitching == superellipsoid::PitchingTorqueModel::Munk)
    {
        const superellipsoid::Matrix3 MaParticle = superellipsoid::addedMassTensor
        (
            shape.addedMassCoefficients, flow.fluid.density,
            shape.shape.volume(), superellipsoid::Matrix3::Identity()
        );
        const scalar period = superellipsoid::munkPitchingPeriod
        (
            MaParticle.diagonal(), p.rho()*shape.unitDensityMoments,
            R*superellipsoidConversions::toEigen(flow.slip)
        );
        minStepsPerPeriod_ = min(minStepsPerPeriod_, period/dt);
    }
    return BrennerDragForce<CloudType>::torque(p, shape, flow, R, dt);
}


template<class CloudType>
void Foam::BrennerFiniteReDragForce<CloudType>::storeFields()
{
    maxRe_ = 0;
    outside_.clear();
    floored_.clear();
    totalForce_ = Zero;
    minStepsPerPeriod_ = GREAT;
    if (addedMass_)
    {
        // Material derivative of the carrier velocity, as OpenFOAM's
        // pressureGradient force: (U & grad(U)) = (U . nabla) U
        const volVectorField& Uc = this->owner().U();
        DUcDtPtr_.reset
        (
            new volVectorField
            (
                this->owner().name() + ":DUcDt",
                fvc::ddt(Uc) + (Uc & fvc::grad(Uc))
            )
        );
    }
    if (this->settings_.drag.denseDrag != superellipsoid::DenseDragLaw::None)
    {
        // The carrier's own fluid fraction (two-way coupling: the solver's
        // alpha.<phase>, smoothed as the fluid sees it), else 1 - theta of
        // the cloud per cell
        const word alphaName
        (
            IOobject::groupName("alpha", this->owner().U().group())
        );
        const volScalarField* alpha =
            this->mesh().template findObject<volScalarField>(alphaName);
        fluidFractionPtr_.reset
        (
            new volScalarField
            (
                this->owner().name() + ":fluidFraction",
                (alpha && this->owner().solution().coupled())
              ? *alpha
              : volScalarField(1 - this->owner().theta())
            )
        );
    }
}


template<class CloudType>
void Foam::BrennerFiniteReDragForce<CloudType>::logStep()
{
    scalar maxRe = maxRe_;
    label nOutside = outside_.size();
    label nFloored = floored_.size();
    reduce(maxRe, maxOp<scalar>());
    reduce(nOutside, sumOp<label>());
    reduce(nFloored, sumOp<label>());

    const superellipsoid::DragCorrelationRange range =
        superellipsoid::validatedRange(this->settings_.drag.correlation);
    Info<< "    " << typeName << ": max Re_p " << maxRe << ", "
        << nOutside << " parcels outside "
        << word(superellipsoid::dragCorrelationName(this->settings_.drag.correlation))
        << " range [" << range.minReynolds << ", " << range.maxReynolds
        << ']';
    if (this->settings_.drag.denseDrag != superellipsoid::DenseDragLaw::None)
    {
        const superellipsoid::DenseDragRange dense =
            superellipsoid::validatedRange(this->settings_.drag.denseDrag);
        Info<< " or " << word(superellipsoid::denseDragLawName(this->settings_.drag.denseDrag))
            << " range (solid fraction <= " << dense.maxSolidFraction
            << ", Re_m <= " << dense.maxReynolds << "); " << nFloored
            << " parcels with fluid fraction below minFluidFraction "
            << minFluidFraction_ << " (law evaluated at the floor)";
    }
    Info<< endl;

    // The fluid's share of the momentum balance (a bed's pressure drop
    // times its area at steady state)
    Info<< "    " << typeName << ": total fluid force on the parcels "
        << returnReduce(totalForce_, sumOp<vector>()) << " N" << endl;

    if (this->settings_.pitching == superellipsoid::PitchingTorqueModel::Munk)
    {
        logMunkResolution();
    }
    if (nOutside + nFloored > 0 && !warned_)
    {
        warned_ = true;
        WarningInFunction
            << typeName << ": " << nOutside + nFloored << " parcels at Re_p outside the"
            << " validated range [" << range.minReynolds << ", "
            << range.maxReynolds << "] of "
            << word(superellipsoid::dragCorrelationName(this->settings_.drag.correlation))
            << " (largest Re_p " << maxRe << ") at time "
            << this->mesh().time().timeName()
            << ". Printed once per run; the log counts them every step."
            << endl;
    }
}


template<class CloudType>
void Foam::BrennerFiniteReDragForce<CloudType>::logMunkResolution()
{
    scalar minSteps = minStepsPerPeriod_;
    reduce(minSteps, minOp<scalar>());
    Info<< "    " << typeName << ": Munk torque: fewest steps per pitching"
        << " period " << minSteps << endl;
    if (minSteps < superellipsoid::minStepsPerPitchingPeriod && !pitchingWarned_)
    {
        pitchingWarned_ = true;
        WarningInFunction
            << typeName << ": the Munk pitching period is resolved by only "
            << minSteps << " time steps (fewer than "
            << superellipsoid::minStepsPerPitchingPeriod << ") at time "
            << this->mesh().time().timeName()
            << ": reduce deltaT. Printed once per run; the log gives the"
            << " fewest steps every step." << endl;
    }
}


template<class CloudType>
void Foam::BrennerFiniteReDragForce<CloudType>::cacheFields(const bool store)
{
    BrennerDragForce<CloudType>::cacheFields(store);
    if (store)
    {
        storeFields();
        return;
    }
    fluidFractionPtr_.clear();
    DUcDtPtr_.clear();
    logStep();
}


// ************************************************************************* //
