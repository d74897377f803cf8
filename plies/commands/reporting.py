"""How a command reports what went wrong: a message (or a JSON object) and an exit code.

Every command of ``plies/cli.py`` is wrapped in ``reports_errors``: plies's domain errors
become a message on standard error (under ``--json`` a JSON object on standard output), exit
code 1, or 2 for a usage error (a bad option or value, ``--param`` of the wrong kind, a
``--from`` move that is not legal); never a traceback. A fault of the game's rules is restated
as ``validate --explore`` reports it (``faults.py``), from the game's start when the command ran
from a ``--from`` position (``COMMAND_POSITION``).
"""

from __future__ import annotations

import errno
import functools
import json
import os
import re
import sys
from contextvars import ContextVar

import typer

from plies import solvers
from plies.errors import GameFileError, GameRuntimeError, PliesError, UsageError, printable
from plies.game.model import IllegalMoveError

def reports_errors(command):
    """Turn plies's domain errors into a message and an exit code, never a traceback.

    The message goes to stderr; under ``--json`` it is a JSON object on stdout instead:
    ``{"error": kind, "message": the text, "diagnostics": [...], "moves": [...]}``, where kind
    is usage, game-file, runtime or solver.
    """

    @functools.wraps(command)
    def wrapper(*args, **kwargs):
        as_json = kwargs.get("as_json", False)
        at = COMMAND_POSITION.set(None)
        try:
            return command(*args, **kwargs)
        except UsageError as error:
            fail(as_json, 2, "usage", f"error: {error}")
        except IllegalMoveError as error:  # only --from names moves on the command line
            text = str(error)
            fail(as_json, 2, "usage", f"error: {'' if text.startswith('--from') else '--from: '}"
                                       f"{text}")
        except GameFileError as error:
            wrong = _wrong_params(error, kwargs.get("param"))
            if wrong:
                fail(as_json, 2, "usage", "\n".join(wrong))
            fail(as_json, 1, "game-file", error.render(), error.diagnostics)
        except (GameRuntimeError, solvers.NoMovesError, solvers.UtilityOutOfBoundsError) as met:
            error = _restated(met)
            if not isinstance(error, GameRuntimeError):
                fail(as_json, 1, "solver", f"error: {error}", moves=error.moves)
            fail(as_json, 1, "runtime", error.render(), [error.diagnostic], error.moves)
        except (PliesError, solvers.SolverError, ValueError) as error:
            deep = isinstance(error, solvers.GameTooDeepError) and "depth" in kwargs
            repeats = isinstance(error, solvers.RepeatedPositionError)
            error = _restated(error)  # a line from --from's position: from the start
            fail(as_json, 1, "solver" if isinstance(error, solvers.SolverError) else "error",
                  f"error: {error}" + (" (--depth)" if deep else "")
                  + (f"\n{REPEAT_HINT}" if repeats else ""),
                  moves=getattr(error, "moves", None),
                  stopped_by=getattr(error, "stopped_by", None))
        except MemoryError:
            fail(as_json, 1, "error", "error: plies ran out of memory: give the command "
                                       "--max-nodes or --timeout, or ask for less")
        except OSError as error:
            if error.errno not in _WRITE_FAILURES:
                raise
            _write_failed(error)
        finally:
            COMMAND_POSITION.reset(at)

    return wrapper


_WRITE_FAILURES = (errno.EPIPE, errno.ENOSPC, errno.EIO, errno.EFBIG, errno.EDQUOT)
"""The errors of a write that failed: standard output closed (a pipe whose reader left) or
full (``> /dev/full``), or a file the command wrote."""


def _write_failed(error: OSError) -> None:
    """End a command whose output could not be written: said on standard error (not for a
    closed pipe, whose reader wants no more), exit code 1, no traceback. Standard output is
    pointed at /dev/null first, so that Python's flush at exit does not fail again."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError):  # no descriptor (a test's captured output)
        pass
    if error.errno != errno.EPIPE:
        where = error.filename or "the output"
        typer.echo(f"error: cannot write {where}: {error.strerror or error}", err=True)
    raise typer.Exit(code=1)


_PARAMETER = re.compile(r"parameter '(\w+)' (.*)", re.DOTALL)


def _wrong_params(error: GameFileError, given: list[str] | None) -> list[str]:
    """The errors of a game file that are all --param values of the wrong kind, as usage
    errors (``error: --param misere: takes a bool, not a whole number (1)``); else []."""
    names = {text.partition("=")[0].strip() for text in given or ()}
    errors = [d for d in error.diagnostics if d.severity == "error"]
    found = [(m, d) for d in errors if d.code == "param-type"
             and (m := _PARAMETER.match(d.message)) and m.group(1) in names]
    if not found or len(found) != len(errors):
        return []
    return [f"error: --param {m.group(1)}: {m.group(2)} (declared at {d.file}:{d.line})"
            for m, d in found]


REPEAT_HINT = ("  hint: plies solve and plies analyze (with the default --algorithm auto) solve a "
               "game whose positions repeat, by retrograde analysis")
"""Said after a search that met a repeated position: explain, tree, solve --algorithm minimax."""


COMMAND_POSITION: ContextVar = ContextVar("plies_command_position", default=None)
"""The game a command runs and the --from moves of its position, once it has played them."""


def _restated(error: Exception) -> Exception:
    """A fault of the rules as ``validate --explore`` reports it (``commands/faults.py``): the
    same location, message and shortest moves whatever command met it."""
    at = COMMAND_POSITION.get()
    if at is None:
        return error
    from plies.commands.faults import restated
    model, before = at
    return restated(model, error, before)


def fail(as_json: bool, code: int, kind: str, message: str, diagnostics=(), moves=None,
          stopped_by: str | None = None):
    """Report an error (as text on stderr, or as JSON on stdout) and exit with ``code``.

    ``stopped_by`` (a limit that stopped a strong solve: ``timeout``) is added to the JSON.
    """
    if as_json:
        report = {"error": kind, "message": message,
                  "diagnostics": [d.to_json() for d in diagnostics],
                  "moves": None if moves is None else [str(m) for m in moves]}
        if stopped_by is not None:
            report["stopped_by"] = stopped_by
        typer.echo(json.dumps(report, indent=2))
    else:
        typer.echo(printable(message, keep="\n"), err=True)
    raise typer.Exit(code=code) from None
