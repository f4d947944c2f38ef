/*---------------------------------------------------------------------------*\
    STL output (src/core/output/StlSurface): the written vertices lie on the
    true surface (Eq. 3 of [Wedel2023]), one facet per triangle with the
    unit outward normal, the enclosed volume of the triangulation converges
    to the exact volume at second order, and bad input is refused.
\*---------------------------------------------------------------------------*/
#include "output/StlSurface.H"

#include <gtest/gtest.h>

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

using namespace superellipsoid;

namespace
{

struct Facet
{
    Vector3 normal;
    std::vector<Vector3> vertices;
};

//- Strict reader of the ASCII STL the writer produces
std::vector<Facet> parseStl(const std::string& text, std::string& name)
{
    std::istringstream is(text);
    std::string word;
    std::vector<Facet> facets;
    is >> word >> name;
    EXPECT_EQ(word, "solid");
    while (is >> word && word == "facet")
    {
        Facet f;
        is >> word;
        EXPECT_EQ(word, "normal");
        is >> f.normal.x() >> f.normal.y() >> f.normal.z() >> word;
        EXPECT_EQ(word, "outer");
        is >> word;
        EXPECT_EQ(word, "loop");
        for (int k = 0; k < 3; ++k)
        {
            Vector3 p;
            is >> word >> p.x() >> p.y() >> p.z();
            EXPECT_EQ(word, "vertex");
            f.vertices.push_back(p);
        }
        is >> word;
        EXPECT_EQ(word, "endloop");
        is >> word;
        EXPECT_EQ(word, "endfacet");
        facets.push_back(f);
    }
    EXPECT_EQ(word, "endsolid");
    std::string endName;
    is >> endName;
    EXPECT_EQ(endName, name);
    return facets;
}

} // namespace

TEST(StlSurface, VerticesLieOnTheTrueSurfaceWithOutwardNormals)
{
    const Superellipsoid shape(2.5, 1.2, 1.0, 0.6, 1.4);
    const SurfaceMesh mesh = shape.triangulate(10, 20);
    std::ostringstream os;
    writeStl(os, mesh, "body");
    std::string name;
    const auto facets = parseStl(os.str(), name);
    EXPECT_EQ(name, "body");
    ASSERT_EQ(facets.size(), mesh.triangles.size());
    for (const auto& f : facets)
    {
        const Vector3 centre = (f.vertices[0] + f.vertices[1] + f.vertices[2])/3;
        // 12 significant digits move a vertex by ~1e-12 of |x|; S = 0 on the
        // surface with |grad S| = O(1/c), so 1e-8 covers the rounding
        for (const auto& p : f.vertices)
        {
            EXPECT_NEAR(shape.insideOut(p), 0.0, 1e-8);
        }
        // a unit normal, pointing away from the centroid of a convex shape
        EXPECT_NEAR(f.normal.norm(), 1.0, 1e-10);
        EXPECT_GT(f.normal.dot(centre), 0.0);
        // and normal to the facet's edges (12 digits)
        EXPECT_NEAR(f.normal.dot((f.vertices[1] - f.vertices[0]).normalized()), 0.0, 1e-9);
        EXPECT_NEAR(f.normal.dot((f.vertices[2] - f.vertices[0]).normalized()), 0.0, 1e-9);
    }
}

TEST(StlSurface, EnclosedVolumeConvergesAtSecondOrder)
{
    const Superellipsoid sphere = Superellipsoid::sphere(1.0);
    const double exact = sphere.volume();
    const double coarse = std::abs(enclosedVolume(sphere.triangulate(16, 32)) - exact)/exact;
    const double fine = std::abs(enclosedVolume(sphere.triangulate(32, 64)) - exact)/exact;
    // inscribed facets: the error is O(h^2), so halving h divides it by ~4
    EXPECT_GT(coarse/fine, 3.5);
    EXPECT_LT(coarse/fine, 4.5);
    // (32, 64): sagitta ~ (pi/32)^2/8 ~ 1.2e-3 of the radius, volume ~3x that
    EXPECT_LT(fine, 5e-3);
}

TEST(StlSurface, RefusesANameWithBlanksAndBadIndices)
{
    const SurfaceMesh mesh = Superellipsoid::sphere(1.0).triangulate(4, 8);
    std::ostringstream os;
    EXPECT_THROW(writeStl(os, mesh, "two words"), std::invalid_argument);
    EXPECT_THROW(writeStl(os, mesh, ""), std::invalid_argument);
    SurfaceMesh broken = mesh;
    broken.triangles.push_back({0, 1, int(mesh.points.size())});
    EXPECT_THROW(writeStl(os, broken, "body"), std::invalid_argument);
}
