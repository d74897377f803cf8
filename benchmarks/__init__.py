"""Benchmarks: plies's solvers against hand-written pure-Python baselines.

Run ``python -m benchmarks`` (``--help`` for options); see docs/performance.md.
"""
