#include "solver/PairCache.H"

#include <algorithm>
#include <sstream>
#include <stdexcept>

namespace superellipsoid
{

namespace
{

constexpr long maxPairId = (long(1) << 31) - 2;
constexpr int maxFaceIndex = (1 << 24) - 2;
constexpr std::size_t initialSlots = 64;

std::uint64_t mix(std::uint64_t z)
{
    z = (z ^ (z >> 30))*0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27))*0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

void checkId(long id, const char* name)
{
    if (id < 0 || id > maxPairId)
    {
        std::ostringstream os;
        os << "PairCache: " << name << " = " << id << " outside [0, " << maxPairId << "]";
        throw std::invalid_argument(os.str());
    }
}

} // namespace


std::uint64_t PairCache::pairKey(long idA, long idB)
{
    checkId(idA, "idA");
    checkId(idB, "idB");
    const std::uint64_t lo = std::uint64_t(std::min(idA, idB)) + 1;
    const std::uint64_t hi = std::uint64_t(std::max(idA, idB)) + 1;
    return (lo << 32) | hi;                 // top bit 0: pair
}


std::uint64_t PairCache::wallKey(long particleId, int faceIndex)
{
    checkId(particleId, "particleId");
    if (faceIndex < 0 || faceIndex > maxFaceIndex)
    {
        std::ostringstream os;
        os << "PairCache: faceIndex = " << faceIndex << " outside [0, " << maxFaceIndex << "]";
        throw std::invalid_argument(os.str());
    }
    return (std::uint64_t(1) << 63) | ((std::uint64_t(particleId) + 1) << 24)
         | (std::uint64_t(faceIndex) + 1);
}


PairRecord& PairCache::insertNew(std::vector<PairRecord>& table, std::uint64_t key)
{
    const std::size_t mask = table.size() - 1;
    std::size_t s = mix(key) & mask;
    while (table[s].key != 0) s = (s + 1) & mask;
    table[s] = PairRecord();
    table[s].key = key;
    return table[s];
}


void PairCache::grow()
{
    const std::size_t newSize = slots_.empty() ? initialSlots : 2*slots_.size();
    scratch_.assign(newSize, PairRecord());
    for (const PairRecord& r : slots_)
    {
        if (r.key != 0)
        {
            PairRecord& n = insertNew(scratch_, r.key);
            n = r;
        }
    }
    slots_.swap(scratch_);
    scratch_.assign(slots_.size(), PairRecord());
}


PairRecord& PairCache::acquire(std::uint64_t key)
{
    if (slots_.empty()) grow();
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t s = mix(key) & mask; ; s = (s + 1) & mask)
    {
        if (slots_[s].key == key)
        {
            slots_[s].touched = true;
            return slots_[s];
        }
        if (slots_[s].key == 0) break;
    }
    // Load factor <= 1/2 keeps probe sequences short
    if (2*(size_ + 1) > slots_.size()) grow();
    ++size_;
    PairRecord& r = insertNew(slots_, key);
    r.touched = true;
    return r;
}


const PairRecord* PairCache::find(std::uint64_t key) const
{
    if (slots_.empty()) return nullptr;
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t s = mix(key) & mask; slots_[s].key != 0; s = (s + 1) & mask)
    {
        if (slots_[s].key == key) return &slots_[s];
    }
    return nullptr;
}


PairRecord* PairCache::find(std::uint64_t key)
{
    return const_cast<PairRecord*>(static_cast<const PairCache&>(*this).find(key));
}


void PairCache::dropUntouched()
{
    if (slots_.empty()) return;
    // Rehash the touched records into the scratch table (same capacity,
    // no allocation); linear probing needs no tombstones this way
    if (scratch_.size() != slots_.size()) scratch_.assign(slots_.size(), PairRecord());
    for (PairRecord& r : scratch_) r.key = 0;
    size_ = 0;
    for (const PairRecord& r : slots_)
    {
        if (r.key != 0 && r.touched)
        {
            PairRecord& n = insertNew(scratch_, r.key);
            n = r;
            n.touched = false;
            ++size_;
        }
    }
    slots_.swap(scratch_);
}


std::vector<PairRecord> PairCache::records() const
{
    std::vector<PairRecord> out;
    out.reserve(size_);
    for (const PairRecord& r : slots_)
    {
        if (r.key != 0) out.push_back(r);
    }
    return out;
}


bool PairCache::decodeKey(std::uint64_t key, long& first, long& second)
{
    // Inverse of wallKey / pairKey
    if (key >> 63)
    {
        first = long((key >> 24) & ((std::uint64_t(1) << 39) - 1)) - 1;
        second = long(key & ((std::uint64_t(1) << 24) - 1)) - 1;
        return true;
    }
    first = long(key >> 32) - 1;
    second = long(key & 0xffffffffULL) - 1;
    return false;
}


void PairCache::clear()
{
    slots_.clear();
    scratch_.clear();
    size_ = 0;
}

} // namespace superellipsoid
