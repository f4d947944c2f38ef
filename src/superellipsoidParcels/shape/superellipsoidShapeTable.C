/*---------------------------------------------------------------------------*\
    superellipsoidFoam: named shapes of a superellipsoid cloud and their
    resistance tensors (OpenFOAM adapter of the core shape and hydrodynamics).
\*---------------------------------------------------------------------------*/

#include "superellipsoidShapeTable.H"
#include "superellipsoidShape.H"
#include "resolvedCoefficientFile.H"
#include "eigenConversions.H"

#include "hydrodynamics/StokesResistanceSolver.H"
#include "hydrodynamics/AddedMass.H"

#include "error.H"
#include "superellipsoidDictionaryChecks.H"
#include "Pstream.H"
#include "OSspecific.H"
#include "mathematicalConstants.H"

#include <Eigen/Eigenvalues>

#include <initializer_list>

// * * * * * * * * * * * * * * * Local Functions * * * * * * * * * * * * * * //

namespace
{

using namespace Foam;

//- The a, b, c, epsilon1, epsilon2 dictionary of a shape given either
//  directly or by dEq and aspectRatios (a/c, b/c)
dictionary halfAxesDict(const dictionary& dict)
{
    namespace checks = superellipsoidDictionaryChecks;

    if (!dict.found("dEq", keyType::LITERAL))
    {
        checks::rejectIfFound
        (
            dict, "aspectRatios",
            "aspectRatios needs dEq (else give the half-axes a, b, c)"
        );
        return dict;
    }
    for (const char* key : {"a", "b", "c"})
    {
        checks::rejectIfFound
        (
            dict, key,
            "give either the half-axes a, b, c or dEq and aspectRatios,"
            " not both"
        );
    }

    const scalar dEq = checks::readScalar(dict, "dEq");
    if (!(dEq > 0))
    {
        FatalIOErrorInFunction(dict)
            << "Bad entry dEq " << dEq
            << ": the volume-equivalent diameter must be positive" << nl
            << exit(FatalIOError);
    }
    const List<scalar> r =
        checks::readNumbers(dict, "aspectRatios", 2, "(a/c b/c)");
    const vector2D ratios(r[0], r[1]);
    if (!(ratios.x() >= ratios.y() && ratios.y() >= 1) || !std::isfinite(ratios.x()))
    {
        FatalIOErrorInFunction(dict)
            << "Bad entry aspectRatios " << ratios
            << ": expected (a/c b/c) with a/c >= b/c >= 1" << nl
            << exit(FatalIOError);
    }

    // Shape with c = 1: V(a, b, c) = c^3 V(a/c, b/c, 1)
    dictionary unit(dict);
    unit.set("a", ratios.x());
    unit.set("b", ratios.y());
    unit.set("c", scalar(1));
    const superellipsoidShape unitShape(unit);
    const scalar Vtarget = constant::mathematical::pi*pow3(dEq)/6;
    const scalar c = std::cbrt(Vtarget/unitShape.core().volume());

    dictionary result(dict);
    result.set("a", ratios.x()*c);
    result.set("b", ratios.y()*c);
    result.set("c", c);
    return result;
}


superellipsoid::ResistanceSource readSource(const dictionary& dict)
{
    using superellipsoid::ResistanceSource;

    const word source = dict.getOrDefault<word>("resistance", "automatic");
    if (source == "automatic") return ResistanceSource::automatic;
    if (source == "exact") return ResistanceSource::exact;
    if (source == "numerical") return ResistanceSource::numerical;

    FatalIOErrorInFunction(dict)
        << "Bad entry resistance " << source
        << ": expected automatic, exact or numerical"
        << " (or give the tensors K, Omega and Pi)" << nl
        << exit(FatalIOError);
    return ResistanceSource::automatic;
}

//- The resistance tensors K, Omega, Pi given in the shape's dictionary
//  (all three once one is given: dict.get names a missing one)
superellipsoid::ResistanceTensors givenTensors
(
    const word& name,
    const dictionary& dict
)
{
    using namespace superellipsoidConversions;
    for (const char* key : {"resistance", "resolution"})
    {
        superellipsoidDictionaryChecks::rejectIfFound
        (
            dict, key,
            "the resistance tensors K, Omega, Pi are given, so they are"
            " not computed"
        );
    }
    const tensor K = dict.get<tensor>("K");
    const tensor Omega = dict.get<tensor>("Omega");
    const tensor Pi = dict.get<tensor>("Pi");
    try
    {
        return superellipsoid::givenResistanceTensors
        (
            toEigen(K), toEigen(Omega), toEigen(Pi)
        );
    }
    catch (const std::invalid_argument& err)
    {
        FatalIOErrorInFunction(dict)
            << "Bad resistance tensors of shape " << name << ": "
            << err.what() << nl << exit(FatalIOError);
    }
    return superellipsoid::ResistanceTensors();
}


//- The resistance and resolution entries of a shape whose tensors are
//  computed
superellipsoid::ResistanceOptions readOptions(const dictionary& dict)
{
    superellipsoid::ResistanceOptions options;
    options.source = readSource(dict);
    options.resolution =
        superellipsoidDictionaryChecks::readLabelOrDefault(dict, "resolution", 0);
    if (options.resolution < 0)
    {
        FatalIOErrorInFunction(dict)
            << "Bad entry resolution " << options.resolution
            << ": expected a positive panel count" << nl
            << exit(FatalIOError);
    }
    return options;
}


//- The 27 coefficients of K, Omega, Pi in order, row by row
template<class Matrices, class Visit>
void forEachCoefficient(Matrices matrices, const Visit& visit)
{
    label k = 0;
    for (auto* m : matrices)
    {
        for (label i = 0; i < 3; ++i)
        {
            for (label j = 0; j < 3; ++j)
            {
                visit((*m)(i, j), k++);
            }
        }
    }
}


//- The tensors of a shape computed by the master (the numerical solve is
//  expensive and writes the cache) and sent to the other ranks
superellipsoid::ResistanceTensors computedTensors
(
    const word& name,
    const dictionary& dict,
    const superellipsoid::ShapeParameters& params,
    superellipsoid::ResistanceOptions options,
    const bool exact,
    const fileName& cacheDir
)
{
    superellipsoid::ResistanceTensors tensors;
    List<scalar> coeffs(27, Zero);
    if (Pstream::master())
    {
        if (!exact && !cacheDir.empty())
        {
            mkDir(cacheDir);
            options.cacheDirectory = cacheDir;
        }
        try
        {
            tensors = superellipsoid::makeResistanceTensors(params, options);
        }
        catch (const std::exception& err)
        {
            // Invalid parameters, or a cache I/O failure
            FatalIOErrorInFunction(dict)
                << "Cannot compute the resistance tensors of shape "
                << name << ": " << err.what() << nl
                << exit(FatalIOError);
        }
        forEachCoefficient
        (
            std::initializer_list<const superellipsoid::Matrix3*>
            {&tensors.K, &tensors.Omega, &tensors.Pi},
            [&](const scalar x, const label k) { coeffs[k] = x; }
        );
    }
    Pstream::scatter(coeffs);
    forEachCoefficient
    (
        std::initializer_list<superellipsoid::Matrix3*>
        {&tensors.K, &tensors.Omega, &tensors.Pi},
        [&](scalar& x, const label k) { x = coeffs[k]; }
    );
    return tensors;
}

} // End anonymous namespace


// * * * * * * * * * * * * * Private Member Functions  * * * * * * * * * * * //

Foam::superellipsoidShapeTable::entry
Foam::superellipsoidShapeTable::readEntry
(
    const word& name,
    const dictionary& dict,
    const fileName& cacheDir
)
{
    using namespace superellipsoidConversions;
    namespace se = superellipsoid;

    superellipsoidDictionaryChecks::checkKeywords
    (
        dict,
        {
            "a", "b", "c", "epsilon1", "epsilon2", "dEq", "aspectRatios",
            "K", "Omega", "Pi", "resistance", "resolution"
        },
        "shape " + name
    );

    const superellipsoidShape geometry(halfAxesDict(dict));
    const se::Superellipsoid& shape = geometry.core();
    const se::ShapeParameters params = se::ShapeParameters::of(shape);

    se::ResistanceTensors tensors;
    word source;
    if (dict.found("K") || dict.found("Omega") || dict.found("Pi"))
    {
        tensors = givenTensors(name, dict);
        source = "given";
    }
    else
    {
        const se::ResistanceOptions options = readOptions(dict);
        const bool exact =
            options.source == se::ResistanceSource::exact
         || (options.source == se::ResistanceSource::automatic && params.isEllipsoid());
        source = exact ? "exact" : "numerical";
        tensors = computedTensors(name, dict, params, options, exact, cacheDir);
    }

    // K is symmetric positive definite (validated or by construction)
    const Eigen::SelfAdjointEigenSolver<se::Matrix3> eigenK(tensors.K);

    return entry
    {
        name,
        shape,
        tensors,
        source,
        toFoam(tensors.K),
        toFoam(tensors.Omega),
        toFoam(tensors.Pi),
        eigenK.eigenvalues().maxCoeff(),
        shape.volumeEquivalentDiameter(),
        shape.principalMoments(1),
        se::ellipsoidAddedMassCoefficients(shape.a(), shape.b(), shape.c()),
        se::ShapeHydrodynamics()
    };
}


void Foam::superellipsoidShapeTable::setHydrodynamics
(
    entry& e,
    const superellipsoid::FluidForceSettings& laws,
    const dictionary& lawDict,
    const fileName& caseDir
)
{
    // The shape's own table, checked against the shape when read
    std::shared_ptr<const superellipsoid::ResolvedCoefficientTable> table;
    if (laws.incidence == superellipsoid::IncidenceLaw::resolvedTable)
    {
        table = readResolvedCoefficientFile
        (
            resolvedCoefficientFileName(lawDict, caseDir, e.name), e.shape, lawDict
        );
    }
    try
    {
        e.hydrodynamics =
            superellipsoid::shapeHydrodynamics(e.shape, e.resistance, laws, table);
    }
    catch (const std::invalid_argument& err)
    {
        FatalIOErrorInFunction(lawDict)
            << "Bad entry incidence "
            << word(superellipsoid::incidenceLawName(laws.incidence))
            << " for shape " << e.name << ": " << err.what() << nl
            << exit(FatalIOError);
    }
}


// * * * * * * * * * * * * * * * * Constructors  * * * * * * * * * * * * * * //

Foam::superellipsoidShapeTable::superellipsoidShapeTable
(
    const dictionary& shapesDict,
    const fileName& cacheDir,
    const superellipsoid::FluidForceSettings& laws,
    const dictionary& lawDict,
    const fileName& caseDir
)
{
    for (const Foam::entry& e : shapesDict)
    {
        if (!e.isDict())
        {
            FatalIOErrorInFunction(shapesDict)
                << "Bad entry " << e.keyword()
                << ": each shape must be a dictionary, e.g. "
                << e.keyword() << " { a ..; b ..; c ..; epsilon1 ..; epsilon2 ..; }"
                << nl << exit(FatalIOError);
        }
        entries_.push_back(readEntry(e.keyword(), e.dict(), cacheDir));
        setHydrodynamics(entries_.back(), laws, lawDict, caseDir);
    }

    if (entries_.empty())
    {
        FatalIOErrorInFunction(shapesDict)
            << "No shapes given in " << shapesDict.name()
            << ": give at least one named shape" << nl
            << exit(FatalIOError);
    }
}


// * * * * * * * * * * * * * * * Member Functions  * * * * * * * * * * * * * //

Foam::label Foam::superellipsoidShapeTable::find
(
    const word& shapeName,
    const dictionary& dict,
    const word& keyword
) const
{
    for (size_t i = 0; i < entries_.size(); ++i)
    {
        if (entries_[i].name == shapeName)
        {
            return label(i);
        }
    }

    wordList known(entries_.size());
    forAll(known, i)
    {
        known[i] = entries_[i].name;
    }
    FatalIOErrorInFunction(dict)
        << "Bad entry " << keyword << " " << shapeName
        << ": unknown shape; known shapes: " << known << nl
        << exit(FatalIOError);
    return -1;
}


void Foam::superellipsoidShapeTable::writeInfo(Ostream& os) const
{
    for (const entry& e : entries_)
    {
        os  << "    shape " << e.name
            << ": half-axes (" << e.shape.a() << ' ' << e.shape.b() << ' '
            << e.shape.c() << "), epsilon1 " << e.shape.eps1()
            << ", epsilon2 " << e.shape.eps2()
            << ", dEq " << e.dEq
            << ", sphericity " << e.hydrodynamics.sphericity << nl
            << "        resistance (" << e.resistanceSource << ", normalised by c)"
            << nl
            << "        K     " << e.K << nl
            << "        Omega " << e.Omega << nl
            << "        Pi    " << e.Pi << nl;
    }
}


// ************************************************************************* //
