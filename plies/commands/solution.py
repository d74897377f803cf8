"""Strong solutions in a directory, tier by tier: solving a game into one, and reading it.

``plies solve GAME --strong --db DIR`` (a path that does not end in ``.db``, ``.sqlite`` or
``.sqlite3``) solves by tiers (``plies.solvers.tiers``) into a solution directory
(``plies.solvers.tierfiles`` describes its files); ``plies query DIR``, ``plies analyze GAME
--db DIR`` and ``plies play GAME --db DIR`` read it. The directory keeps the game's text, so
``query`` needs nothing else: it loads the game from there, plays the moves asked for, packs
the position into its key and finds it by binary search in its tier's file.

This module gives the solver what it needs of a compiled game (``tier_game``: the tier, the
packing of states) and the identity a directory is checked against (game, parameters, start,
game text, packing, tier), so a directory of another game is refused, never reused.
"""

from __future__ import annotations

import csv
import functools
import hashlib
import json
from pathlib import Path
from typing import TextIO

from plies import __version__
from plies.commands.analysis import (Analysis, MoveRow, UnansweredMovesError,
                                     check_starts_after, json_param, params_text, verdict)
from plies.errors import PliesError, UsageError
from plies.frontend.tiers import infer_tier
from plies.lowering.packing import PackingError, packing
from plies.solvers import tierfiles as F
from plies.solvers.graph import TERMINAL
from plies.solvers.strong import preference
from plies.solvers.symmetry import least_key
from plies.solvers.tierchunks import TierGame, TierJob
from plies.solvers.tiers import TierSolveStopped

SQLITE_SUFFIXES = (".db", ".sqlite", ".sqlite3")
"""A ``--db`` path ending in one of these is an SQLite file; any other is a directory."""


class SolutionDirectoryError(PliesError):
    """A solution directory that does not fit the game, or is not finished."""


def is_directory(path: str | Path) -> bool:
    """True when ``--db PATH`` names a solution directory rather than an SQLite file."""
    path = Path(path)
    return path.is_dir() or path.suffix.lower() not in SQLITE_SUFFIXES


def tier_of(model):
    """The tier function of a game: declared (``tier EXPR``), found from its rules
    (``infer_tier``), or one tier for every position; and its description in words."""
    declared = getattr(model, "tier", None)
    if declared is not None:
        return declared, f"declared: {_text_of(model.checked.source, model.checked.tier.value.span)}"
    measure = infer_tier(model.checked)
    if measure is not None:
        return measure.function(), "found: " + " + ".join(measure.parts)
    return (lambda state: 0), "none (one tier)"


def _text_of(source: str, span) -> str:
    """The text of a node, on one line."""
    lines = source.splitlines()[span.line - 1:span.end_line]
    if len(lines) == 1:
        return lines[0][span.column - 1:span.end_column - 1]
    lines[0], lines[-1] = lines[0][span.column - 1:], lines[-1][:span.end_column - 1]
    return " ".join(line.strip() for line in lines)


_PACKINGS: dict[int, tuple] = {}
"""id(checked game) -> (the checked game, its packing): a packing is compiled once."""


def packing_of(checked):
    """The packing of a checked game, compiled once."""
    found = _PACKINGS.get(id(checked))
    if found is None or found[0] is not checked:
        found = _PACKINGS[id(checked)] = (checked, packing(checked))
    return found[1]


def tier_game(model, native: bool = False, notice=None, symmetric: bool = True) -> TierGame:
    """What the tier solver needs of a compiled game; with ``native``, the C back end finds
    and values what it can (``plies.backends.native.tiers``), after ``notice`` says why not
    when it cannot. The game's symmetries, where they keep the tier, make one key of a
    position and its images (``least_key``): the directory holds one position of each
    class (``symmetric=False``: every position, as a directory solved before plies used
    them)."""
    packed = packing_of(model.checked)
    tier, _ = tier_of(model)
    measure = infer_tier(model.checked) if getattr(model, "tier", None) is None else None
    symmetries = tier_symmetries(model, measure)[0] if symmetric else ()
    helper = None
    if native:
        from plies.backends.native.tiers import native_tiers
        helper, reason = native_tiers(model, packed, measure, symmetries)
        if helper is None and notice is not None:
            notice(f"native: {reason}; solving by tiers in Python")
    return TierGame(model, tier, least_key(packed.pack, symmetries), packed.unpack,
                    packed.width, packed.check, helper)


def tier_symmetries(model, measure=None) -> tuple[tuple, str | None]:
    """The game's symmetries that a solve by tiers uses, and why none are used where it has
    some: they must keep every position's tier (a class is stored in one tier), which a tier
    found from the rules shows (``TierMeasure.kept_by``) and a declared one cannot."""
    symmetries = getattr(model, "symmetries", ())
    if not symmetries:
        return (), None
    if getattr(model, "tier", None) is not None:
        return (), "not used: the declared tier may differ between a position and its image"
    if measure is None:
        measure = infer_tier(model.checked)
    if measure is not None and not all(measure.kept_by(p) for p in symmetries):
        return (), "not used: the tier found differs between a position and its image"
    return symmetries, None


def symmetry_names(model) -> list[str]:
    """The names of the game's symmetries where a solve by tiers uses them (it keeps one
    position of each class), else none."""
    if not tier_symmetries(model)[0]:
        return []
    return list(model.facts.symmetry_names)


def symmetry_note(model) -> str | None:
    """The summary's line on the game's symmetries: used, or why not; None without any."""
    if not getattr(model, "symmetries", ()):
        return None
    names = ", ".join(model.facts.symmetry_names)
    _, unused = tier_symmetries(model)
    return f"{names}: " + (unused or "one position of each class of images is kept (they "
                                     "are worth the same)")


def _worker_game(source: str, filename: str, params: dict, native: bool = False) -> TierGame:
    """A worker's ``TierGame``: the game loaded from its text (a top-level function, so the
    job pickles for a process pool or Ray)."""
    from plies.game.loader import load_source
    return tier_game(load_source(source, filename, **params), native)


def identity(model, start_moves: list[str]) -> dict:
    """What a solution directory is of; a directory with another identity is refused."""
    params = {name: json_param(value) for name, value in model.params.items()}
    shown = ", ".join(f"{k}={json.dumps(v)}" for k, v in params.items())
    _, tier_words = tier_of(model)
    source = model.checked.source
    return {
        "game": model.name,
        "title": model.name + (f" ({shown})" if shown else "") +
                 (f" after {' '.join(start_moves)}" if start_moves else ""),
        "params": params,
        "start_moves": list(start_moves),
        "source_sha256": hashlib.sha256(source.encode()).hexdigest(),
        "packing": packing_of(model.checked).describe(),
        "tier": tier_words,
        # only where the solve uses symmetries: the directories of other games keep theirs
        **({"symmetries": names} if (names := symmetry_names(model)) else {}),
    }


def check_directory_game(model) -> None:
    """Refuse a game that a solution directory cannot hold (a UsageError that says where to
    store it instead)."""
    if model.has_chance:
        raise UsageError("a solution directory holds games without chance; give --db a file "
                         "name ending in .db to store this game's solution in SQLite")
    if model.checked.tree is not None:
        raise UsageError("a solution directory holds games with a state; give --db a file "
                         "name ending in .db to store an explicit tree's solution")


def check_directory_target(path: str | Path, model, start_moves: list[str]) -> None:
    """Make the directory ``path`` for a solve by tiers, or refuse it as a usage error (as an
    SQLite file is refused: ``check_replaceable``) before an engine starts: a file there, a
    path where no directory can be made, or a directory of another solution (one of the same
    solution is gone on with)."""
    from plies.solvers.tiers import check_identity
    path = Path(path)
    if path.exists() and not path.is_dir():
        raise UsageError(f"cannot write {path}: it is a file, not a solution directory; give "
                         "another name (a name ending in .db stores the solution in SQLite)")
    meta_path = path / F.METADATA
    if meta_path.is_file():
        meta = F.read_json(meta_path)  # one that cannot be read is said so by the solve
        try:
            check_identity(path, meta, identity(model, start_moves))
        except F.SolutionDirectoryError as error:
            raise UsageError(str(error)) from None
    try:  # a path inside a file, or where nothing may be made
        path.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise UsageError(f"cannot write {path}: {error.strerror or error}") from None


def solve_to_directory(model, start_moves: list[str], path: str | Path, *, engine=None,
                       progress=None, stop=None, max_positions=None, native: bool = False,
                       notice=None):
    """Solve the game from the position after ``start_moves`` into the directory ``path``
    (or go on with a solve stopped there); returns the solver's ``TierSummary``. With
    ``native``, chunks are found and valued in C where the C back end can (the same bytes)."""
    from plies.solvers.tiers import solve_by_tiers
    check_directory_game(model)
    checked = model.checked
    params = dict(model.params)
    if native:  # said once here; the workers make their own
        native = tier_game(model, True, notice).native is not None
    make = functools.partial(_worker_game, checked.source, checked.filename, params, native)
    job = TierJob(str(path), make)
    ident = identity(model, start_moves)
    extra = {"plies_version": __version__, "filename": checked.filename,
             "source": checked.source, "endless": _json_value(model.endless_value),
             "players": [list(p) for p in checked.players]}
    return solve_by_tiers(job, model.play_all(start_moves), {**ident}, extra=extra,
                          engine=engine, endless=model.endless_value, progress=progress,
                          stop=stop, max_positions=max_positions)


def run_solve(model, start_moves: list[str], path: str | Path, *, workers: int | None = None,
              engine: str = "processes", address: str | None = None,
              timeout: float | None = None, memory: int | None = None,
              max_positions: int | None = None, show_progress: bool = False,
              backend: str = "python", notice=None) -> dict:
    """``plies solve GAME --strong --db DIR``: solve by tiers with the engine asked for, stop
    at ``timeout`` seconds or ``memory`` bytes (between chunks), and say what was done.
    ``backend``: python, native (``notice`` says why where C cannot), or auto (native where
    it can, quietly: the same bytes either way).

    Returns the summary (``summary_text`` puts it into words).

    Raises:
        TierSolveStopped: a limit or Ctrl-C stopped the solve; the finished tiers are kept.
    """
    import sys
    import time

    from plies.solvers.engines import PoolEngine, RayEngine, SerialEngine, workers_default
    check_directory_game(model)  # before an engine starts or the C back end is asked
    check_directory_target(path, model, start_moves)
    asked = workers
    if workers is None:
        workers = workers_default()
    if address is None:  # on this machine: a process a core (more would only wait for one,
        workers = min(workers, workers_default())  # each with its memory: --workers 100000)
    if engine == "ray":
        runner = RayEngine(address, workers if address is None else None)
    elif workers > 1:
        runner = PoolEngine(workers)
    else:
        runner = SerialEngine()
    started = time.perf_counter()

    def stop() -> str | None:
        if timeout is not None and time.perf_counter() - started >= timeout:
            return "timeout"
        if memory is not None and resident_bytes() > memory:
            return "memory"
        return None

    def progress(report: dict) -> None:
        if not show_progress:
            return
        rate = report.get("rate")
        left = report.get("left")
        count = report["positions"]
        line = (f"{report['phase']} tier {report['tier']}: {count:,} "
                + ("position" if count == 1 else "positions")
                + (f", {rate:,.0f} positions/s" if rate else "")
                + (f", about {left:,.0f} s left" if left is not None else ""))
        sys.stderr.write("\r\033[K" + line)
        sys.stderr.flush()

    in_c = False
    if backend in ("native", "auto"):  # decided once here; the workers make their own
        in_c = tier_game(model, True, notice if backend == "native" else None).native is not None
    try:
        summary = solve_to_directory(model, start_moves, path, engine=runner, progress=progress,
                                     stop=stop, max_positions=max_positions, native=in_c)
    except TierSolveStopped as stopped:
        limit = {"timeout": f"--timeout ({timeout or 0:g} s)", "memory": f"--memory ({memory:,} bytes)"
                 if memory else "--memory", "interrupt": "Ctrl-C"}[stopped.stopped_by]
        kept = len(list(Path(path).glob("tier-*.sol")))
        raise TierSolveStopped(stopped.stopped_by,
                               f"stopped at {limit} while {stopped}; what is finished is kept "
                               f"in {path} ({kept} tiers solved): run the same command again "
                               "to go on") from None
    finally:
        runner.close()
        if show_progress:
            sys.stderr.write("\r\033[K")
            sys.stderr.flush()
    value, far = summary.value, summary.remoteness
    return {
        "game": model.name,
        "params": {name: json_param(v) for name, v in model.params.items()},
        "from": list(start_moves),
        "value": value,
        "remoteness": far,
        "verdict": verdict(model, value, far),
        "positions": summary.positions,
        "symmetries": symmetry_names(model),
        "symmetry": symmetry_note(model),
        "tiers": len(summary.tiers),
        "tier": tier_of(model)[1],
        "solved_now": summary.solved_now,
        "seconds": round(summary.seconds, 3),
        "workers": runner.workers,
        "workers_asked": asked if asked is not None and asked > workers else None,
        "engine": "ray" if engine == "ray" else "processes" if workers > 1 else "one process",
        "directory": str(path),
        "bytes": summary.bytes,
        "method": "retrograde analysis by tiers" + (", in C" if in_c else ", in Python"),
        "backend": "native" if in_c else "python",
    }


def summary_text(summary: dict) -> str:
    """``plies solve --strong --db DIR`` for people."""
    params = params_text(summary["params"])
    lines = [("game", summary["game"] + (f" ({params})" if params else ""))]
    if summary["from"]:
        lines.append(("from", " ".join(summary["from"])))
    positions = summary["positions"]
    kept = summary["tiers"] - summary["solved_now"]
    lines += [
        ("value", f"{summary['value']}  ({summary['verdict']})"),
        ("remoteness", "none" if summary["remoteness"] is None else str(summary["remoteness"])),
        ("positions", f"{positions:,} in {summary['tiers']:,} tiers (tier {summary['tier']})"),
    ]
    if summary.get("symmetry"):
        lines.append(("symmetry", summary["symmetry"]))
    lines += [
        ("method", summary["method"]),
        ("time", f"{summary['seconds']:.3f} s, {summary['engine']}"
                 + (f" ({summary['workers']} workers)" if summary["workers"] > 1 else "")
                 + (f"; {summary['workers_asked']:,} workers asked for, one a core here"
                    if summary.get("workers_asked") else "")
                 + (f"; {kept} tiers were solved before" if kept else "")),
        ("directory", f"{summary['directory']}: {summary['bytes'] / 1e6:.1f} MB "
                      f"({summary['bytes'] / max(positions, 1):.1f} bytes a position)"),
    ]
    return "\n".join(f"{key:<10} {text}" for key, text in lines)


def resident_bytes() -> int:
    """Memory in use by this process and its worker processes (Linux; 0 elsewhere)."""
    import multiprocessing
    import os
    total = 0
    for pid in [os.getpid(), *(p.pid for p in multiprocessing.active_children())]:
        try:
            with open(f"/proc/{pid}/statm") as statm:
                total += int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
        except (OSError, ValueError, IndexError):
            pass
    return total


def _json_value(value):
    if value is None or type(value) is int:
        return value
    return str(value)


def stored_solution(path: str | Path):
    """A strong solution on disk, opened for reading: a solution directory, or an SQLite
    database (``commands.database``); both answer ``check_fits``, ``analysis`` and
    ``close``, and hold ``start_moves`` (the --from of the solve that wrote them)."""
    if Path(path).is_dir():
        return SolutionDirectory(path)
    from plies.commands.database import SolutionDatabase
    return SolutionDatabase(path)


class SolutionDirectory:
    """A finished solution directory opened for reading."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        meta_path = self.path / F.METADATA
        if not self.path.is_dir():
            raise UsageError(f"no solution directory '{path}'")
        if not meta_path.is_file():
            raise SolutionDirectoryError(f"{path} is not a plies solution directory (it has no "
                                         f"{F.METADATA}; solve a game with `plies solve GAME "
                                         "--strong --db DIR` to make one)")
        try:
            self.meta = F.read_json(meta_path)
        except F.SolutionDirectoryError as error:
            raise SolutionDirectoryError(str(error)) from None
        if self.meta.get("format_version") != F.FORMAT_VERSION:
            raise SolutionDirectoryError(f"{path} has format version "
                                         f"{self.meta.get('format_version')}; this plies reads "
                                         f"version {F.FORMAT_VERSION}")
        if not self.meta.get("finished"):
            raise SolutionDirectoryError(f"{path} holds an unfinished solve: run the same "
                                         "`plies solve ... --db` again to finish it")
        from plies.game.loader import load_source
        self.model = load_source(self.meta["source"], self.meta["filename"],
                                 **self.meta["params"])
        self.start_moves = list(self.meta["start_moves"])
        self.tiers = {tier: count for tier, count, _ in self.meta["tiers"]}
        # a directory says which symmetries it was solved with (none before plies used them)
        self.tg = tier_game(self.model, symmetric=bool(self.meta.get("symmetries")))
        self.files: dict[int, F.TierFile] = {}

    def close(self) -> None:
        for opened in self.files.values():
            opened.close()
        self.files.clear()

    def check_fits(self, model) -> None:
        """Refuse a directory made for another game or other parameters (whether it was
        solved with the game's symmetries or before plies used them, it is read as written)."""
        mine = identity(model, self.start_moves)
        mine.pop("symmetries", None)
        if any(self.meta.get(name) != value for name, value in mine.items()):
            raise SolutionDirectoryError(f"{self.path} holds {self.meta.get('title')}, not "
                                         f"{mine['title']}")

    def lookup(self, state) -> tuple[int, int | None] | None:
        """``(value, remoteness)`` of a position, or None when the solution does not hold it."""
        tier = self.tg.tier(state)
        if tier not in self.tiers:
            return None
        opened = self.files.get(tier)
        if opened is None:
            opened = self.files[tier] = F.TierFile(self.path / (F.tier_name(tier) + ".sol"))
        try:
            key = self.tg.pack(state)
        except (TypeError, IndexError, PackingError):  # a value no key holds: not solved here
            return None
        return opened.lookup(key)

    def judged(self, state) -> list[tuple[object, int, int | None]]:
        """Every move of a position with the value and remoteness (the move's) it leads to,
        best first."""
        model = self.model
        if model.outcome(state) is not None:
            return []
        role = model.to_move(state)
        rows = []
        for move, child in model.successors(state):
            found = self.lookup(child)
            if found is None:
                raise SolutionDirectoryError(f"{self.path} lacks the position after {move}: "
                                             "the directory is damaged")
            value, far = found
            rows.append((move, value, None if far is None else far + 1))
        return sorted(rows, key=lambda row: preference(role, row[1], row[2]))

    def analysis(self, played: list[str]) -> Analysis:
        """The analysis of the position after ``played`` (from the game's start).

        Raises:
            UnansweredMovesError: a move is not legal, or the solution starts after another
                position.
        """
        from plies.game.model import IllegalMoveError
        start = self.start_moves
        check_starts_after(self.path, start, played)
        try:
            state = self.model.play_all(played)
        except IllegalMoveError as error:
            raise UnansweredMovesError(str(error)) from None
        found = self.lookup(state)
        if found is None:
            raise UnansweredMovesError(f"{self.path} does not hold the position after "
                                       f"{' '.join(played)}")
        value, far = found
        model = self.model
        over = model.outcome(state) is not None
        role = TERMINAL if over else model.to_move(state)
        judged = self.judged(state)
        best = []
        if judged:
            first = preference(role, judged[0][1], judged[0][2])
            best = [m for m, v, r in judged if preference(role, v, r) == first]
        rows = [MoveRow(str(m), v, r, m in best) for m, v, r in judged]
        words = verdict(model, value, far, over=over)
        return Analysis(model, played, role, value, True, 0.0, far, words, rows,
                        "retrograde analysis by tiers", self.meta["positions"], 0.0,
                        source=str(self.path))

    def oracle(self, model):
        """Every move of a position, best first, as ``(move, value, remoteness)``: for play."""
        def judged(state):
            if self.lookup(state) is None or model.outcome(state) is not None:
                return None
            return self.judged(state)
        return judged

    def export(self, out: TextIO, fmt: str) -> int:
        """Write every position as ``csv`` or ``jsonl``: its tier, key, text form, value,
        remoteness and best moves; returns the rows written. With symmetries, every position
        the directory holds: one of each class of images."""
        from plies.commands.database import ROLE_NAMES, position_writer
        text_of = position_writer(self.model)
        columns = ["tier", "key", "position", "to_move", "value", "remoteness", "best_moves"]
        writer = csv.writer(out, lineterminator="\n") if fmt == "csv" else None
        if writer is not None:
            writer.writerow(columns)
        count = 0
        model = self.model
        for tier in sorted(self.tiers):
            opened = F.TierFile(self.path / (F.tier_name(tier) + ".sol"))
            try:
                for i, key in enumerate(opened.keys()):
                    state = self.tg.unpack(key)
                    value, far = opened.record(i)
                    over = model.outcome(state) is not None
                    role = TERMINAL if over else model.to_move(state)
                    judged = self.judged(state)
                    best = [str(m) for m, v, r in judged
                            if preference(role, v, r) == preference(role, judged[0][1],
                                                                    judged[0][2])]
                    row = [tier, key, text_of(state), ROLE_NAMES[role], value, far,
                           " ".join(best)]
                    if writer is not None:
                        writer.writerow(["" if v is None else v for v in row])
                    else:
                        data = dict(zip(columns, row))
                        data["best_moves"] = best
                        out.write(json.dumps(data) + "\n")
                    count += 1
            finally:
                opened.close()
        return count


__all__ = ["SolutionDirectory", "SolutionDirectoryError", "is_directory", "solve_to_directory",
           "stored_solution", "tier_game", "identity", "run_solve", "summary_text"]
