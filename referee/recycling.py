"""The second line of defence for a worker's memory (README, "Operations"): gunicorn replaces a
worker after `max_requests` requests (referee/serving.py), and this hook replaces one at once
when a request leaves it holding more than MAX_WORKER_MEMORY resident. A search's table is
given back at its end (referee/solver/core.py), but the allocator may keep pages, so nothing
that a worker still holds can pile up over its life."""
from __future__ import annotations

import os

MAX_WORKER_MEMORY = int(os.environ.get("REFEREE_WORKER_MAX_MIB") or 1024) * 2**20  # bytes resident


def post_request(worker, req, environ, resp) -> None:
    """gunicorn's hook after each request: a worker past MAX_WORKER_MEMORY finishes the
    requests it has and is replaced, as after max_requests."""
    held = resident_memory()
    if worker.alive and held > MAX_WORKER_MEMORY:
        worker.log.warning("worker %s holds %d MiB, past %d MiB: replaced after its current requests",
                           os.getpid(), held >> 20, MAX_WORKER_MEMORY >> 20)
        worker.alive = False


def resident_memory() -> int:
    """This process's resident memory in bytes (Linux /proc; 0 where it cannot be read)."""
    try:
        with open("/proc/self/statm", encoding="ascii") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0
