#include "output/VtkPolyData.H"
#include "output/AtomicFile.H"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
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

//- The value types of the arrays
enum class ValueType
{
    Float64,
    Float32,
    Int64,
    Int32
};

//- Its VTK name
const char* nameOf(ValueType t)
{
    switch (t)
    {
        case ValueType::Float64: return "Float64";
        case ValueType::Float32: return "Float32";
        case ValueType::Int64: return "Int64";
        default: return "Int32";
    }
}

//- Bytes of one value
int bytesOf(ValueType t)
{
    return t == ValueType::Float64 || t == ValueType::Int64 ? 8 : 4;
}

//- One DataArray: its type, name, components, tuple count, the digits of
//  its ASCII values, and its values in order (values is called once with
//  the function that takes them)
struct DataArray
{
    ValueType type;
    std::string name;
    int components;
    long tuples;
    int digits;
    std::function<void(const std::function<void(double)>&)> values;
};

//- A group of arrays between an opening and a closing tag (<Points>, ...)
struct Section
{
    std::string open;
    std::string close;
    std::vector<DataArray> arrays;
};

bool littleEndian()
{
    const std::uint16_t one = 1;
    unsigned char first;
    std::memcpy(&first, &one, 1);
    return first == 1;
}

//- One value of an array of the given type: ASCII text (integers as
//  integers) or its raw bytes
template<class T>
void putBytes(std::ostream& os, T x)
{
    os.write(reinterpret_cast<const char*>(&x), sizeof(x));
}

void putValue(std::ostream& os, VtkFormat format, ValueType type, double v)
{
    const bool integer = type == ValueType::Int64 || type == ValueType::Int32;
    if (format == VtkFormat::ascii)
    {
        if (integer) os << static_cast<long long>(v);
        else os << v;
        return;
    }
    switch (type)
    {
        case ValueType::Float64: putBytes(os, v); break;
        case ValueType::Float32: putBytes(os, static_cast<float>(v)); break;
        case ValueType::Int64: putBytes(os, static_cast<std::int64_t>(v)); break;
        case ValueType::Int32: putBytes(os, static_cast<std::int32_t>(v)); break;
    }
}

//- The values of one array as ASCII text: a tuple per line, single values
//  valuesPerLine per line
void writeAsciiValues(std::ostream& os, const DataArray& a)
{
    os.precision(a.digits);
    const long perLine = a.components > 1 ? a.components : valuesPerLine;
    const long n = a.tuples*a.components;
    long k = 0;
    a.values([&](double v)
    {
        putValue(os, VtkFormat::ascii, a.type, v);
        ++k;
        os << (k % perLine == 0 || k == n ? '\n' : ' ');
    });
}

//- A PolyData piece of nPoints points, nVerts vertices and nPolys
//  polygons: the sections' arrays inline (ascii) or as raw appended data
//  (binary: each array's byte count as UInt64, then its values, native
//  byte order as declared in the header)
void writePolyData
(
    std::ostream& os,
    VtkFormat format,
    long nPoints,
    long nVerts,
    long nPolys,
    const std::vector<Section>& sections
)
{
    os << "<?xml version=\"1.0\"?>\n"
       << "<VTKFile type=\"PolyData\" version=\"1.0\" byte_order=\""
       << (littleEndian() ? "LittleEndian" : "BigEndian") << "\" header_type=\"UInt64\">\n"
       << "<PolyData>\n"
       << "<Piece NumberOfPoints=\"" << nPoints << "\" NumberOfVerts=\"" << nVerts
       << "\" NumberOfLines=\"0\" NumberOfStrips=\"0\" NumberOfPolys=\"" << nPolys << "\">\n";
    std::uint64_t offset = 0;
    for (const Section& s : sections)
    {
        os << s.open << '\n';
        for (const DataArray& a : s.arrays)
        {
            os << "<DataArray type=\"" << nameOf(a.type) << "\" Name=\"" << a.name << "\"";
            if (a.components > 1) os << " NumberOfComponents=\"" << a.components << "\"";
            if (format == VtkFormat::ascii)
            {
                os << " format=\"ascii\">\n";
                writeAsciiValues(os, a);
                os << "</DataArray>\n";
            }
            else
            {
                os << " format=\"appended\" offset=\"" << offset << "\"/>\n";
                offset += sizeof(std::uint64_t) + std::uint64_t(a.tuples*a.components*bytesOf(a.type));
            }
        }
        os << s.close << '\n';
    }
    os << "</Piece>\n</PolyData>\n";
    if (format == VtkFormat::binary)
    {
        os << "<AppendedData encoding=\"raw\">\n_";
        for (const Section& s : sections)
        {
            for (const DataArray& a : s.arrays)
            {
                const std::uint64_t bytes = std::uint64_t(a.tuples*a.components*bytesOf(a.type));
                os.write(reinterpret_cast<const char*>(&bytes), sizeof(bytes));
                a.values([&](double v) { putValue(os, format, a.type, v); });
            }
        }
        os << "\n</AppendedData>\n";
    }
    os << "</VTKFile>\n";
}

//- The smallest integer type that holds values up to maxValue (Int32: half
//  the bytes of a binary file's index arrays)
ValueType integerType(long maxValue)
{
    return maxValue <= std::numeric_limits<std::int32_t>::max() ? ValueType::Int32 : ValueType::Int64;
}

//- The integer type of the particles' ids
ValueType idType(const std::vector<VtkParticle>& particles)
{
    long maxId = 0;
    for (const VtkParticle& p : particles) maxId = std::max(maxId, std::abs(p.id) + 1);
    return integerType(maxId);
}

//- Connectivity offsets k cellSize, k = 1..nCells
DataArray offsets(long nCells, long cellSize)
{
    return {integerType(nCells*cellSize), "offsets", 1, nCells, exactDigits, [=](const std::function<void(double)>& put)
    {
        for (long k = 1; k <= nCells; ++k) put(double(k*cellSize));
    }};
}

void putVector(const std::function<void(double)>& put, const Vector3& v)
{
    put(v.x());
    put(v.y());
    put(v.z());
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


namespace
{

//- The particles with their checked orientations and, per shape, the
//  particle-frame mesh and its unit normals (Eq. (30) of [Wedel2023])
struct PlacedSurfaces
{
    const std::vector<VtkParticle>& particles;
    std::vector<Quaternion> orientations;
    std::vector<SurfaceMesh> meshes;
    std::vector<std::vector<Vector3>> normals;
};

//- Everything checked before the first byte is written
PlacedSurfaces placedSurfaces
(
    const std::vector<VtkParticle>& particles,
    const std::vector<Superellipsoid>& shapes,
    const SurfaceResolution& resolution
)
{
    resolution.validate();
    PlacedSurfaces out{particles, {}, {}, {}};
    out.orientations.reserve(particles.size());
    for (const VtkParticle& p : particles) out.orientations.push_back(checkedOrientation(p, shapes));
    for (const Superellipsoid& s : shapes)
    {
        out.meshes.push_back(s.triangulate(resolution.nEta, resolution.nOmega));
        out.normals.emplace_back();
        for (const Vector3& xp : out.meshes.back().points) out.normals.back().push_back(s.unitNormal(xp));
    }
    return out;
}

using Put = std::function<void(double)>;

//- Points: Eq. (27) of [Wedel2023], r = R^T r' + r_c
Section surfacePoints(const PlacedSurfaces& surfaces, const VtkWriteSummary& summary)
{
    Section points{"<Points>", "</Points>", {}};
    points.arrays.push_back({ValueType::Float64, "Points", 3, summary.points, surfacePointDigits, [&s = surfaces](const Put& put)
    {
        for (std::size_t i = 0; i < s.particles.size(); ++i)
        {
            const VtkParticle& p = s.particles[i];
            for (const Vector3& xp : s.meshes[p.shapeId].points)
            {
                putVector(put, s.orientations[i]*xp + p.pose.position);
            }
        }
    }});
    return points;
}

//- Triangles: each particle's mesh, its point numbers offset by the points before
Section surfaceTriangles(const PlacedSurfaces& surfaces, const VtkWriteSummary& summary)
{
    Section polys{"<Polys>", "</Polys>", {}};
    polys.arrays.push_back({integerType(summary.points - 1), "connectivity", 1, 3*summary.cells, exactDigits, [&s = surfaces](const Put& put)
    {
        long base = 0;
        for (const VtkParticle& p : s.particles)
        {
            for (const auto& t : s.meshes[p.shapeId].triangles)
            {
                for (int k = 0; k < 3; ++k) put(double(base + t[k]));
            }
            base += long(s.meshes[p.shapeId].points.size());
        }
    }});
    polys.arrays.push_back(offsets(summary.cells, 3));
    return polys;
}

//- Normals: unit, rotated with the particle (a few digits suffice for shading)
Section surfaceNormals(const PlacedSurfaces& surfaces, const VtkWriteSummary& summary)
{
    constexpr int normalDigits = 6;
    Section pointData{"<PointData Normals=\"Normals\">", "</PointData>", {}};
    pointData.arrays.push_back({ValueType::Float32, "Normals", 3, summary.points, normalDigits, [&s = surfaces](const Put& put)
    {
        for (std::size_t i = 0; i < s.particles.size(); ++i)
        {
            for (const Vector3& np : s.normals[s.particles[i].shapeId]) putVector(put, s.orientations[i]*np);
        }
    }});
    return pointData;
}

//- Cell data: particle and shape ids of every triangle
Section surfaceCellIds(const PlacedSurfaces& surfaces, const VtkWriteSummary& summary)
{
    Section cellData{"<CellData Scalars=\"particleId\">", "</CellData>", {}};
    const auto perTriangle = [&s = surfaces](bool shape)
    {
        return [&s, shape](const Put& put)
        {
            for (const VtkParticle& p : s.particles)
            {
                const double value = shape ? double(p.shapeId) : double(p.id);
                const std::size_t n = s.meshes[p.shapeId].triangles.size();
                for (std::size_t j = 0; j < n; ++j) put(value);
            }
        };
    };
    cellData.arrays.push_back({idType(surfaces.particles), "particleId", 1, summary.cells, exactDigits, perTriangle(false)});
    cellData.arrays.push_back({ValueType::Int32, "shapeId", 1, summary.cells, exactDigits, perTriangle(true)});
    return cellData;
}

} // namespace


VtkWriteSummary writeSurfacesVtp
(
    std::ostream& os,
    const std::vector<VtkParticle>& particles,
    const std::vector<Superellipsoid>& shapes,
    const SurfaceResolution& resolution,
    VtkFormat format
)
{
    const PlacedSurfaces surfaces = placedSurfaces(particles, shapes, resolution);

    VtkWriteSummary summary;
    summary.particles = long(particles.size());
    summary.points = summary.particles*resolution.pointsPerParticle();
    summary.cells = summary.particles*resolution.trianglesPerParticle();

    writePolyData
    (
        os, format, summary.points, 0, summary.cells,
        {
            surfacePoints(surfaces, summary), surfaceTriangles(surfaces, summary),
            surfaceNormals(surfaces, summary), surfaceCellIds(surfaces, summary)
        }
    );
    return summary;
}


VtkWriteSummary writeParticlesVtp
(
    std::ostream& os,
    const std::vector<VtkParticle>& particles,
    const std::vector<Superellipsoid>& shapes,
    VtkFormat format
)
{
    std::vector<Quaternion> e;
    e.reserve(particles.size());
    for (const VtkParticle& p : particles) e.push_back(checkedOrientation(p, shapes));

    const long n = long(particles.size());
    VtkWriteSummary summary{n, n, n};
    using Put = std::function<void(double)>;
    // One array of c components per particle, its values from value(i, put)
    const auto perParticle = [&](ValueType type, const char* name, int c, auto value) -> DataArray
    {
        return {type, name, c, n, exactDigits, [&particles, value](const Put& put)
        {
            for (std::size_t i = 0; i < particles.size(); ++i) value(i, put);
        }};
    };
    const auto shapeOf = [&](std::size_t i) -> const Superellipsoid& { return shapes[particles[i].shapeId]; };

    Section points{"<Points>", "</Points>", {}};
    points.arrays.push_back(perParticle(ValueType::Float64, "Points", 3, [&](std::size_t i, const Put& put)
    {
        putVector(put, particles[i].pose.position);
    }));

    Section verts{"<Verts>", "</Verts>", {}};
    verts.arrays.push_back(perParticle(integerType(n), "connectivity", 1, [](std::size_t i, const Put& put)
    {
        put(double(i));
    }));
    verts.arrays.push_back(offsets(n, 1));

    Section data{"<PointData Scalars=\"shapeId\" Vectors=\"velocity\">", "</PointData>", {}};
    data.arrays.push_back(perParticle(idType(particles), "id", 1, [&](std::size_t i, const Put& put)
    {
        put(double(particles[i].id));
    }));
    data.arrays.push_back(perParticle(ValueType::Int32, "shapeId", 1, [&](std::size_t i, const Put& put)
    {
        put(double(particles[i].shapeId));
    }));
    data.arrays.push_back(perParticle(ValueType::Float64, "quaternion", 4, [&](std::size_t i, const Put& put)
    {
        put(e[i].w()); put(e[i].x()); put(e[i].y()); put(e[i].z());
    }));
    data.arrays.push_back(perParticle(ValueType::Float64, "orientation", 4, [&](std::size_t i, const Put& put)
    {
        put(e[i].x()); put(e[i].y()); put(e[i].z()); put(e[i].w());
    }));
    data.arrays.push_back(perParticle(ValueType::Float64, "halfAxes", 3, [&](std::size_t i, const Put& put)
    {
        putVector(put, shapeOf(i).halfAxes());
    }));
    data.arrays.push_back(perParticle(ValueType::Float64, "epsilon1", 1, [&](std::size_t i, const Put& put)
    {
        put(shapeOf(i).eps1());
    }));
    data.arrays.push_back(perParticle(ValueType::Float64, "epsilon2", 1, [&](std::size_t i, const Put& put)
    {
        put(shapeOf(i).eps2());
    }));
    data.arrays.push_back(perParticle(ValueType::Float64, "roundness", 2, [&](std::size_t i, const Put& put)
    {
        put(shapeOf(i).eps2()); put(shapeOf(i).eps1());
    }));
    data.arrays.push_back(perParticle(ValueType::Float64, "velocity", 3, [&](std::size_t i, const Put& put)
    {
        putVector(put, particles[i].velocity);
    }));
    data.arrays.push_back(perParticle(ValueType::Float64, "angularVelocity", 3, [&](std::size_t i, const Put& put)
    {
        putVector(put, particles[i].angularVelocity);
    }));

    writePolyData(os, format, n, n, 0, {points, verts, data});
    return summary;
}


VtkWriteSummary writeSurfacesVtp
(
    const std::string& file,
    const std::vector<VtkParticle>& particles,
    const std::vector<Superellipsoid>& shapes,
    const SurfaceResolution& resolution,
    VtkFormat format
)
{
    VtkWriteSummary summary;
    writeFileAtomically(file, [&](std::ostream& os)
    {
        summary = writeSurfacesVtp(os, particles, shapes, resolution, format);
    });
    return summary;
}


VtkWriteSummary writeParticlesVtp
(
    const std::string& file,
    const std::vector<VtkParticle>& particles,
    const std::vector<Superellipsoid>& shapes,
    VtkFormat format
)
{
    VtkWriteSummary summary;
    writeFileAtomically(file, [&](std::ostream& os)
    {
        summary = writeParticlesVtp(os, particles, shapes, format);
    });
    return summary;
}

} // namespace superellipsoid
