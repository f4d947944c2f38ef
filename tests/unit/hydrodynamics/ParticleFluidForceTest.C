// The one path of a drag model's law (ParticleFluidForce.H): it returns
// each law's own force and Brenner's torque with the law's pitching torque.
#include "hydrodynamics/AddedMass.H"
#include "hydrodynamics/ParticleFluidForce.H"
#include "hydrodynamics/Sphericity.H"
#include "orientation/Orientation.H"

#include <gtest/gtest.h>

#include <Eigen/Geometry>

#include <cmath>
#include <stdexcept>

using namespace superellipsoid;

namespace
{

// The path and the law compute the same products in another order: a
// few ulp
constexpr double roundOff = 1e-14;

const FluidProperties water{998.2, 1.0e-6};

//- A 2:1:1 prolate ellipsoid (exact tensors), d_v about 1.26 mm
ShapeHydrodynamics prolate()
{
    const Superellipsoid shape(2e-3, 0.5e-3, 0.5e-3, 1, 1);
    return shapeHydrodynamics(shape, exactEllipsoidResistance(2e-3, 0.5e-3, 0.5e-3));
}

Matrix3 tilted()
{
    return Pose{Vector3::Zero(), Quaternion(Eigen::AngleAxisd(0.7, Vector3(1, 2, 3).normalized()))}
        .globalToParticle();
}

} // namespace


TEST(ShapeHydrodynamics, HoldsTheShapesLengthsSphericityAndAddedMass)
{
    const Superellipsoid shape(2e-3, 0.5e-3, 0.5e-3, 1, 1);
    const ShapeHydrodynamics s = prolate();
    EXPECT_EQ(s.c, shape.c());
    EXPECT_EQ(s.volume, shape.volume());
    EXPECT_EQ(s.equivalentDiameter, shape.volumeEquivalentDiameter());
    EXPECT_EQ(s.sphericity, sphericity(shape));
    EXPECT_EQ(s.addedMassCoefficients, ellipsoidAddedMassCoefficients(2e-3, 0.5e-3, 0.5e-3));
    // Largest eigenvalue of the diagonal K' of an ellipsoid: its largest entry
    EXPECT_NEAR(s.maxK, s.tensors.K.diagonal().maxCoeff(), roundOff*s.maxK);
}


TEST(ParticleFluidForce, StokesIsBrennersResistance)
{
    // settings default: Stokes correlation, no voidage: A = pi mu c R^T K' R
    // (Eqs. 5-6 of [Wedel2023]) for any slip
    const ShapeHydrodynamics s = prolate();
    const Matrix3 R = tilted();
    const Vector3 slip(0.3, -0.2, 0.5);
    const ParticleFluidForce F = particleFluidForce(FluidForceSettings(), s, water, R, slip);
    const Matrix3 A = translationalResistance(s.tensors.K, s.c, water.dynamicViscosity(), R);
    EXPECT_LT((F.resistance - A).norm(), roundOff*A.norm());
    EXPECT_LT((F.force - A*slip).norm(), roundOff*(A*slip).norm());
    EXPECT_NEAR(F.maxResistance, M_PI*water.dynamicViscosity()*s.c*s.maxK, roundOff*F.maxResistance);
    EXPECT_EQ(F.correction.factor, 1.0);
}


TEST(ParticleFluidForce, FiniteReIsTheLawsFunction)
{
    // The path returns finiteReynoldsDrag's resistance and correction with
    // the shape's d_v and sphericity, also with Di Felice's voidage
    const ShapeHydrodynamics s = prolate();
    const Matrix3 R = tilted();
    const Vector3 slip(0.03, -0.02, 0.05);
    FluidForceSettings settings;
    settings.drag.correlation = DragCorrelation::HaiderLevenspiel;
    settings.drag.denseDrag = DenseDragLaw::DiFelice;
    const double eps = 0.55;
    const ParticleFluidForce F = particleFluidForce(settings, s, water, R, slip, eps);

    HydrodynamicParticle p;
    p.tensors = s.tensors;
    p.c = s.c;
    p.volume = s.volume;
    const FiniteReynoldsDrag D = finiteReynoldsDrag
    (
        p, water, R, slip, s.equivalentDiameter, settings.drag, eps, s.sphericity
    );
    EXPECT_EQ(F.resistance, D.dragCoefficient);
    EXPECT_EQ(F.correction.factor, D.correction.factor);
    EXPECT_EQ(F.correction.reynolds, D.correction.reynolds);
    EXPECT_GT(F.correction.factor, 2);   // the law is on: not Stokes
}


TEST(ParticleFluidTorque, IsBrennersTorquePlusTheLawsPitchingTorque)
{
    // T0' = Eq. (21) of [Wedel2023] at omega' = 0; D' = pi mu c^3 Omega';
    // pitchingTorque Munk adds (M_a' w') x w', w' = R w (PitchingTorque.H)
    const ShapeHydrodynamics s = prolate();
    const Matrix3 R = tilted();
    Matrix3 gradU = Matrix3::Zero();
    gradU(1, 0) = 2.0;   // simple shear u = (2 y, 0, 0)
    const Vector3 slip(0.01, 0, -0.02);

    HydrodynamicParticle p;
    p.tensors = s.tensors;
    p.c = s.c;
    p.volume = s.volume;
    const HydrodynamicTorque T = hydrodynamicTorque(p, water, R, gradU, Vector3::Zero());

    const ParticleFluidTorque stokes = particleFluidTorque(FluidForceSettings(), s, water, R, gradU, slip);
    EXPECT_EQ(stokes.atRest, T.atRestParticleFrame);
    EXPECT_EQ(stokes.damping, T.dampingParticleFrame);
    EXPECT_EQ(stokes.pitching, Vector3::Zero());

    FluidForceSettings munk;
    munk.pitching = PitchingTorqueModel::Munk;
    const ParticleFluidTorque withMunk = particleFluidTorque(munk, s, water, R, gradU, slip);
    const Matrix3 Ma = addedMassTensor(s.addedMassCoefficients, water.density, s.volume, Matrix3::Identity());
    const Vector3 expected = munkTorque(Ma, R*slip);
    EXPECT_GT(expected.norm(), 0);
    EXPECT_LT((withMunk.pitching - expected).norm(), roundOff*expected.norm());
    EXPECT_LT
    (
        (withMunk.atRest - T.atRestParticleFrame - expected).norm(),
        roundOff*(T.atRestParticleFrame.norm() + expected.norm())
    );
}


TEST(ParticleFluidForce, BadInputThrowsNamingTheParameter)
{
    const ShapeHydrodynamics s = prolate();
    const Vector3 nan(NAN, 0, 0);
    EXPECT_THROW(particleFluidForce(FluidForceSettings(), s, water, Matrix3::Identity(), nan), std::invalid_argument);
    EXPECT_THROW
    (
        particleFluidForce(FluidForceSettings(), s, water, Matrix3::Identity(), Vector3::UnitX(), 0),
        std::invalid_argument
    );
    EXPECT_THROW
    (
        particleFluidTorque(FluidForceSettings(), s, water, Matrix3::Identity(), Matrix3::Zero(), nan),
        std::invalid_argument
    );
}
