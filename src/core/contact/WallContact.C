#include "contact/WallContact.H"
#include "contact/ManifoldBuilder.H"
#include "contact/NewtonLagrange.H"
#include "contact/ParticleContact.H"
#include "contact/SupportPoint.H"

#include <algorithm>
#include <limits>
#include <cmath>

namespace superellipsoid
{

namespace
{

inline double tolerance(const Superellipsoid& s)
{
    return contactToleranceFactor*s.c();
}

//- Fill a wall contact from the particle's deepest point xA (global)
inline Contact wallContactFromPoint(const Vector3& xA, const Plane& plane)
{
    Contact c;
    c.overlap = -plane.signedDistance(xA);
    c.pointOnA = xA;
    c.pointOnB = xA + c.overlap*plane.normal;   // projection onto the wall
    c.point = 0.5*(c.pointOnA + c.pointOnB);
    c.normal = plane.normal;
    c.status = c.overlap > 0 ? ContactStatus::Touching : ContactStatus::Separated;
    c.feature = c.overlap > 0 ? WallFeature::Face : WallFeature::None;
    return c;
}

} // namespace


Contact detectWallContact(const Superellipsoid& shape, const Pose& pose, const Plane& plane)
{
    // A sphere's deepest point is x - r n: no rotation to the particle
    // frame and back (whose round-off is all that differs)
    if (shape.isSphere()) return wallContactFromPoint(pose.position - shape.a()*plane.normal, plane);
    // Part 2 in closed form: the point with n_s = -n_w is x*(-n')
    const Vector3 xs = supportPoint(shape, pose.directionToParticleFrame(-plane.normal));
    Contact c = wallContactFromPoint(pose.toGlobalFrame(xs), plane);
    // Contact point: the curvature rule with the wall's C = 0, i.e. the
    // particle's patch centre (ManifoldBuilder.H): on a flat face the
    // support point jumps with the tilt (~0.02 c for a 1e-16 tilt at eps =
    // 0.2), the face centre does not. An ellipsoid's support point is its
    // patch centre.
    if (c.touching() && !shape.isEllipsoid())
    {
        const PosedShape particle{shape, pose.particleToGlobal(), pose.position};
        ManifoldSide wall, body;
        wall.wallPoint = plane.point;
        body.body = &particle;
        c.point = curvatureContactPoint(wall, body, plane.normal, shape.c());
    }
    return c;
}


WallPart1Result wallContactPart1(const Superellipsoid& shape, const Pose& pose, const Plane& plane)
{
    // Particle frame: wall W = n'.(x - p') (Eq. 40 of [Wedel2023] with Eq. 27)
    const Vector3 n = pose.directionToParticleFrame(plane.normal);
    const Vector3 p = pose.toParticleFrame(plane.point);

    // Eqs. (39), (42) of [Wedel2023]: F = [grad S + lambda n ; n.(x - p)], J = [H n; n^T 0]
    auto eval = [&](const Vector4& z, Vector4& F, Eigen::Matrix4d& J) -> bool
    {
        const Vector3 x = z.head<3>();
        const ShapeDerivatives d = shape.derivatives(x, 2);
        F.head<3>() = d.gradient + z(3)*n;
        F(3) = n.dot(x - p);
        J.topLeftCorner<3, 3>() = d.hessian;
        J.topRightCorner<3, 1>() = n;
        J.bottomLeftCorner<1, 3>() = n.transpose();
        J(3, 3) = 0;
        return F.allFinite() && J.allFinite();
    };

    // Initial guess: the deepest particle point projected onto the wall
    const Vector3 xs = supportPoint(shape, -n);
    const Vector3 x0 = xs - n.dot(xs - p)*n;
    Vector4 z0;
    z0.head<3>() = x0;
    z0(3) = -n.dot(shape.gradient(x0));

    const double L = shape.c();
    const Vector4 w(L, L, L, 1.0/L);
    const NewtonLagrangeResult r = dampedNewtonLagrange(eval, z0, w, tolerance(shape));

    WallPart1Result out;
    out.pointOnWall = pose.toGlobalFrame(r.z.head<3>());
    out.insideOut = shape.insideOut(r.z.head<3>());
    out.iterations = r.iterations;
    out.converged = r.converged && std::isfinite(out.insideOut);
    return out;
}


namespace
{

//- Part 2, Eqs. (43)-(50) of [Wedel2023], particle frame, from x0 on (or near) the surface
NewtonLagrangeResult wallPart2Newton
(
    const Superellipsoid& shape, const Vector3& n, const Vector3& x0, double tol
)
{
    // f(x) = n.g/|g|;  grad f = H P n/|g|, P = I - g^ g^T   (Eq. 47 of [Wedel2023])
    // d(grad f)/dx = T(v)/|g| - [(H g^)(H v)^T + (H v)(H g^)^T + (n.g^) H P H]/|g|^2,
    // v = P n, T(v)_ij = T_ijk v_k                          (Eq. 49 of [Wedel2023], expanded)
    auto eval = [&](const Vector4& z, Vector4& F, Eigen::Matrix4d& J) -> bool
    {
        const Vector3 x = z.head<3>();
        const ShapeDerivatives d = shape.derivatives(x, 3);
        const double gn = d.gradient.norm();
        if (!(gn > 0))
        {
            return false;
        }
        const Vector3 gh = d.gradient/gn;
        const double ng = n.dot(gh);
        const Vector3 v = n - ng*gh;
        const Vector3 Hv = d.hessian*v;
        const Vector3 Hg = d.hessian*gh;
        const Matrix3 P = Matrix3::Identity() - gh*gh.transpose();
        const Matrix3 Tv = d.third[0]*v(0) + d.third[1]*v(1) + d.third[2]*v(2);

        F.head<3>() = Hv/gn + z(3)*d.gradient;
        F(3) = d.value;
        J.topLeftCorner<3, 3>() =
            Tv/gn
          - (Hg*Hv.transpose() + Hv*Hg.transpose() + ng*d.hessian*P*d.hessian)/(gn*gn)
          + z(3)*d.hessian;
        J.topRightCorner<3, 1>() = d.gradient;
        J.bottomLeftCorner<1, 3>() = d.gradient.transpose();
        J(3, 3) = 0;
        return F.allFinite() && J.allFinite();
    };

    Vector4 z0;
    z0.head<3>() = x0;
    {
        const ShapeDerivatives d = shape.derivatives(x0, 2);
        const double gn = d.gradient.norm();
        const Vector3 gh = d.gradient/gn;
        const Vector3 gradf = d.hessian*(n - n.dot(gh)*gh)/gn;
        z0(3) = -gradf.dot(d.gradient)/d.gradient.squaredNorm();   // least squares
        if (!std::isfinite(z0(3))) z0(3) = 0;
    }
    const double L = shape.c();
    return dampedNewtonLagrange(eval, z0, Vector4(L, L, L, 1.0), tol);
}

} // namespace


Contact detectWallContactNewton
(
    const Superellipsoid& shape, const Pose& pose, const Plane& plane,
    const ContactWarmStart* warm
)
{
    const Vector3 n = pose.directionToParticleFrame(plane.normal);
    const double tol = tolerance(shape);
    int iterations = 0;

    Vector3 x0;
    if (warm && warm->valid)
    {
        x0 = warm->pointInA;
    }
    else
    {
        // Part 1: deepest wall point inside S; not inside -> no contact
        const WallPart1Result p1 = wallContactPart1(shape, pose, plane);
        iterations += p1.iterations;
        const Vector3 xw = pose.toParticleFrame(p1.pointOnWall);
        x0 = radialProjection(shape, xw);
        if (p1.converged && p1.insideOut > 0)
        {
            // Paper's exit: separated. Report the gap along n from the
            // closed form so the overlap is still meaningful.
            Contact c = detectWallContact(shape, pose, plane);
            c.iterations = iterations;
            if (c.overlap <= 0)
            {
                return c;
            }
        }
    }

    // Part 2: the point on S whose normal is -n_w (so minimise n_w . n_s)
    NewtonLagrangeResult r = wallPart2Newton(shape, n, x0, tol);
    iterations += r.iterations;
    bool fallback = false;
    const Vector3 exact = supportPoint(shape, -n);
    // Converged means the normal condition n_s = -n_w holds to 1e-6 rad
    // (a step-size test alone is fooled near eps -> 2 vertices, where the
    // Jacobian's third derivatives are huge and steps tiny)
    auto normalResidual = [&](const Vector3& x)
    {
        return (shape.unitNormal(x) + n).norm();
    };
    if (!r.converged || !(normalResidual(r.z.head<3>()) <= wallNormalTolerance))
    {
        // Wrong stationary point (n_s = +n_w) or no convergence: restart
        // from the closed-form point (robust fallback)
        r = wallPart2Newton(shape, n, exact, tol);
        iterations += r.iterations;
        fallback = true;
        if (!r.converged || !(normalResidual(r.z.head<3>()) <= wallNormalTolerance))
        {
            // Newton cannot even hold the exact point (|n_s + n_w| at the
            // closed form is limited by the coordinate floor at vertices):
            // the closed form is the answer
            r.z.head<3>() = exact;
            r.converged = true;
        }
    }

    Contact c = wallContactFromPoint(pose.toGlobalFrame(r.z.head<3>()), plane);
    c.iterations = iterations;
    c.usedFallback = fallback;
    if (!r.converged)
    {
        c.status = ContactStatus::Failed;
    }
    return c;
}


namespace
{

//- Edge (v0, v1) of a face with normal n and outward in-plane normal m:
//  minimise depth(theta) = nu.(v0 - x*(-nu)), nu = cos n + sin m,
//  theta in [0, pi/2] (bisection on d depth/d theta = nu'.(v0 - x*))
Contact edgeContact
(
    const Superellipsoid& shape, const Pose& pose,
    const Vector3& v0, const Vector3& v1, const Vector3& n, const Vector3& m,
    int& iterations
)
{
    auto deepest = [&](const Vector3& nu) -> Vector3
    {
        return pose.toGlobalFrame(supportPoint(shape, pose.directionToParticleFrame(-nu)));
    };
    auto slope = [&](double th, Vector3& xs) -> double
    {
        const Vector3 nu = std::cos(th)*n + std::sin(th)*m;
        const Vector3 dnu = -std::sin(th)*n + std::cos(th)*m;
        xs = deepest(nu);
        return dnu.dot(v0 - xs);
    };

    // Angular tolerance: the point moves by ~ R dtheta; aim at c 1e-6
    const double angleTol = contactToleranceFactor*shape.c()/shape.boundingRadius();
    Vector3 xs;
    double lo = 0, hi = 0.5*M_PI, th;
    if (slope(hi, xs) <= 0)
    {
        th = hi;
    }
    else
    {
        while (hi - lo > angleTol)
        {
            const double mid = 0.5*(lo + hi);
            ++iterations;
            if (slope(mid, xs) < 0) lo = mid; else hi = mid;
        }
        th = 0.5*(lo + hi);
    }
    const Vector3 nu = std::cos(th)*n + std::sin(th)*m;
    xs = deepest(nu);

    Contact c;
    c.overlap = nu.dot(v0 - xs);
    c.normal = nu;
    c.pointOnA = xs;
    // Closest point of the edge line to the common-normal line
    const Vector3 t = (v1 - v0).normalized();
    const double s = t.dot(xs - v0);
    c.pointOnB = v0 + s*t;
    c.point = 0.5*(c.pointOnA + c.pointOnB);
    c.feature = WallFeature::Edge;
    c.status = c.overlap > 0 ? ContactStatus::Touching : ContactStatus::Separated;
    // Outside the segment -> not an edge contact (caller tries the vertex)
    if (s < 0 || s > (v1 - v0).norm())
    {
        c.feature = WallFeature::Vertex;
    }
    return c;
}

//- edgeContact for a sphere of radius r (closed form): depth(theta) =
//  r - nu.(x_c - v0) is smallest where nu is the direction of the centre
//  x_c from the edge line, nu = w/|w|, w = (n.d) n + (m.d) m, d = x_c - v0
//  (its component normal to the edge); the caller only asks for edges the
//  centre's projection lies beyond (m.d > 0, n.d > 0: theta inside
//  (0, pi/2), where the bisection converges to). pointOnB = the foot of
//  the centre on the edge line.
Contact sphereEdgeContact
(
    double r, const Vector3& centre,
    const Vector3& v0, const Vector3& v1, const Vector3& n, const Vector3& m
)
{
    const Vector3 d = centre - v0;
    const Vector3 nu = (n.dot(d)*n + m.dot(d)*m).normalized();
    Contact c;
    c.pointOnA = centre - r*nu;
    c.overlap = nu.dot(v0 - c.pointOnA);
    c.normal = nu;
    const Vector3 t = (v1 - v0).normalized();
    const double s = t.dot(c.pointOnA - v0);
    c.pointOnB = v0 + s*t;
    c.point = 0.5*(c.pointOnA + c.pointOnB);
    c.feature = s < 0 || s > (v1 - v0).norm() ? WallFeature::Vertex : WallFeature::Edge;
    c.status = c.overlap > 0 ? ContactStatus::Touching : ContactStatus::Separated;
    return c;
}

//- x (on the face's plane) inside the convex polygon of the face
bool insideFace(const WallFace& face, const Vector3& x)
{
    const int nv = face.nVertices;
    bool inside = true;
    for (int k = 0; k < nv && inside; ++k)
    {
        const Vector3& a = face.vertices[k];
        const Vector3& b = face.vertices[(k + 1)%nv];
        const Vector3 m = (b - a).cross(face.normal);
        inside = m.dot(x - a) <= 0;
    }
    return inside;
}


//- best = a touching vertex contact at v (the deepest so far)
void setVertexContact
(
    Contact& best, double overlap, const Vector3& normal, const Vector3& pointOnA, const Vector3& v
)
{
    best.status = ContactStatus::Touching;
    best.overlap = overlap;
    best.normal = normal;
    best.pointOnA = pointOnA;
    best.pointOnB = v;
    best.point = 0.5*(pointOnA + v);
    best.feature = WallFeature::Vertex;
}


//- The deepest edge contact over the edges that the plane's wall point
//  lies beyond; marks the vertices of the edges whose contact lies past an
//  end
Contact deepestEdgeContact
(
    const Superellipsoid& shape, const Pose& pose, const WallFace& face, const Vector3& wallPoint,
    bool sphereClosedForm, bool (&vertexCandidates)[maxFaceVertices], int& iterations
)
{
    Contact best;
    best.status = ContactStatus::Separated;
    best.overlap = -std::numeric_limits<double>::max();
    const int nv = face.nVertices;
    for (int k = 0; k < nv; ++k)
    {
        const Vector3& a = face.vertices[k];
        const Vector3& b = face.vertices[(k + 1)%nv];
        const Vector3 m = (b - a).cross(face.normal).normalized();
        if (m.dot(wallPoint - a) <= 0)
        {
            continue;
        }
        Contact e = sphereClosedForm
                  ? sphereEdgeContact(shape.a(), pose.position, a, b, face.normal, m)
                  : edgeContact(shape, pose, a, b, face.normal, m, iterations);
        if (e.feature == WallFeature::Edge)
        {
            if (e.overlap > best.overlap) best = e;
        }
        else
        {
            vertexCandidates[k] = vertexCandidates[(k + 1)%nv] = true;
        }
    }
    return best;
}


//- Replaces best by a deeper contact with a candidate vertex inside the
//  particle: the vertex's distance to the surface along the surface normal
//  (common normal of the particle and a point); for a sphere
//  r - |x_c - v| along (x_c - v)/|x_c - v| (the minimum of
//  delta(n) = r - n.(v - x_c), where the Newton start -n0 already is)
void deepestVertexContact
(
    const Superellipsoid& shape, const Pose& pose, const WallFace& face, bool sphereClosedForm,
    const bool (&vertexCandidates)[maxFaceVertices], Contact& best, int& iterations
)
{
    for (int k = 0; k < face.nVertices; ++k)
    {
        const Vector3& v = face.vertices[k];
        if (!vertexCandidates[k] || shape.insideOut(pose.toParticleFrame(v)) >= 0)
        {
            continue;
        }
        if (sphereClosedForm)
        {
            const Vector3 dv = pose.position - v;
            const double dist = dv.norm();
            const double overlap = shape.a() - dist;
            if (dist > 0 && overlap > best.overlap)
            {
                const Vector3 normal = dv/dist;
                setVertexContact(best, overlap, normal, pose.position - shape.a()*normal, v);
            }
            continue;
        }
        Pose pointPose;
        pointPose.position = v;
        const Vector3 n0 = (pose.position - v).normalized();
        const CommonNormalResult r = refineCommonNormal
        (
            shape, pose, nullptr, pointPose, -n0, contactToleranceFactor*shape.c()
        );
        iterations += r.iterations;
        if (r.converged && !r.separated && r.overlap > best.overlap)
        {
            // normal from the wall into the particle
            setVertexContact(best, r.overlap, -r.normal, r.pointOnA, v);
        }
    }
}

} // namespace


Contact detectFaceContact(const Superellipsoid& shape, const Pose& pose, const WallFace& face)
{
    return detectFaceContact(shape, pose, face, shape.isSphere());
}


Contact detectFaceContact
(
    const Superellipsoid& shape, const Pose& pose, const WallFace& face, bool sphereClosedForm
)
{
    const Plane plane = face.plane();
    // One-sided face: a particle whose centre is behind it (in the solid)
    // belongs to other faces (or has tunnelled); no contact with this one
    if (plane.signedDistance(pose.position) <= 0)
    {
        Contact none;
        none.status = ContactStatus::Separated;
        none.normal = plane.normal;
        return none;
    }
    Contact c = detectWallContact(shape, pose, plane);
    if (!c.touching())
    {
        return c;
    }
    // Interior: the wall point of the plane result inside the polygon
    if (insideFace(face, c.pointOnB))
    {
        c.feature = WallFeature::Face;
        return c;
    }

    // Edges the plane point lies beyond, then their vertices
    int iterations = 0;
    bool vertexCandidates[maxFaceVertices] = {false};
    Contact best = deepestEdgeContact
    (
        shape, pose, face, c.pointOnB, sphereClosedForm, vertexCandidates, iterations
    );
    deepestVertexContact(shape, pose, face, sphereClosedForm, vertexCandidates, best, iterations);
    if (!(best.overlap > 0))
    {
        Contact sep = c;
        sep.status = ContactStatus::Separated;
        sep.feature = WallFeature::None;
        sep.overlap = std::min(0.0, best.overlap > -1e300 ? best.overlap : 0.0);
        sep.iterations = iterations;
        return sep;
    }
    best.status = ContactStatus::Touching;
    best.iterations = iterations;
    return best;
}


int selectWallContacts
(
    const Contact* contacts, int n, Contact* out, double regionAngle, double mergeDistance
)
{
    // One contact is its own region (most particles touch one face or none)
    if (n <= 1)
    {
        if (n == 0 || !contacts[0].touching()) return 0;
        out[0] = contacts[0];
        return 1;
    }
    int nOut = 0;
    // Greedy regions from the deepest: selection by repeated max (n small)
    const int nUse = std::min(n, 256);
    bool used[256];
    std::fill_n(used, nUse, false);
    const double cosMax = std::cos(regionAngle);

    // An edge/vertex contact whose particle point lies behind the plane of
    // a touching face-interior contact is covered by that face (a concave
    // "valley" edge, e.g. inside a faceted pipe): drop it
    for (int i = 0; i < nUse; ++i)
    {
        const WallFeature fi = contacts[i].feature;
        if (!contacts[i].touching() || (fi != WallFeature::Edge && fi != WallFeature::Vertex))
        {
            continue;
        }
        for (int k = 0; k < nUse && !used[i]; ++k)
        {
            const Contact& f = contacts[k];
            used[i] = k != i && f.touching() && f.feature == WallFeature::Face
                   && f.normal.dot(contacts[i].pointOnA - f.pointOnB) < 0;
        }
    }
    while (true)
    {
        int best = -1;
        for (int i = 0; i < nUse; ++i)
        {
            if (!used[i] && contacts[i].touching()
             && (best < 0 || contacts[i].overlap > contacts[best].overlap))
            {
                best = i;
            }
        }
        if (best < 0)
        {
            return nOut;
        }
        used[best] = true;
        bool joins = false;
        for (int r = 0; r < nOut && !joins; ++r)
        {
            joins = out[r].normal.dot(contacts[best].normal) >= cosMax
                 && (out[r].pointOnA - contacts[best].pointOnA).norm() < mergeDistance;
        }
        if (!joins)
        {
            out[nOut++] = contacts[best];
        }
    }
}

} // namespace superellipsoid
