"""Guard facts (plies/frontend/facts.py): a move's precondition narrows what its effect reads,
until the effect writes it, and the lowering leaves out the checks the narrowed intervals prove.
Every check a write in between, a loop's later round or another index could still need stays."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import plies
from plies.backends.native.emit import emit
from plies.backends.native.engine import NativeGame
from plies.backends.python.compiler import generate
from plies.errors import GameRuntimeError, PliesError
from plies.frontend import facts
from plies.game.loader import check_source, load_source
from plies.game.model import GameModel
from plies.lowering import ir, lower

from tests.lowering.test_specialisation import nodes
from tests.lowering.test_unrolling import statements


def checks(stmts) -> list[str]:
    """The run-time checks the statements make, in order: 'range' for a store checked against
    its variable's range, 'index' for an index checked against its array's size."""
    found = []
    for stmt in statements(stmts):
        if isinstance(stmt, ir.Store) and stmt.lo is not None:
            found.append("range")
        found.extend("index" for node in nodes(stmt) if isinstance(node, ir.CheckIndex))
    return found


def effects(source: str) -> list:
    model = load_source(source, "g.game")
    return [case.effect for move in lower(model.checked).moves for case in move.cases]


HEADER = """game g
players A max, B min
state
  n: 0..9 = 9
  marks: array[3] of 0..9 = 0
"""
FOOTER = """terminal n == 0
utility marks[0] - marks[1]
"""


def test_connect_four_drops_a_disc_without_a_check():
    model = plies.load("connect4")
    for case in lower(model.checked).moves[0].cases:
        assert checks(case.effect) == [], case.args
    source = emit(lower(model.checked))
    effects_c = source[source.index("static int expand("):source.index("static int chance_expand(")]
    assert "check_index" not in effects_c and "check_range" not in effects_c
    assert "p_sub" not in effects_c and "p_add" not in effects_c
    # its prefer, -threats(...) for yellow, cannot overflow or fail: no path kept for it
    prefer = source[source.index("static int64_t prefer_of("):source.index("static int expand(")]
    assert "p_neg" not in prefer and "#define PREFER_FAILS 0\n" in source


@pytest.mark.parametrize("guard", ["marks[i] < 9", "9 > marks[i]", "marks[i] <= 8",
                                   "marks[i] == 3", "n > 0 and marks[i] < 9"])
def test_a_guarded_update_needs_no_range_check(guard):
    source = HEADER + f"move up(i in 0..2) when {guard} {{\n  marks[i] += 1\n  n -= 1\n}}\n"
    # marks[i] += 1 is proved in range; n -= 1 only where the guard says n > 0
    expected = [] if "n > 0" in guard else ["range"]
    for effect in effects(source + FOOTER):
        assert checks(effect) == expected


def test_a_write_in_between_keeps_the_check():
    source = HEADER + "move up(i in 0..2) when marks[i] < 9 {\n  marks[i] += 1\n" \
                      "  marks[i] += 1\n}\n" + FOOTER
    for effect in effects(source):
        assert checks(effect) == ["range"]  # the second update: marks[i] may be 9 by then
    model = load_source(source, "g.game")
    assert model.play_all(["up(0)"] * 4)[2] == 8
    for run in (model.play_all, lambda moves: NativeGame(model).solve("auto")):
        with pytest.raises(GameRuntimeError, match="marks would become 10") as failed:
            run(["up(0)"] * 5)  # 8 < 9 allows the move, and its second update fails
        assert "g.game:8:3" in str(failed.value)


def test_a_write_to_another_index_forgets_the_fact():
    source = HEADER + "move up(i in 0..2, j in 0..2) when marks[i] < 9 {\n  marks[j] += 1\n" \
                      "  marks[i] += 1\n}\n" + FOOTER
    for effect in effects(source):
        assert checks(effect) == ["range", "range"]  # j may be i


def test_a_loop_forgets_what_its_body_writes_before_its_first_round():
    source = HEADER.replace("n: 0..9 = 9", "n: 0..9 = 1") \
        + "move down when n > 0 {\n  let k = 0\n  while k < 3 {\n    n -= 1\n    k += 1\n" \
          "  }\n}\n" + FOOTER
    for effect in effects(source):
        assert "range" in checks(effect)  # n > 0 holds in the first round only
    with pytest.raises(GameRuntimeError, match="n would become -1"):
        load_source(source, "g.game").play_all(["down"])


def test_a_name_bound_again_forgets_the_facts_on_it():
    source = HEADER + "move up(i in 0..2) when marks[i] < 9 {\n  for i in 0..1 {\n" \
                      "    marks[i] += 1\n  }\n}\n" + FOOTER
    model = load_source(source, "g.game")
    for effect in effects(source):
        assert checks(effect).count("range") == 2  # marks[0] and marks[1], whatever i was
    assert model.play_all(["up(2)"])[2:5] == (1, 1, 0)


# ---- the facts change no behaviour: random games, with facts and without ----

READS = ["a[i]", "a[0]", "a[2]", "x"]
TARGETS = ["a[i]", "a[0]", "x"]


@st.composite
def comparisons(draw, read=None):
    read = read or draw(st.sampled_from(READS))
    op, bound = draw(st.sampled_from([("<", "4"), ("<=", "3"), (">", "0"), (">=", "1"),
                                      ("==", "2"), ("<", "x"), (">=", "a[1]")]))
    return f"{read} {op} {bound}"


@st.composite
def statements_text(draw, focus, depth=0):
    kinds = ["update", "update", "update", "assign"] + (["if", "while", "for"] if depth == 0
                                                         else [])
    kind = draw(st.sampled_from(kinds))
    target = draw(st.sampled_from([focus, focus] + TARGETS))
    if kind == "update":
        op, step = draw(st.sampled_from(["+=", "-="])), draw(st.sampled_from(["1", "2"]))
        return f"{target} {op} {step}"
    if kind == "assign":
        return f"{target} = {draw(st.sampled_from(['x', 'a[i]', '3']))}"
    inner = draw(statements_text(focus, depth + 1))
    if kind == "if":
        return f"if {draw(comparisons())} {{\n    {inner}\n  }}"
    if kind == "while":
        return f"let k = 0\n  while k < 2 {{\n    {inner}\n    k += 1\n  }}"
    return f"for j in 0..1 {{\n    a[j] += 1\n    {inner}\n  }}"


@st.composite
def games(draw):
    """Moves guarded by comparisons of what their effects update (a[i], a[0], x in 0..4)."""
    moves = []
    for m in range(draw(st.integers(1, 3))):
        focus = draw(st.sampled_from(TARGETS))
        guard = " and ".join([draw(comparisons(focus))]
                             + [draw(comparisons()) for _ in range(draw(st.integers(0, 1)))])
        body = "\n  ".join(draw(statements_text(focus)) for _ in range(draw(st.integers(1, 3))))
        moves.append(f"move m{m}(i in 0..2) when {guard} {{\n  {body}\n}}")
    return ("game g\nplayers A max, B min\nstate\n  a: array[3] of 0..4 = 2\n  x: 0..4 = 2\n"
            + "\n".join(moves) + "\nterminal x == 4 and a[0] == 4 and a[1] == 4\nutility 0\n")


def compiled(source: str) -> GameModel:
    """The game checked and compiled now (never read back from the game cache)."""
    checked = check_source(source, "g.game")
    return GameModel(checked, generate(checked))


def steps(model, choices):
    """What a playout makes of ``choices`` (indices into the legal moves): each step's legal
    moves, successors and child, or the failure that stopped it."""
    seen, state = [], model.initial_state()
    for choice in choices:
        try:
            if model.is_terminal(state):
                break
            legal = list(model.actions(state))
            if not legal:
                break
            pairs = model.successors(state)
            child = model.result(state, legal[choice % len(legal)])
        except Exception as error:  # noqa: BLE001 - a failing check: both must fail alike
            seen.append(("fails", type(error).__name__, str(error)))
            break
        seen.append(([str(m) for m in legal], [(str(m), c) for m, c in pairs], child))
        state = child
    return seen


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games(), st.lists(st.integers(0, 8), min_size=1, max_size=20))
def test_guard_facts_change_no_step_of_a_random_game(source, choices):
    try:
        with_facts = compiled(source)
    except PliesError:
        return  # a game the checker refuses (a move that can never be legal is only a warning)
    original = facts.learn
    facts.learn = lambda checker, test, scope: None
    try:
        without = compiled(source)
    finally:
        facts.learn = original
    assert steps(with_facts, choices) == steps(without, choices)
    for step in steps(with_facts, choices):  # and every state reached keeps its ranges
        if step[0] != "fails":
            assert all(0 <= v <= 4 for v in step[2][1:])
