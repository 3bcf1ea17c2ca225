"""Workers are recycled (issue 42, item 6, the second line of defence): after a documented
number of requests with jitter, and after a request that leaves one past its memory ceiling."""
import logging

from referee import recycling, serving


class Worker:
    alive = True
    log = logging.getLogger("test.worker")


def test_the_settings_recycle_workers_and_gunicorn_conf_gives_them():
    assert (serving.max_requests, serving.max_requests_jitter) == (1000, 100)
    assert {"max_requests", "max_requests_jitter", "post_request"} <= set(serving.__all__)


def test_resident_memory_is_read_and_follows_what_the_process_holds():
    before = recycling.resident_memory()
    block = bytearray(64 * 2**20)  # zeros, each page touched by the allocation
    block[::4096] = b"x" * len(block[::4096])
    assert recycling.resident_memory() - before >= 60 * 2**20 and before > 0
    del block


def test_a_worker_past_the_ceiling_is_replaced_after_its_request(monkeypatch):
    worker = Worker()
    monkeypatch.setattr(recycling, "MAX_WORKER_MEMORY", 1 << 40)  # a TiB: not past it
    serving.post_request(worker, None, {}, None)
    assert worker.alive is True
    monkeypatch.setattr(recycling, "MAX_WORKER_MEMORY", 1 << 20)  # 1 MiB: any worker is past it
    serving.post_request(worker, None, {}, None)
    assert worker.alive is False
