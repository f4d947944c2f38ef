/*---------------------------------------------------------------------------*\
    superellipsoidFoam: contact-record serialisation (see the header).
\*---------------------------------------------------------------------------*/

#include "superellipsoidContactRecords.H"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

// * * * * * * * * * * * * * * * Local Functions * * * * * * * * * * * * * //

namespace
{

//- A double as a word of its 16 hex digits: "x3ff0000000000000" is 1
Foam::word toHex(const double v)
{
    std::uint64_t bits;
    std::memcpy(&bits, &v, sizeof(bits));
    char buf[20];
    std::snprintf(buf, sizeof(buf), "x%016llx", static_cast<unsigned long long>(bits));
    return Foam::word(buf);
}


//- Inverse of toHex; false if w is not such a word
bool fromHex(const Foam::word& w, double& v)
{
    if (w.size() != 17 || w[0] != 'x') return false;
    char* end = nullptr;
    const unsigned long long bits = std::strtoull(w.c_str() + 1, &end, 16);
    if (end != w.c_str() + 17) return false;
    const std::uint64_t b = bits;
    std::memcpy(&v, &b, sizeof(v));
    return true;
}

} // End anonymous namespace


// * * * * * * * * * * * * * * * * Functions * * * * * * * * * * * * * * * //

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
    buf[k++] = r.obbAxis;
    buf[k++] = r.normalImpulse;
}


superellipsoid::PairRecord Foam::superellipsoidContactRecords::unpack
(
    const scalarList& buf,
    label& k
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
    r.obbAxis = int(buf[k++]);
    r.normalImpulse = buf[k++];
    return r;
}


Foam::wordList Foam::superellipsoidContactRecords::toWords
(
    const std::vector<superellipsoid::PairRecord>& records
)
{
    scalarList buf(label(records.size())*recordSize);
    label k = 0;
    for (const superellipsoid::PairRecord& r : records)
    {
        pack(r, buf, k);
    }
    wordList words(buf.size());
    forAll(buf, i)
    {
        words[i] = toHex(buf[i]);
    }
    return words;
}


bool Foam::superellipsoidContactRecords::fromWords
(
    const wordList& words,
    std::vector<superellipsoid::PairRecord>& records
)
{
    if (words.size() % recordSize)
    {
        return false;
    }
    scalarList buf(words.size());
    forAll(words, i)
    {
        if (!fromHex(words[i], buf[i]))
        {
            return false;
        }
    }
    records.clear();
    for (label k = 0; k < buf.size(); )
    {
        records.push_back(unpack(buf, k));
    }
    return true;
}


// ************************************************************************* //
