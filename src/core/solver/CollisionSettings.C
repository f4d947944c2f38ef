#include "solver/CollisionSettings.H"

#include <cmath>
#include <sstream>
#include <stdexcept>

namespace superellipsoid
{

namespace
{

[[noreturn]] void invalidSetting(const char* name, double value, const char* requirement)
{
    std::ostringstream os;
    os << "CollisionSettings: " << name << " = " << value << " " << requirement;
    throw std::invalid_argument(os.str());
}

} // namespace


void validateCollisionSettings(const CollisionSettings& s)
{
    validateImpulseLaw(s.pairLaw);
    validateImpulseLaw(s.wallLaw);
    if (s.maxSweeps < 1) invalidSetting("maxSweeps", s.maxSweeps, "must be >= 1");
    if (s.maxRestingSweeps < 0) invalidSetting("maxRestingSweeps", s.maxRestingSweeps, "must be >= 0");
    if (!(s.restingSpeedFactor >= 0 && std::isfinite(s.restingSpeedFactor)))
    {
        invalidSetting("restingSpeedFactor", s.restingSpeedFactor, "must be >= 0 and finite");
    }
    if (!(s.restitutionHeight >= 0 && s.restitutionHeight <= 1))
    {
        invalidSetting("restitutionHeight", s.restitutionHeight, "must be in [0, 1]");
    }
    if (!(s.restingTolerance > 0 && s.restingTolerance <= 1))
    {
        invalidSetting("restingTolerance", s.restingTolerance, "must be in (0, 1]");
    }
    if (!(s.restingEnergyTolerance >= 0 && s.restingEnergyTolerance <= 1))
    {
        invalidSetting("restingEnergyTolerance", s.restingEnergyTolerance, "must be in [0, 1]");
    }
    if (!(s.warmStartFactor >= 0 && s.warmStartFactor <= 1))
    {
        invalidSetting("warmStartFactor", s.warmStartFactor, "must be in [0, 1]");
    }
    if (!(s.restingOverlap >= 0 && s.restingOverlap <= 1e-2))
    {
        invalidSetting("restingOverlap", s.restingOverlap, "must be in [0, 1e-2]");
    }
    if (s.overlapPasses < 1) invalidSetting("overlapPasses", s.overlapPasses, "must be >= 1");
    if (!(s.displacementFraction > 0 && s.displacementFraction <= 1))
    {
        invalidSetting("displacementFraction", s.displacementFraction, "must be in (0, 1]");
    }
    if (!(s.restingDisplacementFraction >= 0 && s.restingDisplacementFraction <= 1))
    {
        invalidSetting("restingDisplacementFraction", s.restingDisplacementFraction, "must be in [0, 1]");
    }
    if (!(s.pairListSkin >= 0 && s.pairListSkin <= 1))
    {
        invalidSetting("pairListSkin", s.pairListSkin, "must be in [0, 1]");
    }
    if (s.fixedSubsteps < 0) invalidSetting("fixedSubsteps", s.fixedSubsteps, "must be >= 0");
    if (s.maxSubsteps < 1) invalidSetting("maxSubsteps", s.maxSubsteps, "must be >= 1");
    if (!s.gravity.allFinite()) invalidSetting("|gravity|", s.gravity.norm(), "must be finite");
    if (!(s.softReferenceSpeed > 0 && std::isfinite(s.softReferenceSpeed)))
    {
        invalidSetting("softReferenceSpeed", s.softReferenceSpeed, "must be positive and finite");
    }
    if (!(s.wallRegionAngle >= 0 && s.wallRegionAngle <= 3.14159265358979323846))
    {
        invalidSetting("wallRegionAngle", s.wallRegionAngle, "must be in [0, pi]");
    }
}

} // namespace superellipsoid
