#include "output/VtkPolyData.H"
#include "output/AtomicFile.H"

#include <cmath>
#include <limits>
#include <ostream>
#include <sstream>
#include <stdexcept>

namespace superellipsoid
{

namespace
{

constexpr int exactDigits = std::numeric_limits<double>::max_digits10;

//- Values per line of the long integer arrays (offsets, cell data)
constexpr int valuesPerLine = 12;

std::string particleName(const VtkParticle& p)
{
    return "particle " + std::to_string(p.id);
}

//- Validate one particle against the shape list; returns its unit quaternion
Quaternion checkedOrientation(const VtkParticle& p, const std::vector<Superellipsoid>& shapes)
{
    if (p.shapeId < 0 || p.shapeId >= int(shapes.size()))
    {
        throw std::invalid_argument
        (
            "VTK output: " + particleName(p) + ": shapeId " + std::to_string(p.shapeId)
          + " outside the shape list [0, " + std::to_string(shapes.size()) + ")"
        );
    }
    auto check = [&p](const Vector3& v, const char* what)
    {
        if (!v.allFinite())
        {
            std::ostringstream os;
            os << "VTK output: " << particleName(p) << ": non-finite " << what << " ("
               << v.transpose() << ")";
            throw std::invalid_argument(os.str());
        }
    };
    check(p.pose.position, "position");
    check(p.velocity, "velocity");
    check(p.angularVelocity, "angularVelocity");
    try
    {
        return normalisedOrientation(p.pose.orientation);
    }
    catch (const std::invalid_argument& e)
    {
        throw std::invalid_argument("VTK output: " + particleName(p) + ": " + e.what());
    }
}

void header(std::ostream& os, long nPoints, long nVerts, long nPolys)
{
    os << "<?xml version=\"1.0\"?>\n"
       << "<VTKFile type=\"PolyData\" version=\"0.1\" byte_order=\"LittleEndian\">\n"
       << "<PolyData>\n"
       << "<Piece NumberOfPoints=\"" << nPoints << "\" NumberOfVerts=\"" << nVerts
       << "\" NumberOfLines=\"0\" NumberOfStrips=\"0\" NumberOfPolys=\"" << nPolys << "\">\n";
}

void footer(std::ostream& os)
{
    os << "</Piece>\n</PolyData>\n</VTKFile>\n";
}

void beginArray(std::ostream& os, const char* type, const char* name, int components)
{
    os << "<DataArray type=\"" << type << "\" Name=\"" << name << "\"";
    if (components > 1) os << " NumberOfComponents=\"" << components << "\"";
    os << " format=\"ascii\">\n";
}

void endArray(std::ostream& os)
{
    os << "</DataArray>\n";
}

//- Connectivity offsets k*cellSize, k = 1..nCells
void writeOffsets(std::ostream& os, long nCells, long cellSize)
{
    beginArray(os, "Int64", "offsets", 1);
    for (long k = 1; k <= nCells; ++k)
    {
        os << k*cellSize << (k % valuesPerLine == 0 || k == nCells ? "\n" : " ");
    }
    endArray(os);
}

void writeVector(std::ostream& os, const Vector3& v)
{
    os << v.x() << ' ' << v.y() << ' ' << v.z() << '\n';
}


} // namespace


void SurfaceResolution::validate() const
{
    if (nEta < 2 || nOmega < 3)
    {
        throw std::invalid_argument
        (
            "VTK output: surface resolution (nEta nOmega) = (" + std::to_string(nEta) + " "
          + std::to_string(nOmega) + "): need nEta >= 2 and nOmega >= 3"
        );
    }
}


VtkWriteSummary writeSurfacesVtp
(
    std::ostream& os,
    const std::vector<VtkParticle>& particles,
    const std::vector<Superellipsoid>& shapes,
    const SurfaceResolution& resolution
)
{
    resolution.validate();

    // Validate everything before the first byte is written
    std::vector<Quaternion> orientations;
    orientations.reserve(particles.size());
    for (const VtkParticle& p : particles) orientations.push_back(checkedOrientation(p, shapes));

    // One particle-frame mesh and its unit normals (Eq. 30 of [Wedel2023]) per shape
    std::vector<SurfaceMesh> meshes;
    std::vector<std::vector<Vector3>> normals;
    for (const Superellipsoid& s : shapes)
    {
        meshes.push_back(s.triangulate(resolution.nEta, resolution.nOmega));
        normals.emplace_back();
        for (const Vector3& xp : meshes.back().points) normals.back().push_back(s.unitNormal(xp));
    }

    VtkWriteSummary summary;
    summary.particles = long(particles.size());
    summary.points = summary.particles*resolution.pointsPerParticle();
    summary.cells = summary.particles*resolution.trianglesPerParticle();

    header(os, summary.points, 0, summary.cells);

    // Points: Eq. (27) of [Wedel2023], r = R^T r' + r_c
    os << "<Points>\n";
    beginArray(os, "Float64", "Points", 3);
    os.precision(surfacePointDigits);
    for (std::size_t i = 0; i < particles.size(); ++i)
    {
        const VtkParticle& p = particles[i];
        for (const Vector3& xp : meshes[p.shapeId].points)
        {
            writeVector(os, orientations[i]*xp + p.pose.position);
        }
    }
    endArray(os);
    os << "</Points>\n";

    // Triangles
    os << "<Polys>\n";
    beginArray(os, "Int64", "connectivity", 1);
    long base = 0;
    for (const VtkParticle& p : particles)
    {
        for (const auto& t : meshes[p.shapeId].triangles)
        {
            os << base + t[0] << ' ' << base + t[1] << ' ' << base + t[2] << '\n';
        }
        base += long(meshes[p.shapeId].points.size());
    }
    endArray(os);
    writeOffsets(os, summary.cells, 3);
    os << "</Polys>\n";

    // Normals: unit, rotated with the particle (a few digits suffice for shading)
    constexpr int normalDigits = 6;
    os << "<PointData Normals=\"Normals\">\n";
    beginArray(os, "Float32", "Normals", 3);
    os.precision(normalDigits);
    for (std::size_t i = 0; i < particles.size(); ++i)
    {
        for (const Vector3& np : normals[particles[i].shapeId]) writeVector(os, orientations[i]*np);
    }
    endArray(os);
    os << "</PointData>\n";

    // Cell data: particle and shape ids of every triangle
    os << "<CellData Scalars=\"particleId\">\n";
    const char* names[2] = {"particleId", "shapeId"};
    const char* types[2] = {"Int64", "Int32"};
    for (int field = 0; field < 2; ++field)
    {
        beginArray(os, types[field], names[field], 1);
        long k = 0;
        for (const VtkParticle& p : particles)
        {
            const long value = field == 0 ? p.id : long(p.shapeId);
            const long n = long(meshes[p.shapeId].triangles.size());
            for (long j = 0; j < n; ++j, ++k)
            {
                os << value << (k % valuesPerLine == valuesPerLine - 1 || k == summary.cells - 1 ? "\n" : " ");
            }
        }
        endArray(os);
    }
    os << "</CellData>\n";
    footer(os);
    return summary;
}


VtkWriteSummary writeParticlesVtp
(
    std::ostream& os,
    const std::vector<VtkParticle>& particles,
    const std::vector<Superellipsoid>& shapes
)
{
    std::vector<Quaternion> e;
    e.reserve(particles.size());
    for (const VtkParticle& p : particles) e.push_back(checkedOrientation(p, shapes));

    const long n = long(particles.size());
    VtkWriteSummary summary{n, n, n};
    header(os, n, n, 0);
    os.precision(exactDigits);

    os << "<Points>\n";
    beginArray(os, "Float64", "Points", 3);
    for (const VtkParticle& p : particles) writeVector(os, p.pose.position);
    endArray(os);
    os << "</Points>\n";

    os << "<Verts>\n";
    beginArray(os, "Int64", "connectivity", 1);
    for (long k = 0; k < n; ++k) os << k << (k % valuesPerLine == valuesPerLine - 1 || k == n - 1 ? "\n" : " ");
    endArray(os);
    writeOffsets(os, n, 1);
    os << "</Verts>\n";

    os << "<PointData Scalars=\"shapeId\" Vectors=\"velocity\">\n";
    beginArray(os, "Int64", "id", 1);
    for (const VtkParticle& p : particles) os << p.id << '\n';
    endArray(os);
    beginArray(os, "Int32", "shapeId", 1);
    for (const VtkParticle& p : particles) os << p.shapeId << '\n';
    endArray(os);
    beginArray(os, "Float64", "quaternion", 4);
    for (const Quaternion& q : e) os << q.w() << ' ' << q.x() << ' ' << q.y() << ' ' << q.z() << '\n';
    endArray(os);
    beginArray(os, "Float64", "orientation", 4);
    for (const Quaternion& q : e) os << q.x() << ' ' << q.y() << ' ' << q.z() << ' ' << q.w() << '\n';
    endArray(os);
    beginArray(os, "Float64", "halfAxes", 3);
    for (const VtkParticle& p : particles) writeVector(os, shapes[p.shapeId].halfAxes());
    endArray(os);
    beginArray(os, "Float64", "epsilon1", 1);
    for (const VtkParticle& p : particles) os << shapes[p.shapeId].eps1() << '\n';
    endArray(os);
    beginArray(os, "Float64", "epsilon2", 1);
    for (const VtkParticle& p : particles) os << shapes[p.shapeId].eps2() << '\n';
    endArray(os);
    beginArray(os, "Float64", "roundness", 2);
    for (const VtkParticle& p : particles)
    {
        os << shapes[p.shapeId].eps2() << ' ' << shapes[p.shapeId].eps1() << '\n';
    }
    endArray(os);
    beginArray(os, "Float64", "velocity", 3);
    for (const VtkParticle& p : particles) writeVector(os, p.velocity);
    endArray(os);
    beginArray(os, "Float64", "angularVelocity", 3);
    for (const VtkParticle& p : particles) writeVector(os, p.angularVelocity);
    endArray(os);
    os << "</PointData>\n";
    footer(os);
    return summary;
}


VtkWriteSummary writeSurfacesVtp
(
    const std::string& file,
    const std::vector<VtkParticle>& particles,
    const std::vector<Superellipsoid>& shapes,
    const SurfaceResolution& resolution
)
{
    VtkWriteSummary summary;
    writeFileAtomically(file, [&](std::ostream& os)
    {
        summary = writeSurfacesVtp(os, particles, shapes, resolution);
    });
    return summary;
}


VtkWriteSummary writeParticlesVtp
(
    const std::string& file,
    const std::vector<VtkParticle>& particles,
    const std::vector<Superellipsoid>& shapes
)
{
    VtkWriteSummary summary;
    writeFileAtomically(file, [&](std::ostream& os)
    {
        summary = writeParticlesVtp(os, particles, shapes);
    });
    return summary;
}

} // namespace superellipsoid
