"""A definition called with some arguments known is specialised to them: one function per
tuple of known values, taking only the others, its body folded with the known ones written in
(within a budget, past which the generic function is called). It changes no answer."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import plies
from plies.game.loader import load_source
from plies.lowering import expressions, ir, lower

GAMES = sorted(path.stem for path in (Path(__file__).parents[2] / "games").glob("*.game"))


def nodes(node):
    """Every IR node below ``node``."""
    stack = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, ir.Node):
            yield current
            stack.extend(current.__dict__[name] for name in current._compared)
        elif isinstance(current, tuple):
            stack.extend(current)


def functions(game: ir.Game) -> dict[str, ir.Function]:
    return {function.name: function for function in game.functions}


def test_othello_legal_is_one_folded_function_per_cell():
    othello = functions(lower(plies.load("othello").checked))
    # legal(turn, r, c) for the 16 cells: a function of the player alone
    legal = [othello[f"legal.s{k}"] for k in range(1, 17)]
    assert all(function.params == ("p",) for function in legal)
    for function in legal:  # inside() folded, every cell a fixed slot: nothing checked
        assert not any(isinstance(n, (ir.CheckIndex, ir.Invoke)) for n in nodes(function.body))
        assert all(isinstance(n.index, ir.Const) for n in nodes(function.body)
                   if isinstance(n, ir.Slot))
    # the corner (0, 0) looks right, down and along the diagonal only: flanks() towards the
    # edges folded to false and vanished
    corner = {n.index.value for n in nodes(legal[0].body) if isinstance(n, ir.Slot)}
    assert corner == {1, 2, 3, 4, 5, 9, 13, 6, 11, 16}
    # the effect for any (r, c) unrolls its loops over dr and dc: flanks(turn, r, c, dr, dc)
    # is specialised to each direction alone, and there the cells are checked
    directions = [f for name, f in othello.items()
                  if name.startswith("flanks.") and f.params == ("p", "r", "c")]
    assert len(directions) == 9
    assert all(any(isinstance(n, ir.CheckIndex) for n in nodes(f.body)) for f in directions)


def test_each_back_end_calls_the_specialised_functions():
    model = plies.load("othello")
    assert "if defs1_legal(state, state[0]):" in model.code.source
    assert "def defs1_legal(state, v_p):  # def legal.s1" in model.code.source
    from plies.backends.native.emit import emit
    game = lower(model.checked)
    source = emit(game)
    # the C finds the moves over bit planes (tests/native/test_native_cells.py): it compiles
    # only the functions it calls, mobility(white) and mobility(black) among them
    legal = next(k for k, f in enumerate(game.functions) if f.name == "legal.s1")
    assert f"fn_{legal}(" not in source
    for name in ("mobility.", "discs."):
        numbers = [k for k, f in enumerate(game.functions) if f.name.startswith(name)]
        assert len(numbers) == 2
        for number in numbers:
            assert f"static int64_t fn_{number}(const state_t *s)" in source
            assert f"fn_{number}(s)" in source or f"fn_{number}(t)" in source


def test_a_big_body_with_every_argument_known_is_a_function_called_there():
    game = lower(plies.load("othello", size=6).checked)
    named = functions(game)
    # prefer: mobility(white) or mobility(black), each 36 calls of legal(p, r, c) with all
    # three known; written in place, that was 16,619 IR nodes (456 KB of C in one function).
    # Now they are calls, as are frontier(p)'s; the four cells each of corners(p) and
    # x_squares(p) are written in place
    assert ir.size(game.prefer) < 250
    assert sum(isinstance(n, ir.Invoke) for n in nodes(game.prefer)) == 4
    mobility = [f for name, f in named.items() if name.startswith("mobility.")]
    assert [f.params for f in mobility] == [(), ()]
    for function in mobility:
        calls = [n for n in nodes(function.body) if isinstance(n, ir.Invoke)]
        assert len(calls) == 36 and all(call.args == () for call in calls)
        assert {game.functions[call.number].name.split(".")[0] for call in calls} == {"legal"}
    # (a test of every cell at once is a set of cells beside the cells written out: its C is
    # one expression of shifts and masks, a few KB; written out, each cell's part is small)
    per_cell = [ir.size(f.body.each) / (f.body.rows * f.body.cols)
                if isinstance(f.body, ir.CellFold) else ir.size(f.body) for f in game.functions]
    assert max(per_cell) <= 3 * expressions.IN_PLACE_NODES
    # what stays small when written in place still is: inside(r, c) and each flanks() fold
    assert "inside" not in {name.split(".")[0] for name, f in named.items() if f.params == ()}


SPECIALISED = """game g
players A max, B min
state
  n: 0..5 = 5
  heap: array[4] of 0..5 = 1
def at(m: int, i: int) = if i >= 4 then 0 else heap[i] + m
def any_at(m: int, i: int) = any k in 0..i: heap[k] == m
move take(k in 1..2) when k <= n { n -= k }
terminal n == 0 or at(n, 7) > 9 or any_at(n, 2)
utility if turn == A then -1 else 1
"""


def test_a_known_argument_that_decides_the_body_leaves_no_call(generic):
    model = load_source(SPECIALISED, "g.game")
    game = lower(model.checked)
    # at(n, 7): the branch i >= 4 is taken, 0 > 9 is false; any_at(n, 2): the range 0..i
    # unrolled to three cells, small enough to be written in place
    assert game.functions == []
    assert not any(isinstance(node, (ir.Fold, ir.CheckIndex, ir.Invoke))
                   for node in nodes(game.terminal))
    assert {node.index.value for node in nodes(game.terminal)
            if isinstance(node, ir.Slot)} == {1, 2, 3, 4}
    plain = generic(SPECIALISED)
    assert "def def_any_at(state, v_m, v_i):" in plain.code.source
    assert model.solve().value == plain.solve().value == 1  # n == 1 ends it: B cannot move


def many_calls(count: int) -> str:
    """A game whose terminal test calls a definition with ``count`` distinct known values."""
    terms = " or ".join(f"(any a in 0..99: any b in 0..9: far(n, {1000 * t} + 10 * a + b))"
                        for t in range(count // 1000))
    return f"""game g
players A max, B min
state
  n: 0..5 = 5
def far(m: int, x: int) = x * x == m + 10000000
move take(k in 1..2) when k <= n {{ n -= k }}
terminal n == 0 or {terms}
utility if turn == A then -1 else 1
"""


def test_past_the_budget_the_generic_function_is_called(generic):
    model = load_source(many_calls(3000), "g.game")
    game = lower(model.checked)
    names = [f.name for f in game.functions]
    assert "far" in names  # the calls past the budget
    assert len(names) - 1 <= expressions.SPECIALISED_FUNCTIONS
    # far(n, x) is never true: the countdown's value, as without the budget
    assert model.solve().value == generic(many_calls(3000)).solve().value == 1


@pytest.fixture
def generic(monkeypatch):
    """``load_source`` with nothing specialised: every call of a definition whose arguments
    are not all known is a call of its generic function."""
    monkeypatch.setenv("PLIES_NO_GAME_CACHE", "1")

    def load(text: str, filename: str = "g.game"):
        with monkeypatch.context() as patch:
            patch.setattr(expressions, "SPECIALISED_FUNCTIONS", 0)
            patch.setattr(expressions, "INLINE_NODES", 0)
            return load_source(text, filename)
    return load


@pytest.mark.parametrize("name", GAMES)
def test_specialised_and_generic_code_agree_on_random_positions(name, generic):
    path = Path(__file__).parents[2] / "games" / f"{name}.game"
    model, plain = plies.load(name), generic(path.read_text(), str(path))
    assert model.code.source != plain.code.source or "def def" not in plain.code.source
    chooser = random.Random(name)
    for _ in range(20):  # random playouts, compared state by state
        state = model.initial_state()
        for _ in range(60):
            assert plain.is_terminal(state) == model.is_terminal(state)
            if model.is_terminal(state):
                assert plain.utility(state) == model.utility(state)
                break
            if model.to_move(state) == 0:
                outcomes = model.chance_outcomes(state)
                assert plain.chance_outcomes(state) == outcomes
                state = model.result(state, chooser.choice(outcomes)[0])
                continue
            moves = list(model.actions(state))
            assert list(plain.actions(state)) == moves
            move = chooser.choice(moves)
            assert plain.result(state, move) == model.result(state, move)
            state = model.result(state, move)
