"""SYMMETRY: children of a position that are images of each other are searched once.

A game may declare symmetries (``Game.symmetries``): rearrangements of a state, each a tuple
of positions in the state tuple, under which the game is the same. A rearrangement that leaves
a position as it is maps the position's children onto each other, and a child and its image
are worth the same: the search needs only the first of them. So ``auto`` (``search.py``; the
native search, ``search.c``, does the same) leaves out, in a position less than
``SYMMETRY_PLIES`` moves from the root, every child that such a rearrangement makes of an
earlier child. Connect Four's empty board and the positions with discs in the middle column
only are their own mirror images (of the first seven drops, three are left out); Othello's
start is its own image under four of the square's eight symmetries (three of the four first
moves are left out). Deeper, a position is seldom its own image, and asking costs every node.

A solve by tiers (``tiers.py``) uses them otherwise, as GAMESMAN's canonical positions do:
a position and its images are worth the same and as far from the end, so a solution
directory holds one position of each class, under the least of their keys (``least_key``),
and every look-up packs a position the same way.
"""

from __future__ import annotations

from .protocol import CHANCE, Game, State, expander

SYMMETRY_PLIES = 16
"""Positions this many moves or more from the root are not asked whether they are their own
images (both back ends)."""


def image(permutation: tuple[int, ...], state: State) -> State:
    """The image of ``state`` under ``permutation``: ``image[j] = state[permutation[j]]``."""
    return tuple(state[i] for i in permutation)


def fixing(symmetries, state: State) -> list[tuple[int, ...]]:
    """The rearrangements that leave ``state`` as it is."""
    return [p for p in symmetries if image(p, state) == state]


def image_of_earlier(child: State, fixed, earlier: set) -> bool:
    """True when one of the rearrangements ``fixed`` makes ``child`` of a state in
    ``earlier`` (the earlier children searched or left out)."""
    return any(image(p, child) in earlier for p in fixed)


def repeated_children(game: Game, state: State) -> frozenset[int]:
    """The places, in the order of ``game.actions(state)``, of the children of ``state`` that
    the search leaves out as images of earlier ones (what ``left_out`` reports of the root).

    The children are made as the search makes them (EXPAND: each move's precondition, effect
    and end test in turn). Where a rule fails on the way, the places are those found before:
    the search may settle the root with a child worth its best bound before it makes the one
    that fails (then nothing fails), and meets the failure itself where it comes to it."""
    repeated = []
    try:
        symmetries = getattr(game, "symmetries", ())
        if not symmetries or game.is_terminal(state) or game.to_move(state) == CHANCE:
            return frozenset()
        fixed = fixing(symmetries, state)
        earlier: set = set()
        for index, (_, child, utility) in enumerate(expander(game)(state) if fixed else ()):
            if utility is not None:
                continue
            if image_of_earlier(child, fixed, earlier):
                repeated.append(index)
            earlier.add(child)
    except Exception:  # noqa: BLE001 - a rule failing, or a limit: the search meets it or not
        pass
    return frozenset(repeated)


def least_key(pack, symmetries):
    """CANONICAL KEYS: ``pack`` made to give a position and its images under ``symmetries``
    one key, the least of theirs (``pack`` itself when there are none). The symmetries must
    keep the tier of every position, or a class's positions would lie in two tiers."""
    if not symmetries:
        return pack

    def canonical(state):
        least = pack(state)
        for permutation in symmetries:
            key = pack(image(permutation, state))
            if key < least:
                least = key
        return least
    return canonical
