// Coplanar groups of wall faces (CoplanarGroups.H). References: exact
// geometry (which faces share a plane) and the face order of the ids.
#include "solver/CoplanarGroups.H"

#include <gtest/gtest.h>

using namespace superellipsoid;

namespace
{

//- Vertical quad strip between z0 and z1 on the line from a to b (z = 0 plane)
WallFace strip(const Vector3& a, const Vector3& b, double z0, double z1)
{
    const Vector3 pts[4] = {a + z1*Vector3::UnitZ(), b + z1*Vector3::UnitZ(), b + z0*Vector3::UnitZ(), a + z0*Vector3::UnitZ()};
    return WallFace::fromVertices(pts, 4);
}

} // namespace


TEST(CoplanarGroups, RoundOffNormalsWithAnInterleavingFaceShareAGroup)
{
    // Two faces of one facet of a meshed cylinder (the same plane, their
    // normals computed from their vertices differ by 1e-15) and the mirror
    // facet, whose normal's x component lies between theirs: a sort by
    // components put it between the two and split the plane in two groups
    // (measured in the cylinder filling: faces 282 and 283, a particle
    // touching both got two contacts and a manifold clipped to one face,
    // 3.6e-3 c of overlap left). Normals set to the measured values.
    const Vector3 a(-0.0201525433, 0.0201525433, 0), b(-0.0236968839727, 0.0158337516611, 0);
    std::vector<WallFace> faces = {strip(a, b, 0.02, 0.03), strip(a, b, 0.03, 0.04), strip(a, b, 0.02, 0.03)};
    faces[0].normal = Vector3(0.77301045576365823, -0.63439328123811445, 0);
    faces[1].normal = Vector3(0.77301045576365945, -0.63439328123811289, 0);
    // Mirror facet (y -> -y): x component between the two above
    const Vector3 am(a.x(), -a.y(), 0), bm(b.x(), -b.y(), 0);
    faces[2] = strip(bm, am, 0.02, 0.03);
    faces[2].normal = Vector3(0.77301045576365880, 0.63439328123811300, 0);
    const CoplanarGroups g = groupCoplanarFaces(faces);
    EXPECT_EQ(g.group[0], g.group[1]);
    EXPECT_NE(g.group[0], g.group[2]);
    ASSERT_EQ(g.firstFace.size(), 2u);
    EXPECT_EQ(g.firstFace[g.group[0]], 0);
    EXPECT_EQ(g.firstFace[g.group[2]], 2);
}


TEST(CoplanarGroups, DistinctPlanesAndOrderOfIds)
{
    // A box floor split in four quads (one plane), its lid (same normal
    // reversed, other offset), a parallel plane 1 mm above the floor (same
    // normal, other offset): three groups plus the lid; ids follow the
    // first face of each group in face order
    auto quad = [](const Vector3& c, const Vector3& u, const Vector3& v)
    {
        const Vector3 pts[4] = {c - u - v, c + u - v, c + u + v, c - u + v};
        return WallFace::fromVertices(pts, 4);
    };
    const Vector3 ex = Vector3::UnitX(), ey = Vector3::UnitY();
    std::vector<WallFace> faces =
    {
        quad(Vector3(0, 0, 1e-3), 0.5*ex, 0.5*ey),        // 0: raised plane
        quad(Vector3(-0.5, -0.5, 0), 0.5*ex, 0.5*ey),     // 1: floor
        quad(Vector3(0.5, 0.5, 1), 0.5*ey, 0.5*ex),       // 2: lid (normal -z)
        quad(Vector3(0.5, -0.5, 0), 0.5*ex, 0.5*ey),      // 3: floor
        quad(Vector3(-0.5, 0.5, 0), 0.5*ex, 0.5*ey),      // 4: floor
        quad(Vector3(0.5, 0.5, 0), 0.5*ex, 0.5*ey),       // 5: floor
    };
    const CoplanarGroups g = groupCoplanarFaces(faces);
    EXPECT_EQ(g.group, (std::vector<int>{0, 1, 2, 1, 1, 1}));
    EXPECT_EQ(g.firstFace, (std::vector<int>{0, 1, 2}));
    EXPECT_TRUE(groupCoplanarFaces({}).group.empty());
}
