#include "solver/ParticleSystem.H"

#include <Eigen/LU>   // Matrix3::inverse

#include <cmath>
#include <sstream>
#include <stdexcept>

namespace superellipsoid
{

namespace
{

//- Tolerance on |e| - 1 of an orientation (round-off of the integrators)
constexpr double orientationNormTolerance = 1e-9;

//- Tolerance on |n| - 1 of a wall-face normal
constexpr double faceNormalTolerance = 1e-9;

[[noreturn]] void invalidParticle(std::size_t index, long id, const char* member, double value)
{
    std::ostringstream os;
    os << "ParticleSystem: particles[" << index << "] (id " << id << ")." << member
       << " = " << value << " is invalid";
    throw std::invalid_argument(os.str());
}

//- C = c 1 exactly, c = C(0, 0) finite: (C - c 1).isZero(0) without
//  forming the difference
bool isIsotropic(const Matrix3& C)
{
    const double c = C(0, 0);
    return std::isfinite(c) && C(1, 1) == c && C(2, 2) == c
        && C(0, 1) == 0 && C(0, 2) == 0 && C(1, 0) == 0 && C(1, 2) == 0 && C(2, 0) == 0 && C(2, 1) == 0;
}

} // namespace


Particle makeParticle
(
    long id,
    int shapeIndex,
    const Superellipsoid& shape,
    double density,
    const Pose& pose,
    const Vector3& velocity,
    const Vector3& angularVelocity
)
{
    if (!(std::isfinite(density) && density > 0))
    {
        std::ostringstream os;
        os << "makeParticle: density = " << density << " must be positive and finite";
        throw std::invalid_argument(os.str());
    }
    Particle p;
    p.id = id;
    p.shapeIndex = shapeIndex;
    p.pose = pose;
    p.velocity = velocity;
    p.angularVelocity = angularVelocity;
    p.mass = shape.mass(density);
    p.principalMoments = shape.principalMoments(density);
    return p;
}


void WallSet::add(const WallFace& face, int patchId, const Vector3& wallVelocity, bool mirrorFace)
{
    faces.push_back(face);
    patch.push_back(patchId);
    velocity.push_back(wallVelocity);
    mirror.push_back(mirrorFace);
}


void validateParticleSystem(const ParticleSystem& system)
{
    const int nShapes = int(system.shapes.size());
    for (std::size_t i = 0; i < system.particles.size(); ++i)
    {
        const Particle& p = system.particles[i];
        if (p.shapeIndex < 0 || p.shapeIndex >= nShapes)
        {
            invalidParticle(i, p.id, "shapeIndex", p.shapeIndex);
        }
        if (!(std::isfinite(p.mass) && p.mass > 0))
        {
            invalidParticle(i, p.id, "mass", p.mass);
        }
        for (int k = 0; k < 3; ++k)
        {
            if (!(std::isfinite(p.principalMoments[k]) && p.principalMoments[k] > 0))
            {
                invalidParticle(i, p.id, "principalMoments", p.principalMoments[k]);
            }
        }
        const double norm = p.pose.orientation.norm();
        if (!std::isfinite(norm) || std::abs(norm - 1) > orientationNormTolerance)
        {
            invalidParticle(i, p.id, "pose.orientation norm", norm);
        }
        const Vector3* vectors[] =
            {&p.pose.position, &p.velocity, &p.angularVelocity, &p.externalForce, &p.externalTorque};
        const char* names[] =
            {"pose.position", "velocity", "angularVelocity", "externalForce", "externalTorque"};
        for (int k = 0; k < 5; ++k)
        {
            if (!vectors[k]->allFinite())
            {
                invalidParticle(i, p.id, names[k], vectors[k]->norm());
            }
        }
        if (!p.externalDamping.allFinite())
        {
            invalidParticle(i, p.id, "externalDamping", p.externalDamping.norm());
        }
        if (!p.externalResistance.allFinite())
        {
            invalidParticle(i, p.id, "externalResistance", p.externalResistance.norm());
        }
    }
    const WallSet& w = system.walls;
    if (w.patch.size() != w.faces.size() || w.velocity.size() != w.faces.size())
    {
        std::ostringstream os;
        os << "WallSet: patch.size() = " << w.patch.size() << " and velocity.size() = "
           << w.velocity.size() << " must equal faces.size() = " << w.faces.size();
        throw std::invalid_argument(os.str());
    }
    for (std::size_t f = 0; f < w.faces.size(); ++f)
    {
        const double n = w.faces[f].normal.norm();
        if (!std::isfinite(n) || std::abs(n - 1) > faceNormalTolerance || w.faces[f].nVertices < 3
         || !w.velocity[f].allFinite())
        {
            std::ostringstream os;
            os << "WallSet: faces[" << f << "] normal norm = " << n << " (nVertices "
               << w.faces[f].nVertices << ") is invalid";
            throw std::invalid_argument(os.str());
        }
    }
}


Vector3 externallyForcedVelocity
(
    const Particle& p,
    const Vector3& gravity,
    const Vector3& force,
    double h
)
{
    const Vector3 impulse = h*(p.mass*gravity + p.externalForce + force);
    const Matrix3& C = p.externalResistance;
    const double c = C(0, 0);
    if (isIsotropic(C))
    {
        // None (exact v + h a), or isotropic (a sphere's drag): a scalar mass
        if (c == 0) return p.velocity + impulse/p.mass;
        return (p.mass*p.velocity + impulse)/(p.mass + h*c);
    }
    // 3x3 closed-form inverse: m I + h C is well conditioned (C's symmetric
    // part positive semi-definite)
    const Matrix3 M = p.mass*Matrix3::Identity() + h*C;
    return M.inverse()*(p.mass*p.velocity + impulse);
}


double translationalKineticEnergy(const ParticleSystem& system)
{
    double e = 0;
    for (const Particle& p : system.particles)
    {
        e += 0.5*p.mass*p.velocity.squaredNorm();
    }
    return e;
}


double rotationalKineticEnergy(const ParticleSystem& system)
{
    double e = 0;
    for (const Particle& p : system.particles)
    {
        e += 0.5*p.angularVelocity.dot(p.principalMoments.cwiseProduct(p.angularVelocity));
    }
    return e;
}


Vector3 linearMomentum(const ParticleSystem& system)
{
    Vector3 m = Vector3::Zero();
    for (const Particle& p : system.particles)
    {
        m += p.mass*p.velocity;
    }
    return m;
}

} // namespace superellipsoid
