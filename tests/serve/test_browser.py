"""plies serve in a real browser: Debian's chromium, headless, driven by Playwright, against the
real server started as a user starts it (``plies serve GAME --port 0``) in a subprocess.

Every value the page shows is checked against the CLI: the moves of each position against
``analyze --json``, each step of Figure 5.5 against ``explain --json``, an error typed into the
editor against ``validate``. With ``PLIES_WRITE_SCREENSHOTS=1`` the screenshots of docs/web.md
are written into docs/images/ (otherwise into a temporary folder).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from urllib.parse import quote

import pytest

pytest.importorskip("starlette", reason="plies serve needs the web extra: pip install '.[web]'")
pytest.importorskip("uvicorn", reason="plies serve needs the web extra: pip install '.[web]'")
playwright = pytest.importorskip("playwright.sync_api",
                                 reason="the browser tests need Playwright: pip install playwright")

from typer.testing import CliRunner  # noqa: E402

from plies.cli import app as cli  # noqa: E402
from plies.game.loader import find_game, read_source, validate_source  # noqa: E402

pytestmark = pytest.mark.timeout(300)
ROOT = Path(__file__).resolve().parents[2]
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
runner = CliRunner()


def chromium_path() -> str | None:
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return "/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None


@pytest.fixture(scope="module")
def browser():
    executable = chromium_path()
    if executable is None:
        pytest.skip("no chromium to drive (apt-get install chromium; .ci/run installs it)")
    with playwright.sync_playwright() as driver:
        try:
            launched = driver.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        except playwright.Error as error:
            pytest.skip(f"chromium at {executable} does not start here: {error}")
        yield launched
        launched.close()


class Served:
    """``plies serve`` running in a subprocess on a free port."""

    def __init__(self, game: str, *args: str):
        self.process = subprocess.Popen(
            [sys.executable, "-c", "from plies.cli import app; app()", "serve", game,
             "--port", "0", *args],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
        line = self.process.stdout.readline()
        match = re.search(r"at (http://127\.0\.0\.1:\d+/) \(Ctrl-C stops it\)$", line.strip())
        if match is None:
            self.process.kill()
            raise AssertionError(f"plies serve said {line!r}; {self.process.stderr.read()}")
        self.url = match.group(1)

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()


@pytest.fixture
def serve():
    started = []

    def start(game: str, *args: str) -> Served:
        started.append(Served(game, *args))
        return started[-1]

    yield start
    for server in started:
        server.stop()


@pytest.fixture
def open_game(browser_context, serve):
    """Start ``plies serve`` on a game and open its page: the page, the list its errors go
    to, and the server."""
    def opened(game: str, *args: str):
        server = serve(game, *args)
        errors: list[str] = []
        return open_page(browser_context, server.url, errors), errors, server
    return opened


@pytest.fixture
def shots(tmp_path) -> Path:
    """Where screenshots go: docs/images with PLIES_WRITE_SCREENSHOTS=1, else a temporary
    folder (they are taken either way)."""
    if os.environ.get("PLIES_WRITE_SCREENSHOTS") == "1":
        folder = ROOT / "docs" / "images"
        folder.mkdir(exist_ok=True)
        return folder
    return tmp_path


@pytest.fixture
def browser_context(browser):
    """A fresh browser context for one test, closed (with its pages) after it."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    yield context
    context.close()


def open_page(context, url: str, errors: list):
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(url)
    page.wait_for_selector("body[data-ready=true]")
    return page


def cli_json(*args: str) -> dict:
    done = runner.invoke(cli, [*args, "--json"])
    assert done.exit_code == 0, done.output
    return json.loads(done.output)


def wait_text(page, selector: str, start: str) -> None:
    """Wait until the element's text starts with ``start``."""
    page.wait_for_function(
        "([s, start]) => document.querySelector(s).textContent.startsWith(start)",
        arg=[selector, start], timeout=60_000)


def text_of(page, selector: str) -> str:
    """An element's text exactly (inner_text folds runs of spaces)."""
    return page.eval_on_selector(selector, "e => e.textContent")


def analyze_after(moves: list[str]) -> dict:
    """``plies analyze tictactoe --json`` of the position after ``moves``."""
    return cli_json("analyze", "tictactoe", *(["--from", " ".join(moves)] if moves else []))


def shown_moves(page, moves: list[str], count: int) -> list[list[str]]:
    """The rows of the moves table once the values of the position after ``moves`` are in."""
    page.wait_for_function(
        """([moves, count]) => {
             const rows = document.querySelectorAll('#moves tbody tr');
             return document.querySelector('#goto-moves').value === moves
               && rows.length === count
               && !document.querySelector('#moves tbody').textContent.includes('…');
           }""", arg=[" ".join(moves), count], timeout=60_000)
    return page.eval_on_selector_all(
        "#moves tbody tr", "rows => rows.map(r => [...r.cells].map(c => c.textContent))")


def test_tictactoe_played_to_the_end_by_clicking(browser_context, open_game, shots):
    page, errors, server = open_game("tictactoe")
    moves: list[str] = []
    while True:
        expected = analyze_after(moves)
        if not expected["moves"]:
            break
        rows = shown_moves(page, moves, len(expected["moves"]))
        assert [(r[0], r[1], r[2]) for r in rows] == \
            [(m["move"], m["value_exact"], str(m["remoteness"])) for m in expected["moves"]]
        assert page.inner_text("#verdict").startswith(expected["verdict"])
        for m in expected["moves"]:  # each empty cell shows its move's remoteness, coloured
            r, c = re.fullmatch(r"place\((\d),(\d)\)", m["move"]).groups()
            hint = page.locator(f".cell[data-row='{r}'][data-col='{c}'] .hint")
            assert hint.inner_text() == str(m["remoteness"])
            mover = 1 if len(moves) % 2 == 0 else -1  # X is MAX and moves first
            outcome = "win" if m["value"] * mover > 0 else "lose" if m["value"] * mover < 0 \
                else "draw"
            assert outcome in hint.get_attribute("class")
        if moves:  # what the last move was worth, from the analysis before it
            before = analyze_after(moves[:-1])
            row = next(m for m in before["moves"] if m["move"] == moves[-1])
            assert page.inner_text("#last-move").startswith(f"{moves[-1]}: ")
            assert page.inner_text("#last-move").endswith(" (a best move)") == row["best"]
        if len(moves) == 2:
            page.screenshot(path=str(shots / "serve-tictactoe.png"))
        # X plays its best move, O its worst: X wins before the board is full
        choice = expected["moves"][0 if len(moves) % 2 == 0 else -1]["move"]
        r, c = re.fullmatch(r"place\((\d),(\d)\)", choice).groups()
        page.click(f".cell[data-row='{r}'][data-col='{c}']")
        moves.append(choice)
    wait_text(page, "#turn", "Game over")
    assert page.inner_text("#turn") == "Game over: X (MAX) wins (utility 1)"
    assert page.locator(".cell.playable").count() == 0
    assert len(moves) < 9
    # the value history has a point for every position, at the value analyze gives
    page.wait_for_function("n => document.querySelectorAll('#history .point').length === n",
                           arg=len(moves) + 1)
    values = page.eval_on_selector_all("#history .point", "ps => ps.map(p => p.dataset.value)")
    assert values == [analyze_after(moves[:k])["value_exact"] for k in range(len(moves) + 1)]
    # undo, redo, and a link that reproduces the position
    page.click("#undo")
    shown_moves(page, moves[:-1], len(analyze_after(moves[:-1])["moves"]))
    page.keyboard.press("ArrowLeft")  # the arrows undo and redo too
    shown_moves(page, moves[:-2], len(analyze_after(moves[:-2])["moves"]))
    page.keyboard.press("ArrowRight")
    shown_moves(page, moves[:-1], len(analyze_after(moves[:-1])["moves"]))
    page.click("#redo")
    wait_text(page, "#turn", "Game over")
    page.click("#link")
    link = page.input_value("#link-text")
    assert link == server.url + "?moves=" + quote(" ".join(moves), safe="-_.!~*'()")
    again = open_page(browser_context, link, errors)
    wait_text(again, "#turn", "Game over")
    assert again.input_value("#goto-moves") == " ".join(moves)
    assert again.inner_text("#turn") == "Game over: X (MAX) wins (utility 1)"
    assert errors == []


def test_a_position_from_a_move_list(open_game):
    page, errors, _ = open_game("tictactoe")
    page.fill("#goto-moves", "place(0,0) place(1,1)")
    page.click("#goto button[type=submit]")
    expected = cli_json("analyze", "tictactoe", "--from", "place(0,0) place(1,1)")
    rows = shown_moves(page, ["place(0,0)", "place(1,1)"], 7)
    assert [r[0] for r in rows] == [m["move"] for m in expected["moves"]]
    page.fill("#goto-moves", "place(0,0) place(0,0)")
    page.click("#goto button[type=submit]")
    page.wait_for_function("() => document.querySelector('#message').textContent !== ''")
    assert page.inner_text("#message").startswith("error: 'place(0,0)' is not legal here")
    assert errors == []


def test_a_database_solved_from_a_later_position_opens_there(open_game, tmp_path):
    """The page opened at the game's start, which such a database does not hold: an error
    where its first position should have been."""
    db = tmp_path / "t.db"
    assert runner.invoke(cli, ["solve", "tictactoe", "--strong", "--db", str(db), "--from",
                               "place(1,1)"]).exit_code == 0
    page, errors, _ = open_game("tictactoe", "--db", str(db))
    expected = cli_json("query", str(db))
    rows = shown_moves(page, ["place(1,1)"], 8)
    assert [(r[0], r[1]) for r in rows] == [(m["move"], m["value_exact"]) for m in expected["moves"]]
    assert page.inner_text("#message") == ""
    assert errors == []


def test_figure_5_5_step_by_step(open_game, shots):
    page, errors, _ = open_game("aima_fig5_2")
    page.click("button[data-tab=search]")
    page.click("#search-form button[type=submit]")
    page.wait_for_selector("#step-text:not(:empty)")
    expected = cli_json("explain", "aima_fig5_2")
    nodes, steps = expected["nodes"], expected["steps"]
    assert len(steps) == 21
    window: dict[int, list[str]] = {}
    for k, step in enumerate(steps):
        assert page.inner_text("#step-count") == f"step {k + 1} of {len(steps)}"
        assert text_of(page, "#step-text") == step["text"]
        node = page.locator(f"#search-tree g.node[data-id='{step['node']}']")
        assert "active" in node.get_attribute("class")
        if step["kind"] == "enter":  # the window the node was entered with, as explain says it
            alpha, beta = re.search(r"α=(\S+) β=(\S+)", step["text"]).groups()
            window[step["node"]] = [alpha, beta]
            assert [nodes[step["node"]]["alpha"], nodes[step["node"]]["beta"]] == [alpha, beta]
        elif step["kind"] in ("alpha", "beta"):  # "B: β = 3"
            window[step["node"]][0 if step["kind"] == "alpha" else 1] = step["value"]
        if step["node"] in window:
            alpha, beta = window[step["node"]]
            assert node.get_attribute("data-alpha") == alpha
            assert node.get_attribute("data-beta") == beta
            assert node.locator("text.window").text_content() == f"[{alpha}, {beta}]"
        if step["kind"] in ("leaf", "value"):
            assert node.get_attribute("data-value") == step["value"]
        if step["kind"] == "cutoff":
            for move in nodes[step["node"]]["pruned"]:
                assert "unseen" not in page.locator(
                    f"g.stub[data-pruned='{move}']").get_attribute("class")
            page.screenshot(path=str(shots / "serve-alphabeta.png"))
        if k + 1 < len(steps):
            page.click("#step-next")
    # Figure 5.5's ends: A = 3 with C's c2 and c3 never evaluated
    assert page.get_attribute("#search-tree g.node[data-id='0']", "data-value") == "3"
    assert expected["pruned"] == [{"after": ["a2"], "moves": ["c2", "c3"]}]
    assert page.inner_text("#search-summary") == \
        "value 3, best move a1; pruned (after the moves that lead there): a2 → c2, c3"
    page.click("#step-first")
    assert text_of(page, "#step-text") == steps[0]["text"]
    assert errors == []


def test_an_error_typed_in_the_editor_is_shown_at_its_line(open_game, shots):
    page, errors, _ = open_game("tictactoe")
    page.click("button[data-tab=editor]")
    source = read_source(find_game("tictactoe"))
    effect = "move place(r, c) in cells(board) when board[r, c] == empty {"
    line = source.split("\n").index(effect) + 2
    page.click("#source")
    # the effect's line: board[r, c] = turn  ->  board[r, c] = tur
    page.evaluate(f"""() => {{
        const area = document.querySelector('#source');
        const lines = area.value.split('\\n');
        const at = lines.slice(0, {line - 1}).join('\\n').length + 1 + lines[{line - 1}].length;
        area.setSelectionRange(at - 1, at);
    }}""")
    page.keyboard.press("Backspace")
    typed = page.input_value("#source")
    expected = [d.to_json() for d in validate_source(typed, "games/tictactoe.game")]
    assert [d["line"] for d in expected] == [line]
    page.wait_for_selector(f"#diagnostics li[data-line='{line}']")
    item = page.locator("#diagnostics li").first
    d = expected[0]
    assert item.inner_text().startswith(f"{d['line']}:{d['column']}: error: {d['message']}")
    assert item.get_attribute("data-column") == str(d["column"])
    assert "error" in page.get_attribute(f"#gutter span[data-line='{line}']", "class")
    assert page.locator("#backdrop mark.error").inner_text() == "tur"
    page.screenshot(path=str(shots / "serve-editor.png"))
    page.click("#reload")
    wait_text(page, "#reload-state", "not reloaded")
    assert page.locator(".cell.playable").count() == 9  # the last good game stays
    # a good text: four in a row to win, on a 3x3 board: nobody wins
    page.fill("#source", source.replace("line(board, p, 3)", "line(board, p, 4)"))
    page.wait_for_selector("#diagnostics li.ok")
    page.click("#reload")
    wait_text(page, "#reload-state", "reloaded")
    page.click("button[data-tab=moves]")
    shown_moves(page, [], 9)
    assert page.inner_text("#verdict").startswith("draw (remoteness 9)")
    assert errors == []


def test_connect4_clicked_through_by_columns(open_game, shots):
    page, errors, _ = open_game("connect4", "-p", "width=4", "-p", "height=4")
    moves: list[str] = []
    for column in (1, 2, 1, 2, 0):
        expected = cli_json("analyze", "connect4", "-p", "width=4", "-p", "height=4",
                            *(["--from", " ".join(moves)] if moves else []))
        rows = shown_moves(page, moves, len(expected["moves"]))
        assert [(r[0], r[1], r[2]) for r in rows] == \
            [(m["move"], m["value_exact"], str(m["remoteness"])) for m in expected["moves"]]
        for m in expected["moves"]:  # the button over each column shows its remoteness
            col = re.fullmatch(r"drop\((\d)\)", m["move"]).group(1)
            assert page.inner_text(f".column-move[data-col='{col}']") == str(m["remoteness"])
        if len(moves) == 4:
            page.screenshot(path=str(shots / "serve-connect4.png"))
        page.click(f".cell[data-row='0'][data-col='{column}']")  # any cell of the column
        moves.append(f"drop({column})")
    shown_moves(page, moves, 4)
    discs = page.eval_on_selector_all(".grid .piece", "ps => ps.map(p => p.className)")
    assert len(discs) == 5
    assert errors == []


def test_chance_outcomes_are_rolled_or_chosen(open_game):
    page, errors, _ = open_game("piglet")
    page.click("#moves tbody tr[data-move='flip']")
    page.wait_for_selector("#chance:not([hidden]) #outcomes button")
    outcomes = page.eval_on_selector_all("#outcomes button", "bs => bs.map(b => b.textContent)")
    assert outcomes == ["heads (1/2)", "tails (1/2)"]
    assert page.inner_text("#turn") == "Chance: coin"
    page.click("#outcomes button[data-move='heads']")
    page.wait_for_function("() => document.querySelector('#goto-moves').value === 'flip heads'")
    page.click("#moves tbody tr[data-move='flip']")
    page.wait_for_selector("#chance:not([hidden])")
    page.click("#roll")
    page.wait_for_function("() => document.querySelector('#goto-moves').value.split(' ')"
                           ".length === 4")
    assert page.input_value("#goto-moves") in ("flip heads flip heads", "flip heads flip tails")
    assert errors == []


def test_the_note_on_the_last_move_keeps_its_line_before_it_is_known(open_game):
    # it comes with the analysis of the position before, often after the position is drawn:
    # the outcomes and the board below it must not move then (a press there would miss)
    page, errors, _ = open_game("piglet")
    assert page.inner_text("#last-move") == ""
    empty = page.eval_on_selector("#last-move", "e => e.getBoundingClientRect().height")
    page.click("#moves tbody tr[data-move='flip']")
    page.wait_for_function("() => document.querySelector('#last-move').textContent"
                           ".startsWith('flip: ')")
    shown = page.eval_on_selector("#last-move", "e => e.getBoundingClientRect().height")
    assert empty > 0 and shown == empty
    assert errors == []


def test_a_click_straddling_a_redraw_still_plays_its_move(open_game):
    # the page draws a position twice (when it arrives and when its analysis does): a press
    # before the second drawing and a release after it are still one click on the same button
    page, errors, _ = open_game("piglet")
    page.click("#moves tbody tr[data-move='flip']")
    page.wait_for_selector("#chance:not([hidden]) #outcomes button")
    page.wait_for_function("() => !document.querySelector('#moves tbody').textContent.includes('…')")
    # and the note on the move just played, which comes with the start's analysis: nothing
    # arriving later may move the button between the press and the release
    page.wait_for_function("() => document.querySelector('#last-move').textContent"
                           ".startsWith('flip: ')")
    page.eval_on_selector("#outcomes button[data-move='heads']", "b => { b.seen = true; }")
    page.eval_on_selector("#moves tbody tr[data-move='tails']", "r => { r.seen = true; }")
    page.evaluate("() => { page.analysis = null; render(); }")  # the rows in the game's order
    page.evaluate("() => { page.analysis = page.analyses.get('flip'); render(); }")
    # the same elements, not new ones like them
    assert page.eval_on_selector("#outcomes button[data-move='heads']", "b => b.seen === true")
    assert page.eval_on_selector("#moves tbody tr[data-move='tails']", "r => r.seen === true")
    box = page.locator("#outcomes button[data-move='heads']").bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.evaluate("() => render()")
    page.mouse.up()
    page.wait_for_function("() => document.querySelector('#goto-moves').value === 'flip heads'")
    assert errors == []


def test_kalah_is_played_by_clicking_its_pits(open_game):
    page, errors, _ = open_game("kalah")
    expected = cli_json("analyze", "kalah")
    shown_moves(page, [], len(expected["moves"]))
    for m in expected["moves"]:  # each pit that can be sown shows its move's remoteness
        assert page.inner_text(f".counter[data-move='{m['move']}'] .hint") == str(m["remoteness"])
    best = expected["moves"][0]["move"]
    page.click(f".counter[data-move='{best}']")
    after = cli_json("analyze", "kalah", "--from", best)
    rows = shown_moves(page, [best], len(after["moves"]))
    assert [r[0] for r in rows] == [m["move"] for m in after["moves"]]
    assert errors == []


def test_a_long_solve_shows_its_progress_and_can_be_cancelled(open_game):
    page, errors, _ = open_game("connect4", "-p", "width=5", "-p", "height=4", "--timeout", "0.5")
    page.wait_for_function("() => /solving: [1-9][0-9,]* positions found/"
                           ".test(document.querySelector('#solve-text').textContent)")
    assert page.is_visible("#solve-cancel")
    page.click("#solve-cancel")
    page.wait_for_function("() => document.querySelector('#solve-status').dataset.state "
                           "=== 'cancelled'", timeout=60_000)
    assert page.inner_text("#solve-text") == \
        "the solve was cancelled: positions are analysed one by one"
    assert page.is_visible("#solve-start") and not page.is_visible("#solve-cancel")
    # the start analysed on its own, within --timeout: too big for half a second
    page.wait_for_function("() => document.querySelector('#analysis-note').textContent"
                           ".startsWith('error: stopped at --timeout (0.5 s)')", timeout=60_000)
    # the board still plays
    page.click(".column-move[data-col='2']")
    page.wait_for_function("() => document.querySelector('#goto-moves').value === 'drop(2)'")
    assert errors == []
