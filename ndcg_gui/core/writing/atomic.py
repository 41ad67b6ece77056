"""Where a written file lands: atomically over a regular file, streamed into anything else.

- A regular file (or a new name) gets a temporary file beside it, synced, then renamed over it: a
  failure at any point leaves the old file as it was. A symbolic link is written through (its
  target replaced, the link kept).
- A descriptor this process already has, named by a path (`/dev/stdout`, `/dev/stderr`,
  `/dev/fd/N`, `/proc/self/fd/N`), is written to as the shell set it up: after `>> results.csv`
  the lines are appended. Renaming over it would replace the file behind it.
- Any other file that exists and is not a regular file (a character device such as /dev/null, a
  FIFO) is opened for writing and streamed into, never replaced; a socket is refused.
- An open binary stream (the command line's `-`) is written to as it is.

No output replaces or writes into a file being read (`refuse_inputs`): every output of the
command line and the window is checked against the inputs first, by the file itself (device and
inode, through symbolic and hard links), not by its name.

Temporary files are named `.NAME.PID-XXXXXXXX.tmp`; a save killed half-way (`kill -9`) leaves one,
so each save sweeps the stale ones of the file it writes (`sweep_stale`).
"""

from __future__ import annotations

import contextlib
import glob
import os
import re
import stat
import sys
import tempfile
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import BinaryIO

from ndcg_gui.core.errors import InputError, file_name, path_problem

Write = Callable[[BinaryIO], None] | bytes | bytearray
STALE_AFTER = 3600.0  # seconds untouched after which a temporary file is a killed save's
ORPHAN_AFTER = 60.0  # ... or after which one whose process is gone is
_NAME_MAX = 255  # bytes in one file name on the usual file systems
_STD = {"/dev/stdin": 0, "/dev/stdout": 1, "/dev/stderr": 2}
_FD_PATH = re.compile(r"/(?:dev/fd|proc/self/fd|proc/(\d+)/fd)/(\d+)")


def atomic_write_bytes(path: str | Path | BinaryIO, write: Write) -> None:
    """Write `write` (bytes, or a function given a binary file) to `path` as the module says."""
    if not isinstance(path, str | os.PathLike):
        _into(path, write)
        return
    path = Path(path)
    fd = open_descriptor(path)
    if fd is not None:
        _into_descriptor(fd, path, write)
        return
    try:
        info = os.stat(path)
    except FileNotFoundError:
        info = None  # a new file (or a dangling link: its target is made)
    except OSError as exc:
        raise InputError(path_problem(exc), path) from None
    if info is not None and stat.S_ISDIR(info.st_mode):
        raise InputError("is a folder; choose a file name to write", path)
    if info is not None and stat.S_ISSOCK(info.st_mode):
        raise InputError("is a socket, not a file; choose a file name to write", path)
    if info is not None and not stat.S_ISREG(info.st_mode):
        _into_special(path, write)
        return
    _replace(path, info, write)


def _replace(path: Path, info: os.stat_result | None, write: Write) -> None:
    target = Path(os.path.realpath(path))  # through symbolic links: the link is kept
    folder = target.parent
    sweep_stale(folder, target.name)
    try:
        fd, tmp = tempfile.mkstemp(prefix=temp_prefix(target.name), suffix=".tmp", dir=folder)
    except OSError as exc:
        raise InputError(f"cannot write here: {exc.strerror or exc}", path) from None
    try:
        with os.fdopen(fd, "wb") as f:
            _call(write, f)
            f.flush()
            os.fsync(f.fileno())
        with contextlib.suppress(OSError):
            os.chmod(tmp, info.st_mode & 0o7777 if info is not None else 0o666 & ~umask())
        os.replace(tmp, target)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise InputError(f"cannot write: {exc.strerror or exc}", path) from None
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _call(write: Write, f: BinaryIO) -> None:
    if isinstance(write, bytes | bytearray):
        f.write(write)
    else:
        write(f)


def _into(stream: BinaryIO, write: Write) -> None:
    """An open stream: written and flushed (a closed pipe raises BrokenPipeError, as `| head` does)."""
    _call(write, stream)
    stream.flush()


def _into_descriptor(fd: int, path: Path, write: Write) -> None:
    for stream in (sys.stdout, sys.stderr):  # what Python holds for it goes first
        with contextlib.suppress(AttributeError, OSError, ValueError):
            if stream is not None and stream.fileno() == fd:
                stream.flush()
    try:
        f = os.fdopen(os.dup(fd), "wb")
    except OSError as exc:
        raise InputError(f"cannot write: {exc.strerror or exc}", path) from None
    try:
        with f:
            _into(f, write)
    except BrokenPipeError:
        raise
    except OSError as exc:
        raise InputError(f"cannot write: {exc.strerror or exc}", path) from None


def _into_special(path: Path, write: Write) -> None:
    """A device or FIFO: opened for writing without truncating or creating (a FIFO waits for its
    reader, as any program writing into one does)."""
    try:
        f = os.fdopen(os.open(path, os.O_WRONLY), "wb")
    except OSError as exc:
        raise InputError(f"cannot write: {exc.strerror or exc}", path) from None
    try:
        with f:
            _into(f, write)
    except BrokenPipeError:
        raise InputError("cannot write: nothing reads from it any more", path) from None
    except OSError as exc:
        raise InputError(f"cannot write: {exc.strerror or exc}", path) from None


def open_descriptor(path: str | Path) -> int | None:
    """The descriptor of this process a path names (/dev/stdout, /dev/fd/N, /proc/self/fd/N,
    or a link to one), else None."""
    p = os.path.abspath(path)
    for _ in range(40):  # (as many links as the system follows)
        if p in _STD:
            return _STD[p]
        match = _FD_PATH.fullmatch(p)
        if match and (match[1] is None or int(match[1]) == os.getpid()):
            return int(match[2])
        try:
            link = os.readlink(p)
        except (OSError, ValueError):
            return None
        p = os.path.normpath(os.path.join(os.path.dirname(p), link))
    return None


# ---- outputs that are inputs ---------------------------------------------------------------------
Out = str | os.PathLike | int  # a path, or a descriptor (stdout: 1)


def refuse_inputs(out: Out | None, inputs: Iterable[str | os.PathLike | None], what: str = "") -> None:
    """An `InputError` when writing `out` would replace or change a file being read: `out` is
    one of `inputs` however it is reached (a symbolic link, a hard link, /dev/stdout after
    `>> run.txt`), lies inside an input folder (a hive folder read whole), or is a file an input
    pattern matches. An output that is not a regular file (a terminal, a pipe, a device) is written
    into, never replaced, and passes; so does a new name, and `None` or `-` (stdout, whose own
    descriptor is checked as 1). `what` names the output in the message (`--report`)."""
    if out is None or out == "-":
        return
    try:
        info = os.fstat(out) if isinstance(out, int) else os.stat(out)
    except OSError:  # a new file, or one the writer will say it cannot write
        info = None
    if info is not None and not stat.S_ISREG(info.st_mode):
        return
    written = None if isinstance(out, int) else Path(os.path.realpath(out))
    label = f"{what} " if what else ""
    for given in inputs:
        for path in _files_of(given) if given is not None else ():
            if _same_file(info, path):
                change = "change" if isinstance(out, int) else "replace"
                raise InputError(f"{label}is {_named(given, path)}, an input too; writing there would "
                                 f"{change} it (choose another name)", _out_name(out))
            if written is not None and _inside(written, path):
                raise InputError(f"{label}lies in {_named(given, path)}, an input folder; writing "
                                 "there would change what is read (choose another folder)", _out_name(out))


def _files_of(given: str | os.PathLike) -> list[Path]:
    """The files an input names: itself, or the files a pattern matches where no file has that
    name (as `core.sql.inputs` reads a glob)."""
    if os.path.lexists(given) or not glob.has_magic(os.fspath(given)):
        return [Path(given)]
    return [Path(p) for p in glob.glob(os.fspath(given), recursive=True)]


def _same_file(info: os.stat_result | None, path: Path) -> bool:
    if info is None:
        return False
    try:
        other = os.stat(path)
    except OSError:
        return False
    return (other.st_dev, other.st_ino) == (info.st_dev, info.st_ino)


def _inside(written: Path, path: Path) -> bool:
    """Whether `written` lies in `path` when `path` is a folder (a hive folder or a folder of
    parts is read whole: a new file there is read next time)."""
    try:
        if not path.is_dir():
            return False
        return written.is_relative_to(os.path.realpath(path))
    except (OSError, ValueError):
        return False


def _named(given: str | os.PathLike, path: Path) -> str:
    """How a message names an input: its name, and the pattern that matched it."""
    name = file_name(path)
    return name if Path(given) == path else f"{name} (matched by {file_name(given)})"


def _out_name(out: Out) -> str:
    return "stdout" if out == 1 else f"/dev/fd/{out}" if isinstance(out, int) else os.fspath(out)


# ---- temporary files -------------------------------------------------------------------------
def temp_prefix(name: str) -> str:
    """`.NAME.PID-` (mkstemp adds 8 characters and `.tmp`), NAME cut so the whole fits in a name."""
    tail = f".{os.getpid()}-"
    room = _NAME_MAX - len(tail.encode()) - 1 - 8 - len(".tmp")
    cut = _cut(name, room)
    return f".{cut}{tail}"


def _cut(name: str, room: int) -> str:
    """The longest start of `name` whose file-system bytes fit in `room` (whole characters; a
    name's undecodable bytes, kept by Python as lone surrogates, count as the bytes they are)."""
    while len(os.fsencode(name)) > room:
        name = name[:-1]
    return name


def _temp_pattern(name: str | None) -> re.Pattern[str]:
    """Our temporary files (of `name`, or of any file): `.NAME.PID-XXXXXXXX.tmp`, and the
    `.NAME.XXXXXXXX.tmp` of earlier versions."""
    if name is None:
        return re.compile(r"\..+?(?:\.(\d+)-|\.)[a-z0-9_]{8}\.tmp")
    cut = temp_prefix(name)[1:].rsplit(".", 1)[0]
    return re.compile(rf"\.{re.escape(cut)}(?:\.(\d+)-|\.)[a-z0-9_]{{8}}\.tmp")


def sweep_stale(folder: str | Path, name: str | None = None) -> list[Path]:
    """Remove the temporary files a killed save left in `folder` (of the file `name`, or of
    any): untouched for an hour, or for a minute when the process that made them is gone.
    Returns what was removed; never raises."""
    pattern, now, removed = _temp_pattern(name), time.time(), []
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return removed
    for entry in entries:
        match = pattern.fullmatch(entry.name)
        if match is None:
            continue
        try:
            info = entry.stat(follow_symlinks=False)
            if not stat.S_ISREG(info.st_mode):
                continue
            age = now - info.st_mtime
            pid = int(match[1]) if match[1] else None
            gone = pid is not None and pid != os.getpid() and not process_alive(pid)
            if age > STALE_AFTER or (gone and age > ORPHAN_AFTER):
                os.unlink(entry.path)
                removed.append(Path(entry.path))
        except (OSError, ValueError, OverflowError):
            continue
    return removed


def process_alive(pid: int) -> bool:
    """Whether a process of this machine has this id (someone else's counts)."""
    if pid <= 0:
        return False
    if os.name == "nt":  # os.kill there ends the process: say alive, the age decides
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    except (OSError, OverflowError, ValueError):
        return False
    return True


def umask() -> int:
    """The process's umask, read without changing it where the system tells it (Linux); elsewhere
    set and restored at once."""
    with contextlib.suppress(OSError, ValueError):
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    mask = os.umask(0o022)
    os.umask(mask)
    return mask
