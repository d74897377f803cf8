"""Solve every shipped game at the sizes its header names and write games/README.md.

Run ``python -m benchmarks.games_table`` from the checkout (``--help`` for options). Each game
in games/ is found by its file; its header comment says what to solve, in lines the script
reads:

    # table: default                       solve with the default parameters
    # table: width=4 height=4 -> 0         solve with these parameters; 0 is the published value
    # table: slow width=6 height=4 -> -1   solve only when asked to (--slow)
    # source: J. Tromp, small boards       the published source, as the table should cite it

A game without ``# table:`` lines is solved once, with its defaults. Each setting is solved as
``plies solve`` does: a search (``auto``), or, when positions repeat, every position at once
(retrograde analysis, policy iteration). A search that runs past ``--timeout`` seconds is
listed as not proved. A value that differs from the published one is printed and makes the
exit code 1.
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

import plies
from plies.errors import PliesError
from plies.frontend.values import show_value
from plies.game.loader import parse_param
from plies.solvers import RepeatedPositionError, SolverError
from plies.solvers.strong import strong_solve

GAMES = Path(__file__).resolve().parent.parent / "games"
README = GAMES / "README.md"
COMMAND = "python -m benchmarks.games_table"
MAX_POSITIONS = 5_000_000  # the most positions of a game whose positions repeat


# ---- what the headers ask for -------------------------------------------------------------------


@dataclass(frozen=True)
class Setting:
    """One line of the table: parameter values, and the published value if there is one."""

    params: dict = field(default_factory=dict)
    published: Fraction | None = None
    slow: bool = False  # solved only with --slow

    def text(self) -> str:
        """The parameters as they are written on the command line, or 'default'."""
        if not self.params:
            return "default"
        return " ".join(f"{name}={show_value(value)}" for name, value in self.params.items())


@dataclass(frozen=True)
class Entry:
    """A shipped game and what its header asks the table to show."""

    path: Path
    settings: list[Setting]
    source: str


def read_entry(path: Path) -> Entry:
    """The ``# table:`` settings and the ``# source:`` of a game file's header.

    Raises:
        ValueError: a ``# table:`` line that cannot be read (with the file and line).
    """
    settings, source = [], ""
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.startswith("# table:"):
            try:
                settings.append(read_setting(line.removeprefix("# table:")))
            except (ValueError, PliesError) as error:
                raise ValueError(f"{path.name}:{number}: {error}") from None
        elif line.startswith("# source:"):
            source = line.removeprefix("# source:").strip()
    return Entry(path, settings or [Setting()], source)


def read_setting(text: str) -> Setting:
    """``default`` or ``NAME=VALUE ...`` (``slow`` among them), then optionally ``-> PUBLISHED``.

    Raises:
        ValueError: nothing to solve, or a published value that is not a number.
        UsageError: a NAME=VALUE that is not one.
    """
    spec, arrow, published = text.partition("->")
    words = spec.split()
    slow = "slow" in words
    words = [word for word in words if word != "slow"]
    if not words:
        raise ValueError("'# table:' needs 'default' or NAME=VALUE settings")
    params = {} if words == ["default"] else dict(parse_param(word) for word in words)
    if not arrow:
        return Setting(params, None, slow)
    try:
        return Setting(params, Fraction(published.strip()), slow)
    except ValueError:
        raise ValueError(f"the published value '{published.strip()}' is not a number") from None


# ---- solving ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Row:
    """What solving one setting gave.

    Attributes:
        value: The value found: exact when ``exact``, else a float estimate or None.
        work: Nodes searched, or positions solved when ``method`` is set.
        method: How a game whose positions repeat was solved; "" for a search.
        problem: Why there is no exact value: a timeout, or the error the game raised.
    """

    entry: Entry
    setting: Setting
    value: object = None
    exact: bool = False
    work: int = 0
    seconds: float = 0.0
    method: str = ""
    problem: str = ""


def solve_setting(entry: Entry, setting: Setting, timeout: float) -> Row:
    """Solve one setting as ``plies solve`` does; errors and timeouts become a row's problem."""
    try:
        game = plies.load(entry.path, **setting.params)
        try:
            result = game.solve("auto", timeout=timeout)
        except RepeatedPositionError:
            return solve_every_position(entry, setting, game)
    except (PliesError, SolverError) as error:
        return Row(entry, setting, problem=str(error).splitlines()[0])
    problem = "" if result.proved else f"not proved in {timeout:g} s"
    return Row(entry, setting, result.value if result.proved else None, result.proved,
               result.nodes, result.seconds, problem=problem)


def solve_every_position(entry: Entry, setting: Setting, game) -> Row:
    """A game whose positions repeat: retrograde analysis or policy iteration of them all."""
    solution = strong_solve(game, max_positions=MAX_POSITIONS)
    problem = "" if solution.exact else f"not exact: within {solution.error_bound:.0e}"
    return Row(entry, setting, solution.values[0], solution.exact, solution.positions,
               solution.seconds, solution.method, problem)


def mismatch(row: Row) -> str | None:
    """A sentence when an exact value differs from the published one, else None."""
    published = row.setting.published
    if not row.exact or published is None or Fraction(row.value) == published:
        return None
    return (f"{row.entry.path.stem} {row.setting.text()}: plies proves {row.value}, "
            f"published {published}")


# ---- the table ----------------------------------------------------------------------------------


def value_cell(value) -> str:
    """An exact value; a long fraction as its decimal, with the size of its denominator."""
    value = Fraction(value)
    if value.denominator == 1:
        return str(value.numerator)
    exact = f"{value.numerator}/{value.denominator}"
    if len(exact) <= 20:
        return f"{exact} ≈ {float(value):.4f}"
    return f"≈ {float(value):.6f} (exact: {len(str(value.denominator))}-digit denominator)"


def result_cell(row: Row) -> str:
    """The value found, or why there is none."""
    if row.exact:
        return value_cell(row.value)
    if row.value is not None:
        return f"≈ {float(row.value):.6f} ({row.problem})"
    return row.problem


def work_cell(row: Row) -> str:
    """'27,375 nodes', or '2,304 positions (policy iteration)'."""
    if not row.work:
        return ""
    if row.method:
        return f"{row.work:,} positions ({row.method})"
    return f"{row.work:,} nodes"


def defaults_cell(path: Path) -> str:
    """The game's parameters with their defaults: 'width=7 height=6', or '—'."""
    game = plies.load(path)
    return " ".join(f"{name}={show_value(value)}" for name, value in game.params.items()) or "—"


def markdown(rows: list[Row], defaults: dict[Path, str], when: str) -> str:
    """games/README.md: how it was made, the table, and how to add a game."""
    lines = [
        "# The shipped games",
        "",
        f"Generated by `{COMMAND}` on {when} (Python {platform.python_version()}, "
        f"{platform.machine()}); do not edit by hand. Each game is solved as `plies solve` "
        "solves it, at the sizes its header lists in `# table:` lines (the defaults when it "
        "lists none): a search, or for a game whose positions repeat, every position at once. "
        "`published` is the value the literature gives, from the header's `# source:`; the "
        "header comment of each game gives its rules and the full reference.",
        "",
        "| game | parameters (defaults) | solved at | value | published | source | work "
        "| seconds |",
        "|---|---|---|---|---|---|---:|---:|",
    ]
    shown: set[Path] = set()
    for row in rows:
        first = row.entry.path not in shown
        shown.add(row.entry.path)
        game = f"`{row.entry.path.stem}`" if first else ""
        params = defaults[row.entry.path] if first else ""
        source = row.entry.source if first else ""
        published = "" if row.setting.published is None else value_cell(row.setting.published)
        seconds = f"{row.seconds:.3f}" if row.work else ""
        lines.append(f"| {game} | {params} | {row.setting.text()} | {result_cell(row)} | "
                     f"{published} | {source} | {work_cell(row)} | {seconds} |")
    lines += [
        "",
        "To add a game, put its file in `games/` with `# table:` lines in its header naming the "
        "sizes to solve (`# table: default`, or `# table: width=4 height=4 -> 0` with the "
        "published value after `->`) and a `# source:` line; then run the command above "
        "(while no other benchmark runs: the times are wall-clock).",
        "",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog=COMMAND, description=__doc__.splitlines()[0])
    parser.add_argument("--timeout", type=float, default=300,
                        help="seconds allowed for each search (default 300)")
    parser.add_argument("--slow", action="store_true",
                        help="solve the settings marked slow too (else listed as not run)")
    parser.add_argument("--game", action="append",
                        help="solve only this game (repeatable); writes only to --output")
    parser.add_argument("--output", type=Path,
                        help=f"where to write the table (default {README}, for every game)")
    args = parser.parse_args(argv)
    paths = sorted(GAMES.glob("*.game"))
    if args.game:
        paths = [p for p in paths if p.stem in args.game]
    rows, defaults = [], {}
    for entry in map(read_entry, paths):
        defaults[entry.path] = defaults_cell(entry.path)
        for setting in entry.settings:
            print(f"{entry.path.stem} {setting.text()} ...", end=" ", file=sys.stderr, flush=True)
            if setting.slow and not args.slow:
                row = Row(entry, setting, problem=f"not run: slow (`{COMMAND} --slow`)")
            else:
                row = solve_setting(entry, setting, args.timeout)
            print(result_cell(row), f"[{work_cell(row)}, {row.seconds:.2f} s]", file=sys.stderr,
                  flush=True)
            rows.append(row)
    problems = [m for m in map(mismatch, rows) if m]
    for problem in problems:
        print(f"MISMATCH: {problem}", file=sys.stderr)
    output = args.output or (None if args.game else README)
    if output is not None:
        output.write_text(markdown(rows, defaults, time.strftime("%Y-%m-%d")), encoding="utf-8")
        print(f"wrote {output}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
