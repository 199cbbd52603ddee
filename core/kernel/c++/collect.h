// What the collections of both tables (tt.cpp, length_search.cpp) share: the cut-off cost.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace tsume::collect {

// The cost at or below which entries go so that about `goal` of `entries` stay, read off `sample`
// (the costs of evenly spread slots; reordered, not empty): the share to drop, taken from the
// cheapest end.
inline std::uint64_t cutoff(std::vector<std::uint64_t>& sample, std::size_t entries, std::size_t goal) {
    const double share = static_cast<double>(entries - goal) / static_cast<double>(entries);
    auto nth = static_cast<std::size_t>(share * static_cast<double>(sample.size()));
    nth = std::min(nth, sample.size() - 1);
    std::nth_element(sample.begin(), sample.begin() + static_cast<std::ptrdiff_t>(nth), sample.end());
    return sample[nth];
}

}  // namespace tsume::collect
