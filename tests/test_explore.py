"""validate --explore: games with planted rule bugs, each found exactly; shipped games clean.

Every file in tests/explore/ starts with what exploring it must find, in the order reported
(errors first, then by line), as pairs of lines:

    # explore: LINE:COLUMN SEVERITY CODE MESSAGE
    # moves: MOVES FROM THE START (`(start)` for none, `none` when no position shows it)

and optionally ``# options: max_states=8 playouts=1 seed=0`` for ``explore``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from plies.commands import explore as exploring
from plies.cli import app
from plies.commands.explore import explore, strongly_connected
from plies.game.loader import display_path, games_directory, load, load_source

CATALOGUE = Path(__file__).parent / "explore"
CASES = sorted(CATALOGUE.glob("*.game"))
EXPECT = re.compile(r"# explore: (\d+):(\d+) (error|warning) ([a-z-]+) (.+)")
KINDS = {"runtime", "no-moves", "utility-bounds", "estimate-bounds", "endless", "no-effect",
         "never-legal"}

runner = CliRunner()


def _expectations(text: str) -> tuple[list[tuple], dict]:
    lines = [line for line in text.splitlines() if line.startswith("# ")]
    expected, options = [], {}
    for line, following in zip(lines, lines[1:] + [""]):
        match = EXPECT.fullmatch(line)
        if match:
            assert following.startswith("# moves: "), f"`# moves:` must follow {line!r}"
            moves = following.removeprefix("# moves: ")
            moves = None if moves == "none" else () if moves == "(start)" else tuple(moves.split())
            line_no, column, severity, code, message = match.groups()
            expected.append((int(line_no), int(column), severity, code, message, moves))
        elif line.startswith("# options: "):
            options = {k: int(v) for k, v in
                       (item.split("=") for item in line.removeprefix("# options: ").split())}
    return expected, options


def _found(exploration) -> list[tuple]:
    return [(f.diagnostic.line, f.diagnostic.column, f.diagnostic.severity, f.diagnostic.code,
             f.diagnostic.message, f.moves) for f in exploration.findings]


def test_the_catalogue_has_a_dozen_games_and_every_kind():
    assert len(CASES) >= 12
    numbers = [int(path.name[:2]) for path in CASES]
    assert numbers == list(range(1, len(CASES) + 1))
    kinds = {code for path in CASES
             for (_, _, _, code, _, _) in _expectations(path.read_text(encoding="utf-8"))[0]}
    assert kinds == KINDS


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_each_planted_bug_is_found_with_its_line_and_moves(path):
    text = path.read_text(encoding="utf-8")
    expected, options = _expectations(text)
    assert expected, "the file says nothing about what exploring must find"
    model = load_source(text, path.name)
    assert _found(explore(model, **options)) == expected


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_each_planted_bug_passes_the_static_checks(path):
    """Exploring finds what validate without --explore cannot: these files validate."""
    result = runner.invoke(app, ["validate", str(path)])
    assert result.exit_code == 0, result.output


def test_the_moves_reach_the_failure():
    """The moves of a run-time error lead to it: playing all but the last works, the last fails."""
    path = CATALOGUE / "01_range_left_on_the_second_move.game"
    model = load(str(path))
    finding = explore(model).findings[0]
    model.play_all(list(finding.moves[:-1]))
    with pytest.raises(Exception, match="outside its range"):
        model.play_all(list(finding.moves))


# ---- the command line ---------------------------------------------------------------------------


def test_cli_reports_the_bug_with_its_moves_and_exits_1():
    path = CATALOGUE / "01_range_left_on_the_second_move.game"
    result = runner.invoke(app, ["validate", "--explore", str(path)])
    assert result.exit_code == 1
    path = display_path(path)
    assert result.output.splitlines() == [
        f"{path}:10:24: error: n would become -1, outside its range 0..3",
        "   10 | move take(k in 1..2) { n -= k }",
        "      |                        ^^^^^^",
        "  moves from the start: take(2) take(2)",
        f"{path}: 1 error, 0 warnings",
        "  explored 6 positions (2 terminal), every reachable position; longest game 3 moves",
    ]


def test_cli_exits_0_with_warnings_only():
    path = CATALOGUE / "13_wait_changes_nothing.game"
    result = runner.invoke(app, ["validate", "--explore", str(path)])
    assert result.exit_code == 0
    assert f"{display_path(path)}: 0 errors, 1 warning" in result.output


NO_EFFECT_REPEATS = ("is part of its effect missing? a position comes back through it, so the "
                     "game can go on forever")
NO_EFFECT_ENDS = ("is part of its effect missing? passing the turn is fine where that is the "
                  "rule: no position explored comes back through this move")


def _no_effect_hint(text: str, **options) -> str:
    findings = explore(load_source(text, "g.game"), **options).findings
    return next(f.diagnostic.hint for f in findings if f.diagnostic.code == "no-effect")


def test_a_no_effect_hint_says_forever_only_where_a_position_comes_back_through_the_move():
    # 13's `wait` hands the turn to B, who must take: no position repeats, and the hint said
    # the move lets the game go on forever; 10's `pass` does give back the start
    assert _no_effect_hint((CATALOGUE / "13_wait_changes_nothing.game").read_text()) == \
        NO_EFFECT_ENDS
    passing = (CATALOGUE / "10_pass_repeats_the_position.game").read_text()
    assert _no_effect_hint(passing) == NO_EFFECT_REPEATS
    # the same when endless play is declared (no endless error), and when only random games,
    # past a walk stopped at one position, come back through it
    assert _no_effect_hint(passing.replace("utility", "endless 0\nutility")) == \
        NO_EFFECT_REPEATS
    assert _no_effect_hint(passing, max_states=1, playouts=20) == NO_EFFECT_REPEATS
    # a move that changes nothing at all (the same player again) gives back its position
    again = (CATALOGUE / "13_wait_changes_nothing.game").read_text().replace(
        "move wait when turn == A { }", "move wait when turn == A { again }")
    assert _no_effect_hint(again) == NO_EFFECT_REPEATS


def test_the_reroll_example_standing_on_a_throw_is_not_said_to_go_on_forever():
    page = (Path(__file__).resolve().parent.parent / "docs" / "language.md").read_text()
    reroll = page.split("```plies id=reroll\n", 1)[1].split("```", 1)[0]
    exploration = explore(load_source(reroll, "reroll.game"))
    assert exploration.exhaustive and not exploration.repeats
    assert [(f.diagnostic.message, f.diagnostic.hint, f.moves) for f in exploration.findings] \
        == [("move 'stand' changes nothing but the turn", NO_EFFECT_ENDS,
             ("throw", "die(1)", "stand"))]


def test_cli_json_gives_each_diagnostic_its_moves_and_the_summary():
    path = CATALOGUE / "10_pass_repeats_the_position.game"
    result = runner.invoke(app, ["validate", "--explore", "--json", str(path)])
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert [(d["code"], d["line"], d["moves"]) for d in data["diagnostics"]] == [
        ("endless", 13, ["pass", "pass"]), ("no-effect", 13, ["pass"])]
    assert data["explored"] == [{"file": display_path(path), "positions": 8, "terminal": 2,
                                 "longest_game": None, "repeats": True, "exhaustive": True,
                                 "stopped_by": None, "playouts": 0, "seed": 0}]


def test_cli_json_without_explore_is_unchanged():
    result = runner.invoke(app, ["validate", "--json", "tictactoe"])
    assert result.exit_code == 0
    assert json.loads(result.stdout) == []


def test_cli_says_when_the_walk_stopped_and_plays_random_games():
    result = runner.invoke(app, ["validate", "--explore", "connect4", "--max-states", "50",
                                 "--playouts", "3", "--seed", "7"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[-1].startswith("  explored 50 positions (0 terminal), not all: stopped at "
                                "--max-states; longest game ")
    assert lines[-1].endswith("; 3 random games (seed 7)")


def test_cli_does_not_explore_a_file_with_errors(tmp_path):
    game = tmp_path / "bad.game"
    game.write_text("game bad\nplayers A max, B min\nstate\n  n: int = 0\nmove m { n += 1 }\n"
                    "terminal n == true\nutility n\n")
    result = runner.invoke(app, ["validate", "--explore", str(game)])
    assert result.exit_code == 1
    assert "explored" not in result.output


def test_cli_refuses_a_max_states_below_1():
    result = runner.invoke(app, ["validate", "--explore", "--max-states", "0", "nim"])
    assert result.exit_code == 2


# ---- shipped games ------------------------------------------------------------------------------

LARGE = {"connect4": 5_000, "gomoku": 500, "othello": 5_000, "race": 5_000}
"""Shipped games whose state space is too large to walk in a test, with the positions walked.
Every other shipped game must be walked exhaustively within EXHAUSTIVE_LIMIT positions."""
EXHAUSTIVE_LIMIT = 50_000
SHIPPED = sorted(p.stem for p in games_directory().glob("*.game"))


@pytest.mark.parametrize("name", SHIPPED)
def test_every_shipped_game_explores_clean(name):
    exploration = explore(load(name), max_states=LARGE.get(name, EXHAUSTIVE_LIMIT), playouts=20)
    assert [f.render(None) for f in exploration.findings] == []
    if name not in LARGE:
        assert exploration.exhaustive, f"{name}: add it to LARGE with the positions to walk"


def test_tictactoe_counts_are_the_known_ones():
    exploration = explore(load("tictactoe"))
    assert (exploration.positions, exploration.terminal) == (5_478, 958)
    assert exploration.longest_game == 9
    assert exploration.exhaustive and exploration.playouts == 0


def test_the_longest_nim_game_takes_one_object_at_a_time():
    assert explore(load("nim", heaps=(1, 2, 3))).longest_game == 6


def test_a_game_that_says_what_endless_play_is_worth_may_cycle():
    model = load(str(CATALOGUE / "11_back_and_forth.game"))
    model.endless_value = 0
    exploration = explore(model)
    assert exploration.findings == []
    assert exploration.repeats and exploration.longest_game is None
    assert exploration.summary().endswith("positions repeat, so a game may never end")


def test_positions_repeating_only_in_random_games_count_as_repeats():
    model = load(str(CATALOGUE / "11_back_and_forth.game"))
    model.endless_value = 0
    exploration = explore(model, max_states=1, playouts=5)
    assert exploration.repeats and exploration.findings == []


def test_random_games_are_the_same_for_the_same_seed():
    model = load("connect4")
    first = explore(model, max_states=20, playouts=5, seed=3)
    again = explore(model, max_states=20, playouts=5, seed=3)
    assert first.longest_game == again.longest_game
    assert first.findings == again.findings


def test_the_edge_budget_bounds_the_walk(monkeypatch):
    monkeypatch.setattr(exploring, "MAX_EDGES", 100)
    exploration = explore(load("tictactoe"), playouts=10)
    assert not exploration.exhaustive and exploration.stopped_by == "memory"
    assert exploration.positions < 100
    assert exploration.findings == []
    assert "filled the memory budget" in exploration.summary()


# ---- cycles: Tarjan against reachability --------------------------------------------------------


def _graph(edges: list[list[int]]):
    from array import array
    first, targets = array("i", [0]), array("i")
    for children in edges:
        targets.extend(children)
        first.append(len(targets))
    return first, targets


def _reaches(edges, start, goal) -> bool:
    seen, todo = set(), list(edges[start])
    while todo:
        node = todo.pop()
        if node == goal:
            return True
        if node >= 0 and node not in seen:
            seen.add(node)
            todo.extend(edges[node])
    return False


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 12).flatmap(lambda n: st.lists(
    st.lists(st.integers(-1, n - 1), max_size=4), min_size=n, max_size=n)))
def test_a_node_is_on_a_cycle_exactly_when_it_reaches_itself(edges):
    on_cycle, order, _ = strongly_connected(*_graph(edges))
    assert [bool(b) for b in on_cycle] == [_reaches(edges, i, i) for i in range(len(edges))]
    if not any(on_cycle):  # a topological order: every edge goes forward
        position = {node: i for i, node in enumerate(order)}
        assert sorted(order) == list(range(len(edges)))
        assert all(position[a] < position[b] for a, children in enumerate(edges)
                   for b in children if b >= 0)


def test_the_capture_in_the_commands_page_is_what_plies_prints(tmp_path, monkeypatch):
    page = (Path(__file__).resolve().parent.parent / "docs" / "commands.md").read_text()
    capture = page.split("$ plies validate --explore corridor.game\n", 1)[1].split("```", 1)[0]
    (tmp_path / "corridor.game").write_text(
        (CATALOGUE / "11_back_and_forth.game").read_text(encoding="utf-8"))
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["validate", "--explore", "corridor.game"])
    assert result.output == capture


def test_a_cycle_seen_only_in_a_random_game_is_reported_with_its_moves():
    model = load(str(CATALOGUE / "11_back_and_forth.game"))
    exploration = explore(model, max_states=1, playouts=1)
    assert [(f.diagnostic.code, f.moves) for f in exploration.findings] == [
        ("endless", ("right", "left"))]


def test_ctrl_c_stops_the_walk_and_keeps_what_it_found():
    model = load("tictactoe")
    successors, calls = model.successors, []

    def interrupted(state):
        calls.append(state)
        if len(calls) == 100:
            raise KeyboardInterrupt
        return successors(state)

    model.successors = interrupted
    exploration = explore(model)
    assert exploration.stopped_by == "interrupted" and not exploration.exhaustive
    assert exploration.positions == 99 and exploration.playouts == 0
    assert exploration.findings == []
    assert "not all: interrupted" in exploration.summary()
