"""Saving ranked lists (CSV, TREC run, qrels) and exporting metric tables, atomically.

Every write goes to a temporary file in the target's folder and is renamed over the target only
when complete, so a failure never leaves a half-written file where the user's file was.
Text cells that a spreadsheet would run as a formula (starting with = + - @) get a leading `'`;
numbers are written as they are, and the CSV reader removes the quote again.
"""

from __future__ import annotations

import contextlib
import csv
import math
import os
import re
import tempfile
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TextIO

import numpy as np
import pandas as pd

from ndcg_gui.core.config import MetricConfig, TiesName
from ndcg_gui.core.dataset import Dataset
from ndcg_gui.core.errors import InputError, shown
from ndcg_gui.core.ranked_list import RankedList

_FORMULA = re.compile(r"^'*[=+\-@]")
_WHITESPACE = re.compile(r"\s")


def protect(cell: str) -> str:
    """A text cell made safe to open in a spreadsheet; numbers and plain text unchanged."""
    if _FORMULA.match(cell) and not _is_number(cell):
        return "'" + cell
    return cell


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def fmt(x: float) -> str:
    """A number written so it reads back exactly: whole numbers without '.0', NaN as empty."""
    x = float(x)
    if math.isnan(x):
        return ""
    if x.is_integer() and abs(x) < 1e15:
        return str(int(x))
    return repr(x)


def atomic_write(path: str | Path, write: Callable[[TextIO], None]) -> None:
    """Call `write` on a temporary text file next to `path`, then rename it over `path`."""
    path = Path(path)
    if path.is_dir():
        raise InputError("is a folder; choose a file name to write", path)
    folder = path.parent if str(path.parent) else Path(".")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    except OSError as exc:
        raise InputError(f"cannot write here: {exc.strerror or exc}", path) from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            write(f)
        with contextlib.suppress(OSError):  # keep the permissions of the file being replaced
            os.chmod(tmp, path.stat().st_mode & 0o777 if path.exists() else 0o666 & ~_umask())
        os.replace(tmp, path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise InputError(f"cannot write: {exc.strerror or exc}", path) from None
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _write_rows(path: str | Path, header: Sequence[str], rows: Iterable[Sequence[str]]) -> None:
    def write(f: TextIO) -> None:
        writer = csv.writer(f, lineterminator="\n")
        writer.writerow(header)
        writer.writerows(rows)

    atomic_write(path, write)


def _texts(values: Iterable) -> list[str]:
    return [protect(str(v)) for v in values]


def _numbers(values: Iterable) -> list[str]:
    return [fmt(v) for v in values]


# ---- ranked lists ---------------------------------------------------------------------------
def _as_dataset(data: Dataset | RankedList) -> Dataset:
    return Dataset.from_ranked_list(data) if isinstance(data, RankedList) else data


def write_csv(data: Dataset | RankedList, path: str | Path, queries: Sequence[str] | None = None) -> None:
    """Ranked lists as CSV: query (when there is more than one, or it has a name), rank, doc,
    grade (empty = unjudged) and score when known. `queries` limits it to some queries."""
    dataset = _as_dataset(data)
    run = dataset.run
    if queries is not None:
        run = run[run["query"].isin(list(queries))]
    rank = run.groupby("query", sort=False).cumcount().to_numpy() + 1
    with_query = run["query"].nunique() > 1 or (len(run) and run["query"].iloc[0] != "")
    header, columns = [], []
    if with_query:
        header.append("query")
        columns.append(_texts(run["query"]))
    header += ["rank", "doc", "grade"]
    columns += [_numbers(rank), _texts(run["doc"]), _numbers(run["grade"])]
    if "score" in run:
        header.append("score")
        columns.append(_numbers(run["score"]))
    _write_rows(path, header, zip(*columns, strict=True))


def write_trec_run(data: Dataset | RankedList, path: str | Path, tag: str | None = None) -> None:
    """A TREC run (`qid Q0 docno rank score tag`). A query's scores are kept when they already put
    its documents in their current order under trec_eval's rules; otherwise (a reordered or typed
    list) descending scores n, n-1, ... are written for that query only, so trec_eval sees every
    list in the order it has here. The tag is `tag`, else the one the run was read with, else
    "ndcg-gui"."""
    dataset = _as_dataset(data)
    run = dataset.run
    tag = tag or dataset.tag or "ndcg-gui"
    query, doc = run["query"].astype(str), run["doc"].astype(str)
    for what, values in (("query", query), ("document", doc)):
        bad = values.str.contains(_WHITESPACE) | (values == "")
        if what == "query":  # a line starting with # would be read back as a comment
            bad |= values.str.startswith("#")
        if bad.any():
            raise InputError(
                f"{what} id {shown(values[bad].iloc[0])} cannot be written to a TREC run: "
                "ids there must be non-empty, without spaces, and a query id cannot start with #",
                path,
            )
    pos = run.groupby("query", sort=False).cumcount().to_numpy()
    size = run.groupby("query", sort=False)["doc"].transform("size").to_numpy()
    rescored = (size - pos).astype(float)
    if "score" in run:
        score = run["score"].to_numpy(float)
        score = np.where(_out_of_trec_order(run["query"], doc, score), rescored, score)
    else:
        score = rescored
    lines = [
        f"{q} Q0 {d} {r} {fmt(s)} {tag}\n"
        for q, d, r, s in zip(query, doc, (pos + 1).tolist(), score.tolist(), strict=True)
    ]
    atomic_write(path, lambda f: f.writelines(lines))


def _out_of_trec_order(query: pd.Series, doc: pd.Series, score: np.ndarray) -> np.ndarray:
    """True on every row of a query whose rows sorting by (score desc, docno desc) would move, or
    that lacks a score (rows grouped by query)."""
    qc, _ = pd.factorize(query, sort=False)
    doc_rank, _ = pd.factorize(doc, sort=True)  # code point order = UTF-8 byte order
    order = np.lexsort((-doc_rank, -np.nan_to_num(score, nan=-np.inf), qc))
    moved = order != np.arange(len(order))
    return np.isin(qc, np.unique(qc[moved | np.isnan(score)]))


def write_qrels(data: Dataset | RankedList, path: str | Path) -> None:
    """TREC qrels (`qid 0 docno grade`): the judged pool, or the lists' judged rows without one."""
    dataset = _as_dataset(data)
    pool = dataset.qrels if dataset.qrels is not None else dataset.run[~dataset.run["grade"].isna()]
    lines = [
        f"{q} 0 {d} {fmt(g)}\n"
        for q, d, g in zip(pool["query"], pool["doc"], pool["grade"].tolist(), strict=True)
    ]
    atomic_write(path, lambda f: f.writelines(lines))


# ---- metric tables --------------------------------------------------------------------------
def metrics_table(rl: RankedList, config: MetricConfig | None = None, k: int | None = None) -> pd.DataFrame:
    """The per-rank table of one list (`RankedList.metrics`), cut at rank k when given."""
    table = rl.metrics(config)
    table["grade"] = rl.grades  # unjudged shown as an empty cell, not as the 0 it scores as
    return table.iloc[:k] if k is not None else table


def write_frame(frame: pd.DataFrame, path: str | Path) -> None:
    """Any table as CSV: text cells protected, numbers exact, booleans as true/false."""
    columns = []
    for name in frame.columns:
        values = frame[name]
        if values.dtype == bool:
            columns.append(["true" if v else "false" for v in values])
        elif pd.api.types.is_numeric_dtype(values):
            columns.append(_numbers(values))
        else:
            columns.append(_texts(values))
    _write_rows(path, [str(c) for c in frame.columns], zip(*columns, strict=True))


def write_metrics_csv(
    rl: RankedList, path: str | Path, config: MetricConfig | None = None, k: int | None = None
) -> None:
    """The per-rank metrics of one list: rank, doc, grade, judged, gain, discount, cg, dcg,
    ideal_grade, idcg, ndcg."""
    write_frame(metrics_table(rl, config, k), path)


def write_summary_csv(
    dataset: Dataset,
    path: str | Path,
    k: int | None,
    config: MetricConfig | None = None,
    ties: TiesName = "trec",
) -> None:
    """One row per query: query, n_docs, n_judged, dcg, idcg, ndcg at k (see `Dataset.summary`)."""
    write_frame(dataset.summary(k, config, ties), path)
