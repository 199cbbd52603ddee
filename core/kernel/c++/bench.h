// Timed loops for the benchmarks (CPU time of this process, std::clock).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tsume {

struct PerftResult {
    uint64_t leaves;
    double cpu_seconds;
};
// perft(depth) from sfen, timed.
PerftResult bench_perft(const std::string& sfen, int depth);

struct GenerationResult {
    uint64_t check_positions;   // positions whose checks were generated (attacker to move)
    uint64_t checks;            // checking moves found, summed over rounds
    uint64_t evasion_positions; // positions in check whose evasions were generated
    uint64_t evasions;          // evasions found, summed over rounds
    double check_seconds;       // CPU time in generate_checks
    double evasion_seconds;     // CPU time in generate_evasions
};
// For each sfen (attacker to move): its checks; and for every check, the position after it
// and its evasions.  Each generation is repeated `rounds` times.
GenerationResult bench_generation(const std::vector<std::string>& sfens, int rounds);

// Attack tables against square-by-square attacks on random occupancies, and do/undo against
// recomputation on random play; an empty string when all agree, else the first difference.
std::string self_test(int samples);

}  // namespace tsume
