// DEM soft contact: curvature radius, exact restitution calibration, contact
// times, Campello's sliding-to-rolling sphere, energy over 250 bounces.
#include "collision/ContactCurvature.H"
#include "collision/SoftContact.H"
#include "math/SpecialFunctions.H"
#include "CollisionTestHelpers.H"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <string>

using namespace superellipsoid;
using namespace superellipsoid::testing;

namespace
{

constexpr double infinity = std::numeric_limits<double>::infinity();

//- Analytic undamped Hertz contact time (4/5) B(2/5, 1/2) delta_max/v,
//  delta_max = (15 m* v^2 / (16 E* sqrt(R*)))^(2/5)  [Hertz; Eq. 50 of [Campello2015]]
double hertzDuration(double mStar, double rStar, double eStar, double v)
{
    const double deltaMax = std::pow(15*mStar*v*v/(16*eStar*std::sqrt(rStar)), 0.4);
    return 0.8*betaFunction(0.4, 0.5)*deltaMax/v;
}

struct ImpactOutcome
{
    double restitution = 0;
    double duration = 0;
};

//- Velocity-Verlet normal impact of sphere A on the floor (B = nullptr) or on
//  sphere B (head-on along +x); contact start/end by linear interpolation of
//  the overlap between steps
ImpactOutcome simulateImpact
(
    const SoftContactModel& model, Sphere a, Sphere* b, double speed, int stepsPerContact
)
{
    const bool wall = (b == nullptr);
    const RigidBody wallBody = RigidBody::wall();
    if (wall)
    {
        a.body.position = Vector3(0, a.radius + 1e-12, 0);
        a.body.velocity = Vector3(0, -speed, 0);
    }
    else
    {
        a.body.position = Vector3::Zero();
        b->body.position = Vector3(a.radius + b->radius + 1e-12, 0, 0);
        const double mTot = a.mass + b->mass;
        a.body.velocity = Vector3(speed*b->mass/mTot, 0, 0);   // centre-of-mass frame
        b->body.velocity = Vector3(-speed*a.mass/mTot, 0, 0);
    }
    const SoftContactParameters p = wall
        ? model.parameters(a.body, wallBody, a.radius, infinity)
        : model.parameters(a.body, b->body, a.radius, b->radius);
    const double dt = contactDuration(p, speed)/stepsPerContact;

    auto contact = [&]() { return wall ? sphereOnFloor(a, 0.0) : sphereSphere(a, *b); };
    auto relativeSpeed = [&]() {
        return wall ? a.body.velocity.y() : (b->body.velocity - a.body.velocity).x(); };

    TangentialHistory history;
    ImpactOutcome out;
    double t = 0, tStart = -1, previousOverlap = contact().overlap;
    SoftContactResult f;
    for (int step = 0; step < 100*stepsPerContact; ++step)
    {
        a.kickDrift(-f.forceOnB, f.torqueOnA, dt);
        if (!wall) b->kickDrift(f.forceOnB, f.torqueOnB, dt);
        t += dt;
        const CollisionPoint c = contact();
        f = softContactForce(a.body, wall ? wallBody : b->body, c, p, history, dt);
        history = f.history;
        a.kick(-f.forceOnB, f.torqueOnA, dt);
        if (!wall) b->kick(f.forceOnB, f.torqueOnB, dt);
        if (previousOverlap <= 0 && c.overlap > 0)
        {
            tStart = t - dt*c.overlap/(c.overlap - previousOverlap);
        }
        if (previousOverlap > 0 && c.overlap <= 0 && tStart >= 0)
        {
            out.duration = t - dt*c.overlap/(c.overlap - previousOverlap) - tStart;
            out.restitution = std::abs(relativeSpeed())/speed;
            return out;
        }
        previousOverlap = c.overlap;
    }
    ADD_FAILURE() << "contact did not end";
    return out;
}

void expectThrowNaming(const std::function<void()>& f, const std::string& name)
{
    try
    {
        f();
        ADD_FAILURE() << "no exception for " << name;
    }
    catch (const std::invalid_argument& e)
    {
        EXPECT_NE(std::string(e.what()).find(name), std::string::npos) << e.what();
    }
}

const ContactMaterial glass = ContactMaterial::elastic(5e7, 0.3);

} // namespace


TEST(Curvature, SphereRadiusFromMeanAndGaussianCurvature)
{
    // S = |x|^2/R^2 - 1: g = 2x/R^2, H = 2/R^2 1; kappa1 = kappa2 = 1/R
    const double R = 0.7;
    const Vector3 x = R*Vector3(1, -2, 0.5).normalized();
    const Vector3 g = 2*x/(R*R);
    const Matrix3 H = 2/(R*R)*Matrix3::Identity();
    EXPECT_NEAR(curvatureRadius(g, H, CurvatureModel::mean, R), R, 1e-14);
    EXPECT_NEAR(curvatureRadius(g, H, CurvatureModel::gaussian, R), R, 1e-14);
}


TEST(Curvature, EllipsoidTipHasPrincipalCurvaturesAOverBSquaredAndAOverCSquared)
{
    // Ellipsoid (a, b, c) at the tip (a, 0, 0): kappa1 = a/b^2, kappa2 = a/c^2
    const double a = 3, b = 2, c = 1;
    const Vector3 g(2/a, 0, 0);
    const Matrix3 H = Vector3(2/(a*a), 2/(b*b), 2/(c*c)).asDiagonal();
    const double k1 = a/(b*b), k2 = a/(c*c);
    EXPECT_NEAR(meanCurvature(g, H), 0.5*(k1 + k2), 1e-14);
    EXPECT_NEAR(gaussianCurvature(g, H), k1*k2, 1e-13);
    // and rotation invariance: the same point in a rotated frame
    const Matrix3 Q = Quaternion(Eigen::AngleAxisd(0.7, Vector3(1, 2, 3).normalized())).toRotationMatrix();
    EXPECT_NEAR(meanCurvature(Q*g, Q*H*Q.transpose()), 0.5*(k1 + k2), 1e-13);
    EXPECT_NEAR(gaussianCurvature(Q*g, Q*H*Q.transpose()), k1*k2, 1e-12);
}


TEST(Curvature, FlatFaceIsCappedAtTenVolumeEquivalentRadii)
{
    // Flat point: zero tangential curvature -> the cap q R_vol, q = 10 ([Podlozhnyuk2017])
    const Vector3 g(0, 0, 1);
    const Matrix3 H = Vector3(0, 0, 5).asDiagonal();
    EXPECT_EQ(curvatureRadius(g, H, CurvatureModel::mean, 0.3), 3.0);
    EXPECT_EQ(curvatureRadius(g, H, CurvatureModel::gaussian, 0.3, 4), 1.2);
    EXPECT_NEAR(effectiveRadius(2, 2), 1, 1e-15);
    EXPECT_EQ(effectiveRadius(0.5, infinity), 0.5);
}


TEST(HertzCalibration, UndampedDimensionlessImpactMatchesHertzTime)
{
    // x'' = -x^1.5, x'(0) = 1: e = 1 and, from energy conservation, x_max = (5/4)^(2/5),
    // tau_c = (4/5) B(2/5, 1/2) x_max = 3.2181
    const HertzImpact h = dimensionlessHertzImpact(0);
    EXPECT_NEAR(h.restitution, 1, 1e-6);   // RK4 at step 2e-4: ~1e-8, singular x^0.25 near 0 aside
    EXPECT_NEAR(h.duration, 0.8*betaFunction(0.4, 0.5)*std::pow(1.25, 0.4), 1e-6);
}


TEST(HertzCalibration, DampingRatioInvertsRestitutionAndDiffersFromHookeFormula)
{
    for (double e : {0.1, 0.5, 0.9})
    {
        const double beta = hertzDampingRatio(e);
        EXPECT_NEAR(dimensionlessHertzImpact(beta).restitution, e, 1e-8*e);   // root-finding tolerance 1e-10 in ln e
        // The Hooke relation applied to Hertz (beta = 2 zeta sqrt(3/2)-type
        // guesses) would be off: the exact beta is not 2*zeta(e)
        EXPECT_GT(std::abs(beta - 2*hookeDampingRatio(e)), 0.01*beta);
    }
}


TEST(SoftRestitution, HertzWallAndPairWithinOnePercentAtThreeSpeeds)
{
    SoftContactLaw law;
    law.normalLaw = NormalForceLaw::hertz;
    law.restitution = 0.7;
    const SoftContactModel wallModel(glass, ContactMaterial::rigidWall(), law);
    const SoftContactModel pairModel(glass, glass, law);
    for (double v : {0.05, 0.5, 5.0})
    {
        Sphere a = Sphere::make(0.01, 2500), b = Sphere::make(0.015, 2500);
        // 200 steps per contact: half-step dashpot velocity error O(dt) << 1 %
        const ImpactOutcome w = simulateImpact(wallModel, a, nullptr, v, 200);
        const ImpactOutcome p = simulateImpact(pairModel, a, &b, v, 200);
        EXPECT_NEAR(w.restitution, 0.7, 0.007) << "wall v = " << v;
        EXPECT_NEAR(p.restitution, 0.7, 0.007) << "pair v = " << v;
        std::printf("Hertz e = 0.7, v = %g: wall %.5f, pair %.5f\n", v, w.restitution, p.restitution);
    }
}


TEST(SoftRestitution, HookeWallAndPairWithinOnePercentAtThreeSpeeds)
{
    SoftContactLaw law;
    law.normalLaw = NormalForceLaw::hooke;
    law.restitution = 0.4;
    const SoftContactModel wallModel(glass, ContactMaterial::rigidWall(), law);
    const SoftContactModel pairModel(glass, glass, law);
    for (double v : {0.05, 0.5, 5.0})
    {
        Sphere a = Sphere::make(0.01, 2500), b = Sphere::make(0.01, 1000);
        const ImpactOutcome w = simulateImpact(wallModel, a, nullptr, v, 200);
        const ImpactOutcome p = simulateImpact(pairModel, a, &b, v, 200);
        EXPECT_NEAR(w.restitution, 0.4, 0.004) << "wall v = " << v;
        EXPECT_NEAR(p.restitution, 0.4, 0.004) << "pair v = " << v;
        std::printf("Hooke e = 0.4, v = %g: wall %.5f, pair %.5f\n", v, w.restitution, p.restitution);
    }
}


TEST(SoftDuration, HertzContactTimeWithinOnePercentOfAnalytic)
{
    SoftContactLaw law;   // Hertz, eps_n = 1
    const SoftContactModel wallModel(glass, ContactMaterial::rigidWall(), law);
    const SoftContactModel pairModel(glass, glass, law);
    const double eWall = 5e7/(1 - 0.09), ePair = 0.5*eWall;
    for (double v : {0.1, 1.0, 3.0})
    {
        Sphere a = Sphere::make(0.01, 2500), b = Sphere::make(0.02, 2500);
        const double mStar = a.mass*b.mass/(a.mass + b.mass), rStar = 0.01*0.02/0.03;
        // 50 steps per contact; interpolated contact start and end: O(dt^2)
        const ImpactOutcome w = simulateImpact(wallModel, a, nullptr, v, 50);
        const ImpactOutcome p = simulateImpact(pairModel, a, &b, v, 50);
        EXPECT_NEAR(w.duration/hertzDuration(a.mass, 0.01, eWall, v), 1, 0.01) << "wall v = " << v;
        EXPECT_NEAR(p.duration/hertzDuration(mStar, rStar, ePair, v), 1, 0.01) << "pair v = " << v;
        std::printf("Hertz t_c/analytic, v = %g: wall %.5f, pair %.5f\n", v,
                    w.duration/hertzDuration(a.mass, 0.01, eWall, v), p.duration/hertzDuration(mStar, rStar, ePair, v));
        // the model's own estimate is the same analytic law
        EXPECT_NEAR(contactDuration(wallModel.parameters(a.body, RigidBody::wall(), 0.01, infinity), v)
                    /hertzDuration(a.mass, 0.01, eWall, v), 1, 1e-5);
    }
}


TEST(SoftDuration, HookeContactTimeIsPiSqrtMassOverStiffness)
{
    SoftContactLaw law;
    law.normalLaw = NormalForceLaw::hooke;
    const SoftContactModel model(glass, glass, law);
    Sphere a = Sphere::make(0.01, 2500), b = Sphere::make(0.01, 2500);
    const SoftContactParameters p = model.parameters(a.body, b.body, 0.01, 0.01);
    const double analytic = M_PI*std::sqrt(p.effectiveMass/p.normalStiffness);
    for (double v : {0.1, 1.0, 3.0})
    {
        Sphere a2 = a, b2 = b;
        const ImpactOutcome o = simulateImpact(model, a2, &b2, v, 50);
        EXPECT_NEAR(o.duration/analytic, 1, 0.005) << "v = " << v;   // issue: 0.5 %
        std::printf("Hooke t_c/analytic, v = %g: %.5f\n", v, o.duration/analytic);
    }
}


TEST(SoftContactSubstep, AtLeastTwentyStepsPerContact)
{
    SoftContactLaw law;
    const SoftContactModel model(glass, glass, law);
    const SoftContactParameters p = model.parameters(1e-3, 5e-3);
    EXPECT_NEAR(stableTimeStep(p, 2.0), contactDuration(p, 2.0)/20, 1e-18);
    law.stepsPerContact = 10;
    expectThrowNaming([&] { SoftContactModel(glass, glass, law); }, "stepsPerContact");
}


TEST(Campello, SpinningSphereOnPlaneStartsRollingAtTheExactTime)
{
    // [Campello2015] example 5.1: r = 0.2 m, m = 1000 kg, v0 = 2.355 m/s,
    // omega0 = -127.03 rad/s, mu = 0.25, E = 1e10 Pa, nu = 0.25, dt = 1e-4 s.
    // Exact: t_roll = 2.68542 s, v_roll = 8.941 m/s, omega_roll = -44.705 rad/s.
    const double r = 0.2, m = 1000, g = 9.81, dt = 1e-4;
    SoftContactLaw law;
    law.staticFriction = law.dynamicFriction = 0.25;
    const SoftContactModel model(ContactMaterial::elastic(1e10, 0.25), ContactMaterial::rigidWall(), law);
    Sphere s = Sphere::make(r, m/(4.0/3.0*M_PI*r*r*r));
    const SoftContactParameters p = model.parameters(s.body, RigidBody::wall(), r, infinity);
    // start at the static Hertz overlap (m g/k)^(2/3) so the sphere does not bounce
    const double deltaStatic = std::pow(m*g/p.normalStiffness, 2.0/3.0);
    s.body.position = Vector3(0, r - deltaStatic, 0);
    s.body.velocity = Vector3(2.355, 0, 0);
    s.body.angularVelocity = Vector3(0, 0, -127.03);
    const Vector3 gravity(0, -m*g, 0);

    TangentialHistory history;
    SoftContactResult f = softContactForce(s.body, RigidBody::wall(), sphereOnFloor(s, 0), p, history, 0);
    double t = 0, tRoll = -1, previousSlip = s.body.velocity.x() + r*s.body.angularVelocity.z();
    double vSum = 0, wSum = 0;
    int samples = 0;
    while (t < 3.5)
    {
        s.kickDrift(gravity - f.forceOnB, f.torqueOnA, dt);
        t += dt;
        f = softContactForce(s.body, RigidBody::wall(), sphereOnFloor(s, 0), p, history, dt);
        history = f.history;
        s.kick(gravity - f.forceOnB, f.torqueOnA, dt);
        const double slip = s.body.velocity.x() + r*s.body.angularVelocity.z();   // v + omega r, Eq. (52) of [Campello2015]
        if (tRoll < 0 && slip >= 0) tRoll = t - dt*slip/(slip - previousSlip);
        previousSlip = slip;
        if (t > 3.0)
        {
            vSum += s.body.velocity.x();
            wSum += s.body.angularVelocity.z();
            ++samples;
        }
    }
    // 0.5 % (issue); the stick oscillation of the tangential spring averages out over 0.5 s
    EXPECT_NEAR(tRoll/2.68542, 1, 0.005);
    EXPECT_NEAR(vSum/samples/8.941, 1, 0.005);
    EXPECT_NEAR(wSum/samples/-44.705, 1, 0.005);
    std::printf("Campello 5.1: t_roll = %.5f s, v_roll = %.4f m/s, omega_roll = %.4f rad/s\n",
                tRoll, vSum/samples, wSum/samples);
}


TEST(RollingResistance, RollingSphereDeceleratesAtFiveSeventhsMuRollG)
{
    // Constant rolling torque mu_r R F_n against the spin, rolling without
    // slip: m a = F, I alpha = r F - mu_r r m g, a = -r alpha -> a = -(5/7) mu_r g
    const double r = 0.2, m = 1000, g = 9.81, dt = 1e-4, muR = 0.05, v0 = 1.0;
    SoftContactLaw law;
    law.staticFriction = law.dynamicFriction = 0.5;
    law.rollingFriction = muR;
    const SoftContactModel model(ContactMaterial::elastic(1e10, 0.25), ContactMaterial::rigidWall(), law);
    Sphere s = Sphere::make(r, m/(4.0/3.0*M_PI*r*r*r));
    const SoftContactParameters p = model.parameters(s.body, RigidBody::wall(), r, infinity);
    s.body.position = Vector3(0, r - std::pow(m*g/p.normalStiffness, 2.0/3.0), 0);
    s.body.velocity = Vector3(v0, 0, 0);
    s.body.angularVelocity = Vector3(0, 0, -v0/r);
    const Vector3 gravity(0, -m*g, 0);
    TangentialHistory history;
    SoftContactResult f = softContactForce(s.body, RigidBody::wall(), sphereOnFloor(s, 0), p, history, 0);
    double t = 0;
    while (t < 1.0 - 0.5*dt)
    {
        s.kickDrift(gravity - f.forceOnB, f.torqueOnA, dt);
        t += dt;
        f = softContactForce(s.body, RigidBody::wall(), sphereOnFloor(s, 0), p, history, dt);
        history = f.history;
        s.kick(gravity - f.forceOnB, f.torqueOnA, dt);
    }
    // 1 %: stick oscillation of the tangential spring (~1e-3 m/s) on a 0.35 m/s change
    EXPECT_NEAR((v0 - s.body.velocity.x())/(5.0/7.0*muR*g*t), 1, 0.01);
}


TEST(SoftEnergy, ElasticSphereBetweenTwoWallsKeepsEnergyOver250Bounces)
{
    // [DeKlerk2022] Sect. 3.2: walls 1.01 d apart, no damping, no friction
    SoftContactLaw law;   // Hertz, eps_n = 1, mu = 0
    // h = t_c/32 as in [DeKlerk2022] Sect. 3.2. Velocity Verlet's post-contact
    // energy error depends on the step phase at contact onset; it stays bounded
    // (no drift) but reaches ~1.2e-3 at the minimum 20 steps, 5.7e-4 at 32.
    law.stepsPerContact = 32;
    const SoftContactModel model(glass, ContactMaterial::rigidWall(), law);
    Sphere s = Sphere::make(0.005, 2500);
    const double d = 0.01, gap = 1.01*d, v = 1.0;
    const SoftContactParameters p = model.parameters(s.body, RigidBody::wall(), s.radius, infinity);
    const double dt = stableTimeStep(p, v);
    s.body.position = Vector3(0, 0.5*gap, 0);
    s.body.velocity = Vector3(0, v, 0);
    const double E0 = s.kineticEnergy();

    auto ceiling = [&]() {
        CollisionPoint c;
        c.overlap = s.body.position.y() + s.radius - gap;
        c.normal = Vector3::UnitY();
        c.point = s.body.position + (s.radius - 0.5*c.overlap)*Vector3::UnitY();
        return c;
    };
    TangentialHistory h0, h1;
    Vector3 F = Vector3::Zero();
    int bounces = 0;
    bool inContact = false;
    double maxError = 0;
    while (bounces < 250)
    {
        s.kickDrift(F, Vector3::Zero(), dt);
        const SoftContactResult floor = softContactForce(s.body, RigidBody::wall(), sphereOnFloor(s, 0), p, h0, dt);
        const SoftContactResult top = softContactForce(s.body, RigidBody::wall(), ceiling(), p, h1, dt);
        F = -floor.forceOnB - top.forceOnB;
        s.kick(F, Vector3::Zero(), dt);
        const bool now = floor.inContact || top.inContact;
        if (inContact && !now)
        {
            ++bounces;
            maxError = std::max(maxError, std::abs(s.kineticEnergy() - E0)/E0);
        }
        inContact = now;
    }
    // [DeKlerk2022] Sect. 3.2: within 0.1 % after 250 undamped bounces
    EXPECT_LT(std::abs(s.kineticEnergy() - E0)/E0, 1e-3);
    EXPECT_LT(maxError, 1e-3);
    std::printf("250 bounces at 32 steps/contact: final energy error %.2e, max %.2e\n",
                std::abs(s.kineticEnergy() - E0)/E0, maxError);
}


TEST(SoftContactValidation, InvalidInputThrowsNamingTheParameter)
{
    SoftContactLaw law;
    expectThrowNaming([&] { SoftContactModel(ContactMaterial::elastic(-1, 0.3), glass, law); }, "youngsModulus");
    expectThrowNaming([&] { SoftContactModel(ContactMaterial::elastic(1e9, 0.7), glass, law); }, "poissonRatio");
    law.restitution = 0;
    expectThrowNaming([&] { SoftContactModel(glass, glass, law); }, "restitution");
    law.restitution = 0.5;
    law.staticFriction = 0.2;
    law.dynamicFriction = 0.3;
    expectThrowNaming([&] { SoftContactModel(glass, glass, law); }, "dynamicFriction");
    law.dynamicFriction = 0.1;
    const SoftContactModel model(glass, glass, law);
    expectThrowNaming([&] { model.parameters(-1.0, 1.0); }, "effectiveMass");
    expectThrowNaming([&] { contactDuration(model.parameters(1.0, 1.0), 0.0); }, "impactSpeed");
    const SoftContactParameters p = model.parameters(1.0, 1.0);
    expectThrowNaming([&] { softContactForce(RigidBody::wall(), RigidBody::wall(),
                                             CollisionPoint{Vector3::Zero(), Vector3::UnitX(), 0.1}, p, {}, -1); }, "dt");
}


TEST(SoftContactValidation, RangesIncludeTheirBoundsAndNothingBeyond)
{
    // The named bounds: nu in (-1, 0.5], eps_n in [0.01, 1]; the next doubles
    // beyond an included bound and the excluded bound itself are rejected
    using M = ContactMaterial;
    EXPECT_NO_THROW(validateContactMaterial(M::elastic(1e9, M::maximumPoissonRatio), "m"));
    EXPECT_NO_THROW(validateContactMaterial(M::elastic(1e9, std::nextafter(M::minimumPoissonRatio, 0.0)), "m"));
    expectThrowNaming([&] { validateContactMaterial(M::elastic(1e9, M::minimumPoissonRatio), "m"); },
                      "m.poissonRatio = -1: must be in (-1, 0.5]");
    expectThrowNaming([&] { validateContactMaterial(M::elastic(1e9, std::nextafter(M::maximumPoissonRatio, 1.0)), "m"); },
                      "m.poissonRatio");
    SoftContactLaw law;
    for (double e : {SoftContactLaw::minimumRestitution, SoftContactLaw::maximumRestitution})
    {
        law.restitution = e;
        EXPECT_NO_THROW(validateSoftContactLaw(law));
    }
    law.restitution = std::nextafter(SoftContactLaw::minimumRestitution, 0.0);
    expectThrowNaming([&] { validateSoftContactLaw(law); }, "must be in [0.01, 1] for soft contact");
    law.restitution = std::nextafter(SoftContactLaw::maximumRestitution, 2.0);
    expectThrowNaming([&] { validateSoftContactLaw(law); }, "restitution");
    // The damping-ratio functions take a raw restitution: the same check
    expectThrowNaming([&] { hertzDampingRatio(0.005); }, "restitution = 0.005");
    expectThrowNaming([&] { hookeDampingRatio(1.5); }, "restitution = 1.5");
    law.restitution = 0.5;
    law.stepsPerContact = SoftContactLaw::minimumStepsPerContact - 1;
    expectThrowNaming([&] { validateSoftContactLaw(law); }, "stepsPerContact = 19: must be >= 20");
}


TEST(SoftContactDescribe, PrintsDerivedStiffnessAndDamping)
{
    SoftContactLaw law;
    law.restitution = 0.5;
    const SoftContactModel model(glass, ContactMaterial::rigidWall(), law);
    const SoftContactParameters p = model.parameters(0.01, 0.005);
    const std::string text = p.describe();
    EXPECT_NE(text.find("Hertz"), std::string::npos);
    EXPECT_NE(text.find("k = "), std::string::npos);
    EXPECT_NE(text.find("eta = "), std::string::npos);
    // k = 4/3 E* sqrt(R*), E* = E/(1 - nu^2) for a rigid wall
    EXPECT_NEAR(p.normalStiffness, 4.0/3.0*5e7/(1 - 0.09)*std::sqrt(0.005), 1e-6*p.normalStiffness);
    std::printf("%s\n", text.c_str());
}


TEST(Curvature, SuperellipsoidContactPointRadiusFromShapeDerivatives)
{
    // Sphere: R; ellipsoid (3, 2, 1) at the rotated tip: 1/K_M = 1/1.875,
    // 1/sqrt(K_G) = 1/1.5; flat face of a blocky shape: capped at 10 R_vol
    const Pose pose{Vector3(1, -2, 0.5), Quaternion(Eigen::AngleAxisd(0.9, Vector3(1, 1, 0).normalized()))};
    const Superellipsoid sphere = Superellipsoid::sphere(0.4);
    const Vector3 onSphere = pose.toGlobalFrame(0.4*Vector3(0.6, 0, 0.8));
    EXPECT_NEAR(surfaceCurvatureRadius(sphere, pose, onSphere, CurvatureModel::mean), 0.4, 1e-12);
    EXPECT_NEAR(surfaceCurvatureRadius(sphere, pose, onSphere, CurvatureModel::gaussian), 0.4, 1e-12);

    const Superellipsoid ellipsoid(3, 2, 1, 1, 1);
    const Vector3 tip = pose.toGlobalFrame(Vector3(3, 0, 0));
    EXPECT_NEAR(surfaceCurvatureRadius(ellipsoid, pose, tip, CurvatureModel::mean), 1/1.875, 1e-9);
    EXPECT_NEAR(surfaceCurvatureRadius(ellipsoid, pose, tip, CurvatureModel::gaussian), 1/1.5, 1e-9);

    const Superellipsoid blocky(1, 1, 1, 0.2, 0.2);
    const Vector3 faceCentre = pose.toGlobalFrame(Vector3(0, 0, 1));
    EXPECT_NEAR(surfaceCurvatureRadius(blocky, pose, faceCentre, CurvatureModel::mean),
                10*0.5*blocky.volumeEquivalentDiameter(), 1e-12);
}


TEST(Curvature, ContactPointAtTheCentreUsesTheVolumeEquivalentRadius)
{
    // At the centre grad S = 0: no surface there, so no curvature; a deep
    // soft contact must still get a finite Hertz radius (fuzz regression,
    // tests/fuzz/corpus/collisionStep/crash-softContactAtCentre)
    const Pose pose{Vector3(1, -2, 0.5), Quaternion(Eigen::AngleAxisd(0.9, Vector3(1, 1, 0).normalized()))};
    const Superellipsoid sphere = Superellipsoid::sphere(0.4);
    EXPECT_DOUBLE_EQ(surfaceCurvatureRadius(sphere, pose, pose.position, CurvatureModel::mean), 0.4);
    const Superellipsoid blocky(3, 2, 1, 0.2, 0.6);
    EXPECT_DOUBLE_EQ(surfaceCurvatureRadius(blocky, pose, pose.position, CurvatureModel::gaussian),
                     0.5*blocky.volumeEquivalentDiameter());
}


// Sphere fast path against the generic evaluation (S's gradient and
// Hessian at the point, curvatureRadius) at random points from near the
// centre to beyond the surface: the level sets are concentric spheres, so
// both give rho = |x - centre| to round-off of the pow-based derivatives
// (1e-12 relative); the cap (10 R_vol) and the centre rule as before.
TEST(Curvature, SphereClosedFormMatchesTheShapeDerivatives)
{
    std::mt19937_64 rng(94);
    std::uniform_real_distribution<double> U(0, 1);
    std::normal_distribution<double> N(0, 1);
    for (int i = 0; i < 1000; ++i)
    {
        const double r = 0.1 + U(rng);
        const Superellipsoid sphere = Superellipsoid::sphere(r);
        Pose pose;
        pose.position = Vector3(N(rng), N(rng), N(rng));
        pose.orientation = Quaternion(N(rng), N(rng), N(rng), N(rng)).normalized();
        const Vector3 x = pose.position + r*(0.01 + 1.5*U(rng))*Vector3(N(rng), N(rng), N(rng)).normalized();
        const ShapeDerivatives d = sphere.derivatives(pose.toParticleFrame(x), 2);
        for (const CurvatureModel model : {CurvatureModel::mean, CurvatureModel::gaussian})
        {
            const double generic = curvatureRadius(d.gradient, d.hessian, model, 0.5*sphere.volumeEquivalentDiameter());
            EXPECT_NEAR(surfaceCurvatureRadius(sphere, pose, x, model), generic, 1e-12*generic) << i;
        }
    }
    // Cap: a point 20 r away (level set radius 20 r > 10 R_vol)
    const Superellipsoid sphere = Superellipsoid::sphere(0.4);
    Pose pose;
    EXPECT_NEAR(surfaceCurvatureRadius(sphere, pose, Vector3(8, 0, 0), CurvatureModel::mean), 4.0, 1e-12);
}


TEST(SoftContactInvariants, ActionReactionAndCoulombLimitAtEccentricContacts)
{
    // Random eccentric pairs: F_A = -F_B and zero net torque about the origin
    // (angular momentum balance, rolling torque included); |F_t| <= mu_s F_n,
    // and |F_t| = mu_d F_n when sliding.
    std::mt19937_64 rng(11);
    std::normal_distribution<double> N(0, 1);
    SoftContactLaw law;
    law.restitution = 0.6;
    law.staticFriction = 0.5;
    law.dynamicFriction = 0.3;
    law.rollingFriction = 0.1;
    const SoftContactModel model(glass, glass, law);
    int sliding = 0;
    for (int i = 0; i < 2000; ++i)
    {
        const Vector3 I = principalMoments(Solid::ellipsoid, 1.0, Vector3(0.03, 0.02, 0.01));
        const RigidBody a = RigidBody::particle(1, I, randomOrientation(rng), 0.01*Vector3(N(rng), N(rng), N(rng)),
                                                Vector3(N(rng), N(rng), N(rng)), Vector3(N(rng), N(rng), N(rng)));
        const RigidBody b = RigidBody::particle(2, 2*I, randomOrientation(rng), 0.01*Vector3(N(rng), N(rng), N(rng)),
                                                Vector3(N(rng), N(rng), N(rng)), Vector3(N(rng), N(rng), N(rng)));
        const CollisionPoint c{0.01*Vector3(N(rng), N(rng), N(rng)), Vector3(N(rng), N(rng), N(rng)).normalized(),
                               1e-5*(1 + std::abs(N(rng)))};
        const SoftContactParameters p = model.parameters(a, b, 0.02, 0.015);
        TangentialHistory h;
        h.displacement = 1e-6*Vector3(N(rng), N(rng), N(rng));
        const SoftContactResult r = softContactForce(a, b, c, p, h, 1e-5);
        const Vector3 netTorque = a.position.cross(-r.forceOnB) + r.torqueOnA + b.position.cross(r.forceOnB) + r.torqueOnB;
        const double scale = r.forceOnB.norm()*(a.position.norm() + b.position.norm() + c.point.norm()) + 1e-300;
        ASSERT_LE(netTorque.norm(), 1e-13*scale);
        const double Fn = std::max(r.normalForce, 0.0);
        ASSERT_LE(r.tangentialForce.norm(), law.staticFriction*Fn*(1 + 1e-12));
        ASSERT_LE(std::abs(r.tangentialForce.dot(c.normal)), 1e-12*r.forceOnB.norm());
        if (r.sliding)
        {
            ++sliding;
            ASSERT_NEAR(r.tangentialForce.norm(), law.dynamicFriction*Fn, 1e-12*Fn);
        }
    }
    EXPECT_GT(sliding, 0);
}
