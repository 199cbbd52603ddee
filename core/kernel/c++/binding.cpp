// The Python binding (pybind11): type conversion and input checks only.
// Every entry point validates its arguments and raises ValueError; C++ errors
// (std::invalid_argument) become ValueError too.  Long loops release the GIL.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "bench.h"
#include "bind_length.h"  // the length-aware tsume-rule search: LengthSearch
#include "bind_search.h"  // df-pn: DfPnSearch
#include "bitboard.h"
#include "movegen.h"
#include "position.h"

namespace py = pybind11;
using namespace tsume;

namespace {

const char* const START = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

std::string shown(const std::string& s) { return s.size() > 40 ? printable(s.substr(0, 40)) + "..." : printable(s); }

std::vector<std::string> usi_list(const MoveList& ml) {
    std::vector<std::string> out;
    out.reserve(size_t(ml.size));
    for (Move m : ml) out.push_back(move_to_usi(m));
    return out;
}

Color color_arg(int color) {
    if (color != 0 && color != 1) throw std::invalid_argument("color must be 0 (Black) or 1 (White), not " + std::to_string(color));
    return Color(color);
}

class Board {
public:
    explicit Board(const std::string& sfen) : pos_(std::make_unique<Position>(sfen)) {}

    void set_sfen(const std::string& sfen) {
        auto fresh = std::make_unique<Position>(sfen);  // throws before the board changes
        pos_ = std::move(fresh);
    }
    std::string sfen() const { return pos_->sfen(); }
    int turn() const { return pos_->side_to_move(); }
    int ply() const { return pos_->ply(); }
    bool in_check() const { return pos_->in_check(); }
    uint64_t key() const { return pos_->board_key(); }
    uint32_t hand(int color) const { return pos_->hand(color_arg(color)); }
    int hand_count(int color, const std::string& piece) const {
        static const std::string letters = " PLNSBRG";
        if (piece.size() != 1 || piece[0] == ' ' || letters.find(piece[0]) == std::string::npos)
            throw std::invalid_argument("piece must be one of P L N S B R G, not '" + shown(piece) + "'");
        return tsume::hand_count(pos_->hand(color_arg(color)), PieceType(letters.find(piece[0])));
    }
    std::vector<std::string> legal_moves() const { MoveList ml; generate_legal(*pos_, ml); return usi_list(ml); }
    std::vector<std::string> check_moves() const { MoveList ml; generate_checks(*pos_, ml); return usi_list(ml); }
    std::vector<std::string> evasions() const { MoveList ml; generate_evasions(*pos_, ml); return usi_list(ml); }

    Move parse(const std::string& usi) const {
        Move m = usi.size() <= 5 ? pos_->move_from_usi(usi) : MOVE_NONE;
        if (m == MOVE_NONE || !is_legal(*pos_, m))
            throw std::invalid_argument("illegal move '" + shown(usi) + "' in " + pos_->sfen());
        return m;
    }
    bool is_legal_move(const std::string& usi) const {
        Move m = usi.size() <= 5 ? pos_->move_from_usi(usi) : MOVE_NONE;
        return m != MOVE_NONE && is_legal(*pos_, m);
    }
    bool gives_check(const std::string& usi) { return pos_->gives_check(parse(usi)); }
    uint16_t move16(const std::string& usi) const { return tsume::move16(parse(usi)); }
    void push(const std::string& usi) {
        Move m = parse(usi);
        if (pos_->ply() >= MAX_PLY) throw std::invalid_argument("push: more than " + std::to_string(MAX_PLY) + " moves");
        pos_->do_move(m);
    }
    std::string pop() {
        if (!pos_->can_undo()) throw std::invalid_argument("pop: no move to take back");
        std::string usi = move_to_usi(pos_->last_move());
        pos_->undo_move();
        return usi;
    }
    std::optional<std::string> mate_in_one() {
        Move m = mate_in_one_(*pos_);
        if (m == MOVE_NONE) return std::nullopt;
        return move_to_usi(m);
    }
    std::tuple<std::optional<std::string>, std::vector<std::string>> mate_in_one_and_checks() {
        MoveList ml;
        const Move m = tsume::mate_in_one(*pos_, ml);
        return {m == MOVE_NONE ? std::nullopt : std::optional<std::string>(move_to_usi(m)), usi_list(ml)};
    }
    bool is_pawn_drop_mate(const std::string& square) const {
        if (square.size() != 2 || square[0] < '1' || square[0] > '9' || square[1] < 'a' || square[1] > 'i')
            throw std::invalid_argument("square must look like '5e', not '" + shown(square) + "'");
        return pawn_drop_mates(*pos_, make_square(square[0] - '1', square[1] - 'a'));
    }
    uint64_t perft(int depth) {
        if (depth < 0 || depth > 7) throw std::invalid_argument("perft depth must be 0..7");
        return tsume::perft(*pos_, depth);
    }
    bool consistent() const { return pos_->consistent(); }

private:
    static Move mate_in_one_(Position& pos) { return tsume::mate_in_one(pos); }
    std::unique_ptr<Position> pos_;
};

}  // namespace

PYBIND11_MODULE(_kernel, m) {
    m.doc() = "Tsume Studio's C++ board and move generation";
    bb::init();
    init_zobrist();

    py::class_<Board>(m, "Board")
        .def(py::init<const std::string&>(), py::arg("sfen") = START)
        .def("set_sfen", &Board::set_sfen, py::arg("sfen"))
        .def("sfen", &Board::sfen)
        .def_property_readonly("turn", &Board::turn)
        .def_property_readonly("ply", &Board::ply)
        .def("in_check", &Board::in_check)
        .def("key", &Board::key)
        .def("hand", &Board::hand, py::arg("color"))
        .def("hand_count", &Board::hand_count, py::arg("color"), py::arg("piece"))
        .def("legal_moves", &Board::legal_moves)
        .def("check_moves", &Board::check_moves)
        .def("evasions", &Board::evasions)
        .def("is_legal", &Board::is_legal_move, py::arg("usi"))
        .def("gives_check", &Board::gives_check, py::arg("usi"))
        .def("move16", &Board::move16, py::arg("usi"))
        .def("push", &Board::push, py::arg("usi"))
        .def("pop", &Board::pop)
        .def("mate_in_one", &Board::mate_in_one)
        .def("mate_in_one_and_checks", &Board::mate_in_one_and_checks,
             "(mate_in_one(), check_moves()) from one generation of the checks.")
        .def("is_pawn_drop_mate", &Board::is_pawn_drop_mate, py::arg("square"))
        .def("perft", &Board::perft, py::arg("depth"))
        .def("consistent", &Board::consistent)
        .def("__repr__", [](const Board& b) { return "Board('" + b.sfen() + "')"; });

    m.def("hand_dominates", [](uint32_t a, uint32_t b) {
        if ((a & HAND_BORROW) || (b & HAND_BORROW)) throw std::invalid_argument("not a packed hand");
        return hand_dominates(Hand(a), Hand(b));
    }, py::arg("a"), py::arg("b"));
    m.def("bench_perft", [](const std::string& sfen, int depth) {
        if (depth < 0 || depth > 7) throw std::invalid_argument("perft depth must be 0..7");
        (void)std::make_unique<Position>(sfen);  // validates before the GIL is released
        PerftResult r;
        {
            py::gil_scoped_release release;
            r = bench_perft(sfen, depth);
        }
        return py::make_tuple(r.leaves, r.cpu_seconds);
    }, py::arg("sfen"), py::arg("depth"));
    m.def("bench_generation", [](const std::vector<std::string>& sfens, int rounds) {
        if (rounds < 1) throw std::invalid_argument("rounds must be at least 1");
        {
            auto probe = std::make_unique<Position>();
            for (const std::string& s : sfens) probe->set(s);
        }
        GenerationResult r;
        {
            py::gil_scoped_release release;
            r = bench_generation(sfens, rounds);
        }
        py::dict d;
        d["check_positions"] = r.check_positions;
        d["checks"] = r.checks;
        d["evasion_positions"] = r.evasion_positions;
        d["evasions"] = r.evasions;
        d["check_seconds"] = r.check_seconds;
        d["evasion_seconds"] = r.evasion_seconds;
        return d;
    }, py::arg("sfens"), py::arg("rounds"));
    m.def("self_test", [](int samples) {
        if (samples < 0) throw std::invalid_argument("samples must be >= 0");
        py::gil_scoped_release release;
        return self_test(samples);
    }, py::arg("samples") = 100);
    m.attr("MAX_PLY") = MAX_PLY;
    bind_search(m);  // df-pn (bind_search.cpp)
    bind_length(m);  // the tsume-rule length search (bind_length.cpp)
}
