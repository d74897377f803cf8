"""docs/language.md is checked: every example validates, and what the text states is true.

The fenced code blocks of the page are read by their info string:

- ```` ```plies id=NAME [file=PATH] ````: a complete game; no errors and no warnings. With
  ``file=``, the same text as that shipped game file, comment lines aside.
- ```` ```plies excerpt-of=NAME ````: lines that appear, together and in order, in game NAME.
- ```` ```plies add-to=NAME [id=NEW] ````: declarations appended to game NAME; the whole has no
  errors (warnings allowed: an added constant may go unused). ``id=`` names the whole.
- ```` ```plies invalid [warnings] ````: a game with errors (or, with ``warnings``, only
  warnings); the next block, ```` ```plies-error ````, is exactly what the checker reports.
- ```` ```plies-expr in=NAME [after="MOVES"] ````: lines ``expression  # value``, evaluated in
  game NAME after MOVES (a value is a number, ``true``, ``false`` or
  ``run-time error: message``).
- ```` ```plies-runtime-error in=NAME ````: exactly the error that solving game NAME raises.
- ```` ```console ````: ``$ plies ...`` and the first lines of its output.

The values and move lists the prose states are pinned in ``CLAIMS`` below; each claim quotes
the sentence of the page that states it, so the page and the test cannot drift apart.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

import pytest
from typer.testing import CliRunner

from plies.cli import app
from plies.errors import GameRuntimeError
from plies.game.loader import load_source, parse_param, validate_source
from plies.frontend.runtime import GameFault
from plies.solvers import CHANCE, MAX, MIN, solve

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "language.md"
TEXT = DOC.read_text(encoding="utf-8")
FILENAME = "example.game"  # the file name the plies-error blocks show


# ---- reading the page ---------------------------------------------------------------------------


@dataclass
class Block:
    """One fenced code block: its language tag, flags, key=value attributes and text."""

    lang: str
    flags: set[str]
    attrs: dict[str, str]
    text: str
    line: int  # where the block starts in the page, for messages

    def __str__(self) -> str:
        return f"language.md:{self.line} ```{self.lang}"


def _read_blocks(text: str) -> list[Block]:
    blocks = []
    pattern = re.compile(r"^```([^\n`]*)\n(.*?)^```[ \t]*$", re.S | re.M)
    for match in pattern.finditer(text):
        words = shlex.split(match.group(1))
        lang = words[0] if words else ""
        flags = {w for w in words[1:] if "=" not in w}
        attrs = dict(w.split("=", 1) for w in words[1:] if "=" in w)
        line = text.count("\n", 0, match.start()) + 1
        blocks.append(Block(lang, flags, attrs, match.group(2), line))
    return blocks


BLOCKS = _read_blocks(TEXT)
KNOWN = {"plies", "plies-expr", "plies-error", "plies-runtime-error", "console", ""}


def _games() -> dict[str, str]:
    """Every named game of the page: complete examples and add-to compositions."""
    games: dict[str, str] = {}
    for block in BLOCKS:
        if block.lang != "plies" or "id" not in block.attrs:
            continue
        if "add-to" in block.attrs:
            games[block.attrs["id"]] = games[block.attrs["add-to"]] + "\n" + block.text
        else:
            games[block.attrs["id"]] = block.text
    return games


GAMES = _games()


def _of(lang: str, predicate=lambda b: True) -> list[Block]:
    return [b for b in BLOCKS if b.lang == lang and predicate(b)]


def _ids(blocks: list[Block]) -> list[str]:
    return [f"line{b.line}" for b in blocks]


def load(name: str, **params):
    """An example game of the page, loaded with parameter values."""
    return load_source(GAMES[name], f"{name}.game", **params)


def errors(diagnostics) -> list:
    return [d for d in diagnostics if d.severity == "error"]


def _squash(text: str) -> str:
    return " ".join(text.split())


# ---- the blocks themselves ----------------------------------------------------------------------


def test_the_page_has_examples_of_every_kind():
    langs = {b.lang for b in BLOCKS}
    assert {"plies", "plies-expr", "plies-error", "plies-runtime-error", "console"} <= langs
    assert len(_of("plies")) >= 25


@pytest.mark.parametrize("block", BLOCKS, ids=_ids(BLOCKS))
def test_every_block_is_of_a_known_kind(block):
    assert block.lang in KNOWN, f"{block}: unknown tag, so no test would check it"
    if block.lang == "plies":
        kinds = {"id", "excerpt-of", "add-to"} & set(block.attrs) | {"invalid"} & block.flags
        assert kinds, f"{block}: a plies block needs id=, excerpt-of=, add-to= or invalid"
    if block.lang == "":
        # Untagged blocks show syntax shapes only; they must not be whole games in disguise.
        assert not block.text.lstrip().startswith("game "), f"{block}: tag it ```plies"


COMPLETE = _of("plies", lambda b: "id" in b.attrs and "add-to" not in b.attrs)


@pytest.mark.parametrize("block", COMPLETE, ids=[b.attrs["id"] for b in COMPLETE])
def test_complete_examples_validate_without_any_diagnostic(block):
    diagnostics = validate_source(block.text, f"{block.attrs['id']}.game")
    assert diagnostics == [], "\n".join(d.render(block.text) for d in diagnostics)
    load_source(block.text, f"{block.attrs['id']}.game")


SHIPPED = _of("plies", lambda b: "file" in b.attrs)


def _without_comments(text: str) -> list[str]:
    """The lines of a game file without whole-line comments and blank lines."""
    return [line.rstrip() for line in text.splitlines()
            if line.strip() and not line.lstrip().startswith("#")]


@pytest.mark.parametrize("block", SHIPPED, ids=[b.attrs["file"] for b in SHIPPED])
def test_shipped_games_are_shown_as_they_are(block):
    shipped = (ROOT / block.attrs["file"]).read_text(encoding="utf-8")
    assert _without_comments(block.text) == _without_comments(shipped)


EXCERPTS = _of("plies", lambda b: "excerpt-of" in b.attrs)


@pytest.mark.parametrize("block", EXCERPTS, ids=_ids(EXCERPTS))
def test_excerpts_are_taken_from_their_game(block):
    whole = [line.rstrip() for line in GAMES[block.attrs["excerpt-of"]].splitlines()]
    part = [line.rstrip() for line in block.text.strip("\n").splitlines()]
    assert any(whole[i:i + len(part)] == part for i in range(len(whole))), \
        f"{block}: not found in {block.attrs['excerpt-of']}"


ADDITIONS = _of("plies", lambda b: "add-to" in b.attrs)


@pytest.mark.parametrize("block", ADDITIONS, ids=_ids(ADDITIONS))
def test_additions_fit_into_their_game(block):
    text = GAMES[block.attrs["add-to"]] + "\n" + block.text
    problems = errors(validate_source(text, FILENAME))
    assert problems == [], "\n".join(d.render(text) for d in problems)
    load_source(text, FILENAME)


INVALID = _of("plies", lambda b: "invalid" in b.flags)


@pytest.mark.parametrize("block", INVALID, ids=_ids(INVALID))
def test_error_examples_report_exactly_what_the_page_shows(block):
    following = BLOCKS[BLOCKS.index(block) + 1]
    assert following.lang == "plies-error", f"{block}: the next block must be ```plies-error"
    diagnostics = validate_source(block.text, FILENAME)
    if "warnings" in block.flags:
        assert diagnostics and not errors(diagnostics)
    else:
        assert errors(diagnostics)
    shown = "\n".join(d.render(block.text) for d in diagnostics)
    assert shown == following.text.rstrip("\n")


def test_every_error_report_belongs_to_an_example():
    for block in _of("plies-error"):
        before = BLOCKS[BLOCKS.index(block) - 1]
        assert before.lang == "plies" and "invalid" in before.flags, str(block)


# ---- expressions --------------------------------------------------------------------------------


def _expression_cases() -> list[tuple[Block, str, str]]:
    cases = []
    for block in _of("plies-expr"):
        for line in block.text.splitlines():
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            expression, _, expected = line.partition("#")
            assert expected.strip(), f"{block}: '{line}' states no value"
            cases.append((block, expression.strip(), expected.strip()))
    return cases


EXPRESSIONS = _expression_cases()


def _expected(text: str):
    if text.startswith("run-time error:"):
        return ("error", text.removeprefix("run-time error:").strip())
    word = text.split()[0]
    if word in ("true", "false"):
        return word == "true"
    return Fraction(word)


@pytest.mark.parametrize("block, expression, expected", EXPRESSIONS,
                         ids=[e for _, e, _ in EXPRESSIONS])
def test_expressions_have_the_values_the_page_shows(block, expression, expected):
    want = _expected(expected)
    # The expression becomes the game's `evaluate`, which the protocol lets us call directly.
    probe = f"(if ({expression}) then 1 else 0)" if isinstance(want, bool) else f"({expression})"
    text = GAMES[block.attrs["in"]] + f"\nevaluate {probe}\n"
    problems = errors(validate_source(text, FILENAME))
    assert problems == [], "\n".join(d.render(text) for d in problems)
    game = load_source(text, FILENAME)
    state = game.play_all(block.attrs.get("after", "").split())
    if isinstance(want, tuple):
        with pytest.raises(GameFault) as failure:
            game.evaluate(state)
        assert str(failure.value) == want[1]
    elif isinstance(want, bool):
        assert game.evaluate(state) == (1 if want else 0)
    else:
        value = game.evaluate(state)
        assert value == want and not isinstance(value, bool)


# ---- run-time errors ----------------------------------------------------------------------------


RUNTIME = _of("plies-runtime-error")


@pytest.mark.parametrize("block", RUNTIME, ids=_ids(RUNTIME))
def test_runtime_errors_are_reported_as_the_page_shows(block, tmp_path, monkeypatch):
    name = block.attrs["in"]
    with pytest.raises(GameRuntimeError) as failure:
        load(name).solve()
    assert failure.value.render() == block.text.rstrip("\n")
    # `plies solve NAME.game` prints the same on stderr and exits with 1.
    (tmp_path / f"{name}.game").write_text(GAMES[name], encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, ["solve", f"{name}.game"])
    assert result.exit_code == 1
    assert result.stderr.rstrip("\n") == block.text.rstrip("\n")


# ---- the command lines --------------------------------------------------------------------------


def _console_cases() -> list[tuple[Block, list[str], list[str]]]:
    cases = []
    for block in _of("console"):
        command, output = None, []
        for line in block.text.rstrip("\n").splitlines():
            if line.startswith("$ "):
                if command is not None:
                    cases.append((block, command, output))
                command, output = shlex.split(line[2:]), []
            else:
                output.append(line)
        if command is not None:
            cases.append((block, command, output))
    return cases


CONSOLE = _console_cases()


@pytest.mark.parametrize("block, command, output", CONSOLE,
                         ids=[" ".join(c) for _, c, _ in CONSOLE])
def test_command_lines_print_what_the_page_shows(block, command, output, tmp_path, monkeypatch):
    assert command[:2] == ["plies", "solve"], f"{block}: only `plies solve` is checked"
    args = command[1:]
    game = args[1]
    if game.endswith(".game"):  # an example of the page, saved under that name
        (tmp_path / game).write_text(GAMES[game.removesuffix(".game")], encoding="utf-8")
        monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    shown = [line.rstrip() for line in output if line.strip() != "..."]
    assert result.stdout.splitlines()[:len(shown)] == shown


@pytest.mark.parametrize("text, value", [
    ("start=8", 8), ("heaps=[1,2,3]", (1, 2, 3)), ("misere=true", True), ("p=1/3", Fraction(1, 3)),
])
def test_param_values_are_written_as_in_the_language(text, value):
    assert (f"--param '{text}'" if "[" in text else f"--param {text}") in TEXT  # a list quoted
    assert parse_param(text) == (text.split("=")[0], value)


# ---- what the prose states ----------------------------------------------------------------------


@dataclass
class Claim:
    """A statement of the page about an example: its quote, and what to compute."""

    game: str
    quote: str
    value: object = None  # the game's value (solved)
    best: str | None = None  # the best move
    after: str = ""  # moves played first
    moves: str | None = None  # the legal moves there (texts separated by spaces)
    outcomes: list | None = None  # [(text, probability)] at a chance node
    to_move: int | None = None
    terminal: bool | None = None
    utility: object = None
    params: dict = field(default_factory=dict)

    def __str__(self) -> str:
        return f"{self.game}: {self.quote[:50]}"


CLAIMS = [
    # 2. A first game
    Claim("countdown", "In the initial state the legal moves are `take(1) take(2) take(3)`",
          moves="take(1) take(2) take(3)"),
    Claim("countdown", "countdown is worth 1: alice wins by taking 2 (her best move is `take(2)`)",
          value=1, best="take(2)"),
    Claim("countdown", "With `--param start=8` the value is -1", value=-1,
          params={"start": 8}),
    # 3. Parameters
    Claim("subtraction", "The legal moves at the start are `take(1) take(3) take(4)`",
          moves="take(1) take(3) take(4)"),
    Claim("subtraction", "With the defaults the value is 1", value=1),
    Claim("subtraction", "with `--param misere=true` it is -1", value=-1,
          params={"misere": True}),
    Claim("subtraction", "with `--param start=7` it is -1", value=-1, params={"start": 7}),
    Claim("subtraction", "with `--param 'amounts=[1,2]'` the moves are `take(1) take(2)` and the "
          "value is 1", moves="take(1) take(2)", value=1, params={"amounts": (1, 2)}),
    # 4. Players
    Claim("countdown_bob_first", "players bob min, alice max      # bob moves first",
          to_move=MIN),
    Claim("countdown_bob_first", "with bob first, countdown_bob_first is worth -1", value=-1),
    # 8. Moves
    Claim("nim", "In the initial state the legal moves are `take(0,1) take(0,2) take(0,3) "
          "take(1,1) take(1,2) take(1,3) take(1,4) take(2,1) take(2,2) take(2,3) take(2,4) "
          "take(2,5)`",
          moves="take(0,1) take(0,2) take(0,3) take(1,1) take(1,2) take(1,3) take(1,4) "
                "take(2,1) take(2,2) take(2,3) take(2,4) take(2,5)"),
    Claim("nim", "nim is worth 1 with heaps [3, 4, 5]", value=1),
    Claim("nim", "-1 with `--param 'heaps=[1,2,3]'`", value=-1, params={"heaps": (1, 2, 3)}),
    Claim("connect", "On the 7-wide board the moves at the start are `drop(3) drop(2) drop(4) "
          "drop(1) drop(5) drop(0) drop(6)`",
          moves="drop(3) drop(2) drop(4) drop(1) drop(5) drop(0) drop(6)"),
    Claim("connect", "value      1  (red (MAX) wins)", value=1,
          params={"width": 4, "height": 3, "k": 3}),
    Claim("connect", "On a 3 × 3 board (`width=3 height=3 k=3`) the value is 0", value=0,
          params={"width": 3, "height": 3, "k": 3}),
    Claim("lamps", "With the defaults lamps is worth 0", value=0),
    Claim("lamps", "with `--param presses=3` it is worth 6", value=6, params={"presses": 3}),
    # 9. Whose turn is next
    Claim("two_step_nim", "At the start the moves are `pick(0) pick(1)`",
          moves="pick(0) pick(1)"),
    Claim("two_step_nim", "after `pick(1)` it is still A's turn and the moves are `take(1) "
          "take(2) take(3)`", after="pick(1)", to_move=MAX, moves="take(1) take(2) take(3)"),
    Claim("two_step_nim", "two_step_nim is worth 1 with heaps [2, 3]", value=1),
    Claim("two_step_nim", "and -1 with `--param 'heaps=[1,2,3]'`", value=-1,
          params={"heaps": (1, 2, 3)}),
    # 10. Chance events
    Claim("triple", "After `bet` the position is a chance node with outcomes `heads` (1/2) and "
          "`tails` (1/2)", after="bet", to_move=CHANCE, terminal=False,
          outcomes=[("heads", Fraction(1, 2)), ("tails", Fraction(1, 2))]),
    Claim("triple", "after `bet heads` the gambler is to move again, with moves `stop bet`",
          after="bet heads", to_move=MAX, moves="stop bet"),
    Claim("triple", "so triple_or_nothing is worth 9/4 and the best move is `bet`",
          value=Fraction(9, 4), best="bet"),
    Claim("triple", "With `--param limit=27` it is worth 27/8", value=Fraction(27, 8),
          params={"limit": 27}),
    Claim("reroll", "After `throw` there are six outcomes `die(1)` … `die(6)` of probability 1/6",
          after="throw", to_move=CHANCE,
          outcomes=[(f"die({d})", Fraction(1, 6)) for d in range(1, 7)]),
    Claim("reroll", "After `throw die(2)` A chooses between `reroll` and `stand`",
          after="throw die(2)", to_move=MAX, moves="reroll stand"),
    Claim("reroll", "and the game is worth (1/6 + 3/6 + 5/6) / 6 = 1/4", value=Fraction(1, 4)),
    Claim("reroll", "With `--param sides=3` it is worth 2/9", value=Fraction(2, 9),
          params={"sides": 3}),
    # 13. Trees
    Claim("fig5_2", "The tree's value is 3 and the best move is `a1` (MIN answers `b1`)", value=3,
          best="a1"),
    Claim("fig5_2", "the moves at the root are `a1 a2 a3`", moves="a1 a2 a3"),
    Claim("fig5_2", "after `a2` they are `c1 c2 c3`", after="a2", moves="c1 c2 c3", to_move=MIN),
    Claim("unlabelled", "Here the moves at the root are `1 C 3`, and the value is again 3",
          moves="1 C 3", value=3),
    Claim("gamble_tree", "so gamble_tree is worth 3 and the best move is `gamble`", value=3,
          best="gamble"),
    # 20. Tic-tac-toe
    Claim("tictactoe", "at the start `place(0,0) place(0,1) place(0,2) place(1,0) place(1,1) "
          "place(1,2) place(2,0) place(2,1) place(2,2)`",
          moves="place(0,0) place(0,1) place(0,2) place(1,0) place(1,1) place(1,2) place(2,0) "
                "place(2,1) place(2,2)", to_move=MAX),
    Claim("tictactoe", "Playing `place(0,0) place(1,1) place(0,1) place(2,2) place(0,2)` gives X "
          "the top row: the position is terminal with utility 1",
          after="place(0,0) place(1,1) place(0,1) place(2,2) place(0,2)", terminal=True,
          utility=1),
    Claim("tictactoe", "Tic-tac-toe is a draw: the value is 0, and alpha-beta reports "
          "`place(0,0)` as the best first move", value=0, best="place(0,0)"),
    Claim("tictactoe", "after `place(0,0) place(0,1)` X wins (value 1)",
          after="place(0,0) place(0,1)", value=1),
    # 21. Piglet
    Claim("piglet", "At the start A may only `flip`", moves="flip", to_move=MAX),
    Claim("piglet", "The position after `flip` is a chance node: `heads` and `tails`, 1/2 each",
          after="flip", to_move=CHANCE,
          outcomes=[("heads", Fraction(1, 2)), ("tails", Fraction(1, 2))]),
    Claim("piglet", "after `flip heads` it is A's move again, with the moves `flip hold`",
          after="flip heads", to_move=MAX, moves="flip hold"),
    Claim("piglet", "after `flip tails` B is to move", after="flip tails", to_move=MIN),
    Claim("piglet", "After `flip heads flip heads` A has reached the goal: the position is "
          "terminal and worth 1", after="flip heads flip heads", terminal=True, utility=1),
    Claim("piglet", "piglet is worth 37/256 for A, and the best move is `flip`",
          value=Fraction(37, 256), best="flip"),
    Claim("piglet", "(`--param flips=4`) it is worth 1/8", value=Fraction(1, 8),
          params={"flips": 4}),
]


@pytest.mark.parametrize("claim", [pytest.param(c, id=str(c)) for c in CLAIMS])
def test_the_page_states_what_plies_computes(claim):
    assert _squash(claim.quote) in _squash(TEXT), "the page no longer says this"
    game = load(claim.game, **claim.params)
    after = claim.after.split()
    state = game.play_all(after)
    if claim.moves is not None:
        assert " ".join(str(m) for m in game.actions(state)) == claim.moves
    if claim.outcomes is not None:
        assert [(str(m), p) for m, p in game.chance_outcomes(state)] == claim.outcomes
    if claim.to_move is not None:
        assert game.to_move(state) == claim.to_move
    if claim.terminal is not None:
        assert game.is_terminal(state) == claim.terminal
    if claim.utility is not None:
        assert game.utility(state) == claim.utility
    if claim.value is not None:
        result = game.solve(moves=after)  # auto
        assert (result.value, result.proved) == (claim.value, True)
        if claim.best is not None:
            assert str(result.best_move) == claim.best
        assert solve(game, "expectiminimax", state=state).value == claim.value
        if not game.has_chance:
            assert solve(game, "alphabeta", state=state).value == claim.value


def test_fig5_2_best_play_is_a1_then_b1():
    result = load("fig5_2").solve("minimax")
    assert [str(m) for m in result.principal_variation] == ["a1", "b1"]


def test_a_pending_chance_event_comes_before_the_terminal_test():
    """Piglet with one flip: after `flip`, left == 0, but the coin lands first."""
    game = load("piglet", flips=1)
    state = game.play_all(["flip"])
    assert not game.is_terminal(state)
    assert game.to_move(state) == CHANCE
    assert game.is_terminal(game.play(state, "tails"))


def test_uniform_chance_with_two_parameters_has_one_outcome_per_combination():
    assert "(`chance dice(a in 1..6, b in 1..6)`: 36 outcomes of 1/36)" in TEXT
    text = GAMES["reroll"].replace("chance die(d in 1..sides) {\n  roll[turn] = d",
                                   "chance die(a in 1..sides, b in 1..sides) {\n  roll[turn] = a")
    assert text != GAMES["reroll"]
    game = load_source(text, FILENAME)
    outcomes = game.chance_outcomes(game.play_all(["throw"]))
    assert len(outcomes) == 36 and {p for _, p in outcomes} == {Fraction(1, 36)}
    assert str(outcomes[7][0]) == "die(2,2)"


def test_inferred_bounds_are_the_ones_the_page_names():
    assert "which gives 0..9 for triple_or_nothing" in TEXT
    assert load("triple").utility_bounds == (0, 9)
    assert "plies would infer the same bounds from the\n  utility expression" in TEXT
    without = GAMES["tictactoe"].replace("bounds -1 .. 1\n", "")
    assert load_source(without, FILENAME).utility_bounds == (-1, 1)


def test_moves_read_back_with_spaces_and_print_without():
    game = load("tictactoe")
    assert "When a move is read back, spaces\nare allowed (`place(1, 2)`)" in TEXT
    assert str(game.parse_move("place(1, 2)")) == "place(1,2)"
    assert game.play_all(["place(1, 2)"]) == game.play_all(["place(1,2)"])


def test_a_depth_limited_search_uses_evaluate_and_is_not_proved():
    game = load("connect_eval")
    assert game.has_evaluation
    result = game.solve(depth=2)
    assert not result.proved


# ---- the catalogue of checks --------------------------------------------------------------------

COUNTDOWN = GAMES["countdown"]
CATALOGUE = {
    "unexpected character '&'": COUNTDOWN.replace("when k <= n", "when k <= n && n > 0"),
    "'scor' is not defined": _of("plies", lambda b: "game typo" in b.text)[0].text,
    "'take' is already declared as a move at 9:1": COUNTDOWN + "\nmove take { n -= 1 }\n",
    "the game has no terminal test": COUNTDOWN.replace("terminal n == 0\n", ""),
    "a game has exactly two players, one max and one min":
        COUNTDOWN.replace("alice max, bob min", "alice max, bob max"),
    "the terminal test must be a bool, but this is an int":
        COUNTDOWN.replace("terminal n == 0", "terminal n"),
    "constant 'k' must have a value known before the game starts (parameters, constants and "
    "numbers only)": COUNTDOWN + "\nconst k = n\n",
    "the initial value 4 of 'n' is outside its range 0..3":
        _of("plies", lambda b: "game sloppy" in b.text)[0].text,
    "the probabilities of chance 'coin' add up to 5/6, not 1":
        _of("plies", lambda b: "game unfair" in b.text)[0].text,
    "'wins' takes 1 argument, not 2":
        GAMES["tictactoe"].replace("terminal wins(X)", "terminal wins(X, O)"),
    "parameter 'r' of move 'place' has no domain":
        GAMES["tictactoe"].replace("place(r, c) in cells(board)", "place(r, c in 0..2)"),
    "parameter k of move 'take' has an empty domain: move 'take' can never be played":
        COUNTDOWN.replace("k in 1..3", "k in 3..1"),
    "'f' uses itself: definitions cannot be recursive":
        COUNTDOWN + "\ndef f(x: int) = f(x - 1)\n",
    "local name 'n' hides the state variable 'n' declared at 7:3":
        COUNTDOWN.replace("k in 1..3) when k <= n", "k in 1..3) when k <= n + (let n = 1 in n)"),
    "cannot assign to constant 'most': only state variables change":
        COUNTDOWN.replace("  n -= k\n", "  n -= k\n  most = 2\n") + "\nconst most = 3\n",
    "parameter 'start' takes a whole number, not a bool (true)": (COUNTDOWN, {"start": True}),
    "a tree game is written out in its tree; it has no `move`":
        GAMES["fig5_2"] + "\nmove m { }\n",
    "grid[200, 200] of {O, X, empty} holds 40,000 values; a state holds at most 10,000":
        GAMES["tictactoe"].replace("grid[3, 3]", "grid[200, 200]"),
    "state variable 'moves_made' is never read":
        _of("plies", lambda b: "game lint" in b.text)[0].text,
    "move 'skip' can never be played: its precondition is always false":
        _of("plies", lambda b: "game lint" in b.text)[0].text,
    "`break` is only meaningful inside a `for` or `while` loop":
        COUNTDOWN.replace("  n -= k\n", "  n -= k\n  break\n"),
    "`again` decides who moves next, and `setup` only builds the starting position (the first "
    "player listed moves first)": COUNTDOWN + "\nsetup { again }\n",
    "a player and the symbol empty are never equal":
        GAMES["tictactoe"].replace("when board[r, c] == empty", "when turn != empty"),
    "test 't' checks nothing": COUNTDOWN + '\ntest "t" { }\n',
    "'turn' cannot be assigned: after a move the turn passes to the other player by itself":
        COUNTDOWN.replace("  n -= k\n", "  n -= k\n  turn = other(turn)\n"),
    "the utility is always 5, outside the bounds -1..1":
        COUNTDOWN.replace("utility if turn == bob then 1 else -1", "utility 5\nbounds -1..1"),
}


def _table_rows() -> list[tuple[str, str]]:
    section = TEXT.split("## 18. What the checker reports", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r'^\| `([a-z-]+)`[^|]*\|[^\n]*\| "([^"\n]+)" \|$', section, re.M)
    return rows


def test_the_checks_table_lists_every_code_the_examples_show():
    rows = _table_rows()
    assert len(rows) >= 20
    assert {code for code, _ in rows} >= {"syntax", "undefined-name", "type", "probability",
                                          "unused", "never-legal"}


@pytest.mark.parametrize("code, message", _table_rows(), ids=[m for _, m in _table_rows()])
def test_each_message_of_the_checks_table_is_what_the_checker_says(code, message):
    case = CATALOGUE[message]
    text, params = case if isinstance(case, tuple) else (case, {})
    try:
        diagnostics = validate_source(text, FILENAME, params or None)
    except Exception as error:  # pragma: no cover - shows the failure in the message
        pytest.fail(f"{message}: {error}")
    found = [(d.code, d.message) for d in diagnostics]
    assert (code, message) in found, found


# ---- syntax the prose shows inline --------------------------------------------------------------


def test_a_default_may_use_the_parameters_before_it():
    assert "`game g(n = 3, area = n * n)`" in TEXT
    text = COUNTDOWN.replace(" n", " pile").replace(
        "game countdown(start = 10)", "game g(n = 3, area = n * n)").replace(
        "0..start = start", "0..area = area")
    assert errors(validate_source(text, FILENAME)) == []
    assert load_source(text, FILENAME).params == {"n": 3, "area": 9}
    assert load_source(text, FILENAME, n=1).params == {"n": 1, "area": 1}


def test_the_group_form_and_separate_domains_list_the_same_moves():
    assert "`move place(r in 0..2, c in 0..2)` would list the same moves" in _squash(TEXT)
    game = load("tictactoe")
    separate = load_source(GAMES["tictactoe"].replace(
        "place(r, c) in cells(board)", "place(r in 0..2, c in 0..2)"), FILENAME)
    state = game.play_all(["place(1,1)"])
    assert game.actions(state) == separate.actions(separate.play_all(["place(1,1)"]))


def test_a_definition_without_parameters_may_be_called_with_empty_parentheses():
    assert "is used by its name (`full`, or `full()`)" in TEXT
    text = GAMES["tictactoe"].replace("or full\n", "or full()\n")
    assert text != GAMES["tictactoe"] and validate_source(text, FILENAME) == []


@pytest.mark.parametrize("expression", ["1 < 2 < 3", "1 + if true then 1 else 0",
                                        "(count h in indices(heap): heap[h] > 0) + count h in "
                                        "indices(heap): heap[h] > 0"])
def test_what_the_page_calls_a_syntax_error_is_one(expression):
    text = GAMES["shelf"] + f"\nevaluate {expression}\n"
    assert [d.code for d in errors(validate_source(text, FILENAME))] == ["syntax"]


RESERVED = ("turn true false not if let any all sum count min max for while break continue again "
            "chance").split()


def test_the_reserved_words_are_the_ones_listed():
    listed = re.search(r"cannot be used as names you refer to later: (.*?)\.\n\n", TEXT, re.S)
    assert listed and re.findall(r"`(\w+)`", listed.group(1)) == RESERVED


@pytest.mark.parametrize("word", RESERVED)
def test_reserved_words_cannot_name_a_variable(word):
    text = COUNTDOWN.replace(" n", f" {word}").replace("(n", f"({word}")
    assert errors(validate_source(text, FILENAME))


@pytest.mark.parametrize("word", ["first", "left", "state", "move"])
def test_other_keywords_can_name_a_variable(word):
    text = COUNTDOWN.replace(" n", f" {word}")
    assert text.count(word) >= 4
    assert validate_source(text, FILENAME) == []
