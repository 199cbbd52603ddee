#include "bench.h"

#include <ctime>
#include <memory>

#include "movegen.h"

namespace tsume {

namespace {
double cpu_now() { return double(std::clock()) / CLOCKS_PER_SEC; }
}  // namespace

PerftResult bench_perft(const std::string& sfen, int depth) {
    auto pos = std::make_unique<Position>();
    pos->set(sfen);
    double t0 = cpu_now();
    uint64_t n = perft(*pos, depth);
    return {n, cpu_now() - t0};
}

GenerationResult bench_generation(const std::vector<std::string>& sfens, int rounds) {
    GenerationResult r{};
    auto pos = std::make_unique<Position>();
    MoveList checks, replies;
    volatile int sink = 0;  // keeps the repeated generations from being optimised away
    for (const std::string& sfen : sfens) {
        pos->set(sfen);
        double t0 = cpu_now();
        for (int i = 0; i < rounds; ++i) {
            checks.size = 0;
            generate_checks(*pos, checks);
            sink = sink + checks.size;
        }
        r.check_seconds += cpu_now() - t0;
        r.check_positions += 1;
        r.checks += uint64_t(checks.size) * uint64_t(rounds);
        for (Move m : checks) {
            pos->do_move(m);
            double t1 = cpu_now();
            for (int i = 0; i < rounds; ++i) {
                replies.size = 0;
                generate_evasions(*pos, replies);
                sink = sink + replies.size;
            }
            r.evasion_seconds += cpu_now() - t1;
            r.evasion_positions += 1;
            r.evasions += uint64_t(replies.size) * uint64_t(rounds);
            pos->undo_move();
        }
    }
    return r;
}

std::string self_test(int samples) {
    uint64_t x = 12345;
    auto rnd = [&x]() {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        return x;
    };
    for (int i = 0; i < samples; ++i) {
        Bitboard occ(rnd() & rnd() & 0x7fffffffffffffffULL, rnd() & rnd() & 0x3ffffULL);
        // The square count (a parallel sum where no popcount instruction is assumed) against
        // the squares counted one by one, on sparse, random and full boards.
        for (const Bitboard& b : {occ, Bitboard(rnd() & 0x7fffffffffffffffULL, rnd() & 0x3ffffULL), ~Bitboard()}) {
            int n = 0;
            for (int s = 0; s < SQ_NB; ++s) n += test(b, Square(s)) ? 1 : 0;
            if (b.count() != n) return "square count differs: " + std::to_string(b.count()) + " for " + std::to_string(n);
        }
        for (int s = 0; s < SQ_NB; ++s)
            for (PieceType pt : {LANCE, BISHOP, ROOK, HORSE, DRAGON})
                for (Color c : {BLACK, WHITE})
                    if (!(attacks_from(pt, c, Square(s), occ) == slow_attacks(pt, c, Square(s), occ)))
                        return "attack table differs: piece type " + std::to_string(pt) + " square " + std::to_string(s);
    }
    auto pos = std::make_unique<Position>();
    for (int game = 0; game < samples; ++game) {
        pos->set("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1");
        std::string start = pos->sfen();
        int plies = 0;
        for (; plies < 200; ++plies) {
            MoveList ml;
            generate_legal(*pos, ml);
            if (ml.size == 0) break;
            pos->do_move(ml.moves[rnd() % uint64_t(ml.size)]);
            if (!pos->consistent()) return "inconsistent after " + move_to_usi(pos->last_move());
        }
        while (pos->can_undo()) {
            pos->undo_move();
            if (!pos->consistent()) return "inconsistent after an undo";
        }
        if (pos->sfen() != start) return "undo did not restore the start";
    }
    return "";
}

}  // namespace tsume
