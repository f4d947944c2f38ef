/*---------------------------------------------------------------------------*\
    superellipsoidFoam: SuperellipsoidParcel (see SuperellipsoidParcel.H).
\*---------------------------------------------------------------------------*/

#include "SuperellipsoidParcel.H"
#include "SuperellipsoidFluidForce.H"
#include "meshTools.H"
#include "mathematicalConstants.H"
#include "processorPolyPatch.H"
#include "wallPolyPatch.H"
#include "cyclicPolyPatch.H"
#include "cyclicAMIPolyPatch.H"

#include "dynamics/RigidBodyRotation.H"
#include "hydrodynamics/AddedMass.H"

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
    exactPosition_(p.exactPosition_),
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
    exactPosition_(p.exactPosition_),
    shapeId_(p.shapeId_)
{}


// * * * * * * * * * * * * * Protected Member Functions  * * * * * * * * * * //

template<class ParcelType>
template<class TrackCloudType>
superellipsoid::ParticleFluidTorque
Foam::SuperellipsoidParcel<ParcelType>::rotationForcing
(
    TrackCloudType& cloud,
    const scalar dt,
    const superellipsoidParcelFlow& flow
) const
{
    typedef typename TrackCloudType::parcelType parcelType;
    const parcelType& p = static_cast<const parcelType&>(*this);

    // Fluid torque T0'(e) - D omega' with the carrier flow at the parcel
    // frozen over the step. T0' depends on the orientation, so it is
    // evaluated at the midpoint orientation (predictor: half a step of
    // kick-drift with the start torque). In the inertialess limit
    // (rotational response time << dt) the kick sets omega' to
    // D^-1 T0'(e_half) and the step is the explicit midpoint rule, second
    // order in dt (Jeffery orbits converge as dt^2).
    const superellipsoidShapeTable::entry& shape = cloud.shapes()[shapeId_];
    const superellipsoid::Vector3 J = this->rho()*shape.unitDensityMoments;
    const auto& model = *cloud.fluidForce();

    superellipsoid::RotationalState half;
    half.orientation = orientation();
    half.angularVelocity = superellipsoidConversions::toEigen(omegaP_);
    const superellipsoid::ParticleFluidTorque start =
        model.torque(p, shape, flow, superellipsoid::rotationMatrix(half.orientation), dt);
    superellipsoid::kickAngularMomentum(half, J, start.atRest, start.damping, 0.5*dt);
    superellipsoid::driftFreeRotation(half, J, 0.5*dt);

    return model.torque(p, shape, flow, superellipsoid::rotationMatrix(half.orientation), dt);
}


template<class ParcelType>
template<class TrackCloudType>
void Foam::SuperellipsoidParcel<ParcelType>::calcRotation
(
    TrackCloudType& cloud,
    const scalar dt,
    const superellipsoidParcelFlow* flow
)
{
    using namespace superellipsoidConversions;

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

    if (flow)
    {
        // One kick-drift-kick step (core integrator) with the midpoint torque
        const superellipsoid::ParticleFluidTorque T = rotationForcing(cloud, dt, *flow);
        superellipsoid::advanceRotation(state, J, T.atRest, T.damping, dt);
    }
    else
    {
        superellipsoid::driftFreeRotation(state, J, dt);
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
    // The one tracking pass of a fluid step (impulse model): the core has
    // moved the parcel through all collision substeps; this tracks it from
    // its start to the core's end position, d = f() trackTime, so cell and
    // tet data follow. Along the chord, or through the substep waypoints
    // when the cloud holds them (the path bent by more than the chord rule
    // allows, SuperellipsoidCloud::trackWaypoints): waypoint k of n is
    // reached at step fraction (k + 1)/n. Boundary faces act as in
    // KinematicParcel::move: outlets remove the parcel (counted by
    // hitPatch), processor faces transfer it (Cloud::move calls this again
    // for the rest, f() travels with it), cyclics and cyclicAMIs pass it. A wall or any
    // other face ends the track there (counted as truncated: the substeps
    // keep the surface off the walls, so the centre never reaches one).
    td.keepParticle = true;
    td.switchProcessor = false;

    const std::vector<point>* waypoints = cloud.trackWaypoints(*this);
    if (magSqr(this->f()) == 0 && !waypoints)
    {
        this->stepFraction() = 1;
        return td.keepParticle;
    }

    const polyBoundaryMesh& pbm = this->mesh().boundaryMesh();
    const scalar start = this->stepFraction();
    label iter = 0;
    while (td.keepParticle && !td.switchProcessor && this->stepFraction() < 1)
    {
        // Segment to track: the rest of the chord, or the rest of waypoint
        // segment k (a fraction within 1e-3 of a segment's end counts as
        // at its end: the next segment starts from the current position)
        // (f() is rotated with the parcel by a rotational cyclic it
        // crossed: the rest of the chord turns with it)
        const vector d(this->f()*trackTime);
        const scalar sf = this->stepFraction();
        vector displacement = (1 - sf)*d;
        scalar segmentEnd = 1;
        if (waypoints)
        {
            const label n = label(waypoints->size());
            const label k = min(n - 1, label(std::floor(sf*n + 1e-3)));
            segmentEnd = (k + 1 == n) ? scalar(1) : scalar(k + 1)/n;
            displacement = (*waypoints)[k] - this->position();
        }

        this->trackToFace(displacement, max(segmentEnd - sf, scalar(0)));
        if (!this->onFace())
        {
            // Segment completed
            this->stepFraction() = segmentEnd;
        }
        else
        {
            this->hitFace(displacement, cloud, td);
            if
            (
                td.keepParticle && !td.switchProcessor && this->onBoundaryFace()
             && !isA<cyclicPolyPatch>(pbm[this->patch()])
             && !isA<cyclicAMIPolyPatch>(pbm[this->patch()])
            )
            {
                cloud.countTruncatedDisplacement();
                this->stepFraction() = 1;
            }
        }
        if (++iter > maxDisplacementTrackIterations)
        {
            cloud.countTruncatedDisplacement();
            this->stepFraction() = 1;
        }
    }

    this->age() += (this->stepFraction() - start)*trackTime;
    if (!td.switchProcessor)
    {
        this->f() = Zero;
    }
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
    const polyPatch& pp = this->mesh().boundaryMesh()[this->patch()];
    if
    (
        !td.keepParticle
     || (
            !handled && !isA<wallPolyPatch>(pp) && !pp.coupled()
         && !polyPatch::constraintType(pp.type())
        )
    )
    {
        // Removed by the patch interaction (escape), or by particle::hitFace
        // on a plain patch (an outlet the interaction model ignores):
        // bookkeeping per patch
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
typename Foam::SuperellipsoidParcel<ParcelType>::translationalForcing
Foam::SuperellipsoidParcel<ParcelType>::forcing
(
    TrackCloudType& cloud,
    trackingData& td,
    const scalar dt,
    const superellipsoidParcelFlow* flow
) const
{
    using namespace superellipsoidConversions;
    typedef typename TrackCloudType::parcelType parcelType;

    const parcelType& p = static_cast<const parcelType&>(*this);
    typename parcelType::trackingData& ttd =
        static_cast<typename parcelType::trackingData&>(td);

    const scalar mass0 = this->mass();
    const scalar Re = this->Re(td);
    const scalar muc = td.muc();

    // Scalar-coefficient forces of the dictionary (gravity, pressure
    // gradient, virtual mass, other drag models ...)
    const typename TrackCloudType::forceType& forces = cloud.forces();
    const forceSuSp Fcp = forces.calcCoupled(p, ttd, dt, mass0, Re, muc);
    const forceSuSp Fncp = forces.calcNonCoupled(p, ttd, dt, mass0, Re, muc);

    translationalForcing f;
    f.M = forces.massEff(p, ttd, mass0)*I;
    f.F = Fcp.Su() + Fncp.Su();
    f.Fnc = Fncp.Su();
    f.C = Fcp.Sp()*I;
    f.Spu = dt*Fcp.Sp();

    if (flow)
    {
        // The fluid-force model's law F = A (u - v) (global frame)
        const superellipsoidShapeTable::entry& shape = cloud.shapes()[shapeId_];
        const superellipsoid::ParticleFluidForce law =
            cloud.fluidForce()->force(p, shape, *flow, toEigen(R()), dt);
        f.C += toFoam(law.resistance);
        f.Spu += dt*law.maxResistance;
        if (cloud.fluidForce()->hasFluidInertia())
        {
            // Tensor added mass M_a and fluid stress (m_f I + M_a) Du/Dt
            cloud.fluidForce()->fluidInertia(p, ttd, shape, R(), f.M, f.F);
        }
    }
    return f;
}


template<class ParcelType>
template<class TrackCloudType>
void Foam::SuperellipsoidParcel<ParcelType>::addCoupling
(
    TrackCloudType& cloud,
    vector dUTrans,
    const scalar Spu
) const
{
    if (cloud.solution().coupled())
    {
        meshTools::constrainDirection(cloud.pMesh(), cloud.pMesh().solutionD(), dUTrans);
        cloud.UTrans()[this->cell()] += this->nParticle()*dUTrans;
        cloud.UCoeff()[this->cell()] += this->nParticle()*Spu;
    }
}


template<class ParcelType>
template<class TrackCloudType>
Foam::vector Foam::SuperellipsoidParcel<ParcelType>::calcVelocityChange
(
    TrackCloudType& cloud,
    trackingData& td,
    const translationalForcing& f,
    const scalar dt
)
{
    using namespace superellipsoidConversions;

    // Backward Euler for the linear drag, explicit for the rest:
    // (M + dt C) U_new = M U + dt (F + C Uc), C = A + Sp I, M = m_eff I
    // (+ M_a with added mass: SPD, stable for any density ratio)
    vector dU = toFoam
    (
        superellipsoid::implicitVelocityChange
        (
            toEigen(f.M), toEigen(f.C), toEigen(f.F), toEigen(td.Uc()), toEigen(this->U()), dt
        )
    );

    // Momentum given to the carrier phase: the coupled part of the change
    addCoupling(cloud, -((f.M & dU) - dt*f.Fnc), f.Spu);

    meshTools::constrainDirection(cloud.pMesh(), cloud.pMesh().solutionD(), dU);
    return dU;
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

    // The carrier flow at the parcel, formed once for force and torque
    superellipsoidParcelFlow flow;
    const auto* model = cloud.fluidForce();
    if (model)
    {
        flow = model->flow
        (
            static_cast<const parcelType&>(*this),
            static_cast<typename parcelType::trackingData&>(td)
        );
    }

    this->U() += calcVelocityChange(cloud, td, forcing(cloud, td, dt, model ? &flow : nullptr), dt);
    calcRotation(cloud, dt, model ? &flow : nullptr);
}


template<class ParcelType>
template<class TrackCloudType>
void Foam::SuperellipsoidParcel<ParcelType>::fluidForcing
(
    TrackCloudType& cloud,
    trackingData& td,
    const scalar dt,
    superellipsoid::Particle& q
)
{
    using namespace superellipsoidConversions;
    typedef typename TrackCloudType::parcelType parcelType;

    // Carrier values at the start position (as KinematicParcel::move)
    static_cast<parcelType&>(*this).setCellValues
    (
        cloud, static_cast<typename parcelType::trackingData&>(td)
    );

    // The carrier flow at the parcel, formed once for force and torque
    superellipsoidParcelFlow flow;
    const auto* model = cloud.fluidForce();
    if (model)
    {
        flow = model->flow
        (
            static_cast<const parcelType&>(*this),
            static_cast<typename parcelType::trackingData&>(td)
        );
    }

    // The forces evaluated once for the whole fluid step (the core's
    // gravity taken out, the core adds it back)
    const translationalForcing f = forcing(cloud, td, dt, model ? &flow : nullptr);
    q.resistedImpulse = superellipsoid::Vector3::Zero();
    if (f.M == tensor(q.mass*I) && cloud.pMesh().nSolutionD() == 3)
    {
        // The resistance C goes to the core, implicit in every substep on
        // the velocity the contacts leave: a contact-held parcel feels
        // C (Uc - 0), not the drag on a fall over dt it does not make.
        // Coupling: the explicit part now, -sum h C v after the core
        // (SuperellipsoidCloud::scatterFluidStep)
        const vector Uc(td.Uc());
        q.externalForce = toEigen(f.F + (f.C & Uc)) - q.mass*cloud.collisionGravity();
        q.externalResistance = toEigen(f.C);
        addCoupling(cloud, -dt*(f.F - f.Fnc + (f.C & Uc)), f.Spu);
    }
    else
    {
        // Added mass or a reduced-D mesh: the velocity change of the step
        // (backward Euler over dt) as a constant external force, and the
        // same change as the coupling source
        const vector dU(calcVelocityChange(cloud, td, f, dt));
        q.externalForce = q.mass*(toEigen(dU)/dt - cloud.collisionGravity());
        q.externalResistance = superellipsoid::Matrix3::Zero();
    }

    if (this->active() && model)
    {
        // Midpoint torque T0' and damping D of Eq. (21) of [Wedel2023], particle frame
        const superellipsoid::ParticleFluidTorque T = rotationForcing(cloud, dt, flow);
        q.externalTorque = T.atRest;
        q.externalDamping = T.damping;
    }
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
