// Large zeroed arrays for the kernel's tables: an anonymous mapping of their own on Linux, where
// a table chooses its pages (small or transparent huge ones), else the heap.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace tsume::memory {

inline constexpr std::size_t kHugePage = std::size_t{2} << 20;

// `bytes` of zeroed address space starting on a 2 MB boundary (so that huge pages can cover it
// whole), memory only as it is touched (MAP_NORESERVE); null where there is no mmap or it fails.
// `raw` and `len` are what release() takes back.
inline void* map_aligned(std::size_t bytes, void*& raw, std::size_t& len) {
#if defined(__linux__) && defined(MAP_NORESERVE)
    const std::size_t n = bytes + kHugePage;   // room to start on a 2 MB boundary
    void* m = mmap(nullptr, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m == MAP_FAILED) return nullptr;
    raw = m;
    len = n;
    const std::uintptr_t start = (reinterpret_cast<std::uintptr_t>(m) + kHugePage - 1) & ~std::uintptr_t{kHugePage - 1};
    return reinterpret_cast<void*>(start);
#else
    (void)bytes;
    (void)raw;
    (void)len;
    return nullptr;
#endif
}

// Gives back what map_aligned (len != 0) or the heap (len == 0) gave.
inline void release(void* raw, std::size_t len) {
#if defined(__linux__)
    if (len != 0) {
        munmap(raw, len);
        return;
    }
#endif
    (void)len;
    std::free(raw);
}

}  // namespace tsume::memory
