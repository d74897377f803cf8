"""Connect Four natively against a hand-written C solver (issue 20).

``python -m benchmarks.connect4_native`` times ``--backend native`` on games/connect4.game (the
same search as ``plies solve games/connect4.game --backend native``) against
``baselines/connect4.c``, a hand-written bitboard solver compiled with ``cc -O3`` (and
the processor flags the native back end uses, ``-mpopcnt`` and ``-mavx2`` where the processor
has them) for each board, on 6x4 and 5x5 (and 6x5 with
``--slow``). Each run is a fresh process, the sides alternate (native, C, native, ...), and
the ratio is the median over the turns of the native side's time over the C solver's in the
same turn, as ``benchmarks.harness`` does; CPU time for one thread, the wall clock when
``--threads`` asks for more (CPU time then adds up the threads). Run it under the shared
lock on a shared machine (``flock /tmp/plies/heavy.lock python -m benchmarks.connect4_native``).
"""

from __future__ import annotations

import argparse
import ctypes
import hashlib
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from .harness import machine

SOURCE = Path(__file__).parent / "baselines" / "connect4.c"
BOARDS = [(6, 4), (5, 5)]
SLOW_BOARDS = [(6, 5)]


def build_baseline(width: int, height: int) -> Path:
    """``baselines/connect4.c`` compiled for one board (``-DWIDTH -DHEIGHT``) with ``-O3`` and
    the processor flags the native back end builds with (``-mpopcnt`` and ``-mavx2`` where the
    processor has them: the bit counts of the threats are then one instruction on both sides,
    and the compiler may use vectors on both), cached by the
    source's and the flags' hash in the temporary directory.

    Raises:
        RuntimeError: no C compiler, or the build failed (the compiler's message).
    """
    from plies.backends.native.build import machine_flags

    flags = list(machine_flags())
    text = SOURCE.read_bytes() + " ".join(flags).encode()
    digest = hashlib.sha256(text).hexdigest()[:16]
    target = Path(tempfile.gettempdir()) / f"plies-c4-{digest}-{width}x{height}.so"
    if not target.exists():
        compiler = os.environ.get("CC", "cc")
        partial = target.with_suffix(f".{os.getpid()}.tmp")
        done = subprocess.run(
            [compiler, "-O3", *flags, "-shared", "-fPIC", f"-DWIDTH={width}", f"-DHEIGHT={height}",
             str(SOURCE), "-o", str(partial)], capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"building {SOURCE.name} failed: {done.stderr.strip()[:300]}")
        os.replace(partial, target)
    return target


def baseline_solver(width: int, height: int):
    """``solve()`` -> (value for the first player, nodes), by the compiled C solver."""
    library = ctypes.CDLL(str(build_baseline(width, height)))
    library.c4_solve.restype = ctypes.c_int
    library.c4_solve.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.POINTER(ctypes.c_int64)]

    def solve() -> tuple[int, int]:
        nodes = ctypes.c_int64(0)
        value = library.c4_solve(width, height, ctypes.byref(nodes))
        if value == -2:
            raise RuntimeError(f"connect4.c cannot solve {width}x{height}")
        return value, nodes.value

    return solve


def native_solver(width: int, height: int, threads: int):
    """``solve()`` -> (value, nodes) by ``--backend native`` on games/connect4.game."""
    import plies
    from plies.backends.native.engine import NativeGame

    native = NativeGame(plies.load("connect4", width=width, height=height))
    options = {} if threads == 1 else {"threads": threads}

    def solve() -> tuple:
        result = native.solve("auto", **options)
        return result.value, result.nodes

    return solve


SIDES = {"native": native_solver, "connect4.c": lambda w, h, threads: baseline_solver(w, h)}


def worker(side: str, width: int, height: int, threads: int) -> dict:
    """One timed solve in this process (the build and the load are not timed)."""
    solve = SIDES[side](width, height, threads)
    wall, cpu = time.perf_counter(), time.process_time()
    value, nodes = solve()
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**10
    return {"value": value, "nodes": nodes, "seconds": wall, "cpu": cpu, "peak_mb": peak}


def run(side: str, width: int, height: int, threads: int) -> dict:
    command = [sys.executable, "-m", "benchmarks.connect4_native", "--worker", side,
               str(width), str(height), str(threads)]
    done = subprocess.run(command, capture_output=True, text=True, check=False,
                          cwd=Path(__file__).resolve().parents[1])
    if done.returncode != 0:
        raise RuntimeError(f"{side} {width}x{height}: {done.stderr.strip()[-500:]}")
    return json.loads(done.stdout)


def measure(width: int, height: int, repeat: int, threads: int) -> dict:
    """Both sides ``repeat`` times, alternately: medians and the paired ratio."""
    runs: dict[str, list[dict]] = {side: [] for side in SIDES}
    for turn in range(repeat):
        for side in SIDES:
            print(f"  {width}x{height}: {side} ({turn + 1}/{repeat})", file=sys.stderr,
                  flush=True)
            runs[side].append(run(side, width, height, threads))
    clock = "cpu" if threads == 1 else "seconds"
    native, baseline = runs["native"], runs["connect4.c"]
    ratio = statistics.median(n[clock] / b[clock] for n, b in zip(native, baseline))
    row = {"board": f"{width}x{height}", "threads": threads, "clock": clock, "ratio": ratio}
    for side, results in runs.items():
        row[side] = {"value": results[0]["value"], "nodes": results[0]["nodes"],
                     "seconds": statistics.median(r["seconds"] for r in results),
                     "cpu": statistics.median(r["cpu"] for r in results),
                     "peak_mb": max(r["peak_mb"] for r in results)}
    if row["native"]["value"] != row["connect4.c"]["value"]:
        row["problem"] = "values differ"
    return row


def measure_threads(width: int, height: int, repeat: int, threads: int) -> dict:
    """The native side with one thread and with ``threads``, alternately: the speed-up is the
    median over the turns of one thread's wall-clock time over the threads' in the same turn."""
    runs: dict[int, list[dict]] = {1: [], threads: []}
    for turn in range(repeat):
        for count in runs:
            print(f"  {width}x{height}: native, {count} thread(s) ({turn + 1}/{repeat})",
                  file=sys.stderr, flush=True)
            runs[count].append(run("native", width, height, count))
    one, many = runs[1], runs[threads]
    return {"board": f"{width}x{height}", "threads": threads,
            "speedup": statistics.median(a["seconds"] / b["seconds"] for a, b in zip(one, many)),
            "values": sorted({r["value"] for r in one + many}),
            **{f"{count} threads": {"nodes": [r["nodes"] for r in results],
                                    "seconds": statistics.median(r["seconds"] for r in results),
                                    "cpu": statistics.median(r["cpu"] for r in results)}
               for count, results in runs.items()}}


def markdown(rows: list[dict], where: dict) -> str:
    lines = [f"Machine: {where['processor']}, {where['cores']} cores; {where['system']}; "
             f"{where['python']}. Run {where['when']} (load average {where['load_at_start']}).",
             "",
             "| board | threads | native: nodes, s (CPU s) | connect4.c: nodes, s (CPU s) "
             "| native / C |",
             "|---|---:|---|---|---:|"]
    for row in rows:
        n, b = row["native"], row["connect4.c"]
        lines.append(f"| {row['board']} | {row['threads']} | {n['nodes']:,}, {n['seconds']:.2f} "
                     f"({n['cpu']:.2f}) | {b['nodes']:,}, {b['seconds']:.2f} ({b['cpu']:.2f}) "
                     f"| {row['ratio']:.1f}x ({'CPU' if row['clock'] == 'cpu' else 'wall'}) |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--worker"]:
        side, width, height, threads = argv[1], int(argv[2]), int(argv[3]), int(argv[4])
        print(json.dumps(worker(side, width, height, threads)))
        return 0
    parser = argparse.ArgumentParser(prog="python -m benchmarks.connect4_native",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs of each side (default 3)")
    parser.add_argument("--slow", action="store_true", help="6x5 too")
    parser.add_argument("--threads", type=int, default=1, help="native threads (default 1)")
    parser.add_argument("--board", action="append", metavar="WxH",
                        help="only this board (repeatable)")
    parser.add_argument("--speedup", action="store_true",
                        help="native with one thread against --threads, no C")
    args = parser.parse_args(argv)
    boards = [tuple(int(n) for n in b.split("x")) for b in args.board] if args.board else \
        BOARDS + (SLOW_BOARDS if args.slow else [])
    where = machine()
    if args.speedup:
        for w, h in boards:
            row = measure_threads(w, h, args.repeat, args.threads)
            one, many = row["1 threads"], row[f"{args.threads} threads"]
            print(f"{row['board']}: 1 thread {one['seconds']:.2f} s ({one['nodes']} nodes), "
                  f"{args.threads} threads {many['seconds']:.2f} s wall, {many['cpu']:.2f} s CPU "
                  f"({many['nodes']} nodes): {row['speedup']:.2f}x; values {row['values']} "
                  f"({where['cores']} cores, load average {where['load_at_start']})")
        return 0
    rows = [measure(w, h, args.repeat, args.threads) for w, h in boards]
    text = markdown(rows, where)
    print(text)
    for row in rows:
        if "problem" in row:
            print(f"MISMATCH {row['board']}: {row['problem']}")
    return 1 if any("problem" in row for row in rows) else 0


if __name__ == "__main__":
    raise SystemExit(main())
