"""Limits hold inside one costly position, and numbers have a bound (issue 13, item 8).

The generated code counts the rounds of every loop that is not small and fixed as work, which
the search's --timeout and --max-nodes see; a number stored past 10^18 is a GameFault at its
line. Each test guards against a hang with a generous timeout: how fast the limits stop a
search belongs to benchmarks/, not to assertions on the clock.
"""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from plies.cli import app
from plies.errors import GameRuntimeError
from plies.game.loader import load_source
from plies.frontend.runtime import MAX_MAGNITUDE, GameFault, bounded

runner = CliRunner()

pytestmark = pytest.mark.timeout(120)  # a hang guard: without the work counter each never ends

GAME = """game toil
players A max, B min
state
  x: int = 2
  n: int = 0
move go{binders} {{
  {effect}
  n += 1
}}
terminal {terminal}
utility 0
"""


def toil(effect: str = "", binders: str = "", terminal: str = "n >= 3") -> str:
    return GAME.format(effect=effect, binders=binders, terminal=terminal)


SQUARING = toil("for i in 1..40 { x *= x }")

# The four positions that never finish, and a `while` loop of the same kind.
COSTLY = {
    "three nested loops in one effect":
        toil("for i in 1..10000 { for j in 1..10000 { for k in 1..10000 { x = i + j - k } } }"),
    "a move with a million parameter combinations, one of them legal":
        toil(binders="(i in 1..100, j in 1..100, k in 1..100) when i * j * k == 1000000",
             terminal="n >= 30"),
    "three nested `all` in the terminal test":
        toil(terminal="all i in 1..10000: all j in 1..10000: all k in 1..10000: i + j + k + n > 0"),
    "a `while` loop in a `for` loop":
        toil("for i in 1..10000 { for j in 1..10000 { let k = 0  while k < 10000 { k += 1 } } }"),
}


def test_a_move_with_three_10000_value_parameters_is_refused_at_its_line(tmp_path):
    """Its 10^12 combinations would be listed in every position (and the legal ones kept):
    the checker counts them from the domains and refuses more than a million."""
    path = tmp_path / "toil.game"
    path.write_text(toil(binders="(i in 1..10000, j in 1..10000, k in 1..10000)"), encoding="utf-8")
    result = solve(path, "--timeout", "0.5")
    assert result.exit_code == 1
    assert result.output.splitlines()[:4] == [
        f"{path}:6:8: error: move 'go' has 1,000,000,000,000 combinations of parameter values "
        "(10,000 x 10,000 x 10,000); a move lists at most 1,000,000",
        "    6 | move go(i in 1..10000, j in 1..10000, k in 1..10000) {",
        "      |        ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
        "  hint: every position lists them all: narrow the domains (a range whose ends are not "
        "bounded counts as 10,000 values), or split the move in two with `again`",
    ]


@pytest.mark.parametrize(("binders", "sizes"), [
    ("(i in 1..x, j in 1..x)", "10,000 x 10,000"),  # unbounded ends count as 10,000 values
    ("(i in 0..n, j in 0..n)", "1,001 x 1,001"),  # ends bounded by n's declared range
    ("(i in 0..999, j in i..1000)", "1,000 x 1,001"),  # bounded by the parameter before it
])
def test_domains_are_counted_at_their_largest(binders, sizes):
    from plies.game.loader import validate_source
    source = toil(binders=binders).replace("n: int = 0", "n: 0..1000 = 0")
    found = [d.message for d in validate_source(source, "toil.game") if d.code == "limit"]
    assert len(found) == 1 and f"({sizes})" in found[0], found


def test_a_million_combinations_are_allowed():
    from plies.game.loader import validate_source
    source = toil(binders="(i in 1..100, j in 1..100, k in 1..100)")
    assert not [d for d in validate_source(source, "toil.game") if d.severity == "error"]


def test_a_uniform_chance_event_has_the_same_bound():
    from plies.game.loader import validate_source
    source = toil(effect="chance roll").replace(
        "terminal", "chance roll(a in 1..1000, b in 1..1001) { x = a + b }\nterminal")
    errors = [d for d in validate_source(source, "toil.game") if d.severity == "error"]
    assert [(d.line, d.code, d.message) for d in errors] == [
        (10, "limit", "chance 'roll' has 1,001,000 combinations of parameter values "
                      "(1,000 x 1,001); a chance event lists at most 1,000,000")]
    assert errors[0].hint == ("every position lists them all: narrow the domains (a range whose "
                              "ends are not bounded counts as 10,000 values)")


def solve(path, *options: str):
    return runner.invoke(app, ["solve", str(path), *options])


@pytest.mark.parametrize("name", COSTLY)
@pytest.mark.parametrize(("options", "reason"), [(["--max-nodes", "10"], "max-nodes"),
                                                 (["--timeout", "0.5"], "timeout")])
def test_a_limit_stops_a_search_inside_one_costly_position(tmp_path, name, options, reason):
    path = tmp_path / "toil.game"
    path.write_text(COSTLY[name], encoding="utf-8")
    result = solve(path, *options)
    assert result.exit_code == 0, result.output
    assert f"status     not proved: stopped by {reason}" in result.output


CHANCE = """game dice
players A max, B min
state
  n: 0..20 = 0
move go { chance roll }
chance roll(d in 1..2) { n += d }
terminal n >= 1 and (all i in 1..10000: all j in 1..10000: all k in 1..10000: i + j + k + n > 0)
utility 0
"""


@pytest.mark.parametrize(("options", "reason"), [(["--max-nodes", "10"], "max-nodes"),
                                                 (["--timeout", "0.5"], "timeout")])
def test_a_limit_stops_the_walk_before_a_chance_games_search(tmp_path, options, reason):
    """auto walks a few positions of a game with chance before its search (to find the
    denominators of its values); a costly position met there stops it as in the search."""
    path = tmp_path / "dice.game"
    path.write_text(CHANCE, encoding="utf-8")
    result = solve(path, *options)
    assert result.exit_code == 0, result.output
    assert "value      unknown (the search stopped before any move from here was fully " \
           "searched; it lies in 0..0, the game's bounds)" in result.output
    assert f"status     not proved: stopped by {reason}\n" in result.output


def test_a_limit_stops_nim_with_huge_heaps():
    result = runner.invoke(app, ["solve", "nim", "--param", "heaps=[10000,10000,10000]",
                                 "--timeout", "0.5"])
    assert result.exit_code == 0, result.output
    assert "status     not proved: stopped by timeout" in result.output


def test_squaring_a_number_forty_times_is_a_fault_at_its_line(tmp_path):
    path = tmp_path / "square.game"
    path.write_text(SQUARING, encoding="utf-8")
    result = solve(path, "--timeout", "5")
    assert result.exit_code == 1
    assert result.output == (
        f"{path}:7:20: error: a number would become 18446744073709551616, past 10^18: "
        "a game's numbers lie within -10^18..10^18\n"
        "    7 |   for i in 1..40 { x *= x }\n"
        "      |                    ^^^^^^\n"
        "  moves from the start: go\n")


@pytest.mark.parametrize(("effect", "column", "past"), [
    ("let y = x  for i in 1..100 { y = y + y }  x = 0", 32, "1152921504606846976"),  # 2^60
    ("for i in 1..70 { x = x * 3 }", 20, "2701703435345984178"),  # 2 * 3^37
    ("while x > 0 { x = x * x * x }", 17, "2417851639229258349412352"),  # 2^81
])
def test_numbers_that_grow_in_a_loop_stop_at_the_bound(effect, column, past):
    model = load_source(toil(effect), "grow.game")
    with pytest.raises(GameRuntimeError) as fault:
        model.play_all(["go"])
    diagnostic = fault.value.diagnostic
    assert (diagnostic.line, diagnostic.column) == (7, column)
    assert diagnostic.message == (f"a number would become {past}, past 10^18: a game's numbers "
                                  "lie within -10^18..10^18")


def test_bounded_accepts_the_bound_and_refuses_past_it():
    assert bounded(MAX_MAGNITUDE) == MAX_MAGNITUDE and bounded(-MAX_MAGNITUDE) == -MAX_MAGNITUDE
    with pytest.raises(GameFault, match=r"would become 1000000000000000001, past 10\^18"):
        bounded(MAX_MAGNITUDE + 1)
    from fractions import Fraction
    with pytest.raises(GameFault, match=r"a fraction over 3000000000000000000"):
        bounded(Fraction(1, 3 * MAX_MAGNITUDE))


@pytest.mark.parametrize("name", ["tictactoe", "connect4"])
def test_small_fixed_games_pay_nothing_for_the_limits(name):
    """Their loops are all small and fixed and their numbers bounded by their ranges: the
    generated code has no work counting and no magnitude check at all."""
    result = runner.invoke(app, ["compile", name])
    assert result.exit_code == 0
    for helper in ("charged(", "count_work(", "bounded("):
        assert helper not in result.output


def test_a_costly_position_is_still_counted_when_no_limit_is_set(tmp_path):
    """Without limits the counter only counts: the position is played to the end."""
    model = load_source(toil("for i in 1..300 { for j in 1..300 { x = i } }"), "count.game")
    state = model.play_all(["go"])
    assert model.to_move(state) is not None
