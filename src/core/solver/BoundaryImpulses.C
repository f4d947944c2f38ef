#include "solver/BoundaryImpulses.H"

#include <algorithm>
#include <sstream>
#include <stdexcept>
#include <utility>

namespace superellipsoid
{

namespace
{

using PairIds = std::pair<long, long>;

PairIds idsOf(const BoundaryImpulse& r) { return {r.idA, r.idB}; }

//- Particle index of an id in a system sorted by id (-1: absent)
int indexOf(const ParticleSystem& system, long id)
{
    const auto& ps = system.particles;
    const auto it = std::lower_bound
    (
        ps.begin(), ps.end(), id, [](const Particle& p, long x) { return p.id < x; }
    );
    return it != ps.end() && it->id == id ? int(it - ps.begin()) : -1;
}

} // namespace


std::vector<int> imageBodies
(
    const ParticleSystem& system,
    const std::vector<char>& owned,
    long imageStride,
    const std::vector<PeriodicTransform>& images
)
{
    const int n = system.size();
    std::vector<int> body(n, -1);
    for (int i = 0; i < n; ++i)
    {
        const long id = system.particles[i].id;
        const long k = imageStride > 0 ? id/imageStride : 0;
        if (k == 0)
        {
            if (owned[i]) body[i] = i;
            continue;
        }
        // A rotated image moves as R (v, omega): it stays a ghost
        if (k - 1 < long(images.size()) && images[k - 1].rotation != Matrix3::Identity()) continue;
        const int r = indexOf(system, realId(id, imageStride));
        if (r >= 0 && owned[r]) body[i] = r;
    }
    return body;
}


Particle periodicImage(const Particle& p, const PeriodicTransform& T, long id)
{
    Particle image = p;
    image.id = id;
    image.pose.position = T.rotation*p.pose.position + T.translation;
    image.pose.orientation = (Quaternion(T.rotation)*p.pose.orientation).normalized();
    image.velocity = T.rotation*p.velocity;
    image.externalForce = T.rotation*p.externalForce;
    image.externalResistance = T.rotation*p.externalResistance*T.rotation.transpose();
    image.resistedImpulse = T.rotation*p.resistedImpulse;
    image.contactForce = T.rotation*p.contactForce;
    return image;
}


void packBoundaryImpulse(const BoundaryImpulse& r, double* buf)
{
    // Ids below 2^53 are exact as doubles
    buf[0] = double(r.idA);
    buf[1] = double(r.idB);
    for (int i = 0; i < 3; ++i)
    {
        buf[2 + i] = r.impulse[i];
        buf[5 + i] = r.angularImpulseB[i];
    }
}


BoundaryImpulse unpackBoundaryImpulse(const double* buf)
{
    BoundaryImpulse r;
    r.idA = long(buf[0]);
    r.idB = long(buf[1]);
    for (int i = 0; i < 3; ++i)
    {
        r.impulse[i] = buf[2 + i];
        r.angularImpulseB[i] = buf[5 + i];
    }
    return r;
}


void ownedBoundaryImpulses
(
    const std::vector<StepContact>& contacts,
    const std::vector<char>& owned,
    std::vector<BoundaryImpulse>& out,
    std::vector<int>& ghostIndex,
    long imageStride,
    const std::vector<PeriodicTransform>& images
)
{
    out.clear();
    ghostIndex.clear();
    for (const StepContact& c : contacts)
    {
        if (c.b < 0 || !owned[c.a] || owned[c.b]) continue;
        const long idB = realId(c.idB, imageStride);
        if (idB < c.idA) continue;      // an image's: the other side owns it
        BoundaryImpulse r{c.idA, idB, c.impulse, c.angularImpulseB};
        const long k = imageStride > 0 ? c.idB/imageStride : 0;
        if (k > 0 && !images.empty())
        {
            if (k > long(images.size()))
            {
                std::ostringstream os;
                os << "ownedBoundaryImpulses: image " << k << " of id " << c.idB
                   << " has no transform (" << images.size() << " given)";
                throw std::invalid_argument(os.str());
            }
            // Image k's impulses to its particle's frame: R_k^T
            const Matrix3& R = images[k - 1].rotation;
            r.impulse = R.transpose()*r.impulse;
            r.angularImpulseB = R.transpose()*r.angularImpulseB;
        }
        out.push_back(r);
        ghostIndex.push_back(c.b);
    }
}


int applyBoundaryImpulses
(
    ParticleSystem& system,
    const std::vector<StepContact>& contacts,
    const std::vector<char>& owned,
    std::vector<BoundaryImpulse> received,
    long imageStride,
    double h
)
{
    // This processor's answers for the contacts it does not own: with a
    // ghost a, and with an image b of smaller real id (the answer for a:
    // -impulse, its angular impulse)
    std::vector<BoundaryImpulse> local;
    for (const StepContact& c : contacts)
    {
        if (c.b < 0) continue;
        const long idB = realId(c.idB, imageStride);
        if (!owned[c.a] && owned[c.b])
        {
            local.push_back(BoundaryImpulse{c.idA, c.idB, c.impulse, c.angularImpulseB});
        }
        else if (owned[c.a] && !owned[c.b] && idB < c.idA)
        {
            local.push_back(BoundaryImpulse{idB, c.idA, -c.impulse, c.angularImpulseA});
        }
    }
    const auto byIds = [](const BoundaryImpulse& x, const BoundaryImpulse& y) { return idsOf(x) < idsOf(y); };
    std::sort(local.begin(), local.end(), byIds);
    std::sort(received.begin(), received.end(), byIds);

    // Per own particle: sum over its contacts of (owner's - local), one
    // difference per contact (exactly zero where both agree)
    const int n = system.size();
    std::vector<Vector3> dP(n, Vector3::Zero()), dL(n, Vector3::Zero());
    int changed = 0;
    auto add = [&](const BoundaryImpulse* mine, const BoundaryImpulse* theirs)
    {
        const long idB = mine ? mine->idB : theirs->idB;
        const int b = indexOf(system, idB);
        if (b < 0 || !owned[b])
        {
            std::ostringstream os;
            os << "applyBoundaryImpulses: idB = " << idB << " is not an own particle";
            throw std::invalid_argument(os.str());
        }
        const Vector3 P = (theirs ? theirs->impulse : Vector3::Zero()) - (mine ? mine->impulse : Vector3::Zero());
        const Vector3 L =
            (theirs ? theirs->angularImpulseB : Vector3::Zero()) - (mine ? mine->angularImpulseB : Vector3::Zero());
        if (P.isZero(0) && L.isZero(0)) return;
        dP[b] += P;
        dL[b] += L;
        ++changed;
    };
    std::size_t i = 0, j = 0;
    while (i < local.size() || j < received.size())
    {
        if (j == received.size() || (i < local.size() && idsOf(local[i]) < idsOf(received[j])))
        {
            add(&local[i++], nullptr);
        }
        else if (i == local.size() || idsOf(received[j]) < idsOf(local[i]))
        {
            add(nullptr, &received[j++]);
        }
        else
        {
            add(&local[i++], &received[j++]);
        }
    }

    for (int b = 0; b < n; ++b)
    {
        if (dP[b].isZero(0) && dL[b].isZero(0)) continue;
        Particle& p = system.particles[b];
        // v += dP/(m + h c); omega' += I'^-1 (e^-1 dL), Eq. (62) of [Wedel2023]
        const double c = h*isotropicResistance(p);
        const Vector3 dv = dP[b]/(p.mass + c);
        p.velocity += dv;
        p.resistedImpulse += c*dv;
        p.angularVelocity +=
            (p.pose.orientation.conjugate()*dL[b]).cwiseQuotient(p.principalMoments);
    }
    return changed;
}


ContactMomentumBalance contactMomentumBalance
(
    const ParticleSystem& system,
    const std::vector<Vector3>& momentumBefore,
    const std::vector<StepContact>& contacts,
    const std::vector<char>& owned
)
{
    ContactMomentumBalance m;
    for (int i = 0; i < system.size(); ++i)
    {
        if (!owned[i]) continue;
        const Vector3 dp = contactMomentum(system.particles[i]) - momentumBefore[i];
        m.change += dp;
        m.scale += dp.norm();
    }
    for (const StepContact& c : contacts)
    {
        if (c.b >= 0 || !owned[c.a]) continue;
        // The wall is b: the particle receives -impulse
        m.wallImpulse -= c.impulse;
        m.scale += c.impulse.norm();
    }
    return m;
}

} // namespace superellipsoid
