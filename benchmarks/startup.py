"""Start-up: the CPU time of ``plies solve games/aima_fig5_2.game`` over ``python -c pass``.

The search takes a ten-thousandth of a second, so this is Python, the imports, the command
line, the parser and the compilation of the game. Both commands run as child processes and
their user and system CPU time is read from the operating system, alternately, ``repeat``
times; the medians are compared. Bytecode is cached in a directory of its own (in a normal
installation it is cached beside the modules), and one run before the timed ones fills it and
plies's parser cache.
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

CHECKOUT = Path(__file__).resolve().parents[1]
GAME = "games/aima_fig5_2.game"
PLIES = [sys.executable, "-c", "import sys; from plies.cli import app; sys.argv[0] = 'plies'; app()",
         "solve", GAME]
NOTHING = [sys.executable, "-c", "pass"]


def cpu_of(command: list[str], env: dict) -> float:
    """The user and system CPU seconds of one run of ``command``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, cwd=CHECKOUT, env=env, check=True, stdout=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def measure(repeat: int) -> dict:
    """Median CPU seconds of plies solving aima_fig5_2 and of ``python -c pass``."""
    with tempfile.TemporaryDirectory() as bytecode:
        env = dict(os.environ, PYTHONPYCACHEPREFIX=bytecode)
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        cpu_of(PLIES, env)  # fill the bytecode and parser caches
        plies, nothing = [], []
        for _ in range(max(repeat, 5)):
            plies.append(cpu_of(PLIES, env))
            nothing.append(cpu_of(NOTHING, env))
    solve, empty = statistics.median(plies), statistics.median(nothing)
    return {"plies": solve, "python": empty, "difference": solve - empty,
            "all_plies": plies, "all_python": nothing}


def text(start: dict) -> str:
    return (f"start-up: plies solve {GAME} {start['plies']:.3f} s CPU, python -c pass "
            f"{start['python']:.3f} s: {start['difference']:.3f} s more")


def markdown(start: dict) -> str:
    return ("| start-up | CPU s |\n|---|---|\n"
            f"| `plies solve {GAME}` | {start['plies']:.3f} |\n"
            f"| `python -c pass` | {start['python']:.3f} |\n"
            f"| difference | {start['difference']:.3f} |")
