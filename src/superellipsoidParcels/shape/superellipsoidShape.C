/*---------------------------------------------------------------------------*\
    superellipsoidFoam: OpenFOAM adapter of the core superellipsoid shape.
\*---------------------------------------------------------------------------*/

#include "superellipsoidShape.H"

#include "error.H"
#include "superellipsoidDictionaryChecks.H"
#include "mathematicalConstants.H"

// * * * * * * * * * * * * * Private Member Functions  * * * * * * * * * * * //

superellipsoid::Superellipsoid
Foam::superellipsoidShape::read(const dictionary& dict)
{
    using superellipsoid::Superellipsoid;

    using superellipsoidDictionaryChecks::readScalar;

    // Missing, wrong type or non-finite: FatalIOError naming the entry
    const scalar a = readScalar(dict, "a");
    const scalar b = readScalar(dict, "b");
    const scalar c = readScalar(dict, "c");
    const scalar eps1 = readScalar(dict, "epsilon1");
    const scalar eps2 = readScalar(dict, "epsilon2");

    // Keyword-level checks first, so the message names the dictionary entry
    const std::pair<const char*, scalar> halfAxes[] = {{"a", a}, {"b", b}, {"c", c}};
    for (const auto& entry : halfAxes)
    {
        if (!(entry.second > 0) || !std::isfinite(entry.second))
        {
            FatalIOErrorInFunction(dict)
                << "Bad entry " << entry.first << " " << entry.second
                << ": a half-axis must be positive and finite" << nl
                << exit(FatalIOError);
        }
    }
    if (!(a >= b && b >= c))
    {
        FatalIOErrorInFunction(dict)
            << "Bad entries a " << a << ", b " << b << ", c " << c
            << ": the half-axes must satisfy a >= b >= c" << nl
            << "    (order the axes so and rotate the initial orientation instead)"
            << nl << exit(FatalIOError);
    }
    const std::pair<const char*, scalar> squareness[] =
        {{"epsilon1", eps1}, {"epsilon2", eps2}};
    for (const auto& entry : squareness)
    {
        if
        (
            !(entry.second >= Superellipsoid::minSquareness)
         || !(entry.second <= Superellipsoid::maxSquareness)
        )
        {
            FatalIOErrorInFunction(dict)
                << "Bad entry " << entry.first << " " << entry.second
                << ": squareness must lie in ["
                << Superellipsoid::minSquareness << ", "
                << Superellipsoid::maxSquareness << "]" << nl
                << exit(FatalIOError);
        }
    }

    try
    {
        return Superellipsoid(a, b, c, eps1, eps2);
    }
    catch (const superellipsoid::InvalidShape& err)
    {
        FatalIOErrorInFunction(dict)
            << err.what() << nl << exit(FatalIOError);
    }
    return Superellipsoid::sphere(1);  // not reached
}


// * * * * * * * * * * * * * * * * Constructors  * * * * * * * * * * * * * * //

Foam::superellipsoidShape::superellipsoidShape(const dictionary& dict)
:
    shape_(read(dict))
{}


// * * * * * * * * * * * * * * * Member Functions  * * * * * * * * * * * * * //

void Foam::superellipsoidShape::write(Ostream& os) const
{
    os.writeEntry("a", shape_.a());
    os.writeEntry("b", shape_.b());
    os.writeEntry("c", shape_.c());
    os.writeEntry("epsilon1", shape_.eps1());
    os.writeEntry("epsilon2", shape_.eps2());
}


void Foam::superellipsoidShape::writeProperties
(
    Ostream& os,
    const scalar rho
) const
{
    const superellipsoid::Vector3 I = shape_.principalMoments(rho);

    os  << "    half-axes (a b c)            " << halfAxes() << nl
        << "    squareness (eps1 eps2)       (" << shape_.eps1() << ' '
        << shape_.eps2() << ')' << nl
        << "    volume                       " << shape_.volume() << nl
        << "    volume-equivalent diameter   "
        << shape_.volumeEquivalentDiameter() << nl
        << "    bounding radius              " << shape_.boundingRadius() << nl
        << "    density                      " << rho << nl
        << "    mass                         " << shape_.mass(rho) << nl
        << "    principal moments (Ix Iy Iz) " << vector(I(0), I(1), I(2))
        << nl;
}


// ************************************************************************* //
