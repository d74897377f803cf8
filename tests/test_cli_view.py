"""plies explain and plies tree: the search made visible."""

from __future__ import annotations

import re

import pydot
import pytest
from typer.testing import CliRunner

from plies.cli import app

runner = CliRunner()


def run(*args: str):
    result = runner.invoke(app, list(args))
    assert result.exit_code == 0, result.output
    return result.stdout


def test_explain_alphabeta_on_figure_5_2_follows_figure_5_5():
    lines = run("explain", "aima_fig5_2", "--algorithm", "alphabeta").splitlines()
    assert lines[1:] == [
        "A (MAX)  α=-∞ β=+∞",
        "  a1 → B (MIN)  α=-∞ β=+∞",
        "    b1: 3",
        "    B: β = 3",
        "    b2: 12",
        "    b3: 8",
        "  B = 3",
        "  A: α = 3",
        "  a2 → C (MIN)  α=3 β=+∞",
        "    c1: 2",
        "    cut-off at C: 2 <= α = 3: MAX will avoid it; c2, c3 pruned",
        "  C = 2 (at most)",
        "  a3 → D (MIN)  α=3 β=+∞",
        "    d1: 14",
        "    D: β = 14",
        "    d2: 5",
        "    D: β = 5",
        "    d3: 2",
        "    D: β = 2",
        "  D = 2",
        "A = 3",
        "value 3, best move a1",
        "never evaluated: c2, c3",
    ]


def test_explain_minimax_evaluates_every_leaf():
    out = run("explain", "aima_fig5_2", "--algorithm", "minimax")
    assert "c3: 6" in out and "cut-off" not in out
    assert "α=" not in out


def test_explain_stops_after_max_steps():
    out = run("explain", "tictactoe", "--max-steps", "5").splitlines()
    assert len(out) == 1 + 5 + 1
    assert out[-1].startswith("... stopped after 5 steps (--max-steps N shows more;")


def test_explain_chance_game_weights_outcomes():
    out = run("explain", "piglet", "--param", "flips=2")
    assert "        heads (p=1/2): 1" in out  # two heads in a row reach the goal
    assert "    heads = 1/2" in out
    assert "value 1/4, best move flip" in out


def test_explain_refuses_alphabeta_on_chance():
    result = runner.invoke(app, ["explain", "piglet", "--algorithm", "alphabeta"])
    assert result.exit_code == 1
    assert result.stderr.strip() == ("error: alphabeta needs a game without chance; "
                                     "use expectiminimax")


def test_tree_dot_is_valid_graphviz_and_marks_pruned_leaves():
    source = run("tree", "aima_fig5_2", "--format", "dot")
    graphs = pydot.graph_from_dot_data(source)
    assert graphs is not None and len(graphs) == 1
    graph = graphs[0]
    edges = {(e.get_source(), e.get_destination()): e for e in graph.get_edges()}
    labels = {e.get_label().strip('"'): e for e in edges.values()}
    for pruned in ("c2", "c3"):
        assert labels[pruned].get_style() == "dashed"
        assert labels[pruned].get_color() == "grey"
    assert labels["a1"].get_style() == "bold"  # the principal variation
    assert labels["b1"].get_style() == "bold"
    assert labels["a2"].get_style() is None
    shapes = [n.get_shape() for n in graph.get_nodes() if n.get_shape()]
    assert shapes.count("triangle") == 1 and shapes.count("invtriangle") == 3


def test_tree_text_is_readable_in_80_columns():
    out = run("tree", "aima_fig5_2")
    assert out.splitlines()[:4] == ["▲ A = 3", "├─ ▼ a1 B = 3 ★", "│  ├─ ■ b1 = 3 ★",
                                    "│  ├─ ■ b2 = 12"]
    assert "│  ├─ c2 (pruned)" in out
    big = run("tree", "tictactoe", "--depth", "2")
    assert max(len(line) for line in big.splitlines()) <= 80
    assert big.rstrip().endswith("searched nodes below depth 2 are not shown)")


DEEP = """
game deep(n = 120)
players A max, B min
state
  left: 0..n = n
move step { left -= 1 }
move skip when left > 1 { left -= 2 }
terminal left == 0
utility if turn == B then 1 else -1
"""


def test_a_deep_search_is_indented_thirty_levels_then_labelled_by_ply(tmp_path):
    path = tmp_path / "deep.game"
    path.write_text(DEEP, encoding="utf-8")
    explained = runner.invoke(app, ["explain", str(path), "--max-steps", "200"])
    drawn = runner.invoke(app, ["tree", str(path), "--max-nodes", "200"])
    for done, width, first in ((explained, 2, "  " * 30 + "[ply 31] step (MIN)"),
                               (drawn, 3, " " * 87 + "└─ [ply 31] ▼ step")):
        assert done.exit_code == 0, done.output
        lines = done.output.splitlines()
        assert any(line.startswith(first) for line in lines), done.output
        assert "[ply 120]" in done.output  # the deepest end, at the same indentation
        assert max(len(line) for line in lines) < 30 * width + 80
        assert not any(line.startswith(" " * (30 * width + 1)) for line in lines)


def test_tree_to_a_file(tmp_path):
    target = tmp_path / "t.dot"
    out = run("tree", "seed_tree", "-f", "dot", "-o", str(target))
    assert out == f"wrote {target}\n"
    assert pydot.graph_from_dot_data(target.read_text())


def test_tree_usage_errors():
    result = runner.invoke(app, ["tree", "aima_fig5_2", "--format", "svg"])
    assert result.exit_code == 2
    assert result.stderr.strip() == "error: --format svg writes a file: give it with -o FILE"
    result = runner.invoke(app, ["tree", "aima_fig5_2", "--format", "pdf"])
    assert result.exit_code == 2
    assert ("Invalid value for '--format' / '-f': 'pdf' is not one of 'text', "
            "'dot', 'svg', 'png', 'efg'.") in " ".join(re.sub("[│╭╮╰╯─]", " ", result.stderr).split())


def test_svg_without_graphviz_says_how_to_install_it(monkeypatch, tmp_path):
    import shutil
    monkeypatch.setattr(shutil, "which", lambda name: None)
    result = runner.invoke(app, ["tree", "aima_fig5_2", "-f", "svg", "-o", str(tmp_path / "t.svg")])
    assert result.exit_code == 2
    assert result.stderr.strip() == (
        "error: drawing svg or png needs Graphviz's `dot`: install it (e.g. `apt-get install "
        "graphviz` or `brew install graphviz`), or use --format dot and render the file elsewhere")


def test_explain_names_what_was_never_evaluated_by_its_path():
    lines = run("explain", "tictactoe", "--max-steps", "100000").splitlines()
    at = lines.index("value 0, best move place(0,0)")
    assert lines[at + 1:at + 4] == [
        "never evaluated (the moves each cut-off pruned, after the moves that lead there):",
        "  place(0,0) place(0,1) place(0,2) place(1,0) place(1,1) place(1,2) place(2,1) "
        "→ place(2,2)",
        "  place(0,0) place(0,1) place(0,2) place(1,0) place(1,1) place(2,1) "
        "→ place(2,0), place(2,2)",
    ]
    assert lines[-1].startswith("  ... and ") and lines[-1].endswith(" more cut-offs")
    assert len(lines) == at + 2 + 20 + 1


def test_explain_as_json():
    import json
    data = json.loads(run("explain", "aima_fig5_2", "--json"))
    assert (data["value"], data["best_move"], data["complete"]) == ("3", "a1", True)
    assert data["pruned"] == [{"after": ["a2"], "moves": ["c2", "c3"]}]
    assert len(data["steps"]) == data["total_steps"] == 21
    assert data["steps"][10] == {"kind": "cutoff", "node": 5, "value": "2",
                                 "text": "cut-off at C: 2 <= α = 3: MAX will avoid it; c2, c3 pruned"}
    c = data["nodes"][5]
    assert (c["name"], c["move"], c["role"], c["value"], c["bound"], c["alpha"], c["beta"]) == (
        "C", "a2", "MIN", "2", "upper", "3", "+∞")


def test_tree_as_json_is_a_flat_list_of_nodes():
    import json
    data = json.loads(run("tree", "aima_fig5_2", "--json"))
    assert data["complete"] is True
    nodes = data["nodes"]
    assert [(n["id"], n["parent"], n["move"]) for n in nodes[:3]] == [
        (0, None, None), (1, 0, "a1"), (2, 1, "b1")]
    assert [n["move"] for n in nodes if n["best"]] == ["a1", "b1"]
    assert [n["pruned"] for n in nodes if n["pruned"]] == [["c2", "c3"]]
