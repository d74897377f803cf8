"""Start-up: the CPU time of ``plies solve games/aima_fig5_2.game`` over ``python -c pass``.

The search takes a ten-thousandth of a second, so this is Python, the imports, the command
line, the parser and the compilation of the game. The commands run as child processes and
their user and system CPU time is read from the operating system, in turn, ``repeat`` times;
the medians are compared. Bytecode is cached in a directory of its own (in a normal
installation it is cached beside the modules), and so is plies's cache (``PLIES_CACHE_DIR``);
one run before the timed ones fills both.

Two starts are timed: the game seen before (read back from the game cache, the target's
case: solving a game again, with other options or another command) and the game seen for the
first time (``PLIES_NO_GAME_CACHE=1``: parsed and checked, with the parser's tables cached).
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
    """Median CPU seconds of plies solving aima_fig5_2 (seen before, and first seen) and of
    ``python -c pass``."""
    with tempfile.TemporaryDirectory() as bytecode, tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, PYTHONPYCACHEPREFIX=bytecode, PLIES_CACHE_DIR=cache)
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env.pop("PLIES_NO_GAME_CACHE", None)
        first_env = dict(env, PLIES_NO_GAME_CACHE="1")
        cpu_of(PLIES, env)  # fill the bytecode, parser and game caches
        plies, first, nothing = [], [], []
        for _ in range(max(repeat, 5)):
            plies.append(cpu_of(PLIES, env))
            first.append(cpu_of(PLIES, first_env))
            nothing.append(cpu_of(NOTHING, env))
    solve, fresh, empty = (statistics.median(plies), statistics.median(first),
                           statistics.median(nothing))
    return {"plies": solve, "python": empty, "difference": solve - empty,
            "first": fresh, "first_difference": fresh - empty,
            "all_plies": plies, "all_first": first, "all_python": nothing}


def text(start: dict) -> str:
    return (f"start-up: plies solve {GAME} {start['plies']:.3f} s CPU "
            f"({start['first']:.3f} s the first time), python -c pass "
            f"{start['python']:.3f} s: {start['difference']:.3f} s more "
            f"({start['first_difference']:.3f} s the first time)")


def markdown(start: dict) -> str:
    return ("| start-up | CPU s | more than Python |\n|---|---|---|\n"
            f"| `plies solve {GAME}`, the game seen before | {start['plies']:.3f} | "
            f"{start['difference']:.3f} |\n"
            f"| `plies solve {GAME}`, the game first seen | {start['first']:.3f} | "
            f"{start['first_difference']:.3f} |\n"
            f"| `python -c pass` | {start['python']:.3f} | |")
