"""The bench floors (docs/performance.md): a bare WebSocket echo and an echo that also commits
one row, routed only when ``settings.BENCH_FLOORS`` is on (off by default)."""
