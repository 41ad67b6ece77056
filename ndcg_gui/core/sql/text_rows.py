"""TREC text (a run's or qrels' lines) parsed by pyarrow's streaming CSV reader into the Parquet
file a DuckDB job scans (query, doc and the number, in file order), for the files that are as the
in-memory reader's quick path reads them: fields split by one space (or one tab) each, no comment.

Why not DuckDB's own CSV reader: parsing run lines and writing them as Parquet took DuckDB about
twice the CPU and the time pyarrow takes to parse, check and write them (its reader and its Parquet
writer each longer than pyarrow's whole; benchmarks/README.md, issue 24). What pyarrow cannot read as
it is (a comment, an empty field, runs of blanks, a short line, a number it cannot parse, text that
is not UTF-8, another compression than gzip) is left to the DuckDB path, which reads it (line by
line when need be) and names a bad line as the in-memory reader does: `write_trec` then returns
False, or raises `Irregular` when the file is to be read line by line.
"""

from __future__ import annotations

import queue
import re
import struct
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypeVar

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pa_csv
import pyarrow.parquet as pq

from ndcg_gui.core.errors import InputError
from ndcg_gui.core.formats import trec_text
from ndcg_gui.core.formats.compression import compression_of
from ndcg_gui.core.formats.source import decode, head_bytes
from ndcg_gui.core.memory import give_back
from ndcg_gui.core.sql.progress import Cancelled, Steps

FIELDS = {  # the fields of each kind of TREC line; the number is read as a float, the rest as text
    "trec_run": ("query", "q0", "doc", "rank", "score", "tag"),
    "qrels": ("query", "iter", "doc", "grade"),
}
# 4 MiB blocks: the reader parses a few ahead on its threads (16 MiB blocks held four times
# the memory at once, for the same parse time).
BLOCK = 4 << 20
T = TypeVar("T")


class _NotAsIs(Exception):
    """A file pyarrow does not read as the in-memory reader's quick path does."""


class Irregular(Exception):
    """A TREC text file whose fields are not split by one blank each (an empty field, a tab
    inside a field of text split by spaces): read line by line."""


def write_trec(files: list[str], kind: str, target: Path, steps: Steps) -> bool:
    """The rows of TREC text `files` (in order, each row in its file's order) as Parquet file
    `target` (query, doc and the number, "score" or "grade"); False, with `target` removed, when
    a file is not one pyarrow reads as it is (the caller reads them with DuckDB's CSV reader);
    `Irregular` when a file's fields are not split by one blank each. Tells `steps` the share of
    the files' bytes read; `Cancelled` when its report asks to stop."""
    names = FIELDS[kind]
    number = names[-2] if kind == "trec_run" else names[-1]
    pool = _pool()
    out = _Out(target, names, number, pool)
    try:
        _in_turn(_batches(files, names, number, steps, pool), out.write)
        return out.close()
    except (_NotAsIs, pa.ArrowException, OSError):
        # (a short or long line, a number pyarrow cannot parse, text not UTF-8, a damaged gzip)
        return out.given_up()
    except BaseException:
        out.given_up()
        raise
    finally:
        give_back()  # (what the pool kept for the next batch: DuckDB's memory from here)


def _batches(files: list[str], names: tuple[str, ...], number: str, steps: Steps,
             pool: pa.MemoryPool) -> Iterator[tuple[pa.RecordBatch, str]]:
    """(batch, its file's separator) of every file in turn, the progress told by bytes read."""
    total = sum(Path(f).stat().st_size for f in files) or 1
    done = 0
    for file in files:
        raw, stream, sep = _opened(file)
        with raw:
            reader = pa_csv.open_csv(
                stream, pa_csv.ReadOptions(column_names=list(names), block_size=BLOCK),
                pa_csv.ParseOptions(delimiter=sep, quote_char=False, escape_char=False),
                # Every field read (the unused ones as bytes, the cheapest) to see that none is
                # empty: an empty field is an empty string, an empty number a parse error.
                pa_csv.ConvertOptions(column_types={n: pa.float64() if n == number else pa.string()
                                                    if n in ("query", "doc") else pa.binary() for n in names},
                                      strings_can_be_null=False, null_values=[]),
                memory_pool=pool)
            for batch in reader:
                if steps.stopped:
                    raise Cancelled
                yield batch, sep
                steps.tell((done + raw.tell()) / total * 100)
        done += Path(file).stat().st_size


class _Out:
    """The Parquet file the checked batches are written to."""

    def __init__(self, target: Path, names: tuple[str, ...], number: str, pool: pa.MemoryPool) -> None:
        self.target, self.names, self.number, self.pool = target, names, number, pool
        self.writer: pq.ParquetWriter | None = None
        self.rows = 0

    def write(self, item: tuple[pa.RecordBatch, str]) -> None:
        batch, sep = item
        _check(batch, self.names, self.number, "\t" if sep == " " else " ")
        out = pa.record_batch([batch.column("query"), batch.column("doc"), batch.column(self.number)],
                              names=["query", "doc", self.number])
        if self.writer is None:
            # Not compressed (the file lives for one job); the query dictionary encoded, which
            # DuckDB's grouping and joins by query read quicker (the scoring took nearly twice the
            # CPU without), the doc not (nearly every doc differs: a dictionary of
            # them only added to the reading's CPU).
            self.writer = pq.ParquetWriter(str(self.target), out.schema, compression="none",
                                           use_dictionary=["query"], memory_pool=self.pool)
        self.writer.write_batch(out)
        self.rows += out.num_rows

    def close(self) -> bool:
        """True when rows were written (none: the DuckDB path says what it says of that)."""
        if self.writer is None or self.rows == 0:
            return self.given_up()
        self.writer.close()
        return True

    def given_up(self) -> bool:
        if self.writer is not None:
            self.writer.close()
        self.target.unlink(missing_ok=True)
        return False


def _in_turn(items: Iterator[T], use: Callable[[T], None]) -> None:
    """`use(item)` for every item, in order, in a thread of its own while the next item is made:
    pyarrow parses a block and checks and writes the one before at once (both let the GIL go),
    where one after the other kept one core of two busy (its CPU time barely above its wall time).
    At most two items wait (memory stays bounded); the first exception of either side is raised."""
    waiting: queue.Queue = queue.Queue(maxsize=2)
    failed: list[BaseException] = []

    def consume() -> None:
        while (item := waiting.get()) is not _END:
            if not failed:
                try:
                    use(item)
                except BaseException as exc:  # (raised by the caller's thread)
                    failed.append(exc)

    thread = threading.Thread(target=consume, name="text rows", daemon=True)
    thread.start()
    try:
        for item in items:
            if failed:
                break
            waiting.put(item)
    finally:
        waiting.put(_END)  # (the consumer drains what waits: never blocks for ever)
        thread.join()
    if failed:
        raise failed[0]


_END = object()


def _pool() -> pa.MemoryPool:
    """The pool the read allocates from: the C library's, which keeps freed blocks for the next
    batch (and hands them back after the read: `give_back`). The program's own pool returns every
    freed block at once (`core.memory`), which made a big run's read a page fault per block and much
    system time; pyarrow's mimalloc kept its blocks resident after the read, on top of DuckDB's."""
    return pa.system_memory_pool()


def _opened(file: str) -> tuple[pa.NativeFile, pa.NativeFile, str]:
    """(the file, the stream of its text: gunzipped when gzip, its field separator)."""
    head = head_bytes(file)
    codec = compression_of(head)
    if codec not in (None, "gzip"):
        raise _NotAsIs  # (bz2, xz, zstd: the DuckDB path says what it says of them)
    try:
        source = decode(Path(file), head)
    except InputError:  # (empty, or UTF-16 that is not: the DuckDB path says so)
        raise _NotAsIs from None
    if source.file_encoding != "utf-8":
        raise _NotAsIs  # (UTF-16, or not UTF-8 in its first bytes: DuckDB's path refuses it)
    sep = trec_text.separator(source)
    raw = pa.OSFile(file)
    # (the compressed bytes read tell the progress: `raw.tell()`)
    return raw, pa.CompressedInputStream(raw, "gzip") if codec == "gzip" else raw, sep


_OTHER = {"\t": re.compile(b"\t"), " ": re.compile(b" ")}


def _check(batch: pa.RecordBatch, names: tuple[str, ...], number: str, other: str) -> None:
    """Nothing raised when the batch's rows are what the in-memory reader reads from these lines.
    A `#` comment read as a row: `_NotAsIs` (DuckDB's CSV reader skips comments). A field empty
    (two separators in a row), or the other blank inside a field before the number (where the
    in-memory reader splits a field in two): `Irregular`."""
    if pc.any(pc.starts_with(batch.column("query"), "#")).as_py():
        raise _NotAsIs
    for name in names:
        if name == number:
            continue
        values = batch.column(name)
        if len(values) and pc.min(pc.binary_length(values)).as_py() == 0:
            raise Irregular
        if names.index(name) < names.index(number) and _holds(values, other):
            raise Irregular


def _holds(values: pa.Array, blank: str) -> bool:
    """Whether a text column's values hold `blank`: one search of their bytes, end to end (a
    regular expression reads a buffer without copying it)."""
    offsets, data = values.buffers()[1], values.buffers()[2]
    if data is None or len(values) == 0:
        return False
    (start,) = struct.unpack_from("<i", offsets, 4 * values.offset)  # (int32 offsets)
    (end,) = struct.unpack_from("<i", offsets, 4 * (values.offset + len(values)))
    return _OTHER[blank].search(memoryview(data)[start:end]) is not None
