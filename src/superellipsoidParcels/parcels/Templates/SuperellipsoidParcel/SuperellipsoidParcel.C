/*---------------------------------------------------------------------------*\
    superellipsoidFoam: SuperellipsoidParcel (see SuperellipsoidParcel.H).
\*---------------------------------------------------------------------------*/

#include "SuperellipsoidParcel.H"
#include "BrennerDragForce.H"
#include "meshTools.H"
#include "mathematicalConstants.H"
#include "processorPolyPatch.H"
#include "wallPolyPatch.H"

#include "dynamics/RigidBodyRotation.H"

// * * * * * * * * * * * * * * * * Constructors  * * * * * * * * * * * * * * //

template<class ParcelType>
Foam::SuperellipsoidParcel<ParcelType>::SuperellipsoidParcel
(
    const SuperellipsoidParcel<ParcelType>& p
)
:
    ParcelType(p),
    e0_(p.e0_),
    e_(p.e_),
    omegaP_(p.omegaP_),
    shapeId_(p.shapeId_)
{}


template<class ParcelType>
Foam::SuperellipsoidParcel<ParcelType>::SuperellipsoidParcel
(
    const SuperellipsoidParcel<ParcelType>& p,
    const polyMesh& mesh
)
:
    ParcelType(p, mesh),
    e0_(p.e0_),
    e_(p.e_),
    omegaP_(p.omegaP_),
    shapeId_(p.shapeId_)
{}


// * * * * * * * * * * * * * Protected Member Functions  * * * * * * * * * * //

template<class ParcelType>
template<class TrackCloudType>
void Foam::SuperellipsoidParcel<ParcelType>::calcRotation
(
    TrackCloudType& cloud,
    trackingData& td,
    const scalar dt
)
{
    using namespace superellipsoidConversions;
    typedef typename TrackCloudType::parcelType parcelType;
    typedef BrennerDragForce<typename TrackCloudType::kinematicCloudType>
        brennerType;

    if (!this->active())
    {
        // A stuck parcel (stick wall interaction) keeps its pose
        omegaP_ = Zero;
        return;
    }

    const superellipsoidShapeTable::entry& shape = cloud.shapes()[shapeId_];
    const superellipsoid::Vector3 J = this->rho()*shape.unitDensityMoments;

    superellipsoid::RotationalState state;
    state.orientation = orientation();
    state.angularVelocity = toEigen(omegaP_);

    const brennerType* brenner = brennerType::find(cloud.forces());
    if (!brenner)
    {
        // Torque-free rigid body
        superellipsoid::driftFreeRotation(state, J, dt);
    }
    else
    {
        // Fluid torque T0'(e) - D omega' of Eq. (21) of [Wedel2023], with the velocity
        // gradient at the parcel frozen over the step. T0' depends on the
        // orientation, so it is evaluated at the midpoint orientation
        // (predictor: half a step of kick-drift with the start torque);
        // then one kick-drift-kick step (core integrator). In the
        // inertialess limit (rotational response time << dt) the kick sets
        // omega' to D^-1 T0'(e_half) and the step is the explicit midpoint
        // rule, second order in dt (Jeffery orbits converge as dt^2).
        const superellipsoid::Matrix3 gradU = toEigen
        (
            brenner->gradU(static_cast<const parcelType&>(*this))
        );

        superellipsoid::Vector3 torque;
        superellipsoid::Matrix3 damping;
        brennerType::torqueAndDamping
        (
            gradU, state.orientation, shape, td.rhoc(), td.muc(), this->rho(),
            torque, damping
        );

        superellipsoid::RotationalState half = state;
        superellipsoid::kickAngularMomentum(half, J, torque, damping, 0.5*dt);
        superellipsoid::driftFreeRotation(half, J, 0.5*dt);

        brennerType::torqueAndDamping
        (
            gradU, half.orientation, shape, td.rhoc(), td.muc(), this->rho(),
            torque, damping
        );
        superellipsoid::advanceRotation(state, J, torque, damping, dt);
    }

    setOrientation(state.orientation);
    omegaP_ = toFoam(state.angularVelocity);
}


// * * * * * * * * * * * * * * * Member Functions  * * * * * * * * * * * * * //

template<class ParcelType>
template<class TrackCloudType>
bool Foam::SuperellipsoidParcel<ParcelType>::moveDisplacement
(
    TrackCloudType& cloud,
    trackingData& td,
    const scalar trackTime
)
{
    // Overlap-removal displacement d = f() trackTime of the collision step
    // (SuperellipsoidCloud::motion, impulse model), tracked through the
    // mesh so cell/tet data stay valid. Crossing a processor boundary
    // hands the parcel to Cloud::move, which transfers it (f() travels
    // with it) and calls this again for the rest. Any other boundary face
    // (a wall, which the collision step keeps the surface off, cyclic,
    // symmetry) ends the displacement there: counted by the cloud.
    td.keepParticle = true;
    td.switchProcessor = false;

    const vector d(this->f()*trackTime);
    if (magSqr(d) == 0)
    {
        this->stepFraction() = 1;
        return td.keepParticle;
    }

    const polyBoundaryMesh& pbm = this->mesh().boundaryMesh();
    label iter = 0;
    while (td.keepParticle && !td.switchProcessor && this->stepFraction() < 1)
    {
        const scalar fraction = 1 - this->stepFraction();
        this->track(fraction*d, fraction);

        if (this->stepFraction() < 1 && this->onBoundaryFace())
        {
            if (isA<processorPolyPatch>(pbm[this->patch()]))
            {
                td.switchProcessor = true;
                return td.keepParticle;
            }
            cloud.countTruncatedDisplacement();
            this->stepFraction() = 1;
        }
        if (++iter > maxDisplacementTrackIterations)
        {
            cloud.countTruncatedDisplacement();
            this->stepFraction() = 1;
        }
    }

    this->f() = Zero;
    return td.keepParticle;
}


template<class ParcelType>
template<class TrackCloudType>
bool Foam::SuperellipsoidParcel<ParcelType>::hitPatch
(
    TrackCloudType& cloud,
    trackingData& td
)
{
    if (isA<wallPolyPatch>(this->mesh().boundaryMesh()[this->patch()]))
    {
        cloud.countWallBackstop();
    }
    const bool handled = ParcelType::hitPatch(cloud, td);
    if (!td.keepParticle)
    {
        // Removed by the patch interaction (escape): bookkeeping per patch
        cloud.countEscape(this->patch());
    }
    return handled;
}


template<class ParcelType>
template<class TrackCloudType>
bool Foam::SuperellipsoidParcel<ParcelType>::move
(
    TrackCloudType& cloud,
    trackingData& td,
    const scalar trackTime
)
{
    if (td.part() == trackingData::tpRotationalTrack)
    {
        return moveDisplacement(cloud, td, trackTime);
    }

    if (td.part() != trackingData::tpVelocityHalfStep)
    {
        return ParcelType::move(cloud, td, trackTime);
    }

    td.keepParticle = true;
    td.switchProcessor = false;
    halfKick(cloud, trackTime);
    return td.keepParticle;
}


template<class ParcelType>
template<class TrackCloudType>
void Foam::SuperellipsoidParcel<ParcelType>::halfKick
(
    TrackCloudType& cloud,
    const scalar trackTime
)
{
    // Leapfrog half kick of the collision force and torque (global frame);
    // the torque acts on omega' with the orientation frozen (dL' = dt/2 T')
    this->U() += 0.5*trackTime*this->f()/this->mass();

    const superellipsoidShapeTable::entry& shape = cloud.shapes()[shapeId_];
    const vector J
    (
        superellipsoidConversions::toFoam(superellipsoid::Vector3(this->rho()*shape.unitDensityMoments))
    );
    const tensor Rp(R());

    if (this->active())
    {
        omegaP_ += 0.5*trackTime*vector(cmptDivide(Rp & this->torque(), J));
    }

    // Keep CollidingParcel's angular momentum (global) consistent
    this->angularMomentum() = Rp.T() & vector(cmptMultiply(J, omegaP_));
}


template<class ParcelType>
template<class TrackCloudType>
void Foam::SuperellipsoidParcel<ParcelType>::calc
(
    TrackCloudType& cloud,
    trackingData& td,
    const scalar dt
)
{
    typedef typename TrackCloudType::parcelType parcelType;
    typedef BrennerDragForce<typename TrackCloudType::kinematicCloudType>
        brennerType;

    const parcelType& p = static_cast<const parcelType&>(*this);
    typename parcelType::trackingData& ttd =
        static_cast<typename parcelType::trackingData&>(td);

    const scalar np0 = this->nParticle();
    const scalar mass0 = this->mass();
    const scalar Re = this->Re(td);
    const scalar muc = td.muc();

    // Scalar-coefficient forces of the dictionary (gravity, pressure
    // gradient, virtual mass, other drag models ...)
    const typename TrackCloudType::forceType& forces = cloud.forces();
    const forceSuSp Fcp = forces.calcCoupled(p, ttd, dt, mass0, Re, muc);
    const forceSuSp Fncp = forces.calcNonCoupled(p, ttd, dt, mass0, Re, muc);
    const scalar massEff = forces.massEff(p, ttd, mass0);

    // Tensor drag, Eq. (5) of [Wedel2023]: A = pi mu c R^T K' R [kg/s]
    tensor A(Zero);
    scalar AMax = 0;
    const brennerType* brenner = brennerType::find(forces);
    if (brenner)
    {
        const superellipsoidShapeTable::entry& shape = cloud.shapes()[shapeId_];
        A = brennerType::translationalResistance(R(), shape, muc);
        AMax = constant::mathematical::pi*muc*shape.shape.c()*shape.KMax;
    }

    // Backward Euler for the linear drag, explicit for the rest (core:
    // superellipsoid::implicitVelocityUpdate):
    // (m I + dt C) U_new = m U + dt (C Uc + Su), C = A + Sp I (SPD)
    using namespace superellipsoidConversions;
    const vector& Uc = td.Uc();
    const vector U0(this->U());

    superellipsoid::HydrodynamicForce force;
    force.dragCoefficient = toEigen(tensor(A + Fcp.Sp()*I));
    force.total = toEigen(vector(Fcp.Su() + Fncp.Su()));
    force.effectiveMass = massEff;
    vector Unew = toFoam
    (
        superellipsoid::implicitVelocityUpdate
        (
            force, toEigen(Uc), toEigen(U0), dt
        )
    );

    // Momentum given to the carrier phase: the coupled part of the change
    vector dUTrans = -(massEff*(Unew - U0) - dt*Fncp.Su());
    const scalar Spu = dt*(Fcp.Sp() + AMax);

    // Reduced-D cases
    const polyMesh& mesh = cloud.pMesh();
    meshTools::constrainDirection(mesh, mesh.solutionD(), Unew);
    meshTools::constrainDirection(mesh, mesh.solutionD(), dUTrans);

    this->U() = Unew;

    if (cloud.solution().coupled())
    {
        cloud.UTrans()[this->cell()] += np0*dUTrans;
        cloud.UCoeff()[this->cell()] += np0*Spu;
    }

    calcRotation(cloud, td, dt);
}


template<class ParcelType>
void Foam::SuperellipsoidParcel<ParcelType>::transformProperties
(
    const tensor& T
)
{
    ParcelType::transformProperties(T);

    using namespace superellipsoidConversions;

    // Q = particle -> global rotation of the orientation
    const superellipsoid::Matrix3 Q = orientation().toRotationMatrix();
    const superellipsoid::Matrix3 Tm = toEigen(T);

    if (det(T) > 0)
    {
        // Rotation: Q' = T Q; omega' (particle frame) unchanged
        setOrientation(superellipsoid::Quaternion(Tm*Q));
    }
    else
    {
        // Reflection: the shape is symmetric under the body-axis flip
        // D = diag(-1, 1, 1), so Q' = T Q D is a proper rotation describing
        // the mirrored body; the pseudovector omega = Q omega' maps to
        // det(T) T omega, hence omega'' = Q'^T (-T Q omega') = -D omega'
        superellipsoid::Matrix3 D = superellipsoid::Matrix3::Identity();
        D(0, 0) = -1;
        setOrientation(superellipsoid::Quaternion(Tm*Q*D));
        omegaP_ = vector(omegaP_.x(), -omegaP_.y(), -omegaP_.z());
    }
}


template<class ParcelType>
void Foam::SuperellipsoidParcel<ParcelType>::transformProperties
(
    const vector& separation
)
{
    ParcelType::transformProperties(separation);
}


// * * * * * * * * * * * * * * IOStream operators  * * * * * * * * * * * * * //

#include "SuperellipsoidParcelIO.C"

// ************************************************************************* //
