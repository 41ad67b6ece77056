"""Where a save puts the judgments, backup copies, and whether a file changed on disk since it
was read or written here (`Stamp`): the choices a window asks about and a script makes itself.

A run or a CSV cannot hold the judged documents a list did not retrieve, so when the judged pool
is known (qrels were loaded) the judgments go to a qrels file of their own. `judgment_targets`
lists the places that lose nothing and overwrite nothing unasked; `backup_copy` keeps the old
qrels before they are replaced; `refuse_save_over_inputs` keeps the lists off every other file read.
A list reordered by hand keeps its order in a file read back in score order by new scores or by a
rank column (`order_columns`).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import numpy as np

from ndcg_gui.core.errors import InputError
from ndcg_gui.core.lists.dataset import Dataset
from ndcg_gui.core.writing.atomic import refuse_inputs


@dataclass(frozen=True)
class JudgmentTarget:
    """One place the judgments can be saved.

    kind     "loaded": over the qrels file that was loaded, after a backup copy (`backup_copy`);
             "beside": a new file next to the saved lists, named after them
    path     the file the judgments are written to
    backup   True when the file exists and must be copied to NAME.bak first
    """

    kind: Literal["loaded", "beside"]
    path: Path
    backup: bool = False


@dataclass(frozen=True)
class Stamp:
    """What a file was when it was last read or written here: its size, modification time and
    inode (an editor that saves by renaming a new file over it changes the inode)."""

    size: int
    mtime_ns: int
    inode: int

    @classmethod
    def of(cls, path: str | Path) -> Stamp | None:
        """The file as it is now; None when it is not there (or cannot be looked at)."""
        try:
            info = os.stat(path)
        except (OSError, ValueError):
            return None
        return cls(info.st_size, info.st_mtime_ns, info.st_ino)

    def changed(self, path: str | Path) -> bool:
        """Whether another program wrote (or replaced) the file since; a file gone is no change
        to lose by writing it."""
        now = Stamp.of(path)
        return now is not None and now != self


def loaded_stamps(dataset: Dataset) -> dict[Path, Stamp]:
    """The files `dataset` was read from (lists, qrels), as they were when read."""
    out = {}
    for fmt in (dataset.file_format, dataset.qrels_format):
        disk = fmt.disk if fmt is not None else None
        if disk is not None:
            out[stamp_key(disk.path)] = Stamp(disk.size, disk.mtime_ns, disk.inode)
    return out


def stamp_key(path: str | Path) -> Path:
    """One name for one file, however it was reached (relative, through links)."""
    try:
        return Path(os.path.realpath(path))
    except (OSError, ValueError):
        return Path(os.path.abspath(path))


def judgment_targets(
    dataset: Dataset,
    save_path: str | Path,
    judgments_edited: bool,
    exists: Callable[[Path], bool] = Path.exists,
) -> list[JudgmentTarget]:
    """The places to save `dataset`'s judgments along with its lists at `save_path`, the one to
    offer first first; [] when there is nothing to save (no judged pool, or a save over the
    loaded file with no judgment changed: the loaded qrels already hold them).

    The loaded qrels are offered only when a judgment was edited and they are TREC qrels (writing
    TREC qrels over a CSV of judgments would lose its columns). A new file beside the lists is
    always offered, never over an existing file: `NAME.qrels`, else `NAME-judgments.qrels`,
    `NAME-judgments-2.qrels`…"""
    if not dataset.has_pool:
        return []
    save_path = Path(save_path)
    same_file = dataset.path is not None and _same(save_path, dataset.path)
    loaded = dataset.qrels_path
    if same_file and loaded is not None and not judgments_edited:
        return []
    targets = [JudgmentTarget("beside", _free_name(save_path, exists))]
    trec_qrels = dataset.qrels_format is not None and dataset.qrels_format.kind == "qrels"
    if loaded is not None and judgments_edited and trec_qrels:
        over = JudgmentTarget("loaded", Path(loaded), backup=exists(Path(loaded)))
        targets.insert(0 if same_file else 1, over)
    return targets


def refuse_save_over_inputs(path: str | Path, own: str | Path | None,
                            inputs: Iterable[str | Path | None]) -> None:
    """An `InputError` when saving the lists at `path` would replace a file read that is not the
    document's own (`own`, which Save rewrites): its qrels, a run compared
    (`core.writing.atomic.refuse_inputs`, by the file itself, through links)."""
    if own is not None and (_same(Path(path), Path(own)) or _same_inode(path, own)):
        return
    refuse_inputs(path, inputs)


def _same_inode(a: str | Path, b: str | Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


KeepOrder = Literal["scores", "rank"]


@dataclass(frozen=True)
class OrderColumns:
    """The score and rank columns a list is saved with (None: no such column)."""

    score: np.ndarray | None
    rank: np.ndarray | None


def order_columns(n: int, scores: np.ndarray | None, by: KeepOrder) -> OrderColumns:
    """The columns that make a reader rank a list of `n` rows (with these `scores`, if any) in the
    order it stands: by "scores", scores n, n-1, … 1 and no rank column (a file without one is
    ranked by its scores); by "rank", its own scores as they are and ranks 1..n, the standard CSV
    layout's (a rank column places each row; the scores then only tie neighbours:
    `core.reading.dispatch`, `core.ndcg.ties`)."""
    if by == "scores":
        return OrderColumns(np.arange(n, 0, -1, dtype=float), None)
    return OrderColumns(None if scores is None else np.asarray(scores, dtype=float), np.arange(1, n + 1))


def rescored_queries(dataset: Dataset, as_run: bool) -> list[str]:
    """The queries whose scores a save replaces (as a TREC run when `as_run`, else as CSV). A run,
    and a CSV whose own layout has scores and no rank, are read back in score order, so a list
    in another order is written with scores n, n-1, … 1 (`trec_writer.rescored_scores`): its own
    scores are not in the saved file. Which lists can be in another order: the edited ones, and
    as a run every list of a CSV ranked by its rank column. Lists without scores lose nothing."""
    from ndcg_gui.core.writing.csv_writer import (
        keeps_order_by_scores,  # lazy: start-up (pyarrow: Save's module is the first screen's)
    )
    from ndcg_gui.core.writing.trec_writer import (
        out_of_trec_order,  # lazy: start-up (pandas: Save's module is the first screen's)
    )

    own = dataset.file_format
    if as_run:
        by_rank = own is not None and own.kind == "csv" and "rank" in own.columns
        candidates = dataset.queries() if by_rank else [q for q in dataset.queries() if q in dataset.edited]
    elif keeps_order_by_scores(dataset):
        candidates = [q for q in dataset.queries() if q in dataset.edited]
    else:
        return []
    lost = []
    for query in candidates:
        rl = dataset.ranked_list(query)
        if rl.scores is None or np.isnan(rl.scores).all():
            continue
        if out_of_trec_order(np.zeros(len(rl), np.int64), rl.docs.astype(str), rl.scores).any():
            lost.append(query)
    return lost


def _same(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == Path(b).resolve()
    except (OSError, RuntimeError):  # (a symbolic-link loop: RuntimeError before Python 3.13)
        return a == b


def _free_name(path: Path, exists: Callable[[Path], bool]) -> Path:
    candidate, n = path.with_suffix(".qrels"), 1
    while candidate == path or exists(candidate):
        n += 1
        candidate = path.with_name(f"{path.stem}-judgments{'' if n == 2 else f'-{n - 1}'}.qrels")
    return candidate


def save_as_name(path: str | Path, suffix: str, exists: Callable[[Path], bool] = Path.exists) -> Path:
    """Where Save As starts for a document read from `path` and written as `suffix`: its own file
    when that is the format, else NAME.suffix beside it, or NAME-edited.suffix (-edited-2, …) when
    that is taken: a file the person did not open is never one click from being overwritten."""
    path = Path(path)
    if path.suffix.lower() == suffix.lower():
        return path
    candidate, n = path.with_suffix(suffix), 1
    while exists(candidate):
        n += 1
        candidate = path.with_name(f"{path.stem}-edited{'' if n == 2 else f'-{n - 1}'}{suffix}")
    return candidate


def backup_copy(path: str | Path) -> Path:
    """Copy `path` to NAME.bak (NAME.1.bak, NAME.2.bak… when that exists; an existing backup is
    never overwritten) with its permissions and times; returns the copy's path."""
    path = Path(path)
    for n in range(10_000):
        candidate = path.with_name(f"{path.name}.bak" if n == 0 else f"{path.name}.{n}.bak")
        try:  # created only if absent: two saves at once cannot overwrite each other's copy
            fd = os.open(candidate, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            continue
        except OSError as exc:
            raise InputError(f"cannot make a backup copy: {exc.strerror or exc}", path) from None
        try:
            with open(path, "rb") as src, os.fdopen(fd, "wb") as dst:
                shutil.copyfileobj(src, dst)
            shutil.copystat(path, candidate)
        except BaseException as exc:
            candidate.unlink(missing_ok=True)
            if isinstance(exc, OSError):
                raise InputError(f"cannot make a backup copy: {exc.strerror or exc}", path) from None
            raise
        return candidate
    raise InputError("cannot make a backup copy: too many backup copies already", path)
