// 81-square bitboards and attack tables.
//
// Two 64-bit words: word 0 holds squares 0-62 (files 1-7), word 1 squares
// 63-80 (files 8-9) in its bits 0-17.  A file's nine squares are adjacent
// bits of one word, which makes file (lance, rook-vertical) attacks one shift
// and a table look-up.  Rank attacks gather the rank's seven inner squares
// into an index with one multiplication (the bits of a rank are nine apart,
// and the product places each at a distinct bit with no carries); diagonal
// attacks use magic multiplication over the two words merged (a bishop's
// relevant squares never include files 1 and 9, so word 1's bits never meet
// word 0's).  See docs/architecture.md for the measured choice.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>

#include "types.h"

namespace tsume {

struct Bitboard {
    uint64_t p[2];

    constexpr Bitboard() : p{0, 0} {}
    // Left unset, for storage that is written before it is read (a position's state stack).
    struct Unset {};
    explicit Bitboard(Unset) {}
    constexpr Bitboard(uint64_t a, uint64_t b) : p{a, b} {}

    constexpr explicit operator bool() const { return (p[0] | p[1]) != 0; }
    constexpr bool empty() const { return (p[0] | p[1]) == 0; }
    constexpr Bitboard operator&(const Bitboard& o) const { return {p[0] & o.p[0], p[1] & o.p[1]}; }
    constexpr Bitboard operator|(const Bitboard& o) const { return {p[0] | o.p[0], p[1] | o.p[1]}; }
    constexpr Bitboard operator^(const Bitboard& o) const { return {p[0] ^ o.p[0], p[1] ^ o.p[1]}; }
    constexpr Bitboard operator~() const { return {~p[0] & 0x7fffffffffffffffULL, ~p[1] & 0x3ffffULL}; }
    constexpr Bitboard& operator&=(const Bitboard& o) { p[0] &= o.p[0]; p[1] &= o.p[1]; return *this; }
    constexpr Bitboard& operator|=(const Bitboard& o) { p[0] |= o.p[0]; p[1] |= o.p[1]; return *this; }
    constexpr Bitboard& operator^=(const Bitboard& o) { p[0] ^= o.p[0]; p[1] ^= o.p[1]; return *this; }
    constexpr bool operator==(const Bitboard& o) const { return p[0] == o.p[0] && p[1] == o.p[1]; }
    // this & ~o
    constexpr Bitboard andnot(const Bitboard& o) const { return {p[0] & ~o.p[0], p[1] & ~o.p[1]}; }

    // The squares set.  Where the compiler may not assume a popcount instruction (a portable
    // x86-64 build), std::popcount is a library call; the two words' counts then share one
    // parallel sum, their bytes added (at most 16 each) and summed by one multiplication.
    int count() const {
#if defined(__POPCNT__) || defined(__aarch64__) || defined(_M_ARM64)
        return std::popcount(p[0]) + std::popcount(p[1]);
#else
        const auto bytes = [](uint64_t x) {
            x -= (x >> 1) & 0x5555555555555555ULL;
            x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
            return (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
        };
        return int(((bytes(p[0]) + bytes(p[1])) * 0x0101010101010101ULL) >> 56);
#endif
    }
    bool more_than_one() const {
        return (p[0] & (p[0] - 1)) != 0 || (p[1] & (p[1] - 1)) != 0 || (p[0] != 0 && p[1] != 0);
    }
    Square lsb() const {
        return p[0] ? Square(std::countr_zero(p[0])) : Square(63 + std::countr_zero(p[1]));
    }
    Square pop() {
        if (p[0]) {
            Square s = Square(std::countr_zero(p[0]));
            p[0] &= p[0] - 1;
            return s;
        }
        Square s = Square(63 + std::countr_zero(p[1]));
        p[1] &= p[1] - 1;
        return s;
    }
    // The merged word of magic indexing (only valid for masks free of files 1 and 9 overlap).
    constexpr uint64_t merge() const { return p[0] | p[1]; }
};

namespace detail {
constexpr Bitboard compute_square_bb(int s) {
    return s < 63 ? Bitboard(1ULL << s, 0) : Bitboard(0, 1ULL << (s - 63));
}
struct SquareTable {
    Bitboard b[SQ_NB];
    constexpr SquareTable() : b{} {
        for (int s = 0; s < SQ_NB; ++s) b[s] = compute_square_bb(s);
    }
};
// One load where the computation took a comparison and two shifts (filled at compile time).
inline constexpr SquareTable SQUARE_TABLE{};
}  // namespace detail

constexpr Bitboard square_bb(Square s) { return detail::SQUARE_TABLE.b[s]; }
constexpr bool test(const Bitboard& b, Square s) {
    return s < 63 ? ((b.p[0] >> s) & 1) != 0 : ((b.p[1] >> (s - 63)) & 1) != 0;
}
constexpr Bitboard operator|(const Bitboard& b, Square s) { return b | square_bb(s); }

namespace bb {
// Filled once by init() at module load.
extern Bitboard SQUARE[SQ_NB];
extern Bitboard FILE[9];
extern Bitboard RANK[9];
extern Bitboard ALL;
// Ranks where a side's pieces may promote (the far three), and the ranks where a
// pawn or lance / a knight may not stop unpromoted.
extern Bitboard ZONE[COLOR_NB];
extern Bitboard LAST1[COLOR_NB];
extern Bitboard LAST2[COLOR_NB];

extern Bitboard PAWN_ATK[COLOR_NB][SQ_NB];
extern Bitboard KNIGHT_ATK[COLOR_NB][SQ_NB];
extern Bitboard SILVER_ATK[COLOR_NB][SQ_NB];
extern Bitboard GOLD_ATK[COLOR_NB][SQ_NB];
extern Bitboard KING_ATK[SQ_NB];
extern Bitboard LANCE_EMPTY[COLOR_NB][SQ_NB];   // a lance's attack on an empty board
extern Bitboard BISHOP_EMPTY[SQ_NB];
extern Bitboard ROOK_EMPTY[SQ_NB];
extern Bitboard BETWEEN[SQ_NB][SQ_NB];  // squares strictly between two aligned squares, else empty
extern Bitboard LINE[SQ_NB][SQ_NB];     // the whole line through two aligned squares, else empty

extern Bitboard LANCE_TABLE[COLOR_NB][SQ_NB][128];
extern Bitboard FILE_TABLE[SQ_NB][128];
extern Bitboard RANK_TABLE[SQ_NB][128];

// CHECK_CAND[c][k][ksq]: the squares from which a step piece of colour c of kind k (0 pawn,
// 1 knight, 2 silver, 3 gold or a piece that moves like one) can give check to a king on
// ksq in one move, promoting or not: the only such pieces check generation looks at.
extern Bitboard CHECK_CAND[COLOR_NB][4][SQ_NB];

struct Magic {
    Bitboard mask;
    uint64_t magic;
    int shift;
    const Bitboard* attacks;
};
extern Magic BISHOP_MAGIC[SQ_NB];

void init();
}  // namespace bb

// The seven inner squares of s's file in occ, as a 7-bit index.
inline int file_index(const Bitboard& occ, Square s) {
    int f = file_of(s);
    return f < 7 ? int((occ.p[0] >> (f * 9 + 1)) & 0x7f) : int((occ.p[1] >> ((f - 7) * 9 + 1)) & 0x7f);
}

// The seven inner squares of s's rank (files 2-8) in occ, as a 7-bit index.
inline int rank_index(const Bitboard& occ, Square s) {
    int r = rank_of(s);
    constexpr uint64_t SPREAD = (1ULL << 9) | (1ULL << 18) | (1ULL << 27) | (1ULL << 36) | (1ULL << 45) | (1ULL << 54);
    constexpr uint64_t GATHER = (1ULL << 49) | (1ULL << 41) | (1ULL << 33) | (1ULL << 25) | (1ULL << 17) | (1ULL << 9);
    uint64_t low = (((occ.p[0] >> r) & SPREAD) * GATHER) >> 58;
    return int(low | (((occ.p[1] >> r) & 1) << 6));
}

inline Bitboard lance_attacks(Color c, Square s, const Bitboard& occ) { return bb::LANCE_TABLE[c][s][file_index(occ, s)]; }
inline Bitboard rook_file_attacks(Square s, const Bitboard& occ) { return bb::FILE_TABLE[s][file_index(occ, s)]; }
inline Bitboard rook_rank_attacks(Square s, const Bitboard& occ) { return bb::RANK_TABLE[s][rank_index(occ, s)]; }
inline Bitboard rook_attacks(Square s, const Bitboard& occ) { return rook_file_attacks(s, occ) | rook_rank_attacks(s, occ); }
inline Bitboard bishop_attacks(Square s, const Bitboard& occ) {
    const bb::Magic& m = bb::BISHOP_MAGIC[s];
    return m.attacks[((occ & m.mask).merge() * m.magic) >> m.shift];
}
inline Bitboard horse_attacks(Square s, const Bitboard& occ) { return bishop_attacks(s, occ) | bb::KING_ATK[s]; }
inline Bitboard dragon_attacks(Square s, const Bitboard& occ) { return rook_attacks(s, occ) | bb::KING_ATK[s]; }

// The squares a piece of type pt and colour c on s attacks.
TSUME_INLINE Bitboard attacks_from(PieceType pt, Color c, Square s, const Bitboard& occ) {
    switch (pt) {
    case PAWN: return bb::PAWN_ATK[c][s];
    case LANCE: return lance_attacks(c, s, occ);
    case KNIGHT: return bb::KNIGHT_ATK[c][s];
    case SILVER: return bb::SILVER_ATK[c][s];
    case BISHOP: return bishop_attacks(s, occ);
    case ROOK: return rook_attacks(s, occ);
    case GOLD: case PRO_PAWN: case PRO_LANCE: case PRO_KNIGHT: case PRO_SILVER: return bb::GOLD_ATK[c][s];
    case KING: return bb::KING_ATK[s];
    case HORSE: return horse_attacks(s, occ);
    case DRAGON: return dragon_attacks(s, occ);
    default: return Bitboard();
    }
}

inline bool aligned(Square a, Square b, Square c) { return test(bb::LINE[a][b], c); }

// Attacks computed square by square (the reference the tables are checked against).
Bitboard slow_attacks(PieceType pt, Color c, Square s, const Bitboard& occ);

}  // namespace tsume
