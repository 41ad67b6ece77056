"""Unsaved edits written to a recovery file, so a crash (or a kill) loses nothing: the files the
document came from, and every list that differs from them, as plain JSON (no code runs when a
recovery file is read back, whoever wrote it).

    path = new_recovery_path(folder)         # recovery-<uuid>.json: one for each window
    lock = RecoveryLock.take(path)           # held while the window lives
    write_recovery(path, workspace)          # the window does this every few seconds
    found, damaged = left_behind(folder)     # at the next start: files whose window is gone
    workspace = snapshot.restore(load)       # the files read again, the edited lists put back

A file is keyed by a random id, not the process id (a restart may get the crashed window's id),
and its window is alive while it holds a lock on `recovery-<uuid>.lock`: the system lets go of it
when the process ends, however it ends. Each file is read alone; a damaged one is moved aside
(`NAME.damaged`) and said in one line, and the others are still offered.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import stat
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from datetime import datetime
from pathlib import Path

import numpy as np

from ndcg_gui.core.errors import InputError
from ndcg_gui.core.formats.query_map import QueryMap
from ndcg_gui.core.formats.source import file_kind
from ndcg_gui.core.lists.dataset import Dataset
from ndcg_gui.core.lists.ranked_list import RankedList
from ndcg_gui.core.ndcg.measure import MEAN_FIELDS, Measure
from ndcg_gui.core.state.workspace import FileRef, Workspace
from ndcg_gui.core.writing.atomic import atomic_write_bytes, sweep_stale

FORMAT = "ndcg-inspector-recovery/1"


def _number(x: float) -> float | None:
    return None if math.isnan(x) else float(x)


def _numbers(values) -> list[float | None]:
    return [_number(float(v)) for v in values]


def list_to_json(lst: RankedList) -> dict:
    out = {
        "query": lst.query,
        "docs": [str(d) for d in lst.docs],
        "grades": _numbers(lst.grades),
        "scores": None if lst.scores is None else _numbers(lst.scores),
        "unretrieved": {str(d): float(g) for d, g in lst.unretrieved.items()},
        "has_pool": bool(lst.has_pool),
    }
    known = {f.name for f in fields(RankedList)}
    if "extras" in known and lst.extras:
        out["extras"] = {name: [str(v) for v in values] for name, values in lst.extras.items()}
    if "origin" in known and lst.origin is not None:
        out["origin"] = [int(v) for v in lst.origin]
    return out


def list_from_json(data: Mapping) -> RankedList:
    def floats(values):
        return np.array([np.nan if v is None else float(v) for v in values], dtype=float)

    kwargs = {
        "docs": np.array(data["docs"], dtype=object),
        "grades": floats(data["grades"]),
        "scores": None if data.get("scores") is None else floats(data["scores"]),
        "query": str(data.get("query", "")),
        "unretrieved": {str(d): float(g) for d, g in data.get("unretrieved", {}).items()},
        "has_pool": bool(data.get("has_pool", False)),
    }
    known = {f.name for f in fields(RankedList)}
    if "extras" in known and data.get("extras"):
        kwargs["extras"] = {name: np.array(values, dtype=object) for name, values in data["extras"].items()}
    if "origin" in known and data.get("origin") is not None:
        kwargs["origin"] = np.array(data["origin"], dtype=np.int64)
    return RankedList(**kwargs)


@dataclass(frozen=True)
class Snapshot:
    """What a recovery file holds."""

    path: Path | None  # the file the document was opened from (None: typed in)
    qrels_path: Path | None
    name: str
    lists: dict[str, RankedList]  # the lists that differ from the file's
    queries: list[str] = field(default_factory=list)  # a typed document's queries, in order
    written: str = ""  # when, ISO 8601
    pid: int = 0  # the process that wrote it
    shown: str | None = None  # the query on screen
    compared: list[tuple[str, Path]] = field(default_factory=list)  # runs compared: (name, file)
    baseline: str | None = None
    focus: str | None = None
    # which queries the mean counts: the measure's mean policy (MEAN_FIELDS), the rest of the
    # measure being the window's settings' (QSettings)
    policy: dict[str, str] = field(default_factory=dict)
    segments: QueryMap[str] | None = None  # as read (a pipe cannot be read again)
    weights: QueryMap[float] | None = None  # the run's weight column, as read (none in older files)
    notes: dict[str, str] = field(default_factory=dict)  # every note on a query (none in older files)

    def describe(self) -> str:
        n = len(self.lists)
        what = f"{n} edited {'query' if n == 1 else 'queries'}" if self.path else "a typed list"
        if self.compared:
            what += f", compared with {', '.join(name for name, _ in self.compared)}"
        if self.notes:
            what += f", {len(self.notes)} note{'' if len(self.notes) == 1 else 's'} on queries"
        when = self.written.replace("T", " ")[:16]
        return f"{self.name}: {what}, last written {when}"

    def restore(self, load: Callable[[Path, Path | None], Dataset]) -> Workspace:
        """The document again: its files read with `load`, the edited lists put back. A typed
        document (no file) is rebuilt from its lists alone. OSError or the reader's error when a
        file is gone or unreadable."""
        if self.path is None:  # typed: its lists are the document, as typed in (and unsaved)
            order = dict.fromkeys([q for q in self.queries if q in self.lists] + list(self.lists))
            return Workspace.typed({q: self.lists[q] for q in order}, self.name).with_notes(self.notes)
        dataset = load(self.path, self.qrels_path)
        ws = Workspace.of(dataset, file=FileRef.of(self.path, self.qrels_path, self.name))
        for query, lst in self.lists.items():
            ws = ws.with_list(query, lst)
        for name, path in self.compared:  # read again against the same judgments
            ws, _ = ws.with_run(load(path, self.qrels_path), path, name)
        names = {name for name, _ in self.compared}
        ws = ws.with_baseline(self.baseline if self.baseline in names else None)
        ws = ws.with_focus(self.focus).with_measure(**self.policy).with_segments(self.segments)
        ws = ws.with_weights(self.weights)
        return ws.with_notes(self.notes)


def snapshot_json(ws: Workspace, pid: int | None = None, shown: str | None = None) -> dict:
    typed = ws.file.path is None
    queries = ws.queries() if typed else ws.unsaved_queries()
    c = ws.comparing
    return {
        "shown": shown,
        "compared": [{"name": r.name, "path": str(Path(r.path).resolve())} for r in c.runs if r.path],
        "baseline": c.baseline,
        "focus": c.focus,
        "policy": {name: getattr(ws.measure, name) for name in MEAN_FIELDS},
        "segments": None if ws.segments is None else {
            "origin": ws.segments.origin, "values": dict(ws.segments.values),
            "path": None if ws.segments.path is None else str(Path(ws.segments.path).resolve())},
        "weights": None if ws.weights is None else {
            "origin": ws.weights.origin, "values": dict(ws.weights.values)},
        "notes": dict(ws.notes),
        "format": FORMAT,
        "written": datetime.now().isoformat(timespec="seconds"),
        "pid": os.getpid() if pid is None else pid,
        "path": None if ws.file.path is None else str(Path(ws.file.path).resolve()),
        "qrels_path": None if ws.file.qrels_path is None else str(Path(ws.file.qrels_path).resolve()),
        "name": ws.file.name,
        "queries": list(queries),
        "lists": {q: list_to_json(ws.list_for(q)) for q in queries},
    }


def _mean_policy(policy: dict) -> dict[str, str]:
    """A recovery file's mean policy, checked as a measure checks it (TypeError, ValueError: the
    file is damaged); the file's keys since the first format, `empty` and `undefined`."""
    if not isinstance(policy, dict) or not set(policy) <= set(MEAN_FIELDS):
        raise TypeError(f"its mean policy is not one of {', '.join(MEAN_FIELDS)}")
    Measure(**policy)  # (the values checked)
    return {str(name): str(value) for name, value in policy.items()}


def write_recovery(path: str | Path, ws: Workspace, shown: str | None = None) -> None:
    """Write (atomically) what `ws` holds that its file does not (`shown`: the query on screen)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        atomic_write_bytes(path, json.dumps(snapshot_json(ws, shown=shown)).encode("utf-8"))
    except InputError as err:  # (said as the OSError a full disk gives)
        raise OSError(err.message) from None


# The ways a file that is not a recovery file of ours fails to become a Snapshot.
_DAMAGE = (OSError, ValueError, KeyError, TypeError, AttributeError, OverflowError, RecursionError)
# The largest recovery file read back: the edited lists of a session, far past what a person edits;
# a bigger one (a sparse giant, another program's file) is set aside unread.
MAX_RECOVERY_BYTES = 256 << 20
# Opened without waiting (a FIFO with no writer) and never through a symbolic link.
_OPEN_FLAGS = (os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0)
               | getattr(os, "O_BINARY", 0))


class _Unread(ValueError):
    """A file in the recovery folder that is not read: not a regular file, or too big."""


def _read_bytes(path: Path) -> tuple[bytes, float]:
    """The bytes of a regular file of at most MAX_RECOVERY_BYTES, and when it was written;
    ValueError saying what else it is. What is not a regular file is never read (nor waited on)."""
    info = os.lstat(path)
    if not stat.S_ISREG(info.st_mode):
        raise _Unread(f"{file_kind(info.st_mode)}, not a recovery file")
    try:
        fd = os.open(path, _OPEN_FLAGS)
    except OSError as err:  # (replaced by a link meanwhile: ELOOP)
        raise _Unread(err.strerror or str(err)) from None
    with open(fd, "rb") as file:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):  # (replaced by something else between the two looks)
            raise _Unread(f"{file_kind(info.st_mode)}, not a recovery file")
        if info.st_size > MAX_RECOVERY_BYTES:
            raise _Unread(f"{info.st_size:,} bytes, over the {MAX_RECOVERY_BYTES >> 20} MiB a recovery "
                          "file holds")
        head = file.read(4096)
        if b"\0" in head:  # (a sparse file's zeros: JSON holds no NUL byte, the rest is not read)
            raise ValueError("it holds NUL bytes")
        # (read(n) allocates n bytes first: asked for what the file holds, one byte past to see it grew)
        data = head + file.read(max(0, info.st_size - len(head)) + 1)
        if len(data) > info.st_size:
            raise ValueError("it grew while it was read")
    return data, info.st_mtime


def read_recovery(path: str | Path) -> Snapshot:
    """A recovery file read back; ValueError (naming it) when it is not one or is damaged."""
    return _read_snapshot(Path(path))[0]


def _segments_from_json(data) -> QueryMap[str] | None:
    """The segments a recovery file holds (None: none); TypeError when they are not text."""
    if data is None:
        return None
    values = data["values"]
    if not isinstance(values, dict) or not all(isinstance(v, str) for v in values.values()):
        raise TypeError("its segments are not text by query")
    path = data.get("path")
    return QueryMap({str(q): v for q, v in values.items()}, "segment", str(data.get("origin", "segments")),
                    None if path is None else Path(path))


def _weights_from_json(data) -> QueryMap[float] | None:
    """The query weights a recovery file holds (None: none, as in files written before them);
    TypeError when they are not numbers of at least 0 by query."""
    if data is None:
        return None
    values = data["values"]
    if not isinstance(values, dict) or not all(
            isinstance(w, int | float) and not isinstance(w, bool) and math.isfinite(w) and w >= 0
            for w in values.values()):
        raise TypeError("its weights are not numbers of at least 0 by query")
    origin = str(data.get("origin", "weights"))
    return QueryMap({str(q): float(w) for q, w in values.items()}, "weight", origin)


def _notes_from_json(data) -> dict[str, str]:
    """The notes a recovery file holds ({} in files written before notes); TypeError when they are
    not text by query."""
    if data is None:
        return {}
    if not isinstance(data, dict) or not all(isinstance(n, str) for n in data.values()):
        raise TypeError("its notes are not text by query")
    return {str(q): n for q, n in data.items()}


def _read_snapshot(path: Path) -> tuple[Snapshot, float]:
    """`read_recovery`, with when the file was written."""
    name = path.name
    try:
        raw, written = _read_bytes(path)
        data = json.loads(raw.decode("utf-8"))
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ValueError("not a recovery file of this version")
        if not isinstance(data["lists"], dict):
            raise TypeError("its lists are not a mapping")
        lists = {str(q): list_from_json(v) for q, v in data["lists"].items()}  # (RankedList checks lengths)
        return Snapshot(
            path=None if data.get("path") is None else Path(data["path"]),
            qrels_path=None if data.get("qrels_path") is None else Path(data["qrels_path"]),
            name=str(data.get("name", "untitled")),
            lists=lists,
            queries=[str(q) for q in data.get("queries", [])],
            written=str(data.get("written", "")),
            pid=int(data.get("pid", 0)),
            shown=None if data.get("shown") is None else str(data["shown"]),
            compared=[(str(r["name"]), Path(r["path"])) for r in data.get("compared", [])],
            baseline=None if data.get("baseline") is None else str(data["baseline"]),
            focus=None if data.get("focus") is None else str(data["focus"]),
            policy=_mean_policy(data.get("policy", {})),
            segments=_segments_from_json(data.get("segments")),
            weights=_weights_from_json(data.get("weights")),
            notes=_notes_from_json(data.get("notes")),
        ), written
    except _Unread as err:
        raise ValueError(f"{name}: {err}") from None
    except _DAMAGE as err:
        what = "too deeply nested" if isinstance(err, RecursionError) else " ".join(str(err).split())[:120]
        raise ValueError(f"{name}: damaged recovery file ({what or type(err).__name__})") from None


# ---- one file per window, and who holds it --------------------------------------------------------
def new_recovery_path(folder: str | Path) -> Path:
    """A window's own recovery file: a random id, never another window's (process ids are reused)."""
    return Path(folder) / f"recovery-{uuid.uuid4().hex}.json"


def lock_path(path: str | Path) -> Path:
    return Path(path).with_suffix(".lock")


class RecoveryLock:
    """A lock on `recovery-<id>.lock`, taken without waiting: held, the file's window is alive.
    The system releases it when the process ends (however it ends), so nothing stale can say a
    dead window lives, and a reused process id cannot claim it."""

    def __init__(self, fd: int, path: Path) -> None:
        self._fd, self.path = fd, path

    @classmethod
    def take(cls, recovery_file: str | Path) -> RecoveryLock | None:
        """The lock of `recovery_file`, or None when a living process holds it."""
        path = lock_path(recovery_file)
        path.parent.mkdir(parents=True, exist_ok=True)
        # (never through a link planted at its name, nor waiting on a FIFO there)
        flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
        fd = os.open(path, flags, 0o600)
        if not _lock(fd):
            os.close(fd)
            return None
        return cls(fd, path)

    def __del__(self) -> None:  # a window dropped without closing: its descriptor goes, the file stays
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1

    def release(self, remove: bool = True) -> None:
        """Let go (and remove the lock file, when the recovery file went with it)."""
        if self._fd < 0:
            return
        if remove:
            self.path.unlink(missing_ok=True)
        os.close(self._fd)  # (closing lets go of the lock)
        self._fd = -1


def _lock(fd: int) -> bool:
    try:
        if os.name == "nt":
            import msvcrt  # lazy: Windows only

            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        else:
            import fcntl  # lazy: POSIX only

            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    return True


@dataclass
class LeftBehind:
    """A recovery file whose window is gone, held (its lock taken) while it is offered."""

    path: Path
    snapshot: Snapshot
    lock: RecoveryLock

    def done(self) -> None:
        """Restored or declined: the file and its lock go."""
        self.path.unlink(missing_ok=True)
        self.lock.release()

    def keep(self) -> None:
        """Not restored now (its files could not be read): offered again at the next start."""
        self.lock.release(remove=False)


def left_behind(folder: str | Path) -> tuple[list[LeftBehind], list[str]]:
    """The recovery files in `folder` whose window is gone, oldest first, each read alone; and a
    one-line note for each damaged one, which is moved aside (`set_aside`). Stale temporary files
    of a killed write are swept first. Files of living windows are left alone."""
    folder = Path(folder)
    sweep_stale(folder)
    found: list[tuple[float, LeftBehind]] = []
    notes: list[str] = []
    for path in folder.glob("recovery-*.json"):
        try:
            lock = RecoveryLock.take(path)
        except OSError:
            continue  # (its folder is not ours to write: nothing can be done with it)
        if lock is None:
            continue  # its window is alive
        try:
            snapshot, written = _read_snapshot(path)
        except (ValueError, OSError) as err:
            aside = set_aside(path)
            lock.release()
            where = f"moved aside as {aside.name}" if aside else "left where it is"
            notes.append(f"{err if isinstance(err, ValueError) else path.name}; {where}")
            continue
        found.append((written, LeftBehind(path, snapshot, lock)))
    _sweep_locks(folder)
    return [item for _, item in sorted(found, key=lambda pair: pair[0])], notes


def set_aside(path: Path) -> Path | None:
    """A damaged recovery file renamed `NAME.damaged` (`NAME.2.damaged`… beside an earlier one),
    so it is looked at no more but can still be read by a person; None if it cannot be renamed."""
    for n in range(1, 100):
        aside = path.with_name(path.name + (".damaged" if n == 1 else f".{n}.damaged"))
        if aside.exists():
            continue
        with contextlib.suppress(OSError):
            os.replace(path, aside)
            return aside
        return None
    return None


def _sweep_locks(folder: Path) -> None:
    """Lock files without their recovery file, whose window is gone."""
    for path in folder.glob("recovery-*.lock"):
        if path.with_suffix(".json").exists():
            continue
        with contextlib.suppress(OSError):
            lock = RecoveryLock.take(path.with_suffix(".json"))
            if lock is not None:
                lock.release()
