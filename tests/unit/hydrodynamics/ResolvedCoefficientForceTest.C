// The table-driven law (ResolvedCoefficientForce.H): interpolation of an
// analytic law within its derived error and exactly at the nodes, the
// Stokes limit, the mirror symmetry, and the rejection of Re above the
// table and of corrupt tables (ResolvedCoefficientTable.H).
#include "hydrodynamics/DragCorrelations.H"
#include "hydrodynamics/ParticleFluidForce.H"
#include "hydrodynamics/ResolvedCoefficientForce.H"
#include "orientation/Orientation.H"

#include <gtest/gtest.h>

#include <Eigen/Geometry>

#include <cmath>
#include <functional>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>

using namespace superellipsoid;

namespace
{

constexpr double pi = 3.14159265358979323846;

// At a node every interpolation weight is 0 or 1 up to the round-off of
// acos/atan2 and ln: a few ulp of the coefficients
constexpr double atNodes = 1e-12;

const FluidProperties water{998.2, 1.0e-6};

// The 2.5:1 prolate of the DNS of docs/hydrodynamics.md, long axis x
// (a >= b >= c), exact Stokes tensors
const Superellipsoid prolateShape(2.5e-3, 1e-3, 1e-3, 1, 1);

ShapeHydrodynamics stokesData()
{
    return shapeHydrodynamics(prolateShape, exactEllipsoidResistance(2.5e-3, 1e-3, 1e-3));
}

HydrodynamicParticle particleOf(const ShapeHydrodynamics& s)
{
    return {s.tensors, s.c, s.volume};
}

// Analytic law: Brenner's force times Schiller-Naumann times a factor
// rho(Re) that the sphere's curve does not have, so that the law's ratio
// to C_SN, which the table interpolates in ln Re, is not constant:
//   C_F = G(Re) (8 c/d_v) K' e,   G = rho(Re) (1 + 0.15 Re^0.687)/Re,
//   rho = 1 + 0.05 (ln Re)^2   (d2rho/d(ln Re)2 = 0.1),
// i.e. F = rho (1 + 0.15 Re^0.687) pi mu c K' w; torque of Froehlich's form
// about the long axis p = x,
//   C_T = G(Re) (8 c/d_v) tau 2 (e.p)(e x p).
// Both hold in every octant (K' diagonal; (Se) x (Sp) = det(S) S (e x p)).
constexpr double tau = 0.1;
constexpr double rhoCurvature = 0.1;

double rho(double Re)
{
    return 1 + 0.5*rhoCurvature*std::pow(std::log(Re), 2);
}

//- C_SN/24
double sphereCurve(double Re)
{
    return schillerNaumannDragCoefficient(Re)/24;
}

double G(double Re)
{
    return rho(Re)*sphereCurve(Re);
}

Vector3 forceAngular(const Matrix3& K, const Vector3& e)
{
    return K*e;
}

Vector3 torqueAngular(const Vector3& e)
{
    const Vector3 p = Vector3::UnitX();
    return 2*tau*e.dot(p)*e.cross(p);
}

struct AnalyticLaw
{
    Matrix3 K;
    double scale;   // 8 c/d_v

    Vector3 force(double Re, const Vector3& e) const { return G(Re)*scale*forceAngular(K, e); }
    Vector3 torque(double Re, const Vector3& e) const { return G(Re)*scale*torqueAngular(e); }
};

AnalyticLaw analyticLaw(const ShapeHydrodynamics& s)
{
    return {s.tensors.K, 8*s.c/s.equivalentDiameter};
}

ResolvedCoefficientTable tableOf
(
    const AnalyticLaw& law,
    const std::vector<double>& reynolds,
    double dTheta,
    double dPhi
)
{
    ResolvedCoefficientTable t;
    t.shape = resolvedShapeKey(prolateShape);
    t.reynolds = reynolds;
    for (double th = 0; th <= 90; th += dTheta)
    {
        t.thetaDegrees.push_back(th);
    }
    for (double ph = 0; ph <= 90; ph += dPhi)
    {
        t.phiDegrees.push_back(ph);
    }
    t.unsteady.assign(reynolds.size(), false);
    t.unsteady.back() = true;
    for (double Re : reynolds)
    {
        std::vector<std::vector<Vector3>> F, T;
        for (double th : t.thetaDegrees)
        {
            F.emplace_back();
            T.emplace_back();
            for (double ph : t.phiDegrees)
            {
                const Vector3 e = octantDirection(th, ph);
                F.back().push_back(law.force(Re, e));
                T.back().push_back(law.torque(Re, e));
            }
        }
        t.forceCoefficients.push_back(F);
        t.torqueCoefficients.push_back(T);
    }
    validateResolvedCoefficientTable(t);
    return t;
}

const std::vector<double> nodes{1, 2, 5, 10, 20, 50, 100};

//- The slip (global) of Reynolds number Re along the body direction e'
Vector3 slipOf(double Re, const Vector3& eParticle, const Matrix3& R, double d)
{
    return R.transpose()*(Re*water.kinematicViscosity/d)*eParticle.normalized();
}

Matrix3 tilted()
{
    return Pose{Vector3::Zero(), Quaternion(Eigen::AngleAxisd(0.7, Vector3(1, 2, 3).normalized()))}
        .globalToParticle();
}

//- 1/2 rho |w|^2 A_v: F = q C_F, T = q d_v/2 C_T
double dynamicPressureArea(double Re, double d)
{
    const double speed = Re*water.kinematicViscosity/d;
    return 0.5*water.density*speed*speed*0.25*pi*d*d;
}

} // namespace


TEST(ResolvedCoefficientForce, InterpolatesAnAnalyticLawWithinItsErrorBound)
{
    const ShapeHydrodynamics s = stokesData();
    const AnalyticLaw law = analyticLaw(s);
    const double dTheta = 10, dPhi = 15;
    const ResolvedCoefficientTable table = tableOf(law, nodes, dTheta, dPhi);
    const double d = s.equivalentDiameter;
    const Matrix3 R = tilted();
    const double kMax = s.tensors.K.diagonal().maxCoeff();

    // Tolerance: the law interpolates r = C/C_SN trilinearly, each linear
    // interpolation errs by at most h^2/8 max|f''| over its cell and the
    // three add (ResolvedCoefficientForce.H): |C - C_table| <= C_SN(Re)
    // (h_theta^2/8 |r_thth| + h_phi^2/8 |r_phph| + h_ln^2/8 |r_lnln|). Here
    // r = rho(Re) (8 c/d_v)/24 A(e), rho <= rho(Re_k+1) on the cell (nodes
    // >= 1), rho'' = 0.1, and per component:
    //   force:  |d2/dtheta2|, |d2/dphi2| of (K'e)_i <= k_max (products of
    //           sin, cos of unit frequency), |(K'e)_i| <= k_max;
    //   torque: 2 tau (e.p)(e x p) = tau (0, sin2theta cos phi, -sin^2theta
    //           sin2phi)-like terms: second derivatives <= 4 tau, size <= tau.
    const double hTheta = dTheta*pi/180, hPhi = dPhi*pi/180;
    int checked = 0;
    double worstRatio = 0;
    for (std::size_t k = 0; k + 1 < nodes.size(); ++k)
    {
        const double hLn = std::log(nodes[k + 1]/nodes[k]);
        const double Re = std::sqrt(nodes[k]*nodes[k + 1])*1.1;
        const double angular = (hTheta*hTheta + hPhi*hPhi)/8;
        const double inRe = hLn*hLn/8*rhoCurvature;
        const double rhoMax = rho(nodes[k + 1]);
        const double forceBound = law.scale*kMax*sphereCurve(Re)*(rhoMax*angular + inRe);
        const double torqueBound = law.scale*tau*sphereCurve(Re)*(rhoMax*4*angular + inRe);
        for (const Vector3& e : {Vector3(0.3, -0.5, 0.8), Vector3(-0.9, 0.2, -0.1), Vector3(0.05, 0.7, -0.6)})
        {
            const OrientedFluidForce F =
                resolvedCoefficientForce(particleOf(s), table, water, R, slipOf(Re, e, R, d), d);
            const Vector3 eUnit = e.normalized();
            const double q = dynamicPressureArea(Re, d);
            const Vector3 CF = R*(F.resistance*slipOf(Re, e, R, d))/q;
            const Vector3 CT = F.torqueParticleFrame/(q*0.5*d);
            const Vector3 errF = (CF - law.force(Re, eUnit)).cwiseAbs();
            const Vector3 errT = (CT - law.torque(Re, eUnit)).cwiseAbs();
            EXPECT_LE(errF.maxCoeff(), forceBound) << "Re " << Re << ", e " << e.transpose();
            EXPECT_LE(errT.maxCoeff(), torqueBound) << "Re " << Re << ", e " << e.transpose();
            worstRatio = std::max({worstRatio, errF.maxCoeff()/forceBound, errT.maxCoeff()/torqueBound});
            ++checked;
        }
    }
    EXPECT_EQ(checked, 18);
    // The bound is not vacuous: the interpolation does err between nodes
    EXPECT_GT(worstRatio, 1e-3);
    std::cout << "    largest interpolation error over its bound: " << worstRatio << std::endl;
}


TEST(ResolvedCoefficientForce, ACoefficientOnTheSphereCurveIsExactBetweenReNodes)
{
    // A coefficient proportional to Schiller-Naumann's C_SN(Re) is
    // interpolated exactly in Re, however far apart the nodes: the law
    // interpolates C/C_SN, here constant. Reference C_SN(Re) at a node
    // direction, to round-off (1e-12 relative); a table linear in ln Re
    // instead errs by +31 % at Re 31.6 between nodes 10 and 100.
    ResolvedCoefficientTable t;
    t.shape = resolvedShapeKey(prolateShape);
    t.reynolds = {1, 10, 100, 300};
    t.thetaDegrees = {0, 90};
    t.phiDegrees = {0, 90};
    t.unsteady.assign(t.reynolds.size(), false);
    for (double Re : t.reynolds)
    {
        const Vector3 c(0, 0, schillerNaumannDragCoefficient(Re));
        t.forceCoefficients.push_back({{c, c}, {c, c}});
        t.torqueCoefficients.push_back({{Vector3::Zero(), Vector3::Zero()}, {Vector3::Zero(), Vector3::Zero()}});
    }
    validateResolvedCoefficientTable(t);
    for (double Re : {1.7, 3.16, 31.6, 57.0, 210.0})
    {
        const double C = interpolateResolvedCoefficients(t, Re, 0, 0).force.z();
        EXPECT_NEAR(C, schillerNaumannDragCoefficient(Re), 1e-12*C) << "Re " << Re;
    }
}


TEST(ResolvedCoefficientForce, IsTheTableAtTheNodes)
{
    const ShapeHydrodynamics s = stokesData();
    const AnalyticLaw law = analyticLaw(s);
    const ResolvedCoefficientTable table = tableOf(law, nodes, 10, 15);
    const double d = s.equivalentDiameter;
    const Matrix3 R = tilted();
    for (double Re : {1.0, 10.0, 100.0})
    {
        for (double th : {0.0, 30.0, 90.0})
        {
            for (double ph : {0.0, 45.0, 90.0})
            {
                for (const Vector3& S : {Vector3(1, 1, 1), Vector3(-1, 1, -1)})
                {
                    const Vector3 e = S.cwiseProduct(octantDirection(th, ph));
                    const Vector3 w = slipOf(Re, e, R, d);
                    const OrientedFluidForce F = resolvedCoefficientForce(particleOf(s), table, water, R, w, d);
                    const double q = dynamicPressureArea(Re, d);
                    const Vector3 CF = R*(F.resistance*w)/q;
                    const Vector3 CT = F.torqueParticleFrame/(q*0.5*d);
                    const Vector3 refF = law.force(Re, e), refT = law.torque(Re, e);
                    EXPECT_LT((CF - refF).norm(), atNodes*refF.norm()) << Re << ' ' << th << ' ' << ph;
                    // torque reference scale: its largest size at this Re (zero on the axes)
                    EXPECT_LT((CT - refT).norm(), atNodes*G(Re)*law.scale*tau)
                        << Re << ' ' << th << ' ' << ph;
                }
            }
        }
    }
}


TEST(ResolvedCoefficientForce, ReynoldsToZeroIsBrennersForceAndTorque)
{
    // Below the first node g = F/(mu d |w|) blends linearly in Re to
    // Brenner's; at Re = 1e-13 the table's share is 1e-13 of O(1): below
    // 1e-12 of Brenner's force. Torque: Eq. (21) of [Wedel2023] with the
    // table's share, which vanishes with Re as well.
    const ShapeHydrodynamics data = stokesData();
    const ResolvedCoefficientTable table = tableOf(analyticLaw(data), nodes, 10, 15);
    FluidForceSettings settings;
    settings.incidence = IncidenceLaw::resolvedTable;
    const ShapeHydrodynamics s = shapeHydrodynamics
    (
        prolateShape, data.tensors, settings, std::make_shared<const ResolvedCoefficientTable>(table)
    );
    const Matrix3 R = tilted();
    const double mu = water.dynamicViscosity();
    const Matrix3 CB = translationalResistance(s.tensors.K, s.c, mu, R);
    Matrix3 gradU = Matrix3::Zero();
    gradU(1, 0) = 3.0;   // simple shear: Eq. (21) is not zero
    // 1e-300: |w|^2 underflows; the resistance must stay finite
    for (double Re : {0.0, 1e-13, 1e-300})
    {
        const Vector3 w = slipOf(Re, Vector3(0.3, -0.5, 0.8), R, s.equivalentDiameter);
        const ParticleFluidForce F = particleFluidForce(settings, s, water, R, w);
        EXPECT_LE((F.resistance - CB).norm(), 1e-12*CB.norm()) << Re;
        EXPECT_LE((F.force - CB*w).norm(), 1e-12*(CB*w).norm()) << Re;

        const ParticleFluidTorque T = particleFluidTorque(settings, s, water, R, gradU, w);
        const HydrodynamicTorque brenner =
            hydrodynamicTorque(particleOf(s), water, R, gradU, Vector3::Zero());
        EXPECT_LE
        (
            (T.atRest - brenner.atRestParticleFrame).norm(),
            1e-12*brenner.atRestParticleFrame.norm()
        ) << Re;
        EXPECT_EQ(T.damping, brenner.dampingParticleFrame);
    }
}


TEST(ResolvedCoefficientForce, BelowTheFirstNodeBlendsLinearlyInRe)
{
    // Half-way to the first node g = F/(mu d |w|) is the mean of Brenner's
    // and the node's (each a few ulp)
    const ShapeHydrodynamics s = stokesData();
    const AnalyticLaw law = analyticLaw(s);
    const ResolvedCoefficientTable table = tableOf(law, {4, 40}, 10, 15);
    const double d = s.equivalentDiameter;
    const double mu = water.dynamicViscosity();
    const Vector3 e = Vector3(0.2, 0.4, -0.7).normalized();
    const auto g = [&](double Re)
    {
        const Vector3 w = slipOf(Re, e, Matrix3::Identity(), d);
        const OrientedFluidForce F =
            resolvedCoefficientForce(particleOf(s), table, water, Matrix3::Identity(), w, d);
        return Vector3(F.resistance*w/(mu*d*w.norm()));
    };
    const Vector3 stokes = pi*(s.c/d)*(s.tensors.K*e);
    const Vector3 node = g(4);
    EXPECT_LT((g(2) - 0.5*(stokes + node)).norm(), 1e-13*node.norm());
    EXPECT_LT((g(1) - (0.75*stokes + 0.25*node)).norm(), 1e-13*node.norm());
}


TEST(ResolvedCoefficientForce, MirroredDirectionsGiveMirroredForceAndTorque)
{
    // Any table (here the analytic one plus an asymmetric perturbation, so
    // the invariant is the law's, not the data's): F(S e) = S F(e),
    // T(S e) = det(S) S T(e), exactly (S only flips signs)
    const ShapeHydrodynamics s = stokesData();
    ResolvedCoefficientTable table = tableOf(analyticLaw(s), nodes, 10, 15);
    for (auto& atRe : table.torqueCoefficients)
    {
        for (auto& atTheta : atRe)
        {
            for (Vector3& C : atTheta)
            {
                C += Vector3(0.01, -0.02, 0.03);
            }
        }
    }
    const double d = s.equivalentDiameter;
    const Vector3 e(0.3, 0.5, 0.8);
    const double Re = 7.3;
    const Vector3 w = slipOf(Re, e, Matrix3::Identity(), d);
    const OrientedFluidForce reference =
        resolvedCoefficientForce(particleOf(s), table, water, Matrix3::Identity(), w, d);
    const Vector3 F0 = reference.resistance*w;
    for (int octant = 0; octant < 8; ++octant)
    {
        const Vector3 S(octant & 1 ? -1 : 1, octant & 2 ? -1 : 1, octant & 4 ? -1 : 1);
        const double detS = S.prod();
        const ResolvedCoefficients C = resolvedCoefficients(table, Re, S.cwiseProduct(e));
        const ResolvedCoefficients C0 = resolvedCoefficients(table, Re, e);
        EXPECT_EQ(C.force, S.cwiseProduct(C0.force)) << S.transpose();
        EXPECT_EQ(C.torque, detS*S.cwiseProduct(C0.torque)) << S.transpose();

        const OrientedFluidForce F = resolvedCoefficientForce
        (
            particleOf(s), table, water, Matrix3::Identity(), S.cwiseProduct(w), d
        );
        EXPECT_EQ(F.torqueParticleFrame, detS*S.cwiseProduct(reference.torqueParticleFrame));
        // R_F w: the product re-rounds, a few ulp
        EXPECT_LT((F.resistance*S.cwiseProduct(w) - S.cwiseProduct(F0)).norm(), 1e-14*F0.norm());
    }
}


TEST(ResolvedCoefficientForce, ReynoldsAboveTheTableThrowsNamingRe)
{
    const ShapeHydrodynamics s = stokesData();
    const ResolvedCoefficientTable table = tableOf(analyticLaw(s), nodes, 10, 15);
    const double d = s.equivalentDiameter;
    const Vector3 w = slipOf(150, Vector3(1, 1, 1), Matrix3::Identity(), d);
    try
    {
        resolvedCoefficientForce(particleOf(s), table, water, Matrix3::Identity(), w, d);
        FAIL() << "Re 150 above the table accepted";
    }
    catch (const std::invalid_argument& err)
    {
        const std::string message(err.what());
        EXPECT_NE(message.find("Re = 150"), std::string::npos) << message;
        EXPECT_NE(message.find("[1, 100]"), std::string::npos) << message;
    }
    // The last node itself is inside
    EXPECT_NO_THROW
    (
        resolvedCoefficientForce
        (
            particleOf(s), table, water, Matrix3::Identity(),
            slipOf(100, Vector3(1, 1, 1), Matrix3::Identity(), d)*(1 - 1e-15), d
        )
    );
}


TEST(ResolvedCoefficientTable, CorruptTablesAreRejectedNamingTheKeyword)
{
    const ResolvedCoefficientTable good = tableOf(analyticLaw(stokesData()), nodes, 30, 45);
    const auto rejected = [&](const char* keyword, const std::function<void(ResolvedCoefficientTable&)>& corrupt)
    {
        ResolvedCoefficientTable t = good;
        corrupt(t);
        try
        {
            validateResolvedCoefficientTable(t);
            ADD_FAILURE() << "corrupt " << keyword << " accepted";
        }
        catch (const std::invalid_argument& err)
        {
            EXPECT_EQ(std::string(err.what()).rfind(keyword, 0), 0u) << err.what();
        }
    };
    rejected("reynolds", [](ResolvedCoefficientTable& t) { t.reynolds[3] = t.reynolds[2]; });
    rejected("reynolds", [](ResolvedCoefficientTable& t) { t.reynolds[0] = 0; });
    rejected("reynolds", [](ResolvedCoefficientTable& t) { t.reynolds[1] = std::nan(""); });
    rejected("theta", [](ResolvedCoefficientTable& t) { t.thetaDegrees.back() = 80; });
    rejected("phi", [](ResolvedCoefficientTable& t) { std::swap(t.phiDegrees[0], t.phiDegrees[1]); });
    rejected("unsteady", [](ResolvedCoefficientTable& t) { t.unsteady.pop_back(); });
    rejected("forceCoefficients", [](ResolvedCoefficientTable& t) { t.forceCoefficients.pop_back(); });
    rejected("forceCoefficients", [](ResolvedCoefficientTable& t) { t.forceCoefficients[2][1].pop_back(); });
    rejected("forceCoefficients", [](ResolvedCoefficientTable& t) { t.forceCoefficients[2][1][0] *= -1; });
    rejected("torqueCoefficients", [](ResolvedCoefficientTable& t) { t.torqueCoefficients[1].pop_back(); });
    rejected("torqueCoefficients", [](ResolvedCoefficientTable& t) { t.torqueCoefficients[0][0][0].x() = std::nan(""); });
    rejected("shape", [](ResolvedCoefficientTable& t) { t.shape.bOverC = 0.5; });
    // theta = 0: one direction for every phi
    rejected("forceCoefficients", [](ResolvedCoefficientTable& t) { t.forceCoefficients[1][0][2].z() *= 1.01; });
    rejected("torqueCoefficients", [](ResolvedCoefficientTable& t) { t.torqueCoefficients[1][0][1].x() += 0.01; });
    EXPECT_NO_THROW(validateResolvedCoefficientTable(good));
}


TEST(ResolvedCoefficientTable, ATableOfAnotherShapeOrNoneIsRejected)
{
    const ShapeHydrodynamics data = stokesData();
    ResolvedCoefficientTable table = tableOf(analyticLaw(data), nodes, 30, 45);
    FluidForceSettings settings;
    settings.incidence = IncidenceLaw::resolvedTable;
    EXPECT_THROW(shapeHydrodynamics(prolateShape, data.tensors, settings), std::invalid_argument);

    // Within 1e-6 relative: the same shape
    table.shape.aOverC *= 1 + 0.5e-6;
    EXPECT_NO_THROW
    (
        shapeHydrodynamics
        (
            prolateShape, data.tensors, settings, std::make_shared<const ResolvedCoefficientTable>(table)
        )
    );
    table.shape.epsilon2 = 0.8;
    try
    {
        shapeHydrodynamics
        (
            prolateShape, data.tensors, settings, std::make_shared<const ResolvedCoefficientTable>(table)
        );
        FAIL() << "table of another shape accepted";
    }
    catch (const std::invalid_argument& err)
    {
        EXPECT_EQ(std::string(err.what()).rfind("shape", 0), 0u) << err.what();
    }
}


TEST(ResolvedCoefficientForce, ThePathDispatchesToTheTable)
{
    // particleFluidForce/Torque return the law's force and torque, and Munk
    // is refused (the table has its own torque)
    const ShapeHydrodynamics data = stokesData();
    FluidForceSettings settings;
    settings.incidence = IncidenceLaw::resolvedTable;
    const auto table = std::make_shared<const ResolvedCoefficientTable>
    (
        tableOf(analyticLaw(data), nodes, 10, 15)
    );
    const ShapeHydrodynamics s = shapeHydrodynamics(prolateShape, data.tensors, settings, table);
    const Matrix3 R = tilted();
    const Vector3 w = slipOf(12, Vector3(0.3, -0.5, 0.8), R, s.equivalentDiameter);
    const OrientedFluidForce law =
        resolvedCoefficientForce(particleOf(s), *table, water, R, w, s.equivalentDiameter);
    const ParticleFluidForce F = particleFluidForce(settings, s, water, R, w);
    EXPECT_EQ(F.resistance, law.resistance);
    EXPECT_EQ(F.correction.reynolds, law.reynolds);
    EXPECT_TRUE(F.correction.inValidatedRange);
    const ParticleFluidTorque T = particleFluidTorque(settings, s, water, R, Matrix3::Zero(), w);
    EXPECT_EQ(T.pitching, law.torqueParticleFrame);

    settings.pitching = PitchingTorqueModel::Munk;
    EXPECT_THROW(validateFluidForceSettings(settings), std::invalid_argument);
}
