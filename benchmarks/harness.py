"""Run each case for plies and its baseline, interleaved, and report the medians."""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import plies
from plies.solvers import solve

from .baselines import connect4, piglet, tictactoe

RESULTS = Path(__file__).parent / "results" / "latest.json"


@dataclass(frozen=True)
class Case:
    """One benchmark: a plies search and the hand-written baseline it is measured against.

    Attributes:
        name: The name ``--case`` selects.
        description: One line for the table.
        plies_run: Solve with plies; returns (value, nodes).
        baseline_run: Solve by hand; returns (value, nodes).
        same_algorithm: True when both count the same nodes, so the counts must agree.
        slow: Skipped by ``--quick``.
    """

    name: str
    description: str
    plies_run: Callable[[], tuple]
    baseline_run: Callable[[], tuple]
    same_algorithm: bool
    slow: bool = False


def plies_case(game_name: str, algorithm: str, **options) -> Callable[[], tuple]:
    """A plies solve, with the game compiled once outside the timed call."""
    params = options.pop("params", {})
    game = plies.load(game_name, **params)

    def run() -> tuple:
        result = solve(game, algorithm, **options)
        return result.value, result.nodes

    return run


CASES = [
    Case(
        "ttt-minimax",
        "tic-tac-toe minimax",
        plies_case("tictactoe", "minimax"),
        tictactoe.minimax,
        same_algorithm=True,
    ),
    Case(
        "ttt-alphabeta",
        "tic-tac-toe alpha-beta, no table",
        plies_case("tictactoe", "alphabeta"),
        tictactoe.alphabeta,
        same_algorithm=True,
    ),
    Case(
        "ttt-auto",
        "tic-tac-toe auto vs alpha-beta + bound table",
        plies_case("tictactoe", "auto", use_table=True),
        tictactoe.alphabeta_table,
        same_algorithm=False,
    ),
    Case(
        "c4-5x4-auto",
        "Connect Four 5x4 auto vs alpha-beta + bound table",
        plies_case("connect4", "auto", use_table=True, params={"width": 5, "height": 4}),
        lambda: connect4.alphabeta_table(5, 4),
        same_algorithm=False,
        slow=True,
    ),
    Case(
        "piglet-emm",
        "Piglet (goal 3, flips 12) expectiminimax, Fractions",
        plies_case("piglet", "expectiminimax", star=False, params={"goal": 3, "flips": 12}),
        lambda: piglet.expectiminimax(3, 12),
        same_algorithm=True,
    ),
]


def timed(run: Callable[[], tuple]) -> tuple:
    started = time.perf_counter()
    value, nodes = run()
    return value, nodes, time.perf_counter() - started


def measure(case: Case, repeat: int) -> dict:
    """Run plies and the baseline alternately ``repeat`` times each; medians and checks."""
    runs = {"plies": [], "baseline": []}
    for _ in range(repeat):
        runs["plies"].append(timed(case.plies_run))
        runs["baseline"].append(timed(case.baseline_run))
    row = {"case": case.name, "description": case.description, "repeat": repeat}
    for side, results in runs.items():
        value, nodes, _ = results[0]
        seconds = statistics.median(r[2] for r in results)
        row[side] = {
            "value": str(value),
            "nodes": nodes,
            "seconds": seconds,
            "nodes_per_second": nodes / seconds if seconds else None,
            "all_seconds": [r[2] for r in results],
        }
    plies_side, base = row["plies"], row["baseline"]
    row["ratio"] = plies_side["seconds"] / base["seconds"]
    row["ratio_per_node"] = base["nodes_per_second"] / plies_side["nodes_per_second"]
    problems = []
    if plies_side["value"] != base["value"]:
        problems.append(f"values differ: plies {plies_side['value']}, baseline {base['value']}")
    if case.same_algorithm and plies_side["nodes"] != base["nodes"]:
        problems.append(
            f"node counts differ: plies {plies_side['nodes']:,}, baseline {base['nodes']:,}"
        )
    row["problems"] = problems
    return row


def print_table(rows: list[dict]) -> None:
    header = (
        f"{'case':<14} {'side':<9} {'value':>9} {'nodes':>10} {'seconds':>9} "
        f"{'nodes/s':>10} {'plies/base':>10} {'per node':>9}"
    )
    print(header)
    print("-" * len(header))
    for row in rows:
        for side in ("plies", "baseline"):
            s = row[side]
            ratios = (
                f"{row['ratio']:>9.2f}x {row['ratio_per_node']:>8.2f}x" if side == "plies" else ""
            )
            print(
                f"{row['case'] if side == 'plies' else '':<14} {side:<9} {s['value']:>9} "
                f"{s['nodes']:>10,} {s['seconds']:>9.3f} {s['nodes_per_second']:>10,.0f} {ratios}"
            )
    for row in rows:
        for problem in row["problems"]:
            print(f"MISMATCH in {row['case']}: {problem}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks", description="plies against hand-written baselines."
    )
    parser.add_argument("--repeat", type=int, default=5, help="runs of each side (default 5)")
    parser.add_argument("--quick", action="store_true", help="skip the slow cases")
    parser.add_argument(
        "--case", choices=[case.name for case in CASES], help="run only this case"
    )
    parser.add_argument("--json", type=Path, default=RESULTS, help=f"default {RESULTS}")
    args = parser.parse_args(argv)
    cases = [c for c in CASES if (args.case is None or c.name == args.case)]
    if args.quick and args.case is None:
        cases = [c for c in cases if not c.slow]
    rows = []
    for case in cases:
        print(f"running {case.name}: {case.description} ...", file=sys.stderr, flush=True)
        rows.append(measure(case, args.repeat))
    print_table(rows)
    args.json.parent.mkdir(parents=True, exist_ok=True)
    report = {
        "python": platform.python_version(),
        "machine": platform.machine(),
        "processor": platform.processor(),
        "when": time.strftime("%Y-%m-%d %H:%M:%S"),
        "cases": rows,
    }
    args.json.write_text(json.dumps(report, indent=2) + "\n")
    print(f"\nwrote {args.json}")
    return 1 if any(row["problems"] for row in rows) else 0
