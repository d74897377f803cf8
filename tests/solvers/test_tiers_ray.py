"""--engine ray: a local Ray cluster of 2 CPUs writes the same bytes as 2 worker processes."""

from __future__ import annotations

import pytest

from plies import load
from plies.commands.solution import solve_to_directory
from plies.solvers.engines import PoolEngine, RayEngine

ray = pytest.importorskip("ray", reason="Ray is not installed (pip install 'plies[ray]')")
pytestmark = [pytest.mark.timeout(600), pytest.mark.slow]


def test_a_local_ray_cluster_writes_the_same_bytes_as_two_processes(tmp_path):
    model = load("connect4", width=4, height=3)
    pool = PoolEngine(2)
    try:
        solve_to_directory(model, [], tmp_path / "processes", engine=pool)
    finally:
        pool.close()
    cluster = RayEngine(workers=2)
    try:
        assert cluster.workers == 2
        summary = solve_to_directory(model, [], tmp_path / "ray", engine=cluster)
    finally:
        cluster.close()
    # 12,031 positions, one of each pair of mirror images kept (23 are their own)
    assert summary.value == 0 and summary.positions == 6_027
    names = sorted(p.name for p in (tmp_path / "processes").iterdir())
    assert names == sorted(p.name for p in (tmp_path / "ray").iterdir())
    for name in names:
        assert (tmp_path / "processes" / name).read_bytes() == \
            (tmp_path / "ray" / name).read_bytes()
