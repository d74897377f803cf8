"""The fuzzers' corpora (test_native_renumbered.py, test_native_mutants.py,
tests/solvers/test_strong_mutants.py): the shipped games the native back end compiles, made
small enough to solve in a test, what both back ends must count alike, and operators swapped."""

from __future__ import annotations

import random
import re
from pathlib import Path

from plies.game.loader import validate_source

GAMES = Path(__file__).resolve().parent.parent.parent / "games"
SMALLER = {"connect4": ("width = 7, height = 6", "width = 4, height = 4"),
           "gomoku": ("width = 15, height = 15, k = 5", "width = 4, height = 3, k = 3"),
           "othello": ("size = 8", "size = 4")}
"""Parameters that make a shipped game small enough to solve in a test."""
NATIVE = sorted(p.stem for p in GAMES.glob("*.game")
                if p.stem not in ("aima_fig5_2", "seed_tree"))  # explicit trees: Python only


def shipped_small(name: str) -> str:
    """The text of shipped game ``name``, with the parameters of ``SMALLER`` where it has some."""
    text = (GAMES / f"{name}.game").read_text(encoding="utf-8")
    return text.replace(*SMALLER[name]) if name in SMALLER else text


def counts(result) -> tuple:
    """What one thread's search gives alike in both back ends: the value, best move and counts."""
    return (result.value, result.best_move, result.proved, result.nodes, result.leaves,
            result.cutoffs, result.table_hits, result.immediate)


def refused_by_the_checker(text: str, name: str) -> bool:
    """Whether the checker refuses the changed game ``text``; each of its errors must then be
    a message with its place."""
    problems = [d for d in validate_source(text, f"{name}.game") if d.severity == "error"]
    assert all(d.message and d.line >= 1 for d in problems), problems
    return bool(problems)


KINDS = [["+", "-", "*"], ["<", "<=", ">", ">=", "==", "!="], ["and", "or"], ["min", "max"],
         ["all", "any"]]
OPERATOR = re.compile(r"(?<![<>=!])(<=|>=|==|!=|<|>)(?!=)|(?<=\s)([+*-])(?=\s)"
                      r"|\b(and|or|min|max|all|any)\b")
"""An operator outside comments (the groups: comparisons, arithmetic between spaces, words)."""


def swap_operators(text: str, rng: random.Random) -> str:
    """``text`` with one or two operators (outside comments) swapped for others of their kind."""
    for _ in range(rng.randint(1, 2)):
        lines = text.split("\n")
        found = [(i, m) for i, line in enumerate(lines) if not line.lstrip().startswith("#")
                 for m in OPERATOR.finditer(line.split("#")[0])]
        if not found:
            break
        i, m = rng.choice(found)
        kind = next(kind for kind in KINDS if m.group(0) in kind)
        new = rng.choice([operator for operator in kind if operator != m.group(0)])
        lines[i] = lines[i][:m.start()] + new + lines[i][m.end():]
        text = "\n".join(lines)
    return text
