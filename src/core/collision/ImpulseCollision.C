#include "collision/ImpulseCollision.H"
#include "math/InvalidArgument.H"

#include <Eigen/Cholesky>
#include <Eigen/LU>
#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

namespace superellipsoid
{

namespace
{

// Slip speeds below this fraction of the approach speed count as no slip
constexpr double negligibleSlipFraction = 1e-14;

[[noreturn]] void invalid(const std::string& name, double value, const char* why)
{
    throwInvalidArgument(name, value, why);
}

//- "<name> = <value>: must be in [lo, hi]"
[[noreturn]] void invalidRange(const char* name, double value, double lo, double hi)
{
    std::ostringstream os;
    os << "must be in [" << lo << ", " << hi << "]";
    throwInvalidArgument(name, value, os.str().c_str());
}

//- Cross-product matrix [r]x with [r]x a = r x a
Matrix3 skew(const Vector3& r)
{
    Matrix3 s;
    s << 0, -r.z(), r.y(),
         r.z(), 0, -r.x(),
         -r.y(), r.x(), 0;
    return s;
}

void checkPair(const RigidBody& a, const RigidBody& b, const CollisionPoint& contact)
{
    validateRigidBody(a, "bodyA");
    validateRigidBody(b, "bodyB");
    validateCollisionPoint(contact);
    if (a.isWall() && b.isWall())
    {
        invalid("inverseMass of both bodies", 0.0, "at least one body must have finite mass");
    }
}

//- Impulse P (on B) and post-collision relative velocity in the collision
//  frame, kept together for the energy balance dT = P.(u- + u+)/2
struct FrameImpulse
{
    Vector3 P = Vector3::Zero();
    Vector3 uPlus = Vector3::Zero();
};

ImpulseResult finish
(
    const RigidBody& a,
    const RigidBody& b,
    const CollisionPoint& contact,
    const Matrix3& R0,
    const Vector3& uMinus,
    const FrameImpulse& frame
)
{
    ImpulseResult result;
    result.impulse = R0.transpose()*frame.P;
    result.normalImpulse = frame.P.x();
    result.tangentialImpulse = result.impulse - result.normalImpulse*contact.normal;
    // Eq. (70)/(63) of [Wedel2023]: velocity changes of the impulse at the contact point
    RigidBody an = a, bn = b;
    applyImpulse(an, bn, contact.point, result.impulse);
    result.velocityA = an.velocity;
    result.angularVelocityA = an.angularVelocity;
    result.velocityB = bn.velocity;
    result.angularVelocityB = bn.angularVelocity;
    // Thomson-Tait: T+ - T- = P.(u- + u+)/2
    result.energyDissipated = -0.5*frame.P.dot(uMinus + frame.uPlus);
    return result;
}

} // namespace


ImpulseLaw ImpulseLaw::frictionless(double epsN)
{
    ImpulseLaw law;
    law.normalRestitution = epsN;
    law.tangential = TangentialModel::frictionless;
    return law;
}


ImpulseLaw ImpulseLaw::withTangentialRestitution(double epsN, double epsT)
{
    ImpulseLaw law;
    law.normalRestitution = epsN;
    law.tangential = TangentialModel::restitution;
    law.tangentialRestitution = epsT;
    return law;
}


ImpulseLaw ImpulseLaw::withFriction(double epsN, double mu)
{
    ImpulseLaw law;
    law.normalRestitution = epsN;
    law.tangential = TangentialModel::coulombSchwager;
    law.frictionCoefficient = mu;
    return law;
}


void validateImpulseLaw(const ImpulseLaw& law)
{
    const double eN = law.normalRestitution, eT = law.tangentialRestitution;
    if (!(eN >= ImpulseLaw::minimumNormalRestitution && eN <= ImpulseLaw::maximumNormalRestitution))
    {
        invalidRange("normalRestitution", eN, ImpulseLaw::minimumNormalRestitution, ImpulseLaw::maximumNormalRestitution);
    }
    if (!(eT >= ImpulseLaw::minimumTangentialRestitution && eT <= ImpulseLaw::maximumTangentialRestitution))
    {
        invalidRange
        (
            "tangentialRestitution", eT,
            ImpulseLaw::minimumTangentialRestitution, ImpulseLaw::maximumTangentialRestitution
        );
    }
    if (!(std::isfinite(law.frictionCoefficient) && law.frictionCoefficient >= 0))
    {
        invalid("frictionCoefficient", law.frictionCoefficient, "must be finite and >= 0");
    }
}


Matrix3 collisionFrame(const Vector3& normal)
{
    // e1'' = n; e2'' orthogonal to n, built from the coordinate axis least
    // aligned with n (well conditioned); e3'' = e1'' x e2''
    const Vector3 n = normal.normalized();
    int smallest = 0;
    n.cwiseAbs().minCoeff(&smallest);
    const Vector3 axis = Vector3::Unit(smallest);
    const Vector3 e2 = n.cross(axis).normalized();
    const Vector3 e3 = n.cross(e2);
    Matrix3 R0;
    R0.row(0) = n.transpose();
    R0.row(1) = e2.transpose();
    R0.row(2) = e3.transpose();
    return R0;
}


Matrix3 collisionMatrix(const RigidBody& a, const RigidBody& b, const Vector3& contactPoint)
{
    const Matrix3 rA = skew(contactPoint - a.position);
    const Matrix3 rB = skew(contactPoint - b.position);
    Matrix3 K = (a.inverseMass + b.inverseMass)*Matrix3::Identity()
              - rA*a.inverseInertia*rA - rB*b.inverseInertia*rB;
    return 0.5*(K + K.transpose());
}


Vector3 relativeContactVelocity(const RigidBody& a, const RigidBody& b, const Vector3& contactPoint)
{
    return b.pointVelocity(contactPoint) - a.pointVelocity(contactPoint);
}


double generalisedAlpha(const Matrix3& K, const Vector3& normal, const Vector3& slipDirection)
{
    // Sphere limit: n.K.n = 1/m*, t.K.t = 1/m* + r1^2/I1 + r2^2/I2 -> Eq. (88) of [Wedel2023]
    return normal.dot(K*normal)/slipDirection.dot(K*slipDirection);
}


double schwagerTangentialRestitution
(
    double mu, double epsN, double alpha, double normalSpeed, double tangentialSpeed
)
{
    if (!(alpha > 0 && std::isfinite(alpha))) invalid("alpha", alpha, "must be positive and finite");
    if (!(tangentialSpeed > 0)) return 1;
    // Eq. (87) of [Wedel2023]
    return std::max(0.0, 1 - mu*(1 + epsN)*std::abs(normalSpeed)/(alpha*tangentialSpeed));
}


void applyImpulse(RigidBody& a, RigidBody& b, const Vector3& contactPoint, const Vector3& impulse)
{
    // Eqs. (63), (70) of [Wedel2023]: dv = P/m, dw = I^-1 (r x P), r from centre to contact
    b.velocity += b.inverseMass*impulse;
    b.angularVelocity += b.inverseInertia*(contactPoint - b.position).cross(impulse);
    a.velocity -= a.inverseMass*impulse;
    a.angularVelocity -= a.inverseInertia*(contactPoint - a.position).cross(impulse);
}


double frictionlessNormalImpulse(double normalSpeed, double epsN, double normalCompliance)
{
    return -(1 + epsN)*normalSpeed/normalCompliance;
}


namespace
{

//- eps_t of the law for the slip left by the frictionless impulse: the
//  law's eps_t, or Schwager's Eq. (87) of [Wedel2023] with the generalised
//  alpha of Eq. (88) (1 where nothing slips)
double lawTangentialRestitution
(
    const ImpulseLaw& law,
    const Matrix3& K,
    double gN,
    const Vector3& slip,
    double slipSpeed
)
{
    if (law.tangential == TangentialModel::restitution)
    {
        return law.tangentialRestitution;
    }
    if (law.tangential == TangentialModel::coulombSchwager && slipSpeed > 0)
    {
        const double alpha = generalisedAlpha(K, Vector3::UnitX(), slip/slipSpeed);
        return schwagerTangentialRestitution(law.frictionCoefficient, law.normalRestitution, alpha, gN, slipSpeed);
    }
    return 1;
}

//- Largest f in [0, 1] along P(f) = P0 + f Q that gains no energy:
//    dT(f) = dT0 + f c1 + f^2 c2/2,  dT0 = -(1 - eps_n^2) gN^2/(2 K_xx) <= 0
double energyFraction
(
    const Matrix3& K,
    const Vector3& uMinus,
    const FrameImpulse& frictionless,
    const Vector3& Q
)
{
    const double dT0 = 0.5*frictionless.P.dot(uMinus + frictionless.uPlus);
    const double c1 = Q.dot(frictionless.uPlus);
    const double c2 = Q.dot(K*Q);
    if (!(dT0 + c1 + 0.5*c2 > 0 && c2 > 0)) return 1;
    // Largest root of dT(f) = 0 (dT0 <= 0, c2 > 0: one root >= 0), in a
    // cancellation-free form; dT <= 0 on [0, root] by convexity
    const double disc = std::sqrt(std::max(0.0, c1*c1 - 2*c2*dT0));
    const double root = c1 >= 0 ? -2*dT0/(c1 + disc) : (-c1 + disc)/c2;
    return std::clamp(root, 0.0, 1.0);
}

//- Largest f in [0, 1] with a pushing normal impulse, P_n(f) = P0_n + f Q_n
//  >= 0, and with a friction coefficient inside the Coulomb cone
//  |P_t| <= mu P_n (P0 has no tangential part): f (|Q_t| - mu Q_n) <= mu P0_n
double admissibleFraction(const ImpulseLaw& law, const FrameImpulse& frictionless, const Vector3& Q)
{
    double pushFraction = 1;
    if (Q.x() < 0) pushFraction = std::clamp(-frictionless.P.x()/Q.x(), 0.0, 1.0);
    double coneFraction = 1;
    if (law.tangential == TangentialModel::coulombSchwager)
    {
        const double excess = Q.tail<2>().norm() - law.frictionCoefficient*Q.x();
        if (excess > 0)
        {
            coneFraction = std::clamp(law.frictionCoefficient*frictionless.P.x()/excess, 0.0, 1.0);
        }
    }
    return std::min(pushFraction, coneFraction);
}

} // namespace


ImpulseResult resolveImpulse
(
    const RigidBody& a,
    const RigidBody& b,
    const CollisionPoint& contact,
    const ImpulseLaw& law
)
{
    checkPair(a, b, contact);

    // Eqs. (60)-(62) of [Wedel2023]: everything in the collision frame, e1'' = n
    const Matrix3 R0 = collisionFrame(contact.normal);
    const Matrix3 K = R0*collisionMatrix(a, b, contact.point)*R0.transpose();
    const Vector3 uMinus = R0*relativeContactVelocity(a, b, contact.point);

    const double gN = uMinus.x();
    if (!(gN < 0))
    {
        ImpulseResult none = finish(a, b, contact, R0, uMinus, FrameImpulse{Vector3::Zero(), uMinus});
        none.regime = ImpulseRegime::separating;
        return none;
    }

    // Frictionless impulse P0 = lambda e1'': (K P0)_x = -(1 + eps_n) gN,
    // Eqs. (65)/(75) of [Wedel2023] with the full angular-momentum balance (70)/(80)
    const double epsN = law.normalRestitution;
    FrameImpulse frictionless;
    frictionless.P = Vector3(frictionlessNormalImpulse(gN, epsN, K(0, 0)), 0, 0);
    frictionless.uPlus = uMinus + K*frictionless.P;

    // Slip left by the frictionless impulse (= pre-collision slip for spheres)
    const Vector3 slip(0, frictionless.uPlus.y(), frictionless.uPlus.z());
    const double slipSpeed = slip.norm();
    const double epsT = lawTangentialRestitution(law, K, gN, slip, slipSpeed);
    if (epsT == 1 || slipSpeed <= negligibleSlipFraction*std::abs(gN))
    {
        ImpulseResult result = finish(a, b, contact, R0, uMinus, frictionless);
        result.regime = ImpulseRegime::frictionless;
        result.tangentialRestitution = epsT;
        return result;
    }

    // Friction impulse Q: K Q = (0, (eps_t - 1) slip) keeps the normal
    // restitution exact and scales the slip to eps_t slip (Eq. 67 of [Wedel2023] for spheres),
    // applied as the largest admissible fraction of it
    const Eigen::LDLT<Matrix3> Kinv(K);
    const Vector3 Q = Kinv.solve((epsT - 1)*slip);
    const double energyLimit = energyFraction(K, uMinus, frictionless, Q);
    const double fraction = std::min(energyLimit, admissibleFraction(law, frictionless, Q));

    FrameImpulse frictional;
    frictional.P = frictionless.P + fraction*Q;
    frictional.uPlus = uMinus + K*frictional.P;

    ImpulseResult result = finish(a, b, contact, R0, uMinus, frictional);
    result.tangentialRestitution = epsT;
    result.frictionFraction = fraction;
    result.energyLimited = energyLimit < 1 && energyLimit == fraction;
    result.regime = (epsT <= 0 && fraction == 1) ? ImpulseRegime::sticking : ImpulseRegime::sliding;
    return result;
}


ImpulseResult resolveWallImpulse
(
    const RigidBody& particle,
    const Vector3& wallVelocity,
    const CollisionPoint& contact,
    const ImpulseLaw& law
)
{
    return resolveImpulse(particle, RigidBody::wall(wallVelocity), contact, law);
}


Vector3 algebraicCollisionImpulse
(
    const RigidBody& a,
    const RigidBody& b,
    const CollisionPoint& contact,
    double epsN,
    double epsT
)
{
    checkPair(a, b, contact);
    validateImpulseLaw(ImpulseLaw::withTangentialRestitution(epsN, epsT));
    const Matrix3 R0 = collisionFrame(contact.normal);
    const Matrix3 K = R0*collisionMatrix(a, b, contact.point)*R0.transpose();
    const Vector3 uMinus = R0*relativeContactVelocity(a, b, contact.point);
    // Eqs. (65), (67) of [Wedel2023]: u+ = (-eps_n u_n, eps_t u_t1, eps_t u_t2)
    const Vector3 uPlus(-epsN*uMinus.x(), epsT*uMinus.y(), epsT*uMinus.z());
    return R0.transpose()*K.ldlt().solve(uPlus - uMinus);
}


} // namespace superellipsoid
