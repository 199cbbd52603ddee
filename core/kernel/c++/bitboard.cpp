// Attack tables, filled once at module load (bb::init).
#include "bitboard.h"

#include <vector>

namespace tsume {
namespace bb {

Bitboard SQUARE[SQ_NB];
Bitboard FILE[9];
Bitboard RANK[9];
Bitboard ALL;
Bitboard ZONE[COLOR_NB];
Bitboard LAST1[COLOR_NB];
Bitboard LAST2[COLOR_NB];
Bitboard PAWN_ATK[COLOR_NB][SQ_NB];
Bitboard KNIGHT_ATK[COLOR_NB][SQ_NB];
Bitboard SILVER_ATK[COLOR_NB][SQ_NB];
Bitboard GOLD_ATK[COLOR_NB][SQ_NB];
Bitboard KING_ATK[SQ_NB];
Bitboard LANCE_EMPTY[COLOR_NB][SQ_NB];
Bitboard BISHOP_EMPTY[SQ_NB];
Bitboard ROOK_EMPTY[SQ_NB];
Bitboard BETWEEN[SQ_NB][SQ_NB];
Bitboard LINE[SQ_NB][SQ_NB];
Bitboard LANCE_TABLE[COLOR_NB][SQ_NB][128];
Bitboard FILE_TABLE[SQ_NB][128];
Bitboard RANK_TABLE[SQ_NB][128];
Magic BISHOP_MAGIC[SQ_NB];
Bitboard CHECK_CAND[COLOR_NB][4][SQ_NB];

namespace {

std::vector<Bitboard> bishop_table;

struct Delta { int df, dr; };

bool on_board(int f, int r) { return f >= 0 && f < 9 && r >= 0 && r < 9; }

// Squares reached from s stepping by d, stopping after the first occupied square
// (or after one step when `slide` is false).
Bitboard walk(Square s, Delta d, const Bitboard& occ, bool slide) {
    Bitboard out;
    int f = file_of(s) + d.df, r = rank_of(s) + d.dr;
    while (on_board(f, r)) {
        Square t = make_square(f, r);
        out |= square_bb(t);
        if (!slide || test(occ, t)) break;
        f += d.df;
        r += d.dr;
    }
    return out;
}

Bitboard steps(Square s, std::initializer_list<Delta> ds) {
    Bitboard out;
    for (Delta d : ds) out |= walk(s, d, Bitboard(), false);
    return out;
}

Bitboard rays(Square s, std::initializer_list<Delta> ds, const Bitboard& occ) {
    Bitboard out;
    for (Delta d : ds) out |= walk(s, d, occ, true);
    return out;
}

const std::initializer_list<Delta> DIAGONAL = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};
const std::initializer_list<Delta> ORTHOGONAL = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};

// Magic multipliers found by the search below from its fixed seed (taken as they are when
// they check out at start-up, which costs far less than searching again).
const uint64_t BISHOP_MAGICS[SQ_NB] = {
    0xa004080952201224ULL, 0x00880060400c0204ULL, 0x0082444041080802ULL,
    0x00040680848a0000ULL, 0x0009804120100200ULL, 0x0401009200426208ULL,
    0x1800401420820001ULL, 0x440080a241000810ULL, 0x5000b44880401210ULL,
    0x0890014080404008ULL, 0x4108041202090801ULL, 0x200800c040200204ULL,
    0x00000200408a0104ULL, 0x0040890020460100ULL, 0x0112212041020190ULL,
    0x1000009100800820ULL, 0x20004c811008a024ULL, 0x420201200e104049ULL,
    0x0048104142004004ULL, 0x881001004080081cULL, 0x10a0800410202004ULL,
    0x2002008140120364ULL, 0x0001000081200841ULL, 0x00001082c0082080ULL,
    0x2022801002100405ULL, 0x0201000012201108ULL, 0x4400400401421420ULL,
    0x1248090044102010ULL, 0x9044580181042044ULL, 0x03484081010000c8ULL,
    0x0011002002800943ULL, 0x0112408000021001ULL, 0x0800308004160040ULL,
    0x0400204404406010ULL, 0x0500106000041020ULL, 0x0601020601050812ULL,
    0x04a804048022c020ULL, 0x1100440820008010ULL, 0x0600080600201022ULL,
    0x0010010002002004ULL, 0x0101001040002008ULL, 0x0202000281061002ULL,
    0x6800102010810801ULL, 0x1304048030021081ULL, 0x0269002060002081ULL,
    0xa8014824020046a0ULL, 0x1004c08014202040ULL, 0x0080948021000002ULL,
    0x0020400300800002ULL, 0x1014120200c00049ULL, 0x0882000438200004ULL,
    0x40d0002004080003ULL, 0x10221a0059100001ULL, 0x0101008844060004ULL,
    0x2082002010884000ULL, 0xc800082102803000ULL, 0x0402800640371041ULL,
    0x040008410420c000ULL, 0x0200100802080440ULL, 0x0480100110086802ULL,
    0x1010080080010100ULL, 0x0088008410021000ULL, 0x8032030080040241ULL,
    0x0000810020701940ULL, 0x8150804012142108ULL, 0x4812404010164c20ULL,
    0x0312242148102004ULL, 0x8001080000808310ULL, 0x0381008100202c28ULL,
    0x1108900210080801ULL, 0x100200488090a004ULL, 0x012400230064022aULL,
    0x2220108020088a40ULL, 0x0820684002200884ULL, 0x8842384320080209ULL,
    0x0400068010043090ULL, 0x0200400080418148ULL, 0x0301020000204004ULL,
    0x0280800200118006ULL, 0x2320080134400810ULL, 0x0081220120028408ULL,
};

uint64_t rng_state = 0x9e3779b97f4a7c15ULL;
uint64_t rng() {  // xorshift64*: a fixed seed, so the magics are the same on every run
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 2685821657736338717ULL;
}

void init_bishop_magics() {
    std::vector<Square> bits;
    std::size_t total = 0;
    Bitboard masks[SQ_NB];
    for (int s = 0; s < SQ_NB; ++s) {
        Bitboard edges = (FILE[0] | FILE[8] | RANK[0] | RANK[8]).andnot(Bitboard());
        masks[s] = rays(Square(s), DIAGONAL, Bitboard()).andnot(edges);
        total += std::size_t(1) << masks[s].count();
    }
    bishop_table.assign(total, Bitboard());
    std::size_t offset = 0;
    std::vector<Bitboard> occs, atks;
    std::vector<int> epoch;
    for (int s = 0; s < SQ_NB; ++s) {
        Magic& m = BISHOP_MAGIC[s];
        m.mask = masks[s];
        bits.clear();
        for (Bitboard b = m.mask; b;) bits.push_back(b.pop());
        int n = int(bits.size());
        m.shift = 64 - n;
        std::size_t size = std::size_t(1) << n;
        occs.assign(size, Bitboard());
        atks.assign(size, Bitboard());
        for (std::size_t i = 0; i < size; ++i) {
            for (int j = 0; j < n; ++j)
                if (i >> j & 1) occs[i] |= square_bb(bits[j]);
            atks[i] = rays(Square(s), DIAGONAL, occs[i]);
        }
        Bitboard* table = bishop_table.data() + offset;
        epoch.assign(size, 0);
        for (int attempt = 1;; ++attempt) {
            uint64_t magic = attempt == 1 ? BISHOP_MAGICS[s] : rng() & rng() & rng();
            bool ok = true;
            for (std::size_t i = 0; i < size && ok; ++i) {
                std::size_t idx = std::size_t((occs[i].merge() * magic) >> m.shift);
                if (epoch[idx] != attempt) {
                    epoch[idx] = attempt;
                    table[idx] = atks[i];
                } else if (!(table[idx] == atks[i])) {
                    ok = false;
                }
            }
            if (ok) {
                m.magic = magic;
                break;
            }
        }
        m.attacks = table;
        offset += size;
    }
}

}  // namespace

void init() {
    static bool done = false;
    if (done) return;
    done = true;
    for (int s = 0; s < SQ_NB; ++s) SQUARE[s] = square_bb(Square(s));
    for (int i = 0; i < 9; ++i)
        for (int j = 0; j < 9; ++j) {
            FILE[i] |= square_bb(make_square(i, j));
            RANK[j] |= square_bb(make_square(i, j));
        }
    ALL = ~Bitboard();
    ZONE[BLACK] = RANK[0] | RANK[1] | RANK[2];
    ZONE[WHITE] = RANK[6] | RANK[7] | RANK[8];
    LAST1[BLACK] = RANK[0];
    LAST1[WHITE] = RANK[8];
    LAST2[BLACK] = RANK[0] | RANK[1];
    LAST2[WHITE] = RANK[7] | RANK[8];
    for (int si = 0; si < SQ_NB; ++si) {
        Square s = Square(si);
        for (Color c : {BLACK, WHITE}) {
            int fw = c == BLACK ? -1 : 1;
            PAWN_ATK[c][s] = steps(s, {{0, fw}});
            KNIGHT_ATK[c][s] = steps(s, {{1, 2 * fw}, {-1, 2 * fw}});
            SILVER_ATK[c][s] = steps(s, {{0, fw}, {1, fw}, {-1, fw}, {1, -fw}, {-1, -fw}});
            GOLD_ATK[c][s] = steps(s, {{0, fw}, {1, fw}, {-1, fw}, {1, 0}, {-1, 0}, {0, -fw}});
            LANCE_EMPTY[c][s] = walk(s, {0, fw}, Bitboard(), true);
        }
        KING_ATK[s] = steps(s, {{1, 1}, {1, 0}, {1, -1}, {0, 1}, {0, -1}, {-1, 1}, {-1, 0}, {-1, -1}});
        BISHOP_EMPTY[s] = rays(s, DIAGONAL, Bitboard());
        ROOK_EMPTY[s] = rays(s, ORTHOGONAL, Bitboard());
    }
    for (int a = 0; a < SQ_NB; ++a)
        for (int b = 0; b < SQ_NB; ++b) {
            if (a == b) continue;
            int df = file_of(Square(b)) - file_of(Square(a)), dr = rank_of(Square(b)) - rank_of(Square(a));
            if (!(df == 0 || dr == 0 || df == dr || df == -dr)) continue;
            Delta d{(df > 0) - (df < 0), (dr > 0) - (dr < 0)};
            Bitboard occ = square_bb(Square(b));
            BETWEEN[a][b] = walk(Square(a), d, occ, true).andnot(occ);
            LINE[a][b] = walk(Square(a), d, Bitboard(), true) | walk(Square(a), {-d.df, -d.dr}, Bitboard(), true) |
                         square_bb(Square(a));
        }
    for (int si = 0; si < SQ_NB; ++si) {
        Square s = Square(si);
        int f = file_of(s), r = rank_of(s);
        for (int idx = 0; idx < 128; ++idx) {
            Bitboard file_occ, rank_occ;
            for (int i = 0; i < 7; ++i)
                if (idx >> i & 1) {
                    file_occ |= square_bb(make_square(f, i + 1));
                    rank_occ |= square_bb(make_square(i + 1, r));
                }
            for (Color c : {BLACK, WHITE})
                LANCE_TABLE[c][s][idx] = walk(s, {0, c == BLACK ? -1 : 1}, file_occ, true);
            FILE_TABLE[s][idx] = rays(s, {{0, 1}, {0, -1}}, file_occ);
            RANK_TABLE[s][idx] = rays(s, {{1, 0}, {-1, 0}}, rank_occ);
        }
    }
    init_bishop_magics();
    const PieceType KINDS[4] = {PAWN, KNIGHT, SILVER, GOLD};
    for (Color c : {BLACK, WHITE})
        for (int k = 0; k < 4; ++k)
            for (int ksq = 0; ksq < SQ_NB; ++ksq) {
                const PieceType pt = KINDS[k];
                const Bitboard plain = attacks_from(pt, ~c, Square(ksq), Bitboard());
                const Bitboard promo = can_promote(pt) ? GOLD_ATK[~c][ksq] : Bitboard();
                for (int from = 0; from < SQ_NB; ++from) {
                    const Bitboard to = attacks_from(pt, c, Square(from), Bitboard());
                    const Bitboard promo_to = in_promotion_zone(c, Square(from)) ? promo : promo & ZONE[c];
                    if ((to & (plain | promo_to)).empty()) continue;
                    CHECK_CAND[c][k][ksq] |= square_bb(Square(from));
                }
            }
}

}  // namespace bb

Bitboard slow_attacks(PieceType pt, Color c, Square s, const Bitboard& occ) {
    using namespace bb;
    int fw = c == BLACK ? -1 : 1;
    switch (pt) {
    case LANCE: return walk(s, {0, fw}, occ, true);
    case BISHOP: return rays(s, DIAGONAL, occ);
    case ROOK: return rays(s, ORTHOGONAL, occ);
    case HORSE: return rays(s, DIAGONAL, occ) | KING_ATK[s];
    case DRAGON: return rays(s, ORTHOGONAL, occ) | KING_ATK[s];
    default: return attacks_from(pt, c, s, occ);
    }
}

}  // namespace tsume
