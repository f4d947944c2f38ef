// Run-time selection and validated ranges of the incidence laws (IncidenceLaw.H).
#include "hydrodynamics/IncidenceLaw.H"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

using namespace superellipsoid;

TEST(IncidenceLaw, NamesRoundTrip)
{
    for (IncidenceLaw law :
        {
            IncidenceLaw::Stokes, IncidenceLaw::isotropic, IncidenceLaw::Froehlich,
            IncidenceLaw::HoelzerSommerfeld, IncidenceLaw::resolvedTable
        })
    {
        EXPECT_EQ(incidenceLawFromName(incidenceLawName(law)), law);
    }
    EXPECT_EQ(incidenceLawName(IncidenceLaw::HoelzerSommerfeld), "HoelzerSommerfeld");
}


TEST(IncidenceLaw, UnknownNameThrowsNamingTheValue)
{
    try
    {
        incidenceLawFromName("Zastawny");
        FAIL() << "unknown name accepted";
    }
    catch (const std::invalid_argument& e)
    {
        EXPECT_NE(std::string(e.what()).find("'Zastawny'"), std::string::npos) << e.what();
    }
}


TEST(IncidenceLaw, RangesAreWhereTheLawsWereChecked)
{
    // Froehlich and Hoelzer-Sommerfeld: the DNS of the 2.5:1 prolate, Re <= 100
    const IncidenceLawRange f = validatedRange(IncidenceLaw::Froehlich);
    EXPECT_TRUE(f.contains(0, 1));
    EXPECT_TRUE(f.contains(100, 2.5));
    EXPECT_FALSE(f.contains(101, 2.5));
    EXPECT_FALSE(f.contains(10, 3));
    EXPECT_FALSE(validatedRange(IncidenceLaw::HoelzerSommerfeld).contains(300, 2));
    EXPECT_TRUE(validatedRange(IncidenceLaw::Stokes).contains(1, 100));
    EXPECT_FALSE(validatedRange(IncidenceLaw::Stokes).contains(1.5, 1));
    EXPECT_TRUE(validatedRange(IncidenceLaw::isotropic).contains(1000, 10));
    // resolvedTable: the table's range, which the law itself enforces
    EXPECT_TRUE(validatedRange(IncidenceLaw::resolvedTable).contains(1e4, 10));
}
