#include "tt.h"

#include <algorithm>
#include <cstdlib>
#include <new>
#include <vector>

#if defined(__linux__)
#include <sys/mman.h>
#endif

#include "types.h"

namespace tsume::dfpn {

namespace {

// The process beside the table: the interpreter, Qt or cshogi, the search's own stacks.
constexpr double kTableShare = 0.75;
constexpr double kReservedMb = 32.0;
constexpr std::size_t kInitialEntries = std::size_t{1} << 11;   // 128 KB: most searches stay in it
constexpr std::size_t kHugePage = std::size_t{2} << 20;
constexpr std::size_t kHugeBytes = std::size_t{256} << 20;      // arrays this large ask for huge pages

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
    // The last growth holds a quarter-size array beside the full one.
    max_capacity_ = std::max<std::size_t>(1024, entries_for(memory_mb) * 4 / 5) / kWindow * kWindow;
    allocate(first_capacity(max_capacity_));
}

// Zeroed memory for n buckets (every key 0: empty), 128-byte aligned.  On Linux the array is its
// own mapping, its pages faulted in by the one mmap call (MAP_POPULATE): the table's hashing touches
// every page of a grown array within its rehash anyway, and one call costs the kernel less than
// a fault per page (on tail 151 of Microcosmos: 0.27 s of system time instead of 0.45 s).  The first
// array is not populated: most searches are short and touch a few of its pages (populating it cost
// mate.tsv's 1,040 searches 0.9 s of system time).  It is small for the same reason: a short
// search's entries land on scattered pages, each a fault (first arrays of 4 MB here and 590 KB in
// the length table cost mate.tsv's batch 347,000 more faults and about 0.6 s more CPU than 128 KB
// and 37 KB).  An array of kHugeBytes or more (a long search's) asks for transparent huge pages
// instead, on a 2 MB-aligned mapping, left to fault in as the rehash touches it: one TLB entry
// then covers 2 MB of buckets, and a child's probe rarely waits on a page walk (将棋無双 48番, a
// 600 MB table: about 6 % less CPU time).  Smaller arrays stay on small pages: zeroing fresh huge pages
// cost some guests more system time than a short search gains (docs/benchmarks.md).  Elsewhere,
// or when mmap fails, calloc with one bucket more to align.
void TranspositionTable::allocate_raw(std::size_t n) {
    const std::size_t bytes = n * sizeof(TTBucket);
#if defined(__linux__) && defined(MAP_POPULATE)
#if defined(MADV_HUGEPAGE)
    const bool huge = bytes >= kHugeBytes;
#else
    const bool huge = false;
#endif
    // A huge-page array maps 2 MB more, to start on a 2 MB boundary, and faults in as it is used.
    const std::size_t len = huge ? bytes + kHugePage : bytes;
    const int populate = !huge && n > kInitialEntries / kWindow ? MAP_POPULATE : 0;
    void* m = mmap(nullptr, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | populate, -1, 0);
    if (m != MAP_FAILED) {
        auto start = reinterpret_cast<std::uintptr_t>(m);   // page-aligned
#if defined(MADV_HUGEPAGE)
        if (huge) {
            start = (start + kHugePage - 1) & ~std::uintptr_t{kHugePage - 1};
            (void)madvise(reinterpret_cast<void*>(start), bytes, MADV_HUGEPAGE);   // a hint: small pages when refused
        }
#endif
        raw_ = m;
        raw_len_ = len;
        buckets_ = reinterpret_cast<TTBucket*>(start);
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

void TranspositionTable::free_raw(void* raw, std::size_t len) {
#if defined(__linux__) && defined(MAP_POPULATE)
    if (len != 0) {
        munmap(raw, len);
        return;
    }
#endif
    (void)len;
    std::free(raw);
}

void TranspositionTable::allocate(std::size_t capacity) {
    const std::size_t n = capacity / kWindow;
    allocate_raw(n);
    nbuckets_ = n;
    capacity_ = n * kWindow;
    grow_at_ = can_grow() ? capacity_ / 2 : static_cast<std::size_t>(-1);
    collect_at_ = can_grow() ? static_cast<std::size_t>(-1)
                                            : static_cast<std::size_t>(static_cast<double>(capacity_) * kCollectAt);
}

void TranspositionTable::grow() {
    const TTBucket* old = buckets_;
    void* old_raw = raw_;
    const std::size_t old_len = raw_len_;
    const std::size_t old_n = nbuckets_;
    // Twice over, or straight to the bound when the doubled array could not itself grow to it:
    // so the old array beside the new one is never more than a quarter of the bound.
    allocate(capacity_ * 8 > max_capacity_ ? max_capacity_ : capacity_ * 2);
    entries_ = 0;
    crowded_ = 0;
    for (std::size_t i = 0; i < old_n; ++i) {
        const TTBucket& ob = old[i];
        for (std::size_t k = 0; k < kWindow; ++k) {
            if (ob.key[k] == 0) continue;
            TTBucket& nb = buckets_[home(ob.key[k])];
            for (std::size_t j = 0; j < kWindow; ++j)
                if (nb.key[j] == 0) {
                    nb.key[j] = ob.key[k];
                    nb.e[j] = ob.e[k];
                    ++entries_;
                    break;
                }   // a full bucket drops the entry: a rare loss of knowledge, never of soundness
        }
    }
    free_raw(old_raw, old_len);
    peak_ = std::max(peak_, entries_);
    if (!decided_bits_.empty()) rebuild_decided();
}

TranspositionTable::~TranspositionTable() { free_raw(raw_, raw_len_); }

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

void TranspositionTable::rebuild_decided() {
    // Two bits per slot, at most 2^25 bits (4 MB): a table of 2 M decided entries leaves about one
    // bit in sixteen set.
    std::size_t bits = std::size_t{1} << 12;
    while (bits < capacity_ * 2 && bits < (std::size_t{1} << 25)) bits <<= 1;
    decided_bits_.assign(bits / 64, 0);
    decided_mask_ = bits - 1;
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

std::size_t TranspositionTable::collect(double target) {
    const auto goal = static_cast<std::size_t>(static_cast<double>(capacity_) * target);
    if (entries_ <= goal) return 0;
    // The cut-off cost from a sample of the occupied slots (evenly spread, at most 1 << 16).
    std::vector<std::uint64_t> sample;
    const std::size_t step = std::max<std::size_t>(1, entries_ >> 16);
    std::size_t seen = 0;
    for (std::size_t i = 0; i < nbuckets_; ++i)
        for (std::size_t k = 0; k < kWindow; ++k) {
            if (buckets_[i].key[k] == 0) continue;
            if (seen++ % step == 0) sample.push_back(cost(buckets_[i].e[k]));
        }
    if (sample.empty()) return 0;
    const double share = static_cast<double>(entries_ - goal) / static_cast<double>(entries_);
    auto nth = static_cast<std::size_t>(share * static_cast<double>(sample.size()));
    nth = std::min(nth, sample.size() - 1);
    std::nth_element(sample.begin(), sample.begin() + static_cast<std::ptrdiff_t>(nth), sample.end());
    const std::uint64_t cutoff = sample[nth];
    std::size_t removed = 0;
    for (std::size_t i = 0; i < nbuckets_; ++i)
        for (std::size_t k = 0; k < kWindow; ++k) {
            if (buckets_[i].key[k] != 0 && cost(buckets_[i].e[k]) <= cutoff) {
                buckets_[i].key[k] = 0;
                ++removed;
            }
        }
    entries_ -= removed;
    ++collections_;
    if (!decided_bits_.empty()) rebuild_decided();
    return removed;
}

void TranspositionTable::clear() {
    // A new table's first array: a search begun again on a cleared table then searches what it
    // would on a new one (in a grown array, full buckets replace otherwise).
    void* old_raw = raw_;
    const std::size_t old_len = raw_len_;
    allocate(first_capacity(max_capacity_));
    free_raw(old_raw, old_len);
    entries_ = 0;
    crowded_ = 0;
    if (!decided_bits_.empty()) rebuild_decided();
}

}  // namespace tsume::dfpn
