/*---------------------------------------------------------------------------*\
    superellipsoidFoam: contact-record serialisation (see the header).
\*---------------------------------------------------------------------------*/

#include "superellipsoidContactRecords.H"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

// * * * * * * * * * * * * * * * Local Functions * * * * * * * * * * * * * //

namespace
{

//- Characters of one hex-coded double: x and 16 digits; codes per word
//  (OpenFOAM reads words of up to 1023 characters)
constexpr Foam::label hexLength = 17;
constexpr Foam::label hexPerWord = 60;

//- Append a double as x and its 16 hex digits: "x3ff0000000000000" is 1
void appendHex(std::string& out, const double v)
{
    std::uint64_t bits;
    std::memcpy(&bits, &v, sizeof(bits));
    char buf[hexLength + 1];
    std::snprintf(buf, sizeof(buf), "x%016llx", static_cast<unsigned long long>(bits));
    out.append(buf, hexLength);
}


//- Inverse of appendHex for the code starting at s (followed by the end of
//  the string or the next code's x); false if it is not such a code
bool fromHex(const char* s, double& v)
{
    if (s[0] != 'x') return false;
    char* end = nullptr;
    const unsigned long long bits = std::strtoull(s + 1, &end, 16);
    if (end != s + hexLength) return false;
    const std::uint64_t b = bits;
    std::memcpy(&v, &b, sizeof(v));
    return true;
}

//- A stored point count: an integer in [0, maxManifoldPoints], else -1
int pointCountOf(const Foam::scalar count)
{
    return
        count >= 0 && count <= superellipsoid::maxManifoldPoints
     && count == std::floor(count)
      ? int(count) : -1;
}

} // End anonymous namespace


// * * * * * * * * * * * * * * * * Functions * * * * * * * * * * * * * * * //

void Foam::superellipsoidContactRecords::sortUnique
(
    std::vector<superellipsoid::PairRecord>& records
)
{
    using superellipsoid::PairRecord;
    std::sort
    (
        records.begin(), records.end(),
        [](const PairRecord& x, const PairRecord& y) { return x.key < y.key; }
    );
    records.erase
    (
        std::unique
        (
            records.begin(), records.end(),
            [](const PairRecord& x, const PairRecord& y) { return x.key == y.key; }
        ),
        records.end()
    );
}


void Foam::superellipsoidContactRecords::pack
(
    const superellipsoid::PairRecord& r,
    scalarList& buf,
    label& k
)
{
    buf[k++] = scalar(r.key >> 32);
    buf[k++] = scalar(r.key & 0xffffffffULL);
    for (int i = 0; i < 3; ++i) buf[k++] = r.warm.normalInA[i];
    for (int i = 0; i < 3; ++i) buf[k++] = r.warm.pointInA[i];
    buf[k++] = r.warm.multiplier;
    buf[k++] = r.warm.valid;
    for (int i = 0; i < 3; ++i) buf[k++] = r.history.displacement[i];
    buf[k++] = r.warm.boxAxis;
    buf[k++] = r.normalImpulse;
    buf[k++] = r.pointCount;
    for (const superellipsoid::PointImpulse& p : r.points)
    {
        for (int i = 0; i < 3; ++i) buf[k++] = p.pointInA[i];
        buf[k++] = p.normal;
        for (int i = 0; i < 3; ++i) buf[k++] = p.tangential[i];
    }
    const superellipsoid::TangentialHistory& h = r.history;
    buf[k++] = h.count;
    for (int i = 0; i < 3; ++i) buf[k++] = h.rollingAngle[i];
    for (const superellipsoid::Vector3& xi : h.otherDisplacements)
    {
        for (int i = 0; i < 3; ++i) buf[k++] = xi[i];
    }
    for (const superellipsoid::Vector3& x : h.pointInA)
    {
        for (int i = 0; i < 3; ++i) buf[k++] = x[i];
    }
}


superellipsoid::PairRecord Foam::superellipsoidContactRecords::unpack
(
    const scalarList& buf,
    label& k,
    const label size
)
{
    superellipsoid::PairRecord r;
    const std::uint64_t hi = std::uint64_t(buf[k++]);
    r.key = (hi << 32) | std::uint64_t(buf[k++]);
    for (int i = 0; i < 3; ++i) r.warm.normalInA[i] = buf[k++];
    for (int i = 0; i < 3; ++i) r.warm.pointInA[i] = buf[k++];
    r.warm.multiplier = buf[k++];
    r.warm.valid = buf[k++] != 0;
    for (int i = 0; i < 3; ++i) r.history.displacement[i] = buf[k++];
    r.warm.boxAxis = int(buf[k++]);
    r.normalImpulse = buf[k++];
    if (size == legacyRecordSize)
    {
        return r;
    }
    // -1 (rejected by fromWords) unless an integer in [0, maxManifoldPoints]
    const scalar count = buf[k++];
    r.pointCount = pointCountOf(count);
    for (superellipsoid::PointImpulse& p : r.points)
    {
        for (int i = 0; i < 3; ++i) p.pointInA[i] = buf[k++];
        p.normal = buf[k++];
        for (int i = 0; i < 3; ++i) p.tangential[i] = buf[k++];
    }

    // Soft contact: the springs of the manifold points and the rolling angle
    superellipsoid::TangentialHistory& h = r.history;
    h.count = pointCountOf(buf[k++]);
    for (int i = 0; i < 3; ++i) h.rollingAngle[i] = buf[k++];
    for (superellipsoid::Vector3& xi : h.otherDisplacements)
    {
        for (int i = 0; i < 3; ++i) xi[i] = buf[k++];
    }
    for (superellipsoid::Vector3& x : h.pointInA)
    {
        for (int i = 0; i < 3; ++i) x[i] = buf[k++];
    }
    if (h.count < 0)
    {
        r.pointCount = -1;  // rejected by fromWords
    }
    return r;
}


void Foam::superellipsoidContactRecords::writeWords
(
    Ostream& os,
    const std::vector<superellipsoid::PairRecord>& records
)
{
    // hexPerWord codes per word (a word per double cost ~70 B of string and
    // token per 8 B of data), streamed: one record and one word in memory
    const label nDoubles = label(records.size())*recordSize;
    os  << (nDoubles + hexPerWord - 1)/hexPerWord << nl
        << token::BEGIN_LIST << nl;
    scalarList buf(recordSize);
    std::string w;
    w.reserve(hexPerWord*hexLength);
    for (const superellipsoid::PairRecord& r : records)
    {
        label k = 0;
        pack(r, buf, k);
        for (const scalar v : buf)
        {
            appendHex(w, v);
            if (label(w.size()) == hexPerWord*hexLength)
            {
                os  << word(w, false) << nl;
                w.clear();
            }
        }
    }
    if (!w.empty())
    {
        os  << word(w, false) << nl;
    }
    os  << token::END_LIST;
}


bool Foam::superellipsoidContactRecords::fromWords
(
    const wordList& words,
    std::vector<superellipsoid::PairRecord>& records,
    const label size
)
{
    if (size != recordSize && size != legacyRecordSize)
    {
        return false;
    }
    // The codes of all words in order (one per word in the older layout)
    label nDoubles = 0;
    for (const word& w : words)
    {
        if (w.empty() || label(w.size()) % hexLength)
        {
            return false;
        }
        nDoubles += label(w.size())/hexLength;
    }
    if (nDoubles % size)
    {
        return false;
    }
    scalarList buf(nDoubles);
    label k = 0;
    for (const word& w : words)
    {
        for (label i = 0; i < label(w.size()); i += hexLength)
        {
            if (!fromHex(w.c_str() + i, buf[k++]))
            {
                return false;
            }
        }
    }
    std::vector<superellipsoid::PairRecord> read;
    for (label j = 0; j < buf.size(); )
    {
        read.push_back(unpack(buf, j, size));
        const int n = read.back().pointCount;
        if (n < 0 || n > superellipsoid::maxManifoldPoints)
        {
            return false;
        }
    }
    records.swap(read);
    return true;
}


// ************************************************************************* //
