#include "hydrodynamics/ResistanceTensors.H"
#include "hydrodynamics/CarlsonIntegrals.H"
#include "hydrodynamics/StokesResistanceSolver.H"

#include <Eigen/Eigenvalues>

#include <cmath>
#include <sstream>
#include <stdexcept>

namespace superellipsoid
{

namespace
{

std::string str(double value)
{
    std::ostringstream os;
    os.precision(17);
    os << value;
    return os.str();
}

void requirePositiveFinite(const char* name, double value)
{
    if (!(value > 0) || !std::isfinite(value))
    {
        throw std::invalid_argument
        (
            std::string("shape parameter ") + name
          + " must be finite and > 0, got " + str(value)
        );
    }
}

void requireSymmetricPositiveDefinite(const char* name, const Matrix3& A)
{
    if (!A.allFinite())
    {
        throw std::invalid_argument
        (
            std::string("resistance tensor ") + name + " has a non-finite entry"
        );
    }
    const double norm = A.norm();
    const double asymmetry = (A - A.transpose()).norm();
    if (!(norm > 0) || asymmetry > resistanceSymmetryTolerance*norm)
    {
        throw std::invalid_argument
        (
            std::string("resistance tensor ") + name
          + " must be symmetric, relative asymmetry " + str(asymmetry/norm)
        );
    }
    const Eigen::SelfAdjointEigenSolver<Matrix3> eigen(0.5*(A + A.transpose()));
    const double smallest = eigen.eigenvalues().minCoeff();
    const double largest = eigen.eigenvalues().maxCoeff();
    if (!(smallest > resistancePositivityTolerance*largest))
    {
        throw std::invalid_argument
        (
            std::string("resistance tensor ") + name
          + " must be positive definite, smallest eigenvalue " + str(smallest)
        );
    }
}

} // namespace


void validateShapeParameters(const ShapeParameters& shape)
{
    requirePositiveFinite("a", shape.a);
    requirePositiveFinite("b", shape.b);
    requirePositiveFinite("c", shape.c);
    for (const auto& [name, eps] : {std::pair{"eps1", shape.eps1}, std::pair{"eps2", shape.eps2}})
    {
        if (!(eps >= minHydroSquareness && eps <= maxHydroSquareness))
        {
            throw std::invalid_argument
            (
                std::string("shape parameter ") + name + " must be in ["
              + str(minHydroSquareness) + ", " + str(maxHydroSquareness)
              + "], got " + str(eps)
            );
        }
    }
}


void validateResistanceTensors(const ResistanceTensors& tensors)
{
    requireSymmetricPositiveDefinite("K", tensors.K);
    requireSymmetricPositiveDefinite("Omega", tensors.Omega);
    if (!tensors.Pi.allFinite())
    {
        throw std::invalid_argument("resistance tensor Pi has a non-finite entry");
    }
}


ResistanceTensors givenResistanceTensors
(
    const Matrix3& K,
    const Matrix3& Omega,
    const Matrix3& Pi
)
{
    ResistanceTensors tensors{K, Omega, Pi};
    validateResistanceTensors(tensors);
    return tensors;
}


EllipsoidIntegrals ellipsoidIntegrals(double a, double b, double c)
{
    requirePositiveFinite("a", a);
    requirePositiveFinite("b", b);
    requirePositiveFinite("c", c);
    const double a2 = a*a, b2 = b*b, c2 = c*c;
    EllipsoidIntegrals I;
    I.alpha0 = (2.0/3)*carlsonRD(b2, c2, a2);
    I.beta0  = (2.0/3)*carlsonRD(c2, a2, b2);
    I.gamma0 = (2.0/3)*carlsonRD(a2, b2, c2);
    I.chi0   = 2*carlsonRF(a2, b2, c2);
    return I;
}


ResistanceTensors exactEllipsoidResistance(double a, double b, double c)
{
    const EllipsoidIntegrals I = ellipsoidIntegrals(a, b, c);
    const double a2 = a*a, b2 = b*b, c2 = c*c, c3 = c*c2;

    ResistanceTensors t;
    // Translation (Oberbeck [Oberbeck1876])
    t.K.diagonal() <<
        16/(c*(I.chi0 + a2*I.alpha0)),
        16/(c*(I.chi0 + b2*I.beta0)),
        16/(c*(I.chi0 + c2*I.gamma0));

    // Rotation and strain (Jeffery [Jeffery1922])
    const double dx = 3*c3*(b2*I.beta0 + c2*I.gamma0);
    const double dy = 3*c3*(c2*I.gamma0 + a2*I.alpha0);
    const double dz = 3*c3*(a2*I.alpha0 + b2*I.beta0);
    t.Omega.diagonal() << 16*(b2 + c2)/dx, 16*(c2 + a2)/dy, 16*(a2 + b2)/dz;
    t.Pi.diagonal()    << 16*(b2 - c2)/dx, 16*(c2 - a2)/dy, 16*(a2 - b2)/dz;
    return t;
}


ResistanceTensors makeResistanceTensors
(
    const ShapeParameters& shape,
    const ResistanceOptions& options
)
{
    validateShapeParameters(shape);
    const int resolution =
        options.resolution > 0 ? options.resolution : defaultStokesResolution;

    switch (options.source)
    {
        case ResistanceSource::given:
            validateResistanceTensors(options.given);
            return options.given;

        case ResistanceSource::exact:
            if (!shape.isEllipsoid())
            {
                throw std::invalid_argument
                (
                    "exact resistance needs eps1 = eps2 = 1, got eps1 = "
                  + str(shape.eps1) + ", eps2 = " + str(shape.eps2)
                );
            }
            return exactEllipsoidResistance(shape.a, shape.b, shape.c);

        case ResistanceSource::numerical:
            return cachedStokesResistance(shape, resolution, options.cacheDirectory);

        case ResistanceSource::automatic:
        default:
            if (shape.isEllipsoid())
            {
                return exactEllipsoidResistance(shape.a, shape.b, shape.c);
            }
            return cachedStokesResistance(shape, resolution, options.cacheDirectory);
    }
}

} // namespace superellipsoid
