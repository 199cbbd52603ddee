// Stop conditions of a running search: node limit, wall-clock and CPU deadlines, a cancel flag,
// and the clocks they are measured on.  The CPU clock is the search thread's own
// (CLOCK_THREAD_CPUTIME_ID where POSIX has it, GetThreadTimes on Windows); elsewhere it falls
// back to the process clock (std::clock), which counts every thread of the process.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <ctime>

#if defined(_WIN32)
#define NOMINMAX
#include <windows.h>
#endif

namespace tsume::dfpn {

// CPU seconds spent by the calling thread.
inline double thread_cpu_seconds() {
#if defined(_WIN32)
    FILETIME creation, exit, kernel, user;
    if (GetThreadTimes(GetCurrentThread(), &creation, &exit, &kernel, &user)) {
        const auto to_u64 = [](FILETIME t) {
            return (static_cast<std::uint64_t>(t.dwHighDateTime) << 32) | t.dwLowDateTime;
        };
        return static_cast<double>(to_u64(kernel) + to_u64(user)) * 1e-7;
    }
    return static_cast<double>(std::clock()) / CLOCKS_PER_SEC;
#elif defined(CLOCK_THREAD_CPUTIME_ID)
    timespec ts{};
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) == 0)
        return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
    return static_cast<double>(std::clock()) / CLOCKS_PER_SEC;
#else
    return static_cast<double>(std::clock()) / CLOCKS_PER_SEC;
#endif
}

inline double wall_seconds() {
    using namespace std::chrono;
    return duration<double>(steady_clock::now().time_since_epoch()).count();
}

struct SearchLimits {
    std::uint64_t nodes = 0;     // 0: no limit (counted from the searcher's total)
    double seconds = -1.0;       // < 0: no limit
    bool cpu_time = false;       // seconds on the search thread's CPU clock instead of the wall clock
};

}  // namespace tsume::dfpn
