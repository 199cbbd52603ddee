// Move generation.  A generator works in three steps: the squares a piece may
// go to for the kind of move wanted (any, evading, checking), the pin filter
// (a piece pinned to its own king stays on the pin line), and the promotion
// options of each destination.
#include "movegen.h"

namespace tsume {

namespace {

// Adds the moves of the piece pc (type pt, colour us) from `from` to each square of `targets`,
// promotions and non-promotions as the rules allow.
inline void add_moves(MoveList& out, Color us, PieceType pt, Piece pc, Square from, Bitboard targets) {
    if (!can_promote(pt)) {
        while (targets) out.add(make_move(from, targets.pop(), pc, false));
        return;
    }
    Bitboard promo = in_promotion_zone(us, from) ? targets : targets & bb::ZONE[us];
    while (promo) out.add(make_move(from, promo.pop(), pc, true));
    Bitboard plain = targets;
    if (pt == PAWN || pt == LANCE) plain = plain.andnot(bb::LAST1[us]);
    else if (pt == KNIGHT) plain = plain.andnot(bb::LAST2[us]);
    while (plain) out.add(make_move(from, plain.pop(), pc, false));
}

// Like add_moves, but only the options that land on a checking square: `plain_ok` for the
// piece as it is, `promo_ok` for it promoted.
inline void add_checking_moves(MoveList& out, Color us, PieceType pt, Piece pc, Square from, const Bitboard& targets,
                               const Bitboard& plain_ok, const Bitboard& promo_ok) {
    Bitboard plain = targets & plain_ok;
    if (can_promote(pt)) {
        Bitboard promo = targets & promo_ok;
        if (!in_promotion_zone(us, from)) promo &= bb::ZONE[us];
        while (promo) out.add(make_move(from, promo.pop(), pc, true));
        if (pt == PAWN || pt == LANCE) plain = plain.andnot(bb::LAST1[us]);
        else if (pt == KNIGHT) plain = plain.andnot(bb::LAST2[us]);
    }
    while (plain) out.add(make_move(from, plain.pop(), pc, false));
}

// The squares from which each kind of piece of ours would attack their king.  Plain words,
// not Bitboards: a zero-filled array of them cost a third of generate_checks' time.
struct CheckSquares {
    uint64_t w[PIECE_TYPE_NB][2];  // set for every kind before use
    Bitboard operator[](int pt) const { return Bitboard(w[pt][0], w[pt][1]); }
    void set(int pt, const Bitboard& b) {
        w[pt][0] = b.p[0];
        w[pt][1] = b.p[1];
    }
};

// Files holding an unpromoted pawn of c (no second pawn may be dropped there).
inline Bitboard pawn_files(const Position& pos, Color c) {
    Bitboard pawns = pos.pieces(c, PAWN), out;
    while (pawns) out |= bb::FILE[file_of(pawns.pop())];
    return out;
}

// Drops of every piece in hand onto `targets` (empty squares); `check_sq` limits each kind
// to its checking squares when given (checks), else nullptr.
inline void add_drops(const Position& pos, MoveList& out, Bitboard targets, const CheckSquares* check_sq) {
    const Color us = pos.side_to_move();
    const Hand h = pos.hand(us);
    if (!h) return;
    const Square their_king = pos.king_square(~us);
    for (int p = PAWN; p <= GOLD; ++p) {
        PieceType pt = PieceType(p);
        if (!hand_has(h, pt)) continue;
        Bitboard to = check_sq ? targets & (*check_sq)[pt] : targets;
        if (!to) continue;
        if (pt == PAWN) {
            to = to.andnot(bb::LAST1[us]);
            if (!to) continue;
            if (check_sq) {
                // One square at most checks: only its file's pawns matter.
                if (pos.pieces(us, PAWN) & bb::FILE[file_of(to.lsb())]) continue;
            } else {
                to = to.andnot(pawn_files(pos, us));
            }
            // The one square where a pawn drop checks: 打ち歩詰め is never legal.
            if (their_king != SQ_NONE) {
                Bitboard front = bb::PAWN_ATK[~us][their_king] & to;
                if (front && pawn_drop_mates(pos, front.lsb())) to ^= front;
            }
        } else if (pt == LANCE) {
            to = to.andnot(bb::LAST1[us]);
        } else if (pt == KNIGHT) {
            to = to.andnot(bb::LAST2[us]);
        }
        while (to) out.add(make_drop(pt, to.pop(), us));
    }
}

// The board moves of the side to move, in check by the one piece on `checker`, that capture it or
// step between it and the king on ksq (`between`): visit(from, to) for each, pinned pieces kept
// on their line; stops and returns true as soon as visit does.  Every shogi piece moves exactly
// where it attacks, so the attackers of each such square are the pieces that can go there.
template <class Visit>
inline bool visit_board_answers(const Position& pos, Square ksq, Square checker, const Bitboard& between, Visit visit) {
    const Color us = pos.side_to_move();
    const Bitboard own = pos.pieces(us);
    const Bitboard occ = pos.pieces();
    const Bitboard others = own ^ square_bb(ksq);
    Bitboard pinned;
    bool pins_known = false;
    for (Bitboard targets = between | square_bb(checker); targets;) {
        const Square to = targets.pop();
        Bitboard froms = pos.attackers_to(us, to, occ) & others;
        if (!froms) continue;
        if (!pins_known) {
            pinned = pos.blockers_for_king(us) & own;
            pins_known = true;
        }
        while (froms) {
            const Square from = froms.pop();
            if (test(pinned, from) && !aligned(from, to, ksq)) continue;
            if (visit(from, to)) return true;
        }
    }
    return false;
}

TSUME_INLINE bool king_safe(const Position& pos, Color us, Square to, const Bitboard& occ_without_king) {
    return !pos.attacked(~us, to, occ_without_king);
}

}  // namespace

bool pawn_drop_mates(const Position& pos, Square to) {
    const Color us = pos.side_to_move(), them = ~us;
    const Square ek = pos.king_square(them);
    if (ek == SQ_NONE || !test(bb::PAWN_ATK[us][to], ek)) return false;  // no check, no mate
    const Bitboard occ = pos.pieces() | square_bb(to);
    const Bitboard occ_no_king = occ ^ square_bb(ek);
    // The king takes the pawn unless it is defended.
    if (!pos.attacked(us, to, occ_no_king)) return false;
    // Another piece takes it, unless pinned off the line.
    Bitboard takers = pos.attackers_to(them, to, occ).andnot(square_bb(ek));
    if (takers) {
        const Bitboard pinned = pos.blockers_for_king(them) & pos.pieces(them);
        while (takers) {
            Square s = takers.pop();
            if (!test(pinned, s) || aligned(s, to, ek)) return false;
        }
    }
    // The king steps away.
    Bitboard escapes = bb::KING_ATK[ek].andnot(pos.pieces(them)).andnot(square_bb(to));
    while (escapes)
        if (!pos.attacked(us, escapes.pop(), occ_no_king)) return false;
    return true;
}

void generate_evasions(const Position& pos, MoveList& out) {
    const Bitboard checkers = pos.checkers();
    if (checkers.empty()) return;
    const Color us = pos.side_to_move();
    const Square ksq = pos.king_square(us);
    const Bitboard own = pos.pieces(us);
    const Bitboard occ_no_king = pos.pieces() ^ square_bb(ksq);
    const Piece king = make_piece(us, KING);
    for (Bitboard to = bb::KING_ATK[ksq].andnot(own); to;) {
        Square s = to.pop();
        if (king_safe(pos, us, s, occ_no_king)) out.add(make_move(ksq, s, king, false));
    }
    if (checkers.more_than_one()) return;
    const Square checker = checkers.lsb();
    const Bitboard between = bb::BETWEEN[ksq][checker];
    // Captures of the checker and moves onto the squares between, then drops between.
    visit_board_answers(pos, ksq, checker, between, [&](Square from, Square to) {
        const Piece pc = pos.piece_on(from);
        add_moves(out, us, type_of(pc), pc, from, square_bb(to));
        return false;
    });
    if (between) add_drops(pos, out, between, nullptr);
}

void generate_legal(const Position& pos, MoveList& out) {
    if (pos.in_check()) {
        generate_evasions(pos, out);
        return;
    }
    const Color us = pos.side_to_move();
    const Square ksq = pos.king_square(us);
    const Bitboard own = pos.pieces(us);
    const Bitboard target = ~own;
    const Bitboard occ = pos.pieces();
    const Bitboard pinned = ksq == SQ_NONE ? Bitboard() : pos.blockers_for_king(us) & own;
    Bitboard pieces = own;
    if (ksq != SQ_NONE) {
        pieces ^= square_bb(ksq);
        const Bitboard occ_no_king = occ ^ square_bb(ksq);
        const Piece king = make_piece(us, KING);
        for (Bitboard to = bb::KING_ATK[ksq] & target; to;) {
            Square s = to.pop();
            if (king_safe(pos, us, s, occ_no_king)) out.add(make_move(ksq, s, king, false));
        }
    }
    while (pieces) {
        Square from = pieces.pop();
        Piece pc = pos.piece_on(from);
        PieceType pt = type_of(pc);
        Bitboard to = attacks_from(pt, us, from, occ) & target;
        if (test(pinned, from)) to &= bb::LINE[ksq][from];
        if (to) add_moves(out, us, pt, pc, from, to);
    }
    add_drops(pos, out, ~occ, nullptr);
}

namespace {

// Where a piece of kind pt of the side to move takes f, a free square of the other side's king
// (`them`), by where it lands: it attacks f from there on an empty board (a superset of its
// attacks on the board), or stands on f.
TSUME_INLINE Bitboard takes_free(PieceType pt, Color them, Square f) {
    const Bitboard fb = square_bb(f);
    switch (pt) {
        case PAWN: return bb::PAWN_ATK[them][f] | fb;
        case LANCE: return bb::LANCE_EMPTY[them][f] | fb;
        case KNIGHT: return bb::KNIGHT_ATK[them][f] | fb;
        case SILVER: return bb::SILVER_ATK[them][f] | fb;
        case BISHOP: return bb::BISHOP_EMPTY[f] | fb;
        case ROOK: return bb::ROOK_EMPTY[f] | fb;
        case HORSE: return bb::BISHOP_EMPTY[f] | bb::KING_ATK[f] | fb;
        case DRAGON: return bb::ROOK_EMPTY[f] | bb::KING_ATK[f] | fb;
        case KING: return bb::KING_ATK[f] | fb;
        default: return bb::GOLD_ATK[them][f] | fb;   // gold and the promoted minor pieces
    }
}

// The first squares occupied on each line out of f (their king, on ek, off the board): only a
// piece there can open a line onto f by leaving its square.
TSUME_INLINE Bitboard free_lines(const Position& pos, Square f, Square ek) {
    const Bitboard occ_no_ek = pos.pieces() ^ square_bb(ek);
    return bishop_attacks(f, occ_no_ek) | rook_attacks(f, occ_no_ek);
}

// The checks of generate_checks, in its order; when `free` is a square next to their king, not
// holding one of their pieces, that no piece of ours attacks (their king off the board), leaves
// out checks that cannot mate: a check mates only if it takes that square from the king, and a
// move takes it only by attacking it with the moved piece, by landing on it, or by opening a
// line onto it through the square it leaves (as the only blocker between it and a slider of
// ours; a piece landing anywhere only blocks).  So a drop, or a move of a piece that is not the
// first one met on a line out of `free`, must land where its piece (promoted or not) attacks
// `free` on an empty board, or on `free`.  What is left is a subsequence of the full list that
// holds every mate in it.
void checks_within(const Position& pos, MoveList& out, Square free) {
    const Color us = pos.side_to_move(), them = ~us;
    const Square ek = pos.king_square(them);
    if (ek == SQ_NONE) return;
    if (pos.in_check()) {
        // Rare in tsume (an attacker with a king, in check): evasions that also check.
        MoveList all;
        generate_evasions(pos, all);
        Position& p = const_cast<Position&>(pos);  // do/undo leaves pos as it was
        for (Move m : all)
            if (p.gives_check(m)) out.add(m);
        return;
    }
    const Square ksq = pos.king_square(us);
    const Bitboard own = pos.pieces(us);
    const Bitboard target = ~own;
    const Bitboard occ = pos.pieces();
    const Bitboard pinned = ksq == SQ_NONE ? Bitboard() : pos.blockers_for_king(us) & own;
    const Bitboard discoverers = pos.blockers_for_king(them) & own;
    // check_sq[pt]: the squares from which a piece of ours of type pt attacks their king.
    CheckSquares check_sq;
    const Bitboard gold = bb::GOLD_ATK[them][ek], bishop = bishop_attacks(ek, occ), rook = rook_attacks(ek, occ);
    check_sq.set(NO_PIECE_TYPE, Bitboard());
    check_sq.set(PAWN, bb::PAWN_ATK[them][ek]);
    check_sq.set(LANCE, lance_attacks(them, ek, occ));
    check_sq.set(KNIGHT, bb::KNIGHT_ATK[them][ek]);
    check_sq.set(SILVER, bb::SILVER_ATK[them][ek]);
    check_sq.set(BISHOP, bishop);
    check_sq.set(ROOK, rook);
    check_sq.set(KING, Bitboard());
    for (PieceType pt : {GOLD, PRO_PAWN, PRO_LANCE, PRO_KNIGHT, PRO_SILVER}) check_sq.set(pt, gold);
    check_sq.set(HORSE, bishop | bb::KING_ATK[ek]);
    check_sq.set(DRAGON, rook | bb::KING_ATK[ek]);
    // limited: check_sq cut to the squares that also take the free square f (see above);
    // f_lines: the first squares occupied on each line out of f (their king off the board): only
    // a piece there can open a line onto f by leaving, so only those pieces keep check_sq.
    CheckSquares limited;
    const CheckSquares* lim = &check_sq;
    Bitboard f_lines;
    if (free != SQ_NONE) {
        lim = &limited;
        limited.set(NO_PIECE_TYPE, Bitboard());
        limited.set(KING, Bitboard());
        const Square f = free;
        f_lines = free_lines(pos, f, ek);
        limited.set(PAWN, check_sq[PAWN] & takes_free(PAWN, them, f));
        limited.set(LANCE, check_sq[LANCE] & takes_free(LANCE, them, f));
        limited.set(KNIGHT, check_sq[KNIGHT] & takes_free(KNIGHT, them, f));
        limited.set(SILVER, check_sq[SILVER] & takes_free(SILVER, them, f));
        limited.set(HORSE, check_sq[HORSE] & takes_free(HORSE, them, f));
        limited.set(DRAGON, check_sq[DRAGON] & takes_free(DRAGON, them, f));
        const Bitboard g = gold & takes_free(GOLD, them, f);
        for (PieceType pt : {GOLD, PRO_PAWN, PRO_LANCE, PRO_KNIGHT, PRO_SILVER}) limited.set(pt, g);
        limited.set(BISHOP, bishop & takes_free(BISHOP, them, f));
        limited.set(ROOK, rook & takes_free(ROOK, them, f));
    }

    Bitboard pieces = own;
    if (ksq != SQ_NONE) {
        pieces ^= square_bb(ksq);
        if (test(discoverers, ksq)) {  // the king itself uncovers a check by stepping off the line
            const Bitboard occ_no_king = occ ^ square_bb(ksq);
            const Piece king = make_piece(us, KING);
            for (Bitboard to = (bb::KING_ATK[ksq] & target).andnot(bb::LINE[ek][ksq]); to;) {
                Square s = to.pop();
                if (king_safe(pos, us, s, occ_no_king)) out.add(make_move(ksq, s, king, false));
            }
        }
    }
    // Only pieces that can reach a checking square, or that uncover a check, need looking at:
    // step pieces near the king (CHECK_CAND), every slider, every piece that uncovers a check.
    pieces &= (pos.pieces(PAWN) & bb::CHECK_CAND[us][0][ek]) | (pos.pieces(KNIGHT) & bb::CHECK_CAND[us][1][ek]) |
              (pos.pieces(SILVER) & bb::CHECK_CAND[us][2][ek]) | (pos.golds() & bb::CHECK_CAND[us][3][ek]) |
              pos.pieces(LANCE) | pos.bishops_horses() | pos.rooks_dragons() | discoverers;
    while (pieces) {
        Square from = pieces.pop();
        Piece pc = pos.piece_on(from);
        PieceType pt = type_of(pc);
        Bitboard to = attacks_from(pt, us, from, occ) & target;
        if (test(pinned, from)) to &= bb::LINE[ksq][from];
        if (!to) continue;
        if (test(discoverers, from)) {
            // Leaving the line between their king and our slider checks, whatever the move.
            Bitboard off = to.andnot(bb::LINE[ek][from]);
            if (off) add_moves(out, us, pt, pc, from, off);
            to &= bb::LINE[ek][from];
            if (!to) continue;
        }
        const CheckSquares& cs = test(f_lines, from) ? check_sq : *lim;
        const Bitboard promo_ok = can_promote(pt) ? cs[promoted(pt)] : Bitboard();
        add_checking_moves(out, us, pt, pc, from, to, cs[pt], promo_ok);
    }
    add_drops(pos, out, ~occ, lim);
}

}  // namespace

void generate_checks(const Position& pos, MoveList& out) { checks_within(pos, out, SQ_NONE); }

bool is_legal(const Position& pos, Move m) {
    MoveList all;
    generate_legal(pos, all);
    return all.contains(m);
}

namespace {

// The defender (side to move, in check) answers the check other than by a king step: a capture
// of the single checker, or a move or drop between it and the king.
bool has_capture_or_interposition(const Position& pos) {
    const Bitboard checkers = pos.checkers();
    if (checkers.more_than_one()) return false;
    const Color us = pos.side_to_move();
    const Square ksq = pos.king_square(us);
    const Square checker = checkers.lsb();
    const Bitboard between = bb::BETWEEN[ksq][checker];
    // A piece that attacks a square can always move there (promoted where it must).
    if (visit_board_answers(pos, ksq, checker, between, [](Square, Square) { return true; })) return true;
    if (!between || !pos.hand(us)) return false;
    MoveList drops;   // rare: the drops' own rules (二歩, last ranks) decide
    add_drops(pos, drops, between, nullptr);
    return drops.size != 0;
}

}  // namespace

bool king_steps_out_after(const Position& pos, Move m) {
    const Color us = pos.side_to_move(), them = ~us;
    const Square ek = pos.king_square(them);
    const Square to = move_to(m);
    const Bitboard to_bb = square_bb(to);
    Bitboard occ = pos.pieces() | to_bb;
    // The mover's other pieces: the board does not show the moved piece on `to` yet, so it is
    // left out of the attack test below and its own attacks are taken apart.
    Bitboard others = pos.pieces(us);
    PieceType pt;
    if (is_drop(m)) {
        pt = drop_type(m);
    } else {
        const Square from = move_from(m);
        occ ^= square_bb(from);
        others ^= square_bb(from);
        pt = type_of(pos.piece_on(from));
        if (is_promotion(m)) pt = promoted(pt);
    }
    const Bitboard occ_no_king = occ ^ square_bb(ek);
    // The squares the king may step to: not its own pieces' (a piece captured on `to` is gone),
    // not attacked by the moved piece (through the king's square: it has left it).
    Bitboard steps = bb::KING_ATK[ek].andnot(pos.pieces(them).andnot(to_bb)).andnot(
        attacks_from(pt, us, to, occ_no_king));
    // The checking piece first, where the king can take it: an undefended contact check is the
    // commonest check that does not mate.
    if (steps & to_bb) {
        if (!pos.attacked_by(others, us, to, occ_no_king)) return true;
        steps ^= to_bb;
    }
    while (steps)
        if (!pos.attacked_by(others, us, steps.pop(), occ_no_king)) return true;
    return false;
}

bool has_evasion(const Position& pos) {
    const Bitboard checkers = pos.checkers();
    if (checkers.empty()) return false;
    const Color us = pos.side_to_move();
    const Square ksq = pos.king_square(us);
    const Bitboard own = pos.pieces(us);
    const Bitboard occ_no_king = pos.pieces() ^ square_bb(ksq);
    // The king's steps first: most checks are answered by one.
    for (Bitboard to = bb::KING_ATK[ksq].andnot(own); to;)
        if (king_safe(pos, us, to.pop(), occ_no_king)) return true;
    return has_capture_or_interposition(pos);
}

namespace {

// A free square of their king: next to it, not holding its own piece, attacked by nothing of the
// side to move (with the king off the board, as it would be stepping); SQ_NONE when there is none
// or the side to move is in check.
Square free_square(const Position& pos) {
    const Color us = pos.side_to_move(), them = ~us;
    const Square ek = pos.king_square(them);
    if (ek == SQ_NONE || pos.in_check()) return SQ_NONE;
    const Bitboard mine = pos.pieces(us);
    const Bitboard occ_no_king = pos.pieces() ^ square_bb(ek);
    for (Bitboard s = bb::KING_ATK[ek].andnot(pos.pieces(them)); s;) {
        const Square q = s.pop();
        if (!pos.attacked_by(mine, us, q, occ_no_king)) return q;
    }
    return SQ_NONE;
}

// True when check m mates: no king step out (read off the board), then no capture of the checker
// or interposition once it is played.
bool check_mates(Position& pos, Move m) {
    if (king_steps_out_after(pos, m)) return false;
    pos.do_move(m);
    const bool answered = has_capture_or_interposition(pos);
    pos.undo_move();
    return !answered;
}

}  // namespace

Move mate_in_one(Position& pos) {
    if (pos.king_square(~pos.side_to_move()) == SQ_NONE) return MOVE_NONE;
    // Only the checks that can take the king's free square are generated (checks_within), in the
    // order of generate_checks, so the mate returned is the first one of that list, as if every
    // check had been tried.
    MoveList checks;
    checks_within(pos, checks, free_square(pos));
    for (Move m : checks)
        if (check_mates(pos, m)) return m;
    return MOVE_NONE;
}

Move mate_in_one(Position& pos, MoveList& checks) {
    checks.size = 0;
    generate_checks(pos, checks);
    const Square f = free_square(pos);
    if (f == SQ_NONE) {
        for (Move m : checks)
            if (check_mates(pos, m)) return m;
        return MOVE_NONE;
    }
    // A check mates only if it takes f from the king (see checks_within): the moved piece
    // (promoted or not) attacks f from where it lands (tested on an empty board, a superset), or
    // lands on f, or leaves the first square on a line out of f.  The others are skipped
    // untested, so the mate returned is the first of the whole list, as mate_in_one's.
    const Color them = ~pos.side_to_move();
    const Bitboard f_lines = free_lines(pos, f, pos.king_square(them));
    for (Move m : checks) {
        const Square to = move_to(m);
        bool kept;
        if (is_drop(m)) {
            kept = test(takes_free(drop_type(m), them, f), to);
        } else {
            const Square from = move_from(m);
            const PieceType pt = type_of(pos.piece_on(from));
            kept = test(f_lines, from) || test(takes_free(is_promotion(m) ? promoted(pt) : pt, them, f), to);
        }
        if (kept && check_mates(pos, m)) return m;
    }
    return MOVE_NONE;
}

uint64_t perft(Position& pos, int depth) {
    if (depth <= 0) return 1;
    MoveList moves;
    generate_legal(pos, moves);
    uint64_t total = 0;
    if (depth == 1) {
        for (Move m : moves) {
            pos.do_move(m);
            ++total;
            pos.undo_move();
        }
        return total;
    }
    for (Move m : moves) {
        pos.do_move(m);
        total += perft(pos, depth - 1);
        pos.undo_move();
    }
    return total;
}

}  // namespace tsume
