"""The server's slot files (referee/slotfiles.py) read by many threads of one process at once.

Found by CI: a waiter looking for itself among the waiters saw none and failed, because the
threads listed the folder through one shared descriptor, whose reading position each of them
moved (os.listdir of a descriptor reads from a duplicate of it)."""
import threading

from referee.slotfiles import Entry, Files


def test_every_thread_listing_at_once_sees_every_waiter(tmp_path):
    files = Files(tmp_path / "slots", 2)
    with files.deciding():
        held = [files.wait(Entry("", 1.0, 2.0, 3.0, (f"address:{k}",))) for k in range(40)]
    names = {name for _, name in held}
    seen, go = [], threading.Barrier(8)

    def look():
        go.wait()
        for _ in range(200):
            seen.append({e.name for e in files.waiters()})
    threads = [threading.Thread(target=look) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for fd, name in held:
        files.leave(fd, name)
    assert len(seen) == 1600 and all(s == names for s in seen)
    assert files.waiters() == []

