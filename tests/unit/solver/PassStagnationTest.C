// Stop rule of frictional multi-point collision passes (PassStagnation.H)
#include "solver/PassStagnation.H"

#include <gtest/gtest.h>

#include <cmath>

using namespace superellipsoid;

namespace
{

//- First pass at which passes with changes change(pass) stagnate, or -1
//  within 'passes'
template<class Change>
int firstStagnation(Change change, int passes)
{
    PassStagnation s;
    for (int pass = 0; pass < passes; ++pass)
    {
        if (s.stagnates(pass, change(pass))) return pass;
    }
    return -1;
}

constexpr int w = PassStagnation::window;

} // namespace


TEST(PassStagnation, ContractingTailRunsOnToTheTolerance)
{
    // Rate 0.98 per pass: the change halves within 35 < w passes, so no
    // pass is ever above half of the one w before (2000 passes: 1e-18)
    EXPECT_EQ(firstStagnation([](int k) { return std::pow(0.98, k); }, 2000), -1);
    // Just below the bound rate 0.5^(1/w): still contracting enough
    const double bound = std::pow(0.5, 1.0/w);
    EXPECT_EQ(firstStagnation([&](int k) { return std::pow(bound - 1e-4, k); }, 2000), -1);
}


TEST(PassStagnation, CycleAndSlowTailStopAfterTwoWindows)
{
    // A two-pass cycle of changes 1e-6 and 3e-6 (the lattice pile's
    // cycling impacts: changes 1e-8 to 1e-5 of the approach for 10000
    // passes) and a tail slower than the bound rate stop at pass 2 w,
    // the first pass that has a pass w before it with a full window
    EXPECT_EQ(firstStagnation([](int k) { return k % 2 ? 3e-6 : 1e-6; }, 10000), 2*w);
    const double bound = std::pow(0.5, 1.0/w);
    EXPECT_EQ(firstStagnation([&](int k) { return std::pow(bound + 1e-4, k); }, 10000), 2*w);
}


TEST(PassStagnation, ARiseAfterContractionStops)
{
    // Contracting at 0.9 for 300 passes, then the changes grow again
    // (the fixed point left): stopped within one window of the rise
    const int rise = 300;
    const int stop = firstStagnation
    (
        [&](int k) { return k < rise ? std::pow(0.9, k) : std::pow(0.9, rise)*std::pow(1.01, k - rise); },
        10000
    );
    EXPECT_GE(stop, rise);
    EXPECT_LE(stop, rise + w);
}
