"""The notes on a run's queries written to their sidecar (`core/formats/query_notes.py`).

Written atomically (`atomic.atomic_write_bytes`: a temporary file renamed over the name), never
over a file being read (`atomic.refuse_inputs`), and only over a regular file: the sidecar's name
is made by the program, not typed by a person, so a symbolic link, a FIFO or a device found there
is refused rather than written through or into. No notes left: the sidecar goes.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable, Mapping
from pathlib import Path

from ndcg_gui.core.errors import InputError, path_problem
from ndcg_gui.core.formats.query_notes import clean, notes_text
from ndcg_gui.core.formats.source import file_kind
from ndcg_gui.core.writing.atomic import atomic_write_bytes, refuse_inputs


def write_notes(path: str | Path, notes: Mapping[str, str],
                inputs: Iterable[str | os.PathLike | None] = ()) -> bool:
    """Write `notes` to the sidecar `path` (an empty note is none); with no note left, remove the
    sidecar. Returns whether a file is there now. An `InputError` in one line when `path` is one
    of `inputs`, is not a regular file, or cannot be written."""
    path = Path(path)
    refuse_inputs(path, list(inputs), "the notes file")
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        info = None
    except OSError as exc:
        raise InputError(path_problem(exc), path) from None
    if info is not None and not stat.S_ISREG(info.st_mode):
        raise InputError(f"is {file_kind(info.st_mode)}; notes are written to a regular file only "
                         "(move it away to keep notes here)", path)
    kept = clean(notes)
    if not kept:
        if info is not None:
            try:
                path.unlink()
            except OSError as exc:
                raise InputError(f"cannot remove: {exc.strerror or exc}", path) from None
        return False
    atomic_write_bytes(path, notes_text(kept).encode("utf-8"))
    return True
