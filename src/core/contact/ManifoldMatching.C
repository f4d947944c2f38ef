#include "contact/ManifoldGeometry.H"

#include <stdexcept>
#include <string>

namespace superellipsoid
{

int matchManifoldPoints
(
    const ContactManifold& previous, const ContactManifold& current,
    double matchDistance, std::array<int, maxManifoldPoints>& previousIndex
)
{
    if (!(matchDistance >= 0))
    {
        throw std::invalid_argument
        (
            "matchManifoldPoints: matchDistance = " + std::to_string(matchDistance) + " must be >= 0"
        );
    }
    previousIndex.fill(-1);
    bool usedPrev[maxManifoldPoints] = {false, false, false, false};
    const double r2 = matchDistance*matchDistance;
    int matched = 0;
    // Closest pairs first (at most 16 candidates): greedy by distance
    while (true)
    {
        int bi = -1, bj = -1;
        double best = r2;
        for (int i = 0; i < current.count; ++i)
        {
            if (previousIndex[i] >= 0) continue;
            for (int j = 0; j < previous.count; ++j)
            {
                if (usedPrev[j]) continue;
                const double d2 = (current.points[i].pointInA - previous.points[j].pointInA).squaredNorm();
                if (d2 <= best && (bi < 0 || d2 < best))
                {
                    best = d2;
                    bi = i;
                    bj = j;
                }
            }
        }
        if (bi < 0) return matched;
        previousIndex[bi] = bj;
        usedPrev[bj] = true;
        ++matched;
    }
}

} // namespace superellipsoid
