// The length-aware tsume-rule search: "is there a mate within n plies under tsume rules?", the
// kernel's form of the Python reference core/search/length_search.py (same rules, same meaning).
//
// * A depth-bounded df-pn (thresholds from the second-best sibling, the 1+ε trick) whose table
//   keeps, per board and attacker hand, what is proved about the tsume-rule length: a mate within
//   `hi` plies (with the move that does it) and no mate within `lo - 2` plies; pn/dn belong to the
//   last unresolved question `n`.  No hand dominance ([ComShogi ch. 9], 優越関係) under the tsume
//   rules: the length is not monotone in the attacker's hand there, since a piece the defender no
//   longer holds can no longer make another drop futile.  将棋無双 27番 after 6f6e 9e6e 4e5e 6d6c
//   6i6e: with a rook in hand the defender is mated in 10 (the drops on 6d futile), with a rook and
//   a lance in 12 (they count).  Only the restricted game without drops (Drops::None), where the
//   defender's hand plays no part, keeps dominance both ways.
// * Futile interpositions (無駄合) judged inside the search: drop squares wait, nearest the king
//   first, until every counted defence is proved (delayed expansion as in [KomoringHeights]);
//   a square is then omitted by the distance rule ([LS3600 2010]) or judged by Kakinoki's rule read
//   as "the mate goes on just as without it", by bounded questions on the same table.
// * A raw-rule df-pn (dfpn.h) as the oracle: its proof bounds the length from above, its disproof
//   means no mate at all, and a short search of its own settles non-mates early.
//
// The search never calls into Python and never allocates per node once its frames have grown;
// it checks its stop conditions (cancel flag, node limit, deadline) every 1024 nodes and unwinds
// by exception to the entry point, which leaves the table consistent (bounds are only ever
// tightened by proofs).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "dfpn.h"
#include "search_board.h"

namespace tsume::length {

using dfpn::PHand;
inline constexpr int kLenInf = 0xFFFF;        // "no bound": hi of an unproved entry, lo of a no-mate
inline constexpr int kMaxQuestion = 3000;     // longest bound a question may carry

// One table entry's body: what is proved about one (board, attacker hand); its board key (side
// to move included, hands apart) is kept apart, in the table's key array.  28 bytes.
struct LEntry {
    PHand hand;            // the attacker's hand
    std::uint32_t best;    // OR: a move proving hi; AND: the last refutation (0: none)
    std::uint32_t pn, dn;  // of the unresolved question n (32-bit saturated, as tt.h)
    std::uint32_t amount;  // nodes spent under this entry; the collector keeps the costly ones
    std::uint16_t lo, hi;  // lo <= length <= hi (kLenInf: unbounded)
    std::int16_t n;        // the question pn/dn belong to (-1: none)
    std::uint8_t flags;    // kUsed | kSeen | kBusy
    std::uint8_t looks;    // the raw looks made here: the next waits for after * 4^looks nodes (RawLooks)
};
static_assert(sizeof(LEntry) == 28, "the table's bodies are 28 bytes (docs/architecture.md)");

// Layout: two parallel arrays in one block, the board keys (8 bytes a slot, 0 for an empty one; a
// key of 0 is stored as 1, which has the same home) and the bodies.  A lookup scans the kWindow keys from the
// key's home (two or three cache lines) and reads a body only where the key matches, instead of
// kWindow whole entries (ten lines); every hand of one board lies in that window.
class LengthTable {
public:
    // kBusy: on the current search path (never the one a full window gives up).
    static constexpr std::uint8_t kUsed = 1, kSeen = 2, kBusy = 8;
    static constexpr std::size_t kWindow = 16;

    explicit LengthTable(std::size_t memory_mb);
    ~LengthTable();
    LengthTable(const LengthTable&) = delete;
    LengthTable& operator=(const LengthTable&) = delete;

    // The entry of exactly (key, hand), or null.  Valid until the next get() or maintain().
    LEntry* find(std::uint64_t key, PHand hand);
    // The entry of (key, hand), made (with bounds from dominance, where on) when missing; lo0 is a
    // new entry's lower bound (1 at attacker nodes, 0 at defender nodes).
    LEntry& get(std::uint64_t key, PHand hand, int lo0);
    // With dominance on, tighten e's bounds from the entries of the same board with comparable
    // hands: a mate within n for hand h holds for every hand >= h, no mate within n for every
    // hand <= h.  Off (the default), entries of other hands are never read.
    // Called at every node of the search: the test is here, so that the games without dominance
    // pay no call for it.
    void refresh(LEntry& e) {
        if (dominance_) refresh_by_dominance(e);
    }
    void set_dominance(bool on) { dominance_ = on; }
    // Ask the memory system for a key's window (its keys and first body) ahead of its lookup.
    void prefetch(std::uint64_t key) const {
#if defined(__GNUC__) || defined(__clang__)
        const std::size_t h = home(key);
        __builtin_prefetch(keys_ + h);
        __builtin_prefetch(data_ + h);
#else
        (void)key;
#endif
    }
    // The board key of an entry of this table.
    std::uint64_t key_of(const LEntry& e) const { return keys_[static_cast<std::size_t>(&e - data_)]; }
    // Grow while under the bound, or collect when nine tenths full (between nodes only); nothing
    // once a stop flag is up (set_stop).
    void maintain();
    std::size_t collect(double target);
    // The search's cancel flags (either may be null): maintain() does nothing once one is set, and
    // a growth or a collection under way stops where it has got to.
    void set_stop(const std::atomic<bool>* a, const std::atomic<bool>* b) {
        stop_a_ = a;
        stop_b_ = b;
    }

    std::size_t entries() const { return entries_; }
    std::size_t capacity() const { return max_capacity_; }
    std::size_t collections() const { return collections_; }

private:
    static std::uint64_t tag(std::uint64_t key) { return key != 0 ? key : 1; }
    std::size_t home(std::uint64_t key) const;
    static std::size_t key_bytes(std::size_t capacity);
    static std::size_t block_bytes(std::size_t capacity);
    void allocate(std::size_t capacity);
    std::size_t next_capacity() const;
    void grow();
    bool stopped() const {
        return (stop_a_ != nullptr && stop_a_->load(std::memory_order_relaxed)) ||
               (stop_b_ != nullptr && stop_b_->load(std::memory_order_relaxed));
    }
    void refresh_by_dominance(LEntry& e);

    std::uint64_t* keys_ = nullptr;
    LEntry* data_ = nullptr;
    void* raw_ = nullptr;          // the one block holding keys_ and data_ (see allocate())
    std::size_t raw_len_ = 0;      // its mapping's length (0: calloc)
    std::size_t capacity_ = 0, max_capacity_ = 0, entries_ = 0, collections_ = 0;
    bool dominance_ = false;
    const std::atomic<bool>* stop_a_ = nullptr;
    const std::atomic<bool>* stop_b_ = nullptr;
};

// Limits of one call: absolute node count (0: none), absolute wall-clock time (< 0: none).
// `stop_at` ends the call anywhere; a pause (`pause_nodes`, an absolute count of the search's
// nodes; `pause_work`, an absolute count of its nodes and its raw df-pn's together; 0 for none)
// comes only between the outermost question's nodes.  A pause unwinds the question, which
// searches on from its root at the next call, so where it comes shapes the search: pauses come by
// counts, never by the clock, so the answer and its node count are the same from run to run.
// `pause_work` bounds a call whose few outer nodes run long raw looks and futility tests.
struct CallLimits {
    std::uint64_t nodes = 0;
    double stop_at = -1.0;
    std::uint64_t pause_nodes = 0;
    std::uint64_t pause_work = 0;
};

enum class Answer { No, Yes, Paused, Stopped };

// One drop-interposition square of a defender node (interposition.py's DropSquare).
struct DropSquare {
    int square;
    std::vector<Move> moves;   // every drop on the square, pawn first (hand order P L N S G B R)
    int checker;               // the occupied square beyond it from the king (-1: none)
    int distance;              // king distance
    bool omittable;            // the distance rule's geometry holds
};

// A futile square as `defences` reports it: omitted by the distance rule, or judged by Kakinoki's
// test (whose positions, the capture with the piece handed back, are given as SFENs).
struct FutileOut {
    int square;
    std::vector<Move> moves;
    bool omitted;
    std::vector<std::string> tests;
};

struct DefencesOut {
    std::vector<Move> real;    // the defences that count: board moves, then counted drops
    std::vector<FutileOut> futile;
};

// When the search asks its raw df-pn whether a defender position mates at all: from `from` plies
// asked inside a question (a look of `nodes` nodes), and from `root_from` plies for a question
// from outside (a look of `root_nodes`).  0 nodes: never.  Inside a question a node is looked at
// only once it has been refuted at some depth or has cost `after` nodes of its own: most defender
// nodes are proved at their first depth, and a look there is spent for nothing.  A node that goes
// on costing is looked at again, with growing looks: the k-th once it has cost after * 4^k nodes,
// with as many (a look resumes on the raw table, so it goes on from the last).  A node whose only
// escape is a drop interposition deep in the line is then settled as soon as the raw search can
// show it; the looks at a node add up to at most 4/3 of the nodes it has cost itself (将棋無双
// 75番's check, docs/benchmarks.md).
struct RawLooks {
    int from = 4;
    std::uint64_t nodes = 64;
    std::uint64_t after = 64;
    int root_from = 4;
    std::uint64_t root_nodes = 3000;
};

// Which drop interpositions a search lets the defender make.
//
// Judged: the tsume rules (every drop square judged as above).  None and Effective: a restricted
// game, a cheap LOWER bound of the tsume-rule length without any judgement of futility.
//
// Only drops are ever candidates for futility: every board move (king moves, captures, moved
// interpositions) counts, and at a defender node, always in check, every drop is an interposition.
// In the restricted game the defender makes no drop (None) or only the drops on squares that a
// search under the tsume rules, the `judge`, has already judged to count at that node and bound
// (Effective: its verdict memo says "counts up to n" and not "futile from n").  So at every node
// and bound its defences are a subset of those that count under the tsume rules, the attacker's
// moves are the same, and a proof of "mate within n" under the tsume rules, pruned of the defences
// missing here, proves "mate within n" here: the restricted length is at most the tsume-rule one,
// and "no mate within n" proved here holds under the tsume rules.  Its table is its own (this
// search's; never mixed with the judge's): its `lo` bounds are lower bounds of the tsume-rule
// length (refutations here; raw disproofs, which the tsume-rule search reads the same way; in
// None, hand dominance); its `hi` bounds are only its own game's.  In None the
// game does not depend on the bound, so a drop-only defence is mated (length 0) outright.  In
// Effective it does (the judge's verdicts are per bound), so a defence proved with a drop left out
// is recorded at n, as a futile one is; and since the judge learns more between questions (more
// drops judged to count), a search of this mode is only ever asked while the judge's verdicts are
// those it started with, or its mates (hi) may be stale: the caller makes a new one.
// Repetition needs nothing here: every question is depth-bounded and both games share the rule.
//
// All: raw rules, every drop counted, no judgement of futility: "mate within n?" with every legal
// move, its table's bounds per position and depth, so that its "no mate within n" is a proof (a
// depth-bounded df-pn whose table keeps only pn/dn cannot give one: a line cut by the bound is no
// disproof).  The raw df-pn's proofs and disproofs read at a first look hold here as they are.
// Not used by the official answer; the tests re-prove the answer's claims with it.
enum class Drops { Judged, None, Effective, All };

class LengthSearch {
public:
    using Oracle = dfpn::Searcher<dfpn::SearchBoard>;

    LengthSearch(int attacker, std::size_t memory_mb, std::size_t oracle_mb, bool distance_rule,
                 const RawLooks& looks = RawLooks{});
    // The same with `oracle` as the raw df-pn: a search of this problem (the same attacker) whose
    // table already holds the root's proof, shared, not copied.
    LengthSearch(int attacker, std::size_t memory_mb, std::shared_ptr<Oracle> oracle, bool distance_rule,
                 const RawLooks& looks = RawLooks{});

    // Each entry point plays on `pos` (the caller's, left as it was unless an exception escapes)
    // and returns Paused/Stopped when a limit or the cancel flag ended it first.
    Answer question(Position& pos, bool or_node, int n, const CallLimits& lim);
    Answer exact(Position& pos, bool or_node, int cap, const CallLimits& lim, int& value);
    Answer defences(Position& pos, int value, const CallLimits& lim, DefencesOut& out);
    // One slice of the oracle's raw df-pn of the root (attacker to move).
    dfpn::Outcome prove_root(Position& pos, const CallLimits& lim);
    // The oracle's table: (pn, dn, proof length or -1, proving move or 0).
    void oracle_probe(Position& pos, bool or_node, std::uint64_t& pn, std::uint64_t& dn, int& length,
                      Move& move) const;
    std::vector<Move> oracle_line(Position& pos, bool& complete, const CallLimits& lim);
    // The raw df-pn's last published progress (its path; after oracle_line, the proof along the line).
    dfpn::Snapshot oracle_snapshot() const { return oracle_->snapshot(); }
    // The table's bounds of `pos` (kLenInf: none); best move or 0.
    void bounds(Position& pos, int& lo, int& hi, Move& best);

    void cancel() {
        cancel_.store(true, std::memory_order_relaxed);
        oracle_->cancel();
    }
    // After a cancel: the next call searches on, with the tables kept (the oracle's too).
    void clear_cancel() {
        cancel_.store(false, std::memory_order_relaxed);
        oracle_->clear_cancel();
    }
    std::uint64_t nodes() const { return nodes_; }
    std::uint64_t oracle_nodes() const { return oracle_->nodes(); }
    // The counts as last published for another thread, which may read these while a call runs
    // (never the counters above): every kCheckEvery nodes, and when an entry point returns.
    std::uint64_t published_nodes() const { return pub_nodes_.load(std::memory_order_relaxed); }
    std::uint64_t published_futility_tests() const { return pub_tests_.load(std::memory_order_relaxed); }
    std::size_t published_entries() const { return pub_entries_.load(std::memory_order_relaxed); }
    std::size_t published_capacity() const { return pub_capacity_.load(std::memory_order_relaxed); }
    std::uint64_t oracle_published_nodes() const { return oracle_->published_nodes(); }
    std::uint64_t questions() const { return questions_; }
    std::uint64_t futility_tests() const { return futility_tests_; }
    // The smallest bound at which drop square `square` of `pos` was judged futile (kLenInf: never
    // judged so); a lookup of verdicts already reached, no search.
    int futile_from(Position& pos, int square);
    // Make this search (new: nothing searched yet) one of the restricted game (`Drops` above);
    // `judge`, a search of the same problem under the tsume rules, for Effective (kept by the caller).
    void restrict_drops(Drops mode, const LengthSearch* judge);
    // Give this search (under the tsume rules, nothing searched yet) a restricted game of its own
    // (Drops::None, a table of `memory_mb`, the same raw df-pn) that answers first the "no"
    // questions of its futility tests: is a capture mated within the bound, does a counted defence
    // last as long as the capture.  Its refutations hold under the tsume rules (Drops above); its
    // nodes count as this search's.  0 MB: none (the default).
    void nested_lower(std::size_t memory_mb);
    std::uint64_t nested_lower_refutations() const { return lower_refutations_; }
    // Nodes spent inside the outermost futility tests (their nested questions and games).
    std::uint64_t futility_nodes() const { return futility_nodes_; }
    // Drop squares let in without a verdict, every drop known mated within the bound (and_node).
    std::uint64_t squares_unjudged() const { return squares_unjudged_; }
    Drops drops() const { return drops_; }
    std::shared_ptr<Oracle> shared_oracle() const { return oracle_; }
    std::size_t entries() const { return table_.entries(); }
    std::size_t capacity() const { return table_.capacity(); }
    std::size_t collections() const { return table_.collections(); }
    int attacker() const { return attacker_; }

private:
    using B = dfpn::SearchBoard;
    struct Stop {};    // a hard limit or the cancel flag: unwind to the entry point
    struct Pause {};   // the outermost question's slice is over

    struct Frame {
        std::vector<Move> moves;
        std::vector<std::uint64_t> cpn, cdn;
        std::vector<DropSquare> squares;
        std::vector<std::uint8_t> square_state;   // per square: kSquareWaiting ... kSquareUnjudged
        std::vector<Move> counted;                // the defences a verdict compares with
        MoveList ml;
        MoveList scratch;   // the horizon's evasions (kept off the C++ stack: one frame a ply)
    };

    struct Tested {   // one futility verdict per (position, square): futile from / counts up to
        int futile_from = kLenInf;
        int counts_upto = -1;
    };

    template <class F>
    Answer guarded(Position& pos, const CallLimits& lim, F body);
    void budget();

    std::uint64_t poskey(B& b) const { return b.board_key() ^ (std::uint64_t(b.hand_of(attacker_)) * 0x9E3779B97F4A7C15ULL); }
    LEntry& entry(B& b) {
        return table_.get(b.board_key(), b.hand_of(attacker_), b.position().side_to_move() == attacker_ ? 1 : 0);
    }
    int child_hi(B& b, Move m, int n);
    // True when every drop of the square is known mated within n plies (the table's bound after
    // the first look, which reads the raw proof's length): no search.
    bool drops_mated(B& b, const DropSquare& ds, int n);
    // A drop square of an AND node: not reached yet, judged futile, judged to count, or let in
    // without a verdict (every drop known mated within the bound).
    static constexpr std::uint8_t kSquareWaiting = 0, kSquareFutile = 1, kSquareCounts = 2, kSquareUnjudged = 3;
    // True when the distance rule omits square i of the frame (its nearer squares' states known).
    bool omitted(const Frame& f, std::size_t i) const;
    // f.counted: the node's board moves and the drops of the squares judged to count.
    void counted_defences(Frame& f, std::size_t board_moves) const;
    // Take a square judged futile out of the frame's children.
    static void drop_children(Frame& f, int square);

    // The raw looks at a defender node (RawLooks): the size of look k >= 1, and the most made.
    static constexpr std::uint8_t kMostLooks = 13;   // after * 4^13: an entry's amount saturates there
    std::uint64_t look_nodes(int k) const { return looks_.after << (2 * k); }

    bool ask(B& b, bool or_node, int n);
    bool exact_now(B& b, bool or_node, int cap, int& value);
    // A new position's bounds: the raw table's verdict, and at an attacker node the 1-ply mate
    // test, which leaves every check in `checks` when given; true when it did.
    bool first_look(B& b, bool or_node, MoveList* checks = nullptr);
    bool raw_disproof(B& b, std::uint64_t nodes);
    void search(B& b, bool or_node, int n, std::uint64_t thpn, std::uint64_t thdn, std::uint64_t& pn,
                std::uint64_t& dn);
    void child(B& b, bool or_child, int n, std::uint64_t& pn, std::uint64_t& dn);
    void or_node(B& b, int n, std::uint64_t thpn, std::uint64_t thdn, std::uint64_t& pn, std::uint64_t& dn);
    void and_node(B& b, int n, std::uint64_t thpn, std::uint64_t thdn, std::uint64_t& pn, std::uint64_t& dn);
    bool futile(B& b, const DropSquare& ds, int n, const std::vector<Move>& others, int longest);
    // True when the nested restricted game (nested_lower) proves no mate within n at b; the bound
    // then goes into this search's table too.  False when it mates there or there is none.
    bool lower_refutes(B& b, bool or_node, int n);
    std::vector<std::string> tests_of(B& b, const DropSquare& ds);
    // True when drop square `square` of b was judged to count at bound n (a lookup, no search).
    bool counts_at(B& b, int square, int n) const;
    // The restricted game's drops (Drops): the squares the defender may use go into f.moves as
    // counted defences, f.squares is emptied; true when a square was left out for a bound reason.
    bool restrict(B& b, Frame& f, int n) const;
    void drop_squares(B& b, const Move* legal, int count, std::vector<DropSquare>& out) const;

    Frame& frame(int depth);
    B& test_board(int level, const std::string& sfen);

    int attacker_;
    bool distance_rule_;
    Drops drops_ = Drops::Judged;
    const LengthSearch* judge_ = nullptr;
    std::size_t lower_mb_ = 0;                  // nested_lower's table (0: no nested game)
    std::unique_ptr<LengthSearch> lower_;       // made at its first question
    std::uint64_t lower_refutations_ = 0, futility_nodes_ = 0, squares_unjudged_ = 0;
    RawLooks looks_;
    LengthTable table_;
    std::shared_ptr<Oracle> oracle_;
    std::atomic<bool> cancel_{false};
    const std::atomic<bool>* outer_cancel_ = nullptr;   // a nested game's: the cancel flag of its search
    bool cancelled() const {
        return cancel_.load(std::memory_order_relaxed) ||
               (outer_cancel_ != nullptr && outer_cancel_->load(std::memory_order_relaxed));
    }
    std::uint64_t nodes_ = 0, next_check_ = 0, questions_ = 0, futility_tests_ = 0;
    std::atomic<std::uint64_t> pub_nodes_{0}, pub_tests_{0};
    std::atomic<std::size_t> pub_entries_{0}, pub_capacity_{0};
    // A nested game's: the search it runs inside, and that search's nodes_ when it was entered
    // (its nodes are counted there, and published there while it runs).
    LengthSearch* outer_ = nullptr;
    std::uint64_t outer_base_ = 0;
    void publish();
    CallLimits lim_;
    int nested_ = 0, depth_ = 0, test_level_ = 0;
    std::vector<std::unique_ptr<Frame>> frames_;
    std::vector<std::unique_ptr<Position>> test_pos_;
    std::vector<std::unique_ptr<B>> test_boards_;
    std::unordered_map<std::uint64_t, Tested> futility_;
    MoveList child_moves_;   // child()'s count of a new defender node's moves (not recursive)
    struct PathNode {
        std::uint64_t key;
        PHand hand;
        std::uint64_t start;   // nodes_ when the node was entered
    };
    std::vector<PathNode> path_;   // the busy entries, innermost last
    // A call cut short (a pause or a stop): every node of the path is no longer busy, and is
    // credited with the nodes searched below it, as its return would have credited it.
    void release_path();
};

}  // namespace tsume::length
