"""Strong solving by tiers: every position's value and remoteness, one tier at a time, on disk.

A *tier* is a whole number of a position that no move lowers (``tier EXPR`` in a game, or
found from its rules). Positions of a tier lead to positions of the same tier or of later
ones, never back, so a game can be solved in two passes over its tiers, as GAMESMAN's tier
solvers do:

1. **Finding the positions, first tier forward.** The positions of a tier are those found
   from earlier tiers' positions, then from each other until no new one appears (a tier's
   positions may lead to each other). Their packed keys (``Packing``) are sorted and written
   (``tier-T.positions``); the keys already found in later tiers are written too
   (``pending-T.positions``), so a solve stopped while finding goes on from there. With a
   native helper (``TierGame.native``, 64-bit keys) no key becomes a Python number: a chunk's
   children come back from C sorted by tier and key, each worker writes them as *runs*
   (``run-U-T-C.keys``), and a tier's runs are merged in C into its file; the runs are the
   checkpoint.
2. **Valuing them, last tier back.** Every child of a position lies in its own tier, solved
   already, or in a later one, solved earlier and read from its file. A tier whose moves all
   leave it is valued position by position; one whose moves may stay in it is solved as a
   small game whose ends are its own terminal positions and the positions of later tiers it
   leads to, by the retrograde analysis of ``retrograde.py`` (cycles included) and
   remoteness counted from those ends (``seeded_remoteness``). A solved tier is written whole
   under its final name (``tier-T.sol``) and never solved again; the workers write the
   records of a tier whose moves all leave it at their place in that file.

Each pass splits a tier into chunks of positions that an *engine* runs: one after the other
(``SerialEngine``), in a pool of processes (``PoolEngine``) or as Ray tasks (``RayEngine``),
in ``engines.py``.
A tier is the point where they meet: its chunks' results are merged in the order of the keys,
so the files are the same bytes whatever the engine and however many workers it has.

What a worker does with a chunk is in ``tierchunks.py``. A worker rebuilds the game from a
``TierJob``'s ``make`` (a picklable function given by the caller), once per process, and reads
the solved tiers it needs from the directory, which must therefore be on a filesystem every
worker sees. With the game's symmetries, ``TierGame.pack`` gives a position and its images one
key (``least_key`` in ``symmetry.py``), and each position stored stands for its class.
"""

from __future__ import annotations

import heapq
from array import array
import os
import shutil
import sys
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from time import perf_counter

from . import tierfiles as F
from .errors import GameContractError, SolverError, format_moves
from .graph import TERMINAL, PositionFailedError, PositionGraph
from .protocol import CHANCE, Game, Move, State
from .remoteness import hurries
from .engines import SerialEngine
from .retrograde import EndlessPlayError, endless_values, settle, undeclared_endless
from .tierchunks import (StoredValueError, TierJob, _context, _stored_remoteness, _stored_value,
                         discover_chunk, discover_runs, edges_chunk, failure_at, value_chunk)

CHUNK_POSITIONS = 20_000
"""Most positions in one chunk (a chunk of Connect Four takes about 0.2 s in Python)."""
MIN_CHUNK_POSITIONS = 500
"""Fewest positions in a chunk when a tier is split among workers."""
NATIVE_CHUNK_POSITIONS = 250_000
"""Most positions in one chunk found or valued in native code (about 0.1 s: workers that
finish a tier wait for the last chunk less)."""


class TierLoweredError(SolverError):
    """A move leads to a position of a lower tier: the tier is not one that moves never lower.

    Attributes:
        moves: The moves from the start to that position (the last one lowers the tier).
    """

    def __init__(self, moves: Sequence[Move], before: int, after: int) -> None:
        self.moves = list(moves)
        super().__init__(f"the move {moves[-1] if moves else '?'} lowers the tier from {before} "
                         f"to {after} (after moves: {format_moves(self.moves)}); no move may "
                         "lower the tier")


class TierSolveStopped(SolverError):
    """A limit stopped the solve between chunks; the tiers solved before are kept on disk.

    Attributes:
        stopped_by: ``timeout``, ``memory`` or ``interrupt``.
    """

    def __init__(self, stopped_by: str, doing: str) -> None:
        self.stopped_by = stopped_by
        super().__init__(doing)

@dataclass
class TierSummary:
    """What a finished solve by tiers knows.

    Attributes:
        tiers: ``(tier, positions, stays)`` for every tier, in order.
        positions: All the positions.
        value: The start's value.
        remoteness: The start's remoteness (None: the end cannot be forced).
        solved_now: Tiers solved by this run (the others were on disk already).
        seconds: Time this run took.
        bytes: Size of the directory's files.
    """

    tiers: list[tuple[int, int, bool]]
    positions: int
    value: int
    remoteness: int | None
    solved_now: int
    seconds: float
    bytes: int

def _keys(data):
    """Keys as a worker returned them: numbers, or the bytes of a 64-bit array."""
    return array("Q", data) if isinstance(data, bytes) else data

# ---- the solve -----------------------------------------------------------------------------


def solve_by_tiers(
    job: TierJob,
    start: State,
    identity: dict,
    *,
    extra: dict | None = None,
    engine=None,
    endless=None,
    progress: Callable[[dict], object] | None = None,
    stop: Callable[[], str | None] | None = None,
    max_positions: int | None = None,
) -> TierSummary:
    """Solve every position reachable from ``start`` into ``job.directory``, or go on with
    a solve that was stopped there.

    Args:
        job: The directory and how workers make the game.
        start: The first position.
        identity: What the solution is of (game, parameters, start, packing...), kept in
            ``solution.json``; a directory holding another identity is refused.
        extra: More for ``solution.json`` that is not checked (the game's text, plies's
            version).
        engine: Runs the chunks (default ``SerialEngine()``).
        endless: What endless play is worth to MAX (None: not declared).
        progress: Called after each chunk with a dict: ``phase`` (finding or valuing),
            ``tier``, ``positions`` (of the tier), ``seconds``, ``rate`` (positions found or
            valued a second) and while valuing ``left`` (seconds, at that rate).
        stop: Called between chunks: a reason to stop (``timeout``...) or None.
        max_positions: Refuse games with more positions.

    Raises:
        TierSolveStopped: ``stop`` gave a reason; the tiers finished are on disk.
        TierLoweredError: a move lowers the tier.
        PositionFailedError: a rule of the game failed (the cause is attached), and
            NoMovesError, UtilityOutOfBoundsError: as in a strong solve in memory (graph.py).
        StoredValueError: a value or remoteness the directory cannot hold.
        EndlessPlayError: a value depends on what endless play is worth, not declared.
        SolutionDirectoryError: the directory holds another solution or is damaged.
    """
    started = perf_counter()
    engine = engine or SerialEngine()
    job = replace(job, run=uuid.uuid4().hex,  # fresh workers' caches for this run
                  compact=not isinstance(engine, SerialEngine))
    directory = Path(job.directory)
    tg, _ = _context(job)  # forked workers start with it
    meta = open_directory(directory, identity, extra or {})
    solver = _Solve(job, tg, engine, directory, progress, stop or (lambda: None), started)
    try:
        if not meta.get("discovered"):
            solver.discover(start, max_positions)
            meta["discovered"] = True
            meta["tiers"] = solver.tier_list()
            F.write_json(directory / F.METADATA, meta)
        tiers = [tuple(t) for t in meta["tiers"]]
        todo = [t for t in reversed(tiers)
                if not (directory / (F.tier_name(t[0]) + ".sol")).exists()]
        solver.begin_valuing(sum(t[1] for t in todo))
        for tier, count, stays in todo:
            solver.value(tier, count, stays, endless, start)
    except StoredValueError as error:
        raise solver.located(error) from None
    except KeyboardInterrupt:
        raise TierSolveStopped("interrupt", solver.doing) from None
    finally:
        solver.remove.close()
    solved_now = len(todo)
    # What a stop at any moment may have left: a tier's positions beside its solved file (a
    # stop between the two), a file half written, a frontier.
    for path in directory.iterdir():
        name = path.name
        if name.endswith((".partial", ".frontier")) or (
                name.endswith(".positions") and path.with_suffix(".sol").exists()):
            path.unlink()
    first = F.TierFile(directory / (F.tier_name(tg.tier(start)) + ".sol"))
    try:
        value, remoteness = first.lookup(tg.key(start))
    finally:
        first.close()
    if not meta.get("finished"):
        meta.update(finished=True, positions=sum(t[1] for t in tiers), value=value,
                    remoteness=remoteness)
        F.write_json(directory / F.METADATA, meta)
    size = sum(p.stat().st_size for p in directory.iterdir() if p.is_file())
    return TierSummary(tiers, meta["positions"], value, remoteness, solved_now,
                       perf_counter() - started, size)


def open_directory(directory: Path, identity: dict, extra: dict) -> dict:
    """The metadata of a solution directory, made when new; refuse another solution's.

    Raises:
        SolutionDirectoryError: the directory holds another solution, another format, or
            files that are not a solution's.
    """
    path = directory / F.METADATA
    if directory.exists() and not directory.is_dir():
        raise F.SolutionDirectoryError(f"{directory} is a file, not a solution directory")
    if path.exists():
        meta = F.read_json(path)
        check_identity(directory, meta, identity)
        return meta
    if directory.exists() and any(directory.iterdir()):
        raise F.SolutionDirectoryError(f"{directory} is not empty and holds no {F.METADATA}: "
                                       "give a new or empty directory")
    directory.mkdir(parents=True, exist_ok=True)
    meta = {"format_version": F.FORMAT_VERSION, **identity, **extra, "discovered": False}
    F.write_json(path, meta)
    return meta


def check_identity(directory: Path, meta: dict, identity: dict) -> None:
    """Refuse metadata of another format or another solution than ``identity``."""
    if meta.get("format_version") != F.FORMAT_VERSION:
        raise F.SolutionDirectoryError(
            f"{directory} has format version {meta.get('format_version')}; this plies writes "
            f"version {F.FORMAT_VERSION}: give another directory")
    for name, wanted in identity.items():
        if name == "symmetries" and "symmetries" not in meta and all(
                meta.get(k) == v for k, v in identity.items() if k != name):
            raise F.SolutionDirectoryError(
                f"{directory} holds {meta.get('title', '?')} solved without its symmetries "
                f"({', '.join(wanted)}), as plies solved before it used them: it is read as it "
                "is (query, analyze --db, play --db, serve --db); give another directory to "
                "solve it with them")
        if meta.get(name) != wanted:
            theirs, ours = meta.get("title", "?"), identity.get("title", "?")
            what = f"{theirs}, not {ours}" if theirs != ours else \
                f"a solution whose {name} differs from this one's"
            raise F.SolutionDirectoryError(f"{directory} holds {what}: give another directory "
                                           "(a solution directory is never reused for "
                                           "another game, parameters or start)")


def chunks_of(count: int, workers: int, largest: int = CHUNK_POSITIONS
              ) -> list[tuple[int, int]]:
    """``(start, stop)`` ranges splitting ``count`` positions: several per worker, none
    larger than ``largest``."""
    if count == 0:
        return []
    size = max(MIN_CHUNK_POSITIONS, -(-count // (4 * workers)))
    size = min(size, largest)
    return [(i, min(i + size, count)) for i in range(0, count, size)]


class _Remover:
    """Removes files in a thread of its own, started at the first, so that the workers do not
    wait while a large file is removed; ``close`` waits until all are removed."""

    def __init__(self) -> None:
        self.queue = self.thread = None

    def __call__(self, path: Path) -> None:
        if self.thread is None:
            import queue
            import threading
            self.queue = queue.SimpleQueue()
            self.thread = threading.Thread(target=self._remove, daemon=True)
            self.thread.start()
        self.queue.put(path)

    def _remove(self) -> None:
        while (path := self.queue.get()) is not None:
            try:
                path.unlink(missing_ok=True)
            except OSError:
                pass  # what is left is removed when the solve ends

    def close(self) -> None:
        if self.thread is not None:
            self.queue.put(None)
            self.thread.join()
            self.queue = self.thread = None


class _Solve:
    """One run of ``solve_by_tiers``: the two passes and their checkpoints."""

    def __init__(self, job, tg, engine, directory, progress, stop, started) -> None:
        self.job, self.tg, self.engine, self.directory = job, tg, engine, directory
        self.progress, self.stop, self.started = progress, stop, started
        self.remove = _Remover()

    doing = "starting"
    found = 0  # positions of the tiers found so far
    valued = to_value = 0
    valuing_since = 0.0

    def begin_valuing(self, positions: int) -> None:
        self.to_value, self.valued, self.valuing_since = positions, 0, perf_counter()

    def check(self, doing: str) -> None:
        self.doing = doing
        reason = self.stop()
        if reason is not None:
            raise TierSolveStopped(reason, doing)

    def report(self, **fields) -> None:
        if self.progress is not None:
            fields["seconds"] = perf_counter() - self.started
            self.progress(fields)

    def path(self, tier: int, suffix: str) -> Path:
        return self.directory / (F.tier_name(tier) + suffix)

    # -- finding the positions, first tier forward --

    def discover(self, start: State, max_positions: int | None) -> None:
        tg, directory = self.tg, self.directory
        native = tg.native is not None and tg.width == 8 and sys.byteorder == "little"
        pending, runs = self.resume(start, native)
        found = 0
        for path in directory.glob("tier-*.positions"):
            opened = F.TierFile(path)
            found += opened.count
            opened.close()
        while pending or runs:
            if native:
                tier = min([*pending, *runs])
                count, stays = self.close_tier_runs(tier, pending.pop(tier, ()),
                                                    runs.pop(tier, []))
            else:
                tier = min(pending)
                keys, stays = self.close_tier(tier, pending)
                count = len(keys)
            found += count
            self.found = found
            if max_positions is not None and found > max_positions:
                from .graph import TooManyPositionsError
                raise TooManyPositionsError(max_positions)
            if native:
                runs = self.live_runs()
                continue
            F.write_positions(self.path(tier, ".positions"), tier, keys, tg.width, stays)
            # a checkpoint only, read back into sets: in any order (sorting costs a second a
            # million keys)
            later = [k for kin in pending.values() for k in kin]
            name = f"pending-{F.tier_name(tier)[5:]}.positions"
            F.write_positions(directory / name, tier, later, tg.width, False)
            for path in directory.glob("pending-*.positions"):
                if path.name != name:
                    path.unlink()
            for path in directory.glob("run-*.keys"):
                path.unlink()
        for path in directory.glob("pending-*.positions"):
            path.unlink()

    def resume(self, start: State, native: bool) -> tuple[dict[int, set[int]], dict]:
        """Where finding the positions goes on: ``(pending, runs)``, the keys found in tiers
        not yet closed (tier -> keys), and for ``native`` the runs of those tiers (tier ->
        paths). A stop leaves a ``pending-T.positions`` file (finding in Python) or runs
        (native): either goes on with either back end."""
        tg, directory = self.tg, self.directory
        latest = None
        for path in directory.glob("pending-*.positions"):
            tier = F.parse_tier(path.stem.replace("pending-", "tier-"))
            if tier is not None and (latest is None or tier > latest):
                latest = tier
        pending: dict[int, set[int]] = {}
        if latest is not None:
            for path in directory.glob("run-*.keys"):
                path.unlink()
            name = f"pending-{F.tier_name(latest)[5:]}.positions"
            saved = F.TierFile(directory / name)
            try:
                for key in saved.keys():
                    pending.setdefault(tg.tier(tg.unpack(key)), set()).add(key)
            finally:
                saved.close()
            for path in directory.glob("tier-*.positions"):  # found after that: found again
                tier = F.parse_tier(path.stem)
                if tier is not None and tier > latest:
                    path.unlink()
            if not native:
                return pending, {}
            for tier, keys in pending.items():  # as runs of the latest tier found
                F.write_run(directory / F.run_name(tier, latest, 0), tier,
                            array("Q", sorted(keys)))
            for tier in pending:
                F.sync_file(directory / F.run_name(tier, latest, 0))
            (directory / name).unlink()
            pending = {}
        runs = self.live_runs(now=True)  # no thread yet: worker processes may be forked
        if not runs and len(list(directory.glob("tier-*.positions"))) < 2:
            # nothing found, or only the first tier with nothing saved after it: from the start
            for path in directory.glob("tier-*.positions"):
                path.unlink()
            try:
                pending[tg.tier(start)] = {tg.key(start)}
            except Exception as error:  # the declared tier failed, or no key holds the start
                line = line_to(tg.game, tg.game.initial_state(), start)
                if hasattr(error, "after"):
                    raise error.after(line) from None
                raise PositionFailedError(line) from error
        elif not native:
            for tier, paths in runs.items():
                for path in paths:
                    opened = F.TierFile(path)
                    try:
                        pending.setdefault(tier, set()).update(opened.keys())
                    finally:
                        opened.close()
            runs = {}
        return pending, runs

    def live_runs(self, now: bool = False) -> dict[int, list[Path]]:
        """tier -> the runs still to merge into it (in the order of their names), removing
        the runs already merged and those of a tier stopped half way (``now``: here, not in
        the remover's thread)."""
        done = {F.parse_tier(p.stem) for p in self.directory.glob("tier-*.positions")}
        runs: dict[int, list[Path]] = {}
        for path in sorted(self.directory.glob("run-*.keys")):
            parsed = F.parse_run(path.name)
            if parsed is None:
                continue
            tier, source = parsed
            if (tier in done or source not in done) and now:
                path.unlink()
            elif tier in done or source not in done:
                self.remove(path)
            else:
                runs.setdefault(tier, []).append(path)
        return runs

    def close_tier_runs(self, tier: int, keys, runs: list[Path]) -> tuple[int, bool]:
        """``close_tier`` in native code: the tier's runs (and ``keys``) merged into its
        ``.frontier`` file, whose chunks the workers expand into runs of later tiers; then
        the ``.frontier`` file becomes ``tier-T.positions``. Returns the count of positions
        and whether a move stays in the tier."""
        tg, directory = self.tg, self.directory
        opened = [F.TierFile(path) for path in runs]
        views = [f.key_buffer() for f in opened]
        if keys:
            views.append(memoryview(array("Q", sorted(keys))).cast("B"))
        frontier = self.path(tier, ".frontier")
        try:
            count = F.write_merged(frontier, tier, sum(len(v) for v in views) // 8,
                                   lambda out: tg.native.merge(views, out), sync=False)
        finally:
            for view in views:
                view.release()
            for f in opened:
                f.close()
        chunks = [(tier, a, b, i) for i, (a, b) in
                  enumerate(chunks_of(count, self.engine.workers, NATIVE_CHUNK_POSITIONS))]
        same = []
        for part, problem in self.engine.map(discover_runs, self.job, chunks):
            if problem is not None:
                self.fail(problem, tier)
            if part:
                same.append(part)
            seconds = perf_counter() - self.started
            self.report(phase="finding", tier=tier, positions=count,
                        rate=(self.found + count) / seconds if seconds > 0 else None)
            self.check(f"finding the positions of tier {tier}")
        # the runs and the .frontier count once the tier's positions are written
        F.sync_files([frontier, *directory.glob(f"run-*-{F.tier_name(tier)[5:]}-*.keys")])
        positions = self.path(tier, ".positions")
        if not same:  # moves all leave the tier (the usual case)
            os.replace(frontier, positions)
            return count, False
        # Moves stay in the tier: the rest of it is found as in Python, from sets
        keys_file = F.TierFile(frontier)
        try:
            known = set(keys_file.keys())
        finally:
            keys_file.close()
        fresh = set()
        for part in same:
            fresh.update(array("Q", part))
        fresh.difference_update(known)
        known.update(fresh)
        later: dict[int, set[int]] = {}
        every, _ = self.close_tier(tier, later, known, sorted(fresh))
        for i, (child_tier, kin) in enumerate(sorted(later.items())):
            path = directory / F.run_name(child_tier, tier, len(chunks) + i)
            F.write_run(path, child_tier, array("Q", sorted(kin)))
            F.sync_file(path)
        F.write_positions(positions, tier, every, tg.width, True)
        frontier.unlink()
        return len(every), True

    def close_tier(self, tier: int, pending: dict[int, set[int]], known: set[int] | None = None,
                   frontier: list[int] | None = None) -> tuple[list[int], bool]:
        """Every position of ``tier``: those found from earlier tiers, then from each other
        (``known`` and ``frontier`` when the first are expanded already and ``frontier``
        found from them)."""
        if known is None:
            known = pending.pop(tier)
            frontier = first = sorted(known)
            stays = False
            shared = self.job.compact and self.tg.width == 8  # workers read the keys from a file
        else:
            first, stays, shared = None, True, False
        if shared:
            F.write_positions(self.path(tier, ".frontier"), tier, first, 8, False)
        while frontier:
            ranges = chunks_of(len(frontier), self.engine.workers)
            chunks = [(tier, (a, b)) if shared and frontier is first else (tier, frontier[a:b])
                      for a, b in ranges]
            new: set[int] = set()
            for same, later, moved, problem in self.engine.map(discover_chunk, self.job,
                                                                chunks):
                if problem is not None:
                    self.fail(problem, tier)
                stays = stays or moved
                new.update(set(_keys(same)).difference(known))
                for child_tier, kin in later.items():
                    pending.setdefault(child_tier, set()).update(_keys(kin))
                seconds = perf_counter() - self.started
                total = self.found + len(known) + len(new)
                self.report(phase="finding", tier=tier, positions=len(known) + len(new),
                            rate=total / seconds if seconds > 0 else None)
                self.check(f"finding the positions of tier {tier}")
            known.update(new)
            frontier = sorted(new)
        if shared:
            self.path(tier, ".frontier").unlink()
        return (first if first is not None and len(known) == len(first) else sorted(known)), \
            stays

    def tier_list(self) -> list[list]:
        tiers = []
        for path in self.directory.glob("tier-*.positions"):
            tier = F.parse_tier(path.stem)
            if tier is None:
                continue
            opened = F.TierFile(path)
            tiers.append([tier, opened.count, opened.stays])
            opened.close()
        return sorted(tiers)

    def located(self, error: StoredValueError) -> StoredValueError:
        """``error`` with the moves from the start to the position it names."""
        if error.key is None or error.moves is not None:
            return error
        return StoredValueError(error.what, error.limit, error.key,
                                [str(move) for move in self.line_to_key(error.key)])

    def line_to_key(self, key: int) -> list[Move]:
        """A shortest line of moves from the start to the position with ``key`` (for
        messages)."""
        tg = self.tg
        return line_to(tg.game, tg.game.initial_state(), tg.unpack(key), pack=tg.pack)

    def fail(self, problem: tuple, tier: int):
        key, move, child_tier, message = problem
        tg = self.tg
        line = self.line_to_key(key)
        if message is None:
            raise TierLoweredError([*line, move], tier, child_tier)
        # the worker's error met again here, where it can be reported at its rule, as the
        # strong solve in memory reports it (the same steps: graph.py)
        error = failure_at(tg, key)
        if isinstance(error, GameContractError):
            raise error.after(line) from None
        move = getattr(error, "move", None)  # a child the keys cannot hold (check)
        if move is not None and hasattr(error, "after"):
            raise error.after([*line, move]) from None
        if error is not None:  # the rule's place and the move found from its traceback
            raise PositionFailedError(line) from error
        raise GameContractError(message, line)

    # -- valuing them, last tier back --

    def value(self, tier: int, count: int, stays: bool, endless, start: State) -> None:
        positions, solved = self.path(tier, ".positions"), self.path(tier, ".sol")
        if not stays:  # the workers write the records into a copy of the positions' file
            partial = solved.with_name(solved.name + ".partial")
            shutil.copyfile(positions, partial)
            with open(partial, "r+b") as out:
                out.truncate(os.path.getsize(positions) + count * F.RECORD.size)
            largest = NATIVE_CHUNK_POSITIONS if self.tg.native is not None else CHUNK_POSITIONS
            chunks = [(tier, a, b) for a, b in chunks_of(count, self.engine.workers, largest)]
            for done in self.engine.map(value_chunk, self.job, chunks):
                self.valued_more(done, tier, count)
                self.check(f"valuing tier {tier}")
            F.sync_file(partial)
            os.replace(partial, solved)
            self.remove(positions)
            return
        chunks = [(tier, a, b) for a, b in chunks_of(count, self.engine.workers)]
        rows = []
        for part in self.engine.map(edges_chunk, self.job, chunks):
            rows.extend(part)
            self.valued_more(len(part), tier, count)
            self.check(f"valuing tier {tier}")
        records = self.solve_inside(tier, rows, endless)
        opened = F.TierFile(positions)
        try:
            keys = opened.keys()
        finally:
            opened.close()
        F.write_tier(solved, tier, keys, self.tg.width, stays, records)
        positions.unlink()

    def valued_more(self, positions: int, tier: int, count: int) -> None:
        self.valued += positions
        seconds = perf_counter() - self.valuing_since
        rate = self.valued / seconds if seconds > 0 else None
        left = (self.to_value - self.valued) / rate if rate else None
        self.report(phase="valuing", tier=tier, positions=count, rate=rate, left=left)

    def solve_inside(self, tier: int, rows: list[tuple], endless) -> bytes:
        """The records of a tier whose positions may lead to each other (cycles too)."""
        opened = F.TierFile(self.path(tier, ".positions"))
        try:
            keys = opened.keys()
        finally:
            opened.close()
        number = {key: i for i, key in enumerate(keys)}
        n = len(keys)
        roles = [role for role, _, _ in rows]
        utilities = [utility for _, utility, _ in rows]
        seeds: dict[int, int | None] = {i: 0 for i, role in enumerate(roles) if role == TERMINAL}
        outside: dict[int, int] = {}  # key of a position of a later tier -> its number
        children = []
        for _, _, kids in rows:
            numbered = []
            for key, value, far in kids:
                if value is None:
                    numbered.append(number[key])
                    continue
                j = outside.get(key)
                if j is None:  # a position of a later tier: an end worth its value
                    j = outside[key] = n + len(outside)
                    roles.append(TERMINAL)
                    utilities.append(value)
                    seeds[j] = far
                numbered.append(j)
            children.append(tuple(numbered))
        children.extend(() for _ in outside)
        graph = PositionGraph(None)
        graph.roles, graph.utilities, graph.children = roles, utilities, children
        graph.states = [*keys, *outside]
        graph.first_parent = [-1] * len(graph.roles)
        graph.forward = False
        values, settled = settle(graph)
        if 0 in settled:
            values = self.endless_fill(graph, values, settled, endless, keys)
        far = seeded_remoteness(graph, values, seeds)
        record = F.RECORD.pack
        return b"".join(record(_stored_value(values[i], keys[i]),
                               _stored_remoteness(far[i], keys[i])) for i in range(len(keys)))

    def endless_fill(self, graph, values, settled, endless, keys) -> list:
        if endless is not None:
            endless_values(graph, values, settled, endless)
            return values
        depends = undeclared_endless(graph, values, settled)  # the later tiers' are settled
        if depends is not None:
            raise EndlessPlayError(self.line_to_key(keys[depends]))
        return values


def seeded_remoteness(graph: PositionGraph, values: Sequence, seeds: dict[int, int | None]
                      ) -> list[int | None]:
    """Remoteness as in ``remoteness.remoteness``, from ends whose remoteness is given.

    ``seeds``: position -> its remoteness, for the terminal positions (0) and the positions
    of later tiers (theirs, None when the end cannot be forced from them). Positions are
    settled in increasing order of remoteness (a heap, since the ends start at different
    distances): a hurrying player's by its first value-keeping child settled, a holding-out
    player's by its last.
    """
    graph.add_parents()
    roles, children, parents = graph.roles, graph.children, graph.parents
    found: list[int | None] = [None] * len(roles)
    waiting = [-1] * len(roles)
    heap = []
    for i, distance in seeds.items():
        if distance is not None:
            found[i] = distance
            heap.append((distance, i))
    heapq.heapify(heap)
    while heap:
        distance, child = heapq.heappop(heap)
        value = values[child]
        for parent in parents[child]:
            if found[parent] is not None or values[parent] != value:
                continue
            need = waiting[parent]
            if need < 0:
                need = 1 if hurries(roles[parent], value) else \
                    sum(1 for c in children[parent] if values[c] == value)
            if need == 1:
                found[parent] = distance + 1
                heapq.heappush(heap, (distance + 1, parent))
            else:
                waiting[parent] = need - 1
    return found


def line_to(game: Game, start: State, target: State, limit: int = 2_000_000,
            pack: Callable[[State], int] | None = None) -> list[Move]:
    """A shortest line of moves from ``start`` to ``target`` (breadth-first; empty when it is
    not found within ``limit`` positions): for messages only. With ``pack``, to a position
    with the key of ``target`` (with symmetries, ``target`` may stand for its images)."""
    def reached(state) -> bool:
        if pack is None:
            return state == target
        try:
            return pack(state) == wanted
        except Exception:  # noqa: BLE001 - a position that does not pack is not the one
            return False
    wanted = pack(target) if pack is not None else None
    if reached(start):
        return []
    parent: dict = {start: None}
    queue = [start]
    for state in queue:
        if len(parent) > limit:
            break
        try:
            if game.outcome(state) is not None or game.to_move(state) == CHANCE:
                continue
            pairs = game.successors(state)
        except Exception:  # noqa: BLE001 - only looking for a line to name a position
            continue
        for move, child in pairs:
            if child in parent:
                continue
            parent[child] = (state, move)
            if reached(child):
                line = []
                while parent[child] is not None:
                    child, move = parent[child]
                    line.append(move)
                return line[::-1]
            queue.append(child)
    return []
