/*---------------------------------------------------------------------------*\
    superellipsoidFoam: impulse superellipsoid collision model (see header).
\*---------------------------------------------------------------------------*/

#include "impulseSuperellipsoidCollision.H"
#include "eigenConversions.H"
#include "addToRunTimeSelectionTable.H"
#include "superellipsoidDictionaryChecks.H"

namespace Foam
{
namespace superellipsoidCollisionModels
{
    defineTypeNameAndDebug(impulse, 0);
    addToRunTimeSelectionTable(superellipsoidCollisionModel, impulse, dictionary);
}
}


// * * * * * * * * * * * * * Static Member Functions * * * * * * * * * * * //

superellipsoid::ImpulseLaw
Foam::superellipsoidCollisionModels::impulse::readLaw
(
    const Foam::dictionary& dict,
    const superellipsoid::ImpulseLaw& defaults,
    const bool isWall
)
{
    superellipsoid::ImpulseLaw law = defaults;
    if (isWall)
    {
        superellipsoidDictionaryChecks::checkKeywords
        (
            dict, {"epsilonN", "epsilonT", "mu"}, "impulse wall law"
        );
    }
    else
    {
        superellipsoidDictionaryChecks::checkKeywords
        (
            dict, {"epsilonN", "epsilonT", "mu", "wall"}, "impulse law"
        );
    }
    if (dict.found("epsilonN"))
    {
        law.normalRestitution = superellipsoidCollisionModel::readBounded(dict, "epsilonN", 0, 1);
    }
    const bool hasEpsT = dict.found("epsilonT");
    const bool hasMu = dict.found("mu");
    if (hasEpsT && hasMu)
    {
        FatalIOErrorInFunction(dict)
            << "Bad entries epsilonT " << dict.get<Foam::scalar>("epsilonT")
            << " and mu " << dict.get<Foam::scalar>("mu")
            << ": give at most one tangential parameter" << Foam::nl
            << Foam::exit(Foam::FatalIOError);
    }
    if (hasEpsT)
    {
        law = superellipsoid::ImpulseLaw::withTangentialRestitution
        (
            law.normalRestitution, superellipsoidCollisionModel::readBounded(dict, "epsilonT", -1, 1)
        );
    }
    else if (hasMu)
    {
        law = superellipsoid::ImpulseLaw::withFriction
        (
            law.normalRestitution, superellipsoidCollisionModel::readBounded(dict, "mu", 0, Foam::GREAT)
        );
    }
    return law;
}



// * * * * * * * * * * * * * * * * Constructors  * * * * * * * * * * * * * * //

Foam::superellipsoidCollisionModels::impulse::impulse
(
    const dictionary& dict,
    const fvMesh& mesh,
    const superellipsoidShapeTable& shapes,
    const vector& g
)
:
    superellipsoidCollisionModel
    (
        typeName, superellipsoid::CollisionModel::impulse, dict, mesh, shapes
    )
{
    const dictionary& coeffs = dict.optionalSubDict("impulseCoeffs");
    settings_.pairLaw = readLaw(coeffs, superellipsoid::ImpulseLaw::frictionless(1), false);
    settings_.wallLaw = settings_.pairLaw;
    if (coeffs.found("wall"))
    {
        settings_.wallLaw = readLaw(coeffs.subDict("wall"), settings_.pairLaw, true);
    }
    // Used by the core only for the substep rule and resting contacts
    settings_.gravity = superellipsoidConversions::toEigen(g);

    initialise(dict);
}


// * * * * * * * * * * * * * * * Member Functions  * * * * * * * * * * * * * //

void Foam::superellipsoidCollisionModels::impulse::collide(const scalar h)
{
    try
    {
        // Impulse model: the parcels were moved by tracking; detect,
        // resolve in sweeps, remove overlaps (core, seed 004 Sect. 4)
        const superellipsoid::CollisionDiagnostics before = diag_;
        step_->detect(system_, diag_);
        step_->resolveSweeps(system_, diag_, h);
        step_->removeOverlaps(system_);
        ++diag_.substeps;
        finishSubstep(before);
    }
    catch (const std::exception& err)
    {
        FatalErrorInFunction
            << "Collision step failed at time " << mesh_.time().timeName()
            << ": " << err.what() << nl << exit(FatalError);
    }
}


// ************************************************************************* //
