#include "hydrodynamics/ResolvedCoefficientForce.H"
#include "hydrodynamics/DragCorrelations.H"
#include "hydrodynamics/InputChecks.H"
#include "math/InvalidArgument.H"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

namespace superellipsoid
{

namespace
{

constexpr double pi = 3.14159265358979323846;

using inputChecks::requireFinite;
using inputChecks::requirePositive;

//- The cell [lower, upper] of sorted nodes holding x and the weight of
//  upper, linear in map(x); x is clamped to the nodes' range
struct Bracket
{
    std::size_t lower = 0;
    std::size_t upper = 0;
    double weight = 0;
};

template<class Map>
Bracket bracket(const std::vector<double>& nodes, double x, Map map)
{
    Bracket b;
    if (nodes.size() < 2 || x <= nodes.front())
    {
        return b;
    }
    if (x >= nodes.back())
    {
        b.lower = b.upper = nodes.size() - 1;
        return b;
    }
    b.upper = std::size_t(std::upper_bound(nodes.begin(), nodes.end(), x) - nodes.begin());
    b.lower = b.upper - 1;
    b.weight = (map(x) - map(nodes[b.lower]))/(map(nodes[b.upper]) - map(nodes[b.lower]));
    return b;
}

struct Identity
{
    double operator()(double x) const { return x; }
};

struct Logarithm
{
    double operator()(double x) const { return std::log(x); }
};

//- Bilinear in (theta, phi) at one Re node
Vector3 bilinear
(
    const std::vector<std::vector<Vector3>>& grid,
    const Bracket& theta,
    const Bracket& phi
)
{
    const Vector3 low =
        (1 - phi.weight)*grid[theta.lower][phi.lower] + phi.weight*grid[theta.lower][phi.upper];
    const Vector3 high =
        (1 - phi.weight)*grid[theta.upper][phi.lower] + phi.weight*grid[theta.upper][phi.upper];
    return (1 - theta.weight)*low + theta.weight*high;
}

[[noreturn]] void rejectReynolds(double Re, const ResolvedCoefficientTable& table)
{
    std::ostringstream os;
    os.precision(6);
    os << "Re = " << Re << ": outside the table's Reynolds range ["
       << table.reynolds.front() << ", " << table.reynolds.back()
       << "] (below the first node the law blends to Stokes flow; above the last there is no data)";
    throw std::invalid_argument(os.str());
}

} // namespace


OctantReflection octantReflection(const Vector3& direction)
{
    requireFinite("direction", direction);
    const double length = direction.norm();
    requirePositive("direction length", length);

    OctantReflection r;
    for (int i = 0; i < 3; ++i)
    {
        r.signs[i] = direction[i] < 0 ? -1.0 : 1.0;
    }
    // S e' has no negative component; its angles lie in [0, 90] deg
    r.octantDirection = r.signs.cwiseProduct(direction)/length;
    const Vector3& e = r.octantDirection;
    r.thetaDegrees = std::min(std::atan2(std::hypot(e.x(), e.y()), e.z())*180/pi, 90.0);
    r.phiDegrees = std::min(std::atan2(e.y(), e.x())*180/pi, 90.0);
    return r;
}


ResolvedCoefficients interpolateResolvedCoefficients
(
    const ResolvedCoefficientTable& table,
    double Re,
    double thetaDegrees,
    double phiDegrees
)
{
    if (!(Re >= table.reynolds.front() && Re <= table.reynolds.back()))
    {
        rejectReynolds(Re, table);
    }
    const Bracket re = bracket(table.reynolds, Re, Logarithm());
    const Bracket theta = bracket(table.thetaDegrees, thetaDegrees, Identity());
    const Bracket phi = bracket(table.phiDegrees, phiDegrees, Identity());

    // C/C_SN linear in ln Re between the two nodes' bilinear values
    const double toRe = schillerNaumannDragCoefficient(Re);
    const double lowerScale = toRe/schillerNaumannDragCoefficient(table.reynolds[re.lower]);
    const double upperScale = toRe/schillerNaumannDragCoefficient(table.reynolds[re.upper]);
    const auto inRe = [&](const ResolvedCoefficientGrid& grid)
    {
        return Vector3
        (
            (1 - re.weight)*lowerScale*bilinear(grid[re.lower], theta, phi)
          + re.weight*upperScale*bilinear(grid[re.upper], theta, phi)
        );
    };
    ResolvedCoefficients C;
    C.force = inRe(table.forceCoefficients);
    C.torque = inRe(table.torqueCoefficients);
    C.unsteady =
        (table.unsteady[re.lower] && re.weight < 1) || (table.unsteady[re.upper] && re.weight > 0);
    return C;
}


ResolvedCoefficients resolvedCoefficients
(
    const ResolvedCoefficientTable& table,
    double Re,
    const Vector3& direction
)
{
    const OctantReflection r = octantReflection(direction);
    ResolvedCoefficients C =
        interpolateResolvedCoefficients(table, Re, r.thetaDegrees, r.phiDegrees);
    // F' = S F_oct (vector), T' = det(S) S T_oct (pseudovector)
    C.force = r.signs.cwiseProduct(C.force);
    C.torque = r.orientation()*r.signs.cwiseProduct(C.torque);
    return C;
}


double stokesBlendWeight(double Re, double firstNode)
{
    return std::min(Re/firstNode, 1.0);
}


OrientedFluidForce resolvedCoefficientForce
(
    const HydrodynamicParticle& particle,
    const ResolvedCoefficientTable& table,
    const FluidProperties& fluid,
    const Matrix3& globalToParticle,
    const Vector3& slip,
    double d
)
{
    requirePositive("particle c", particle.c);
    requirePositive("equivalentDiameter", d);
    requirePositive("fluid density", fluid.density);
    requirePositive("fluid kinematicViscosity", fluid.kinematicViscosity);
    requireFinite("resistance tensors K", particle.tensors.K);
    requireFinite("globalToParticle", globalToParticle);
    requireFinite("slip", slip);

    const double mu = fluid.dynamicViscosity();
    const double speed = slip.norm();
    const Matrix3 CB = translationalResistance(particle.tensors.K, particle.c, mu, globalToParticle);

    OrientedFluidForce F;
    F.resistance = CB;
    F.reynolds = speed*d/fluid.kinematicViscosity;
    if (F.reynolds > table.reynolds.back())
    {
        rejectReynolds(F.reynolds, table);
    }
    F.inValidatedRange = true;   // the table's range; above it the law throws
    if (!(F.reynolds > 0))
    {
        return F;   // Brenner's force, no torque
    }

    // Table at max(Re, Re_0), body frame direction e' of the slip
    const Vector3 u = slip/speed;
    const Vector3 e = globalToParticle*u;
    const double Re0 = table.reynolds.front();
    const double ReTable = std::max(F.reynolds, Re0);
    const ResolvedCoefficients C = resolvedCoefficients(table, ReTable, e);

    // g = F'/(mu d |w|) = (pi/8) Re C_F, h = T'/(mu d^2 |w|) = (pi/16) Re C_T,
    // blended linearly in Re to the Stokes values below Re_0
    const double t = stokesBlendWeight(F.reynolds, Re0);
    const Vector3 gStokes = pi*(particle.c/d)*(particle.tensors.K*e);
    const Vector3 g = (1 - t)*gStokes + t*(pi/8)*ReTable*C.force;
    const Vector3 h = t*(pi/16)*ReTable*C.torque;
    F.torqueParticleFrame = mu*d*d*speed*h;

    // R_F = s C_B + (F/|w| - s C_B u) u^T, so R_F w = F: Brenner's tensor
    // at the table's drag, the rest (lift) rank-one along u (F/|w| stays
    // finite for any small |w|)
    const Vector3 forcePerSpeed = globalToParticle.transpose()*(mu*d*g);
    const Vector3 CBu = CB*u;
    const double s = std::max(0.0, u.dot(forcePerSpeed)/u.dot(CBu));
    F.resistance = s*CB + (forcePerSpeed - s*CBu)*u.transpose();
    return F;
}

} // namespace superellipsoid
