"""The checks of a game file's `test` blocks: what can be told before any test runs.

A test names its parameters, the moves that lead to its position and the moves it expects
there. The checker makes sure each parameter is one of the game's, set to a value of the right
kind as on the command line, and that each move text names a move, a chance outcome or a tree
edge of the game, with as many arguments as it takes and arguments that are numbers, symbols or
players. Whether the moves are legal where they are played, and whether the checks hold, is
found by running the tests (plies.commands.testing).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from plies.frontend import ast
from plies.frontend.checked import TreeNodeInfo
from plies.frontend.constants import NotConstant, show_value, value_kind
from plies.frontend.vocabulary import plural

CHECK_WORDS = {ast.MoveCount: "moves", ast.MoveList: "moves", ast.TerminalCheck: "terminal",
               ast.UtilityCheck: "utility", ast.PerftCheck: "perft", ast.ValueCheck: "value"}
"""The word each check is written with."""


@dataclass
class RuleTest:
    """A checked `test` block: its declaration and its parameters' values."""

    decl: ast.GameTest
    params: dict[str, object]

    @property
    def moves(self) -> list[str]:
        """The moves that lead to the tested position, as text."""
        return [move.text for move in self.decl.moves or ()]


class RuleTestChecks:
    """The checks of `test` blocks (a part of the Checker)."""

    def check_rule_tests(self, tests: list[ast.GameTest],
                         tree: list[TreeNodeInfo] | None) -> list[RuleTest]:
        playable = self.playable(tree)
        checked, names = [], {}
        for test in tests:
            if test.name in names:
                self.error(test, f"two tests are called '{test.name}' (the other is at "
                                 f"{names[test.name]})", code="duplicate")
            names.setdefault(test.name, test.span)
            if not test.checks:
                self.error(test, f"test '{test.name}' checks nothing",
                           "say what must hold, as in `{ moves 8  terminal false }`; a test "
                           "checks moves, terminal, utility, perft and value", code="test")
            words: dict[str, ast.Check] = {}
            for check in test.checks:
                word = CHECK_WORDS[type(check)]
                if word in words and word != "perft":
                    self.error(check, f"test '{test.name}' checks `{word}` twice",
                               code="duplicate")
                words.setdefault(word, check)
                for move in check.moves if isinstance(check, ast.MoveList) else ():
                    self.check_move_text(move, playable)
            for move in test.moves or ():
                self.check_move_text(move, playable)
            checked.append(RuleTest(test, self.test_params(test)))
        return checked

    def playable(self, tree: list[TreeNodeInfo] | None) -> dict[str, set[int]]:
        """Every name a move text may have, with how many arguments it may take."""
        found: dict[str, set[int]] = {}
        if tree is not None:
            for node in tree:
                for label, _, _ in node.children:
                    found.setdefault(label, set()).add(0)
            return found
        for move in self.moves:
            binders = move.decl.binders
            found.setdefault(move.decl.name, set()).add(len(binders.items) if binders else 0)
        for event in self.chances.values():
            decl = event.decl
            if isinstance(decl, ast.ListedChance):
                for outcome in decl.outcomes:
                    found.setdefault(outcome.name, set()).add(0)
            else:
                found.setdefault(decl.name, set()).add(len(decl.binders.items))
        return found

    def check_move_text(self, move: ast.MoveText, playable: dict[str, set[int]]) -> None:
        if move.name not in playable:
            self.error(move, f"'{move.name}' is not a move or chance outcome of this game",
                       self.suggest(move.name, playable), code="undefined-name")
            return
        given, takes = len(move.args or ()), sorted(playable[move.name])
        if given not in takes:
            wanted = plural(takes[0], "argument") if len(takes) == 1 else \
                " or ".join(map(str, takes)) + " arguments"
            self.error(move, f"'{move.name}' takes {wanted}, not {given}", code="arity")
        for arg in move.args or ():
            if isinstance(arg, ast.NameArg) and arg.name not in self.symbols:
                self.error(arg, f"'{arg.name}' is not a symbol or a player",
                           self.suggest(arg.name, self.symbols), code="undefined-name")

    def test_params(self, test: ast.GameTest) -> dict[str, object]:
        """The values a test gives the game's parameters, each checked against the game's."""
        values = {}
        for param in test.params or ():
            if param.name not in self.params:
                declared = list(self.params)
                self.error(param, f"the game has no parameter '{param.name}'",
                           self.suggest(param.name, declared) or
                           f"its parameters: {', '.join(declared) or 'none'}",
                           code="unknown-param")
                continue
            if any(isinstance(node, ast.Name) for node in ast.walk(param.default)):
                self.error(param.default, "a test sets a parameter to a value, written as on "
                                          "the command line", "as in `with width = 4, heaps = "
                                          "[1, 2, 3], misere = true`", code="not-constant")
                continue
            try:
                value = self.const_value(param.default, {})
            except NotConstant:
                continue  # the reason is reported where it is
            game_value = self.params[param.name]
            if value_kind(value) != value_kind(game_value) and not (
                    isinstance(game_value, Fraction) and value_kind(value) == "a whole number"):
                self.error(param, f"parameter '{param.name}' takes {value_kind(game_value)}, "
                                  f"not {value_kind(value)} ({show_value(value)})",
                           code="param-type")
                continue
            values[param.name] = value
        return values
