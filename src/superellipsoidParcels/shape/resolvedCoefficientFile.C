/*---------------------------------------------------------------------------*\
    superellipsoidFoam: readResolvedCoefficientFile (see
    resolvedCoefficientFile.H).
\*---------------------------------------------------------------------------*/

#include "resolvedCoefficientFile.H"
#include "superellipsoidDictionaryChecks.H"
#include "eigenConversions.H"

#include "IFstream.H"
#include "OSspecific.H"
#include "Switch.H"
#include "scalarList.H"
#include "vectorList.H"

#include <stdexcept>

// * * * * * * * * * * * * * * * Local Functions * * * * * * * * * * * * * * //

namespace
{

using namespace Foam;

//- The entry key of the table in file: a missing one, or one that does
//  not read as Type (OpenFOAM's reader error, caught), stops with a
//  FatalIOError naming the file and the keyword
template<class Type>
Type readEntry(const dictionary& dict, const word& key, const fileName& file)
{
    if (!dict.found(key, keyType::LITERAL))
    {
        FatalIOErrorInFunction(dict)
            << "Missing entry " << key << " in the table of resolved coefficients "
            << file << nl << exit(FatalIOError);
    }
    const bool throwing = FatalIOError.throwExceptions();
    try
    {
        Type value(dict.get<Type>(key));
        FatalIOError.throwExceptions(throwing);
        return value;
    }
    catch (const IOerror& err)
    {
        FatalIOError.throwExceptions(throwing);
        FatalIOErrorInFunction(dict)
            << "Bad entry " << key << " in the table of resolved coefficients "
            << file << ": " << err.message().c_str() << nl << exit(FatalIOError);
    }
    return Type();
}

//- A list over Re of lists over theta of lists over phi of vectors
superellipsoid::ResolvedCoefficientGrid readGrid
(
    const dictionary& dict,
    const word& key,
    const fileName& file
)
{
    const auto lists(readEntry<List<List<List<vector>>>>(dict, key, file));
    superellipsoid::ResolvedCoefficientGrid grid(lists.size());
    forAll(lists, k)
    {
        grid[k].resize(lists[k].size());
        forAll(lists[k], i)
        {
            for (const vector& C : lists[k][i])
            {
                grid[k][i].push_back(superellipsoidConversions::toEigen(C));
            }
        }
    }
    return grid;
}

std::vector<double> readNodes(const dictionary& dict, const word& key, const fileName& file)
{
    const scalarList nodes(readEntry<scalarList>(dict, key, file));
    return std::vector<double>(nodes.begin(), nodes.end());
}

//- The shape the table was computed for: its sub-dictionary shape
superellipsoid::ResolvedShapeKey readShapeKey
(
    const dictionary& dict,
    const fileName& file
)
{
    namespace checks = superellipsoidDictionaryChecks;

    if (!dict.isDict("shape"))
    {
        FatalIOErrorInFunction(dict)
            << "Missing entry shape { aspectRatios (a/c b/c); epsilon1 ..; epsilon2 ..; }"
            << " in the table of resolved coefficients " << file << nl
            << exit(FatalIOError);
    }
    const dictionary& shapeDict = dict.subDict("shape");
    checks::checkKeywords
    (
        shapeDict, {"aspectRatios", "epsilon1", "epsilon2"},
        "shape of the table " + file
    );
    const List<scalar> ratios
    (
        checks::readNumbers(shapeDict, "aspectRatios", 2, "(a/c b/c)")
    );
    superellipsoid::ResolvedShapeKey key;
    key.aOverC = ratios[0];
    key.bOverC = ratios[1];
    key.epsilon1 = checks::readScalar(shapeDict, "epsilon1");
    key.epsilon2 = checks::readScalar(shapeDict, "epsilon2");
    return key;
}

//- The nodes (Re, theta, phi), the unsteady flags and the two coefficient
//  grids, as read; validateTable checks them
void readTableEntries
(
    const dictionary& dict,
    const fileName& file,
    superellipsoid::ResolvedCoefficientTable& table
)
{
    table.reynolds = readNodes(dict, "reynolds", file);
    table.thetaDegrees = readNodes(dict, "theta", file);
    table.phiDegrees = readNodes(dict, "phi", file);
    for (const Switch unsteady : readEntry<List<Switch>>(dict, "unsteady", file))
    {
        table.unsteady.push_back(bool(unsteady));
    }
    table.forceCoefficients = readGrid(dict, "forceCoefficients", file);
    table.torqueCoefficients = readGrid(dict, "torqueCoefficients", file);
}

//- The core's checks of the table and of its shape against shape; each
//  message starts with the keyword and becomes a FatalIOError
void validateTable
(
    const dictionary& dict,
    const fileName& file,
    const superellipsoid::ResolvedCoefficientTable& table,
    const superellipsoid::Superellipsoid& shape
)
{
    try
    {
        superellipsoid::validateResolvedCoefficientTable(table);
        superellipsoid::requireTableMatchesShape(table, shape);
    }
    catch (const std::invalid_argument& err)
    {
        FatalIOErrorInFunction(dict)
            << "Bad table of resolved coefficients " << file << ": "
            << err.what() << nl << exit(FatalIOError);
    }
}

//- One log line: the Re range, the unsteady nodes and the directions
void reportTable
(
    const fileName& file,
    const superellipsoid::ResolvedCoefficientTable& table
)
{
    Info<< "    resolved coefficients " << file << ": Re ["
        << table.reynolds.front() << ", " << table.reynolds.back() << "] ("
        << label(table.reynolds.size()) << " nodes; averages of unsteady runs:";
    label nUnsteady = 0;
    for (size_t k = 0; k < table.reynolds.size(); ++k)
    {
        if (table.unsteady[k])
        {
            Info<< " Re " << table.reynolds[k];
            ++nUnsteady;
        }
    }
    Info<< (nUnsteady ? "" : " none") << "), "
        << label(table.thetaDegrees.size()) << " x "
        << label(table.phiDegrees.size()) << " directions" << endl;
}

} // End anonymous namespace


// * * * * * * * * * * * * * * * Global Functions  * * * * * * * * * * * * * //

Foam::fileName Foam::resolvedCoefficientFileName
(
    const dictionary& lawDict,
    const fileName& caseDir,
    const word& shapeName
)
{
    fileName dir(lawDict.get<fileName>("tableDirectory"));
    dir.expand();
    if (!dir.isAbsolute())
    {
        dir = caseDir/dir;
    }
    return dir/(shapeName + ".resolvedCoefficients");
}


std::shared_ptr<const superellipsoid::ResolvedCoefficientTable>
Foam::readResolvedCoefficientFile
(
    const fileName& file,
    const superellipsoid::Superellipsoid& shape,
    const dictionary& lawDict
)
{
    if (!isFile(file))
    {
        FatalIOErrorInFunction(lawDict)
            << "Bad entry tableDirectory: no table of resolved coefficients "
            << file << " (incidence resolvedTable reads"
            << " <tableDirectory>/<shape>.resolvedCoefficients for every shape)"
            << nl << exit(FatalIOError);
    }

    IFstream is(file);
    const dictionary dict(is);
    superellipsoidDictionaryChecks::checkKeywords
    (
        dict,
        {
            "FoamFile", "shape", "reynolds", "theta", "phi", "unsteady",
            "forceCoefficients", "torqueCoefficients"
        },
        "table of resolved coefficients " + file
    );

    auto table = std::make_shared<superellipsoid::ResolvedCoefficientTable>();
    table->shape = readShapeKey(dict, file);
    readTableEntries(dict, file, *table);
    validateTable(dict, file, *table, shape);
    reportTable(file, *table);

    return table;
}


// ************************************************************************* //
