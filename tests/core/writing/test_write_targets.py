"""Where a save lands: a regular file is replaced atomically; anything else that exists (a FIFO, a
pipe, a character device, /dev/stdout behind a shell's `>>`) is written into, never renamed over;
odd paths (names too long, symbolic-link loops) give one line; stale temporary files of a killed
save are swept."""

from __future__ import annotations

import os
import socket
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from ndcg_gui.core.errors import InputError
from ndcg_gui.core.lists.ranked_list import RankedList
from ndcg_gui.core.writing import writers

ROOT = Path(__file__).resolve().parents[3]  # the worktree: the subprocesses import this code
LIST = RankedList(docs=["a", "b"], grades=[3, 1], query="q")


def _reader(path: Path) -> tuple[threading.Thread, list[bytes]]:
    got: list[bytes] = []

    def read() -> None:
        with open(path, "rb") as f:
            got.append(f.read())

    thread = threading.Thread(target=read, daemon=True)
    thread.start()
    return thread, got


def test_a_fifo_is_written_into_and_stays_a_fifo(tmp_path):
    fifo = tmp_path / "out.csv"
    os.mkfifo(fifo)
    thread, got = _reader(fifo)
    writers.write_metrics_csv(LIST, fifo)
    thread.join(10)
    assert got and got[0].startswith(b"rank,doc,grade")
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert sorted(os.listdir(tmp_path)) == ["out.csv"]  # no temporary left beside it


def test_a_symbolic_link_to_a_fifo_is_written_into(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    (tmp_path / "link.csv").symlink_to("pipe")
    thread, got = _reader(fifo)
    writers.atomic_write_bytes(tmp_path / "link.csv", b"x,y\n")
    thread.join(10)
    assert got == [b"x,y\n"] and (tmp_path / "link.csv").is_symlink()


def test_a_character_device_stays_a_device(tmp_path):
    """A private /dev/null (a node of its own, so a failure cannot harm the machine's)."""
    null = tmp_path / "null"
    try:
        os.mknod(null, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    except (PermissionError, AttributeError):
        pytest.skip("making a device node needs root (the FIFO and pipe tests cover the rest)")
    writers.atomic_write_bytes(null, b"gone\n")
    assert stat.S_ISCHR(os.stat(null).st_mode)
    assert sorted(os.listdir(tmp_path)) == ["null"]


def test_a_socket_is_refused_in_one_line(tmp_path):
    path = tmp_path / "s"
    server = socket.socket(socket.AF_UNIX)
    try:
        server.bind(str(path))
        with pytest.raises(InputError, match=r"^s: is a socket"):
            writers.atomic_write_bytes(path, b"x")
        assert stat.S_ISSOCK(os.stat(path).st_mode)
    finally:
        server.close()


_WRITE_STDOUT = (
    "import sys\n"
    "from ndcg_gui.core.writing.writers import atomic_write_bytes\n"
    "atomic_write_bytes(sys.argv[1], b'new\\n')\n"
)


@pytest.mark.parametrize("device, redirect", [("/dev/stdout", ">>"), ("/dev/stderr", "2>>"),
                                               ("/dev/fd/1", ">>")])
def test_dev_stdout_appended_by_the_shell_keeps_what_the_file_had(tmp_path, device, redirect):
    out = tmp_path / "results.csv"
    out.write_text("old\n")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    shell = f'"{sys.executable}" -c "$SCRIPT" {device} {redirect} "{out}"'
    done = subprocess.run(["sh", "-c", shell], env={**env, "SCRIPT": _WRITE_STDOUT}, capture_output=True,
                          text=True)
    assert done.returncode == 0, done.stderr
    assert out.read_text() == "old\nnew\n"
    assert sorted(os.listdir(tmp_path)) == ["results.csv"]


def test_dev_stdout_into_a_pipe(tmp_path):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-c", _WRITE_STDOUT, "/dev/stdout"], env=env,
                          capture_output=True, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout == b"new\n"


def test_a_symbolic_link_to_a_file_is_written_through(tmp_path):
    (tmp_path / "real.csv").write_text("old")
    (tmp_path / "link.csv").symlink_to("real.csv")
    writers.atomic_write_bytes(tmp_path / "link.csv", b"new")
    assert (tmp_path / "link.csv").is_symlink() and (tmp_path / "real.csv").read_bytes() == b"new"


def test_a_symbolic_link_loop_is_one_line_and_left_alone(tmp_path):
    (tmp_path / "a.csv").symlink_to("b.csv")
    (tmp_path / "b.csv").symlink_to("a.csv")
    with pytest.raises(InputError, match=r"^a\.csv: is a symbolic link that loops"):
        writers.write_csv(LIST, tmp_path / "a.csv")
    assert os.readlink(tmp_path / "a.csv") == "b.csv"


def test_a_name_too_long_is_one_line(tmp_path):
    path = tmp_path / ("x" * 300 + ".csv")
    with pytest.raises(InputError) as err:
        writers.write_csv(LIST, path)
    assert "name is too long" in str(err.value) and "\n" not in str(err.value)


def test_a_long_name_that_fits_is_written(tmp_path):
    """250 bytes is a legal name: the temporary file's name must fit too."""
    path = tmp_path / ("é" * 123 + ".csv")  # 246 + 4 bytes
    writers.write_csv(LIST, path)
    assert path.read_text().startswith("query,rank,doc,grade")
    assert os.listdir(tmp_path) == [path.name]


def _dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_stale_temporary_files_of_a_killed_save_are_swept(tmp_path):
    target = tmp_path / "run.txt"
    old = tmp_path / ".run.txt.ab3_x9zq.tmp"  # a save killed an hour and more ago
    old.write_bytes(b"half")
    hour_ago = time.time() - 3700
    os.utime(old, (hour_ago, hour_ago))
    orphan = tmp_path / f".run.txt.{_dead_pid()}-k2j4h5g6.tmp"  # its process is gone
    orphan.write_bytes(b"half")
    minutes_ago = time.time() - 120
    os.utime(orphan, (minutes_ago, minutes_ago))
    busy = tmp_path / f".run.txt.{os.getpid()}-q1w2e3r4.tmp"  # a save of a live process
    busy.write_bytes(b"half")
    other = tmp_path / ".other.txt.ab3_x9zq.tmp"  # another file's: not ours to judge now
    other.write_bytes(b"half")
    os.utime(other, (hour_ago, hour_ago))
    writers.write_csv(LIST, target)
    assert sorted(os.listdir(tmp_path)) == sorted([target.name, busy.name, other.name])


_KILLED_MID_SAVE = (
    "import sys, time\n"
    "from ndcg_gui.core.writing.writers import atomic_write_bytes\n"
    "def write(f):\n"
    "    f.write(b'x' * 100_000); f.flush()\n"
    "    print('writing', flush=True)\n"
    "    time.sleep(600)\n"
    "atomic_write_bytes(sys.argv[1], write)\n"
)


def test_the_temporary_file_of_a_save_killed_with_sigkill_goes_at_the_next_save(tmp_path):
    target = tmp_path / "big.run"
    target.write_bytes(b"old\n")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    child = subprocess.Popen([sys.executable, "-c", _KILLED_MID_SAVE, str(target)], env=env,
                             stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline().strip() == "writing"
    finally:
        child.kill()
        child.wait()
    left = [p for p in tmp_path.iterdir() if p != target]
    assert len(left) == 1 and left[0].stat().st_size == 100_000  # what kill -9 leaves
    assert target.read_bytes() == b"old\n"
    writers.atomic_write_bytes(target, b"new\n")  # a minute has not passed: kept (its process may be busy)
    assert left[0].exists()
    minutes_ago = time.time() - 120
    os.utime(left[0], (minutes_ago, minutes_ago))
    writers.atomic_write_bytes(target, b"newer\n")
    assert sorted(tmp_path.iterdir()) == [target] and target.read_bytes() == b"newer\n"


def test_a_name_with_undecodable_bytes_is_written(tmp_path):
    """A file name's bytes that are not UTF-8 (Python keeps them as lone surrogates): written at
    that name, the temporary file beside it named from the same bytes (issue 33: an internal error)."""
    out = tmp_path / os.fsdecode(b"bad\xff\xfe" + b"x" * 240 + b".csv")
    writers.write_metrics_csv(LIST, out)
    assert os.listdir(tmp_path) == [out.name] and out.read_text().startswith("rank,")
