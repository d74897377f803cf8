"""A game's move order (``game.prefer``, optional in the protocol): ``auto`` searches the children
best for the player choosing first, after the table's move; the value never changes, and the
number is asked only of children that are searched."""

from __future__ import annotations

import pytest

from plies.solvers.solver import solve

from .games import LINES, TicTacToe


class Preferring(TicTacToe):
    """Tic-tac-toe whose move order is the lines still open to X less those open to O
    (``sign`` -1: the opposite order); it remembers every state it was asked about."""

    def __init__(self, sign: int = 1) -> None:
        super().__init__(bounds=True)
        self.sign = sign
        self.asked: list = []

    def prefer(self, state) -> int:
        self.asked.append(state)
        cells = state[0]
        open_x = sum(all(cells[i] != -1 for i in line) for line in LINES)
        open_o = sum(all(cells[i] != 1 for i in line) for line in LINES)
        return self.sign * (open_x - open_o)


@pytest.mark.parametrize(("table", "plain", "best", "worst"), [(True, 2_297, 1_205, 4_334),
                                                               (False, 4_288, 2_409, 6_876)])
def test_the_order_changes_the_nodes_not_the_value(table, plain, best, worst):
    assert TicTacToe(bounds=True).prefer is None  # GameBase: the declared order
    counts = []
    for game in (TicTacToe(bounds=True), Preferring(), Preferring(sign=-1)):
        result = solve(game, "auto", use_table=table)
        assert result.value == 0
        counts.append(result.nodes)
    assert counts == [plain, best, worst]


def test_only_searched_children_are_asked():
    game = Preferring()
    solve(game, "auto")
    assert game.asked and all(game.outcome(state) is None for state in game.asked)
    # X to move with two in a row: the win on the spot settles the node, nothing is asked
    game.asked.clear()
    state = ((1, 1, 0, -1, -1, 0, 0, 0, 0), 1)
    assert solve(game, "auto", state=state).value == 1
    assert game.asked == []


def test_the_textbook_searches_keep_the_declared_order():
    for algorithm in ("minimax", "alphabeta"):
        game = Preferring()
        plain = solve(TicTacToe(bounds=True), algorithm)
        ordered = solve(game, algorithm)
        assert (ordered.value, ordered.nodes) == (plain.value, plain.nodes)
        assert game.asked == []
