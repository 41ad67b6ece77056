"""Files kept beside the data (`cache`): read only when they are what this program wrote, written
only as new files, and keyed on what an input cannot fake cheaply.

A kept file lies at a name anyone who can write to the folder can predict, so:
- it is read only when it is a regular file (opened without following a link and without waiting:
  a FIFO there is passed over), of this user's own, that no one else may write to; and only its
  Parquet footer (bounded) before its key is checked, so a "bomb" costs a footer's read;
- it is written as a new temporary file (`O_CREAT | O_EXCL`, mode 0600) renamed over the name:
  a link, FIFO or device there is replaced, never written through; a folder there stays.

An input's state (`file_state`) is its resolved path, device, inode, size, modification and
change times (ctime moves with every write, `touch -r`, rename or new link, and no call sets it
back) and a sha256 of its bytes: the whole while the inputs' hashed bytes stay within WHOLE, else
its ends and samples between (with the ctime, an edit that keeps the size and sets the time back
still misses).
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import os
import shutil
import stat
import tempfile
from pathlib import Path
from typing import IO

from ndcg_gui.core.kept import OPEN_NO_WAIT
from ndcg_gui.core.writing.atomic import sweep_stale, temp_prefix

WHOLE = 64 << 20  # bytes of the inputs hashed whole; past it, each file's ends and samples
PIECE = 64 << 10  # bytes of each end (and sample) hashed of a file past WHOLE
SAMPLES = 16
FOOTER_MAX = 4 << 20  # bytes of a kept file's Parquet footer read at most


def parquet_footer(f: IO[bytes]):
    """The Parquet metadata of open file `f`, its footer bounded by FOOTER_MAX; None when it is
    not Parquet or its footer is larger."""
    import pyarrow as pa  # lazy: start-up
    import pyarrow.parquet as pq  # lazy: start-up

    try:
        size = os.fstat(f.fileno()).st_size
        if size < 12:
            return None
        f.seek(size - 8)
        tail = f.read(8)
        length = int.from_bytes(tail[:4], "little")
        if tail[4:] != b"PAR1" or length > min(FOOTER_MAX, size - 12):
            return None
        f.seek(size - 8 - length)
        footer = f.read(length)
        # The footer alone, framed as a file: nothing past it is read to know the key.
        framed = b"PAR1" + footer + tail
        return pq.read_metadata(pa.BufferReader(framed))
    except (OSError, ValueError, pa.ArrowException):
        return None


def write_new(path: Path, data: bytes) -> bool:
    """`data` as a new file renamed to `path` (see the module); False when the folder takes no
    file or `path` is a folder."""
    sweep_stale(path.parent, path.name)
    try:
        fd, tmp = tempfile.mkstemp(prefix=temp_prefix(path.name), suffix=".tmp", dir=path.parent)
    except OSError:
        return False
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)  # (replaces the name itself: a link there is not followed)
        return True
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(exc, OSError):
            return False
        raise


def file_state(file: str, whole: int = WHOLE) -> list | None:
    """What a kept file made from `file` must have been made from (see the module), its bytes
    hashed whole when there are at most `whole`; None for anything but a regular file that can be
    read (a pipe is read once: it is never kept)."""
    try:
        if not stat.S_ISREG(os.stat(file).st_mode):  # (not even opened: a FIFO's writer would wake)
            return None
        fd = os.open(file, OPEN_NO_WAIT)
    except (OSError, ValueError):
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            return None
        os.set_blocking(fd, True)
        with os.fdopen(os.dup(fd), "rb") as f:
            digest = _content_digest(f, info.st_size, whole)
        return [os.path.realpath(file), info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns,
                info.st_ctime_ns, digest]
    except OSError:
        return None
    finally:
        os.close(fd)


def file_states(files: list[str]) -> list[list] | None:
    """`file_state` of each of `files`, hashed whole while their bytes so far are within WHOLE
    (a folder of many files costs their ends and samples, not a read of them all)."""
    states, hashed = [], 0
    for file in files:
        state = file_state(file, WHOLE - hashed)
        if state is None:
            return None
        hashed += state[3] if state[3] <= WHOLE - hashed else 0
        states.append(state)
    return states


def _content_digest(f: IO[bytes], size: int, whole: int) -> str:
    digest = hashlib.sha256()
    if size <= whole:
        for block in iter(lambda: f.read(io.DEFAULT_BUFFER_SIZE * 64), b""):
            digest.update(block)
        return digest.hexdigest()
    step = (size - PIECE) // (SAMPLES + 1)
    for at in [0, *(step * i for i in range(1, SAMPLES + 1)), size - PIECE]:
        f.seek(at)
        digest.update(f.read(PIECE))
    return digest.hexdigest()


def move_new(source: Path, path: Path) -> bool:
    """File `source` (this program's, in a folder of its own) renamed to `path` as `write_new`
    writes (copied to a new file beside `path` first when they are on two file systems)."""
    sweep_stale(path.parent, path.name)
    try:
        fd, tmp = tempfile.mkstemp(prefix=temp_prefix(path.name), suffix=".tmp", dir=path.parent)
    except OSError:
        return False
    try:
        try:
            os.replace(source, tmp)  # (over the new file mkstemp made: ours)
            os.close(fd)
        except OSError:  # (another file system: copied into the new file)
            with os.fdopen(fd, "wb") as dst, open(source, "rb") as src:
                shutil.copyfileobj(src, dst)
        os.chmod(tmp, 0o600)
        os.replace(tmp, path)
        return True
    except BaseException as exc:
        with contextlib.suppress(OSError):
            if os.path.lexists(source):
                os.unlink(tmp)
            else:
                os.replace(tmp, source)  # (given back: it may go elsewhere)
        if isinstance(exc, OSError):
            return False
        raise
