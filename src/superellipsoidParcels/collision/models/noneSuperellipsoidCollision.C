/*---------------------------------------------------------------------------*\
    superellipsoidFoam: none superellipsoid collision model (see header).
\*---------------------------------------------------------------------------*/

#include "noneSuperellipsoidCollision.H"
#include "addToRunTimeSelectionTable.H"

namespace Foam
{
namespace superellipsoidCollisionModels
{
    defineTypeNameAndDebug(none, 0);
    addToRunTimeSelectionTable(superellipsoidCollisionModel, none, dictionary);
}
}


Foam::superellipsoidCollisionModels::none::none
(
    const dictionary& dict,
    const fvMesh& mesh,
    const superellipsoidShapeTable& shapes,
    const vector& g
)
:
    superellipsoidCollisionModel
    (
        typeName, superellipsoid::CollisionModel::none, dict, mesh, shapes
    )
{}


// ************************************************************************* //
