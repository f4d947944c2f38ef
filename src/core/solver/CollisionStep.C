#include "solver/CollisionStep.H"
#include "contact/ManifoldGeometry.H"
#include "collision/ContactCurvature.H"
#include "dynamics/RigidBodyRotation.H"
#include "math/SameBits.H"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>

namespace superellipsoid
{

namespace
{

//- Initial capacity of the per-particle wall-contact buffer
constexpr int initialFaceContacts = 64;

RigidBody rigidBodyOf(const Particle& q, const Superellipsoid& shape)
{
    RigidBody b = RigidBody::particle
    (
        q.mass, q.principalMoments, q.pose.orientation, q.pose.position,
        q.velocity, globalAngularVelocity(q)
    );
    b.symmetry = surfaceSymmetry(shape, q.pose.orientation);
    return b;
}

//- SoftContactModel::parameters of the last contact with the same inverse
//  masses and radii, bit for bit (a bed of one size needs one set per law)
class ParameterMemo
{
public:
    explicit ParameterMemo(const SoftContactModel& model) : model_(model) {}

    const SoftContactParameters& operator()(const RigidBody& a, const RigidBody& b, double rA, double rB)
    {
        const std::array<double, 4> key{a.inverseMass, b.inverseMass, rA, rB};
        if (!valid_ || !sameBits(key.data(), key_.data(), 4))
        {
            p_ = model_.parameters(a, b, rA, rB);
            key_ = key;
            valid_ = true;
        }
        return p_;
    }

private:
    const SoftContactModel& model_;
    std::array<double, 4> key_{};
    SoftContactParameters p_;
    bool valid_ = false;
};

bool isZero(const Vector3& v) { return v.x() == 0 && v.y() == 0 && v.z() == 0; }
bool isZero(const Matrix3& m) { return (m.array() == 0).all(); }

void checkParticleFinite(const ParticleSystem& system)
{
    for (std::size_t i = 0; i < system.particles.size(); ++i)
    {
        const Particle& p = system.particles[i];
        if (!p.pose.position.allFinite() || !p.velocity.allFinite()
         || !p.angularVelocity.allFinite() || !p.pose.orientation.coeffs().allFinite())
        {
            std::ostringstream os;
            os << "CollisionStep: particle " << p.id << " (index " << i
               << ") has a non-finite state after the step";
            throw std::runtime_error(os.str());
        }
    }
}

//- Soft contact of A with a symmetry plane: the pair law with A's mirror
//  image at twice the depth with the points on the plane; the image's
//  tangential velocity there equals A's, so the contact is frictionless
//  (set exactly, as the impulse model's)
SoftContactResult mirrorForce
(
    const RigidBody& bodyA,
    const Pose& poseA,
    const ContactManifold& m,
    const SoftContactModel& pairModel,
    double radiusA,
    const TangentialHistory& history,
    double matchDistance,
    double h
)
{
    ContactManifold onPlane = m;
    for (int i = 0; i < onPlane.count; ++i)
    {
        ManifoldPoint& q = onPlane.points[i];
        q.point -= 0.5*q.depth*m.normal;
        q.pointInA = poseA.orientation.conjugate()*(q.point - poseA.position);
        q.depth *= 2;
    }
    const RigidBody image = bodyA.mirrored(onPlane.points[0].point, m.normal);
    SoftContactParameters p = pairModel.parameters(bodyA, image, radiusA, radiusA);
    p.staticFriction = p.dynamicFriction = p.rollingFriction = 0;
    return softManifoldForce(bodyA, image, onPlane, p, history, matchDistance, h);
}

} // namespace


CollisionStep::CollisionStep(const CollisionSettings& settings)
:
    settings_(settings)
{
    validateCollisionSettings(settings_);
    if (settings_.model == CollisionModel::softContact)
    {
        pairModel_.reset
        (
            new SoftContactModel(settings_.particleMaterial, settings_.particleMaterial, settings_.softLaw)
        );
        wallModel_.reset
        (
            new SoftContactModel(settings_.particleMaterial, settings_.wallMaterial, settings_.softLaw)
        );
    }
    faceContacts_.resize(initialFaceContacts);
    regionContacts_.resize(initialFaceContacts);
}


double CollisionStep::minimumHalfAxis(const ParticleSystem& system) const
{
    double c = std::numeric_limits<double>::max();
    for (const Superellipsoid& s : system.shapes) c = std::min(c, s.c());
    return c;
}


int CollisionStep::chooseSubsteps(const ParticleSystem& system, double dt) const
{
    if (settings_.fixedSubsteps > 0) return settings_.fixedSubsteps;
    if (system.particles.empty()) return 1;

    // Largest displacement of a surface point over dt (see Description)
    double maxDisplacement = 0, maxSpeed = 0, maxAcceleration = 0;
    for (const Particle& p : system.particles)
    {
        const double R = system.shapes[p.shapeIndex].boundingRadius();
        const Vector3 a = bodyAcceleration(p, settings_.gravity);
        const double d = p.velocity.norm()*dt + 0.5*a.norm()*dt*dt + p.angularVelocity.norm()*R*dt;
        maxDisplacement = std::max(maxDisplacement, d);
        maxSpeed = std::max(maxSpeed, p.velocity.norm() + a.norm()*dt + p.angularVelocity.norm()*R);
        maxAcceleration = std::max(maxAcceleration, a.norm());
    }
    const double cMin = minimumHalfAxis(system);
    double n = std::ceil(maxDisplacement/(settings_.displacementFraction*cMin));

    // Resting contacts (Description): |a| h^2 <= restingDisplacementFraction c
    if (settings_.restingDisplacementFraction > 0 && cache_.anyImpulse())
    {
        n = std::max(n, std::ceil(dt*std::sqrt(maxAcceleration/(settings_.restingDisplacementFraction*cMin))));
    }

    if (settings_.model == CollisionModel::softContact)
    {
        // h <= t_c / stepsPerContact for the shortest contact: smallest m*
        // and largest R* (curvature radius cap, flat wall) at the impact speed
        const double impactSpeed = std::max(settings_.softReferenceSpeed, 2*maxSpeed);
        double hSoft = std::numeric_limits<double>::max();
        for (const Particle& p : system.particles)
        {
            const Superellipsoid& s = system.shapes[p.shapeIndex];
            const double Rcap = defaultCurvatureCap*0.5*s.volumeEquivalentDiameter();
            hSoft = std::min(hSoft, stableTimeStep(pairModel_->parameters(0.5*p.mass, Rcap), impactSpeed));
            hSoft = std::min(hSoft, stableTimeStep(wallModel_->parameters(p.mass, Rcap), impactSpeed));
        }
        n = std::max(n, std::ceil(dt/hSoft));
    }
    if (!(n >= 1)) return 1;
    return int(std::min(n, double(settings_.maxSubsteps)));
}


void CollisionStep::moveParticles(ParticleSystem& system, double h) const
{
    for (Particle& p : system.particles)
    {
        // Trapezoidal translation: exact under a constant force, second
        // order with the implicit resistance
        const Vector3 v = externallyForcedVelocity(p, settings_.gravity, Vector3::Zero(), h);
        p.pose.position += 0.5*h*(p.velocity + v);
        p.velocity = v;
        p.resistedImpulse += h*(p.externalResistance*v);

        // Euler's equations, Eqs. (13)-(16) of [Wedel2023], Lie-group splitting
        RotationalState s{p.pose.orientation, p.angularVelocity};
        if (!isZero(p.externalDamping))
        {
            // Fluid torque T0' - D omega' (Eq. 21 of [Wedel2023]): exact implicit kicks
            advanceRotation(s, p.principalMoments, p.externalTorque, p.externalDamping, h);
        }
        else if (isZero(p.externalTorque))
        {
            driftFreeRotation(s, p.principalMoments, h);
        }
        else
        {
            advanceRotation(s, p.principalMoments, p.externalTorque, h);
        }
        p.pose.orientation = s.orientation;
        p.angularVelocity = s.angularVelocity;
    }
}


int CollisionStep::resolveSweeps(ParticleSystem& system, CollisionDiagnostics& diag, double h)
{
    return solver_.solveVelocities(system, contacts_, cache_, settings_, h, diag);
}


void CollisionStep::removeOverlaps(ParticleSystem& system)
{
    solver_.solvePositions(system, contacts_, settings_.overlapPasses);
}


void CollisionStep::impulseSubstep(ParticleSystem& system, double h, CollisionDiagnostics& diag)
{
    moveParticles(system, h);
    detect(system, diag);
    resolveSweeps(system, diag, h);
    removeOverlaps(system);
    ++diag.substeps;
}


void CollisionStep::softForces(ParticleSystem& system, double h, CollisionDiagnostics& diag)
{
    for (Particle& p : system.particles)
    {
        p.contactForce.setZero();
        p.contactTorque.setZero();
    }
    // Rigid bodies of the particles in contact, each built once
    bodies_.resize(system.particles.size());
    bodyReady_.assign(system.particles.size(), 0);
    auto body = [&](int i) -> const RigidBody&
    {
        if (!bodyReady_[i])
        {
            const Particle& p = system.particles[i];
            bodies_[i] = rigidBodyOf(p, system.shapes[p.shapeIndex]);
            bodyReady_[i] = 1;
        }
        return bodies_[i];
    };
    ParameterMemo pairParameters(*pairModel_), wallParameters(*wallModel_);
    for (StepContact& c : contacts_)
    {
        Particle& A = system.particles[c.a];
        const Superellipsoid& sA = system.shapes[A.shapeIndex];
        const RigidBody& bodyA = body(c.a);
        const ContactManifold& m = c.manifold;   // normal from A into B (the wall)
        // A symmetry plane: A meets its mirror image (below)
        const bool mirror = c.b < 0 && system.walls.isMirror(c.face);
        // Hertz radius at the detection's point (the deepest), one per
        // contact; at a mirror face moved onto the plane, the mid-surface
        // of A and its image (as a pair's)
        const Vector3 radiusPoint = mirror ? Vector3(c.point.point - 0.5*c.overlap*m.normal) : c.point.point;
        const double radiusA = surfaceCurvatureRadius(sA, A.pose, radiusPoint, CurvatureModel::mean);
        PairRecord* kept = cache_.find(c.key, c.record);   // acquired by the detection
        PairRecord& rec = kept ? *kept : cache_.acquire(c.key);
        // Springs of points that moved by more than this in A's frame restart
        const double matchDistance = manifoldMatchTolerance*c.halfAxis;
        SoftContactResult r;
        if (c.b >= 0)
        {
            Particle& B = system.particles[c.b];
            const Superellipsoid& sB = system.shapes[B.shapeIndex];
            const RigidBody& bodyB = body(c.b);
            const double radiusB =
                surfaceCurvatureRadius(sB, B.pose, c.point.point, CurvatureModel::mean);
            const SoftContactParameters& p = pairParameters(bodyA, bodyB, radiusA, radiusB);
            r = softManifoldForce(bodyA, bodyB, m, p, rec.history, matchDistance, h);
            B.contactForce += r.forceOnB;
            B.contactTorque += B.pose.orientation.conjugate()*r.torqueOnB;
            ++diag.pairCollisions;
        }
        else if (mirror)
        {
            r = mirrorForce(bodyA, A.pose, m, *pairModel_, radiusA, rec.history, matchDistance, h);
            ++diag.wallCollisions;
        }
        else
        {
            const RigidBody wall = RigidBody::wall(system.walls.velocity[c.face]);
            const SoftContactParameters& p =
                wallParameters(bodyA, wall, radiusA, std::numeric_limits<double>::infinity());
            r = softManifoldForce(bodyA, wall, m, p, rec.history, matchDistance, h);
            ++diag.wallCollisions;
        }
        rec.history = r.history;
        // The substep's impulse on b as the impulse model reports it: the
        // force at the substep's end over h (the kicks' two halves shift
        // it by half a substep)
        c.impulse = h*r.forceOnB;
        A.contactForce -= r.forceOnB;
        A.contactTorque += A.pose.orientation.conjugate()*r.torqueOnA;
    }
}


void CollisionStep::softKick(ParticleSystem& system, double dt) const
{
    // Constant force and torque over dt (orientation frozen), the fluid
    // damping D of the rotation exactly (kickAngularMomentum)
    for (Particle& p : system.particles)
    {
        p.velocity = externallyForcedVelocity(p, settings_.gravity, p.contactForce, dt);
        p.resistedImpulse += dt*(p.externalResistance*p.velocity);
        const Vector3 torque = p.externalTorque + p.contactTorque;
        if (isZero(p.externalDamping) && torque.allFinite())
        {
            // Undamped: omega' += dt I'^-1 T', kickAngularMomentum's kick
            // without its checks of the moments (validated with the system)
            p.angularVelocity += dt*torque.cwiseProduct(p.principalMoments.cwiseInverse());
        }
        else
        {
            RotationalState s{p.pose.orientation, p.angularVelocity};
            kickAngularMomentum(s, p.principalMoments, torque, p.externalDamping, dt);
            p.angularVelocity = s.angularVelocity;
        }
    }
}


void CollisionStep::softOpen(ParticleSystem& system, double h) const
{
    softKick(system, 0.5*h);
    for (Particle& p : system.particles)
    {
        p.pose.position += h*p.velocity;
        RotationalState s{p.pose.orientation, p.angularVelocity};
        driftFreeRotation(s, p.principalMoments, h);
        p.pose.orientation = s.orientation;
        p.angularVelocity = s.angularVelocity;
    }
}


void CollisionStep::softClose(ParticleSystem& system, double h, CollisionDiagnostics& diag)
{
    detect(system, diag);
    keepDetectedState(system);
    softForces(system, h, diag);
    softKick(system, 0.5*h);
    ++diag.substeps;
}


void CollisionStep::softForcesAtState(ParticleSystem& system, CollisionDiagnostics& diag)
{
    // A fluid step that follows a soft one starts in the state its last
    // closing half detected: those contacts, exactly
    if (sameDetectedState(system))
    {
        acquireDetectedRecords(system);
    }
    else
    {
        detect(system, diag);
    }
    softForces(system, 0, diag);
}


void CollisionStep::keepDetectedState(const ParticleSystem& system)
{
    detectedStateKept_ = std::all_of
    (
        system.shapes.begin(), system.shapes.end(), [](const Superellipsoid& s) { return s.isSphere(); }
    );
    if (!detectedStateKept_) return;
    detectedOrientations_.resize(system.particles.size());
    for (std::size_t i = 0; i < system.particles.size(); ++i)
    {
        detectedOrientations_[i] = system.particles[i].pose.orientation;
    }
}


bool CollisionStep::sameDetectedState(const ParticleSystem& system) const
{
    const std::size_t n = system.particles.size();
    if (!detectedStateKept_ || detectedOrientations_.size() != n || centres_.size() != n) return false;
    for (std::size_t i = 0; i < n; ++i)
    {
        const Particle& p = system.particles[i];
        const Superellipsoid& s = system.shapes[p.shapeIndex];
        if
        (
            p.id != ids_[i] || !s.isSphere() || s.boundingRadius() != radii_[i]
         || !sameBits(p.pose.position.data(), centres_[i].data(), 3)
         || !sameBits(p.pose.orientation.coeffs().data(), detectedOrientations_[i].coeffs().data(), 4)
        )
        {
            return false;
        }
    }
    return true;
}


void CollisionStep::softSubstep(ParticleSystem& system, double h, CollisionDiagnostics& diag)
{
    softOpen(system, h);
    softClose(system, h, diag);
}


CollisionDiagnostics CollisionStep::advance(ParticleSystem& system, double dt)
{
    if (!(std::isfinite(dt) && dt > 0))
    {
        std::ostringstream os;
        os << "CollisionStep::advance: dt = " << dt << " must be positive and finite";
        throw std::invalid_argument(os.str());
    }
    validateParticleSystem(system);

    CollisionDiagnostics diag;
    for (Particle& p : system.particles) p.resistedImpulse.setZero();
    const int n = chooseSubsteps(system, dt);
    const double h = dt/n;
    for (int k = 0; k < n; ++k)
    {
        switch (settings_.model)
        {
            case CollisionModel::impulse: impulseSubstep(system, h, diag); break;
            case CollisionModel::softContact: softSubstep(system, h, diag); break;
            case CollisionModel::none: moveParticles(system, h); ++diag.substeps; break;
        }
    }
    cache_.dropUntouched();
    checkParticleFinite(system);
    diag.translationalEnergy = translationalKineticEnergy(system);
    diag.rotationalEnergy = rotationalKineticEnergy(system);
    return diag;
}

} // namespace superellipsoid
