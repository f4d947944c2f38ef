#include "collision/SoftContact.H"
#include "math/InvalidArgument.H"
#include "collision/ContactCurvature.H"
#include "contact/ManifoldGeometry.H"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>

namespace superellipsoid
{

namespace
{

// Step of the dimensionless Hertz impact (tau_c ~ 3): restitution error < 1e-6
constexpr double hertzImpactStep = 2e-4;
// Give up (restitution 0) if a dimensionless impact lasts longer than this
constexpr double hertzImpactMaxDuration = 1e3;
// Tolerance on ln(e) when inverting restitution(beta)
constexpr double dampingRatioLogTolerance = 1e-10;
constexpr int dampingRatioMaxIterations = 200;

[[noreturn]] void invalid(const std::string& name, double value, const char* why)
{
    throwInvalidArgument(name, value, why);
}

//- The one check of a soft-contact restitution e
void checkRestitution(double e)
{
    if (!(e >= SoftContactLaw::minimumRestitution && e <= SoftContactLaw::maximumRestitution))
    {
        std::ostringstream why;
        why << "must be in [" << SoftContactLaw::minimumRestitution << ", "
            << SoftContactLaw::maximumRestitution << "] for soft contact";
        invalid("restitution", e, why.str().c_str());
    }
}

//- Compliance contribution (1 - nu^2)/E (0 if rigid)
double normalCompliance(const ContactMaterial& m)
{
    return m.rigid ? 0 : (1 - m.poissonRatio*m.poissonRatio)/m.youngsModulus;
}

//- Mindlin shear compliance (2 - nu)/G, G = E/(2(1 + nu)) (0 if rigid)
double shearCompliance(const ContactMaterial& m)
{
    if (m.rigid) return 0;
    const double G = m.youngsModulus/(2*(1 + m.poissonRatio));
    return (2 - m.poissonRatio)/G;
}

//- Dimensionless contact law x'' = -max(0, x^p + d x^q x') (no tension)
struct DimensionlessLaw
{
    bool hertz = true;      // p = 3/2, q = 1/4, d = beta; else p = 1, q = 0, d = 2 zeta
    double damping = 0;     // d

    double acceleration(double x, double v) const
    {
        const double xp = std::max(x, 0.0);
        const double f = hertz ? xp*std::sqrt(xp) + damping*std::sqrt(std::sqrt(xp))*v : xp + damping*v;
        return -std::max(f, 0.0);
    }
};

//- RK4 from x = 0, x' = 1 until x returns to 0; crossing by linear interpolation
HertzImpact dimensionlessImpact(const DimensionlessLaw& law)
{
    const double h = hertzImpactStep;
    double x = 0, v = 1, t = 0;
    HertzImpact out;
    while (t < hertzImpactMaxDuration)
    {
        const double k1x = v, k1v = law.acceleration(x, v);
        const double k2x = v + 0.5*h*k1v, k2v = law.acceleration(x + 0.5*h*k1x, k2x);
        const double k3x = v + 0.5*h*k2v, k3v = law.acceleration(x + 0.5*h*k2x, k3x);
        const double k4x = v + h*k3v, k4v = law.acceleration(x + h*k3x, k4x);
        const double xn = x + h/6*(k1x + 2*k2x + 2*k3x + k4x);
        const double vn = v + h/6*(k1v + 2*k2v + 2*k3v + k4v);
        if (xn <= 0 && t > 0)
        {
            const double f = x/(x - xn);
            out.duration = t + f*h;
            out.restitution = std::max(0.0, -(v + f*(vn - v)));
            return out;
        }
        x = xn;
        v = vn;
        t += h;
    }
    out.duration = t;
    out.restitution = 0;
    return out;
}

//- Damping d of the law with restitution e (checked by the caller):
//  bracket, then Illinois regula falsi on ln e(d) - ln e (nearly linear in d)
double invertRestitution(bool hertz, double restitution)
{
    if (restitution == 1) return 0;
    const double target = std::log(restitution);
    auto g = [&](double d)
    {
        return std::log(std::max(dimensionlessImpact({hertz, d}).restitution, 1e-300)) - target;
    };
    double lo = 0, flo = -target;
    double hi = 0.5, fhi = g(hi);
    while (fhi > 0)
    {
        lo = hi; flo = fhi;
        hi *= 2;
        fhi = g(hi);
    }
    int side = 0;
    double d = hi;
    for (int it = 0; it < dampingRatioMaxIterations; ++it)
    {
        d = (lo*fhi - hi*flo)/(fhi - flo);
        const double f = g(d);
        if (std::abs(f) < dampingRatioLogTolerance) break;
        if (f > 0)
        {
            lo = d; flo = f;
            if (side == -1) fhi *= 0.5;
            side = -1;
        }
        else
        {
            hi = d; fhi = f;
            if (side == 1) flo *= 0.5;
            side = 1;
        }
    }
    return d;
}

//- xi re-projected on the tangent plane of n, keeping its length (Eq. 30 of [Campello2015])
Vector3 reprojectOnTangentPlane(const Vector3& xi, const Vector3& n)
{
    // Already in the plane (a flat wall's spring): its own projection,
    // without the two roots (t = xi, |xi|/|t| = 1; signed zeros aside)
    const double normal = xi.dot(n);
    if (normal == 0) return xi;
    Vector3 t = xi - normal*n;
    const double projected = t.norm();
    return projected > 0 ? Vector3(t*(xi.norm()/projected)) : Vector3::Zero();
}

//- Tangential spring-dashpot of one point (Eqs. 30-36 of [Campello2015]): force on
//  B and the updated elongation; stick below mu_s F_n, else slide at
//  mu_d F_n along the trial force, the spring holding all of it
Vector3 tangentialForce
(
    double kt, double ct, const Vector3& ut, double normalForce, double muS, double muD,
    Vector3& xi, bool& sliding
)
{
    Vector3 ft = -kt*xi - ct*ut;
    const double ftNorm = ft.norm();
    if (ftNorm > muS*normalForce)
    {
        sliding = true;
        ft = ftNorm > 0 ? Vector3(muD*normalForce*ft/ftNorm) : Vector3::Zero();
        xi = kt > 0 ? Vector3(-ft/kt) : Vector3::Zero();
    }
    return ft;
}

//- Moment of inertia of a body about the axis e through the contact point
//  p (parallel axes; e.I.e taken as 1/(e.I^-1.e)); infinite for a wall
double inertiaAboutContact(const RigidBody& body, const Vector3& e, const Vector3& p)
{
    const double c = e.dot(body.inverseInertia*e);
    if (body.isWall() || !(c > 0)) return std::numeric_limits<double>::infinity();
    return 1/c + e.cross(p - body.position).squaredNorm()/body.inverseMass;
}

//- Rolling spring-dashpot (Description): torque on B, updates theta
Vector3 rollingTorque
(
    const RigidBody& a, const RigidBody& b, const Vector3& n, const Vector3& point,
    double kr, double limit, double dt, Vector3& theta
)
{
    const Vector3 w = b.angularVelocity - a.angularVelocity;
    const Vector3 wt = w - w.dot(n)*n;
    theta = reprojectOnTangentPlane(theta, n) + wt*dt;
    Vector3 M = -kr*theta;
    const double wtNorm = wt.norm();
    if (wtNorm > 0)
    {
        const Vector3 e = wt/wtNorm;
        const double compliance = 1/inertiaAboutContact(a, e, point) + 1/inertiaAboutContact(b, e, point);
        if (compliance > 0) M -= 2*std::sqrt(kr/compliance)*wt;   // c_r = 2 sqrt(I_r k_r)
    }
    const double MNorm = M.norm();
    if (MNorm > limit)
    {
        // Full mobilisation: |M| = mu_r R* F_n, the spring holds all of it
        M *= limit/MNorm;
        theta = kr > 0 ? Vector3(-M/kr) : Vector3::Zero();
    }
    return M;
}

} // namespace


HertzImpact dimensionlessHertzImpact(double beta)
{
    if (!(std::isfinite(beta) && beta >= 0)) invalid("beta", beta, "must be finite and >= 0");
    return dimensionlessImpact({true, beta});
}


HertzImpact dimensionlessHookeImpact(double zeta)
{
    if (!(std::isfinite(zeta) && zeta >= 0)) invalid("zeta", zeta, "must be finite and >= 0");
    return dimensionlessImpact({false, 2*zeta});
}


void validateContactMaterial(const ContactMaterial& m, const char* name)
{
    if (m.rigid) return;
    const std::string n(name);
    if (!(std::isfinite(m.youngsModulus) && m.youngsModulus > 0))
    {
        invalid(n + ".youngsModulus", m.youngsModulus, "must be positive and finite");
    }
    if (!(m.poissonRatio > ContactMaterial::minimumPoissonRatio && m.poissonRatio <= ContactMaterial::maximumPoissonRatio))
    {
        std::ostringstream why;
        why << "must be in (" << ContactMaterial::minimumPoissonRatio << ", "
            << ContactMaterial::maximumPoissonRatio << "]";
        invalid(n + ".poissonRatio", m.poissonRatio, why.str().c_str());
    }
}


void validateSoftContactLaw(const SoftContactLaw& law)
{
    checkRestitution(law.restitution);
    if (!(std::isfinite(law.staticFriction) && law.staticFriction >= 0))
    {
        invalid("staticFriction", law.staticFriction, "must be finite and >= 0");
    }
    if (!(law.dynamicFriction >= 0 && law.dynamicFriction <= law.staticFriction))
    {
        invalid("dynamicFriction", law.dynamicFriction, "must be in [0, staticFriction]");
    }
    if (!(std::isfinite(law.rollingFriction) && law.rollingFriction >= 0))
    {
        invalid("rollingFriction", law.rollingFriction, "must be finite and >= 0");
    }
    if (!(std::isfinite(law.hookeReferenceSpeed) && law.hookeReferenceSpeed > 0))
    {
        invalid("hookeReferenceSpeed", law.hookeReferenceSpeed, "must be positive and finite");
    }
    if (law.stepsPerContact < SoftContactLaw::minimumStepsPerContact)
    {
        const std::string why = "must be >= " + std::to_string(SoftContactLaw::minimumStepsPerContact);
        invalid("stepsPerContact", law.stepsPerContact, why.c_str());
    }
}


double hertzDampingRatio(double restitution)
{
    checkRestitution(restitution);
    return invertRestitution(true, restitution);
}


double hookeDampingRatio(double restitution)
{
    checkRestitution(restitution);
    return 0.5*invertRestitution(false, restitution);
}


SoftContactModel::SoftContactModel
(
    const ContactMaterial& a, const ContactMaterial& b, const SoftContactLaw& law
)
:
    law_(law)
{
    validateContactMaterial(a, "materialA");
    validateContactMaterial(b, "materialB");
    validateSoftContactLaw(law);
    if (a.rigid && b.rigid) invalid("rigid", 1, "both materials rigid: no soft contact");
    effectiveModulus_ = 1/(normalCompliance(a) + normalCompliance(b));
    effectiveShearModulus_ = 1/(shearCompliance(a) + shearCompliance(b));
    // law.restitution is checked above: the damping ratio without a second check
    if (law.normalLaw == NormalForceLaw::hertz)
    {
        dampingRatio_ = invertRestitution(true, law.restitution);
        dimensionlessDuration_ = dimensionlessHertzImpact(dampingRatio_).duration;
    }
    else
    {
        dampingRatio_ = 0.5*invertRestitution(false, law.restitution);
        dimensionlessDuration_ = dimensionlessHookeImpact(dampingRatio_).duration;
    }
}


SoftContactParameters SoftContactModel::parameters(double mStar, double rStar) const
{
    if (!(std::isfinite(mStar) && mStar > 0)) invalid("effectiveMass", mStar, "must be positive and finite");
    if (!(std::isfinite(rStar) && rStar > 0)) invalid("effectiveRadius", rStar, "must be positive and finite");
    SoftContactParameters p;
    p.normalLaw = law_.normalLaw;
    p.effectiveMass = mStar;
    p.effectiveRadius = rStar;
    p.effectiveModulus = effectiveModulus_;
    p.effectiveShearModulus = effectiveShearModulus_;
    p.restitution = law_.restitution;
    p.staticFriction = law_.staticFriction;
    p.dynamicFriction = law_.dynamicFriction;
    p.rollingFriction = law_.rollingFriction;
    p.dampingRatio = dampingRatio_;
    p.dimensionlessDuration = dimensionlessDuration_;
    p.stepsPerContact = law_.stepsPerContact;
    const double kHertz = 4.0/3.0*effectiveModulus_*std::sqrt(rStar);
    if (law_.normalLaw == NormalForceLaw::hertz)
    {
        p.normalStiffness = kHertz;
        p.dampingCoefficient = dampingRatio_*std::sqrt(mStar*kHertz);
    }
    else
    {
        // Same maximum overlap as Hertz at v_ref: delta = (5 m* v^2/(4 k_H))^(2/5)
        const double v = law_.hookeReferenceSpeed;
        const double deltaMax = std::pow(1.25*mStar*v*v/kHertz, 0.4);
        p.normalStiffness = mStar*v*v/(deltaMax*deltaMax);
        p.dampingCoefficient = 2*dampingRatio_*std::sqrt(mStar*p.normalStiffness);
    }
    return p;
}


SoftContactParameters SoftContactModel::parameters
(
    const RigidBody& a, const RigidBody& b, double radiusA, double radiusB
) const
{
    return parameters(effectiveMass(a, b), effectiveRadius(radiusA, radiusB));
}


std::string SoftContactParameters::describe() const
{
    std::ostringstream os;
    os.precision(6);
    const bool hertz = normalLaw == NormalForceLaw::hertz;
    os << (hertz ? "Hertz" : "Hooke") << " soft contact: m* = " << effectiveMass
       << " kg, R* = " << effectiveRadius << " m, E* = " << effectiveModulus
       << " Pa, G* = " << effectiveShearModulus << " Pa\n";
    if (hertz)
    {
        os << "  F_n = k delta^1.5 + eta delta^0.25 delta', k = " << normalStiffness
           << " N/m^1.5, eta = " << dampingCoefficient << " N s/m^1.25 (beta = "
           << dampingRatio << ")\n"
           << "  k_t = 8 G* sqrt(R* delta) = " << 8*effectiveShearModulus*std::sqrt(effectiveRadius)
           << " sqrt(delta) N/m\n";
    }
    else
    {
        os << "  F_n = k delta + c delta', k = " << normalStiffness << " N/m, c = "
           << dampingCoefficient << " N s/m (zeta = " << dampingRatio << ")\n"
           << "  k_t = " << 4*effectiveShearModulus/effectiveModulus*normalStiffness << " N/m\n";
    }
    os << "  eps_n = " << restitution << ", mu_s = " << staticFriction << ", mu_d = "
       << dynamicFriction << ", mu_r = " << rollingFriction << "\n"
       << "  t_c(1 m/s) = " << contactDuration(*this, 1.0) << " s, sub-step(1 m/s) = "
       << stableTimeStep(*this, 1.0) << " s (" << stepsPerContact << " steps per contact)";
    return os.str();
}


double effectiveMass(const RigidBody& a, const RigidBody& b)
{
    const double w = a.inverseMass + b.inverseMass;
    if (!(std::isfinite(w) && w > 0)) invalid("inverseMass sum", w, "must be positive and finite");
    return 1/w;
}


double contactDuration(const SoftContactParameters& p, double impactSpeed)
{
    if (!(std::isfinite(impactSpeed) && impactSpeed > 0))
    {
        invalid("impactSpeed", impactSpeed, "must be positive and finite");
    }
    if (p.normalLaw == NormalForceLaw::hertz)
    {
        // delta = L x, t = T tau with L = (m* v^2/k)^(2/5), T = L/v
        const double L = std::pow(p.effectiveMass*impactSpeed*impactSpeed/p.normalStiffness, 0.4);
        return p.dimensionlessDuration*L/impactSpeed;
    }
    // t = T tau with T = sqrt(m*/k)
    return p.dimensionlessDuration*std::sqrt(p.effectiveMass/p.normalStiffness);
}


double stableTimeStep(const SoftContactParameters& p, double maxImpactSpeed)
{
    return contactDuration(p, maxImpactSpeed)/p.stepsPerContact;
}


namespace
{

//- The rotational part c.I^-1.c of n.K.n, c the normal row's arm; none for
//  a wall (I^-1 = 0) or a sphere, whose normals pass its centre
//  (SurfaceSymmetry.H)
double rotationalCompliance(const RigidBody& body, const Vector3& p, const Vector3& n)
{
    if (body.isWall() || body.symmetry.kind == SurfaceSymmetry::Kind::sphere) return 0;
    const Vector3 c = body.symmetry.normalArm(p - body.position, n);
    return c.dot(body.inverseInertia*c);
}

} // namespace


double normalEffectiveMass(const RigidBody& a, const RigidBody& b, const Vector3& p, const Vector3& n)
{
    const double nKn = a.inverseMass + b.inverseMass
                     + rotationalCompliance(a, p, n) + rotationalCompliance(b, p, n);
    if (!(std::isfinite(nKn) && nKn > 0)) invalid("n.K.n", nKn, "must be positive and finite");
    return 1/nKn;
}


double dampingCoefficient(const SoftContactParameters& p, double mass)
{
    const double root = std::sqrt(mass*p.normalStiffness);
    return p.normalLaw == NormalForceLaw::hertz ? p.dampingRatio*root : 2*p.dampingRatio*root;
}


namespace
{

//- The manifold's points in contact (depth > 0), in order, and the largest
//  depth; throws on a bad dt, count, normal or depth
struct ContactPoints
{
    ContactManifold current;    // the points with depth > 0
    double deltaMax = 0;
};

ContactPoints contactPoints(const ContactManifold& manifold, double dt)
{
    if (!(std::isfinite(dt) && dt >= 0)) invalid("dt", dt, "must be finite and >= 0");
    if (manifold.count < 0 || manifold.count > maxManifoldPoints)
    {
        invalid("manifold.count", manifold.count, "must be in [0, 4]");
    }
    const Vector3& n = manifold.normal;
    if (!(std::abs(n.norm() - 1) <= unitNormalTolerance)) invalid("manifold.normal |n|", n.norm(), "must be 1");

    ContactPoints out;
    int N = 0;
    for (int i = 0; i < manifold.count; ++i)
    {
        const double d = manifold.points[i].depth;
        if (!std::isfinite(d)) invalid("manifold depth", d, "must be finite");
        if (d > 0)
        {
            out.current.points[N++] = manifold.points[i];
            out.deltaMax = std::max(out.deltaMax, d);
        }
    }
    out.current.count = N;
    return out;
}

//- Springs of the previous step matched to the current points by position
//  in A's frame (-1: a new spring); a single point to a single point always
std::array<int, maxManifoldPoints> matchSprings
(
    const TangentialHistory& history,
    const ContactManifold& current,
    double matchDistance
)
{
    std::array<int, maxManifoldPoints> match;
    match.fill(-1);
    if (current.count == 1 && history.count == 1)
    {
        match[0] = 0;
        return match;
    }
    ContactManifold previous;
    previous.count = history.count;
    for (int j = 0; j < history.count; ++j) previous.points[j].pointInA = history.pointInA[j];
    matchManifoldPoints(previous, current, matchDistance, match);
    return match;
}

//- Elastic normal forces w k delta^p of the points, their centre p_c (line
//  of action of the resultant) and their energy
struct ElasticParts
{
    std::array<double, maxManifoldPoints> force{};
    Vector3 centre = Vector3::Zero();
    double energy = 0;
};

ElasticParts elasticParts(const ContactManifold& current, const SoftContactParameters& p, double w)
{
    const bool hertz = p.normalLaw == NormalForceLaw::hertz;
    ElasticParts out;
    double sum = 0;
    for (int j = 0; j < current.count; ++j)
    {
        const double d = current.points[j].depth;
        out.force[j] = w*p.normalStiffness*(hertz ? d*std::sqrt(d) : d);
        sum += out.force[j];
        out.centre += out.force[j]*current.points[j].point;
        out.energy += (hertz ? 0.4 : 0.5)*d*out.force[j];
    }
    // One point is its own centre, exactly (f p/f need not give p's bits)
    out.centre = current.count == 1 ? current.points[0].point : Vector3(out.centre/sum);
    return out;
}

//- Tangential stiffness of a contact of depth d: 8 G* sqrt(R* d) (Hertz,
//  Eq. (37) of [Campello2015]) or 4 G*/E* k (Hooke)
double tangentialStiffness(const SoftContactParameters& p, double d)
{
    return p.normalLaw == NormalForceLaw::hertz
        ? 8*p.effectiveShearModulus*std::sqrt(p.effectiveRadius*d)
        : 4*p.effectiveShearModulus/p.effectiveModulus*p.normalStiffness;
}

//- What one manifold point of share w adds: its normal force (elastic plus
//  dashpot eta, no tension) and its tangential spring xi, advanced by dt
//  from the matched spring xi0 (zero for a new one)
struct PointLoad
{
    const ManifoldPoint& mp;
    double elastic;
    const Vector3& xi0;
};

//- The share w of each point, the dashpot mass m and coefficient eta of the
//  contact, and the step dt
struct PointShare
{
    double w;
    double dashpotMass;
    double eta;
    double dt;
};

void addPointForce
(
    const RigidBody& a,
    const RigidBody& b,
    const Vector3& n,
    const SoftContactParameters& p,
    const PointLoad& load,
    const PointShare& share,
    int j,
    SoftContactResult& out
)
{
    const bool hertz = p.normalLaw == NormalForceLaw::hertz;
    const double w = share.w;
    const ManifoldPoint& mp = load.mp;
    const Vector3 u = b.pointVelocity(mp.point) - a.pointVelocity(mp.point);
    const Vector3 ut = u - u.dot(n)*n;
    // Normal rate and moments through the normal row's arms, which a
    // spin about a symmetry axis does not enter (SurfaceSymmetry.H)
    const Vector3 armA = a.symmetry.normalArm(mp.point - a.position, n);
    const Vector3 armB = b.symmetry.normalArm(mp.point - b.position, n);
    const double deltaRate =
        -(n.dot(b.velocity - a.velocity) + armB.dot(b.angularVelocity) - armA.dot(a.angularVelocity));
    const double d = mp.depth;
    const double damping = w*share.eta*(hertz ? std::sqrt(std::sqrt(d)) : 1.0)*deltaRate;
    const double Fn = std::max(load.elastic + damping, 0.0);   // no tension

    const double kt = w*tangentialStiffness(p, d);
    Vector3 xi = load.xi0 + ut*share.dt;
    // Tangential dashpot of the same form as the normal one, on the point's
    // spring: damping ratio zeta (Hooke) or beta/2 (Hertz) for mass m
    const double ct = w*(hertz ? p.dampingRatio : 2*p.dampingRatio)*std::sqrt(share.dashpotMass*kt/w);
    const Vector3 ft = tangentialForce(kt, ct, ut, Fn, p.staticFriction, p.dynamicFriction, xi, out.sliding);
    out.history.spring(j) = xi;
    out.history.pointInA[j] = mp.pointInA;
    out.elasticEnergy += 0.5*kt*xi.squaredNorm();

    out.normalForce += Fn;
    out.tangentialForce += ft;
    out.forceOnB += Fn*n + ft;
    out.torqueOnB += Fn*armB + (mp.point - b.position).cross(ft);
    out.torqueOnA -= Fn*armA + (mp.point - a.position).cross(ft);
}

//- Rolling resistance of the contact about its centre p_c: spring k_t a^2
//  (a^2 = R* delta_max) limited by mu_r R* F_n (rollingTorque)
void addRollingTorque
(
    const RigidBody& a,
    const RigidBody& b,
    const Vector3& n,
    const Vector3& centre,
    const SoftContactParameters& p,
    const TangentialHistory& history,
    double deltaMax,
    double dt,
    SoftContactResult& out
)
{
    const double kr = tangentialStiffness(p, deltaMax)*p.effectiveRadius*deltaMax;
    Vector3 theta = history.rollingAngle;
    const Vector3 M = rollingTorque
    (
        a, b, n, centre, kr, p.rollingFriction*p.effectiveRadius*out.normalForce, dt, theta
    );
    out.history.rollingAngle = theta;
    out.torqueOnB += M;
    out.torqueOnA -= M;
}

} // namespace


SoftContactResult softManifoldForce
(
    const RigidBody& a,
    const RigidBody& b,
    const ContactManifold& manifold,
    const SoftContactParameters& p,
    const TangentialHistory& history,
    double matchDistance,
    double dt
)
{
    SoftContactResult out;
    const Vector3& n = manifold.normal;
    // Points in contact and their share w = 1/N (Description)
    const ContactPoints contact = contactPoints(manifold, dt);
    const ContactManifold& current = contact.current;
    const int N = current.count;
    if (N == 0) return out;   // separated: no force, history reset
    out.inContact = true;
    out.points = N;
    const double w = 1.0/N;

    const std::array<int, maxManifoldPoints> match = matchSprings(history, current, matchDistance);
    const ElasticParts elastic = elasticParts(current, p, w);
    out.elasticEnergy = elastic.energy;
    const double dashpotMass = normalEffectiveMass(a, b, elastic.centre, n);
    const double eta = dampingCoefficient(p, dashpotMass);

    out.history.count = N;
    for (int j = 0; j < N; ++j)
    {
        const Vector3 xi0 =
            match[j] >= 0 ? reprojectOnTangentPlane(history.spring(match[j]), n) : Vector3::Zero();
        addPointForce
        (
            a, b, n, p, PointLoad{current.points[j], elastic.force[j], xi0},
            PointShare{w, dashpotMass, eta, dt}, j, out
        );
    }

    if (p.rollingFriction > 0)
    {
        addRollingTorque(a, b, n, elastic.centre, p, history, contact.deltaMax, dt, out);
    }
    return out;
}


SoftContactResult softContactForce
(
    const RigidBody& a,
    const RigidBody& b,
    const CollisionPoint& contact,
    const SoftContactParameters& p,
    const TangentialHistory& history,
    double dt
)
{
    validateCollisionPoint(contact);
    ContactManifold m;
    m.normal = contact.normal;
    m.count = 1;
    m.points[0].point = contact.point;
    m.points[0].depth = contact.overlap;
    return softManifoldForce(a, b, m, p, history, 0, dt);
}

} // namespace superellipsoid
