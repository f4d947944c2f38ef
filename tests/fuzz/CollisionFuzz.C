// Fuzz target: contact response ([Wedel2023] Sect. 4 and DEM soft contact):
// resolveImpulse / resolveWallImpulse for every tangential model,
// algebraicCollisionImpulse + applyImpulse, and the soft
// contact model (parameters, contact duration, force with history).
// Checks (invariants of one contact):
//   impulse: outputs finite; linear momentum conserved (Eq. 63 of [Wedel2023]); each body's
//     angular momentum about the contact point conserved (Eq. 70 of [Wedel2023]); kinetic
//     energy not increased (in the wall frame for a moving wall); normal
//     impulse >= 0; n.u+ = -eps_n n.u- for an approaching contact (Eq. 65 of [Wedel2023]);
//   overlap removal: n.(d_B - d_A) = overlap, a wall never moves;
//   soft contact: outputs finite; |F_t| <= mu max(F_n, 0) (Coulomb);
//     elastic energy >= 0; torques balance the force couple (no net torque).
#include "FuzzInput.H"

#include <stdexcept>

using namespace superellipsoid;
using namespace superellipsoid::fuzz;

namespace
{

struct Body
{
    RigidBody rb;
    double mass = 0;            // 0: wall
    Matrix3 inertia = Matrix3::Zero();
    double radius = 0;          // size for soft contact (inf: flat wall)
    double inertiaRatio = 1;    // largest / smallest principal moment
};

Body particle(Input& in)
{
    const Superellipsoid shape = in.shape(1e-6, 1e1);
    const double density = in.logUniform(1e-2, 1e5);
    Body b;
    b.mass = shape.mass(density);
    Vector3 moments = shape.principalMoments(density);
    if (in.byte() % 4 == 0)
    {
        // Arbitrary moments over decades (not of a homogeneous body)
        const double m1 = in.logUniform(1e-4, 1e4);
        const double m2 = in.logUniform(1e-4, 1e4);
        const double m3 = in.logUniform(1e-4, 1e4);
        moments = b.mass*shape.c()*shape.c()*Vector3(m1, m2, m3);
    }
    const Quaternion q = in.orientation();
    const Vector3 position = in.position(shape.a());
    const Vector3 velocity = in.vector(1e-6, 1e3);
    const Vector3 omega = in.vector(1e-3, 1e6);
    b.rb = RigidBody::particle(b.mass, moments, q, position, velocity, omega);
    const Matrix3 Q = q.toRotationMatrix();
    b.inertia = Q*moments.asDiagonal()*Q.transpose();
    b.radius = shape.volumeEquivalentDiameter()/2;
    b.inertiaRatio = moments.maxCoeff()/moments.minCoeff();
    return b;
}

double kineticEnergy(const Body& b, const Vector3& v, const Vector3& w, const Vector3& frameVelocity)
{
    if (b.mass == 0) return 0;
    const Vector3 vr = v - frameVelocity;
    return 0.5*b.mass*vr.squaredNorm() + 0.5*w.dot(b.inertia*w);
}

//- Angular momentum about p: I w + (r - p) x m v (Eq. 70 of [Wedel2023])
Vector3 angularMomentum(const Body& b, const Vector3& v, const Vector3& w, const Vector3& p)
{
    return b.inertia*w + (b.rb.position - p).cross(b.mass*v);
}

void requireClose(const Vector3& x, const Vector3& y, double tol, const char* what)
{
    if (!((x - y).norm() <= tol)) fail(what, (x - y).norm()/std::max(tol, 1e-300));
}

void checkImpulse(const Body& A, const Body& B, const CollisionPoint& cp, const ImpulseLaw& law, const ImpulseResult& r)
{
    requireFinite(r.impulse, "impulse finite");
    requireFinite(r.normalImpulse, "normal impulse finite");
    requireFinite(r.tangentialImpulse, "tangential impulse finite");
    requireFinite(r.velocityA, "velocityA finite");
    requireFinite(r.velocityB, "velocityB finite");
    requireFinite(r.angularVelocityA, "angularVelocityA finite");
    requireFinite(r.angularVelocityB, "angularVelocityB finite");
    requireFinite(r.energyDissipated, "energy dissipated finite");
    requireFinite(r.tangentialRestitution, "eps_t finite");
    requireFinite(r.frictionFraction, "friction fraction finite");
    require(int(r.regime) >= 0 && int(r.regime) <= int(ImpulseRegime::sticking), "regime set", int(r.regime));

    const Vector3& n = cp.normal;
    const Vector3 uMinus = relativeContactVelocity(A.rb, B.rb, cp.point);
    RigidBody a = A.rb, b = B.rb;
    a.velocity = r.velocityA; a.angularVelocity = r.angularVelocityA;
    b.velocity = r.velocityB; b.angularVelocity = r.angularVelocityB;
    const Vector3 uPlus = relativeContactVelocity(a, b, cp.point);
    // Round-off scale of a velocity: the largest speed involved, including
    // the lever-arm speeds |w| |r|
    const double leverA = (cp.point - A.rb.position).norm(), leverB = (cp.point - B.rb.position).norm();
    const double speed = uMinus.norm() + uPlus.norm()
                       + A.rb.velocity.norm() + B.rb.velocity.norm()
                       + A.rb.angularVelocity.norm()*leverA + B.rb.angularVelocity.norm()*leverB
                       + r.velocityA.norm() + r.velocityB.norm()
                       + r.angularVelocityA.norm()*leverA + r.angularVelocityB.norm()*leverB;
    const double P = r.impulse.norm();
    print("mass A", A.mass); print("mass B", B.mass);
    print("inertia ratio A", A.inertiaRatio); print("inertia ratio B", B.inertiaRatio);
    print("lever A", leverA); print("lever B", leverB);
    print("n.u-", n.dot(uMinus)); print("n.u+", n.dot(uPlus)); print("|u-|", uMinus.norm());
    print("eps_n", law.normalRestitution); print("tangential model", double(int(law.tangential)));
    print("regime", double(int(r.regime))); print("friction fraction", r.frictionFraction);
    print("speed scale", speed); print("|P|", P);

    // Normal impulse pushes (>= 0); the normal restitution is exact (Eq. 65 of [Wedel2023])
    require(r.normalImpulse >= -1e-12*P, "normal impulse >= 0", r.normalImpulse);
    if (r.regime != ImpulseRegime::separating)
    {
        // (n.u- here and the core's collision-frame g_n differ by round-off)
        require(n.dot(uMinus) < 1e-12*speed, "an impulse only for an approaching contact", n.dot(uMinus));
        // K is inverted (LDLT) for a friction impulse: round-off grows with
        // its condition number, bounded here by the lever arms and mass ratios
        const double tol = 1e-7*speed;
        require(std::abs(n.dot(uPlus) + law.normalRestitution*n.dot(uMinus)) <= tol,
                "n.u+ = -eps_n n.u- (Eq. 65 of [Wedel2023])", n.dot(uPlus) + law.normalRestitution*n.dot(uMinus));
    }
    else
    {
        require(P == 0, "no impulse for a separating contact", P);
    }

    // Momentum (Eq. 63 of [Wedel2023]) and angular momentum about the contact point (Eq. 70)
    if (A.mass > 0 && B.mass > 0)
    {
        const Vector3 before = A.mass*A.rb.velocity + B.mass*B.rb.velocity;
        const Vector3 after = A.mass*r.velocityA + B.mass*r.velocityB;
        const double scale = A.mass*(A.rb.velocity.norm() + r.velocityA.norm())
                           + B.mass*(B.rb.velocity.norm() + r.velocityB.norm());
        requireClose(after, before, 1e-12*scale, "linear momentum conserved");
    }
    for (const Body* body : {&A, &B})
    {
        if (body->mass == 0) continue;
        const bool isA = body == &A;
        const Vector3& v1 = isA ? r.velocityA : r.velocityB;
        const Vector3& w1 = isA ? r.angularVelocityA : r.angularVelocityB;
        const Vector3 L0 = angularMomentum(*body, body->rb.velocity, body->rb.angularVelocity, cp.point);
        const Vector3 L1 = angularMomentum(*body, v1, w1, cp.point);
        const Vector3 spin0 = body->inertia*body->rb.angularVelocity, spin1 = body->inertia*w1;
        const double lever = (body->rb.position - cp.point).norm();
        const double scale = spin0.norm() + spin1.norm()
                           + lever*body->mass*(body->rb.velocity.norm() + v1.norm());
        // I (I^-1 x) loses ~1e-16 x (condition number of I) relative
        requireClose(L1, L0, 1e-13*(1 + body->inertiaRatio)*scale, "angular momentum about the contact point conserved (Eq. 70 of [Wedel2023])");
    }

    // Kinetic energy not increased (wall frame for a moving wall)
    const Vector3 frame = A.mass == 0 ? A.rb.velocity : B.mass == 0 ? B.rb.velocity : Vector3::Zero();
    const double T0 = kineticEnergy(A, A.rb.velocity, A.rb.angularVelocity, frame)
                    + kineticEnergy(B, B.rb.velocity, B.rb.angularVelocity, frame);
    const double T1 = kineticEnergy(A, r.velocityA, r.angularVelocityA, frame)
                    + kineticEnergy(B, r.velocityB, r.angularVelocityB, frame);
    // T is a sum of squares: relative round-off ~ 1e-16 per term, plus the
    // impulse's own round-off (P ~ speed/K: P speed)
    const double energyTol = 1e-9*(T0 + T1) + 1e-9*P*speed;
    require(T1 <= T0 + energyTol, "kinetic energy not increased", (T1 - T0)/std::max(T0, 1e-300));
    require(r.energyDissipated >= -energyTol, "energy dissipated >= 0", r.energyDissipated);
    require(std::abs(r.energyDissipated - (T0 - T1)) <= energyTol + 1e-9*std::abs(r.energyDissipated),
            "energyDissipated = T- - T+", r.energyDissipated - (T0 - T1));
}

} // namespace


extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    Input in(data, size);
    Body A = particle(in);
    Body B;
    const bool wall = in.byte() % 3 == 0;
    if (wall)
    {
        B.rb = RigidBody::wall(in.vector(1e-6, 1e2));
        B.radius = std::numeric_limits<double>::infinity();
    }
    else
    {
        B = particle(in);
    }

    // Contact point near A (within a few radii), unit normal anywhere
    CollisionPoint cp;
    const double distance = A.radius*in.logUniform(1e-3, 3);
    const double offset = in.flag() ? 0.0 : distance;
    cp.point = A.rb.position + offset*in.direction();
    // B's centre within a few of its radii of the contact point too (a
    // contact point 1e7 sizes away from a body makes K arbitrarily
    // ill-conditioned: not a contact)
    if (!wall)
    {
        const double centreDistance = B.radius*in.logUniform(1e-3, 3);
        B.rb.position = cp.point - centreDistance*in.direction();
    }
    cp.normal = in.direction();
    cp.overlap = in.byte() % 4 == 0 ? 0.0 : in.logUniform(1e-12, 1)*A.radius;

    // Impulse (hard) collision, also with A and B swapped (A the wall)
    const ImpulseLaw law = in.impulseLaw();
    const ImpulseResult r = wall ? resolveWallImpulse(A.rb, B.rb.velocity, cp, law)
                                 : resolveImpulse(A.rb, B.rb, cp, law);
    checkImpulse(A, B, cp, law, r);
    CollisionPoint swapped = cp;
    swapped.normal = -cp.normal;
    checkImpulse(B, A, swapped, law, resolveImpulse(B.rb, A.rb, swapped, law));

    // The paper's algebraic law (may create energy): finite, momentum kept
    const double epsN = in.restitution(), epsT = in.uniform(-1, 1);
    const Vector3 P = algebraicCollisionImpulse(A.rb, B.rb, cp, epsN, epsT);
    requireFinite(P, "algebraic impulse finite");
    RigidBody a = A.rb, b = B.rb;
    applyImpulse(a, b, cp.point, P);
    requireFinite(a.velocity, "applyImpulse velocity finite");
    requireFinite(a.angularVelocity, "applyImpulse angular velocity finite");

    // Soft contact
    const ContactMaterial matA = in.material();
    const ContactMaterial matB = wall ? ContactMaterial::rigidWall() : in.material();
    const SoftContactLaw softLaw = in.softLaw();
    const SoftContactModel model(matA, matB, softLaw);
    const SoftContactParameters p = model.parameters(A.rb, B.rb, A.radius, B.radius);
    for (double x : {p.effectiveMass, p.effectiveRadius, p.normalStiffness, p.dampingCoefficient,
                     p.dampingRatio, p.effectiveModulus, p.effectiveShearModulus})
    {
        requireFinite(x, "soft-contact parameter finite");
        require(x >= 0, "soft-contact parameter >= 0", x);
    }
    const double impactSpeed = in.logUniform(1e-6, 1e3);
    const double tc = contactDuration(p, impactSpeed);
    require(std::isfinite(tc) && tc > 0, "contact duration positive and finite", tc);
    const double hStable = stableTimeStep(p, impactSpeed);
    require(std::isfinite(hStable) && hStable > 0, "stable time step positive and finite", hStable);

    TangentialHistory history;
    history.displacement = in.vector(1e-30, 1)*A.radius;
    const double dt = in.byte() % 4 == 0 ? 0.0 : in.logUniform(1e-3, 1)*hStable;
    const SoftContactResult s = softContactForce(A.rb, B.rb, cp, p, history, dt);
    requireFinite(s.forceOnB, "soft force finite");
    requireFinite(s.torqueOnA, "soft torque A finite");
    requireFinite(s.torqueOnB, "soft torque B finite");
    requireFinite(s.normalForce, "soft normal force finite");
    requireFinite(s.tangentialForce, "soft tangential force finite");
    requireFinite(s.elasticEnergy, "soft elastic energy finite");
    requireFinite(s.history.displacement, "soft history finite");
    require(s.inContact == (cp.overlap > 0), "in contact exactly when overlapping");
    require(s.elasticEnergy >= 0, "elastic energy >= 0", s.elasticEnergy);
    const double Fn = std::max(s.normalForce, 0.0);
    const double mu = std::max(p.staticFriction, p.dynamicFriction);
    require(s.tangentialForce.norm() <= mu*Fn*(1 + 1e-12) + 1e-300, "Coulomb |F_t| <= mu F_n",
            s.tangentialForce.norm() - mu*Fn);
    // No net torque about the origin: tau_A + tau_B + r_A x (-F) + r_B x F = 0.
    // Round-off: the lever arms p - x carry an absolute error eps |x| each,
    // so the bound scales with the positions' magnitudes, not only with |x_B - x_A|
    if (!wall)
    {
        const Vector3 net = s.torqueOnA + s.torqueOnB + (B.rb.position - A.rb.position).cross(s.forceOnB);
        const double scale = s.torqueOnA.norm() + s.torqueOnB.norm()
                           + (B.rb.position.norm() + A.rb.position.norm()
                            + (B.rb.position - A.rb.position).norm())*s.forceOnB.norm();
        requireClose(net, Vector3::Zero(), 1e-12*scale + 1e-300, "soft-contact torques balance");
    }
    return 0;
}
