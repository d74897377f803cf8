"""Reading a shipped game's state in the game's own terms, to check its rules move by move."""

from __future__ import annotations

from plies.game.loader import find_game, load_source, read_source


def probe(name: str, expression: str, moves: str = "", **params):
    """The value of ``expression`` (in the game's language) after ``moves`` from the start.

    The expression, a number, becomes the game's ``evaluate``, which the protocol lets us
    call directly.
    """
    path = find_game(name)
    game = load_source(read_source(path) + f"\nevaluate {expression}\n", str(path), **params)
    return game.evaluate(game.play_all(moves.split()))
