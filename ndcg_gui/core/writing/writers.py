"""Saving ranked lists (CSV, TREC run, qrels) and exporting metric tables, atomically.

Every write goes to a temporary file in the target's folder and is renamed over the target only
when complete, so a failure never leaves a half-written file where the user's file was; a target
that is not a regular file (/dev/stdout, a FIFO, a device) is written into instead (`atomic`). A loaded
file is written back in its own format, with only the edited queries' lines rewritten
(`csv_writer`, `trec_writer`).
A saved list (CSV, run, qrels) holds its ids and other cells exactly as they are: they are data,
and an id must match its qrels line (`'-abc`, `=x` and `@user` included). The report tables
(`write_metrics_csv`, `write_summary_csv`), made to be opened in a spreadsheet and not read back,
prefix a text cell a spreadsheet would run as a formula (= + - @, tab, CR) with `'` (`protect`).
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import BinaryIO, TextIO

import pandas as pd

from ndcg_gui.core.errors import InputError
from ndcg_gui.core.formats.compression import codec_for_name, compress
from ndcg_gui.core.formats.file_format import FileFormat
from ndcg_gui.core.formats.number_text import is_number_text
from ndcg_gui.core.lists.dataset import Dataset
from ndcg_gui.core.lists.numbers import number_text
from ndcg_gui.core.lists.ranked_list import RankedList
from ndcg_gui.core.lists.typed_dataset import TypedDataset
from ndcg_gui.core.ndcg.measure import Measure
from ndcg_gui.core.ndcg.presets import preset_name
from ndcg_gui.core.writing.atomic import atomic_write_bytes, umask
from ndcg_gui.core.writing.csv_writer import csv_bytes
from ndcg_gui.core.writing.trec_writer import qrels_bytes, run_bytes


def atomic_write(path: str | Path | BinaryIO, write: Callable[[TextIO], None]) -> None:
    """Call `write` on a UTF-8 text file: a temporary one next to `path`, then renamed over it
    (or `path` itself when it is not a regular file: `atomic.atomic_write_bytes`)."""

    def write_bytes(f: BinaryIO) -> None:
        text = io.TextIOWrapper(f, encoding="utf-8", newline="")
        write(text)
        text.flush()
        text.detach()  # leaves `f` open, to be synced and closed by the caller

    atomic_write_bytes(path, write_bytes)


def _write_rows(path: str | Path, header: Sequence[str], rows: Iterable[Sequence[str]]) -> None:
    def write(f: TextIO) -> None:
        writer = csv.writer(f, lineterminator="\n")
        writer.writerow(header)
        writer.writerows(rows)

    atomic_write(path, write)


_FORMULA = re.compile(r"[=+\-@\t\r]")


def protect(cell: str) -> str:
    """A text cell of a report table made safe to open in a spreadsheet (a leading `'`, which a
    spreadsheet shows as text); numbers and other text unchanged."""
    if _FORMULA.match(cell) and not is_number_text(cell):
        return "'" + cell
    return cell


def _texts(values: Iterable) -> list[str]:
    return [protect(str(v)) for v in values]


def _numbers(values: Iterable) -> list[str]:
    return [number_text(v) for v in values]


# ---- ranked lists ---------------------------------------------------------------------------
def _as_dataset(data: Dataset | RankedList) -> Dataset:
    return TypedDataset.of(data) if isinstance(data, RankedList) else data


def stored(text: bytes, path: str | Path, loaded: Path | None, fmt: FileFormat | None) -> bytes:
    """A file's bytes as stored at `path`: compressed when its name says so (.gz, .bz2, .xz, .zst),
    or, written over the file they were loaded from, with that file's codec (a gzip run named
    `input.NAME` stays gzip). The text inside is what the plain file would hold."""
    codec = codec_for_name(path)
    over_loaded = loaded is not None and _same_file(path, loaded)
    if codec is None and fmt is not None and fmt.compression and over_loaded:
        codec = fmt.compression
    return compress(text, codec) if codec else text


def _same_file(a: str | Path, b: str | Path) -> bool:
    try:
        return Path(a).resolve() == Path(b).resolve()
    except (OSError, RuntimeError):  # (a symbolic-link loop: RuntimeError before Python 3.13)
        return False


def write_csv(data: Dataset | RankedList, path: str | Path, queries: Sequence[str] | None = None,
              rank: bool = False) -> None:
    """Ranked lists as CSV. A loaded CSV keeps its format (header names and order, delimiter,
    quoting, encoding, decimal comma, line endings, extra columns) and the lines of every query
    that was not edited; otherwise the columns are query (when there is more than one, or it has
    a name), rank, doc, grade (empty = unjudged), score when known, and the extra columns.
    `queries` limits it to some queries (then in that standard layout), `rank` writes a rank
    column (the standard layout when the file has none), so every list keeps its order and
    scores. Compressed as `stored` says."""
    dataset = _as_dataset(data)
    written = csv_bytes(dataset, queries, rank)
    atomic_write_bytes(path, stored(written, path, dataset.path, dataset.file_format))


def write_trec_run(data: Dataset | RankedList, path: str | Path, tag: str | None = None) -> None:
    """A TREC run (`qid Q0 docno rank score tag`). A loaded run keeps its separator and the lines
    of every query that was not edited. A query's scores are kept when they already put its
    documents in their current order under trec_eval's rules; otherwise (a reordered or typed
    list) descending scores n, n-1, ... are written for that query only, so trec_eval sees every
    list in the order it has here. The tag is `tag`, else the one the run was read with, else
    "ndcg-gui"."""
    dataset = _as_dataset(data)
    try:
        text = run_bytes(dataset, tag)
    except InputError as err:  # an id the format cannot hold: said of the file being written
        raise InputError(err.message, path) from None
    atomic_write_bytes(path, stored(text, path, dataset.path, dataset.file_format))


def write_qrels(data: Dataset | RankedList, path: str | Path) -> None:
    """TREC qrels (`qid 0 docno grade`): the judged pool, or the lists' judged rows without one.
    Loaded TREC qrels keep their lines for every query whose judgments were not edited."""
    dataset = _as_dataset(data)
    loaded = dataset.qrels_path if dataset.qrels_path is not None else dataset.path
    atomic_write_bytes(path, stored(qrels_bytes(dataset), path, loaded, dataset.qrels_format))


# ---- metric tables --------------------------------------------------------------------------
def metrics_csv_frame(rl: RankedList, measure: Measure | None = None) -> pd.DataFrame:
    """The per-rank table of one list (`RankedList.metrics`), cut at the measure's k (if any)."""
    table = rl.metrics(measure)
    table["grade"] = rl.grades  # unjudged shown as an empty cell, not as the 0 it scores as
    k = measure.k if measure is not None else None
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


def write_metrics_csv(rl: RankedList, path: str | Path, measure: Measure | None = None) -> None:
    """The per-rank metrics of one list (to the measure's k, every rank without one): rank, doc,
    grade, judged, gain, discount, cg, dcg, ideal_grade, idcg, ndcg, then its query and the
    definition on every row (a file read later, or several joined, still says what it measured)."""
    measure = measure or Measure()
    table = metrics_csv_frame(rl, measure)
    table["query"] = rl.query  # appended: readers of the first columns keep working
    table["definition"] = definition_cell(measure)
    write_frame(table, path)


def write_summary_csv(dataset: Dataset, path: str | Path, measure: Measure | None = None) -> None:
    """One row per query: query, n_docs, n_judged, dcg, idcg, ndcg at the measure's k (see
    `Dataset.summary`), then k (empty: every rank) and the definition on every row, so the file
    says what it measured."""
    measure = measure or Measure()
    write_summary_table(dataset.summary(measure), path, measure)


def write_summary_table(table: pd.DataFrame, path: str | Path, measure: Measure | None = None) -> None:
    """`write_summary_csv` of a `Dataset.summary` table already made (left as it is)."""
    measure = measure or Measure()
    # Appended: readers of the first columns keep working.
    write_frame(table.assign(k="" if measure.k is None else str(measure.k),
                             definition=definition_cell(measure)), path)


def definition_cell(measure: Measure) -> str:
    """The definition as one cell of a CSV: the preset's name (or "custom"), what it computes, and
    the tie rule when it is not trec_eval's."""
    text = f"{preset_name(measure, ignoring_ties=True) or 'custom'}: {measure.describe()}"
    return text if measure.ties == "trec" else f"{text}; tied scores: {measure.ties}"


__all__ = [
    "atomic_write", "atomic_write_bytes", "metrics_csv_frame", "protect", "umask", "write_csv", "write_frame",
    "write_metrics_csv", "write_qrels", "write_summary_csv", "write_summary_table", "write_trec_run",
]
