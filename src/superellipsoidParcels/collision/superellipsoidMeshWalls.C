/*---------------------------------------------------------------------------*\
    superellipsoidFoam: superellipsoidMeshWalls (see the header).
\*---------------------------------------------------------------------------*/

#include "superellipsoidMeshWalls.H"
#include "eigenConversions.H"
#include "wallPolyPatch.H"
#include "symmetryPolyPatch.H"
#include "symmetryPlanePolyPatch.H"
#include "Pstream.H"

#include <algorithm>

// * * * * * * * * * * * * * * * Local Functions * * * * * * * * * * * * * //

namespace
{

//- Doubles per wall face: n, vertices (3 maxFaceVertices), patch, velocity
//  (3), mirror
constexpr int faceRecord = 2 + 3*superellipsoid::maxFaceVertices + 3 + 1;


//- A wall face as received, with the centroid that orders it
struct FaceEntry
{
    int patch;
    bool mirror;
    superellipsoid::Vector3 centroid, velocity;
    std::vector<superellipsoid::Vector3> vertices;
};


//- Face f of walls at buf[k], k += faceRecord
void pack(const superellipsoid::WallSet& walls, const Foam::label f, Foam::scalarList& buf, Foam::label& k)
{
    const superellipsoid::WallFace& wf = walls.faces[f];
    buf[k++] = wf.nVertices;
    for (int j = 0; j < superellipsoid::maxFaceVertices; ++j)
    {
        for (int i = 0; i < 3; ++i) buf[k++] = wf.vertices[j][i];
    }
    buf[k++] = walls.patch[f];
    for (int i = 0; i < 3; ++i) buf[k++] = walls.velocity[f][i];
    buf[k++] = walls.isMirror(f);
}


//- The face at buf[j]
FaceEntry unpack(const Foam::scalarList& buf, const Foam::label j)
{
    FaceEntry e;
    Foam::label m = j;
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
    e.mirror = buf[m + 3] > 0;
    e.centroid = superellipsoid::Vector3::Zero();
    for (const auto& x : e.vertices) e.centroid += x;
    e.centroid /= double(e.vertices.size());
    return e;
}


//- Decomposition-independent order: by patch, then centroid
bool before(const FaceEntry& a, const FaceEntry& b)
{
    if (a.patch != b.patch) return a.patch < b.patch;
    for (int i = 0; i < 3; ++i)
    {
        if (a.centroid[i] != b.centroid[i]) return a.centroid[i] < b.centroid[i];
    }
    return false;
}

} // End anonymous namespace


// * * * * * * * * * * * * Private Member Functions  * * * * * * * * * * * //

superellipsoid::WallSet Foam::superellipsoidMeshWalls::localFaces
(
    const volVectorField& U,
    label& nFaces,
    label& nSplit,
    label& nMirror
) const
{
    const pointField& points = mesh_.points();
    superellipsoid::WallSet walls;
    for (const polyPatch& pp : mesh_.boundaryMesh())
    {
        // Symmetry planes stop the body's surface: a frictionless contact
        // with its mirror image (core ParticleSystem.H)
        const bool mirror =
            isA<symmetryPlanePolyPatch>(pp) || isA<symmetryPolyPatch>(pp);
        // A distributor is a fixed wall for the particles only
        const bool distributor = distributorPatches_.found(pp.name());
        if (!isA<wallPolyPatch>(pp) && !mirror && !distributor)
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
            // A mirror face does not move (the fluid's slip velocity on it
            // is no wall velocity)
            const superellipsoid::Vector3 uw = (mirror || distributor)
              ? superellipsoid::Vector3::Zero()
              : superellipsoidConversions::toEigen(Uw[i]);
            nMirror += mirror ? 1 : 0;
            if (label(v.size()) <= superellipsoid::maxFaceVertices)
            {
                walls.add
                (
                    superellipsoid::WallFace::fromVertices(v.data(), int(v.size())),
                    pp.index(), uw, mirror
                );
                ++nFaces;
                continue;
            }
            // Fan triangulation
            ++nSplit;
            for (std::size_t k = 1; k + 1 < v.size(); ++k)
            {
                const superellipsoid::Vector3 tri[3] = {v[0], v[k], v[k + 1]};
                walls.add
                (
                    superellipsoid::WallFace::fromVertices(tri, 3),
                    pp.index(), uw, mirror
                );
                ++nFaces;
            }
        }
    }
    return walls;
}


superellipsoid::WallSet Foam::superellipsoidMeshWalls::allFaces
(
    const superellipsoid::WallSet& local
)
{
    List<scalarList> all(Pstream::nProcs());
    scalarList& mine = all[Pstream::myProcNo()];
    mine.setSize(local.size()*faceRecord);
    label k = 0;
    for (label f = 0; f < local.size(); ++f)
    {
        pack(local, f, mine, k);
    }
    Pstream::gatherList(all);
    Pstream::scatterList(all);

    std::vector<FaceEntry> faces;
    for (const scalarList& buf : all)
    {
        for (label j = 0; j < buf.size(); j += faceRecord)
        {
            faces.push_back(unpack(buf, j));
        }
    }
    std::sort(faces.begin(), faces.end(), before);

    superellipsoid::WallSet walls;
    for (const FaceEntry& e : faces)
    {
        walls.add
        (
            superellipsoid::WallFace::fromVertices(e.vertices.data(), int(e.vertices.size())),
            e.patch, e.velocity, e.mirror
        );
    }
    return walls;
}


// * * * * * * * * * * * * * * * * Constructors  * * * * * * * * * * * * * * //

Foam::superellipsoidMeshWalls::superellipsoidMeshWalls(const fvMesh& mesh)
:
    mesh_(mesh),
    distributorPatches_(),
    upToDate_(false),
    reported_(false)
{}


void Foam::superellipsoidMeshWalls::setDistributorPatches
(
    const wordList& names,
    const dictionary& dict
)
{
    for (const word& name : names)
    {
        if (mesh_.boundaryMesh().findPatchID(name) < 0)
        {
            FatalIOErrorInFunction(dict)
                << "Bad entry distributorPatches: no patch " << name
                << "; patches: " << mesh_.boundaryMesh().names() << nl
                << exit(FatalIOError);
        }
    }
    distributorPatches_ = names;
    upToDate_ = false;
}


// * * * * * * * * * * * * * * * Member Functions  * * * * * * * * * * * * * //

superellipsoid::WallSet Foam::superellipsoidMeshWalls::convert
(
    const volVectorField& U
)
{
    upToDate_ = true;
    label nFaces = 0, nSplit = 0, nMirror = 0;
    superellipsoid::WallSet walls = allFaces(localFaces(U, nFaces, nSplit, nMirror));
    reduce(nFaces, sumOp<label>());
    reduce(nSplit, sumOp<label>());
    reduce(nMirror, sumOp<label>());

    if (!reported_)
    {
        // Walls converted again (moving mesh): no new log line
        reported_ = true;
        Info<< "    superellipsoid collisions: " << nFaces << " wall faces";
        if (nMirror)
        {
            Info<< " (" << nMirror << " on symmetry planes)";
        }
        if (nSplit)
        {
            Info<< " (" << nSplit << " faces fan-triangulated)";
        }
        Info<< endl;
    }
    return walls;
}


// ************************************************************************* //
