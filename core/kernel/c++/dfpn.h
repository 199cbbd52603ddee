// Depth-first proof-number search (df-pn) for direct mates, the kernel's form of the Python
// engine's core/search/dfpn.py: the same algorithm and the same meaning (with `play_checks`, node
// for node where the move generators order moves alike; by default its initial numbers differ).
//
// * Thresholds and child selection after [Qhapaq 2020], with the 1+ε trick for the best
//   child's threshold (as the Python engine's Options.epsilon).
// * The table (tt.h) with hand dominance, proof and disproof hands ([ComShogi ch. 9]).
// * Loops: a child repeating a position on the current path is not a mate for the attacker
//   (連続王手の千日手); a disproof resting on such a repetition is path-dependent and is stored
//   only once the search backs up to the repeated node itself, so no disproof in the table
//   depends on a path and no proof rests on a repetition (no GHI mistakes).  The TCA rule of
//   [Qhapaq 2020] raises thresholds past a node's numbers when a child repeats a position of the
//   path, counted as [KomoringHeights] counts it (node()); the seed's other trigger, a child in
//   the table first met nearer the root, is left out: on long problems it fires at most
//   transpositions and cost more than it saved (docs/benchmarks.md, 2026-11-27/28).
// * The 1-ply mate test at OR nodes (the board's own), never when the attacker is in check,
//   once per node: when its AND parent expands it for the first time, a mate found stored in the
//   table (so that the parent's later visits read it there instead of testing its children
//   again); else on the node's first visit (the root; the child of a parent visited again).
// * Initial pn/dn of a new child estimated from the board before the move (SearchBoard::estimate,
//   the df-pn+ categories of [KomoringHeights] after GPS Shogi), so that a new check is not
//   played until it is searched: most checks of an expanded node never are, and playing each to
//   count its evasions was most of a node's moves (docs/benchmarks.md, 2026-11-28 16:40 UTC).
//   With `play_checks` the earlier estimate instead: each new check played, its evasions
//   counted, plus move-category costs added like depth as in realization-probability search
//   ([Gekisashi RPS]; the Python engine's costs, measured by tools/calibrate_costs.py), and a
//   3-ply mate test (`mate3`): a check with at most kMate3Evasions evasions, each mated in one,
//   is proven at once and stored with the whole hand as proof hand.
// * Delayed interpositions after [KomoringHeights] in the drop order of [LS3600 2010]: `far`
//   chains the drops beyond the king's neighbourhood, `all` every drop, `hand` (the default) every
//   drop where the defender holds three kinds of piece or more and the far ones elsewhere.
//
// The searcher is a template over a board adapter (see search_board.h for what it provides);
// it never allocates in the inner loop once its per-ply buffers have grown, never calls into
// Python, and publishes a progress snapshot under a mutex for another thread to read.
#pragma once

#include <algorithm>
#include <cassert>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_set>
#include <vector>

#include "dfpn_hand.h"
#include "dfpn_limits.h"
#include "path_map.h"
#include "tt.h"

namespace tsume::dfpn {

inline constexpr int kNoRep = 1 << 30;   // "this value does not rest on a repetition"

enum class DelayMode { Off, Far, All, Hand };
// DelayMode::Hand chains every drop where the defender holds at least this many kinds of piece
// (policy.CROWDED_HAND_KINDS), the far ones elsewhere.
inline constexpr int kCrowdedHandKinds = 3;
enum class Outcome { Unknown, Proven, Disproven };

struct Options {
    bool mate1 = true;
    bool mate3 = true;
    bool dominance = true;
    bool tca = true;
    bool rps = true;
    // Play each new check when its node expands, to count its evasions for its proof number and
    // run the 3-ply mate test (`mate3`) on it; off, its numbers are estimated from the board
    // (SearchBoard::estimate) and it is played only when searched.
    bool play_checks = false;
    double epsilon = 0.25;
    int max_ply = 4000;
    DelayMode delay = DelayMode::Hand;
};

// Move-category costs of core/search/dfpn.py (ATTACK_COST / DEFENCE_COST).
struct Costs {
    static constexpr int kNear = 1, kCapture = 0, kPromote = 1, kFar = 4, kDropFar = 4, kNoPromote = 5;
    static constexpr int kKing = 0, kDefCapture = 0, kInterposeMove = 4, kInterposeNear = 3, kInterposeFar = 2;
};

// One child of the reported path, for the progress snapshot.
struct SnapChild {
    std::uint32_t move;
    std::uint64_t pn, dn;
};
struct SnapLevel {
    int selected = -1;
    bool or_node = true;
    std::vector<SnapChild> children;
};
struct Snapshot {
    std::uint64_t nodes = 0;
    std::uint64_t root_pn = 1, root_dn = 1;
    std::size_t entries = 0;
    double fill = 0.0;
    double cpu_seconds = 0.0;
    std::vector<SnapLevel> path;
};

inline constexpr int kSnapshotLevels = 64;
// The 3-ply mate test looks at a check's evasions when there are at most this many.
inline constexpr int kMate3Evasions = 4;

struct NodeResult {
    std::uint64_t pn, dn;
    int rep;
    int length;
    PHand ph;
};

template <class B>
class Searcher {
public:
    using Move = typename B::Move;

    Searcher(int attacker, std::size_t memory_mb, const Options& opt)
        : attacker_(attacker), opt_(opt), tt_(memory_mb), eps_(1.0 + opt.epsilon) {
        tt_.set_stop(&cancel_);   // a Searcher is neither copied nor moved (its atomic flag)
    }

    // Search `b` (attacker to move when or_node) until decided or stopped.
    Outcome search(B& b, bool or_node, const SearchLimits& lim) { return search(b, or_node, lim, nullptr); }

    // The same from a node inside a line: `path` holds the path keys of the line's earlier
    // positions, which count as the current path (a repetition of one is not mate).
    Outcome search(B& b, bool or_node, const SearchLimits& lim, const std::vector<std::uint64_t>* path) {
        abort_ = false;
        limits_ = lim;
        cpu0_ = thread_cpu_seconds();
        wall0_ = wall_seconds();
        next_check_ = nodes_;
        next_publish_ = wall0_;
        onpath_.clear();
        if (path != nullptr) {
            int d = -static_cast<int>(path->size());
            for (const std::uint64_t pk : *path) onpath_.emplace(pk, d++);
        }
        live_ = 0;
        tca_raises_ = 0;
        // The deepest ply: the option's, and never past the position's own state stack.
        max_depth_ = std::max(0, std::min(opt_.max_ply, b.ply_room() - 8));
        const PHand hand = b.hand_of(attacker_);
        const std::uint64_t key = b.board_key();
        NodeResult r = node(b, or_node, key, hand, kInf, kInf, 0);
        root_pn_ = r.pn;
        root_dn_ = r.dn;
        publish();
        cpu_spent_ += thread_cpu_seconds() - cpu0_;
        cpu0_ = thread_cpu_seconds();
        if (r.pn == 0) return Outcome::Proven;
        if (r.dn == 0 && r.rep == kNoRep) return Outcome::Disproven;
        return Outcome::Unknown;
    }

    void cancel() { cancel_.store(true, std::memory_order_relaxed); }
    void clear_cancel() { cancel_.store(false, std::memory_order_relaxed); }
    bool cancelled() const { return cancel_.load(std::memory_order_relaxed); }
    std::uint64_t nodes() const { return nodes_; }
    std::uint64_t published_nodes() const { return pub_nodes_.load(std::memory_order_relaxed); }
    double cpu_seconds() const { return cpu_spent_; }
    const TranspositionTable& table() const { return tt_; }
    void clear_table() { tt_.clear(); }
    void track_decided() { tt_.track_decided(); }
    bool aborted() const { return abort_; }

    // (pn, dn) of `b` from the table; (1, 1) when it holds nothing.
    std::pair<std::uint64_t, std::uint64_t> lookup(B& b) const {
        const TTEntry* e = probe(b.board_key(), b.hand_of(attacker_));
        if (e == nullptr) return {1, 1};
        return {from32(e->pn), from32(e->dn)};
    }

    // A copy of the last published snapshot (taken under the lock; any thread).
    Snapshot snapshot() const {
        std::lock_guard<std::mutex> lock(snap_mutex_);
        return snap_;
    }

    // df-pn's line from the table: the shortest attacker proof, the longest defence.  Where the
    // table does not answer the line to mate (entries collected or replaced, a defence never
    // searched), the node where it stops is searched again, with the line so far as its path,
    // and the line is read on from there; the line read so far is kept, so every round
    // lengthens it.  A proved root thus gets a line that replays to mate; `complete` tells
    // whether it did (false only when stopped by a limit, or when a search adds nothing).
    std::vector<Move> principal_variation(B& b, bool& complete, const SearchLimits& lim) {
        std::vector<Move> pv;
        std::vector<std::uint64_t> path;   // path keys of the positions before the line's end
        std::unordered_set<std::uint64_t> seen;
        complete = false;
        bool or_node = true;
        int idle = 0;
        for (;;) {
            const std::size_t before = pv.size();
            read_line(b, or_node, pv, path, seen);   // plays what it reads
            or_node = (pv.size() % 2) == 0;
            if (!or_node && b.in_check() && !b.has_evasion()) {
                complete = true;
                break;
            }
            idle = pv.size() == before ? idle + 1 : 0;
            if (idle >= 2) break;   // searched, and still nothing to read: give up on the line
            const Outcome o = search(b, or_node, lim, &path);
            if (o != Outcome::Proven) break;
        }
        for (auto it = pv.rbegin(); it != pv.rend(); ++it) b.undo_move(*it);
        if (complete) publish_line(b, pv);
        return pv;
    }

private:
    struct Child {
        Move move;
        std::uint64_t key;
        std::uint64_t pathkey;
        PHand hand;
        std::uint64_t pn, dn;
        int rep;
        int length;
        std::int64_t ph;   // proof/disproof hand, -1: derive it when needed
        bool fresh;
    };

    struct Mate1Entry {
        std::uint64_t key = 0;
        std::uint64_t hands = 0;
        Move move{};
        bool used = false;
    };
    static constexpr int kMate1CacheBits = 10;   // 1024 entries, 24 KB

    struct NodeState {
        std::vector<Child> ch;
        std::vector<Move> waiting;    // the chain of delayed moves, in release order
        std::size_t wait_pos = 0;
        int chain_head = -1;          // child whose decision against the node releases the next move
        bool old = false;
        bool or_node = true;
        bool test_mate1 = true;       // an AND node's expansion gives its new children the 1-ply mate test
        int selected = -1;
        std::uint64_t pn = 1, dn = 1;
        Move buf[B::kMaxMoves];
        std::size_t pending() const { return waiting.size() - wait_pos; }
    };

    // ---- helpers --------------------------------------------------------------------------

    static std::uint64_t sat_add(std::uint64_t a, std::uint64_t b) { return a + b >= kInf ? kInf : a + b; }

    static std::uint64_t path_key(std::uint64_t key, PHand hand, bool or_node) {
        return key ^ (static_cast<std::uint64_t>(hand) * 0x9E3779B97F4A7C15ULL) ^ (or_node ? 0x5bd1e995ULL : 0);
    }

    const TTEntry* probe(std::uint64_t key, PHand hand) const {
        return opt_.dominance ? tt_.probe(key, hand) : tt_.probe_exact(key, hand);
    }

    NodeState& state(int depth) {
        while (static_cast<int>(states_.size()) <= depth) states_.push_back(std::make_unique<NodeState>());
        return *states_[static_cast<std::size_t>(depth)];
    }

    PHand defender_gap(const B& b, PHand hand) const {
        const PHand d = b.hand_of(1 - attacker_);
        PHand out = 0;
        for (int k = 0; k < HKinds; ++k)
            if ((d & hand_mask(k)) == 0) out |= hand & hand_mask(k);
        return out;
    }

    PHand mated_hand(const B& b, PHand hand) const { return opt_.dominance ? defender_gap(b, hand) : hand; }

    PHand or_proof_hand(const B& b, Move m, PHand child_hand, PHand hand) const {
        if (!opt_.dominance) return hand;
        const int drop = b.drop_kind(m);
        if (drop >= 0) return child_hand + hand_unit(drop);
        const int cap = b.captured_kind(m);
        if (cap >= 0 && (child_hand & hand_mask(cap)) != 0) return child_hand - hand_unit(cap);
        return child_hand;
    }

    PHand child_hand(const B& b, Move m, PHand hand) const {
        const int drop = b.drop_kind(m);
        if (drop >= 0) return hand - hand_unit(drop);
        const int cap = b.captured_kind(m);
        if (cap >= 0) return hand + hand_unit(cap);
        return hand;
    }

    // The board's 1-ply mate test, remembered: the same position is often tested twice, by the
    // 3-ply test of a check's evasions and again when that check's node is expanded (two tests in
    // five repeat one on tail 151 of Microcosmos).  A small direct-mapped cache of the last answers,
    // each under its position's whole identity (board key with the side to move, both hands); the
    // answer is the board's own, so the search is the same node for node.  Small on purpose: 24 KB
    // answers 18 % of the tests from the first-level cache, where 768 KB answered 27 % but evicted
    // the table's lines and cost more time than it saved.
    Move mate1(B& b) {
        const std::uint64_t key = b.board_key();
        const std::uint64_t hands = b.hands_key();
        Mate1Entry& e = mate1_cache_[(key ^ (hands * 0x9E3779B97F4A7C15ULL)) >> (64 - kMate1CacheBits)];
        if (e.key == key && e.hands == hands && e.used) return e.move;
        const Move m = b.mate_in_one();
        e.key = key;
        e.hands = hands;
        e.move = m;
        e.used = true;
        return m;
    }

    PHand mate1_hand(B& b, Move m, PHand hand) {
        if (!opt_.dominance) return hand;
        const PHand child = child_hand(b, m, hand);
        b.do_move(m);
        const PHand mated = defender_gap(b, child);
        b.undo_move(m);
        return or_proof_hand(b, m, mated, hand);
    }

    // ---- stop conditions and progress -------------------------------------------------------

    void check_stop() {
        next_check_ = nodes_ + 1024;
        if (limits_.nodes != 0 && next_check_ > limits_.nodes && limits_.nodes > nodes_) next_check_ = limits_.nodes;
        pub_nodes_.store(nodes_, std::memory_order_relaxed);
        tt_.maintain();
        if (cancel_.load(std::memory_order_relaxed)) {
            abort_ = true;
        } else if (limits_.nodes != 0 && nodes_ >= limits_.nodes) {
            abort_ = true;
        }
        const double now = wall_seconds();
        if (!abort_ && limits_.seconds >= 0.0) {
            const double spent = limits_.cpu_time ? thread_cpu_seconds() - cpu0_ : now - wall0_;
            if (spent >= limits_.seconds) abort_ = true;
        }
        if (abort_ || now >= next_publish_) {
            publish();
            next_publish_ = now + 0.05;
        }
    }

    void publish() {
        Snapshot s;
        s.nodes = nodes_;
        pub_nodes_.store(nodes_, std::memory_order_relaxed);
        s.entries = tt_.entries();
        s.fill = tt_.fill();
        s.cpu_seconds = cpu_spent_ + (thread_cpu_seconds() - cpu0_);
        const int levels = std::min(live_, kSnapshotLevels);
        s.path.reserve(static_cast<std::size_t>(levels));
        for (int d = 0; d < levels; ++d) {
            const NodeState& ns = *states_[static_cast<std::size_t>(d)];
            SnapLevel lv;
            lv.selected = ns.selected;
            lv.or_node = ns.or_node;
            lv.children.reserve(ns.ch.size());
            for (const Child& c : ns.ch) lv.children.push_back({static_cast<std::uint32_t>(c.move), c.pn, c.dn});
            s.path.push_back(std::move(lv));
        }
        if (live_ > 0) {
            s.root_pn = states_[0]->pn;
            s.root_dn = states_[0]->dn;
        } else {
            s.root_pn = root_pn_;
            s.root_dn = root_dn_;
        }
        std::lock_guard<std::mutex> lock(snap_mutex_);
        snap_ = std::move(s);
    }

    // ---- numbers and selection (core/search/node.py) -------------------------------------------

    // The node's (pn, dn), the child to search (-1: none) and its thresholds.  With `raise` (TCA
    // raises pending) the node's own thresholds are first lifted just past its numbers.
    int select(const NodeState& ns, std::uint64_t thpn, std::uint64_t thdn, std::uint64_t& pn, std::uint64_t& dn,
               std::uint64_t& cthpn, std::uint64_t& cthdn, bool raise = false) const {
        // Moves still waiting behind a chained drop count toward the node's sum: one each with counted
        // evasions, one per eight (at least one) with the estimates, after [KomoringHeights].
        const std::size_t waiting = ns.pending();
        std::uint64_t best = kInf + 1, second = kInf + 1;
        std::uint64_t total = opt_.play_checks ? waiting : (waiting + 7) / 8;
        int i1 = -1;
        const bool or_node = ns.or_node;
        const std::size_t n = ns.ch.size();
        for (std::size_t i = 0; i < n; ++i) {
            const Child& c = ns.ch[i];
            const std::uint64_t v = or_node ? c.pn : c.dn;
            if (v < best) {
                second = best;
                best = v;
                i1 = static_cast<int>(i);
            } else if (v < second) {
                second = v;
            }
            total = sat_add(total, or_node ? c.dn : c.pn);
        }
        if (or_node) {
            pn = best;
            dn = total;
        } else {
            pn = total;
            dn = best;
        }
        if (pn == 0 || dn == 0) return -1;
        // An undecided node's sum stops just short of kInf, a decided node's number (the root,
        // searched with thresholds of kInf, would otherwise return undecided).
        pn = std::min(pn, kInf - 1);
        dn = std::min(dn, kInf - 1);
        if (raise) {
            if (thpn <= pn) thpn = pn + 1;
            if (thdn <= dn) thdn = dn + 1;
        }
        if (pn >= thpn || dn >= thdn) return -1;
        const Child& c = ns.ch[static_cast<std::size_t>(i1)];
        const std::uint64_t tight =
            second >= kInf ? kInf : static_cast<std::uint64_t>(static_cast<double>(second) * eps_) + 1;
        if (or_node) {
            cthpn = std::min(thpn, tight);
            const std::uint64_t t = thdn - dn + c.dn;
            cthdn = t < kInf ? t : kInf;
        } else {
            cthdn = std::min(thdn, tight);
            const std::uint64_t t = thpn - pn + c.pn;
            cthpn = t < kInf ? t : kInf;
        }
        return i1;
    }

    static int disproof_rep(const NodeState& ns) {
        if (ns.or_node) {
            int rep = kNoRep;
            for (const Child& c : ns.ch) rep = std::min(rep, c.rep);
            return rep;
        }
        // From below every depth: a cut by the depth limit (-1) or a repetition of a position of
        // the line searched from (negative depths) stays below the node, never a true disproof.
        int rep = -kNoRep;
        for (const Child& c : ns.ch)
            if (c.dn == 0 && c.rep > rep) rep = c.rep;
        return rep;
    }

    // ---- move-list policy (core/search/policy.py) --------------------------------------------

    // Rank of a drop for the chain: nearest square to the king first, weakest piece first.
    int drop_order(const B& b, Move m, int king) const {
        static constexpr int kRank[HKinds] = {0, 1, 2, 3, 4, 5, 6};   // P L N S G B R in packed order
        return B::distance(b.to_square(m), king) * 8 + kRank[b.drop_kind(m)];
    }

    void split_moves(const B& b, NodeState& ns, int n, bool or_node, int king) {
        ns.ch.clear();
        ns.waiting.clear();
        ns.wait_pos = 0;
        ns.chain_head = -1;
        if (or_node || opt_.delay == DelayMode::Off) {
            for (int i = 0; i < n; ++i) push_child(ns, ns.buf[i]);
            return;
        }
        // Every drop (policy.delay_drops), or the far ones (delay_far_drops); `Hand` picks by the
        // defender's hand (delay_by_hand): every drop where it holds kCrowdedHandKinds kinds or more.
        bool every = opt_.delay == DelayMode::All;
        if (opt_.delay == DelayMode::Hand) {
            const PHand d = b.hand_of(1 - attacker_);
            int kinds = 0;
            for (int k = 0; k < HKinds; ++k) kinds += (d & hand_mask(k)) != 0;
            every = kinds >= kCrowdedHandKinds;
        }
        // The drops the policy chains.
        Move* chained = chain_buf_;
        int nc = 0;
        for (int i = 0; i < n; ++i) {
            const Move m = ns.buf[i];
            if (b.drop_kind(m) >= 0 && (every || B::distance(b.to_square(m), king) >= 2)) chained[nc++] = m;
        }
        if (nc < 2) {
            for (int i = 0; i < n; ++i) push_child(ns, ns.buf[i]);
            return;
        }
        std::stable_sort(chained, chained + nc,
                         [&](Move x, Move y) { return drop_order(b, x, king) < drop_order(b, y, king); });
        const Move head = chained[0];
        if (every) {
            // Board moves first, then the head drop (policy.delay_drops).
            for (int i = 0; i < n; ++i)
                if (b.drop_kind(ns.buf[i]) < 0) push_child(ns, ns.buf[i]);
            push_child(ns, head);
            ns.chain_head = static_cast<int>(ns.ch.size()) - 1;
        } else {
            // Every move in generation order but the waiting ones (policy.delay_far_drops).
            for (int i = 0; i < n; ++i) {
                const Move m = ns.buf[i];
                bool waits = false;
                for (int j = 1; j < nc; ++j)
                    if (chained[j] == m) {
                        waits = true;
                        break;
                    }
                if (waits) continue;
                if (m == head) ns.chain_head = static_cast<int>(ns.ch.size());
                push_child(ns, m);
            }
        }
        ns.waiting.assign(chained + 1, chained + nc);
    }

    static void push_child(NodeState& ns, Move m) {
        ns.ch.push_back(Child{m, 0, 0, 0, 1, 1, kNoRep, kNoLength, -1, true});
    }

    // Child `i` was decided against the node: the move waiting behind it joins.  Returns its index.
    int release(NodeState& ns, int i) {
        if (ns.pending() == 0 || ns.chain_head != i) return -1;
        const Move m = ns.waiting[ns.wait_pos++];
        push_child(ns, m);
        const int j = static_cast<int>(ns.ch.size()) - 1;
        ns.chain_head = ns.pending() ? j : -1;
        return j;
    }

    // ---- expansion ---------------------------------------------------------------------------

    int attack_cost(const B& b, Move m, int king) const {
        const int to = b.to_square(m);
        const bool near = B::distance(to, king) <= 1;
        if (b.drop_kind(m) >= 0) return near ? Costs::kNear : Costs::kDropFar;
        if (b.captured_kind(m) >= 0) return Costs::kCapture;
        if (b.is_promotion(m)) return Costs::kPromote;
        if (b.declines_strong_promotion(m, attacker_)) return Costs::kNoPromote;
        return near ? Costs::kNear : Costs::kFar;
    }

    int defence_cost(const B& b, Move m, int king) const {
        if (king >= 0 && b.from_square(m) == king) return Costs::kKing;
        if (b.captured_kind(m) >= 0) return Costs::kDefCapture;
        if (b.drop_kind(m) >= 0) return B::distance(b.to_square(m), king) <= 1 ? Costs::kInterposeNear : Costs::kInterposeFar;
        return Costs::kInterposeMove;
    }

    // Children `start..` get their keys and numbers: the table's, or initial estimates.
    void expand(B& b, NodeState& ns, bool or_node, PHand hand, int depth, std::size_t start, int king) {
        Move* evasions = evasion_buf_;
        while (start < ns.ch.size()) {
            const std::size_t end = ns.ch.size();
            // The children's keys first, their table windows fetched meanwhile: the probes below
            // then mostly find them in cache.
            for (std::size_t i = start; i < end; ++i) {
                ns.ch[i].key = b.key_after(ns.ch[i].move);
                tt_.prefetch(ns.ch[i].key);
            }
            for (std::size_t i = start; i < end; ++i) {
                Child& c = ns.ch[i];
                const Move m = c.move;
                c.hand = or_node ? child_hand(b, m, hand) : hand;
                c.pathkey = path_key(c.key, c.hand, !or_node);
                // The path and the table answer from the child's keys; the move is played only
                // when neither does (most children of a node searched again are in the table).
                if (const int* rep = onpath_.find(c.pathkey); rep != nullptr) {
                    // A repetition of a position on the current path: not mate here, and an old position.
                    c.pn = kInf;
                    c.dn = 0;
                    c.rep = *rep;
                    if (opt_.tca) ns.old = true;
                } else if (const TTEntry* e = probe(c.key, c.hand); e != nullptr) {
                    c.pn = from32(e->pn);
                    c.dn = from32(e->dn);
                    c.fresh = false;
                    if (e->pn == 0 || e->dn == 0) {
                        c.length = e->length;
                        c.ph = e->hand;
                    }
                } else if (!opt_.play_checks) {
                    // A check is not played here: most are never searched, and its estimate
                    // reads the board as it stands.  A defence is played for the 1-ply mate test, on
                    // the node's first visit only: on a later one, a child not in the table was
                    // tested then and found no mate (or its proof was since dropped: node() tests
                    // it again when it is searched).
                    const auto [epn, edn] = opt_.rps ? b.estimate(m, or_node) : std::pair<int, int>{2, 2};
                    c.pn = static_cast<std::uint64_t>(epn);
                    c.dn = static_cast<std::uint64_t>(edn);
                    if (!or_node && opt_.mate1 && ns.test_mate1) {
                        b.do_move(m);
                        if (const Move mm = b.in_check() ? Move{} : mate1(b); mm != Move{}) {
                            const NodeResult r = mate_in_one_result(b, mm, c.key, c.hand, depth + 1);   // stored
                            c.pn = r.pn;
                            c.dn = r.dn;
                            c.length = r.length;
                            c.ph = r.ph;
                        }
                        b.undo_move(m);
                    }
                } else {
                    int cost = 0;
                    if (opt_.rps) cost = or_node ? attack_cost(b, m, king) : defence_cost(b, m, king);
                    b.do_move(m);
                    assert(c.key == b.board_key());
                    if (or_node) {
                        // The child is an AND node: its evasions tell how hard it is.
                        const int ne = b.gen_evasions(evasions);
                        if (ne == 0) {
                            c.pn = 0;
                            c.dn = kInf;
                            c.length = 0;
                        } else if (opt_.mate3 && ne <= kMate3Evasions && depth + 3 <= max_depth_ &&
                                   all_mated_in_one(b, evasions, ne)) {
                            // Mated in two more plies: the node is proven by a 3-ply mate (stored so
                            // that the proof line reads through it), the whole hand its proof hand.
                            c.pn = 0;
                            c.dn = kInf;
                            c.length = 2;
                            c.ph = c.hand;
                            tt_.store(c.key, c.hand, 0, kInf, depth + 1, 1, 2, 0);
                        } else {
                            c.pn = static_cast<std::uint64_t>(ne + cost);
                        }
                    } else if (opt_.mate1 && !b.in_check() && mate1(b) != Move{}) {
                        c.pn = 0;
                        c.dn = kInf;
                        c.length = 1;
                    } else if (opt_.rps) {
                        c.dn = static_cast<std::uint64_t>(1 + cost);
                    }
                    b.undo_move(m);
                }
                if (ns.chain_head == static_cast<int>(i) && (or_node ? c.dn : c.pn) == 0) release(ns, static_cast<int>(i));
            }
            start = end;
        }
    }

    // ---- results ------------------------------------------------------------------------------

    NodeResult mate_in_one_result(B& b, Move m, std::uint64_t key, PHand hand, int depth) {
        const PHand ph = mate1_hand(b, m, hand);
        tt_.store(key, ph, 0, kInf, depth, 1, 1, static_cast<std::uint32_t>(m));
        return {0, kInf, kNoRep, 1, ph};
    }

    NodeResult leaf(B& b, bool or_node, std::uint64_t key, PHand hand, int depth, int n) {
        if (n > 0) return {kInf, 0, -1, kNoLength, hand};   // too deep: not mate on this path only
        if (or_node) {
            tt_.store(key, hand, kInf, 0, depth, 1);
            return {kInf, 0, kNoRep, kNoLength, hand};
        }
        const PHand ph = mated_hand(b, hand);
        tt_.store(key, ph, 0, kInf, depth, 1, 0);
        return {0, kInf, kNoRep, 0, ph};
    }

    // (proof length, proof hand, best move) of a proven node (dfpn.py _prove).
    void prove(B& b, NodeState& ns, PHand hand, int& length, PHand& ph, Move& best_move) {
        if (ns.or_node) {
            int best = -1;
            for (std::size_t j = 0; j < ns.ch.size(); ++j)
                if (ns.ch[j].pn == 0 && (best < 0 || ns.ch[j].length < ns.ch[static_cast<std::size_t>(best)].length))
                    best = static_cast<int>(j);
            const Child& c = ns.ch[static_cast<std::size_t>(best)];
            PHand h;
            if (c.ph < 0) {   // mated child found at expansion
                b.do_move(c.move);
                h = mated_hand(b, c.hand);
                b.undo_move(c.move);
            } else {
                h = static_cast<PHand>(c.ph);
            }
            length = c.length + 1;
            ph = or_proof_hand(b, c.move, h, hand);
            best_move = c.move;
            return;
        }
        PHand acc = 0;
        int longest = 0;
        for (const Child& c : ns.ch) {
            PHand h;
            if (c.ph < 0) {   // mated in one, found at expansion with play_checks (not stored)
                b.do_move(c.move);
                const Move mm = mate1(b);
                h = mate1_hand(b, mm, hand);
                b.undo_move(c.move);
            } else {
                h = static_cast<PHand>(c.ph);
            }
            acc = opt_.dominance ? hand_max(acc, h) : hand;
            longest = std::max(longest, c.length);
        }
        if (opt_.dominance) acc = hand_max(acc, defender_gap(b, hand));
        length = longest + 1;
        ph = acc;
        best_move = Move{};
    }

    // True when each of the n evasions (of the position on the board) is answered by a mate in one.
    bool all_mated_in_one(B& b, const Move* evasions, int n) {
        for (int j = 0; j < n; ++j) {
            b.do_move(evasions[j]);
            const bool mated = mate1(b) != Move{};
            b.undo_move(evasions[j]);
            if (!mated) return false;
        }
        return true;
    }

    // `first_visit`: the node is new to the search (not in the table; for an OR node, also not
    // 1-ply mate tested by its parent).
    NodeResult node(B& b, bool or_node, std::uint64_t key, PHand hand, std::uint64_t thpn, std::uint64_t thdn,
                    int depth, bool first_visit = true) {
        ++nodes_;
        if (nodes_ >= next_check_) check_stop();
        const std::uint64_t start_nodes = nodes_;

        // The 1-ply mate test of an OR node that its parent has not tested (see the top).
        if (or_node && first_visit && opt_.mate1 && !b.in_check()) {
            const Move m = mate1(b);
            if (m != Move{}) return mate_in_one_result(b, m, key, hand, depth);
        }
        NodeState& ns = state(depth);
        const int n = or_node ? b.gen_checks(ns.buf) : b.gen_evasions(ns.buf);
        if (n == 0 || depth >= max_depth_) return leaf(b, or_node, key, hand, depth, n);
        const int king = b.king_square(1 - attacker_);
        ns.or_node = or_node;
        ns.test_mate1 = first_visit || opt_.play_checks;   // play_checks tests every defence, every time
        ns.old = false;
        ns.selected = -1;
        split_moves(b, ns, n, or_node, king);
        expand(b, ns, or_node, hand, depth, 0, king);
        const std::uint64_t pk = path_key(key, hand, or_node);
        onpath_.emplace(pk, depth);
        live_ = depth + 1;

        std::uint64_t pn = 1, dn = 1, cthpn = 0, cthdn = 0;
        // The TCA rule of [Qhapaq 2020], counted as KomoringHeights counts it: a child repeating a
        // position of the path adds one raise; while raises are pending the node's thresholds sit
        // just past its numbers, each first visit of a child spends one, and a node that entered
        // with raises pending goes back to its parent once they are spent.
        const std::uint32_t raises_in = tca_raises_;
        if (ns.old) ++tca_raises_;
        bool spent = false;
        for (;;) {
            const int i1 = select(ns, thpn, thdn, pn, dn, cthpn, cthdn, tca_raises_ > 0);
            ns.pn = pn;
            ns.dn = dn;
            // A node whose raise is spent goes back to the parent with its numbers as they stand.
            if (i1 < 0 || abort_ || spent) break;
            ns.selected = i1;
            const Child c = ns.ch[static_cast<std::size_t>(i1)];
            if (c.fresh && tca_raises_ > 0) --tca_raises_;
            b.do_move(c.move);
            // An OR child that this node's expansion did not test (a later visit) is tested when first searched.
            const bool first = c.fresh && (or_node || !ns.test_mate1);
            const NodeResult r = node(b, !or_node, c.key, c.hand, cthpn, cthdn, depth + 1, first);
            b.undo_move(c.move);
            live_ = depth + 1;
            Child& cc = ns.ch[static_cast<std::size_t>(i1)];
            cc.fresh = false;
            cc.pn = r.pn;
            cc.dn = r.dn;
            cc.rep = r.rep;
            cc.length = r.length;
            cc.ph = r.ph;
            if (ns.pending() != 0 && (or_node ? r.dn : r.pn) == 0) {
                const int j = release(ns, i1);
                if (j >= 0) expand(b, ns, or_node, hand, depth, static_cast<std::size_t>(j), king);
            }
            spent = raises_in > 0 && tca_raises_ == 0;
        }
        tca_raises_ = std::min(tca_raises_, raises_in);
        onpath_.erase(pk);
        live_ = depth;
        const std::uint64_t amount = nodes_ - start_nodes + 1;
        if (pn == 0) {
            int length = 0;
            PHand ph = 0;
            Move best{};
            prove(b, ns, hand, length, ph, best);
            tt_.store(key, ph, 0, kInf, depth, amount, length, static_cast<std::uint32_t>(best));
            return {0, kInf, kNoRep, length, ph};
        }
        if (dn == 0) {
            const int rep = disproof_rep(ns);
            if (rep >= depth) {
                // Only repetitions of this very node (or none): a true disproof.
                tt_.store(key, hand, kInf, 0, depth, amount);
                return {kInf, 0, kNoRep, kNoLength, hand};
            }
            return {kInf, 0, rep, kNoLength, hand};
        }
        tt_.store(key, hand, pn, dn, depth, amount);
        return {pn, dn, kNoRep, kNoLength, hand};
    }

    // ---- the proof line -----------------------------------------------------------------------

    // Proof length of the child reached by `m` from the table, -1 when unknown.
    int child_length(B& b, Move m, bool or_node) {
        b.do_move(m);
        int length = -1;
        Move scratch[B::kMaxMoves];
        if (or_node && b.gen_evasions(scratch) == 0) {
            length = 0;
        } else if (!or_node && !b.in_check() && mate1(b) != Move{}) {
            length = 1;
        } else {
            const TTEntry* e = probe(b.board_key(), b.hand_of(attacker_));
            if (e != nullptr && e->pn == 0 && e->length != kNoLength) length = e->length;
        }
        b.undo_move(m);
        return length;
    }

    // Reads the line on from the board's node (`or_node`: the attacker to move), playing each move
    // read and appending it to `pv` and the position before it to `path`/`seen`; stops where the
    // table does not answer, at mate, or where every answer would repeat a position of the line.
    void read_line(B& b, bool or_node, std::vector<Move>& pv, std::vector<std::uint64_t>& path,
                   std::unordered_set<std::uint64_t>& seen) {
        Move moves[B::kMaxMoves];
        while (pv.size() < 10000) {
            const std::uint64_t pk = path_key(b.board_key(), b.hand_of(attacker_), or_node);
            const int n = or_node ? b.gen_checks(moves) : b.gen_evasions(moves);
            if (n == 0) break;
            Move best{};
            int best_len = -1;
            bool unanswered = false;
            for (int i = 0; i < n; ++i) {
                const int length = child_length(b, moves[i], or_node);
                if (length < 0) {
                    if (!or_node) {
                        unanswered = true;   // a defence the table does not answer
                        break;
                    }
                    continue;
                }
                if (repeats(b, moves[i], !or_node, seen, pk)) continue;
                if (best_len < 0 || (or_node ? length < best_len : length > best_len)) {
                    best = moves[i];
                    best_len = length;
                }
            }
            if (unanswered || best_len < 0) break;
            seen.insert(pk);
            path.push_back(pk);
            pv.push_back(best);
            b.do_move(best);
            or_node = !or_node;
        }
    }

    // True when move m leads to a position of the line (seen, or the current one).
    bool repeats(B& b, Move m, bool child_or, const std::unordered_set<std::uint64_t>& seen, std::uint64_t here) {
        b.do_move(m);
        const std::uint64_t pk = path_key(b.board_key(), b.hand_of(attacker_), child_or);
        b.undo_move(m);
        return pk == here || seen.count(pk) != 0;
    }

    // A snapshot of the finished tree along `pv`: each node's children with their numbers from the
    // table (decided at expansion when mated or mated in one), so a reader sees the proof.
    void publish_line(B& b, const std::vector<Move>& pv) {
        Snapshot s;
        s.nodes = nodes_;
        s.entries = tt_.entries();
        s.fill = tt_.fill();
        s.cpu_seconds = cpu_spent_;
        s.root_pn = root_pn_;
        s.root_dn = root_dn_;
        bool or_node = true;
        Move moves[B::kMaxMoves];
        std::size_t played = 0;
        for (std::size_t k = 0; k <= pv.size() && k < static_cast<std::size_t>(kSnapshotLevels); ++k) {
            const int n = or_node ? b.gen_checks(moves) : b.gen_evasions(moves);
            SnapLevel lv;
            lv.or_node = or_node;
            for (int i = 0; i < n; ++i) {
                std::uint64_t pn = 1, dn = 1;
                const int length = child_length(b, moves[i], or_node);
                if (length >= 0) {
                    pn = 0;
                    dn = kInf;
                } else {
                    b.do_move(moves[i]);
                    const TTEntry* e = probe(b.board_key(), b.hand_of(attacker_));
                    if (e != nullptr) {
                        pn = from32(e->pn);
                        dn = from32(e->dn);
                    }
                    b.undo_move(moves[i]);
                }
                if (k < pv.size() && moves[i] == pv[k]) lv.selected = i;
                lv.children.push_back({static_cast<std::uint32_t>(moves[i]), pn, dn});
            }
            s.path.push_back(std::move(lv));
            if (k == pv.size() || s.path.back().selected < 0) break;
            b.do_move(pv[k]);
            ++played;
            or_node = !or_node;
        }
        for (std::size_t k = played; k > 0; --k) b.undo_move(pv[k - 1]);
        std::lock_guard<std::mutex> lock(snap_mutex_);
        snap_ = std::move(s);
    }

    // ---- state --------------------------------------------------------------------------------

    int attacker_;
    Options opt_;
    TranspositionTable tt_;
    double eps_;
    std::uint64_t nodes_ = 0;
    std::uint64_t next_check_ = 0;
    SearchLimits limits_;
    bool abort_ = false;
    std::atomic<bool> cancel_{false};
    std::atomic<std::uint64_t> pub_nodes_{0};
    double cpu0_ = 0.0, wall0_ = 0.0, next_publish_ = 0.0, cpu_spent_ = 0.0;
    int live_ = 0;
    int max_depth_ = 0;
    std::uint32_t tca_raises_ = 0;   // TCA raises pending on the current path (node())
    std::uint64_t root_pn_ = 1, root_dn_ = 1;
    std::vector<std::unique_ptr<NodeState>> states_;
    PathMap onpath_;   // path key -> depth of each position on the current path
    std::vector<Mate1Entry> mate1_cache_ = std::vector<Mate1Entry>(std::size_t{1} << kMate1CacheBits);   // see mate1()
    Move chain_buf_[B::kMaxMoves];     // scratch of split_moves and expand (never on the recursion path)
    Move evasion_buf_[B::kMaxMoves];
    mutable std::mutex snap_mutex_;
    Snapshot snap_;
};

}  // namespace tsume::dfpn
