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
    // The dense law composes through nu/eps: the same products in another order
    EXPECT_LT((F.resistance - D.dragCoefficient).norm(), roundOff*D.dragCoefficient.norm());
    EXPECT_NEAR(F.correction.factor, D.correction.factor, roundOff*D.correction.factor);
    EXPECT_NEAR(F.correction.reynolds, D.correction.reynolds, roundOff*D.correction.reynolds);
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


TEST(ParticleFluidForce, IncidenceLawsAreTheLawsFunctions)
{
    // Dilute: the path returns froehlichForce's and hoelzerSommerfeldForce's
    // resistance unchanged, and particleFluidTorque adds the Froehlich torque
    const Superellipsoid shape(2e-3, 0.5e-3, 0.5e-3, 1, 1);
    const ResistanceTensors tensors = exactEllipsoidResistance(2e-3, 0.5e-3, 0.5e-3);
    const Matrix3 R = tilted();
    const Vector3 slip(0.03, -0.02, 0.05);
    HydrodynamicParticle p;
    p.tensors = tensors;
    p.c = shape.c();
    p.volume = shape.volume();

    FluidForceSettings froehlich;
    froehlich.incidence = IncidenceLaw::Froehlich;
    const ShapeHydrodynamics sf = shapeHydrodynamics(shape, tensors, froehlich);
    const OrientedFluidForce law = froehlichForce(p, *sf.prolate, water, R, slip);
    const ParticleFluidForce F = particleFluidForce(froehlich, sf, water, R, slip);
    EXPECT_EQ(F.resistance, law.resistance);
    EXPECT_EQ(F.correction.reynolds, law.reynolds);
    const ParticleFluidTorque T = particleFluidTorque(froehlich, sf, water, R, Matrix3::Zero(), slip);
    EXPECT_EQ(T.pitching, law.torqueParticleFrame);
    EXPECT_GT(T.pitching.norm(), 0);

    FluidForceSettings hs;
    hs.incidence = IncidenceLaw::HoelzerSommerfeld;
    const ShapeHydrodynamics sh = shapeHydrodynamics(shape, tensors, hs);
    EXPECT_EQ
    (
        particleFluidForce(hs, sh, water, R, slip).resistance,
        hoelzerSommerfeldForce(p, *sh.hoelzerSommerfeld, water, R, slip).resistance
    );
    // The largest eigenvalue of A's symmetric part bounds the force: |F| <=
    // ... along the slip, w.A w <= maxResistance |w|^2
    const ParticleFluidForce G = particleFluidForce(hs, sh, water, R, slip);
    EXPECT_LE(slip.dot(G.force), G.maxResistance*slip.squaredNorm()*(1 + roundOff));
}


TEST(ParticleFluidForce, DenseLawOnTheIsolatedLawsAtEpsRe)
{
    // F = h(eps, eps Re) A_single(Re_single = eps Re) w: for the isotropic
    // law this is dragCorrection's f(eps Re) h times Brenner's resistance
    // (the composition the OpenFOAM model had), to round-off; for
    // Froehlich the law evaluated at nu/eps rescaled by eps
    const ShapeHydrodynamics s = prolate();
    const Matrix3 R = tilted();
    const Vector3 slip(0.03, -0.02, 0.05);
    const double eps = 0.45;
    FluidForceSettings settings;
    settings.drag.correlation = DragCorrelation::SchillerNaumann;
    settings.drag.denseDrag = DenseDragLaw::Beetstra;
    const ParticleFluidForce F = particleFluidForce(settings, s, water, R, slip, eps);
    const double Re = particleReynoldsNumber(slip, s.equivalentDiameter, water.kinematicViscosity);
    const DragCorrection c = dragCorrection(settings.drag, Re, eps, s.sphericity);
    const Matrix3 A = c.factor*translationalResistance(s.tensors.K, s.c, water.dynamicViscosity(), R);
    EXPECT_LT((F.resistance - A).norm(), roundOff*A.norm());
    EXPECT_NEAR(F.correction.factor, c.factor, roundOff*c.factor);
    EXPECT_NEAR(F.correction.reynolds, eps*Re, roundOff*Re);

    const Superellipsoid shape(2e-3, 0.5e-3, 0.5e-3, 1, 1);
    FluidForceSettings froehlich = settings;
    froehlich.incidence = IncidenceLaw::Froehlich;
    const ShapeHydrodynamics sf = shapeHydrodynamics(shape, s.tensors, froehlich);
    HydrodynamicParticle p;
    p.tensors = s.tensors;
    p.c = s.c;
    p.volume = s.volume;
    FluidProperties single = water;
    single.kinematicViscosity /= eps;
    const Matrix3 expected =
        denseDragFactor(DenseDragLaw::Beetstra, eps, Re).factor*eps
       *froehlichForce(p, *sf.prolate, single, R, slip).resistance;
    const ParticleFluidForce G = particleFluidForce(froehlich, sf, water, R, slip, eps);
    EXPECT_LT((G.resistance - expected).norm(), roundOff*expected.norm());
}


TEST(ParticleFluidForce, LawsThatDoNotApplyAreRejected)
{
    // Froehlich needs a prolate-like shape; with Munk it would count the
    // pitching torque twice
    FluidForceSettings froehlich;
    froehlich.incidence = IncidenceLaw::Froehlich;
    const Superellipsoid oblate(1e-3, 1e-3, 0.5e-3, 1, 1);
    EXPECT_THROW
    (
        shapeHydrodynamics(oblate, exactEllipsoidResistance(1e-3, 1e-3, 0.5e-3), froehlich),
        std::invalid_argument
    );
    EXPECT_NO_THROW(validateFluidForceSettings(froehlich));
    froehlich.pitching = PitchingTorqueModel::Munk;
    EXPECT_THROW(validateFluidForceSettings(froehlich), std::invalid_argument);

    // A shape built for another law has no data for this one
    FluidForceSettings hs;
    hs.incidence = IncidenceLaw::HoelzerSommerfeld;
    EXPECT_THROW
    (
        particleFluidForce(hs, prolate(), water, Matrix3::Identity(), Vector3::UnitX()),
        std::invalid_argument
    );
}
