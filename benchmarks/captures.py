"""Every capture of a command's output in README.md and docs/ comes from a run.

``python -m benchmarks.captures`` runs the command of each capture and writes what it printed
into the page (a capture that changed only in its times and rates is left as it is); ``python -m benchmarks.captures --check`` changes nothing and exits 1 listing
the captures that drifted (``tests/test_captures.py`` does the same in CI).

A capture is a fenced block whose first line is ``$ plies ...``: the command, then what it
prints (standard output and standard error, as a terminal shows them). A block may hold several
commands, each followed by its output. How a capture is run:

- In a scratch folder of its own per page (the pages' commands run in order, so a database
  written by one block is read by the next), where ``games/`` and ``tests/`` are the checkout's;
  the checkout's path is written as a relative one.
- ``NAME.game`` named in a command and found in neither folder is an example of the page,
  saved first: the ```` ```plies id=NAME ```` block of the page.
- An HTML comment on the line above the block says more, as ``key=value`` words:
  ``save=FILE:SOURCE`` saves a file first (``SOURCE`` a path in the checkout, or ``#ID`` an
  example of the page), ``edit="OLD=>NEW"`` replaces the last ``OLD`` in the saved files,
  ``input="LINE\\nLINE"`` is what the command reads on its standard input (a game of ``plies
  play``, its lines separated by ``\\n``), and ``exit=N`` is the exit code the command must have
  (0 unless said). For example
  ``<!-- capture save=corridor.game:tests/explore/11_back_and_forth.game exit=1 -->``.
- A capture that ends with a line ``...`` shows the first lines of the output only: as many as
  it shows now.

What may change from run to run is written as the run gave it but not compared: a time
(``0.006 s``), a rate (``790,000 nodes/s``), a size (``1.1 MB``); and runs of spaces count as one,
since a column's width follows the widest time in it.
"""

from __future__ import annotations

import argparse
import glob
import os
import re
import shlex
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^```([^\n`]*)\n(.*?)^```[ \t]*$", re.S | re.M)
COMMENT = re.compile(r"<!--\s*capture\b(.*?)-->\s*\n$")
EXAMPLE = re.compile(r"^```plies\b[^\n]*\bid=([\w-]+)[^\n]*\n(.*?)^```", re.S | re.M)
ELLIPSIS = "..."
# What varies between runs: kept in the page as the run wrote it, masked when comparing.
VARIABLE = [
    (re.compile(r"\d[\d,]*(?:\.\d+)? (?:nodes|positions)/s\b"), "<rate>"),
    (re.compile(r"\d[\d,]*(?:\.\d+)? (?:[KMG]B|bytes)\b"), "<size>"),
    (re.compile(r"\d[\d,]*(?:\.\d+)? s\b"), "<time>"),
]
COMMAND_TIMEOUT = 600  # seconds: a capture that takes longer is a mistake in the page


@dataclass
class Command:
    """One ``$ plies ...`` line of a capture and the output the page shows under it."""

    line: str  # without "$ "
    shown: list[str]

    @property
    def excerpt(self) -> bool:
        return bool(self.shown) and self.shown[-1] == ELLIPSIS


@dataclass
class Capture:
    """A fenced block of a page that shows commands and their output."""

    page: Path
    line: int  # of the opening fence, for messages
    start: int  # offsets of the block's body in the page's text
    end: int
    commands: list[Command]
    attrs: dict[str, str] = field(default_factory=dict)

    @property
    def where(self) -> str:
        page = self.page.relative_to(ROOT) if self.page.is_relative_to(ROOT) else self.page
        return f"{page}:{self.line}"

    @property
    def exit_code(self) -> int:
        return int(self.attrs.get("exit", "0"))


def read_captures(page: Path) -> list[Capture]:
    """The captures of a page, in order."""
    text = page.read_text(encoding="utf-8")
    found = []
    for match in FENCE.finditer(text):
        body = match.group(2)
        if not body.startswith("$ plies "):
            continue
        before = text[:match.start()]
        comment = COMMENT.search(before[before.rfind("\n", 0, len(before) - 1) + 1:])
        attrs = {}
        if comment:
            words = shlex.split(comment.group(1))
            attrs = dict(word.split("=", 1) for word in words)
        commands: list[Command] = []
        for row in body.rstrip("\n").split("\n"):
            if row.startswith("$ "):
                commands.append(Command(row[2:], []))
            else:
                commands[-1].shown.append(row)
        found.append(Capture(page, text.count("\n", 0, match.start()) + 1, match.start(2),
                             match.end(2), commands, attrs))
    return found


def examples(page: Path) -> dict[str, str]:
    """The complete examples of a page (```` ```plies id=NAME ````), by name."""
    text = page.read_text(encoding="utf-8")
    return {name: body for name, body in EXAMPLE.findall(text)}


def mask(lines: list[str]) -> list[str]:
    """Lines with what varies between runs replaced by a placeholder, spaces squeezed."""
    masked = []
    for line in lines:
        for pattern, placeholder in VARIABLE:
            line = pattern.sub(placeholder, line)
        masked.append(" ".join(line.split()))
    return masked


class Scratch:
    """The folder a page's captures run in: ``games/`` and ``tests/`` of the checkout."""

    def __init__(self, page: Path):
        self.page = page
        self._folder = tempfile.TemporaryDirectory(prefix="plies-captures-")
        self.path = Path(self._folder.name)
        for name in ("games", "tests"):
            (self.path / name).symlink_to(ROOT / name, target_is_directory=True)

    def close(self) -> None:
        self._folder.cleanup()

    def __enter__(self) -> Scratch:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def prepare(self, capture: Capture) -> None:
        """Saves the files the capture's commands name (see the module's docstring)."""
        saves = {}
        if "save" in capture.attrs:
            for item in capture.attrs["save"].split(","):
                name, source = item.split(":", 1)
                saves[name] = source
        for command in capture.commands:
            for word in shlex.split(command.line):
                if (word.endswith(".game") and word not in saves and "/" not in word
                        and not (self.path / word).exists()):
                    saves[word] = "#" + word.removesuffix(".game")
        pages = examples(self.page)
        for name, source in saves.items():
            if source.startswith("#"):
                if source[1:] not in pages:
                    raise SystemExit(f"{capture.where}: no example `plies id={source[1:]}` "
                                     f"on the page to save as {name}")
                text = pages[source[1:]]
            else:
                text = (ROOT / source).read_text(encoding="utf-8")
            if "edit" in capture.attrs:
                old, new = capture.attrs["edit"].split("=>", 1)
                at = text.rfind(old)
                if at < 0:
                    raise SystemExit(f"{capture.where}: `{old}` is not in {name}")
                text = text[:at] + new + text[at + len(old):]
            (self.path / name).write_text(text, encoding="utf-8")

    def run(self, line: str, stdin: str = "") -> tuple[int, list[str]]:
        """Runs one command line of a page (reading ``stdin``); its exit code and what it
        printed."""
        words = shlex.split(line)
        if words[0] != "plies":
            raise SystemExit(f"not a plies command: {line}")
        args = []
        for word in words[1:]:
            if any(c in word for c in "*?["):
                matches = sorted(glob.glob(word, root_dir=self.path))
                args.extend(matches or [word])
            else:
                args.append(word)
        env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONUNBUFFERED="1", NO_COLOR="1",
                   COLUMNS="100", TERM="dumb")
        env.pop("PLIES_BACKEND", None)
        process = subprocess.run(
            [sys.executable, "-c", "from plies.cli import app; app(prog_name='plies')", *args],
            cwd=self.path, env=env, input=stdin, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            text=True, encoding="utf-8", timeout=COMMAND_TIMEOUT)
        output = process.stdout
        for folder in (str(self.path.resolve()), str(self.path), str(ROOT)):
            output = output.replace(folder + os.sep, "")
        return process.returncode, [row.rstrip() for row in output.rstrip("\n").split("\n")]


def run_capture(capture: Capture, scratch: Scratch) -> tuple[str, list[str]]:
    """Runs a capture's commands: the block's new body, and what drifted (empty if nothing)."""
    scratch.prepare(capture)
    body, drift = [], []
    for command in capture.commands:
        stdin = capture.attrs.get("input", "").replace("\\n", "\n")
        code, printed = scratch.run(command.line, stdin + "\n" if stdin else "")
        if printed == [""]:
            printed = []
        if code != capture.exit_code:
            drift.append(f"{capture.where}: `{command.line}` exited with {code}, the page "
                         f"says {capture.exit_code}:\n" + "\n".join(printed))
        if command.excerpt:
            shown = command.shown[:-1]
            new = printed[:len(shown)] + ([ELLIPSIS] if len(printed) > len(shown) else [])
            compared = printed[:len(shown)]
        else:
            shown = command.shown
            new = compared = printed
        if mask(compared) != mask(shown):
            drift.append(f"{capture.where}: `{command.line}` prints\n" + "\n".join(new)
                         + "\nwhere the page shows\n" + "\n".join(command.shown))
        body.extend(["$ " + command.line, *new])
    return "\n".join(body) + "\n", drift


def check_page(page: Path) -> list[str]:
    """What drifted in a page's captures (empty when every one is what its command prints)."""
    drift = []
    with Scratch(page) as scratch:
        for capture in read_captures(page):
            drift.extend(run_capture(capture, scratch)[1])
    return drift


def write_page(page: Path) -> int:
    """Rewrites a page's captures from a run; how many changed."""
    captures = read_captures(page)
    if not captures:
        return 0
    text = page.read_text(encoding="utf-8")
    changed, pieces, at = 0, [], 0
    with Scratch(page) as scratch:
        for capture in captures:
            body, drift = run_capture(capture, scratch)
            for message in drift:
                if "exited with" in message:
                    print(message, file=sys.stderr)
            if not drift:  # the same but for times and rates: left as it is, no churn
                body = text[capture.start:capture.end]
            pieces.extend([text[at:capture.start], body])
            at = capture.end
            changed += text[capture.start:capture.end] != body
    page.write_text("".join(pieces) + text[at:], encoding="utf-8")
    return changed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.captures",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="change nothing; exit 1 listing the captures that drifted")
    parser.add_argument("pages", nargs="*", type=Path, help="only these pages")
    options = parser.parse_args(argv)
    pages = [page.resolve() for page in options.pages] or PAGES
    if options.check:
        drift = [message for page in pages for message in check_page(page)]
        print("\n\n".join(drift) if drift else "every capture is what its command prints")
        return 1 if drift else 0
    for page in pages:
        changed = write_page(page)
        if changed:
            shown = page.relative_to(ROOT) if page.is_relative_to(ROOT) else page
            print(f"{shown}: {changed} capture(s) rewritten")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
