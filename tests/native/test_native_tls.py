"""A process that has loaded a couple of hundred games (a notebook sweeping a parameter, a
long test run) has used up the static TLS block that the C library sets aside for modules
loaded after start: the next game's module failed to load with a traceback ("cannot allocate
memory in static TLS block", found by a fuzzer after 215 games in one process). It is now
built again with its thread's worker in dynamic TLS, and the game is solved natively."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap

import pytest

FILL_AND_SOLVE = textwrap.dedent("""
    import ctypes, shutil, subprocess, sys
    from pathlib import Path
    work = Path(sys.argv[1])
    # Fill the static TLS block with small libraries of initial-exec TLS, largest first.
    filled = 0
    for size in (1024, 256, 64, 16, 8):
        source = work / f"pad{size}.c"
        source.write_text(f"__thread char pad[{size}] __attribute__((tls_model(\\"initial-exec\\")));"
                          "char *padding(void) { return pad; }")
        library = work / f"pad{size}.so"
        subprocess.run(["cc", "-shared", "-fPIC", "-o", str(library), str(source)], check=True)
        for copy in range(400):
            named = work / f"pad{size}-{copy}.so"
            shutil.copy(library, named)
            try:
                ctypes.CDLL(str(named))
            except OSError as error:
                assert "static TLS" in str(error), error
                break
            filled += size
    import plies
    from plies.backends.native import build
    from plies.backends.native.engine import NativeGame
    said = []
    game = NativeGame(plies.load("nim", heaps=[1, 2, 3]), lambda: said.append(1))
    found, shared = game.solve("auto"), game.solve("auto", threads=2)
    print(filled, found.value, found.nodes, build._static_tls_full, shared.value, len(said))
""")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's static TLS")
def test_a_game_loads_after_the_static_tls_block_is_full(native, tmp_path):
    if shutil.which("cc") is None:
        pytest.skip("no cc to build the libraries that fill the block")
    expected = native(__import__("plies").load("nim", heaps=[1, 2, 3])).solve("auto")
    env = dict(os.environ, PLIES_CACHE_DIR=str(tmp_path / "cache"))
    done = subprocess.run([sys.executable, "-c", FILL_AND_SOLVE, str(tmp_path)], env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    filled, value, nodes, full, with_threads, said = done.stdout.split()
    assert said == "1"  # built twice (the second time with dynamic TLS), said once
    assert int(filled) > 0
    assert (int(value), int(nodes), full) == (expected.value, expected.nodes, "True")
    assert int(with_threads) == expected.value  # each thread has its worker in dynamic TLS
