// The Python binding of the kernel's df-pn (pybind11): `DfPnSearch`, registered into the kernel
// module by bind_search().  Type conversion and input checks only; the search runs with the
// interpreter lock released and never calls into Python, and another thread reads its progress
// through snapshot() while it runs.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <atomic>
#include <cmath>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "bind_search.h"
#include "dfpn.h"
#include "search_board.h"

namespace py = pybind11;

namespace tsume {

namespace {

using dfpn::Outcome;
using Search = dfpn::Searcher<dfpn::SearchBoard>;

constexpr std::size_t kMaxMemoryMb = std::size_t{1} << 20;   // 1 TB: anything above is a typo

dfpn::DelayMode delay_arg(const std::string& delay) {
    if (delay == "far") return dfpn::DelayMode::Far;
    if (delay == "all") return dfpn::DelayMode::All;
    if (delay == "off") return dfpn::DelayMode::Off;
    if (delay == "hand") return dfpn::DelayMode::Hand;
    throw std::invalid_argument("unknown delay mode '" + delay.substr(0, 20) + "': expected one of far, all, hand, off");
}

const char* outcome_name(Outcome o) {
    switch (o) {
        case Outcome::Proven: return "proven";
        case Outcome::Disproven: return "disproven";
        default: return "unknown";
    }
}

dfpn::SearchLimits limits_arg(std::uint64_t nodes, double seconds, bool cpu_time) {
    if (std::isnan(seconds)) throw std::invalid_argument("seconds must be a number, not NaN");
    dfpn::SearchLimits lim;
    lim.nodes = nodes;
    lim.seconds = seconds;
    lim.cpu_time = cpu_time;
    return lim;
}

// `sfen` into `pos`, refused (ValueError) when df-pn cannot search it.
void set_position(Position& pos, const std::string& sfen) {
    pos.set(sfen);   // std::invalid_argument (ValueError) with the reason on a bad SFEN
    const Color us = pos.side_to_move();
    const Square their_king = pos.king_square(~us);
    if (their_king != SQ_NONE && !pos.attackers_to(us, their_king).empty())
        throw std::invalid_argument("the side not to move is in check: not a position to search");
    for (int c = 0; c < COLOR_NB; ++c)
        for (int pt = PAWN; pt <= GOLD; ++pt)
            if (tsume::hand_count(pos.hand(Color(c)), PieceType(pt)) > dfpn::hand_capacity(dfpn::kHandKindOf[pt]))
                throw std::invalid_argument("a hand holds more pieces of one kind than a game has");
}

class DfPnSearch {
public:
    DfPnSearch(const std::string& sfen, long long memory_mb, bool mate1, bool dominance, bool tca, bool rps,
               double epsilon, int max_ply, const std::string& delay, bool mate3, bool play_checks)
        : pos_(std::make_unique<Position>()) {
        if (memory_mb < 1 || static_cast<unsigned long long>(memory_mb) > kMaxMemoryMb)
            throw std::invalid_argument("memory must be between 1 MB and 1 TB, got " + std::to_string(memory_mb));
        if (!std::isfinite(epsilon) || epsilon < 0.0 || epsilon > 100.0)
            throw std::invalid_argument("epsilon must be between 0 and 100, got " + std::to_string(epsilon));
        if (max_ply < 1 || max_ply > MAX_PLY - 64)
            throw std::invalid_argument("max_ply must be between 1 and " + std::to_string(MAX_PLY - 64) + ", got " +
                                        std::to_string(max_ply));
        dfpn::Options opt;
        opt.mate1 = mate1;
        opt.mate3 = mate3;
        opt.play_checks = play_checks;
        opt.dominance = dominance;
        opt.tca = tca;
        opt.rps = rps;
        opt.epsilon = epsilon;
        opt.max_ply = max_ply;
        opt.delay = delay_arg(delay);
        set_position(*pos_, sfen);
        const Color us = pos_->side_to_move();
        attacker_ = us;
        dominance_ = opt.dominance;
        board_ = std::make_unique<dfpn::SearchBoard>(*pos_);
        search_ = std::make_shared<Search>(int(us), static_cast<std::size_t>(memory_mb), opt);
    }

    // The searcher and its table for another search (the length search's oracle), with this
    // object's running flag, which both hold while they search.
    SharedSearch share() const { return SharedSearch{search_, running_, int(attacker_)}; }

    std::string run(std::uint64_t nodes, double seconds, bool cpu_time) {
        const dfpn::SearchLimits lim = limits_arg(nodes, seconds, cpu_time);
        Guard guard(*this);
        Outcome o;
        {
            py::gil_scoped_release release;
            o = search_->search(*board_, true, lim);
        }
        return outcome_name(o);
    }

    // Another position searched into the same table (the attacker stays the root's): with
    // `or_node` the attacker is to move, else the defender.  Returns the outcome as run().
    std::string search_position(const std::string& sfen, bool or_node, std::uint64_t nodes, double seconds,
                                bool cpu_time) {
        const dfpn::SearchLimits lim = limits_arg(nodes, seconds, cpu_time);
        Guard guard(*this);
        other_position(sfen, or_node);
        dfpn::SearchBoard board(*scratch_);
        Outcome o;
        {
            py::gil_scoped_release release;
            o = search_->search(board, or_node, lim);
        }
        return outcome_name(o);
    }

    // The table entry that answers a position (hand dominance as the search uses it), or None:
    // (pn, dn, proof length or -1, proving move in USI or "" ).  The move is an OR node's.
    py::object probe(const std::string& sfen) {
        Guard guard(*this);
        const bool or_node = other_position(sfen, std::nullopt);
        const std::uint64_t key = scratch_->board_key();
        const dfpn::PHand hand = dfpn::packed_hand(scratch_->hand(attacker_));
        const dfpn::TranspositionTable& tt = search_->table();
        const dfpn::TTEntry* e = dominance_ ? tt.probe(key, hand) : tt.probe_exact(key, hand);
        if (e == nullptr) return py::none();
        const int length = e->length == dfpn::kNoLength ? -1 : int(e->length);
        std::string move;
        if (or_node && e->pn == 0 && e->move != 0) {
            const Move m = Move(e->move);
            if (tsume::is_legal(*scratch_, m)) move = move_to_usi(m);
        }
        return py::make_tuple(dfpn::from32(e->pn), dfpn::from32(e->dn), length, move);
    }

    // The table's filter of boards with a verdict (tt.h), kept from now on, and its answer for a
    // position: false means the table holds no verdict on its board.
    void track_decided() {
        Guard guard(*this);
        search_->track_decided();
    }
    bool may_be_decided(const std::string& sfen) {
        Guard guard(*this);
        other_position(sfen, std::nullopt);
        return search_->table().may_be_decided(scratch_->board_key());
    }

    // df-pn's line, searched on where the table does not answer it to mate; `nodes` and
    // `seconds` bound that extra search (0 / negative: none).  Returns (moves, complete).
    std::tuple<std::vector<std::string>, bool> principal_variation(std::uint64_t nodes, double seconds,
                                                                   bool cpu_time) {
        dfpn::SearchLimits lim = limits_arg(nodes, seconds, cpu_time);
        Guard guard(*this);
        std::vector<Move> line;
        bool complete = false;
        {
            py::gil_scoped_release release;
            if (lim.nodes != 0) lim.nodes += search_->nodes();
            line = search_->principal_variation(*board_, complete, lim);
        }
        std::vector<std::string> out;
        out.reserve(line.size());
        for (Move m : line) out.push_back(move_to_usi(m));
        return {out, complete};
    }

    void cancel() { search_->cancel(); }
    // A stopped search may be resumed: the next run() searches on with the table kept.
    void clear_cancel() {
        Guard guard(*this);
        search_->clear_cancel();
    }

    void clear_table() {
        Guard guard(*this);
        search_->clear_table();
    }

    // (nodes, root pn, root dn, table entries, table fill, CPU seconds,
    //  [(selected child, OR node, [(move, pn, dn), ...]), ...] along the current path)
    py::tuple snapshot() const {
        return snapshot_tuple(search_->snapshot());
    }

    bool running() const { return running_->load(); }
    std::uint64_t nodes() const { return running() ? search_->published_nodes() : search_->nodes(); }
    std::size_t entries() const { return running() ? search_->snapshot().entries : search_->table().entries(); }
    std::size_t peak_entries() const { return running() ? entries() : search_->table().peak_entries(); }
    std::size_t capacity() const { return search_->table().capacity(); }
    std::size_t collections() const { return running() ? 0 : search_->table().collections(); }
    double cpu_seconds() const { return running() ? search_->snapshot().cpu_seconds : search_->cpu_seconds(); }
    // Moves played (do_move calls) on this object's boards by every search, line and probe so far:
    // the unit YaneuraOu-based engines count as nodes.  Read between searches only.
    std::uint64_t moves() const {
        if (running()) throw std::runtime_error("moves is read once the search has stopped");
        return pos_->moves_played() + (scratch_ ? scratch_->moves_played() : 0);
    }

private:
    // One search at a time on one object: a second call while one runs is an error, not a race.
    struct Guard {
        explicit Guard(DfPnSearch& s) : self(s) {
            if (self.running_->exchange(true)) throw std::runtime_error("this search is already running");
        }
        ~Guard() { self.running_->store(false); }
        DfPnSearch& self;
    };

    // `sfen` into the scratch position for a probe or a search of another position than the root;
    // `or_node` (when given) says who must be to move.  Returns whether the attacker is to move.
    bool other_position(const std::string& sfen, std::optional<bool> or_node) {
        if (!scratch_) scratch_ = std::make_unique<Position>();
        set_position(*scratch_, sfen);
        const bool attacker_to_move = scratch_->side_to_move() == attacker_;
        if (or_node && *or_node != attacker_to_move)
            throw std::invalid_argument(*or_node ? "an OR node has the attacker to move, and this position has not"
                                                 : "an AND node has the defender to move, and this position has not");
        return attacker_to_move;
    }

    Color attacker_ = BLACK;
    bool dominance_ = true;
    std::unique_ptr<Position> pos_;
    std::unique_ptr<Position> scratch_;   // another position probed or searched (reused: a Position is large)
    std::unique_ptr<dfpn::SearchBoard> board_;
    std::shared_ptr<Search> search_;
    std::shared_ptr<std::atomic<bool>> running_ = std::make_shared<std::atomic<bool>>(false);
};

}  // namespace

SharedSearch share_search(py::handle search) {
    if (!py::isinstance<DfPnSearch>(search)) throw py::type_error("expected a DfPnSearch");
    return search.cast<const DfPnSearch&>().share();
}

py::tuple snapshot_tuple(const dfpn::Snapshot& s) {
    py::list levels;
    for (const dfpn::SnapLevel& lv : s.path) {
        py::list children;
        for (const dfpn::SnapChild& c : lv.children)
            children.append(py::make_tuple(move_to_usi(Move(c.move)), c.pn, c.dn));
        levels.append(py::make_tuple(lv.selected, lv.or_node, children));
    }
    return py::make_tuple(s.nodes, s.root_pn, s.root_dn, s.entries, s.fill, s.cpu_seconds, levels);
}

void bind_search(py::module_& m) {
    py::class_<DfPnSearch>(m, "DfPnSearch",
                           "df-pn for a direct mate from an SFEN (side to move attacks), with its table.")
        .def(py::init<const std::string&, long long, bool, bool, bool, bool, double, int, const std::string&, bool, bool>(),
             py::arg("sfen"), py::arg("memory_mb") = 1024, py::arg("mate1") = true, py::arg("dominance") = true,
             py::arg("tca") = true, py::arg("rps") = true, py::arg("epsilon") = 0.25, py::arg("max_ply") = 4000,
             py::arg("delay") = "hand", py::arg("mate3") = true, py::arg("play_checks") = false)
        .def("run", &DfPnSearch::run, py::arg("nodes") = 0, py::arg("seconds") = -1.0, py::arg("cpu_time") = false,
             "Search until decided or a limit; 'proven', 'disproven' or 'unknown'.  Releases the GIL.")
        .def("principal_variation", &DfPnSearch::principal_variation, py::arg("nodes") = 0,
             py::arg("seconds") = -1.0, py::arg("cpu_time") = false,
             "(moves, complete): the proof line, searched on until it replays to mate.  Releases the GIL.")
        .def("search_position", &DfPnSearch::search_position, py::arg("sfen"), py::arg("or_node"),
             py::arg("nodes") = 0, py::arg("seconds") = -1.0, py::arg("cpu_time") = false,
             "Search another position into the same table (or_node: the attacker is to move).  Releases the GIL.")
        .def("probe", &DfPnSearch::probe, py::arg("sfen"),
             "(pn, dn, proof length or -1, proving move or '') of the entry answering a position, or None.")
        .def("track_decided", &DfPnSearch::track_decided,
             "Keep a filter of the boards the table holds a verdict on (as a length search's raw table does).")
        .def("may_be_decided", &DfPnSearch::may_be_decided, py::arg("sfen"),
             "False when the table holds no verdict on the position's board (by the filter, once tracked).")
        .def("clear_table", &DfPnSearch::clear_table,
             "Empty the table (the search's verdict stays); the next line is searched afresh.")
        .def("cancel", &DfPnSearch::cancel, "Stop the running search (from any thread) within a few ms.")
        .def("clear_cancel", &DfPnSearch::clear_cancel,
             "Forget a cancel, so that the next run() searches on from the table (a stopped search resumed).")
        .def("snapshot", &DfPnSearch::snapshot, "The progress the search last published.")
        .def_property_readonly("nodes", &DfPnSearch::nodes)
        .def_property_readonly("entries", &DfPnSearch::entries)
        .def_property_readonly("peak_entries", &DfPnSearch::peak_entries)
        .def_property_readonly("capacity", &DfPnSearch::capacity)
        .def_property_readonly("collections", &DfPnSearch::collections)
        .def_property_readonly("cpu_seconds", &DfPnSearch::cpu_seconds)
        .def_property_readonly("moves", &DfPnSearch::moves,
                               "Moves played (do_move calls) so far, searches and lines together; between searches only.")
        .def_property_readonly_static("bytes_per_entry",
                                      [](py::object) { return dfpn::TranspositionTable::kBytesPerEntry; });
}

}  // namespace tsume
