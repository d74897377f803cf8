"""Shipped games with an operator or two changed, solved strongly every way: a fuzzer's corpus.

A strong solution is found four ways: in memory (``solve --strong``), into SQLite (``--db
FILE.db``), and tier by tier into a solution directory with the Python and the C workers
(``--db DIR``, two worker processes). Changed games (tests/native/corpus.py's
``swap_operators``) mostly break their rules somewhere or end up with positions that repeat,
a position without moves or values a directory cannot hold, so they test what each way says
as much as what it proves. A fuzzer running 400 of them (and the queries below) found that a
solve by tiers reported a failing rule and a position without moves without the rule's line
(tests/test_cli_faults.py) and a value a directory cannot hold without its position
(tests/analysis/test_solution_directory_cli.py). Here:

- where one way proves a value, every way proves the same value and remoteness, the two
  directories hold the same bytes, and the positions read back from each store (``query``)
  are what ``analyze`` says of them;
- where one way fails, every way fails with the same report: the same message at the same
  line after the same moves.
"""

from __future__ import annotations

import json
import random

import pytest
from typer.testing import CliRunner

from plies.cli import app
from plies.game.loader import load_source
from tests.native.corpus import GAMES, refused_by_the_checker, swap_operators

runner = CliRunner()

SMALL = {"connect4": {"width": 4, "height": 3}, "dots_and_boxes": {"rows": 1, "cols": 2},
         "gomoku": {"width": 3, "height": 3, "k": 3}, "hex": {"size": 2},
         "kalah": {"pits": 2, "seeds": 2}, "morris3": {}, "nim": {"heaps": [2, 2, 3]},
         "othello": {"size": 4}, "subtraction": {"heap": 12}, "tictactoe": {}}
"""The shipped games a solution directory holds (no chance, not an explicit tree), small."""
CASES = 3
"""Changed games per shipped game."""
POSITIONS = 30_000


def cli(*args: str) -> tuple[int, dict]:
    result = runner.invoke(app, [*args, "--json"])
    assert "Traceback" not in result.output
    assert result.exit_code in (0, 1), result.output
    return result.exit_code, json.loads(result.stdout)


def report(answer: dict) -> tuple:
    """A failure as the user reads it: its kind, message, place and moves."""
    return (answer["error"], answer["message"],
            [(d["code"], d["line"], d["column"], d["message"]) for d in answer["diagnostics"]],
            answer["moves"])


def moves_of(answer: dict) -> list:
    return sorted((m["move"], m["value_exact"], m["remoteness"]) for m in answer["moves"])


@pytest.mark.timeout(300)  # a hang guard: each case takes a few seconds
@pytest.mark.parametrize(("name", "case"), [(name, case) for name in sorted(SMALL)
                                            for case in range(CASES)])
def test_a_changed_game_is_solved_alike_every_way(tmp_path, name, case):
    text = swap_operators((GAMES / f"{name}.game").read_text(encoding="utf-8"),
                          random.Random(f"strong-{name}-{case}"))
    if refused_by_the_checker(text, name):
        return
    game = tmp_path / f"{name}.game"
    game.write_text(text, encoding="utf-8")
    params = [f"--param={k}={json.dumps(v, separators=(',', ':'))}"
              for k, v in SMALL[name].items()]
    limit = ["--max-nodes", str(POSITIONS)]
    ways = {"memory": [], "sqlite": ["--db", str(tmp_path / "x.db")],
            "python": ["--db", str(tmp_path / "python"), "--workers", "2", "--backend", "python"],
            "native": ["--db", str(tmp_path / "native"), "--workers", "2", "--backend", "native"]}
    answers = {way: cli("solve", str(game), *params, "--strong", *limit, *extra)
               for way, extra in ways.items()}
    codes = {way: code for way, (code, _) in answers.items()}
    memory_code, memory = answers["memory"]
    if memory_code == 1 and "positions; --max-nodes N allows more" in memory["message"]:
        return  # a directory keeps one position of each class of images: it may fit
    assert len(set(codes.values())) == 1, (codes, answers)
    if memory_code == 1:
        reports = {way: report(answer) for way, (_, answer) in answers.items()}
        assert len(set(map(repr, reports.values()))) == 1, reports
        return
    for way, (_, answer) in answers.items():
        assert (answer["value"], answer["remoteness"]) == (memory["value"], memory["remoteness"]), way
    for path in (tmp_path / "python").iterdir():
        if path.name != "solution.json":
            assert path.read_bytes() == (tmp_path / "native" / path.name).read_bytes(), path.name
    model = load_source(text, str(game), **SMALL[name])
    rng = random.Random(f"strong-{name}-{case}-positions")
    for _ in range(2):
        state, played = model.initial_state(), []
        for _ in range(rng.randint(0, 6)):
            if model.is_terminal(state):
                break
            move = rng.choice(list(model.actions(state)))
            played, state = played + [str(move)], model.result(state, move)
        at = ["--from", " ".join(played)] if played else []
        _, analysed = cli("analyze", str(game), *params, *at)
        for store in ("x.db", "python", "native"):
            _, stored = cli("query", str(tmp_path / store), *at)
            assert (stored["value_exact"], stored["remoteness"], moves_of(stored)) == \
                (analysed["value_exact"], analysed["remoteness"], moves_of(analysed)), store
