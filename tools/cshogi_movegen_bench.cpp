// cshogi's own C++ move generation, timed as the kernel's bench_generation times its own
// (tools/bench_kernel.py --cshogi BINARY).  Build it against cshogi's C++ sources (src/ of its
// repository or sdist) with cshogi's own release flags, e.g.
//   g++ -std=c++17 -O3 -DNDEBUG -msse4.2 -mavx2 -DHAVE_SSE4 -DHAVE_SSE42 -DHAVE_AVX2 -w -I$CSHOGI/src \
//       tools/cshogi_movegen_bench.cpp $CSHOGI/src/{bitboard,common,generateMoves,hand,init,move,mt64bit,\
//       position,square,usi,book,search,mate,dfpn}.cpp -o cshogi_movegen_bench
// Usage: cshogi_movegen_bench SFEN_FILE ROUNDS (one SFEN a line, the attacker to move).
//
// For each position: CheckAll (cshogi's checks with the non-promotions), then the same with
// its legality filter (the kernel's generate_checks returns legal moves only), and after each
// legal check: Evasion (cshogi's evasions without non-promotions of pawn, bishop and rook) and
// LegalAll (with them: the same set as the kernel's generate_evasions).
#include <ctime>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>
#include "init.hpp"
#include "position.hpp"
#include "generateMoves.hpp"
#include "usi.hpp"

static double cpu() { return double(std::clock()) / CLOCKS_PER_SEC; }

int main(int argc, char** argv) {
    initTable();
    Position::initZobrist();
    int rounds = argc > 2 ? std::atoi(argv[2]) : 100;
    std::ifstream in(argv[1]);
    std::vector<std::string> sfens;
    for (std::string line; std::getline(in, line);) if (!line.empty()) sfens.push_back(line);
    double t_checkall = 0, t_checkall_legal = 0, t_evasion = 0, t_legalall = 0;
    unsigned long long n_checks = 0, n_checkall = 0, n_ev = 0, n_legalall = 0, nodes_or = 0, nodes_and = 0;
    volatile size_t sink = 0;
    for (auto& s : sfens) {
        Position pos;
        pos.set(s);
        double t0 = cpu();
        for (int r = 0; r < rounds; ++r) { MoveList<CheckAll> ml(pos); sink = sink + ml.size(); }
        t_checkall += cpu() - t0;
        std::vector<Move> legal_checks;
        t0 = cpu();
        for (int r = 0; r < rounds; ++r) {
            MoveList<CheckAll> ml(pos);
            const Bitboard pinned = pos.pinnedBB();
            size_t k = 0;
            for (; !ml.end(); ++ml) if (pos.pseudoLegalMoveIsLegal<false, false>(ml.move(), pinned)) { ++k; if (r == 0) legal_checks.push_back(ml.move()); }
            sink = sink + k;
        }
        t_checkall_legal += cpu() - t0;
        { MoveList<CheckAll> ml(pos); n_checkall += ml.size() * rounds; }
        n_checks += legal_checks.size() * rounds;
        nodes_or++;
        for (Move m : legal_checks) {
            StateInfo st;
            pos.doMove(m, st);
            t0 = cpu();
            for (int r = 0; r < rounds; ++r) { MoveList<Evasion> ml(pos); sink = sink + ml.size(); }
            t_evasion += cpu() - t0;
            t0 = cpu();
            for (int r = 0; r < rounds; ++r) { MoveList<LegalAll> ml(pos); sink = sink + ml.size(); }
            t_legalall += cpu() - t0;
            { MoveList<Evasion> a(pos); n_ev += a.size() * rounds; MoveList<LegalAll> b(pos); n_legalall += b.size() * rounds; }
            nodes_and++;
            pos.undoMove(m);
        }
    }
    printf("{\"check_positions\": %llu, \"evasion_positions\": %llu, \"checkall_moves\": %llu, \"legal_checks\": %llu, "
           "\"evasion_moves\": %llu, \"legalall_in_check_moves\": %llu, \"checkall_seconds\": %.4f, "
           "\"checkall_legal_seconds\": %.4f, \"evasion_seconds\": %.4f, \"legalall_in_check_seconds\": %.4f}\n",
           nodes_or, nodes_and, n_checkall, n_checks, n_ev, n_legalall, t_checkall, t_checkall_legal, t_evasion, t_legalall);
}
