"""Exploring a game: walk its reachable positions to find the rule bugs only play shows.

``plies validate --explore`` runs the game's own rules from the start, breadth-first, up to a
number of distinct positions, then plays random games to the end from the start, and reports
each problem once, at its game-file line, with the shortest move sequence known to reach it:

- ``runtime`` (error): a rule failed (index out of range, division by zero, a value outside its
  range, a loop past its step budget), at the line of the rule;
- ``no-moves`` (error): a position that is not terminal has no legal move (at `terminal`);
- ``utility-bounds`` (error): a terminal position's utility lies outside the bounds (at the
  utility, or at the leaf of a tree);
- ``estimate-bounds`` (error): a position's estimate (``evaluate``, what a depth-limited search
  values it at) lies outside the bounds (at ``evaluate``);
- ``endless`` (error): a position repeats, so the game can go on forever, and the game does not
  say what endless play is worth (at the move that comes back to the position);
- ``tier`` (error): a move that lowers the tier the game declares (``tier EXPR``), which no
  move may lower (at the declaration);
- ``symmetry`` (error): a position where a declared symmetry does not hold: its image has
  another player to move, another end or value, or other moves (at the declaration);
- ``no-effect`` (warning): a move that changes nothing but the turn, where it is not the only legal move;
  its hint says the game can go on forever only when a position came back through the move;
- ``never-legal`` (warning): a move legal in none of the positions explored.

Breadth-first order makes the first sequence found for a problem a shortest one. The explored
positions and the moves between them are kept as a graph; a cycle in it is found with Tarjan's
strongly connected components, and reported through the first position (in breadth-first order)
that lies on one, followed once round the shortest cycle through it.

Memory is bounded by the positions kept (``max_states``, and caps on the values they hold and
on the moves recorded between them); time by that and by the playouts' number and length.
Ctrl-C stops the walk (or the random games) and what was found so far is reported.
"""

from __future__ import annotations

import dataclasses
import functools
import random
from array import array
from collections import Counter, deque
from dataclasses import dataclass

from plies.errors import Diagnostic
from plies.game.model import GameModel, value_text
from plies.frontend.span import Span
from plies.solvers.limits import Limits, SearchStopped
from plies.solvers.policy import tarjan_components
from plies.solvers.protocol import CHANCE
from plies.solvers.symmetry import image

DEFAULT_MAX_STATES = 100_000
"""Distinct positions kept by default (``--max-states``)."""
DEFAULT_PLAYOUTS = 100
"""Random games played after the breadth-first walk when it was not exhaustive."""
MAX_PLAYOUT_MOVES = 10_000
"""A random game longer than this is abandoned (a proper game ends long before)."""
MAX_STORED_VALUES = 20_000_000
"""The most values (state tuple slots) the kept positions may hold together: about 200 MB."""
NO_EFFECT_ENDS = "is part of its effect missing? passing the turn is fine where that is the " \
                 "rule: no position explored comes back through this move"
"""The hint of a no-effect warning when no position came back through the move."""
NO_EFFECT_REPEATS = "is part of its effect missing? a position comes back through it, so the " \
                    "game can go on forever"
"""The hint of a no-effect warning when a position came back through the move."""
MAX_EDGES = 1_000_000
"""The most moves between kept positions recorded (and so applied) by the walk: about 16 MB,
and at most some seconds for the slowest rules."""


@dataclass(frozen=True)
class Finding:
    """A problem found by exploring: its diagnostic and the moves from the start that show it.

    ``moves`` is None for a problem that no single position shows (a move never legal).
    """

    diagnostic: Diagnostic
    moves: tuple[str, ...] | None

    def render(self, source: str | None) -> str:
        """The diagnostic as ``validate`` shows it, then the moves from the start."""
        text = self.diagnostic.render(source)
        if self.moves is None:
            return text
        path = " ".join(self.moves) if self.moves else "(none: the initial state)"
        return f"{text}\n  moves from the start: {path}"

    def to_json(self) -> dict:
        """The diagnostic as ``validate --json`` gives it, with ``moves``."""
        return self.diagnostic.to_json() | {
            "moves": None if self.moves is None else list(self.moves)}


@dataclass(frozen=True)
class Exploration:
    """What an exploration found and how far it went."""

    findings: list[Finding]
    positions: int
    """Distinct positions explored."""
    terminal: int
    """How many of them are terminal."""
    longest_game: int | None
    """Moves (chance outcomes included) in the longest game seen, None when no game finished or
    when positions repeat."""
    repeats: bool
    """True when a position can come back: a game may then go on forever."""
    exhaustive: bool
    """True when every reachable position was explored."""
    stopped_by: str | None
    """Why the walk was not exhaustive: "max-states" (the limit asked for), "memory" (the
    budget of values and edges kept), "timeout" (the time limit asked for) or "interrupted"
    (Ctrl-C)."""
    playouts: int
    """Random games played after the breadth-first walk."""
    seed: int

    def summary(self) -> str:
        """One line: positions, terminal ones, the longest game, exhaustive or not."""
        if self.exhaustive:
            extent = "every reachable position"
        elif self.stopped_by == "max-states":
            extent = "not all: stopped at --max-states"
        elif self.stopped_by == "interrupted":
            extent = "not all: interrupted"
        elif self.stopped_by == "timeout":
            extent = "not all: stopped at --timeout"
        else:
            extent = "not all: the positions and moves kept filled the memory budget"
        if self.repeats:
            longest = "positions repeat, so a game may never end"
        elif self.longest_game is None:
            longest = "no game finished"
        else:
            longest = f"longest game {self.longest_game:,} move{'s' * (self.longest_game != 1)}"
        text = (f"explored {self.positions:,} positions ({self.terminal:,} terminal), {extent}; "
                f"{longest}")
        if self.playouts:
            text += f"; {self.playouts:,} random game{'s' * (self.playouts != 1)} (seed {self.seed})"
        return text

    def to_json(self) -> dict:
        """The summary as a JSON-able dict."""
        return {"positions": self.positions, "terminal": self.terminal,
                "longest_game": self.longest_game, "repeats": self.repeats,
                "exhaustive": self.exhaustive,
                "stopped_by": self.stopped_by,
                "playouts": self.playouts, "seed": self.seed}


def explore(model: GameModel, *, max_states: int = DEFAULT_MAX_STATES,
            playouts: int = DEFAULT_PLAYOUTS, seed: int = 0,
            timeout: float | None = None) -> Exploration:
    """Explore a game's reachable positions and report the problems found.

    Args:
        model: A loaded game.
        max_states: The most distinct positions to keep (at least 1).
        playouts: Random games to play from the start when the walk was not exhaustive.
        seed: Seed of the random games (the same seed, the same games).
        timeout: Seconds for the walk and the games together. The clock is read between
            positions, and inside a position whose rules loop for long (``limits.count_work``),
            so a single costly position cannot hold the exploration past it.
    """
    explorer = _Explorer(model, max(1, max_states), Limits(timeout=timeout))
    explorer.next_check = explorer.limits.first_check()  # from here, the rules' work counts
    explorer.walk()
    played = 0
    if explorer.stopped_by not in (None, "interrupted", "timeout"):
        rng = random.Random(seed)
        try:
            for _ in range(playouts):
                explorer.playout(rng)
                played += 1
        except KeyboardInterrupt:  # Ctrl-C: keep what the games played so far found
            pass
        except SearchStopped:  # the time limit: likewise
            explorer.stopped_by = "timeout"
    on_cycle, order, component = strongly_connected(explorer.first_edge, explorer.targets)
    explorer.find_cycle(on_cycle)
    explorer.say_which_passes_repeat(component)
    explorer.find_never_legal()
    findings = sorted(explorer.findings.values(),
                      key=lambda f: (f.diagnostic.severity != "error", f.diagnostic.line,
                                     f.diagnostic.column))
    repeats = explorer.repeated or any(on_cycle)
    longest = None if repeats else explorer.longest_game(order)
    return Exploration(findings, len(explorer.states), sum(explorer.is_end), longest, repeats,
                       explorer.stopped_by is None, explorer.stopped_by, played, seed)


class _Wanted(Exception):
    """The walk found the finding it was looking for (``first_finding``)."""

    def __init__(self, finding: Finding):
        super().__init__(finding.diagnostic.message)
        self.finding = finding


def first_finding(model: GameModel, wanted, *, start: list[str] = (),
                  max_states: int = DEFAULT_MAX_STATES,
                  timeout: float | None = None) -> Finding | None:
    """The first problem, breadth-first from the position after the moves ``start``, that
    ``wanted(finding)`` accepts (its moves are from that position), or None when the walk
    ends, or stops at its limits, without one. No random games are played."""
    explorer = _Explorer(model, max(1, max_states), Limits(timeout=timeout))
    explorer.start = model.play_all(list(start)) if start else None
    explorer.wanted = wanted
    explorer.next_check = explorer.limits.first_check()
    try:
        explorer.walk()
    except _Wanted as found:
        return found.finding
    return None


def finding_at(model: GameModel, moves: list[str], code: str) -> Finding | None:
    """The problem ``code`` (``no-moves`` or ``utility-bounds``) as the walk reports it in the
    position after ``moves``, with those moves; None when that position does not show it."""
    explorer = _Explorer(model, 1, Limits())
    state = model.play_all(list(moves))

    def path() -> tuple[str, ...]:
        return tuple(moves)

    if code == "no-moves" and not model.is_terminal(state):
        explorer.moves(state, path)
    elif code == "utility-bounds" and model.is_terminal(state):
        explorer.check_utility(state, path)
    return next((f for f in explorer.findings.values() if f.diagnostic.code == code), None)


class _Explorer:
    """The explored graph and the problems found in it.

    Positions are numbered in the order they are found. Each kept position has a parent (the
    position it was first reached from) and the move from there, so ``path(i)`` is a shortest
    move sequence to it. Positions are expanded in number order, so the edges of position i are
    ``targets[first_edge[i]:first_edge[i + 1]]`` (-1 for a child that was not kept).
    """

    def __init__(self, model: GameModel, max_states: int, limits: Limits):
        self.model = model
        self.limits = limits
        self.next_check = 0  # the count of positions judged at which to read the clock
        self.judged = 0
        self.checked = model.checked
        self.max_states = max_states
        self.index: dict = {}
        self.states: list = []
        self.parent = array("i")
        self.via: list = []
        self.first_edge = array("i")
        self.targets = array("i")
        self.labels: list = []
        self.is_end = bytearray()  # 1 for a terminal position
        self.stored_values = 0
        self.stopped_by: str | None = None
        self.longest_played = 0
        self.repeated = False  # a random game came back to a position
        self.repeating_kinds: set[int] = set()  # kinds of the moves a random game came back by
        self.legal_kinds: set[int] = set()
        self.findings: dict[tuple, Finding] = {}
        self.endless_allowed = getattr(model, "endless_value", None) is not None
        self.start = None  # the position the walk starts from: the game's start unless set
        self.wanted = None  # a test of findings: the walk stops at the first it accepts
        self.tier = getattr(model, "tier", None)  # the declared tier: no move may lower it
        self.symmetries = self.checked.symmetries  # declared: each must hold everywhere
        # The game's declarations, looked at only when a walk starts (plies validate without
        # --explore does not import the syntax tree): each move kind's, where its name stands,
        # and the `bounds` declared.
        from plies.frontend import ast
        from plies.frontend.symbols import name_span

        self.declarations = _declarations(self.checked)
        self.name_spans = [name_span(self.checked.source, decl) for decl in self.declarations]
        self.bounds_declared = next((item for item in self.checked.program.items
                                     if isinstance(item, ast.Bounds)), None)

    # -- the walk --

    def walk(self) -> None:
        """Breadth-first from the start, keeping at most ``max_states`` positions."""
        try:
            start = self.model.initial_state() if self.start is None else self.start
        except SearchStopped:  # the time limit, inside a costly setup
            self.stopped_by = "timeout"
            self.first_edge.append(0)
            return
        except Exception as error:  # noqa: BLE001 - a failing setup is a finding
            self.runtime(error, ())
            self.first_edge.append(0)
            return
        self.keep(start, -1, None)
        i = 0
        try:
            while i < len(self.states):
                if len(self.targets) >= MAX_EDGES:
                    self.forget_from(i, "memory")
                    break
                self.first_edge.append(len(self.targets))
                state = self.states[i]
                path = functools.partial(self.path, i)
                ended = self.judge(state, path)
                self.is_end.append(ended is True)
                if ended is True and self.symmetries:
                    self.check_symmetries(state, True, [], path)
                if ended is False:
                    pairs = self.children(state, path)
                    if self.tier is not None:
                        self.check_tier(state, pairs, path)
                    if self.symmetries:
                        self.check_symmetries(state, False, pairs, path)
                    for move, child in pairs:
                        target = self.index.get(child)
                        if target is None:
                            target = self.keep(child, i, move)
                        self.targets.append(target)
                        self.labels.append(move)
                i += 1
        except KeyboardInterrupt:  # Ctrl-C: report what the walk found so far
            self.forget_from(i, "interrupted")
        except SearchStopped:  # the time limit, between positions or inside one
            self.forget_from(i, "timeout")
        self.first_edge.append(len(self.targets))

    def keep(self, state, parent: int, move) -> int:
        """Number a new position, or -1 when the graph is full (the walk is then not exhaustive)."""
        size = len(state) if isinstance(state, tuple) else 1
        if len(self.states) >= self.max_states:
            self.stopped_by = self.stopped_by or "max-states"
            return -1
        if self.stored_values + size > MAX_STORED_VALUES:
            self.stopped_by = self.stopped_by or "memory"
            return -1
        number = self.index[state] = len(self.states)
        self.states.append(state)
        self.parent.append(parent)
        self.via.append(move)
        self.stored_values += size
        return number

    def forget_from(self, first: int, reason: str) -> None:
        """Drop the positions from ``first`` on, which the walk stopped before expanding (or
        while expanding ``first``: its edges go too)."""
        if len(self.first_edge) > first:
            del self.targets[self.first_edge[first]:], self.labels[self.first_edge[first]:]
            del self.first_edge[first:], self.is_end[first:]
        for state in self.states[first:]:
            del self.index[state]
        del self.states[first:], self.parent[first:], self.via[first:]
        for edge, target in enumerate(self.targets):
            if target >= first:
                self.targets[edge] = -1
        self.stopped_by = reason

    def path(self, number: int) -> tuple[str, ...]:
        """The moves of a shortest sequence from the start to kept position ``number``."""
        moves = []
        while number > 0:
            moves.append(str(self.via[number]))
            number = self.parent[number]
        return tuple(reversed(moves))

    # -- one position --

    def judge(self, state, path) -> bool | None:
        """Run the rules that judge a position: True when it is terminal, False when it is not,
        None when the terminal test failed. ``path()`` gives the moves to the position (called
        only when a problem is found: it walks up the tree).

        Raises:
            SearchStopped: the time limit was reached.
        """
        if self.judged >= self.next_check:
            self.next_check = self.limits.check(self.judged)
        self.judged += 1
        model = self.model
        for function in model.render_items:
            if not self.runs(function, state, path):
                break
        try:
            ended = model.is_terminal(state)
        except Exception as error:  # noqa: BLE001 - mapped to the game file, or re-raised
            self.runtime(error, path())
            return None
        if ended:
            self.check_utility(state, path)
        else:  # the heuristic and the move order are asked of positions that go on
            if (not model.has_evaluation or self.check_estimate(state, path)) \
                    and model.prefer is not None:
                self.runs(model.prefer, state, path)
        return bool(ended)

    def runs(self, rule, state, path) -> bool:
        """Apply a rule to a position; report it and return False when it fails."""
        try:
            rule(state)
        except Exception as error:  # noqa: BLE001 - mapped to the game file, or re-raised
            self.runtime(error, path())
            return False
        return True

    def moves(self, state, path) -> list:
        """The legal moves (or chance outcomes) of a position that is not terminal."""
        model = self.model
        try:
            role = model.to_move(state)
            if role == CHANCE:
                options = [outcome for outcome, _ in model.chance_outcomes(state)]
            else:
                options = list(model.actions(state))
        except Exception as error:  # noqa: BLE001 - mapped to the game file, or re-raised
            self.runtime(error, path())
            return []
        if not options:
            self.no_moves(role, path())
        elif role != CHANCE:
            self.legal_kinds.update(move.kind for move in options)
        return options

    def children(self, state, path) -> list[tuple]:
        """``(move, position after it)`` for every move or outcome that does not fail."""
        try:  # the fast way first: the generated SUCCESSORS builds every child at once
            if self.model.to_move(state) != CHANCE:
                pairs = self.model.successors(state)
                if pairs:
                    self.legal_kinds.update(move.kind for move, _ in pairs)
                    self.check_effects(state, pairs, path)
                    return pairs
        except SearchStopped:
            raise
        except Exception:  # noqa: BLE001 - found again below, move by move, and reported
            pass
        pairs = []
        for move in self.moves(state, path):
            child = self.apply(state, move, path)
            if child is not None:
                pairs.append((move, child))
        self.check_effects(state, pairs, path)
        return pairs

    def apply(self, state, move, path):
        """The position after ``move``, or None when its effect fails."""
        try:
            child = self.model.result(state, move)
        except Exception as error:  # noqa: BLE001 - mapped to the game file, or re-raised
            self.runtime(error, path() + (str(move),))
            return None
        return child

    def check_effects(self, state, pairs, path, choices: int | None = None) -> None:
        """Warn about moves (not chance outcomes) that change nothing but the turn.

        A forced pass is no mistake: a move that only hands the turn over, when it is the
        one legal move of its position (Othello's pass), is how such rules are written. If
        both players are forced to pass forever, the cycle check reports that instead.
        """
        if not isinstance(state, tuple):  # a tree game's node: moves always lead elsewhere
            return
        if (choices or len(pairs)) == 1 and pairs[0][1][0] != state[0]:
            return
        unchanged: dict = {}  # the state with only the player to move (slot 0) replaced
        for move, child in pairs:
            if move.kind >= len(self.checked.moves):
                continue
            turn = child[0]
            if turn not in unchanged:
                unchanged[turn] = (turn,) + state[1:]
            if child == unchanged[turn]:
                self.no_effect(move, turn == state[0], lambda m=move: path() + (str(m),))

    def check_utility(self, state, path) -> None:
        """Report a terminal position whose utility fails or lies outside the bounds."""
        try:
            utility = self.model.utility(state)
        except Exception as error:  # noqa: BLE001 - mapped to the game file, or re-raised
            self.runtime(error, path())
            return
        bounds = self.model.utility_bounds
        if bounds is None or bounds[0] <= utility <= bounds[1]:
            return
        lo, hi = (value_text(b) for b in bounds)
        if self.checked.tree is not None:
            span, what = self.checked.tree[state].span, f"this leaf is worth {value_text(utility)}"
        else:
            span = self.checked.utility.value.span
            what = f"the utility is {value_text(utility)} here"
        declared = self.bounds_declared
        hint = (f"`bounds` at line {declared.span.line} says every utility lies in {lo}..{hi}: "
                f"correct the utility or widen the bounds") if declared is not None else \
            f"the bounds {lo}..{hi} were inferred from the utility"
        self.report(("utility-bounds", span.line, span.column), span, "error", "utility-bounds",
                    f"{what}, outside the bounds {lo}..{hi}",
                    hint, path())

    def check_estimate(self, state, path) -> bool:
        """Report a position whose estimate (``evaluate``) fails or lies outside the bounds
        (a depth-limited search stops at the first it meets); False where it fails."""
        try:
            estimate = self.model.evaluate(state)
        except Exception as error:  # noqa: BLE001 - mapped to the game file, or re-raised
            self.runtime(error, path())
            return False
        bounds = self.model.utility_bounds
        if bounds is None or bounds[0] <= estimate <= bounds[1]:
            return True
        lo, hi = (value_text(b) for b in bounds)
        span = self.checked.evaluate.value.span
        declared = self.bounds_declared
        hint = (f"`bounds` at line {declared.span.line} says every value lies in {lo}..{hi}, "
                f"estimates too: keep the estimate within them or widen the bounds"
                if declared is not None else
                f"the bounds {lo}..{hi} were inferred from the utility, and estimates must lie "
                f"within them too: declare `bounds` that hold both")
        self.report(("estimate-bounds", span.line, span.column), span, "error", "estimate-bounds",
                    f"the estimate (evaluate) is {value_text(estimate)} here, outside the bounds "
                    f"{lo}..{hi}", hint, path())
        return True

    def check_tier(self, state, pairs, path) -> None:
        """Report a move that lowers the declared tier (or the tier failing: at the
        position whose tier it is)."""
        at = path()
        try:
            before = self.tier(state)
            for move, child in pairs:
                at = path() + (str(move),)
                after = self.tier(child)
                if after < before:
                    span = self.checked.tier.span
                    self.report(("tier", span.line, span.column), span, "error", "tier",
                                f"the move {move} lowers the tier from {before} to {after}; "
                                "no move may lower the tier",
                                "write a tier that every move keeps or raises (a count of "
                                "pieces placed, of lines drawn), or remove it: plies then "
                                "finds one from the rules or solves in one tier",
                                path() + (str(move),))
                    return
        except SearchStopped:
            raise
        except Exception as error:  # noqa: BLE001 - mapped to the game file, or re-raised
            self.runtime(error, at)

    def check_symmetries(self, state, ended: bool, pairs, path) -> None:
        """Report a declared symmetry that does not hold at ``state``: its image must have the
        same player to move, the same end and value (and estimate), and as the positions after
        its moves (or outcomes, with their probabilities) the images of ``state``'s."""
        for info in self.symmetries:
            image_state = image(info.permutation, state)
            try:
                problem = self.symmetry_problem(state, image_state, ended, pairs, info.permutation)
            except SearchStopped:
                raise
            except Exception as error:  # noqa: BLE001 - the rules fail on the image
                mapped = self.model.runtime_error(error)
                if mapped is None:
                    raise
                problem = f"the rules fail on its image ({mapped.diagnostic.message})"
            if problem is not None:
                span = info.decl.span
                self.report(("symmetry", info.decl.name), span, "error", "symmetry",
                            f"symmetry '{info.decl.name}' does not hold in this position: "
                            f"{problem}",
                            "the image of a position must be the same game: the same player "
                            "to move and value, its moves leading to the images of the "
                            "position's; map every variable whose cells move with the others "
                            "(Connect Four's heights with its board), or remove the symmetry",
                            path())

    def symmetry_problem(self, state, other, ended: bool, pairs, permutation) -> str | None:
        """What differs between ``state`` and its image ``other``, or None."""
        model = self.model
        if model.is_terminal(other) != ended:
            return "the game is over in it and not in its image" if ended else \
                "the game is over in its image and not in it"
        if ended:
            mine, theirs = model.utility(state), model.utility(other)
            if mine != theirs:
                return f"it is worth {value_text(mine)} and its image {value_text(theirs)}"
            return None
        if model.to_move(other) != model.to_move(state):
            return "another player is to move in its image"
        if model.has_evaluation and model.evaluate(other) != model.evaluate(state):
            return (f"its estimate (evaluate) is {value_text(model.evaluate(state))} and its "
                    f"image's {value_text(model.evaluate(other))}")
        if model.to_move(state) == CHANCE:
            mine = sorted((p, image(permutation, model.result(state, o)))
                          for o, p in model.chance_outcomes(state))
            theirs = sorted((p, model.result(other, o)) for o, p in model.chance_outcomes(other))
        else:
            mine = sorted(image(permutation, child) for _, child in pairs)
            theirs = sorted(model.result(other, m) for m in model.actions(other))
        if len(mine) != len(theirs):
            return f"it has {len(mine)} moves and its image {len(theirs)}"
        if mine != theirs:
            if model.to_move(state) == CHANCE:
                return "its outcomes lead to other positions (or with other probabilities) " \
                       "than the images of its own"
            # as many of each: one child is the image of more of the moves than the image's
            # moves lead to it (none, or fewer: two moves to one position, say)
            ours, others = Counter(mine), Counter(theirs)
            missing = next(child for child in mine if ours[child] > others[child])
            move = next(m for m, child in pairs if image(permutation, child) == missing)
            if not others[missing]:
                return (f"the image of the position after {move} is not a position after a "
                        f"move of its image")
            return (f"{ours[missing]} of its moves ({move} among them) lead to positions "
                    f"whose image is one position, which {others[missing]} of its image's "
                    f"moves lead to")
        return None

    # -- findings --

    def report(self, key: tuple, span: Span, severity: str, code: str, message: str,
               hint: str | None, moves: tuple[str, ...] | None) -> None:
        """Record a problem, unless the same one was found before (with a shorter sequence)."""
        if key in self.findings:
            return
        diagnostic = Diagnostic(self.model.filename, span.line, span.column, span.end_line,
                                span.end_column, severity, code, message, hint)
        self.findings[key] = Finding(diagnostic, moves)
        if self.wanted is not None and self.wanted(self.findings[key]):
            raise _Wanted(self.findings[key])

    def runtime(self, error: Exception, moves: tuple[str, ...]) -> None:
        if isinstance(error, SearchStopped):
            raise error  # the time limit reached inside the rules: not the game's fault
        mapped = self.model.runtime_error(error)
        if mapped is None:
            raise error  # not the game's code failing: a bug in plies, shown as such
        d = mapped.diagnostic
        span = Span(d.line, d.column, d.end_line, d.end_column)
        self.report(("runtime", d.line, d.column, d.end_line, d.end_column), span, "error",
                    "runtime", d.message, None, tuple(moves))

    def no_moves(self, role: int, moves: tuple[str, ...]) -> None:
        who = self.model.player_name(role)
        span = self.checked.terminal.condition.span
        self.report(("no-moves",), span, "error", "no-moves",
                    f"the game is not over here, but {who} has no legal move",
                    "say in `terminal` that the game ends in this position, or give the "
                    "player a move here", moves)

    def no_effect(self, move, unchanged: bool, path) -> None:
        """Warn about a move that changes nothing (but the turn). Whether a position comes
        back through it is known only when the walk is over (``say_which_passes_repeat``):
        until then its hint claims no more than that none did so far."""
        key = ("no-effect", move.kind)
        if key in self.findings:
            return
        decl = self.declarations[move.kind]
        what = "changes nothing" if unchanged else "changes nothing but the turn"
        self.report(key, self.name_spans[move.kind], "warning", "no-effect",
                    f"move '{decl.name}' {what}", NO_EFFECT_ENDS, path())

    def say_which_passes_repeat(self, component) -> None:
        """Give each no-effect warning whose move a position came back through, in the walk's
        graph (an edge within one strongly connected component, numbered in ``component``)
        or in a random game, the hint that the game can go on forever."""
        kinds = {key[1] for key in self.findings if key[0] == "no-effect"}
        repeating = kinds & self.repeating_kinds
        if kinds - repeating:
            for node in range(len(self.first_edge) - 1):
                for edge in range(self.first_edge[node], self.first_edge[node + 1]):
                    target = self.targets[edge]
                    if target >= 0 and component[target] == component[node] \
                            and self.labels[edge].kind in kinds:
                        repeating.add(self.labels[edge].kind)
        for kind in repeating:
            finding = self.findings[("no-effect", kind)]
            diagnostic = dataclasses.replace(finding.diagnostic, hint=NO_EFFECT_REPEATS)
            self.findings[("no-effect", kind)] = dataclasses.replace(finding,
                                                                     diagnostic=diagnostic)

    def find_never_legal(self) -> None:
        """Warn about each move that was legal in none of the positions explored."""
        statically = {(d.line, d.code) for d in self.checked.diagnostics}
        where = f"the {len(self.states):,} reachable positions" if self.stopped_by is None else \
            f"the {len(self.states):,} positions explored"
        for info in self.checked.moves:
            decl = info.decl
            if info.kind in self.legal_kinds or not self.states:
                continue
            if any(decl.span.line <= line <= decl.span.end_line and code == "never-legal"
                   for line, code in statically):
                continue  # the checker already said so
            self.report(("never-legal", info.kind), self.name_spans[info.kind],
                        "warning", "never-legal",
                        f"move '{decl.name}' is legal in none of {where}",
                        "check its precondition and its parameters' domains", None)

    # -- random games --

    def playout(self, rng: random.Random) -> None:
        """Play one random game from the start: every move and outcome equally likely.

        Positions already explored are not tested again. A problem found is reported with the
        shortest sequence known: the path to the last explored position on the way, then the
        moves played from there.
        """
        if not self.states:
            return
        visited: dict = {}
        states, moves = [], []

        def path_to(step: int) -> tuple[str, ...]:
            j = step
            while self.index.get(states[j]) is None:
                j -= 1
            return self.path(self.index[states[j]]) + tuple(str(m) for m in moves[j:step])

        state = self.states[0]
        while len(moves) < MAX_PLAYOUT_MOVES:
            step = len(states)
            if state in visited:  # the game came back to a position of this game
                self.repeated = True
                self.repeating_kinds.update(move.kind for move in moves[visited[state]:])
                if not self.endless_allowed:
                    first = visited[state]
                    prefix = path_to(first)
                    self.endless(prefix + tuple(str(m) for m in moves[first:]), moves[-1])
                return
            visited[state] = step
            states.append(state)
            number = self.index.get(state)
            if number is not None:
                if self.is_end[number]:
                    self.longest_played = max(self.longest_played, len(moves))
                    return
                edges = range(self.first_edge[number], self.first_edge[number + 1])
                if not edges:
                    return  # a problem here was reported by the walk
                edge = rng.choice(edges)
                move, target = self.labels[edge], self.targets[edge]
                if target >= 0:
                    moves.append(move)
                    state = self.states[target]
                    continue
            else:
                path = functools.partial(path_to, step)
                ended = self.judge(state, path)
                if ended:
                    self.longest_played = max(self.longest_played, len(moves))
                options = self.moves(state, path) if ended is False else []
                if not options:
                    return
                move = rng.choice(options)
            moves.append(move)
            child = self.apply(state, move, functools.partial(path_to, step))
            if child is None:
                return
            if number is None:  # a position the walk never reached: its effects are new too
                self.check_effects(state, [(move, child)], functools.partial(path_to, step),
                                   choices=len(options))
            state = child

    # -- cycles and the longest game --

    def find_cycle(self, on_cycle: bytearray) -> None:
        """Report a cycle among the explored positions, unless the game allows endless play."""
        if self.endless_allowed or not any(on_cycle):
            return
        start = on_cycle.index(1)  # the first position found that lies on a cycle
        loop = self.shortest_cycle(start)
        self.endless(self.path(start) + tuple(str(m) for m in loop), loop[-1])

    def endless(self, moves: tuple[str, ...], closing) -> None:
        self.report(("endless",), self.name_spans[closing.kind], "error", "endless",
                    f"the game can go on forever: after these moves a position repeats "
                    f"(the last move, {closing}, comes back to it)",
                    "make every move bring the end closer (a move counter, or a budget like "
                    "piglet's `left`), or say what endless play is worth: `endless 0`", moves)

    def shortest_cycle(self, start: int) -> list:
        """The moves of a shortest way from position ``start`` back to itself."""
        came: dict[int, tuple[int, object]] = {}
        queue = deque([start])
        while queue:
            node = queue.popleft()
            for edge in range(self.first_edge[node], self.first_edge[node + 1]):
                target = self.targets[edge]
                if target < 0 or target in came:
                    continue
                came[target] = (node, self.labels[edge])
                if target == start:
                    loop, node = [], start
                    while True:
                        node, move = came[node]
                        loop.append(move)
                        if node == start:
                            return loop[::-1]
                queue.append(target)
        raise AssertionError("a position on a cycle has a way back to itself")

    def longest_game(self, order: list[int]) -> int | None:
        """Moves in the longest finished game seen, in the random games and in the explored
        graph (which has no cycle): a longest path to a terminal position, following the
        positions in topological ``order``."""
        distance = [-1] * len(self.states)
        if self.states:
            distance[0] = 0
        for node in order:
            if distance[node] < 0:
                continue
            for edge in range(self.first_edge[node], self.first_edge[node + 1]):
                target = self.targets[edge]
                if target >= 0 and distance[target] < distance[node] + 1:
                    distance[target] = distance[node] + 1
        ends = [distance[i] for i in range(len(self.states)) if self.is_end[i]]
        longest = max(ends + [self.longest_played])
        return longest if ends or self.longest_played else None


def strongly_connected(first_edge: array, targets: array) -> tuple[bytearray, list[int],
                                                                   array]:
    """Which nodes of a graph lie on a cycle, a topological order when it has none, and each
    node's strongly connected component.

    The graph's nodes are 0..n-1; the edges of node i go to
    ``targets[first_edge[i]:first_edge[i+1]]`` (a negative target is no node). A node lies on a
    cycle when its strongly connected component (``tarjan_components``) has more than one node
    or an edge to itself.

    Returns:
        ``on_cycle[i]`` 1 or 0 for each node, the nodes in topological order (meaningful
        only when no node lies on a cycle), and ``component[i]``, the number of node i's
        component (an edge lies on a cycle when both its ends have the same).
    """
    count = len(first_edge) - 1
    on_cycle = bytearray(count)
    component = array("i", bytes(4 * count))
    finished: list[int] = []

    def successors(node: int) -> list[int]:
        return [t for t in targets[first_edge[node]:first_edge[node + 1]] if t >= 0]

    components = tarjan_components(count, successors)  # in reverse topological order
    for number, members in enumerate(components):
        finished.extend(members)
        for member in members:
            component[member] = number
        node = members[-1]  # the component's root
        if len(members) > 1 or node in targets[first_edge[node]:first_edge[node + 1]]:
            for member in members:
                on_cycle[member] = 1
    finished.reverse()
    return on_cycle, finished, component


def _declarations(checked) -> list:
    """The declaration of each move kind: the moves in order, then each chance event's outcomes.

    The numbering is the compiler's (``Move.kind`` indexes the generated EFFECTS).
    """
    from plies.frontend import ast

    declarations: list = [info.decl for info in checked.moves]
    for info in checked.chances.values():
        decl = info.decl
        declarations.extend(decl.outcomes if isinstance(decl, ast.ListedChance) else [decl])
    return declarations
