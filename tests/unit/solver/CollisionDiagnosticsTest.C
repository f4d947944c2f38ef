// The relax's convergence as CollisionDiagnostics reports it (log line and
// collisions.csv): sweeps per substep (mean, max), the speed residual, the
// energy residual (the last sweep's sum m_eff du^2/2 over E_h) and the
// substeps that stopped on restingEnergyTolerance. Reference: one relax of
// a frictional column from zero impulses, whose plain Gauss-Seidel needs
// many sweeps, with and without the stop on the sweep's energy.
#include "SolverTestHelpers.H"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

using namespace superellipsoid;
using namespace superellipsoid::test;

namespace
{

std::vector<std::string> split(const std::string& line)
{
    std::vector<std::string> fields;
    std::stringstream ss(line);
    for (std::string f; std::getline(ss, f, ',');) fields.push_back(f);
    return fields;
}

//- One substep of a column of 4 cube-like bodies (c = 5 mm, eps 0.2,
//  mu = 0.5) touching each other and the floor (1e-7 m deep), at rest:
//  gravity's g h has to be taken out by the relax from zero impulses
//  (no warm start: nothing stored yet), plain Gauss-Seidel
CollisionDiagnostics relaxColumnOnce(double energyTolerance)
{
    const Superellipsoid cube(5e-3, 5e-3, 5e-3, 0.2, 0.2);
    ParticleSystem s;
    s.shapes.push_back(cube);
    for (int i = 0; i < 4; ++i)
    {
        Pose p;
        p.position = Vector3(0, 0, cube.c() - 1e-7 + i*(2*cube.c() - 1e-7));
        s.particles.push_back(makeParticle(i, 0, s.shapes[0], 1000, p));
    }
    addFloor(s.walls, 0, 0.1);
    CollisionSettings settings;
    settings.gravity = Vector3(0, 0, -9.81);
    settings.pairLaw = ImpulseLaw::withFriction(0.2, 0.5);
    settings.wallLaw = settings.pairLaw;
    settings.fixedSubsteps = 1;
    settings.maxRestingSweeps = 10000;
    settings.restingEnergyTolerance = energyTolerance;
    CollisionStep step(settings);
    return step.advance(s, 1e-4);
}

} // namespace


TEST(CollisionDiagnostics, EnergyStopIsCountedWithItsResidual)
{
    // Without the stop the relax converges to restingTolerance per point
    // update after many sweeps: the speed residual, a contact visit's
    // summed changes (friction and normal of up to 4 points), is then at
    // most 2 x 4 times it; the energy residual is still reported (the last
    // sweep's energy, far below 1e-2 E_h there). With tau = 1e-2 it stops
    // earlier, on the energy: counted once, its energy residual at most
    // tau, its speed residual larger
    const double restingTolerance = CollisionSettings().restingTolerance;
    const CollisionDiagnostics full = relaxColumnOnce(0);
    const CollisionDiagnostics stopped = relaxColumnOnce(1e-2);
    EXPECT_EQ(full.restingSubsteps, 1);
    EXPECT_EQ(full.restingEnergyStops, 0);
    EXPECT_LE(full.restingResidual, 2*maxManifoldPoints*restingTolerance);
    EXPECT_GT(full.restingEnergyResidual, 0);
    EXPECT_LT(full.restingEnergyResidual, 1e-2);
    EXPECT_EQ(stopped.restingEnergyStops, 1);
    EXPECT_LE(stopped.restingEnergyResidual, 1e-2);
    EXPECT_GT(stopped.restingResidual, full.restingResidual);
    std::printf("column of 4 cubes from zero impulses: %d sweeps, residual %.2e, energy residual %.2e; "
                "tau = 1e-2: %d sweeps, residual %.2e, energy residual %.2e\n", full.maxRestingSweeps,
                full.restingResidual, full.restingEnergyResidual, stopped.maxRestingSweeps,
                stopped.restingResidual, stopped.restingEnergyResidual);
    EXPECT_LT(stopped.maxRestingSweeps, full.maxRestingSweeps);
}


TEST(CollisionDiagnostics, CsvRowHasOneValuePerColumnAndTheMeanSweeps)
{
    // The CSV row matches its header column for column; restingSweepsMean
    // is restingSweeps / restingSubsteps (meanRestingSweeps)
    CollisionDiagnostics d;
    d.restingSweeps = 7;
    d.restingSubsteps = 2;
    d.restingEnergyStops = 1;
    d.restingEnergyResidual = 1e-3;
    d.collisionStagnations = 5;
    const std::vector<std::string> header = split(CollisionDiagnostics::csvHeader());
    const std::vector<std::string> row = split(d.csvRow());
    ASSERT_EQ(header.size(), row.size());
    const auto column = [&](const std::string& name)
    {
        const auto it = std::find(header.begin(), header.end(), name);
        EXPECT_NE(it, header.end()) << name;
        return std::stod(row[it - header.begin()]);
    };
    EXPECT_EQ(column("restingSweepsMean"), 3.5);
    EXPECT_EQ(column("restingEnergyStops"), 1);
    EXPECT_EQ(column("restingEnergyResidual"), 1e-3);
    EXPECT_EQ(column("collisionStagnations"), 5);
    EXPECT_NE(d.summary().find("energy stops 1"), std::string::npos);
    EXPECT_NE(d.summary().find("stagnated 5"), std::string::npos);
}
