"""Admission: at most MAX_RUNS script runs execute at once in this process; the others wait their turn
(first come, first served). app.py runs each script run inside `run_slot()`.

A hundred runs sharing one interpreter's GIL each finish only when all of them do, and the switching
between their threads wastes about a third of a core (benchmarks/bench_load.py). A run that waited
RUN_WAIT_S goes ahead anyway: nothing waits forever.
"""
import contextlib
import os
import threading

MAX_RUNS = max(1, int(os.environ.get("POSVIZ_MAX_RUNS", "2")))
RUN_WAIT_S = 10.0
_run_slots = threading.BoundedSemaphore(MAX_RUNS)


@contextlib.contextmanager
def run_slot():
    """app.py runs each script run inside this: one of MAX_RUNS slots, or RUN_WAIT_S of waiting."""
    got = _run_slots.acquire(timeout=RUN_WAIT_S)
    try:
        yield
    finally:
        if got:
            _run_slots.release()
