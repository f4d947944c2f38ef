/*---------------------------------------------------------------------------*\
Application
    superellipsoidPimpleFoam

Group
    grpSuperellipsoidSolvers

Description
    Transient incompressible PIMPLE solver for a carrier phase laden with a
    cloud of superellipsoid parcels (basicSuperellipsoidCloud): DPMFoam's
    coupling, i.e. the continuous-phase volume fraction alphac = 1 - theta
    in the momentum and pressure equations and the cloud's momentum source
    (two-way coupling). The momentum and pressure equations are DPMFoam's
    own (createFields.H, UcEqn.H, pEqn.H, included from its source folder),
    or their face-consistent form (faceMomentum below).

    Switches:
      - one-way coupling: constant/<cloud>Properties
        solution { coupled false; } (the cloud adds no momentum source and
        alphac = 1: the carrier phase does not see the parcels);
      - coupling-field smoothing: constant/<cloud>Properties
        couplingSmoothing { type diffusion; bandwidth <b>; nSteps <n>; }
        (couplingSmoothing.H; default none): theta and both parts of the
        momentum source are smoothed by diffusion over a Gaussian of
        bandwidth b, their integrals kept; the smoothed source density and
        implicit coefficient are written as cloudVolSUSu and cloudVolSUCoeff;
      - face-consistent flux: system/fvSolution PIMPLE { faceMomentum yes; }
        (UcEqnFace.H, pEqnFace.H; default no, DPMFoam's own equations): the
        flux from face conductances (the cells' alphac/A in series) and
        the half-cell means of the forces, the cell velocity from the
        superficial flux. A bed's top cell then carries its whole drag
        (DPMFoam's equations leave it half: docs/dense-beds.md). Read every
        time step;
      - frozen flow: system/fvSolution PIMPLE { frozenFlow yes; } (the
        carrier-phase fields are not solved: the parcels move in the given
        U, e.g. a prescribed shear, or in still fluid for dry and
        collision-only cases). Read every time step.

    The cloud name is given by -cloud (default kinematicCloud, as DPMFoam):
    its dictionary is constant/<cloud>Properties.

\*---------------------------------------------------------------------------*/

#include "fvCFD.H"
#include "singlePhaseTransportModel.H"
#include "PhaseIncompressibleTurbulenceModel.H"
#include "pimpleControl.H"
#include "Switch.H"
#include "reverseLinear.H"

#include "basicSuperellipsoidCloud.H"
#include "couplingSmoothing.H"

// DPMFoam's createFields.H constructs the cloud as basicKinematicTypeCloud
#define basicKinematicTypeCloud basicSuperellipsoidCloud

// * * * * * * * * * * * * * * * * * * * * * * * * * * * * * * * * * * * * * //

namespace
{

//- One-way coupling: the carrier phase does not see the parcels at all,
//  neither their momentum sources nor their volume fraction (alphac = 1)
void useUnitFluidFraction
(
    volScalarField& alphac,
    surfaceScalarField& alphacf,
    surfaceScalarField& alphaPhic,
    const surfaceScalarField& phic
)
{
    alphac = dimensionedScalar("one", dimless, 1.0);
    alphac.correctBoundaryConditions();
    alphacf = fvc::interpolate(alphac);
    alphaPhic = alphacf*phic;
}


//- Two-way coupling: the continuous-phase volume fraction from the parcel
//  volumes, alphac = max(1 - theta, alphacMin), theta smoothed
void updateFluidFraction
(
    const basicSuperellipsoidCloud& cloud,
    const couplingSmoothing& smoothing,
    const scalar alphacMin,
    volScalarField& alphac,
    surfaceScalarField& alphacf
)
{
    volScalarField theta(cloud.theta());
    smoothing.smooth(theta);
    alphac = max(1.0 - theta, alphacMin);
    alphac.correctBoundaryConditions();
    alphacf = fvc::interpolate(alphac);
}


//- The cloud's explicit momentum source per unit volume, -SU.source()/V
//  (DPMFoam's cloudVolSUSu); cloudSU keeps only its implicit part
tmp<volVectorField> cloudForceDensity
(
    fvVectorMatrix& cloudSU,
    const fvMesh& mesh
)
{
    tmp<volVectorField> tcloudVolSUSu
    (
        new volVectorField
        (
            IOobject
            (
                "cloudVolSUSu",
                mesh.time().timeName(),
                mesh
            ),
            mesh,
            dimensionedVector(cloudSU.dimensions()/dimVolume, Zero),
            zeroGradientFvPatchVectorField::typeName
        )
    );
    volVectorField& cloudVolSUSu = tcloudVolSUSu.ref();

    cloudVolSUSu.primitiveFieldRef() = -cloudSU.source()/mesh.V();
    cloudVolSUSu.correctBoundaryConditions();
    cloudSU.source() = Zero;

    return tcloudVolSUSu;
}


//- Smoothed coupling: the explicit force density and the implicit
//  coefficient per unit volume (cloudVolSUCoeff) smoothed, their integrals
//  kept; both written at write times
void smoothCloudSource
(
    const couplingSmoothing& smoothing,
    fvVectorMatrix& cloudSU,
    volVectorField& cloudVolSUSu
)
{
    const fvMesh& mesh = cloudVolSUSu.mesh();
    smoothing.smooth(cloudVolSUSu);

    volScalarField cloudVolSUCoeff
    (
        IOobject("cloudVolSUCoeff", mesh.time().timeName(), mesh),
        mesh,
        dimensionedScalar
        (
            cloudSU.dimensions()/dimVolume/dimVelocity, Zero
        ),
        zeroGradientFvPatchScalarField::typeName
    );
    cloudVolSUCoeff.primitiveFieldRef() = cloudSU.diag()/mesh.V();
    cloudVolSUCoeff.correctBoundaryConditions();
    smoothing.smooth(cloudVolSUCoeff);
    cloudSU.diag() = cloudVolSUCoeff.primitiveField()*mesh.V();

    if (mesh.time().writeTime())
    {
        cloudVolSUSu.write();
        cloudVolSUCoeff.write();
    }
}


//- CPU split of the run (process CPU, summed over the ranks): the cloud's
//  evolve (its collision steps apart), the coupling fields and the carrier
//  phase
class cpuSplit
{
    cpuTime timer_;

public:

    scalar cloud = 0;
    scalar coupling = 0;
    scalar fluid = 0;

    //- CPU seconds since the last call
    scalar increment()
    {
        return timer_.cpuTimeIncrement();
    }

    //- The log line; collisionCpu: the cloud's collision steps
    void report(const scalar collisionCpu) const
    {
        Info<< "CPU split [s]: fluid " << returnReduce(fluid, sumOp<scalar>())
            << ", coupling " << returnReduce(coupling, sumOp<scalar>())
            << ", collisions " << returnReduce(collisionCpu, sumOp<scalar>())
            << ", cloud without collisions "
            << returnReduce(cloud - collisionCpu, sumOp<scalar>()) << endl;
    }
};


//- The solver proper, after the argument list (see main)
int solve(argList& args)
{
    #include "createTime.H"
    #include "createMesh.H"
    #include "createControl.H"
    #include "createTimeControls.H"
    #include "createFields.H"
    #include "initContinuityErrs.H"

    const bool twoWayCoupling = kinematicCloud.solution().coupled();
    if (!twoWayCoupling)
    {
        useUnitFluidFraction(alphac, alphacf, alphaPhic, phic);
    }

    const couplingSmoothing smoothing(mesh, kinematicCloud.particleProperties());
    cpuSplit cpu;

    Info<< "\nStarting time loop\n" << endl;

    while (runTime.run())
    {
        #include "readTimeControls.H"
        #include "CourantNo.H"
        #include "setDeltaT.H"

        ++runTime;

        Info<< "Time = " << runTime.timeName() << nl << endl;

        const bool frozenFlow =
            pimple.dict().getOrDefault<Switch>("frozenFlow", false);

        continuousPhaseTransport.correct();
        muc = rhoc*continuousPhaseTransport.nu();

        Info<< "Evolving " << kinematicCloud.name() << endl;
        cpu.increment();
        kinematicCloud.evolve();
        cpu.cloud += cpu.increment();

        if (twoWayCoupling)
        {
            updateFluidFraction
            (
                kinematicCloud, smoothing, alphacMin, alphac, alphacf
            );
        }
        alphaPhic = alphacf*phic;
        cpu.coupling += cpu.increment();

        if (frozenFlow)
        {
            Info<< "Frozen flow: carrier phase not solved" << endl;
        }
        else
        {
            #include "carrierPhaseEqns.H"
        }
        cpu.fluid += cpu.increment();
        cpu.report(kinematicCloud.collisionCpuTime());

        runTime.write();

        runTime.printExecutionTime(Info);
    }

    // Initial + injected = present + escaped (per patch) + removed
    kinematicCloud.writeBookkeeping();

    Info<< "End\n" << endl;

    return 0;
}

} // End anonymous namespace


int main(int argc, char *argv[])
{
    argList::addNote
    (
        "Transient PIMPLE solver for an incompressible carrier phase coupled"
        " with a cloud of superellipsoid parcels (volume fraction and"
        " momentum coupling as DPMFoam)."
    );
    argList::addOption
    (
        "cloud",
        "name",
        "specify alternative cloud name. default is 'kinematicCloud'"
    );

    #include "postProcess.H"

    #include "addCheckCaseOptions.H"
    #include "setRootCaseLists.H"

    // Fatal errors (also OpenFOAM's own, e.g. an unknown particle force or
    // a restart field of the wrong size, which would call abort()) end the
    // run with the message and exit code 1 instead of SIGABRT and a stack
    // trace (set FOAM_ABORT for the stack trace). Caught here, while args
    // (whose destructor ends the process with status 0) still exists
    FatalError.throwExceptions();
    FatalIOError.throwExceptions();
    try
    {
        return solve(args);
    }
    catch (const Foam::IOerror& err)
    {
        Perr<< nl << err << nl << "\nFOAM exiting\n" << endl;
    }
    catch (const Foam::error& err)
    {
        Perr<< nl << err << nl << "\nFOAM exiting\n" << endl;
    }
    Pstream::exit(1);
    return 1;
}


// ************************************************************************* //
