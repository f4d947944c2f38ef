/*---------------------------------------------------------------------------*\
    superellipsoidFoam: diffusion smoothing of the coupling fields (see the
    header and docs/coupling-smoothing.md).
\*---------------------------------------------------------------------------*/

#include "couplingSmoothing.H"

#include "superellipsoidDictionaryChecks.H"
#include "fvm.H"
#include "fvc.H"
#include "zeroGradientFvPatchFields.H"

// * * * * * * * * * * * * * * * * Constructors  * * * * * * * * * * * * * * //

Foam::couplingSmoothing::couplingSmoothing
(
    const fvMesh& mesh,
    const dictionary& cloudProperties
)
:
    mesh_(mesh),
    active_(false),
    bandwidth_(0),
    nSteps_(0)
{
    namespace checks = superellipsoidDictionaryChecks;

    const dictionary* dictPtr =
        cloudProperties.findDict("couplingSmoothing", keyType::LITERAL);
    if (!dictPtr)
    {
        Info<< "couplingSmoothing: none (cell-wise coupling fields)" << endl;
        return;
    }
    const dictionary& dict = *dictPtr;
    checks::checkKeywords
    (
        dict, {"type", "bandwidth", "nSteps"}, "couplingSmoothing"
    );

    const word type(dict.getOrDefault<word>("type", "none"));
    if (type == "none")
    {
        Info<< "couplingSmoothing: none (cell-wise coupling fields)" << endl;
        return;
    }
    if (type != "diffusion")
    {
        FatalIOErrorInFunction(dict)
            << "Unknown couplingSmoothing type " << type << " in "
            << dict.name() << ": expected none or diffusion" << nl
            << exit(FatalIOError);
    }

    active_ = true;
    bandwidth_ = checks::readPositive(dict, "bandwidth");
    nSteps_ = checks::readLabelOrDefault(dict, "nSteps", 4);
    checks::checkRange<label>(dict, "nSteps", nSteps_, 1);

    Info<< "couplingSmoothing: diffusion, bandwidth " << bandwidth_
        << " m (Gaussian variance b^2/2 per direction), pseudo-time b^2/4 = "
        << pseudoTime() << " m^2 in " << nSteps_ << " implicit steps" << endl;
}


// * * * * * * * * * * * * * Private Member Functions  * * * * * * * * * * * //

template<class Type>
void Foam::couplingSmoothing::diffuse
(
    GeometricField<Type, fvPatchField, volMesh>& field
) const
{
    typedef GeometricField<Type, fvPatchField, volMesh> fieldType;

    // Zero gradient at walls and other physical patches; constraint patches
    // (processor, cyclic, symmetry, empty, wedge) keep their own type
    wordList patchTypes
    (
        mesh_.boundary().size(), zeroGradientFvPatchField<Type>::typeName
    );
    forAll(mesh_.boundaryMesh(), patchi)
    {
        const word& pType = mesh_.boundaryMesh()[patchi].type();
        if (polyPatch::constraintType(pType))
        {
            patchTypes[patchi] = pType;
        }
    }

    fieldType phi
    (
        IOobject
        (
            field.name() + "Smoothed",
            mesh_.time().timeName(),
            mesh_,
            IOobject::NO_READ,
            IOobject::NO_WRITE,
            false
        ),
        mesh_,
        dimensioned<Type>(field.dimensions(), Zero),
        patchTypes
    );
    phi.primitiveFieldRef() = field.primitiveField();
    phi.correctBoundaryConditions();

    const dimensionedScalar dtau("dtau", dimArea, pseudoTime()/nSteps_);
    const word scheme("laplacian(couplingSmoothing)");

    // Symmetric positive definite (identity/dtau minus a Laplacian)
    dictionary solverDict;
    solverDict.add("solver", word("PCG"));
    solverDict.add("preconditioner", word("DIC"));
    solverDict.add("tolerance", 1e-12);
    solverDict.add("relTol", 0);
    solverDict.add("maxIter", 1000);

    // Quiet: nSteps solves per field and fluid step
    const int debug0 = SolverPerformance<Type>::debug;
    SolverPerformance<Type>::debug = 0;

    for (label step = 0; step < nSteps_; ++step)
    {
        const fieldType phiOld(phi.name() + "Old", phi);

        // Implicit Euler: (phi - phiOld)/dtau = laplacian(phi)
        fvMatrix<Type> eqn
        (
            fvm::Sp(1/dtau, phi) - fvm::laplacian(phi, scheme)
         ==
            phiOld/dtau
        );
        eqn.solve(solverDict);

        // Flux form of the same step: the face fluxes cancel in pairs and
        // vanish at zero-gradient walls, so sum(V phi) is kept to round-off
        phi.primitiveFieldRef() =
            phiOld.primitiveField()
          + dtau.value()*fvc::laplacian(phi, scheme)().primitiveField();
        phi.correctBoundaryConditions();
    }

    SolverPerformance<Type>::debug = debug0;

    field.primitiveFieldRef() = phi.primitiveField();
    field.correctBoundaryConditions();
}


// * * * * * * * * * * * * * * * Member Functions  * * * * * * * * * * * * * //

void Foam::couplingSmoothing::smooth(volScalarField& field) const
{
    if (active_)
    {
        diffuse(field);
    }
}


void Foam::couplingSmoothing::smooth(volVectorField& field) const
{
    if (active_)
    {
        diffuse(field);
    }
}


// ************************************************************************* //
