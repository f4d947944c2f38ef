/*---------------------------------------------------------------------------*\
    Rigid-body rotation: Euler's equations, Eqs. (14)-(16) of [Wedel2023], with
    a kick-drift-kick Lie-group splitting. See RigidBodyRotation.H.
\*---------------------------------------------------------------------------*/
#include "dynamics/RigidBodyRotation.H"

#include <Eigen/Eigenvalues>

#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string>

namespace superellipsoid
{

namespace
{

//- Relative tolerance on the symmetry of the damping matrix
constexpr double dampingSymmetryTolerance = 1e-10;

//- Eigenvalues of J^-1/2 D J^-1/2 above -tol*max|lambda| are round-off of a
//  semi-definite matrix and are clipped to 0; below that D is rejected.
constexpr double dampingDefinitenessTolerance = 1e-10;


[[noreturn]] void throwInvalid(const std::string& what)
{
    throw std::invalid_argument(what);
}


std::string str(const Vector3& v)
{
    std::ostringstream os;
    os << "(" << v.x() << ", " << v.y() << ", " << v.z() << ")";
    return os.str();
}


void checkMoments(const Vector3& principalMoments)
{
    if (!principalMoments.allFinite() || !(principalMoments.minCoeff() > 0))
    {
        throwInvalid
        (
            "RigidBodyRotation: principalMoments = " + str(principalMoments)
          + " must be positive and finite"
        );
    }
}


void checkFinite(const char* name, const Vector3& v)
{
    if (!v.allFinite())
    {
        throwInvalid(std::string("RigidBodyRotation: ") + name + " = " + str(v) + " is not finite");
    }
}


void checkTimeStep(double dt)
{
    if (!std::isfinite(dt))
    {
        std::ostringstream os;
        os << "RigidBodyRotation: dt = " << dt << " is not finite";
        throwInvalid(os.str());
    }
}




//- Rotate v (active, right-handed) about principal axis k by angle
void rotateAboutAxis(Vector3& v, int k, double angle)
{
    const int i = (k + 1) % 3;
    const int j = (k + 2) % 3;
    const double c = std::cos(angle);
    const double s = std::sin(angle);
    const double vi = v(i);
    const double vj = v(j);
    v(i) = c*vi - s*vj;
    v(j) = s*vi + c*vj;
}


//- Unit quaternion of the rotation by angle about principal axis k
Quaternion axisRotation(int k, double angle)
{
    Vector4 e(std::cos(0.5*angle), 0, 0, 0);
    e(k + 1) = std::sin(0.5*angle);
    return fromEulerParameters(e);
}


//- Exact flow of H = coeff L_k^2 / 2 over dt: omega' = coeff L_k e_k is
//  constant, so e -> e (x) exp(dt omega') and L' -> exp(-dt [omega']x) L'.
void axisFlow(Quaternion& e, Vector3& L, int k, double coeff, double dt)
{
    if (coeff == 0)
    {
        // Equal moments (sphere; axis of a body of revolution): the flow is
        // the identity, exactly; skips two sincos and a quaternion product
        return;
    }
    const double angle = dt*coeff*L(k);
    rotateAboutAxis(L, k, -angle);
    e = e*axisRotation(k, angle);
}


//- Splitting of the free rigid body (see RigidBodyRotation.H): returns the
//  reference axis r, the corrected axis c and the symmetry axis s.
struct FreeBodySplitting
{
    int reference, corrected, symmetry;
};

FreeBodySplitting chooseSplitting(const Vector3& inverseMoments)
{
    // The pair {r, c} with the closest 1/I makes the correction flow smallest
    FreeBodySplitting best{0, 1, 2};
    double smallest = std::abs(inverseMoments(1) - inverseMoments(0));
    for (int s = 0; s < 2; ++s)
    {
        const int r = (s + 1) % 3;
        const int c = (s + 2) % 3;
        const double gap = std::abs(inverseMoments(c) - inverseMoments(r));
        if (gap < smallest)
        {
            smallest = gap;
            best = {r, c, s};
        }
    }
    return best;
}


//- The kick sub-flow dL'/dt = T0' - D J^-1 L' (orientation frozen), set up
//  once per step so that both half-kicks share one eigen-decomposition.
//  In y = J^(1/2) omega':  dy/dt = J^(-1/2) T0' - M y,  M = J^(-1/2) D J^(-1/2)
//  symmetric positive semi-definite, M = V diag(lambda) V^T.
class LinearKick
{
public:

    LinearKick(const Vector3& principalMoments, const Matrix3& damping)
    :
        inverseMoments_(principalMoments.cwiseInverse()),
        damped_(!damping.isZero(0))
    {
        if (!damped_)
        {
            return;
        }
        const double scale = damping.cwiseAbs().maxCoeff();
        if
        (
            !damping.allFinite()
         || (damping - damping.transpose()).cwiseAbs().maxCoeff() > dampingSymmetryTolerance*scale
        )
        {
            std::ostringstream os;
            os << "kickAngularMomentum: damping = ["
               << damping.format(Eigen::IOFormat(Eigen::FullPrecision, 0, ", ", "; "))
               << "] must be a finite symmetric matrix";
            throwInvalid(os.str());
        }

        sqrtMoments_ = principalMoments.cwiseSqrt();
        invSqrtMoments_ = sqrtMoments_.cwiseInverse();
        const Matrix3 M =
            invSqrtMoments_.asDiagonal()*(0.5*(damping + damping.transpose()))
           *invSqrtMoments_.asDiagonal();

        Eigen::SelfAdjointEigenSolver<Matrix3> eigen;
        eigen.computeDirect(M);
        V_ = eigen.eigenvectors();
        lambda_ = eigen.eigenvalues();

        const double lambdaScale = lambda_.cwiseAbs().maxCoeff();
        if (lambda_.minCoeff() < -dampingDefinitenessTolerance*lambdaScale)
        {
            std::ostringstream os;
            os << "kickAngularMomentum: damping is not positive semi-definite "
               << "(eigenvalue of J^-1/2 D J^-1/2 = " << lambda_.minCoeff() << ")";
            throwInvalid(os.str());
        }
        lambda_ = lambda_.cwiseMax(0.0);
    }

    //- Advance omega' by dt, exactly for the frozen orientation
    void apply(Vector3& omega, const Vector3& torque, double dt) const
    {
        if (!damped_)
        {
            omega += dt*torque.cwiseProduct(inverseMoments_);
            return;
        }
        // Eigenbasis, z = V^T y, f = V^T J^(-1/2) T0':
        //   z(dt) = exp(-lambda dt) z + dt phi1(-lambda dt) f,  phi1(x) = (e^x - 1)/x
        Vector3 z = V_.transpose()*sqrtMoments_.cwiseProduct(omega);
        const Vector3 f = V_.transpose()*invSqrtMoments_.cwiseProduct(torque);
        for (int i = 0; i < 3; ++i)
        {
            const double x = -lambda_(i)*dt;
            const double dtPhi1 = (x == 0) ? dt : dt*std::expm1(x)/x;
            z(i) = std::exp(x)*z(i) + dtPhi1*f(i);
        }
        omega = invSqrtMoments_.cwiseProduct(V_*z);
    }

private:

    Vector3 inverseMoments_;
    bool damped_;
    Vector3 sqrtMoments_ = Vector3::Zero();
    Vector3 invSqrtMoments_ = Vector3::Zero();
    Matrix3 V_ = Matrix3::Identity();
    Vector3 lambda_ = Vector3::Zero();
};

//- The drift of driftFreeRotation, its input checked by the caller
void freeRotationFlow(RotationalState& state, const Vector3& principalMoments, double dt)
{
    const Vector3 k = principalMoments.cwiseInverse();
    const FreeBodySplitting split = chooseSplitting(k);
    const int r = split.reference, c = split.corrected, s = split.symmetry;

    Quaternion e = state.orientation;
    Vector3 L = principalMoments.cwiseProduct(state.angularVelocity);

    const double correction = k(c) - k(r);

    // H_corr(dt/2): rotation about axis c
    axisFlow(e, L, c, correction, 0.5*dt);

    // H_sym(dt): omega' = k_r L' + (k_s - k_r) L_s e_s; the k_r |L|^2/2 part
    // leaves L' fixed and rotates e about L' (body frame), the remaining part
    // is a rotation about axis s; both commute, so the flow is exact:
    //   e -> e (x) exp(dt k_r L') (x) exp(dt (k_s - k_r) L_s e_s)
    e = e*quaternionFromRotationVector(dt*k(r)*L);
    axisFlow(e, L, s, k(s) - k(r), dt);

    // H_corr(dt/2)
    axisFlow(e, L, c, correction, 0.5*dt);

    state.orientation = e.normalized();
    state.angularVelocity = L.cwiseProduct(k);
}


//- The kick T0' - D omega' of a step, its input checked once
LinearKick checkedKick
(
    const Vector3& principalMoments, const Vector3& torque, const Matrix3& damping, double dt
)
{
    checkMoments(principalMoments);
    checkFinite("torque", torque);
    checkTimeStep(dt);
    return LinearKick(principalMoments, damping);
}


} // namespace


Vector3 angularMomentum(const RotationalState& state, const Vector3& principalMoments)
{
    return principalMoments.cwiseProduct(state.angularVelocity);
}


Vector3 angularMomentumGlobal(const RotationalState& state, const Vector3& principalMoments)
{
    return state.orientation*angularMomentum(state, principalMoments);
}


double rotationalKineticEnergy(const RotationalState& state, const Vector3& principalMoments)
{
    return 0.5*state.angularVelocity.dot(angularMomentum(state, principalMoments));
}


Vector3 eulerEquationsRate
(
    const Vector3& w,
    const Vector3& I,
    const Vector3& T
)
{
    // Eqs. (14)-(16) of [Wedel2023]: I_x' dw_x'/dt = T_x' + w_y' w_z' [I_y' - I_z'], cyclic
    return Vector3
    (
        (T.x() + w.y()*w.z()*(I.y() - I.z()))/I.x(),
        (T.y() + w.z()*w.x()*(I.z() - I.x()))/I.y(),
        (T.z() + w.x()*w.y()*(I.x() - I.y()))/I.z()
    );
}


void kickAngularMomentum
(
    RotationalState& state,
    const Vector3& principalMoments,
    const Vector3& torque,
    const Matrix3& damping,
    double dt
)
{
    checkedKick(principalMoments, torque, damping, dt).apply(state.angularVelocity, torque, dt);
}


void driftFreeRotation(RotationalState& state, const Vector3& principalMoments, double dt)
{
    checkMoments(principalMoments);
    checkTimeStep(dt);
    freeRotationFlow(state, principalMoments, dt);
}


void advanceRotation
(
    RotationalState& state,
    const Vector3& principalMoments,
    const Vector3& torque,
    const Matrix3& damping,
    double dt
)
{
    const LinearKick kick = checkedKick(principalMoments, torque, damping, dt);
    kick.apply(state.angularVelocity, torque, 0.5*dt);
    freeRotationFlow(state, principalMoments, dt);
    kick.apply(state.angularVelocity, torque, 0.5*dt);
}


void advanceRotation
(
    RotationalState& state,
    const Vector3& principalMoments,
    const Vector3& torque,
    double dt
)
{
    advanceRotation(state, principalMoments, torque, Matrix3::Zero(), dt);
}

} // namespace superellipsoid
