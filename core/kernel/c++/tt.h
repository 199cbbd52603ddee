// df-pn's transposition table: pn/dn per (board key, attacker hand), bounded.
//
// Same meaning as the Python engine's table (core/search/tt.py): a proven
// entry stores its proof hand (証明駒) and answers every hand that holds at
// least those pieces; a disproven entry stores its disproof hand (反証駒) and
// answers every hand with at most those pieces; an unresolved entry answers
// its own hand only ([ComShogi ch. 9]).
//
// Layout, after the fixed-size clustered tables of [KomoringHeights]: an array of 512-byte
// buckets on 128-byte boundaries, a bucket per home (the high word of key * buckets).  A bucket
// holds kWindow (16) entries: their board keys together in its first two cache lines, their
// bodies (24 bytes: pn, dn, hand, amount, move, depth, length) in the six lines after.  A probe
// reads the key lines (prefetched when the child's key is known) and a body only where a key
// matches.  Every hand of one board lives in its bucket and is found by that one scan.  A store
// into a full bucket replaces its cheapest entry (least search amount, a proof weighing 16 times
// its amount and a disproof twice: see cost() in tt.cpp).  When the table is nine tenths full,
// collect() drops the cheapest entries by the same measure until seven tenths remain.  The table
// starts at 2k entries (64 KB: most searches stay in it) and doubles, rehashing, whenever it is
// half full or buckets keep overflowing, up to what the memory bound allows; the last growth goes
// straight to the bound from at most a quarter of it, so that, where a growth needs a new array
// (no mmap), the old and the new together stay inside the bound.  On Linux the table grows in
// place inside one mapping of the bound's size (see reserve() in tt.cpp).  Sixteen entries a
// bucket rather than eight, and doubling rather than quadrupling, keep the table dense: at half
// full a 16-entry bucket overflows about one time in 250 where an 8-entry one overflows one time in
// ten, so the table need not grow far past what it holds (Microcosmos tail 151: 128 MB for 1.4 M
// entries, where it was 617 MB), and a denser table costs fewer page walks per probe
// (docs/benchmarks.md).  An entry costs 32 bytes
// (kBytesPerEntry: its key and body).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "dfpn_hand.h"

namespace tsume::dfpn {

// pn/dn of a decided node: the Python contract's one infinity (core.search.contract.INFINITY).
inline constexpr std::uint64_t kInf = 1'000'000'000'000ULL;
inline constexpr std::uint16_t kNoLength = 0xFFFF;

// An entry's body; its board key is kept in the bucket's key line.
struct TTEntry {
    std::uint32_t pn;      // saturated to 32 bits; kInf32 stands for kInf
    std::uint32_t dn;
    PHand hand;            // attacker hand; proof hand when pn == 0, disproof hand when dn == 0
    std::uint32_t amount;  // search spent under this node (nodes), at least 1 in a used slot
    std::uint32_t move;    // a proven OR node's move (the board's 32-bit move), else 0
    std::uint16_t depth;   // shallowest path depth the node was met at
    std::uint16_t length;  // proof length in plies, kNoLength when unknown
};
static_assert(sizeof(TTEntry) == 24, "an entry's body is 24 bytes");

inline constexpr std::size_t kBucketEntries = 16;

struct alignas(128) TTBucket {
    std::uint64_t key[kBucketEntries];   // 0: an empty slot (a board key of 0 is stored as 1)
    TTEntry e[kBucketEntries];
};
static_assert(sizeof(TTBucket) == 512, "a bucket is eight cache lines: two of keys, six of bodies");

inline constexpr std::uint32_t kInf32 = 0xFFFFFFFFu;

constexpr std::uint32_t to32(std::uint64_t v) {
    return v >= kInf ? kInf32 : (v >= kInf32 ? kInf32 - 1 : static_cast<std::uint32_t>(v));
}
constexpr std::uint64_t from32(std::uint32_t v) { return v == kInf32 ? kInf : v; }

class TranspositionTable {
public:
    static constexpr std::size_t kWindow = kBucketEntries;
    static constexpr std::size_t kBytesPerEntry = sizeof(TTBucket) / kWindow;
    static constexpr double kCollectAt = 0.9;
    static constexpr double kCollectTo = 0.7;

    // The table takes what memory_mb leaves beside the interpreter and the rest of the process.
    static std::size_t entries_for(std::size_t memory_mb);

    explicit TranspositionTable(std::size_t memory_mb);
    ~TranspositionTable();
    TranspositionTable(const TranspositionTable&) = delete;
    TranspositionTable& operator=(const TranspositionTable&) = delete;

    // The entry that answers `hand` on board `key` (a proof or disproof by dominance first), or null.
    // The pointer is valid until the next store or collection.
    const TTEntry* probe(std::uint64_t key, PHand hand) const;
    // The unresolved entry of exactly `hand`, or a decided one that answers it (no dominance for
    // unresolved entries); used when dominance is switched off.
    const TTEntry* probe_exact(std::uint64_t key, PHand hand) const;
    bool has_key(std::uint64_t key) const;

    // A filter of the boards with a decided entry, one bit per hash of the board key, for a reader
    // that asks this table about many boards it has no verdict on: the length search's first look
    // at a new position (将棋無双 40番: one look in 37 finds a verdict, and each look that finds
    // none still cost a walk of the page tables and a miss of the table's line).  A clear bit
    // answers "no decided entry" from a few megabytes that stay in cache; a set bit may be stale
    // or shared, and the table is read.  Off until track_decided(), which builds it from the
    // table; kept by every store from then on, and rebuilt when the table grows or is collected.
    void track_decided();
    bool may_be_decided(std::uint64_t key) const {
        if (decided_bits_.empty()) return true;
        const std::uint64_t i = tag(key) & decided_mask_;
        return ((decided_bits_[i >> 6] >> (i & 63)) & 1) != 0;
    }
    // Ask the memory system for a key's two key lines ahead of its probe.
    void prefetch(std::uint64_t key) const {
#if defined(__GNUC__) || defined(__clang__)
        const TTBucket* b = bucket(key);
        __builtin_prefetch(b->key);
        __builtin_prefetch(b->key + 8);
#else
        (void)key;
#endif
    }

    // Record a node's values (pn/dn in search units, kInf for infinity).  A decided entry
    // replaces the unresolved entries of the same board it now answers, adding their amounts.
    void store(std::uint64_t key, PHand hand, std::uint64_t pn, std::uint64_t dn, int depth,
               std::uint64_t amount, int length = kNoLength, std::uint32_t move = 0);

    // Grow the table (while under its bound) or collect it when it is full enough; called
    // between nodes, as often as the search checks its limits.
    // Nothing is done once the stop flag (set_stop) is up: the search is about to unwind.
    void maintain() {
        if (stopped()) return;
        // Half full, or buckets found full of other boards' entries on more than one store in 1024
        // slots since the last growth (a single full bucket is chance; growing on it alone took a
        // 400k-entry search to a 540 MB table).
        if (entries_ >= grow_at_ || (crowded_ >= capacity_ / kCrowdedShare && entries_ >= capacity_ / 16 &&
                                     can_grow()))
            grow();
        if (entries_ >= collect_at_) collect();
    }
    // The search's cancel flag: maintain() does nothing once it is set, and a growth or a
    // collection under way stops where it has got to (see rehash() and collect()).
    void set_stop(const std::atomic<bool>* stop) { stop_ = stop; }
    bool wants_collection() const { return entries_ >= collect_at_; }
    // Drop the cheapest entries until at most `target` of the capacity is used; returns how many.
    std::size_t collect(double target = kCollectTo);
    // Empty, back to the first array a new table has.
    void clear();

    std::size_t entries() const { return entries_; }
    std::size_t capacity() const { return max_capacity_; }      // entries the memory bound allows
    std::size_t slots() const { return capacity_; }              // entries the table has grown to
    std::size_t collections() const { return collections_; }
    std::size_t peak_entries() const { return peak_; }
    double fill() const { return static_cast<double>(entries_) / static_cast<double>(max_capacity_); }

private:
    static std::uint64_t tag(std::uint64_t key) { return key != 0 ? key : 1; }
    std::size_t home(std::uint64_t key) const {   // the bucket: the high word of key * buckets
#if defined(__SIZEOF_INT128__)
        return static_cast<std::size_t>((static_cast<unsigned __int128>(key) * nbuckets_) >> 64);
#else
        return home_portable(key);
#endif
    }
    TTBucket* bucket(std::uint64_t key) const { return buckets_ + home(key); }
    // Growth to twice the size: only while the table is at most a quarter of the bound (the last
    // growth goes to the bound).
    bool can_grow() const { return capacity_ * 4 <= max_capacity_; }
    std::size_t home_portable(std::uint64_t key) const;
    TTEntry* slot_for_insert(TTBucket& b, std::uint64_t key);
    void allocate(std::size_t capacity);
    void allocate_raw(std::size_t buckets);
    bool reserve(std::size_t buckets);
    std::size_t reserved_bytes() const { return max_capacity_ / kWindow * sizeof(TTBucket); }
    bool populate(std::size_t from, std::size_t to);
    void set_size(std::size_t buckets);
    std::size_t next_buckets() const;
    bool stopped() const { return stop_ != nullptr && stop_->load(std::memory_order_relaxed); }
    void grow();
    void rehash(std::size_t old_buckets);
    void mark_decided(std::uint64_t key) { mark(decided_bits_, decided_mask_, key); }
    static void mark(std::vector<std::uint64_t>& bits, std::uint64_t mask, std::uint64_t key) {
        const std::uint64_t i = tag(key) & mask;
        bits[i >> 6] |= std::uint64_t{1} << (i & 63);
    }
    void rebuild_decided();
    void size_decided(std::vector<std::uint64_t>& bits, std::uint64_t& mask) const;

    TTBucket* buckets_ = nullptr;    // 128-byte aligned inside raw_
    void* raw_ = nullptr;
    std::size_t raw_len_ = 0;        // the mapping's length when raw_ is a mapping, else 0 (calloc)
    bool reserved_ = false;          // raw_ maps the bound's whole array: the table grows in place
    std::size_t nbuckets_ = 0;
    std::size_t capacity_ = 0;       // nbuckets_ * kWindow slots
    std::size_t entries_ = 0;
    std::size_t max_capacity_ = 0;   // the bound's capacity; the table starts small and grows to it
    std::size_t grow_at_ = 0;
    const std::atomic<bool>* stop_ = nullptr;
    std::size_t crowded_ = 0;        // stores that found their bucket full of other boards since the last growth
    static constexpr std::size_t kCrowdedShare = 1024;   // crowded stores per slot that ask for growth: 1/1024
    std::size_t collect_at_ = 0;
    std::size_t collections_ = 0;
    std::size_t peak_ = 0;
    std::vector<std::uint64_t> decided_bits_;   // empty: not tracked
    std::uint64_t decided_mask_ = 0;
};

}  // namespace tsume::dfpn
