"""Notes on queries: an analyst's "why", kept beside the run in a small sidecar file.

The sidecar of `run.txt` is `run.txt.notes.tsv` in the same folder (`notes_path`): one line per
query, `query<TAB>note`, UTF-8, after a first comment line saying what the file is. A backslash,
tab, line feed and carriage return in either field are written `\\\\`, `\\t`, `\\n`, `\\r` (and a
query starting with `#` as `\\#`), so any text typed round-trips and a line is always one query.
A query with no note has no line. Blank lines and lines starting with `#` are skipped.

Only a regular file is read: a symbolic link, a FIFO or a device at the sidecar's name is refused
without being opened through (nor waited on), as the per-query cache beside a run is. Written by
`core/writing/query_notes.py`.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Mapping
from pathlib import Path

from ndcg_gui.core.errors import InputError, path_problem, shown
from ndcg_gui.core.formats.source import LINE_BREAK, file_kind

SUFFIX = ".notes.tsv"
HEADER = "# notes on queries (ndcg-inspect): query<TAB>note, with \\t \\n \\r \\\\ escaped"
# Far past what people type on the queries of a run: a bigger file is another file.
MAX_NOTES_BYTES = 64 << 20
_OPEN_FLAGS = (os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0)
               | getattr(os, "O_BINARY", 0))
_ESCAPES = {"\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r"}
_UNESCAPES = {"\\": "\\", "t": "\t", "n": "\n", "r": "\r", "#": "#"}
_ESCAPED = re.compile(r"[\\\t\n\r]")
_BACKSLASH = re.compile(r"\\(.?)", re.DOTALL)


def notes_path(run: str | Path) -> Path:
    """Where the notes on `run`'s queries are kept: `RUN.notes.tsv` beside it."""
    run = Path(run)
    return run.with_name(run.name + SUFFIX)


def escape(text: str) -> str:
    """`text` as one field of one line (`unescape` gives it back)."""
    return _ESCAPED.sub(lambda m: _ESCAPES[m[0]], text)


def unescape(text: str) -> str:
    """A field as written by `escape`; ValueError naming a backslash that escapes nothing known."""
    def one(m: re.Match[str]) -> str:
        if m[1] not in _UNESCAPES:
            raise ValueError(f"\\{m[1]}" if m[1] else "a backslash at the end")
        return _UNESCAPES[m[1]]
    return _BACKSLASH.sub(one, text)


def clean(notes: Mapping[str, str]) -> dict[str, str]:
    """The notes worth keeping: an empty note (or one of spaces alone) is no note."""
    return {str(q): str(n) for q, n in notes.items() if str(n).strip()}


def notes_text(notes: Mapping[str, str]) -> str:
    """The sidecar's text: the header, then one line per query with a note, in the order given."""
    lines = [HEADER]
    for query, note in clean(notes).items():
        if not query:  # (a typed list's query has no id: a file of it has none to note)
            continue
        field = escape(query)
        lines.append(("\\" + field if field.startswith("#") else field) + "\t" + escape(note))
    return "\n".join(lines) + "\n"


def parse_notes(text: str, path: str | Path) -> dict[str, str]:
    """The notes of a sidecar's text; an `InputError` naming `path` and the line for a line that
    is not `query<TAB>note`, an unknown escape, an empty query or a query given twice."""
    notes: dict[str, str] = {}
    for number, line in enumerate(LINE_BREAK.split(text), start=1):
        if not line.strip(" ") or line.startswith("#"):
            continue
        fields = line.split("\t")
        if len(fields) != 2:
            found = "no tab" if len(fields) == 1 else f"{len(fields)} fields split by tabs"
            raise InputError(f"expected query<TAB>note (tabs in a note written \\t), found {found}",
                             path, number)
        try:
            query, note = unescape(fields[0]), unescape(fields[1])
        except ValueError as problem:
            raise InputError(f"unknown escape {shown(str(problem))}; expected \\t, \\n, \\r, \\\\ or \\#",
                             path, number) from None
        if not query:
            raise InputError("the query is empty; expected query<TAB>note", path, number)
        if query in notes:
            raise InputError(f"query {shown(query)} has a second note; give each query one line",
                             path, number)
        if note.strip():
            notes[query] = note
    return notes


def read_notes(path: str | Path) -> dict[str, str]:
    """The notes in the sidecar `path` ({} when there is none); an `InputError` in one line for
    one that is not a regular file, not UTF-8, too big, or has a bad line."""
    path = Path(path)
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return {}
    except OSError as exc:
        raise InputError(path_problem(exc), path) from None
    if not stat.S_ISREG(info.st_mode):  # (not even opened: a FIFO's writer would wake)
        raise InputError(f"is {file_kind(info.st_mode)}, not a notes file; notes are read from a "
                         "regular file", path)
    try:
        fd = os.open(path, _OPEN_FLAGS)
    except OSError as exc:  # (replaced by a link meanwhile: ELOOP)
        raise InputError(path_problem(exc), path) from None
    with open(fd, "rb") as file:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise InputError(f"is {file_kind(info.st_mode)}, not a notes file", path)
        if info.st_size > MAX_NOTES_BYTES:
            raise InputError(f"is {info.st_size >> 20:,} MiB, over the {MAX_NOTES_BYTES >> 20} MiB a notes "
                             "file may hold; is it the right file?", path)
        data = file.read(MAX_NOTES_BYTES + 1)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise InputError("is not UTF-8 text; expected query<TAB>note lines", path, line) from None
    return parse_notes(text, path)


def notes_beside(run: str | Path | None) -> tuple[dict[str, str], str | None]:
    """The notes kept beside `run` ({} when none), and, when its sidecar cannot be read, why in one
    line (the run opens all the same: its notes are not what it is read for)."""
    if run is None or str(run) == "-" or str(run).startswith(("/dev/", "/proc/")):
        return {}, None
    try:
        return read_notes(notes_path(run)), None
    except InputError as err:
        return {}, f"notes not read: {err}"
