#include "length_search.h"

#include <algorithm>
#include <cstdlib>
#include <new>
#include <sstream>
#include <stdexcept>

#include "collect.h"
#include "memory.h"

namespace tsume::length {

using dfpn::kInf;

namespace {

constexpr int kCheckEvery = 1024;          // nodes between stop checks
constexpr double kEpsilon = 1.25;          // 1+ε thresholds for the best child
constexpr std::size_t kFutilityMemo = 200000;       // verdicts kept before the memo is cleared
constexpr int kMaxFrames = 60000;          // nested depth (plies of every nested question) before giving up
constexpr std::size_t kInitialSlots = std::size_t{1} << 10;   // 37 KB, grown as needed (see tt.cpp)
// A table this large goes on huge pages: the product's length table (a quarter of --memory, less
// the restricted games': 134 MB at the bound for the default 1024) takes 0.88 of the CPU time on
// huge pages (将棋無双 72番's length), where the df-pn table's 256 MB would leave it on small ones.
constexpr std::size_t kHugeBytes = std::size_t{64} << 20;

// `bytes` of zeroed memory.  On Linux, with `huge`, a mapping of its own on transparent huge
// pages, as the large df-pn table's (tt.cpp): a lookup's window is then rarely a page walk as
// well as a cache miss; otherwise calloc, which AddressSanitizer guards.  `raw` and `mapped` are
// what memory::release takes back.
void* zeroed(std::size_t bytes, bool huge, void*& raw, std::size_t& mapped) {
    mapped = 0;
#if defined(__linux__) && defined(MADV_HUGEPAGE) && !defined(TSUME_TT_NO_RESERVE)
    if (huge) {
        if (void* base = memory::map_aligned(bytes, raw, mapped); base != nullptr) {
            (void)madvise(base, bytes, MADV_HUGEPAGE);   // a hint
            return base;
        }
    }
#else
    (void)huge;
#endif
    raw = std::calloc(bytes, 1);
    return raw;
}

std::uint64_t cost(const LEntry& e) {
    const bool bounded = e.hi < kLenInf || e.lo > 1;
    return static_cast<std::uint64_t>(e.amount) * (bounded ? 2 : 1);
}

// The least length above n that a node of this kind can have: attacker lengths are odd, defender
// lengths even, so "no mate within n" proves at least this.
int after_refuted(int n, bool or_node) {
    const bool odd = (n & 1) != 0;
    return (or_node == odd) ? n + 2 : n + 1;
}

// The largest length of this kind not above n.
int at_most(int n, bool or_node) {
    const bool odd = (n & 1) != 0;
    return (or_node == odd) ? n : n - 1;
}

std::uint16_t len16(int v) { return static_cast<std::uint16_t>(std::clamp(v, 0, kLenInf)); }

std::uint64_t sat_add(std::uint64_t a, std::uint64_t b) { return a + b >= kInf ? kInf : a + b; }

// Whether the entry's proved bounds answer "mate within n?" (a mate within hi <= n, or none
// within lo - 2 >= n); then pn/dn are set to the answer.
bool settled(const LEntry& e, int n, std::uint64_t& pn, std::uint64_t& dn) {
    if (e.hi <= n) {
        pn = 0;
        dn = kInf;
        return true;
    }
    if (e.lo > n) {
        pn = kInf;
        dn = 0;
        return true;
    }
    return false;
}

// df-pn's choice among children (core/search/node.py select_child): the node's numbers, then the
// child to search (-1: none) and its thresholds.
int select(const std::vector<std::uint64_t>& cpn, const std::vector<std::uint64_t>& cdn, bool or_node,
           std::uint64_t pending, std::uint64_t thpn, std::uint64_t thdn, std::uint64_t& pn, std::uint64_t& dn,
           std::uint64_t& cthpn, std::uint64_t& cthdn) {
    std::uint64_t best = kInf + 1, second = kInf + 1, total = pending;
    int i1 = -1;
    const auto& least = or_node ? cpn : cdn;
    const auto& summed = or_node ? cdn : cpn;
    for (std::size_t i = 0; i < least.size(); ++i) {
        const std::uint64_t v = least[i];
        if (v < best) {
            second = best;
            best = v;
            i1 = static_cast<int>(i);
        } else if (v < second) {
            second = v;
        }
        total = sat_add(total, summed[i]);
    }
    if (or_node) {
        pn = best;
        dn = total;
    } else {
        pn = total;
        dn = best;
    }
    if (pn == 0 || dn == 0) return -1;
    // An undecided node's sum stops just short of kInf, the number of a decided node: a question
    // searched with thresholds of kInf ended on a disproof number that had reached it as though
    // refuted, and ask() answered "no" to a question it had not decided (将棋無双 30番: "mate within
    // 119?" answered no with pn 496, and "exact, 157 plies" followed from such answers).
    pn = std::min(pn, kInf - 1);
    dn = std::min(dn, kInf - 1);
    if (pn >= thpn || dn >= thdn) return -1;
    const std::size_t c = static_cast<std::size_t>(i1);
    const std::uint64_t tight =
        second >= kInf ? kInf : static_cast<std::uint64_t>(static_cast<double>(second) * kEpsilon) + 1;
    if (or_node) {
        cthpn = std::min(thpn, tight);
        const std::uint64_t t = thdn - dn + cdn[c];
        cthdn = t < kInf ? t : kInf;
    } else {
        cthdn = std::min(thdn, tight);
        const std::uint64_t t = thpn - pn + cpn[c];
        cthpn = t < kInf ? t : kInf;
    }
    return i1;
}

// ---- geometry of interpositions (core/shogi/moves.py, core/search/interposition.py) ----------

bool line_step(int a, int b, int& df, int& dr) {
    const int fa = a / 9, ra = a % 9, fb = b / 9, rb = b % 9;
    const int f = fb - fa, r = rb - ra;
    if ((f == 0 && r == 0) || !(f == 0 || r == 0 || std::abs(f) == std::abs(r))) return false;
    df = (f > 0) - (f < 0);
    dr = (r > 0) - (r < 0);
    return true;
}

int king_distance(int king, int sq) { return std::max(std::abs(sq / 9 - king / 9), std::abs(sq % 9 - king % 9)); }

// The first occupied square beyond `target` on the line from the king through it (-1: none).
int checker_behind(const Position& pos, int king, int target) {
    int df = 0, dr = 0;
    if (!line_step(king, target, df, dr)) return -1;
    int f = target / 9 + df, r = target % 9 + dr;
    while (f >= 0 && f < 9 && r >= 0 && r < 9) {
        const int sq = f * 9 + r;
        if (pos.piece_on(Square(sq)) != NO_PIECE) return sq;
        f += df;
        r += dr;
    }
    return -1;
}

// Smallest distance at which a drop may be omitted on the king-checker line ([LS3600 2010]).
int distance_threshold(int king, int checker) {
    int df = 0, dr = 0;
    if (!line_step(king, checker, df, dr)) return 99;
    if (df != 0 && dr != 0) return 4;
    if (df == 0) return (king / 9 == 0 || king / 9 == 8) ? 4 : 5;   // along a file
    return (king % 9 == 0 || king % 9 == 8) ? 4 : 5;
}

const char kHandLetters[] = "PLNSGBR";   // packed hand order

std::string hand_text(const Position& pos) {
    std::string out;
    static constexpr PieceType kOrder[7] = {ROOK, BISHOP, GOLD, SILVER, KNIGHT, LANCE, PAWN};
    static constexpr char kLetter[7] = {'R', 'B', 'G', 'S', 'N', 'L', 'P'};
    for (int c = 0; c < COLOR_NB; ++c)
        for (int i = 0; i < 7; ++i) {
            const int n = tsume::hand_count(pos.hand(Color(c)), kOrder[i]);
            if (n == 0) continue;
            if (n > 1) out += std::to_string(n);
            out += c == 0 ? kLetter[i] : static_cast<char>(kLetter[i] - 'A' + 'a');
        }
    (void)kHandLetters;
    return out.empty() ? "-" : out;
}

}  // namespace

// ---- the table --------------------------------------------------------------------------------

LengthTable::LengthTable(std::size_t memory_mb) {
    const std::size_t bytes = memory_mb * 1024 * 1024;
    // The last growth holds a quarter-size array beside the full one.
    max_capacity_ = std::max<std::size_t>(4096, bytes / (sizeof(LEntry) + sizeof(std::uint64_t)) * 4 / 5);
    allocate(std::min(max_capacity_, kInitialSlots));
}

LengthTable::~LengthTable() { memory::release(raw_, raw_len_); }

std::size_t LengthTable::key_bytes(std::size_t capacity) {
    return ((capacity + kWindow - 1) * sizeof(std::uint64_t) + 63) & ~std::size_t{63};
}

std::size_t LengthTable::block_bytes(std::size_t capacity) {
    return key_bytes(capacity) + (capacity + kWindow - 1) * sizeof(LEntry);
}

// Both arrays in one block, the bodies from the first cache line after the keys.
void LengthTable::allocate(std::size_t capacity) {
    const std::size_t bytes = block_bytes(capacity);
    void* raw = nullptr;
    std::size_t len = 0;
    auto* base = static_cast<char*>(zeroed(bytes, bytes >= kHugeBytes, raw, len));
    if (base == nullptr) throw std::bad_alloc();   // the table as it was
    raw_ = raw;
    raw_len_ = len;
    keys_ = reinterpret_cast<std::uint64_t*>(base);
    data_ = reinterpret_cast<LEntry*>(base + key_bytes(capacity));
    capacity_ = capacity;
}

// Four times over, or straight to the bound when the next array would be more than half of it:
// the product's table went from 4.19 M slots to its bound of 4.47 M, rehashing 2 M entries for 7 %
// more room, with 300 MB of old and new arrays side by side; now it goes from 1.05 M to 4.47 M.
std::size_t LengthTable::next_capacity() const {
    return capacity_ * 8 > max_capacity_ ? max_capacity_ : capacity_ * 4;
}

std::size_t LengthTable::home(std::uint64_t key) const { return static_cast<std::size_t>(mul_hi(key, capacity_)); }

LEntry* LengthTable::find(std::uint64_t key, PHand hand) {
    const std::size_t h = home(key);
    const std::uint64_t t = tag(key);
    const std::uint64_t* k = keys_ + h;
    for (std::size_t i = 0; i < kWindow; ++i)
        if (k[i] == t && data_[h + i].hand == hand) return data_ + h + i;
    return nullptr;
}

LEntry& LengthTable::get(std::uint64_t key, PHand hand, int lo0) {
    const std::size_t h = home(key);
    const std::uint64_t t = tag(key);
    std::uint64_t* k = keys_ + h;
    LEntry* w = data_ + h;
    std::size_t slot = kWindow;
    for (std::size_t i = 0; i < kWindow; ++i) {
        if (k[i] == t) {
            if (w[i].hand == hand) return w[i];
        } else if (k[i] == 0 && slot == kWindow) {
            slot = i;
        }
    }
    if (slot == kWindow) {
        // A full window: the entry that cost the least search goes (never one on the search path).
        slot = 0;
        const LEntry* cheapest = nullptr;
        for (std::size_t i = 0; i < kWindow; ++i)
            if (!(w[i].flags & kBusy) && (cheapest == nullptr || cost(w[i]) < cost(*cheapest))) {
                cheapest = w + i;
                slot = i;
            }
    } else {
        ++entries_;
    }
    k[slot] = t;
    w[slot] = LEntry{hand, 0, 1, 1, 0, len16(lo0), static_cast<std::uint16_t>(kLenInf), -1, kUsed, 0};
    refresh(w[slot]);
    return w[slot];
}

void LengthTable::refresh_by_dominance(LEntry& e) {
    const std::uint64_t t = key_of(e);
    const std::size_t h = home(t);
    const std::uint64_t* k = keys_ + h;
    for (std::size_t i = 0; i < kWindow; ++i) {
        if (k[i] != t) continue;
        const LEntry& o = data_[h + i];
        if (&o == &e) continue;
        if (o.hi < e.hi && dfpn::hand_ge(e.hand, o.hand)) {
            e.hi = o.hi;
            e.best = o.best;
        }
        if (o.lo > e.lo && dfpn::hand_ge(o.hand, e.hand)) e.lo = o.lo;
    }
}

void LengthTable::grow() {
    std::uint64_t* old_keys = keys_;
    LEntry* old = data_;
    void* old_raw = raw_;
    const std::size_t old_len = raw_len_;
    const std::size_t old_slots = capacity_ + kWindow - 1;
    allocate(next_capacity());
    entries_ = 0;
    // Every 65,536 slots a look at the stop flags (the product's last growth moves 1 M entries into
    // a new 160 MB block, 70-100 ms on a 2 GHz Xeon guest): stopped, only the entries on the search
    // path, which must stay, are moved on, and the rest go, as a collection's would.
    bool stop = false;
    for (std::size_t i = 0; i < old_slots; ++i) {
        if ((i & 0xFFFF) == 0xFFFF && !stop) stop = stopped();
        if (old_keys[i] == 0 || (stop && !(old[i].flags & kBusy))) continue;
        const std::size_t h = home(old_keys[i]);
        for (std::size_t j = 0; j < kWindow; ++j)
            if (keys_[h + j] == 0) {
                keys_[h + j] = old_keys[i];
                data_[h + j] = old[i];
                ++entries_;
                break;
            }
    }
    memory::release(old_raw, old_len);
}

void LengthTable::maintain() {
    if (stopped()) return;   // the search is about to unwind
    if (capacity_ < max_capacity_) {
        if (entries_ * 2 >= capacity_) grow();
    } else if (static_cast<double>(entries_) >= 0.9 * static_cast<double>(capacity_)) {
        collect(0.7);
    }
}

// The cheapest entries go, never one on the search path: a cut-off cost from a sample (every
// occupied slot among about 65,536 evenly spread ones), then one pass that empties the slots at or
// below it.  The pass looks at the stop flags every 65,536 slots and, stopped, leaves the slots it
// has not reached as they are (a full collection of the product's 161 MB table: 120-140 ms).
std::size_t LengthTable::collect(double target) {
    const auto goal = static_cast<std::size_t>(static_cast<double>(capacity_) * target);
    if (entries_ <= goal) return 0;
    const std::size_t slots = capacity_ + kWindow - 1;
    std::vector<std::uint64_t> sample;
    const std::size_t step = std::max<std::size_t>(1, slots >> 16);
    for (std::size_t i = step / 2; i < slots; i += step)
        if (keys_[i] != 0) sample.push_back(cost(data_[i]));
    if (sample.empty()) return 0;
    const std::uint64_t cutoff = collect::cutoff(sample, entries_, goal);
    std::size_t removed = 0;
    for (std::size_t i = 0; i < slots; ++i) {
        if ((i & 0xFFFF) == 0xFFFF && stopped()) break;
        if (keys_[i] != 0 && !(data_[i].flags & kBusy) && cost(data_[i]) <= cutoff) {
            keys_[i] = 0;
            data_[i].flags = 0;
            ++removed;
        }
    }
    entries_ -= removed;
    ++collections_;
    return removed;
}

// ---- the search -------------------------------------------------------------------------------

// The raw oracle's df-pn plays each new check as its node expands: the estimate the length search
// was measured with, and the builder takes the oracle's move first among equal moves (see
// core/search/kernel_engine.py new_search).
static dfpn::Options oracle_options() {
    dfpn::Options opt;
    opt.play_checks = true;
    return opt;
}

LengthSearch::LengthSearch(int attacker, std::size_t memory_mb, std::size_t oracle_mb, bool distance_rule,
                           const RawLooks& looks)
    : attacker_(attacker), distance_rule_(distance_rule), looks_(looks), table_(memory_mb),
      oracle_(std::make_shared<Oracle>(attacker, oracle_mb, oracle_options())) {
    oracle_->track_decided();
    table_.set_stop(&cancel_, nullptr);
}

LengthSearch::LengthSearch(int attacker, std::size_t memory_mb, std::shared_ptr<Oracle> oracle, bool distance_rule,
                           const RawLooks& looks)
    : attacker_(attacker), distance_rule_(distance_rule), looks_(looks), table_(memory_mb), oracle_(std::move(oracle)) {
    if (!oracle_) throw std::invalid_argument("no oracle search given");
    oracle_->track_decided();   // first_look asks it about every new position
    table_.set_stop(&cancel_, nullptr);
}

template <class F>
Answer LengthSearch::guarded(Position& pos, const CallLimits& lim, F body) {
    lim_ = lim;
    next_check_ = nodes_;   // the first node checks the limits
    nested_ = depth_ = test_level_ = 0;
    const int ply0 = pos.ply();
    struct Published {
        LengthSearch& s;
        ~Published() { s.publish(); }
    } published{*this};
    try {
        return body();
    } catch (const Stop&) {
        while (pos.ply() > ply0) pos.undo_move();
        release_path();
        return Answer::Stopped;
    } catch (const Pause&) {
        while (pos.ply() > ply0) pos.undo_move();
        release_path();
        return Answer::Paused;
    }
}

namespace {
void add_amount(LEntry& e, std::uint64_t nodes) {
    const std::uint64_t amount = std::uint64_t{e.amount} + nodes;
    e.amount = amount >= 0xFFFFFFFEu ? 0xFFFFFFFEu : static_cast<std::uint32_t>(amount);
}
}  // namespace

void LengthSearch::release_path() {
    // A node's amount is what decides when it gets a raw look (RawLooks) and how long its entry
    // stays: a question asked in slices would otherwise see its long-searched nodes as cheap
    // (将棋無双 56番 in slices of 32,768 nodes: not exact in 90 s, against 36 s in one call).
    for (const PathNode& p : path_)
        if (LEntry* e = table_.find(p.key, p.hand)) {
            e->flags &= static_cast<std::uint8_t>(~LengthTable::kBusy);
            add_amount(*e, nodes_ - p.start + 1);
        }
    path_.clear();
}

void LengthSearch::publish() {
    if (outer_ != nullptr) {   // a nested game: its nodes are the outer search's
        outer_->pub_nodes_.store(outer_->nodes_ + (nodes_ - outer_base_), std::memory_order_relaxed);
        return;
    }
    pub_nodes_.store(nodes_, std::memory_order_relaxed);
    pub_tests_.store(futility_tests_, std::memory_order_relaxed);
    pub_entries_.store(table_.entries(), std::memory_order_relaxed);
    pub_capacity_.store(table_.capacity(), std::memory_order_relaxed);
}

void LengthSearch::budget() {
    next_check_ = nodes_ + kCheckEvery;
    publish();
    if (cancelled()) throw Stop{};
    if (lim_.nodes != 0 && nodes_ >= lim_.nodes) throw Stop{};
    const double now = dfpn::wall_seconds();
    if (lim_.stop_at >= 0.0 && now >= lim_.stop_at) throw Stop{};
    table_.maintain();
    // Only the outermost question pauses: a nested one (a futility test) would lose its place.
    if (nested_ == 1 && ((lim_.pause_nodes != 0 && nodes_ >= lim_.pause_nodes) ||
                         (lim_.pause_work != 0 && nodes_ + oracle_->nodes() >= lim_.pause_work)))
        throw Pause{};
}

LengthSearch::Frame& LengthSearch::frame(int depth) {
    if (depth >= kMaxFrames) throw Stop{};
    while (static_cast<int>(frames_.size()) <= depth) frames_.push_back(std::make_unique<Frame>());
    return *frames_[static_cast<std::size_t>(depth)];
}

dfpn::SearchBoard& LengthSearch::test_board(int level, const std::string& sfen) {
    while (static_cast<int>(test_pos_.size()) <= level) {
        test_pos_.push_back(std::make_unique<Position>());
        test_boards_.push_back(std::make_unique<B>(*test_pos_.back()));
    }
    test_pos_[static_cast<std::size_t>(level)]->set(sfen);
    return *test_boards_[static_cast<std::size_t>(level)];
}

namespace {
struct Depth {
    explicit Depth(int& d) : d_(d) { ++d_; }
    ~Depth() { --d_; }
    int& d_;
};
}  // namespace

bool LengthSearch::drops_mated(B& b, const DropSquare& ds, int n) {
    for (const Move m : ds.moves) {
        b.do_move(m);
        if (!(entry(b).flags & LengthTable::kSeen)) first_look(b, true);
        const bool mated = entry(b).hi <= n;
        b.undo_move(m);
        if (!mated) return false;
    }
    return true;
}

bool LengthSearch::omitted(const Frame& f, std::size_t i) const {
    // The distance rule: a square far enough from the checker, every nearer square on its line futile.
    const DropSquare& ds = f.squares[i];
    if (!distance_rule_ || !ds.omittable) return false;
    for (std::size_t j = 0; j < i; ++j)
        if (f.squares[j].checker == ds.checker && f.squares[j].distance < ds.distance &&
            f.square_state[j] != kSquareFutile)
            return false;
    return true;
}

void LengthSearch::counted_defences(Frame& f, std::size_t board_moves) const {
    f.counted.assign(f.moves.begin(), f.moves.begin() + static_cast<std::ptrdiff_t>(board_moves));
    for (std::size_t j = 0; j < f.squares.size(); ++j)
        if (f.square_state[j] == kSquareCounts)
            f.counted.insert(f.counted.end(), f.squares[j].moves.begin(), f.squares[j].moves.end());
}

void LengthSearch::drop_children(Frame& f, int square) {
    std::size_t w = 0;
    for (std::size_t r = 0; r < f.moves.size(); ++r) {
        const Move m = f.moves[r];
        if (is_drop(m) && int(move_to(m)) == square) continue;
        f.moves[w] = m;
        f.cpn[w] = f.cpn[r];
        f.cdn[w] = f.cdn[r];
        ++w;
    }
    f.moves.resize(w);
    f.cpn.resize(w);
    f.cdn.resize(w);
}

int LengthSearch::child_hi(B& b, Move m, int n) {
    b.do_move(m);
    const LEntry* e = table_.find(b.board_key(), b.hand_of(attacker_));
    const int hi = e == nullptr ? n : std::min<int>(e->hi, n);
    b.undo_move(m);
    return hi;
}

bool LengthSearch::first_look(B& b, bool or_node, MoveList* checks) {
    LEntry& e = entry(b);
    e.flags |= LengthTable::kSeen;
    const std::uint64_t key = b.board_key();
    const dfpn::TTEntry* t = oracle_->table().may_be_decided(key) ? oracle_->table().probe(key, b.hand_of(attacker_))
                                                                  : nullptr;
    if (t != nullptr) {
        if (t->pn != 0 && t->dn == 0) {
            e.lo = kLenInf;   // no mate at all under raw rules
            return false;
        }
        if (t->pn == 0 && t->length != dfpn::kNoLength && t->length < e.hi) {
            e.hi = t->length;   // a raw proof bounds the tsume-rule length from above
            if (or_node && t->move != 0) e.best = t->move;
        }
    }
    if (!or_node || e.hi <= 1 || b.in_check()) return false;
    const Move m1 = checks != nullptr ? mate_in_one(b.position(), *checks) : b.mate_in_one();
    if (m1 != MOVE_NONE) {
        LEntry& e2 = entry(b);
        e2.hi = 1;
        e2.best = m1;
    }
    return checks != nullptr;
}

bool LengthSearch::raw_disproof(B& b, std::uint64_t nodes) {
    dfpn::SearchLimits sl;
    sl.nodes = oracle_->nodes() + nodes;
    if (lim_.stop_at >= 0.0) sl.seconds = std::max(0.0, lim_.stop_at - dfpn::wall_seconds());
    const dfpn::Outcome o = oracle_->search(b, false, sl);
    if (cancelled()) throw Stop{};
    if (lim_.stop_at >= 0.0 && dfpn::wall_seconds() >= lim_.stop_at) throw Stop{};
    return o == dfpn::Outcome::Disproven;
}

bool LengthSearch::ask(B& b, bool or_node, int n) {
    ++questions_;
    if (n < (or_node ? 1 : 0)) return false;
    {
        LEntry& e = entry(b);
        if (e.hi <= n) return true;
        if (e.lo > n) return false;
        if (nested_ == 0 && !or_node && e.hi >= kLenInf && looks_.root_nodes != 0 && n >= looks_.root_from &&
            e.looks == 0) {
            // A question from outside (the 余詰 search asks one per check) is worth a longer raw
            // look: a check that does not mate at all is settled by it outright.  The looks inside
            // the search go on from the first larger than this one.
            while (e.looks < kMostLooks && look_nodes(e.looks) <= looks_.root_nodes) ++e.looks;
            if (raw_disproof(b, looks_.root_nodes)) {
                entry(b).lo = kLenInf;
                return false;
            }
        }
    }
    std::uint64_t pn = 0, dn = 0;
    Depth nest(nested_);
    // Searched until decided: with thresholds of kInf a search returns undecided only where a
    // node's numbers reach kInf, which select() prevents; a limit ends it by Stop or Pause.
    do
        search(b, or_node, n, kInf, kInf, pn, dn);
    while (pn != 0 && dn != 0);
    return pn == 0;
}

bool LengthSearch::exact_now(B& b, bool or_node, int cap, int& value) {
    // The bounds proved here are kept locally too: the table may lose an entry to a full window.
    int lo = 0, hi = kLenInf;
    {
        const LEntry& e = entry(b);
        lo = e.lo;
        hi = e.hi >= kLenInf ? kLenInf : at_most(e.hi, or_node);
    }
    auto merge = [&] {
        LEntry& e = entry(b);
        lo = std::max<int>(lo, e.lo);
        hi = std::min<int>(hi, e.hi >= kLenInf ? kLenInf : at_most(e.hi, or_node));
        e.lo = len16(lo);
        e.hi = len16(hi);
    };
    while (lo < hi) {
        if (hi > cap) {
            if (!ask(b, or_node, cap)) return false;
            hi = std::min(hi, at_most(cap, or_node));
            merge();
            continue;
        }
        const int d = hi - 2;
        if (lower_refutes(b, or_node, d) || !ask(b, or_node, d)) {
            lo = std::max(lo, d + 2);
            merge();
            break;
        }
        hi = std::min(hi, d);
        merge();
    }
    if (hi > cap) return false;
    value = hi;
    return true;
}

void LengthSearch::search(B& b, bool or_node, int n, std::uint64_t thpn, std::uint64_t thdn, std::uint64_t& pn,
                          std::uint64_t& dn) {
    ++nodes_;
    if (nodes_ >= next_check_) budget();
    LEntry* e = &entry(b);
    table_.refresh(*e);
    if (!(e->flags & LengthTable::kSeen)) {
        first_look(b, or_node);
        e = &entry(b);
    }
    if (settled(*e, n, pn, dn)) return;
    if (!or_node && looks_.nodes != 0 && n >= looks_.from && e->hi >= kLenInf && e->looks < kMostLooks &&
        (e->looks == 0 ? e->lo > 0 || e->amount >= looks_.after : e->amount >= look_nodes(e->looks))) {
        // Deep questions are worth a raw df-pn look: a position that is no mate at all is then never
        // refuted depth by depth.  The first waits until the node has shown it is not cheap (将棋無双,
        // measured before hand dominance went: 68 of 100 exact in 60 s against 67 looking at once,
        // 812 s against 946 s on the 67 both made); the later ones grow with its cost (RawLooks).
        const std::uint64_t look = e->looks == 0 ? looks_.nodes : look_nodes(e->looks);
        ++e->looks;
        if (raw_disproof(b, look)) {
            entry(b).lo = kLenInf;
            pn = kInf;
            dn = 0;
            return;
        }
    }
    const std::uint64_t start = nodes_;
    const bool was_busy = (e->flags & LengthTable::kBusy) != 0;
    e->flags |= LengthTable::kBusy;
    path_.push_back(PathNode{b.board_key(), e->hand, start});
    if (or_node)
        this->or_node(b, n, thpn, thdn, pn, dn);
    else
        and_node(b, n, thpn, thdn, pn, dn);
    path_.pop_back();
    LEntry& e2 = entry(b);
    if (!was_busy) e2.flags &= static_cast<std::uint8_t>(~LengthTable::kBusy);
    add_amount(e2, nodes_ - start + 1);
}

void LengthSearch::child(B& b, bool or_child, int n, std::uint64_t& pn, std::uint64_t& dn) {
    LEntry* e = &entry(b);
    if (settled(*e, n, pn, dn)) return;
    if (e->n == n) {
        pn = dfpn::from32(e->pn);
        dn = dfpn::from32(e->dn);
        return;
    }
    if (!(e->flags & LengthTable::kSeen)) {
        MoveList& ml = child_moves_;
        const bool have_checks = first_look(b, or_child, or_child ? &ml : nullptr);
        e = &entry(b);
        if (!or_child && e->hi > 0) {
            // A new defender node's proof number: its evasions, each of which must be mated.
            ml.size = 0;
            generate_legal(b.position(), ml);
            if (ml.size == 0) e->lo = e->hi = 0;
            e->pn = static_cast<std::uint32_t>(std::max(1, ml.size));
        } else if (or_child && e->hi > 1 && e->lo < kLenInf) {
            // A new attacker node's disproof number: its checks, each of which must be refuted, so
            // that a refutation tries first the defence that leaves the attacker fewest (将棋無双
            // 90番 from below: "no mate within 25" in 5.2 M nodes instead of 8.6 M).
            if (!have_checks) {
                ml.size = 0;
                generate_checks(b.position(), ml);
            }
            if (ml.size == 0) e->lo = kLenInf;   // no check at all: no mate
            e->dn = static_cast<std::uint32_t>(std::max(1, ml.size));
        }
        if (settled(*e, n, pn, dn)) return;
    }
    pn = dfpn::from32(e->pn);
    dn = or_child ? dfpn::from32(e->dn) : 1;
}

void LengthSearch::or_node(B& b, int n, std::uint64_t thpn, std::uint64_t thdn, std::uint64_t& pn,
                           std::uint64_t& dn) {
    Frame& f = frame(depth_);
    Depth deeper(depth_);
    MoveList& ml = f.ml;
    ml.size = 0;
    generate_checks(b.position(), ml);
    if (ml.size == 0) {
        entry(b).lo = kLenInf;
        pn = kInf;
        dn = 0;
        return;
    }
    f.moves.clear();
    if (n == 1) {
        // The horizon: a check mates, leaves only drops to judge, or fails.
        MoveList& evasions = f.scratch;
        for (const Move m : ml) {
            // A king step out answers the check, read off the board: neither a mate nor drops only.
            if (king_steps_out_after(b.position(), m)) continue;
            b.do_move(m);
            evasions.size = 0;
            generate_legal(b.position(), evasions);
            bool drops_only = true;
            for (const Move x : evasions)
                if (!is_drop(x)) {
                    drops_only = false;
                    break;
                }
            b.undo_move(m);
            if (evasions.size == 0) {
                LEntry& e = entry(b);
                e.hi = 1;
                e.best = m;
                pn = 0;
                dn = kInf;
                return;
            }
            if (drops_only) f.moves.push_back(m);
        }
        if (f.moves.empty()) {
            LEntry& e = entry(b);
            if (e.lo < 3) e.lo = 3;
            pn = kInf;
            dn = 0;
            return;
        }
    } else {
        f.moves.assign(ml.begin(), ml.end());
    }
    const std::size_t k = f.moves.size();
    f.cpn.assign(k, 0);
    f.cdn.assign(k, 0);
    const Move best = Move(entry(b).best);
    for (const Move m : f.moves) table_.prefetch(b.key_after(m));
    for (std::size_t i = 0; i < k; ++i) {
        const Move m = f.moves[i];
        std::uint64_t cp = 0, cd = 0;
        b.do_move(m);
        child(b, false, n - 1, cp, cd);
        b.undo_move(m);
        if (m == best && cp != 0) cp = std::max<std::uint64_t>(1, cp / 2);   // the last proving move first
        f.cpn[i] = cp;
        f.cdn[i] = cd;
    }
    std::uint64_t cthpn = 0, cthdn = 0;
    for (;;) {
        const int i1 = select(f.cpn, f.cdn, true, 0, thpn, thdn, pn, dn, cthpn, cthdn);
        if (i1 < 0) break;
        const Move m = f.moves[static_cast<std::size_t>(i1)];
        b.do_move(m);
        search(b, false, n - 1, cthpn, cthdn, f.cpn[static_cast<std::size_t>(i1)], f.cdn[static_cast<std::size_t>(i1)]);
        b.undo_move(m);
    }
    if (pn == 0) {
        int bh = kLenInf;
        Move bm = MOVE_NONE;
        for (std::size_t j = 0; j < k; ++j) {
            if (f.cpn[j] != 0) continue;
            const int h = child_hi(b, f.moves[j], n - 1);
            if (h < bh) {
                bh = h;
                bm = f.moves[j];
            }
        }
        LEntry& e = entry(b);
        if (bh + 1 < e.hi) {
            e.hi = len16(bh + 1);
            e.best = bm;
        }
        dn = kInf;
        return;
    }
    LEntry& e = entry(b);
    if (dn == 0) {
        const int lo = after_refuted(n, true);
        if (lo > e.lo) e.lo = len16(lo);
        pn = kInf;
        return;
    }
    e.pn = dfpn::to32(pn);
    e.dn = dfpn::to32(dn);
    e.n = static_cast<std::int16_t>(n);
}

void LengthSearch::drop_squares(B& b, const Move* legal, int count, std::vector<DropSquare>& out) const {
    out.clear();
    const Position& pos = b.position();
    const int king = int(pos.king_square(pos.side_to_move()));
    for (int i = 0; i < count; ++i) {
        const Move m = legal[i];
        if (!is_drop(m)) continue;
        const int sq = int(move_to(m));
        DropSquare* ds = nullptr;
        for (DropSquare& d : out)
            if (d.square == sq) ds = &d;
        if (ds == nullptr) {
            out.push_back(DropSquare{sq, {}, -1, 0, false});
            ds = &out.back();
        }
        ds->moves.push_back(m);
    }
    for (DropSquare& ds : out) {
        std::stable_sort(ds.moves.begin(), ds.moves.end(), [](Move x, Move y) {
            return dfpn::kHandKindOf[drop_type(x)] < dfpn::kHandKindOf[drop_type(y)];
        });
        ds.checker = checker_behind(pos, king, ds.square);
        ds.distance = king_distance(king, ds.square);
        bool controlled = false;   // a legal non-king board move reaches the square (a moving interposition)
        for (int i = 0; i < count; ++i)
            if (!is_drop(legal[i]) && int(move_to(legal[i])) == ds.square && int(move_from(legal[i])) != king) {
                controlled = true;
                break;
            }
        ds.omittable = ds.checker >= 0 && ds.distance >= distance_threshold(king, ds.checker) && !controlled;
    }
    std::stable_sort(out.begin(), out.end(), [](const DropSquare& x, const DropSquare& y) { return x.distance < y.distance; });
}

// Kakinoki's test positions of a drop square: the checker captures on it (each legal promotion
// choice) and the piece goes straight back, both hands as before the drop, defender to move.
std::vector<std::string> LengthSearch::tests_of(B& b, const DropSquare& ds) {
    std::vector<std::string> out;
    if (ds.checker < 0) return out;
    Position& pos = b.position();
    const std::string hands = hand_text(pos);
    const Move drop = ds.moves.front();
    b.do_move(drop);
    MoveList ml;
    generate_legal(pos, ml);
    for (const Move m : ml) {
        if (is_drop(m) || int(move_from(m)) != ds.checker || int(move_to(m)) != ds.square) continue;
        b.do_move(m);
        if (!pos.in_check()) {   // a lance that promotes on the capture no longer checks: no move of a mate
            b.undo_move(m);
            continue;
        }
        std::istringstream parts(pos.sfen());
        std::string board, side, hand, ply;
        parts >> board >> side >> hand >> ply;
        b.undo_move(m);
        out.push_back(board + " " + side + " " + hands + " " + (ply.empty() ? "1" : ply));
    }
    b.undo_move(drop);
    return out;
}

bool LengthSearch::counts_at(B& b, int square, int n) const {
    const std::uint64_t key = poskey(b) ^ (static_cast<std::uint64_t>(square + 1) * 0xC2B2AE3D27D4EB4FULL);
    const auto it = futility_.find(key);
    return it != futility_.end() && n < it->second.futile_from && n <= it->second.counts_upto;
}

bool LengthSearch::restrict(B& b, Frame& f, int n) const {
    bool left_out = false;
    if (drops_ == Drops::All)
        for (const DropSquare& ds : f.squares) f.moves.insert(f.moves.end(), ds.moves.begin(), ds.moves.end());
    if (drops_ == Drops::Effective)
        for (const DropSquare& ds : f.squares) {
            if (judge_->counts_at(b, ds.square, n))
                f.moves.insert(f.moves.end(), ds.moves.begin(), ds.moves.end());
            else
                left_out = true;
        }
    f.squares.clear();
    return left_out;
}

void LengthSearch::nested_lower(std::size_t memory_mb) {
    if (nodes_ != 0 || questions_ != 0 || table_.entries() != 0)
        throw std::invalid_argument("the nested restricted game is chosen before the first question");
    if (memory_mb != 0 && drops_ != Drops::Judged)
        throw std::invalid_argument("only a search under the tsume rules has a nested restricted game");
    lower_mb_ = memory_mb;
    lower_.reset();
}

bool LengthSearch::lower_refutes(B& b, bool or_node, int n) {
    // The restricted game's argument needs every drop of a defender node to be an interposition:
    // a defender not in check (a Kakinoki test whose capture promotes out of the line) is left
    // to the tsume-rule question.
    if (lower_mb_ == 0 || n < (or_node ? 1 : 0) || (!or_node && !b.in_check())) return false;
    {
        const LEntry& e = entry(b);
        if (e.lo > n) return true;
        if (e.hi <= n) return false;
    }
    if (!lower_) {
        lower_ = std::make_unique<LengthSearch>(attacker_, lower_mb_, oracle_, distance_rule_, looks_);
        lower_->drops_ = Drops::None;
        lower_->outer_cancel_ = &cancel_;
        lower_->outer_ = this;
        lower_->table_.set_stop(&lower_->cancel_, &cancel_);
    }
    LengthSearch& g = *lower_;
    // The game runs inside this search's call: the same stop limits (its nodes counted here), no
    // pause (a nested question never pauses), and none of the raw look of a question from outside.
    g.lim_ = lim_;
    g.lim_.pause_nodes = 0;
    g.lim_.pause_work = 0;
    if (lim_.nodes != 0) g.lim_.nodes = g.nodes_ + (lim_.nodes > nodes_ ? lim_.nodes - nodes_ : 1);
    g.next_check_ = g.nodes_;
    g.depth_ = g.test_level_ = 0;
    g.nested_ = 1;
    const std::uint64_t before = g.nodes_;
    g.outer_base_ = before;
    bool mates = false;
    try {
        mates = g.ask(b, or_node, n);
    } catch (...) {
        g.release_path();
        nodes_ += g.nodes_ - before;
        throw;
    }
    nodes_ += g.nodes_ - before;
    if (mates) return false;
    ++lower_refutations_;
    LEntry& e = entry(b);
    const int lo = after_refuted(n, or_node);
    if (lo > e.lo) e.lo = len16(lo);
    return true;
}

void LengthSearch::restrict_drops(Drops mode, const LengthSearch* judge) {
    if (nodes_ != 0 || questions_ != 0 || table_.entries() != 0)
        throw std::invalid_argument("the game of a search is chosen before its first question");
    if (mode == Drops::Effective) {
        if (judge == nullptr || judge == this || judge->drops_ != Drops::Judged)
            throw std::invalid_argument("the restricted game of effective drops needs a search under the tsume rules");
        if (judge->attacker_ != attacker_) throw std::invalid_argument("the judge search has the other side attacking");
    }
    drops_ = mode;
    judge_ = mode == Drops::Effective ? judge : nullptr;
    table_.set_dominance(mode == Drops::None);   // the one game whose length is monotone in the hand
}

bool LengthSearch::futile(B& b, const DropSquare& ds, int n, const std::vector<Move>& others, int longest) {
    const std::uint64_t key = poskey(b) ^ (static_cast<std::uint64_t>(ds.square + 1) * 0xC2B2AE3D27D4EB4FULL);
    if (const auto it = futility_.find(key); it != futility_.end()) {
        if (n >= it->second.futile_from) return true;
        if (n <= it->second.counts_upto) return false;
    }
    ++futility_tests_;
    const std::uint64_t nodes_before = nodes_;
    const bool outermost = test_level_ == 0;
    bool verdict = false;
    const int cap = std::min(n, longest);
    const std::vector<std::string> tests = tests_of(b, ds);
    const std::vector<Move> counted(others);   // the defences that count, as they were when asked
    // The drop is futile when, for a test position t (the capture, the piece handed back) of length
    // k, some counted defence is not mated within k - 3: it lasts as long as the capture's mate.
    // k need not be found exactly first: with any proved bound L >= k, a counted defence not mated
    // within L - 3 already lasts that long, and only when every counted defence is mated within
    // L - 3 is t asked whether it needs all of L (no: k = L, the drop counts by this test; yes: a
    // smaller L).  So a futile drop costs the refutation of the defence that lasts, not that one
    // and t's own refutation besides; the verdict is the one the exact k gives.
    for (const std::string& sfen : tests) {
        B& t = test_board(test_level_, sfen);
        Depth level(test_level_);
        if (lower_refutes(t, false, cap) || !ask(t, false, cap)) continue;
        // The capture's proved bound, at most `limit` (its lengths are even: the defender moves).
        auto proved = [&](int limit) { return at_most(std::min<int>(limit, entry(t).hi), false); };
        for (int L = proved(cap);;) {
            if (L <= 0) {
                verdict = true;   // the capture mates at once
                break;
            }
            for (const Move m : counted) {
                b.do_move(m);
                const bool lasts = lower_refutes(b, true, L - 3) || !ask(b, true, L - 3);
                b.undo_move(m);
                if (lasts) {   // that defence lasts as long as the capture's mate: the drop gains nothing
                    verdict = true;
                    break;
                }
            }
            if (verdict) break;
            // Every counted defence is mated within L - 3: the drop counts unless t mates sooner.
            if (lower_refutes(t, false, L - 2) || !ask(t, false, L - 2)) break;
            L = proved(L - 2);
        }
        if (verdict) break;
    }
    if (outermost) futility_nodes_ += nodes_ - nodes_before;
    if (futility_.size() > kFutilityMemo) futility_.clear();
    Tested& memo = futility_[key];
    if (verdict)
        memo.futile_from = std::min(memo.futile_from, n);
    else
        memo.counts_upto = std::max(memo.counts_upto, n);
    return verdict;
}

void LengthSearch::and_node(B& b, int n, std::uint64_t thpn, std::uint64_t thdn, std::uint64_t& pn,
                            std::uint64_t& dn) {
    Frame& f = frame(depth_);
    Depth deeper(depth_);
    MoveList& ml = f.ml;
    ml.size = 0;
    generate_legal(b.position(), ml);
    if (ml.size == 0) {
        LEntry& e = entry(b);
        e.lo = e.hi = 0;
        pn = 0;
        dn = kInf;
        return;
    }
    f.moves.clear();
    for (const Move m : ml)
        if (!is_drop(m)) f.moves.push_back(m);
    if (!f.moves.empty() && n < 2) {
        LEntry& e = entry(b);
        const int lo = after_refuted(n, false);
        if (lo > e.lo) e.lo = len16(lo);
        pn = kInf;
        dn = 0;
        return;
    }
    if (static_cast<int>(f.moves.size()) != ml.size)
        drop_squares(b, ml.moves, ml.size, f.squares);
    else
        f.squares.clear();
    // The restricted game: no square waits for a judgement (see Drops in length_search.h).
    bool used_futile = drops_ != Drops::Judged && restrict(b, f, n);
    std::size_t next_square = 0;   // squares wait, nearest first
    f.square_state.assign(f.squares.size(), kSquareWaiting);
    f.cpn.clear();
    f.cdn.clear();
    const Move best = Move(entry(b).best);
    auto add = [&](Move m) {
        std::uint64_t cp = 0, cd = 0;
        b.do_move(m);
        child(b, true, n - 1, cp, cd);
        b.undo_move(m);
        if (m == best && cd != 0) cd = std::max<std::uint64_t>(1, cd / 2);   // the last refutation first
        f.cpn.push_back(cp);
        f.cdn.push_back(cd);
    };
    const std::size_t board_moves = f.moves.size();
    for (const Move m : f.moves) table_.prefetch(b.key_after(m));
    for (std::size_t i = 0; i < board_moves; ++i) add(f.moves[i]);
    std::uint64_t cthpn = 0, cthdn = 0;
    for (;;) {
        const std::size_t pending = f.squares.size() - next_square;
        if (pending != 0 && std::all_of(f.cpn.begin(), f.cpn.end(), [](std::uint64_t v) { return v == 0; })) {
            // Every child is proved: take the nearest waiting square.
            const std::size_t i = next_square++;
            if (omitted(f, i)) {
                f.square_state[i] = kSquareFutile;
                used_futile = true;
                continue;
            }
            // A square whose every drop is already known to be mated within n - 1 (the table's bound,
            // or the raw proof's length, which counts every interposition) needs no verdict at this
            // bound: futile or not, every defence of the node is then mated within n, and the bound
            // recorded below (the longest defence, the drops included) holds under the tsume rules
            // either way.  Only a drop that may outlast n - 1 is worth Kakinoki's test.
            if (drops_mated(b, f.squares[i], n - 1)) {
                f.square_state[i] = kSquareUnjudged;
                ++squares_unjudged_;
                for (const Move m : f.squares[i].moves) {
                    f.moves.push_back(m);
                    add(m);
                }
                continue;
            }
            // A verdict is needed.  It compares the drop with the defences that count, so the nearer
            // squares let in without one are judged first, in order, as if each had been judged in
            // its turn: a futile one leaves the node's defences.
            for (std::size_t j = 0; j <= i; ++j) {
                if (j < i && f.square_state[j] != kSquareUnjudged) continue;
                if (omitted(f, j)) {   // the distance rule, with the nearer verdicts known now
                    f.square_state[j] = kSquareFutile;
                } else {
                    // Every counted defence is proved: none lasts more than its bound, and a futile
                    // square's capture may last no longer.
                    counted_defences(f, board_moves);
                    int longest = 0;
                    for (const Move m : f.counted) longest = std::max(longest, child_hi(b, m, n - 1) + 1);
                    f.square_state[j] = futile(b, f.squares[j], n, f.counted, longest) ? kSquareFutile : kSquareCounts;
                }
                if (f.square_state[j] == kSquareFutile) {
                    used_futile = true;
                    if (j < i) drop_children(f, f.squares[j].square);
                } else if (j == i) {
                    for (const Move m : f.squares[i].moves) {
                        f.moves.push_back(m);
                        add(m);
                    }
                }
            }
            continue;
        }
        if (f.cpn.empty()) {   // every defence was a futile drop
            pn = 0;
            dn = kInf;
            break;
        }
        const int i1 = select(f.cpn, f.cdn, false, pending, thpn, thdn, pn, dn, cthpn, cthdn);
        if (i1 < 0) break;
        const Move m = f.moves[static_cast<std::size_t>(i1)];
        b.do_move(m);
        search(b, true, n - 1, cthpn, cthdn, f.cpn[static_cast<std::size_t>(i1)], f.cdn[static_cast<std::size_t>(i1)]);
        b.undo_move(m);
    }
    if (pn == 0) {
        int worst = 0;
        for (const Move m : f.moves) worst = std::max(worst, child_hi(b, m, n - 1) + 1);
        if (used_futile && worst < n) worst = n;   // futility was judged with n: only n itself is proved
        LEntry& e = entry(b);
        if (worst < e.hi) e.hi = len16(worst);
        dn = kInf;
        return;
    }
    LEntry& e = entry(b);
    if (dn == 0) {
        for (std::size_t j = 0; j < f.cdn.size(); ++j)
            if (f.cdn[j] == 0) {
                e.best = f.moves[j];
                break;
            }
        const int lo = after_refuted(n, false);
        if (lo > e.lo) e.lo = len16(lo);
        pn = kInf;
        return;
    }
    e.pn = dfpn::to32(pn);
    e.dn = dfpn::to32(dn);
    e.n = static_cast<std::int16_t>(n);
}

// ---- entry points -----------------------------------------------------------------------------

Answer LengthSearch::question(Position& pos, bool or_node, int n, const CallLimits& lim) {
    B b(pos);
    return guarded(pos, lim, [&] { return ask(b, or_node, n) ? Answer::Yes : Answer::No; });
}

Answer LengthSearch::exact(Position& pos, bool or_node, int cap, const CallLimits& lim, int& value) {
    B b(pos);
    return guarded(pos, lim, [&] {
        if (!ask(b, or_node, cap)) return Answer::No;
        return exact_now(b, or_node, cap, value) ? Answer::Yes : Answer::No;
    });
}

Answer LengthSearch::defences(Position& pos, int value, const CallLimits& lim, DefencesOut& out) {
    B b(pos);
    return guarded(pos, lim, [&] {
        out.real.clear();
        out.futile.clear();
        MoveList ml;
        generate_legal(pos, ml);
        std::vector<Move> counted;
        for (const Move m : ml)
            if (!is_drop(m)) counted.push_back(m);
        std::vector<DropSquare> squares;
        drop_squares(b, ml.moves, ml.size, squares);
        std::vector<std::uint8_t> futile_at(squares.size(), 0);
        for (std::size_t i = 0; i < squares.size(); ++i) {
            const DropSquare& ds = squares[i];
            if (distance_rule_ && ds.omittable) {
                bool closer_futile = true;
                for (std::size_t j = 0; j < i; ++j)
                    if (squares[j].checker == ds.checker && squares[j].distance < ds.distance && !futile_at[j])
                        closer_futile = false;
                if (closer_futile) {
                    futile_at[i] = 1;
                    out.futile.push_back(FutileOut{ds.square, ds.moves, true, {}});
                    continue;
                }
            }
            if (futile(b, ds, value, counted, kLenInf)) {
                futile_at[i] = 1;
                out.futile.push_back(FutileOut{ds.square, ds.moves, false, tests_of(b, ds)});
            } else {
                counted.insert(counted.end(), ds.moves.begin(), ds.moves.end());
            }
        }
        out.real = std::move(counted);
        return Answer::Yes;
    });
}

dfpn::Outcome LengthSearch::prove_root(Position& pos, const CallLimits& lim) {
    B b(pos);
    dfpn::SearchLimits sl;
    sl.nodes = lim.nodes;
    const double now = dfpn::wall_seconds();
    if (lim.stop_at >= 0.0) sl.seconds = std::max(0.0, lim.stop_at - now);
    return oracle_->search(b, pos.side_to_move() == attacker_, sl);
}

void LengthSearch::oracle_probe(Position& pos, bool or_node, std::uint64_t& pn, std::uint64_t& dn, int& length,
                                Move& move) const {
    const dfpn::TTEntry* t = oracle_->table().probe(pos.board_key(), dfpn::packed_hand(pos.hand(Color(attacker_))));
    pn = dn = 1;
    length = -1;
    move = MOVE_NONE;
    if (t == nullptr) return;
    if (t->pn == 0) {
        pn = 0;
        dn = dfpn::from32(t->dn);
        length = t->length == dfpn::kNoLength ? -1 : t->length;
        if (or_node) move = Move(t->move);
        return;
    }
    pn = dfpn::from32(t->pn);
    dn = dfpn::from32(t->dn);
}

std::vector<Move> LengthSearch::oracle_line(Position& pos, bool& complete, const CallLimits& lim) {
    B b(pos);
    dfpn::SearchLimits sl;
    sl.nodes = lim.nodes;
    if (lim.stop_at >= 0.0) sl.seconds = std::max(0.0, lim.stop_at - dfpn::wall_seconds());
    return oracle_->principal_variation(b, complete, sl);
}

int LengthSearch::futile_from(Position& pos, int square) {
    B b(pos);
    const std::uint64_t key = poskey(b) ^ (static_cast<std::uint64_t>(square + 1) * 0xC2B2AE3D27D4EB4FULL);
    const auto it = futility_.find(key);
    return it == futility_.end() ? kLenInf : it->second.futile_from;
}

void LengthSearch::bounds(Position& pos, int& lo, int& hi, Move& best) {
    B b(pos);
    const LEntry& e = entry(b);
    lo = e.lo;
    hi = e.hi;
    best = Move(e.best);
}

}  // namespace tsume::length
