// The Python binding of the length-aware tsume-rule search (length_search.h): `LengthSearch`,
// registered into the kernel module by bind_length().  Type conversion and input checks only:
// every position is given as an SFEN and checked (a problem of the same material as the root,
// the right side to move for the question), every bound and limit is range-checked, and a bad
// argument raises ValueError.  The searches run with the interpreter lock released and never
// call into Python.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <array>
#include <atomic>
#include <cmath>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "bind_length.h"
#include "bind_search.h"
#include "length_search.h"

namespace py = pybind11;

namespace tsume {

namespace {

constexpr long long kMaxMemoryMb = 1LL << 20;

const char* answer_name(length::Answer a) {
    switch (a) {
        case length::Answer::Yes: return "yes";
        case length::Answer::No: return "no";
        case length::Answer::Paused: return "paused";
        default: return "stopped";
    }
}

// Pieces of each kind, board and both hands together (promoted pieces as their kind).
std::array<int, PIECE_TYPE_NB> material(const Position& pos) {
    std::array<int, PIECE_TYPE_NB> out{};
    for (int s = 0; s < SQ_NB; ++s) {
        const Piece p = pos.piece_on(Square(s));
        if (p != NO_PIECE) ++out[static_cast<std::size_t>(unpromoted(type_of(p)))];
    }
    for (int c = 0; c < COLOR_NB; ++c)
        for (int pt = PAWN; pt <= GOLD; ++pt)
            out[static_cast<std::size_t>(pt)] += tsume::hand_count(pos.hand(Color(c)), PieceType(pt));
    return out;
}

// `pause_nodes` counts from `nodes_now`, the search's nodes at the call (0: no pause by nodes);
// `pause_work` from `work_now`, its nodes and its raw df-pn's together (0: no pause by work).
// A pause comes by counts only: by the clock it would fall elsewhere each run, and the answer's
// node count (how a question's search goes on from its root after a pause) with it.
length::CallLimits call_limits(std::uint64_t nodes, double stop_seconds,
                               std::uint64_t pause_nodes = 0, std::uint64_t nodes_now = 0,
                               std::uint64_t pause_work = 0, std::uint64_t work_now = 0) {
    if (std::isnan(stop_seconds)) throw std::invalid_argument("seconds must be numbers, not NaN");
    length::CallLimits lim;
    lim.nodes = nodes;
    const double now = dfpn::wall_seconds();
    if (stop_seconds >= 0.0) lim.stop_at = now + std::min(stop_seconds, 1e9);
    if (pause_nodes != 0) lim.pause_nodes = nodes_now + std::min<std::uint64_t>(pause_nodes, std::uint64_t{1} << 62);
    if (pause_work != 0) lim.pause_work = work_now + std::min<std::uint64_t>(pause_work, std::uint64_t{1} << 62);
    return lim;
}

class LengthSearchBinding {
public:
    LengthSearchBinding(const std::string& sfen, long long memory_mb, long long oracle_mb, bool distance_rule,
                        int look_from, long long look_nodes, int root_look_from, long long root_look_nodes,
                        const py::object& oracle, const std::string& drops, long long nested_lower_mb)
        : root_(std::make_unique<Position>()) {
        if (nested_lower_mb < 0 || nested_lower_mb > kMaxMemoryMb)
            throw std::invalid_argument("nested_lower_mb must be between 0 and 1 TB, got " + std::to_string(nested_lower_mb));
        if (nested_lower_mb != 0 && drops != "judged")
            throw std::invalid_argument("only a search under the tsume rules (drops 'judged') has a nested restricted game");
        make(sfen, memory_mb, oracle_mb, distance_rule, look_from, look_nodes, root_look_from, root_look_nodes, oracle,
             drops);
        search_->nested_lower(static_cast<std::size_t>(nested_lower_mb));
    }

    void make(const std::string& sfen, long long memory_mb, long long oracle_mb, bool distance_rule, int look_from,
              long long look_nodes, int root_look_from, long long root_look_nodes, const py::object& oracle,
              const std::string& drops) {
        length::Drops mode = length::Drops::Judged;
        if (drops == "none")
            mode = length::Drops::None;
        else if (drops == "effective")
            mode = length::Drops::Effective;
        else if (drops == "all")
            mode = length::Drops::All;
        else if (drops != "judged")
            throw std::invalid_argument("drops must be 'judged', 'none', 'effective' or 'all', got '" + drops + "'");
        if (look_from < 0 || root_look_from < 0 || look_nodes < 0 || root_look_nodes < 0 ||
            look_nodes > (1LL << 40) || root_look_nodes > (1LL << 40))
            throw std::invalid_argument("the raw looks' plies and nodes must be between 0 and 2**40");
        length::RawLooks looks;
        looks.from = look_from;
        looks.nodes = static_cast<std::uint64_t>(look_nodes);
        looks.root_from = root_look_from;
        looks.root_nodes = static_cast<std::uint64_t>(root_look_nodes);
        if (memory_mb < 1 || memory_mb > kMaxMemoryMb)
            throw std::invalid_argument("memory must be between 1 MB and 1 TB, got " + std::to_string(memory_mb));
        if (oracle_mb < 1 || oracle_mb > kMaxMemoryMb)
            throw std::invalid_argument("oracle memory must be between 1 MB and 1 TB, got " + std::to_string(oracle_mb));
        root_->set(sfen);
        attacker_ = root_->side_to_move();
        check_position(*root_);
        if (root_->king_square(~attacker_) == SQ_NONE)
            throw std::invalid_argument("the defender has no king: not a direct-mate problem");
        material_ = material(*root_);
        if (py::isinstance<LengthSearchBinding>(oracle)) {
            // Another length search of this problem: its raw df-pn is shared, and (drops
            // 'effective') its futility verdicts are the judge of the restricted game.
            auto& other = oracle.cast<LengthSearchBinding&>();
            if (other.attacker_ != attacker_) throw std::invalid_argument("the oracle search has the other side attacking");
            if (other.material_ != material_)
                throw std::invalid_argument("the oracle search is of another problem: its pieces differ");
            if (other.running_.load()) throw std::runtime_error("the oracle search is running");
            peer_ = oracle;
            peer_running_ = &other.running_;
            oracle_running_ = other.oracle_running_;
            search_ = std::make_unique<length::LengthSearch>(int(attacker_), static_cast<std::size_t>(memory_mb),
                                                             other.search_->shared_oracle(), distance_rule, looks);
            search_->restrict_drops(mode, other.search_.get());
            return;
        }
        if (mode == length::Drops::Effective)
            throw std::invalid_argument("drops 'effective' needs the tsume-rule LengthSearch as its oracle");
        if (oracle.is_none()) {
            search_ = std::make_unique<length::LengthSearch>(int(attacker_), static_cast<std::size_t>(memory_mb),
                                                             static_cast<std::size_t>(oracle_mb), distance_rule, looks);
            search_->restrict_drops(mode, nullptr);
            return;
        }
        // The solve's df-pn as the oracle: its table (the root's proof) is shared, not searched again.
        // Its table holds raw-rule facts of positions, true whatever root it searched, as long as
        // the same side attacks.
        SharedSearch shared = share_search(oracle);
        if (shared.running->load()) throw std::runtime_error("the oracle search is running");
        if (shared.attacker != int(attacker_))
            throw std::invalid_argument("the oracle search has the other side attacking");
        oracle_running_ = shared.running;
        search_ = std::make_unique<length::LengthSearch>(int(attacker_), static_cast<std::size_t>(memory_mb),
                                                         std::move(shared.searcher), distance_rule, looks);
        search_->restrict_drops(mode, nullptr);
    }

    // (answer, ) of "mate within n plies under tsume rules?" for the position `sfen`.
    std::string question(const std::string& sfen, bool or_node, int n, std::uint64_t nodes, double stop_seconds,
                         std::uint64_t pause_nodes, std::uint64_t pause_work) {
        check_bound(n, "n");
        auto pos = position(sfen, or_node);
        Guard guard(*this);   // first: the counts below are read while no call of the oracle runs
        const length::CallLimits lim = limits_of(nodes, stop_seconds, pause_nodes, pause_work);
        length::Answer a;
        {
            py::gil_scoped_release release;
            a = search_->question(*pos, or_node, n, lim);
        }
        return answer_name(a);
    }

    std::tuple<std::string, int> exact(const std::string& sfen, bool or_node, int cap, std::uint64_t nodes,
                                       double stop_seconds, std::uint64_t pause_nodes, std::uint64_t pause_work) {
        check_bound(cap, "cap");
        auto pos = position(sfen, or_node);
        Guard guard(*this);   // first: the counts below are read while no call of the oracle runs
        const length::CallLimits lim = limits_of(nodes, stop_seconds, pause_nodes, pause_work);
        length::Answer a;
        int value = -1;
        {
            py::gil_scoped_release release;
            a = search_->exact(*pos, or_node, cap, lim, value);
        }
        return {answer_name(a), a == length::Answer::Yes ? value : -1};
    }

    // (answer, real defences, [(square, drops, omitted, test SFENs), ...]) of a defender position.
    py::tuple defences(const std::string& sfen, int value, std::uint64_t nodes, double stop_seconds,
                       std::uint64_t pause_nodes, std::uint64_t pause_work) {
        check_bound(value, "value");
        if (search_->drops() != length::Drops::Judged)
            throw std::invalid_argument("a search of the restricted game judges no drop: defences come from a tsume-rule search");
        auto pos = position(sfen, false);
        Guard guard(*this);   // first: the counts below are read while no call of the oracle runs
        const length::CallLimits lim = limits_of(nodes, stop_seconds, pause_nodes, pause_work);
        length::DefencesOut out;
        length::Answer a;
        {
            py::gil_scoped_release release;
            a = search_->defences(*pos, value, lim, out);
        }
        py::list real, futile;
        for (Move m : out.real) real.append(move_to_usi(m));
        for (const length::FutileOut& f : out.futile) {
            py::list drops;
            for (Move m : f.moves) drops.append(move_to_usi(m));
            futile.append(py::make_tuple(f.square, drops, f.omitted, f.tests));
        }
        return py::make_tuple(answer_name(a), real, futile);
    }

    // 'judged' (the tsume rules), 'none' or 'effective' (the restricted game), 'all' (raw rules):
    // length_search.h.
    std::string drops() const {
        switch (search_->drops()) {
            case length::Drops::None: return "none";
            case length::Drops::Effective: return "effective";
            case length::Drops::All: return "all";
            default: return "judged";
        }
    }

    // One slice of the raw df-pn of the root: 'proven', 'disproven' or 'unknown'.
    std::string prove_root(std::uint64_t nodes, double seconds) {
        const length::CallLimits lim = call_limits(nodes, seconds);
        Guard guard(*this);
        dfpn::Outcome o;
        {
            py::gil_scoped_release release;
            o = search_->prove_root(*root_, lim);
        }
        return o == dfpn::Outcome::Proven ? "proven" : o == dfpn::Outcome::Disproven ? "disproven" : "unknown";
    }

    // The raw df-pn's table for `sfen`: (pn, dn, proof length or -1, proving move or '').
    std::tuple<std::uint64_t, std::uint64_t, int, std::string> oracle_probe(const std::string& sfen) {
        auto pos = position(sfen, std::nullopt);
        std::uint64_t pn = 1, dn = 1;
        int length = -1;
        Move m = MOVE_NONE;
        search_->oracle_probe(*pos, pos->side_to_move() == attacker_, pn, dn, length, m);
        return {pn, dn, length, m == MOVE_NONE ? std::string() : move_to_usi(m)};
    }

    std::tuple<std::vector<std::string>, bool> oracle_line(std::uint64_t nodes, double seconds) {
        const length::CallLimits lim = call_limits(nodes, seconds);
        Guard guard(*this);
        bool complete = false;
        std::vector<Move> line;
        {
            py::gil_scoped_release release;
            line = search_->oracle_line(*root_, complete, lim);
        }
        std::vector<std::string> out;
        for (Move m : line) out.push_back(move_to_usi(m));
        return {out, complete};
    }

    // The raw df-pn's progress, as DfPnSearch.snapshot() gives it.
    py::tuple oracle_snapshot() const {
        return snapshot_tuple(search_->oracle_snapshot());
    }

    // (lo, hi, best move or '') of `sfen` in the table; INFINITY-like bounds come back as -1.
    std::tuple<int, int, std::string> bounds(const std::string& sfen) {
        auto pos = position(sfen, std::nullopt);
        Guard guard(*this);
        int lo = 0, hi = 0;
        Move best = MOVE_NONE;
        search_->bounds(*pos, lo, hi, best);
        return {lo >= length::kLenInf ? -1 : lo, hi >= length::kLenInf ? -1 : hi,
                best == MOVE_NONE ? std::string() : move_to_usi(best)};
    }

    // The smallest bound at which drop square `square` (0-80) of `sfen` was judged futile, -1: never.
    int futile_from(const std::string& sfen, int square) {
        if (square < 0 || square >= 81) throw py::value_error("square must be 0-80, got " + std::to_string(square));
        auto pos = position(sfen, std::nullopt);
        Guard guard(*this);
        const int n = search_->futile_from(*pos, square);
        return n >= length::kLenInf ? -1 : n;
    }

    void cancel() { search_->cancel(); }
    void clear_cancel() {
        Guard guard(*this);
        search_->clear_cancel();
    }
    // While a call of this search, of the search it shares its oracle with, or of the oracle's
    // DfPnSearch runs (on another thread: the interpreter lock is released), these read the counts
    // the search published; between calls, the exact ones.
    std::uint64_t nodes() const { return busy() ? search_->published_nodes() : search_->nodes(); }
    std::uint64_t oracle_nodes() const { return busy() ? search_->oracle_published_nodes() : search_->oracle_nodes(); }
    std::uint64_t futility_tests() const {
        return busy() ? search_->published_futility_tests() : search_->futility_tests();
    }
    std::size_t entries() const { return busy() ? search_->published_entries() : search_->entries(); }
    std::size_t capacity() const { return busy() ? search_->published_capacity() : search_->capacity(); }
    // The rest are read between calls.
    std::uint64_t questions() const { return search_->questions(); }
    std::uint64_t nested_lower_refutations() const { return search_->nested_lower_refutations(); }
    std::uint64_t futility_nodes() const { return search_->futility_nodes(); }
    std::uint64_t squares_unjudged() const { return search_->squares_unjudged(); }
    std::size_t collections() const { return search_->collections(); }
    int attacker() const { return int(attacker_); }

private:
    length::CallLimits limits_of(std::uint64_t nodes, double stop_seconds, std::uint64_t pause_nodes,
                                 std::uint64_t pause_work) const {
        const std::uint64_t now = search_->nodes();
        return call_limits(nodes, stop_seconds, pause_nodes, now, pause_work,
                           now + search_->oracle_nodes());
    }

    bool busy() const {
        return running_.load() || (peer_running_ != nullptr && peer_running_->load()) ||
               (oracle_running_ && oracle_running_->load());
    }

    struct Guard {
        // This object's flag, and the shared oracle's (its DfPnSearch may not run meanwhile).
        // A restricted game's search also holds the length search it shares its oracle with (whose
        // verdicts it may read).
        explicit Guard(LengthSearchBinding& s) : self(s) {
            if (self.running_.exchange(true)) throw std::runtime_error("this search is already running");
            if (self.peer_running_ != nullptr && self.peer_running_->exchange(true)) {
                self.running_.store(false);
                throw std::runtime_error("the oracle search is running");
            }
            if (self.oracle_running_ && self.oracle_running_->exchange(true)) {
                if (self.peer_running_ != nullptr) self.peer_running_->store(false);
                self.running_.store(false);
                throw std::runtime_error("the oracle search is running");
            }
        }
        ~Guard() {
            if (self.oracle_running_) self.oracle_running_->store(false);
            if (self.peer_running_ != nullptr) self.peer_running_->store(false);
            self.running_.store(false);
        }
        LengthSearchBinding& self;
    };

    static void check_bound(int n, const char* name) {
        if (n < 0 || n > length::kMaxQuestion)
            throw std::invalid_argument(std::string(name) + " must be between 0 and " + std::to_string(length::kMaxQuestion) +
                                        ", got " + std::to_string(n));
    }

    static void check_position(const Position& pos) {
        const Color us = pos.side_to_move();
        const Square their_king = pos.king_square(~us);
        if (their_king != SQ_NONE && !pos.attackers_to(us, their_king).empty())
            throw std::invalid_argument("the side not to move is in check: not a position to search");
        for (int c = 0; c < COLOR_NB; ++c)
            for (int pt = PAWN; pt <= GOLD; ++pt)
                if (tsume::hand_count(pos.hand(Color(c)), PieceType(pt)) > dfpn::hand_capacity(dfpn::kHandKindOf[pt]))
                    throw std::invalid_argument("a hand holds more pieces of one kind than a game has");
    }

    // A position of this problem: parsed, checked, the same material as the root, and (when
    // or_node is given) the attacker to move exactly for an OR question.
    std::unique_ptr<Position> position(const std::string& sfen, std::optional<bool> or_node) const {
        auto pos = std::make_unique<Position>(sfen);
        check_position(*pos);
        if (material(*pos) != material_)
            throw std::invalid_argument("not a position of this problem: its pieces differ from the root's");
        if (pos->king_square(~attacker_) == SQ_NONE) throw std::invalid_argument("the defender has no king");
        if (or_node && (*or_node != (pos->side_to_move() == attacker_)))
            throw std::invalid_argument(*or_node ? "an attacker question needs the attacker to move"
                                                 : "a defender question needs the defender to move");
        return pos;
    }

    std::unique_ptr<Position> root_;
    Color attacker_ = BLACK;
    std::array<int, PIECE_TYPE_NB> material_{};
    std::unique_ptr<length::LengthSearch> search_;
    std::atomic<bool> running_{false};
    std::shared_ptr<std::atomic<bool>> oracle_running_;   // a shared oracle's DfPnSearch's flag
    py::object peer_;                                     // the LengthSearch whose oracle is shared (kept alive)
    std::atomic<bool>* peer_running_ = nullptr;           // its flag
};

}  // namespace

void bind_length(py::module_& m) {
    py::class_<LengthSearchBinding>(m, "LengthSearch",
                                    "The length-aware tsume-rule search of one problem (SFEN, attacker to move), "
                                    "with its table of proved length bounds and its raw df-pn oracle.")
        .def(py::init<const std::string&, long long, long long, bool, int, long long, int, long long,
                      const py::object&, const std::string&, long long>(),
             py::arg("sfen"), py::arg("memory_mb") = 256, py::arg("oracle_mb") = 64, py::arg("distance_rule") = true,
             py::arg("look_from") = 4, py::arg("look_nodes") = 64, py::arg("root_look_from") = 4,
             py::arg("root_look_nodes") = 3000, py::arg("oracle") = py::none(), py::arg("drops") = "judged",
             py::arg("nested_lower_mb") = 0,
             "oracle: a DfPnSearch with the same attacker (the solve's) whose table becomes the raw df-pn's "
             "(shared, not copied; oracle_mb is then unused), or a LengthSearch of the same problem whose raw "
             "df-pn is shared.  drops: 'judged' (the tsume rules), or the restricted game whose 'no mate within n' "
             "bounds the tsume-rule length from below: 'none' (no drop interposition) or 'effective' (only drops "
             "the oracle LengthSearch has judged to count); or 'all', raw rules (every drop counted, no "
             "futility), whose 'no mate within n' is a proof where a depth-bounded df-pn gives none.  "
             "nested_lower_mb: a table of that size for a restricted game ('none') of the search's own that "
             "answers first the 'no' questions of its futility tests (0: none).")
        .def("question", &LengthSearchBinding::question, py::arg("sfen"), py::arg("or_node"), py::arg("n"),
             py::arg("nodes") = 0, py::arg("stop_seconds") = -1.0, py::arg("pause_nodes") = 0, py::arg("pause_work") = 0,
             "'yes'/'no': mate within n plies of sfen under tsume rules; 'paused'/'stopped' at a limit.  A "
             "pause comes after pause_nodes more nodes or pause_work more nodes of the search and its raw df-pn "
             "together, whichever first (0: none).")
        .def("exact", &LengthSearchBinding::exact, py::arg("sfen"), py::arg("or_node"), py::arg("cap"),
             py::arg("nodes") = 0, py::arg("stop_seconds") = -1.0, py::arg("pause_nodes") = 0, py::arg("pause_work") = 0,
             "(answer, length): the exact tsume-rule length when it is at most cap ('yes').")
        .def("defences", &LengthSearchBinding::defences, py::arg("sfen"), py::arg("value"), py::arg("nodes") = 0,
             py::arg("stop_seconds") = -1.0, py::arg("pause_nodes") = 0, py::arg("pause_work") = 0,
             "(answer, counted defences, futile squares) of a defender position at bound value.")
        .def("prove_root", &LengthSearchBinding::prove_root, py::arg("nodes") = 0, py::arg("seconds") = -1.0)
        .def("oracle_probe", &LengthSearchBinding::oracle_probe, py::arg("sfen"))
        .def("oracle_line", &LengthSearchBinding::oracle_line, py::arg("nodes") = 0, py::arg("seconds") = -1.0)
        .def("bounds", &LengthSearchBinding::bounds, py::arg("sfen"))
        .def("futile_from", &LengthSearchBinding::futile_from, py::arg("sfen"), py::arg("square"),
             "The smallest bound at which the drop square was judged futile, -1 when never (no search).")
        .def("oracle_snapshot", &LengthSearchBinding::oracle_snapshot, "The raw df-pn's last published progress.")
        .def("snapshot", &LengthSearchBinding::oracle_snapshot, "The same (as DfPnSearch.snapshot, for a poller).")
        .def("cancel", &LengthSearchBinding::cancel, "Stop the running call (from any thread) within a few ms.")
        .def("clear_cancel", &LengthSearchBinding::clear_cancel,
             "After cancel(): the next call searches on, the tables kept (the shared oracle's cancel cleared too).")
        .def_property_readonly("nodes", &LengthSearchBinding::nodes)
        .def_property_readonly("oracle_nodes", &LengthSearchBinding::oracle_nodes)
        .def_property_readonly("questions", &LengthSearchBinding::questions)
        .def_property_readonly("futility_tests", &LengthSearchBinding::futility_tests)
        .def_property_readonly("nested_lower_refutations", &LengthSearchBinding::nested_lower_refutations)
        .def_property_readonly("futility_nodes", &LengthSearchBinding::futility_nodes)
        .def_property_readonly("squares_unjudged", &LengthSearchBinding::squares_unjudged)
        .def_property_readonly("entries", &LengthSearchBinding::entries)
        .def_property_readonly("capacity", &LengthSearchBinding::capacity)
        .def_property_readonly("collections", &LengthSearchBinding::collections)
        .def_property_readonly("attacker", &LengthSearchBinding::attacker)
        .def_property_readonly("drops", &LengthSearchBinding::drops)
        .def_property_readonly_static("max_question", [](py::object) { return length::kMaxQuestion; });
}

}  // namespace tsume
