"""One entry point for every input file: `load(path, qrels=None)` → `Dataset`. Format dispatch.

The format is recognised from the content, not the file name: compressed and columnar files by
their first bytes (`core.formats.compression`), JSON Lines by a first line that is an object, a
TREC run or qrels by the shape of its first line, anything else as a CSV/TSV table. The readers
return their rows in file order; the run is then joined to its judgments and ranked once
(`core.arrays.join`, `core.arrays.order`). Every problem a user can cause is an `InputError`.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pyarrow as pa

from ndcg_gui.core.arrays.ids import Groups, hash_strings, shared_prefix
from ndcg_gui.core.arrays.join import lookup, pair_keys, repeated_pair
from ndcg_gui.core.arrays.order import ranked, score_key
from ndcg_gui.core.errors import InputError, NeedsQrels, shown
from ndcg_gui.core.formats import columnar, csv_text, trec_text
from ndcg_gui.core.formats.csv_text import CsvLayout
from ndcg_gui.core.formats.file_format import FileFormat, OnDisk, line_ending_of, record_query_codes
from ndcg_gui.core.formats.rows import Rows, chunks_of
from ndcg_gui.core.formats.source import (
    LINE_BREAK,
    Cancel,
    Progress,
    Source,
    check_cancel,
    is_blank,
    read_source,
    split_whitespace,
)
from ndcg_gui.core.lists.dataset import ORIGIN, Dataset, origin_array, text_column
from ndcg_gui.core.memory import give_back

COLUMNAR_KINDS = ("parquet", "feather", "jsonl")
KEEP_IN_MEMORY = 16 << 20  # text up to this size is kept with the dataset for byte-preserving saves


def columnar_row(path: str | Path | None, record: int) -> int | None:
    """The 1-based row of a loaded columnar file's record (Parquet, Feather: a `Dataset` row's
    `ORIGIN`), as the readers and engines name a cell there ("row 3"); None for a file of another
    kind, a pipe or a device (read again to tell: an error's cost only)."""
    if path is None or record < 0 or str(path).startswith(("/dev/", "/proc/")):
        return None
    from ndcg_gui.core.formats.source import read_source  # lazy: only a refused cell asks

    try:
        kind = sniff(read_source(path))
    except (OSError, InputError, ValueError):
        return None
    return record + 1 if kind in ("parquet", "feather") else None


def columnar_line(path: str | Path | None, record: int) -> int | None:
    """The line of a loaded JSON Lines file's record (a `Dataset` row's `ORIGIN`), as its reader
    names a cell there ("run.jsonl:3"); None for a file of another kind, a pipe or a device (read
    again to tell: an error's cost only)."""
    if path is None or record < 0 or str(path).startswith(("/dev/", "/proc/")):
        return None
    from ndcg_gui.core.formats.source import read_source  # lazy: only a refused cell asks

    try:
        source = read_source(path)
        return columnar.jsonl_line(source, record) if sniff(source) == "jsonl" else None
    except (OSError, InputError, ValueError):
        return None


def sniff(source: Source) -> str:
    """'trec_run', 'qrels', 'csv', 'jsonl', 'parquet' or 'feather': columnar files by their
    first bytes, text from the first line that is not blank or a `#` comment."""
    if source.container != "text":
        return source.container
    for line in LINE_BREAK.split(source.head()):
        if is_blank(line) or line.lstrip(" \t").startswith("#"):
            continue
        # The TREC shape first: a docno may contain a comma, a CSV header never has that shape,
        # and a query id may be "{" (a qrels line `{ 0 d 1` is no JSON object).
        shape = trec_text.shape_of(split_whitespace(line))
        if shape is None and line.strip(" \t").startswith("{"):
            return "jsonl"
        return shape or "csv"
    return "csv"


def load(
    path: str | Path,
    qrels: str | Path | None = None,
    cancel: Cancel = None,
    progress: Progress = None,
    need_grades: bool = True,
) -> Dataset:
    """Read a ranked-list file (CSV/TSV, TREC run, qrels alone, JSON Lines, Parquet, Feather;
    any of the text ones compressed) and optionally its qrels.

    With qrels, every grade comes from them (a CSV's own grade column is then not used), and the
    judged pool makes `Dataset.ranked_list(q).unretrieved` and the "judged" ideal ranking possible.
    A TREC run holds no grades: without qrels it is refused (`NeedsQrels`) unless `need_grades`
    is False (then every document is unjudged); so is a table without a grade column. The text
    files' formats are kept on the dataset (`Dataset.file_format`, `qrels_format`) so a save
    rewrites only what was edited.

    cancel    called now and then; returning True stops the load with `LoadCancelled`.
    progress  called with the fraction done (0..1).
    Raises `InputError` for anything wrong with the files.
    """
    report = progress or (lambda _f: None)
    source = read_source(path, cancel, lambda f: report(0.3 * f))
    kind = sniff(source)
    pool = pool_text = None
    if qrels is not None:
        qsource = read_source(qrels, cancel)
        qkind = sniff(qsource)
        pool, qlayout = read_pool(qsource, qkind, cancel)
        pool_text = _TextFacts.of(qsource, qkind, qlayout)
        qsource.release()
        check_cancel(cancel, Path(path))
    report(0.4)
    run, layout = _read_rows(source, kind, pool is None and need_grades, cancel)
    text = _TextFacts.of(source, kind, layout)
    tag = trec_text.run_tag(source) if kind == "trec_run" else None
    source.release()  # a big file's bytes: not held while the rows are joined (see `FileFormat`)
    report(0.6)
    check_cancel(cancel, Path(path))
    own_pool = kind == "qrels" and pool is None  # qrels alone: the lists are the judgments
    joined = _Joined.of(run, pool, kind, "qrels" if own_pool else "run")
    run = joined.rows
    give_back()  # the join's temporaries, freed: their pages are not held under the dataset
    report(0.8)
    check_cancel(cancel, Path(path))
    if kind == "trec_run" and pool is None and need_grades:  # checked last: the file's faults first
        raise NeedsQrels.of(path)
    extra_columns = tuple(run.extras)
    frame = joined.frame()
    file_format = text and text.format(run.record, joined.run_codes, joined.labels)
    del joined, run  # (their query codes: `Dataset` numbers the queries again)
    qrels_format = file_format if own_pool else None
    pool_frame = None
    if own_pool:
        pool_frame = frame[["query", "doc", "grade", ORIGIN]]
    elif pool is not None:
        groups = Groups.of(pool.query)
        labels = [str(q) for q in groups.labels]
        qrels_format = pool_text and pool_text.format(pool.record, groups.codes, labels)
        del groups
        pool_frame = _pool_frame(pool)
    del pool
    dataset = Dataset.of(
        frame,
        pool_frame,
        path=Path(path),
        qrels_path=Path(qrels) if qrels is not None else None,
        kind=kind,  # type: ignore[arg-type]
        tag=tag,
        extra_columns=extra_columns,
        file_format=file_format,
        qrels_format=qrels_format,
    )
    report(1.0)
    return dataset


def _read_rows(source: Source, kind: str, need_grade: bool, cancel: Cancel) -> tuple[Rows, CsvLayout | None]:
    if kind == "csv":
        return csv_text.read_csv_table(source, need_grade=need_grade, cancel=cancel)
    if kind == "trec_run":
        return trec_text.read_run(source, cancel), None
    if kind == "qrels":
        return trec_text.read_qrels(source, cancel), None
    return columnar.read_columnar_table(source, kind, need_grade), None


def read_pool(source: Source, kind: str, cancel: Cancel) -> tuple[Rows, CsvLayout | None]:
    """Judgments: TREC qrels, or a table with query, doc and grade columns (unjudged rows dropped)."""
    if kind == "trec_run":
        raise source.error(f"is a TREC run, not qrels; expected lines of {trec_text.QRELS_SHAPE}", 1)
    rows, layout = _read_rows(source, kind, True, cancel)
    rows = _with_ids(rows)
    judged = ~np.isnan(rows.grade)
    return (rows if judged.all() else rows.take(np.flatnonzero(judged))), layout


def _with_ids(rows: Rows) -> Rows:
    """`rows` with a query column ("" without one) and a doc column (d1, d2… per query for a bare
    list of grades)."""
    n = len(rows)
    if rows.query is None:
        empty = pa.py_buffer(np.zeros(n + 1, np.int32))  # n empty strings: every offset 0
        rows.query = pa.StringArray.from_buffers(n, empty, pa.py_buffer(b""))
    if rows.doc is None:
        codes = Groups.of(rows.query).codes
        order = np.argsort(codes, kind="stable")
        counts = np.bincount(codes) if n else np.zeros(0, np.int64)
        position = np.empty(n, np.int64)
        position[order] = np.arange(n) - np.repeat(np.cumsum(counts) - counts, counts)
        rows.doc = pa.array([f"d{p + 1}" for p in position.tolist()], pa.string())
    return rows


class _Joined:
    """The run's rows in their order (queries by first appearance, each ranked: `core.arrays.order`),
    checked (each document once per query), and their grades looked up in the judgments."""

    def __init__(self, rows: Rows, run_codes: np.ndarray, labels: list[str], grade: np.ndarray) -> None:
        self.rows, self.run_codes, self.labels, self.grade = rows, run_codes, labels, grade

    @classmethod
    def of(cls, run: Rows, pool: Rows | None, kind: str, what: str) -> _Joined:

        run = _with_ids(run)
        if pool is not None:
            run.grade = None  # (a table's own grades: the qrels' are used, this need not be ranked)
        groups = Groups.of(run.query)
        labels = [str(q) for q in groups.labels]
        codes = groups.codes
        grouped = groups.starts is not None
        del groups
        if run.rank is not None:
            key, docs = -run.rank, None
        elif run.score is not None and kind != "qrels":
            # The exact scores, ties by doc id: every rule at every precision reorders only
            # runs of neighbours from here (`core.arrays.order`); the measure decides its ties.
            key, docs = score_key(run.score, "float64"), run.doc
        else:
            key, docs = None, None
        # Ordered first: every array below is made once, in its final order.
        order = ranked(None, codes, key, docs)
        del key, docs
        if (order[1:] < order[:-1]).any():
            # In place: the file order's arrays are let go. A grouped file keeps its query column.
            run.reorder(order, same_queries=grouped)
            if not grouped:
                codes = codes[order]
        del order
        skip = shared_prefix(run.doc, *([pool.doc] if pool is not None else []))
        # (query, doc) keys made once, for the repeats and for the join (the hashes let go).
        keys = pair_keys(codes, hash_strings(run.doc, skip), in_place=True)
        refuse_repeats(run, codes, what, keys, ranked_rows=True)
        if pool is None:
            grade = run.grade if run.grade is not None else np.full(len(run), np.nan)
        else:
            pool_groups = Groups.of(pool.query)
            index = {q: i for i, q in enumerate(labels)}
            table = np.array([index.setdefault(str(q), len(index)) for q in pool_groups.labels], np.int32)
            pool_codes = table[pool_groups.codes] if len(pool_groups.codes) else pool_groups.codes
            del pool_groups
            pool_keys = pair_keys(pool_codes, hash_strings(pool.doc, skip), in_place=True)
            refuse_repeats(pool, pool_codes, "qrels", pool_keys)
            handed = [keys, pool_keys]  # (the list is then their only holder: `lookup` lets them go)
            del keys, pool_keys
            grade = lookup(codes, run.doc, pool_codes, pool.doc, pool.grade, handed)
        return cls(run, codes, labels, grade)

    def frame(self):
        """The run as `Dataset.run` holds it: query, doc, grade, score, origin, other columns. The
        rows' text moves into it (`self.rows` keeps its numbers, and no longer its text)."""
        import pandas as pd  # lazy: start-up (`sniff` runs before the window, without pandas)

        run = self.rows
        texts = {"query": run.query, "doc": run.doc, **run.extras}
        run.query = run.doc = None
        run.extras = {}
        columns = {"query": _text_column(texts, "query"), "doc": _text_column(texts, "doc"),
                   "grade": self.grade}
        if run.score is not None:
            columns["score"] = run.score
        columns[ORIGIN] = origin_array(run.record)
        for name in list(texts):
            columns[name] = _text_column(texts, name)
        return pd.DataFrame(columns, copy=False)


def _text_column(texts: dict[str, pa.Array | pa.ChunkedArray], name: str):
    """`texts[name]` (taken out: `texts` is its only holder) as a pandas text column. pandas holds
    Arrow text as large_string: converted a chunk at a time, each parsed chunk let go once
    converted, so the column is never held twice."""
    values = texts.pop(name)
    if not pa.types.is_string(values.type):  # (binary: ids that are not UTF-8; large_string)
        return text_column(values)
    chunks = chunks_of(values)
    del values  # (the list is then the chunks' only holder)
    for i, chunk in enumerate(chunks):
        chunks[i] = chunk.cast(pa.large_string())
        del chunk
    return text_column(pa.chunked_array(chunks, pa.large_string()))


def refuse_repeats(rows: Rows, codes: np.ndarray, what: str, keys: np.ndarray, ranked_rows: bool = False
                    ) -> None:
    """An `InputError` naming the first line (in file order) that repeats a (query, doc) pair.
    `keys`: the rows' `pair_keys`; `ranked_rows`: the rows are in `ranked` order (codes ascending)."""
    if ranked_rows and not _equal_keys_within_queries(codes, keys):
        return
    if repeated_pair(codes, rows.doc, keys) is None:
        return
    in_file = np.argsort(rows.record, kind="stable")  # rows may be ranked already: back to file order
    rows, codes = rows.take(in_file), codes[in_file]
    row, first = repeated_pair(codes, rows.doc, keys[in_file])
    doc, query = rows.doc[row].as_py(), rows.query[row].as_py()
    for_query = f" for query {shown(query)}" if query != "" else ""
    raise rows.error(
        f"document {shown(doc)} is listed twice{for_query} (first at "
        f"{rows.where(int(rows.record[first]))}); each document may appear once per query in a {what}",
        int(rows.record[row]),
    )


def _equal_keys_within_queries(codes: np.ndarray, keys: np.ndarray, block: int = 1 << 18) -> bool:
    """Whether two rows of one query have equal keys, `codes` ascending: a pair can only repeat
    within its query, so the keys are sorted some whole queries at a time (not a sorted copy of
    all of them)."""
    start, n = 0, len(keys)
    while start < n:
        end = n
        if start + block < n:  # cut where a query starts (after a query bigger than a block)
            end = int(np.searchsorted(codes, codes[start + block], side="left"))
            if end <= start:
                end = int(np.searchsorted(codes, codes[start + block], side="right"))
        part = np.sort(keys[start:end])
        if (part[1:] == part[:-1]).any():
            return True
        start = end
    return False


def _pool_frame(pool: Rows):
    """The judgments as `Dataset.qrels` holds them; their text moves into it, as in `_Joined.frame`."""
    import pandas as pd  # lazy: start-up (`sniff` runs before the window, without pandas)

    texts = {"query": pool.query, "doc": pool.doc}
    pool.query = pool.doc = None
    return pd.DataFrame({"query": _text_column(texts, "query"), "doc": _text_column(texts, "doc"),
                         "grade": pool.grade, ORIGIN: origin_array(pool.record)}, copy=False)


class _TextFacts:
    """What `FileFormat` records of a text file, taken while its bytes are at hand."""

    def __init__(self, kind: str, common: dict, layout: CsvLayout | None, separator: str) -> None:
        self.kind, self.common, self.layout, self.separator = kind, common, layout, separator

    @classmethod
    def of(cls, source: Source, kind: str, layout: CsvLayout | None) -> _TextFacts | None:
        """None for a columnar file (it is not written back as it was)."""
        if kind in COLUMNAR_KINDS:
            return None
        ending, final = line_ending_of(source.data)
        # A big file's bytes stay on disk (read again by a save), a small one's are kept; what
        # the file was (`disk`) is kept of both, so a save can see another program changed it.
        on_disk = source.stat is not None and len(source.data) > KEEP_IN_MEMORY
        disk = OnDisk.of(source.path, source.stat, source.data) if source.stat is not None else None
        common = {
            "data": None if on_disk else bytes(source.data), "disk": disk,
            "encoding": source.encoding, "file_encoding": source.file_encoding,
            "bom": source.bom, "line_ending": ending, "final_newline": final,
            "compression": source.compression,
        }
        return cls(kind, common, layout, trec_text.separator(source) if layout is None else "")

    def format(self, records: np.ndarray, codes: np.ndarray, queries: list[str]) -> FileFormat:
        """The record of how the file is written, with the query of each of its records."""
        common = {**self.common, "queries": tuple(queries),
                  "record_query": record_query_codes(records, codes, len(queries))}
        if self.layout is None:  # TREC
            fields = trec_text.RUN_SHAPE if self.kind == "trec_run" else trec_text.QRELS_SHAPE
            return FileFormat(self.kind, delimiter=self.separator, columns=tuple(fields.split()),  # type: ignore[arg-type]
                              **common)
        layout = self.layout
        return FileFormat(
            "csv", delimiter=layout.delimiter, columns=layout.columns, header=layout.header,
            quote_all=layout.quote_all, decimal_comma=layout.decimal_comma, blank_rows=layout.blank_rows,
            **common,
        )


__all__ = ["InputError", "NeedsQrels", "load", "read_source", "sniff"]
