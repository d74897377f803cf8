"""Node and time limits, Ctrl-C, progress reports and depth-limited search."""

import threading

import pytest

from plies.solvers import solve
from plies.solvers.graph import SolveStoppedError
from plies.solvers.limits import Limits, count_work
from plies.solvers.strong import strong_solve

from .games import Interrupting, Nim, Piglet, TicTacToe, Tree

ALL = ["minimax", "alphabeta", "expectiminimax", "auto"]


@pytest.mark.timeout(60)  # a hang guard, not a speed test (speed belongs in benchmarks/)
def test_max_nodes_stops_auto_quickly_without_a_proof():
    result = solve(TicTacToe(), max_nodes=1000)
    assert (result.proved, result.stopped, result.depth) == (False, "max-nodes", None)
    assert result.nodes <= 1000


def test_deepening_keeps_the_last_completed_iteration_when_stopped():
    result = solve(TicTacToe(), max_nodes=1000, deepen=True)
    assert (result.proved, result.stopped) == (False, "max-nodes")
    assert result.depth is not None and result.value == 0 and result.best_move is not None


@pytest.mark.parametrize(
    ("game", "star"),
    [(TicTacToe(), True), (TicTacToe(bounds=True), True), (Nim([2, 3, 4]), True),
     (Piglet(2, 8), True), (Piglet(2, 8), False)],
)
@pytest.mark.parametrize("limits", [{"max_nodes": 10**7}, {"timeout": 600.0},
                                    {"max_nodes": 10**7, "timeout": 600.0}])
def test_limits_that_are_not_reached_do_not_change_the_search(game, star, limits):
    unlimited = solve(game, star=star)
    limited = solve(game, star=star, **limits)
    assert limited.proved and limited.stopped is None and limited.depth is None
    assert (limited.value, limited.nodes, limited.principal_variation) == (
        unlimited.value, unlimited.nodes, unlimited.principal_variation)


@pytest.mark.parametrize("algorithm", ALL)
def test_max_nodes_is_never_exceeded(algorithm):
    result = solve(TicTacToe(), algorithm, max_nodes=1500)
    assert result.nodes == 1500
    assert (result.proved, result.stopped) == (False, "max-nodes")


@pytest.mark.parametrize(
    ("algorithm", "bounds"),
    [("minimax", None), ("alphabeta", None), ("expectiminimax", None), ("expectiminimax", (0, 9))],
)
def test_a_stopped_search_keeps_the_best_root_child_found(algorithm, bounds):
    # Nodes: root, a, a1, a2, b, then b1 is the sixth: a is fully searched, b is not.
    spec = ("max", {"a": ("min", {"a1": 1, "a2": 2}), "b": ("min", {"b1": 5, "b2": 6})})
    game = Tree(spec, bounds=bounds)
    result = solve(game, algorithm, max_nodes=5)
    assert (result.stopped, result.proved, result.depth) == ("max-nodes", False, None)
    assert (result.value, result.best_move, result.principal_variation) == (1, "a", ["a", "a1"])


@pytest.mark.parametrize("algorithm", ALL)
def test_nothing_known_gives_no_value(algorithm):
    result = solve(TicTacToe(bounds=True), algorithm, max_nodes=1)
    assert (result.value, result.best_move, result.principal_variation) == (None, None, [])
    assert (result.depth, result.to_dict()["value"]) == (None, None)


@pytest.mark.parametrize("algorithm", ["minimax", "auto"])
@pytest.mark.timeout(60)  # without the timeout this search takes hours: a hang guard
def test_timeout(algorithm):
    result = solve(Nim([3, 4, 5, 6]), algorithm, timeout=0.1, use_table=False)
    assert (result.proved, result.stopped) == (False, "timeout")


def test_a_search_within_the_limits_is_unaffected():
    result = solve(TicTacToe(), "alphabeta", max_nodes=10**6, timeout=60)
    assert (result.value, result.nodes, result.proved, result.stopped) == (0, 18_297, True, None)


@pytest.mark.parametrize("algorithm", ALL)
def test_ctrl_c_returns_what_is_known(algorithm):
    result = solve(Interrupting(TicTacToe(), after=1000), algorithm)
    assert (result.proved, result.stopped) == (False, "interrupted")


def test_ctrl_c_during_iterative_deepening_keeps_the_last_iteration():
    result = solve(Interrupting(TicTacToe(), after=3000), deepen=True)
    assert result.stopped == "interrupted"
    assert result.depth >= 1 and result.value == 0 and result.best_move is not None


@pytest.mark.timeout(60)  # a hang guard: the search runs until its timeout
def test_progress_is_reported():
    # A search that cannot end before its timeout (minimax on this nim takes hours) runs past
    # several report intervals however fast the machine: no assumption on its speed.
    reports = []
    result = solve(Nim([3, 4, 5, 6]), "minimax", timeout=0.6, progress=reports.append)
    assert result.stopped == "timeout"
    assert reports
    nodes = [report.nodes for report in reports]
    assert nodes == sorted(nodes) and nodes[0] > 0
    assert all(report.nodes_per_second > 0 and report.depth is None for report in reports)


def test_progress_names_the_iteration():
    reports = []
    solve(Nim([3, 4, 5, 6]), timeout=0.6, use_table=False, deepen=True,
          progress=reports.append)
    assert reports and all(report.depth >= 1 for report in reports)


ESTIMATED = (
    "max",
    {
        "a": ("min", {"a1": 1, "a2": ("max", {"x": 9}, 4)}, 7),
        "b": ("min", {"b1": 5, "b2": 6}, 2),
    },
    0,
)


@pytest.mark.parametrize("algorithm", ALL)
def test_depth_limited_search_uses_evaluate(algorithm):
    game = Tree(ESTIMATED)
    one = solve(game, algorithm, depth=1)  # a: 7, b: 2
    assert (one.value, one.best_move, one.proved, one.depth) == (7, "a", False, 1)
    two = solve(game, algorithm, depth=2)  # a: min(1, 4) = 1, b: 5
    assert (two.value, two.best_move, two.proved, two.depth) == (5, "b", False, 2)
    full = solve(game, algorithm, depth=3)  # no cut-off was needed: a proof
    assert (full.value, full.proved) == (5, True)
    assert solve(game, algorithm, depth=0).value == 0


def test_iterative_deepening_stops_at_a_proof():
    result = solve(TicTacToe(), depth=20)
    assert (result.value, result.proved, result.depth) == (0, True, 9)


@pytest.mark.parametrize("algorithm", ["expectiminimax", "auto"])
def test_depth_counts_chance_outcomes_as_plies(algorithm):
    result = solve(Piglet(2, 4), algorithm, depth=1)
    assert (result.proved, result.depth) == (False, 1)
    # flip: the coin is in the air, a depth cut-off: evaluated 0; hold is illegal at the start
    assert result.value == 0


class Toiling(TicTacToe):
    """Tic-tac-toe whose terminal test, after ``easy`` cheap positions, works for ever in each
    position, counting its work as a game's rules do (``count_work``)."""

    def __init__(self, easy: int = 0) -> None:
        super().__init__(bounds=True)
        self.easy = easy
        self.tested = 0

    def outcome(self, state):
        self.tested += 1
        if self.tested > self.easy:
            while True:  # one position that never finishes: only the limits can end it
                count_work(1_000)
        return super().outcome(state)


@pytest.mark.timeout(60)  # a hang guard: without work counted, each search here never ends
@pytest.mark.parametrize("algorithm", ALL)
@pytest.mark.parametrize(("limits", "reason"), [({"max_nodes": 10}, "max-nodes"),
                                                ({"timeout": 0.2}, "timeout")])
def test_limits_hold_inside_one_position_that_counts_its_work(algorithm, limits, reason):
    result = solve(Toiling(easy=50), algorithm, **limits)
    assert (result.proved, result.stopped) == (False, reason)


@pytest.mark.timeout(60)
def test_work_counts_as_nodes_for_max_nodes():
    from plies.solvers.limits import WORK_PER_NODE
    result = solve(Toiling(), max_nodes=3)
    assert (result.stopped, result.nodes) == ("max-nodes", 1)  # the root's test: 3 nodes' work
    assert WORK_PER_NODE >= 10_000  # far above what a shipped game does per position


def test_work_counted_outside_a_search_is_never_stopped():
    solve(Toiling(easy=50), timeout=0.05)  # its limits stay the last ones, long past
    for _ in range(1000):  # game code run after the search (replaying its line, say)
        count_work(100_000)
    solve(TicTacToe(), max_nodes=10)
    for _ in range(1000):
        count_work(100_000)


@pytest.mark.timeout(60)  # a hang guard: with one meter for all threads, the search never ends
def test_each_thread_counts_its_rules_work_against_its_own_limits():
    """plies serve runs a solve in one thread and answers requests in another: a search that
    one thread starts does not take the work meter of the other's."""
    results = []
    searching = threading.Thread(
        target=lambda: results.append(solve(Toiling(easy=50), timeout=0.3)))
    searching.start()
    unlimited = Limits()
    rounds = 0
    while searching.is_alive():
        unlimited.first_check()  # another search starts, in this thread, without limits
        count_work(100_000)
        rounds += 1
        searching.join(0.01)
    assert results[0].stopped == "timeout"
    assert unlimited.work == 100_000 * rounds  # this thread's work, none of the other's


@pytest.mark.timeout(60)  # a hang guard, not a speed test
def test_a_cancel_stops_a_solve_inside_one_position():
    cancel = threading.Event()
    threading.Timer(0.2, cancel.set).start()
    with pytest.raises(SolveStoppedError) as stopped:
        strong_solve(Toiling(easy=50), cancel=cancel)
    assert stopped.value.stopped_by == "cancelled"
    assert str(stopped.value).startswith("cancelled while finding the positions (")


@pytest.mark.timeout(60)  # a hang guard: before, valuing ran to its end whatever the limits
@pytest.mark.parametrize(("game", "pass_name"), [("tictactoe", "retrograde"),
                                                 ("piglet", "solve_chance")])
def test_a_cancel_stops_a_strong_solve_while_it_values_the_positions(monkeypatch, game,
                                                                    pass_name):
    """Valuing can take longer than finding the positions (Pig to 100: minutes of policy
    iteration after seconds of exploring): the limits of the solve hold there too."""
    import plies
    import plies.solvers.strong as strong
    cancel = threading.Event()
    original = getattr(strong, pass_name)
    calls = []

    def cancelled_now(*args, **kwargs):  # every position found: the cancel comes now, once
        if not calls:
            cancel.set()
        calls.append(1)
        return original(*args, **kwargs)

    monkeypatch.setattr(strong, pass_name, cancelled_now)
    with pytest.raises(SolveStoppedError) as stopped:
        strong_solve(plies.load(game), cancel=cancel)
    assert calls == [1]
    assert stopped.value.stopped_by == "cancelled"
    assert str(stopped.value).startswith("cancelled while valuing the positions (")
    assert str(stopped.value).endswith(" found)")
    cancel.clear()  # the same solve without the cancel values every position
    assert strong_solve(plies.load(game), cancel=cancel).values


def test_batches_reads_a_queue_that_grows_while_it_is_read():
    from plies.solvers.limits import BATCH, batches
    queue = list(range(BATCH + 3))
    seen = []
    for chunk in batches(queue):
        for item in chunk:
            seen.append(item)
            if item < 5:
                queue.append(100_000 + item)
    assert seen == queue and len(seen) == BATCH + 8


@pytest.mark.parametrize("algorithm", ALL)
@pytest.mark.parametrize("nodes", range(1, 7))
def test_a_stopped_search_says_how_many_root_moves_it_valued(algorithm, nodes):
    spec = ("max", {"a": ("min", {"a1": 1, "a2": 2}), "b": ("min", {"b1": 5, "b2": 6})})
    # auto without a table: with one, these wide bounds would bring null windows (below)
    result = solve(Tree(spec, bounds=(0, 9)), algorithm, max_nodes=nodes,
                   use_table=algorithm != "auto")
    assert result.stopped == "max-nodes"
    assert result.root_moves == ((1, 2) if result.best_move == "a" else (0, 2))
    assert result.to_dict()["root_moves"] == list(result.root_moves)


def test_a_stopped_null_window_search_reports_the_bound_its_passes_proved():
    # bounds 0..9 (more than three values): auto searches the root with null windows, where a
    # root move's value is only a bound; a stopped search gives what a finished pass proved
    spec = ("max", {"a": ("min", {"a1": 1, "a2": 2}), "b": ("min", {"b1": 5, "b2": 6})})
    finished = solve(Tree(spec, bounds=(0, 9)), "auto")
    assert (finished.value, finished.best_move, finished.principal_variation) == (5, "b", ["b", "b1"])
    bounds = []
    for nodes in range(1, finished.nodes):
        result = solve(Tree(spec, bounds=(0, 9)), "auto", max_nodes=nodes)
        assert result.stopped == "max-nodes" and not result.proved
        assert result.root_moves is None
        if result.value is not None:  # MAX's bound: at least this, by this move
            assert result.value <= 5 and (result.best_move == "b" or result.value <= 1)
            bounds.append(result.value)
    assert bounds and bounds == sorted(bounds)


def test_a_search_that_finishes_reports_no_root_moves():
    assert solve(TicTacToe()).root_moves is None


def test_the_clock_interval_grows_at_most_fourfold_a_read(monkeypatch):
    """Nodes that came fast at first (microseconds for 64) do not buy the next read 65,536
    nodes later: the interval grows fourfold at most, so a search whose later nodes are slow
    still reads the clock in time (Gomoku 15x15 with --timeout 2 ran 31 s)."""
    from plies.solvers import limits as limits_module
    clock = [100.0]
    monkeypatch.setattr(limits_module, "perf_counter", lambda: clock[0])
    limits = limits_module.Limits(timeout=2)
    nodes, interval = 0, limits.interval
    for _ in range(4):
        clock[0] += 1e-6  # each batch of nodes as fast as can be
        following = limits.check(nodes + interval)
        assert following - (nodes + interval) == 4 * interval
        nodes, interval = nodes + interval, 4 * interval


def test_a_timeout_holds_on_a_game_whose_first_nodes_are_its_cheapest():
    """Gomoku 15x15's first nodes take microseconds and the later ones milliseconds."""
    import time

    import plies
    game = plies.load("gomoku")
    started = time.perf_counter()
    result = game.solve("auto", timeout=1)
    assert result.stopped == "timeout"
    assert time.perf_counter() - started < 15  # a hang guard: it ran 31 s before
