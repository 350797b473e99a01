"""bench/live: a load generator for the live table (docs/performance.md).

Run as ``python -m bench.live`` (or ``bench/live/run.py``) from the repository root.
"""
