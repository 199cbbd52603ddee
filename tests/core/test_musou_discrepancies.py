"""将棋無双: every discrepancy the official answer reports on a published solution, re-proved by other means.

``CLAIMS`` lists what ``tsume batch tests/data/musou.tsv`` reports (see
docs/benchmarks.md for the runs and the rows they did not decide).  Each
claim is re-proved without the tool's searches (``musou_reproof``): the line
replayed by cshogi, cshogi's depth-limited df-pn and the kernel's raw df-pn
under raw rules, and under tsume rules a depth-bounded df-pn of the tests'
own in a game where the defender has no more moves than the rules count (no
drops, or only drops shown to count), the brute force where short, the
reference search (the Python length search) beyond.  A second test asks the
tool again, so that the list stays the tool's.
"""

from __future__ import annotations

import cshogi
import pytest

import bruteforce
from musou_reproof import (
    BRUTE_MAX, Claim, counted_drops_mate_within, kernel_mated, kernel_no_mate_within, musou_rows, no_drop_mate_within,
    raw_mate_within, reference_mate_within, reference_mated_within, reference_on_kernel_mated_within, replay,
    reprove,
)

from tsume_studio.core.check import check_solution
from tsume_studio.core.search.contract import Limits
from tsume_studio.core.shogi.position import Position

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("engine")]

BRUTE_DEEPEST = 11
"""Deepest 変長 question put to the brute force when no smaller game settles it (9 CPU s on 47番)."""


def _c(row: str, kind: str, ply: int, line: str) -> Claim:
    return Claim(row, kind, ply, tuple(line.split()))


PRE49 = "G*8e 9d8e 6d6c 7e7d 6c6b 4g4a 5c6d+ 7d8c P*8d 8c7b 6d5d 7b7a 6b6a+ 4a6a P*7b 2b7b 5d7b 6a7b"

PRE42 = ("L*5e 5d5e N*4g 5e5f 9g5g 5f4e 5g4f 4e3d 4f3e 3d4c 3e4d 4c3b 4d4b 3b2c 4b2b 2c3d 2b2d 3d4e 2d3e 4e5f "
         "3e5e 5f6g 5e5g 6g7f 5g7g 7f6e 6i5g 6e5d 5h4f 5d4c 4g3e 4c3b 3f2d")
PRE36 = "1b1c 2a1c 6e2e 1c2e 2g3e 2c2b G*2c 2b1a P*1b 1a2a"
# The shared openings of rows with several claims.
PRE41 = ("6a5b+ 6c7b 5b6a 7b8a 6a7b 8a7b 7d7c+ 7b8a P*8b 9c8b 7c8b 8a8b 4b6b 8b9c 6b8b 9c8b S*7c 8b8c G*8d "
         "9e8d 7c8d+ 8c7b 8d7c 7b6a S*6b 6a5b 6e5c+ 5b4a 6b5a+ 2d5a N*3c 5a3c 2b3b 4a3b 3d3c+ 3b2a")
PRE43 = ("N*6f 6e6f L*5e 4d5e 5f5e 5d5e P*5f 5e5d 3f4e 1e4e 5f5e 4e5e B*4e 5e4e 3d4e 5d4c R*4d 4c5b 7f6d "
         "5b6a 6d7b+")
PRE51 = "6d7e 8f7e 5e6d 7e8f R*2f 2e2f 6d7e 8f7e R*2e 5h2e G*7f 7e7d 7f6e 7d6c 6e5d 6c5b"
PRE60 = ("N*5g 4g5g N*3g 4e4d P*4e 5d4e 2b3c 4d3e P*3f 4e3f 3c2d 3e4d 2d3c 4d3e N*2g 3f2g 3c2d 3e4d 2d3e "
         "4d3e P*3f 3e4d P*4e 4d3c 6e4c 3c2d 1f2f 2g2f P*2e 2f2e 4c3c 2d3c 3g2e 3c4b G*3c 4b3a 1a2a 3a2a "
         "1c1b+ 2c1b 1i1b+ 2a1b")
PRE61 = ("9d7f 7e7f 6g6f 6e5d 6f5e 6d5e 6h6d 5d4e 6d5e 4e3f 5e4e 3f4e G*4f 4e5d 4f5e 5d6c 5e6d 6c5b 4a5a "
         "6a5a P*5c 5b6a 7c5a+ 6a7a G*6b 7b6b 5a6b 7a6b 8f7d 6b7a P*7b 7a7b G*7c 7b7a")
PRE66 = "G*5i 4h5i 1d1i 5i6h 1i7i 6h5g 3e4f 5e4f 7i5i 5g6f 5i5e 6f5e 8d6d 5e6d G*6e 6d7c 8i8c+ 7c6b"
PRE93 = ("7i6h 5i6h 8h7i 6h5i 7i6h 5i6h 9i6i 6h5g 6i6h 6g6h+ 5e4f 5g6g 4f5f 6g7f N*8h 7f8e 9g9f 8e9d P*9e "
         "9d9c G*9d 9c9b 8c8b+ 9b8b 9d8c 8b8c")
PRE97 = ("P*8c 8b7a P*7b 7a7b N*8d 7b8c B*7b 8c8d S*8e 8d8e 4i4e 8e8d 4e8e 7c8e 4c8c 8d9d 8c3c 9d8d 3c8c "
         "8d9d 8c6c+ 9d8d 7b8c+ 8d9e 8c9d 9e9d N*8f 9d8d 6f7e 7d7e 6c5d 8d7c 5d7d 7c6b S*6c 6b5c 7d5d 5c4b "
         "P*4c 4b4a 5d5a 4a5a B*4b 5a4a 4b3a+ 4a3a")
PRE83 = "3f4g 5h4g 3a4a 4g5h 4a5a 5h4g 5a4a 4g5h 7i6i 5h5g 3i3g 5g6f 3g6g 6f6g L*6h 6g7g 4a4g 7g8f 4g8g 8f9e P*9f 9e9f"
PRE67 = "4h5h 6h7h P*7i 6i7i 5h6h 7h6h 3g4h 6h6g 4h5h 6g7g N*6i 7i6i 9h8g 7g6f 8g7g 6f7g 5c8f 7g6f"
PRE96 = ("8c8b+ 2b2c 1d1c+ 2c1c 8i1i 2h1i P*1d 1c2c B*8i 7g7h+ 8i7h 6f6g+ 7h6g 5e5f 6g5f 4d4e 5f4e 3c3d 4e3d 2c3c "
         "8b4b 3c4d 4b4c 4d5e 4c4e 5e6f 4e5f 6f7g 5f6g 7g8f L*8i")
# The rows exact since 2026-11-28: the published line up to the first claim's ply.
PRE2 = ("1g1f 1e1d 1f1e 1d1c 1e1d 1c2d 4d3e 2d3e 8c8e+ 3e3d 3h2f 2e2f 6f4d 3d2c 8e2e N*2d 2e3d 3c3d 4d3c 2c3c 3g2e "
        "3c2b 1d1c+ 1b1c P*2c 3b2c 1i1c+ 2b1a P*1b 2c1b 1c1b 1a1b P*1c 1b1a S*1b 1a2b")
PRE4 = "4d4b 5a6b 4b5a 6b5a B*2d R*3c N*4c"
PRE5 = ("S*5b 6c5b 6a5b+ 5a5b S*4a 9a4a B*7d 7c7d 9f9b 5b4c 9b9c 4c3b 3d3c+ 2a3c 9c3c 3b2a P*2b 2a1a P*1b 1a1b N*2d "
        "1b1a P*1b 1a2b 4f3d 2b2a")
PRE10 = "S*1c 2b1c 1e1d 1c2b 1d1c+ 2b1c R*1i N*1g S*1d 1c2b 1i2i 2b3a R*2a 1a2a"
PRE11 = "8d8c 8b7a S*7b 7a7b 8c8b 7b6b P*6c 6b6c 5f4e 5c4e S*5d 6c6b P*6c 6b7a 8b8a+ 7a8a 8i8f 4f8f G*7b 8a9b S*8c 8f8c"
PRE16 = "N*3c 2a2b 1d1c+ 2b1c 1g3e 1c2b"
PRE3 = ("9c9d 9e9d 8d8c+ 9d8c 6a7b 8c9c 6d6c+ P*8c 7b8c+ 9a8c P*9d 9c8b 9d9c+ 8b9c 7e8d 9c8d 6f7e 4b7e 4a4d+ "
        "8d9e 4d8d 7e8d 4h8d 9e8d B*9e 8d9c G*8d 9c8b 8d8c 8b9a 8c8b 9a8b")
PRE17 = "9b9a+ 8a7a 9a8a 7a7b 9c9b+"
PRE18 = ("N*4d 4c4d S*4c 3b4c 6c5b 4c5b 9e6b+ 5b4c 6b5b 4c5b B*4a 5b6a R*6b 6a5a 6b4b+ 5a4b P*4c 4b4c 6g5e 4c4b G*3b "
         "4b5a 7d6b+ 5a6b 5e6c+ 6b5a")
PRE20 = ("5b5a+ 6a5a G*3b 4a3b 1c2b 3b4c 2e3c+ 2a3c 4e3d 4c3d 1f2e 3c2e 2b2d 3d4c 2d3c 4c5b 4b5a+ 5b5a B*4b 5a5b 3c6c "
         "5b6c")
PRE25 = "R*4c 4b4c S*4d 5c4d 3d4e 4d5c 4e4d 5c4d B*5c"
PRE26 = "6e5d 5c5d G*4c 5d4c 5e4c+ 4d4c 6b3b 4c3b R*9b 3b3a 4f1c 3a4a 1c1d 4a5a 1d1e"
PRE27 = "6f6e 9e6e 4e5e 6d7d 5e6e 7d6c 6e5e 6c7d 6i6c+ 7d6c R*6d 6c7c 6d6a+ 7c8c 5e6e 8c7c 6e7d"
PRE34 = "G*2d 2c2d 3b1b+ 7b1b S*2c 1d2c 2a1b 2c1d R*1c 1d1c N*2e 1c1d 1b2c 1d2c 4c3b 2c3b 4d3c 3b3a"
PRE39 = "G*7e 7d7e 6b7c G*7d G*6f 5f6f 5g6f 7e6f B*7e 6f5e 7e6d 5e6e P*6f 6e6f 6d7e"
PRE45 = ("B*9i P*8h 9i8h 7i8h 5g5f 5e6d B*9g 7c7e 9g7e 8c7e N*7f 6d7c 8e8c 8h8c 7b8c+ 7c8c R*8d 8c7b L*7d 7b6c 8d8c+ "
         "6c5b 7f6d 5c6d 4g4c+ 5b4a 8c8a N*5a P*4b 4a3a 8a5a 3a2b N*3d 2b1b 5a2a 1b2a S*3b 2a1a 3d2b+ 1a2b 2d2c+ 2b1a "
         "3b2a+ 1a2a 4c3b 2a1a")
PRE70 = ("S*1g 2h1g 1e2f 1g2f 5i2i 1i2i 3d1f 2f3e 1f2e 3e4d 2e3d 4d5c 3d4c 5c6b 6a5b+ 6b7a 5b6a 7a8a 4c5d 8a9b 5d6e "
         "9b9c 6e6f 9c9b 6f5f 9b9c 5f5g 9c9b 5g4g 9b9c 4g4h 9c9b 4h3h 9b9c 3h3i 9c9b 3i2i 9b9c 2i3i 9c9b 3i3h 9b9c "
         "3h4h 9c9b 4h4g 9b9c 4g5g 9c9b 5g5f 9b9c 5f6f 9c9b 6f6e 9b9c 6a9d 9c9d")
PRE76 = "4i3h 2h3h N*3i 3h3i 4g3h 3i3h N*3i 3h3i B*1f 2g1f 1d1e 1f1e R*1c 1e2d 1c1d+ 2d3c 6d4b+ 3c4b 5d5c+"
PRE84 = "B*3g P*2h 3g2h 1i1h P*1i 1h2g 4f3f 2g3f"
PRE89 = ("9h7h 7i7h 9g8h 7h6g 8h6h 6g5f 6h5g 5f4e 5g4f 4e3d 4f3e 3d4c 6a5b 4c5b 3e3b 5b6c P*6d 6c7c P*7d 7c8c P*8d "
         "8c9c P*9d 9e9d 8d8c+ 9c8c 7d7c+ 8c7c 6d6c+ 7c6c 8e7d 6c7d 3b7b 7d6e 7b7f 6e5f 7f6f 5f4g")
PRE92 = ("G*5h 6g5h G*4i 5h4i S*6h 5i4h 6h5i 4h5i B*4h 5i4h 6d6h 4h3g 4g4f 3g2g G*3g 2g1g S*1h 1g1f 1h2g 1f1e 6h1h "
         "1e2d 1h1c 2d3d 4f4e 3d4e 1c4c S*4d 2g3f 3e3f P*4f 4e3e N*2g 3e2d 4c4d L*3d S*3e 2d2c")


def _off_published(row: str, ply: int, move: str, kind: str = "alternative") -> Claim:
    """A claim (an 余詰 by default) at ``ply``: the published line's first ``ply - 1`` moves, then ``move``."""
    line = musou_rows()[row]["pv"].split()[:ply - 1] + [move]
    return Claim(row, kind, ply, tuple(line))


def _each(row: str, kind: str, ply: int, prefix: str, moves: str) -> tuple[Claim, ...]:
    """Claims of ``kind`` at ``ply`` sharing a line: ``prefix``, then each of ``moves`` as the last move."""
    return tuple(_c(row, kind, ply, f"{prefix} {move}") for move in moves.split())


def _along(row: str, kind: str, plies: range, line: str) -> tuple[Claim, ...]:
    """Claims of ``kind`` on ``line`` itself, one at each of ``plies`` (the line up to that ply)."""
    moves = tuple(line.split())
    return tuple(Claim(row, kind, ply, moves[:ply]) for ply in plies)


MUSOU_12_PLY_7 = _off_published("musou-012", 7, "R*1a")


CLAIMS: tuple[Claim, ...] = (
    # 9番 (published 29, confirmed length): 成不成非限定 at ply 3
    _c("musou-009", "promotion_choice", 3, "L*7b 7a7b 9b8c"),
    # 42番 (published 43; the tool: 47): three king moves at ply 34
    _c("musou-042", "longer_defence", 34, PRE42 + " 3b2a"),
    _c("musou-042", "longer_defence", 34, PRE42 + " 3b4a"),
    _c("musou-042", "longer_defence", 34, PRE42 + " 3b3a"),
    # 49番 (published 27, confirmed length): 成不成非限定 at plies 19 and 23, 余詰 at ply 25 (mates because
    # the defender's only drops are futile)
    _c("musou-049", "promotion_choice", 19, PRE49 + " 9c8b"),
    _c("musou-049", "promotion_choice", 23, PRE49 + " 9c8b+ 7a8b R*9b 8b7a 9b7b"),
    _c("musou-049", "alternative", 25, PRE49 + " 9c8b+ 7a8b R*9b 8b7a 9b7b+ 7a7b R*1b"),
    _c("musou-049", "alternative", 25, PRE49 + " 9c8b+ 7a8b R*9b 8b7a 9b7b+ 7a7b R*2b"),
    _c("musou-049", "alternative", 25, PRE49 + " 9c8b+ 7a8b R*9b 8b7a 9b7b+ 7a7b R*3b"),
    _c("musou-049", "alternative", 25, PRE49 + " 9c8b+ 7a8b R*9b 8b7a 9b7b+ 7a7b R*4b"),
    # 21番 (published 21; the tool: 25)
    _c("musou-021", "longer_defence", 4, "S*7b 6a7b 4b5b N*6b"),
    _c("musou-021", "longer_defence", 4, "S*7b 6a7b 4b5b S*6b"),
    _c("musou-021", "longer_defence", 6, "S*7b 6a7b 4b5b P*6b 7d7c 7b8b"),
    _c("musou-021", "longer_defence", 10, "S*7b 6a7b 4b5b P*6b 7d7c 7b8a 8b9a+ 8a9a S*8b 9a8b"),
    _c("musou-021", "longer_defence", 14, "S*7b 6a7b 4b5b P*6b 7d7c 7b8a 8b9a+ 8a9a S*8b 9a9b P*9c 9b8b 5b6b L*7b"),
    _c("musou-021", "longer_defence", 14, "S*7b 6a7b 4b5b P*6b 7d7c 7b8a 8b9a+ 8a9a S*8b 9a9b P*9c 9b8b 5b6b N*7b"),
    _c("musou-021", "longer_defence", 14, "S*7b 6a7b 4b5b P*6b 7d7c 7b8a 8b9a+ 8a9a S*8b 9a9b P*9c 9b8b 5b6b S*7b"),
    _c("musou-021", "longer_defence", 14, "S*7b 6a7b 4b5b P*6b 7d7c 7b8a 8b9a+ 8a9a S*8b 9a9b P*9c 9b8b 5b6b B*7b"),
    _c("musou-021", "longer_defence", 18,
       "S*7b 6a7b 4b5b P*6b 7d7c 7b8a 8b9a+ 8a9a S*8b 9a9b P*9c 9b8b 5b6b 8b9c P*9d 9c9d 6b6d 9d8e"),
    # 36番 (published 37, confirmed length): 余詰 at ply 11, and another mate on the last move (ply 37)
    _c("musou-036", "alternative", 11, PRE36 + " 4b3a"),
    _c("musou-036", "alternative", 37, PRE36 + " 3b3a+ 4a3a 4b3a 6a3a G*1a 6f1a 1b1a+ 2a1a B*2b 1a2a 2b3a+ 2a3a "
       "R*3c 3a4a 2c3b 4a5a 3b4b 5a4b 3e4c+ 4b5a 4c5b 5a5b 6d6c+ 5b4b G*4c 4b4a 4c5b"),
    # 38番 (published 13; the tool: 15)
    _c("musou-038", "longer_defence", 12, "S*2e 1d2e 4f3e 3f3e N*4f 3e4f 7a3e+ 2c3e 1e2e 3d2c 2e3d 2c1c"),
    # 29番 (published 21, confirmed length): 成不成非限定 at ply 19
    _c("musou-029", "promotion_choice", 19,
       "9a8b 7c8b 9d9b+ 8b7c 5e6d 7c8d 6d7c 8d7c 5a6b 7c8d 6b7c 8d7c 5d6d 7c8d 4b5a 6a5a 7g9e 8d9d 9e5a"),
    # 79番 (published 11, confirmed length): 余詰 at ply 9, mate only because the last drop is futile
    _c("musou-079", "alternative", 9, "S*6i 5g6i+ S*7i 6i7i 9h8i 7h8i G*8h 8i9i 8h8g"),
    # 71番 (published 25; the tool: 27)
    _c("musou-071", "longer_defence", 2, "9f9g 8h7h"),
    # 55番 (published 11; the tool: 13)
    _c("musou-055", "longer_defence", 4, "9h9g 9f8e 9g9f 8e9d"),
    _c("musou-055", "longer_defence", 10, "9h9g 9f8e 9g9f 8e9f 6e7d 7c7d N*8h 9f8e 7g7e 8e9d"),
    # 41番 (published 47, confirmed length; 60 CPU s): 余詰 at ply 37 and another mate on the last move
    _c("musou-041", "alternative", 37, PRE41 + " B*1b"),
    _c("musou-041", "alternative", 47, PRE41 + " "
       "B*3b 2a1a 3c2b 1a2b 1e2c+ 2b1a 3b2a+ 1a2a 3i3b+ 2a1a 2c2b"),
    # 43番 (published 47; the tool: 55, 60 CPU s): 変長 at plies 22, 34 and 40
    _c("musou-043", "longer_defence", 22, PRE43 + " 6a5b"),
    _c("musou-043", "longer_defence", 34, PRE43 + " "
       "6a5a 7b6b 5a6b S*6c 6b6a 6c7b+ 6a5a P*5b 5a5b 4e6c 5b6c 7d7c+ 7i7c"),
    _c("musou-043", "longer_defence", 40, PRE43 + " "
       "6a5a 7b6b 5a6b S*6c 6b6a 6c7b+ 6a5a P*5b 5a5b 4e6c 5b6c 7d7c+ 7i7c+ 7b7c 6c7c 5g6e 7c6b"
       " P*6c 6b7a"),
    # 60番 (published 45, confirmed length; 60 CPU s): 余詰 at ply 43 and another mate on the last move
    _c("musou-060", "alternative", 43, PRE60 + " S*2c"),
    _c("musou-060", "alternative", 45, PRE60 + " S*1c 1b2a 3c2b"),
    # 87番 (published 57, confirmed length; 60 CPU s): 成不成非限定 at ply 45
    _c("musou-087", "promotion_choice", 45,
       "G*8h 8i8h 7h7c 8h9g 4h8h 9g8h 6g7h 8h9h 9f8g 9h9g N*8i 9i8i P*9h 9g8f 7h7g 8f8e 8c7d 8e8d P*8e 8d7d "
       "6f6e 7d8c 6e7d 8c7d S*7e 7d7e 7g7f 7e7d P*7e 7d6d 7f6e 6d5c 6e5d 5c5b 5d4c 5b5a 4c6a 9a6a 7b6a 5a4a "
       "R*5a 4a4b P*4c 4b3b 5a5b"),
    # 97番 (published 51, confirmed length; 60 CPU s): 余詰 at ply 47 (a lance drop on any of six squares,
    # mates because the defender's only drops are futile), at ply 49, and on the last move
    _c("musou-097", "alternative", 47, PRE97 + " L*3d"),
    _c("musou-097", "alternative", 47, PRE97 + " L*3e"),
    _c("musou-097", "alternative", 47, PRE97 + " L*3f"),
    _c("musou-097", "alternative", 47, PRE97 + " L*3g"),
    _c("musou-097", "alternative", 47, PRE97 + " L*3h"),
    _c("musou-097", "alternative", 47, PRE97 + " L*3i"),
    _c("musou-097", "alternative", 49, PRE97 + " L*3c 3a4a 2c3b"),
    _c("musou-097", "alternative", 51, PRE97 + " L*3c 3a4a 3c3b+ 4a5a 4c4b+"),
    # 44番 (published 25; the tool: 25)
    _c("musou-044", "alternative", 3, "N*4g 5e6d 7h6h"),
    _c("musou-044", "alternative", 3, "N*4g 5e6d 7h6i"),
    # 47番 (published 13; the tool: 19)
    _c("musou-047", "longer_defence", 2, "S*5e 6f5g"),
    _c("musou-047", "alternative", 11, "S*5e 7c5e 8d6d 5e6d 4d5e 6f5e 3c4d 5e6f 4d5e 6f5e B*1a"),
    _c("musou-047", "alternative", 11, "S*5e 7c5e 8d6d 5e6d 4d5e 6f5e 3c4d 5e6f 4d5e 6f5e B*2b"),
    # 50番 (published 17; the tool: 21)
    _c("musou-050", "longer_defence", 14, "S*1g 2f1e 1g2f 1e2f S*1e 1d1e 1i1e 2f1e 4b1b+ 1e2f S*1g 2g1g 1b1f 2f1f"),
    # 51番 (published 33; the tool: 33)
    _c("musou-051", "alternative", 17, PRE51 + " 5d4c"),
    _c("musou-051", "alternative", 17, PRE51 + " 5d6c"),
    _c("musou-051", "alternative", 33, PRE51 + " "
       "5d5c 5b5a 5c5b 5a5b 9h4c 5b4a N*3c 4a3a 4c2a 3a4b 4d4c+ 4b5a 3c4a+ 5a4a 2a3b 4a5a 4c4b"),
    # 53番 (published 37; the tool: 43)
    _c("musou-053", "longer_defence", 28,
       "9g9f 9e8d 7c9c+ 9b9c S*9e 8d8c 8e7c+ 7a7c 4c6a P*7b 6a7b 8c7d 7b6c 7d8c 6c7b 8c7d 7b8c 7d8e P*8f 8e7f 8c6e "
       "7f6g P*6h 6g6f 4i4f 6f6e G*6d 6e6d"),
    # 74番 (published 15; the tool: 27)
    _c("musou-074", "longer_defence", 2, "B*2g 1h1g"),
    _c("musou-074", "longer_defence", 4, "B*2g 1h2h L*2i 2h3i"),
    _c("musou-074", "longer_defence", 8, "B*2g 1h2h L*2i 1i2i 6g3g 2h3g 4d4f 5f4f"),
    _c("musou-074", "longer_defence", 10, "B*2g 1h2h L*2i 1i2i 6g3g 2h3g 4d4f 3g4f S*5e 4f3g"),
    # 78番 (published 13; the tool: 19)
    _c("musou-078", "longer_defence", 8, "3f4g 3h2g 4g3f 2g3h 3f2g 3h4g 2g3h 4g5g"),
    _c("musou-078", "longer_defence", 12, "3f4g 3h2g 4g3f 2g3h 3f2g 3h4g 2g3h 4g3h 3b3g+ 3h3g R*4g 3g3h"),
    # 59番 (published 45; the tool: 45)
    _c("musou-059", "alternative", 9, "R*6f 7f7e 6f6e 7e7f 6e7e 7f7e 5i4h 7e7d 7h6f"),
    _c("musou-059", "promotion_choice", 31,
       "R*6f 7f7e 6f6e 7e7f 6e7e 7f7e 5i4h 7e7d 4h7e 7d7e 7i5g 7e7d 7h6f 7d7e 6f7d 7e7d G*7e 7d7c 7e8d 7c8b 9c9b+ "
       "8b7b L*7i 7b6b 8d7c 6b5a 7c6b 5a6b 5g8d 6b6a 4c5b"),
    _c("musou-059", "promotion_choice", 39,
       "R*6f 7f7e 6f6e 7e7f 6e7e 7f7e 5i4h 7e7d 4h7e 7d7e 7i5g 7e7d 7h6f 7d7e 6f7d 7e7d G*7e 7d7c 7e8d 7c8b 9c9b+ "
       "8b7b L*7i 7b6b 8d7c 6b5a 7c6b 5a6b 5g8d 6b6a 4c5b+ 6a5b 5f4d 5b4a 8d5a 4a5a S*5b 5a4b 5d4c+"),
    _c("musou-059", "longer_defence", 40,
       "R*6f 7f7e 6f6e 7e7f 6e7e 7f7e 5i4h 7e7d 4h7e 7d7e 7i5g 7e7d 7h6f 7d7e 6f7d 7e7d G*7e 7d7c 7e8d 7c8b 9c9b+ "
       "8b7b L*7i 7b6b 8d7c 6b5a 7c6b 5a6b 5g8d 6b6a 4c5b+ 6a5b 5f4d 5b4a 8d5a 4a5a S*5b 5a4b 5d4c 4b5c"),
    _c("musou-059", "alternative", 45,
       "R*6f 7f7e 6f6e 7e7f 6e7e 7f7e 5i4h 7e7d 4h7e 7d7e 7i5g 7e7d 7h6f 7d7e 6f7d 7e7d G*7e 7d7c 7e8d 7c8b 9c9b+ "
       "8b7b L*7i 7b6b 8d7c 6b5a 7c6b 5a6b 5g8d 6b6a 4c5b+ 6a5b 5f4d 5b4a 8d5a 4a5a S*5b 5a4b 5d4c 4b3a 5b4a+ 3a4a "
       "4d5b+ 4a3a 4c4b+"),
    # 61番 (published 39; the tool: 39)
    _c("musou-061", "alternative", 35, PRE61 + " 7d6b+"),
    _c("musou-061", "alternative", 39, PRE61 + " 7d8b+ 7a6a 8b7b 6a5a 7c6b"),
    # 62番 (published 23; the tool: 23)
    _c("musou-062", "alternative", 1, "S*4g"),
    _c("musou-062", "alternative", 7, "G*4g 3f4g 3h4g 5f6e G*5e 4e5e 7g5e"),
    # 82番 (published 21; the tool: 25)
    _c("musou-082", "longer_defence", 10, "S*6i 5h6i 5f4g 2i4g S*5h 6i5h 7g4g 5h6h L*6i 6h7h"),
    # 93番 (published 35; the tool: 35)
    _c("musou-093", "promotion_choice", 27, PRE93 + " 2e6a"),
    _c("musou-093", "alternative", 35, PRE93 + " 2e6a+ 8c9b 7d7c+ 9b9a 5f9b 9a9b 6a8c 9b8a 8c8b"),
    # 64番 (published 19; the tool: 25)
    _c("musou-064", "longer_defence", 2, "6g5f P*7g"),
    _c("musou-064", "longer_defence", 2, "6g5f L*7g"),
    _c("musou-064", "longer_defence", 6, "6g5f 5g4f 8g4g 4f3e S*2f 3e3d"),
    _c("musou-064", "longer_defence", 6, "6g5f 5g4f 8g4g 4f3e S*2f 3e4d"),
    _c("musou-064", "longer_defence", 16,
       "6g5f 5g4f 8g4g 4f3e S*2f 2d2f 4g4f 3e4d B*3e 4d3c 3e2d 3c4d 4f5e 4e5e 2d3e 4d3c"),
    # 66番 (published 29; the tool: 29)
    _c("musou-066", "alternative", 19, PRE66 + " 2e2f"),
    _c("musou-066", "alternative", 29, PRE66 + " "
       "2e3e 6b6a 3e7a 6a7a 9c8b 7a6b 8b7b 6b5b 5d4c+ 5b6c 7b7c"),
    # 83番 (published 29; the tool: 29): 余詰 and 成不成非限定 at ply 23
    _c("musou-083", "alternative", 23, PRE83 + " 8g8a+"),
    _c("musou-083", "alternative", 23, PRE83 + " 8g8a"),
    _c("musou-083", "alternative", 23, PRE83 + " 8g8b+"),
    _c("musou-083", "alternative", 23, PRE83 + " 8g8b"),
    _c("musou-083", "promotion_choice", 23, PRE83 + " 8g8c"),
    # 86番 (published 15; the tool: 21)
    _c("musou-086", "longer_defence", 6, "2e4g 2i3i 2a2i+ 3i4h 6f5g 4h4g"),
    _c("musou-086", "longer_defence", 8, "2e4g 2i3i 2a2i+ 3i4h 6f5g 4h5g 1b5f+ 5g6h"),
    _c("musou-086", "longer_defence", 12, "2e4g 2i3i 2a2i+ 3i4h 6f5g 4h5g 1b5f+ 5g4h G*4i 6i4i 2i3i 4h3i"),
    _c("musou-086", "longer_defence", 12, "2e4g 2i3i 2a2i+ 3i4h 6f5g 4h5g 1b5f+ 5g4h G*4i 6i4i 2i3i 4h5i"),
    # 96番 (published 51; the tool: 55)
    _c("musou-096", "longer_defence", 10, "8c8b+ 2b2c 1d1c+ 2c1c 8i1i 2h1i P*1d 1c2c B*8i 7g7h"),
    _c("musou-096", "longer_defence", 12, "8c8b+ 2b2c 1d1c+ 2c1c 8i1i 2h1i P*1d 1c2c B*8i 7g7h+ 8i7h 6f6g"),
    _c("musou-096", "longer_defence", 32, PRE96 + " P*8h"),
    _c("musou-096", "longer_defence", 44, PRE96 + " 8f9e 6g9g 7e9g P*9f 9e9f S*8e 9f9e P*9f 9g9f 8e8d 9e9d 3d6a+ G*7b"),
    _c("musou-096", "longer_defence", 44, PRE96 + " 8f9e 6g9g 7e9g P*9f 9e9f S*8e 9f9e P*9f 9g9f 8e8d 9e9d 3d6a+ R*7b"),
    # 75番 (published 225; the tool: 225): 余詰 at ply 7 (the rook to 3h, not 4h), on the second
    # round of the king's walk at plies 141 and 143, and on the third at ply 185
    _off_published("musou-075", 7, "3g3h"),
    _off_published("musou-075", 141, "8h7h"),
    _off_published("musou-075", 143, "7g7e"),
    _off_published("musou-075", 185, "8f7e"),
    # 67番 (published 33; the tool: 43)
    _c("musou-067", "longer_defence", 20, PRE67 + " N*7h 7f7h"),
    _c("musou-067", "longer_defence", 26, PRE67 + " N*7h 7f7h+ P*6g 6f7f 5h7h 7f8e 8f5c+ P*8f"),
    _c("musou-067", "longer_defence", 26, PRE67 + " N*7h 7f7h+ P*6g 6f7f 5h7h 7f8e 8f5c+ N*8f"),
    _c("musou-067", "longer_defence", 26, PRE67 + " N*7h 7f7h+ P*6g 6f7f 5h7h 7f8e 8f5c+ B*8f"),
    _c("musou-067", "longer_defence", 26, PRE67 + " N*7h 7f7h+ P*6g 6f7f 5h7h 7f8e 8f5c+ P*8h"),
    _c("musou-067", "longer_defence", 26, PRE67 + " N*7h 7f7h+ P*6g 6f7f 5h7h 7f8e 8f5c+ L*8h"),
    _c("musou-067", "longer_defence", 26, PRE67 + " N*7h 7f7h+ P*6g 6f7f 5h7h 7f8e 8f5c+ S*8h"),
    _c("musou-067", "longer_defence", 26, PRE67 + " N*7h 7f7h+ P*6g 6f7f 5h7h 7f8e 8f5c+ B*8h"),
    _c("musou-067", "longer_defence", 30, PRE67 + " N*7h 7f7h+ P*6g 6f7f 5h7h 7f8e 8f5c+ 8e9d L*9e 9d9e 5c6b S*7c"),
    _c("musou-067", "longer_defence", 30, PRE67 + " N*7h 7f7h+ P*6g 6f7f 5h7h 7f8e 8f5c+ 8e9d L*9e 9d9e 5c6b B*7c"),
    # 98番 (published 61; the tool: 61)
    _c("musou-098", "promotion_choice", 1, "5d4c"),
    _c("musou-098", "promotion_choice", 33,
       "5d4c+ 4b4c 3e2c 3b2a P*2b 2a2b 3g3c+ 2b2a 2c3a+ 4a3a P*2b 3a2b 3c2b 2a2b R*2c 2b3a P*3b 3a3b 2c3c 3b4b 6f5d "
       "4b5b 3c3b 5b6c 3b6b 6c7d G*7e 7d8c P*8d 8c7c 7e6d 7c8d 6b8b"),
    # 3番 (published 39, the length confirmed): its length proved by the check going on with the stopped
    # solve's search (2026-11-28); 余詰 at plies 33 and 39, 成不成非限定 at ply 37
    _c("musou-003", "alternative", 33, PRE3 + " N*9d"),
    _c("musou-003", "promotion_choice", 37, PRE3 + " N*7d 8b9a 6c9c 8a9c 9e7c"),
    _c("musou-003", "alternative", 39, PRE3 + " N*7d 8b9a 6c9c 8a9c 9e7c+ 9a8a 7c8b"),
    # Rows exact since the search got stronger (the run of 2026-11-28), listed 2026-11-28.
    # 2番 (published 47, confirmed length): 成不成非限定 at plies 37 and 39
    _c("musou-002", "promotion_choice", 37, PRE2 + " 1b2c"),
    _c("musou-002", "promotion_choice", 39, PRE2 + " 1b2c+ 2b2c 6c4a"),
    # 4番 (published 25; the tool: 27): 変長 at ply 8, 余詰 on the last move (a lance dropped on 9h or 9i, not
    # 9g: mates because the defender's only drops are futile)
    _c("musou-004", "longer_defence", 8, PRE4 + " 5a4a"),
    *_each("musou-004", "alternative", 25, PRE4 + " 5a6b 2d3e 3c3e N*7d 6b7c N*8e 8c8e R*8c 7c8c 9e9c+ 9a9c S*8d "
           "8c9d 8d9c+ 9d9e P*9f 9e9f", "L*9h L*9i"),
    # 5番 (published 41, confirmed length): 成不成非限定 at ply 27, five other mates on the last move
    _c("musou-005", "promotion_choice", 27, PRE5 + " 3c3a"),
    *_each("musou-005", "alternative", 41, PRE5 + " 3c3a+ 2a3a L*3b 4a3b 2d3b+ 3a3b R*3c 3b4a 3d4b+ 4a4b L*4c "
           "4b5b 3c3b+ 5b5a", "3b4a 3b4b 3b6b 4c4a+ 4c4b+"),
    # 7番 (published 15; the tool: 25): 変長 at plies 4 and 6
    _c("musou-007", "longer_defence", 4, "4c5b+ 5a5b B*5c 6b7b"),
    *_each("musou-007", "longer_defence", 6, "4c5b+ 5a5b B*5c 6b7c 6e6c", "7c7b 7c8d"),
    # 10番 (published 19, confirmed length): 成不成非限定 at ply 15
    _c("musou-010", "promotion_choice", 15, PRE10 + " 2i2a"),
    # 11番 (published 31, confirmed length): 成不成非限定 at ply 23
    _c("musou-011", "promotion_choice", 23, PRE11 + " 9d8c"),
    # 15番 (published 33, confirmed length): 余詰 at ply 3 (a lance dropped on 8f, 8g or 8h, not 8i)
    *_each("musou-015", "alternative", 3, "P*9c 9b8c", "L*8f L*8g L*8h"),
    # 16番 (published 53, confirmed length): 成不成非限定 at ply 7, another mate on the last move
    _c("musou-016", "promotion_choice", 7, PRE16 + " 3e1c"),
    _c("musou-016", "alternative", 53, PRE16 + " 3e1c+ 2b1c 1i1f 1c2b 1f1c+ 2b1c 8h1h 1c2b 1h1c+ 2b1c 5g1g 1c2b "
       "1g1c 2b1c 9g7i 7b7i+ 3d2d 1c2b P*2c 2b3a 3c4a+ 3a4a P*4b 4a4b G*3c 4b3a 3c3b 3a3b 4e3c+ 3b4a P*4b 4a3a "
       "2c2b+ 1a2b 3c2b 3a2b P*2c 2b3a S*2b 3a4b 2d3c 4b4a 2b3a+ 4a3a 2c2b+ 3a4a 3c3b"),
    # 17番 (published 23; the tool: 29): 変長 at plies 6 and 22
    _c("musou-017", "longer_defence", 6, PRE17 + " P*8b"),
    _c("musou-017", "longer_defence", 22, PRE17 + " 7b6c 2a6a+ 6c7d 6a6c 7d8e 6c7d 8e7f 7d8e 7f8e B*9d 8e7d "
       "5h6f 7d6c 9b5b 6c5b 9d6a+ 5b5c"),
    # 18番 (published 27, confirmed length): another mate on the last move
    _c("musou-018", "alternative", 27, PRE18 + " 4a5b+"),
    # 20番 (published 45, confirmed length): 余詰 at ply 23 (the rook dropped on 2c or 3c, not 4c; mates within
    # the line's plies only because a drop is futile)
    *_each("musou-020", "alternative", 23, PRE20, "R*2c R*3c"),
    # 25番 (published 17; the tool: 19): 変長 at ply 10
    _c("musou-025", "longer_defence", 10, PRE25 + " 4d5e"),
    # 26番 (published 25; the tool: 29): 55 変長, most of them an interposition from hand on the file or
    # diagonal the king is checked along, at plies 16 to 24
    _c("musou-026", "longer_defence", 16, PRE26 + " P*3c"),
    *_each("musou-026", "longer_defence", 18, PRE26 + " 5a6a 1e1f", "P*4c P*3d S*3d S*2e"),
    *_each("musou-026", "longer_defence", 20, PRE26 + " 5a6a 1e1f 6a7a 1f1g",
           "P*5c L*5c N*5c S*5c G*5c P*4d L*4d N*4d S*4d G*4d P*3e L*3e N*3e S*3e G*3e L*2f N*2f S*2f G*2f"),
    *_each("musou-026", "longer_defence", 22, PRE26 + " 5a6a 1e1f 6a7a 1f1g 7a8a 1g1h",
           "8a9b P*6c L*6c N*6c S*6c G*6c R*6c P*5d L*5d N*5d S*5d G*5d R*5d P*4e L*4e N*4e S*4e G*4e R*4e "
           "P*3f L*3f N*3f S*3f G*3f R*3f L*2g N*2g S*2g G*2g R*2g"),
    _c("musou-026", "longer_defence", 24, PRE26 + " 5a6a 1e1f 6a7a 1f1g 7a8a 1g1h 1i1h S*8b 8a7b"),
    # 27番 (published 25; the tool: 27): 変長 at ply 18
    _c("musou-027", "longer_defence", 18, PRE27 + " 7c8b"),
    # 34番 (published 31, confirmed length): 成不成非限定 at ply 19
    _c("musou-034", "promotion_choice", 19, PRE34 + " 7a5c"),
    # 39番 (published 25; the tool: 29): 変長 at plies 16 and 22
    _c("musou-039", "longer_defence", 16, PRE39 + " 6f7f"),
    _c("musou-039", "longer_defence", 22, PRE39 + " 6f7e G*7f 7e7f 7c7d 7f6f 7d6d 6f7f"),
    # 45番 (published 47, confirmed length): another mate on the last move
    _c("musou-045", "alternative", 47, PRE45 + " 2c2b"),
    # 70番 (published 79, confirmed length): 余詰 at ply 57, another mate on the last move
    *_each("musou-070", "alternative", 57, PRE70, "8f8e 8f9e 9f9e"),
    _c("musou-070", "alternative", 79, PRE70 + " 9f8e 9d9c 8e8d 9c9d 8f9e 9d8e P*8f 8e9f P*9g 9f9g 9i8h 9g8h "
       "6e5e 8h9g G*8g 9g8g 6h7h 8g9f P*9g 9f9g 5e8h 9g9f 8h8g"),
    # 76番 (published 31; the tool: 35): 変長 at ply 20
    *_each("musou-076", "longer_defence", 20, PRE76, "4b4a 4b5c"),
    # 84番 (published 29, confirmed length): 余詰 at ply 9 (mates within the line's plies only because a drop is
    # futile)
    _c("musou-084", "alternative", 9, PRE84 + " 8b8a"),
    # 89番 (published 69, confirmed length): 余詰 at ply 39
    _c("musou-089", "alternative", 39, PRE89 + " 6f4f"),
    # 92番 (published 51; the tool: 49): 早詰 at every attacker move of the published line up to ply 37
    # (3e3d at ply 39 mates in 11 where the published 4d3d takes 13), so 早詰 and 余詰 at ply 39; 余詰 at
    # ply 5 (the bishop, not the silver, to 6h) and at ply 41 (a lance dropped on 1e to 1i, not 1d; those mate
    # within the line's plies only because a drop is futile), and
    # 成不成非限定 at ply 47
    *_along("musou-092", "shorter_mate", range(1, 38, 2), PRE92),
    _c("musou-092", "alternative", 5, "G*5h 6g5h G*4i 5h4i B*6h"),
    _c("musou-092", "shorter_mate", 39, PRE92 + " 3e3d"),
    _c("musou-092", "alternative", 39, PRE92 + " 3e3d"),
    *_each("musou-092", "alternative", 41, PRE92 + " 4d3d 2c1b", "L*1e L*1f L*1g L*1h L*1i"),
    _c("musou-092", "promotion_choice", 47, PRE92 + " 4d3d 2c1b L*1d 1b2b 1d1c+ 2b1c 3e2d 1c2b 2d2c"),
    # Rows exact since a paused question keeps its work (the run of 2026-11-29 12:27 UTC), listed then.
    # 56番 (published 45, confirmed length): 成不成非限定 at ply 23, another mate on the last move
    _off_published("musou-056", 23, "5b4c", "promotion_choice"),
    _off_published("musou-056", 45, "2a1b"),
    _off_published("musou-056", 45, "2a1b+"),
    # 68番 (published 39, confirmed length): 成不成非限定 at plies 5 and 27, 余詰 at ply 19
    _off_published("musou-068", 5, "1c4f", "promotion_choice"),
    *(_off_published("musou-068", 19, m) for m in ("R*1c", "R*2c", "R*3c")),
    _off_published("musou-068", 27, "7c8c", "promotion_choice"),
    # 72番 (published 41, confirmed length): 成不成非限定 at ply 3, 余詰 at ply 39
    _off_published("musou-072", 3, "1c1f", "promotion_choice"),
    _off_published("musou-072", 39, "3i2i"),
    # 80番 (published 35, confirmed length): 成不成非限定 at ply 27, another mate on the last move
    _off_published("musou-080", 27, "3d2c+", "promotion_choice"),
    _off_published("musou-080", 35, "2c2b+"),
    # 46番 (published 27, the tool: 29): 変長 at plies 16 and 22
    _off_published("musou-046", 16, "5b4b", "longer_defence"),
    _off_published("musou-046", 22, "4c3c", "longer_defence"),
    # 14番 (published 83, confirmed length): 成不成非限定 at plies 5 and 9, 余詰 at plies 55 and 71
    _off_published("musou-014", 5, "2b1c", "promotion_choice"),
    _off_published("musou-014", 9, "2d1c", "promotion_choice"),
    _off_published("musou-014", 55, "L*9f"),
    _off_published("musou-014", 71, "7b8b"),
    # 24番 (published 31, confirmed length: proved within the check's 300 CPU s, not within the batch's 60,
    # whose check, from the upper bound alone, lists the same): 成不成非限定 at plies 7 and 9 (listed 2026-12-07)
    _off_published("musou-024", 7, "6a8c", "promotion_choice"),
    _off_published("musou-024", 9, "5d7b", "promotion_choice"),
    # 12番 (published 61, confirmed length): 余詰 at ply 7, R*1a for R*1b, mated within 54 only because
    # interpositions are futile (cshogi's df-pn finds a reply not mated within 53 under raw rules)
    MUSOU_12_PLY_7,
)


@pytest.mark.parametrize("claim", CLAIMS, ids=lambda c: f"{c.row}-{c.kind}-{c.ply}-{c.line[-1]}")
def test_each_claim_is_reproved_independently(claim: Claim) -> None:
    row = musou_rows()[claim.row]
    published = int(row["length"])
    # The published line and the claim's line both replay legally (cshogi alone).
    replay(row["sfen"], row["pv"].split())
    assert claim.line[:claim.ply - 1] == tuple(row["pv"].split()[:claim.ply - 1])
    if claim == CSHOGI_MISSES:
        pytest.skip("cshogi's df-pn misses a defence here: see test_71_ply_2_what_is_reproved")
    got = reprove(claim, published)
    assert not got.contradicted, got.summary()
    if claim.kind == "longer_defence":
        # Raw rules, every interposition counted: no mate within the plies the line has left
        # (cshogi's df-pn, a complete search below its node budget).
        assert got.raw is False, got.summary()
        if got.bound <= BRUTE_MAX:
            # Tsume rules, futile interpositions not counted (the brute force's own judgement).
            assert got.tsume_brute is False, got.summary()
        board = replay(row["sfen"], claim.line)
        if got.bound >= 3:
            # The kernel's raw df-pn (every legal move generated) agrees: no mate within the bound.
            assert kernel_no_mate_within(board, got.bound) is True
        # Tsume rules: no mate within the bound in a game where the defender has at most the moves
        # the rules count (musou_reproof's docstring), or by the brute force, or by the reference search.
        if claim in COUNTED_DROPS_OUT_OF_REACH:
            # The defence needs drops, and the game with counted drops does not reach the bound: the
            # reference search (docs/benchmarks.md).
            assert got.no_drop is True, got.summary()
            assert reference_mate_within(board, got.bound) is False, got.summary()
        elif got.no_drop is not False and got.tsume_brute is not False \
                and counted_drops_mate_within(board, got.bound) is not False:
            # The defence needs drops the game with counted drops does not allow: the brute force
            # (its own judgement of futility) where it reaches, else the reference search.
            if got.bound <= BRUTE_DEEPEST:
                assert bruteforce.BruteForce(True).mates(board, got.bound) is False
            else:
                assert reference_mate_within(board, got.bound) is False
    elif claim.kind in ("alternative", "promotion_choice"):
        # Every defence generated, the kernel proves the alternative mates (the length is cshogi's).
        assert kernel_mated(replay(row["sfen"], claim.line)) is True
    if claim.kind != "longer_defence" and got.raw is not True and got.tsume_brute is not True:
        # A mate only under tsume rules, beyond the brute force: the reference search.
        before = replay(row["sfen"], claim.line[:-1])
        if claim in TSUME_ONLY_SHORTER:
            # No raw mate within the bound (cshogi's df-pn, a complete search): the shorter mate needs an
            # interposition the rules call futile; some attacker move mates within it under tsume rules.
            assert got.raw is False, got.summary()
            assert reference_mate_within(before, got.bound) is True, got.summary()
        elif claim in SHORTER_BY_THE_NEXT:
            # The published move mates within the bound less one: each reply is the published one, which
            # reaches the next claim's node (the same claim two plies on, re-proved by its own case), or
            # another, mated within the bound less two by the reference search (below).
            assert got.raw is False, got.summary()
            published_line = row["pv"].split()
            assert claim.line == tuple(published_line[:claim.ply])   # the claim's move is the published one
            published_reply = published_line[claim.ply]
            nxt = Claim(claim.row, claim.kind, claim.ply + 2, tuple(published_line[:claim.ply + 2]))
            assert nxt in CLAIMS and nxt in TSUME_ONLY_SHORTER | SHORTER_BY_THE_NEXT
            replies = [cshogi.move_to_usi(m) for m in replay(row["sfen"], claim.line).legal_moves]
            assert published_reply in replies
            for reply in replies:
                if reply != published_reply:
                    after = replay(row["sfen"], claim.line + (reply,))
                    assert reference_mate_within(after, got.bound - 2) is True, (reply, got.summary())
        elif claim in REFERENCE_ON_KERNEL:
            # The Python length search on the Python df-pn answers only after 1,645 CPU s (a 12 GB
            # table), too long here: the same search on the kernel's raw df-pn (docs/benchmarks.md).
            assert got.raw is False, got.summary()
            assert reference_on_kernel_mated_within(before, claim.line[-1], got.bound) is True, got.summary()
        else:
            assert claim.kind != "shorter_mate", got.summary()
            assert reference_mated_within(before, claim.line[-1], got.bound) is True, got.summary()


# Rows whose whole check the pure-Python engine does not finish within the test's 300 CPU s
# (2026-11-27: 83番 after 8.1 M nodes, 96番 after 11.7 M; the kernel's checks passed in 21 and
# 45 s on a loaded machine; 67番 on 2026-11-28, a 2.5 GHz Xeon: the kernel's check in about 25 s;
# on 2026-11-28, the same machine loaded: 84番 after 4.2 M nodes, 92番 after 4.5 M, 76番 after 4.9 M,
# 20番 after 5.8 M, 26番 after 6.4 M, 2番 after 6.7 M, the length not proved in any, where the kernel's
# checks passed in 7, 7, 15, 12, 17 and 29 s); 10番 and 34番 at 300 CPU s, 6.2 M and 5.6 M nodes,
# the length not proved (the kernel's checks of the two, solving first: 30 and 43 s wall, loaded).
# 3番 (added later on 2026-11-28): not complete at 300 CPU s on the same machine, loaded (the kernel's check
# from scratch: 96 CPU s).  Of the rows made exact on 2026-11-28, run one at a time on the same machine
# (11:10-12:06 UTC, the check of 0c460fe, where the 300 CPU s bounded the solve and the check together):
# 4番 after 7.5 M nodes, 5番 7.8 M, 17番 5.7 M, 25番 4.3 M, 45番 8.6 M and 70番 8.6 M with the length not
# proved; 15番, 16番 and 27番 after 7.2 M, 7.7 M and 7.0 M with the length proved (33, 53, 27) and the line
# not yet compared.  7番, 11番, 18番, 39番 and 89番 passed (146, 39, 129, 167 and 49 CPU s).
# Their discrepancies are re-proved by test_each_claim_is_reproved_independently (for the rows added
# on 2026-11-28, its kernel-engine copies were run); only the Python engine's own listing is out of reach.
# 14番 (added 2026-12-02): not complete at 300 CPU s (15.7 M nodes, the length not proved; the kernel's
# check of the row passed).
PYTHON_OUT_OF_REACH = {"musou-083", "musou-096", "musou-075", "musou-067", "musou-084", "musou-092", "musou-076",
                       "musou-010", "musou-034", "musou-014",
                       "musou-020", "musou-026", "musou-002", "musou-003",
                       "musou-004", "musou-005", "musou-015", "musou-016", "musou-017", "musou-025", "musou-027",
                       "musou-045", "musou-070"}
# Rows listed on 2026-11-29 from the kernel's run: the Python engine's own listing of them has not been run
# (46番's was started once, beside other work, and stopped unfinished after 400 s wall).
PYTHON_NOT_RUN = {"musou-056", "musou-068", "musou-072", "musou-080", "musou-046",
                  "musou-024", "musou-012"}   # listed on 2026-12-07 from the kernel's run


@pytest.mark.parametrize("row_id", sorted({c.row for c in CLAIMS}))
def test_the_tool_reports_exactly_these(row_id: str, engine: str) -> None:
    if engine == "python" and row_id in PYTHON_OUT_OF_REACH:
        pytest.skip("the Python engine's check of this row takes more than 300 CPU s")
    if engine == "python" and row_id in PYTHON_NOT_RUN:
        pytest.skip("the Python engine's check of this row has not been run (listed from the kernel's)")
    row = musou_rows()[row_id]
    result = check_solution(Position.from_sfen(row["sfen"]), row["pv"].split(), Limits(seconds=300, cpu_time=True))
    found = {(d.kind, d.ply, d.line) for d in result.discrepancies}
    claimed = {(c.kind, c.ply, c.line) for c in CLAIMS if c.row == row_id}
    assert result.complete and result.length is not None
    assert found == claimed


CSHOGI_MISSES = _c("musou-071", "longer_defence", 2, "9f9g 8h7h")
# 92番's 早詰 at plies 1, 3 and 5 (below): no raw mate within the bound, and the reference search asked from the
# claim's node does not answer within minutes (2026-11-28, a loaded 2.5 GHz Xeon: no answer at ply 1 in 15 min
# wall, nor at ply 5 in 4 min; 2026-12-07, the Zen 3 guest: none at ply 5 in 24 CPU min on the kernel's raw
# df-pn).  Each is re-proved from the next, two plies on: after the published move (G*5h, G*4i, S*6h) the
# published reply reaches the next claim's node, and every other reply (5i6i at plies 1 and 5; at ply 3 there
# is none) is mated within the bound less two by the reference search (1.2-1.3 CPU s); ply 5 rests on ply 7's
# re-proof, ply 3 on ply 5's, ply 1 on ply 3's.
SHORTER_BY_THE_NEXT = set(_along("musou-092", "shorter_mate", range(1, 6, 2), PRE92))
# 92番's 早詰 at plies 1 to 21 (the tool: mate in 49, published 51) hold under tsume rules only: at each of
# them cshogi's df-pn proves no raw mate within the bound (a complete search; from ply 23 on it finds the
# shorter mate under raw rules too).  At ply 21, after the published 6h1h, every reply of the defender is
# mated within 27 under raw rules but the pawn interpositions P*1f and P*1g (each taken by the dragon, nothing
# else changed), which tsume rules call futile.  From ply 7 on they are re-proved under tsume rules by the
# reference search alone (the Python length search, which shares the tool's reading of futility; 2.2 to 78
# CPU s a ply on 2026-11-28, a 2.5 GHz Xeon).
TSUME_ONLY_SHORTER = set(_along("musou-092", "shorter_mate", range(7, 22, 2), PRE92))
# 余詰 claims the reference search answers only on the kernel's raw df-pn (musou_reproof's
# reference_on_kernel_mated_within): 12番 at ply 7 in 267 CPU s (2026-12-07, the Zen 3 guest).
REFERENCE_ON_KERNEL = {MUSOU_12_PLY_7}
# 変長 whose defence needs drops where the game with counted drops is out of this module's reach: the reference
# search alone re-proves them under tsume rules.  43番 at ply 22 (25 plies): no mate within 25 in 7.6 CPU s
# (2026-12-07, the Zen 3 guest; on 2026-11-28 an earlier reference search ran out of a 4 GB table).
COUNTED_DROPS_OUT_OF_REACH = {_c("musou-043", "longer_defence", 22, PRE43 + " 6a5b")}


def test_cshogi_mate_on_71_misses_a_defence() -> None:
    """71番, ply 2: the tool says 8h7h lasts beyond the 23 plies the published line has left;
    cshogi's df-pn says mate in 15 (``R*6h 7h7g N*6i 8i6i+ ...``).  Its line is no mate: after
    ``N*6i`` the rook may capture without promoting (8i6i), which cshogi's search leaves out, and
    after that capture cshogi itself finds no mate within 11 (the tool: no mate at all)."""
    row = musou_rows()["musou-071"]
    board = replay(row["sfen"], ("9f9g", "8h7h"))
    dfpn = cshogi.DfPn(23, 20_000_000)
    assert dfpn.search(board)
    line = [cshogi.move_to_usi(m) for m in dfpn.get_pv(board)]
    assert line[:4] == ["R*6h", "7h7g", "N*6i", "8i6i+"]
    after = replay(row["sfen"], ("9f9g", "8h7h", "R*6h", "7h7g", "N*6i", "8i6i"))   # legal: not promoting
    assert raw_mate_within(after, 11) is False
    promoted = replay(row["sfen"], ("9f9g", "8h7h", "R*6h", "7h7g", "N*6i", "8i6i+"))
    assert raw_mate_within(promoted, 11) is True


def test_71_ply_2_what_is_reproved() -> None:
    """71番, ply 2 (8h7h): the tool says the defender lasts beyond the 23 plies the published line has
    left (the tool: mate in 25 from here, 27 in all).

    What the tsume-rule claim needs: a defence lasting beyond 23 plies that uses only moves tsume
    rules count.  A game in which the defender has *fewer* moves than the rules count bounds it
    soundly (no mate within n there, so none under tsume rules: the same defence works); a game with
    more moves (raw rules, every drop counted) bounds it only the other way.

    * Raw rules: the kernel's raw df-pn, which generates the rook's non-promoting capture cshogi's
      leaves out, finds no mate within 23.  Necessary, not sufficient.
    * The defender not dropping at all: the attacker mates within 23.  So the defence needs drops,
      and whether they count is the question of futility the claim rests on.  (The former argument,
      "no mate within 23 with the defender's hand emptied", was no such bound: the defender may still
      drop what it captures later.)
    * The defender dropping only where every Kakinoki test position is not mated within the bound
      (the no-drop game shows it), which every such drop counts under: no mate within 11.  So under
      tsume rules the defence lasts at least 13 plies here; this search does not reach 23.
    * The reference tsume-rule search (the Python length search on the Python df-pn, written apart
      from the kernel's): no mate within 23 (90 CPU s on 2026-12-07; on 2026-11-28 an earlier version
      ran out of a 4 GB table).

    So under tsume rules 71番 ply 2 is re-proved by the reference search, which reads futility with the
    same rules as the tool, not by a game that needs no reading of futility (docs/benchmarks.md).
    """
    row = musou_rows()["musou-071"]
    board = replay(row["sfen"], CSHOGI_MISSES.line)
    assert kernel_no_mate_within(board, 23) is True
    assert no_drop_mate_within(board, 23) is True
    assert counted_drops_mate_within(board, 11) is False
    assert reference_mate_within(board, 23) is False
