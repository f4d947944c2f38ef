// Force and torque, Eqs. (5)-(7) and (21)-(23) of [Wedel2023]; conventions.
#include "hydrodynamics/HydrodynamicForces.H"
#include "orientation/Orientation.H"

#include <gtest/gtest.h>

#include <cmath>

using namespace superellipsoid;

namespace
{

// Pure algebra on O(1) numbers: round-off only
constexpr double algebraTolerance = 1e-12;

HydrodynamicParticle sphereParticle(double radius, double density)
{
    HydrodynamicParticle p;
    p.tensors = exactEllipsoidResistance(radius, radius, radius);
    p.c = radius;
    p.volume = 4.0/3*M_PI*radius*radius*radius;
    p.density = density;
    return p;
}

//- Simple shear u = (G y, 0, 0) in OpenFOAM's convention gradU(i,j) = du_j/dx_i
Matrix3 simpleShearGradU(double G)
{
    Matrix3 gradU = Matrix3::Zero();
    gradU(1, 0) = G;   // d u_x / d y
    return gradU;
}

} // namespace


TEST(SphereLimit, TerminalVelocityEqualsStokesLaw)
{
    // v = 2 (rho_p - rho_f) g r^2 / (9 mu)
    const double r = 2e-5, rhoP = 2500;
    const FluidProperties water{1000, 1e-6};
    const HydrodynamicParticle p = sphereParticle(r, rhoP);
    std::mt19937_64 rng(7);
    const Vector3 g(0, 0, -9.81);
    const Vector3 v = terminalVelocity(p, water, rotationMatrix(randomOrientation(rng)), g);
    const double stokes = 2*(rhoP - 1000)*9.81*r*r/(9*water.dynamicViscosity());
    EXPECT_NEAR(v.z(), -stokes, algebraTolerance*stokes);
    EXPECT_NEAR(v.head<2>().norm(), 0.0, algebraTolerance*stokes);
}

TEST(DragForce, FrameTransformationFollowsEquationSix)
{
    // Prolate 2:1:1 turned by 90 deg about z: its x' axis points along global
    // y, so drag along global y uses K'_xx and along x uses K'_yy
    HydrodynamicParticle p;
    p.tensors = exactEllipsoidResistance(2, 1, 1);
    const Quaternion e(Eigen::AngleAxisd(M_PI/2, Vector3::UnitZ()));
    const Matrix3 R = Pose{Vector3::Zero(), e}.globalToParticle();
    const Matrix3 Kglobal = toGlobalFrame(p.tensors.K, R);
    EXPECT_NEAR(Kglobal(1, 1), p.tensors.K(0, 0), algebraTolerance);
    EXPECT_NEAR(Kglobal(0, 0), p.tensors.K(1, 1), algebraTolerance);
    // Eq. (6) of [Wedel2023] literally: K' = R K R^T
    EXPECT_LT((R*Kglobal*R.transpose() - p.tensors.K).norm(), algebraTolerance);

    FlowAtParticle flow;
    flow.fluidVelocity = Vector3(0, 1, 0);
    const FluidProperties fluid{2, 0.5};  // mu = 1
    const HydrodynamicForce F = hydrodynamicForce(p, fluid, R, flow);
    EXPECT_NEAR(F.drag.y(), M_PI*p.tensors.K(0, 0), algebraTolerance);  // Eq. (5) of [Wedel2023], c = 1
    EXPECT_NEAR(F.drag.x(), 0.0, algebraTolerance);
    EXPECT_LT((F.drag - F.dragCoefficient*flow.fluidVelocity).norm(), algebraTolerance);
}

TEST(DragForce, TermsOfEquationSevenSwitchIndependently)
{
    const HydrodynamicParticle p = sphereParticle(1, 3);
    const FluidProperties fluid{1, 1};
    FlowAtParticle flow;
    flow.gravity = Vector3(0, 0, -10);
    flow.fluidMaterialAcceleration = Vector3(1, 0, 0);
    flow.fluidAccelerationAlongParticle = Vector3(0, 2, 0);
    const double V = p.volume;
    ForceTerms all{true, true, true, true};
    const HydrodynamicForce F = hydrodynamicForce(p, fluid, Matrix3::Identity(), flow, all);
    EXPECT_NEAR(F.gravityBuoyancy.z(), -10*V*(3 - 1), algebraTolerance*V*20);
    EXPECT_NEAR(F.pressureGradient.x(), V, algebraTolerance);
    EXPECT_NEAR(F.addedMass.y(), 0.5*V*2, algebraTolerance);
    EXPECT_NEAR(F.effectiveMass, (3 + 0.5)*V, algebraTolerance);
    ForceTerms dragOnly{true, false, false, false};
    const HydrodynamicForce D = hydrodynamicForce(p, fluid, Matrix3::Identity(), flow, dragOnly);
    EXPECT_EQ(D.total.norm(), 0.0);  // u = v: no drag, other terms off
    EXPECT_EQ(D.effectiveMass, 3*V);
}

TEST(DragForce, ImplicitVelocityUpdateRelaxesToTerminalVelocity)
{
    // Backward Euler with dt >> relaxation time m/(6 pi mu r) is stable and
    // its fixed point is the terminal velocity
    const HydrodynamicParticle p = sphereParticle(1e-4, 2000);
    const FluidProperties fluid{1000, 1e-6};
    FlowAtParticle flow;
    flow.gravity = Vector3(0, 0, -9.81);
    const Vector3 target = terminalVelocity(p, fluid, Matrix3::Identity(), flow.gravity);
    for (int step = 0; step < 50; ++step)
    {
        const HydrodynamicForce F = hydrodynamicForce(p, fluid, Matrix3::Identity(), flow);
        flow.particleVelocity += implicitVelocityChange(F, flow.fluidVelocity, flow.particleVelocity, 1.0);
    }
    EXPECT_NEAR(flow.particleVelocity.z(), target.z(), 1e-12*std::abs(target.z()));
}

TEST(DragForce, TranslationalResistanceIsStokesForASphereAndRotatesWithTheBody)
{
    // Sphere: K' = 6 I, so C = 6 pi mu r I in any orientation (Stokes);
    // prolate K' = diag(ka, kt, kt) with its axis turned onto z: C_zz =
    // pi mu c ka. Tolerance 1e-15 relative: a rotation's round-off
    const double mu = 1e-3, r = 2e-4;
    const Quaternion e(Eigen::AngleAxisd(0.7, Vector3(1, 2, 3).normalized()));
    const Matrix3 R = Pose{Vector3::Zero(), e}.globalToParticle();
    const Matrix3 C = translationalResistance(6*Matrix3::Identity(), r, mu, R);
    EXPECT_LT((C - 6*M_PI*mu*r*Matrix3::Identity()).norm(), 1e-15*6*M_PI*mu*r);

    Matrix3 K = Matrix3::Zero();
    K.diagonal() << 4, 7, 7;
    const Quaternion toZ(Eigen::AngleAxisd(-M_PI/2, Vector3::UnitY()));     // x' -> z
    ASSERT_LT((toZ*Vector3::UnitX() - Vector3::UnitZ()).norm(), 1e-15);
    const Matrix3 Cz = translationalResistance(K, r, mu, Pose{Vector3::Zero(), toZ}.globalToParticle());
    EXPECT_NEAR(Cz(2, 2), M_PI*mu*r*4, 1e-15*M_PI*mu*r*7);
    EXPECT_NEAR(Cz(0, 0), M_PI*mu*r*7, 1e-15*M_PI*mu*r*7);
}

TEST(DragForce, ImplicitVelocityChangeSolvesBackwardEulerAndIsExactlyZeroWithoutForces)
{
    // (m I + dt C) dv = dt (F + C (u - v)) to 1e-15 relative (a few ulp of
    // the 3x3 inverse), also for a non-symmetric resistance (a law with
    // lift); no force at all gives a change of exactly 0
    const HydrodynamicParticle p = sphereParticle(1e-4, 2000);
    const FluidProperties fluid{1000, 1e-6};
    FlowAtParticle flow;
    flow.gravity = Vector3(0, 0, -9.81);
    flow.fluidVelocity = Vector3(0.01, 0, 0);
    flow.particleVelocity = Vector3(0.3, -0.1, 0.7);
    const HydrodynamicForce F = hydrodynamicForce(p, fluid, Matrix3::Identity(), flow);
    const double dt = 1e-3;
    Matrix3 C = F.dragCoefficient;
    C(0, 1) += 0.3*C(0, 0);
    const Matrix3 M = F.effectiveMass*Matrix3::Identity();
    const Vector3 rhs = dt*(F.gravityBuoyancy + C*(flow.fluidVelocity - flow.particleVelocity));
    const Vector3 change = implicitVelocityChange
    (
        M, C, F.gravityBuoyancy, flow.fluidVelocity, flow.particleVelocity, dt
    );
    EXPECT_LT(((M + dt*C)*change - rhs).norm(), 1e-15*rhs.norm());

    HydrodynamicForce none;
    none.effectiveMass = 1e-9;
    EXPECT_EQ(implicitVelocityChange(none, Vector3::Zero(), Vector3(0.1, 0.4, 0.3), 1e-3), Vector3::Zero());
    EXPECT_THROW(implicitVelocityChange(none, Vector3::Zero(), Vector3::Zero(), 0), std::invalid_argument);
}

TEST(Sedimentation, TiltedProlateDriftAngleFollowsExactK)
{
    // Prolate 5:1:1 (axis x') tilted by 30 deg from vertical. Mobility
    // M = p p^T/K_a + (I - p p^T)/K_t gives
    //   tan(drift) = (1/K_a - 1/K_t) sin t cos t / (1/K_t + (1/K_a - 1/K_t) cos^2 t)
    HydrodynamicParticle p;
    p.tensors = exactEllipsoidResistance(5, 1, 1);
    p.c = 1e-5;
    p.volume = 4.0/3*M_PI*5*1e-15;
    p.density = 2500;
    const FluidProperties water{1000, 1e-6};
    const double tilt = M_PI/6;
    // x' axis -> (sin t, 0, cos t): rotate e_x about y by (pi/2 - t)
    const Quaternion e(Eigen::AngleAxisd(-(M_PI/2 - tilt), Vector3::UnitY()));
    ASSERT_LT((e*Vector3::UnitX() - Vector3(std::sin(tilt), 0, std::cos(tilt))).norm(), 1e-14);
    const Matrix3 R = Pose{Vector3::Zero(), e}.globalToParticle();
    FlowAtParticle flow;
    flow.gravity = Vector3(0, 0, -9.81);
    // integrate Eq. (7) of [Wedel2023] with the implicit drag until steady
    for (int step = 0; step < 200; ++step)
    {
        const HydrodynamicForce F = hydrodynamicForce(p, water, R, flow);
        flow.particleVelocity += implicitVelocityChange(F, flow.fluidVelocity, flow.particleVelocity, 1e-3);
        // no torque in quiescent fluid without rotation: orientation fixed
        EXPECT_EQ(hydrodynamicTorque(p, water, R, Matrix3::Zero(), Vector3::Zero()).global.norm(), 0.0);
    }
    const double Ka = p.tensors.K(0, 0), Kt = p.tensors.K(1, 1);
    const double d = 1/Ka - 1/Kt;
    const double expected = std::atan(d*std::sin(tilt)*std::cos(tilt)/(1/Kt + d*std::cos(tilt)*std::cos(tilt)));
    const Vector3 v = flow.particleVelocity;
    const double drift = std::atan2(std::abs(v.x()), std::abs(v.z()));
    EXPECT_NEAR(drift, expected, 1e-9);
    EXPECT_GT(drift, 0.05);     // a real drift, not a vertical fall
    // slides down along its long axis (low resistance): p = (sin t, 0, cos t)
    // points up and towards +x, so the drift is towards -x
    EXPECT_LT(v.x(), 0.0);
}

TEST(VelocityGradientConvention, SimpleShearGivesStrainHalfAndSpinMinusHalf)
{
    // u = (G y, 0, 0): du_x/dy = G, vorticity = -G e_z; identity orientation
    const double G = 3;
    const FlowGradientInParticleFrame g = flowGradientInParticleFrame(simpleShearGradU(G), Matrix3::Identity());
    EXPECT_NEAR(g.strainRate.z(), G/2, algebraTolerance);   // h' = (du/dy + dv/dx)/2
    EXPECT_NEAR(g.spin.z(), -G/2, algebraTolerance);        // chi' = (dv/dx - du/dy)/2
    EXPECT_NEAR(g.strainRate.head<2>().norm() + g.spin.head<2>().norm(), 0.0, algebraTolerance);
    // Transposed input (du_j/dx_i read as du_i/dx_j) would flip the spin:
    const FlowGradientInParticleFrame wrong = flowGradientInParticleFrame(simpleShearGradU(G).transpose(), Matrix3::Identity());
    EXPECT_NEAR(wrong.spin.z(), G/2, algebraTolerance);
}

TEST(VelocityGradientConvention, RotatedParticleSeesRotatedGradient)
{
    // Particle turned 90 deg about z: global shear u = (G y, 0, 0) becomes
    // u' = (0, -G x', 0) in the particle frame -> chi' = -G/2, h' = -G/2
    const double G = 2;
    const Quaternion e(Eigen::AngleAxisd(M_PI/2, Vector3::UnitZ()));
    const Matrix3 R = Pose{Vector3::Zero(), e}.globalToParticle();
    const FlowGradientInParticleFrame g = flowGradientInParticleFrame(simpleShearGradU(G), R);
    EXPECT_NEAR(g.spin.z(), -G/2, algebraTolerance);        // vorticity is frame-invariant about z
    EXPECT_NEAR(g.strainRate.z(), -G/2, algebraTolerance);
}

TEST(HydrodynamicTorque, SphereRotatesWithHalfVorticityAndDampingIsLinear)
{
    // Sphere in simple shear: T = 8 pi mu r^3 (vorticity/2 - omega)
    const double r = 0.5, G = 4;
    const HydrodynamicParticle p = sphereParticle(r, 1);
    const FluidProperties fluid{1, 2};   // mu = 2
    const Vector3 omega(0.1, -0.2, 0.3);
    const Quaternion e(Eigen::AngleAxisd(0.7, Vector3(1, 2, 3).normalized()));
    const Matrix3 R = Pose{Vector3::Zero(), e}.globalToParticle();
    const HydrodynamicTorque T = hydrodynamicTorque(p, fluid, R, simpleShearGradU(G), omega);
    const double scale = 8*M_PI*2*r*r*r;
    const Vector3 halfVorticityGlobal(0, 0, -G/2);
    const Vector3 expected = scale*(R*halfVorticityGlobal - omega);
    EXPECT_LT((T.particleFrame - expected).norm(), algebraTolerance*scale);
    EXPECT_LT((T.global - R.transpose()*T.particleFrame).norm(), algebraTolerance*scale);
    // T = T0 - D omega with D = pi mu c^3 Omega'
    EXPECT_LT((T.particleFrame - (T.atRestParticleFrame - T.dampingParticleFrame*omega)).norm(), algebraTolerance*scale);
    EXPECT_LT((T.dampingParticleFrame - scale*Matrix3::Identity()).norm(), algebraTolerance*scale);
    // torque-free rotation rate: half the vorticity
    const Vector3 free = torqueFreeAngularVelocity(p.tensors, flowGradientInParticleFrame(simpleShearGradU(G), R));
    EXPECT_LT((R.transpose()*free - halfVorticityGlobal).norm(), algebraTolerance);
}

TEST(HydrodynamicTorque, ProlateAlongFlowTurnsTowardsGradientDirection)
{
    // Jeffery [Jeffery1922]: in u = (G y, 0, 0) a rod
    // along the flow (x) turns with omega_z = -G/(r^2 + 1) (slowest, the
    // vorticity is -G e_z), along the gradient (y) with -G r^2/(r^2 + 1)
    const double rAspect = 3, G = 1;
    const ResistanceTensors t = exactEllipsoidResistance(rAspect, 1, 1);
    const Vector3 w = torqueFreeAngularVelocity(t, flowGradientInParticleFrame(simpleShearGradU(G), Matrix3::Identity()));
    EXPECT_NEAR(w.z(), -G/(rAspect*rAspect + 1), 1e-12);
    // Along the gradient (y): fastest, omega_z = -G r^2/(r^2 + 1)
    const Quaternion e(Eigen::AngleAxisd(M_PI/2, Vector3::UnitZ()));
    const Matrix3 R = Pose{Vector3::Zero(), e}.globalToParticle();
    const Vector3 w2 = torqueFreeAngularVelocity(t, flowGradientInParticleFrame(simpleShearGradU(G), R));
    EXPECT_NEAR(w2.z(), -G*rAspect*rAspect/(rAspect*rAspect + 1), 1e-12);
}

TEST(Diagnostics, ReynoldsStokesAndDensityRatios)
{
    EXPECT_NEAR(particleReynoldsNumber(Vector3(3, 4, 0), 1e-3, 1e-6), 5000, 1e-9);
    // Eq. (10) of [Wedel2023]: St = (rho_p/rho_f) d^2 u0/(18 nu L0)
    EXPECT_NEAR(stokesNumber(2000, 1000, 1e-4, 1, 1e-6, 0.1), 2*1e-8/(18*1e-7), 1e-15);
    // Eq. (9) of [Wedel2023]
    const DensityRatioParameters d = densityRatioParameters(1000, 1000);
    EXPECT_NEAR(d.R, 2.0/3, 1e-15);
    EXPECT_NEAR(d.A, 2.0/3, 1e-15);
    EXPECT_NEAR(d.A + 0.5*d.R, 1.0, 1e-15);   // A + R/2 = 1 for any density ratio
    EXPECT_TRUE(inStokesRegime(0.5));
    EXPECT_FALSE(inStokesRegime(5));
    EXPECT_THROW(stokesNumber(-1, 1, 1, 1, 1, 1), std::invalid_argument);
    EXPECT_THROW(particleReynoldsNumber(Vector3(NAN, 0, 0), 1, 1), std::invalid_argument);
}

TEST(HydrodynamicForce, InvalidInputThrowsNamingTheParameter)
{
    HydrodynamicParticle p = sphereParticle(1, 1);
    p.c = -1;
    try
    {
        hydrodynamicForce(p, FluidProperties{}, Matrix3::Identity(), FlowAtParticle{});
        FAIL() << "no throw";
    }
    catch (const std::invalid_argument& e)
    {
        EXPECT_NE(std::string(e.what()).find("particle c"), std::string::npos);
    }
    FlowAtParticle flow;
    flow.gravity = Vector3(0, INFINITY, 0);
    EXPECT_THROW(hydrodynamicForce(sphereParticle(1, 1), FluidProperties{}, Matrix3::Identity(), flow), std::invalid_argument);
}
