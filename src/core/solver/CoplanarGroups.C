#include "solver/CoplanarGroups.H"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <unordered_map>

namespace superellipsoid
{

namespace
{

using Cell = std::array<std::int64_t, 4>;

struct CellHash
{
    std::size_t operator()(const Cell& c) const
    {
        std::uint64_t h = 1469598103934665603ull;
        for (const std::int64_t v : c) h = (h ^ std::uint64_t(v))*1099511628211ull;
        return std::size_t(h);
    }
};

//- Grid cell of a key: its components in units of coplanarTolerance
Cell cellOf(const std::array<double, 4>& key)
{
    Cell c;
    for (int i = 0; i < 4; ++i) c[i] = std::int64_t(std::floor(key[i]/coplanarTolerance));
    return c;
}

//- Root of a face in the union-find forest (path halving)
int root(std::vector<int>& parent, int f)
{
    while (parent[f] != f)
    {
        parent[f] = parent[parent[f]];
        f = parent[f];
    }
    return f;
}

} // namespace


CoplanarGroups groupCoplanarFaces(const std::vector<WallFace>& faces)
{
    const int n = int(faces.size());
    double scale = 0;
    for (const WallFace& f : faces)
    {
        for (int k = 0; k < f.nVertices; ++k) scale = std::max(scale, f.vertices[k].cwiseAbs().maxCoeff());
    }
    scale = std::max(scale, std::numeric_limits<double>::min());

    // Components (n, n.p / L) and their cells
    std::vector<std::array<double, 4>> key(n);
    std::unordered_map<Cell, std::vector<int>, CellHash> grid;
    grid.reserve(std::size_t(n));
    for (int f = 0; f < n; ++f)
    {
        const Vector3& nf = faces[f].normal;
        key[f] = {nf.x(), nf.y(), nf.z(), nf.dot(faces[f].vertices[0])/scale};
        grid[cellOf(key[f])].push_back(f);
    }

    // Union of every pair within tolerance: they lie in neighbouring cells;
    // the root is the smallest face index
    std::vector<int> parent(n);
    std::iota(parent.begin(), parent.end(), 0);
    for (int f = 0; f < n; ++f)
    {
        const Cell c0 = cellOf(key[f]);
        for (int m = 0; m < 81; ++m)
        {
            Cell c = c0;
            for (int i = 0, r = m; i < 4; ++i, r /= 3) c[i] += r%3 - 1;
            const auto it = grid.find(c);
            if (it == grid.end()) continue;
            for (const int g : it->second)
            {
                if (g <= f) continue;
                bool same = true;
                for (int i = 0; i < 4 && same; ++i) same = std::abs(key[f][i] - key[g][i]) <= coplanarTolerance;
                if (!same) continue;
                const int a = root(parent, f), b = root(parent, g);
                if (a != b) parent[std::max(a, b)] = std::min(a, b);
            }
        }
    }

    // Ids in the order of the groups' first faces
    CoplanarGroups groups;
    groups.group.assign(n, -1);
    for (int f = 0; f < n; ++f)
    {
        const int r = root(parent, f);
        if (r == f)
        {
            groups.group[f] = int(groups.firstFace.size());
            groups.firstFace.push_back(f);
        }
        else
        {
            groups.group[f] = groups.group[r];
        }
    }
    return groups;
}

} // namespace superellipsoid
