"""Run each case's sides alternately, each run in a fresh process, and report the medians.

A case compares plies with references: a hand-written solver of the same game, the shared
tight baseline (``../shared/baselines/tictactoe_tight.py``, when the checkout sits beside
``shared``), or plies itself in another setting (Star against no Star). Each run is one
``python -m benchmarks.worker`` process: it loads the game (not timed), times one solve by the
wall clock and by CPU time, and reports the value, the nodes and its peak memory (resident
set). Sides run alternately (plies, reference, plies, ...) so that a busy machine slows both
alike; the table gives medians of ``--repeat`` runs. Ratios are of CPU time, which another
process on the machine disturbs less than the wall clock, and are the median of each turn's
ratio (``paired_ratio``).

Hand-written solvers count nothing in their timed runs; their node counts come from one
separate counting run.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from . import startup

RESULTS = Path(__file__).parent / "results" / "latest.json"
SHARED_TIGHT = Path(__file__).resolve().parents[2] / "shared" / "baselines" / "tictactoe_tight.py"
"""The tight tic-tac-toe baseline shared by the team, timed beside ours when present."""


@dataclass(frozen=True)
class Side:
    """One way to solve a case's game.

    Attributes:
        label: Its name in the table.
        make: Called in the worker before timing; returns the run to time, which returns
            ``(value, nodes)`` (nodes None when the run does not count them).
        count: A separate, untimed run returning ``(value, nodes)``, for runs that count
            nothing; None when ``make``'s run counts.
    """

    label: str
    make: Callable[[], Callable[[], tuple]]
    count: Callable[[], tuple] | None = None


@dataclass(frozen=True)
class Case:
    """A benchmark: the plies side first, then its references.

    Attributes:
        name: What ``--case`` selects.
        description: One line for the table.
        sides: plies first, then the references it is compared with.
        same_nodes: The sides that must count the same nodes (labels).
        slow: Skipped by ``--quick``.
        repeat: Runs of each side, when fewer than ``--repeat`` will do (long cases).
    """

    name: str
    description: str
    sides: tuple[Side, ...]
    same_nodes: tuple[str, ...] = ()
    slow: bool = False
    repeat: int | None = None


def plies_side(label: str, game: str, algorithm: str = "auto", params: dict | None = None,
               **options) -> Side:
    """A plies solve of a shipped game, compiled before the timed call."""

    def make() -> Callable[[], tuple]:
        import plies
        from plies.solvers import solve

        model = plies.load(game, **(params or {}))

        def run() -> tuple:
            result = solve(model, algorithm, **options)
            return result.value, result.nodes

        return run

    return Side(label, make)


def native_side(label: str, game: str, algorithm: str = "auto", params: dict | None = None,
                build_only: bool = False, memory: int | None = None) -> Side:
    """The same solve on the native back end (docs/native.md), built before the timed call;
    with ``build_only``, the build itself is timed (into a fresh cache each run); ``memory``:
    the table's bytes (default 1 GB, as ``plies solve``)."""

    def make() -> Callable[[], tuple]:
        import plies
        from plies.backends.native.engine import NativeGame

        model = plies.load(game, **(params or {}))
        if build_only:
            return lambda: (_fresh_build(NativeGame, model), None)
        native = NativeGame(model)

        def run() -> tuple:
            result = native.solve(algorithm, memory=memory)
            return result.value, result.nodes

        return run

    return Side(label, make)


def _fresh_build(native_game, model):
    import os
    import tempfile
    with tempfile.TemporaryDirectory() as directory:
        os.environ["PLIES_CACHE_DIR"] = directory
        from plies.backends.native import build
        build._loaded.clear()
        native = native_game(model)
        return native.solve().value


def _native() -> bool:
    """True when the native back end can be benchmarked here (cffi installed)."""
    return importlib.util.find_spec("cffi") is not None


def hand_side(label: str, module: str, *args) -> Side:
    """A hand-written solver in ``benchmarks.baselines``: ``run(*args)`` is timed and counts
    nothing, ``count_nodes(*args)`` gives the value and the nodes."""

    def make() -> Callable[[], tuple]:
        run = importlib.import_module(f"benchmarks.baselines.{module}").run
        return lambda: (run(*args), None)

    def count() -> tuple:
        return importlib.import_module(f"benchmarks.baselines.{module}").count_nodes(*args)

    return Side(label, make, count)


def shared_side(label: str, search: str) -> Side:
    """The shared tight baseline's ``search`` (a key of its ``CASES``): plain run, counted run."""

    def make() -> Callable[[], tuple]:
        cases = _shared().CASES
        plain = cases[search][1]
        return lambda: (plain(), None)

    def count() -> tuple:
        shared = _shared()
        shared.N = 0
        value = shared.CASES[search][0]()
        return value, shared.N

    return Side(label, make, count)


def _shared():
    spec = importlib.util.spec_from_file_location("tictactoe_tight", SHARED_TIGHT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _tictactoe(search: str, plies_algorithm: str, shared_search: str, description: str) -> Case:
    sides = [plies_side("plies", "tictactoe", plies_algorithm),
             hand_side("hand-written", "tictactoe", search)]
    if SHARED_TIGHT.exists():
        sides.append(shared_side("shared tight", shared_search))
    if _native() and plies_algorithm in ("minimax", "auto"):
        sides.append(native_side("plies native", "tictactoe", plies_algorithm))
    same = ("plies", "hand-written", "shared tight", "plies native") \
        if plies_algorithm != "auto" else ()
    return Case(f"ttt-{plies_algorithm}", description, tuple(sides), same_nodes=same)


def _connect4(width: int, height: int, *, slow: bool, repeat: int | None = None,
              tables_fill: bool = False) -> Case:
    """``tables_fill``: the transposition tables fill up at this size, and the two back ends'
    tables (different entry sizes in the same memory) then forget different entries, so their
    node counts may differ although both prove the same value."""
    return Case(
        f"c4-{width}x{height}",
        f"Connect Four {width}x{height}: plies auto vs a bitboard alpha-beta with a table",
        (plies_side("plies", "connect4", params={"width": width, "height": height}),
         hand_side("hand-written", "connect4", width, height))
        + ((native_side("plies native", "connect4", params={"width": width, "height": height}),)
           if _native() else ()),
        same_nodes=("plies",) if tables_fill else ("plies", "plies native"),
        slow=slow,
        repeat=repeat,
    )


def _connect4_native(width: int, height: int) -> Case:
    """A size only the native back end proves in minutes (Python would take hours)."""
    return Case(
        f"c4-{width}x{height}-native",
        f"Connect Four {width}x{height}: plies native only, a 4 GB table (--memory 4GB)",
        (native_side("plies native", "connect4", params={"width": width, "height": height},
                     memory=4 * 10**9),),
        slow=True,
        repeat=1,
    )


def _construct(name: str, game: str, params: dict, what: str) -> Case:
    """Issue 8's constructs (while, connects, setup): plies's plain alpha-beta on a shipped game
    against a hand-written alpha-beta of the same game that searches the same tree."""
    return Case(name, f"{what}: plain alpha-beta vs the same search by hand",
                (plies_side("plies", game, "alphabeta", params),
                 hand_side("hand-written", game, *params.values())),
                same_nodes=("plies", "hand-written"))


PIGLET = {"goal": 3, "flips": 12}

CASES = [
    _tictactoe("minimax", "minimax", "minimax", "tic-tac-toe minimax"),
    _tictactoe("alphabeta", "alphabeta", "alphabeta", "tic-tac-toe alpha-beta, no table"),
    _tictactoe("alphabeta_table", "auto", "alphabeta+TT",
               "tic-tac-toe auto vs alpha-beta with a bound table"),
    _connect4(5, 4, slow=False),
    _connect4(6, 4, slow=True, repeat=3),
    _connect4(5, 5, slow=True, repeat=3),
    _connect4(6, 5, slow=True, repeat=1, tables_fill=True),
    *([_connect4_native(7, 5), _connect4_native(6, 6)] if _native() else []),
    *([Case("native-build", "building tic-tac-toe's native module (cffi, C compiler), once "
            "per game and parameters",
            (native_side("plies native", "tictactoe", build_only=True),), repeat=3)]
      if _native() else []),
    Case("piglet-emm", "Piglet (goal 3, flips 12) plain expectiminimax vs Fractions by hand",
         (plies_side("plies", "piglet", "expectiminimax", PIGLET, star=False),
          hand_side("hand-written", "piglet", 3, 12)),
         same_nodes=("plies", "hand-written")),
    Case("piglet-star", "Piglet expectiminimax: Star1 against plain",
         (plies_side("plies, Star", "piglet", "expectiminimax", PIGLET),
          plies_side("plies, plain", "piglet", "expectiminimax", PIGLET, star=False))),
    _construct("hex-3x3", "hex", {"size": 3}, "Hex 3x3, connects()"),
    _construct("kalah-3x4", "kalah", {"pits": 3, "seeds": 4}, "Kalah 3 pits 4 seeds, sowing "
               "with while"),
    _construct("othello-4x4", "othello", {"size": 4}, "Othello 4x4, setup and flipping with "
               "while"),
]


# ---- running ------------------------------------------------------------------------------------


def run_side(case: Case, index: int, count: bool) -> dict:
    """One run of a case's side in a fresh process (``benchmarks.worker``)."""
    command = [sys.executable, "-m", "benchmarks.worker", case.name, str(index)]
    if count:
        command.append("--count")
    done = subprocess.run(command, capture_output=True, text=True, check=False,
                          cwd=Path(__file__).resolve().parents[1])
    if done.returncode != 0:
        raise RuntimeError(f"{case.name}, {case.sides[index].label}: {done.stderr.strip()}")
    return json.loads(done.stdout)


def paired_ratio(plies: list[float], side: list[float]) -> float | None:
    """The median, over the turns, of plies's CPU time over the side's in the same turn.

    The two runs of a turn follow each other, so they meet the machine in the same state: this
    machine (a shared virtual one) now and then runs everything about 1.7 times slower for a
    while, and a ratio of medians taken over turns in both states can mix a fast run of one side
    with a slow run of the other.
    """
    ratios = [mine / theirs for mine, theirs in zip(plies, side) if theirs]
    return statistics.median(ratios) if ratios else None


def measure(case: Case, repeat: int) -> dict:
    """Run the sides alternately ``repeat`` times; medians, ratios and agreement checks."""
    runs: list[list[dict]] = [[] for _ in case.sides]
    for turn in range(repeat):
        for index in range(len(case.sides)):
            print(f"  {case.name}: {case.sides[index].label} ({turn + 1}/{repeat})",
                  file=sys.stderr, flush=True)
            runs[index].append(run_side(case, index, count=turn == 0))
    sides = []
    for side, results in zip(case.sides, runs):
        first = results[0]
        sides.append({
            "label": side.label,
            "value": first["value"],
            "nodes": first["nodes"],
            "seconds": statistics.median(r["seconds"] for r in results),
            "cpu": statistics.median(r["cpu"] for r in results),
            "peak_mb": max(r["peak_mb"] for r in results),
            "all_cpu": [r["cpu"] for r in results],
        })
    for side in sides[1:]:
        side["ratio"] = paired_ratio(sides[0]["all_cpu"], side["all_cpu"])
    problems = []
    values = {side["value"] for side in sides}
    if len(values) > 1:
        problems.append("values differ: " + ", ".join(f"{s['label']} {s['value']}" for s in sides))
    counted = {s["nodes"] for s in sides if s["label"] in case.same_nodes}
    if len(counted) > 1:
        problems.append("node counts differ: " + ", ".join(
            f"{s['label']} {s['nodes']:,}" for s in sides if s["label"] in case.same_nodes))
    return {"case": case.name, "description": case.description, "repeat": repeat,
            "sides": sides, "problems": problems}


def machine() -> dict:
    """What the run ran on."""
    model = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    memory = None
    try:
        memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    except (ValueError, OSError, AttributeError):
        pass
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    return {
        "processor": model,
        "cores": os.cpu_count(),
        "memory_gb": None if memory is None else round(memory, 1),
        "system": f"{platform.system()} {platform.release()}",
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "load_at_start": None if load is None else round(load, 2),
        "when": time.strftime("%Y-%m-%d %H:%M"),
    }


# ---- reporting ----------------------------------------------------------------------------------


def table_rows(rows: list[dict]) -> list[list[str]]:
    """The results as rows of cells: case, side, value, nodes, seconds, CPU, peak, ratio."""
    cells = []
    for row in rows:
        for index, side in enumerate(row["sides"]):
            ratio = side.get("ratio")
            cells.append([
                row["case"] if index == 0 else "",
                side["label"],
                str(side["value"]),
                "-" if side["nodes"] is None else f"{side['nodes']:,}",
                f"{side['seconds']:.3f}",
                f"{side['cpu']:.3f}",
                f"{side['peak_mb']:,.0f}",
                "" if ratio is None else f"{ratio:.2f}x",
            ])
    return cells


HEADER = ["case", "side", "value", "nodes", "seconds", "CPU s", "peak MB", "plies/side"]


def print_table(rows: list[dict]) -> None:
    cells = [HEADER] + table_rows(rows)
    widths = [max(len(row[i]) for row in cells) for i in range(len(HEADER))]
    for number, row in enumerate(cells):
        print("  ".join(c.ljust(w) if i < 2 else c.rjust(w)
                        for i, (c, w) in enumerate(zip(row, widths))).rstrip())
        if number == 0:
            print("-" * (sum(widths) + 2 * (len(widths) - 1)))
    for row in rows:
        for problem in row["problems"]:
            print(f"MISMATCH in {row['case']}: {problem}")


def markdown(rows: list[dict], start: dict | None, targets: list[dict], where: dict) -> str:
    """The results as the Markdown that docs/performance.md shows."""
    lines = [f"Machine: {where['processor']}, {where['cores']} cores, {where['memory_gb']} GB; "
             f"{where['system']}; {where['python']}. Run {where['when']} "
             f"(load average {where['load_at_start']} at the start).", ""]
    lines.append("| " + " | ".join(HEADER) + " |")
    lines.append("|" + "|".join("---" for _ in HEADER) + "|")
    lines.extend("| " + " | ".join(cell or " " for cell in row) + " |" for row in table_rows(rows))
    if start is not None:
        lines += ["", startup.markdown(start)]
    if targets:
        lines += ["", "| target | measured | met? |", "|---|---|---|"]
        lines.extend(f"| {t['target']} | {t['measured']} | {'yes' if t['met'] else 'no'} |"
                     for t in targets)
    return "\n".join(lines) + "\n"


def _side(rows: dict, case: str, label: str) -> dict | None:
    row = rows.get(case)
    return None if row is None else next((s for s in row["sides"] if s["label"] == label), None)


def targets(rows: list[dict], start: dict | None) -> list[dict]:
    """Issue 9's targets, judged on this run (only those whose cases ran)."""
    by_name = {row["case"]: row for row in rows}
    found = []

    def ratio(case: str, label: str, limit: float, what: str) -> None:
        side = _side(by_name, case, label)
        if side is not None:
            found.append({"target": f"{what} <= {limit:.2f}x {label}",
                          "measured": f"{side['ratio']:.2f}x", "met": side["ratio"] <= limit})

    for label in ("shared tight", "hand-written"):
        ratio("ttt-minimax", label, 0.85, "tic-tac-toe minimax")
        ratio("ttt-alphabeta", label, 1.0, "tic-tac-toe alpha-beta")
        ratio("ttt-auto", label, 1.0, "tic-tac-toe auto")
    for case, limit in (("c4-6x4", 10), ("c4-5x5", 10), ("c4-6x5", 90)):
        side = _side(by_name, case, "plies")
        if side is not None:
            found.append({"target": f"Connect Four {case[3:]} proved in under {limit} s",
                          "measured": f"{side['cpu']:.1f} s CPU, {side['seconds']:.1f} s, "
                                      f"{side['nodes']:,} nodes",
                          "met": side["cpu"] < limit and side["seconds"] < limit})
            found.append({"target": f"Connect Four {case[3:]} peak memory under 1.5 GB",
                          "measured": f"{side['peak_mb']:,.0f} MB",
                          "met": side["peak_mb"] < 1500})
    ratio("piglet-star", "plies, plain", 1.0, "Piglet expectiminimax with Star1")
    tight, native = _side(by_name, "ttt-minimax", "shared tight"), \
        _side(by_name, "ttt-minimax", "plies native")
    if tight is not None and native is not None and native["cpu"]:
        faster = paired_ratio(tight["all_cpu"], native["all_cpu"])
        found.append({"target": "tic-tac-toe minimax native >= 20x faster than shared tight",
                      "measured": f"{faster:.1f}x", "met": faster >= 20})
    native = _side(by_name, "c4-6x5", "plies native")
    if native is not None:
        found.append({"target": "Connect Four 6x5 native proved in under 10 s",
                      "measured": f"{native['cpu']:.1f} s CPU, {native['seconds']:.1f} s",
                      "met": native["seconds"] < 10})
    for size in ("7x5", "6x6"):
        native = _side(by_name, f"c4-{size}-native", "plies native")
        if native is not None:
            found.append({"target": f"Connect Four {size} native attempted (issue 12)",
                          "measured": f"value {native['value']} in {native['cpu']:.0f} s CPU, "
                                      f"{native['nodes']:,} nodes, {native['peak_mb']:,.0f} MB",
                          "met": native["value"] is not None})
    if start is not None:
        found.append({"target": "`plies solve games/aima_fig5_2.game` at most 0.15 s CPU more "
                                "than `python -c pass`",
                      "measured": f"{start['difference']:.3f} s more "
                                  f"({start['first_difference']:.3f} s the first time)",
                      "met": start["difference"] <= 0.15})
    return found


DOCS = Path(__file__).resolve().parents[1] / "docs" / "performance.md"
BEGIN, END = "<!-- benchmark results: begin -->", "<!-- benchmark results: end -->"


def write_docs(text: str, path: Path = DOCS) -> None:
    """Replace the results between the markers in docs/performance.md."""
    page = path.read_text()
    head, rest = page.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    path.write_text(f"{head}{BEGIN}\n{text}{END}{tail}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks",
        description="plies against hand-written baselines (hold /tmp/plies-bench.lock).")
    parser.add_argument("--repeat", type=int, default=5, help="runs of each side (default 5)")
    parser.add_argument("--quick", action="store_true", help="skip the slow cases")
    parser.add_argument("--case", action="append", choices=[c.name for c in CASES] + ["startup"],
                        help="run only this case (repeatable)")
    parser.add_argument("--json", type=Path, default=RESULTS, help=f"default {RESULTS}")
    parser.add_argument("--write-docs", action="store_true",
                        help="put the tables in docs/performance.md")
    args = parser.parse_args(argv)
    chosen = args.case or [c.name for c in CASES if not (args.quick and c.slow)] + ["startup"]
    where = machine()
    rows = []
    for case in CASES:
        if case.name in chosen:
            print(f"running {case.name}: {case.description}", file=sys.stderr, flush=True)
            rows.append(measure(case, min(args.repeat, case.repeat or args.repeat)))
    start = startup.measure(args.repeat) if "startup" in chosen else None
    print_table(rows)
    if start is not None:
        print()
        print(startup.text(start))
    judged = targets(rows, start)
    if judged:
        print()
        for target in judged:
            print(f"{'met    ' if target['met'] else 'NOT MET'}  {target['target']}: "
                  f"{target['measured']}")
    report = {"machine": where, "cases": rows, "startup": start, "targets": judged}
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(report, indent=2) + "\n")
    print(f"\nwrote {args.json}")
    if args.write_docs:
        write_docs(markdown(rows, start, judged, where))
        print(f"wrote {DOCS}")
    return 1 if any(row["problems"] for row in rows) else 0
