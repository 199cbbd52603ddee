"""Types of the compiled kernel (core/kernel/c++/binding.cpp)."""

MAX_PLY: int

class Board:
    """A position with its move history.  Moves are USI strings; bad input raises ValueError."""

    def __init__(self, sfen: str = ...) -> None: ...
    def set_sfen(self, sfen: str) -> None:
        """Replace the position (and drop the history); the board is unchanged when the SFEN is bad."""
    def sfen(self) -> str: ...
    @property
    def turn(self) -> int:
        """0 when Black is to move, 1 when White."""
    @property
    def ply(self) -> int:
        """Moves pushed since the SFEN was set."""
    def in_check(self) -> bool: ...
    def key(self) -> int:
        """Zobrist key of the board and the side to move (hands apart), 64 bits."""
    def hand(self, color: int) -> int:
        """The packed hand of a colour (see types.h); compare with hand_dominates."""
    def hand_count(self, color: int, piece: str) -> int:
        """How many of a piece (P L N S B R G) a colour holds."""
    def legal_moves(self) -> list[str]: ...
    def check_moves(self) -> list[str]:
        """Legal moves that check the other king (promotions and non-promotions both)."""
    def evasions(self) -> list[str]:
        """Legal moves of the side in check; empty when it is not in check."""
    def is_legal(self, usi: str) -> bool: ...
    def gives_check(self, usi: str) -> bool: ...
    def move16(self, usi: str) -> int:
        """The legal move's 16-bit code, as cshogi's move16."""
    def push(self, usi: str) -> None: ...
    def pop(self) -> str:
        """Take back the last move pushed and return it."""
    def mate_in_one(self) -> str | None:
        """A checking move after which the other side has no legal move, or None."""
    def mate_in_one_and_checks(self) -> tuple[str | None, list[str]]:
        """(mate_in_one(), check_moves()) from one generation of the checks."""
    def is_pawn_drop_mate(self, square: str) -> bool:
        """Whether a pawn dropped on the square by the side to move would mate (打ち歩詰め)."""
    def perft(self, depth: int) -> int: ...
    def consistent(self) -> bool:
        """Every incrementally kept field equals its recomputation."""

def hand_dominates(a: int, b: int) -> bool:
    """Whether packed hand a holds at least as many of every piece as packed hand b."""

def bench_perft(sfen: str, depth: int) -> tuple[int, float]:
    """(leaves, CPU seconds) of perft(depth) from sfen."""

def bench_generation(sfens: list[str], rounds: int) -> dict[str, float]:
    """Checks of each position and evasions after each check, generated `rounds` times, timed."""

def self_test(samples: int = 100) -> str:
    """Attack tables and do/undo against recomputation; '' when all agree."""

# ---- df-pn (core/kernel/c++/bind_search.cpp) ----

class DfPnSearch:
    """df-pn for a direct mate from an SFEN (the side to move attacks), with its table."""

    bytes_per_entry: int

    def __init__(self, sfen: str, memory_mb: int = 1024, mate1: bool = True, dominance: bool = True,
                 tca: bool = True, rps: bool = True, epsilon: float = 0.25, max_ply: int = 4000,
                 delay: str = "hand", mate3: bool = True, play_checks: bool = False) -> None:
        """``play_checks``: play each new check when its node expands, its evasions counted for
        its proof number (off: its numbers are estimated from the board and it is played only
        when searched).  ``mate3`` (with ``play_checks`` only): the 3-ply mate test when an OR
        node expands (a check with at most four evasions, each mated in one, is proven at once)."""
    def run(self, nodes: int = 0, seconds: float = -1.0, cpu_time: bool = False) -> str:
        """'proven', 'disproven' or 'unknown' (a limit, or cancelled); the GIL is released meanwhile."""
    def principal_variation(self, nodes: int = 0, seconds: float = -1.0,
                            cpu_time: bool = False) -> tuple[list[str], bool]:
        """(moves, complete): the proof line, searched on until it replays to mate."""
    def search_position(self, sfen: str, or_node: bool, nodes: int = 0, seconds: float = -1.0,
                        cpu_time: bool = False) -> str:
        """Search another position into the same table (or_node: the attacker is to move); as run()."""
    def probe(self, sfen: str) -> tuple[int, int, int, str] | None:
        """(pn, dn, proof length or -1, an OR node's proving move or '') of the entry answering a position."""
    def track_decided(self) -> None:
        """Keep a filter of the boards the table holds a verdict on (as a length search's raw table does)."""
    def may_be_decided(self, sfen: str) -> bool:
        """False when the table holds no verdict on the position's board (by the filter, once tracked)."""
    def clear_table(self) -> None:
        """Empty the table, back to a new one's size (the last run's verdict stays); the next run searches afresh."""
    def cancel(self) -> None:
        """Stop the running search from any thread."""
    def clear_cancel(self) -> None:
        """Forget a cancel, so that the next run() searches on with the table kept."""
    def snapshot(self) -> tuple[int, int, int, int, float, float, list[tuple[int, bool, list[tuple[str, int, int]]]]]:
        """(nodes, root pn, root dn, entries, fill, CPU seconds, path levels (selected, OR node, children))."""
    @property
    def nodes(self) -> int: ...
    @property
    def entries(self) -> int: ...
    @property
    def peak_entries(self) -> int: ...
    @property
    def capacity(self) -> int: ...
    @property
    def collections(self) -> int: ...
    @property
    def cpu_seconds(self) -> float: ...
    @property
    def moves(self) -> int:
        """Moves played (do_move calls) so far, searches and lines together; between searches only."""

# ---- the length-aware tsume-rule search (core/kernel/c++/bind_length.cpp) ----

class LengthSearch:
    """The length-aware tsume-rule search of one problem, with its table of proved length bounds.

    Positions are SFENs of the problem (the same pieces as the root); answers are 'yes', 'no',
    'paused' (the pause slice ended at the outermost question) or 'stopped' (a limit or cancel).
    Bounds of 'no bound' come back as -1.
    """

    max_question: int

    def __init__(self, sfen: str, memory_mb: int = 256, oracle_mb: int = 64, distance_rule: bool = True,
                 look_from: int = 4, look_nodes: int = 64, root_look_from: int = 4,
                 root_look_nodes: int = 3000, oracle: DfPnSearch | LengthSearch | None = None,
                 drops: str = "judged", nested_lower_mb: int = 0) -> None:
        """``oracle``: the raw df-pn to share (a DfPnSearch, or another LengthSearch's).  ``drops``:
        'judged' (the tsume rules), or a restricted game whose "no mate within n" bounds the
        tsume-rule length from below: 'none' (no drop interposition) or 'effective' (only the drops
        the oracle LengthSearch has judged to count); or 'all', raw rules (every drop counted, no
        futility), whose "no mate within n" is a proof where a depth-bounded df-pn gives none.
        ``nested_lower_mb``: a table of that size for a 'none' game of the search's own that answers
        first the "no" questions of its futility tests (0: none)."""
    def question(self, sfen: str, or_node: bool, n: int, nodes: int = 0, stop_seconds: float = -1.0,
                 pause_nodes: int = 0, pause_work: int = 0) -> str:
        """Mate within n plies under tsume rules?  The GIL is released meanwhile.  'paused' after
        pause_nodes more nodes or pause_work more nodes of the search and its raw df-pn together,
        whichever first (0: none); a pause comes by counts only, so the search is the same from
        run to run.  'stopped' at the node limit or stop_seconds (wall clock) or a cancel."""
    def exact(self, sfen: str, or_node: bool, cap: int, nodes: int = 0, stop_seconds: float = -1.0,
              pause_nodes: int = 0, pause_work: int = 0) -> tuple[str, int]:
        """(answer, length): the exact tsume-rule length when it is at most cap."""
    def defences(self, sfen: str, value: int, nodes: int = 0, stop_seconds: float = -1.0,
                 pause_nodes: int = 0, pause_work: int = 0
                 ) -> tuple[str, list[str], list[tuple[int, list[str], bool, list[str]]]]:
        """(answer, counted defences, [(square, drops, omitted by the distance rule, Kakinoki's test SFENs)])."""
    def prove_root(self, nodes: int = 0, seconds: float = -1.0) -> str:
        """The raw df-pn of the root up to an absolute node count (0: none) or seconds of wall
        clock (negative: none): 'proven', 'disproven' or 'unknown'."""
    def oracle_probe(self, sfen: str) -> tuple[int, int, int, str]:
        """(pn, dn, proof length or -1, proving move or '') from the raw df-pn's table."""
    def oracle_line(self, nodes: int = 0, seconds: float = -1.0) -> tuple[list[str], bool]:
        """The raw df-pn's line of the root and whether it replays to mate."""
    def bounds(self, sfen: str) -> tuple[int, int, str]:
        """(lo, hi, best move or '') of the position in the table."""
    def futile_from(self, sfen: str, square: int) -> int:
        """The smallest bound at which the drop square was judged futile, -1 when never (no search)."""
    def oracle_snapshot(
            self) -> tuple[int, int, int, int, float, float, list[tuple[int, bool, list[tuple[str, int, int]]]]]:
        """The raw df-pn's last published progress (as ``DfPnSearch.snapshot``)."""
    def snapshot(
            self) -> tuple[int, int, int, int, float, float, list[tuple[int, bool, list[tuple[str, int, int]]]]]:
        """The same, under the name a poller of ``DfPnSearch`` reads."""
    def cancel(self) -> None:
        """Stop the running call from any thread."""
    def clear_cancel(self) -> None:
        """After :meth:`cancel`: the next call searches on, the tables kept (the oracle's cancel
        cleared too)."""
    @property
    def nodes(self) -> int:
        """Nodes searched.  ``nodes``, ``oracle_nodes``, ``futility_tests``, ``entries`` and
        ``capacity`` may be read from another thread while a call runs: they give the counts last
        published (every 1,024 nodes); the other counts are read between calls."""
    @property
    def oracle_nodes(self) -> int: ...
    @property
    def questions(self) -> int: ...
    @property
    def futility_tests(self) -> int: ...
    @property
    def nested_lower_refutations(self) -> int: ...
    @property
    def futility_nodes(self) -> int:
        """Nodes spent inside the outermost futility tests (nested questions and games)."""
    @property
    def squares_unjudged(self) -> int:
        """Drop squares let in as defences without a futility verdict: every drop on them was
        already known mated within the bound, so the answer is the same either way."""
    @property
    def entries(self) -> int: ...
    @property
    def capacity(self) -> int: ...
    @property
    def collections(self) -> int: ...
    @property
    def attacker(self) -> int: ...
    @property
    def drops(self) -> str:
        """'judged', 'none' or 'effective' (as given)."""
