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
constexpr std::size_t filterBitsPerSlot = 4;     // >= 8 bits per record: 5 % false "held"

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


std::size_t PairCache::probe(std::uint64_t key, std::uint64_t hash) const
{
    const std::size_t mask = slots_.size() - 1;
    std::size_t s = hash & mask;
    while (slots_[s].key != 0 && slots_[s].key != key) s = (s + 1) & mask;
    return s;
}


PairCache::FilterBits PairCache::filterBits(std::uint64_t hash) const
{
    // Two bit positions from the hash's bits 24-63 (the second rotated):
    // independent of the slot index, its bits below 24, up to 2^24 slots
    const std::uint64_t mask = 64*filter_.size() - 1;
    return {(hash >> 24) & mask, ((hash >> 44) | (hash << 20)) & mask};
}


void PairCache::markHeld(std::uint64_t hash)
{
    const FilterBits b = filterBits(hash);
    filter_[b.first >> 6] |= std::uint64_t(1) << (b.first & 63);
    filter_[b.second >> 6] |= std::uint64_t(1) << (b.second & 63);
}


bool PairCache::mayHold(std::uint64_t hash) const
{
    const FilterBits b = filterBits(hash);
    return (filter_[b.first >> 6] >> (b.first & 63) & 1) && (filter_[b.second >> 6] >> (b.second & 63) & 1);
}


void PairCache::reindex(std::size_t nSlots)
{
    slots_.assign(nSlots, Slot());
    filter_.assign(nSlots*filterBitsPerSlot/64, 0);
    const std::size_t mask = nSlots - 1;
    for (std::size_t i = 0; i < records_.size(); ++i)
    {
        const std::uint64_t hash = mix(records_[i].key);
        std::size_t s = hash & mask;
        while (slots_[s].key != 0) s = (s + 1) & mask;
        slots_[s] = Slot{records_[i].key, i};
        markHeld(hash);
    }
}


PairRecord& PairCache::acquire(std::uint64_t key)
{
    if (slots_.empty()) reindex(initialSlots);
    const std::uint64_t hash = mix(key);
    std::size_t s = probe(key, hash);
    if (slots_[s].key == key)
    {
        PairRecord& r = records_[slots_[s].index];
        r.touched = true;
        return r;
    }
    // Load factor <= 1/2 keeps probe sequences short
    if (2*(records_.size() + 1) > slots_.size())
    {
        reindex(2*slots_.size());
        s = probe(key, hash);
    }
    slots_[s] = Slot{key, records_.size()};
    markHeld(hash);
    records_.emplace_back();
    PairRecord& r = records_.back();
    r.key = key;
    r.touched = true;
    return r;
}


const PairRecord* PairCache::find(std::uint64_t key) const
{
    if (slots_.empty()) return nullptr;
    const std::uint64_t hash = mix(key);
    if (!mayHold(hash)) return nullptr;
    const Slot& slot = slots_[probe(key, hash)];
    return slot.key == key ? &records_[slot.index] : nullptr;
}


PairRecord* PairCache::find(std::uint64_t key)
{
    return const_cast<PairRecord*>(static_cast<const PairCache&>(*this).find(key));
}


void PairCache::dropUntouched()
{
    if (slots_.empty()) return;
    // Compact the touched records in place (order kept), then rebuild the
    // index at the same capacity (no allocation; linear probing needs no
    // tombstones this way)
    std::size_t kept = 0;
    for (std::size_t i = 0; i < records_.size(); ++i)
    {
        if (!records_[i].touched) continue;
        if (kept != i) records_[kept] = records_[i];
        records_[kept++].touched = false;
    }
    records_.resize(kept);
    reindex(slots_.size());
}


std::vector<PairRecord> PairCache::records() const
{
    return records_;
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


bool PairCache::anyImpulse() const
{
    for (const PairRecord& r : records_)
    {
        if (r.normalImpulse > 0) return true;
    }
    return false;
}


void PairCache::clear()
{
    slots_.clear();
    filter_.clear();
    records_.clear();
}

} // namespace superellipsoid
