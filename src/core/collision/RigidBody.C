#include "collision/RigidBody.H"
#include "math/InvalidArgument.H"

#include <Eigen/Eigenvalues>
#include <Eigen/LU>
#include <cmath>
#include <sstream>
#include <stdexcept>

namespace superellipsoid
{

namespace
{

// Relative asymmetry accepted in an inertia tensor (rounding of rotations)
constexpr double inertiaSymmetryTolerance = 1e-9;

[[noreturn]] void invalid(const std::string& name, double value, const char* why)
{
    throwInvalidArgument(name, value, why);
}

bool finite(const Vector3& v) { return v.allFinite(); }

void checkMass(double mass)
{
    if (!(std::isfinite(mass) && mass > 0))
    {
        invalid("mass", mass, "must be positive and finite");
    }
}

void checkVectors(const Vector3& position, const Vector3& velocity, const Vector3& omega)
{
    if (!finite(position)) invalid("position", position.norm(), "must be finite");
    if (!finite(velocity)) invalid("velocity", velocity.norm(), "must be finite");
    if (!finite(omega)) invalid("angularVelocity", omega.norm(), "must be finite");
}

} // namespace


Matrix3 globalInverseInertia(const Vector3& principalMoments, const Quaternion& orientation)
{
    const Vector3 k = principalMoments.cwiseInverse();
    // Equal moments: I^-1 = k 1 in every orientation, exactly (a sphere's
    // or a cube's); the product below would carry the rotation's round-off
    if (k.x() == k.y() && k.y() == k.z()) return k.x()*Matrix3::Identity();
    // Eq. (62) of [Wedel2023]: I = Q I' Q^T, hence I^-1 = Q diag(1/I') Q^T
    const Matrix3 Q = orientation.normalized().toRotationMatrix();
    const Matrix3 inverse = Q*k.asDiagonal()*Q.transpose();
    return 0.5*(inverse + inverse.transpose());
}


RigidBody RigidBody::particle
(
    double mass,
    const Vector3& principalMoments,
    const Quaternion& orientation,
    const Vector3& position,
    const Vector3& velocity,
    const Vector3& angularVelocity
)
{
    checkMass(mass);
    for (int i = 0; i < 3; ++i)
    {
        if (!(std::isfinite(principalMoments[i]) && principalMoments[i] > 0))
        {
            invalid("principalMoments[" + std::to_string(i) + "]", principalMoments[i],
                    "must be positive and finite");
        }
    }
    if (!orientation.coeffs().allFinite() || std::abs(orientation.norm() - 1) > unitNormalTolerance)
    {
        invalid("orientation norm", orientation.norm(), "must be a finite unit quaternion");
    }
    checkVectors(position, velocity, angularVelocity);

    RigidBody body;
    body.inverseMass = 1.0/mass;
    body.inverseInertia = globalInverseInertia(principalMoments, orientation);
    body.position = position;
    body.velocity = velocity;
    body.angularVelocity = angularVelocity;
    return body;
}


RigidBody RigidBody::particleWithInertia
(
    double mass,
    const Matrix3& inertiaGlobal,
    const Vector3& position,
    const Vector3& velocity,
    const Vector3& angularVelocity
)
{
    checkMass(mass);
    if (!inertiaGlobal.allFinite())
    {
        invalid("inertiaGlobal norm", inertiaGlobal.norm(), "must be finite");
    }
    const double asym = (inertiaGlobal - inertiaGlobal.transpose()).norm();
    if (asym > inertiaSymmetryTolerance*inertiaGlobal.norm())
    {
        invalid("inertiaGlobal asymmetry", asym, "must be symmetric");
    }
    const Matrix3 sym = 0.5*(inertiaGlobal + inertiaGlobal.transpose());
    const double minEigen = Eigen::SelfAdjointEigenSolver<Matrix3>(sym).eigenvalues().minCoeff();
    if (!(minEigen > 0))
    {
        invalid("inertiaGlobal smallest eigenvalue", minEigen, "must be positive");
    }
    checkVectors(position, velocity, angularVelocity);

    RigidBody body;
    body.inverseMass = 1.0/mass;
    body.inverseInertia = sym.inverse();
    body.inverseInertia = 0.5*(body.inverseInertia + body.inverseInertia.transpose());
    body.position = position;
    body.velocity = velocity;
    body.angularVelocity = angularVelocity;
    return body;
}


RigidBody RigidBody::wall(const Vector3& velocity)
{
    if (!finite(velocity)) invalid("wall velocity", velocity.norm(), "must be finite");
    RigidBody body;
    body.velocity = velocity;
    return body;
}


RigidBody RigidBody::mirrored(const Vector3& planePoint, const Vector3& n) const
{
    const Matrix3 M = Matrix3::Identity() - 2*n*n.transpose();
    RigidBody image = *this;
    image.position = planePoint + M*(position - planePoint);
    image.velocity = M*velocity;
    image.angularVelocity = -(M*angularVelocity);
    image.inverseInertia = M*inverseInertia*M;
    image.symmetry = symmetry.mirrored(n);
    return image;
}


double RigidBody::kineticEnergy() const
{
    if (isWall()) return 0;
    const Vector3 L = inverseInertia.ldlt().solve(angularVelocity);
    return 0.5*velocity.squaredNorm()/inverseMass + 0.5*angularVelocity.dot(L);
}


Vector3 RigidBody::linearMomentum() const
{
    if (isWall()) return Vector3::Zero();
    return velocity/inverseMass;
}


Vector3 RigidBody::angularMomentumAbout(const Vector3& p) const
{
    if (isWall()) return Vector3::Zero();
    // Eq. (70) of [Wedel2023]: I omega + (r - p) x m v
    return inverseInertia.ldlt().solve(angularVelocity) + (position - p).cross(linearMomentum());
}


void validateCollisionPoint(const CollisionPoint& contact)
{
    if (!contact.point.allFinite()) invalid("contact point", contact.point.norm(), "must be finite");
    if (!contact.normal.allFinite() || std::abs(contact.normal.norm() - 1) > unitNormalTolerance)
    {
        invalid("contact normal norm", contact.normal.norm(), "must be a finite unit vector");
    }
    if (!std::isfinite(contact.overlap)) invalid("overlap", contact.overlap, "must be finite");
}


void validateRigidBody(const RigidBody& body, const char* name)
{
    const std::string n(name);
    if (!(std::isfinite(body.inverseMass) && body.inverseMass >= 0))
    {
        invalid(n + ".inverseMass", body.inverseMass, "must be finite and >= 0");
    }
    if (!body.inverseInertia.allFinite())
    {
        invalid(n + ".inverseInertia norm", body.inverseInertia.norm(), "must be finite");
    }
    const double asym = (body.inverseInertia - body.inverseInertia.transpose()).norm();
    if (asym > inertiaSymmetryTolerance*body.inverseInertia.norm())
    {
        invalid(n + ".inverseInertia asymmetry", asym, "must be symmetric");
    }
    if (!body.position.allFinite()) invalid(n + ".position", body.position.norm(), "must be finite");
    if (!body.velocity.allFinite()) invalid(n + ".velocity", body.velocity.norm(), "must be finite");
    if (!body.angularVelocity.allFinite())
    {
        invalid(n + ".angularVelocity", body.angularVelocity.norm(), "must be finite");
    }
}

} // namespace superellipsoid
