#include "collision/SoftContact.H"
#include "math/InvalidArgument.H"
#include "collision/ContactCurvature.H"

#include <algorithm>
#include <cmath>
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
constexpr double pi = 3.14159265358979323846;

[[noreturn]] void invalid(const std::string& name, double value, const char* why)
{
    throwInvalidArgument(name, value, why);
}

void checkMaterial(const ContactMaterial& m, const char* name)
{
    if (m.rigid) return;
    const std::string n(name);
    if (!(std::isfinite(m.youngsModulus) && m.youngsModulus > 0))
    {
        invalid(n + ".youngsModulus", m.youngsModulus, "must be positive and finite");
    }
    if (!(m.poissonRatio > -1 && m.poissonRatio <= 0.5))
    {
        invalid(n + ".poissonRatio", m.poissonRatio, "must be in (-1, 0.5]");
    }
}

void checkLaw(const SoftContactLaw& law)
{
    if (!(law.restitution >= SoftContactLaw::minimumRestitution && law.restitution <= 1))
    {
        invalid("restitution", law.restitution, "must be in [0.01, 1] for soft contact");
    }
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
        invalid("stepsPerContact", law.stepsPerContact, "must be >= 20");
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

//- Right-hand side of x'' = -x^1.5 - beta x^0.25 x' (x >= 0)
double hertzAcceleration(double x, double v, double beta)
{
    const double xp = std::max(x, 0.0);
    const double q = std::sqrt(std::sqrt(xp));   // x^(1/4)
    return -xp*std::sqrt(xp) - beta*q*v;
}

} // namespace


HertzImpact dimensionlessHertzImpact(double beta)
{
    if (!(std::isfinite(beta) && beta >= 0)) invalid("beta", beta, "must be finite and >= 0");
    // RK4 from x = 0, x' = 1 until x returns to 0; crossing by linear interpolation
    const double h = hertzImpactStep;
    double x = 0, v = 1, t = 0;
    HertzImpact out;
    while (t < hertzImpactMaxDuration)
    {
        const double k1x = v, k1v = hertzAcceleration(x, v, beta);
        const double k2x = v + 0.5*h*k1v, k2v = hertzAcceleration(x + 0.5*h*k1x, k2x, beta);
        const double k3x = v + 0.5*h*k2v, k3v = hertzAcceleration(x + 0.5*h*k2x, k3x, beta);
        const double k4x = v + h*k3v, k4v = hertzAcceleration(x + h*k3x, k4x, beta);
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


double hertzDampingRatio(double restitution)
{
    if (!(restitution >= SoftContactLaw::minimumRestitution && restitution <= 1))
    {
        invalid("restitution", restitution, "must be in [0.01, 1] for soft contact");
    }
    if (restitution == 1) return 0;
    const double target = std::log(restitution);
    // Bracket: ln e(0) = 0 > target; grow beta until ln e(beta) < target
    double lo = 0, flo = -target;
    double hi = 0.5, fhi = std::log(std::max(dimensionlessHertzImpact(hi).restitution, 1e-300)) - target;
    while (fhi > 0)
    {
        lo = hi; flo = fhi;
        hi *= 2;
        fhi = std::log(std::max(dimensionlessHertzImpact(hi).restitution, 1e-300)) - target;
    }
    // Illinois regula falsi on ln e(beta) - ln e (nearly linear in beta)
    int side = 0;
    double beta = hi;
    for (int it = 0; it < dampingRatioMaxIterations; ++it)
    {
        beta = (lo*fhi - hi*flo)/(fhi - flo);
        const double f = std::log(std::max(dimensionlessHertzImpact(beta).restitution, 1e-300)) - target;
        if (std::abs(f) < dampingRatioLogTolerance) break;
        if (f > 0)
        {
            lo = beta; flo = f;
            if (side == -1) fhi *= 0.5;
            side = -1;
        }
        else
        {
            hi = beta; fhi = f;
            if (side == 1) flo *= 0.5;
            side = 1;
        }
    }
    return beta;
}


double hookeDampingRatio(double restitution)
{
    if (!(restitution > 0 && restitution <= 1))
    {
        invalid("restitution", restitution, "must be in (0, 1]");
    }
    const double l = std::log(restitution);
    return -l/std::sqrt(pi*pi + l*l);
}


SoftContactModel::SoftContactModel
(
    const ContactMaterial& a, const ContactMaterial& b, const SoftContactLaw& law
)
:
    law_(law)
{
    checkMaterial(a, "materialA");
    checkMaterial(b, "materialB");
    checkLaw(law);
    if (a.rigid && b.rigid) invalid("rigid", 1, "both materials rigid: no soft contact");
    effectiveModulus_ = 1/(normalCompliance(a) + normalCompliance(b));
    effectiveShearModulus_ = 1/(shearCompliance(a) + shearCompliance(b));
    if (law.normalLaw == NormalForceLaw::hertz)
    {
        dampingRatio_ = hertzDampingRatio(law.restitution);
        dimensionlessDuration_ = dimensionlessHertzImpact(dampingRatio_).duration;
    }
    else
    {
        dampingRatio_ = hookeDampingRatio(law.restitution);
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
    const double w0 = p.normalStiffness/p.effectiveMass;
    const double d = p.dampingCoefficient/(2*p.effectiveMass);
    return pi/std::sqrt(w0 - d*d);
}


double stableTimeStep(const SoftContactParameters& p, double maxImpactSpeed)
{
    return contactDuration(p, maxImpactSpeed)/p.stepsPerContact;
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
    if (!(std::isfinite(dt) && dt >= 0)) invalid("dt", dt, "must be finite and >= 0");
    SoftContactResult out;
    const double delta = contact.overlap;
    if (!(delta > 0)) return out;   // separated: no force, history reset
    out.inContact = true;

    const Vector3& n = contact.normal;
    const Vector3 rA = contact.point - a.position;
    const Vector3 rB = contact.point - b.position;
    const Vector3 u = b.pointVelocity(contact.point) - a.pointVelocity(contact.point);
    const double deltaRate = -u.dot(n);
    const Vector3 ut = u + deltaRate*n;

    // Normal force (see Description)
    double kt = 0;
    if (p.normalLaw == NormalForceLaw::hertz)
    {
        const double sqrtDelta = std::sqrt(delta);
        out.normalForce = p.normalStiffness*delta*sqrtDelta
                        + p.dampingCoefficient*std::sqrt(sqrtDelta)*deltaRate;
        out.elasticEnergy = 0.4*p.normalStiffness*delta*delta*sqrtDelta;
        kt = 8*p.effectiveShearModulus*std::sqrt(p.effectiveRadius*delta);   // Eq. (37) of [Campello2015]
    }
    else
    {
        out.normalForce = p.normalStiffness*delta + p.dampingCoefficient*deltaRate;
        out.elasticEnergy = 0.5*p.normalStiffness*delta*delta;
        kt = 4*p.effectiveShearModulus/p.effectiveModulus*p.normalStiffness;
    }
    const double compressive = std::max(out.normalForce, 0.0);

    // Tangential spring: re-project the stored elongation on the current
    // tangent plane (keeping its length), then add the slip increment (Eq. 30 of [Campello2015])
    Vector3 xi = history.displacement;
    const double xiLength = xi.norm();
    xi -= xi.dot(n)*n;
    const double projected = xi.norm();
    if (projected > 0) xi *= xiLength/projected;
    xi += ut*dt;

    Vector3 ft = -kt*xi;                            // force on B, opposes its slip
    const double ftNorm = ft.norm();
    if (ftNorm > p.staticFriction*compressive)      // Eq. (32) of [Campello2015] fails: slip
    {
        out.sliding = true;
        ft = ftNorm > 0 ? Vector3(-p.dynamicFriction*compressive*xi/xi.norm()) : Vector3::Zero();
        xi = kt > 0 ? Vector3(-ft/kt) : Vector3::Zero();   // Eqs. (35)-(36) of [Campello2015]
    }
    out.tangentialForce = ft;
    out.history.displacement = xi;
    out.elasticEnergy += 0.5*kt*xi.squaredNorm();

    out.forceOnB = out.normalForce*n + ft;
    out.torqueOnB = rB.cross(out.forceOnB);
    out.torqueOnA = -rA.cross(out.forceOnB);

    // Rolling resistance (constant-torque model) opposing the relative spin
    if (p.rollingFriction > 0)
    {
        const Vector3 w = b.angularVelocity - a.angularVelocity;
        const double wNorm = w.norm();
        if (wNorm > 0)
        {
            const Vector3 M = -p.rollingFriction*p.effectiveRadius*compressive*w/wNorm;
            out.torqueOnB += M;
            out.torqueOnA -= M;
        }
    }
    return out;
}

} // namespace superellipsoid
