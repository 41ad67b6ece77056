"""What else may sit in the recovery folder under a recovery file's name (issue 33.9): a named pipe
no program writes to (the window froze at start in open()), a folder, a device, a symbolic link, a
sparse giant (a 1 GB one cost seconds and 2 GB at every start). Each is set aside unread, said in
one line, and the real recovery files beside it are still offered."""

from __future__ import annotations

import os
import threading
import tracemalloc

import pytest

from ndcg_gui.core.lists.ranked_list import RankedList
from ndcg_gui.core.state import recovery
from ndcg_gui.core.state.recovery import left_behind, new_recovery_path, read_recovery, write_recovery
from ndcg_gui.core.state.workspace import Workspace

# What a test waits for when the code under test could block forever: left_behind returning past
# a FIFO. Generous (a busy machine), and only reached when it blocks.
BLOCKED_FOR = 120


def _fifo(path):
    os.mkfifo(path)


def _folder(path):
    path.mkdir()


def _device(path):
    try:
        os.mknod(path, 0o600 | __import__("stat").S_IFCHR, os.makedev(1, 5))  # /dev/zero's numbers
    except PermissionError:
        pytest.skip("making a device node needs privileges this test run does not have")


def _link_to_zero(path):
    path.symlink_to("/dev/zero")


def _link_to_a_recovery_file(path):
    real = path.parent.parent / "elsewhere.json"
    write_recovery(real, Workspace.typed({"": RankedList.from_grades([1])}))
    path.symlink_to(real)


def _sparse_giant(path):
    with open(path, "wb") as f:
        f.truncate(recovery.MAX_RECOVERY_BYTES + 1)


def _sparse_under_the_bound(path):
    with open(path, "wb") as f:
        f.truncate(recovery.MAX_RECOVERY_BYTES - 4096)


SPECIAL = {
    "a named pipe": (_fifo, "a named pipe"),
    "a folder": (_folder, "a folder"),
    "a device": (_device, "a device"),
    "a link to /dev/zero": (_link_to_zero, "a symbolic link"),
    "a link to a recovery file": (_link_to_a_recovery_file, "a symbolic link"),
    "a sparse giant": (_sparse_giant, "over the 256 MiB"),
    "a sparse file under the bound": (_sparse_under_the_bound, "NUL bytes"),
}


def _left_behind_waited(folder):
    """left_behind(folder) in a thread, waited for; a FIFO it blocks on is opened for writing (and
    closed) after BLOCKED_FOR, so the test fails instead of hanging."""
    result: list = []
    thread = threading.Thread(target=lambda: result.append(left_behind(folder)), daemon=True)
    thread.start()
    thread.join(BLOCKED_FOR)
    if thread.is_alive():
        for path in folder.iterdir():
            if path.is_fifo():
                os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))
        thread.join(BLOCKED_FOR)
        pytest.fail(f"left_behind blocked for {BLOCKED_FOR} s on a file of the recovery folder")
    return result[0]


@pytest.mark.parametrize("make", SPECIAL.values(), ids=SPECIAL.keys())
def test_a_special_file_is_set_aside_unread_and_the_others_are_offered(tmp_path, make):
    make_it, said = make
    folder = tmp_path / "recovery"
    folder.mkdir()
    good = new_recovery_path(folder)
    write_recovery(good, Workspace.typed({"": RankedList.from_grades([3, 1])}))
    odd = folder / "recovery-x.json"
    make_it(odd)
    tracemalloc.start()
    try:
        found, notes = _left_behind_waited(folder)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert [item.path for item in found] == [good]
    assert found[0].snapshot.lists[""].grades.tolist() == [3, 1]
    assert len(notes) == 1 and notes[0].startswith("recovery-x.json: ") and said in notes[0], notes
    assert "moved aside as recovery-x.json.damaged" in notes[0]
    assert not os.path.lexists(odd) and os.path.lexists(folder / "recovery-x.json.damaged")
    assert peak < 32 << 20, f"{peak:,} bytes allocated: the odd file was read"
    for item in found:
        item.keep()


def test_read_recovery_never_waits_on_a_named_pipe(tmp_path):
    fifo = tmp_path / "recovery-p.json"
    os.mkfifo(fifo)
    errors: list[BaseException] = []

    def read() -> None:
        try:
            read_recovery(fifo)
        except ValueError as err:
            errors.append(err)

    thread = threading.Thread(target=read, daemon=True)
    thread.start()
    thread.join(BLOCKED_FOR)
    if thread.is_alive():
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        thread.join(BLOCKED_FOR)
        pytest.fail(f"read_recovery blocked for {BLOCKED_FOR} s on a named pipe")
    assert [str(e) for e in errors] == ["recovery-p.json: a named pipe, not a recovery file"]


def test_a_recovery_file_at_the_bound_is_still_read(tmp_path, monkeypatch):
    """The bound is on size alone: a file of exactly MAX_RECOVERY_BYTES is read (the bound made
    small here, the file's own size)."""
    path = tmp_path / "recovery-a.json"
    write_recovery(path, Workspace.typed({"": RankedList.from_grades([2, 0])}))
    monkeypatch.setattr(recovery, "MAX_RECOVERY_BYTES", path.stat().st_size)
    assert read_recovery(path).lists[""].grades.tolist() == [2, 0]
    monkeypatch.setattr(recovery, "MAX_RECOVERY_BYTES", path.stat().st_size - 1)
    with pytest.raises(ValueError, match="over the"):
        read_recovery(path)
