/*---------------------------------------------------------------------------*\
Application
    superellipsoidProperties

Group
    grpSuperellipsoidUtilities

Description
    Print the geometric and mass properties of a superellipsoid particle
    shape read from a dictionary (default constant/superellipsoidProperties):

    \verbatim
    rho     2500;
    shape
    {
        a 3e-3; b 2e-3; c 1e-3; epsilon1 0.5; epsilon2 0.8;
    }
    \endverbatim

Usage
    superellipsoidProperties [-dict file]

\*---------------------------------------------------------------------------*/

#include "argList.H"
#include "Time.H"
#include "IOdictionary.H"
#include "superellipsoidShape.H"
#include "superellipsoidDictionaryChecks.H"

using namespace Foam;

// * * * * * * * * * * * * * * * * * * * * * * * * * * * * * * * * * * * * * //

int main(int argc, char *argv[])
{
    argList::addNote
    (
        "Print the volume, mass and inertia of a superellipsoid particle shape"
    );
    argList::noParallel();
    argList::addOption
    (
        "dict",
        "file",
        "Alternative dictionary (default: constant/superellipsoidProperties)"
    );

    #include "setRootCase.H"
    #include "createTime.H"

    // A relative path is relative to the case, see IOobject(path, ...)
    const fileName dictPath =
        args.getOrDefault<fileName>("dict", "constant/superellipsoidProperties");

    IOdictionary dict
    (
        IOobject
        (
            dictPath,
            runTime,
            IOobject::MUST_READ,
            IOobject::NO_WRITE,
            false
        )
    );

    // Missing, wrong type, non-finite or non-positive: FatalIOError
    const scalar rho = superellipsoidDictionaryChecks::readPositive(dict, "rho");

    const dictionary& shapeDict = dict.subDict("shape");
    superellipsoidDictionaryChecks::checkKeywords
    (
        shapeDict, {"a", "b", "c", "epsilon1", "epsilon2"}, "shape"
    );
    const superellipsoidShape shape(shapeDict);

    Info<< nl << "Superellipsoid " << dict.name() << nl;
    shape.writeProperties(Info, rho);

    Info<< nl << "End" << nl << endl;

    return 0;
}


// ************************************************************************* //
