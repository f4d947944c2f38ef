/*---------------------------------------------------------------------------*\
    superellipsoidFoam: superellipsoidCollisionModel (see the header).
\*---------------------------------------------------------------------------*/

#include "superellipsoidCollisionModel.H"
#include "superellipsoidShapeTable.H"
#include "eigenConversions.H"
#include "wallPolyPatch.H"
#include "Time.H"
#include "Pstream.H"
#include "superellipsoidDictionaryChecks.H"

#include "dynamics/RigidBodyRotation.H"

#include <algorithm>
#include <numeric>
#include <stdexcept>

// * * * * * * * * * * * * * * * Local Functions * * * * * * * * * * * * * //

namespace
{

//- Doubles per particle in the all-gather: id, shape, position (3),
//  quaternion (4), velocity (3), omega' (3), mass, moments (3)
constexpr int particleRecord = 19;

//- Doubles per wall face: n, vertices (3 maxFaceVertices), patch, velocity (3)
constexpr int faceRecord = 2 + 3*superellipsoid::maxFaceVertices + 3;


void pack(const superellipsoid::Particle& p, Foam::scalarList& buf, Foam::label& k)
{
    buf[k++] = Foam::scalar(p.id);
    buf[k++] = p.shapeIndex;
    for (int i = 0; i < 3; ++i) buf[k++] = p.pose.position[i];
    buf[k++] = p.pose.orientation.w();
    buf[k++] = p.pose.orientation.x();
    buf[k++] = p.pose.orientation.y();
    buf[k++] = p.pose.orientation.z();
    for (int i = 0; i < 3; ++i) buf[k++] = p.velocity[i];
    for (int i = 0; i < 3; ++i) buf[k++] = p.angularVelocity[i];
    buf[k++] = p.mass;
    for (int i = 0; i < 3; ++i) buf[k++] = p.principalMoments[i];
}


superellipsoid::Particle unpack(const Foam::scalarList& buf, Foam::label& k)
{
    superellipsoid::Particle p;
    p.id = long(buf[k++]);
    p.shapeIndex = int(buf[k++]);
    for (int i = 0; i < 3; ++i) p.pose.position[i] = buf[k++];
    const double w = buf[k++], x = buf[k++], y = buf[k++], z = buf[k++];
    p.pose.orientation = superellipsoid::Quaternion(w, x, y, z);
    for (int i = 0; i < 3; ++i) p.velocity[i] = buf[k++];
    for (int i = 0; i < 3; ++i) p.angularVelocity[i] = buf[k++];
    p.mass = buf[k++];
    for (int i = 0; i < 3; ++i) p.principalMoments[i] = buf[k++];
    return p;
}

} // End anonymous namespace


// * * * * * * * * * * * * * * Static Data Members * * * * * * * * * * * * //

namespace Foam
{
    defineTypeNameAndDebug(superellipsoidCollisionModel, 0);
    defineRunTimeSelectionTable(superellipsoidCollisionModel, dictionary);
}


// * * * * * * * * * * * * * Static Member Functions * * * * * * * * * * * //

Foam::scalar Foam::superellipsoidCollisionModel::readBounded
(
    const Foam::dictionary& dict,
    const Foam::word& key,
    const Foam::scalar lo,
    const Foam::scalar hi
)
{
    // Missing, wrong type, not finite, out of range: FatalIOError
    return superellipsoidDictionaryChecks::readBounded(dict, key, lo, hi);
}


Foam::scalar Foam::superellipsoidCollisionModel::readPositive
(
    const Foam::dictionary& dict,
    const Foam::word& key
)
{
    return superellipsoidDictionaryChecks::readPositive(dict, key);
}


Foam::autoPtr<Foam::superellipsoidCollisionModel>
Foam::superellipsoidCollisionModel::New
(
    const dictionary& cloudDict,
    const fvMesh& mesh,
    const superellipsoidShapeTable& shapes,
    const vector& g
)
{
    // No 'superellipsoidCollision' dictionary: model none
    const dictionary* dictPtr = cloudDict.findDict("superellipsoidCollision");
    const dictionary& dict = dictPtr ? *dictPtr : dictionary::null;
    const word modelType(dictPtr ? dict.get<word>("model") : word("none"));

    auto cstrIter = dictionaryConstructorTablePtr_->cfind(modelType);
    if (!cstrIter.found())
    {
        FatalIOErrorInFunction(dict)
            << "Bad entry model " << modelType << ": expected one of";
        for (const word& name : dictionaryConstructorTablePtr_->sortedToc())
        {
            FatalIOError << ' ' << name;
        }
        FatalIOError << nl << exit(FatalIOError);
    }

    return autoPtr<superellipsoidCollisionModel>(cstrIter()(dict, mesh, shapes, g));
}


// * * * * * * * * * * * * * * * * Constructors  * * * * * * * * * * * * * * //

Foam::superellipsoidCollisionModel::superellipsoidCollisionModel
(
    const word& modelName,
    const superellipsoid::CollisionModel model,
    const dictionary& dict,
    const fvMesh& mesh,
    const superellipsoidShapeTable& shapes
)
:
    mesh_(mesh),
    modelName_(modelName),
    settings_(),
    step_(),
    system_(),
    wallsBuilt_(false),
    wallsReported_(false),
    diag_(),
    truncatedDisplacements_(0),
    wallBackstops_(0),
    csv_()
{
    settings_.model = model;
    if (model == superellipsoid::CollisionModel::none)
    {
        return;
    }

    // Unknown keywords (typos) are errors, not silently ignored
    superellipsoidDictionaryChecks::checkKeywords
    (
        dict,
        {
            "model", "nSubCycles", "displacementFraction", "maxSweeps",
            "impulseCoeffs", "softContactCoeffs"
        },
        "superellipsoidCollision"
    );

    const label nSub =
        superellipsoidDictionaryChecks::readLabelOrDefault(dict, "nSubCycles", 0);
    if (nSub < 0)
    {
        FatalIOErrorInFunction(dict)
            << "Bad entry nSubCycles " << nSub
            << ": must be >= 1 (fixed) or 0 (automatic)" << nl
            << exit(FatalIOError);
    }
    settings_.fixedSubsteps = nSub;
    if (dict.found("displacementFraction"))
    {
        settings_.displacementFraction =
            readBounded(dict, "displacementFraction", SMALL, 1);
    }
    if (dict.found("maxSweeps"))
    {
        const label sweeps =
            superellipsoidDictionaryChecks::readLabel(dict, "maxSweeps");
        if (sweeps < 1)
        {
            FatalIOErrorInFunction(dict)
                << "Bad entry maxSweeps " << sweeps << ": must be >= 1"
                << nl << exit(FatalIOError);
        }
        settings_.maxSweeps = sweeps;
    }

    for (label i = 0; i < shapes.size(); ++i)
    {
        system_.shapes.push_back(shapes[i].shape);
    }
}


// * * * * * * * * * * * * * * Protected Member Functions  * * * * * * * * * //

void Foam::superellipsoidCollisionModel::initialise(const dictionary& dict)
{
    try
    {
        superellipsoid::validateCollisionSettings(settings_);
        step_.reset(new superellipsoid::CollisionStep(settings_));
    }
    catch (const std::invalid_argument& err)
    {
        FatalIOErrorInFunction(dict)
            << "Bad superellipsoidCollision settings: " << err.what() << nl
            << exit(FatalIOError);
    }

    Info<< "    superellipsoid collisions: model " << modelName_;
    if (settings_.fixedSubsteps > 0)
    {
        Info<< ", " << settings_.fixedSubsteps << " substeps per step";
    }
    else
    {
        Info<< ", substeps from physics (displacement fraction "
            << settings_.displacementFraction << " of c_min)";
    }
    Info<< endl;
}


// * * * * * * * * * * * * * * * Member Functions  * * * * * * * * * * * * * //

void Foam::superellipsoidCollisionModel::buildWalls(const volVectorField& U)
{
    if (wallsBuilt_)
    {
        return;
    }
    wallsBuilt_ = true;

    const polyBoundaryMesh& patches = mesh_.boundaryMesh();
    const pointField& points = mesh_.points();
    label nFaces = 0, nSplit = 0;
    superellipsoid::WallSet localWalls;

    for (const polyPatch& pp : patches)
    {
        if (!isA<wallPolyPatch>(pp))
        {
            continue;
        }
        const vectorField& Uw = U.boundaryField()[pp.index()];
        forAll(pp, i)
        {
            const face& f = pp[i];
            // OpenFOAM's boundary normals point out of the domain: reverse
            // the vertex order so the core's normal points into the fluid
            std::vector<superellipsoid::Vector3> v(f.size());
            forAll(f, k)
            {
                v[k] = superellipsoidConversions::toEigen(points[f[f.size() - 1 - k]]);
            }
            const superellipsoid::Vector3 uw =
                superellipsoidConversions::toEigen(Uw[i]);
            if (label(v.size()) <= superellipsoid::maxFaceVertices)
            {
                localWalls.add
                (
                    superellipsoid::WallFace::fromVertices(v.data(), int(v.size())),
                    pp.index(), uw
                );
                ++nFaces;
            }
            else
            {
                // Fan triangulation
                ++nSplit;
                for (std::size_t k = 1; k + 1 < v.size(); ++k)
                {
                    const superellipsoid::Vector3 tri[3] = {v[0], v[k], v[k + 1]};
                    localWalls.add
                    (
                        superellipsoid::WallFace::fromVertices(tri, 3),
                        pp.index(), uw
                    );
                    ++nFaces;
                }
            }
        }
    }

    // All-gather the faces of all processors (walls owned by another
    // processor are seen too), in a decomposition-independent order:
    // by patch, then centroid
    List<scalarList> all(Pstream::nProcs());
    scalarList& mine = all[Pstream::myProcNo()];
    mine.setSize(localWalls.size()*faceRecord);
    label k = 0;
    for (label f = 0; f < localWalls.size(); ++f)
    {
        const superellipsoid::WallFace& wf = localWalls.faces[f];
        mine[k++] = wf.nVertices;
        for (int j = 0; j < superellipsoid::maxFaceVertices; ++j)
        {
            for (int i = 0; i < 3; ++i) mine[k++] = wf.vertices[j][i];
        }
        mine[k++] = localWalls.patch[f];
        for (int i = 0; i < 3; ++i) mine[k++] = localWalls.velocity[f][i];
    }
    Pstream::gatherList(all);
    Pstream::scatterList(all);

    struct faceEntry
    {
        int patch;
        superellipsoid::Vector3 centroid, velocity;
        std::vector<superellipsoid::Vector3> vertices;
    };
    std::vector<faceEntry> faces;
    for (const scalarList& buf : all)
    {
        for (label j = 0; j < buf.size(); j += faceRecord)
        {
            faceEntry e;
            label m = j;
            const int n = int(buf[m++]);
            for (int v = 0; v < superellipsoid::maxFaceVertices; ++v, m += 3)
            {
                if (v < n)
                {
                    e.vertices.emplace_back(buf[m], buf[m + 1], buf[m + 2]);
                }
            }
            e.patch = int(buf[m++]);
            e.velocity = superellipsoid::Vector3(buf[m], buf[m + 1], buf[m + 2]);
            e.centroid = superellipsoid::Vector3::Zero();
            for (const auto& x : e.vertices) e.centroid += x;
            e.centroid /= double(e.vertices.size());
            faces.push_back(std::move(e));
        }
    }
    std::sort
    (
        faces.begin(), faces.end(),
        [](const faceEntry& a, const faceEntry& b)
        {
            if (a.patch != b.patch) return a.patch < b.patch;
            for (int i = 0; i < 3; ++i)
            {
                if (a.centroid[i] != b.centroid[i]) return a.centroid[i] < b.centroid[i];
            }
            return false;
        }
    );
    system_.walls = superellipsoid::WallSet();
    for (const faceEntry& e : faces)
    {
        system_.walls.add
        (
            superellipsoid::WallFace::fromVertices(e.vertices.data(), int(e.vertices.size())),
            e.patch, e.velocity
        );
    }
    reduce(nFaces, sumOp<label>());
    reduce(nSplit, sumOp<label>());
    step_->invalidateWalls();

    if (wallsReported_)
    {
        // Walls converted again (moving mesh): no new log line / CSV
        return;
    }
    wallsReported_ = true;

    Info<< "    superellipsoid collisions: " << nFaces << " wall faces";
    if (nSplit)
    {
        Info<< " (" << nSplit << " faces fan-triangulated)";
    }
    Info<< endl;

    // CSV of the per-step diagnostics
    if (Pstream::master())
    {
        const fileName dir
        (
            mesh_.time().globalPath()/"postProcessing"/"superellipsoidCollisions"
           /mesh_.time().timeName(mesh_.time().startTime().value())
        );
        mkDir(dir);
        csv_.reset(new OFstream(dir/"collisions.csv"));
        csv_().precision(12);
        csv_() << "time," << superellipsoid::CollisionDiagnostics::csvHeader().c_str()
            << ",truncatedDisplacements,wallBackstops" << endl;
    }
}


void Foam::superellipsoidCollisionModel::exchangeParticles()
{
    std::vector<superellipsoid::Particle>& global = system_.particles;
    global.clear();

    if (Pstream::parRun())
    {
        List<scalarList> all(Pstream::nProcs());
        scalarList& mine = all[Pstream::myProcNo()];
        mine.setSize(label(local_.size())*particleRecord);
        label k = 0;
        for (const superellipsoid::Particle& p : local_)
        {
            pack(p, mine, k);
        }
        Pstream::gatherList(all);
        Pstream::scatterList(all);
        for (const scalarList& buf : all)
        {
            for (label j = 0; j < buf.size(); )
            {
                global.push_back(unpack(buf, j));
            }
        }
    }
    else
    {
        global = local_;
    }

    // Canonical order (by id): the same on every processor and in serial
    std::sort
    (
        global.begin(), global.end(),
        [](const superellipsoid::Particle& a, const superellipsoid::Particle& b)
        {
            return a.id < b.id;
        }
    );

    localToGlobal_.resize(local_.size());
    for (std::size_t i = 0; i < local_.size(); ++i)
    {
        const auto it = std::lower_bound
        (
            global.begin(), global.end(), local_[i].id,
            [](const superellipsoid::Particle& p, long id) { return p.id < id; }
        );
        localToGlobal_[i] = label(it - global.begin());
    }
}


Foam::label Foam::superellipsoidCollisionModel::nSubSteps(const scalar Dt) const
{
    label n = 1;
    try
    {
        n = step_->chooseSubsteps(system_, Dt);
    }
    catch (const std::exception& err)
    {
        FatalErrorInFunction
            << "Collision substeps: " << err.what() << nl << exit(FatalError);
    }
    reduce(n, maxOp<label>());
    return n;
}


void Foam::superellipsoidCollisionModel::endStep(const scalar time)
{
    step_->pairCache().dropUntouched();
    diag_.translationalEnergy = superellipsoid::translationalKineticEnergy(system_);
    diag_.rotationalEnergy = superellipsoid::rotationalKineticEnergy(system_);

    // Counts of this processor's parcels: summed over processors
    label truncated = truncatedDisplacements_;
    label backstops = wallBackstops_;
    reduce(truncated, sumOp<label>());
    reduce(backstops, sumOp<label>());

    Info<< "    collisions (" << modelName_ << "): "
        << diag_.summary().c_str()
        << ", truncated overlap displacements " << truncated
        << ", wall backstops " << backstops << endl;
    if (backstops)
    {
        WarningInFunction
            << backstops << " parcel centre(s) reached a wall face at time "
            << time << ": the patch interaction model acted as backstop"
            << " (collision substeps too large?)" << endl;
    }

    if (csv_.valid())
    {
        csv_() << time << ',' << diag_.csvRow().c_str() << ','
            << truncated << ',' << backstops << endl;
    }

    diag_ = superellipsoid::CollisionDiagnostics();
    truncatedDisplacements_ = 0;
    wallBackstops_ = 0;
}


// ************************************************************************* //
