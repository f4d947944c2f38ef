#include "hydrodynamics/EquivalentProlate.H"

#include <sstream>
#include <stdexcept>

namespace superellipsoid
{

EquivalentProlate equivalentProlate(const Superellipsoid& shape)
{
    const int axis = shape.revolutionAxis();
    const Vector3 half = shape.halfAxes();
    // Axis 0: b = c, a >= b. Axis 2: a = b, prolate only if c = a as well
    const bool prolate = axis == 0 || (axis == 2 && half(2) == half(0));
    if (!prolate)
    {
        std::ostringstream os;
        os.precision(17);
        os << "shape half-axes (a, b, c) = (" << half(0) << ", " << half(1) << ", "
           << half(2) << "), eps1 = " << shape.eps1() << ", eps2 = " << shape.eps2()
           << ": the Froehlich law needs a prolate body of revolution about its "
           << "longest axis (an ellipsoid with a > b = c, or a = b = c with eps2 = 1); "
           << (axis < 0 ? "this shape has no axis of revolution" : "this shape is oblate");
        throw std::invalid_argument(os.str());
    }
    EquivalentProlate p;
    p.axisParticleFrame = Vector3::Unit(axis);
    p.aspectRatio = axis == 0 ? half(0)/half(1) : 1.0;
    p.equivalentDiameter = shape.volumeEquivalentDiameter();
    return p;
}

} // namespace superellipsoid
