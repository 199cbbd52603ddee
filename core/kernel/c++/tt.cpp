#include "tt.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>
#include <vector>

#if defined(__linux__)
#include <sys/mman.h>
#endif

#include "collect.h"
#include "memory.h"
#include "types.h"

namespace tsume::dfpn {

namespace {

// The process beside the table: the interpreter, Qt or cshogi, the search's own stacks.
constexpr double kTableShare = 0.75;
constexpr double kReservedMb = 32.0;
constexpr std::size_t kInitialEntries = std::size_t{1} << 11;   // 64 KB: most searches stay in it
constexpr std::size_t kHugeBytes = std::size_t{256} << 20;      // a table this large goes on huge pages

bool decided(const TTEntry& e) { return e.pn == 0 || e.dn == 0; }

// What losing an entry would cost: its search amount, a disproof's counted twice, a proof's
// kProofWeight times.  A collected proof is searched again, and the new proof's length is often a
// looser bound than the first's, so the proof line read from a collected table chose defences
// that were not the longest (docs/benchmarks.md: Microcosmos tail 201 under a 64 MB bound).
constexpr std::uint64_t kProofWeight = 16;
constexpr std::uint64_t kDisproofWeight = 2;
std::uint64_t cost(const TTEntry& e) {
    const std::uint64_t weight = e.pn == 0 ? kProofWeight : e.dn == 0 ? kDisproofWeight : 1;
    return static_cast<std::uint64_t>(e.amount) * weight;
}

std::uint32_t add_amount(std::uint32_t a, std::uint64_t b) {
    const std::uint64_t s = static_cast<std::uint64_t>(a) + b;
    return s >= 0xFFFFFFFFu ? 0xFFFFFFFEu : static_cast<std::uint32_t>(s);
}

// The first array of a table whose bound holds max_capacity entries (see allocate_raw).
std::size_t first_capacity(std::size_t max_capacity) { return std::min<std::size_t>(max_capacity, kInitialEntries); }

}  // namespace

std::size_t TranspositionTable::entries_for(std::size_t memory_mb) {
    const double table_mb = std::max(1.0, static_cast<double>(memory_mb) * kTableShare - kReservedMb);
    const auto n = static_cast<std::size_t>(table_mb * 1024.0 * 1024.0) / kBytesPerEntry;
    return std::max<std::size_t>(n, 1024);
}

TranspositionTable::TranspositionTable(std::size_t memory_mb) {
    // Where a growth needs a new array, the last one holds a quarter-size array beside the full one.
    max_capacity_ = std::max<std::size_t>(1024, entries_for(memory_mb) * 4 / 5) / kWindow * kWindow;
    allocate(first_capacity(max_capacity_));
}

// On Linux the table's whole array, to its bound, is one mapping made at its first growth (a short
// search never grows: making and unmapping the mapping at every table's start cost mate.tsv's 1,040
// searches 0.02 s) and left untouched (MAP_NORESERVE: address space, no memory); the table uses its
// first buckets and grows in place (rehash), so a growth zeroes only the pages it adds, and no old
// array stands beside the new one.  The buckets a growth adds are faulted in by a few calls
// (populate()): the rehash touches all of them anyway, and one call costs the kernel less than a
// fault per page (on tail 151 of Microcosmos: 0.27 s of system time instead of 0.45 s).  The first
// array is apart, small and not populated: most searches are short and touch a few of its pages
// (populating it cost mate.tsv's 1,040 searches 0.9 s of system time; first arrays of 4 MB here and
// 590 KB in the length table cost that batch 347,000 more faults and about 0.6 s more CPU than 128 KB
// and 37 KB).  While the table is below kHugeBytes it stays on small pages (MADV_NOHUGEPAGE, where
// the system would otherwise give huge pages to any mapping): zeroing fresh huge pages cost some
// guests more system time than a short search gains (docs/benchmarks.md).  The growth that takes it
// to kHugeBytes or more puts the whole of it on transparent huge pages: one TLB entry then covers
// 2 MB of buckets, and a child's probe rarely waits on a page walk (将棋無双 48番, a 600 MB table:
// about 6 % less CPU time).  False where there is no such mapping: the table then allocates a new
// array for each growth (as it does when built with TSUME_TT_NO_RESERVE: the sanitizer build,
// whose heap arrays AddressSanitizer guards).
bool TranspositionTable::reserve(std::size_t n) {
#if defined(__linux__) && defined(MAP_NORESERVE) && !defined(TSUME_TT_NO_RESERVE)
    const std::size_t bytes = n * sizeof(TTBucket);   // reserved_bytes()
    void* m = nullptr;
    std::size_t len = 0;
    auto* base = static_cast<char*>(memory::map_aligned(bytes, m, len));
    if (base == nullptr) return false;
#if defined(MADV_NOHUGEPAGE)
    (void)madvise(base, bytes, MADV_NOHUGEPAGE);   // a hint: refused, nothing changes
#endif
    raw_ = m;
    raw_len_ = len;
    reserved_ = true;
    buckets_ = reinterpret_cast<TTBucket*>(base);
    return true;
#else
    (void)n;
    return false;
#endif
}

// Buckets [from, to) of the reservation, about to be rehashed into, faulted in 2 MB at a call
// (MADV_POPULATE_WRITE, Linux 5.14 and later): the rehash touches all of them anyway, and a call
// costs the kernel less than a fault per page.  Between calls it looks at the stop flag (faulting
// in the 1 GB bound's 617 MB took 160-200 ms of its growth on a 2 GHz Xeon guest) and returns false
// when it stopped short.  When the table reaches kHugeBytes,
// the whole of it goes on transparent huge pages, the part in use collapsed into huge pages
// (MADV_COLLAPSE, Linux 6.1 and later; elsewhere it stays on small pages).  Each call is a hint:
// where one is refused, pages fault in as they are used.
bool TranspositionTable::populate(std::size_t from, std::size_t to) {
#if defined(__linux__)
    char* base = reinterpret_cast<char*>(buckets_);
    const std::size_t begin = from * sizeof(TTBucket), end = to * sizeof(TTBucket);
#if defined(MADV_HUGEPAGE)
    if (end >= kHugeBytes && begin < kHugeBytes) {
        (void)madvise(base, reserved_bytes(), MADV_HUGEPAGE);
#if defined(MADV_COLLAPSE)
        (void)madvise(base, begin, MADV_COLLAPSE);
#endif
    }
#endif
#if defined(MADV_POPULATE_WRITE)
    // A call holds the process's memory map lock (read) for its whole range, and another
    // thread's brk or mmap, which wants it for writing, waits that long, holding whatever it
    // holds: the window's thread, the interpreter lock (a 32 MB call: an 83 ms stall of the
    // window).  One huge page a call keeps that wait near a millisecond.
    constexpr std::size_t kChunk = memory::kHugePage;
    for (std::size_t at = begin; at < end; at += kChunk) {
        if (stopped()) return false;
        (void)madvise(base + at, std::min(kChunk, end - at), MADV_POPULATE_WRITE);
    }
#endif
#else
    (void)from;
    (void)to;
#endif
    return true;
}

void TranspositionTable::set_size(std::size_t n) {
    nbuckets_ = n;
    capacity_ = n * kWindow;
    grow_at_ = can_grow() ? capacity_ / 2 : static_cast<std::size_t>(-1);
    collect_at_ = can_grow() ? static_cast<std::size_t>(-1)
                             : static_cast<std::size_t>(static_cast<double>(capacity_) * kCollectAt);
}

// The buckets of the next growth: twice over, or straight to the bound when the doubled array
// could not itself grow to it: without a reservation the old array stands beside the new one
// during the growth, never more than a quarter of the bound.
std::size_t TranspositionTable::next_buckets() const {
    return (capacity_ * 8 > max_capacity_ ? max_capacity_ : capacity_ * 2) / kWindow;
}

// Zeroed memory for n buckets (every key 0: empty), 128-byte aligned: the first array, and every
// array where there is no reservation.  On Linux a mapping of its own, faulted in as it is used
// (the first array is small and not populated: see reserve()); elsewhere, or when mmap fails,
// calloc with one bucket more to align.
void TranspositionTable::allocate_raw(std::size_t n) {
#if defined(__linux__) && !defined(TSUME_TT_NO_RESERVE)
    const std::size_t bytes = n * sizeof(TTBucket);
    void* m = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m != MAP_FAILED) {   // page-aligned
        raw_ = m;
        raw_len_ = bytes;
        buckets_ = static_cast<TTBucket*>(m);
        return;
    }
#endif
    void* p = std::calloc(n + 1, sizeof(TTBucket));
    if (p == nullptr) throw std::bad_alloc();
    raw_ = p;
    raw_len_ = 0;
    const auto addr = reinterpret_cast<std::uintptr_t>(p);
    buckets_ = reinterpret_cast<TTBucket*>((addr + 127) & ~std::uintptr_t{127});
}

void TranspositionTable::allocate(std::size_t capacity) {
    const std::size_t n = capacity / kWindow;
    allocate_raw(n);
    set_size(n);
}

void TranspositionTable::grow() {
    const std::size_t old_n = nbuckets_;
    const std::size_t n = next_buckets();
    if (reserved_) {
        // Stopped while its pages fault in: no growth, the table as it was (the pages faulted in
        // so far serve the next growth).
        if (!populate(old_n, n)) return;
    } else {
        // Into the reservation, made now, or a new array: the old buckets copied to its start.
        const TTBucket* old = buckets_;
        void* old_raw = raw_;
        const std::size_t old_len = raw_len_;
        if (reserve(max_capacity_ / kWindow))
            (void)populate(0, n);   // the first growth: a few hundred kilobytes
        else
            allocate_raw(n);
        std::memcpy(static_cast<void*>(buckets_), old, old_n * sizeof(TTBucket));
        memory::release(old_raw, old_len);
    }
    set_size(n);
    // The filter of decided boards sized for the new capacity and filled by the rehash, which
    // places every entry anyway (a separate pass read the whole table again: 90-110 ms at 617 MB).
    if (!decided_bits_.empty()) size_decided(decided_bits_, decided_mask_);
    rehash(old_n);
    peak_ = std::max(peak_, entries_);
}

// Every entry of buckets [0, old_n) to its home in the table of nbuckets_ buckets, in place.  A
// bucket's new home is never below its old one (the high word of key * buckets grows with the
// buckets), so the buckets are moved from the last down, each into buckets already moved or still
// empty.  Each new bucket holds its entries in the order of a rehash into a separate array (old
// bucket by old bucket, slot by slot): where a new bucket takes entries from two old ones (a growth
// by less than twice), those of the higher, placed first, are put back after the lower's.  A full
// bucket drops the entry: a rare loss of knowledge, never of soundness.  Every 4,096 buckets it
// looks at the stop flag (the 1 GB bound's last growth rehashes 2.1 M entries, 85-110 ms on a 2 GHz
// Xeon guest).  Stopped, it leaves the entries not yet moved where they are: a lookup reads only a
// board's home bucket, so they are out of reach (not wrong) until replaced, collected, or moved by
// the next growth, under which a home is still never below where they lie.  Emptying them instead
// cost 27-52 ms at that growth (a write to two cache lines of each bucket).
void TranspositionTable::rehash(std::size_t old_n) {
    const std::size_t before = entries_;
    std::size_t read = 0;   // entries taken from old buckets so far
    entries_ = 0;
    crowded_ = 0;
    const bool track = !decided_bits_.empty();
    const auto place = [this, track](TTBucket& b, std::uint64_t key, const TTEntry& e) {
        for (std::size_t j = 0; j < kWindow; ++j)
            if (b.key[j] == 0) {
                b.key[j] = key;
                b.e[j] = e;
                ++entries_;
                if (track && decided(e)) mark_decided(key);
                return;
            }
    };
    TTBucket src;
    TTBucket held;
    for (std::size_t i = old_n; i-- > 0;) {
        if ((i & 4095) == 0 && stopped()) {
            entries_ += before - read;   // buckets [0, i] as they were: still counted as entries
            break;
        }
        TTBucket& b = buckets_[i];
        bool any = false;
        for (std::size_t k = 0; k < kWindow; ++k) any |= b.key[k] != 0;
        if (!any) continue;
        src = b;
        for (std::size_t k = 0; k < kWindow; ++k) read += src.key[k] != 0;
        std::fill(std::begin(b.key), std::end(b.key), std::uint64_t{0});
        std::size_t shared = nbuckets_;   // the new bucket that held a higher old bucket's entries
        std::size_t seen[kWindow];
        std::size_t nseen = 0;
        for (std::size_t k = 0; k < kWindow; ++k) {
            if (src.key[k] == 0) continue;
            const std::size_t h = home(src.key[k]);
            TTBucket& nb = buckets_[h];
            if (h != i && std::find(seen, seen + nseen, h) == seen + nseen) {
                seen[nseen++] = h;
                // The rehash fills a bucket from its first slot: a used first slot is a higher
                // old bucket's entries, to go after this one's.
                if (shared == nbuckets_ && nb.key[0] != 0) {
                    shared = h;
                    held = nb;
                    for (std::size_t j = 0; j < kWindow; ++j) entries_ -= nb.key[j] != 0;
                    std::fill(std::begin(nb.key), std::end(nb.key), std::uint64_t{0});
                }
            }
            place(nb, src.key[k], src.e[k]);
        }
        if (shared != nbuckets_)
            for (std::size_t j = 0; j < kWindow; ++j)
                if (held.key[j] != 0) place(buckets_[shared], held.key[j], held.e[j]);
    }
}

TranspositionTable::~TranspositionTable() { memory::release(raw_, raw_len_); }

std::size_t TranspositionTable::home_portable(std::uint64_t key) const {
    return static_cast<std::size_t>(mul_hi(key, nbuckets_));
}

bool TranspositionTable::has_key(std::uint64_t key) const {
    const TTBucket& b = *bucket(key);
    const std::uint64_t t = tag(key);
    for (std::size_t i = 0; i < kWindow; ++i)
        if (b.key[i] == t) return true;
    return false;
}

const TTEntry* TranspositionTable::probe(std::uint64_t key, PHand hand) const {
    const TTBucket& b = *bucket(key);
    const std::uint64_t t = tag(key);
    const TTEntry* exact = nullptr;
    for (std::size_t i = 0; i < kWindow; ++i) {
        if (b.key[i] != t) continue;
        const TTEntry& e = b.e[i];
        if (e.pn == 0) {
            if (hand_ge(hand, e.hand)) return &e;
        } else if (e.dn == 0) {
            if (hand_ge(e.hand, hand)) return &e;
        } else if (e.hand == hand) {
            exact = &e;
        }
    }
    return exact;
}

const TTEntry* TranspositionTable::probe_exact(std::uint64_t key, PHand hand) const {
    const TTBucket& b = *bucket(key);
    const std::uint64_t t = tag(key);
    for (std::size_t i = 0; i < kWindow; ++i)
        if (b.key[i] == t && b.e[i].hand == hand) return &b.e[i];
    return nullptr;
}

TTEntry* TranspositionTable::slot_for_insert(TTBucket& b, std::uint64_t t) {
    std::size_t victim = kWindow;
    std::size_t others = 0;
    for (std::size_t i = 0; i < kWindow; ++i) {
        if (b.key[i] == 0) {
            if (++entries_ > peak_) peak_ = entries_;
            b.key[i] = t;
            return &b.e[i];
        }
        others += b.key[i] != t;
        if (victim == kWindow || cost(b.e[i]) < cost(b.e[victim])) victim = i;
    }
    // A bucket full of other boards' entries asks for a larger table; one full of this board's
    // own hands does not (a larger table would hold them in the same bucket).
    if (others * 2 >= kWindow) ++crowded_;
    b.key[victim] = t;
    return &b.e[victim];   // the bucket is full: the cheapest entry goes
}

void TranspositionTable::track_decided() {
    if (decided_bits_.empty()) rebuild_decided();
}

// An empty filter for the table's capacity: two bits per slot, at most 2^25 bits (4 MB): a table
// of 2 M decided entries leaves about one bit in sixteen set.
void TranspositionTable::size_decided(std::vector<std::uint64_t>& bits, std::uint64_t& mask) const {
    std::size_t n = std::size_t{1} << 12;
    while (n < capacity_ * 2 && n < (std::size_t{1} << 25)) n <<= 1;
    bits.assign(n / 64, 0);
    mask = n - 1;
}

void TranspositionTable::rebuild_decided() {
    size_decided(decided_bits_, decided_mask_);
    for (std::size_t i = 0; i < nbuckets_; ++i)
        for (std::size_t k = 0; k < kWindow; ++k)
            if (buckets_[i].key[k] != 0 && decided(buckets_[i].e[k])) mark_decided(buckets_[i].key[k]);
}

void TranspositionTable::store(std::uint64_t key, PHand hand, std::uint64_t pn, std::uint64_t dn, int depth,
                               std::uint64_t amount, int length, std::uint32_t move) {
    if ((pn == 0 || dn == 0) && !decided_bits_.empty()) mark_decided(key);
    TTBucket& b = *bucket(key);
    const std::uint64_t t = tag(key);
    const auto d16 = static_cast<std::uint16_t>(std::clamp(depth, 0, 0xFFFF));
    if (pn == 0 || dn == 0) {
        for (std::size_t i = 0; i < kWindow; ++i) {
            if (b.key[i] != t) continue;
            TTEntry& e = b.e[i];
            if (decided(e)) {
                if (e.hand == hand && (e.pn == 0) == (pn == 0)) {   // the same verdict again: refresh it
                    e.amount = add_amount(e.amount, amount);
                    if (length >= 0 && length < e.length) {
                        e.length = static_cast<std::uint16_t>(length);
                        e.move = move;
                    }
                    return;
                }
                continue;
            }
            const bool answered = pn == 0 ? hand_ge(e.hand, hand) : hand_ge(hand, e.hand);
            if (answered) {
                amount += e.amount;
                b.key[i] = 0;
                --entries_;
            }
        }
    } else {
        for (std::size_t i = 0; i < kWindow; ++i) {
            if (b.key[i] != t) continue;
            TTEntry& e = b.e[i];
            if (e.hand == hand && !decided(e)) {
                e.pn = to32(pn);
                e.dn = to32(dn);
                if (d16 < e.depth) e.depth = d16;
                e.amount = add_amount(e.amount, amount);
                return;
            }
        }
    }
    TTEntry* e = slot_for_insert(b, t);
    e->pn = to32(pn);
    e->dn = to32(dn);
    e->hand = hand;
    e->amount = add_amount(0, std::max<std::uint64_t>(amount, 1));
    e->move = move;
    e->depth = d16;
    e->length = static_cast<std::uint16_t>(std::clamp(length, 0, 0xFFFF));
}

// The cheapest entries go: a cut-off cost from a sample (every occupied slot of about 8,192 evenly
// spread buckets), then one pass that empties the slots at or below it and fills a new filter of
// decided boards with the rest.  A pass over a 617 MB table takes about 100 ms, so it looks at the
// stop flag every 4,096 buckets: stopped, it leaves the slots it has not reached as they are and
// keeps the old filter (a superset of the boards still decided), and the table stays sound.
std::size_t TranspositionTable::collect(double target) {
    const auto goal = static_cast<std::size_t>(static_cast<double>(capacity_) * target);
    if (entries_ <= goal) return 0;
    std::vector<std::uint64_t> sample;
    const std::size_t step = std::max<std::size_t>(1, nbuckets_ >> 13);
    for (std::size_t i = step / 2; i < nbuckets_; i += step)
        for (std::size_t k = 0; k < kWindow; ++k)
            if (buckets_[i].key[k] != 0) sample.push_back(cost(buckets_[i].e[k]));
    if (sample.empty()) return 0;
    const std::uint64_t cutoff = collect::cutoff(sample, entries_, goal);
    const bool track = !decided_bits_.empty();
    std::vector<std::uint64_t> fresh;
    std::uint64_t fresh_mask = 0;
    if (track) size_decided(fresh, fresh_mask);
    std::size_t removed = 0;
    bool complete = true;
    for (std::size_t i = 0; i < nbuckets_; ++i) {
        if ((i & 4095) == 4095 && stopped()) {
            complete = false;
            break;
        }
        TTBucket& b = buckets_[i];
        for (std::size_t k = 0; k < kWindow; ++k) {
            if (b.key[k] == 0) continue;
            if (cost(b.e[k]) <= cutoff) {
                b.key[k] = 0;
                ++removed;
            } else if (track && decided(b.e[k])) {
                mark(fresh, fresh_mask, b.key[k]);
            }
        }
    }
    entries_ -= removed;
    ++collections_;
    if (track && complete) {
        decided_bits_.swap(fresh);
        decided_mask_ = fresh_mask;
    }
    return removed;
}

void TranspositionTable::clear() {
    // A new table's first array: a search begun again on a cleared table then searches what it
    // would on a new one (in a grown array, full buckets replace otherwise).
    const std::size_t first = first_capacity(max_capacity_) / kWindow;
    if (reserved_) {
        // The first buckets zeroed, the pages beyond given back (they read as zeros again), and
        // the mapping on small pages again, as a new table's.
        std::memset(static_cast<void*>(buckets_), 0, first * sizeof(TTBucket));
#if defined(__linux__)
        if (nbuckets_ > first)
            (void)madvise(buckets_ + first, (nbuckets_ - first) * sizeof(TTBucket), MADV_DONTNEED);
#if defined(MADV_NOHUGEPAGE)
        (void)madvise(buckets_, reserved_bytes(), MADV_NOHUGEPAGE);
#endif
#endif
        set_size(first);
    } else {
        void* old_raw = raw_;
        const std::size_t old_len = raw_len_;
        allocate(first * kWindow);
        memory::release(old_raw, old_len);
    }
    entries_ = 0;
    crowded_ = 0;
    if (!decided_bits_.empty()) rebuild_decided();
}

}  // namespace tsume::dfpn
