// Broad phase: the cell list returns exactly the brute-force set of
// bounding-sphere-overlapping pairs; the pair cache keeps and drops records.
#include "solver/BroadPhase.H"
#include "solver/PairCache.H"
#include "contact/BoundingVolumes.H"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>
#include <utility>

using namespace superellipsoid;

namespace
{

std::set<std::pair<int, int>> bruteForce(const std::vector<Vector3>& c, const std::vector<double>& r)
{
    std::set<std::pair<int, int>> s;
    for (int i = 0; i < int(c.size()); ++i)
        for (int j = i + 1; j < int(c.size()); ++j)
            if (boundingSpheresOverlap(c[i], r[i], c[j], r[j])) s.insert({i, j});
    return s;
}

//- Whether pairs holds each overlapping pair once: the brute-force set, no
//  duplicates. Without ids each pair is (i < j); with ids (PairList) ids[i]
//  < ids[j], the pairs strictly ascending in (ids[i], ids[j])
::testing::AssertionResult equalsBruteForce
(
    const std::vector<CandidatePair>& pairs, const std::vector<Vector3>& c, const std::vector<double>& r,
    const long* ids = nullptr
)
{
    std::set<std::pair<int, int>> found;
    for (std::size_t k = 0; k < pairs.size(); ++k)
    {
        const CandidatePair& p = pairs[k];
        if (!ids && !(p.i < p.j)) return ::testing::AssertionFailure() << "pair " << p.i << ", " << p.j << " not i < j";
        if (ids && !(ids[p.i] < ids[p.j]))
        {
            return ::testing::AssertionFailure() << "pair " << p.i << ", " << p.j << " not ids[i] < ids[j]";
        }
        if (ids && k > 0)
        {
            const CandidatePair& q = pairs[k - 1];
            if (!(std::make_pair(ids[q.i], ids[q.j]) < std::make_pair(ids[p.i], ids[p.j])))
            {
                return ::testing::AssertionFailure() << "pairs " << k - 1 << ", " << k << " not ascending in the ids";
            }
        }
        found.insert({std::min(p.i, p.j), std::max(p.i, p.j)});
    }
    if (found.size() != pairs.size()) return ::testing::AssertionFailure() << "duplicate pairs";
    const std::set<std::pair<int, int>> expected = bruteForce(c, r);
    if (found != expected)
    {
        return ::testing::AssertionFailure() << found.size() << " pairs against " << expected.size() << " by brute force";
    }
    return ::testing::AssertionSuccess();
}

} // namespace


TEST(CellList, PairsEqualBruteForceForRandomMixedElongations)
{
    std::mt19937_64 rng(7);
    // Shapes from spheres to aspect ratio 6 (bounding radius 6 c): the
    // cell size follows the largest bounding diameter
    const Superellipsoid shapes[] =
    {
        Superellipsoid::sphere(1.0),
        Superellipsoid(6.0, 1.0, 1.0, 1.0, 1.0),
        Superellipsoid(3.0, 3.0, 0.5, 0.3, 0.3),
        Superellipsoid(1.5, 1.2, 1.0, 1.6, 1.4)
    };
    int totalPairs = 0;
    for (int trial = 0; trial < 20; ++trial)
    {
        const int n = 50 + 40*trial;
        const double boxSize = 4.0*std::cbrt(double(n));            // dense to dilute
        std::uniform_real_distribution<double> pos(-0.5*boxSize, 0.5*boxSize + 3.0*trial);
        std::uniform_int_distribution<int> pick(0, trial % 2 ? 3 : 1);
        std::vector<Vector3> c(n);
        std::vector<double> r(n);
        for (int i = 0; i < n; ++i)
        {
            c[i] = Vector3(pos(rng), pos(rng), pos(rng));
            r[i] = shapes[pick(rng)].boundingRadius();
        }
        // Some exactly coincident centres and points on cell faces
        c[1] = c[0];
        c[2] = Vector3(0, 0, 0);
        const double rMax = *std::max_element(r.begin(), r.end());
        CellList cells;
        cells.build(c.data(), r.data(), n, 2*rMax);
        std::vector<CandidatePair> pairs;
        cells.findPairs(pairs);
        EXPECT_TRUE(equalsBruteForce(pairs, c, r)) << "trial " << trial;
        totalPairs += int(pairs.size());
    }
    EXPECT_GT(totalPairs, 1000);   // the test exercised overlapping pairs
}


TEST(CellList, PairsEqualBruteForceAtTheEndsOfTheKeyRange)
{
    // Clusters of unit spheres in cells of size 2 around the largest and
    // smallest cell coordinates, where a stencil row loses the cells
    // beyond +-maxCellCoordinate; a dense cluster in a table of few
    // buckets also makes rows wrap around the table (the cell-by-cell
    // path of findPairs)
    std::mt19937_64 rng(11);
    std::uniform_real_distribution<double> jitter(-3.0, 3.0);
    const double cellSize = 2.0;
    const double edge = cellSize*double(maxCellCoordinate);
    const Vector3 corners[] =
    {
        Vector3(edge, 0, 0), Vector3(-edge, edge, 0), Vector3(0, -edge, edge),
        Vector3(edge - 1.0, edge - 1.0, -edge + 1.0)
    };
    int totalPairs = 0;
    for (const Vector3& corner : corners)
    {
        const int n = 60;
        std::vector<Vector3> c(n);
        std::vector<double> r(n, 1.0);
        for (int i = 0; i < n; ++i) c[i] = corner + Vector3(jitter(rng), jitter(rng), jitter(rng));
        CellList cells;
        cells.build(c.data(), r.data(), n, cellSize);
        std::vector<CandidatePair> pairs;
        cells.findPairs(pairs);
        EXPECT_TRUE(equalsBruteForce(pairs, c, r)) << "near " << corner.transpose();
        totalPairs += int(pairs.size());
    }
    EXPECT_GT(totalPairs, 400);   // the clusters overlap densely
}


TEST(PairList, EqualsBruteForceWhileTheParticlesMoveAndChange)
{
    // 300 spheres of radii 0.5-1 drift by random steps of up to 0.1 (the
    // skin 0.6: a list lasts a few calls); every 7th call swaps two ids,
    // every 11th changes a radius, every 13th drops the last particle.
    // The ids are a shuffled permutation (not the index order). Each call
    // must give exactly the brute-force set, in ascending order of the ids,
    // and the list must be both kept (fewer builds than calls) and rebuilt
    std::mt19937_64 rng(5);
    std::uniform_real_distribution<double> pos(0.0, 12.0), step(-0.1, 0.1), radius(0.5, 1.0);
    int n = 300;
    std::vector<Vector3> c(n);
    std::vector<double> r(n);
    std::vector<long> id(n);
    for (int i = 0; i < n; ++i)
    {
        c[i] = Vector3(pos(rng), pos(rng), pos(rng));
        r[i] = radius(rng);
        id[i] = i;
    }
    std::shuffle(id.begin(), id.end(), rng);
    PairList list;
    std::vector<CandidatePair> pairs;
    const int calls = 120;
    long totalPairs = 0;
    for (int call = 0; call < calls; ++call)
    {
        for (Vector3& x : c) x += Vector3(step(rng), step(rng), step(rng));
        if (call % 7 == 6) std::swap(id[3], id[4]);
        if (call % 11 == 10) r[5] = radius(rng);
        if (call % 13 == 12)
        {
            --n;
            c.resize(n);
            r.resize(n);
            id.resize(n);
        }
        list.update(c.data(), r.data(), id.data(), n, 0.6, pairs);
        ASSERT_TRUE(equalsBruteForce(pairs, c, r, id.data())) << "call " << call;
        totalPairs += long(pairs.size());
    }
    EXPECT_GT(totalPairs, 10*calls);            // the spheres overlap
    EXPECT_LT(list.builds(), calls/2);          // kept over calls
    EXPECT_GT(list.builds(), calls/13);         // and rebuilt (at least on every change of n)
}


TEST(PairList, ZeroSkinRebuildsEveryCallAndNegativeSkinIsRejected)
{
    const Vector3 c[2] = {Vector3::Zero(), Vector3(1.5, 0, 0)};
    const double r[2] = {1.0, 1.0};
    const long id[2] = {0, 1};
    PairList list;
    std::vector<CandidatePair> pairs;
    for (int call = 0; call < 3; ++call)
    {
        list.update(c, r, id, 2, 0.0, pairs);
        ASSERT_EQ(pairs.size(), 1u);
    }
    EXPECT_EQ(list.builds(), 3);
    EXPECT_THROW(list.update(c, r, id, 2, -1e-3, pairs), std::invalid_argument);
}


TEST(CellList, CellSmallerThanBoundingDiameterIsRejected)
{
    const Vector3 c[1] = {Vector3::Zero()};
    const double r[1] = {1.0};
    CellList cells;
    EXPECT_THROW(cells.build(c, r, 1, 1.5), std::invalid_argument);
    EXPECT_THROW(cells.build(c, r, 1, -1.0), std::invalid_argument);
}


TEST(WallFaceGrid, QueryReturnsExactlyTheFacesWhoseBoxesOverlap)
{
    std::mt19937_64 rng(3);
    std::uniform_real_distribution<double> u(-5, 5);
    std::vector<WallFace> faces;
    for (int f = 0; f < 200; ++f)
    {
        const Vector3 a(u(rng), u(rng), u(rng));
        const Vector3 pts[3] = {a, a + Vector3(0.3*u(rng), 0.3*u(rng), 0.1),
                                a + Vector3(0.1, 0.3*u(rng), 0.3*u(rng))};
        faces.push_back(WallFace::fromVertices(pts, 3));
    }
    WallFaceGrid grid;
    grid.build(faces, 0.7);
    std::vector<int> out;
    for (int q = 0; q < 200; ++q)
    {
        const Vector3 c(u(rng), u(rng), u(rng));
        const Vector3 lo = c - Vector3::Constant(0.35), hi = c + Vector3::Constant(0.35);
        grid.query(lo, hi, out);
        std::vector<int> expected;
        for (int f = 0; f < int(faces.size()); ++f)
        {
            Vector3 flo = faces[f].vertices[0], fhi = flo;
            for (int k = 1; k < faces[f].nVertices; ++k)
            {
                flo = flo.cwiseMin(faces[f].vertices[k]);
                fhi = fhi.cwiseMax(faces[f].vertices[k]);
            }
            if ((flo.array() <= hi.array()).all() && (lo.array() <= fhi.array()).all())
                expected.push_back(f);
        }
        EXPECT_EQ(out, expected);
    }
}


TEST(PairCache, KeysAreSymmetricAndStaleRecordsAreDropped)
{
    EXPECT_EQ(PairCache::pairKey(3, 9), PairCache::pairKey(9, 3));
    EXPECT_NE(PairCache::pairKey(3, 9), PairCache::wallKey(3, 9));
    EXPECT_THROW(PairCache::pairKey(-1, 2), std::invalid_argument);

    PairCache cache;
    for (long i = 0; i < 1000; ++i)
    {
        cache.acquire(PairCache::pairKey(i, i + 1)).warm.boxAxis = int(i % 15);
    }
    EXPECT_EQ(cache.size(), 1000u);
    cache.dropUntouched();                      // all were touched in this "step"
    EXPECT_EQ(cache.size(), 1000u);
    for (long i = 0; i < 1000; i += 2) cache.acquire(PairCache::pairKey(i, i + 1));
    cache.dropUntouched();                      // odd ones untouched: dropped
    EXPECT_EQ(cache.size(), 500u);
    ASSERT_NE(cache.find(PairCache::pairKey(10, 11)), nullptr);
    EXPECT_EQ(cache.find(PairCache::pairKey(10, 11))->warm.boxAxis, 10);   // data survived
    EXPECT_EQ(cache.find(PairCache::pairKey(11, 12)), nullptr);
}


TEST(PairCache, AcquireAtAPositionFindsTheKeysRecordOrFallsBackToTheIndex)
{
    // A kept position saves the probe; a stale one (compaction moved the
    // record, or another key is there) must still give the key's record,
    // marked touched so that it survives the step
    PairCache cache;
    for (long i = 0; i < 8; ++i) cache.acquire(PairCache::wallKey(i, 3)).normalImpulse = double(i);
    const std::uint64_t key = PairCache::wallKey(5, 3);
    const std::size_t at = cache.indexOf(cache.acquire(key));
    EXPECT_EQ(&cache.acquire(key, at), &cache.acquire(key));
    EXPECT_EQ(cache.acquire(key, 0).normalImpulse, 5.0);             // another key at 0
    EXPECT_EQ(cache.acquire(key, 1000).normalImpulse, 5.0);          // past the end
    EXPECT_EQ(cache.size(), 8u);                                     // nothing inserted

    cache.dropUntouched();
    for (long i = 4; i < 8; ++i) cache.acquire(PairCache::wallKey(i, 3));
    cache.dropUntouched();                                           // 0-3 dropped: 5 moved to 1
    EXPECT_EQ(cache.acquire(key, at).normalImpulse, 5.0);            // stale position
    EXPECT_EQ(cache.indexOf(cache.acquire(key, at)), 1u);
    cache.acquire(PairCache::wallKey(9, 3), 1).normalImpulse = 9;    // absent: inserted
    EXPECT_EQ(cache.size(), 5u);
    cache.dropUntouched();                                           // 4, 6, 7 untouched
    EXPECT_EQ(cache.size(), 2u);
    EXPECT_EQ(cache.find(key)->normalImpulse, 5.0);
    EXPECT_EQ(cache.find(PairCache::wallKey(9, 3))->normalImpulse, 9.0);
}


TEST(PairCache, EveryHeldKeyIsFoundThroughGrowthAndCompaction)
{
    // The Bloom filter may only say "absent" of an absent key: every held
    // key is found after each growth of the index (64 -> 16 384 slots) and
    // after the compaction of dropUntouched, and no absent key is
    PairCache cache;
    const long n = 5000;
    for (long i = 0; i < n; ++i)
    {
        cache.acquire(PairCache::pairKey(i, i + 7)).normalImpulse = double(i);
        ASSERT_NE(cache.find(PairCache::pairKey(0, 7)), nullptr) << i;
    }
    for (long i = 0; i < n; ++i)
    {
        ASSERT_NE(cache.find(PairCache::pairKey(i, i + 7)), nullptr) << i;
        EXPECT_EQ(cache.find(PairCache::pairKey(i, i + 7))->normalImpulse, double(i));
        EXPECT_EQ(cache.find(PairCache::pairKey(i, i + 8)), nullptr) << i;
    }
    cache.dropUntouched();
    for (long i = 0; i < n; i += 3) cache.acquire(PairCache::pairKey(i, i + 7));
    cache.dropUntouched();
    for (long i = 0; i < n; ++i)
    {
        EXPECT_EQ(cache.find(PairCache::pairKey(i, i + 7)) != nullptr, i % 3 == 0) << i;
    }
    cache.clear();
    EXPECT_EQ(cache.find(PairCache::pairKey(0, 7)), nullptr);
    cache.acquire(PairCache::pairKey(0, 7));
    EXPECT_NE(cache.find(PairCache::pairKey(0, 7)), nullptr);
}
