// Momentum step of the relax passes (ContactSolver.H, restingMomentum): the
// nonsmooth nonlinear conjugate gradient of [Silcowitz2010] on the
// Gauss-Seidel sweeps, taken on the bodies' velocities.
//
// With G one projected Gauss-Seidel sweep and x the accumulated impulses,
//   x~ = G(x_k),  beta = |x~ - x_k|^2/|x_k - x_k-1|^2 (restart: 0 if >= 1),
//   x_k+1 = x~ + beta (x_k - x_k-1).
// The velocities are affine in the impulses, V = V0 + M^-1 J^T x, so the
// step beta (x_k - x_k-1) moves every body by beta (V_k - V_k-1): one pass
// over the bodies, where applying each point's step through its lever arms
// cost as much as the sweeps it saved (docs/performance.md). The points
// only add the step to their accumulated impulses (the net impulse of a
// contact sums them at the store). The norm is that of the sweep's energy,
// sum (dLambda)^2/(2 m_eff), which the relax sums anyway.
//
// Two guards keep the relax's properties. A step that would raise the
// bodies' kinetic energy, beta (V~.M P) + beta^2 (P.M P)/2 > 0 with
// P = V_k - V_k-1, is not taken (a restart). A contact whose stepped
// impulses leave the admissible set (Lambda_n >= 0, |Lambda_t| <= mu
// Lambda_n) is swept again, whose update projects them; the relax stops
// after a sweep, never after a step, so its result is admissible.
#include "solver/ContactSolver.H"

#include <algorithm>
#include <cmath>

namespace superellipsoid
{

void ContactSolver::beginMomentum(double sweepEnergy)
{
    // From the first sweep's iterate, with no direction yet: a relax that
    // converges in one sweep (a settled stack) pays nothing
    const int n = int(velocity_.size()), nc = int(constraints_.size());
    momentumStarted_ = true;
    lastSweepEnergy_ = sweepEnergy;
    startVelocity_ = velocity_;
    startOmega_ = omega_;
    stepVelocity_.assign(n, Vector3::Zero());
    stepOmega_.assign(n, Vector3::Zero());
    reach_.assign(n, 0.0);
    inertia_.resize(n);
    momentumPoints_.resize(std::size_t(nc)*maxManifoldPoints);
    for (int k = 0; k < nc; ++k)
    {
        const ContactConstraint& c = constraints_[k];
        if (!(c.restingSpeed > 0)) continue;
        for (int i = 0; i < c.count; ++i)
        {
            const ConstraintPoint& q = c.points[i];
            MomentumPoint& m = momentumPoints_[std::size_t(k)*maxManifoldPoints + i];
            m = MomentumPoint{{q.normalImpulse, q.tangentImpulse[0], q.tangentImpulse[1]}, {0, 0, 0}};
            // A body's step moves a point's speed by at most |dv| + |dw| |r|
            reach_[c.a] = std::max(reach_[c.a], q.rA.norm());
            if (c.b >= 0) reach_[c.b] = std::max(reach_[c.b], q.rB.norm());
        }
    }
    for (int i = 0; i < n; ++i)
    {
        if (reach_[i] > 0) inertia_[i] = inverseInertia_[i].inverse();
    }
}


double ContactSolver::momentumFactor(double sweepEnergy)
{
    // beta of the conjugate direction; restart (0) when the sweeps stop
    // contracting ([Silcowitz2010], Alg. 1)
    double beta = lastSweepEnergy_ > 0 ? sweepEnergy/lastSweepEnergy_ : 0;
    lastSweepEnergy_ = sweepEnergy;
    if (!(beta < 1)) return 0;
    // Kinetic energy change of the step beta P from V~: beta a + beta^2 b/2,
    // a = V~.M P, b = P.M P
    double a = 0, b = 0;
    const int n = int(velocity_.size());
    for (int i = 0; i < n; ++i)
    {
        if (!(reach_[i] > 0)) continue;
        const double m = 1/inverseMass_[i];
        const Vector3 IP = inertia_[i]*stepOmega_[i];
        a += m*velocity_[i].dot(stepVelocity_[i]) + omega_[i].dot(IP);
        b += m*stepVelocity_[i].squaredNorm() + stepOmega_[i].dot(IP);
    }
    return a + 0.5*beta*b > 0 ? 0 : beta;
}


void ContactSolver::accelerate(double sweepEnergy)
{
    const double beta = momentumFactor(sweepEnergy);
    const int n = int(velocity_.size()), nc = int(constraints_.size());

    // 1. Bodies: V = V~ + beta (V_k - V_k-1)
    for (int i = 0; beta > 0 && i < n; ++i)
    {
        if (!(reach_[i] > 0)) continue;
        velocity_[i] += beta*stepVelocity_[i];
        omega_[i] += beta*stepOmega_[i];
        drift_[i] += beta*(stepVelocity_[i].norm() + reach_[i]*stepOmega_[i].norm());
    }

    // 2. Points: x = x~ + beta (x_k - x_k-1); a contact whose impulses
    //    leave the admissible set is swept again, which projects them
    for (int k = 0; k < nc; ++k)
    {
        ContactConstraint& c = constraints_[k];
        if (!(c.restingSpeed > 0)) continue;
        for (int i = 0; i < c.count; ++i)
        {
            ConstraintPoint& q = c.points[i];
            MomentumPoint& m = momentumPoints_[std::size_t(k)*maxManifoldPoints + i];
            double x[3] = {q.normalImpulse, q.tangentImpulse[0], q.tangentImpulse[1]};
            for (int j = 0; j < 3; ++j)
            {
                const double step = beta*m.step[j];
                x[j] += step;
                m.step[j] = x[j] - m.previous[j];
                m.previous[j] = x[j];
            }
            q.normalImpulse = x[0];
            q.tangentImpulse[0] = x[1];
            q.tangentImpulse[1] = x[2];
            if (x[0] < 0 || x[1]*x[1] + x[2]*x[2] > (c.friction*x[0])*(c.friction*x[0])) moved_[k] = 1;
        }
    }

    // 3. Bodies: P = V_k+1 - V_k
    for (int i = 0; i < n; ++i)
    {
        if (!(reach_[i] > 0)) continue;
        stepVelocity_[i] = velocity_[i] - startVelocity_[i];
        stepOmega_[i] = omega_[i] - startOmega_[i];
        startVelocity_[i] = velocity_[i];
        startOmega_[i] = omega_[i];
    }
}


} // namespace superellipsoid
