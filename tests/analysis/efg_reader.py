"""A small reader of Gambit .efg files, written from the format's description, for tests."""

from __future__ import annotations

import re
from fractions import Fraction

TOKEN = re.compile(r'"((?:[^"\\]|\\.)*)"|(\{)|(\})|(,)|([^\s{},"]+)')


def tokens(text: str):
    for match in TOKEN.finditer(text):
        quoted, opening, closing, comma, word = match.groups()
        if quoted is not None:
            yield ("text", quoted.replace('\\"', '"').replace("\\\\", "\\"))
        elif opening:
            yield ("{", "{")
        elif closing:
            yield ("}", "}")
        elif comma:
            continue
        else:
            yield ("word", word)


def read_efg(text: str):
    """``(title, players, root)``; a node is ``("p", player, [(action, child)])``,
    ``("c", [(action, probability, child)])`` or ``("t", (payoff1, payoff2))``."""
    stream = list(tokens(text))
    position = 0

    def take(kind=None):
        nonlocal position
        token = stream[position]
        position += 1
        assert kind is None or token[0] == kind, (token, kind, position)
        return token[1]

    assert take("word") == "EFG" and take("word") == "2" and take("word") == "R"
    title = take("text")
    take("{")
    players = []
    while stream[position][0] == "text":
        players.append(take("text"))
    take("}")
    take("text")  # the comment

    def node():
        kind = take("word")
        take("text")  # label
        if kind == "t":
            take("word")  # outcome number
            take("text")  # outcome name
            take("{")
            payoffs = (Fraction(take("word")), Fraction(take("word")))
            take("}")
            return ("t", payoffs)
        if kind == "p":
            player = int(take("word"))
        take("word")  # information set
        take("text")
        take("{")
        actions = []
        while stream[position][0] != "}":
            action = take("text")
            probability = Fraction(take("word")) if kind == "c" else None
            actions.append((action, probability))
        take("}")
        assert take("word") == "0"  # no outcome at a decision or chance node
        children = [node() for _ in actions]
        if kind == "p":
            return ("p", player, [(a, child) for (a, _), child in zip(actions, children)])
        return ("c", [(a, p, child) for (a, p), child in zip(actions, children)])

    root = node()
    assert position == len(stream), "text after the tree"
    return title, players, root


def efg_value(node) -> Fraction:
    """Player 1's payoff under backward induction (player 1 maximises, player 2 minimises it)."""
    if node[0] == "t":
        return node[1][0]
    if node[0] == "c":
        assert sum(p for _, p, _ in node[1]) == 1
        return sum(p * efg_value(child) for _, p, child in node[1])
    values = [efg_value(child) for _, child in node[2]]
    return max(values) if node[1] == 1 else min(values)


def efg_count(node) -> int:
    if node[0] == "t":
        return 1
    children = [c for _, c in node[2]] if node[0] == "p" else [c for _, _, c in node[1]]
    return 1 + sum(efg_count(c) for c in children)
