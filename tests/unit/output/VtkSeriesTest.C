/*---------------------------------------------------------------------------*\
    ParaView time series (src/core/output/VtkSeries): exact round trip of
    names and times, restart truncation, rewriting a time, tolerance of the
    time comparison, and parse errors that name the file and position.
\*---------------------------------------------------------------------------*/
#include "output/VtkSeries.H"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <unistd.h>

using namespace superellipsoid;

namespace
{

namespace fs = std::filesystem;

//- A fresh directory per test, removed afterwards
class Series : public ::testing::Test
{
protected:
    fs::path dir;

    void SetUp() override
    {
        dir = fs::temp_directory_path()
            /("sefoam_series_" + std::to_string(::getpid()) + "_"
            + ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(dir);
        fs::create_directories(dir);
    }

    void TearDown() override { fs::remove_all(dir); }

    std::string file(const std::string& name) const { return (dir/name).string(); }
};

std::vector<double> times(const std::vector<SeriesEntry>& entries)
{
    std::vector<double> t;
    for (const SeriesEntry& e : entries) t.push_back(e.time);
    return t;
}

//- Times of a run with Dt = 1e-5 written every 100 steps, accumulated as
//  OpenFOAM does (t += Dt: not exactly k*1e-3)
std::vector<double> accumulatedTimes(int nWrites)
{
    std::vector<double> t;
    double time = 0;
    for (int step = 1; step <= 100*nWrites; ++step)
    {
        time += 1e-5;
        if (step % 100 == 0) t.push_back(time);
    }
    return t;
}

} // namespace


// Written and read back: every name (also with quotes, backslashes and
// spaces) and every time bit for bit (max_digits10)
TEST_F(Series, RoundTripIsExact)
{
    VtkSeries series(file("a.series"));
    const std::vector<double> t = accumulatedTimes(5);
    const std::vector<std::string> names =
        {"c_surfaces_100.vtp", "with space.vtp", "quote\"d.vtp", "back\\slash.vtp", "c_surfaces_500.vtp"};
    for (std::size_t i = 0; i < t.size(); ++i) series.add(names[i], t[i]);
    const std::vector<SeriesEntry> back = VtkSeries::read(file("a.series"));
    ASSERT_EQ(back.size(), t.size());
    for (std::size_t i = 0; i < t.size(); ++i)
    {
        EXPECT_EQ(back[i].name, names[i]);
        EXPECT_EQ(back[i].time, t[i]);
    }
}


// ParaView's format: the version key and a "files" list of name/time
// objects; other keys and any whitespace are accepted
TEST_F(Series, ReadsHandWrittenParaViewSeries)
{
    const std::string text =
        "{\"files\":[{\"time\":0,\"name\":\"a.vtp\",\"extra\":[1,{\"x\":null}]},\n"
        "  { \"name\" : \"b.vtp\" , \"time\" : 2.5e-1 }],\n"
        " \"file-series-version\" : \"1.0\", \"comment\": true }";
    const std::vector<SeriesEntry> e = VtkSeries::parse(text, "test");
    ASSERT_EQ(e.size(), 2u);
    EXPECT_EQ(e[0].name, "a.vtp");
    EXPECT_EQ(e[0].time, 0.0);
    EXPECT_EQ(e[1].name, "b.vtp");
    EXPECT_EQ(e[1].time, 0.25);
    const std::string written = VtkSeries::format(e);
    EXPECT_NE(written.find("\"file-series-version\" : \"1.0\""), std::string::npos);
    EXPECT_EQ(VtkSeries::parse(written, "again").size(), 2u);
}


// A run restarted at t0 keeps the entries with t <= t0 (the earlier part of
// the run and the state it restarts from) and rewrites the file; the
// restart time may differ from the stored one by round-off (it went through
// a decimal time name): relative timeTolerance
TEST_F(Series, RestartKeepsTheEntriesUpToTheRestartTime)
{
    const std::vector<double> t = accumulatedTimes(6);     // ~1e-3 .. 6e-3
    {
        VtkSeries first(file("s.series"));
        for (std::size_t i = 0; i < t.size(); ++i) first.add("f" + std::to_string(i) + ".vtp", t[i]);
    }
    // restart from the time directory "0.003" (t[2] = 0.0030000000000000005)
    ASSERT_NE(t[2], 0.003);
    VtkSeries restarted = VtkSeries::restart(file("s.series"), 0.003);
    EXPECT_EQ(times(restarted.entries()), std::vector<double>(t.begin(), t.begin() + 3));
    EXPECT_EQ(times(VtkSeries::read(file("s.series"))), times(restarted.entries()));

    // the restarted run writes 0.004 again with a new name: one entry
    restarted.add("g.vtp", 0.004);
    const std::vector<SeriesEntry> e = VtkSeries::read(file("s.series"));
    ASSERT_EQ(e.size(), 4u);
    EXPECT_EQ(e.back().name, "g.vtp");

    // restart before the first entry: empty; no file: empty, nothing written
    EXPECT_TRUE(VtkSeries::restart(file("s.series"), 0.0).entries().empty());
    EXPECT_TRUE(VtkSeries::restart(file("none.series"), 1.0).entries().empty());
    EXPECT_FALSE(fs::exists(file("none.series")));
}


// Adding a time drops every entry at or after it (a time written again
// replaces its entry; a run going back in time forgets the later ones)
TEST_F(Series, AddReplacesTheSameAndLaterTimes)
{
    VtkSeries s(file("r.series"));
    for (int i = 1; i <= 4; ++i) s.add("a" + std::to_string(i), 0.1*i);
    s.add("b2", 0.2*(1 + 1e-13));                   // same time within tolerance
    EXPECT_EQ(s.entries().size(), 2u);
    EXPECT_EQ(s.entries().back().name, "b2");
    s.add("b3", 0.3);
    EXPECT_EQ(s.entries().size(), 3u);
    EXPECT_THROW(s.add("nan", std::nan("")), std::invalid_argument);
    EXPECT_THROW(s.add("", 1.0), std::invalid_argument);
    EXPECT_EQ(VtkSeries::read(file("r.series")).size(), 3u);
}


// Malformed series stop with the file and the character position
TEST_F(Series, MalformedSeriesNameTheFileAndPosition)
{
    const std::vector<std::string> bad =
    {
        "",
        "[]",
        "{\"file-series-version\" : \"1.0\"}",                    // no files
        "{\"files\" : [ {\"name\" : \"a.vtp\"} ]}",               // no time
        "{\"files\" : [ {\"name\" : \"a.vtp\", \"time\" : x} ]}",
        "{\"files\" : [ {\"name\" : \"a.vtp, \"time\" : 1} ]",    // broken string
        "{\"files\" : []} trailing"
    };
    for (const std::string& text : bad)
    {
        std::ofstream(file("bad.series")) << text;
        try
        {
            VtkSeries::restart(file("bad.series"), 1.0);
            ADD_FAILURE() << "accepted: " << text;
        }
        catch (const std::runtime_error& e)
        {
            EXPECT_NE(std::string(e.what()).find(file("bad.series")), std::string::npos) << e.what();
            EXPECT_NE(std::string(e.what()).find("at character"), std::string::npos) << e.what();
        }
    }
}
