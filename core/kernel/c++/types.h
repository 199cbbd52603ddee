// Small value types of the kernel: colours, squares, pieces, moves, hands.
//
// Squares are numbered file-major as cshogi and USI engines do: square
// file * 9 + rank, with file 0 = USI file '1' and rank 0 = USI rank 'a'
// (so 1a = 0, 1i = 8, 2a = 9, 9i = 80).  A move fits in 32 bits and its low
// 16 bits are cshogi's "move16" encoding.  A hand is one 32-bit integer with
// a field per piece kind and a guard bit above each field, so that one
// subtraction compares two hands for dominance.
#pragma once

#include <cstdint>

// Inlined whatever the compiler's own estimate: for the small hot functions (attack tests) whose
// call overhead measured larger than their bodies.
#if defined(_MSC_VER)
#define TSUME_INLINE __forceinline
#elif defined(__GNUC__) || defined(__clang__)
#define TSUME_INLINE inline __attribute__((always_inline))
#else
#define TSUME_INLINE inline
#endif

namespace tsume {

enum Color : int { BLACK = 0, WHITE = 1, COLOR_NB = 2 };
constexpr Color operator~(Color c) { return Color(c ^ 1); }

enum Square : int { SQ_ZERO = 0, SQ_NB = 81, SQ_NONE = 127 };
constexpr Square make_square(int file, int rank) { return Square(file * 9 + rank); }
constexpr int file_of(Square s) { return int(s) / 9; }
constexpr int rank_of(Square s) { return int(s) % 9; }
constexpr bool is_ok(Square s) { return s >= 0 && s < SQ_NB; }

// Rank counted from the side's own far edge: 0 is the promotion row's last rank.
constexpr int relative_rank(Color c, int rank) { return c == BLACK ? rank : 8 - rank; }
constexpr bool in_promotion_zone(Color c, Square s) { return relative_rank(c, rank_of(s)) <= 2; }

enum PieceType : int {
    NO_PIECE_TYPE = 0,
    PAWN = 1, LANCE, KNIGHT, SILVER, BISHOP, ROOK, GOLD, KING,
    PRO_PAWN = 9, PRO_LANCE, PRO_KNIGHT, PRO_SILVER, HORSE, DRAGON,
    PIECE_TYPE_NB = 15,
};
constexpr int PROMOTE = 8;  // PAWN + PROMOTE == PRO_PAWN, ... ROOK + PROMOTE == DRAGON

constexpr bool can_promote(PieceType pt) { return pt >= PAWN && pt <= ROOK; }
constexpr PieceType promoted(PieceType pt) { return PieceType(pt + PROMOTE); }
// The kind a captured piece goes to hand as (kings have none).
constexpr PieceType unpromoted(PieceType pt) { return pt > KING ? PieceType(pt - PROMOTE) : pt; }
// Kinds a hand can hold: PAWN .. GOLD.
constexpr bool is_hand_type(PieceType pt) { return pt >= PAWN && pt <= GOLD; }

// A piece: its type, plus 16 for White.
enum Piece : int { NO_PIECE = 0, PIECE_NB = 32 };
constexpr Piece make_piece(Color c, PieceType pt) { return Piece(pt + (c << 4)); }
constexpr PieceType type_of(Piece p) { return PieceType(p & 15); }
constexpr Color color_of(Piece p) { return Color(p >> 4); }

// A move: bits 0-6 destination, 7-13 origin (a drop: 81 + hand kind - 1), bit 14 promotion,
// bits 16-20 the moving piece (for a drop, the dropped piece).  Bits 0-15 are cshogi's move16.
enum Move : uint32_t { MOVE_NONE = 0 };
constexpr uint32_t MOVE_PROMOTE = 1u << 14;

constexpr Move make_move(Square from, Square to, Piece moved, bool promote) {
    return Move(uint32_t(to) | (uint32_t(from) << 7) | (promote ? MOVE_PROMOTE : 0u) | (uint32_t(moved) << 16));
}
constexpr Move make_drop(PieceType pt, Square to, Color c) {
    return Move(uint32_t(to) | (uint32_t(int(SQ_NB) + int(pt) - 1) << 7) | (uint32_t(make_piece(c, pt)) << 16));
}
constexpr Square move_to(Move m) { return Square(m & 0x7f); }
constexpr Square move_from(Move m) { return Square((m >> 7) & 0x7f); }  // only for board moves
constexpr bool is_drop(Move m) { return ((m >> 7) & 0x7f) >= SQ_NB; }
constexpr bool is_promotion(Move m) { return (m & MOVE_PROMOTE) != 0; }
constexpr PieceType drop_type(Move m) { return PieceType(((m >> 7) & 0x7f) - SQ_NB + 1); }
constexpr Piece moved_piece(Move m) { return Piece((m >> 16) & 0x1f); }
constexpr uint16_t move16(Move m) { return uint16_t(m & 0xffff); }

// A hand: pawns in bits 0-4, lances 8-10, knights 12-14, silvers 16-18, bishops 20-21,
// rooks 24-25, golds 28-30.  The other bits are guards: zero in every valid hand.
enum Hand : uint32_t { HAND_ZERO = 0 };
constexpr int HAND_SHIFT[8] = {0, 0, 8, 12, 16, 20, 24, 28};
constexpr uint32_t HAND_MASK[8] = {0, 0x1f, 0x7, 0x7, 0x7, 0x3, 0x3, 0x7};
constexpr int HAND_MAX[8] = {0, 18, 4, 4, 4, 2, 2, 4};
constexpr uint32_t HAND_BORROW = 0x8cc888e0u;  // the guard bits

constexpr int hand_count(Hand h, PieceType pt) { return int((h >> HAND_SHIFT[pt]) & HAND_MASK[pt]); }
constexpr bool hand_has(Hand h, PieceType pt) { return (h & (HAND_MASK[pt] << HAND_SHIFT[pt])) != 0; }
constexpr Hand hand_add(Hand h, PieceType pt) { return Hand(h + (1u << HAND_SHIFT[pt])); }
constexpr Hand hand_sub(Hand h, PieceType pt) { return Hand(h - (1u << HAND_SHIFT[pt])); }
// True when hand a holds at least as many pieces of every kind as hand b.
constexpr bool hand_dominates(Hand a, Hand b) { return ((uint32_t(a) - uint32_t(b)) & HAND_BORROW) == 0; }

constexpr int MAX_MOVES = 600;  // the most legal moves a shogi position has is 593
constexpr int MAX_PLY = 4096;   // do/undo depth bound (a position's state stack)

// The high 64 bits of a * b: maps a hash key onto [0, b) without a division (table homes).
inline std::uint64_t mul_hi(std::uint64_t a, std::uint64_t b) {
#if defined(__SIZEOF_INT128__)
    return static_cast<std::uint64_t>((static_cast<unsigned __int128>(a) * b) >> 64);
#else
    const std::uint64_t a_lo = a & 0xFFFFFFFFu, a_hi = a >> 32, b_lo = b & 0xFFFFFFFFu, b_hi = b >> 32;
    const std::uint64_t lo_lo = a_lo * b_lo, hi_lo = a_hi * b_lo, lo_hi = a_lo * b_hi, hi_hi = a_hi * b_hi;
    const std::uint64_t cross = (lo_lo >> 32) + (hi_lo & 0xFFFFFFFFu) + lo_hi;
    return hi_hi + (hi_lo >> 32) + (cross >> 32);
#endif
}

}  // namespace tsume
