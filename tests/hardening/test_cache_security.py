"""Issue 23, item 18: the cache runs nothing another user could have written.

The cache directory and its folders are the user's alone (0700) and its files are readable by
the user only (0600, built modules 0700). A directory, folder or entry that belongs to another
user or that others can write is passed over with a one-line warning, and plies works without
it; an entry's key is compared before anything in it is unpickled; a built module is loaded only
when the user built it; built modules are pruned as games are.
"""

from __future__ import annotations

import os
import pickle
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from plies import cache as user_cache
from plies.game import game_cache, loader

from .common import clean, run

POSIX = hasattr(os, "getuid")
pytestmark = pytest.mark.skipif(not POSIX, reason="owners and modes are POSIX's")


class Planted:
    """A pickle that, when loaded, writes a file: the proof that an entry was unpickled."""

    def __init__(self, proof: Path):
        self.proof = proof

    def __reduce__(self):
        return (Path.write_text, (self.proof, "pwned"))


@pytest.fixture
def cache_dir(tmp_path, monkeypatch) -> Path:
    base = tmp_path / "cache"
    monkeypatch.setenv("PLIES_CACHE_DIR", str(base))
    monkeypatch.delenv("PLIES_NO_GAME_CACHE", raising=False)
    user_cache._warned.clear()
    return base


def nim_entry() -> Path:
    path = loader.find_game("nim")
    return Path(game_cache._entry(loader.read_source(path), loader.display_path(path), {})[0])


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_folders_are_private_and_entries_the_user_s_alone(cache_dir):
    old = os.umask(0o022)
    try:
        clean(run("solve", "nim"), 0)
    finally:
        os.umask(old)
    assert mode(cache_dir) == 0o700
    assert mode(cache_dir / "games") == 0o700
    entries = list((cache_dir / "games").glob("*.pickle"))
    assert entries and all(mode(e) == 0o600 for e in entries)
    assert all(mode(p) == 0o600 for p in cache_dir.glob("*.lark-cache"))


def test_a_folder_of_the_user_s_that_others_may_read_is_made_private(cache_dir):
    (cache_dir / "games").mkdir(parents=True, mode=0o755)
    os.chmod(cache_dir, 0o755)
    assert user_cache.cache_directory("games") == str(cache_dir / "games")
    assert mode(cache_dir) == mode(cache_dir / "games") == 0o700


def test_a_directory_others_can_write_is_not_used(cache_dir, tmp_path, capfd):
    user_cache.cache_directory("games")
    proof = tmp_path / "pwned"
    nim_entry().write_bytes(pickle.dumps(Planted(proof)))
    os.chmod(cache_dir, 0o777)  # a team's shared cache: another user planted the entry
    result = subprocess.run([sys.executable, "-c", "from plies.cli import app; app()", "solve",
                             "nim"], capture_output=True, text=True,
                            env={**os.environ, "PLIES_CACHE_DIR": str(cache_dir)})
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("game       nim")
    assert not proof.exists()
    warnings = [line for line in result.stderr.splitlines() if line]
    assert warnings == [f"plies: warning: not using the cache at {cache_dir}: other users can "
                        "write it (drwxrwxrwx); working without it"]


@pytest.mark.skipif(not POSIX or os.getuid() != 0, reason="only root can give a file away")
def test_a_directory_or_entry_of_another_user_is_not_used(cache_dir, tmp_path):
    (cache_dir / "games").mkdir(parents=True)
    proof = tmp_path / "pwned"
    entry = nim_entry()
    entry.write_bytes(pickle.dumps(Planted(proof)))
    os.chmod(entry, 0o600)
    os.chown(entry, 65534, 65534)
    assert game_cache.recall(*_nim_inputs()) is None
    assert not proof.exists()
    os.chown(cache_dir, 65534, 65534)
    assert user_cache.cache_directory("games") is None


def _nim_inputs():
    path = loader.find_game("nim")
    return loader.read_source(path), loader.display_path(path), {}


def test_an_entry_others_can_write_is_not_unpickled(cache_dir, tmp_path, capsys):
    user_cache.cache_directory("games")
    proof = tmp_path / "pwned"
    entry = nim_entry()
    entry.write_bytes(pickle.dumps(Planted(proof)))
    os.chmod(entry, 0o666)
    assert game_cache.recall(*_nim_inputs()) is None
    assert not proof.exists()
    assert f"plies: warning: not using the cache at {entry}: other users can write it " \
           "(-rw-rw-rw-); working without it" in capsys.readouterr().err


@pytest.mark.parametrize("form", ["bare pickle", "another key"])
def test_the_key_is_compared_before_anything_is_unpickled(cache_dir, tmp_path, form):
    user_cache.cache_directory("games")
    proof = tmp_path / "pwned"
    entry = nim_entry()
    payload = pickle.dumps(Planted(proof))
    if form == "another key":
        key = b"another game"
        payload = game_cache.MAGIC + len(key).to_bytes(8, "big") + key + payload
    entry.write_bytes(payload)
    os.chmod(entry, 0o600)
    assert game_cache.recall(*_nim_inputs()) is None
    assert not proof.exists()


def test_an_entry_plies_wrote_is_read_back(cache_dir):
    source, filename, params = _nim_inputs()
    loader.load_source(source, filename)
    assert game_cache.recall(source, filename, params) is not None


def test_a_built_module_others_can_write_is_not_loaded(cache_dir, capsys):
    from plies.backends.native import build
    folder = Path(user_cache.cache_directory("native"))
    name = build.module_name("int main(void) { return 0; }")
    planted = folder / f"{name}.cpython-311-x86_64-linux-gnu.so"
    planted.write_bytes(b"\x7fELF not really")
    os.chmod(planted, 0o666)
    assert build._find_built(folder, name) is None
    assert "other users can write it" in capsys.readouterr().err
    os.chmod(planted, 0o700)
    assert build._find_built(folder, name) == planted


def test_built_modules_are_pruned_least_recently_used_first(cache_dir, monkeypatch):
    from plies.backends.native import build
    monkeypatch.setattr(build, "KEEP", 3)
    folder = Path(user_cache.cache_directory("native"))
    for k in range(5):
        path = folder / f"_plies_game_{k:024x}.cpython-311-x86_64-linux-gnu.so"
        path.write_bytes(b"")
        os.utime(path, (1_000_000 + k, 1_000_000 + k))
    stale = folder / "build-old"
    stale.mkdir()
    os.utime(stale, (1_000_000, 1_000_000))
    build._prune(folder)
    left = sorted(p.name[len("_plies_game_"):][:24] for p in folder.glob("_plies_game_*"))
    assert left == [f"{k:024x}" for k in (2, 3, 4)]
    assert not stale.exists()


def test_a_module_built_for_other_processor_flags_has_another_name(monkeypatch):
    from plies.backends.native import build
    source = "int main(void) { return 0; }"
    monkeypatch.setattr(build, "machine_flags", lambda: ())
    plain = build.module_name(source)
    monkeypatch.setattr(build, "machine_flags", lambda: ("-mpopcnt",))
    assert build.module_name(source) != plain  # never loaded where popcnt may be missing


def test_the_processor_flags_are_only_the_ones_plies_knows():
    from plies.backends.native import build
    assert set(build.machine_flags()) <= {"-mpopcnt", "-mavx2"}
