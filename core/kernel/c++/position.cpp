// SFEN reading and writing with validation; do/undo; attacks to a square; pins.
#include "position.h"

#include <cstring>
#include <stdexcept>
#include <vector>

namespace tsume {

uint64_t ZOBRIST[PIECE_NB][SQ_NB];
uint64_t ZOBRIST_SIDE;

void init_zobrist() {
    uint64_t x = 0x2545f4914f6cdd1dULL;
    auto next = [&x]() {  // splitmix64 from a fixed seed: the same keys in every run
        uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    };
    for (auto& row : ZOBRIST)
        for (auto& k : row) k = next();
    for (int s = 0; s < SQ_NB; ++s) ZOBRIST[NO_PIECE][s] = 0;
    ZOBRIST_SIDE = next();
}

namespace {

const char* const PIECE_LETTERS = " PLNSBRGK";  // by PieceType 1..8

[[noreturn]] void bad(const std::string& why) { throw std::invalid_argument("bad SFEN: " + why); }

}  // namespace

// Input echoed in a message: printable ASCII as it is, other bytes as \xNN (a message must
// be valid UTF-8 to become a Python string, and the input may be cut in a character).
std::string printable(std::string_view text) {
    static const char* const HEX = "0123456789abcdef";
    std::string out;
    for (char ch : text) {
        unsigned char u = static_cast<unsigned char>(ch);
        if (u >= 0x20 && u < 0x7f) {
            out += ch;
        } else {
            out += "\\x";
            out += HEX[u >> 4];
            out += HEX[u & 15];
        }
    }
    return out;
}

namespace {

PieceType type_from_letter(char ch) {
    const char up = (ch >= 'a' && ch <= 'z') ? char(ch - 32) : ch;
    for (int pt = PAWN; pt <= KING; ++pt)
        if (PIECE_LETTERS[pt] == up) return PieceType(pt);
    return NO_PIECE_TYPE;
}

std::string square_name(Square s) {
    return std::string{char('1' + file_of(s)), char('a' + rank_of(s))};
}

std::vector<std::string_view> split(std::string_view s) {
    std::vector<std::string_view> out;
    size_t i = 0;
    while (i < s.size()) {
        while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r')) ++i;
        size_t j = i;
        while (j < s.size() && !(s[j] == ' ' || s[j] == '\t' || s[j] == '\n' || s[j] == '\r')) ++j;
        if (j > i) out.push_back(s.substr(i, j - i));
        if (out.size() > 5) break;  // enough to know the string has too many fields
        i = j;
    }
    return out;
}

}  // namespace

Position::Position() { set("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"); }

Position::Position(std::string_view sfen) { set(sfen); }

namespace {
// The groups each piece type belongs to, at most two: GROUP_NB (a scratch slot never read) fills
// the rest, so that flip() updates two groups whatever the kind, without a test of it.
constexpr int SCRATCH = 4;
constexpr int GROUP_FIRST[PIECE_TYPE_NB] = {SCRATCH, SCRATCH, SCRATCH, SCRATCH, SCRATCH, 2 /*BH*/, 3 /*RD*/,
                                            0 /*GOLDS*/, 1 /*HDK*/, 0, 0, 0, 0, 1 /*HDK*/, 1 /*HDK*/};
constexpr int GROUP_SECOND[PIECE_TYPE_NB] = {SCRATCH, SCRATCH, SCRATCH, SCRATCH, SCRATCH, SCRATCH, SCRATCH,
                                             SCRATCH, SCRATCH, SCRATCH, SCRATCH, SCRATCH, SCRATCH, 2 /*BH*/, 3 /*RD*/};
}  // namespace

// A piece of kind pc appears on or leaves the squares b (colour, kind and groups; not occupancy).
inline void Position::flip(Piece pc, const Bitboard& b) {
    by_color_[color_of(pc)] ^= b;
    const PieceType pt = type_of(pc);
    by_type_[pt] ^= b;
    static_assert(GOLDS == 0 && HDK == 1 && BH == 2 && RD == 3 && GROUP_NB == SCRATCH, "the tables' group numbers");
    group_[GROUP_FIRST[pt]] ^= b;
    group_[GROUP_SECOND[pt]] ^= b;
}

void Position::put(Piece pc, Square s) {
    board_[s] = pc;
    const Bitboard b = square_bb(s);
    flip(pc, b);
    occupied_ ^= b;
}

void Position::remove(Square s) {
    const Piece pc = board_[s];
    board_[s] = NO_PIECE;
    const Bitboard b = square_bb(s);
    flip(pc, b);
    occupied_ ^= b;
}

void Position::set(std::string_view sfen) {
    if (sfen.size() > 256) bad("longer than any position (" + std::to_string(sfen.size()) + " characters)");
    std::vector<std::string_view> f = split(sfen);
    if (!f.empty() && f[0] == "sfen") f.erase(f.begin());
    if (f.size() < 3 || f.size() > 4)
        bad("expected 'board side hands [move number]', got " + std::to_string(f.size()) + " fields");

    Piece board[SQ_NB] = {};
    int kings[COLOR_NB] = {0, 0};
    int material[8] = {};
    Square king_sq[COLOR_NB] = {SQ_NONE, SQ_NONE};
    // The board, rank a to rank i, each from file 9 to file 1.
    int rank = 0, file = 8;
    bool promote = false;
    for (char ch : f[0]) {
        if (ch == '/') {
            if (promote) bad("'+' before '/'");
            if (file != -1) bad("rank " + std::string(1, char('a' + rank)) + " does not have 9 squares");
            if (++rank > 8) bad("more than 9 ranks");
            file = 8;
        } else if (ch >= '1' && ch <= '9') {
            if (promote) bad("'+' before a digit");
            file -= ch - '0';
            if (file < -1) bad("rank " + std::string(1, char('a' + rank)) + " has more than 9 squares");
        } else if (ch == '+') {
            if (promote) bad("'++'");
            promote = true;
        } else {
            PieceType pt = type_from_letter(ch);
            if (pt == NO_PIECE_TYPE) bad("unknown piece letter '" + printable({&ch, 1}) + "'");
            if (file < 0) bad("rank " + std::string(1, char('a' + rank)) + " has more than 9 squares");
            if (promote && !can_promote(pt)) bad(std::string("'+") + ch + "' cannot promote");
            Color c = (ch >= 'a' && ch <= 'z') ? WHITE : BLACK;
            Square s = make_square(file, rank);
            if (promote) pt = promoted(pt);
            board[s] = make_piece(c, pt);
            if (pt == KING) {
                if (++kings[c] > 1) bad(std::string(c == BLACK ? "Black" : "White") + " has two kings");
                king_sq[c] = s;
            } else {
                material[unpromoted(pt)]++;
            }
            int rr = relative_rank(c, rank);
            if ((pt == PAWN || pt == LANCE) && rr == 0)
                bad(std::string(1, ch) + " on " + square_name(s) + " can never move (行き所のない駒)");
            if (pt == KNIGHT && rr <= 1)
                bad(std::string(1, ch) + " on " + square_name(s) + " can never move (行き所のない駒)");
            promote = false;
            --file;
        }
    }
    if (promote) bad("'+' at the end of the board");
    if (rank != 8 || file != -1) bad("the board does not have 9 ranks of 9 squares");
    // Two unpromoted pawns of a side on a file (二歩) are accepted on the board, as composed
    // problems sometimes have them; only a pawn drop onto such a file is refused (movegen).

    Color side;
    if (f[1] == "b") side = BLACK;
    else if (f[1] == "w") side = WHITE;
    else bad("the side to move must be 'b' or 'w', not '" + printable(f[1].substr(0, 20)) + "'");

    Hand hands[COLOR_NB] = {HAND_ZERO, HAND_ZERO};
    if (f[2] != "-") {
        int count = 0, digits = 0;
        for (char ch : f[2]) {
            if (ch >= '0' && ch <= '9') {
                if (++digits > 2 || (digits == 1 && ch == '0')) bad("a bad count in the hands");
                count = count * 10 + (ch - '0');
                continue;
            }
            PieceType pt = type_from_letter(ch);
            if (!is_hand_type(pt)) bad("'" + printable({&ch, 1}) + "' cannot be in hand");
            Color c = (ch >= 'a' && ch <= 'z') ? WHITE : BLACK;
            int n = digits ? count : 1;
            if (n < 1) bad("a count of zero in the hands");
            int have = hand_count(hands[c], pt);
            if (have + n > HAND_MAX[pt]) bad(std::string("more than ") + std::to_string(HAND_MAX[pt]) + " " + ch + " in hand");
            hands[c] = Hand(hands[c] + uint32_t(n) * (1u << HAND_SHIFT[pt]));
            material[pt] += n;
            count = digits = 0;
        }
        if (digits) bad("a count at the end of the hands");
    }
    for (int pt = PAWN; pt <= GOLD; ++pt)
        if (material[pt] > HAND_MAX[pt])
            bad(std::string("more than ") + std::to_string(HAND_MAX[pt]) + " pieces of kind " + PIECE_LETTERS[pt] +
                " on the board and in hand");

    int move_number = 1;
    if (f.size() == 4) {
        std::string_view n = f[3];
        if (n.empty() || n.size() > 7) bad("a bad move number");
        move_number = 0;
        for (char ch : n) {
            if (ch < '0' || ch > '9') bad("the move number must be a number");
            move_number = move_number * 10 + (ch - '0');
        }
        if (move_number < 1) bad("the move number must be at least 1");
    }

    // Commit to the new position.
    std::memset(board_, 0, sizeof(board_));
    for (auto& b : by_color_) b = Bitboard();
    for (auto& b : by_type_) b = Bitboard();
    occupied_ = Bitboard();
    for (auto& b : group_) b = Bitboard();
    for (int s = 0; s < SQ_NB; ++s)
        if (board[s] != NO_PIECE) put(board[s], Square(s));
    hand_[BLACK] = hands[BLACK];
    hand_[WHITE] = hands[WHITE];
    king_[BLACK] = king_sq[BLACK];
    king_[WHITE] = king_sq[WHITE];
    side_ = side;
    ply_ = 0;
    start_ply_ = move_number;
    st_ = states_;
    uint64_t key = side == WHITE ? ZOBRIST_SIDE : 0;
    for (int s = 0; s < SQ_NB; ++s) key ^= ZOBRIST[board_[s]][s];
    st_->board_key = key;
    st_->move = MOVE_NONE;
    st_->captured = NO_PIECE;
    st_->checkers = compute_checkers();
    if (king_[~side] != SQ_NONE && !attackers_to(side, king_[~side]).empty()) {
        // Leave a valid position behind rather than one whose side to move could take a king.
        set("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1");
        bad(std::string("the side not to move (") + (side == BLACK ? "White" : "Black") + ") is in check");
    }
}

std::string Position::sfen() const {
    std::string out;
    for (int r = 0; r < 9; ++r) {
        int empty = 0;
        for (int fl = 8; fl >= 0; --fl) {
            Piece pc = board_[make_square(fl, r)];
            if (pc == NO_PIECE) {
                ++empty;
                continue;
            }
            if (empty) out += char('0' + empty);
            empty = 0;
            PieceType pt = type_of(pc);
            if (pt > KING) out += '+';
            char ch = PIECE_LETTERS[unpromoted(pt)];
            out += color_of(pc) == WHITE ? char(ch + 32) : ch;
        }
        if (empty) out += char('0' + empty);
        if (r < 8) out += '/';
    }
    out += side_ == BLACK ? " b " : " w ";
    std::string hands;
    for (Color c : {BLACK, WHITE})
        for (PieceType pt : {ROOK, BISHOP, GOLD, SILVER, KNIGHT, LANCE, PAWN}) {
            int n = hand_count(hand_[c], pt);
            if (!n) continue;
            if (n > 1) hands += std::to_string(n);
            hands += c == WHITE ? char(PIECE_LETTERS[pt] + 32) : PIECE_LETTERS[pt];
        }
    out += hands.empty() ? "-" : hands;
    out += ' ';
    out += std::to_string(game_ply());
    return out;
}

Bitboard Position::blockers_for_king(Color c) const {
    const Square k = king_[c];
    if (k == SQ_NONE) return Bitboard();
    const Color e = ~c;
    Bitboard snipers = ((bb::LANCE_EMPTY[c][k] & by_type_[LANCE]) | (bb::BISHOP_EMPTY[k] & group_[BH]) |
                        (bb::ROOK_EMPTY[k] & group_[RD])) &
                       by_color_[e];
    Bitboard out;
    while (snipers) {
        Square s = snipers.pop();
        Bitboard between = bb::BETWEEN[k][s] & occupied_;
        if (between && !between.more_than_one()) out |= between;
    }
    return out;
}

Bitboard Position::compute_checkers() const {
    const Square k = king_[side_];
    return k == SQ_NONE ? Bitboard() : attackers_to(~side_, k);
}

void Position::do_move(Move m) {
    ++moves_played_;
    StateInfo* st = st_ + 1;
    const Color us = side_;
    const Square to = move_to(m);
    const Bitboard to_bb = bb::SQUARE[to];
    uint64_t key = st_->board_key ^ ZOBRIST_SIDE;
    st->move = m;
    if (is_drop(m)) {
        const PieceType pt = drop_type(m);
        const Piece pc = make_piece(us, pt);
        hand_[us] = hand_sub(hand_[us], pt);
        board_[to] = pc;
        flip(pc, to_bb);
        occupied_ ^= to_bb;
        key ^= ZOBRIST[pc][to];
        st->captured = NO_PIECE;
    } else {
        const Square from = move_from(m);
        const Bitboard from_bb = bb::SQUARE[from];
        const Piece pc = board_[from];
        const Piece cap = board_[to];
        st->captured = cap;
        if (cap != NO_PIECE) {
            flip(cap, to_bb);
            key ^= ZOBRIST[cap][to];
            hand_[us] = hand_add(hand_[us], unpromoted(type_of(cap)));
            occupied_ ^= from_bb;
        } else {
            occupied_ ^= from_bb | to_bb;
        }
        const Piece moved = is_promotion(m) ? Piece(pc + PROMOTE) : pc;
        if (moved == pc) {
            flip(pc, from_bb | to_bb);
        } else {
            flip(pc, from_bb);
            flip(moved, to_bb);
        }
        board_[from] = NO_PIECE;
        board_[to] = moved;
        key ^= ZOBRIST[pc][from] ^ ZOBRIST[moved][to];
        if (type_of(pc) == KING) king_[us] = to;
    }
    side_ = ~us;
    st->board_key = key;
    st_ = st;
    ++ply_;
    st->checkers = compute_checkers();
}

void Position::undo_move() {
    const Move m = st_->move;
    const Color us = ~side_;
    const Square to = move_to(m);
    const Bitboard to_bb = bb::SQUARE[to];
    side_ = us;
    if (is_drop(m)) {
        const Piece pc = board_[to];
        board_[to] = NO_PIECE;
        flip(pc, to_bb);
        occupied_ ^= to_bb;
        hand_[us] = hand_add(hand_[us], drop_type(m));
    } else {
        const Square from = move_from(m);
        const Bitboard from_bb = bb::SQUARE[from];
        const Piece moved = board_[to];
        const Piece pc = is_promotion(m) ? Piece(moved - PROMOTE) : moved;
        if (moved == pc) {
            flip(pc, from_bb | to_bb);
        } else {
            flip(moved, to_bb);
            flip(pc, from_bb);
        }
        board_[from] = pc;
        if (type_of(pc) == KING) king_[us] = from;
        const Piece cap = st_->captured;
        board_[to] = cap;
        if (cap != NO_PIECE) {
            flip(cap, to_bb);
            hand_[us] = hand_sub(hand_[us], unpromoted(type_of(cap)));
            occupied_ ^= from_bb;
        } else {
            occupied_ ^= from_bb | to_bb;
        }
    }
    --st_;
    --ply_;
}

bool Position::gives_check(Move m) {
    do_move(m);
    bool check = in_check();
    undo_move();
    return check;
}

Move Position::move_from_usi(std::string_view usi) const {
    auto square = [](char f, char r) -> Square {
        if (f < '1' || f > '9' || r < 'a' || r > 'i') return SQ_NONE;
        return make_square(f - '1', r - 'a');
    };
    if (usi.size() == 4 && usi[1] == '*') {
        PieceType pt = type_from_letter(usi[0]);
        Square to = square(usi[2], usi[3]);
        if (!(usi[0] >= 'A' && usi[0] <= 'Z') || !is_hand_type(pt) || to == SQ_NONE) return MOVE_NONE;
        if (!hand_has(hand_[side_], pt) || board_[to] != NO_PIECE) return MOVE_NONE;
        return make_drop(pt, to, side_);
    }
    if (usi.size() != 4 && !(usi.size() == 5 && usi[4] == '+')) return MOVE_NONE;
    Square from = square(usi[0], usi[1]), to = square(usi[2], usi[3]);
    if (from == SQ_NONE || to == SQ_NONE || from == to) return MOVE_NONE;
    Piece pc = board_[from];
    if (pc == NO_PIECE || color_of(pc) != side_) return MOVE_NONE;
    bool promote = usi.size() == 5;
    if (promote && !can_promote(type_of(pc))) return MOVE_NONE;
    return make_move(from, to, pc, promote);
}

bool Position::consistent() const {
    Bitboard color[COLOR_NB], type[PIECE_TYPE_NB], occ;
    uint64_t key = side_ == WHITE ? ZOBRIST_SIDE : 0;
    for (int s = 0; s < SQ_NB; ++s) {
        Piece pc = board_[s];
        if (pc == NO_PIECE) continue;
        color[color_of(pc)] |= square_bb(Square(s));
        type[type_of(pc)] |= square_bb(Square(s));
        occ |= square_bb(Square(s));
        key ^= ZOBRIST[pc][s];
        if (type_of(pc) == KING && king_[color_of(pc)] != Square(s)) return false;
    }
    for (int c = 0; c < 2; ++c)
        if (!(color[c] == by_color_[c])) return false;
    for (int t = 0; t < PIECE_TYPE_NB; ++t)
        if (!(type[t] == by_type_[t])) return false;
    if (!(group_[GOLDS] == (type[GOLD] | type[PRO_PAWN] | type[PRO_LANCE] | type[PRO_KNIGHT] | type[PRO_SILVER])) ||
        !(group_[HDK] == (type[KING] | type[HORSE] | type[DRAGON])) || !(group_[BH] == (type[BISHOP] | type[HORSE])) ||
        !(group_[RD] == (type[ROOK] | type[DRAGON])))
        return false;
    return occ == occupied_ && key == st_->board_key && compute_checkers() == st_->checkers &&
           (hand_[BLACK] & HAND_BORROW) == 0 && (hand_[WHITE] & HAND_BORROW) == 0;
}

std::string move_to_usi(Move m) {
    auto sq = [](Square s) { return std::string{char('1' + file_of(s)), char('a' + rank_of(s))}; };
    if (is_drop(m)) return std::string{PIECE_LETTERS[drop_type(m)], '*'} + sq(move_to(m));
    return sq(move_from(m)) + sq(move_to(m)) + (is_promotion(m) ? "+" : "");
}

}  // namespace tsume
