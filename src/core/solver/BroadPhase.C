#include "solver/BroadPhase.H"
#include "contact/BoundingVolumes.H"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

namespace superellipsoid
{

namespace
{

//- Bits per axis in a packed cell key
constexpr int cellKeyBits = 21;
constexpr std::int64_t cellKeyMask = (std::int64_t(1) << cellKeyBits) - 1;

std::int64_t packCell(std::int64_t ix, std::int64_t iy, std::int64_t iz)
{
    // Offset into [0, 2^21): coordinates are clamped to +-maxCellCoordinate
    const std::int64_t off = maxCellCoordinate;
    return ((ix + off) & cellKeyMask)
         | (((iy + off) & cellKeyMask) << cellKeyBits)
         | (((iz + off) & cellKeyMask) << (2*cellKeyBits));
}

//- splitmix64 finaliser: spreads neighbouring keys over the table
std::uint64_t hashKey(std::int64_t key)
{
    std::uint64_t z = std::uint64_t(key) + 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30))*0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27))*0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

//- Bucket of cell (ix, iy, iz): the row (iy, iz) is hashed (rowHash), ix
//  added, so that the cells x - 1, x, x + 1 of a row fall into consecutive
//  buckets (the 13-cell forward stencil touches 5 rows: 5 scattered memory
//  accesses instead of 14 at large N); the cell key check in findPairs
//  makes any collision harmless
std::uint64_t rowHash(std::int64_t iy, std::int64_t iz)
{
    return hashKey(packCell(0, iy, iz));
}

std::uint64_t bucketInRow(std::uint64_t row, std::int64_t ix, std::uint64_t mask)
{
    return (row + std::uint64_t(ix)) & mask;
}

std::uint64_t bucketOf(std::int64_t ix, std::int64_t iy, std::int64_t iz, std::uint64_t mask)
{
    return bucketInRow(rowHash(iy, iz), ix, mask);
}

void checkCellSize(double cellSize, const char* who)
{
    if (!(std::isfinite(cellSize) && cellSize > 0))
    {
        std::ostringstream os;
        os << who << ": cellSize = " << cellSize << " must be positive and finite";
        throw std::invalid_argument(os.str());
    }
}

std::int64_t coordinateOf(double x, double cellSize)
{
    const double c = std::floor(x/cellSize);
    if (!(c > -double(maxCellCoordinate))) return -maxCellCoordinate;   // also NaN
    if (c > double(maxCellCoordinate)) return maxCellCoordinate;
    return std::int64_t(c);
}

} // namespace


std::int64_t CellList::cellCoordinate(double x) const
{
    return coordinateOf(x, cellSize_);
}


void CellList::build(const Vector3* centres, const double* radii, int n, double cellSize)
{
    checkCellSize(cellSize, "CellList::build");
    centres_ = centres;
    radii_ = radii;
    n_ = n;
    cellSize_ = cellSize;
    for (int i = 0; i < n; ++i)
    {
        if (!(2*radii[i] <= cellSize))
        {
            std::ostringstream os;
            os << "CellList::build: cellSize = " << cellSize << " is smaller than the bounding"
               << " diameter 2*radii[" << i << "] = " << 2*radii[i];
            throw std::invalid_argument(os.str());
        }
    }

    // Table of >= 2n buckets (power of two)
    std::size_t buckets = 16;
    while (buckets < 2*std::size_t(std::max(n, 1))) buckets <<= 1;
    mask_ = buckets - 1;

    cell_.resize(n);
    bucket_.resize(n);
    sorted_.resize(n);
    bucketStart_.assign(buckets + 1, 0);

    // Counting sort by bucket: O(n + buckets)
    for (int i = 0; i < n; ++i)
    {
        const Vector3& c = centres[i];
        cell_[i] = packCell(cellCoordinate(c.x()), cellCoordinate(c.y()), cellCoordinate(c.z()));
        bucket_[i] = std::uint32_t
        (
            bucketOf(cellCoordinate(c.x()), cellCoordinate(c.y()), cellCoordinate(c.z()), mask_)
        );
        ++bucketStart_[bucket_[i] + 1];
    }
    for (std::size_t b = 0; b < buckets; ++b)
    {
        bucketStart_[b + 1] += bucketStart_[b];
    }
    // Fill by a running cursor per bucket, kept in sorted_ order: use a
    // second pass with positions derived from bucketStart_ (stable)
    std::vector<int>& start = bucketStart_;
    for (int i = 0; i < n; ++i)
    {
        sorted_[start[bucket_[i]]++] = i;
    }
    // Restore the starts (shifted by one bucket after the fill)
    for (std::size_t b = buckets; b > 0; --b)
    {
        start[b] = start[b - 1];
    }
    start[0] = 0;
}


void CellList::findPairs(std::vector<CandidatePair>& out) const
{
    // Half stencil: the own cell (pairs j > i) and the 13 "forward"
    // neighbours (dz > 0, or dz = 0 and dy > 0, or dz = dy = 0 and dx > 0):
    // a pair in neighbouring cells is seen once, from the cell whose
    // offset to the other is forward (half the lookups of the 27-cell
    // stencil, the same pair set). The 13 cells lie in 5 rows of constant
    // (dy, dz): {dx} = {1} for the first, {-1, 0, 1} for the others
    static constexpr int rows[5][3] =   // dy, dz, first dx
    {
        {0, 0, 1}, {1, 0, -1}, {-1, 1, -1}, {0, 1, -1}, {1, 1, -1}
    };
    out.clear();
    for (int i = 0; i < n_; ++i)
    {
        const Vector3& ci = centres_[i];
        const double ri = radii_[i];
        const std::int64_t own = cell_[i];
        {
            const std::uint64_t b = bucket_[i];
            for (int s = bucketStart_[b]; s < bucketStart_[b + 1]; ++s)
            {
                const int j = sorted_[s];
                if (j <= i || cell_[j] != own) continue;
                if (boundingSpheresOverlap(ci, ri, centres_[j], radii_[j])) out.push_back({i, j});
            }
        }
        // Particles of sorted_[s0, s1) whose cell key is in [key0, key1]
        auto scan = [&](int s0, int s1, std::int64_t key0, std::int64_t key1)
        {
            for (int s = s0; s < s1; ++s)
            {
                const int j = sorted_[s];
                // hash collisions: the cell must be one of the stencil's
                if (cell_[j] < key0 || cell_[j] > key1) continue;
                if (boundingSpheresOverlap(ci, ri, centres_[j], radii_[j]))
                {
                    out.push_back(i < j ? CandidatePair{i, j} : CandidatePair{j, i});
                }
            }
        };
        const std::int64_t ix = cellCoordinate(ci.x());
        const std::int64_t iy = cellCoordinate(ci.y());
        const std::int64_t iz = cellCoordinate(ci.z());
        for (const auto& r : rows)
        {
            const std::int64_t jy = iy + r[0], jz = iz + r[1];
            const std::int64_t x0 = ix + r[2], x1 = ix + 1;
            // Clamped coordinates: beyond the key range no neighbour exists
            if (std::abs(jy) > maxCellCoordinate || std::abs(jz) > maxCellCoordinate) continue;
            // bucketOf: the row's hash plus x, so the row's cells are
            // consecutive buckets, and their particles one range of
            // sorted_ (in the order of a scan cell by cell) unless the
            // row wraps around the table or leaves the key range
            const std::uint64_t row = rowHash(jy, jz);
            const std::uint64_t b0 = bucketInRow(row, x0, mask_);
            const std::uint64_t count = std::uint64_t(x1 - x0 + 1);
            if (b0 + count - 1 <= mask_ && std::abs(x0) <= maxCellCoordinate
             && std::abs(x1) <= maxCellCoordinate)
            {
                scan(bucketStart_[b0], bucketStart_[b0 + count], packCell(x0, jy, jz), packCell(x1, jy, jz));
                continue;
            }
            for (std::int64_t jx = x0; jx <= x1; ++jx)
            {
                if (std::abs(jx) > maxCellCoordinate) continue;
                const std::int64_t key = packCell(jx, jy, jz);
                const std::uint64_t b = bucketInRow(row, jx, mask_);
                scan(bucketStart_[b], bucketStart_[b + 1], key, key);
            }
        }
    }
}


bool PairList::holds
(
    const Vector3* centres, const double* radii, const long* ids, int n, double skin
) const
{
    if (builds_ == 0 || !(skin > 0) || skin != skin_ || n != int(ids_.size())) return false;
    // Moves up to 0.49 skin: the 2 % left cover the round-off of the bound
    const double reach = 0.49*skin;
    for (int i = 0; i < n; ++i)
    {
        if (ids[i] != ids_[i] || radii[i] != radii_[i]) return false;
        if ((centres[i] - centres_[i]).squaredNorm() > reach*reach) return false;
    }
    return true;
}


void PairList::update
(
    const Vector3* centres, const double* radii, const long* ids, int n, double skin,
    std::vector<CandidatePair>& out
)
{
    if (!(skin >= 0 && std::isfinite(skin)))
    {
        std::ostringstream os;
        os << "PairList::update: skin = " << skin << " must be >= 0 and finite";
        throw std::invalid_argument(os.str());
    }
    if (n == 0)
    {
        out.clear();
        return;
    }
    if (!holds(centres, radii, ids, n, skin))
    {
        centres_.assign(centres, centres + n);
        radii_.assign(radii, radii + n);
        ids_.assign(ids, ids + n);
        enlarged_.resize(n);
        double rMax = 0;
        for (int i = 0; i < n; ++i)
        {
            enlarged_[i] = radii[i] + 0.5*skin;
            rMax = std::max(rMax, enlarged_[i]);
        }
        skin_ = skin;
        ++builds_;
        cells_.build(centres_.data(), enlarged_.data(), n, 2*rMax);
        cells_.findPairs(pairs_);
        // Canonical order: ids[i] < ids[j], ascending in (ids[i], ids[j])
        for (CandidatePair& p : pairs_)
        {
            if (ids[p.j] < ids[p.i]) std::swap(p.i, p.j);
        }
        std::sort
        (
            pairs_.begin(), pairs_.end(), [ids](const CandidatePair& x, const CandidatePair& y)
            {
                return ids[x.i] < ids[y.i] || (ids[x.i] == ids[y.i] && ids[x.j] < ids[y.j]);
            }
        );
    }
    out.clear();
    for (const CandidatePair& p : pairs_)
    {
        if (boundingSpheresOverlap(centres[p.i], radii[p.i], centres[p.j], radii[p.j])) out.push_back(p);
    }
}


void WallFaceGrid::build(const std::vector<WallFace>& faces, double cellSize)
{
    checkCellSize(cellSize, "WallFaceGrid::build");
    cellSize_ = cellSize;
    entries_.clear();
    faceLo_.resize(faces.size());
    faceHi_.resize(faces.size());
    for (std::size_t f = 0; f < faces.size(); ++f)
    {
        const WallFace& face = faces[f];
        Vector3 lo = face.vertices[0], hi = face.vertices[0];
        for (int k = 1; k < face.nVertices; ++k)
        {
            lo = lo.cwiseMin(face.vertices[k]);
            hi = hi.cwiseMax(face.vertices[k]);
        }
        faceLo_[f] = lo;
        faceHi_[f] = hi;
        const std::int64_t x0 = coordinateOf(lo.x(), cellSize), x1 = coordinateOf(hi.x(), cellSize);
        const std::int64_t y0 = coordinateOf(lo.y(), cellSize), y1 = coordinateOf(hi.y(), cellSize);
        const std::int64_t z0 = coordinateOf(lo.z(), cellSize), z1 = coordinateOf(hi.z(), cellSize);
        for (std::int64_t z = z0; z <= z1; ++z)
        for (std::int64_t y = y0; y <= y1; ++y)
        for (std::int64_t x = x0; x <= x1; ++x)
        {
            entries_.push_back({packCell(x, y, z), int(f)});
        }
    }
    std::sort(entries_.begin(), entries_.end());
}


void WallFaceGrid::query(const Vector3& lo, const Vector3& hi, std::vector<int>& out) const
{
    out.clear();
    if (entries_.empty()) return;
    const std::int64_t x0 = coordinateOf(lo.x(), cellSize_), x1 = coordinateOf(hi.x(), cellSize_);
    const std::int64_t y0 = coordinateOf(lo.y(), cellSize_), y1 = coordinateOf(hi.y(), cellSize_);
    const std::int64_t z0 = coordinateOf(lo.z(), cellSize_), z1 = coordinateOf(hi.z(), cellSize_);
    for (std::int64_t z = z0; z <= z1; ++z)
    for (std::int64_t y = y0; y <= y1; ++y)
    for (std::int64_t x = x0; x <= x1; ++x)
    {
        const std::int64_t key = packCell(x, y, z);
        auto it = std::lower_bound(entries_.begin(), entries_.end(), Entry{key, -1});
        for (; it != entries_.end() && it->key == key; ++it)
        {
            const int f = it->face;
            // Face box against query box (separating axis per coordinate)
            if (faceBoxOverlaps(f, lo, hi)) out.push_back(f);
        }
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
}

} // namespace superellipsoid
