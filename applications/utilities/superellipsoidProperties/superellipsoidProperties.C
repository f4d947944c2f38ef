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

    const scalar rho = dict.get<scalar>("rho");
    if (!(rho > 0))
    {
        FatalIOErrorInFunction(dict)
            << "Bad entry rho " << rho << ": the density must be positive"
            << nl << exit(FatalIOError);
    }

    const superellipsoidShape shape(dict.subDict("shape"));

    Info<< nl << "Superellipsoid " << dict.name() << nl;
    shape.writeProperties(Info, rho);

    Info<< nl << "End" << nl << endl;

    return 0;
}


// ************************************************************************* //
