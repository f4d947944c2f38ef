/*---------------------------------------------------------------------------*\
    superellipsoidFoam: run-time selectable submodels of
    basicSuperellipsoidCloud. The collision models are made for the
    colliding-cloud typedef (makePairModel/makeWallModel use the literal
    CloudType, which PairCollision<collidingCloudType> looks up).
\*---------------------------------------------------------------------------*/

#include "basicSuperellipsoidCloud.H"

#include "makeParcelCloudFunctionObjects.H"

// Kinematic
#include "makeParcelForces.H"
#include "makeParcelDispersionModels.H"
#include "makeParcelInjectionModels.H"
#include "makeParcelCollisionModels.H"
#include "makeParcelPatchInteractionModels.H"
#include "makeParcelStochasticCollisionModels.H"
#include "makeParcelSurfaceFilmModels.H"

// Superellipsoid
#include "makeSuperellipsoidParcelForces.H"
#include "SuperellipsoidVTK.H"
#include "RandomNonOverlappingInjection.H"

// * * * * * * * * * * * * * * * * * * * * * * * * * * * * * * * * * * * * * //

makeParcelCloudFunctionObjects(basicSuperellipsoidCloud);

// Kinematic sub-models
makeParcelForces(basicSuperellipsoidCloud);
makeParcelDispersionModels(basicSuperellipsoidCloud);
makeParcelInjectionModels(basicSuperellipsoidCloud);
makeParcelCollisionModels(basicSuperellipsoidCollidingCloud);
makeParcelPatchInteractionModels(basicSuperellipsoidCloud);
makeParcelStochasticCollisionModels(basicSuperellipsoidCloud);
makeParcelSurfaceFilmModels(basicSuperellipsoidCloud);

// Superellipsoid sub-models
makeSuperellipsoidParcelForces(basicSuperellipsoidCloud);
makeCloudFunctionObjectType(SuperellipsoidVTK, basicSuperellipsoidCloud);
makeInjectionModelType(RandomNonOverlappingInjection, basicSuperellipsoidCloud);

// ************************************************************************* //
