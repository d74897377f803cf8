"""Write docs/analysis.md from a real run: every capture and table on the page comes from here.

Run ``python -m benchmarks.analysis_page`` from the checkout. The commands are run through
plies's own command line (Typer's runner) and their output is pasted as it is; the tables of
values are solved here; the speed table is read from ``benchmarks/results/strong.json``, which
``python -m benchmarks.strong`` writes, and Pig to 100 from ``benchmarks/results/pig100.json``
(``plies solve pig --param budget=0 --param goal=100 --json``, about 4 minutes and 1.4 GB):
run both first, under the bench lock. The test
``tests/analysis/test_analysis_page.py`` runs the page's commands again and compares them with
what the page shows, timings aside.
"""

from __future__ import annotations

import json
import os
import shlex
import sqlite3
import sys
import tempfile
from pathlib import Path

from typer.testing import CliRunner

from plies.cli import app

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "analysis.md"
SPEED = Path(__file__).parent / "results" / "strong.json"
PIG_100 = Path(__file__).parent / "results" / "pig100.json"
PIG_100_COMMAND = "plies solve pig --param budget=0 --param goal=100 --json"
TIERS = Path(__file__).parent / "results" / "tiers.json"
COMMAND = "python -m benchmarks.analysis_page"


def run(command: str, keep: int | None = None) -> str:
    """A console block: ``$ command`` and its output (the first ``keep`` lines of it)."""
    args = shlex.split(command)[1:]  # without "plies"
    result = CliRunner().invoke(app, args, catch_exceptions=False)
    if result.exit_code != 0:
        raise SystemExit(f"`{command}` failed:\n{result.output}")
    lines = result.stdout.rstrip("\n").splitlines()
    if keep is not None and len(lines) > keep:
        lines = lines[:keep] + ["..."]
    return "```console\n$ " + command + "\n" + "\n".join(lines) + "\n```"


def value_census(db: Path) -> str:
    """How the positions of a database split by value and by the player to move."""
    with sqlite3.connect(db) as connection:
        rows = connection.execute(
            "SELECT to_move, value, count(*), max(remoteness) FROM positions "
            "GROUP BY to_move, value ORDER BY to_move, CAST(value AS REAL) DESC").fetchall()
    lines = ["| to move | value | positions | longest remoteness |", "|---|---:|---:|---:|"]
    for to_move, value, count, far in rows:
        lines.append(f"| {to_move} | {value} | {count:,} | {'–' if far is None else far} |")
    return "\n".join(lines)


def speed_table() -> str:
    """The latest ``benchmarks.strong`` run as a table, with where and when it ran."""
    if not SPEED.is_file():
        return "(no run yet: `flock /tmp/plies-bench.lock python -m benchmarks.strong`)"
    report = json.loads(SPEED.read_text())
    sys.path.insert(0, str(ROOT))
    from benchmarks.strong import table
    load = report.get("load_average")
    where = (f"Python {report['python']} on {report['machine']}, {report['when']}"
             + (f", load average {load:.1f} on 2 cores (other work was running)" if load else ""))
    return f"{where}:\n\n{table(report['cases'])}"


def pig_100() -> str:
    """Pig to 100 without a turn limit, from ``benchmarks/results/pig100.json``."""
    if not PIG_100.is_file():
        return f"(no run yet: `{PIG_100_COMMAND} > {PIG_100.relative_to(ROOT)}`)"
    data = json.loads(PIG_100.read_text())
    value, bound = data["value"], data["error_bound"]
    return (f"`{PIG_100_COMMAND}` gives {value:.10f} (± {bound:.0e}), by {data['algorithm']} "
            f"over all {data['nodes']:,} positions in {data['seconds']:.0f} s: the first "
            f"player wins with probability (1 + v) / 2 = {(1 + value) / 2:.6f}, Neller and "
            "Presser's 0.5306.")


def tiers_table() -> str:
    """The latest ``benchmarks.tiers`` run as a table, with where and when it ran."""
    if not TIERS.is_file():
        return "(no run yet: `flock /tmp/plies/heavy.lock python -m benchmarks.tiers`)"
    report = json.loads(TIERS.read_text())
    lines = [f"Python {report['python']} on {report['machine']} (a shared VM), {report['when']}:",
             "", "| board | back end | workers | positions | tiers | value | wall time | CPU time "
             "| positions/s of CPU | peak memory | on disk | load average before, after |",
             "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for case in report["cases"]:
        rate = case["positions"] / case["cpu_seconds"]
        lines.append(f"| {case['width']}x{case['height']} | {case.get('backend', 'python')} | "
                     f"{case['workers']} | "
                     f"{case['positions']:,} | {case['tiers']} | {case['value']} | "
                     f"{case['wall_seconds']:.1f} s | {case['cpu_seconds']:.1f} s | {rate:,.0f} | "
                     f"{case['peak_bytes'] / 1e6:,.0f} MB | {case['bytes'] / 1e6:.1f} MB "
                     f"({case['bytes'] / case['positions']:.1f} bytes a position) | "
                     f"{case.get('load_before', '?')}, {case.get('load_after', '?')} |")
    return "\n".join(lines)


def build() -> str:
    """The page, with the commands run in the current directory."""
    sections = {
        "ANALYZE": run('plies analyze tictactoe --from "place(0,0) place(0,1)"'),
        "ANALYZE_START": run("plies analyze tictactoe", keep=9),
        "ANALYZE_CHANCE": run("plies analyze piglet_endless --from flip"),
        "SOLVE": run('plies solve tictactoe --from "place(0,0) place(0,1)"', keep=7),
        "CONNECT": run("plies solve connect4 --param width=3..5 --param height=3..4"),
        "PIGLET": run("plies solve piglet_endless --param goal=1..8"),
        "PIG": run("plies solve pig --param budget=0 --param goal=2..8"),
        "MORRIS": run("plies solve morris3", keep=4),
        "MORRIS_ANALYZE": run('plies analyze morris3 --from "place(1,1) place(0,0) place(2,2) '
                              'place(0,2) place(0,1) place(2,0)"'),
        "STRONG": run("plies solve --strong tictactoe --db t.sqlite"),
        "QUERY": run('plies query t.sqlite --from "place(1,1) place(0,1)"'),
        "EXPORT": run("plies query t.sqlite --export csv", keep=4),
        "CENSUS": value_census(Path("t.sqlite")),
        "EFG": run("plies tree aima_fig5_2 --format efg"),
        "SPEED": speed_table(),
        "PIG100": pig_100(),
        "TIERS": run("plies solve --strong tictactoe --db t.sol --workers 1"),
        "TIERS_QUERY": run('plies query t.sol --from "place(1,1) place(0,1)"', keep=8),
        "TIERS_RUN": tiers_table(),
    }
    text = TEMPLATE
    for key, value in sections.items():
        text = text.replace("{{" + key + "}}", value)
    return text


TEMPLATE = """# Analysis: what designers ask of a solved game

<!-- Generated by `python -m benchmarks.analysis_page` from a real run; do not edit by hand. -->

`plies solve` gives the value of a game and one best move. A designer checking a new game
asks more: what is every move worth? How far away is the end? Is the game fair at every size?
Can I keep every answer? This page shows the commands that answer, on the shipped games.

- `plies analyze GAME [--from MOVES] [--json]`: every legal move with its exact value and
  remoteness, best first, and a verdict.
- `plies solve GAME --param NAME=LO..HI`: every combination of parameters solved, one row each.
- `plies solve --strong GAME --db FILE`: every reachable position solved and stored in SQLite;
  `plies query FILE` reads it, `plies play GAME --db FILE` plays from it.
- `plies solve --strong GAME --db DIR`: the same solved tier by tier into a directory, on
  every core (`--workers`) or a Ray cluster (`--engine ray`), and resumed after a stop.
- Games whose positions repeat (`endless` in the game file) are solved by retrograde analysis,
  or with chance by policy iteration, chosen by `plies solve` itself.
- `plies tree GAME --format efg`: the whole game tree for Gambit and OpenSpiel.

## The value of every move: `plies analyze`

After X takes a corner and O answers next to it, X wins. `analyze` lists X's moves, best
first: by value, then by remoteness.

{{ANALYZE}}

From the start every move draws, and every draw lasts the whole nine moves:

{{ANALYZE_START}}

`--json` gives one object with `value_exact`, `remoteness`, `verdict` and `moves` (each with
`move`, `value_exact`, `remoteness`, `best`, and `probability` for a chance outcome; a value
is always from MAX's point of view). In a game with chance the verdict gives the exact value
and who is favoured; a chance position lists its outcomes with their probabilities:

{{ANALYZE_CHANCE}}

`analyze` solves every position reachable from the one asked about (up to
`--max-positions`, 5,000,000 by default); past that it searches each move on its own and
gives values without remoteness.

## Remoteness

Remoteness is the number of moves to the end of the game when the winner hurries and the
loser holds out, as GAMESMAN defines it: among the moves that keep the exact value, the player
the value favours takes the one with the smallest remoteness, the other the largest; a move's
remoteness counts the move itself. At a value of 0 both players hurry (a tie, in GAMESMAN's
words). Where the end cannot be forced — endless play, or chance deciding how long the game
lasts — there is none (`null` in JSON, `-` in tables).

`plies solve` reports the start's remoteness when the game has at most 20,000 positions, and
then picks the best move by value and remoteness; `plies play` says what each move is worth
("wins in 3", "loses in 6 at best") and plays by value, then remoteness.

{{SOLVE}}

## Fairness across sizes

A parameter given as a range solves every combination, like John Tromp's table of Connect
Four sizes; long sweeps show their progress on a terminal, and `--json` gives the rows. The
time is the solve's, without compiling the game.

{{CONNECT}}

Piglet without a turn limit (`games/piglet_endless.game`) always favours the first player,
less so as the goal grows. To 2 points the value 1/7 is Neller and Presser's published result:
the first player wins with probability 4/7.

{{PIGLET}}

Pig with a die (`games/pig.game` with `budget=0`: no turn limit):

{{PIG}}

Past 60,000 positions the fractions of an exact solve grow too long, and plies solves a game
with chance by value iteration instead, with a proven error bound. Pig to 100, the game
Neller and Presser solved: {{PIG100}}

## Games whose positions repeat

In three men's morris (`games/morris3.game`) the pieces slide once all are placed, so
positions come back. The game declares `endless 0`: play that never ends is a draw.
`plies solve` sees the declaration (or a repeated position in its search) and solves every
position by retrograde analysis instead:

{{MORRIS}}

The game is a draw that neither player can bring to an end, so it has no remoteness. One
slip in the placing phase loses:

{{MORRIS_ANALYZE}}

How the values are found, on the graph of every reachable position:

- **Without chance** (retrograde analysis, `plies/solvers/retrograde.py`): a position is
  valued once all its children are, from the terminal positions back. Positions on or above a
  cycle are valued one threshold at a time: for each value t a position can have, the
  positions from which MAX can make sure of at least t are MAX's attractor of those already
  worth t (when endless play is worth less than t), or everything outside MIN's attractor of
  those worth less (when it is worth t or more). A game that declares no endless value is
  solved when no value depends on it, whatever endless play is worth (worth less than any
  end and more than any end are both tried); otherwise plies names a position where it does.
  A corridor that MAX must walk to its end while MIN can always step back is such a game: the
  one end play reaches is MAX's win, but endless play may be worth a loss.
- **With chance** (`plies/solvers/policy.py`): a game is solved when it ends with probability
  1 whatever the players do (Pig and Piglet do). Its positions are split into strongly
  connected components, solved from the end of the game back; a component with cycles is
  solved exactly by Hoffman and Karp's policy iteration, each policy's values found by
  Gauss-Jordan elimination in whole numbers over a common denominator (no fraction is made
  until the answer). A component with more than 400 chance positions is
  solved instead by value iteration from below and from above in floating point; the true
  value lies between the two, so the answer comes with a proven error bound and is marked
  not exact.
- **Remoteness** (`plies/solvers/remoteness.py`) is computed breadth-first from the terminal
  positions, in increasing order, so a cycle never makes it finite by mistake.

The tests check these against independent solvers: plain recursion on every tic-tac-toe
position, the classic loopy win/lose/draw solver on every position of three men's morris, and
brute force over all pure strategies on random stochastic games.

## Strong solutions in a database

{{STRONG}}

The database is SQLite: nothing to install, and any SQLite client reads it. A file already
at the `--db` name is replaced only where it is this game's database (the same parameters and
start, solved again); any other file is refused before the solve, never overwritten. Its
schema is stable (the `game` table records its version):

- `game`, one row: the game's name, file, parameters (JSON), players (JSON), the counts of
  positions, terminal positions and moves, the start's position id and the moves leading to
  it (`--from`), the start's value and remoteness, whether values are exact and the error
  bound, the method, whether the game has chance, its utility bounds, the endless value, the
  time taken, the schema and plies versions, and when it was written.
- `positions`, one row per position: `id` (0 is the start, then breadth-first),
  `position` (its text form, unique and indexed), `to_move` (`MAX`, `MIN`, `CHANCE` or
  `TERMINAL`), `player` (the name of the player to move), `value` (exact text from MAX's
  point of view: `1`, `-1`, `1/7`), `value_real` (the same as a number), `remoteness`
  (NULL where there is none), `best_moves` (by value then remoteness, space-separated),
  `depth`, and `parent` and `via` (the last step of a shortest line from the start).
- `moves`, one row per move: `position`, `ord` (its place in the game's order), `move` (its
  text), `child` (the position it leads to) and `probability` (for a chance outcome).

`plies query` gives a position's moves as `analyze` does, without the game file:

{{QUERY}}

`--export csv` or `--export jsonl` (with `-o FILE`) writes the whole strategy:

{{EXPORT}}

With SQL a designer counts what the game is made of; tic-tac-toe's 5,478 positions by the
player to move and value:

{{CENSUS}}

## Strong solutions by tiers, in a directory

A `--db` name that does not end in `.db`, `.sqlite` or `.sqlite3` is a solution directory,
solved tier by tier. A *tier* is a whole number of a position that no move lowers, so
positions of a tier lead only to the same tier or later ones. plies finds one from the rules
when cells only ever leave their start value (the marks of tic-tac-toe, gomoku and Hex, the
discs of Connect Four and Othello, the lines of dots and boxes) or counters only grow or only
shrink (Kalah's stores, Nim's heaps); a game can also declare its own with `tier EXPR`, and
`validate --explore` reports a move that lowers it, with the moves that reach it. A game with
no tier is solved as one tier.

{{TIERS}}

The solve finds the positions first tier forward (the positions of a tier are those found from
earlier tiers, then from each other), then values them last tier back: every child lies in
the tier being valued or in a later one, already solved and read from its file. A tier whose
moves may stay in it (three men's morris's slides) is solved by the same retrograde analysis
as the whole game, cycles and `endless` included; the values and remoteness are the same as
the SQLite database's (the tests compare them on eight games). Games with chance are refused
(`--db FILE.db` stores them); `query`, `analyze --db` and `play --db` read a directory as they
read a database:

{{TIERS_QUERY}}

The directory holds `solution.json` (the format's version, the game's name, parameters, text
and the moves of `--from`, how positions are packed, the tier and symmetries, the plies version, and when
finished the tiers, positions and the start's value) and one file per tier, `tier-T.sol`: a
32-byte header, the positions' keys in increasing order, then a 4-byte record for each (the
value as a signed 16-bit number, the remoteness as an unsigned one, 65535 where the end cannot
be forced). A key is the position packed into one number from what the checker knows of each
variable (a symbol of a set, a boolean, a declared range, or the range the rules show: Connect
Four's column heights are 0..height): 8 bytes where it fits in 64 bits (tic-tac-toe, Connect
Four up to 7x5), wider otherwise, so a position costs 12 bytes on most boards. A reader maps
the file into memory and finds a position by binary search.

A game that declares symmetries (`symmetry`, docs/language.md) is solved one position of each
class of images, as GAMESMAN's solvers do: a position and its images are worth the same and
are as far from the end, so the directory holds the one with the least key, each child is
packed to its class's key before it is looked for (in C as in Python), and `query`, `analyze
--db` and `play --db` pack a position the same way (`export` writes the positions held, one of
each class). Tic-tac-toe with the square's two symmetries has the classic 765 positions
against 5,478; Connect Four with its mirror a little over half of its positions (5x4:
1,974,174 of 3,945,711). The summary says so (`symmetry   mirror: one position of each class
of images is kept`; `symmetries` in `--json` and in `solution.json`); the tests compare every
position's value and remoteness with those of the game solved without them. A class must lie
in one tier, so a game that declares its `tier` (which may differ between a position and its
image) is solved without them, and the summary's `symmetry` line says why.

A finished tier is written under another name and renamed, so it is whole or absent, and it
is never solved again: stop the solve at any moment (Ctrl-C, `--timeout`, `--memory`, even
`kill -9`), run the same command, and it goes on from the last finished tier (while finding,
from the last tier found) to the same bytes; the tests kill a solve of Connect Four 4x4 half
way and compare. A directory holding another game, other parameters or another start, or
written in another format version, is refused, never reused.

Each tier is split into chunks that `--workers N` processes solve (all cores by default, and
never more than one a core of this machine: the output says when it asked for more); a
tier is where they meet, and the chunks are merged in the order of the keys, so any number of
workers writes the same bytes. `--engine ray` runs the same chunks as Ray tasks (`pip install
'plies[ray]'`): on one machine it starts a local cluster of `--workers` CPUs; for several,
start a cluster and give its address, with the directory on a filesystem every node sees:

```
ray start --head --num-cpus 16                  # on the first machine
ray start --address HEAD:6379                   # on each other machine
plies solve connect4 -p width=6 -p height=4 --strong --db /shared/c4 --engine ray --address HEAD:6379
```

Connect Four by tiers with the native back end (`python -m benchmarks.tiers --boards 5x4 6x4
5x5 --backends native`, each solve in a process of its own: wall time of the whole command,
CPU time of the solve and its workers, their peak memory together, sampled every 0.1 s):

{{TIERS_RUN}}

With the native back end (docs/native.md), which a solve by tiers uses by default wherever
it builds (`pip install 'plies[native]'`; `--backend python` keeps the solve in Python, and the
summary's `method` line says which ran: `retrograde analysis by tiers, in C`), no position
becomes a Python number. A worker reads
its chunk's keys straight from the tier's file, mapped into memory; C unpacks each, expands it
by the game's emitted EXPAND, makes each child's key and tier from its parent's through the
slots the move changed, and sorts the chunk's children by tier and key (a radix sort, repeats
removed); the worker writes each tier's children as a *run* (`run-U-T-C.keys`), and the solve
merges a tier's runs in C (a heap of the runs, repeats removed) straight into the tier's file.
The runs are the checkpoint while finding: a solve stopped or killed there goes on from them,
with either back end. Valuing maps the solved tiers, finds each child through a bucket index
of its tier's keys (a bucket for about four keys, then a short binary search: valuing 250,000
positions of 6x4's tier of 13.5 million takes 0.18 s so against 0.20 s by a binary search over
the whole next tier, whose 14 million keys the children of a chunk's sorted positions reach near
each other anyway) and writes the chunk's records at their place in the tier's file. Worker processes are forked with the game
already made, and files are removed in a thread of their own, so the workers seldom wait.

On this 2-core VM (the load averages are in the table) Connect Four 6x4 is solved in 19.5 s
with two workers against 37 s with one (1.90 times faster), at a peak of 0.4 GB, with 570 MB
on disk; 5x5 in 12.6 s with two workers, 0.27 GB, 419 MB. The game's mirror (`symmetry
mirror`) keeps one position of each pair of mirror images: 47,455,869 of issue 19's
94,910,577 positions of 6x4 and 34,888,367 of 5x5's 69,763,700 (a position that is its own
image is a class alone); the values are Tromp's (6x4: -1, yellow wins in 24; 5x5: 0). A
child's mirror image's key comes from its parent's image's through the slots the move changed,
as its own key does (packing each child's image whole took 5x5 30.9 s with one worker against
27.3 s), and a key's planes (the bit planes of Connect Four's grid, which its end tests read)
are brought up to date for the slots its unpacking rewrote, not made again from every cell
(27.3 s against 22.4 s).
Without the mirror (2026-11-25 and 26, this kind of VM), 6x4 took 66.6-70 s with two workers
and 123-125 s with one, at a peak of 0.6 GB and 1,139 MB on disk. Before that, the native
back end gathered the keys in Python sets: 6x4 took 509 s in
one process and 3.0 GB, and two workers were slower than one. Without the mirror both passes
together made about 800,000 positions a second of CPU (each position is expanded twice: to find its children, then
to value it), short of the 3 million issue 19 asks for: the game's rules take about a quarter
of the time, unpacking keys and packing children a third, the sorting and the searches most of
the rest (with the mirror and the two changes above, 1.0-1.6 million positions a second of CPU
in the table, each of them standing for about two). Unpacking each key from the one before (a chunk's keys are sorted, so mostly only the
low-order slots change), finding a child's changed slots as a bit mask without a branch per
slot, and fetching the buckets of a position's children side by side before a branchless search
in each made the largest 5x4 tier (620,337 positions) 8-11% faster to find and 5-17% faster to
value (medians of 15 paired calls, the old and new C code in one process, in three runs at a
load of about 1; the best calls 2.8-3.2 against 2.7-3.0 and 2.8-2.9 against 2.6-2.7 million
positions a second), and the whole 5x4 solve in one process 4-9% cheaper in CPU (4.8 s against
5.25, medians of six paired runs; the median of their ratios 0.96), still short of 3 million
for both passes. Connect Four 5x4 spends about 1.3 s starting (the game, its C module, the workers),
so two workers gain less on it. Again from the command line after the C changes above, the VM
otherwise idle (2026-11-26 00:04 UTC, `plies solve connect4 -p width=6 -p height=4 --strong --db
DIR --workers N`, from a clean checkout's `pip install '.[native]'`): 66.6 s with two workers
against 125.4 s with one (1.88 times faster; 113 s of CPU either way), a peak of 370 MB in the
largest of its processes, the same bytes.

The Python back end runs the same algorithm with the keys in sets (Connect Four 5x4: 129 s in
one process, 109 s with two, on this VM on 2026-11-25 without the mirror; 34 s with two and
the mirror on 2026-11-28); a declared tier, keys wider than 64
bits and tiers whose moves stay in them (valued by a small retrograde analysis) are done in
Python with either back end, to the same bytes (the tests compare seven games). A local Ray
cluster takes about 15 s to start and writes the same bytes as the worker processes (a test
compares them). `plies query c4 --from "drop(0)"` on the 6x4 directory answers in 0.6 s, most
of it starting Python and loading the game.

## Trees for other tools

`plies tree GAME --format efg` writes the whole game tree in Gambit's extensive-form format:
the two players (MAX is player 1), chance nodes with exact probabilities, and one outcome per
utility, paying MAX the utility and MIN its negative. Gambit and OpenSpiel read it; the tests
parse it back and check its value. A game whose positions repeat has an infinite tree and is
refused, as is a tree larger than `--max-nodes` (20,000 by default).

{{EFG}}

## Speed and memory

`python -m benchmarks.strong` solves whole games strongly (finding every position, then
valuing it; medians of 5 runs) and measures the memory of one solve under `tracemalloc`
(everything the solve allocated, over the positions) and the database written from it. The
goal is ten times GamesmanPy's 25,000 positions per second. How fast a game is found depends
on its rules' generated code: three men's morris tries 81 slides in every position. "x the
rules alone" is how many times longer the whole solve takes than the game's own code takes to
give every position's outcome and children: where it is near 1, the rules set the speed.

{{SPEED}}
"""


def main() -> int:
    here = os.getcwd()
    with tempfile.TemporaryDirectory() as folder:
        os.chdir(folder)  # the database the page makes and reads is written here
        try:
            text = build()
        finally:
            os.chdir(here)
    PAGE.write_text(text, encoding="utf-8")
    print(f"wrote {PAGE}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
