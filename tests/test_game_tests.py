"""The `test` blocks of game files: every shipped game's tests pass, and plies test reports as
pytest does — failures with what was expected, what was found and the line; errors when a test
cannot run; exit codes."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from plies.cli import app
from plies.frontend import ast
from plies.commands.testing import run_source, run_test, rule_tests

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = sorted((ROOT / "games").glob("*.game"))
DOCS = (ROOT / "docs" / "language.md").read_text(encoding="utf-8")


def _shipped_tests() -> list[tuple[Path, str]]:
    found = []
    for path in SHIPPED:
        for test in rule_tests(path.read_text(encoding="utf-8"), f"games/{path.name}"):
            found.append((path, test.decl.name))
    return found


SHIPPED_TESTS = _shipped_tests()
MODELS: dict = {}  # games loaded per file and parameters, shared by the parametrized tests


@pytest.mark.parametrize(("path", "name"), SHIPPED_TESTS,
                         ids=[f"{p.stem}: {n}" for p, n in SHIPPED_TESTS])
def test_every_shipped_game_passes_its_tests(path, name):
    source = path.read_text(encoding="utf-8")
    shown = f"games/{path.name}"
    [test] = [t for t in rule_tests(source, shown) if t.decl.name == name]
    outcome = run_test(test, source, shown, MODELS.setdefault(path, {}))
    assert outcome.passed, "\n".join(p.render(source) for p in outcome.problems)


def test_every_shipped_game_carries_tests_with_values_from_evidence():
    for path in SHIPPED:
        tests = rule_tests(path.read_text(encoding="utf-8"), path.name)
        checks = [type(c) for t in tests for c in t.decl.checks]
        assert tests, f"{path.name} has no test"
        assert {ast.ValueCheck, ast.PerftCheck} & set(checks), \
            f"{path.name}: no value or perft check"
        text = path.read_text(encoding="utf-8")
        assert re.search(r"^# Tests: ", text, re.M), f"{path.name}: say where the values are from"


def test_plies_test_passes_on_every_shipped_game():
    result = CliRunner().invoke(app, ["test", *map(str, SHIPPED)])
    assert result.exit_code == 0, result.output
    assert re.fullmatch(rf"\n{len(SHIPPED_TESTS)} passed in [0-9.]+ s",
                        result.stdout.split("\n", len(SHIPPED))[-1].rstrip("\n"))


# ---- reporting ---------------------------------------------------------------------------------

GAME = """game countdown(start = 10)

players alice max, bob min

state
  n: 0..start = start

move take(k in 1..3) when k <= n { n -= k }

terminal n == 0
utility if turn == bob then 1 else -1
"""


def _run(tmp_path, tests: str, *args: str):
    path = tmp_path / "c.game"
    path.write_text(GAME + "\n" + tests, encoding="utf-8")
    result = CliRunner().invoke(app, ["test", *args, str(path)])
    return result, str(path)


def _without_time(text: str) -> str:
    return re.sub(r" in [0-9.]+ s$", " in T s", text.rstrip("\n"))


def test_a_passing_file_gets_a_dot_per_test(tmp_path):
    result, path = _run(tmp_path, 'test "a" { moves 3  perft 2 = 9 }\n'
                                  'test "b" with start = 8 { value -1 }\n')
    assert result.exit_code == 0
    assert _without_time(result.stdout) == f"{path} ..\n\n2 passed in T s"


def test_a_failure_shows_expected_found_and_the_line(tmp_path):
    result, path = _run(tmp_path, 'test "a" { moves 3 }\n'
                                  'test "b" after take(3) {\n  moves take(1) take(2)\n'
                                  '  terminal true\n}\n')
    assert result.exit_code == 1
    assert _without_time(result.stdout) == f"""{path} .F

___ {path}: test "b" ___
{path}:15:3: error: moves: expected take(1) take(2), found take(1) take(2) take(3)
   15 |   moves take(1) take(2)
      |   ^^^^^^^^^^^^^^^^^^^^^
{path}:16:3: error: terminal: expected true, found false
   16 |   terminal true
      |   ^^^^^^^^^^^^^

1 failed, 1 passed in T s"""


def test_each_kind_of_check_can_fail(tmp_path):
    checks = {"moves 4": "moves: expected 4, found 3",
              "terminal true": "terminal: expected true, found false",
              "utility 1": "utility: expected 1, but the position is not terminal",
              "perft 2 = 10": "perft 2: expected 10, found 9",
              "value -1": "value: expected -1, found 1"}
    for check, message in checks.items():
        result, path = _run(tmp_path, f'test "t" {{ {check} }}\n')
        assert result.exit_code == 1
        assert f"{path}:13:12: error: {message}\n" in result.stdout


def test_verbose_gives_a_line_per_test(tmp_path):
    result, path = _run(tmp_path, 'test "a" { moves 3 }\ntest "b" { moves 2 }\n', "-v")
    assert result.stdout.startswith(f'{path}:13: test "a" PASSED\n{path}:14: test "b" FAILED\n')


def test_a_move_that_is_not_legal_is_an_error_at_its_place(tmp_path):
    result, path = _run(tmp_path, 'test "a" after take(3) take(3) take(3) take(3) { moves 1 }\n')
    assert result.exit_code == 1
    assert f"{path} E\n" in result.stdout
    assert (f"{path}:13:40: error: 'take(3)' is not legal after take(3) take(3) take(3); the "
            "legal moves are: take(1)\n") in result.stdout
    assert _without_time(result.stdout).endswith("\n1 error in T s")


def test_a_rule_that_fails_is_an_error_at_the_rule_with_the_moves(tmp_path):
    path = tmp_path / "c.game"
    path.write_text(GAME.replace("when k <= n ", "") + '\ntest "a" after take(3) take(3) take(3) '
                    'take(3) { moves 1 }\n', encoding="utf-8")
    result = CliRunner().invoke(app, ["test", str(path)])
    assert result.exit_code == 1
    assert f"{path}:8:24: error: n would become -2, outside its range 0..10" in result.stdout
    assert "  hint: moves from the start: take(3) take(3) take(3) take(3)" in result.stdout


def test_a_count_past_the_budget_is_an_error_not_a_hang(tmp_path):
    result, path = _run(tmp_path, 'test "a" { perft 9 = 1 }\ntest "b" { value 1 }\n',
                        "--max-nodes", "20")
    assert result.exit_code == 1
    assert (f"{path}:13:12: error: perft 9 would count more than 20 positions (there are 27 "
            "at depth 3)\n") in result.stdout
    assert f"{path}:14:12: error: value: the search stopped after" in result.stdout
    assert _without_time(result.stdout).endswith("\n2 errors in T s")


def test_parameters_that_break_the_game_are_an_error_of_the_test(tmp_path):
    result, path = _run(tmp_path, 'test "a" with start = -1 { moves 0 }\n')
    assert result.exit_code == 1
    assert f"{path}:13:1: error: with these parameters the game does not check: " \
           in result.stdout


def test_a_file_without_tests_runs_none_and_fails(tmp_path):
    result, path = _run(tmp_path, "")
    assert result.exit_code == 1
    assert _without_time(result.stdout) == "\nno tests ran in T s"


def test_a_file_with_errors_is_reported_as_validate_does(tmp_path):
    result, path = _run(tmp_path, 'test "a" after tkae(1) { moves 2 }\n')
    assert result.exit_code == 1
    assert result.stderr.startswith(f"{path}:13:16: error: 'tkae' is not a move or chance "
                                    "outcome of this game\n")
    assert _without_time(result.stdout) == "\n1 error in T s"


def test_shipped_games_are_found_by_name():
    result = CliRunner().invoke(app, ["test", "nim", "seed_tree"])
    assert result.exit_code == 0
    assert result.stdout.startswith("games/nim.game .....\ngames/seed_tree.game ..\n")


def test_a_missing_game_is_a_usage_error():
    result = CliRunner().invoke(app, ["test", "no_such_game"])
    assert result.exit_code == 2
    assert result.stderr.startswith("error: no game file 'no_such_game'")


# ---- docs/language.md, section 22 --------------------------------------------------------------


def _docs_game() -> str:
    return re.search(r"```plies id=countdown_tested\n(.*?)```", DOCS, re.S).group(1)


def _docs_outputs() -> list[str]:
    return re.findall(r"```\n(\$ plies test countdown_tested\.game\n.*?)```", DOCS, re.S)


def test_the_example_of_the_language_page_passes_and_prints_what_the_page_shows(
        tmp_path, monkeypatch):
    passing, failing = _docs_outputs()
    game = _docs_game()
    monkeypatch.chdir(tmp_path)
    for text, output in ((game, passing),
                         (game.replace("  value -1\n}", "  value 1\n}"), failing)):
        assert len(run_source(text, "countdown_tested.game").tests) == 4
        Path("countdown_tested.game").write_text(text, encoding="utf-8")
        result = CliRunner().invoke(app, ["test", "countdown_tested.game"])
        assert _without_time(result.stdout) == _without_time(output.split("\n", 1)[1])


def _random_game_with_a_test(seed: int, tmp_path: Path) -> tuple[Path, bool] | None:
    """A random game (tests/random_games.py) with a `test` block after a random line, written
    from what the game's model, `plies perft --json` and `plies solve --json` say there; True
    where a rule fails on the line or where its moves are listed (the block then checks `moves
    0` and `terminal false`, which the failing rule keeps from being settled). None where
    the game is refused or its start fails."""
    import json
    import random
    from fractions import Fraction

    from plies.frontend.runtime import GameFault
    from plies.game.loader import load_source
    from plies.solvers.protocol import CHANCE
    from random_games import generate

    chooser = random.Random(seed)
    text = generate(seed, symmetric=chooser.random() < 0.2, setup=chooser.random() < 0.3)
    path = tmp_path / "g.game"

    def number(value) -> str:
        value = Fraction(value)
        return f"{value.numerator}" + (f"/{value.denominator}" if value.denominator > 1 else "")

    def listed(state) -> list:
        if model.to_move(state) == CHANCE:
            return [outcome for outcome, _ in model.chance_outcomes(state)]
        return list(model.actions(state))

    try:
        model = load_source(text)
        state = model.initial_state()
    except Exception:  # noqa: BLE001 - a game the checker refuses, or whose setup fails
        return None
    line, checks, failing = [], [], False
    try:
        for _ in range(chooser.randint(0, 4)):
            if model.is_terminal(state) or not listed(state):
                break
            line.append(chooser.choice(listed(state)))
            state = model.result(state, line[-1])
        over = model.is_terminal(state)
        moves = [] if over else [str(move) for move in listed(state)]
        checks += [f"moves {' '.join(moves) if moves else 0}",
                   f"terminal {'true' if over else 'false'}"]
        if over:
            checks.append(f"utility {number(model.utility(state))}")
    except GameFault:  # a rule failing on the line: plies test must say where
        checks, failing = ["moves 0", "terminal false"], True
    path.write_text(text, encoding="utf-8")
    line = [str(move) for move in line]
    start = ["--from", " ".join(line)] if line else []
    if not failing and not model.is_terminal(state):
        depth = chooser.randint(1, 3)
        done = CliRunner().invoke(app, ["perft", str(path), "--depth", str(depth), "--json",
                                        *start])
        if done.exit_code == 0:
            checks.append(f"perft {depth} = {json.loads(done.output)['counts'][depth]}")
    done = CliRunner().invoke(app, ["solve", str(path), "--json", *start])
    if not failing and done.exit_code == 0:
        checks.append(f"value {number(Fraction(json.loads(done.output)['value']))}")
    chooser.shuffle(checks)
    after = f" after {' '.join(line)}" if line else ""
    path.write_text(text + f'\ntest "written"{after} {{\n  ' + "\n  ".join(checks) + "\n}\n",
                    encoding="utf-8")
    return path, failing


@pytest.mark.timeout(120)
@pytest.mark.parametrize("seed", range(24))
def test_random_games_pass_tests_written_from_their_model_perft_and_solve(seed, tmp_path):
    made = _random_game_with_a_test(seed, tmp_path)
    if made is None:
        return
    path, failing = made
    runner = CliRunner()
    done = runner.invoke(app, ["test", str(path)])
    if failing:  # an error at the failing rule's line, with the moves to it
        assert done.exit_code == 1 and "Traceback" not in done.output
        assert re.search(r"g\.game:\d+:\d+: error: ", done.output), done.output
        return
    assert done.exit_code == 0, done.output
    # fmt keeps the test, and it still passes
    assert runner.invoke(app, ["fmt", str(path)]).exit_code == 0
    assert "test \"written\"" in path.read_text(encoding="utf-8")
    done = runner.invoke(app, ["test", str(path)])
    assert done.exit_code == 0, done.output
