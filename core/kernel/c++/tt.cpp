#include "tt.h"

#include <algorithm>
#include <cstdlib>
#include <new>
#include <vector>

namespace tsume::dfpn {

namespace {

// The process beside the table: the interpreter, Qt or cshogi, the search's own stacks.
constexpr double kTableShare = 0.75;
constexpr double kReservedMb = 32.0;
constexpr std::size_t kInitialEntries = std::size_t{1} << 16;

std::uint64_t mul_hi(std::uint64_t a, std::uint64_t b) {
#if defined(__SIZEOF_INT128__)
    return static_cast<std::uint64_t>((static_cast<unsigned __int128>(a) * b) >> 64);
#else
    const std::uint64_t a_lo = a & 0xFFFFFFFFu, a_hi = a >> 32, b_lo = b & 0xFFFFFFFFu, b_hi = b >> 32;
    const std::uint64_t lo_lo = a_lo * b_lo, hi_lo = a_hi * b_lo, lo_hi = a_lo * b_hi, hi_hi = a_hi * b_hi;
    const std::uint64_t cross = (lo_lo >> 32) + (hi_lo & 0xFFFFFFFFu) + lo_hi;
    return hi_hi + (hi_lo >> 32) + (cross >> 32);
#endif
}

bool decided(const TTEntry& e) { return e.pn == 0 || e.dn == 0; }

// What rebuilding an entry would cost: its amount, decided entries counted double.
std::uint64_t cost(const TTEntry& e) { return static_cast<std::uint64_t>(e.amount) * (decided(e) ? 2 : 1); }

std::uint32_t add_amount(std::uint32_t a, std::uint64_t b) {
    const std::uint64_t s = static_cast<std::uint64_t>(a) + b;
    return s >= 0xFFFFFFFFu ? 0xFFFFFFFEu : static_cast<std::uint32_t>(s);
}

}  // namespace

std::size_t TranspositionTable::entries_for(std::size_t memory_mb) {
    const double table_mb = std::max(1.0, static_cast<double>(memory_mb) * kTableShare - kReservedMb);
    const auto n = static_cast<std::size_t>(table_mb * 1024.0 * 1024.0) / kBytesPerEntry;
    return std::max<std::size_t>(n, 1024);
}

TranspositionTable::TranspositionTable(std::size_t memory_mb) {
    // The last growth holds a quarter-size array beside the full one.
    max_capacity_ = std::max<std::size_t>(1024, entries_for(memory_mb) * 4 / 5) / kWindow * kWindow;
    allocate(std::min<std::size_t>(max_capacity_, kInitialEntries));
}

void TranspositionTable::allocate(std::size_t capacity) {
    // A window is a bucket of kWindow entries on a 64-byte boundary: four whole cache lines.
    void* p = std::calloc(capacity + kWindow - 1 + 64 / sizeof(TTEntry), sizeof(TTEntry));
    if (p == nullptr) throw std::bad_alloc();
    raw_ = p;
    const auto addr = reinterpret_cast<std::uintptr_t>(p);
    data_ = reinterpret_cast<TTEntry*>((addr + 63) & ~std::uintptr_t{63});
    capacity_ = capacity;
    grow_at_ = capacity_ < max_capacity_ ? capacity_ / 2 : static_cast<std::size_t>(-1);
    collect_at_ = capacity_ < max_capacity_ ? static_cast<std::size_t>(-1)
                                            : static_cast<std::size_t>(static_cast<double>(capacity_) * kCollectAt);
}

void TranspositionTable::grow() {
    TTEntry* old = data_;
    void* old_raw = raw_;
    const std::size_t old_total = capacity_ + kWindow - 1;
    allocate(std::min(max_capacity_, capacity_ * 4));
    entries_ = 0;
    crowded_ = 0;
    for (std::size_t i = 0; i < old_total; ++i) {
        const TTEntry& e = old[i];
        if (e.amount == 0) continue;
        TTEntry* w = data_ + home(e.key);
        for (std::size_t j = 0; j < kWindow; ++j)
            if (w[j].amount == 0) {
                w[j] = e;
                ++entries_;
                break;
            }   // a full window drops the entry: a rare loss of knowledge, never of soundness
    }
    std::free(old_raw);
    peak_ = std::max(peak_, entries_);
}

TranspositionTable::~TranspositionTable() { std::free(raw_); }

std::size_t TranspositionTable::home_portable(std::uint64_t key) const {
    return static_cast<std::size_t>(mul_hi(key, capacity_ / kWindow)) * kWindow;
}

bool TranspositionTable::has_key(std::uint64_t key) const {
    const TTEntry* w = data_ + home(key);
    for (std::size_t i = 0; i < kWindow; ++i)
        if (w[i].amount != 0 && w[i].key == key) return true;
    return false;
}

const TTEntry* TranspositionTable::probe(std::uint64_t key, PHand hand) const {
    const TTEntry* w = data_ + home(key);
    const TTEntry* exact = nullptr;
    for (std::size_t i = 0; i < kWindow; ++i) {
        const TTEntry& e = w[i];
        if (e.amount == 0 || e.key != key) continue;
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
    const TTEntry* w = data_ + home(key);
    for (std::size_t i = 0; i < kWindow; ++i)
        if (w[i].amount != 0 && w[i].key == key && w[i].hand == hand) return &w[i];
    return nullptr;
}

TTEntry* TranspositionTable::slot_for_insert(std::size_t start, std::uint64_t key) {
    TTEntry* w = data_ + start;
    TTEntry* victim = nullptr;
    std::size_t others = 0;
    for (std::size_t i = 0; i < kWindow; ++i) {
        if (w[i].amount == 0) {
            if (++entries_ > peak_) peak_ = entries_;
            return &w[i];
        }
        others += w[i].key != key;
        if (victim == nullptr || cost(w[i]) < cost(*victim)) victim = &w[i];
    }
    // A window full of other boards' entries asks for a larger table; one full of this board's
    // own hands does not (a larger table would hold them in the same window).
    if (others * 2 >= kWindow) ++crowded_;
    return victim;   // the window is full: the cheapest entry goes
}

void TranspositionTable::store(std::uint64_t key, PHand hand, std::uint64_t pn, std::uint64_t dn, int depth,
                               std::uint64_t amount, int length, std::uint32_t move) {
    const std::size_t h = home(key);
    TTEntry* w = data_ + h;
    const auto d16 = static_cast<std::uint16_t>(std::clamp(depth, 0, 0xFFFF));
    if (pn == 0 || dn == 0) {
        for (std::size_t i = 0; i < kWindow; ++i) {
            TTEntry& e = w[i];
            if (e.amount == 0 || e.key != key) continue;
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
                e.amount = 0;
                --entries_;
            }
        }
    } else {
        for (std::size_t i = 0; i < kWindow; ++i) {
            TTEntry& e = w[i];
            if (e.amount != 0 && e.key == key && e.hand == hand && !decided(e)) {
                e.pn = to32(pn);
                e.dn = to32(dn);
                if (d16 < e.depth) e.depth = d16;
                e.amount = add_amount(e.amount, amount);
                return;
            }
        }
    }
    TTEntry* e = slot_for_insert(h, key);
    e->key = key;
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
    const std::size_t total = capacity_ + kWindow - 1;
    // The cut-off cost from a sample of the occupied slots (evenly spread, at most 1 << 16).
    std::vector<std::uint64_t> sample;
    const std::size_t step = std::max<std::size_t>(1, entries_ >> 16);
    std::size_t seen = 0;
    for (std::size_t i = 0; i < total; ++i) {
        if (data_[i].amount == 0) continue;
        if (seen++ % step == 0) sample.push_back(cost(data_[i]));
    }
    if (sample.empty()) return 0;
    const double share = static_cast<double>(entries_ - goal) / static_cast<double>(entries_);
    auto nth = static_cast<std::size_t>(share * static_cast<double>(sample.size()));
    nth = std::min(nth, sample.size() - 1);
    std::nth_element(sample.begin(), sample.begin() + static_cast<std::ptrdiff_t>(nth), sample.end());
    const std::uint64_t cutoff = sample[nth];
    std::size_t removed = 0;
    for (std::size_t i = 0; i < total; ++i) {
        TTEntry& e = data_[i];
        if (e.amount != 0 && cost(e) <= cutoff) {
            e.amount = 0;
            ++removed;
        }
    }
    entries_ -= removed;
    ++collections_;
    return removed;
}

void TranspositionTable::clear() {
    const std::size_t total = capacity_ + kWindow - 1;
    for (std::size_t i = 0; i < total; ++i) data_[i].amount = 0;
    entries_ = 0;
}

}  // namespace tsume::dfpn
