// Move generation: all legal moves, the defender's evasions, the attacker's
// checking moves; mate in one; perft.
//
// Every generator returns legal moves only, each once, with both the promotion
// and the non-promotion wherever both are legal (a policy that skips
// non-promotions of pawns, bishops and rooks belongs to the search, not here).
// 打ち歩詰め (mate by a pawn drop) is never generated; 二歩 and moves or drops
// that leave a piece with no further move (行き所のない駒) neither.
#pragma once

#include <cstdint>

#include "position.h"

namespace tsume {

struct MoveList {
    Move moves[MAX_MOVES];
    int size = 0;
    void add(Move m) { moves[size++] = m; }
    const Move* begin() const { return moves; }
    const Move* end() const { return moves + size; }
    bool contains(Move m) const {
        for (int i = 0; i < size; ++i)
            if (moves[i] == m) return true;
        return false;
    }
};

// Every legal move (the evasions when the side to move is in check).
void generate_legal(const Position& pos, MoveList& out);
// The legal moves of a side in check; nothing when it is not in check.
void generate_evasions(const Position& pos, MoveList& out);
// The legal moves that give check (direct or discovered); none when the other side has no king.
void generate_checks(const Position& pos, MoveList& out);

// True when the side to move, having dropped a pawn on `to`, would mate (打ち歩詰め).
bool pawn_drop_mates(const Position& pos, Square to);
// True when m is a legal move in pos (any 32-bit value is accepted).
bool is_legal(const Position& pos, Move m);
// True when the side to move is in check and has a legal evasion (stops at the first one found;
// the same answer as generate_evasions' list being non-empty).
bool has_evasion(const Position& pos);
// True when, once the side to move has played m (a check), the other side's king could step to a
// square that no piece of the mover attacks: then m does not mate, and a king step answers it.
// Decided on the board before m (its occupancy and the mover's pieces as m leaves them), so most
// checks that are no mate cost no do/undo.  Exact for the king's steps; the other answers to the
// check are not looked at.
bool king_steps_out_after(const Position& pos, Move m);
// A checking move that mates at once, or MOVE_NONE.
Move mate_in_one(Position& pos);
// The same mate, with every check of the position left in `checks` (generate_checks' list): for a
// caller that needs both, one generation instead of two.
Move mate_in_one(Position& pos, MoveList& checks);
// Leaf count of the legal move tree to `depth`, making and unmaking every move, leaves too.
uint64_t perft(Position& pos, int depth);

}  // namespace tsume
