"""Strong solving by tiers into a solution directory: time, peak memory and size on disk.

``python -m benchmarks.tiers [--boards 5x4 6x4] [--workers 1 2] [--backends python native]
[--append]``
solves Connect Four by tiers once per board, back end and worker count (``plies solve
connect4 --strong --db DIR --workers N --backend B --json``,
in a new process each time), samples the memory of the solve and its worker processes
together every 0.1 s, counts their CPU time, and writes ``benchmarks/results/tiers.json``, which
``benchmarks.analysis_page`` shows. Run it under the bench lock: it keeps the machine's cores
busy. The machine and its load average (before and after each solve) are recorded with the
figures.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RESULTS = Path(__file__).parent / "results" / "tiers.json"


def tree_rss(pid: int) -> int:
    """Resident memory of a process and all its descendants, in bytes (Linux)."""
    total, stack = 0, [pid]
    page = os.sysconf("SC_PAGE_SIZE")
    while stack:
        current = stack.pop()
        try:
            with open(f"/proc/{current}/statm") as statm:
                total += int(statm.read().split()[1]) * page
            for task in os.listdir(f"/proc/{current}/task"):
                with open(f"/proc/{current}/task/{task}/children") as children:
                    stack.extend(int(c) for c in children.read().split())
        except (OSError, ValueError):
            continue
    return total


def solve(width: int, height: int, workers: int, backend: str = "python") -> dict:
    """One solve in a new process: its summary, wall time and peak memory."""
    with tempfile.TemporaryDirectory() as folder:
        target = Path(folder) / "c4"
        command = [sys.executable, "-c", "from plies.cli import app; app()", "solve",
                   "connect4", "-p", f"width={width}", "-p", f"height={height}", "--strong",
                   "--db", str(target), "--workers", str(workers), "--backend", backend,
                   "--json"]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        load_before = os.getloadavg()[0]
        started = time.perf_counter()
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   text=True)
        peak = 0
        while process.poll() is None:
            peak = max(peak, tree_rss(process.pid))
            time.sleep(0.1)
        out, err = process.communicate()
        wall = time.perf_counter() - started
        after = resource.getrusage(resource.RUSAGE_CHILDREN)  # the solve and its workers
        cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
        if process.returncode != 0:
            raise SystemExit(f"{' '.join(command)} failed:\n{err}")
        summary = json.loads(out)
    return {"width": width, "height": height, "workers": workers, "backend": backend,
            "wall_seconds": round(wall, 1),
            "cpu_seconds": round(cpu, 1),
            "peak_bytes": peak, "positions": summary["positions"], "tiers": summary["tiers"],
            "value": summary["value"], "remoteness": summary["remoteness"],
            "bytes": summary["bytes"], "load_before": round(load_before, 2),
            "load_after": round(os.getloadavg()[0], 2)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--boards", nargs="+", default=["5x4"],
                        help="Connect Four boards, WIDTHxHEIGHT")
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--backends", nargs="+", default=["python", "native"])
    parser.add_argument("--append", action="store_true",
                        help="add the cases to those of the results file (runs kept short)")
    args = parser.parse_args()
    earlier = json.loads(RESULTS.read_text())["cases"] if args.append and RESULTS.is_file() \
        else []
    boards = [tuple(int(side) for side in board.split("x")) for board in args.boards]
    cases = [solve(width, height, n, b) for width, height in boards for b in args.backends
             for n in args.workers]
    report = {"machine": f"{platform.machine()}, {os.cpu_count()} cores",
              "python": platform.python_version(),
              "when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
              "load_average": round(os.getloadavg()[0], 1), "cases": earlier + cases}
    RESULTS.parent.mkdir(exist_ok=True)
    RESULTS.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    for case in cases:
        print(f"{case['width']}x{case['height']} {case['backend']}, {case['workers']} workers: {case['positions']:,} positions in "
              f"{case['wall_seconds']} s ({case['cpu_seconds']} s of CPU), "
              f"peak {case['peak_bytes'] / 1e6:.0f} MB, "
              f"{case['bytes'] / 1e6:.1f} MB on disk")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
