/*---------------------------------------------------------------------------*\
    superellipsoidFoam: type names of basicSuperellipsoidParcel and its Cloud.
\*---------------------------------------------------------------------------*/

#include "basicSuperellipsoidParcel.H"
#include "Cloud.H"

// * * * * * * * * * * * * * * * * * * * * * * * * * * * * * * * * * * * * * //

namespace Foam
{
    defineTemplateTypeNameAndDebug(basicSuperellipsoidParcel, 0);
    defineTemplateTypeNameAndDebug(Cloud<basicSuperellipsoidParcel>, 0);
}

// ************************************************************************* //
