"""The plies command line: one function per verb; domain errors become messages and exit codes
(``commands/reporting.py``).

Exit codes: 0 success, 1 a problem with the game (syntax, semantics, run-time failure), 2 a
usage error (unknown option, missing file, bad --param, an illegal --from move).
"""

from __future__ import annotations

import copy
import json
import math
import os
import sys
from pathlib import Path
from typing import Annotated, Literal, Optional

import typer
from typer.core import TyperGroup

try:  # Click's usage error: inside Typer from 0.28 on, the click package before
    from typer._click.exceptions import UsageError as OptionError
except ImportError:  # pragma: no cover - Typer before 0.28
    from click.exceptions import UsageError as OptionError

from plies import __version__, solvers
from plies.errors import GameFileError, PliesError, UsageError, diagnostics_json, printable
from plies.commands.explore import DEFAULT_MAX_STATES, DEFAULT_PLAYOUTS, Finding
from plies.commands.explore import explore as explore_game
from plies.commands.reporting import COMMAND_POSITION, fail, reports_errors
from plies.game.loader import (check_source, display_path, find_game, load, load_source,
                                      parse_param, read_source,
                                      validate_source)
from plies.game.model import IllegalMoveError, split_moves, value_text
from plies.solvers.perft import PERFT_MEMORY
from plies.solvers.perft import perft as count_positions
from plies.solvers.table import TABLE_BYTES, format_memory

class _Commands(TyperGroup):
    """The group of commands: under ``--json``, an option value that Click rejects before the
    command runs (``--depth -3``, an unknown ``--algorithm``) is a JSON object like every other
    error (``fail``), with the same exit code 2."""

    def invoke(self, ctx):
        given = ctx._protected_args if hasattr(ctx, "_protected_args") else ctx.protected_args
        as_json = "--json" in [*given, *ctx.args]
        try:
            return super().invoke(ctx)
        except OptionError as error:
            if not as_json:
                raise
            fail(True, error.exit_code, "usage", f"error: {error.format_message()}")


class _Plies(typer.Typer):
    """The application: when the command line names a command, only that command is built.

    Typer turns every command's signature into Click parameters before it looks at the command
    line; building them all costs about 10 ms at every start. ``plies solve ...`` needs
    only ``solve``, and shows the same usage, help and errors with a group of one. Anything
    else (``plies --help``, a misspelt command, no command) gets the whole group.
    """

    def __call__(self, *args, **kwargs):
        given = kwargs.get("args", sys.argv[1:])
        chosen = [command for command in self.registered_commands if given and given[0] == (
            command.name or typer.main.get_command_name(command.callback.__name__))]
        if not chosen:
            return super().__call__(*args, **kwargs)
        alone = copy.copy(self)
        alone.registered_commands = chosen
        return typer.Typer.__call__(alone, *args, **kwargs)


app = _Plies(
    cls=_Commands,
    help="plies: write a game as a text file, prove its value.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

ParamOption = Annotated[
    Optional[list[str]],
    typer.Option("--param", "-p", metavar="NAME=VALUE",
                 help="Set a game parameter, written as in the language: width=5, "
                      "heaps=[1,2,3], misere=true. Repeatable."),
]
GameArgument = Annotated[str, typer.Argument(metavar="GAME",
                                             help="A .game file, or the name of a shipped game.")]
BackendOption = Annotated[Literal["python", "native"], typer.Option(
    "--backend", envvar="PLIES_BACKEND",
    help="python, or native: the rules and the search compiled to C (needs cffi and a C "
         "compiler; see docs/native.md).")]


def _seconds(value: float | None) -> float | None:
    """A seconds option's value, refused when it is nan or inf: Click's range lets them by."""
    if value is not None and not math.isfinite(value):
        raise typer.BadParameter(f"{value} is not a finite number of seconds.")
    return value


def _path(value: str | None) -> Path | None:
    """A path option's value (--db, query's FILE), refused when it is empty: Path('') is the
    working directory, which a solve would fill with a solution's files."""
    if value is not None and not value.strip():
        raise typer.BadParameter("an empty path: give a file or directory name.")
    return None if value is None else Path(value)


def _host(value: str) -> str:
    """serve's --host, refused when empty: an empty host listens on every address, which only
    an address such as 0.0.0.0 should ask for."""
    if not value.strip():
        raise typer.BadParameter("an empty address: give one, as in 127.0.0.1 (this machine "
                                 "only) or 0.0.0.0 (every address).")
    return value


def _version(value: bool) -> None:
    if value:
        typer.echo(f"plies {__version__}")
        raise typer.Exit()


@app.callback()
def main(
    version: Annotated[Optional[bool], typer.Option(
        "--version", "-V", callback=_version, is_eager=True,
        help="Show the version and exit.")] = None,
) -> None:
    """plies: a game-description language and exact game solver."""


def _start(model, from_moves: str | None, timeout: float | None = None,
           option: str = "--timeout"):
    """The position after ``--from`` moves (the initial state without them), played within
    the command's ``timeout`` (its ``option``): a costly move stops there, as a search would.

    Raises:
        UsageError: a move that is not legal where it is played (exit code 2, in every command).
        MovesTooSlowError: the moves took longer than ``timeout`` (exit code 1).
    """
    from plies.game.model import MovesTooSlowError
    moves = _moves(from_moves)
    try:
        state = model.play_all(moves, timeout=timeout)
        COMMAND_POSITION.set((model, moves))  # a fault met from here: looked for again from here
        return state
    except MovesTooSlowError as error:
        raise MovesTooSlowError(f"stopped by timeout: --from: {error} ({option}); {option} S "
                                "allows more") from None
    except IllegalMoveError:
        state = model.initial_state()
        for i, text in enumerate(moves):  # played again to say after which moves, as query does
            try:
                state = model.play(state, text)
            except IllegalMoveError as error:
                before = " ".join(moves[:i]) or "(start)"
                if i > 20:  # the last few of a long line, and how many came before them
                    before = f"{i:,} moves, the last {' '.join(moves[i - 10:i])}"
                message = str(error).replace(" here;", f" after {before};", 1) \
                    .replace("cannot be played:", f"cannot be played after {before}:", 1)
                raise UsageError(f"--from: {message}") from None
        raise


def _moves(from_moves: str | None) -> list[str]:
    """The ``--from`` moves as a list of texts."""
    return split_moves(from_moves or "")


def _shown_algorithm(model, algorithm: str | None) -> str:
    """The algorithm explain and tree show: as asked, else alpha-beta or expectiminimax."""
    return algorithm or ("expectiminimax" if model.has_chance else "alphabeta")


def _params(values: list[str] | None) -> dict[str, object]:
    params = {}
    for text in values or ():
        name, value = parse_param(text)
        params[name] = value
    return params


# ---- solve --------------------------------------------------------------------------------------


@app.command()
@reports_errors
def solve(
    game: GameArgument,
    algorithm: Annotated[Literal["auto", "minimax", "alphabeta", "expectiminimax"], typer.Option(
        "--algorithm", "-a", help="auto (alpha-beta or expectiminimax with a transposition "
                                  "table), or the textbook searches without one: minimax, "
                                  "alphabeta or expectiminimax.")] = "auto",
    depth: Annotated[Optional[int], typer.Option(
        "--depth", "-d", min=0, help="Search at most N plies; positions there are valued by "
                                     "the game's evaluate (0 if it has none).")] = None,
    param: ParamOption = None,
    no_table: Annotated[bool, typer.Option(
        "--no-table", help="Search without a transposition table.")] = False,
    max_table: Annotated[Optional[int], typer.Option(
        "--max-table", min=1, help="Most entries the transposition table keeps (default: as "
                                   "many as fit in --memory).")] = None,
    memory: Annotated[Optional[str], typer.Option(
        "--memory", metavar="SIZE", help="About how much memory the transposition table may "
                                         "take, e.g. 512MB or 2GB (default "
                                         f"{format_memory(TABLE_BYTES)}); when full it forgets "
                                         "its cheapest entries.")] = None,
    max_nodes: Annotated[Optional[int], typer.Option(
        "--max-nodes", min=1, help="Stop after N nodes with the best result so far.")] = None,
    timeout: Annotated[Optional[float], typer.Option(
        "--timeout", min=0.0, callback=_seconds,
        help="Stop after S seconds with the best result so far.")] = None,
    from_moves: Annotated[Optional[str], typer.Option(
        "--from", metavar="MOVES", help="Solve the position after these moves, "
                                        "e.g. \"place(1,1) place(0,0)\".")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    strong: Annotated[bool, typer.Option(
        "--strong", help="Solve every reachable position (retrograde analysis); with --db, "
                         "store them all in an SQLite database.")] = False,
    db: Annotated[Optional[str], typer.Option(
        "--db", callback=_path, metavar="FILE|DIR",
        help="With --strong: where to store every position: an "
             "SQLite file (a name ending in .db, .sqlite or "
             ".sqlite3) or a solution directory solved tier by tier "
             "(any other name; run again to go on after a "
             "stop).")] = None,
    backend: Annotated[Optional[Literal["python", "native"]], typer.Option(
        "--backend", envvar="PLIES_BACKEND",
        help="python, or native: the rules and the search compiled to C (needs cffi and a C "
             "compiler; see docs/native.md). Default: python, except that a solve by tiers "
             "into a directory uses native wherever it can (the same bytes).")] = None,
    threads: Annotated[Optional[int], typer.Option(
        "--threads", min=1, help="With --backend native: threads searching together, "
                                 "sharing one table (default: every core).")] = None,
    workers: Annotated[Optional[int], typer.Option(
        "--workers", min=1, help="With --db DIR: processes solving each tier's chunks "
                                 "(default: every core).")] = None,
    engine: Annotated[Literal["processes", "ray"], typer.Option(
        # \\[ : Rich would read [ray] as markup and print nothing of it
        "--engine", help="With --db DIR: processes on this machine, or Ray tasks "
                         "(pip install 'plies\\[ray]').")] = "processes",
    address: Annotated[Optional[str], typer.Option(
        "--address", help="With --engine ray: the Ray cluster to join (default: start one "
                          "here).")] = None,
) -> None:
    """Solve a game: its exact value, the best move, the line of best play, the work it took.

    A parameter given as a range (--param width=4..6) solves every combination into a table.
    """
    from plies.commands.analysis import parse_params, solve_game
    if db is not None and not strong:
        raise UsageError("--db stores a strong solution: add --strong")
    if threads is not None and backend != "native":
        raise UsageError("--threads is for the native search: add --backend native")
    if strong and depth is not None:
        raise UsageError("--depth limits a search; --strong values every position to the end "
                         "of the game: give one of them")
    if strong:
        in_memory = db is None or not _is_solution_directory(db)
        _does_not_apply("--strong values every position by retrograde analysis, not by a "
                        "search", (f"--algorithm {algorithm}", algorithm != "auto"),
                        ("--no-table", no_table), ("--max-table", max_table is not None),
                        ("--threads", threads is not None),
                        ("--memory (it bounds a solve by tiers: --db DIR)",
                         memory is not None and in_memory))
    elif no_table and max_table is not None:
        raise UsageError("--max-table sizes the transposition table: --no-table has none")
    if address is not None and engine != "ray":
        raise UsageError("--address is the Ray cluster to join: add --engine ray")
    params, ranges = parse_params(param)
    moves = _moves(from_moves)
    options = dict(depth=depth, max_nodes=max_nodes, timeout=timeout, use_table=not no_table,
                   max_table=max_table, memory=_memory(memory))
    if ranges:
        _refuse_with_ranges(("--strong", strong), ("--db", db is not None),
                            ("--backend native (or PLIES_BACKEND=native)", backend == "native"),
                            ("--threads", threads is not None), ("--workers", workers is not None),
                            ("--engine ray", engine != "processes"),
                            ("--address", address is not None))
        _sweep_table(game, params, ranges, moves, algorithm, options, as_json)
        return
    model = _loaded_at(game, params, moves, timeout)
    if strong and db is not None and _is_solution_directory(db):
        _tier_solve(model, moves, db, as_json, max_nodes, timeout, memory, workers, engine,
                    address, backend or "auto")
        return
    if workers is not None or engine != "processes" or address is not None:
        raise UsageError("--workers, --engine and --address solve by tiers: add --strong "
                         "--db DIR")
    if strong:
        _strong_solve(model, moves, db, as_json, max_nodes, timeout)
        return
    progress = _progress_line() if sys.stderr.isatty() and not as_json else None
    if backend == "native":
        from plies.backends.native.backend import with_backend
        native = with_backend(model, backend, _notice, building=sys.stderr.isatty())
        if native is not model:  # else the note said why it runs in Python
            options["threads"] = threads or os.cpu_count() or 1
        model = native
    solved = solve_game(model, moves, algorithm, progress=progress, **options)
    if progress is not None:
        sys.stderr.write("\r\033[K")
    if as_json:
        typer.echo(json.dumps(_result_json(model, solved, moves, depth), indent=2))
    else:
        typer.echo(_result_text(model, solved, moves, depth, algorithm, not no_table))


def _notice(text: str) -> None:
    """A one-line note on stderr (the native back end saying what runs in Python)."""
    typer.echo(text, err=True)


def _memory(text: str | None) -> int | None:
    """``--memory`` in bytes (None when not given)."""
    if text is None:
        return None
    from plies.solvers.table import parse_memory
    try:
        return parse_memory(text)
    except ValueError as error:
        raise UsageError(str(error)) from None


def _progress_line():
    def show(progress) -> None:
        depth = f"  depth {progress.depth}" if getattr(progress, "depth", None) else ""
        sys.stderr.write(f"\r\033[Ksearching: {progress.nodes:,} nodes  "
                         f"{progress.nodes_per_second:,.0f} nodes/s{depth}")
        sys.stderr.flush()
    return show


def _result_json(model, solved, moves, depth: int | None = None) -> dict:
    result = solved.result
    value = result.value
    stats = {
        "nodes": result.nodes, "leaves": result.leaves, "cutoffs": result.cutoffs,
        "table_hits": result.table_hits, "table_size": result.table_size,
        "immediate": getattr(result, "immediate", 0),
        "seconds": round(result.seconds, 6), "stopped": result.stopped,
        "nodes_per_second": round(result.nodes / result.seconds) if result.seconds else None,
    }
    line, repeated = _best_play(model, result, moves)
    return {
        "game": model.name,
        "params": {k: _json_value(v) for k, v in model.params.items()},
        "from": moves,
        "algorithm": result.algorithm,
        "value": None if value is None else (value if isinstance(value, int) else float(value)),
        "value_exact": None if value is None or solved.error_bound else value_text(value),
        "error_bound": solved.error_bound,
        "meaning": model.meaning(value) if solved.error_bound else
        _meaning(model, solved, moves, depth),
        "bound": _bound_kind(model, solved, moves, depth),
        "best_move": None if result.best_move is None else str(result.best_move),
        "principal_variation": line,
        "principal_variation_repeats": repeated is not None,
        "remoteness": solved.remoteness,
        "outlook": solved.outlook or None,
        "moves_searched": None if result.root_moves is None else list(result.root_moves),
        "proved": result.proved,
        "depth": result.depth,
        "nodes": result.nodes,
        "threads": result.threads,
        "left_out": getattr(result, "left_out", 0),
        "seconds": round(result.seconds, 6),
        "stats": stats,
    }


def _best_play(model, result, moves) -> tuple[list[str], int | None]:
    """The line of best play up to the first position that repeats an earlier one on it.

    A search stopped by a limit on a game with cycles can return a line that goes round the
    cycle hundreds of times. Returns the moves (text) and, when the line was cut, how many of
    them lead to the position it returned to (0: the start), else None.
    """
    state = model.play_all(moves)
    seen = {state: 0}
    line = []
    for move in result.principal_variation:
        state = model.result(state, move)
        line.append(str(move))
        if state in seen:
            return line, seen[state]
        seen[state] = len(line)
    return line, None


def _meaning(model, solved, moves, depth: int | None) -> str:
    result = solved.result
    if result.proved:
        return model.meaning(result.value)
    bound = _bound_kind(model, solved, moves, depth)
    if bound is None:
        return "an estimate: the search did not reach the end of the game everywhere"
    side = model.player_name(solvers.MAX if bound == "lower" else solvers.MIN)
    return (f"{'at least' if bound == 'lower' else 'at most'} this for {side}: "
            f"{result.best_move} was the best of the moves searched before the search stopped; "
            "the others were not all searched")


def _bound_kind(model, solved, moves, depth: int | None) -> str | None:
    """"lower" or "upper" when a stopped search's value bounds the true value, else None.

    A search without a depth limit that a limit or Ctrl-C stopped keeps the best of the root's
    fully searched moves (``SearchResult``): its exact value, so the mover gets at least that.
    """
    result = solved.result
    if result.proved or not result.stopped or depth is not None or solved.strong \
            or result.best_move is None:
        return None
    return "lower" if model.to_move(model.play_all(moves)) == solvers.MAX else "upper"


def _unknown(model, solved, depth: int | None) -> str:
    """What is known of a value the search stopped before finding."""
    if not solved.result.stopped or depth is not None or solved.strong:
        return "unknown (the search stopped before it could tell)"
    bounds = model.utility_bounds
    within = "" if bounds is None else \
        f"; it lies in {value_text(bounds[0])}..{value_text(bounds[1])}, the game's bounds"
    return f"unknown (the search stopped before any move from here was fully searched{within})"


def _json_value(value):
    from plies.commands.analysis import json_param
    return json_param(value)


_STOPPED_BY = {"interrupted": "Ctrl-C"}
"""How the text result names a reason a search stopped (JSON keeps the reason's name)."""


_WRITTEN = {"alphabeta": "alpha-beta", "minimax": "minimax", "expectiminimax": "expectiminimax"}


def _algorithm_run(model, solved, asked: str, use_table: bool) -> str:
    """What ran, in words: ``auto: alpha-beta with a table``, ``alpha-beta, no table (auto
    keeps one)``. Only auto keeps a transposition table; it is what makes the difference on a
    game whose positions come back by other move orders (hexapawn 5x5: 1.6 s against 300 s)."""
    ran = solved.result.algorithm
    if solved.strong:
        return f"auto: {ran}" if asked == "auto" else ran
    name = _WRITTEN.get(ran, ran)
    table = asked == "auto" and use_table
    if ran == "expectiminimax" and not table and getattr(model, "utility_bounds", None) is not None:
        name += " with Star1 pruning"  # of chance nodes; with a table exact values pay more
    if asked == "auto":
        table = "with a table" if use_table else "without a table (--no-table)"
        return f"auto: {name} {table}"
    return f"{name}, no table" + (" (auto keeps one)" if ran == "alphabeta" else "")


def _symmetry_lines(model, result, moves, asked: str) -> list[str]:
    """SYMMETRY (solvers/symmetry.py): a search that leaves moves out on purpose says so."""
    from plies.solvers.symmetry import SYMMETRY_PLIES
    left_out = getattr(result, "left_out", 0)
    facts = getattr(model, "facts", None)
    if not getattr(model, "symmetries", ()) or facts is None or (asked != "auto" and not left_out):
        return []
    here = ""
    if left_out:
        total = len(model.actions(model.play_all(moves)))
        here = f" ({left_out} of the {total} moves here)"
    return [f"symmetry   {', '.join(facts.symmetry_names)}: a move whose position is an image of "
            f"an earlier move's is not searched, in the positions up to {SYMMETRY_PLIES - 1} "
            f"moves on that are their own images{here}"]


def _result_text(model, solved, moves, depth: int | None = None, asked: str = "auto",
                 use_table: bool = True) -> str:
    from plies.commands.analysis import remoteness_line, shown_value, strong_status
    result = solved.result
    value = result.value
    if value is None:
        shown = _unknown(model, solved, depth)
    elif solved.error_bound:  # value iteration: a float within a proven bound
        shown = f"{shown_value(value, False, solved.error_bound)}  ({model.meaning(value)})"
    else:
        exact = value_text(value)
        shown = exact if "/" not in exact else f"{exact} ≈ {float(value):.4f}"
        shown += f"  ({_meaning(model, solved, moves, depth)})"
    params = ", ".join(f"{k}={_show_param(v)}" for k, v in model.params.items())
    lines = [f"game       {model.name}" + (f" ({params})" if params else "")]
    if moves:
        lines.append(f"from       {' '.join(moves)}")
    lines.append(f"value      {shown}")
    lines.append(f"remoteness {remoteness_line(model, solved)}")
    if result.best_move is not None:
        lines.append(f"best move  {result.best_move}")
    line, repeated = _best_play(model, result, moves)
    if line:
        back = "the starting position" if repeated == 0 else \
            f"the position after {' '.join(line[:repeated])}"
        again = f"  (back to {back}: play would repeat from here)" if repeated is not None else ""
        lines.append(f"best play  {' '.join(line)}{again}")
    if solved.strong:
        status = strong_status(solved)
    elif result.proved:
        status = "proved (searched to the end of the game everywhere)"
    elif result.stopped:
        status = f"not proved: stopped by {_STOPPED_BY.get(result.stopped, result.stopped)}"
        if result.depth:
            status += f" (best result of the search to depth {result.depth})"
        elif result.root_moves is not None:
            searched, moves = result.root_moves
            status += f" with {searched} of {moves} moves from here fully searched"
    else:
        status = f"not proved: depth-limited to {result.depth} {'ply' if result.depth == 1 else 'plies'}"
    lines.append(f"status     {status}")
    threads = getattr(result, "threads", 1)
    lines.append(f"algorithm  {_algorithm_run(model, solved, asked, use_table)}"
                 + (f", {threads} threads (their nodes: other counts than one thread's)"
                    if threads > 1 else ""))
    lines.extend(_symmetry_lines(model, result, moves, asked))
    lines.append("")
    rate = f"  ({result.nodes / result.seconds:,.0f} nodes/s)" if result.seconds > 0 else ""
    rows = [("nodes", f"{result.nodes:,}"), ("leaves", f"{result.leaves:,}"),
            ("cutoffs", f"{result.cutoffs:,}")]
    if solved.strong:
        rate = rate.replace("nodes/s", "positions/s")
        rows = [("positions", f"{result.nodes:,}"), ("terminal", f"{result.leaves:,}")]
    immediate = getattr(result, "immediate", 0)
    if immediate and not solved.strong:  # IMMEDIATE WINS: valued by a look, not leaves
        rows.append(("at once", f"{immediate:,} positions whose player to move ends the game "
                                "at once at their best (not leaves)"))
    if result.table_size or result.table_hits:
        rows.append(("table", f"{result.table_hits:,} hits, {result.table_size:,} entries"))
    rows.append(("time", f"{result.seconds:.3f} s{rate}"))
    width = 9 if solved.strong else 8
    lines.extend(f"  {name:<{width}} {text}" for name, text in rows)
    return "\n".join(lines)


@app.command()
@reports_errors
def analyze(
    game: GameArgument,
    from_moves: Annotated[Optional[str], typer.Option(
        "--from", metavar="MOVES", help="Analyse the position after these moves.")] = None,
    param: ParamOption = None,
    max_positions: Annotated[int, typer.Option(
        "--max-positions", min=1, help="Solve every reachable position up to this many; past "
                                       "it, each move is searched on its own, without "
                                       "remoteness.")] = 5_000_000,
    timeout: Annotated[Optional[float], typer.Option(
        "--timeout", min=0.0, callback=_seconds,
        help="Stop after S seconds with an error (no value is known "
                                   "before the end); with a range, each combination's "
                                   "search stops there, as solve's does.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    db: Annotated[Optional[str], typer.Option(
        "--db", callback=_path, metavar="FILE|DIR",
        help="Read the values from a strong solution written by "
             "plies solve --strong --db instead of solving.")] = None,
) -> None:
    """Every legal move with its exact value and remoteness, best first, and a verdict.

    A parameter given as a range (--param width=4..6) solves every combination into a table.
    """
    from plies.commands.analysis import analysis_text, analyze as analyze_position, parse_params
    params, ranges = parse_params(param)
    moves = _moves(from_moves)
    if ranges:
        _refuse_with_ranges(("--db", db is not None))
        _sweep_table(game, params, ranges, moves, "auto", {"timeout": timeout}, as_json)
        return
    model = _loaded_at(game, params, moves, timeout)
    if db is not None:
        from plies.commands.solution import stored_solution
        stored = stored_solution(db)
        stored.check_fits(model)
        analysis = _stored_analysis(stored, _stored_moves(stored, from_moves))
    else:
        analysis = analyze_position(model, moves, max_positions=max_positions, timeout=timeout)
    typer.echo(json.dumps(analysis.to_json(), indent=2) if as_json else analysis_text(analysis))


@app.command()
@reports_errors
def query(
    file: Annotated[str, typer.Argument(metavar="FILE|DIR", callback=_path,
                                        help="A database or solution directory written by "
                                             "plies solve --strong --db.")],
    from_moves: Annotated[Optional[str], typer.Option(
        "--from", metavar="MOVES", help="The position after these moves (default: where the "
                                        "solution starts).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    export: Annotated[Optional[str], typer.Option(
        "--export", metavar="FORMAT", help="Write every position (the strategy) as csv or "
                                           "jsonl instead.")] = None,
    output: Annotated[Optional[Path], typer.Option(
        "--output", "-o", help="With --export: write to FILE instead of standard output.")] = None,
) -> None:
    """Read a strong solution: a position's moves with values and remoteness, as analyze does."""
    from plies.commands.analysis import analysis_text
    from plies.commands.solution import stored_solution
    if export is not None and export not in ("csv", "jsonl"):
        raise UsageError(f"--export takes csv or jsonl; got '{export}'")
    if export is None and output is not None:
        raise UsageError("--output writes what --export makes: add --export csv or jsonl")
    if export is not None and as_json:
        raise UsageError("--json prints one position's analysis; --export writes every "
                         "position as csv or jsonl: give one of them")
    stored = stored_solution(file)
    if export is not None:
        if output is None:
            stored.export(sys.stdout, export)
            return
        try:
            with open(output, "w", encoding="utf-8", newline="") as out:
                count = stored.export(out, export)
        except OSError as error:
            raise UsageError(f"cannot write {output}: {error.strerror or error}") from None
        typer.echo(f"wrote {output}: {count:,} positions")
        return
    analysis = _stored_analysis(stored, _stored_moves(stored, from_moves))
    # the database's texts are shown with any control characters escaped (plies writes none)
    typer.echo(json.dumps(analysis.to_json(), indent=2) if as_json
               else printable(analysis_text(analysis), keep="\n"))


def _stored_moves(stored, from_moves: str | None) -> list[str]:
    """The moves of --from, or without it the position the stored solution starts from (the
    game's start, or the --from of the solve that wrote it)."""
    return stored.start_moves if from_moves is None else _moves(from_moves)


def _stored_analysis(stored, moves: list[str]):
    """A stored solution's analysis of the position after ``moves``, given by --from."""
    from plies.commands.analysis import UnansweredMovesError
    try:
        return stored.analysis(moves)
    except UnansweredMovesError as error:
        raise UsageError(f"--from: {error}") from None


def _does_not_apply(what: str, *options: tuple[str, bool], then: str = "") -> None:
    """Refuse the options given (``(name, given)``) that ``what`` would leave unused, rather
    than ignore them: ``what: --x, --y do not apply{then}``."""
    given = [name for name, present in options if present]
    if given:
        raise UsageError(f"{what}: {', '.join(given)} {'does' if len(given) == 1 else 'do'} "
                         f"not apply{then}")


def _refuse_with_ranges(*options: tuple[str, bool]) -> None:
    """Refuse the options given that a parameter range would leave unused: a sweep solves
    each combination by search, in Python, into a table."""
    _does_not_apply("a parameter range (--param NAME=A..B) solves each combination by search "
                    "into a table", *options, then=" there; give each parameter one value")


def _loaded_at(game, params, moves, timeout: float | None = None):
    """The game, after checking that the --from moves can be played (within ``timeout``)."""
    model = load(game, **params)
    _start(model, " ".join(moves), timeout)
    return model


def _sweep_table(game, params, ranges, moves, algorithm, options, as_json) -> None:
    """Solve every combination of the parameter ranges; print a table (or JSON)."""
    from plies.commands.analysis import sweep, sweep_table
    show = sys.stderr.isatty() and not as_json

    def progress(done, total, values) -> None:
        if show:
            shown = ", ".join(f"{k}={v}" for k, v in values.items())
            sys.stderr.write(f"\r\033[Ksolving {done + 1} of {total}: {shown}")
            sys.stderr.flush()

    rows = list(sweep(game, params, ranges, played=moves, algorithm=algorithm,
                      progress=progress, **options))
    if show:
        sys.stderr.write("\r\033[K")
    if as_json:
        typer.echo(json.dumps({"game": game, "ranges": ranges, "rows": [r.to_json() for r in rows]},
                              indent=2))
    else:
        typer.echo(sweep_table(rows, list(ranges)))


def _strong_solve(model, moves, db, as_json, max_positions=None, timeout=None) -> None:
    """Solve every position reachable from the start (or --from); store them with --db.

    ``--max-nodes`` caps the positions; ``--timeout`` the time (a SolveStoppedError).
    """
    from plies.commands import database
    from plies.commands.analysis import game_errors, strong_summary, strong_text
    from plies.solvers.graph import TooManyPositionsError
    from plies.solvers.strong import strong_solve
    show = sys.stderr.isatty() and not as_json

    def progress(found: int) -> None:
        if show:
            sys.stderr.write(f"\r\033[Kexploring: {found:,} positions")
            sys.stderr.flush()

    if db is not None:
        database.check_writable(db)
        database.check_replaceable(db, model, moves)
    try:
        with game_errors(model, moves):
            solution = strong_solve(model, model.play_all(moves), max_positions=max_positions,
                                    progress=progress, timeout=timeout)
    except TooManyPositionsError as error:
        raise solvers.SolverError(f"{error}; --max-nodes N allows more") from None
    if show:
        sys.stderr.write("\r\033[K")
    written = database.write(db, model, solution, moves) if db is not None else None
    summary = strong_summary(model, moves, solution, written)
    typer.echo(json.dumps(summary, indent=2) if as_json else strong_text(summary))


def _is_solution_directory(path) -> bool:
    from plies.commands.solution import is_directory
    return is_directory(path)


def _tier_solve(model, moves, db, as_json, max_positions, timeout, memory, workers, engine,
                address, backend="python") -> None:
    """``solve --strong --db DIR``: solve tier by tier into a solution directory."""
    from plies.commands.analysis import game_errors
    from plies.commands.solution import run_solve, summary_text
    from plies.solvers.graph import TooManyPositionsError
    try:
        with game_errors(model, []):  # a failing rule's line of moves is from the start
            summary = run_solve(model, moves, db, workers=workers, engine=engine,
                                address=address, timeout=timeout, memory=_memory(memory),
                                max_positions=max_positions, backend=backend, notice=_notice,
                                show_progress=sys.stderr.isatty() and not as_json)
    except TooManyPositionsError as error:
        raise solvers.SolverError(f"{error}; --max-nodes N allows more") from None
    typer.echo(json.dumps(summary, indent=2) if as_json else summary_text(summary))


def _efg(model, start, depth, max_nodes, timeout, output, before: list[str]) -> None:
    """``tree --format efg``: the whole game tree for Gambit, to standard output or a file."""
    from plies.commands.efg import efg_tree
    if depth is not None:
        raise UsageError("--format efg writes the whole game tree: --depth does not apply")
    try:
        text = efg_tree(model, start, max_nodes=max_nodes, timeout=timeout)
    except PliesError:
        raise
    except MemoryError:
        raise  # not a rule failing: said as such
    except Exception as error:  # noqa: BLE001 - a rule of the game failed: say where
        raise _perft_fault(model, error, start, max_nodes, before) from None
    if output is None:
        typer.echo(text, nl=False)
        return
    _write(output, text.encode())
    typer.echo(f"wrote {output}")


def _show_param(value) -> str:
    from plies.frontend.values import show_value
    return show_value(value)


# ---- validate and compile -----------------------------------------------------------------------


@app.command()
@reports_errors
def validate(
    files: Annotated[list[str], typer.Argument(metavar="FILE...",
                                               help="Game files (or shipped games' names).")],
    param: ParamOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the diagnostics as JSON.")] = False,
    explore: Annotated[bool, typer.Option(
        "--explore", help="Also run the rules: walk the reachable positions, then play random "
                          "games, and report rules that fail in play.")] = False,
    max_states: Annotated[int, typer.Option(
        "--max-states", min=1,
        help="With --explore: the most distinct positions to walk.")] = DEFAULT_MAX_STATES,
    playouts: Annotated[int, typer.Option(
        "--playouts", min=0, help="With --explore: random games to play when the walk did not "
                                  "reach every position.")] = DEFAULT_PLAYOUTS,
    seed: Annotated[int, typer.Option(
        "--seed", help="With --explore: seed of the random games.")] = 0,
    timeout: Annotated[Optional[float], typer.Option(
        "--timeout", min=0.0, callback=_seconds,
        help="With --explore: stop exploring each file after S seconds and report what was "
             "found (not exhaustive).")] = None,
) -> None:
    """Check game files: every error and warning, each with its place in the file."""
    if not explore:
        _does_not_apply("without --explore, validate only checks the files",
                        ("--max-states", max_states != DEFAULT_MAX_STATES),
                        ("--playouts", playouts != DEFAULT_PLAYOUTS), ("--seed", seed != 0),
                        ("--timeout", timeout is not None), then=": add --explore")
    params = _params(param)
    paths = []
    for name in files:
        try:
            paths.append(find_game(name))
        except UsageError as error:
            raise UsageError(str(error)) from None
    everything, explorations = [], []
    failed = False
    for path in paths:
        shown = display_path(path)
        try:
            source = read_source(path)
            diagnostics = validate_source(source, shown, params)
        except GameFileError as error:
            source, diagnostics = None, error.diagnostics
        findings = [Finding(d, None) for d in diagnostics]
        exploration = None
        if explore and source is not None and not any(d.severity == "error" for d in diagnostics):
            exploration = explore_game(load_source(source, shown, **params), max_states=max_states,
                                       playouts=playouts, seed=seed, timeout=timeout)
            findings.extend(exploration.findings)
            explorations.append({"file": shown} | exploration.to_json())
        everything.extend(findings)
        errors = sum(f.diagnostic.severity == "error" for f in findings)
        warnings = len(findings) - errors
        failed = failed or errors > 0
        if not as_json:
            for finding in findings:
                typer.echo(finding.render(source), err=finding.diagnostic.severity == "error")
            summary = "ok" if not findings else \
                f"{errors} error{'s' * (errors != 1)}, {warnings} warning{'s' * (warnings != 1)}"
            typer.echo(f"{shown}: {summary}")
            if exploration is not None:
                typer.echo(f"  {exploration.summary()}")
    if as_json and explore:
        typer.echo(json.dumps({"diagnostics": [f.to_json() for f in everything],
                               "explored": explorations}, indent=2))
    elif as_json:
        typer.echo(diagnostics_json([f.diagnostic for f in everything]))
    if failed:
        raise typer.Exit(code=1)


@app.command()
@reports_errors
def fmt(
    files: Annotated[list[Path], typer.Argument(metavar="FILE...", help="Game files.")],
    check: Annotated[bool, typer.Option(
        "--check", help="Change nothing: list the files that would change, and exit 1 if "
                        "any would.")] = False,
) -> None:
    """Lay out game files in the canonical style, in place; comments and meaning are kept."""
    from plies.commands.formatter import format_file
    from plies.frontend.vocabulary import plural
    for path in files:
        if path.exists() and not path.is_file():  # a folder, a pipe: as find_game says it
            raise UsageError(f"'{path}' is not a file")
        if not path.is_file():
            raise UsageError(f"no game file '{path}'")
    changed = failed = 0
    for path in files:
        shown = display_path(path)
        try:
            if format_file(path, shown, write=not check):
                changed += 1
                typer.echo(f"{'would reformat' if check else 'reformatted'} {shown}")
        except GameFileError as error:
            typer.echo(error.render(), err=True)
            failed += 1
    same = len(files) - changed - failed
    if check:
        typer.echo(f"{plural(changed, 'file')} would be reformatted, {same} already formatted")
    else:
        typer.echo(f"{plural(changed, 'file')} reformatted, {same} unchanged")
    if failed or check and changed:
        raise typer.Exit(code=1)


@app.command(name="test")
@reports_errors
def run_tests(
    files: Annotated[list[str], typer.Argument(
        metavar="GAME...", help="Game files (or shipped games' names).")],
    verbose: Annotated[bool, typer.Option(
        "--verbose", "-v", help="A line per test instead of a mark.")] = False,
    max_nodes: Annotated[int, typer.Option(
        "--max-nodes", min=1, help="Most positions a perft count, or nodes a value search, "
                                   "may take in one check.")] = 10_000_000,
    timeout: Annotated[Optional[float], typer.Option(
        "--timeout", min=0.0, callback=_seconds,
        help="Stop after S seconds in all: the check running then, and "
                                   "the tests not yet run, are errors.")] = None,
) -> None:
    """Run the `test` blocks of game files: moves, terminal, utility, perft, value."""
    from plies.commands.testing import run_files
    paths = [find_game(name) for name in files]
    if not run_files(paths, typer.echo, verbose=verbose, max_nodes=max_nodes, timeout=timeout):
        raise typer.Exit(code=1)


@app.command(name="compile")
@reports_errors
def compile_game(game: GameArgument, param: ParamOption = None,
                 backend: BackendOption = "python") -> None:
    """Print the Python (or, with --backend native, the C) that plies generates for a game."""
    path = find_game(game)
    source = read_source(path)
    checked = check_source(source, display_path(path), _params(param))
    if backend == "native":
        from plies.backends.native.engine import native_source
        typer.echo(native_source(checked), nl=False)
        return
    from plies.backends.python.compiler import generate
    typer.echo(generate(checked).source, nl=False)



# ---- perft and info ---------------------------------------------------------------------------


@app.command()
@reports_errors
def perft(
    game: GameArgument,
    depth: Annotated[int, typer.Option("--depth", "-d", min=0, help="Count up to N plies.")],
    param: ParamOption = None,
    distinct: Annotated[bool, typer.Option(
        "--distinct", help="Also count distinct positions (needs memory for each).")] = False,
    memory: Annotated[Optional[str], typer.Option(
        "--memory", metavar="SIZE", help="About how much memory the positions kept may take, "
                                         "e.g. 512MB or 2GB (default "
                                         f"{format_memory(PERFT_MEMORY)}); past it the count "
                                         "stops with exit code 1.")] = None,
    from_moves: Annotated[Optional[str], typer.Option(
        "--from", metavar="MOVES", help="Count from the position after these moves.")] = None,
    max_nodes: Annotated[Optional[int], typer.Option(
        "--max-nodes", min=1, help="Stop after making the moves of N positions; the depths "
                                   "counted in full are shown.")] = None,
    timeout: Annotated[Optional[float], typer.Option(
        "--timeout", min=0.0, callback=_seconds,
        help="Stop after S seconds; the depths counted in full are "
                                   "shown.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    backend: BackendOption = "python",
) -> None:
    """Count the positions at each depth from the start, to check the rules."""
    budget = _memory(memory) or PERFT_MEMORY
    model = load(game, **_params(param))
    start = _start(model, from_moves, timeout)
    result = None
    limited = max_nodes is not None or timeout is not None
    native_failed = False
    if backend == "native" and (distinct or limited):  # the C count keeps no set, reads no clock
        why = "--distinct" if distinct else "--timeout" if timeout is not None else "--max-nodes"
        _notice(f"native: {why} is counted by the Python back end; running in Python")
    elif backend == "native":
        from plies.backends.native.backend import native_perft
        from plies.backends.native.engine import NativeFault
        try:
            result = native_perft(model, depth, start, _notice, building=sys.stderr.isatty())
        except NativeFault:
            native_failed = True
    try:
        if result is None:
            result = count_positions(model, depth, state=start, distinct=distinct,
                                     max_nodes=max_nodes, timeout=timeout, memory=budget)
    except MemoryError:
        raise  # not a rule failing: said as such
    except Exception as error:  # noqa: BLE001 - a rule of the game failed: say where
        raise _perft_fault(model, error, start, depth, _moves(from_moves)) from None
    if native_failed:
        from plies.backends.native.backend import PERFT_NEEDS_NO_UTILITY
        _notice(PERFT_NEEDS_NO_UTILITY)
    stopped = getattr(result, "stopped", None)
    if as_json:
        typer.echo(json.dumps({"game": model.name, "counts": result.counts,
                               "terminal": result.terminal, "distinct": result.distinct,
                               "distinct_total": result.distinct_total,
                               "stopped": stopped, "ended": result.ended}, indent=2))
        if stopped == "memory":
            raise typer.Exit(1)
        return
    header = f"{'depth':>5}  {'positions':>12}  {'terminal':>10}"
    if distinct:
        header += f"  {'distinct':>10}"
    typer.echo(header)
    for d, count in enumerate(result.counts):
        row = f"{d:>5}  {count:>12,}  {result.terminal[d]:>10,}"
        if distinct:
            row += f"  {result.distinct[d]:>10,}"
        typer.echo(row)
    if result.ended is not None:
        typer.echo(f"the count stops at depth {result.ended} (--depth {depth:,}): every line "
                   "of play has ended before it, so no deeper depth has positions")
    if stopped is not None:
        more = {"max-nodes": "; --max-nodes N allows more",
                "timeout": "; --timeout S allows more",
                "memory": "; --memory SIZE allows more"}.get(stopped, "")
        above = ": the depths above are counted in full" if result.counts else ""
        why = _STOPPED_BY.get(stopped, stopped)
        if stopped == "memory":  # not a limit asked for: the count asked for is not done
            shown = memory or format_memory(PERFT_MEMORY)
            why = f"memory (its positions would take more than {shown})"
        typer.echo(f"stopped by {why} while counting depth {len(result.counts)}{above}{more}")
        if stopped == "memory":
            raise typer.Exit(1)
    elif distinct:
        typer.echo(f"distinct positions over all depths: {result.distinct_total:,}")


def _perft_fault(model, error: Exception, start, depth: int, before: list[str]) -> Exception:
    """A count's (or a walk's over the whole tree) failure at its game-file line, with the
    moves from the start to it."""
    from plies.solvers.trace import first_failure
    found = first_failure(model, start, depth)
    if found is not None:
        error, path = found
        before = before + path.move_texts()
    return model.runtime_error(error, before) or error


_FEATURES = {  # by the name of the node class (ast.py) that shows the feature
    "Tree": "an explicit game tree", "GridType": "grids", "ArrayType": "arrays",
    "PlayerArrayType": "arrays indexed by player", "RangeType": "integer ranges",
    "SymbolType": "symbols", "HelperDef": "definitions (def)", "ConstDef": "constants",
    "Aggregate": "aggregates (any/all/sum/count/min/max)", "LetExpr": "let",
    "LetStmt": "let", "IfStmt": "if statements", "ForStmt": "for loops",
    "Again": "extra moves (again)", "ListedChance": "chance events",
    "UniformChance": "uniform chance events", "Evaluate": "a heuristic (evaluate)",
    "Tier": "a declared tier (tier)", "Prefer": "a move order (prefer)",
    "Symmetry": "symmetries (symmetry)",
    "Render": "custom rendering", "Bounds": "declared utility bounds",
    "WhileStmt": "while loops", "BreakStmt": "break", "ContinueStmt": "continue",
    "Setup": "a set-up position (setup)", "Endless": "a value for endless play (endless)",
}


@app.command()
@reports_errors
def info(game: GameArgument, param: ParamOption = None,
         as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False) -> None:
    """Describe a game: players, parameters, moves, chance events, bounds, features used."""
    from plies.frontend import ast
    model = load(game, **_params(param))
    checked = model.checked
    program = checked.program
    defaults = {p.name: p for p in program.header.params or ()}
    moves = [_signature(m.decl.name, m.decl.binders) for m in checked.moves]
    events = []
    for name, event in checked.chances.items():
        decl = event.decl
        if isinstance(decl, ast.ListedChance):
            outcomes = ", ".join(f"{o} {_show_param(p)}"
                                 for o, p in zip(event.names, event.probabilities))
            events.append(f"{name}: {outcomes}")
        else:
            events.append(f"{_signature(name, decl.binders)}: uniform")
    nodes = list(ast.walk(program))
    features = sorted({_FEATURES[type(n).__name__] for n in nodes
                       if type(n).__name__ in _FEATURES})
    calls = {n.function for n in nodes if isinstance(n, ast.Call)}
    for function, feature in (("line", "k in a row (line)"), ("threats", "threats"),
                              ("connects", "connectivity (connects)"),
                              ("liberties", "liberties"), ("group", "groups (group)")):
        if function in calls:
            features.append(feature)
    bounds = model.utility_bounds
    declared = any(isinstance(i, ast.Bounds) for i in program.items)
    data = {
        "game": model.name, "file": model.filename,
        "players": [{"name": n, "role": r} for n, r in checked.players],
        "first": checked.players[0][0],
        "params": {n: {"value": _json_value(v), "default": _show_param(_default(defaults[n]))}
                   for n, v in model.params.items()},
        "moves": moves, "chance_events": events, "has_chance": model.has_chance,
        "utility_bounds": None if bounds is None else [_show_param(b) for b in bounds],
        "bounds_declared": declared, "has_evaluation": model.has_evaluation,
        "tree_nodes": len(checked.tree) if checked.tree is not None else None,
        "features": features,
    }
    if as_json:
        typer.echo(json.dumps(data, indent=2))
        return
    lines = [f"game        {model.name}  ({model.filename})"]
    lines.append("players     " + ", ".join(f"{n} ({r.upper()})" for n, r in checked.players)
                 + f"; {model.first_player()} moves first")
    if model.params:
        lines.append("parameters  " + ", ".join(
            f"{n} = {_show_param(v)} (default {data['params'][n]['default']})"
            for n, v in model.params.items()))
    if checked.tree is not None:
        lines.append(f"tree        {len(checked.tree)} nodes")
    if moves:
        lines.append("moves       " + ", ".join(moves))
    if events:
        lines.append("chance      " + "; ".join(events))
    lines.append(f"has chance  {'yes' if model.has_chance else 'no'}")
    if bounds is None:
        lines.append("bounds      none (Star1 pruning needs them: add `bounds lo..hi`)")
    else:
        how = "declared" if declared else "inferred by the checker"
        lines.append(f"bounds      {_show_param(bounds[0])}..{_show_param(bounds[1])} ({how})")
    neutral = None if model.has_evaluation else _show_param(model.evaluate(_start(model, None)))
    lines.append("heuristic   " + ("yes" if neutral is None else
                                   f"no (depth-limited search values cut positions at {neutral})"))
    lines.append("features    " + (", ".join(features) if features else "none"))
    typer.echo("\n".join(lines))


def _signature(name: str, binders) -> str:
    if binders is None:
        return name
    return f"{name}({', '.join(b.name for b in binders.items)})"


def _default(param):
    from plies.game.loader import _constant
    value = _constant(param.default)
    return value if value is not None else "?"


# ---- play ----------------------------------------------------------------------------------------


@app.command()
@reports_errors
def play(
    game: GameArgument,
    side: Annotated[str, typer.Option(
        "--as", metavar="MAX|MIN|both|none|PLAYER",
        help="Which side you play: MAX, MIN, a player's name (as in `--as O`), both, or none "
             "(watch the solver).")] = "MAX",
    depth: Annotated[Optional[int], typer.Option(
        "--depth", "-d", min=0, help="Let the solver search only N plies.")] = None,
    seed: Annotated[Optional[int], typer.Option(
        "--seed", help="Seed for rolling chance events (the same seed, the same rolls).")] = None,
    chance: Annotated[Literal["auto", "manual"], typer.Option(
        "--chance", help="auto: roll chance events; manual: you type each outcome.")] = "auto",
    think: Annotated[float, typer.Option(
        "--think", min=0.01, callback=_seconds,
        help="Seconds the solver may take per decision; past that it "
                                  "plays and judges by its best estimate.")] = 2.0,
    param: ParamOption = None,
    db: Annotated[Optional[str], typer.Option(
        "--db", callback=_path, metavar="FILE",
        help="Play perfectly and at once from a database written by "
             "plies solve --strong.")] = None,
    from_moves: Annotated[Optional[str], typer.Option(
        "--from", metavar="MOVES", help="Start from the position after these moves (with --db, "
                                        "default: where the database starts).")] = None,
) -> None:
    """Play a game against the solver. Moves come from the keyboard or a pipe.

    Small games are solved whole first, so the solver picks moves by value, then remoteness.
    """
    from plies.commands.play import PlaySession, timed_oracle
    model = load(game, **_params(param))
    side = _side(model, side)
    if db is not None and from_moves is None:  # a solution of a later position starts there
        from plies.commands.solution import stored_solution
        stored = stored_solution(db)
        try:
            stored.check_fits(model)  # another game's database: said so, not its moves refused
            from_moves = " ".join(stored.start_moves)
        finally:
            stored.close()
    moves = _moves(from_moves)
    # a rule of `setup` or of a --from move failing: reported at its line, before the game;
    # one failing in the strong solve is reported as solve reports it
    start = _start(model, from_moves, think, "--think")
    # None when the game is too big or its rules too slow: play then judges by searching
    oracle = timed_oracle(model, None if db is None else str(db), depth, think, start, moves)
    COMMAND_POSITION.set(None)  # a rule failing later: reported with the moves of the game
    session = PlaySession(model, human=side, depth=depth, seed=seed, think=think,
                          manual_chance=chance == "manual", write=typer.echo, oracle=oracle,
                          start_moves=moves)
    if sys.stdin is None:  # standard input is closed (`<&-`): no answer will come
        lines = iter(())
    else:
        lines = None if sys.stdin.isatty() else iter(sys.stdin)
    raise typer.Exit(code=session.run(lines))


def _side(model, side: str) -> str:
    """The side ``--as`` names: MAX, MIN, both or none, or the role of the player named."""
    from plies.commands.play import SIDES
    if side in SIDES:
        return side
    roles = {name: role.upper() for name, role in model.checked.players}
    if side in roles:
        return roles[side]
    if side in ("max", "min"):  # the roles as a game file writes them
        return side.upper()
    names = ", ".join(roles)
    raise UsageError(f"--as takes MAX, MIN, both, none or a player's name ({names}); "
                     f"got '{side}'")


# ---- explain and tree ----------------------------------------------------------------------------

_STYLES = {"max": typer.colors.GREEN, "min": typer.colors.MAGENTA, "chance": typer.colors.CYAN,
           "leaf": None, "cut": typer.colors.RED, "value": typer.colors.BLUE, "note": None}


ShownAlgorithm = Literal["minimax", "alphabeta", "expectiminimax"]


@app.command()
@reports_errors
def explain(
    game: GameArgument,
    algorithm: Annotated[Optional[ShownAlgorithm], typer.Option(
        "--algorithm", "-a", help="The search to show (default: alphabeta, or expectiminimax "
                                  "for games with chance).")] = None,
    max_steps: Annotated[int, typer.Option(
        "--max-steps", min=1, help="Show at most N steps.")] = 300,
    depth: Annotated[Optional[int], typer.Option(
        "--depth", "-d", min=0, help="Search at most N plies.")] = None,
    from_moves: Annotated[Optional[str], typer.Option(
        "--from", metavar="MOVES", help="Explain the search from the position after these moves.")] = None,
    timeout: Annotated[Optional[float], typer.Option(
        "--timeout", min=0.0, callback=_seconds,
        help="Stop recording the search after S seconds.")] = None,
    param: ParamOption = None,
    as_json: Annotated[bool, typer.Option(
        "--json", help="Print the steps and the searched nodes as JSON.")] = False,
) -> None:
    """Watch the search step by step: alpha and beta, backed-up values, cut-offs."""
    from plies.commands.explain import explain as explain_search
    from plies.commands.explain import explanation, explanation_json
    model = load(game, **_params(param))
    algorithm, start = _shown_algorithm(model, algorithm), _start(model, from_moves, timeout)
    search = explain_search(model, algorithm, state=start, before=_moves(from_moves),
                            max_steps=max_steps, depth=depth, timeout=timeout)
    if as_json:
        typer.echo(json.dumps(explanation_json(model, search, algorithm, max_steps), indent=2))
        return
    color = sys.stdout.isatty()
    for line in explanation(model, search, algorithm, max_steps):
        style = _STYLES.get(line.style)
        typer.echo(typer.style(line.text, fg=style) if color and style else line.text)


@app.command()
@reports_errors
def tree(
    game: GameArgument,
    output_format: Annotated[Literal["text", "dot", "svg", "png", "efg"], typer.Option(
        "--format", "-f", help="text (for the terminal), dot (Graphviz source), svg, png, or "
                               "efg (the whole game tree for Gambit and OpenSpiel).")] = "text",
    depth: Annotated[Optional[int], typer.Option(
        "--depth", "-d", min=0, help="Show the tree down to N plies.")] = None,
    algorithm: Annotated[Optional[ShownAlgorithm], typer.Option(
        "--algorithm", "-a", help="The search to draw (default: alphabeta, or expectiminimax "
                                  "with chance).")] = None,
    output: Annotated[Optional[Path], typer.Option(
        "--output", "-o", help="Write to FILE instead of standard output.")] = None,
    max_nodes: Annotated[int, typer.Option(
        "--max-nodes", min=1, help="Record at most N nodes of the search.")] = 20_000,
    timeout: Annotated[Optional[float], typer.Option(
        "--timeout", min=0.0, callback=_seconds,
        help="Stop recording the search after S seconds.")] = None,
    from_moves: Annotated[Optional[str], typer.Option(
        "--from", metavar="MOVES", help="Start from the position after these moves.")] = None,
    param: ParamOption = None,
    as_json: Annotated[bool, typer.Option(
        "--json", help="Print the searched nodes as JSON (a flat list, each naming its "
                       "parent).")] = False,
) -> None:
    """Draw the searched tree: values, the best line, pruned subtrees."""
    import shutil
    import subprocess

    from plies.commands.explain import stop_note
    from plies.commands.treeview import recorded
    from plies.commands.treeview import dot_tree, text_tree, tree_json
    if output_format in ("svg", "png") and output is None:
        raise UsageError(f"--format {output_format} writes a file: give it with -o FILE")
    if output is not None:
        _check_writable(output)
    model = load(game, **_params(param))
    algorithm, start = _shown_algorithm(model, algorithm), _start(model, from_moves, timeout)
    if output_format == "efg":
        _efg(model, start, depth, max_nodes, timeout, output, _moves(from_moves))
        return
    search = recorded(model, algorithm, state=start, before=_moves(from_moves),
                      max_nodes=max_nodes, timeout=timeout)
    note = "" if search.complete else f"({stop_note(search, max_nodes)})"
    if as_json:
        data = {"game": model.name, "algorithm": algorithm, "complete": search.complete,
                "stopped": search.stopped, "note": note or None,
                "nodes": tree_json(model, search)}
        text = json.dumps(data, indent=2) + "\n"
    elif output_format == "text":
        text = "\n".join(text_tree(model, search, depth) + ([note] if note else [])) + "\n"
    else:
        text = dot_tree(model, search, depth)
        if note:
            text = text.replace("digraph search {", f"digraph search {{\n  // {note}", 1)
    if output_format in ("svg", "png"):
        dot = shutil.which("dot")
        if dot is None:
            raise UsageError("drawing svg or png needs Graphviz's `dot`: install it (e.g. "
                             "`apt-get install graphviz` or `brew install graphviz`), or use "
                             "--format dot and render the file elsewhere")
        done = subprocess.run([dot, f"-T{output_format}"], input=text.encode(),
                              capture_output=True, check=False)
        if done.returncode != 0:
            raise PliesError(f"dot failed: {done.stderr.decode(errors='replace').strip()}")
        _write(output, done.stdout)
        typer.echo(f"wrote {output}")
        return
    if output is not None:
        _write(output, text.encode())
        typer.echo(f"wrote {output}")
    else:
        typer.echo(text, nl=False)


def _check_writable(output: Path) -> None:
    """Refuse an output path that cannot be written, before the work of filling it."""
    if output.is_dir():
        raise UsageError(f"cannot write {output}: it is a folder; give a file name, as in "
                         f"-o {output / 'tree.txt'}")
    if not output.parent.is_dir():
        raise UsageError(f"cannot write {output}: there is no folder {output.parent}")


def _write(output: Path, data: bytes) -> None:
    try:
        output.write_bytes(data)
    except OSError as error:
        raise UsageError(f"cannot write {output}: {error.strerror or error}") from None


# ---- the language server -------------------------------------------------------------------------


@app.command()
@reports_errors
def lsp() -> None:
    r"""Run the language server for editors on standard input and output (needs plies\[lsp])."""
    from plies.commands.lsp import serve
    serve()


# ---- the web app ---------------------------------------------------------------------------------


@app.command()
@reports_errors
def serve(
    game: GameArgument,
    port: Annotated[int, typer.Option(
        "--port", min=0, max=65535, help="The port to listen on (0: any free port).")] = 8000,
    host: Annotated[str, typer.Option(
        "--host", callback=_host,
        help="The address to listen on; only this machine can connect to the "
             "default.")] = "127.0.0.1",
    param: ParamOption = None,
    db: Annotated[Optional[str], typer.Option(
        "--db", callback=_path, metavar="FILE|DIR",
        help="Read the values from a database or solution directory "
             "written by plies solve --strong --db instead of "
             "solving.")] = None,
    open_browser: Annotated[bool, typer.Option(
        "--open", help="Open the page in a web browser.")] = False,
    timeout: Annotated[float, typer.Option(
        "--timeout", min=0.01, callback=_seconds,
        help="Seconds a request may take: the rules of a position, "
                                    "an analysis, a search to explain.")] = 10.0,
    max_positions: Annotated[int, typer.Option(
        "--max-positions", min=1, help="The most positions the strong solve of the whole game "
                                       "may find; past it each position is analysed on its "
                                       "own, as analyze does.")] = 5_000_000,
) -> None:
    """Play the game in a web browser: every move's value, alpha-beta step by step, an editor.

    Needs the optional web extra (Starlette and uvicorn). Serves until Ctrl-C; see docs/web.md.
    """
    from plies.commands.serve import serve as serve_game
    try:
        serve_game(game, _params(param), host=host, port=port, db=db, open_browser=open_browser,
                   timeout=timeout, max_positions=max_positions, echo=typer.echo)
    except KeyboardInterrupt:  # pragma: no cover - uvicorn handles Ctrl-C itself
        pass
