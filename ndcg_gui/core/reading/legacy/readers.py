"""One entry point for every input file: `load(path, qrels=None)` → `Dataset`.

The format is recognised from the content, not the file name: a TREC run or qrels by the shape of
its first line, anything else as a CSV/TSV table. Every problem a user can cause is an `InputError`.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from ndcg_gui.core.dataset import ORIGIN, Dataset
from ndcg_gui.core.errors import InputError, NeedsQrels, shown
from ndcg_gui.core.reading.file_format import FileFormat, line_ending_of, record_query_codes
from ndcg_gui.core.reading.legacy import csv_reader, trec_reader
from ndcg_gui.core.reading.legacy.csv_reader import CsvLayout
from ndcg_gui.core.reading.legacy.source import (
    LINE_BREAK,
    Cancel,
    Progress,
    Source,
    check_cancel,
    is_blank,
    read_source,
    split_whitespace,
)


def group_codes(values: np.ndarray) -> tuple[np.ndarray, list]:
    """Integer code of each value (numbered by first appearance) and the distinct values."""
    n = len(values)
    if n == 0:
        return np.zeros(0, np.int64), []
    change = np.empty(n, bool)
    change[0] = True
    change[1:] = values[1:] != values[:-1]
    labels = values[change].tolist()
    if len(set(labels)) == len(labels):
        return np.cumsum(change, dtype=np.int64) - 1, labels
    codes, uniques = pd.factorize(values, sort=False)
    return codes.astype(np.int64), list(uniques)


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
    need_grades: bool = True,
) -> Dataset:
    """Read a ranked-list file (CSV/TSV, TREC run, or qrels alone) and optionally its qrels.

    With qrels, every grade comes from them (a CSV's own grade column is then not used), and the
    judged pool makes `Dataset.ranked_list(q).unretrieved` and the "judged" ideal ranking possible.
    A TREC run holds no grades: without qrels it is refused (`NeedsQrels`) unless `need_grades`
    is False (then every document is unjudged). The files' formats are kept on the dataset
    (`Dataset.file_format`, `qrels_format`) so a save rewrites only what was edited.

    cancel    called now and then; returning True stops the load with `LoadCancelled`.
    progress  called with the fraction done (0..1).
    Raises `InputError` for anything wrong with the files.
    """
    report = progress or (lambda _f: None)
    source = read_source(path, cancel, lambda f: report(0.3 * f))
    kind = sniff(source)
    pool = qsource = None
    if qrels is not None:
        qsource = read_source(qrels, cancel)
        pool, qlayout = _read_pool(qsource, cancel)
        check_cancel(cancel, source.path)
    report(0.4)
    source.progress = lambda f: report(0.4 + 0.4 * f)
    layout = None
    if kind == "csv":
        run, layout = csv_reader.read_table(source, need_grade=pool is None, cancel=cancel)
    elif kind == "trec_run":
        run = trec_reader.read_run(source, cancel)
    else:
        run = trec_reader.read_qrels(source, cancel)
        if pool is None:
            pool = run
    report(0.8)
    check_cancel(cancel, source.path)
    pool_is_run = pool is run
    run = _finish(source, run, qsource or source, pool, kind)
    if kind == "trec_run" and pool is None and need_grades:  # checked last: the file's faults first
        raise NeedsQrels.of(source.path)
    extras = layout.extras if layout is not None else ()
    columns = ["query", "doc", "grade"] + (["score"] if "score" in run else []) + ["_record", *extras]
    run = run[columns].rename(columns={"_record": ORIGIN})
    file_format = _file_format(source, kind, run, layout)
    qrels_format = file_format if pool_is_run else None
    if pool is not None:
        if pool_is_run:
            pool = run[["query", "doc", "grade", ORIGIN]]
        else:
            pool = pool[["query", "doc", "grade", "_record"]].rename(columns={"_record": ORIGIN})
            pool = pool.reset_index(drop=True)
        if qsource is not None:
            qrels_format = _file_format(qsource, sniff(qsource), pool, qlayout)
    dataset = Dataset(
        run,
        pool,
        path=Path(path),
        qrels_path=Path(qrels) if qrels is not None else None,
        kind=kind,  # type: ignore[arg-type]
        tag=trec_reader.run_tag(source) if kind == "trec_run" else None,
        extra_columns=extras,
        file_format=file_format,
        qrels_format=qrels_format,
    )
    report(1.0)
    return dataset


def _file_format(source: Source, kind: str, rows: pd.DataFrame, layout: CsvLayout | None) -> FileFormat:
    """The record of how `source` is written, with the query of each of its records."""
    codes, queries = group_codes(rows["query"].to_numpy(dtype=object))
    ending, final = line_ending_of(source.data)
    common = {
        "data": source.data, "encoding": source.encoding, "file_encoding": source.file_encoding,
        "bom": source.bom, "line_ending": ending, "final_newline": final,
        "record_query": record_query_codes(rows[ORIGIN].to_numpy(np.int64), codes, len(queries)),
        "queries": tuple(str(q) for q in queries),
    }
    if layout is None:  # TREC
        fields = trec_reader.RUN_SHAPE if kind == "trec_run" else trec_reader.QRELS_SHAPE
        return FileFormat(kind, delimiter=trec_reader.separator(source), columns=tuple(fields.split()),
                          **common)  # type: ignore[arg-type]
    return FileFormat(
        "csv", delimiter=layout.delimiter, columns=layout.columns, header=layout.header,
        quote_all=layout.quote_all, decimal_comma=layout.decimal_comma, blank_rows=layout.blank_rows,
        **common,
    )


def _read_pool(source: Source, cancel: Cancel) -> tuple[pd.DataFrame, CsvLayout | None]:
    """Judgments from a TREC qrels file, or a CSV with query, doc and grade columns."""
    kind = sniff(source)
    if kind == "qrels":
        return trec_reader.read_qrels(source, cancel), None
    if kind == "trec_run":
        raise source.error(
            f"is a TREC run, not qrels; expected lines of {trec_reader.QRELS_SHAPE}", 1
        )
    frame, layout = csv_reader.read_table(source, need_grade=True, cancel=cancel)
    frame = frame[~frame["grade"].isna()]
    return frame[["query", "doc", "grade", "_record"]], layout


def _finish(
    source: Source, run: pd.DataFrame, pool_source: Source, pool: pd.DataFrame | None, kind: str
) -> pd.DataFrame:
    """The run checked (each document once per query), its grades looked up in the pool, and its
    rows grouped by query and ranked (see `_ranking_order`).

    Strings are matched once: queries and documents become integer codes shared by run and pool,
    and everything after that is integer work (it matters for 2,000,000-line runs)."""
    run_docs = run["doc"].to_numpy(dtype=object)
    own_pool = pool is not None and pool is not run
    docs = np.concatenate([run_docs, pool["doc"].to_numpy(dtype=object)]) if own_pool else run_docs
    raw = _ascii_bytes(docs)  # fixed-width bytes: hashed for matching, sorted for ties
    run_raw = None if raw is None else raw[: len(run)]
    try:
        if raw is not None:
            hashes = _hash_bytes(raw)
            return _match(source, run, pool_source, pool, kind, hashes, run_raw, exact=False)
    except _Collision:
        pass
    codes = pd.factorize(docs)[0]
    return _match(source, run, pool_source, pool, kind, codes, run_raw, exact=True)


class _Collision(Exception):
    """Two different ids got the same hash (or a duplicate must be confirmed): match exactly."""


def _match(
    source: Source,
    run: pd.DataFrame,
    pool_source: Source,
    pool: pd.DataFrame | None,
    kind: str,
    doc_ids: np.ndarray,
    run_raw: np.ndarray | None,
    exact: bool,
) -> pd.DataFrame:
    """`_finish` with document ids given as exact codes, or as hashes (`exact` False) whose
    every match is confirmed on the strings (`_Collision` when one is not)."""
    run_qc, labels = group_codes(run["query"].to_numpy(dtype=object))
    # One string object per query rather than one per row (saves ~50 bytes a row).
    run["query"] = np.asarray(labels, dtype=object)[run_qc] if len(run) else run["query"]

    def keys(qc: np.ndarray, ids: np.ndarray) -> np.ndarray:  # one integer per (query, doc)
        if exact:
            return qc * (int(doc_ids.max()) + 1 if len(doc_ids) else 1) + ids
        return _mix(ids.view(np.uint64) ^ _mix(qc.astype(np.uint64))).view(np.int64)

    run_keys = keys(run_qc, doc_ids[: len(run)])
    _check_duplicates(source, run, run_keys, "run" if pool is not run else "qrels", kind, exact)
    if pool is not None and pool is not run:
        pool_qc = _codes_in(pool["query"].to_numpy(dtype=object), labels)
        pool_keys = keys(pool_qc, doc_ids[len(run):])
        _check_duplicates(pool_source, pool, pool_keys, "qrels", "qrels", exact)
        pos = pd.Index(pool_keys).get_indexer(run_keys)
        found = pos >= 0
        if not exact:  # a hash match must be a string match
            run_docs, pool_docs = run["doc"].to_numpy(dtype=object), pool["doc"].to_numpy(dtype=object)
            same_query = run_qc[found] == pool_qc[pos[found]]
            if not same_query.all() or (run_docs[found] != pool_docs[pos[found]]).any():
                raise _Collision
        run["grade"] = np.where(found, pool["grade"].to_numpy(dtype=float)[pos], np.nan)
    order = _ranking_order(run, run_qc, run["doc"].to_numpy(dtype=object), run_raw, kind)
    if order is None:
        return run.reset_index(drop=True)
    return run.iloc[order].reset_index(drop=True)


def _hash_bytes(raw: np.ndarray) -> np.ndarray:
    """A 64-bit hash of each id's bytes (from `_ascii_bytes`): equal ids, equal hashes; different
    ids differ except with a chance of about n²/2⁶⁴, which the callers check (`_Collision`).
    Hashing fixed-width bytes with numpy is several times faster than hashing Python strings."""
    words = raw.dtype.itemsize // 8
    cols = raw.view("<u8").reshape(len(raw), words)
    h = np.full(len(raw), 0x9E3779B97F4A7C15, dtype=np.uint64)
    for j in range(words):
        h = _mix(h ^ _mix(cols[:, j]))
    return h.view(np.int64)


def _ascii_bytes(docs: np.ndarray) -> np.ndarray | None:
    """Ids as fixed-width bytes padded to whole 64-bit words; None unless all are ASCII and at
    most 128 bytes long (the callers then use the strings themselves)."""
    try:
        raw = docs.astype("S")
    except UnicodeEncodeError:
        return None
    words = -(-raw.dtype.itemsize // 8)
    return raw.astype(f"S{words * 8}") if 0 < words <= 16 else None


def _mix(z: np.ndarray) -> np.ndarray:
    """splitmix64's finaliser: every input bit affects every output bit."""
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


def _codes_in(values: np.ndarray, labels: list[str]) -> np.ndarray:
    """Codes of `values` in the code space of `labels`, new values numbered after them."""
    codes, own = group_codes(values)
    index = {label: i for i, label in enumerate(labels)}
    table = np.array([index.setdefault(label, len(index)) for label in own], dtype=np.int64)
    return table[codes] if len(codes) else codes


def _ranking_order(
    run: pd.DataFrame, qc: np.ndarray, docs: np.ndarray, raw: np.ndarray | None, kind: str
) -> np.ndarray | None:
    """Row order that groups queries (first appearance first) and ranks each: by rank, else by
    score (high first; ties by doc id in descending byte order, as trec_eval), else file order.
    None when the rows are in that order already (TREC runs usually are)."""
    n = len(run)
    grouped = n == 0 or bool((np.diff(qc) >= 0).all())
    if "rank" in run:
        order = np.lexsort((run["rank"].to_numpy(float), qc))
    elif "score" in run and kind != "qrels":
        score = run["score"].to_numpy(float)
        same_query = qc[1:] == qc[:-1]
        if grouped and not (same_query & (score[1:] > score[:-1])).any():
            order = np.arange(n)  # already by score within each query: only ties to settle
        else:
            order = np.lexsort((-score, qc))
        order = _ties_by_doc_descending(order, qc, score, docs, raw)
    else:
        order = None if grouped else np.argsort(qc, kind="stable")
    if order is not None and np.array_equal(order, np.arange(n)):
        return None
    return order


def _ties_by_doc_descending(
    order: np.ndarray, qc: np.ndarray, score: np.ndarray, docs: np.ndarray, raw: np.ndarray | None
) -> np.ndarray:
    """Within each run of equal (query, score) rows, doc ids in descending code point order (that
    is UTF-8 byte order, what trec_eval's strcmp sees). Only tied rows are compared as strings."""
    q, s = qc[order], score[order]
    tie = (q[1:] == q[:-1]) & (s[1:] == s[:-1])
    if not tie.any():
        return order
    in_tie = np.zeros(len(order), bool)
    in_tie[1:] |= tie
    in_tie[:-1] |= tie
    rows = np.flatnonzero(in_tie)
    run_id = np.concatenate([[0], np.cumsum(~tie)])[rows]  # which tie group each tied row is in
    order = order.copy()
    tied = order[rows]
    within = _by_group_then_doc_descending(run_id, docs[tied], None if raw is None else raw[tied])
    order[rows] = tied[within]
    return order


def _by_group_then_doc_descending(group: np.ndarray, docs: np.ndarray, raw: np.ndarray | None) -> np.ndarray:
    """Order by group, then doc id descending in UTF-8 byte order.

    Why bytes: string sorts of millions of Python objects take seconds; the UTF-8 bytes, cut into
    big-endian 64-bit words, sort as integers (inverted for descending) in one `np.lexsort`."""
    if raw is None:  # non-ASCII or very long ids: compare them as strings
        doc_rank, _ = pd.factorize(docs, sort=True)
        return np.lexsort((-doc_rank, group))
    words = raw.dtype.itemsize // 8
    cols = raw.view(">u8").reshape(len(raw), words)
    return np.lexsort((*(~cols[:, j] for j in reversed(range(words))), group))


def _check_duplicates(
    source: Source, frame: pd.DataFrame, keys: np.ndarray, what: str, kind: str, exact: bool = True
) -> None:
    dup = pd.Series(keys).duplicated().to_numpy()
    if not dup.any():
        return
    if not exact:
        raise _Collision  # confirm with exact codes before telling the user
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


__all__ = ["InputError", "NeedsQrels", "load", "read_source", "sniff"]
