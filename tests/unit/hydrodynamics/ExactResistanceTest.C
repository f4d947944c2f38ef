// Exact ellipsoid resistance tensors ([Oberbeck1876], [Jeffery1922]) and
// Carlson's RF/RD [Carlson1995].
#include "hydrodynamics/CarlsonIntegrals.H"
#include "hydrodynamics/ResistanceTensors.H"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <vector>

using namespace superellipsoid;

namespace
{

// Carlson's duplication algorithm is accurate to ~1e-16; closed forms and
// identities agree to a few ulps times the condition of the formula.
constexpr double exactTolerance = 1e-12;

// The reference table (closed forms, evaluated independently) is printed with
// 6-7 significant digits: compare to half a unit in the last printed digit.
constexpr double tableTolerance = 6e-7;

//- Independent quadrature of int_0^inf f(l) dl with l = L^2 u^2/(1-u)^2,
//  composite 20-point Gauss-Legendre on 400 sub-intervals of u in [0, 1):
//  the transformed integrands are smooth, error < 1e-14 relative.
double integrateToInfinity(const std::function<double(double)>& f, double L)
{
    // 20-point Gauss-Legendre by Newton iteration on P_20
    const int n = 20;
    std::vector<double> x(n), w(n);
    for (int i = 0; i < n; ++i)
    {
        double z = std::cos(M_PI*(i + 0.75)/(n + 0.5)), dp = 1;
        for (int it = 0; it < 100; ++it)
        {
            double p0 = 1, p1 = z;
            for (int k = 2; k <= n; ++k)
            {
                const double p2 = ((2*k - 1)*z*p1 - (k - 1)*p0)/k;
                p0 = p1;
                p1 = p2;
            }
            dp = n*(z*p1 - p0)/(z*z - 1);
            const double dz = p1/dp;
            z -= dz;
            if (std::abs(dz) < 1e-16) break;
        }
        x[i] = 0.5*(1 - z);
        w[i] = 1/((1 - z*z)*dp*dp);
    }
    const int intervals = 400;
    double sum = 0;
    for (int k = 0; k < intervals; ++k)
    {
        for (int i = 0; i < n; ++i)
        {
            const double u = (k + x[i])/intervals;
            const double lambda = L*L*u*u/((1 - u)*(1 - u));
            const double dlambda = 2*L*L*u/((1 - u)*(1 - u)*(1 - u));
            sum += w[i]/intervals*f(lambda)*dlambda;
        }
    }
    return sum;
}

void expectRelativeNear(double value, double reference, double tolerance, const char* what)
{
    EXPECT_NEAR(value, reference, tolerance*std::max(1.0, std::abs(reference))) << what;
}

} // namespace


TEST(CarlsonIntegrals, KnownValues)
{
    // RF(0,1,2) = 1.3110287771461 (lemniscate-type constant, Carlson 1995
    // Table); RF(1,1,1) = 1, RD(1,1,1) = 1 (integrals of t^-3/2 and t^-5/2)
    EXPECT_NEAR(carlsonRF(1, 1, 1), 1.0, 1e-15);
    EXPECT_NEAR(carlsonRD(1, 1, 1), 1.0, 1e-15);
    EXPECT_NEAR(carlsonRF(0, 1, 2), 1.3110287771461, 1e-12);
    EXPECT_NEAR(carlsonRD(0, 2, 1), 1.7972103521034, 1e-12);
}

TEST(CarlsonIntegrals, SymmetricSumIdentityHolds)
{
    // RD(y,z,x) + RD(z,x,y) + RD(x,y,z) = 3/sqrt(xyz), Sect. 2.1
    for (const auto& [x, y, z] : {std::tuple{1.0, 4.0, 9.0}, {25.0, 9.0, 1.0}, {0.04, 1.0, 121.0}})
    {
        const double sum = carlsonRD(y, z, x) + carlsonRD(z, x, y) + carlsonRD(x, y, z);
        EXPECT_NEAR(sum, 3/std::sqrt(x*y*z), exactTolerance*3/std::sqrt(x*y*z));
    }
}

TEST(CarlsonIntegrals, InvalidArgumentsThrow)
{
    EXPECT_THROW(carlsonRF(-1, 1, 1), std::invalid_argument);
    EXPECT_THROW(carlsonRF(0, 0, 1), std::invalid_argument);
    EXPECT_THROW(carlsonRD(1, 1, 0), std::invalid_argument);
    EXPECT_THROW(carlsonRD(1, NAN, 1), std::invalid_argument);
    EXPECT_THROW(carlsonRF(1, INFINITY, 1), std::invalid_argument);
}

TEST(EllipsoidIntegrals, MatchIndependentQuadrature)
{
    // 5:3:1 and 2:0.7:1.3 against direct quadrature of the Sect. 2.1 integrals
    for (const auto& [a, b, c] : {std::tuple{5.0, 3.0, 1.0}, {2.0, 0.7, 1.3}})
    {
        const auto Delta = [=](double l) { return std::sqrt((a*a + l)*(b*b + l)*(c*c + l)); };
        const double L = std::max({a, b, c});
        const EllipsoidIntegrals I = ellipsoidIntegrals(a, b, c);
        expectRelativeNear(I.alpha0/integrateToInfinity([&](double l) { return 1/((a*a + l)*Delta(l)); }, L), 1, exactTolerance, "alpha0");
        expectRelativeNear(I.beta0/integrateToInfinity([&](double l) { return 1/((b*b + l)*Delta(l)); }, L), 1, exactTolerance, "beta0");
        expectRelativeNear(I.gamma0/integrateToInfinity([&](double l) { return 1/((c*c + l)*Delta(l)); }, L), 1, exactTolerance, "gamma0");
        expectRelativeNear(I.chi0/integrateToInfinity([&](double l) { return 1/Delta(l); }, L), 1, exactTolerance, "chi0");
    }
}

TEST(EllipsoidIntegrals, TriaxialMatchesPublishedDigitsAndIdentities)
{
    // Independent evaluation, 5:3:1 (15 printed digits)
    const EllipsoidIntegrals I = ellipsoidIntegrals(5, 3, 1);
    EXPECT_NEAR(I.alpha0, 0.013812051990953, 1e-14);
    EXPECT_NEAR(I.beta0, 0.027869741980991, 1e-14);
    EXPECT_NEAR(I.gamma0, 0.091651539361389, 1e-14);
    EXPECT_NEAR(I.chi0, 0.687780516964142, 1e-14);
    // abc (alpha0 + beta0 + gamma0) = 2 and a^2 alpha0 + b^2 beta0 + c^2 gamma0 = chi0
    EXPECT_NEAR(15*(I.alpha0 + I.beta0 + I.gamma0), 2.0, exactTolerance);
    EXPECT_NEAR(25*I.alpha0 + 9*I.beta0 + I.gamma0, I.chi0, exactTolerance);
}

TEST(SphereLimit, ResistanceIsSixAndEightIdentityWithoutStrainCoupling)
{
    // Stokes: F = 6 pi mu r U, T = 8 pi mu r^3 omega; normalised by c = r
    for (double r : {0.3, 1.0, 7.0})
    {
        const ResistanceTensors t = exactEllipsoidResistance(r, r, r);
        EXPECT_LT((t.K - 6*Matrix3::Identity()).norm(), exactTolerance);
        EXPECT_LT((t.Omega - 8*Matrix3::Identity()).norm(), exactTolerance);
        EXPECT_LT(t.Pi.norm(), exactTolerance);
    }
}

TEST(SpheroidLimit, ProlateMatchesClosedForms)
{
    // Sect. 2.3: semi-axes (r, r, lambda r), symmetry axis z', normalised by r
    for (double lambda : {1.5, 2.0, 5.0, 10.0})
    {
        const double s = std::sqrt(lambda*lambda - 1), L = std::acosh(lambda);
        const double Kax = 8*s*s*s/((2*lambda*lambda - 1)*L - lambda*s);
        const double Ktr = 16*s*s*s/((2*lambda*lambda - 3)*L + lambda*s);
        const double lg = std::log((lambda - s)/(lambda + s));
        const double alpha = lambda*lambda/(lambda*lambda - 1) + lambda/(2*s*s*s)*lg;
        const double gamma = -2/(lambda*lambda - 1) - lambda/(s*s*s)*lg;
        const double OmTr = 16*lambda*(1 + lambda*lambda)/(3*(alpha + lambda*lambda*gamma));
        const double PiTr = 16*lambda*(lambda*lambda - 1)/(3*(alpha + lambda*lambda*gamma));
        const double OmAx = 16.0/3*s*s*s/(lambda*s - L);

        const ResistanceTensors t = exactEllipsoidResistance(1, 1, lambda);
        // normalised by c = lambda here; closed forms by r = 1
        expectRelativeNear(t.K(2, 2)*lambda, Kax, exactTolerance, "K axial");
        expectRelativeNear(t.K(0, 0)*lambda, Ktr, exactTolerance, "K transverse");
        const double c3 = lambda*lambda*lambda;
        expectRelativeNear(t.Omega(0, 0)*c3, OmTr, exactTolerance, "Omega transverse");
        expectRelativeNear(t.Omega(2, 2)*c3, OmAx, exactTolerance, "Omega axial");
        // symmetry axis z': Pi_xx = -|Pi|, Pi_yy = +|Pi| (Sect. 2.3)
        expectRelativeNear(t.Pi(0, 0)*c3, -PiTr, exactTolerance, "Pi xx");
        expectRelativeNear(t.Pi(1, 1)*c3, PiTr, exactTolerance, "Pi yy");
        EXPECT_NEAR(t.Pi(2, 2), 0.0, exactTolerance);
    }
}

TEST(SpheroidLimit, OblateMatchesClosedForms)
{
    // Sect. 2.3: semi-axes (R, R, lambda R), lambda < 1, normalised by R
    for (double lambda : {0.2, 0.5, 0.9})
    {
        const double s = std::sqrt(1 - lambda*lambda), ac = std::acos(lambda);
        const double Kax = 8*s*s*s/((1 - 2*lambda*lambda)*ac + lambda*s);
        const double Ktr = 16*s*s*s/((3 - 2*lambda*lambda)*ac - lambda*s);
        const double at = std::atan(s/lambda);
        const double OmAx = 16.0/3*s*s*s/(at - lambda*s);
        const double OmTr = 16.0/3*s*s*s*(1 + lambda*lambda)/((2*s*s - 1)*at + lambda*s);
        const double PiTr = OmTr*(1 - lambda*lambda)/(1 + lambda*lambda);

        // tensors normalised by c = lambda R (R = 1): K/lambda, Omega/lambda^3
        const ResistanceTensors t = exactEllipsoidResistance(1, 1, lambda);
        const double l3 = lambda*lambda*lambda;
        expectRelativeNear(t.K(2, 2)*lambda, Kax, exactTolerance, "K axial");
        expectRelativeNear(t.K(0, 0)*lambda, Ktr, exactTolerance, "K transverse");
        expectRelativeNear(t.Omega(2, 2)*l3, OmAx, exactTolerance, "Omega axial");
        expectRelativeNear(t.Omega(0, 0)*l3, OmTr, exactTolerance, "Omega transverse");
        // a = b > c: Pi_xx = (b^2 - c^2)... > 0, Pi_yy < 0
        expectRelativeNear(t.Pi(0, 0)*l3, PiTr, exactTolerance, "Pi xx");
        expectRelativeNear(t.Pi(1, 1)*l3, -PiTr, exactTolerance, "Pi yy");
    }
    // Example printed in Sect. 2.3 at lambda = 0.5
    const ResistanceTensors t = exactEllipsoidResistance(1, 1, 0.5);
    EXPECT_NEAR(t.Omega(2, 2)*0.125, 5.640161, 1e-6);
    EXPECT_NEAR(t.Omega(0, 0)*0.125, 4.526526, 1e-6);
    EXPECT_NEAR(t.Pi(0, 0)*0.125, 2.715916, 1e-6);
}

TEST(TriaxialEllipsoid, MatchesReferenceTable)
{
    // Closed forms evaluated independently (c = 1)
    struct Row { double a, b, c; double v[9]; };
    const std::vector<Row> rows
    {
        {2, 1, 1, {7.223646, 8.273394, 8.273394, 12.90683, 24.07882, 24.07882, 0, -14.44729, 14.44729}},
        {3, 2, 1, {10.765774, 11.649117, 13.228924, 48.62745, 80.67560, 84.02946, 29.17647, -64.54048, 32.31902}},
        {5, 1, 1, {10.708852, 14.225799, 14.225799, 28.24323, 185.62011, 185.62011, 0, -171.34164, 171.34164}},
        {5, 3, 1, {15.487641, 17.046516, 20.527767, 155.72721, 317.34927, 304.18473, 124.58177, -292.93779, 143.14576}},
        {10, 10, 1, {36.798252, 36.798252, 51.147033, 3443.90024, 3443.90024, 3831.53534, 3375.70420, -3375.70420, 0}},
        {0.5, 0.2, 1, {3.267979, 3.816430, 2.870468, 2.27770, 2.12396, 0.88019, -2.10249, 1.27437, 0.63738}},
    };
    for (const Row& row : rows)
    {
        const ResistanceTensors t = exactEllipsoidResistance(row.a, row.b, row.c);
        for (int i = 0; i < 3; ++i)
        {
            // table printed to 7-8 significant digits
            EXPECT_NEAR(t.K(i, i), row.v[i], tableTolerance*std::abs(row.v[i]) + 5e-7) << row.a << ":" << row.b;
            EXPECT_NEAR(t.Omega(i, i), row.v[3 + i], tableTolerance*std::abs(row.v[3 + i]) + 5e-6) << row.a << ":" << row.b;
            EXPECT_NEAR(t.Pi(i, i), row.v[6 + i], tableTolerance*std::abs(row.v[6 + i]) + 5e-6) << row.a << ":" << row.b;
        }
        // principal frame: all tensors diagonal
        EXPECT_EQ((t.K - Matrix3(t.K.diagonal().asDiagonal())).norm(), 0.0);
    }
}

TEST(TriaxialEllipsoid, MatchesDirectQuadratureFormulas)
{
    // Dimensional Oberbeck/Jeffery formulas evaluated with the
    // independent quadrature instead of Carlson's integrals
    const double a = 4, b = 1.7, c = 0.6;
    const auto Delta = [=](double l) { return std::sqrt((a*a + l)*(b*b + l)*(c*c + l)); };
    const double al = integrateToInfinity([&](double l) { return 1/((a*a + l)*Delta(l)); }, a);
    const double be = integrateToInfinity([&](double l) { return 1/((b*b + l)*Delta(l)); }, a);
    const double ga = integrateToInfinity([&](double l) { return 1/((c*c + l)*Delta(l)); }, a);
    const double ch = integrateToInfinity([&](double l) { return 1/Delta(l); }, a);
    const ResistanceTensors t = exactEllipsoidResistance(a, b, c);
    expectRelativeNear(t.K(0, 0), 16/(c*(ch + a*a*al)), exactTolerance, "Kxx");
    expectRelativeNear(t.K(1, 1), 16/(c*(ch + b*b*be)), exactTolerance, "Kyy");
    expectRelativeNear(t.K(2, 2), 16/(c*(ch + c*c*ga)), exactTolerance, "Kzz");
    const double c3 = c*c*c;
    expectRelativeNear(t.Omega(2, 2), 16*(a*a + b*b)/(3*c3*(a*a*al + b*b*be)), exactTolerance, "Omzz");
    expectRelativeNear(t.Pi(0, 0), 16*(b*b - c*c)/(3*c3*(b*b*be + c*c*ga)), exactTolerance, "Pixx");
}

TEST(ResistanceTensorValidation, RejectsNonSymmetricOrIndefinite)
{
    const Matrix3 I = Matrix3::Identity();
    EXPECT_NO_THROW(givenResistanceTensors(6*I, 8*I, Matrix3::Zero()));
    Matrix3 asym = 6*I;
    asym(0, 1) = 1;
    EXPECT_THROW(givenResistanceTensors(asym, 8*I, Matrix3::Zero()), std::invalid_argument);
    EXPECT_THROW(givenResistanceTensors(6*I, -8*I, Matrix3::Zero()), std::invalid_argument);
    Matrix3 bad = Matrix3::Zero();
    bad(1, 1) = NAN;
    EXPECT_THROW(givenResistanceTensors(6*I, 8*I, bad), std::invalid_argument);
    try
    {
        givenResistanceTensors(6*I, -8*I, Matrix3::Zero());
    }
    catch (const std::invalid_argument& e)
    {
        EXPECT_NE(std::string(e.what()).find("Omega"), std::string::npos);
    }
}

TEST(ResistanceFactory, ExactForEllipsoidsAndGivenWhenAsked)
{
    const ShapeParameters ellipsoid{3, 2, 1, 1, 1};
    const ResistanceTensors exact = exactEllipsoidResistance(3, 2, 1);
    const ResistanceTensors fromFactory = makeResistanceTensors(ellipsoid);
    EXPECT_EQ((fromFactory.K - exact.K).norm(), 0.0);
    ResistanceOptions given;
    given.source = ResistanceSource::given;
    given.given = {6*Matrix3::Identity(), 8*Matrix3::Identity(), Matrix3::Zero()};
    EXPECT_EQ(makeResistanceTensors(ellipsoid, given).K(0, 0), 6.0);
    ResistanceOptions exactOnly;
    exactOnly.source = ResistanceSource::exact;
    EXPECT_THROW(makeResistanceTensors({3, 2, 1, 0.5, 1}, exactOnly), std::invalid_argument);
    EXPECT_THROW(makeResistanceTensors({-3, 2, 1, 1, 1}), std::invalid_argument);
    EXPECT_THROW(makeResistanceTensors({3, 2, 1, 1, 2.5}), std::invalid_argument);
}
