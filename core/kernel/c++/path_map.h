// The positions on df-pn's current path: path key -> depth, looked up for every child a node
// expands.  Open addressing with linear probing over a power-of-two array and backward-shift
// deletion, as a std::unordered_map would answer, but without its division and its node
// allocations: the hot lookup is a multiply, a mask and, as a rule, one compare.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace tsume::dfpn {

class PathMap {
public:
    PathMap() { slots_.resize(kInitial); }

    void clear() {
        for (Slot& s : slots_) s.used = false;
        size_ = 0;
    }

    // Insert key -> value unless the key is there already (std::unordered_map::emplace).
    void emplace(std::uint64_t key, int value) {
        if ((size_ + 1) * 2 > slots_.size()) grow();
        std::size_t i = home(key);
        while (slots_[i].used) {
            if (slots_[i].key == key) return;
            i = (i + 1) & mask();
        }
        slots_[i] = Slot{key, value, true};
        ++size_;
    }

    // The value stored for key, or null.
    const int* find(std::uint64_t key) const {
        for (std::size_t i = home(key);; i = (i + 1) & mask()) {
            const Slot& s = slots_[i];
            if (!s.used) return nullptr;
            if (s.key == key) return &s.value;
        }
    }

    void erase(std::uint64_t key) {
        std::size_t i = home(key);
        while (slots_[i].used && slots_[i].key != key) i = (i + 1) & mask();
        if (!slots_[i].used) return;
        // Backward shift: move up each later entry of the run that may sit in the hole.
        for (std::size_t j = (i + 1) & mask(); slots_[j].used; j = (j + 1) & mask()) {
            const std::size_t h = home(slots_[j].key);
            // j's entry may move to i unless its home lies cyclically in (i, j].
            const bool stays = i <= j ? (i < h && h <= j) : (i < h || h <= j);
            if (!stays) {
                slots_[i] = slots_[j];
                i = j;
            }
        }
        slots_[i].used = false;
        --size_;
    }

    std::size_t size() const { return size_; }

private:
    struct Slot {
        std::uint64_t key = 0;
        int value = 0;
        bool used = false;
    };
    static constexpr std::size_t kInitial = 256;

    std::size_t mask() const { return slots_.size() - 1; }
    // Fibonacci hashing: the top bits of key * 2^64/phi index the array.
    std::size_t home(std::uint64_t key) const {
        return static_cast<std::size_t>((key * 0x9E3779B97F4A7C15ULL) >> shift_);
    }

    void grow() {
        std::vector<Slot> old(slots_.size() * 2);
        old.swap(slots_);
        --shift_;
        size_ = 0;
        for (const Slot& s : old)
            if (s.used) emplace(s.key, s.value);
    }

    std::vector<Slot> slots_;
    int shift_ = 64 - 8;   // log2(kInitial) bits of the product
    std::size_t size_ = 0;
};

}  // namespace tsume::dfpn
