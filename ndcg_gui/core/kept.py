"""A file this program keeps at a name anyone who can write to its folder can predict (a cache):
read only when it is a regular file of this user's own that no one else may write to, opened
without following a link and without waiting (a FIFO there is passed over). Standard library
only: the window's start-up reads one before anything else is imported."""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import IO

OPEN_NO_WAIT = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)  # (a FIFO: no wait)
_READ = OPEN_NO_WAIT | getattr(os, "O_NOFOLLOW", 0)


def open_kept(path: str | Path) -> IO[bytes] | None:
    """`path` open for reading when it is a regular file this program may trust (see the module);
    None otherwise: missing, a link, a FIFO, a device, a folder, another user's or writable by
    others."""
    try:
        if not stat.S_ISREG(os.lstat(path).st_mode):  # (not even opened: a FIFO's writer would wake)
            return None
        fd = os.open(path, _READ)  # (and checked again on what was opened: it may have been swapped)
    except (OSError, ValueError):  # (ELOOP: a link; a NUL in the name)
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or not _ours(info):
            os.close(fd)
            return None
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except OSError:
        os.close(fd)
        return None


def _ours(info: os.stat_result) -> bool:
    if not hasattr(os, "geteuid"):  # (Windows: no owner to compare)
        return True
    return info.st_uid == os.geteuid() and not info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)
