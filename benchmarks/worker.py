"""One timed run of one side of a benchmark case, in its own process: ``python -m benchmarks.worker
CASE SIDE [--count]`` prints ``{"value", "nodes", "seconds", "cpu", "peak_mb"}`` as JSON.

A run under a quarter of a CPU second is repeated in the same process and the median kept.

The side's game is loaded before the clocks start; ``--count`` first makes the side's separate
counting run (for solvers that count nothing while timed). The peak is the process's largest
resident set, loading included.
"""

from __future__ import annotations

import json
import resource
import statistics
import sys
import time

from .harness import CASES

MAX_RECURSION = 100_000
"""Room for the hand-written solvers' recursion (plies sets its own)."""

SHORT, SHORT_RUNS = 0.25, 51
"""A run shorter than this many CPU seconds is repeated (up to SHORT_RUNS times, until they add
up to SHORT) and the median taken: a single millisecond run is mostly noise."""


def main(argv: list[str]) -> int:
    name, index = argv[0], int(argv[1])
    side = next(case for case in CASES if case.name == name).sides[index]
    sys.setrecursionlimit(max(sys.getrecursionlimit(), MAX_RECURSION))
    run = side.make()
    counted = side.count() if "--count" in argv and side.count is not None else (None, None)
    times = []
    while not times or len(times) < SHORT_RUNS and sum(c for c, _ in times) < SHORT:
        wall, cpu = time.perf_counter(), time.process_time()
        value, nodes = run()
        times.append((time.process_time() - cpu, time.perf_counter() - wall))
    cpu, wall = statistics.median(c for c, _ in times), statistics.median(w for _, w in times)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    peak_mb = peak / 2**20 if sys.platform == "darwin" else peak / 2**10  # bytes / KiB
    print(json.dumps({"value": str(value), "nodes": nodes if nodes is not None else counted[1],
                      "seconds": wall, "cpu": cpu, "peak_mb": peak_mb}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
