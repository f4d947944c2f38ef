#include "hydrodynamics/PitchingTorque.H"
#include "hydrodynamics/InputChecks.H"

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
