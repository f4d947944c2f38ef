/*---------------------------------------------------------------------------*\
    VTK PolyData output (src/core/output/VtkPolyData): the written surface
    points lie on the true surface of their particle (Eq. 3 of [Wedel2023] after the
    inverse of Eq. 27 of [Wedel2023]), the triangulation counts and connectivity, outward
    triangles and normals, the exact round trip of the particle state, and
    the errors for invalid input. Every file is parsed by a strict XML
    reader (MiniXml.H).
\*---------------------------------------------------------------------------*/
#include "output/AtomicFile.H"
#include "output/MiniXml.H"
#include "output/VtkPolyData.H"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <cstdint>
#include <cstring>
#include <limits>
#include <map>
#include <random>
#include <sstream>
#include <unistd.h>

using namespace superellipsoid;

namespace
{

constexpr double machineEps = std::numeric_limits<double>::epsilon();

//- Shapes of the tutorials and a general one: sphere, prolate, oblate,
//  cube-like, diamond-like, cylinder-like, a >= b >= c with mixed eps
std::vector<Superellipsoid> testShapes()
{
    return
    {
        Superellipsoid::sphere(5e-3),
        Superellipsoid(8e-3, 4e-3, 4e-3, 1.0, 1.0),
        Superellipsoid(6e-3, 6e-3, 3e-3, 1.0, 1.0),
        Superellipsoid(4e-3, 4e-3, 4e-3, 0.2, 0.2),
        Superellipsoid(4e-3, 4e-3, 4e-3, 1.6, 1.6),
        Superellipsoid(4e-3, 4e-3, 4e-3, 0.2, 1.0),
        Superellipsoid(9e-3, 5e-3, 2e-3, 0.1, 1.9)
    };
}

//- Two particles of every shape at random positions in a 1 m box (centres
//  up to ~1 m: the rounding of the coordinates matters) with random
//  orientations, velocities and angular velocities
std::vector<VtkParticle> testParticles(int nShapes, std::uint64_t seed = 7)
{
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> U(-1, 1);
    std::vector<VtkParticle> particles;
    for (int k = 0; k < 2*nShapes; ++k)
    {
        VtkParticle p;
        p.id = 1000 + 3*k;              // ids need not be contiguous
        p.shapeId = k % nShapes;
        p.pose.position = Vector3(U(rng), U(rng), 0.5 + 0.5*U(rng));
        p.pose.orientation = randomOrientation(rng);
        p.velocity = Vector3(U(rng), U(rng), U(rng));
        p.angularVelocity = 100*Vector3(U(rng), U(rng), U(rng));
        particles.push_back(p);
    }
    return particles;
}

std::unique_ptr<testing_xml::Node> surfacesXml
(
    const std::vector<VtkParticle>& particles,
    const std::vector<Superellipsoid>& shapes,
    const SurfaceResolution& res,
    VtkWriteSummary* summary = nullptr
)
{
    std::ostringstream os;
    const VtkWriteSummary s = writeSurfacesVtp(os, particles, shapes, res);
    if (summary) *summary = s;
    return testing_xml::parse(os.str());
}

std::vector<double> array(const testing_xml::Node& root, const std::string& name)
{
    const testing_xml::Node* a = root.find("DataArray", name);
    if (!a) throw std::runtime_error("no DataArray " + name);
    return a->values();
}

} // namespace


// Every written surface point, mapped back to its particle frame with the
// pose (inverse of Eq. 27 of [Wedel2023]), satisfies S = 0 (Eq. 3; S + 1 = 1 in the brief's
// notation). Measured with the gauge lambda = (S + 1)^(eps1/2), homogeneous of
// degree 1 (lambda = 1 on the surface). For eps1, eps2 <= 2 the shape is
// convex and contains the octahedron |x/a| + |y/b| + |z/c| <= 1, whose
// inradius is >= c/sqrt(3): the gauge is Lipschitz with constant sqrt(3)/c.
// Rounding to surfacePointDigits moves a point by at most
// delta = sqrt(3)/2 10^(1 - digits) max|x_i|, hence
// |lambda - 1| <= sqrt(3) delta / c (+ 64 eps of transform round-off).
TEST(SurfaceFile, EveryPointLiesOnItsParticlesTrueSurface)
{
    const std::vector<Superellipsoid> shapes = testShapes();
    const std::vector<VtkParticle> particles = testParticles(int(shapes.size()));
    const SurfaceResolution res{12, 24};
    const auto xml = surfacesXml(particles, shapes, res);
    const std::vector<double> x = array(*xml, "Points");
    ASSERT_EQ(long(x.size()), 3*long(particles.size())*res.pointsPerParticle());

    double worstRatio = 0;
    long k = 0;
    for (const VtkParticle& p : particles)
    {
        const Superellipsoid& s = shapes[p.shapeId];
        for (long j = 0; j < res.pointsPerParticle(); ++j, ++k)
        {
            const Vector3 r(x[3*k], x[3*k + 1], x[3*k + 2]);
            const double X = r.cwiseAbs().maxCoeff();
            const double delta = 0.5*std::sqrt(3.0)*std::pow(10.0, 1 - surfacePointDigits)*X;
            const double tol = std::sqrt(3.0)*delta/s.c() + 64*machineEps;
            const double gauge = std::pow(s.insideOut(p.pose.toParticleFrame(r)) + 1, 0.5*s.eps1());
            ASSERT_LE(std::abs(gauge - 1), tol) << "particle " << p.id << " point " << j;
            worstRatio = std::max(worstRatio, std::abs(gauge - 1)/tol);
        }
    }
    // The bound is attained to within three orders of magnitude: the check
    // would see e.g. points written with two digits fewer
    EXPECT_GT(worstRatio, 1e-3);
}


// The same points written at the identity pose at the origin are exact to
// the written digits: |error| <= 10^(1 - digits) a (a = largest coordinate)
TEST(SurfaceFile, PointsAtTheOriginAreExactToTheWrittenDigits)
{
    const std::vector<Superellipsoid> shapes = testShapes();
    std::vector<VtkParticle> particles(shapes.size());
    for (std::size_t i = 0; i < shapes.size(); ++i) particles[i].shapeId = int(i);
    const SurfaceResolution res{6, 8};
    const auto xml = surfacesXml(particles, shapes, res);
    const std::vector<double> x = array(*xml, "Points");
    long k = 0;
    for (const VtkParticle& p : particles)
    {
        const SurfaceMesh mesh = shapes[p.shapeId].triangulate(res.nEta, res.nOmega);
        for (const Vector3& xp : mesh.points)
        {
            const Vector3 r(x[3*k], x[3*k + 1], x[3*k + 2]);
            ++k;
            EXPECT_LE((r - xp).norm(), std::pow(10.0, 1 - surfacePointDigits)*shapes[p.shapeId].a());
        }
    }
}


// Counts: 2 + (nEta - 1) nOmega points and 2 nOmega (nEta - 1) triangles per
// particle (Superellipsoid::triangulate), in the header, the arrays and the
// summary; every triangle uses the points of its own particle's block; the
// cell data repeat each particle's id and shape id once per triangle
TEST(SurfaceFile, CountsAndConnectivityMatchTheTriangulation)
{
    const std::vector<Superellipsoid> shapes = testShapes();
    const std::vector<VtkParticle> particles = testParticles(int(shapes.size()));
    const SurfaceResolution res{5, 7};
    VtkWriteSummary summary;
    const auto xml = surfacesXml(particles, shapes, res, &summary);
    const long n = long(particles.size());
    const long nPoints = n*(2 + 4*7), nCells = n*2*7*4;
    EXPECT_EQ(summary.points, nPoints);
    EXPECT_EQ(summary.cells, nCells);
    const testing_xml::Node* piece = xml->find("Piece");
    ASSERT_TRUE(piece);
    EXPECT_EQ(piece->attr("NumberOfPoints"), std::to_string(nPoints));
    EXPECT_EQ(piece->attr("NumberOfPolys"), std::to_string(nCells));
    const std::vector<double> conn = array(*xml, "connectivity");
    const std::vector<double> offsets = array(*xml, "offsets");
    const std::vector<double> ids = array(*xml, "particleId");
    const std::vector<double> shapeIds = array(*xml, "shapeId");
    ASSERT_EQ(long(conn.size()), 3*nCells);
    ASSERT_EQ(long(offsets.size()), nCells);
    ASSERT_EQ(long(ids.size()), nCells);
    ASSERT_EQ(long(shapeIds.size()), nCells);
    EXPECT_EQ(long(array(*xml, "Normals").size()), 3*nPoints);
    for (long c = 0; c < nCells; ++c)
    {
        EXPECT_EQ(offsets[c], 3.0*(c + 1));
        const long owner = c/res.trianglesPerParticle();
        EXPECT_EQ(ids[c], double(particles[owner].id));
        EXPECT_EQ(shapeIds[c], double(particles[owner].shapeId));
        for (int v = 0; v < 3; ++v)
        {
            EXPECT_EQ(long(conn[3*c + v])/res.pointsPerParticle(), owner) << "triangle " << c;
        }
    }
}


// Triangles are counter-clockwise seen from outside: the geometric normal of
// every triangle points away from its (convex) particle's centre, and the
// written point normals agree with the exact outward normal (Eq. 30 of [Wedel2023])
// rotated to the global frame, to their 6 written digits (normals are
// evaluated at the unrounded particle-frame points)
TEST(SurfaceFile, TrianglesAndNormalsFaceOutwards)
{
    const std::vector<Superellipsoid> shapes = testShapes();
    const std::vector<VtkParticle> particles = testParticles(int(shapes.size()), 11);
    const SurfaceResolution res{12, 24};
    const auto xml = surfacesXml(particles, shapes, res);
    const std::vector<double> x = array(*xml, "Points");
    const std::vector<double> conn = array(*xml, "connectivity");
    const std::vector<double> normals = array(*xml, "Normals");
    auto point = [&](long i) { return Vector3(x[3*i], x[3*i + 1], x[3*i + 2]); };
    for (long c = 0; c < long(conn.size())/3; ++c)
    {
        const VtkParticle& p = particles[c/res.trianglesPerParticle()];
        const Vector3 a = point(long(conn[3*c])), b = point(long(conn[3*c + 1])), d = point(long(conn[3*c + 2]));
        const Vector3 n = (b - a).cross(d - a);
        if (n.norm() == 0) continue;      // degenerate pole triangles of very flat caps
        EXPECT_GT(n.dot((a + b + d)/3 - p.pose.position), 0) << "triangle " << c;
    }
    long k = 0;
    for (const VtkParticle& p : particles)
    {
        const SurfaceMesh mesh = shapes[p.shapeId].triangulate(res.nEta, res.nOmega);
        for (const Vector3& xp : mesh.points)
        {
            const Vector3 expected = p.pose.directionToGlobalFrame(shapes[p.shapeId].unitNormal(xp));
            const Vector3 written(normals[3*k], normals[3*k + 1], normals[3*k + 2]);
            ++k;
            // 6 significant digits: each component within 5e-6 relative of 1
            EXPECT_LE((written - expected).cwiseAbs().maxCoeff(), 5e-6);
        }
    }
}


// The particles file holds the state exactly (max_digits10 round trip):
// centres, quaternion (w x y z), OVITO orientation (x y z w), half axes,
// epsilons, roundness (eps2 eps1), velocity, global angular velocity, ids
TEST(ParticlesFile, RoundTripsTheStateExactly)
{
    const std::vector<Superellipsoid> shapes = testShapes();
    const std::vector<VtkParticle> particles = testParticles(int(shapes.size()), 3);
    std::ostringstream os;
    const VtkWriteSummary summary = writeParticlesVtp(os, particles, shapes);
    const auto xml = testing_xml::parse(os.str());
    const long n = long(particles.size());
    EXPECT_EQ(summary.particles, n);
    EXPECT_EQ(xml->find("Piece")->attr("NumberOfVerts"), std::to_string(n));
    const auto x = array(*xml, "Points"), q = array(*xml, "quaternion"), o = array(*xml, "orientation"),
               h = array(*xml, "halfAxes"), e1 = array(*xml, "epsilon1"), e2 = array(*xml, "epsilon2"),
               rd = array(*xml, "roundness"), v = array(*xml, "velocity"), w = array(*xml, "angularVelocity"),
               id = array(*xml, "id"), sid = array(*xml, "shapeId"), conn = array(*xml, "connectivity");
    ASSERT_EQ(long(q.size()), 4*n);
    for (long i = 0; i < n; ++i)
    {
        const VtkParticle& p = particles[i];
        const Superellipsoid& s = shapes[p.shapeId];
        const Quaternion e = normalisedOrientation(p.pose.orientation);
        for (int j = 0; j < 3; ++j)
        {
            EXPECT_EQ(x[3*i + j], p.pose.position(j));
            EXPECT_EQ(v[3*i + j], p.velocity(j));
            EXPECT_EQ(w[3*i + j], p.angularVelocity(j));
            EXPECT_EQ(h[3*i + j], s.halfAxes()(j));
        }
        EXPECT_EQ(q[4*i], e.w());
        EXPECT_EQ(q[4*i + 1], e.x());
        EXPECT_EQ(q[4*i + 2], e.y());
        EXPECT_EQ(q[4*i + 3], e.z());
        EXPECT_EQ(o[4*i], e.x());
        EXPECT_EQ(o[4*i + 3], e.w());
        EXPECT_EQ(e1[i], s.eps1());
        EXPECT_EQ(e2[i], s.eps2());
        EXPECT_EQ(rd[2*i], s.eps2());
        EXPECT_EQ(rd[2*i + 1], s.eps1());
        EXPECT_EQ(id[i], double(p.id));
        EXPECT_EQ(sid[i], double(p.shapeId));
        EXPECT_EQ(conn[i], double(i));
    }
}


namespace
{

//- The arrays of a binary (raw appended) file by name: the XML part (up to
//  the appended data, closed) parsed strictly, each array decoded at its
//  offset (UInt64 byte count, then values of its type) after the '_'
//  marker; the count must match the array's size and the file must end
//  right after the last array with the closing tags
std::map<std::string, std::vector<double>> binaryArrays(const std::string& file)
{
    const std::string marker = "<AppendedData encoding=\"raw\">\n_";
    const std::size_t at = file.find(marker);
    if (at == std::string::npos) throw std::runtime_error("no raw appended data");
    const auto xml = testing_xml::parse(file.substr(0, at) + "</VTKFile>\n");
    if (xml->attr("header_type") != "UInt64") throw std::runtime_error("header_type not UInt64");
    const char* raw = file.data() + at + marker.size();
    std::map<std::string, std::vector<double>> arrays;
    std::size_t end = 0;
    std::vector<const testing_xml::Node*> stack{xml.get()};
    while (!stack.empty())
    {
        const testing_xml::Node* n = stack.back();
        stack.pop_back();
        for (const auto& c : n->children) stack.push_back(c.get());
        if (n->name != "DataArray") continue;
        if (n->attr("format") != "appended") throw std::runtime_error(n->attr("Name") + " not appended");
        const std::size_t offset = std::stoul(n->attr("offset"));
        std::uint64_t bytes;
        std::memcpy(&bytes, raw + offset, sizeof(bytes));
        const std::string type = n->attr("type");
        const std::size_t size = type == "Float64" || type == "Int64" ? 8 : 4;
        std::vector<double>& v = arrays[n->attr("Name")];
        for (std::size_t k = 0; k < bytes/size; ++k)
        {
            const char* b = raw + offset + sizeof(bytes) + k*size;
            if (type == "Float64") { double x; std::memcpy(&x, b, 8); v.push_back(x); }
            else if (type == "Float32") { float x; std::memcpy(&x, b, 4); v.push_back(x); }
            else if (type == "Int64") { std::int64_t x; std::memcpy(&x, b, 8); v.push_back(double(x)); }
            else { std::int32_t x; std::memcpy(&x, b, 4); v.push_back(double(x)); }
        }
        end = std::max(end, offset + sizeof(bytes) + std::size_t(bytes));
    }
    const std::string tail(raw + end, file.data() + file.size());
    if (tail != "\n</AppendedData>\n</VTKFile>\n") throw std::runtime_error("bad tail after the data");
    return arrays;
}

} // namespace


// Binary files (raw appended data) hold the same arrays as the ASCII ones:
// the particles' state and every integer array exactly, surface points to
// the ASCII file's rounding (surfacePointDigits: 0.5 10^(1 - digits) of a
// coordinate of up to ~1 m), normals to the 6 ASCII digits (the binary
// ones are floats, 6e-8); the surfaces file is smaller (a point: 3
// doubles and 3 floats against ~3 x 14 + 3 x 9 characters; a triangle: 3
// Int32 and 2 ids against 3 indices and 2 ids of a few digits each)
std::vector<double> asciiArray(const std::string& file, const std::string& name)
{
    return array(*testing_xml::parse(file), name);
}

TEST(BinaryFile, HoldsTheSameArraysAsTheAsciiFile)
{
    const std::vector<Superellipsoid> shapes = testShapes();
    const std::vector<VtkParticle> particles = testParticles(int(shapes.size()), 5);
    const SurfaceResolution res{6, 10};
    std::ostringstream sa, sb, pa, pb;
    writeSurfacesVtp(sa, particles, shapes, res, VtkFormat::ascii);
    writeSurfacesVtp(sb, particles, shapes, res, VtkFormat::binary);
    writeParticlesVtp(pa, particles, shapes, VtkFormat::ascii);
    writeParticlesVtp(pb, particles, shapes, VtkFormat::binary);

    const auto particlesBinary = binaryArrays(pb.str());
    EXPECT_EQ(particlesBinary.size(), 13u);
    for (const auto& [name, values] : particlesBinary)
    {
        EXPECT_EQ(values, asciiArray(pa.str(), name)) << name;
    }

    // Cell connectivity and offsets are single-component arrays (VTK's
    // reader rejects others)
    for (const std::string& file : {sa.str(), pa.str()})
    {
        const auto xml = testing_xml::parse(file);
        for (const char* name : {"connectivity", "offsets"})
        {
            EXPECT_EQ(xml->find("DataArray", name)->attr("NumberOfComponents"), "") << name;
        }
    }

    const auto surfacesBinary = binaryArrays(sb.str());
    EXPECT_EQ(surfacesBinary.size(), 6u);
    for (const char* name : {"connectivity", "offsets", "particleId", "shapeId"})
    {
        EXPECT_EQ(surfacesBinary.at(name), asciiArray(sa.str(), name)) << name;
    }
    const std::vector<double> x = asciiArray(sa.str(), "Points"), n = asciiArray(sa.str(), "Normals");
    ASSERT_EQ(surfacesBinary.at("Points").size(), x.size());
    ASSERT_EQ(surfacesBinary.at("Normals").size(), n.size());
    for (std::size_t k = 0; k < x.size(); ++k)
    {
        EXPECT_NEAR(surfacesBinary.at("Points")[k], x[k], 0.5*std::pow(10.0, 1 - surfacePointDigits)*1.1);
        EXPECT_NEAR(surfacesBinary.at("Normals")[k], n[k], 1e-6);
    }
    std::printf("surfaces of %zu particles at (6 10): ascii %zu B, binary %zu B\n",
                particles.size(), sa.str().size(), sb.str().size());
    EXPECT_LT(sb.str().size(), sa.str().size());

    // Empty files are valid too
    std::ostringstream e;
    writeParticlesVtp(e, {}, shapes, VtkFormat::binary);
    EXPECT_TRUE(binaryArrays(e.str()).at("Points").empty());
}


// No particles: valid, empty files
TEST(ParticlesFile, NoParticlesGiveValidEmptyFiles)
{
    const std::vector<Superellipsoid> shapes = testShapes();
    std::ostringstream a, b;
    writeSurfacesVtp(a, {}, shapes);
    writeParticlesVtp(b, {}, shapes);
    EXPECT_EQ(testing_xml::parse(a.str())->find("Piece")->attr("NumberOfPoints"), "0");
    EXPECT_EQ(testing_xml::parse(b.str())->find("Piece")->attr("NumberOfVerts"), "0");
}


// Invalid input throws std::invalid_argument naming the particle and value,
// before anything is written
TEST(InvalidInput, NamesTheParticleAndTheValue)
{
    const std::vector<Superellipsoid> shapes = testShapes();
    auto message = [&](const VtkParticle& p, bool surfaces)
    {
        std::ostringstream os;
        try
        {
            if (surfaces) writeSurfacesVtp(os, {p}, shapes);
            else writeParticlesVtp(os, {p}, shapes);
        }
        catch (const std::invalid_argument& e)
        {
            EXPECT_TRUE(os.str().empty());
            return std::string(e.what());
        }
        return std::string("no exception");
    };
    VtkParticle p;
    p.id = 42;
    p.shapeId = 7;
    for (bool surfaces : {true, false})
    {
        p.shapeId = 7;
        EXPECT_NE(message(p, surfaces).find("particle 42: shapeId 7"), std::string::npos);
        p.shapeId = 0;
        p.velocity.x() = std::nan("");
        EXPECT_NE(message(p, surfaces).find("non-finite velocity"), std::string::npos);
        p.velocity.x() = 0;
        p.pose.orientation = Quaternion(0, 0, 0, 0);
        EXPECT_NE(message(p, surfaces).find("particle 42"), std::string::npos);
        p.pose.orientation = Quaternion::Identity();
    }
    std::ostringstream os;
    EXPECT_THROW(writeSurfacesVtp(os, {p}, shapes, SurfaceResolution{1, 24}), std::invalid_argument);
    EXPECT_THROW(writeSurfacesVtp(os, {p}, shapes, SurfaceResolution{12, 2}), std::invalid_argument);
}


// Files are replaced atomically: a writer that fails leaves the previous
// file and no temporary; an unwritable path names the file
TEST(AtomicFile, FailedWriteKeepsThePreviousFile)
{
    namespace fs = std::filesystem;
    const fs::path dir = fs::temp_directory_path()/("sefoam_vtk_" + std::to_string(::getpid()));
    fs::create_directories(dir);
    const std::string file = (dir/"surfaces.vtp").string();
    const std::vector<Superellipsoid> shapes = testShapes();
    const std::vector<VtkParticle> particles = testParticles(int(shapes.size()));
    const VtkWriteSummary s = writeSurfacesVtp(file, particles, shapes);
    std::ifstream is(file);
    std::stringstream content;
    content << is.rdbuf();
    EXPECT_EQ(testing_xml::parse(content.str())->find("Piece")->attr("NumberOfPolys"), std::to_string(s.cells));

    VtkParticle bad = particles[0];
    bad.shapeId = 99;
    EXPECT_THROW(writeSurfacesVtp(file, {bad}, shapes), std::invalid_argument);
    std::ifstream again(file);
    std::stringstream after;
    after << again.rdbuf();
    EXPECT_EQ(after.str(), content.str());
    EXPECT_FALSE(fs::exists(file + ".tmp"));

    const std::string nowhere = (dir/"missing"/"x.vtp").string();
    try
    {
        writeParticlesVtp(nowhere, particles, shapes);
        ADD_FAILURE() << "no exception";
    }
    catch (const std::runtime_error& e)
    {
        EXPECT_NE(std::string(e.what()).find(nowhere), std::string::npos);
    }
    fs::remove_all(dir);
}
