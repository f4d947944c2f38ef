#include "contact/ManifoldBuilder.H"
#include "contact/ManifoldGeometry.H"

#include <algorithm>
#include <limits>
#include <cmath>

namespace superellipsoid
{

namespace
{

//- Eigen decomposition of a symmetric 2x2 matrix, ascending
struct Eigen2
{
    double lambda[2];
    Vector2 e[2];

    explicit Eigen2(const Matrix2& K)
    {
        const double mean = 0.5*(K(0, 0) + K(1, 1));
        const double dev = std::sqrt(0.25*(K(0, 0) - K(1, 1))*(K(0, 0) - K(1, 1)) + K(0, 1)*K(0, 1));
        lambda[0] = mean - dev;
        lambda[1] = mean + dev;
        // Eigenvector of the larger eigenvalue, the better conditioned form
        const Vector2 v1(K(0, 1), lambda[1] - K(0, 0)), v2(lambda[1] - K(1, 1), K(0, 1));
        Vector2 v = v1.squaredNorm() >= v2.squaredNorm() ? v1 : v2;
        if (!(v.squaredNorm() > 0)) v = Vector2::UnitX();   // isotropic
        e[1] = v.normalized();
        e[0] = Vector2(-e[1].y(), e[1].x());
    }
};


//- Support point (global) of a side with outward normal d
Vector3 sideSupport(const ManifoldSide& side, const Vector3& d, SupportGeometry& g)
{
    if (!side.body) return side.wallPoint;
    g = supportGeometry(side.body->shape, side.body->Q.transpose()*d);
    return side.body->Q*g.point + side.body->position;
}


//- Height along n (relative to q) of the lower side's surface (largest)
//  or of the upper side's (smallest) at the line q + s n; false: missed
bool sideHeight
(
    const ManifoldSide& side, bool lower, const Vector3& n, const Vector3& support,
    const Vector3& q, double tol, double& h
)
{
    if (!side.body)
    {
        h = n.dot(side.wallPoint - q);
        return true;
    }
    const Vector3 u = lower ? n : Vector3(-n);
    double s;
    if (!surfaceAlongLine(*side.body, q, u, u.dot(support - q), tol, s)) return false;
    h = lower ? s : -s;
    return true;
}


//- Direction of a body's patch centre, in its particle frame: the support
//  direction with its components zeroed along the body's axes that lie
//  within manifoldSnapAngle of the tangent plane and along which the
//  surface is flat at the support point (curvature below
//  manifoldSnapCurvature/c of the body: a curved surface, even a large
//  sphere, moves its support point smoothly and is never snapped). On a flat
//  face or along a flat edge the support point jumps with the direction
//  (by ~ tilt^(eps/(2 - eps)): 0.25 c for a 4e-6 rad tilt, 0.02 c for
//  round-off, at eps = 0.2); the snapped direction has exact zeros, so its
//  support point is the face's (edge's) centre, fixed in the body: the
//  patch polygon moves with the body and not with the tilt.
Vector3 patchDirection(const PosedShape& body, const Vector3& d, const SupportGeometry& g)
{
    const double kSnap = manifoldSnapCurvature/body.shape.c();
    Vector3 dP = body.Q.transpose()*d;
    const SupportSecondOrder s = supportGradientHessian(body.shape, g);
    const double gn = s.gradient.norm();
    if (!(gn > 0) || !s.hessian.allFinite()) return dP;
    const Vector3 m = s.gradient/gn;
    const double snapSin = std::sin(manifoldSnapAngle);
    const double dn = dP.norm();
    for (int k = 0; k < 3; ++k)
    {
        if (!(std::abs(dP(k)) < snapSin*dn)) continue;
        Vector3 t = -m(k)*m;
        t(k) += 1;
        if (!(t.dot(s.hessian*t) < kSnap*gn*t.squaredNorm())) continue;
        dP(k) = 0;
    }
    return dP.squaredNorm() > 0 ? dP : Vector3(body.Q.transpose()*d);
}


//- What the point rule and the manifold share: support points (the
//  extremes along n), patch centres and their directions, the tangent
//  frame and the curvature tensors' sum K = C_L + C_U
struct ContactFrame
{
    double tau, kFlat;
    Vector3 pL, pU, cL, cU, dL, dU;
    Vector3 dLP, dUP;   //- dL, dU in the particle frames (exact zeros where snapped)
    TangentFrame frame;
    Eigen2 eig;
    Vector2 r;      //- C_L c_L + C_U c_U (tangent coordinates)

    //- p = (C_L + C_U)^+ (C_L c_L + C_U c_U), tangent coordinates about
    //  the weighted patch centre (frame.origin). The pseudo-inverse is regularised,
    //  lambda/(lambda^2 + lambda0^2) with lambda0 = 1e-2 kFlat: 1/lambda to
    //  1e-4 where the direction is curved (lambda >= kFlat), -> 0 (the
    //  mid-point) where it is flat, continuous in between
    Vector2 tensorPoint() const
    {
        const double l0 = 1e-2*kFlat;
        Vector2 p = Vector2::Zero();
        for (int i = 0; i < 2; ++i)
        {
            const double l = eig.lambda[i];
            if (l > 0) p += (eig.e[i].dot(r)*l/(l*l + l0*l0))*eig.e[i];
        }
        return p.allFinite() ? p : Vector2::Zero();
    }
};


//- How far x lies outside the body's bounding box (largest excess over
//  the half extents, in the particle frame), less the round-off of the
//  test itself: 1e-9 of the body's size and a few ulps of the
//  coordinates. A wall: -infinity (always near)
double boxExcess(const ManifoldSide& side, const Vector3& x)
{
    if (!side.body) return -std::numeric_limits<double>::infinity();
    const Vector3 xp = (side.body->Q.transpose()*(x - side.body->position)).cwiseAbs();
    const double roundoff =
        1e-9*side.body->shape.boundingRadius()
      + 8*std::numeric_limits<double>::epsilon()*(side.body->position.norm() + x.norm());
    return (xp - side.body->shape.boundingBoxHalfExtents()).maxCoeff() - roundoff;
}


//- The contact point of the curvature rule on the mid-plane; where it
//  leaves a body's bounding box grown by the overlap (a deep containment,
//  where the support point of the large body lies on its far rim and the
//  common normal's patches do not face each other), the weighted patch
//  centre, which lies at the smaller body; where that leaves one too (a
//  large body's patch centre snapped to its far face centre beside a thin
//  body), the mid-point of the support points, where the two surfaces
//  touch; where that leaves one too (two needles crossed at a common
//  centre, 7.5 c deep: the support points lie at their far tips, fuzz
//  corpus input particleContact/crash-crossedNeedles), the smaller body's
//  centre. If none is near both, the candidate that leaves the boxes least
Vector3 rulePoint
(
    const ContactFrame& f, const ManifoldSide& lower, const ManifoldSide& upper, double margin
)
{
    // Grown by the patches' depth tolerance tau too: the point lies on the
    // mid-plane through the support points, and where a support point has
    // jumped along a flat face the plane of a normal tilted by theta lies
    // theta |p - p_L| off the face at p (a small body at a plate's edge:
    // without tau the point would fall to the support points' midpoint,
    // off the small body; fuzz corpus input
    // particleContact/crash-edgeTouchTilt)
    auto excess = [&](const Vector3& x)
    {
        return x.allFinite() ? std::max(boxExcess(lower, x), boxExcess(upper, x))
                             : std::numeric_limits<double>::infinity();
    };
    const ManifoldSide& smaller =
        !upper.body || (lower.body && lower.body->shape.boundingRadius() <= upper.body->shape.boundingRadius())
      ? lower : upper;
    const Vector3 mid = 0.5*(f.pL + f.pU);
    const Vector3 candidates[] =
        {f.frame.lift(f.tensorPoint()), f.frame.origin, mid, smaller.body ? smaller.body->position : mid};
    Vector3 best = mid;
    double bestExcess = std::numeric_limits<double>::infinity();
    for (const Vector3& x : candidates)
    {
        const double e = excess(x);
        if (e <= margin + f.tau) return x;
        if (e < bestExcess) { best = x; bestExcess = e; }
    }
    return best;
}


ContactFrame contactFrame
(
    const ManifoldSide& lower, const ManifoldSide& upper, const Vector3& n, double lengthScale,
    const SupportGeometry* knownL = nullptr, const SupportGeometry* knownU = nullptr
)
{
    // A direction is flat where a cut tau below a parabola of curvature
    // lambda is wider than manifoldFlatWidth c: lambda < 2 tau/(w c)^2
    const double tau = manifoldDepthTolerance*lengthScale;
    const double w = manifoldFlatWidth*lengthScale;
    const double kFlat = 2*tau/(w*w);

    // Support points and patch centres (a wall: the foot of the other side's)
    SupportGeometry gL, gU;
    Vector3 pL = knownL && lower.body ? Vector3(lower.body->Q*knownL->point + lower.body->position)
                                      : sideSupport(lower, n, gL);
    Vector3 pU = knownU && upper.body ? Vector3(upper.body->Q*knownU->point + upper.body->position)
                                      : sideSupport(upper, -n, gU);
    if (knownL) gL = *knownL;
    if (knownU) gU = *knownU;
    Vector3 dL = n, dU = -n, cL = pL, cU = pU, dLP = n, dUP = -n;
    SupportGeometry hL = gL, hU = gU;   // at the patch centres
    auto centre = [&](const PosedShape& body, const Vector3& d, const SupportGeometry& g,
                      Vector3& dC, Vector3& dP, Vector3& c, SupportGeometry& h)
    {
        // An ellipsoid has no flat direction (curvature >= c/a^2 > 1e-2/c
        // below aspect 10): its support point is the patch centre
        if (body.shape.isEllipsoid())
        {
            dP = body.Q.transpose()*d;
            return;
        }
        dP = patchDirection(body, d, g);
        h = supportGeometry(body.shape, dP);
        c = body.Q*h.point + body.position;
        dC = (body.Q*dP).normalized();
    };
    if (lower.body) centre(*lower.body, n, gL, dL, dLP, cL, hL);
    if (upper.body) centre(*upper.body, -n, gU, dU, dUP, cU, hU);
    if (!lower.body) cL = pL = cU + n.dot(lower.wallPoint - cU)*n;
    if (!upper.body) cU = pU = cL + n.dot(upper.wallPoint - cL)*n;
    // Tangentially between the patch centres, weighted towards the smaller
    // body's (R_U c_L + R_L c_U)/(R_L + R_U), R the bounding radii: the
    // point of a flat direction, the midpoint for equal bodies and the
    // small body's centre for a small face on a large one (the plain
    // midpoint left it off the small body); along n at the mid-plane of
    // the support points
    const double RL = lower.body ? lower.body->shape.boundingRadius() : 0.0;
    const double RU = upper.body ? upper.body->shape.boundingRadius() : 0.0;
    const Vector3 mid = RL + RU > 0 ? Vector3((RU*cL + RL*cU)/(RL + RU)) : Vector3(0.5*(cL + cU));
    const TangentFrame frame(mid + n.dot(0.5*(pL + pU) - mid)*n, n);

    // Curvature tensors at the patch centres (a wall: 0): at a jumped
    // support point of a flat face the curvature is small but not zero
    // (~1e-4/c at 0.25 c from the centre for eps = 0.2)
    const Matrix2 CL = lower.body ? curvatureTensor(*lower.body, hL, frame.t1, frame.t2) : Matrix2::Zero();
    const Matrix2 CU = upper.body ? curvatureTensor(*upper.body, hU, frame.t1, frame.t2) : Matrix2::Zero();
    const Vector2 r = CL*frame.project(cL) + CU*frame.project(cU);
    return ContactFrame{tau, kFlat, pL, pU, cL, cU, dL, dU, dLP, dUP, frame, Eigen2(CL + CU), r};
}

} // namespace


Vector3 curvatureContactPoint
(
    const ManifoldSide& lower, const ManifoldSide& upper, const Vector3& n, double lengthScale,
    const SupportGeometry* supportL, const SupportGeometry* supportU
)
{
    // A wall (C = 0): p = C^+ C (c - o) + o = o, the body's patch centre
    // on the mid-plane, without the curvature tensors
    if (!lower.body != !upper.body)
    {
        const bool bodyIsLower = lower.body != nullptr;
        const ManifoldSide& b = bodyIsLower ? lower : upper;
        const ManifoldSide& wall = bodyIsLower ? upper : lower;
        const Vector3 d = bodyIsLower ? n : Vector3(-n);
        SupportGeometry g;
        const Vector3 p = sideSupport(b, d, g);
        Vector3 c = p;
        if (!b.body->shape.isEllipsoid())
        {
            const SupportGeometry h = supportGeometry(b.body->shape, patchDirection(*b.body, d, g));
            c = b.body->Q*h.point + b.body->position;
        }
        const double midHeight = 0.5*(n.dot(p) + n.dot(wall.wallPoint));
        const Vector3 point = c + (midHeight - n.dot(c))*n;
        return point.allFinite() ? point : p;
    }
    const ContactFrame f = contactFrame(lower, upper, n, lengthScale, supportL, supportU);
    const Vector3 p = rulePoint(f, lower, upper, std::abs(n.dot(f.pL - f.pU)));
    return p.allFinite() ? p : Vector3(0.5*(f.pL + f.pU));
}


namespace
{

//- One point, the curvature rule's, with the detected overlap
ContactManifold onePointManifold
(
    const ContactFrame& f, const ManifoldSide& lower, const ManifoldSide& upper,
    const Vector3& n, double overlap
)
{
    ContactManifold m;
    m.normal = n;
    m.count = 1;
    m.points[0].point = rulePoint(f, lower, upper, std::abs(overlap));
    m.points[0].depth = overlap;
    return m;
}


//- Patch polygon of one side in tangent coordinates: a body's rim of
//  0.01 rad normal tilt (ContactPatch.H); a wall face its polygon; an
//  infinite plane none (n < 0)
PatchPolygon sidePolygon
(
    const ManifoldSide& side, const Vector3& d, const Vector3& support, const TangentFrame& frame
)
{
    PatchPolygon p;
    if (side.body)
    {
        p = patchPolygon(*side.body, d, support, frame);
    }
    else if (side.face)
    {
        p.n = side.face->nVertices;
        for (int k = 0; k < p.n; ++k) p.v[k] = frame.project(side.face->vertices[k]);
        if (p.signedArea() < 0) std::reverse(p.v.begin(), p.v.begin() + p.n);
    }
    else
    {
        p.n = -1;
    }
    return p;
}


//- Contact region: the intersection of the two patch polygons (the
//  smaller one where either is degenerate, the other one against a plane)
PatchPolygon contactRegion(const ManifoldSide& lower, const ManifoldSide& upper, const ContactFrame& f)
{
    const PatchPolygon polyL = sidePolygon(lower, f.dLP, f.cL, f.frame);
    const PatchPolygon polyU = sidePolygon(upper, f.dUP, f.cU, f.frame);
    if (polyL.n < 0) return polyU;
    if (polyU.n < 0) return polyL;
    if (polyL.n < 3 || polyU.n < 3) return polyL.n <= polyU.n ? polyL : polyU;
    return clipPolygon(polyL, polyU);
}


//- Tangent locations of the points: a line contact (direction 0 flat,
//  1 curved) the ends of the region along the flat direction, across it
//  the curvature rule; a face contact the largest-area quadrilateral of
//  the region. Returns their number.
int tangentLocations
(
    const PatchPolygon& region, const ContactFrame& f, bool lineContact, double lengthScale,
    Vector2 (&loc)[maxManifoldPoints]
)
{
    const Eigen2& eig = f.eig;
    int nLoc = 0;
    if (lineContact)
    {
        const Vector2 across = (eig.e[1].dot(f.r)/eig.lambda[1])*eig.e[1];
        double lo = 1e300, hi = -1e300;
        for (int i = 0; i < region.n; ++i)
        {
            const double t = eig.e[0].dot(region.v[i]);
            lo = std::min(lo, t);
            hi = std::max(hi, t);
        }
        loc[nLoc++] = across + lo*eig.e[0];
        if (hi - lo > contactToleranceFactor*lengthScale) loc[nLoc++] = across + hi*eig.e[0];
    }
    else
    {
        std::array<int, 4> chosen;
        nLoc = reducePolygon(region, chosen);
        for (int i = 0; i < nLoc; ++i) loc[i] = region.v[chosen[i]];
    }
    return nLoc;
}

} // namespace


ContactManifold buildManifold
(
    const ManifoldSide& lower, const ManifoldSide& upper,
    const Vector3& n, double overlap, double lengthScale
)
{
    const ContactFrame f = contactFrame(lower, upper, n, lengthScale);
    const bool flat0 = !(f.eig.lambda[0] >= f.kFlat);
    const bool flat1 = !(f.eig.lambda[1] >= f.kFlat);
    if (!flat0 && !flat1)
    {
        return onePointManifold(f, lower, upper, n, overlap);
    }
    const PatchPolygon region = contactRegion(lower, upper, f);
    if (region.n <= 0)
    {
        return onePointManifold(f, lower, upper, n, overlap);
    }
    Vector2 loc[maxManifoldPoints];
    const int nLoc = tangentLocations(region, f, flat0 && !flat1, lengthScale, loc);

    // Depth at each location: overlap of the two surfaces along n there
    ContactManifold m;
    m.normal = n;
    const double tol = 1e-9*lengthScale;
    double deepest = -1e300;
    for (int i = 0; i < nLoc; ++i)
    {
        const Vector3 q = f.frame.lift(loc[i]);
        double hL, hU;
        if
        (
            !sideHeight(lower, true, n, f.pL, q, tol, hL)
         || !sideHeight(upper, false, n, f.pU, q, tol, hU)
        )
        {
            continue;
        }
        // On the local mid-surface, halfway between the two surfaces along
        // n: inside both bodies where they overlap there, half the gap from
        // each where they do not
        ManifoldPoint& mp = m.points[m.count++];
        mp.point = q + 0.5*(hL + hU)*n;
        mp.depth = hL - hU;
        deepest = std::max(deepest, mp.depth);
    }
    if (m.count == 0)
    {
        return onePointManifold(f, lower, upper, n, overlap);
    }
    // A face's patch points lie near its rim, up to ~1e-3 c above its
    // deepest point (8e-4 c at the corners of eps = 0.2): a common shift
    // makes the deepest point's depth the detected overlap (differences
    // between the points stay exact)
    const double shift = overlap - deepest;
    for (int i = 0; i < m.count; ++i) m.points[i].depth += shift;
    return m;
}

} // namespace superellipsoid
