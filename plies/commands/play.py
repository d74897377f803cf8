"""Playing a game against the solver, in a terminal or from a pipe.

The session shows the position after every move, the legal moves numbered and by their text
form, and after each of the human's moves what it was worth compared with the best move. Chance
events are rolled with a seeded generator, or typed in (``chance="manual"``). ``undo``, ``hint``,
``help`` and ``quit`` work at any prompt. Input comes from any line source, so tests and scripts
drive a game through standard input.

A game that could go on for ever is stopped by two stated rules: when a position occurs for the
third time (``REPETITIONS``), and after ``MAX_MOVES`` moves. A rule of the game that fails is
reported as ``solve`` reports it: at its game-file line, with the moves from the start.

The solver's searches keep to ``think`` seconds a decision; so does every rule play runs itself
(making a move, listing the moves, the end test, drawing the board): a position whose rules
alone take longer (``limits.count_work``) stops the game with ``RulesTooSlowError``, and the
strong solve tried before a game (``play_oracle``) is given up after as long.
"""

from __future__ import annotations

import random
import textwrap
from collections import Counter
from collections.abc import Callable, Iterator
from fractions import Fraction
from pathlib import Path

from plies.errors import GameRuntimeError, PliesError
from plies.commands.analysis import shown_value
from plies.game.model import GameModel, IllegalMoveError, value_text
from plies.solvers import NoMovesError, SolverError, UtilityOutOfBoundsError
from plies.solvers.limits import Limits, SearchStopped
from plies.solvers.protocol import CHANCE, MAX, MIN
from plies.solvers.strong import StrongSolution, strong_solve

SIDES = ("MAX", "MIN", "both", "none")
REPETITIONS = 3
"""A game stops when one position has occurred this many times."""
MAX_MOVES = 10_000
"""A game stops after this many moves (chance outcomes included)."""
PROMPT = "move (number or text; hint, undo, help, quit)> "
HELP = """\
  a number or a move as listed (1 or {example}): play that move
  hint: the move the solver would play, and what it is worth
  undo: take back your last move (and the solver's reply)
  quit: stop the game
  help: this list"""


class RulesTooSlowError(PliesError):
    """The rules of one position took longer than play gives them (``--think``)."""


# ---- perfect play ---------------------------------------------------------------

PLAY_POSITIONS = 100_000
"""``plies play`` solves every position first when the game has at most this many."""


def solution_oracle(solution: StrongSolution) -> Callable:
    """Every move of a position, best first, as ``(move, value, remoteness)``; None if unknown."""
    def judged(state):
        i = solution.find(state)
        if i is None or not solution.exact or solution.graph.roles[i] not in (MAX, MIN):
            return None
        return [(m.move, m.value, m.remoteness) for m in solution.moves(i)]
    return judged


def play_oracle(model: GameModel, db: str | None = None, depth: int | None = None,
                state=None, before: list[str] | None = None):
    """What ``plies play`` judges moves with: the database, else a strong solve of the game
    from ``state`` (the position after the moves ``before``; default: the start) when it is
    small enough (and no --depth asks for a short search), else None."""
    if db is not None and Path(db).is_dir():
        from plies.commands.solution import SolutionDirectory
        stored = SolutionDirectory(db)
        stored.check_fits(model)
        return stored.oracle(model)
    if db is not None:
        from plies.commands.database import SolutionDatabase
        stored = SolutionDatabase(db)
        stored.check_fits(model)
        return stored.oracle(model)
    if depth is not None:
        return None
    from plies.commands.analysis import game_errors
    try:
        with game_errors(model, before or []):  # a failing rule: at its line, as in solve
            solution = strong_solve(model, state, max_positions=PLAY_POSITIONS)
    except (NoMovesError, UtilityOutOfBoundsError):
        raise  # the rules break the protocol somewhere: reported as solve reports it
    except SolverError:  # too big or refused: play judges by searching
        return None
    return solution_oracle(solution)


def within(seconds: float, function: Callable, *args):
    """``function(*args)``, stopped with SearchStopped once the work that a costly position's
    rules count (``limits.count_work``) has taken ``seconds``."""
    Limits(timeout=seconds).first_check()  # the work reports to these limits while this runs
    return function(*args)


def timed_oracle(model: GameModel, db: str | None, depth: int | None, seconds: float,
                 state=None, before: list[str] | None = None):
    """``play_oracle``, or None when its rules' work takes longer than ``seconds`` (play then
    judges by searching).

    Raises:
        GameRuntimeError: a rule of the game fails in a position the strong solve met (play
            reports it before the game starts, as solve does).
        NoMovesError, UtilityOutOfBoundsError: likewise for a position without moves or a
            utility outside the bounds.
    """
    try:
        return within(seconds, play_oracle, model, db, depth, state, before)
    except SearchStopped:
        return None


class PlaySession:
    """One game between the people at the keyboard and the solver."""

    def __init__(self, model: GameModel, *, human: str = "MAX", depth: int | None = None,
                 seed: int | None = None, manual_chance: bool = False, think: float = 2.0,
                 write: Callable[[str], None] = print, oracle: Callable | None = None,
                 start_moves: list[str] | tuple[str, ...] = ()):
        self.model = model
        self.start_moves = list(start_moves)  # played before the session: --from
        # A strong solution's answers (play_oracle): every move of a position
        # with its value and remoteness, best first, or None for a position it does not know.
        self.oracle = oracle
        self.humans = {"MAX": {MAX}, "MIN": {MIN}, "both": {MAX, MIN}, "none": set()}[human]
        self.depth = depth
        self.think = think  # seconds the solver may take for each decision
        self.random = random.Random(seed)
        self.manual_chance = manual_chance
        self.write = write
        self.history: list[tuple[object, str, bool]] = []  # (state before, move text, by human)
        self.fixed = 0  # the first moves of history, --from's, which undo does not take back
        self.seen: Counter = Counter()  # how often each position has occurred in this game
        self.exit_code = 0  # what ``run`` returns when the game does not end: 1 if input ran out

    # -- the loop --

    def run(self, lines: Iterator[str] | None = None) -> int:
        """Play until the game ends, the input ends or someone quits; returns an exit code.

        ``lines`` are the answers (from a pipe or a test); None reads the keyboard. The code
        is 0 when the game ended (by its rules, by repetition or length) or a player quit, and
        1 when the input ended first.

        Raises:
            GameRuntimeError: a rule of the game failed (at its line, with the moves played).
        """
        try:
            return self.play_out(lines)
        except GameRuntimeError:
            raise
        except SearchStopped:
            moves = self.moves_played()
            raise RulesTooSlowError(
                f"stopped by timeout: the game's rules took more than {self.think:g} s (--think) "
                "in one step, so play cannot go on; --think S allows more"
                + (f"\n  moves from the start: {' '.join(moves)}" if moves else "")) from None
        except Exception as error:  # noqa: BLE001 - only failures inside game code are mapped
            mapped = self.model.runtime_error(error, self.moves_played())
            if mapped is None:
                raise
            raise mapped from None

    def rule(self, method: Callable, *args):
        """A rule of the game that play runs itself (not in a search), given ``think`` seconds."""
        return within(self.think, method, *args)

    def play_out(self, lines: Iterator[str] | None) -> int:
        """The game loop of ``run``."""
        model = self.model
        state = self.rule(model.initial_state)
        for text in self.start_moves:  # the game so far: seen, and in the moves reported
            self.seen[state] += 1
            self.history.append((state, text, False))
            state = self.rule(model.play, state, text)
        self.fixed = len(self.history)
        if self.start_moves:
            self.write(f"from the position after {' '.join(self.start_moves)}")
        self.show(state)
        while not self.rule(model.is_terminal, state):
            self.seen[state] += 1
            stop = self.stopping_rule(state)
            if stop:
                self.write(stop)
                return 0
            role = self.rule(model.to_move, state)
            if role == CHANCE:
                state = self.chance_step(state, lines)
                if state is None:
                    return self.exit_code
                continue
            if role not in self.humans:
                move = self.solver_move(state)
                self.write(f"{model.player_name(role)} plays {move}"
                           f"{self.outlook(state, role, move)}")
                self.history.append((state, str(move), False))
                state = self.rule(model.result, state, move)
                self.show(state)
                continue
            state = self.human_step(state, role, lines)
            if state is None:
                return self.exit_code
        self.write(self.final_words(state))
        return 0

    def stopping_rule(self, state) -> str | None:
        """Why the game stops at ``state`` though it is not over, or None."""
        if self.seen[state] >= REPETITIONS:
            reason = (f"the position has occurred {REPETITIONS} times (after "
                      f"{self.history[-1][1]}): plies play stops a game at the third repetition")
        elif len(self.history) >= MAX_MOVES:
            reason = f"{MAX_MOVES:,} moves were played: plies play stops a game there"
        else:
            return None
        endless = getattr(self.model, "endless_value", None)
        if endless is None:
            return f"game stopped: {reason}; the game declares no value for endless play"
        return (f"game stopped: {reason}; endless play is worth {value_text(endless)} "
                f"({self.model.meaning(endless, terminal=True)})")

    def moves_played(self) -> list[str]:
        """The moves (and chance outcomes) from the start, as text."""
        return [text for _, text, _ in self.history]

    def human_step(self, state, role, lines):
        model = self.model
        moves = list(self.rule(model.actions, state))
        self.write("legal moves:")  # the position just shown says whose move it is
        listed = "  ".join(f"{i})\xa0{m}" for i, m in enumerate(moves, start=1))  # keep "7) x" whole
        self.write(textwrap.fill(listed, width=78, initial_indent="  ", subsequent_indent="  ",
                                 break_on_hyphens=False).replace("\xa0", " "))
        while True:
            text = self.answer(PROMPT, lines)
            if text is None:
                return None
            if text == "help":
                self.write(HELP.format(example=moves[0]))
                continue
            if text == "hint":
                self.write(self.hint(state, role))
                continue
            if text == "undo":
                undone = self.undo()
                if undone is None:
                    self.write("nothing to undo")
                    continue
                self.show(undone)
                return undone
            move = self.pick(moves, text)
            if move is None:
                self.write(_refusal(text, moves, "legal move"))
                continue
            self.write(self.judge(state, role, moves, move))
            self.history.append((state, str(move), True))
            child = self.rule(model.result, state, move)
            self.show(child)
            return child

    def chance_step(self, state, lines):
        model = self.model
        outcomes = self.rule(model.chance_outcomes, state)
        if self.manual_chance:
            shown = "  ".join(f"{o} ({value_text(p)})" for o, p in outcomes)
            while True:
                text = self.answer(f"chance: {shown}> ", lines)
                if text is None:
                    return None
                picked = self.pick([o for o, _ in outcomes], text)
                if picked is not None:
                    break
                self.write(_refusal(text, [o for o, _ in outcomes], "outcome"))
        else:
            picked = self.roll(outcomes)
        self.write(f"chance: {picked}")
        self.history.append((state, str(picked), False))
        child = self.rule(model.result, state, picked)
        self.show(child)
        return child

    def roll(self, outcomes):
        """An outcome drawn with its exact probability."""
        point = Fraction(self.random.random())
        total = Fraction(0)
        for outcome, probability in outcomes:
            total += probability
            if point < total:
                return outcome
        return outcomes[-1][0]

    # -- the solver's view --

    def search(self, state, seconds: float, moves: tuple[str, ...] = ()):
        """The solver's verdict on ``state``: exact when it can finish, else an estimate.

        It deepens iteratively, so when the time runs out it has the estimate of the deepest
        search it completed.
        """
        try:
            if moves:  # played within --think, as every rule play runs itself
                state = self.rule(self.model.play_all, list(moves), state)
            return self.model.solve("auto", state=state, before=list(moves), depth=self.depth,
                                    timeout=seconds, deepen=True)
        except GameRuntimeError as error:  # its moves start at ``state``: say those before it
            raise GameRuntimeError(error.diagnostic, self.moves_played() + error.moves,
                                   error.source) from None

    def solver_move(self, state):
        judged = self.oracle(state) if self.oracle is not None else None
        if judged:  # best by value, then remoteness
            return judged[0][0]
        move = self.search(state, self.think).best_move
        return move if move is not None else self.rule(self.model.actions, state)[0]

    def hint(self, state, role) -> str:
        """The move the solver would play here, and what it is worth."""
        judged = self.oracle(state) if self.oracle is not None else None
        if judged:  # the strong solution's best move, with how the game then goes
            best, value, _ = judged[0]
            words = self.outlook(state, role, best).strip(" ()")
            return f"hint: {best} (worth {shown_value(value)}{': ' + words if words else ''})"
        result = self.search(state, self.think)
        best = result.best_move if result.best_move is not None else \
            self.rule(self.model.actions, state)[0]
        if result.value is None:
            return f"hint: {best} (no time to value it: --think S gives the solver more)"
        if result.proved:
            return (f"hint: {best} (worth {shown_value(result.value)}: "
                    f"{self.model.meaning(result.value)})")
        return (f"hint: {best} (about {shown_value(result.value)}: an estimate from a search "
                f"{result.depth or 0} plies deep)")

    def outlook(self, state, role, move) -> str:
        """" (wins in 3)" for a move the strong solution knows, else ""."""
        from plies.commands.analysis import outlook
        for judged_move, value, remoteness in (self.oracle(state) or []) if self.oracle else []:
            if judged_move == move:
                words = outlook(self.model, role, value, remoteness)
                return f" ({words})" if words else ""
        return ""

    def judge_exactly(self, role, judged, chosen) -> str:
        """What the chosen move was worth by value, then remoteness, against the best ones."""
        from plies.commands.analysis import outlook
        model = self.model
        values = {m: (v, r) for m, v, r in judged}
        best_value, best_distance = values[judged[0][0]]
        mine, distance = values[chosen]
        best_moves = [str(m) for m, v, r in judged if (v, r) == (best_value, best_distance)]
        said = outlook(model, role, mine, distance)
        if mine != best_value:
            best_said = outlook(model, role, best_value, best_distance)
            return (f"{chosen} gives away value: it is worth {shown_value(mine)}, but "
                    f"{' or '.join(best_moves)} kept {shown_value(best_value)}"
                    + (f" ({best_said})" if best_said else "")
                    + (f"; {chosen} {said}" if said else ""))
        text = f"{chosen} keeps {_article(model.meaning(best_value))}"
        if said:
            text += f": {said}"
        if distance != best_distance:
            return text + f", but {' or '.join(best_moves)} " + \
                outlook(model, role, best_value, best_distance)
        return text + _as_good([m for m in best_moves if m != str(chosen)])

    def judge(self, state, role, moves, chosen) -> str:
        """What the chosen move was worth, compared with the best one (estimated if need be)."""
        judged = self.oracle(state) if self.oracle is not None else None
        if judged:
            return self.judge_exactly(role, judged, chosen)
        model = self.model
        results = {m: self.search(state, self.think / len(moves), (str(m),)) for m in moves}
        if any(r.value is None for r in results.values()):
            return f"{chosen}: no time to judge it (--think S gives the solver more)"
        values = {m: r.value for m, r in results.items()}
        best = max(values.values()) if role == MAX else min(values.values())
        mine = values[chosen]
        as_good = [str(m) for m, v in values.items() if v == best and m != chosen]
        exact = all(r.proved for r in results.values())
        if not exact:
            depth = min(r.depth or 0 for r in results.values())
            note = f" (an estimate: a search {depth} plies deep did not reach the end)"
            if mine == best:
                return f"{chosen} looks as good as any move{note}"
            best_moves = [str(m) for m, v in values.items() if v == best]
            return (f"{chosen} looks weaker: about {shown_value(mine)}, against "
                    f"{shown_value(best)} for {' or '.join(best_moves)}{note}")
        if mine == best:
            return f"{chosen} keeps {_article(model.meaning(best))}" + _as_good(as_good)
        best_moves = [str(m) for m, v in values.items() if v == best]
        return (f"{chosen} gives away value: it is worth {shown_value(mine)}, but "
                f"{' or '.join(best_moves)} kept {shown_value(best)}")

    # -- helpers --

    def undo(self):
        """Take back moves up to and including the human's last one; the state then, or None
        (nothing taken back) when the human has made no move since the start or --from's."""
        for k in range(len(self.history) - 1, self.fixed - 1, -1):
            state, _, by_human = self.history[k]
            if by_human:
                del self.history[k:]
                # The positions taken back no longer count as seen; the loop counts ``state``.
                self.seen = Counter(before for before, _, _ in self.history)
                return state
        return None

    def pick(self, options, text):
        if text.isdigit():
            index = int(text) - 1
            return options[index] if 0 <= index < len(options) else None
        try:
            wanted = self.model.parse_move(text)
        except ValueError:
            return None
        for option in options:
            if option == wanted:
                return option
        return None

    def answer(self, prompt: str, lines: Iterator[str] | None) -> str | None:
        """The next answer, or None (said why) when the input ended or the player quit."""
        text = self.ask(prompt, lines)
        if text is None:
            self.write("the input ended before the game did")
            self.exit_code = 1
        elif text == "quit":
            self.write("game abandoned")
            return None
        return text

    def ask(self, prompt: str, lines: Iterator[str] | None) -> str | None:
        """The next non-empty answer: typed at the prompt, or read from ``lines`` and echoed."""
        if lines is None:
            try:
                return input(prompt).strip() or self.ask(prompt, None)
            except EOFError:
                return None
        for line in lines:
            text = line.strip()
            if text:
                self.write(prompt + text)
                return text
        return None

    def show(self, state) -> None:
        self.write(self.rule(self.model.render, state))

    def final_words(self, state) -> str:
        value = self.rule(self.model.utility, state)
        return f"game over: {self.model.meaning(value, terminal=True)} (utility {value_text(value)})"


def _refusal(text: str, options: list, what: str) -> str:
    """Why ``text`` does not pick one of ``options`` (legal moves or chance outcomes)."""
    if text.isdigit():
        count = len(options)
        return (f"{text} is out of range: there {'is' if count == 1 else 'are'} {count} "
                f"{what}{'s' * (count != 1)}, numbered 1 to {count}")
    listed = " ".join(str(option) for option in options)
    article = "an" if what[0] in "aeiou" else "a"
    return f"'{text}' is not {article} {what} here; the {what}s are: {listed}"


def _as_good(others: list[str]) -> str:
    """"; place(0,2) was as good", or how many other moves were, or ""."""
    if len(others) > 3:
        return f"; {len(others)} other moves were as good"
    if others:
        return f"; {', '.join(others)} {'was' if len(others) == 1 else 'were'} as good"
    return ""


def _article(meaning: str) -> str:
    if meaning.startswith(("draw", "even")):
        return f"the {meaning}"
    return f"the result: {meaning}"


__all__ = ["PlaySession", "SIDES", "IllegalMoveError"]
