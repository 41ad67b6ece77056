"""What a reader needs to reproduce a figure: each input file's sha256, the program's version.

The sha256 is of the bytes the program read (`core.formats.source.recording_digests`), so a pipe
is named by what came through it; a file read outside a recording (the window's, read long before
the export) is hashed as it is now, and a pipe or device only from the bytes this process kept.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from pathlib import Path

from ndcg_gui import __version__
from ndcg_gui.core.errors import InputError
from ndcg_gui.core.formats.source import is_stream, read_digests, spooled_bytes

PROGRAM = f"NDCG Inspector {__version__}"


def sha256_of(path: str | Path) -> str:
    """The sha256 (hex) of what was read of `path`: an `InputError` when it changed between two
    reads, or is a stream whose bytes are gone (reading it again would hash other bytes, or wait
    for ever)."""
    read = read_digests(path)
    if len(read) > 1:
        raise InputError("changed while it was being read (two versions of it were read): run again "
                         "once it is written", path)
    if read:
        return next(iter(read))
    if is_stream(Path(path)):
        data = spooled_bytes(path)
        if data is None:
            raise InputError("is a pipe or device read before, whose bytes are gone: no sha256 can "
                             "name them (give a file)", path)
        return hashlib.sha256(data).hexdigest()
    digest = hashlib.sha256()
    try:
        with open(path, "rb") as f:
            while block := f.read(1 << 20):  # (a run can be gigabytes)
                digest.update(block)
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror or exc}", path) from None
    return digest.hexdigest()


def input_name(path: str | Path) -> str:
    """How the inputs are named: the file's name; a pipe or device (/dev/fd/63) its whole path,
    its name alone saying nothing."""
    text = str(path)
    return text if text.startswith(("/dev/", "/proc/")) else Path(path).name


def file_hashes(paths: Iterable[str | Path | None]) -> dict[str, str]:
    """File name -> sha256 of each given path (None skipped), in order; the path as given where
    two files share a name."""
    given = [p for p in paths if p is not None]
    names = [input_name(p) for p in given]
    return {(n if names.count(n) == 1 else str(p)): sha256_of(p) for n, p in zip(names, given, strict=True)}
