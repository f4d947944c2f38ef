/*---------------------------------------------------------------------------*\
    superellipsoidFoam: superellipsoidCollisionModel, the conversion of the
    mesh's wall patches and the distributorPatches (fixed walls for the
    particles only) (and, impulse model, symmetry / symmetryPlane
    patches as mirror faces) into the core's wall faces (all processors'
    faces, decomposition-independent order).
\*---------------------------------------------------------------------------*/

#include "superellipsoidCollisionModel.H"
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


} // End anonymous namespace


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
    label nFaces = 0, nSplit = 0, nMirror = 0;
    superellipsoid::WallSet localWalls;

    for (const polyPatch& pp : patches)
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
                localWalls.add
                (
                    superellipsoid::WallFace::fromVertices(v.data(), int(v.size())),
                    pp.index(), uw, mirror
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
                        pp.index(), uw, mirror
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
        mine[k++] = localWalls.isMirror(f);
    }
    Pstream::gatherList(all);
    Pstream::scatterList(all);

    struct faceEntry
    {
        int patch;
        bool mirror;
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
            e.mirror = buf[m + 3] > 0;
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
            e.patch, e.velocity, e.mirror
        );
    }
    reduce(nFaces, sumOp<label>());
    reduce(nSplit, sumOp<label>());
    reduce(nMirror, sumOp<label>());
    step_->invalidateWalls();

    if (wallsReported_)
    {
        // Walls converted again (moving mesh): no new log line / CSV
        return;
    }
    wallsReported_ = true;

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

    openDiagnostics();
}


// ************************************************************************* //
