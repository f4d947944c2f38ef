// Fuzz target: superellipsoid - wall contact (seed 004 Sect. 3.4):
// detectWallContact (closed form), wallContactPart1 and detectWallContactNewton
// (the paper's Newton method, cold and warm), detectFaceContact on a convex
// polygon (interior, edge, vertex) and selectWallContacts.
// Checks: well-formed contacts (finite, unit normal, status consistent with
// the overlap); the closed-form overlap equals the exact support distance;
// the manifolds of the plane and face contacts (checkManifold).
#include "FuzzInput.H"

#include "contact/ManifoldGeometry.H"
#include "contact/SupportPoint.H"
#include "contact/WallContact.H"

#include <stdexcept>
#include <vector>

using namespace superellipsoid;
using namespace superellipsoid::fuzz;

namespace
{

//- Convex polygon of 3..8 vertices in the plane (centre c, normal n),
//  counter-clockwise around n: regular or with random angles, radius rho
bool convexPolygon(Input& in, const Vector3& c, const Vector3& n, double rho, WallFace& face)
{
    const int nv = in.integer(3, maxFaceVertices);
    const Vector3 t1 = n.unitOrthogonal();
    const Vector3 t2 = n.cross(t1);
    const bool regular = in.flag();
    const double phase = in.uniform(0, 2*pi);
    double angles[maxFaceVertices];
    for (int k = 0; k < nv; ++k)
    {
        angles[k] = regular ? 2*pi*k/nv : in.uniform(0, 2*pi);
    }
    std::sort(angles, angles + nv);
    Vector3 pts[maxFaceVertices];
    for (int k = 0; k < nv; ++k)
    {
        const double phi = phase + angles[k];
        pts[k] = c + rho*(std::cos(phi)*t1 + std::sin(phi)*t2);
    }
    try
    {
        face = WallFace::fromVertices(pts, nv);
    }
    catch (const std::invalid_argument&)
    {
        return false;                   // degenerate polygon: rejected input, fine
    }
    // Points on one circle in angular order: convex and counter-clockwise
    // around n, unless all angles fall within pi (then still convex; the
    // Newell normal is +n whenever the area is not round-off)
    return face.normal.dot(n) > 0.5;
}

} // namespace


extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    Input in(data, size);
    const Superellipsoid shape = in.shape(1e-6, 1e2);
    Pose pose;
    pose.position = in.position(shape.a());
    pose.orientation = in.orientation();
    const Vector3 n = in.direction();          // wall normal, into the fluid

    // Plane at f x (extent of the particle towards the wall); f < 0: the
    // plane is beyond the centre (particle mostly or fully inside the wall)
    const Vector3 nParticle = pose.directionToParticleFrame(-n);
    const double extent = supportValue(shape, nParticle);
    requireFinite(extent, "support value finite");
    require(extent > 0, "support value positive", extent);
    double f = in.separationFraction();
    if (in.byte() % 4 == 0) f = -f;
    Plane plane;
    plane.normal = n;
    plane.point = pose.position - f*extent*n;
    if (in.flag()) plane.point += in.uniform(-10, 10)*shape.a()*n.unitOrthogonal();   // in-plane shift

    // Closed form: overlap = extent - (signed distance of the centre)
    const Contact exact = detectWallContact(shape, pose, plane);
    checkContact(exact);
    require(exact.status != ContactStatus::Failed, "closed-form wall contact never fails");
    const double expected = extent - plane.signedDistance(pose.position);
    const double scale = shape.a() + std::abs(plane.signedDistance(pose.position))
                       + (pose.position.norm() + plane.point.norm());
    require(std::abs(exact.overlap - expected) <= 1e-9*scale,
            "closed-form overlap equals the support distance", exact.overlap - expected);
    checkManifold(wallManifold(shape, pose, plane, exact), exact, scale, shape, pose);

    // The paper's Newton method (Part 1, then Part 2), cold and warm
    const WallPart1Result part1 = wallContactPart1(shape, pose, plane);
    requireFinite(part1.pointOnWall, "Part 1 point finite");
    requireFinite(part1.insideOut, "Part 1 S finite");
    require(part1.iterations >= 0, "Part 1 iterations >= 0", part1.iterations);
    const Contact newton = detectWallContactNewton(shape, pose, plane);
    checkContact(newton);
    ContactWarmStart warm;
    warm.valid = true;
    warm.pointInA = shape.halfAxes().cwiseProduct
    (
        in.uniformVector(-1, 1)
    );
    warm.normalInA = in.direction();
    checkContact(detectWallContactNewton(shape, pose, plane, &warm));

    // Finite face around a point of the plane near the particle
    const Vector3 foot = pose.position - plane.signedDistance(pose.position)*n;
    const Vector3 t = n.unitOrthogonal();
    const double alongT = in.uniform(-3, 3);
    const double alongNxT = in.uniform(-3, 3);
    const Vector3 centre = foot + shape.a()*alongT*t + shape.a()*alongNxT*n.cross(t);
    const double rho = shape.a()*in.logUniform(1e-3, 1e2);
    std::vector<Contact> contacts{exact};
    for (int k = 0, nFaces = in.integer(1, 4); k < nFaces; ++k)
    {
        // Further faces tilted (a corner or a faceted curved wall)
        Vector3 nk = n;
        if (k > 0)
        {
            const double tilt = in.uniform(-2, 2);
            nk = (n + tilt*in.direction()).normalized();
            if (!nk.allFinite()) continue;
        }
        WallFace face;
        if (!convexPolygon(in, centre + k*rho*t, nk, rho, face)) continue;
        Contact fc = detectFaceContact(shape, pose, face);
        checkContact(fc);
        checkManifold(wallManifold(shape, pose, face, fc), fc, scale, shape, pose);
        if (fc.touching())
        {
            require(fc.feature != WallFeature::None, "touching face contact names its feature");
        }
        fc.faceIndex = k;
        contacts.push_back(fc);
    }

    std::vector<Contact> selected(contacts.size());
    const int nSelected = selectWallContacts
    (
        contacts.data(), int(contacts.size()), selected.data(), in.uniform(0, pi)
    );
    require(nSelected >= 0 && nSelected <= int(contacts.size()), "selected count in range", nSelected);
    for (int k = 0; k < nSelected; ++k)
    {
        checkContact(selected[k]);
        require(selected[k].touching(), "selected contacts are touching");
    }
    return 0;
}
