"""TREC runs and qrels as text.

A loaded run or qrels file keeps every line of the queries that were not edited, byte for byte
(separator, comments, extra fields and all); an edited query's lines are rewritten, each keeping
its own spacing and fields where their values did not change (`core.writing.rewrite`).
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

from ndcg_gui.core.arrays.ids import strings
from ndcg_gui.core.arrays.order import ranked, score_key
from ndcg_gui.core.errors import InputError, shown
from ndcg_gui.core.formats.file_format import FileChanged, FileFormat
from ndcg_gui.core.lists.dataset import ORIGIN, Dataset
from ndcg_gui.core.lists.numbers import number_text
from ndcg_gui.core.writing.rewrite import (
    Records,
    cells,
    field_positions,
    file_bytes,
    joined,
    rewritten_queries,
)

_WHITESPACE = re.compile(r"\s")
DEFAULT_TAG = "ndcg-gui"


def out_of_trec_order(query, doc, score: np.ndarray) -> np.ndarray:
    """True on every row of a query whose rows trec_eval's order would move (the loader's order,
    `core.arrays.order`: scores as float32 high first, ties by docno descending), or that lacks a
    score (rows grouped by query)."""
    qc, _ = pd.factorize(np.asarray(query, dtype=object), sort=False)
    score = np.asarray(score, dtype=float)
    key = score_key(np.nan_to_num(score, nan=-np.inf))
    order = ranked(None, qc.astype(np.int64), key, strings(np.asarray(doc, dtype=object), "doc"))
    moved = order != np.arange(len(order))
    return np.isin(qc, np.unique(qc[moved | np.isnan(score)]))


def rescored_scores(query, score: np.ndarray, moved: np.ndarray) -> np.ndarray:
    """`score`, with the rows of each moved query given n, n-1, … 1 (rows grouped by query)."""
    series = pd.Series(np.asarray(query, dtype=object))
    pos = series.groupby(series, sort=False).cumcount().to_numpy()
    size = series.groupby(series, sort=False).transform("size").to_numpy()
    return np.where(moved, (size - pos).astype(float), score)


def check_ids(query, doc) -> None:
    """An `InputError` for an id that a TREC file cannot hold (empty, with spaces, a query id
    starting with #, which would read back as a comment)."""
    for what, ids in (("query", query), ("document", doc)):
        values = pd.Series(ids, dtype=object).astype(str)
        bad = values.str.contains(_WHITESPACE) | (values == "")
        if what == "query":
            bad |= values.str.startswith("#")
        if bad.any():
            raise InputError(
                f"{what} id {shown(values[bad].iloc[0])} cannot be written to a TREC run: "
                "ids there must be non-empty, without spaces, and a query id cannot start with #"
            )


# ---- runs -------------------------------------------------------------------------------------
def run_bytes(dataset: Dataset, tag: str | None = None) -> bytes:
    """`qid Q0 docno rank score tag` lines. A query's scores are kept when they already put its
    documents in their current order under trec_eval's rules; otherwise (a reordered or typed
    list) that query gets descending scores n, n-1, … 1, so trec_eval sees every list in the order
    it has here. The tag is `tag`, else the run's own, else "ndcg-gui". A loaded run keeps the
    lines of its unedited queries (only the edited ones are looked at)."""
    run = dataset.run
    own = dataset.file_format
    same_tag = tag is None or tag == dataset.tag
    tag = tag or dataset.tag or DEFAULT_TAG
    if own is None or own.kind != "trec_run" or not same_tag or ORIGIN not in run:
        return _run_anew(run, own, tag)
    try:
        records = Records(own)
    except FileChanged:  # the loaded file is not there as it was: every line anew
        return _run_anew(run, own, tag)
    blocks = {}
    present = set(dataset.queries())
    for q in rewritten_queries(dataset.queries(), dataset.edited, own):
        rl = dataset.ranked_list(q) if q in present else None
        if rl is None or not len(rl):
            blocks[q] = []  # every line of the query was deleted
            continue
        doc = rl.docs.astype(str)
        check_ids([q], doc)
        raw = rl.scores if rl.scores is not None else np.full(len(rl), np.nan)
        codes = np.zeros(len(rl), np.int64)
        score = rescored_scores(codes, raw, out_of_trec_order(codes, doc, raw))
        origin = rl.origin if rl.origin is not None else np.full(len(rl), -1)
        blocks[q] = [
            _run_line(records.text(int(origin[i])), own, q, doc[i], i + 1, float(score[i]), tag)
            for i in range(len(rl))
        ]
    return file_bytes(own, records, blocks)


def _run_anew(run: pd.DataFrame, own: FileFormat | None, tag: str) -> bytes:
    query, doc = run["query"].astype(str).to_numpy(object), run["doc"].astype(str).to_numpy(object)
    check_ids(query, doc)
    raw_scores = run["score"].to_numpy(float) if "score" in run else np.full(len(run), np.nan)
    score = rescored_scores(query, raw_scores, out_of_trec_order(query, doc, raw_scores))
    pos = pd.Series(query).groupby(query, sort=False).cumcount().to_numpy()
    sep = own.delimiter if own is not None and own.kind == "trec_run" and own.delimiter else " "
    lines = [
        sep.join((q, "Q0", d, str(r), number_text(s), tag))
        for q, d, r, s in zip(query, doc, (pos + 1).tolist(), score.tolist(), strict=True)
    ]
    return ("".join(line + "\n" for line in lines)).encode("utf-8")


def _run_line(
    raw: str | None, own: FileFormat, query: str, doc: str, rank: int, score: float, tag: str
) -> str:
    new = {2: doc, 3: str(rank), 4: number_text(score)}
    if raw is not None:
        parts = cells(raw, None)
        where = field_positions(parts, None)
        if len(where) >= 6 and parts[where[0]] == query:
            for field, text in new.items():
                if not _same(parts[where[field]], text, numeric=field != 2):
                    parts[where[field]] = text
            return joined(parts, None)
    return (own.delimiter or " ").join((query, "Q0", doc, str(rank), number_text(score), tag))


def _same(old: str, new: str, numeric: bool) -> bool:
    if not numeric:
        return old == new
    try:
        return float(old) == float(new)
    except ValueError:
        return False


def _rows_by_query(query: np.ndarray) -> dict[str, np.ndarray]:
    codes, uniques = pd.factorize(query, sort=False)
    order = np.argsort(codes, kind="stable")
    bounds = np.cumsum(np.bincount(codes, minlength=len(uniques)))
    return {str(q): order[b - c:b] for q, c, b in zip(uniques, np.diff(np.concatenate([[0], bounds])),
                                                      bounds, strict=True)}


# ---- qrels ------------------------------------------------------------------------------------
def qrels_bytes(dataset: Dataset) -> bytes:
    """`qid 0 docno grade` lines: the judged pool, or the lists' judged rows without one. A loaded
    TREC qrels file keeps its lines for unedited queries; an edited query keeps its judgments in
    the file's order (a changed grade rewritten in place), new ones after them."""
    pool = dataset.qrels if dataset.qrels is not None else dataset.run[~dataset.run["grade"].isna()]
    own = dataset.qrels_format
    query = pool["query"].astype(str).to_numpy(object)
    doc = pool["doc"].astype(str).to_numpy(object)
    grade = pool["grade"].to_numpy(float)
    sep = own.delimiter if own is not None and own.kind == "qrels" and own.delimiter else " "
    if own is None or own.kind != "qrels" or dataset.qrels is None or ORIGIN not in pool:
        return _qrels_anew(query, doc, grade, sep)
    try:
        records = Records(own)
    except FileChanged:  # the loaded file is not there as it was: every line anew
        return _qrels_anew(query, doc, grade, sep)
    origin = pool[ORIGIN].to_numpy(np.int64)
    blocks = {}
    rows = _rows_by_query(query)
    for q in rewritten_queries(dataset.queries(), dataset.edited, own):
        if q not in rows:
            blocks[q] = []  # no judgment left
        else:
            mine = rows[q]
            kept = mine[origin[mine] >= 0]
            in_file_order = kept[np.argsort(origin[kept], kind="stable")]
            mine = np.concatenate([in_file_order, mine[origin[mine] < 0]])
            blocks[q] = [
                _qrels_line(records.text(int(origin[i])), own, q, doc[i], grade[i]) for i in mine
            ]
    return file_bytes(own, records, blocks)


def _qrels_anew(query, doc, grade: np.ndarray, sep: str) -> bytes:
    lines = (sep.join((q, "0", d, number_text(g)))
             for q, d, g in zip(query, doc, grade.tolist(), strict=True))
    return "".join(line + "\n" for line in lines).encode("utf-8")


def _qrels_line(raw: str | None, own: FileFormat, query: str, doc: str, grade: float) -> str:
    if raw is not None:
        parts = cells(raw, None)
        where = field_positions(parts, None)
        if len(where) >= 4 and parts[where[0]] == query and parts[where[2]] == doc:
            if not _same(parts[where[3]], number_text(grade), numeric=True):
                parts[where[3]] = number_text(grade)
            return joined(parts, None)
    return (own.delimiter or " ").join((query, "0", doc, number_text(grade)))
