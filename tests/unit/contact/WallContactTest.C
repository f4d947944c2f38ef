// Superellipsoid-wall contact ([Wedel2023] Sect. 3.4): plane, paper's Newton path, faces.
#include "ContactTestHelpers.H"
#include "contact/SupportPoint.H"
#include "contact/WallContact.H"

#include <gtest/gtest.h>

#include <limits>

#include <vector>

using namespace superellipsoid;
using namespace superellipsoid::testing;

namespace
{

Plane randomPlane(std::mt19937_64& rng)
{
    return Plane{Vector3(uniform(rng, -3, 3), uniform(rng, -3, 3), uniform(rng, -3, 3)), randomUnit(rng)};
}

} // namespace

// Reference: overlap = r - (distance of the centre to the plane), normal = n.
// Exact to round-off: 1e-12 relative. The deepest point is x - r n to the
// bit (no rotation), and the support point rotated to the particle frame and
// back differs from it by the rotations' round-off only (1e-14 r)
TEST(SpherePlane, OverlapAndNormalExact)
{
    std::mt19937_64 rng(10);
    for (int i = 0; i < 500; ++i)
    {
        const double r = uniform(rng, 0.1, 3);
        const Superellipsoid s = Superellipsoid::sphere(r);
        const Plane w = randomPlane(rng);
        Pose p;
        p.orientation = randomOrientation(rng);
        const double dist = uniform(rng, 0.5, 1.0)*r;
        p.position = w.point + Vector3(uniform(rng, -1, 1), uniform(rng, -1, 1), 0) + dist*w.normal;
        p.position += dist*w.normal - w.signedDistance(p.position)*w.normal;   // exactly dist
        const double expected = r - w.signedDistance(p.position);
        const Contact c = detectWallContact(s, p, w);
        ASSERT_EQ(c.status, ContactStatus::Touching);
        EXPECT_NEAR(c.overlap, expected, 1e-12*r);
        EXPECT_NEAR((c.normal - w.normal).norm(), 0.0, 1e-12);
        // Contact points: on the sphere along -n from the centre, and on the wall
        EXPECT_TRUE(c.pointOnA == p.position - r*w.normal);
        const Vector3 rotated = p.toGlobalFrame(supportPoint(s, p.directionToParticleFrame(-w.normal)));
        EXPECT_NEAR((c.pointOnA - rotated).norm(), 0.0, 1e-14*r);
        EXPECT_NEAR(w.signedDistance(c.pointOnB), 0.0, 1e-12*r);
    }
}

// Reference: for an ellipsoid the deepest extent below the centre is the
// support function h(n) = sqrt(n'^T diag(a^2,b^2,c^2) n'), n' = R n, so
// overlap = h - n.(r_c - p). Round-off only: 1e-12 relative.
TEST(EllipsoidPlane, OverlapFromSupportFunction)
{
    std::mt19937_64 rng(11);
    for (int i = 0; i < 500; ++i)
    {
        const Superellipsoid s(uniform(rng, 2, 3), uniform(rng, 1, 2), uniform(rng, 0.3, 1), 1.0, 1.0);
        const Plane w = randomPlane(rng);
        Pose p;
        p.orientation = randomOrientation(rng);
        p.position = w.point + uniform(rng, 0, 2)*w.normal;
        const Vector3 np = p.directionToParticleFrame(w.normal);
        const Vector3 h2 = s.halfAxes().cwiseProduct(s.halfAxes());
        const double h = std::sqrt(np.cwiseProduct(np).dot(h2));
        const double expected = h - w.signedDistance(p.position);
        const Contact c = detectWallContact(s, p, w);
        EXPECT_NEAR(c.overlap, expected, 1e-12*s.a());
        EXPECT_EQ(c.status, expected > 0 ? ContactStatus::Touching : ContactStatus::Separated);
    }
}

// The paper's Newton method (Part 1 + Part 2, Eqs. 32-50 of [Wedel2023], with third
// derivatives) converges to the closed-form extreme point. Tolerance: the
// Newton tolerance c 1e-6 of [Wedel2023] (a quadratic last step is far below).
// Part 2 restarts from the closed form when its own start fails (counted as a
// fallback); the paper's start must succeed in >= 90 % of all cases and
// >= 50 % per eps pair (measured: the misses are eps -> 2 vertex regions,
// where S is nearly non-smooth; 16 of 40 at eps1 = eps2 = 1.8). Part 1 must find a wall point inside S whenever there is overlap.
TEST(SuperellipsoidPlane, PaperNewtonEqualsClosedFormForAllSquareness)
{
    std::mt19937_64 rng(12);
    const double epsValues[] = {0.2, 0.5, 1.0, 1.5, 1.8};
    ContactCounters all;
    int part1NotConverged = 0, part1Runs = 0;
    for (double e1 : epsValues)
    {
        for (double e2 : epsValues)
        {
            const Superellipsoid s(1.6, 1.2, 0.8, e1, e2);
            ContactCounters counters;
            for (int i = 0; i < 40; ++i)
            {
                const Plane w = randomPlane(rng);
                Pose p;
                p.orientation = randomOrientation(rng);
                // Near contact: overlap between -0.05 c and 0.3 c
                p.position = w.point;
                const double h = supportValue(s, p.directionToParticleFrame(-w.normal));
                p.position = w.point + (h - uniform(rng, -0.05, 0.3)*s.c())*w.normal;
                const Contact exact = detectWallContact(s, p, w);
                const Contact newton = detectWallContactNewton(s, p, w);
                counters.record(newton);
                const double tol = 1e-6*s.c();
                ASSERT_NE(newton.status, ContactStatus::Failed) << e1 << " " << e2;
                EXPECT_NEAR(newton.overlap, exact.overlap, tol) << e1 << " " << e2;
                if (exact.touching())
                {
                    EXPECT_NEAR((newton.pointOnA - exact.pointOnA).norm(), 0.0, 10*tol) << e1 << " " << e2;
                    const WallPart1Result p1 = wallContactPart1(s, p, w);
                    ++part1Runs;
                    part1NotConverged += !p1.converged;
                    EXPECT_LT(p1.insideOut, 0.0);
                    EXPECT_NEAR(w.signedDistance(p1.pointOnWall), 0.0, tol);
                }
            }
            EXPECT_LE(counters.fallbacks, 20) << e1 << " " << e2;
            all += counters;
        }
    }
    EXPECT_EQ(all.failures, 0);
    EXPECT_LE(part1NotConverged, part1Runs/10);
    EXPECT_LE(all.fallbacks, all.detections/10);
    std::printf("[ Newton wall path ] %ld detections, mean %.2f iterations, max %d, Part 2 restarts %ld;"
        " Part 1 unconverged %d of %d\n", all.detections, all.meanIterations(), all.maxIterations,
        all.fallbacks, part1NotConverged, part1Runs);
}

// Reference: a face is a finite piece of the plane; when the deepest point's
// foot lies inside the polygon the face result equals the plane result.
TEST(FaceContact, InteriorTouchGivesThePlaneResult)
{
    std::mt19937_64 rng(13);
    const Vector3 quad[4] = {{-5, -5, 0}, {5, -5, 0}, {5, 5, 0}, {-5, 5, 0}};
    const WallFace face = WallFace::fromVertices(quad, 4);
    EXPECT_NEAR((face.normal - Vector3::UnitZ()).norm(), 0.0, 1e-15);
    for (int i = 0; i < 100; ++i)
    {
        const Superellipsoid s = randomShape(rng, 0.2, 1.8, 3);
        Pose p;
        p.orientation = randomOrientation(rng);
        p.position = Vector3(uniform(rng, -1, 1), uniform(rng, -1, 1), 0);
        p.position.z() = supportValue(s, p.directionToParticleFrame(-Vector3::UnitZ())) - 0.1*s.c();
        const Contact a = detectFaceContact(s, p, face);
        const Contact b = detectWallContact(s, p, face.plane());
        ASSERT_EQ(a.feature, WallFeature::Face);
        EXPECT_EQ(a.overlap, b.overlap);
        EXPECT_EQ(a.normal, b.normal);
    }
}

namespace
{

//- Solid cylinder of radius R around the z axis meshed by nFaces quads with
//  outward normals (fluid outside); or the fluid inside (pipe) when inward.
std::vector<WallFace> facetedCylinder(double R, int nFaces, double zLo, double zHi, bool fluidInside)
{
    std::vector<WallFace> faces;
    for (int k = 0; k < nFaces; ++k)
    {
        const double t0 = 2*M_PI*k/nFaces, t1 = 2*M_PI*(k + 1)/nFaces;
        const Vector3 a(R*std::cos(t0), R*std::sin(t0), zLo), b(R*std::cos(t1), R*std::sin(t1), zLo);
        const Vector3 c(b.x(), b.y(), zHi), d(a.x(), a.y(), zHi);
        const Vector3 v[4] = {a, b, c, d};
        const Vector3 vr[4] = {d, c, b, a};
        faces.push_back(WallFace::fromVertices(fluidInside ? vr : v, 4));
    }
    return faces;
}

//- The contacts selectWallContacts keeps of a body at pose p against every face
std::vector<Contact> selectedFaceContacts
(
    const Superellipsoid& s, const Pose& p, const std::vector<WallFace>& faces,
    double mergeDistance = std::numeric_limits<double>::infinity()
)
{
    std::vector<Contact> contacts;
    for (int f = 0; f < int(faces.size()); ++f)
    {
        Contact k = detectFaceContact(s, p, faces[f]);
        k.faceIndex = f;
        contacts.push_back(k);
    }
    std::vector<Contact> out(contacts.size());
    out.resize(selectWallContacts
    (
        contacts.data(), int(contacts.size()), out.data(), defaultWallRegionAngle, mergeDistance
    ));
    return out;
}

} // namespace

// A sphere touching the ridge between two faces of a faceted solid cylinder
// (fluid outside). Reference: the contact of a sphere with a straight edge
// has normal (centre - closest edge point)/|..| and overlap r - distance.
// Both faces report the same edge; the region rule keeps exactly one.
TEST(FaceContact, RidgeOfFacetedCylinderGivesOneEdgeContactWithRadialNormal)
{
    const int nFaces = 12;
    const double R = 5;
    const auto faces = facetedCylinder(R, nFaces, -2, 2, false);
    const double r = 0.5;
    const Superellipsoid s = Superellipsoid::sphere(r);
    // Ridge between faces 0 and 1 at angle 30 deg, a vertex-free part (z = 0.3)
    const double th = 2*M_PI/nFaces;
    const Vector3 ridge(R*std::cos(th), R*std::sin(th), 0.3);
    for (double offsetDeg : {0.0, 3.0, -4.0})
    {
        const double phi = th + offsetDeg*M_PI/180;
        const Vector3 dir(std::cos(phi), std::sin(phi), 0);
        Pose p;
        p.position = ridge + (r - 0.05)*dir;
        p.orientation = Quaternion(Eigen::AngleAxisd(0.7, Vector3(1, 2, 3).normalized()));
        const std::vector<Contact> selected = selectedFaceContacts(s, p, faces);
        ASSERT_EQ(selected.size(), 1u) << offsetDeg;
        const Contact& c = selected[0];
        // Expected: distance from the centre to the ridge line (parallel to z)
        Vector3 toCentre = p.position - ridge;
        toCentre.z() = 0;
        const double dist = toCentre.norm();
        // Does the sphere see the ridge or a face interior? Inside the edge's
        // normal cone [n_0, n_1] it is an edge contact with the radial normal.
        if (std::abs(offsetDeg) < 0.5*360.0/nFaces)
        {
            EXPECT_EQ(c.feature, WallFeature::Edge);
            // Bisection tolerance c 1e-6 on the angle -> 1e-6 on unit vectors
            EXPECT_NEAR((c.normal - toCentre/dist).norm(), 0.0, 2e-6) << offsetDeg;
            EXPECT_NEAR(c.overlap, r - dist, 1e-6*r) << offsetDeg;
        }
    }
}

// A particle inside a faceted pipe (fluid inside) near the corner between two
// faces touches both face planes (normals 30 deg apart): one region -> one
// contact, the deeper one ([Wedel2023] Sect. 3.4.3). Two perpendicular walls
// (box corner, 90 deg) are two regions -> two contacts.
TEST(FaceContact, OneContactPerTouchingWallRegion)
{
    const auto faces = facetedCylinder(5, 12, -2, 2, true);
    const Superellipsoid s(1.0, 0.6, 0.5, 0.5, 1.0);
    const double th = 2*M_PI/12;
    Pose p;
    p.position = Vector3(4.6*std::cos(th*1.1), 4.6*std::sin(th*1.1), 0.0);
    p.orientation = Quaternion(Eigen::AngleAxisd(th*1.1 + 0.2, Vector3::UnitZ()));
    std::vector<Contact> contacts;
    for (const WallFace& f : faces) contacts.push_back(detectFaceContact(s, p, f));
    int touching = 0;
    double deepest = 0;
    for (const Contact& c : contacts)
    {
        touching += c.touching();
        if (c.touching()) deepest = std::max(deepest, c.overlap);
    }
    ASSERT_GE(touching, 2);                       // the configuration is a real double touch
    std::vector<Contact> selected(contacts.size());
    ASSERT_EQ(selectWallContacts(contacts.data(), int(contacts.size()), selected.data()), 1);
    EXPECT_EQ(selected[0].overlap, deepest);

    // Box corner: floor z = 0 and wall x = 0, particle in the corner
    const Vector3 floorV[4] = {{0, -5, 0}, {5, -5, 0}, {5, 5, 0}, {0, 5, 0}};
    const Vector3 wallV[4] = {{0, -5, 0}, {0, 5, 0}, {0, 5, 5}, {0, -5, 5}};
    const WallFace floorF = WallFace::fromVertices(floorV, 4), wallF = WallFace::fromVertices(wallV, 4);
    ASSERT_NEAR(wallF.normal.x(), 1.0, 1e-15);
    Pose q;
    q.position = Vector3(0.9, 0, 0.45);
    const Contact two[2] = {detectFaceContact(s, q, floorF), detectFaceContact(s, q, wallF)};
    ASSERT_TRUE(two[0].touching() && two[1].touching());
    Contact out[2];
    EXPECT_EQ(selectWallContacts(two, 2, out), 2);
}

// Inside the filling's pipe (D = 57 mm, 64 facets of 5.6 deg), a
// cylinder-like body (radius and half length c = 4.41 mm, eps1 = 0.2)
// lying with its axis along the wall's tangent touches the wall with both
// ends (the chord's sagitta c^2/(2R) = 0.08 c lifts its middle off): two
// places, 2c apart, within one region. Merged into one (the seed's rule,
// infinite mergeDistance) the end left out is not constrained; with
// mergeDistance 0.5 c both ends are contacts. A sphere at the valley
// between two facets touches both at points r 5.6 deg = 0.1 r apart: one
// contact either way.
TEST(FaceContact, ContactsOfOneRegionAtTwoPlacesAreKeptApart)
{
    const int nFaces = 64;
    const double R = 0.0285, dTheta = 2*M_PI/nFaces, c = 4.41e-3;
    const auto faces = facetedCylinder(R, nFaces, -0.1, 0.1, true);
    // Axis z' along the tangent at the middle of facet 0, x' radial
    const Superellipsoid cylinder(c, c, c, 0.2, 1.0);
    const double phi = 0.5*dTheta;
    const Vector3 radial(std::cos(phi), std::sin(phi), 0), tangent(-std::sin(phi), std::cos(phi), 0);
    Matrix3 Q;
    Q.col(0) = radial;
    Q.col(1) = -Vector3::UnitZ();
    Q.col(2) = tangent;
    ASSERT_NEAR(Q.determinant(), 1.0, 1e-14);
    Pose p;
    p.orientation = Quaternion(Q);
    // Radial position of the centre at which the deepest facet contact is
    // 0.02 c (bisection; the rounded rims lie inside the ideal cylinder's)
    auto deepest = [&](double rho)
    {
        p.position = rho*radial;
        double d = -1;
        for (const WallFace& f : faces)
        {
            const Contact k = detectFaceContact(cylinder, p, f);
            if (k.touching()) d = std::max(d, k.overlap);
        }
        return d;
    };
    double lo = R - 2*c, hi = R;
    for (int i = 0; i < 60; ++i) (deepest(0.5*(lo + hi)) < 0.02*c ? lo : hi) = 0.5*(lo + hi);
    deepest(hi);
    const std::vector<Contact> seed = selectedFaceContacts(cylinder, p, faces);
    const std::vector<Contact> kept = selectedFaceContacts(cylinder, p, faces, wallMergeFraction*c);
    ASSERT_EQ(seed.size(), 1u);
    ASSERT_EQ(kept.size(), 2u);
    // One contact at each end: particle points along the axis at -+c (to
    // the rim's rounding), both ends in the wall
    const double along0 = tangent.dot(kept[0].pointOnA - p.position);
    const double along1 = tangent.dot(kept[1].pointOnA - p.position);
    EXPECT_LT(along0*along1, 0);
    EXPECT_GT(std::abs(along0 - along1), 1.5*c);
    for (const Contact& k : kept) EXPECT_GT(k.overlap, 0);

    // Sphere of radius c at the valley between facets 0 and 1, 0.01 c deep
    const Superellipsoid sphere = Superellipsoid::sphere(c);
    const Vector3 valley(std::cos(dTheta), std::sin(dTheta), 0);
    Pose q;
    q.position = (R*std::cos(0.5*dTheta) + 0.01*c - c)/std::cos(0.5*dTheta)*valley;
    std::vector<Contact> both;
    for (int f = 0; f < 2; ++f) both.push_back(detectFaceContact(sphere, q, faces[f]));
    ASSERT_TRUE(both[0].touching() && both[1].touching());
    EXPECT_EQ(selectedFaceContacts(sphere, q, faces, wallMergeFraction*c).size(), 1u);
}


// A vertex of a face poking into a particle: reference for a sphere is
// overlap r - |v - c| along (c - v)/|c - v|.
TEST(FaceContact, VertexInsideSphereGivesRadialNormal)
{
    const Vector3 tri[3] = {{0, 0, 0}, {-3, 0.5, 0}, {-2, -2, 0}};
    const WallFace face = WallFace::fromVertices(tri, 3);
    ASSERT_GT(face.normal.z(), 0.0);
    const double r = 1;
    Pose p;
    p.position = Vector3(0.5, 0.3, 0.6);
    const Contact c = detectFaceContact(Superellipsoid::sphere(r), p, face);
    ASSERT_TRUE(c.touching());
    EXPECT_EQ(c.feature, WallFeature::Vertex);
    const Vector3 d = p.position;   // vertex at the origin
    EXPECT_NEAR(c.overlap, r - d.norm(), 1e-6*r);
    EXPECT_NEAR((c.normal - d.normalized()).norm(), 0.0, 1e-6);
}
