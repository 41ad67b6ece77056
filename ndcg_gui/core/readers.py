"""One entry point for every input file: `load(path, qrels=None)` → `Dataset`.

The format is recognised from the content, not the file name: a TREC run or qrels by the shape of
its first line, anything else as a CSV/TSV table. Every problem a user can cause is an `InputError`.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from ndcg_gui.core import csv_reader, trec_reader
from ndcg_gui.core.dataset import Dataset
from ndcg_gui.core.errors import InputError, shown
from ndcg_gui.core.source import (
    LINE_BREAK,
    Cancel,
    Progress,
    Source,
    check_cancel,
    is_blank,
    read_source,
    split_whitespace,
)


def sniff(source: Source) -> str:
    """'trec_run', 'qrels' or 'csv', from the first line that is not blank or a `#` comment."""
    for line in LINE_BREAK.split(source.head()):
        if is_blank(line) or line.lstrip(" \t").startswith("#"):
            continue
        # The TREC shape first: a docno may contain a comma, a CSV header never has that shape.
        return trec_reader.shape_of(split_whitespace(line)) or "csv"
    return "csv"


def load(
    path: str | Path,
    qrels: str | Path | None = None,
    cancel: Cancel = None,
    progress: Progress = None,
) -> Dataset:
    """Read a ranked-list file (CSV/TSV, TREC run, or qrels alone) and optionally its qrels.

    cancel    called now and then; returning True stops the load with `LoadCancelled`.
    progress  called with the fraction done (0..1).
    Raises `InputError` for anything wrong with the files.
    """
    report = progress or (lambda _f: None)
    source = read_source(path, cancel, lambda f: report(0.3 * f))
    kind = sniff(source)
    pool = None
    if qrels is not None:
        qsource = read_source(qrels, cancel)
        pool = _read_pool(qsource, cancel)
        check_cancel(cancel, source.path)
    report(0.4)
    if kind == "csv":
        run = csv_reader.read_csv(source, need_grade=pool is None, cancel=cancel)
    elif kind == "trec_run":
        run = trec_reader.read_run(source, cancel)
    else:
        run = trec_reader.read_qrels(source, cancel)
        if pool is None:
            pool = run
    report(0.8)
    check_cancel(cancel, source.path)
    run = _ranked(source, run, kind)
    if pool is not None:
        _check_duplicates(qsource if qrels is not None else source, pool, "qrels", None)
        run["grade"] = _lookup(run, pool)
        pool = pool[["query", "doc", "grade"]].reset_index(drop=True)
    columns = ["query", "doc", "grade"] + (["score"] if "score" in run else [])
    dataset = Dataset(
        run[columns].reset_index(drop=True),
        pool,
        path=Path(path),
        qrels_path=Path(qrels) if qrels is not None else None,
        kind=kind,  # type: ignore[arg-type]
    )
    report(1.0)
    return dataset


def _read_pool(source: Source, cancel: Cancel) -> pd.DataFrame:
    """Judgments from a TREC qrels file, or a CSV with query, doc and grade columns."""
    kind = sniff(source)
    if kind == "qrels":
        return trec_reader.read_qrels(source, cancel)
    if kind == "trec_run":
        raise source.error(
            f"is a TREC run, not qrels; expected lines of {trec_reader.QRELS_SHAPE}", 1
        )
    frame = csv_reader.read_csv(source, need_grade=True, cancel=cancel)
    frame = frame[~frame["grade"].isna()]
    return frame[["query", "doc", "grade", "_record"]]


def _ranked(source: Source, run: pd.DataFrame, kind: str) -> pd.DataFrame:
    """Rows grouped by query (first appearance first), each query in ranked order: by rank, else
    by score (high first; ties by doc id in descending byte order, as trec_eval), else file order.
    A document listed twice for one query is refused (trec_eval refuses it too)."""
    _check_duplicates(source, run, "run", kind)
    qc, _ = pd.factorize(run["query"], sort=False)
    if "rank" in run:
        order = np.lexsort((np.arange(len(run)), run["rank"].to_numpy(float), qc))
    elif "score" in run and kind != "qrels":
        # A sorted factorisation of str follows code point order, which is UTF-8 byte order.
        doc_rank, _ = pd.factorize(run["doc"], sort=True)
        order = np.lexsort((-doc_rank, -run["score"].to_numpy(float), qc))
    else:
        order = np.argsort(qc, kind="stable")
    return run.iloc[order].reset_index(drop=True)


def _keys(frame: pd.DataFrame) -> np.ndarray:
    qc, _ = pd.factorize(frame["query"], sort=False)
    dc, uniques = pd.factorize(frame["doc"], sort=False)
    return qc.astype(np.int64) * max(len(uniques), 1) + dc


def _check_duplicates(source: Source, frame: pd.DataFrame, what: str, kind: str | None) -> None:
    keys = _keys(frame)
    dup = pd.Series(keys).duplicated().to_numpy()
    if not dup.any():
        return
    i = int(np.flatnonzero(dup)[0])
    first = int(np.flatnonzero(keys == keys[i])[0])
    doc, query = frame["doc"].iloc[i], frame["query"].iloc[i]
    record, first_record = int(frame["_record"].iloc[i]), int(frame["_record"].iloc[first])
    trec = kind != "csv"
    delim = None if trec else csv_reader.detect_delimiter(source)
    line, _ = source.record(record, delim, comments=trec)
    first_line, _ = source.record(first_record, delim, comments=trec)
    for_query = f" for query {shown(query)}" if query != "" else ""
    raise source.error(
        f"document {shown(doc)} is listed twice{for_query} (first at line {first_line}); "
        f"each document may appear once per query in a {what}",
        line,
    )


def _lookup(run: pd.DataFrame, pool: pd.DataFrame) -> np.ndarray:
    """The judged grade of each run row (NaN where the pool has no judgment for it)."""
    both = pd.concat([run[["query", "doc"]], pool[["query", "doc"]]], ignore_index=True)
    keys = _keys(both)
    pos = pd.Index(keys[len(run):]).get_indexer(keys[: len(run)])
    grades = pool["grade"].to_numpy(dtype=float)
    return np.where(pos >= 0, grades[pos], np.nan)


__all__ = ["InputError", "load", "sniff"]
