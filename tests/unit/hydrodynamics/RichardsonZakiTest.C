// Bed expansion by Richardson-Zaki with Rowe's exponent and the terminal
// Reynolds number it needs (RichardsonZaki.H).
#include "hydrodynamics/RichardsonZaki.H"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

using namespace superellipsoid;

TEST(RichardsonZaki, RoweExponentMatchesTabulatedValues)
{
    // Independent double-precision evaluation to 5 decimals (half a unit);
    // limits 4.7 (Re_t -> 0) and 2.342857 = 0.41/0.175 (Re_t -> infinity)
    const struct { double Re, n; } table[] =
    {
        {0, 4.7}, {1, 4.34894}, {10, 3.53087}, {100, 2.70361}, {1000, 2.41624}
    };
    for (const auto& row : table)
    {
        EXPECT_NEAR(richardsonZakiExponent(row.Re), row.n, 5e-6) << row.Re;
    }
    EXPECT_NEAR(richardsonZakiExponent(1e16), 0.41/0.175, 1e-9);   // remainder ~ Re^-0.75
}

TEST(RichardsonZaki, TerminalReynoldsFromArchimedes)
{
    // Schiller-Naumann sphere: Re_t(Ar) by an independent bisection,
    // 6 significant digits (half a unit relative)
    const struct { double Ar, Re; } table[] = {{1, 0.0544497}, {100, 4.00026}, {1e4, 113.851}};
    for (const auto& row : table)
    {
        EXPECT_NEAR(terminalReynoldsNumber(row.Ar, DragCorrelation::SchillerNaumann)/row.Re, 1, 5e-6)
            << row.Ar;
    }
    // Stokes: Re_t = Ar/18 exactly (to the bisection's 1e-14)
    EXPECT_NEAR(terminalReynoldsNumber(0.9, DragCorrelation::Stokes), 0.05, 1e-14);
}

TEST(RichardsonZaki, GlassBeadsInWater)
{
    // 1 mm glass (2500 kg/m^3) in water (1000 kg/m^3, 1e-3 Pa s): the usual
    // estimates u_t 0.134-0.146 m/s (drag-law spread), n ~ 2.7 and
    // U(eps = 0.6) ~ 0.037 m/s; Schiller-Naumann gives u_t = 0.1459,
    // n = 2.625, U = 0.03818
    const double mu = 1e-3, rho = 1000, d = 1e-3;
    const double Ar = rho*1500*9.81*d*d*d/(mu*mu);
    const double Ret = terminalReynoldsNumber(Ar, DragCorrelation::SchillerNaumann);
    const double ut = Ret*mu/(rho*d);
    EXPECT_GT(ut, 0.134);
    EXPECT_LT(ut, 0.147);
    EXPECT_NEAR(richardsonZakiExponent(Ret), 2.7, 0.1);
    const double U = richardsonZakiVelocity(ut, Ret, 0.6);
    EXPECT_NEAR(U, 0.037, 0.002);
    EXPECT_NEAR(richardsonZakiFluidFraction(ut, Ret, U), 0.6, 1e-12);
}

TEST(RichardsonZaki, BadInputThrows)
{
    EXPECT_THROW(richardsonZakiExponent(-1), std::invalid_argument);
    EXPECT_THROW(richardsonZakiVelocity(0.1, 1, 0), std::invalid_argument);
    EXPECT_THROW(richardsonZakiVelocity(0.1, 1, 1.5), std::invalid_argument);
    EXPECT_THROW(richardsonZakiFluidFraction(0.1, 1, 0.2), std::invalid_argument);
    EXPECT_THROW(terminalReynoldsNumber(-3, DragCorrelation::SchillerNaumann), std::invalid_argument);
}
