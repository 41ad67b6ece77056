"""Unsaved edits written to a recovery file, so a crash (or a kill) loses nothing: the files the
document came from, and every list that differs from them, as plain JSON (no code runs when a
recovery file is read back, whoever wrote it).

    write_recovery(path, workspace)          # the window does this every few seconds
    snapshot = read_recovery(path)           # at the next start
    workspace = snapshot.restore(load)       # the files read again, the edited lists put back
"""

from __future__ import annotations

import json
import math
import os
import tempfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from datetime import datetime
from pathlib import Path

import numpy as np

from ndcg_gui.core.lists.dataset import Dataset
from ndcg_gui.core.lists.ranked_list import RankedList
from ndcg_gui.core.lists.workspace import FileRef, Workspace

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

    def describe(self) -> str:
        n = len(self.lists)
        what = f"{n} edited {'query' if n == 1 else 'queries'}" if self.path else "a typed list"
        when = self.written.replace("T", " ")[:16]
        return f"{self.name}: {what}, last written {when}"

    def restore(self, load: Callable[[Path, Path | None], Dataset]) -> Workspace:
        """The document again: its files read with `load`, the edited lists put back. A typed
        document (no file) is rebuilt from its lists alone. OSError or the reader's error when a
        file is gone or unreadable."""
        if self.path is None:  # typed: its lists are the document, as typed in (and unsaved)
            order = dict.fromkeys([q for q in self.queries if q in self.lists] + list(self.lists))
            return Workspace.typed({q: self.lists[q] for q in order}, self.name)
        dataset = load(self.path, self.qrels_path)
        ws = Workspace.of(dataset, file=FileRef.of(self.path, self.qrels_path, self.name))
        for query, lst in self.lists.items():
            ws = ws.with_list(query, lst)
        return ws


def snapshot_json(ws: Workspace, pid: int | None = None) -> dict:
    typed = ws.file.path is None
    queries = ws.queries() if typed else ws.unsaved_queries()
    return {
        "format": FORMAT,
        "written": datetime.now().isoformat(timespec="seconds"),
        "pid": os.getpid() if pid is None else pid,
        "path": None if ws.file.path is None else str(Path(ws.file.path).resolve()),
        "qrels_path": None if ws.file.qrels_path is None else str(Path(ws.file.qrels_path).resolve()),
        "name": ws.file.name,
        "queries": list(queries),
        "lists": {q: list_to_json(ws.list_for(q)) for q in queries},
    }


def write_recovery(path: str | Path, ws: Workspace) -> None:
    """Write (atomically) what `ws` holds that its file does not."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}-", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(snapshot_json(ws), f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    finally:
        Path(tmp).unlink(missing_ok=True)


def read_recovery(path: str | Path) -> Snapshot:
    """A recovery file read back; ValueError when it is not one (or is damaged)."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        if data.get("format") != FORMAT:
            raise ValueError(f"{Path(path).name}: not a recovery file of this version")
        lists = {str(q): list_from_json(v) for q, v in data["lists"].items()}
        return Snapshot(
            path=None if data.get("path") is None else Path(data["path"]),
            qrels_path=None if data.get("qrels_path") is None else Path(data["qrels_path"]),
            name=str(data.get("name", "untitled")),
            lists=lists,
            queries=[str(q) for q in data.get("queries", [])],
            written=str(data.get("written", "")),
            pid=int(data.get("pid", 0)),
        )
    except (OSError, KeyError, TypeError, json.JSONDecodeError) as err:
        raise ValueError(f"{Path(path).name}: damaged recovery file ({err})") from None
