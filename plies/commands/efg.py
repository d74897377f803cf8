"""``plies tree --format efg``: the whole game tree in Gambit's extensive-form format (.efg).

Gambit (and OpenSpiel's ``efg_game``) read this text format:

- a header ``EFG 2 R "title" { "MAX's name" "MIN's name" }`` and a comment line;
- then every node of the tree, depth first, one per line, labelled with its name in a tree
  game (else ""):
  ``p "" player infoset "" { "move" ... } 0`` for a decision node (player 1 is MAX, 2 is MIN;
  every node is its own information set: the game has perfect information),
  ``c "" infoset "" { "outcome" probability ... } 0`` for a chance node, with exact rational
  probabilities such as ``1/2``,
  ``t "" outcome "name" { u, -u }`` for a terminal node: one outcome per distinct utility,
  paying MAX the utility and MIN its negative (the game is zero-sum).

A game whose positions can come back has an infinite tree and is refused, as is a tree of
more than ``max_nodes`` nodes (positions reached by several lines appear once per line) or one
not written within ``timeout`` seconds; as in a search, the work a costly position's rules
count (``limits.count_work``) counts against both.
"""

from __future__ import annotations

from fractions import Fraction

from plies.errors import PliesError
from plies.solvers.errors import NoMovesError, UtilityOutOfBoundsError
from plies.solvers.limits import Limits, SearchStopped
from plies.solvers.protocol import CHANCE, MAX


class TreeTooLargeError(PliesError):
    """The game tree has more nodes than asked for, or is infinite."""


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _number(value) -> str:
    value = Fraction(value)
    return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"


def efg_tree(model, state=None, *, max_nodes: int = 20_000, timeout: float | None = None) -> str:
    """The game tree from ``state`` (default: the start) as the text of an .efg file.

    Raises:
        TreeTooLargeError: more than ``max_nodes`` nodes (or their work), a position that
            repeats, or ``timeout`` reached.
        NoMovesError: a position that is not over has no move (an .efg player node must
            have an action), with the moves from ``state`` to it.
        UtilityOutOfBoundsError: an end's utility outside the declared bounds (its moves).
    """
    limits = Limits(max_nodes + 1, timeout)  # stops at the node past max_nodes
    next_check = limits.first_check()
    try:
        return _efg_text(model, state, max_nodes, limits, next_check)
    except SearchStopped as stop:
        if stop.reason == "timeout":
            raise TreeTooLargeError("the game tree was not written: stopped by timeout; "
                                    "--timeout S allows more") from None
        raise TreeTooLargeError("the game tree was not written: stopped by max-nodes: the rules "
                                f"of its positions did the work of more than {max_nodes:,} "
                                "nodes; --max-nodes N allows more") from None


def _efg_text(model, state, max_nodes: int, limits: Limits, next_check: int) -> str:
    """``efg_tree``'s text, under ``limits`` (their node count checked here)."""
    from plies.commands.analysis import player_name
    start = model.initial_state() if state is None else state
    names = [player_name(model, MAX), player_name(model, -MAX)]
    params = ", ".join(f"{k}={v}" for k, v in getattr(model, "params", {}).items())
    title = model.name + (f" ({params})" if params else "")
    lines = [f"EFG 2 R {_quote(title)} {{ {' '.join(_quote(n) for n in names)} }}",
             _quote("written by plies: MAX is player 1, MIN player 2; payoffs to MAX, MIN"), ""]
    bounds = getattr(model, "utility_bounds", None)
    infosets = {1: 0, 2: 0, CHANCE: 0}
    outcomes: dict = {}
    count = 0
    # Depth first, children in the game's order; ``path`` holds the states above a node,
    # ``moves`` the moves to it.
    stack = [(start, frozenset(), ())]
    while stack:
        state, path, moves = stack.pop()
        count += 1
        if count > max_nodes:
            raise TreeTooLargeError(f"the game tree has more than {max_nodes:,} nodes; "
                                    "--max-nodes N allows more")
        if count >= next_check:
            next_check = limits.check(count)
        utility = model.outcome(state)
        label = _quote(getattr(model, "node_name", lambda s: None)(state) or "")
        if utility is not None:
            if bounds is not None and not bounds[0] <= utility <= bounds[1]:  # as solve says
                raise UtilityOutOfBoundsError.of(utility, bounds).after(list(moves))
            number = outcomes.setdefault(utility, len(outcomes) + 1)
            lines.append(f"t {label} {number} {_quote(_number(utility))} "
                         f"{{ {_number(utility)}, {_number(-utility)} }}")
            continue
        if state in path:
            raise TreeTooLargeError("the game tree is infinite: a position repeats, so play can "
                                    "go on forever")
        below = path | {state}
        if model.to_move(state) == CHANCE:
            pairs = list(model.chance_outcomes(state))
            infosets[CHANCE] += 1
            shown = " ".join(f"{_quote(str(o))} {_number(p)}" for o, p in pairs)
            lines.append(f'c {label} {infosets[CHANCE]} "" {{ {shown} }} 0')
            children = [(o, model.result(state, o)) for o, _ in pairs]
        else:
            player = 1 if model.to_move(state) == MAX else 2
            children = list(model.successors(state))
            if not children:  # a player node needs an action: the game is at fault
                raise NoMovesError("a non-terminal state has no legal moves", list(moves))
            infosets[player] += 1
            shown = " ".join(_quote(str(m)) for m, _ in children)
            lines.append(f'p {label} {player} {infosets[player]} "" {{ {shown} }} 0')
        stack.extend((child, below, (*moves, move)) for move, child in reversed(children))
    return "\n".join(lines) + "\n"
