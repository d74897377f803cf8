"""Strong solving speed: positions per second, memory per position, database writing.

Run ``python -m benchmarks.strong`` from the checkout, under the bench lock on a shared
machine (``flock /tmp/plies-bench.lock python -m benchmarks.strong``). Each case is one
``plies.solvers.strong.strong_solve`` of a whole game (finding every position, then valuing
it), repeated ``--repeat`` times; the table gives the medians. The goal of issue 11 is ten
times GamesmanPy's 25,000 positions per second: 250,000.

Memory is measured in a separate run of each case under ``tracemalloc`` (which slows Python
down, so it is never timed): the peak of everything the solve allocated, over the positions.
The database column is one ``plies.commands.database.write`` of the solution, timed and sized. So that
a loaded machine can be seen for what it is, each run also times the game's own rules alone
(every position's outcome and children, which any solver must ask for): "x the rules alone"
is the strong solve's time over that floor.
Results go to ``benchmarks/results/strong.json`` (``--json``), which docs/analysis.md quotes.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import tempfile
import time
import tracemalloc
from dataclasses import dataclass
from pathlib import Path

import plies
from plies.commands import database
from plies.solvers.strong import strong_solve

RESULTS = Path(__file__).parent / "results" / "strong.json"
GAMESMANPY = 25_000
"""Positions per second GamesmanPy solves, as issue 11 quotes it."""
GOAL = 10 * GAMESMANPY


@dataclass(frozen=True)
class Case:
    """One game to solve strongly."""

    name: str
    game: str
    params: dict
    description: str
    slow: bool = False


CASES = [
    Case("tictactoe", "tictactoe", {}, "tic-tac-toe: no cycles"),
    Case("connect4-4x4", "connect4", {"width": 4, "height": 4}, "Connect Four 4x4: no cycles"),
    Case("morris3", "morris3", {}, "three men's morris: cycles, endless play a draw"),
    Case("piglet-6", "piglet_endless", {"goal": 6}, "Piglet to 6: chance and cycles"),
    Case("connect4-5x4", "connect4", {"width": 5, "height": 4}, "Connect Four 5x4: no cycles",
         slow=True),
]


def measure(case: Case, repeat: int) -> dict:
    """Solve the case ``repeat`` times (medians), once more under tracemalloc, and store it."""
    model = plies.load(case.game, **case.params)
    runs, rules = [], []
    solution = None
    for _ in range(repeat):
        del solution  # one solution in memory at a time: Connect Four 5x4's is 2 GB
        solution = strong_solve(model)
        runs.append((solution.explore_seconds, solution.solve_seconds))
        rules.append(rules_alone(model, solution.graph.states))
    positions = solution.positions
    explore = statistics.median(r[0] for r in runs)
    solve = statistics.median(r[1] for r in runs)
    total = statistics.median(r[0] + r[1] for r in runs)
    rules_seconds = statistics.median(rules)
    del solution
    tracemalloc.start()
    solution = strong_solve(model)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    with tempfile.TemporaryDirectory() as folder:
        written = database.write(Path(folder) / "s.sqlite", model, solution)
    return {
        "case": case.name,
        "description": case.description,
        "positions": positions,
        "terminal": solution.graph.terminal_count,
        "moves": solution.graph.edges,
        "value": database.value_text(solution.values[0]),
        "remoteness": solution.remoteness[0],
        "method": solution.method,
        "repeat": repeat,
        "explore_seconds": explore,
        "solve_seconds": solve,
        "seconds": total,
        "positions_per_second": positions / total,
        "rules_seconds": rules_seconds,
        "times_rules": total / rules_seconds,
        "times_gamesmanpy": positions / total / GAMESMANPY,
        "peak_bytes": peak,
        "bytes_per_position": peak / positions,
        "database_seconds": written.seconds,
        "database_bytes_per_position": written.bytes / positions,
        "all_seconds": [a + b for a, b in runs],
    }


def rules_alone(model, states) -> float:
    """Seconds the game's own code takes to give every position's outcome and children:
    a floor no strong solver in Python goes below, measured in the same run."""
    outcome, to_move, successors, chance = (model.outcome, model.to_move, model.successors,
                                            model.chance_outcomes)
    result = model.result
    started = time.perf_counter()
    for state in states:
        if outcome(state) is None:
            if to_move(state) == 0:
                for move, _ in chance(state):
                    result(state, move)
            else:
                successors(state)
    return time.perf_counter() - started


def table(rows: list[dict]) -> str:
    """The results as a Markdown table."""
    lines = ["| case | positions | method | value | remoteness | finding | valuing | "
             "positions/s | x GamesmanPy | x the rules alone | memory/position | database |",
             "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for row in rows:
        remoteness = "none" if row["remoteness"] is None else row["remoteness"]
        lines.append(
            f"| {row['description']} | {row['positions']:,} | {row['method']} | "
            f"{row['value']} | {remoteness} | {row['explore_seconds']:.3f} s | "
            f"{row['solve_seconds']:.3f} s | {row['positions_per_second']:,.0f} | "
            f"{row['times_gamesmanpy']:.1f}x | {row['times_rules']:.1f}x | "
            f"{row['bytes_per_position']:,.0f} B | "
            f"{row['database_seconds']:.2f} s, {row['database_bytes_per_position']:,.0f} B |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.strong",
                                     description="Strong solving speed and memory.")
    parser.add_argument("--repeat", type=int, default=5, help="runs of each case (default 5)")
    parser.add_argument("--quick", action="store_true", help="skip the slow cases")
    parser.add_argument("--case", choices=[c.name for c in CASES], help="run only this case")
    parser.add_argument("--json", type=Path, default=RESULTS, help=f"default {RESULTS}")
    args = parser.parse_args(argv)
    cases = [c for c in CASES if args.case in (None, c.name) and not (args.quick and c.slow
                                                                       and args.case is None)]
    rows = []
    for case in cases:
        print(f"running {case.name}: {case.description} ...", file=sys.stderr, flush=True)
        rows.append(measure(case, args.repeat))
    print(table(rows))
    args.json.parent.mkdir(parents=True, exist_ok=True)
    report = {"python": platform.python_version(), "machine": platform.machine(),
              "when": time.strftime("%Y-%m-%d %H:%M:%S"), "load_average": os.getloadavg()[0],
              "goal_positions_per_second": GOAL, "cases": rows}
    args.json.write_text(json.dumps(report, indent=2) + "\n")
    print(f"\nwrote {args.json}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
