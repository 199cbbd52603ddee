// The attacker's hand as df-pn's table compares it: seven counts packed in
// one 32-bit word with a guard bit above each field, so that "hand a holds at
// least as many of every kind as b" is one subtraction and one mask
// ([ComShogi ch. 9], hand dominance / 優越関係).  The layout is the Python
// engine's (core/search/hand.py): pawn, lance, knight, silver, gold, bishop,
// rook, widths 6, 4, 4, 4, 4, 3, 3 bits including the guard.
#pragma once

#include <array>
#include <cstdint>

namespace tsume::dfpn {

using PHand = std::uint32_t;

// Hand kinds in the packed order.
enum HandKind : int { HPawn = 0, HLance, HKnight, HSilver, HGold, HBishop, HRook, HKinds };

inline constexpr std::array<int, HKinds> kHandWidth = {6, 4, 4, 4, 4, 3, 3};

constexpr int hand_shift(int k) {
    int s = 0;
    for (int i = 0; i < k; ++i) s += kHandWidth[static_cast<std::size_t>(i)];
    return s;
}

constexpr PHand hand_unit(int k) { return PHand{1} << hand_shift(k); }

constexpr PHand hand_mask(int k) {
    return ((PHand{1} << (kHandWidth[static_cast<std::size_t>(k)] - 1)) - 1) << hand_shift(k);
}

constexpr PHand make_guard() {
    PHand g = 0;
    for (int k = 0; k < HKinds; ++k) g |= PHand{1} << (hand_shift(k) + kHandWidth[static_cast<std::size_t>(k)] - 1);
    return g;
}

inline constexpr PHand kHandGuard = make_guard();

// True when `a` holds at least as many pieces of every kind as `b`.
constexpr bool hand_ge(PHand a, PHand b) { return (((a | kHandGuard) - b) & kHandGuard) == kHandGuard; }

constexpr int hand_count(PHand h, int k) { return static_cast<int>((h & hand_mask(k)) >> hand_shift(k)); }

// Kind by kind, the larger count.
constexpr PHand hand_max(PHand a, PHand b) {
    PHand out = 0;
    for (int k = 0; k < HKinds; ++k) {
        const PHand x = a & hand_mask(k), y = b & hand_mask(k);
        out |= x >= y ? x : y;
    }
    return out;
}

// Pack counts (pawn .. rook); counts beyond a field's range are rejected by the caller.
constexpr PHand hand_pack(const std::array<int, HKinds>& counts) {
    PHand h = 0;
    for (int k = 0; k < HKinds; ++k) h |= static_cast<PHand>(counts[static_cast<std::size_t>(k)]) << hand_shift(k);
    return h;
}

// Largest count each field holds.
constexpr int hand_capacity(int k) { return (1 << (kHandWidth[static_cast<std::size_t>(k)] - 1)) - 1; }

static_assert(hand_capacity(HPawn) >= 18 && hand_capacity(HLance) >= 4 && hand_capacity(HRook) >= 2);
static_assert(hand_ge(hand_pack({3, 0, 1, 0, 2, 1, 0}), hand_pack({2, 0, 1, 0, 0, 1, 0})));
static_assert(!hand_ge(hand_pack({3, 0, 0, 0, 2, 1, 0}), hand_pack({2, 0, 1, 0, 0, 1, 0})));

}  // namespace tsume::dfpn
