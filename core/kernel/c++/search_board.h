// The board as df-pn sees it (the adapter dfpn.h's Searcher is instantiated with): the kernel's
// Position and move generation (position.h, movegen.h), with the few questions df-pn asks of a
// move answered in df-pn's own terms (hand kinds in the table's packed order).
#pragma once

#include <cstdint>
#include <cstdlib>
#include <string>
#include <utility>

#include "dfpn_hand.h"
#include "movegen.h"
#include "position.h"

namespace tsume::dfpn {

// Kernel piece type (PAWN .. GOLD) -> the table's hand kind (P L N S G B R); -1 for the rest.
inline constexpr int kHandKindOf[PIECE_TYPE_NB] = {-1, HPawn, HLance, HKnight, HSilver, HBishop, HRook, HGold,
                                                   -1, HPawn, HLance, HKnight, HSilver, HBishop, HRook};

inline PHand packed_hand(Hand h) {
    PHand out = 0;
    for (int pt = PAWN; pt <= GOLD; ++pt)
        out += static_cast<PHand>(tsume::hand_count(h, PieceType(pt))) * hand_unit(kHandKindOf[pt]);
    return out;
}

class SearchBoard {
public:
    using Move = tsume::Move;
    static constexpr int kMaxMoves = MAX_MOVES;

    explicit SearchBoard(Position& pos) : pos_(pos) {}

    Position& position() { return pos_; }
    const Position& position() const { return pos_; }

    PHand hand_of(int color) const { return packed_hand(pos_.hand(Color(color))); }
    // Both hands in one word: with board_key(), what tells one position from another.
    std::uint64_t hands_key() const {
        return static_cast<std::uint64_t>(pos_.hand(BLACK)) | (static_cast<std::uint64_t>(pos_.hand(WHITE)) << 32);
    }
    std::uint64_t board_key() const { return pos_.board_key(); }
    bool in_check() const { return pos_.in_check(); }
    int king_square(int color) const {
        const Square k = pos_.king_square(Color(color));
        return k == SQ_NONE ? -1 : int(k);
    }
    // Moves a search may still make before the position's state stack is full.
    int ply_room() const { return MAX_PLY - pos_.ply(); }

    // The board key after m, without playing it (the same Zobrist sums as Position::do_move).
    std::uint64_t key_after(Move m) const {
        std::uint64_t key = pos_.board_key() ^ ZOBRIST_SIDE;
        const Square to = move_to(m);
        if (is_drop(m)) return key ^ ZOBRIST[make_piece(pos_.side_to_move(), drop_type(m))][to];
        const Square from = move_from(m);
        const Piece pc = pos_.piece_on(from);
        const Piece cap = pos_.piece_on(to);
        if (cap != NO_PIECE) key ^= ZOBRIST[cap][to];
        const Piece moved = tsume::is_promotion(m) ? Piece(pc + PROMOTE) : pc;
        return key ^ ZOBRIST[pc][from] ^ ZOBRIST[moved][to];
    }

    int gen_checks(Move* out) { return copy_out(out, [&](MoveList& ml) { generate_checks(pos_, ml); }); }
    int gen_evasions(Move* out) { return copy_out(out, [&](MoveList& ml) { generate_evasions(pos_, ml); }); }
    Move mate_in_one() { return tsume::mate_in_one(pos_); }
    bool has_evasion() const { return tsume::has_evasion(pos_); }
    void do_move(Move m) { pos_.do_move(m); }
    void undo_move(Move) { pos_.undo_move(); }

    int drop_kind(Move m) const { return is_drop(m) ? kHandKindOf[drop_type(m)] : -1; }
    int captured_kind(Move m) const {
        if (is_drop(m)) return -1;
        const Piece p = pos_.piece_on(move_to(m));
        return p == NO_PIECE ? -1 : kHandKindOf[type_of(p)];
    }
    int to_square(Move m) const { return int(move_to(m)); }
    int from_square(Move m) const { return is_drop(m) ? -1 : int(move_from(m)); }
    bool is_promotion(Move m) const { return tsume::is_promotion(m); }
    // A pawn, bishop or rook that could have promoted on this move and did not.
    bool declines_strong_promotion(Move m, int attacker) const {
        if (is_drop(m) || tsume::is_promotion(m)) return false;
        const PieceType pt = type_of(moved_piece(m));
        if (pt != PAWN && pt != BISHOP && pt != ROOK) return false;
        const Color c = Color(attacker);
        return in_promotion_zone(c, move_to(m)) || in_promotion_zone(c, move_from(m));
    }
    static int distance(int a, int b) {
        const int df = std::abs(a / 9 - b / 9), dr = std::abs(a % 9 - b % 9);
        return df > dr ? df : dr;
    }
    // The df-pn+ estimate of a move's child, (pn, dn) in units of 2, read from the destination
    // square's supports on the board before the move, without playing it: the categories of
    // [KomoringHeights]' estimate, itself after GPS Shogi's liberty estimator.  Pieces bearing on
    // the square count the moving one, and a drop counts as one.  Of a check (`or_node`): a
    // square two or more defenders bear on costs the proof more; a square the attacker
    // outnumbers the defender on costs the defence more; else capturing a gold or silver costs
    // the defence more, and any other check costs the proof more.  Of a defence: a capture, and a
    // move to a square the defender outnumbers the attacker on, are its better tries (dn below
    // pn); a king move is even; any other (an interposition the attacker holds) is poor.
    std::pair<int, int> estimate(Move m, bool or_node) const {
        const Color us = pos_.side_to_move();
        const Square to = move_to(m);
        const bool drop = is_drop(m);
        const auto [ours, theirs] = supports(to);
        const Piece cap = drop ? NO_PIECE : pos_.piece_on(to);
        if (or_node) {
            int pn = 2, dn = 2;
            if (theirs >= 2) pn += 2;
            if (ours + (drop ? 1 : 0) > theirs) {
                dn += 2;
            } else if (cap != NO_PIECE) {
                const PieceType pt = unpromoted(type_of(cap));
                if (pt == GOLD || pt == SILVER) dn += 2; else pn += 2;
            } else {
                pn += 2;
            }
            return {pn, dn};
        }
        if (cap != NO_PIECE) return {4, 2};
        if (!drop && move_from(m) == pos_.king_square(us)) return {2, 2};
        if (theirs < ours + (drop ? 1 : 0)) return {4, 2};
        return {2, 4};
    }
    static std::string usi(Move m) { return move_to_usi(m); }

private:
    // (the side to move's, the other side's) pieces bearing on `to`, remembered per square for
    // the board they were counted on: a node's children share few destination squares (drops of
    // every kind in hand, a move with and without promotion), and its expansion asks of each.
    std::pair<int, int> supports(Square to) const {
        const std::uint64_t key = pos_.board_key();
        if (support_key_[to] != key) {
            const Color us = pos_.side_to_move();
            support_key_[to] = key;
            support_[to][0] = static_cast<std::uint8_t>(pos_.attackers_to(us, to).count());
            support_[to][1] = static_cast<std::uint8_t>(pos_.attackers_to(~us, to).count());
        }
        return {support_[to][0], support_[to][1]};
    }

    template <class Gen>
    int copy_out(Move* out, Gen gen) {
        gen(list_);
        for (int i = 0; i < list_.size; ++i) out[i] = list_.moves[i];
        const int n = list_.size;
        list_.size = 0;
        return n;
    }

    Position& pos_;
    MoveList list_;
    mutable std::uint64_t support_key_[SQ_NB] = {};   // see supports(); the counts only steer the search's order
    mutable std::uint8_t support_[SQ_NB][2] = {};
};

}  // namespace tsume::dfpn
