"""What a worker of a solve by tiers does with a chunk of a tier (``tiers.py`` runs the solve).

A worker gets a ``TierJob`` (the solution directory and how to make the game) and a chunk: a
range of a tier's positions. It makes the game once per process (``_context``), reads the
solved tiers it needs from the directory, and returns what the solve merges:

- ``discover_chunk``: the children of the chunk's positions, by tier (Python, or the native
  helper's ``found`` on a list of keys);
- ``discover_runs``: the same in C straight from the tier's ``.frontier`` file, the children of
  later tiers written as sorted runs;
- ``value_chunk``: the records of a tier whose moves all leave it, written at their place in
  the tier's ``.sol.partial`` file (in C where it can, else ``_value_keys``);
- ``edges_chunk``: the rows of a tier whose moves may stay in it, for its retrograde analysis.

A chunk that native code fails on (a rule failed, a move lowers the tier) is done again in
Python, which says where.
"""

from __future__ import annotations

import bisect
from array import array
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from . import tierfiles as F
from .errors import GameContractError, NoMovesError, SolverError, after_moves
from .graph import TERMINAL, outside_bounds
from .protocol import CHANCE, MAX, Game, State
from .remoteness import hurries
from .result import bounds_of
from .trace import search_frame


@dataclass
class TierGame:
    """What the solver needs of a game: the protocol, the tier, and the packing of states.

    Attributes:
        game: The game.
        tier: State -> its tier.
        pack: State -> key (a whole number below ``256 ** width``).
        unpack: Key -> state.
        width: Bytes of a key.
        check: State -> None, raising an error that says why ``pack`` failed on it, with
            ``after(moves)``: the same error at the position after those moves.
        native: A helper that finds (``children(keys)``) and values (``values(keys,
            solved)``) a chunk of a tier whose moves all leave it in native code, or None
            (``plies.backends.native.tiers``); a chunk it fails on is done again in Python.

    With symmetries, ``pack`` gives a position and its images one key (``least_key`` in
    ``symmetry.py``) and ``unpack`` the position of the class that has it: every position the
    solve stores stands for its class.
    """

    game: Game
    tier: Callable[[State], int]
    pack: Callable[[State], int]
    unpack: Callable[[int], State]
    width: int
    check: Callable[[State], None] | None = None
    native: object = None

    def __post_init__(self) -> None:
        self.bounds = bounds_of(getattr(self.game, "utility_bounds", None))
        """The declared utility bounds (-inf, inf without), checked at every end found."""

    def key(self, state: State) -> int:
        """``pack(state)``, or the error ``check`` gives of why it cannot be packed."""
        try:
            return self.pack(state)
        except Exception:
            if self.check is not None:
                self.check(state)
            raise


@dataclass(frozen=True)
class TierJob:
    """A solve's directory and how a worker builds its ``TierGame`` (``make()``, picklable).

    ``run`` names one run of the solve: a worker keeps the game and the tier files it opened
    for as long as it gets chunks of the same run.
    """

    directory: str
    make: Callable[[], TierGame]
    run: str = ""
    compact: bool = False
    """Workers return keys as the bytes of 64-bit arrays (quicker to pass than numbers)."""


_CONTEXT: dict = {}
"""Per process: the job's TierGame and its open tier files (solved tiers never change)."""


def _context(job: TierJob) -> tuple[TierGame, dict]:
    found = _CONTEXT.get(job.run)
    if found is None:
        _drop_valuing()
        for _, files in _CONTEXT.values():
            for opened in files.values():
                opened.close()
        _CONTEXT.clear()
        found = _CONTEXT[job.run] = (job.make(), {})
    return found


def _solved(job: TierJob, files: dict, tier: int) -> F.TierFile:
    found = files.get(tier)
    if found is None:
        found = files[tier] = F.TierFile(Path(job.directory) / (F.tier_name(tier) + ".sol"))
    return found


def discover_chunk(job: TierJob, tier: int, keys):
    """The children of some positions of ``tier``: ``(same, later, stays, problem)``.

    ``keys``: the positions, or ``(start, stop)`` of the tier's ``.frontier`` file.
    ``same``: keys of children in ``tier``; ``later``: tier -> keys of children in later
    tiers (each as the bytes of a 64-bit array when ``job.compact``); ``stays``: some move
    stays in ``tier``; ``problem``: None, or ``(key, move text, tier after, message)`` for a
    move lowering the tier or a failing rule.
    """
    tg, _ = _context(job)
    if isinstance(keys, tuple):
        opened = F.TierFile(Path(job.directory) / (F.tier_name(tier) + ".frontier"))
        try:
            keys = opened.keys(*keys)
        finally:
            opened.close()
    same, later, stays, problem = _discover(tg, tier, keys)
    if job.compact and problem is None:
        same = array("Q", same).tobytes()
        later = {t: array("Q", kin).tobytes() for t, kin in later.items()}
    return same, later, stays, problem


def discover_runs(job: TierJob, tier: int, start: int, stop: int, chunk: int):
    """Native finding (``TierGame.native``): the children of positions ``start``..``stop`` of
    ``tier``'s ``.frontier`` file, those in later tiers written as runs (``run-U-T-C.keys``,
    sorted without repeats), without a Python number per position. Returns ``(same,
    problem)``: the bytes of the sorted keys of children in ``tier`` itself (b"" when moves
    all leave it), and as ``discover_chunk``'s problem."""
    tg, _ = _context(job)
    directory = Path(job.directory)
    opened = F.TierFile(directory / (F.tier_name(tier) + ".frontier"))
    try:
        view = opened.key_buffer(start, stop)
        try:
            groups = tg.native.found(view, tier)
        except ValueError:  # a rule failed, or a move lowers the tier: Python says where
            groups = None
        finally:
            view.release()
        if groups is None:
            same, later, _, problem = _discover_python(tg, tier, opened.keys(start, stop))
            if problem is not None:
                return b"", problem
            groups = [(tier, array("Q", sorted(same)))] if same else []
            groups += [(t, array("Q", sorted(kin))) for t, kin in sorted(later.items())]
    finally:
        opened.close()
    same = b""
    for child_tier, keys in groups:
        if child_tier == tier:
            same = bytes(keys)
        else:
            F.write_run(directory / F.run_name(child_tier, tier, chunk), child_tier, keys)
    return same, None

def _discover(tg: TierGame, tier: int, keys: list[int]):
    """``discover_chunk`` for a list of keys."""
    if tg.native is not None:
        found = _native_children(tg.native, tier, keys)
        if found is not None:
            return found
    return _discover_python(tg, tier, keys)


def _discover_python(tg: TierGame, tier: int, keys: list[int]):
    """``_discover`` by the game's Python code."""
    same: set[int] = set()
    later: defaultdict[int, set[int]] = defaultdict(set)
    for key in keys:
        try:
            for move, child_tier, child_key in _children(tg, key):
                if child_tier == tier:
                    same.add(child_key)
                elif child_tier > tier:
                    later[child_tier].add(child_key)
                else:
                    return same, later, False, (key, str(move), child_tier, None)
        except Exception as error:  # noqa: BLE001 - a rule failed: the caller says where
            return same, later, False, (key, "", tier, str(error) or type(error).__name__)
    return same, later, bool(same), None


@search_frame  # a rule failing here is located as in a search: at the move, if any
def _children(tg: TierGame, key: int):
    """``(move, tier, key)`` of each child of the position ``key``, one at a time (none where
    the game is over), raising what the game's rules raise there: NoMovesError where a
    position that is not over has no move, UtilityOutOfBoundsError where the game is over with
    a utility outside the declared bounds, GameContractError at a chance position."""
    game = tg.game
    state = tg.unpack(key)
    utility = game.outcome(state)
    if utility is not None:
        low, high = tg.bounds
        if not low <= utility <= high:  # as the strong solve in memory
            raise outside_bounds(utility, low, high)
        return
    if game.to_move(state) == CHANCE:
        raise GameContractError("a chance position: a solution directory holds games without "
                                "chance")
    pairs = game.successors(state)
    if not pairs:
        raise NoMovesError("a non-terminal position has no legal moves")
    for move, child in pairs:
        child_tier = tg.tier(child)
        try:
            child_key = tg.key(child)
        except Exception as error:  # the move named too: the solve says where
            error.move = move
            raise
        yield move, child_tier, child_key


def failure_at(tg: TierGame, key: int) -> Exception | None:
    """What the game's rules raise at the position ``key`` as its children are found (a
    worker's problem, met again in this process to report it at its rule), or None."""
    try:
        for _ in _children(tg, key):
            pass
    except Exception as error:  # noqa: BLE001 - the failure itself is the answer
        return error
    return None


def _native_children(native, tier: int, keys: list[int]):
    """``discover_chunk``'s answer from native code, or None to find the chunk in Python (a
    rule failed, or a move lowers the tier: Python says where)."""
    try:
        groups = native.found(array("Q", keys), tier)
    except ValueError:
        return None
    same: set[int] = set()
    later: defaultdict[int, set[int]] = defaultdict(set)
    for child_tier, kin in groups:
        (same if child_tier == tier else later[child_tier]).update(kin.cast("Q"))
    return same, later, bool(same), None


def value_chunk(job: TierJob, tier: int, start: int, stop: int) -> int:
    """Values positions ``start``..``stop`` of a tier whose moves all leave it: their records
    written at their place in the tier's ``.sol.partial`` file; returns how many."""
    tg, _ = _context(job)
    directory = Path(job.directory)
    here = F.TierFile(directory / (F.tier_name(tier) + ".positions"))
    try:
        records = None
        if tg.native is not None:
            view = here.key_buffer(start, stop)
            try:
                records = tg.native.values(view, *_native_solved(job, tier))
            except ValueError:
                pass  # a rule failed, or a value does not fit: Python says where
            finally:
                view.release()
        if records is None:
            records = _value_keys(job, tier, here.keys(start, stop))
        at = here.records_at + start * F.RECORD.size
    finally:
        here.close()
    with open(directory / (F.tier_name(tier) + ".sol.partial"), "r+b") as out:
        out.seek(at)
        out.write(records)
    return stop - start


_VALUING: dict = {}
"""Per process, for native valuing: the tier being valued, the later solved tiers' open files
and the indexes native code made of them (dropped when the next tier starts)."""


def _native_solved(job: TierJob, tier: int) -> tuple[dict, dict]:
    """The solved tiers above ``tier`` (tier -> ``TierFile``) and their indexes."""
    if _VALUING.get("at") != (job.run, tier):
        _drop_valuing()
        solved = {}
        for path in Path(job.directory).glob("tier-*.sol"):
            later = F.parse_tier(path.stem)
            if later is not None and later > tier:
                solved[later] = F.TierFile(path)
        _VALUING.update(at=(job.run, tier), solved=solved, indexes={})
    return _VALUING["solved"], _VALUING["indexes"]


def _drop_valuing() -> None:
    indexes = _VALUING.pop("indexes", None)
    if indexes is not None:
        indexes.clear()
    for opened in _VALUING.pop("solved", {}).values():
        opened.close()
    _VALUING.clear()


def _value_keys(job: TierJob, tier: int, keys: list[int]) -> bytes:
    """The records of ``keys`` of a tier whose moves all leave it, by the game's Python
    code."""
    tg, files = _context(job)
    game, tier_of, pack, unpack = tg.game, tg.tier, tg.pack, tg.unpack
    outcome, to_move, successors = game.outcome, game.to_move, game.successors
    out = bytearray()
    record, read = F.RECORD.pack, F.RECORD.unpack_from
    size, none = F.RECORD.size, F.NO_REMOTENESS
    bisect_left = bisect.bisect_left
    tables = {}  # tier -> (keys, its file's memory, where the records start), by tier
    for key in keys:
        state = unpack(key)
        utility = outcome(state)
        if utility is not None:
            out += record(_stored_value(utility, key), 0)
            continue
        role = to_move(state)
        values, far = [], []
        for _, child in successors(state):
            child_tier = tier_of(child)
            table = tables.get(child_tier)
            if table is None:
                opened = _solved(job, files, child_tier)
                table = tables[child_tier] = (opened.key_sequence, opened.map, opened.records_at)
            sought = pack(child)
            child_keys, data, at = table
            i = bisect_left(child_keys, sought)
            if i == len(child_keys) or child_keys[i] != sought:
                raise SolverError(f"a child of a position of tier {tier} is missing from tier "
                                  f"{child_tier}: the solution directory is damaged")
            v, r = read(data, at + i * size)
            values.append(v)
            far.append(None if r == none else r)
        value = max(values) if role == MAX else min(values)
        counted = [r for v, r in zip(values, far) if v == value]
        if hurries(role, value):
            known = [r for r in counted if r is not None]
            distance = min(known) + 1 if known else None
        else:
            distance = None if None in counted else max(counted) + 1
        out += record(value, _stored_remoteness(distance, key))
    return bytes(out)


def edges_chunk(job: TierJob, tier: int, start: int, stop: int) -> list[tuple]:
    """For positions ``start``..``stop`` of a tier whose moves may stay in it:
    ``(role, utility, children)`` each, a child as ``(key, None, None)`` when in the tier and
    ``(key, value, remoteness)`` read from its solved tier otherwise."""
    tg, files = _context(job)
    game, tier_of, pack, unpack = tg.game, tg.tier, tg.pack, tg.unpack
    here = F.TierFile(Path(job.directory) / (F.tier_name(tier) + ".positions"))
    try:
        keys = here.keys(start, stop)
    finally:
        here.close()
    rows = []
    for key in keys:
        state = unpack(key)
        utility = game.outcome(state)
        if utility is not None:
            rows.append((TERMINAL, _stored_value(utility, key), ()))
            continue
        kids = []
        for _, child in game.successors(state):
            child_tier, child_key = tier_of(child), pack(child)
            if child_tier == tier:
                kids.append((child_key, None, None))
            else:
                kids.append((child_key, *_solved(job, files, child_tier).lookup(child_key)))
        rows.append((game.to_move(state), None, tuple(kids)))
    return rows


class StoredValueError(SolverError):
    """A value or a remoteness that a solution directory cannot hold, met at the position
    ``key`` (None where no one position has it); the solve names the position
    (``located`` in tiers.py)."""

    def __init__(self, what: str, limit: str, key: int | None = None,
                 moves: list[str] | None = None) -> None:
        self.what, self.limit, self.key, self.moves = what, limit, key, moves
        super().__init__(f"{what}{after_moves(moves)}: a solution directory holds {limit}; "
                         "give --db a file name ending in .db to store this game's solution "
                         "in SQLite")

    def __reduce__(self):  # across processes with its position
        return type(self), (self.what, self.limit, self.key, self.moves)


def _stored_value(value, key: int | None = None) -> int:
    if type(value) is not int and not (hasattr(value, "denominator") and value.denominator == 1):
        raise StoredValueError(f"a value of {value}", "whole-number values", key)
    value = int(value)
    if not -F.LARGEST_VALUE <= value <= F.LARGEST_VALUE:
        raise StoredValueError(f"a value of {value}",
                               f"values from -{F.LARGEST_VALUE} to {F.LARGEST_VALUE}", key)
    return value


def _stored_remoteness(distance: int | None, key: int | None = None) -> int:
    if distance is None:
        return F.NO_REMOTENESS
    if distance > F.LARGEST_REMOTENESS:
        raise StoredValueError(f"a remoteness of {distance}",
                               f"remoteness of at most {F.LARGEST_REMOTENESS}", key)
    return distance
