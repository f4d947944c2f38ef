// One answer per contact in a decomposed system (BoundaryImpulses.H): the
// processors are threads, each solving its own particles plus the ghosts
// within reach, with the contact solver's stop decisions reduced over all
// of them (ContactSolver::setGlobalMax), then the owners' impulses replace
// the other side's. References: the serial solution (bitwise, for a pair on
// the processor boundary) and the momentum balance (exact invariant).
#include "SolverTestHelpers.H"
#include "solver/BoundaryImpulses.H"

#include <gtest/gtest.h>

#include <algorithm>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <thread>

using namespace superellipsoid;
using namespace superellipsoid::test;

namespace
{

constexpr double density = 1000;
constexpr double r = 5e-3;
constexpr double h = 1e-5;

//- Maximum over n threads (a barrier): the MPI reduction of the layer
class ThreadMax
{
public:
    explicit ThreadMax(int n) : n_(n) {}
    double operator()(double x)
    {
        std::unique_lock<std::mutex> lock(mutex_);
        const long generation = generation_;
        value_ = arrived_ == 0 ? x : std::max(value_, x);
        if (++arrived_ == n_)
        {
            result_ = value_;
            arrived_ = 0;
            ++generation_;
            ready_.notify_all();
        }
        else
        {
            ready_.wait(lock, [&] { return generation_ != generation; });
        }
        return result_;
    }
private:
    int n_, arrived_ = 0;
    long generation_ = 0;
    double value_ = 0, result_ = 0;
    std::mutex mutex_;
    std::condition_variable ready_;
};

struct Decomposed
{
    ParticleSystem system;              // every particle after the substep
    std::vector<int> sweeps;            // per processor
    ContactMomentumBalance balance;     // summed over the processors
    int replaced = 0;                   // contacts whose impulse changed
};

//- Detection and velocity phases of one substep on nRanks processors
//  (home[i]: processor of particle i of full, sorted by id); exchange:
//  the owners' impulses replace the others' (false: each keeps its own)
Decomposed solveDecomposed
(
    const ParticleSystem& full, const std::vector<int>& home, int nRanks,
    const CollisionSettings& settings, bool exchange = true
)
{
    const int n = full.size();
    std::vector<ParticleSystem> systems(nRanks);
    std::vector<std::vector<char>> owned(nRanks);
    std::vector<std::vector<int>> fullIndex(nRanks);
    for (int k = 0; k < nRanks; ++k)
    {
        ParticleSystem& s = systems[k];
        s.shapes = full.shapes;
        s.walls = full.walls;
        for (int j = 0; j < n; ++j)
        {
            // Ghost: within reach (bounding spheres) of an own particle
            bool keep = home[j] == k;
            const Particle& q = full.particles[j];
            for (int i = 0; i < n && !keep; ++i)
            {
                const Particle& p = full.particles[i];
                const double reach = full.shapes[p.shapeIndex].boundingRadius()
                                   + full.shapes[q.shapeIndex].boundingRadius();
                keep = home[i] == k && (p.pose.position - q.pose.position).norm() <= reach;
            }
            if (!keep) continue;
            s.particles.push_back(q);
            owned[k].push_back(home[j] == k);
            fullIndex[k].push_back(j);
        }
    }

    Decomposed out;
    out.sweeps.assign(nRanks, 0);
    std::vector<std::unique_ptr<CollisionStep>> steps;
    std::vector<std::vector<Vector3>> before(nRanks);
    ThreadMax reduce(nRanks);
    for (int k = 0; k < nRanks; ++k)
    {
        steps.emplace_back(new CollisionStep(settings));
        if (nRanks > 1) steps[k]->setGlobalMax([&reduce](double x) { return reduce(x); });
        for (const Particle& p : systems[k].particles) before[k].push_back(contactMomentum(p));
    }
    std::vector<std::thread> threads;
    for (int k = 0; k < nRanks; ++k)
    {
        threads.emplace_back
        (
            [&, k]
            {
                CollisionDiagnostics diag;
                steps[k]->detect(systems[k], diag);
                out.sweeps[k] = steps[k]->resolveSweeps(systems[k], diag, h);
            }
        );
    }
    for (std::thread& t : threads) t.join();

    // Owners' answers to the processors of the ghosts
    std::vector<std::vector<BoundaryImpulse>> inbox(nRanks);
    for (int k = 0; k < nRanks && exchange; ++k)
    {
        std::vector<BoundaryImpulse> mine;
        std::vector<int> ghost;
        ownedBoundaryImpulses(steps[k]->contacts(), owned[k], mine, ghost);
        for (std::size_t m = 0; m < mine.size(); ++m)
        {
            inbox[home[fullIndex[k][ghost[m]]]].push_back(mine[m]);
        }
    }
    out.system = full;
    for (int k = 0; k < nRanks; ++k)
    {
        if (exchange) out.replaced += applyBoundaryImpulses(systems[k], steps[k]->contacts(), owned[k], inbox[k], 0, h);
        const ContactMomentumBalance b =
            contactMomentumBalance(systems[k], before[k], steps[k]->contacts(), owned[k]);
        out.balance.change += b.change;
        out.balance.wallImpulse += b.wallImpulse;
        out.balance.scale += b.scale;
        for (std::size_t i = 0; i < systems[k].particles.size(); ++i)
        {
            if (owned[k][i]) out.system.particles[fullIndex[k][i]] = systems[k].particles[i];
        }
    }
    return out;
}

//- Slabs in x: processor of x for cuts (ascending)
std::vector<int> slabs(const ParticleSystem& s, const std::vector<double>& cuts)
{
    std::vector<int> home;
    for (const Particle& p : s.particles)
    {
        home.push_back(int(std::upper_bound(cuts.begin(), cuts.end(), p.pose.position.x()) - cuts.begin()));
    }
    return home;
}

//- A jittered lattice of 48 ellipsoids (4 x 4 x 3), overlapping and
//  approaching, on a floor
ParticleSystem ellipsoidPile()
{
    ParticleSystem s;
    s.shapes.push_back(Superellipsoid(1.3*r, r, 0.8*r, 1, 1));
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> jitter(-0.05*r, 0.05*r), speed(-0.2, 0.2), angle(-pi, pi);
    long id = 0;
    for (int i = 0; i < 4; ++i)
    {
        for (int j = 0; j < 4; ++j)
        {
            for (int k = 0; k < 3; ++k)
            {
                Pose p;
                p.position = Vector3((i - 1.5)*2.1*r + jitter(rng), (j - 1.5)*2.1*r + jitter(rng),
                                     0.75*r + k*1.6*r + jitter(rng));
                p.orientation = rotationAbout(Vector3(0, 0, 1), 0.2*angle(rng));
                s.particles.push_back(makeParticle(id++, 0, s.shapes[0], density, p,
                                                   Vector3(speed(rng), speed(rng), speed(rng) - 0.3)));
            }
        }
    }
    addFloor(s.walls, 0, 0.1);
    return s;
}

CollisionSettings pileSettings()
{
    CollisionSettings settings;
    settings.gravity = Vector3(0, 0, -9.81);
    settings.pairLaw = ImpulseLaw::withFriction(0.5, 0.3);
    settings.wallLaw = ImpulseLaw::withFriction(0.5, 0.3);
    return settings;
}

double residual(const ContactMomentumBalance& b)
{
    return (b.change - b.wallImpulse).norm()/b.scale;
}

} // namespace


// A pair of frictional prolates, eccentric and spinning, whose contact
// lies on the processor boundary x = 0 (centres at -+0.9 r: the smallest
// half axis r overlaps), and a third particle far away: the
// velocities and spins after the contact are bitwise the serial ones on
// 1, 2 and 3 processors (the same state and contact give the same impulse
// on both sides, and the replacement adds exactly zero).
TEST(BoundaryImpulses, PairOnTheBoundaryIsBitwiseSerial)
{
    ParticleSystem s;
    s.shapes.push_back(Superellipsoid(2*r, r, r, 1, 1));
    Pose pa, pb, pc;
    pa.position = Vector3(-0.9*r, 0.3*r, 0);
    pa.orientation = rotationAbout(Vector3(0.2, 0.1, 1), 1.5);
    pb.position = Vector3(0.9*r, -0.3*r, 0);
    pb.orientation = rotationAbout(Vector3(0.1, 1, 0.3), 1.4);
    pc.position = Vector3(12*r, 0, 0);
    s.particles.push_back(makeParticle(0, 0, s.shapes[0], density, pa, Vector3(1, 0.1, 0), Vector3(10, 0, 5)));
    s.particles.push_back(makeParticle(1, 0, s.shapes[0], density, pb, Vector3(-1, 0, 0.2), Vector3(0, -20, 0)));
    s.particles.push_back(makeParticle(2, 0, s.shapes[0], density, pc, Vector3(0, 1, 0)));
    CollisionSettings settings;
    settings.pairLaw = ImpulseLaw::withFriction(0.8, 0.3);

    const Decomposed serial = solveDecomposed(s, {0, 0, 0}, 1, settings);
    ASSERT_NE(serial.system.particles[0].velocity, s.particles[0].velocity);    // they collide
    for (const std::vector<double>& cuts : {std::vector<double>{0}, std::vector<double>{0, 6*r}})
    {
        const int nRanks = int(cuts.size()) + 1;
        const Decomposed d = solveDecomposed(s, slabs(s, cuts), nRanks, settings);
        for (int i = 0; i < 3; ++i)
        {
            const Particle& p = d.system.particles[i];
            const Particle& q = serial.system.particles[i];
            EXPECT_TRUE(p.velocity == q.velocity) << nRanks << " ranks, particle " << i;
            EXPECT_TRUE(p.angularVelocity == q.angularVelocity) << nRanks << " ranks, particle " << i;
        }
        for (int k = 0; k < nRanks; ++k) EXPECT_EQ(d.sweeps[k], serial.sweeps[0]) << nRanks << " ranks";
        EXPECT_EQ(d.replaced, 0);
    }
}


// A jittered lattice of 48 ellipsoids, overlapping and approaching, on a
// floor under gravity, cut into 2 and 3 slabs: each contact cluster reaches
// beyond the one-layer halo, so the two sides of a boundary contact compute
// different impulses (momentum is then not conserved, checked to make the
// test decisive); with the owners' impulses the momentum change of all
// particles equals the wall impulses to round-off (tolerance 1e-12 of the
// summed |impulses|: a few hundred additions of terms of that size leave
// ~1e-14), and all processors run the same number of sweeps; the same
// with the relax stopped on its sweep's energy (restingEnergyTolerance
// 1e-3: 18 sweeps in all against 25 without, serial), and with the
// momentum step after each sweep besides (its steps never pass through
// the points' lever arms: the net impulses come from the accumulated ones).
TEST(BoundaryImpulses, PileConservesMomentumAcrossProcessors)
{
    const ParticleSystem s = ellipsoidPile();
    CollisionSettings settings = pileSettings();

    // Also with the relax stopped on its sweep's energy (fewer sweeps): its
    // stop decision is global as the tolerance test's
    int plainSweeps = 0;
    for (const int variant : {0, 1, 2})
    {
        const double tau = variant > 0 ? 1e-3 : 0.0;
        settings.restingEnergyTolerance = tau;
        settings.restingMomentum = variant == 2;
        const Decomposed serial = solveDecomposed(s, std::vector<int>(s.size(), 0), 1, settings);
        EXPECT_LT(residual(serial.balance), 1e-12) << "tau " << tau;
        std::printf("tau %g%s: %d sweeps\n", tau, variant == 2 ? ", momentum" : "", serial.sweeps[0]);
        if (variant == 1) EXPECT_LT(serial.sweeps[0], plainSweeps);
        plainSweeps = serial.sweeps[0];
        for (const std::vector<double>& cuts : {std::vector<double>{0}, std::vector<double>{-1.05*r, 1.05*r}})
        {
            const int nRanks = int(cuts.size()) + 1;
            const std::vector<int> home = slabs(s, cuts);
            const Decomposed local = solveDecomposed(s, home, nRanks, settings, false);
            EXPECT_GT(residual(local.balance), 1e-6) << nRanks << " ranks, tau " << tau << ": the sides must disagree";
            const Decomposed d = solveDecomposed(s, home, nRanks, settings);
            EXPECT_GT(d.replaced, 0);
            EXPECT_LT(residual(d.balance), 1e-12) << nRanks << " ranks, tau " << tau;
            for (int k = 1; k < nRanks; ++k) EXPECT_EQ(d.sweeps[k], d.sweeps[0]) << "tau " << tau;
        }
    }
}


// The pile above in an upward flow whose drag, implicit in the contacts
// (inverse mass 1/(m + h c), h c = m), carries a third of the weight, on
// 2 and 3 processors: the owners' impulses change an own particle's
// velocity as its own solve would, so the drag's share of every contact
// impulse stays resistedImpulse = h c (v - v_before) (relative tolerance
// 1e-12: round-off of a few hundred impulses). Corrected with 1/m instead,
// the share of the replaced impulses is missed; momentum then still
// balances, so the split is what is checked.
TEST(BoundaryImpulses, DragShareOfReplacedImpulsesIsTheSerialOne)
{
    ParticleSystem s = ellipsoidPile();
    for (Particle& p : s.particles)
    {
        p.externalResistance = (p.mass/h)*Matrix3::Identity();
        p.externalForce = Vector3(0, 0, p.mass*9.81/3);
    }
    const CollisionSettings settings = pileSettings();
    for (const std::vector<double>& cuts : {std::vector<double>{0}, std::vector<double>{-1.05*r, 1.05*r}})
    {
        const int nRanks = int(cuts.size()) + 1;
        const Decomposed d = solveDecomposed(s, slabs(s, cuts), nRanks, settings);
        EXPECT_GT(d.replaced, 0);
        EXPECT_LT(residual(d.balance), 1e-12) << nRanks << " ranks";
        double worst = 0, scale = 0;
        for (int i = 0; i < s.size(); ++i)
        {
            const Particle& p = d.system.particles[i];
            const Vector3 share = h*isotropicResistance(p)*(p.velocity - s.particles[i].velocity);
            worst = std::max(worst, (p.resistedImpulse - share).norm());
            scale = std::max(scale, share.norm());
        }
        EXPECT_GT(scale, 0);
        EXPECT_LT(worst, 1e-12*scale) << nRanks << " ranks";
    }
}


TEST(BoundaryImpulses, PackRoundTripsAndUnknownParticleThrows)
{
    const BoundaryImpulse rec{3, 17, Vector3(1e-3, -2, 3), Vector3(4, 5, -6e-9)};
    double buf[boundaryImpulseSize];
    packBoundaryImpulse(rec, buf);
    const BoundaryImpulse q = unpackBoundaryImpulse(buf);
    EXPECT_EQ(q.idA, 3);
    EXPECT_EQ(q.idB, 17);
    EXPECT_TRUE(q.impulse == rec.impulse && q.angularImpulseB == rec.angularImpulseB);

    ParticleSystem s;
    s.shapes.push_back(Superellipsoid::sphere(r));
    s.particles.push_back(makeParticle(3, 0, s.shapes[0], density, Pose()));
    EXPECT_THROW(applyBoundaryImpulses(s, {}, {1}, {rec}), std::invalid_argument);
}


namespace
{

//- One processor's own A and B (ids 0, 1) with the images of B (id 1 +
//  imageStride) and A (id 2 imageStride) across a periodic boundary:
//  detect, resolve, and keep the owner's answer for the contact found
//  twice ((A, image of B)); its contacts. images: their transforms
//  (empty: translations)
std::vector<StepContact> solveAcrossPeriodic
(
    ParticleSystem& across,
    const CollisionSettings& settings,
    const std::vector<PeriodicTransform>& images = {}
)
{
    constexpr long stride = 1L << 28;
    const std::vector<char> owned{1, 1, 0, 0};
    CollisionStep step(settings);
    CollisionDiagnostics diag;
    step.detect(across, diag);
    EXPECT_EQ(step.contacts().size(), 2u);
    step.resolveSweeps(across, diag);
    std::vector<BoundaryImpulse> mine;
    std::vector<int> ghost;
    ownedBoundaryImpulses(step.contacts(), owned, mine, ghost, stride, images);
    EXPECT_EQ(mine.size(), 1u);             // (A, image of B) only
    applyBoundaryImpulses(across, step.contacts(), owned, mine, stride);
    return step.contacts();
}

} // namespace


// A pair across a periodic boundary (period L in x), as one processor
// sees it with periodic images (id + k imageStride): the contact is found
// twice, (A, image of B) and (B, image of A); the one whose smaller real
// id is real (A's) is kept for both. Reference: the same pair in the
// middle of the domain (velocities to 1e-15 m/s: the images' coordinates
// are shifted by L, round-off of 1e-16 relative) and exact momentum
// balance; applying both answers would double the impulses.
TEST(BoundaryImpulses, PairAcrossAPeriodicBoundaryCollidesAsInTheMiddle)
{
    constexpr long stride = 1L << 28;     // as the OpenFOAM layer's
    const double L = 10*r;
    auto pair = [&](double xA, double xB)
    {
        ParticleSystem s;
        s.shapes.push_back(Superellipsoid(1.5*r, r, r, 1, 1));
        Pose pa, pb;
        pa.position = Vector3(xA, 0.2*r, 0);
        pa.orientation = rotationAbout(Vector3(0, 0, 1), 0.3);
        pb.position = Vector3(xB, -0.1*r, 0);
        s.particles.push_back(makeParticle(0, 0, s.shapes[0], density, pa, Vector3(1, 0, 0)));
        s.particles.push_back(makeParticle(1, 0, s.shapes[0], density, pb, Vector3(-0.5, 0, 0)));
        return s;
    };
    CollisionSettings settings;
    settings.pairLaw = ImpulseLaw::withFriction(0.8, 0.3);

    ParticleSystem middle = pair(-0.9*r, 0.9*r);
    CollisionStep stepMiddle(settings);
    CollisionDiagnostics diag;
    stepMiddle.detect(middle, diag);
    stepMiddle.resolveSweeps(middle, diag);

    // Across: A near +L/2, B near -L/2; images A - L (k = 2) and B + L (k = 1)
    ParticleSystem across = pair(0.5*L - 0.9*r, -0.5*L + 0.9*r);
    Particle imageA = across.particles[0], imageB = across.particles[1];
    imageB.id += stride;
    imageB.pose.position.x() += L;
    imageA.id += 2*stride;
    imageA.pose.position.x() -= L;
    across.particles.push_back(imageB);
    across.particles.push_back(imageA);
    std::vector<Vector3> before;
    for (const Particle& p : across.particles) before.push_back(contactMomentum(p));
    const std::vector<StepContact> contacts = solveAcrossPeriodic(across, settings);

    for (int i = 0; i < 2; ++i)
    {
        EXPECT_LT((across.particles[i].velocity - middle.particles[i].velocity).norm(), 1e-15) << i;
        EXPECT_LT((across.particles[i].angularVelocity - middle.particles[i].angularVelocity).norm()*r, 1e-15) << i;
    }
    const ContactMomentumBalance b = contactMomentumBalance(across, before, contacts, {1, 1, 0, 0});
    EXPECT_LT((b.change - b.wallImpulse).norm(), 1e-12*b.scale);
}


// The same across a rotational periodic boundary: the quarter turn R about
// z maps the side y = 0 onto the side x = 0 (x' = R x). A near x = 0 meets
// the image R B of B (B near y = 0); B meets the image R^T A of A. The
// owner's answer on the image of B, rotated back by R^T, acts on B.
// Reference: the pair (A, R B) as two real particles: A's velocity and
// spin equal, B's velocity is R^T that of R B, and its spin in its own
// frame omega' equal (a rigid rotation of a body leaves omega'). Tolerance
// 1e-15 m/s as above: R has entries 0, +-1 (exact), the orientations
// composed with R's quaternion carry round-off of 1e-16.
TEST(BoundaryImpulses, PairAcrossARotationalPeriodicBoundaryCollidesAsInTheMiddle)
{
    constexpr long stride = 1L << 28;
    Matrix3 R;
    R << 0, -1, 0,
         1, 0, 0,
         0, 0, 1;
    const PeriodicTransform quarter{R, Vector3::Zero()}, back{R.transpose(), Vector3::Zero()};

    ParticleSystem middle;
    middle.shapes.push_back(Superellipsoid(1.5*r, r, r, 1, 1));
    Pose pa, pb;
    pa.position = Vector3(0.9*r, 5.2*r, 0);
    pa.orientation = rotationAbout(Vector3(0, 0, 1), 0.3);
    pb.position = Vector3(-0.9*r, 4.9*r, 0);
    middle.particles.push_back(makeParticle(0, 0, middle.shapes[0], density, pa, Vector3(-1, 0, 0)));
    middle.particles.push_back(makeParticle(1, 0, middle.shapes[0], density, pb, Vector3(0.5, 0.1, 0)));
    CollisionSettings settings;
    settings.pairLaw = ImpulseLaw::withFriction(0.8, 0.3);
    CollisionStep stepMiddle(settings);
    CollisionDiagnostics diag;
    stepMiddle.detect(middle, diag);
    ASSERT_EQ(stepMiddle.contacts().size(), 1u);
    stepMiddle.resolveSweeps(middle, diag);

    // Across: A as in the middle, B = R^T (its partner there); images
    // R B (k = 1, rotation R) and R^T A (k = 2, rotation R^T)
    ParticleSystem across;
    across.shapes = middle.shapes;
    const Particle A = makeParticle(0, 0, middle.shapes[0], density, pa, Vector3(-1, 0, 0));
    const Particle Bm = makeParticle(1, 0, middle.shapes[0], density, pb, Vector3(0.5, 0.1, 0));
    const Particle B = periodicImage(Bm, back, 1);
    const Particle imageB = periodicImage(B, quarter, 1 + stride);
    const Particle imageA = periodicImage(A, back, 2*stride);
    across.particles = {A, B, imageB, imageA};
    solveAcrossPeriodic(across, settings, {quarter, back});

    const Particle& a = across.particles[0];
    const Particle& b = across.particles[1];
    EXPECT_LT((a.velocity - middle.particles[0].velocity).norm(), 1e-15);
    EXPECT_LT((a.angularVelocity - middle.particles[0].angularVelocity).norm()*r, 1e-15);
    EXPECT_LT((b.velocity - R.transpose()*middle.particles[1].velocity).norm(), 1e-15);
    EXPECT_LT((b.angularVelocity - middle.particles[1].angularVelocity).norm()*r, 1e-15);
    // Not the translation rule: B's velocity change taken unrotated differs
    EXPECT_GT((middle.particles[1].velocity - Bm.velocity - R.transpose()*(middle.particles[1].velocity - Bm.velocity)).norm(), 0.1);
}
