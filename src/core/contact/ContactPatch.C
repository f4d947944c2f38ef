#include "contact/ContactPatch.H"

#include <algorithm>
#include <cmath>
#include <limits>

namespace superellipsoid
{

double PatchPolygon::signedArea() const
{
    double a = 0;
    for (int i = 0; i < n; ++i)
    {
        const Vector2& p = v[i];
        const Vector2& q = v[(i + 1)%n];
        a += p.x()*q.y() - q.x()*p.y();
    }
    return 0.5*a;
}


Vector2 PatchPolygon::centroid() const
{
    Vector2 mean = Vector2::Zero();
    for (int i = 0; i < n; ++i) mean += v[i];
    if (n == 0) return mean;
    mean /= n;
    // Area centroid about the vertex mean (independent of duplicated
    // vertices, which the clipping may leave)
    double a = 0;
    Vector2 c = Vector2::Zero();
    for (int i = 0; i < n; ++i)
    {
        const Vector2 p = v[i] - mean;
        const Vector2 q = v[(i + 1)%n] - mean;
        const double w = p.x()*q.y() - q.x()*p.y();
        a += w;
        c += w*(p + q);
    }
    const double scale = (v[0] - mean).squaredNorm() + 1e-300;
    if (!(std::abs(a) > 1e-12*scale)) return mean;
    return mean + c/(3*a);
}


TangentFrame::TangentFrame(const Vector3& o, const Vector3& normal)
:
    origin(o), n(normal)
{
    const Vector3 e = std::abs(n.x()) < 0.6 ? Vector3::UnitX()
                    : (std::abs(n.y()) < 0.6 ? Vector3::UnitY() : Vector3::UnitZ());
    t1 = (e - e.dot(n)*n).normalized();
    t2 = n.cross(t1);
}


Matrix2 curvatureTensor(const PosedShape& body, const SupportGeometry& g, const Vector3& t1, const Vector3& t2)
{
    const SupportSecondOrder d = supportGradientHessian(body.shape, g);
    const Vector3 u1 = body.Q.transpose()*t1;
    const Vector3 u2 = body.Q.transpose()*t2;
    const double gn = d.gradient.norm();
    Matrix2 C;
    C(0, 0) = u1.dot(d.hessian*u1)/gn;
    C(0, 1) = C(1, 0) = u1.dot(d.hessian*u2)/gn;
    C(1, 1) = u2.dot(d.hessian*u2)/gn;
    if (!C.allFinite()) C.setZero();
    return C;
}


bool surfaceAlongLine
(
    const PosedShape& body, const Vector3& x0, const Vector3& u, double sStart, double tol, double& s
)
{
    const Superellipsoid& shape = body.shape;
    const Vector3 xp = body.Q.transpose()*(x0 - body.position);
    const Vector3 up = body.Q.transpose()*u;
    const double half = 0.5*shape.eps1();
    s = sStart;
    // Newton on g(s) = N(x(s)) - 1, N = (S + 1)^(eps1/2) convex: from a
    // point with g >= 0 and g' > 0 the iterates decrease monotonically to
    // the largest root; g' <= 0 there means the line passes the body by
    for (int it = 0; it < 60; ++it)
    {
        const ShapeDerivatives d = shape.derivatives(xp + s*up, 1);
        const double F = d.value + 1;            // S + 1 >= 0
        if (!(F > 0)) return false;              // at the centre: not from outside
        const double N = std::pow(F, half);
        const double dN = half*N/F*d.gradient.dot(up);
        if (!(N >= 1 - 1e-15)) return it > 0;    // overshoot to the inside: round-off at the root
        if (!(dN > 0) || !std::isfinite(dN)) return false;
        const double step = (N - 1)/dN;
        s -= step;
        if (!(step > tol)) return std::isfinite(s);
    }
    return std::isfinite(s);
}


namespace
{

//- Convex hull (counter-clockwise, Andrew's monotone chain) in place
void convexHull(PatchPolygon& poly)
{
    const int n = poly.n;
    if (n < 3) return;
    std::array<Vector2, maxPatchPolygonVertices> p;
    std::copy(poly.v.begin(), poly.v.begin() + n, p.begin());
    std::sort(p.begin(), p.begin() + n, [](const Vector2& a, const Vector2& b)
    {
        return a.x() < b.x() || (a.x() == b.x() && a.y() < b.y());
    });
    auto cross = [](const Vector2& o, const Vector2& a, const Vector2& b)
    {
        return (a.x() - o.x())*(b.y() - o.y()) - (a.y() - o.y())*(b.x() - o.x());
    };
    std::array<Vector2, 2*maxPatchPolygonVertices> h;
    int k = 0;
    for (int i = 0; i < n; ++i)
    {
        while (k >= 2 && cross(h[k - 2], h[k - 1], p[i]) <= 0) --k;
        h[k++] = p[i];
    }
    for (int i = n - 2, t = k + 1; i >= 0; --i)
    {
        while (k >= t && cross(h[k - 2], h[k - 1], p[i]) <= 0) --k;
        h[k++] = p[i];
    }
    poly.n = std::max(1, k - 1);
    std::copy(h.begin(), h.begin() + poly.n, poly.v.begin());
}

} // namespace


PatchPolygon patchPolygon
(
    const PosedShape& body, const Vector3& directionP, const Vector3& support,
    const TangentFrame& frame
)
{
    // All in the particle frame, so that the exact zeros of a snapped face
    // or edge normal stay exact (a 1e-17 tangential component moves a flat
    // face's support point by ~0.01 c)
    PatchPolygon poly;
    const Vector3 d = directionP.normalized();
    int axis = 0;
    for (int k = 1; k < 3; ++k)
    {
        if (std::abs(d(k)) < std::abs(d(axis)) - 1e-12) axis = k;
    }
    Vector3 u1 = -d(axis)*d;
    u1(axis) += 1;
    u1.normalize();
    const Vector3 u2 = d.cross(u1);
    // Tilts scaled by the inverse half axes: a face a x b reaches its
    // corner regions along the diagonals (the support point's x/a goes
    // with (a tilt_x)^(eps/(2 - eps)))
    const Vector3 inverseScale = body.shape.boundingBoxHalfExtents().cwiseInverse();
    // The ring's cosines and sines with exact zeros
    constexpr double h = 0.70710678118654752440;
    static const double ring[8][2] = {{1, 0}, {h, h}, {0, 1}, {-h, h}, {-1, 0}, {-h, -h}, {0, -1}, {h, -h}};
    static_assert(patchPolygonDirections == 8, "ring table of 8 directions");
    for (int k = 0; k < patchPolygonDirections; ++k)
    {
        Vector3 u = inverseScale.cwiseProduct(ring[k][0]*u1 + ring[k][1]*u2);
        u -= u.dot(d)*d;
        const double un = u.norm();
        if (!(un > 0)) continue;
        const Vector3 x = supportPoint(body.shape, d + (manifoldPatchTilt/un)*u);
        const Vector3 xg = body.Q*x + body.position;
        if (xg.allFinite()) poly.v[poly.n++] = frame.project(xg);
    }
    convexHull(poly);
    if (poly.n < 3 || !(std::abs(poly.signedArea()) > 0))
    {
        poly.n = 1;
        poly.v[0] = frame.project(support);
    }
    return poly;
}


PatchPolygon clipPolygon(const PatchPolygon& subject, const PatchPolygon& clipper)
{
    if (clipper.n < 3) return subject;   // no area to clip against: keep
    PatchPolygon out = subject;
    for (int e = 0; e < clipper.n && out.n > 0; ++e)
    {
        const Vector2& a = clipper.v[e];
        const Vector2& b = clipper.v[(e + 1)%clipper.n];
        const Vector2 edge = b - a;
        // Inside: left of a -> b (counter-clockwise clipper)
        auto side = [&](const Vector2& p) { return edge.x()*(p.y() - a.y()) - edge.y()*(p.x() - a.x()); };
        const PatchPolygon in = out;
        out.n = 0;
        for (int i = 0; i < in.n; ++i)
        {
            const Vector2& p = in.v[i];
            const Vector2& q = in.v[(i + 1)%in.n];
            const double sp = side(p), sq = side(q);
            if (sp >= 0 && out.n < maxPatchPolygonVertices) out.v[out.n++] = p;
            if ((sp >= 0) != (sq >= 0) && out.n < maxPatchPolygonVertices)
            {
                const double t = sp/(sp - sq);
                out.v[out.n++] = p + t*(q - p);
            }
        }
    }
    return out;
}


int reducePolygon(const PatchPolygon& poly, std::array<int, 4>& chosen)
{
    const int n = poly.n;
    if (n <= 0) return 0;
    auto cross = [](const Vector2& a, const Vector2& b) { return a.x()*b.y() - a.y()*b.x(); };
    // Largest-area quadrilateral of the vertices: for each diagonal (i, j)
    // the best vertex on either side is independent of the other side, so
    // an exhaustive O(n^3) search (n <= maxPatchPolygonVertices) is exact
    double bestArea = -1, bestLength = -1;
    int bi = 0, bj = 0, bk = -1, bl = -1;
    for (int i = 0; i < n; ++i)
    {
        for (int j = i + 1; j < n; ++j)
        {
            const Vector2 d = poly.v[j] - poly.v[i];
            double left = 0, right = 0;
            int k = -1, l = -1;
            for (int m = 0; m < n; ++m)
            {
                const double a = cross(d, poly.v[m] - poly.v[i]);
                if (a > left) { left = a; k = m; }
                if (-a > right) { right = -a; l = m; }
            }
            const double area = left + right;
            const double length = d.squaredNorm();
            if (area > bestArea || (area == bestArea && length > bestLength))
            {
                bestArea = area;
                bestLength = length;
                bi = i; bj = j; bk = k; bl = l;
            }
        }
    }
    chosen[0] = bi;
    if (!(bestLength > 0)) return 1;   // coincident vertices: one point
    chosen[1] = bj;
    // A vertex adding less than 1e-6 of the diagonal's square is on the
    // line (a line contact: the two ends)
    const double minArea = 1e-6*bestLength;
    int m = 2;
    if (bk >= 0 && cross(poly.v[bj] - poly.v[bi], poly.v[bk] - poly.v[bi]) > minArea) chosen[m++] = bk;
    if (bl >= 0 && -cross(poly.v[bj] - poly.v[bi], poly.v[bl] - poly.v[bi]) > minArea) chosen[m++] = bl;
    return m;
}

} // namespace superellipsoid
