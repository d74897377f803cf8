"""Finding and loading games: a path or a shipped game's name, plus parameter values.

``load`` runs the whole front half of the pipeline: read → parse → check → generate → compile,
or, for a game seen before, reads the checked and generated game back from the game cache
(``game_cache.py``). The parser, the checker and the code generator are imported only when
they are needed: with Lark and the lowering they take about 0.06 s to set up, more than all
the rest of a small game's start.
"""

from __future__ import annotations

import re
from pathlib import Path

from typing import TYPE_CHECKING

from plies.errors import Diagnostic, GameFileError, UsageError, normalize_newlines
from plies.frontend.limits import MAX_FILE_BYTES
from plies.game import game_cache
from plies.game.model import GameModel
from plies.frontend.values import SymbolValue

if TYPE_CHECKING:
    from plies.frontend.checked import CheckedGame


def games_directory() -> Path:
    """Where the shipped games are: inside the installed package, or the checkout's games/."""
    packaged = Path(__file__).resolve().parent.parent / "games"
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parent.parent.parent / "games"


def shipped_games() -> list[str]:
    """The names of the shipped games."""
    return sorted(p.stem for p in games_directory().glob("*.game"))


def find_game(name_or_path: str) -> Path:
    """The file of a game given as a path or as the name of a shipped game.

    Raises:
        UsageError: there is no such file and no shipped game of that name.
    """
    path = Path(name_or_path)
    if path.is_file():
        return path
    if path.exists():
        raise UsageError(f"'{name_or_path}' is not a file")
    shipped = games_directory() / f"{name_or_path}.game"
    if "/" not in name_or_path and shipped.is_file():
        return shipped
    names = shipped_games()
    import difflib  # only for a suggestion
    close = difflib.get_close_matches(path.stem, names, n=1)
    hint = f"; did you mean '{close[0]}'?" if close else ""
    raise UsageError(f"no game file '{name_or_path}' and no shipped game of that name{hint} "
                     f"(shipped: {', '.join(names)})")


def read_source(path: Path) -> str:
    """The text of a game file.

    Raises:
        GameFileError: the file is not UTF-8 text.
        UsageError: the file cannot be read.
    """
    most = 4 * MAX_FILE_BYTES  # UTF-8 takes at most 4 bytes a character: past it, too large
    try:
        with open(path, "rb") as file:
            data = file.read(most + 1)
    except OSError as error:
        raise UsageError(f"cannot read {path}: {error.strerror}") from None
    if len(data) > most:  # refused unread, as the parser refuses a text of more characters
        raise GameFileError([Diagnostic(
            str(path), 1, 1, 1, 2, "error", "limit",
            f"the file is too large (more than {most:,} bytes; game files are at most "
            f"{MAX_FILE_BYTES:,} characters)")], None)
    try:
        return normalize_newlines(data.decode("utf-8"))
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        column = error.start - (data.rfind(b"\n", 0, error.start) + 1) + 1
        raise GameFileError([Diagnostic(
            str(path), line, column, line, column + 1, "error", "encoding",
            f"the file is not UTF-8 text (byte 0x{data[error.start]:02x})",
            "is it a binary file? game files are plain text")], None) from None


def parse_param(text: str) -> tuple[str, object]:
    """``name=value`` from the command line; the value is written as in the language.

    Raises:
        UsageError: not of the form name=value, or the value is not a constant.
    """
    name, sep, value_text = text.partition("=")
    name = name.strip()
    if not sep or not name.isidentifier():
        raise UsageError(f"--param takes NAME=VALUE, as in width=5 or heaps=[1,2,3]; got '{text}'")
    plain = _plain_value(value_text)
    return name, plain if plain is not None else _parsed_value(name, value_text)


def _parsed_value(name: str, text: str):
    """The value of a ``--param`` value read by the game parser, as a parameter's default."""
    from plies.frontend.parser import parse

    try:
        program = parse(f"game p({name} = {text})\n", "--param")
        default = program.header.params[0].default
    except GameFileError:
        check_digits(name, text)  # a value, but past the language's literals
        raise UsageError(f"--param {name}: '{text}' is not a value (write numbers like 5 "
                         f"or 1/2, true/false, or lists like [1,2,3])") from None
    value = _constant(default)
    if value is None:
        raise UsageError(f"--param {name}: '{text}' is not a constant value")
    return value


def check_digits(name: str, text: str) -> None:
    """Refuse a ``--param`` value with a number longer than the language's literals.

    Raises:
        UsageError: ``text`` holds a number of more than 18 digits, with the parameter's name.
    """
    from plies.frontend.parser import MAX_LITERAL_DIGITS
    long = re.search(rf"[0-9]{{{MAX_LITERAL_DIGITS + 1},}}", text)
    if long is not None:
        raise UsageError(f"--param {name}: {long[0]} is too large: a number has at most "
                         f"{MAX_LITERAL_DIGITS} digits (numbers lie within -10^18..10^18)")


_WHOLE = r"-?[0-9]{1,18}"
_PLAIN = re.compile(rf"[ \t]*(?:(?P<number>{_WHOLE})|(?P<word>true|false)|"
                    rf"\[(?P<items>[ \t]*(?:{_WHOLE}[ \t]*(?:,[ \t]*{_WHOLE}[ \t]*)*)?)\])[ \t]*")


def _plain_value(text: str):
    """The value of the commonest ``--param`` values, read without loading the parser: a whole
    number, true or false, or a flat list of whole numbers, each as the parser reads it
    (tests/test_param_values.py compares the two). None for anything else, which the parser reads."""
    match = _PLAIN.fullmatch(text)
    if match is None:
        return None
    if match["number"] is not None:
        return int(match["number"])
    if match["word"] is not None:
        return match["word"] == "true"
    return tuple(int(item) for item in match["items"].split(",")) if match["items"].strip() \
        else ()


def _constant(expr):
    """The value of a constant expression (a parsed ``--param`` value), else None."""
    from fractions import Fraction

    from plies.frontend import ast

    if isinstance(expr, ast.IntLiteral):
        return expr.value
    if isinstance(expr, ast.BoolLiteral):
        return expr.value
    if isinstance(expr, ast.Negate):
        inner = _constant(expr.operand)
        return -inner if isinstance(inner, (int, Fraction)) and not isinstance(inner, bool) else None
    if isinstance(expr, ast.Binary) and expr.op == "/":
        a, b = _constant(expr.left), _constant(expr.right)
        if isinstance(a, int) and isinstance(b, int) and b:
            q = Fraction(a, b)
            return q.numerator if q.denominator == 1 else q
        return None
    if isinstance(expr, ast.ListLiteral):
        items = [_constant(item) for item in expr.items or ()]
        return None if any(item is None for item in items) else tuple(items)
    if isinstance(expr, ast.Name):
        return SymbolValue(expr.id)
    return None


def check_source(source: str, filename: str, params: dict | None = None) -> CheckedGame:
    """Parse and check a game's text (any line endings; parameter lists may be Python lists).

    Raises:
        GameFileError: with every error (and warning) found.
        UsageError: a parameter the game does not have.
    """
    from plies.frontend.checker import check
    from plies.frontend.parser import parse

    source = normalize_newlines(source)
    program = parse(source, filename)
    params = {name: _as_tuples(value) for name, value in (params or {}).items()}
    declared = [p.name for p in program.header.params or ()]
    for name in params:
        if name not in declared:
            import difflib  # only for a suggestion
            close = difflib.get_close_matches(name, declared, n=1)
            hint = f"; did you mean '{close[0]}'?" if close else ""
            have = ", ".join(declared) if declared else "none"
            raise UsageError(f"game '{program.header.name}' has no parameter '{name}'{hint} "
                             f"(its parameters: {have})")
    return check(program, params, filename=filename, source=source)


def _as_tuples(value):
    """A parameter value with Python lists (at any depth) as the tuples the checker takes."""
    if isinstance(value, (list, tuple)):
        return tuple(_as_tuples(item) for item in value)
    return value


def load_source(source: str, filename: str = "<game>", **params) -> GameModel:
    """A game model from a game's text (from the game cache when it was loaded before)."""
    source = normalize_newlines(source)
    params = {name: _as_tuples(value) for name, value in params.items()}
    stored = game_cache.recall(source, filename, params)
    if stored is not None:
        return GameModel(*stored)
    from plies.backends.python.compiler import generate

    checked = check_source(source, filename, params)
    code = generate(checked)
    model = GameModel(checked, code)
    game_cache.remember(source, filename, params, checked, code)
    return model


def validate_source(source: str, filename: str = "<game>",
                    params: dict | None = None) -> list[Diagnostic]:
    """Every error and warning in a game's text (empty when it is clean).

    The game is also generated and compiled, so a file that validates will load.

    Raises:
        UsageError: a parameter the game does not have.
    """
    from plies.backends.python.compiler import generate

    try:
        checked = check_source(source, filename, params)
    except GameFileError as error:
        return error.diagnostics
    GameModel(checked, generate(checked))
    return checked.diagnostics


def load(game: str | Path, **params) -> GameModel:
    """Load a game file (or a shipped game by name) with parameter values.

    Example:
        >>> import plies
        >>> plies.load("nim", heaps=(1, 2, 3)).solve().value
        -1
    """
    path = find_game(str(game))
    return load_source(read_source(path), display_path(path), **params)


def display_path(path: Path) -> str:
    """The path as the user would write it: relative to the working directory when inside it."""
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)


__all__ = ["load", "load_source", "check_source", "validate_source", "find_game", "parse_param", "shipped_games"]
