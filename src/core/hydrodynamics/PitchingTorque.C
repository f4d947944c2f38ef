#include "hydrodynamics/PitchingTorque.H"
#include "hydrodynamics/InputChecks.H"

#include <cmath>
#include <limits>
#include <stdexcept>

namespace superellipsoid
{

PitchingTorqueModel pitchingTorqueModelFromName(const std::string& name)
{
    if (name == "none")
    {
        return PitchingTorqueModel::none;
    }
    if (name == "Munk")
    {
        return PitchingTorqueModel::Munk;
    }
    throw std::invalid_argument
    (
        "pitchingTorque must be none or Munk, got '" + name + "'"
    );
}


std::string pitchingTorqueModelName(PitchingTorqueModel model)
{
    return model == PitchingTorqueModel::Munk ? "Munk" : "none";
}


Vector3 munkTorque(const Matrix3& addedMass, const Vector3& slip)
{
    inputChecks::requireFinite("addedMass", addedMass);
    inputChecks::requireFinite("slip", slip);

    // Lamb Sect. 124: T = (M_a w) x w
    return (addedMass*slip).cross(slip);
}


double munkPitchingPeriod
(
    const Vector3& principalAddedMasses,
    const Vector3& principalMoments,
    const Vector3& slip
)
{
    inputChecks::requireFinite("principalAddedMasses", principalAddedMasses);
    inputChecks::requireFinite("slip", slip);
    for (int i = 0; i < 3; ++i)
    {
        inputChecks::requirePositive("principalMoments", principalMoments(i));
    }

    // Stiffness of the restoring torque about broadside: |m_i - m_j| |w|^2
    const double stiffness =
        (principalAddedMasses.maxCoeff() - principalAddedMasses.minCoeff())
       *slip.squaredNorm();
    if (!(stiffness > 0))
    {
        return std::numeric_limits<double>::infinity();
    }
    constexpr double twoPi = 6.28318530717958647693;
    return twoPi*std::sqrt(principalMoments.minCoeff()/stiffness);
}


Vector3 pitchingTorque
(
    PitchingTorqueModel model,
    const Matrix3& addedMass,
    const Vector3& slip
)
{
    return model == PitchingTorqueModel::Munk
         ? munkTorque(addedMass, slip)
         : Vector3::Zero();
}

} // namespace superellipsoid
