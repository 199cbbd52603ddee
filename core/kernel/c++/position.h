// The position: board, hands, side to move; SFEN in and out; do/undo with an
// incrementally kept Zobrist key of the board and side to move (hands are kept
// apart: df-pn keys its table by the board and compares hands by dominance);
// checkers, and pinned pieces on demand.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "bitboard.h"
#include "types.h"

namespace tsume {

struct StateInfo {
    // Left unset: do_move() and set() write a state before anything reads it, and a Position's
    // 4,097 of them (128 KB) are then not all touched each time one is made.
    StateInfo() : checkers(Bitboard::Unset{}) {}
    uint64_t board_key;  // Zobrist of the pieces on the board and the side to move
    Bitboard checkers;   // pieces giving check to the side to move
    Move move;           // the move that led here (MOVE_NONE at the root)
    Piece captured;      // the piece that move captured
};

// The side to move's king square, or SQ_NONE when it has none (tsume attackers).
class Position {
public:
    Position();   // the starting position of an even game
    // The position of `sfen`, without reading the starting position first (as set() would after
    // Position()): what a call from Python that names its position makes.
    explicit Position(std::string_view sfen);
    // Raises std::invalid_argument (a ValueError in Python) with the reason on a bad SFEN.
    void set(std::string_view sfen);
    std::string sfen() const;

    Color side_to_move() const { return side_; }
    Piece piece_on(Square s) const { return board_[s]; }
    Hand hand(Color c) const { return hand_[c]; }
    Square king_square(Color c) const { return king_[c]; }
    Bitboard pieces() const { return occupied_; }
    Bitboard pieces(Color c) const { return by_color_[c]; }
    Bitboard pieces(PieceType pt) const { return by_type_[pt]; }
    Bitboard pieces(Color c, PieceType pt) const { return by_type_[pt] & by_color_[c]; }
    // Unions of kinds that share a way of moving, kept with the rest.
    Bitboard golds() const { return group_[GOLDS]; }           // gold, promoted pawn/lance/knight/silver
    Bitboard kings_horses_dragons() const { return group_[HDK]; }  // one step in all eight directions
    Bitboard bishops_horses() const { return group_[BH]; }     // diagonal sliders
    Bitboard rooks_dragons() const { return group_[RD]; }      // orthogonal sliders

    uint64_t board_key() const { return st_->board_key; }
    Bitboard checkers() const { return st_->checkers; }
    bool in_check() const { return !st_->checkers.empty(); }
    int ply() const { return ply_; }          // moves made since set()
    // Every do_move() since the object was made, set() or not: a search's moves played, the unit
    // in which YaneuraOu-based engines such as KomoringHeights report their `nodes`.
    uint64_t moves_played() const { return moves_played_; }
    int game_ply() const { return start_ply_ + ply_; }  // the SFEN move number
    Move last_move() const { return st_->move; }
    // The board key after each move of the path from set() (index 0 = the root).
    uint64_t key_at(int ply) const { return states_[ply].board_key; }

    // Pieces of c attacking s, with occupancy occ.
    Bitboard attackers_to(Color c, Square s, const Bitboard& occ) const;
    Bitboard attackers_to(Color c, Square s) const { return attackers_to(c, s, occupied_); }
    // Whether any piece of c attacks s, with occupancy occ (stops at the first kind found).
    bool attacked(Color c, Square s, const Bitboard& occ) const;
    // Whether any of the pieces `mine` (all of colour c, as the board shows them) attacks s,
    // with occupancy occ.
    bool attacked_by(const Bitboard& mine, Color c, Square s, const Bitboard& occ) const;
    // Pieces of either colour that alone stand between c's king and an enemy slider.
    Bitboard blockers_for_king(Color c) const;

    // Make and unmake a move.  do_move trusts the move to be legal (see movegen.h: is_legal).
    void do_move(Move m);
    void undo_move();
    bool can_undo() const { return ply_ > 0; }
    bool gives_check(Move m);  // plays the move and takes it back

    // A move read from a USI string, checked only for form and for matching the board
    // (piece present, owner); MOVE_NONE when it cannot be such a move.
    Move move_from_usi(std::string_view usi) const;

    bool consistent() const;  // every incremental field equals its recomputation (tests)

private:
    enum Group { GOLDS, HDK, BH, RD, GROUP_NB };
    void flip(Piece pc, const Bitboard& b);
    void put(Piece pc, Square s);
    void remove(Square s);
    Bitboard compute_checkers() const;

    Piece board_[SQ_NB];
    Bitboard by_color_[COLOR_NB];
    Bitboard by_type_[PIECE_TYPE_NB];
    Bitboard occupied_;
    Bitboard group_[GROUP_NB + 1];   // the last: a scratch slot flip() writes and nothing reads
    Hand hand_[COLOR_NB];
    Square king_[COLOR_NB];
    Color side_;
    int ply_;
    int start_ply_;
    StateInfo* st_;
    uint64_t moves_played_ = 0;
    StateInfo states_[MAX_PLY + 1];
};

inline Bitboard Position::attackers_to(Color c, Square s, const Bitboard& occ) const {
    const Color t = ~c;
    const Bitboard mine = by_color_[c];
    Bitboard b = (bb::PAWN_ATK[t][s] & by_type_[PAWN]) | (bb::KNIGHT_ATK[t][s] & by_type_[KNIGHT]) |
                 (bb::SILVER_ATK[t][s] & by_type_[SILVER]) | (bb::GOLD_ATK[t][s] & golds()) |
                 (bb::KING_ATK[s] & group_[HDK]);
    const Bitboard lances = by_type_[LANCE] & mine;
    if (lances & bb::LANCE_EMPTY[t][s]) b |= lance_attacks(t, s, occ) & lances;
    const Bitboard diag = group_[BH] & mine;
    if (diag & bb::BISHOP_EMPTY[s]) b |= bishop_attacks(s, occ) & diag;
    const Bitboard orth = group_[RD] & mine;
    if (orth & bb::ROOK_EMPTY[s]) b |= rook_attacks(s, occ) & orth;
    return b & mine;
}

TSUME_INLINE bool Position::attacked(Color c, Square s, const Bitboard& occ) const {
    return attacked_by(by_color_[c], c, s, occ);
}

TSUME_INLINE bool Position::attacked_by(const Bitboard& mine, Color c, Square s, const Bitboard& occ) const {
    const Color t = ~c;
    if (((bb::PAWN_ATK[t][s] & by_type_[PAWN]) | (bb::KNIGHT_ATK[t][s] & by_type_[KNIGHT]) |
         (bb::SILVER_ATK[t][s] & by_type_[SILVER]) | (bb::GOLD_ATK[t][s] & golds()) |
         (bb::KING_ATK[s] & group_[HDK])) & mine)
        return true;
    const Bitboard lances = by_type_[LANCE] & mine & bb::LANCE_EMPTY[t][s];
    if (lances && (lance_attacks(t, s, occ) & lances)) return true;
    const Bitboard diag = group_[BH] & mine & bb::BISHOP_EMPTY[s];
    if (diag && (bishop_attacks(s, occ) & diag)) return true;
    const Bitboard orth = group_[RD] & mine & bb::ROOK_EMPTY[s];
    return orth && (rook_attacks(s, occ) & orth);
}

std::string move_to_usi(Move m);
std::string printable(std::string_view text);  // for messages: non-ASCII bytes as \xNN
void init_zobrist();
extern uint64_t ZOBRIST[PIECE_NB][SQ_NB];
extern uint64_t ZOBRIST_SIDE;

}  // namespace tsume
