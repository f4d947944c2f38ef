#include "hydrodynamics/ResolvedCoefficientTable.H"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string>

namespace superellipsoid
{

namespace
{

constexpr double pi = 3.14159265358979323846;
constexpr double octantEdge = 90;   // deg: both angle grids span [0, 90]

[[noreturn]] void reject(const std::string& message)
{
    throw std::invalid_argument(message);
}

std::string str(double value, int precision = 17)
{
    std::ostringstream os;
    os.precision(precision);
    os << value;
    return os.str();
}

//- Finite, strictly increasing, first > 0 (Re) or spanning [0, 90] (angles)
void validateNodes(const char* keyword, const std::vector<double>& nodes, bool angle)
{
    const std::size_t minSize = angle ? 2 : 1;
    if (nodes.size() < minSize)
    {
        reject
        (
            std::string(keyword) + ": " + std::to_string(nodes.size())
          + " nodes, need at least " + std::to_string(minSize)
        );
    }
    for (std::size_t k = 0; k < nodes.size(); ++k)
    {
        if (!std::isfinite(nodes[k]))
        {
            reject(std::string(keyword) + "[" + std::to_string(k) + "] = " + str(nodes[k]) + ": must be finite");
        }
        if (k > 0 && !(nodes[k] > nodes[k - 1]))
        {
            reject
            (
                std::string(keyword) + "[" + std::to_string(k) + "] = " + str(nodes[k])
              + ": must be greater than the node before, " + str(nodes[k - 1])
            );
        }
    }
    if (angle && (nodes.front() != 0 || nodes.back() != octantEdge))
    {
        reject
        (
            std::string(keyword) + " = [" + str(nodes.front()) + " ... " + str(nodes.back())
          + "]: must run from 0 to 90 deg (the octant)"
        );
    }
    if (!angle && !(nodes.front() > 0))
    {
        reject(std::string(keyword) + "[0] = " + str(nodes.front()) + ": must be > 0");
    }
}

//- Sizes [nRe][nTheta][nPhi] and finite entries
void validateGrid(const char* keyword, const ResolvedCoefficientTable& t, const ResolvedCoefficientGrid& grid)
{
    const std::string name(keyword);
    if (grid.size() != t.reynolds.size())
    {
        reject
        (
            name + ": " + std::to_string(grid.size()) + " lists over theta, reynolds has "
          + std::to_string(t.reynolds.size()) + " nodes"
        );
    }
    for (std::size_t k = 0; k < grid.size(); ++k)
    {
        if (grid[k].size() != t.thetaDegrees.size())
        {
            reject
            (
                name + "[" + std::to_string(k) + "]: " + std::to_string(grid[k].size())
              + " lists over phi, theta has " + std::to_string(t.thetaDegrees.size()) + " nodes"
            );
        }
        for (std::size_t i = 0; i < grid[k].size(); ++i)
        {
            if (grid[k][i].size() != t.phiDegrees.size())
            {
                reject
                (
                    name + "[" + std::to_string(k) + "][" + std::to_string(i) + "]: "
                  + std::to_string(grid[k][i].size()) + " vectors, phi has "
                  + std::to_string(t.phiDegrees.size()) + " nodes"
                );
            }
            for (std::size_t j = 0; j < grid[k][i].size(); ++j)
            {
                if (!grid[k][i][j].allFinite())
                {
                    std::ostringstream os;
                    os << name << "[" << k << "][" << i << "][" << j << "] = ("
                       << grid[k][i][j].transpose() << "): must be finite";
                    reject(os.str());
                }
            }
        }
    }
}

void validateShapeKey(const ResolvedShapeKey& key)
{
    const bool ordered =
        std::isfinite(key.aOverC) && key.aOverC >= key.bOverC && key.bOverC >= 1;
    if (!ordered)
    {
        reject
        (
            "shape aspectRatios = (" + str(key.aOverC) + " " + str(key.bOverC)
          + "): must be finite with a/c >= b/c >= 1"
        );
    }
    if (!(key.epsilon1 > 0) || !std::isfinite(key.epsilon1))
    {
        reject("shape epsilon1 = " + str(key.epsilon1) + ": must be finite and > 0");
    }
    if (!(key.epsilon2 > 0) || !std::isfinite(key.epsilon2))
    {
        reject("shape epsilon2 = " + str(key.epsilon2) + ": must be finite and > 0");
    }
}

//- At theta = 0 every phi is the same direction (the body z axis): the
//  coefficients of the first theta row must agree, to
//  resolvedShapeTolerance of the largest at that Re node
void validatePole(const char* keyword, const ResolvedCoefficientGrid& grid)
{
    for (std::size_t k = 0; k < grid.size(); ++k)
    {
        double scale = 0;
        for (const auto& row : grid[k])
        {
            for (const Vector3& C : row)
            {
                scale = std::max(scale, C.cwiseAbs().maxCoeff());
            }
        }
        const std::vector<Vector3>& pole = grid[k].front();
        for (std::size_t j = 1; j < pole.size(); ++j)
        {
            const double difference = (pole[j] - pole[0]).cwiseAbs().maxCoeff();
            if (difference > resolvedShapeTolerance*scale)
            {
                std::ostringstream os;
                os.precision(17);
                os << keyword << "[" << k << "][0][" << j << "] = (" << pole[j].transpose()
                   << ") differs from [" << k << "][0][0] = (" << pole[0].transpose()
                   << "): at theta = 0 every phi is the body z axis";
                reject(os.str());
            }
        }
    }
}

bool sameValue(double table, double shape)
{
    return std::abs(table - shape) <= resolvedShapeTolerance*std::abs(shape);
}

} // namespace


Vector3 octantDirection(double thetaDegrees, double phiDegrees)
{
    const double theta = thetaDegrees*pi/180;
    const double phi = phiDegrees*pi/180;
    return {std::sin(theta)*std::cos(phi), std::sin(theta)*std::sin(phi), std::cos(theta)};
}


void validateResolvedCoefficientTable(const ResolvedCoefficientTable& t)
{
    validateShapeKey(t.shape);
    validateNodes("reynolds", t.reynolds, false);
    validateNodes("theta", t.thetaDegrees, true);
    validateNodes("phi", t.phiDegrees, true);
    if (t.unsteady.size() != t.reynolds.size())
    {
        reject
        (
            "unsteady: " + std::to_string(t.unsteady.size()) + " flags, reynolds has "
          + std::to_string(t.reynolds.size()) + " nodes"
        );
    }
    validateGrid("forceCoefficients", t, t.forceCoefficients);
    validateGrid("torqueCoefficients", t, t.torqueCoefficients);
    validatePole("forceCoefficients", t.forceCoefficients);
    validatePole("torqueCoefficients", t.torqueCoefficients);

    // The fluid drags the body along the slip u - v: C_F . e > 0
    for (std::size_t k = 0; k < t.reynolds.size(); ++k)
    {
        for (std::size_t i = 0; i < t.thetaDegrees.size(); ++i)
        {
            for (std::size_t j = 0; j < t.phiDegrees.size(); ++j)
            {
                const Vector3 e = octantDirection(t.thetaDegrees[i], t.phiDegrees[j]);
                const double drag = t.forceCoefficients[k][i][j].dot(e);
                if (!(drag > 0))
                {
                    reject
                    (
                        "forceCoefficients[" + std::to_string(k) + "][" + std::to_string(i) + "]["
                      + std::to_string(j) + "]: drag C_F . e = " + str(drag)
                      + " must be > 0 (the force on a body in the flow u - v = |w| e points along e)"
                    );
                }
            }
        }
    }
}


ResolvedShapeKey resolvedShapeKey(const Superellipsoid& shape)
{
    return {shape.a()/shape.c(), shape.b()/shape.c(), shape.eps1(), shape.eps2()};
}


void requireTableMatchesShape(const ResolvedCoefficientTable& table, const Superellipsoid& shape)
{
    const ResolvedShapeKey s = resolvedShapeKey(shape);
    const ResolvedShapeKey& t = table.shape;
    if
    (
        !sameValue(t.aOverC, s.aOverC) || !sameValue(t.bOverC, s.bOverC)
     || !sameValue(t.epsilon1, s.epsilon1) || !sameValue(t.epsilon2, s.epsilon2)
    )
    {
        reject
        (
            "shape: the table is for aspectRatios (" + str(t.aOverC) + " " + str(t.bOverC)
          + "), epsilon1 " + str(t.epsilon1) + ", epsilon2 " + str(t.epsilon2)
          + "; the shape has (" + str(s.aOverC) + " " + str(s.bOverC) + "), epsilon1 "
          + str(s.epsilon1) + ", epsilon2 " + str(s.epsilon2)
          + " (relative tolerance " + str(resolvedShapeTolerance, 3) + ")"
        );
    }
}

} // namespace superellipsoid
