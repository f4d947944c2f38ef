#include "hydrodynamics/StokesResistanceSolver.H"

#include <Eigen/Dense>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <vector>

namespace superellipsoid
{

namespace
{

constexpr double pi = 3.14159265358979323846;

// Quadrature selection by distance d from the collocation point to the
// panel centre, relative to the panel radius (centre-to-corner distance)
constexpr double farPanelRatio = 4.0;    // d > 4 r: Gauss 2x2
constexpr double nearPanelRatio = 2.0;   // 2 r < d <= 4 r: Gauss 4x4; else 3x3 x 4x4

// Fewest cells along an axis (even: keeps the mirror symmetry of the panels)
constexpr int minCellsPerAxis = 4;

// Face-coordinate clustering: full sine clustering below this squareness
constexpr double fullClusteringSquareness = 0.2;

// Crease clustering: full clustering above this squareness
constexpr double fullCreaseClusteringSquareness = 1.8;

// Gauss-Legendre nodes/weights on [0, 1]
struct GaussRule
{
    std::vector<double> x, w;
};

GaussRule gaussRule(int n)
{
    // Newton iteration on Legendre polynomials (Golub-Welsch not needed)
    GaussRule r;
    r.x.resize(n);
    r.w.resize(n);
    for (int i = 0; i < n; ++i)
    {
        double z = std::cos(pi*(i + 0.75)/(n + 0.5));
        double dp = 1;
        for (int it = 0; it < 100; ++it)
        {
            double p0 = 1, p1 = z;
            for (int k = 2; k <= n; ++k)
            {
                const double p2 = ((2*k - 1)*z*p1 - (k - 1)*p0)/k;
                p0 = p1;
                p1 = p2;
            }
            dp = n*(z*p1 - p0)/(z*z - 1);
            const double dz = p1/dp;
            z -= dz;
            if (std::abs(dz) < 1e-16) break;
        }
        r.x[i] = 0.5*(1 - z);
        r.w[i] = 1.0/((1 - z*z)*dp*dp);
    }
    return r;
}


//- Map of the box faces onto the superellipsoid surface
class SurfaceMap
{
public:
    SurfaceMap(const ShapeParameters& s)
    :
        half_(s.a, s.b, s.c),
        e1_(s.eps1),
        e2_(s.eps2)
    {
        // Edges of box-like shapes (eps < 1) lie at the box edges |s| = 1;
        // creases of pointed shapes (eps > 1) in the coordinate planes s = 0
        edgeClustering_ = std::clamp
        (
            (1 - std::min(s.eps1, s.eps2))/(1 - fullClusteringSquareness), 0.0, 1.0
        );
        creaseClustering_ = std::clamp
        (
            (std::max(s.eps1, s.eps2) - 1)/(fullCreaseClusteringSquareness - 1), 0.0, 1.0
        );
        const double total = edgeClustering_ + creaseClustering_;
        if (total > 1)
        {
            edgeClustering_ /= total;
            creaseClustering_ /= total;
        }
    }

    //- Clustered face coordinate q(s), s in [-1, 1], and dq/ds
    void faceCoordinate(double s, double& q, double& dq) const
    {
        // Blend of: equiangular tan(pi s/4) (uniform on a sphere),
        // sin(pi s/2) (clustered at the edges s = +-1) and
        // sgn(s)(1 - cos(pi s/2)) (clustered at the creases s = 0)
        const double be = edgeClustering_, bc = creaseClustering_;
        const double t = std::tan(0.25*pi*s);
        const double sgn = s < 0 ? -1.0 : 1.0;
        q = (1 - be - bc)*t + be*std::sin(0.5*pi*s)
          + bc*sgn*(1 - std::cos(0.5*pi*s));
        dq = (1 - be - bc)*0.25*pi*(1 + t*t) + be*0.5*pi*std::cos(0.5*pi*s)
           + bc*0.5*pi*std::sin(0.5*pi*std::abs(s));
    }

    //- Degree-1 homogeneous gauge F (F = 1 on the surface, Eq. 3 of [Wedel2023]) and grad F
    double gauge(const Vector3& x, Vector3& gradF) const
    {
        const double px = 2/e2_, pz = 2/e1_;
        const double ux = std::abs(x[0]/half_[0]);
        const double uy = std::abs(x[1]/half_[1]);
        const double uz = std::abs(x[2]/half_[2]);
        const double A = std::pow(ux, px) + std::pow(uy, px);
        const double Az = std::pow(uz, pz);
        const double Ae = A > 0 ? std::pow(A, e2_/e1_) : 0.0;
        const double G = Ae + Az;
        Vector3 gradG;
        // dG/dx = (2/e1) A^(e2/e1 - 1) |x/a|^(2/e2 - 1) sgn(x)/a
        const double Afac = A > 0 ? (2/e1_)*Ae/A : 0.0;
        gradG[0] = Afac*std::pow(ux, px - 1)*(x[0] < 0 ? -1 : 1)/half_[0];
        gradG[1] = Afac*std::pow(uy, px - 1)*(x[1] < 0 ? -1 : 1)/half_[1];
        gradG[2] = (2/e1_)*std::pow(uz, pz - 1)*(x[2] < 0 ? -1 : 1)/half_[2];
        const double F = std::pow(G, 0.5*e1_);
        gradF = 0.5*e1_*(F/G)*gradG;
        return F;
    }

    //- Surface point and area element |dX/ds x dX/dt| of face (axis, sign)
    //  at face coordinates (s, t); outward normal in 'normal'
    Vector3 point
    (
        int axis, double sign, double s, double t,
        double& area, Vector3& normal
    ) const
    {
        const int t1 = (axis + 1) % 3, t2 = (axis + 2) % 3;
        double q1, dq1, q2, dq2;
        faceCoordinate(s, q1, dq1);
        faceCoordinate(t, q2, dq2);
        Vector3 P;
        P[axis] = sign*half_[axis];
        P[t1] = half_[t1]*q1;
        P[t2] = half_[t2]*q2;
        Vector3 gradF;
        const double F = gauge(P, gradF);
        // dX = dP/F - P (gradF . dP)/F^2
        Vector3 dPs = Vector3::Zero(), dPt = Vector3::Zero();
        dPs[t1] = half_[t1]*dq1;
        dPt[t2] = half_[t2]*dq2;
        const Vector3 Xs = dPs/F - P*(gradF.dot(dPs))/(F*F);
        const Vector3 Xt = dPt/F - P*(gradF.dot(dPt))/(F*F);
        const Vector3 cross = Xs.cross(Xt);
        area = cross.norm();
        const Vector3 X = P/F;
        normal = cross/(area > 0 ? area : 1.0);
        if (normal.dot(X) < 0) normal = -normal;
        return X;
    }

private:
    Vector3 half_;
    double e1_, e2_;
    double edgeClustering_ = 0;
    double creaseClustering_ = 0;
};


struct QuadPoint
{
    Vector3 y;
    double w;
};

struct Panel
{
    int axis;
    double sign;
    double s0, s1, t0, t1;
    Vector3 centre;
    Vector3 normal;
    double area = 0;
    double radius = 0;
    Vector3 firstMoment = Vector3::Zero();    // int y dGamma
    std::vector<QuadPoint> far, mid, near;
};

std::vector<QuadPoint> tensorRule
(
    const SurfaceMap& map, const Panel& p, const GaussRule& g, int sub
)
{
    std::vector<QuadPoint> pts;
    const double ds = (p.s1 - p.s0)/sub, dt = (p.t1 - p.t0)/sub;
    Vector3 n;
    for (int is = 0; is < sub; ++is)
    for (int it = 0; it < sub; ++it)
    for (std::size_t i = 0; i < g.x.size(); ++i)
    for (std::size_t j = 0; j < g.x.size(); ++j)
    {
        const double s = p.s0 + ds*(is + g.x[i]);
        const double t = p.t0 + dt*(it + g.x[j]);
        double area;
        const Vector3 y = map.point(p.axis, p.sign, s, t, area, n);
        pts.push_back({y, area*g.w[i]*g.w[j]*ds*dt});
    }
    return pts;
}

//- Add w G(r) to the 3x3 block
inline void addStokeslet(Matrix3& block, const Vector3& r, double w)
{
    const double r2 = r.squaredNorm();
    const double inv = 1/std::sqrt(r2);
    const double inv3 = inv/r2;
    block.noalias() += (w*inv)*Matrix3::Identity() + (w*inv3)*(r*r.transpose());
}

std::string format(double value)
{
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.17g", value);
    return buffer;
}

std::string cacheKey(const ShapeParameters& s, int resolution)
{
    return "a " + format(s.a) + " b " + format(s.b) + " c " + format(s.c)
         + " eps1 " + format(s.eps1) + " eps2 " + format(s.eps2)
         + " resolution " + std::to_string(resolution);
}

//- Cells per axis proportional to the half-axis, even, >= minCellsPerAxis;
//  the panel count 2 (nx ny + ny nz + nz nx) is close to the resolution
Eigen::Vector3i cellsPerAxis(const Vector3& half, int resolution)
{
    const double boxArea = half[0]*half[1] + half[1]*half[2] + half[2]*half[0];
    const double h = std::sqrt(2*boxArea/resolution);
    Eigen::Vector3i cells;
    for (int i = 0; i < 3; ++i)
    {
        cells[i] = std::max(minCellsPerAxis, 2*int(std::lround(0.5*half[i]/h)));
    }
    return cells;
}


//- Panel (i, j) of n1 x n2 on the box face (axis, sign): parameter range,
//  collocation point, size and its three quadrature rules
Panel makePanel
(
    const SurfaceMap& map, int axis, double sign, int i, int j, int n1, int n2,
    const GaussRule& g2, const GaussRule& g4
)
{
    Panel p;
    p.axis = axis;
    p.sign = sign;
    p.s0 = -1 + 2.0*i/n1;
    p.s1 = -1 + 2.0*(i + 1)/n1;
    p.t0 = -1 + 2.0*j/n2;
    p.t1 = -1 + 2.0*(j + 1)/n2;
    double unusedArea;
    p.centre = map.point
    (
        axis, sign, 0.5*(p.s0 + p.s1), 0.5*(p.t0 + p.t1),
        unusedArea, p.normal
    );
    Vector3 n;
    for (double s : {p.s0, p.s1})
    for (double t : {p.t0, p.t1})
    {
        p.radius = std::max
        (
            p.radius, (map.point(axis, sign, s, t, unusedArea, n) - p.centre).norm()
        );
    }
    p.far = tensorRule(map, p, g2, 1);
    p.mid = tensorRule(map, p, g4, 1);
    p.near = tensorRule(map, p, g4, 3);
    for (const QuadPoint& q : p.near)
    {
        p.area += q.w;
        p.firstMoment += q.w*q.y;
    }
    return p;
}


//- The panels of the six faces
std::vector<Panel> makePanels(const SurfaceMap& map, const Eigen::Vector3i& cells)
{
    const GaussRule g2 = gaussRule(2), g4 = gaussRule(4);
    std::vector<Panel> panels;
    for (int axis = 0; axis < 3; ++axis)
    for (double sign : {-1.0, 1.0})
    {
        const int n1 = cells[(axis + 1) % 3], n2 = cells[(axis + 2) % 3];
        for (int i = 0; i < n1; ++i)
        for (int j = 0; j < n2; ++j)
        {
            panels.push_back(makePanel(map, axis, sign, i, j, n1, n2, g2, g4));
        }
    }
    return panels;
}


//- int_p G(x - y) dGamma over the panel p at its own centre x: Duffy
//  transform on 4 parametric triangles around the centre (removes the 1/r
//  singularity), Gauss 8x8 on each
Matrix3 selfPanelIntegral(const SurfaceMap& map, const Panel& p, const GaussRule& g8)
{
    const Vector3& x = p.centre;
    Matrix3 block = Matrix3::Zero();
    const double sc = 0.5*(p.s0 + p.s1), tc = 0.5*(p.t0 + p.t1);
    const std::array<double, 5> cs{p.s0, p.s1, p.s1, p.s0, p.s0};
    const std::array<double, 5> ct{p.t0, p.t0, p.t1, p.t1, p.t0};
    Vector3 n;
    for (int k = 0; k < 4; ++k)
    {
        const double es = cs[k] - sc, et = ct[k] - tc;
        const double fs = cs[k + 1] - cs[k], ft = ct[k + 1] - ct[k];
        const double det = std::abs(es*ft - et*fs);
        for (std::size_t iu = 0; iu < g8.x.size(); ++iu)
        for (std::size_t iv = 0; iv < g8.x.size(); ++iv)
        {
            const double u = g8.x[iu], v = g8.x[iv];
            const double s = sc + u*(es + v*fs);
            const double t = tc + u*(et + v*ft);
            double area;
            const Vector3 y = map.point(p.axis, p.sign, s, t, area, n);
            addStokeslet(block, x - y, area*u*det*g8.w[iu]*g8.w[iv]);
        }
    }
    return block;
}


//- int_p G(x - y) dGamma over a panel p away from x, the rule chosen by
//  the distance of x from the panel centre
Matrix3 farPanelIntegral(const Panel& p, const Vector3& x)
{
    Matrix3 block = Matrix3::Zero();
    const double d = (x - p.centre).norm();
    const std::vector<QuadPoint>& rule =
        d > farPanelRatio*p.radius ? p.far
      : d > nearPanelRatio*p.radius ? p.mid
      : p.near;
    for (const QuadPoint& q : rule)
    {
        addStokeslet(block, x - q.y, q.w);
    }
    return block;
}


//- Single-layer matrix, mu = 1: A_ij = 1/(8 pi) int_j G(x_i - y) dGamma,
//  plus the deflation of the normal-vector null space,
//  + (R_ref/S) n_i (n_j a_j)^T, consistent because every right-hand side
//  has zero net flux
Eigen::MatrixXd singleLayerMatrix(const SurfaceMap& map, const std::vector<Panel>& panels)
{
    const int N = int(panels.size());
    const GaussRule g8 = gaussRule(8);
    Eigen::MatrixXd A(3*N, 3*N);
    const double scale = 1/(8*pi);
    for (int i = 0; i < N; ++i)
    {
        for (int j = 0; j < N; ++j)
        {
            const Matrix3 block =
                i == j ? selfPanelIntegral(map, panels[j], g8) : farPanelIntegral(panels[j], panels[i].centre);
            A.block<3, 3>(3*i, 3*j) = scale*block;
        }
    }

    double totalArea = 0;
    for (const Panel& p : panels) totalArea += p.area;
    const double deflation = std::sqrt(totalArea/(4*pi))/totalArea;
    for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j)
    {
        A.block<3, 3>(3*i, 3*j) +=
            (deflation*panels[j].area)*panels[i].normal*panels[j].normal.transpose();
    }
    return A;
}


//- Right-hand sides: translations e_k, rotations e_k x x, strains E_k x
//  with f: (0, z, y), g: (z, 0, x), h: (y, x, 0)   (Eq. 22 of [Wedel2023])
Eigen::MatrixXd rigidAndStrainVelocities(const std::vector<Panel>& panels)
{
    const int N = int(panels.size());
    Eigen::MatrixXd rhs(3*N, 9);
    for (int i = 0; i < N; ++i)
    {
        const Vector3& x = panels[i].centre;
        for (int k = 0; k < 3; ++k)
        {
            rhs.block<3, 1>(3*i, k) = Vector3::Unit(k);
            rhs.block<3, 1>(3*i, 3 + k) = Vector3::Unit(k).cross(x);
        }
        rhs.block<3, 1>(3*i, 6) = Vector3(0, x[2], x[1]);
        rhs.block<3, 1>(3*i, 7) = Vector3(x[2], 0, x[0]);
        rhs.block<3, 1>(3*i, 8) = Vector3(x[1], x[0], 0);
    }
    return rhs;
}


//- Tensors from the force densities q of the 9 problems: force int q and
//  torque int y x q, normalised as Eqs. (5) and (21) of [Wedel2023] with
//  mu = 1, unit velocities: K e_k = int q/(pi c),
//  Omega e_k = Pi e_k = int y x q/(pi c^3)
StokesResistanceResult resistanceFromDensities
(
    const Eigen::MatrixXd& q, const std::vector<Panel>& panels, double c
)
{
    Eigen::Matrix<double, 3, 9> force = Eigen::Matrix<double, 3, 9>::Zero();
    Eigen::Matrix<double, 3, 9> torque = Eigen::Matrix<double, 3, 9>::Zero();
    for (std::size_t i = 0; i < panels.size(); ++i)
    {
        for (int k = 0; k < 9; ++k)
        {
            const Vector3 qi = q.block<3, 1>(3*i, k);
            force.col(k) += panels[i].area*qi;
            torque.col(k) += panels[i].firstMoment.cross(qi);
        }
    }

    StokesResistanceResult result;
    const Matrix3 K = force.leftCols<3>()/(pi*c);
    const Matrix3 Omega = torque.middleCols<3>(3)/(pi*c*c*c);
    result.tensors.Pi = torque.rightCols<3>()/(pi*c*c*c);
    result.asymmetryK = (K - K.transpose()).norm()/K.norm();
    result.asymmetryOmega = (Omega - Omega.transpose()).norm()/Omega.norm();
    result.tensors.K = 0.5*(K + K.transpose());
    result.tensors.Omega = 0.5*(Omega + Omega.transpose());
    return result;
}

} // namespace


StokesResistanceResult solveStokesResistance
(
    const ShapeParameters& shape,
    int resolution
)
{
    validateShapeParameters(shape);
    if (resolution < minStokesResolution || resolution > maxStokesResolution)
    {
        throw std::invalid_argument
        (
            "solveStokesResistance: resolution must be in ["
          + std::to_string(minStokesResolution) + ", "
          + std::to_string(maxStokesResolution) + "], got "
          + std::to_string(resolution)
        );
    }
    const auto start = std::chrono::steady_clock::now();

    const SurfaceMap map(shape);
    const Eigen::Vector3i cells = cellsPerAxis(Vector3(shape.a, shape.b, shape.c), resolution);
    const std::vector<Panel> panels = makePanels(map, cells);
    const Eigen::MatrixXd A = singleLayerMatrix(map, panels);
    const Eigen::MatrixXd q =
        Eigen::PartialPivLU<Eigen::MatrixXd>(A).solve(rigidAndStrainVelocities(panels));

    StokesResistanceResult result = resistanceFromDensities(q, panels, shape.c);
    result.panelCount = int(panels.size());
    result.cellsPerAxis = cells;
    result.seconds = std::chrono::duration<double>
    (
        std::chrono::steady_clock::now() - start
    ).count();

    validateResistanceTensors(result.tensors);
    return result;
}


std::string stokesCacheFileName(const ShapeParameters& shape, int resolution)
{
    char buffer[256];
    std::snprintf
    (
        buffer, sizeof buffer,
        "stokesResistance_a%.10g_b%.10g_c%.10g_eps1_%.10g_eps2_%.10g_n%d.txt",
        shape.a, shape.b, shape.c, shape.eps1, shape.eps2, resolution
    );
    return buffer;
}


ResistanceTensors cachedStokesResistance
(
    const ShapeParameters& shape,
    int resolution,
    const std::string& cacheDirectory
)
{
    validateShapeParameters(shape);
    if (cacheDirectory.empty())
    {
        return solveStokesResistance(shape, resolution).tensors;
    }

    namespace fs = std::filesystem;
    const fs::path file = fs::path(cacheDirectory)/stokesCacheFileName(shape, resolution);
    const std::string key = cacheKey(shape, resolution);

    // Read: the first line must equal the key, then 27 numbers (K, Omega, Pi
    // row by row); anything else is treated as a miss
    {
        std::ifstream in(file);
        std::string line;
        if (in && std::getline(in, line) && line == key)
        {
            ResistanceTensors t;
            bool ok = true;
            for (Matrix3* m : {&t.K, &t.Omega, &t.Pi})
            for (int r = 0; r < 3; ++r)
            for (int col = 0; col < 3; ++col)
            {
                ok = ok && static_cast<bool>(in >> (*m)(r, col));
            }
            if (ok)
            {
                validateResistanceTensors(t);
                return t;
            }
        }
    }

    const StokesResistanceResult result = solveStokesResistance(shape, resolution);

    // Write to a temporary name, then rename (atomic for concurrent readers)
    fs::create_directories(cacheDirectory);
    const fs::path tmp = file.string() + ".tmp" + std::to_string(std::rand());
    {
        std::ofstream out(tmp);
        out << key << "\n";
        for (const Matrix3* m : {&result.tensors.K, &result.tensors.Omega, &result.tensors.Pi})
        {
            for (int r = 0; r < 3; ++r)
            {
                out << format((*m)(r, 0)) << ' ' << format((*m)(r, 1)) << ' '
                    << format((*m)(r, 2)) << "\n";
            }
        }
        out << "# K, Omega, Pi (particle frame, Eqs. 5 and 21 of [Wedel2023]);"
            << " boundary element solve, " << result.panelCount << " panels, "
            << result.seconds << " s\n";
    }
    fs::rename(tmp, file);
    return result.tensors;
}

} // namespace superellipsoid
