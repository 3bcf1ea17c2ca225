"""The search slots' lock files live in a folder of the referee's own (issue 38, item 6): for
PostgreSQL its name in the shared temporary folder can be guessed, so another local user
could make it first, fill it with links to files the referee may write (it truncated them),
or hold its locks. A folder not ours is refused, one others could write in is closed and
emptied, and no link is ever followed."""
import os
import stat

import pytest

from referee import lockdir
from referee.budget import Limits
from referee.lockdir import UnsafeDirectory
from referee.slots import Slots, lock_dir


@pytest.fixture
def victim(tmp_path):
    """A file the referee's user may write, which a link in the lock folder points at."""
    path = tmp_path / "victim.txt"
    path.write_text("precious\n")
    return path


def test_a_new_folder_is_made_owner_only(tmp_path):
    Slots(None, 2, tmp_path / "slots").take().release()
    assert stat.S_IMODE((tmp_path / "slots").stat().st_mode) == 0o700
    files = list((tmp_path / "slots").iterdir())
    assert any(f.name.startswith("slot-") for f in files)
    assert all(stat.S_IMODE(f.stat().st_mode) & 0o077 == 0 for f in files)


def test_a_folder_made_by_another_user_is_refused_and_nothing_is_written_in_it(tmp_path, monkeypatch):
    folder = tmp_path / "slots"
    folder.mkdir(mode=0o700)
    monkeypatch.setattr(lockdir, "_uid", lambda: os.getuid() + 4242)  # the folder is now someone else's
    with pytest.raises(UnsafeDirectory, match=r"belongs to user \d+, not to the referee's.*REFEREE_SEARCH_LOCK_DIR"):
        Slots(None, 2, folder)
    assert list(folder.iterdir()) == []


def test_the_predictable_postgresql_folder_made_first_by_another_user_stops_the_app(tmp_path, monkeypatch):
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", None)  # read TMPDIR again
    url = "postgresql://referee@db.example/referee"
    folder = lock_dir(url)
    assert folder.parent == tmp_path
    folder.mkdir(mode=0o777)  # the other user was there first
    monkeypatch.setattr(lockdir, "_uid", lambda: os.getuid() + 4242)
    with pytest.raises(UnsafeDirectory, match="not used"):
        Limits.from_settings({"SEARCHES_PER_SERVER": 2}, url).slots()


def test_a_folder_that_is_a_link_is_refused_and_its_target_untouched(tmp_path):
    target = tmp_path / "elsewhere"
    target.mkdir()
    (tmp_path / "slots").symlink_to(target)
    with pytest.raises(UnsafeDirectory, match="not a folder of the referee's own"):
        Slots(None, 2, tmp_path / "slots")
    assert list(target.iterdir()) == []


def test_a_slot_file_that_is_a_link_is_never_followed_nor_the_file_behind_it_truncated(tmp_path, victim):
    folder = tmp_path / "slots"
    folder.mkdir(mode=0o700)
    (folder / "slot-0.lock").symlink_to(victim)
    (folder / "slot-1.lock").symlink_to(victim)
    slots = Slots(None, 2, folder)
    assert slots.take() is None  # no slot it can use: refused (429), never written through
    assert victim.read_text() == "precious\n"


def test_a_folder_of_ours_that_others_could_write_in_is_closed_and_emptied_of_their_links(tmp_path, victim):
    folder = tmp_path / "slots"
    folder.mkdir()
    folder.chmod(0o1777)  # like /tmp: anyone could have put things there
    (folder / "slot-0.lock").symlink_to(victim)
    os.link(victim, folder / "slot-1.lock")  # a second name of a file of ours: not a lock file either
    slots = Slots(None, 2, folder)
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert [p for p in folder.iterdir() if p.is_symlink() or p.name == "slot-1.lock"] == []
    first, second = slots.take(), slots.take()
    assert first is not None and second is not None  # both slots usable again, as plain files of ours
    first.release()
    second.release()
    assert victim.read_text() == "precious\n"


def test_a_slot_held_elsewhere_is_read_without_following_links(tmp_path):
    """The refusal's Retry-After reads the other holders' files: a link there is not read
    (were it read, its "free a while ago" would make Retry-After 1)."""
    folder = tmp_path / "slots"
    slots = Slots(None, 1, folder, seconds=60)
    held = slots.take()
    lie = tmp_path / "lie"
    lie.write_text("1.0 1\n")
    (folder / "slot-9.lock").symlink_to(lie)
    assert slots.retry_after() > 30
    held.release()
