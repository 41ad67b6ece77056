"""How a loaded file was written, kept with the `Dataset` so a save changes only what was edited.

`FileFormat` is a plain record, independent of the parser that filled it: the file's bytes (or
where they are on disk), its encoding and line endings, a CSV's delimiter, header and column
roles, and which query each record belongs to. The writers keep the records of unedited queries
byte for byte and rewrite only the edited ones in the file's own style (`core.writing.rewrite`).

A big file's bytes stay on disk, not in memory (held, they would idle until a save): a save reads them
again (`FileFormat.text_bytes`) after checking that the file is still the one that was loaded
(`OnDisk`); when it is not (changed, moved or deleted since), `FileChanged` tells the writers to
write every line anew in the file's format. A small file's bytes are kept with the dataset, and
what it was on disk too (`OnDisk`): a window can see that another program changed it since.
"""

from __future__ import annotations

import os
import zlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import numpy as np

from ndcg_gui.core.errors import InputError
from ndcg_gui.core.formats.lines import line_bounds
from ndcg_gui.core.formats.source import Source, read_source

FormatKind = Literal["csv", "trec_run", "qrels"]


class FileChanged(InputError):
    """The file a dataset was loaded from changed on disk (or went away) since: its old bytes are
    gone, so a save cannot keep its unedited lines as they were."""


@dataclass(frozen=True)
class OnDisk:
    """Where a loaded file's bytes are, and what they were: the file's size, modification time
    and inode when it was read, and the length and a checksum of the text read from it."""

    path: Path
    size: int
    mtime_ns: int
    inode: int
    length: int
    check: int

    @classmethod
    def of(cls, path: Path, stat: os.stat_result, data: bytes) -> OnDisk:
        return cls(Path(path).absolute(), stat.st_size, stat.st_mtime_ns, stat.st_ino, len(data),
                   _check(data))

    def read(self) -> bytes:
        """The file's text as it was loaded, or `FileChanged`."""
        try:
            stat = self.path.stat()
        except OSError:
            raise FileChanged("is no longer there", self.path) from None
        if (stat.st_size, stat.st_mtime_ns, stat.st_ino) != (self.size, self.mtime_ns, self.inode):
            raise FileChanged("changed on disk since it was opened", self.path)
        data = read_source(self.path).data
        if len(data) != self.length or _check(data) != self.check:
            raise FileChanged("changed on disk since it was opened", self.path)
        return data


def _check(data: bytes) -> int:
    """A checksum of the first and last MiB (with the length, enough to see another file)."""
    return zlib.crc32(data[-(1 << 20):], zlib.crc32(data[: 1 << 20]))


@dataclass(frozen=True, eq=False)
class FileFormat:
    """One loaded file's format and text.

    kind            "csv", "trec_run" or "qrels"
    data            the file's bytes after the byte-order mark (a UTF-16 file converted to UTF-8,
                    a compressed one decompressed); None when they are on disk (`disk`)
    encoding        the codec of `data`: "utf-8", "cp1252" or "latin-1"
    file_encoding   the file's own codec ("utf-16-le" for a UTF-16 file; else as `encoding`)
    bom             the byte-order mark the file started with (b"" for none)
    line_ending     the file's first line break ("\\n", "\\r\\n" or "\\r"), used for rewritten lines
    final_newline   whether the last line ends with a line break
    delimiter       CSV: "," "\\t" ";" or None (runs of spaces); TREC: " " or "\\t" (new lines)
    columns         CSV: each column's role ("query", "doc", "grade", "score", "rank", "" = extra);
                    TREC: the run's or qrels' fixed fields
    header          CSV: the header's cells as spelled, or None when the file has no header
    quote_all       CSV: every cell is in quotes
    decimal_comma   CSV: numbers are written with a decimal comma
    blank_rows      CSV of one column: a blank line is a row (an unjudged document)
    record_query    the query of each record (index into `queries`; -1: the header, a trailing blank
                    line…), in the numbering of the readers' records (blank and comment lines skipped)
    compression     the codec the file was stored with ("gzip", "bz2", "xz", "zstd"; None: plain):
                    a save over it compresses the text again
    """

    kind: FormatKind
    data: bytes | None = field(default=None, repr=False)
    encoding: str = "utf-8"
    file_encoding: str = "utf-8"
    bom: bytes = b""
    line_ending: str = "\n"
    final_newline: bool = True
    delimiter: str | None = ","
    columns: tuple[str, ...] = ()
    header: tuple[str, ...] | None = None
    quote_all: bool = False
    decimal_comma: bool = False
    blank_rows: bool = False
    record_query: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int32), repr=False)
    queries: tuple[str, ...] = ()
    compression: str | None = None
    disk: OnDisk | None = None

    def text_bytes(self) -> bytes:
        """The file's bytes (`data`): held, or read again from disk (`FileChanged` when the file
        is not the one that was loaded)."""
        if self.data is not None:
            return self.data
        if self.disk is None:
            raise FileChanged("was not kept")
        return self.disk.read()

    def comma_may_be_decimal(self) -> bool:
        """Whether a comma in a cell may be the decimal mark, as the reader takes grades and
        scores: a text table whose cells are not split by commas (a query's weight is read so too)."""
        return self.kind == "csv" and self.delimiter != ","

    def first_records(self) -> Mapping[str, int]:
        """Each query's first record: where a rewritten query's lines go."""
        codes, first = np.unique(self.record_query, return_index=True)
        pairs = zip(codes.tolist(), first.tolist(), strict=True)
        return {self.queries[c]: int(r) for c, r in pairs if c >= 0}


def line_ending_of(data: bytes) -> tuple[str, bool]:
    """The first line break of `data` ("\\n" when it has none) and whether `data` ends with one."""
    head = data[: 1 << 16]
    nl, cr = head.find(b"\n"), head.find(b"\r")
    ending = "\n"
    if cr >= 0 and (nl < 0 or cr < nl):
        ending = "\r\n" if head[cr + 1:cr + 2] == b"\n" else "\r"
    return ending, data.endswith((b"\n", b"\r"))


def record_query_codes(records: np.ndarray, query_codes: np.ndarray, n_queries: int) -> np.ndarray:
    """`FileFormat.record_query` from the record index and query code of every data row: int16
    for fewer than 32,767 queries (one a record, kept with the dataset: a quarter of int64)."""
    size = int(records.max()) + 1 if len(records) else 0
    out = np.full(size, -1, np.int16 if n_queries < 2**15 - 1 else np.int32)
    out[records] = query_codes
    return out


# ---- where each record is -------------------------------------------------------------------
def record_spans(fmt: FileFormat, data: bytes) -> tuple[np.ndarray, np.ndarray]:
    """Byte offsets (start, end with its line break) of every record of `data` (the text of
    `fmt`), numbered as the readers number them: blank lines skipped (kept as rows after the first
    record when `blank_rows`), `#` lines skipped in TREC files, a quoted CSV field may span lines."""
    starts, text_ends, ends = line_bounds(data)
    if fmt.kind == "csv" and fmt.delimiter is not None and b'"' in data:
        return _quoted_spans(fmt, data, starts, ends)
    blank_chars = b" " if fmt.delimiter == "\t" else b" \t"
    arr = np.frombuffer(data + b"\n", np.uint8)
    empty = text_ends == starts
    first = np.where(empty, 10, arr[starts])
    indented = ~empty & np.isin(first, np.frombuffer(blank_chars, np.uint8))
    blank = empty.copy()
    comment = first == ord("#")
    for i in np.flatnonzero(indented).tolist():  # few lines start with a space: look at them
        text = data[starts[i]:text_ends[i]].lstrip(blank_chars)
        blank[i] = not text
        comment[i] = text.startswith(b"#")
    if fmt.kind == "csv":
        comment[:] = False
    record = ~blank & ~comment
    if fmt.blank_rows and record.any():
        record |= blank & (np.arange(len(record)) > np.flatnonzero(record)[0])
    keep = np.flatnonzero(record)
    return starts[keep], ends[keep]


def _quoted_spans(fmt: FileFormat, data: bytes, starts: np.ndarray, ends: np.ndarray
                  ) -> tuple[np.ndarray, np.ndarray]:
    """Record spans of a CSV with quoted fields: the readers' own record walk, in lines."""
    source = Source(path=None, data=data, encoding=fmt.encoding)  # type: ignore[arg-type]
    first, last = [], []
    for a, b, _ in source.record_lines(fmt.delimiter, blank_rows=fmt.blank_rows):
        first.append(a - 1)
        last.append(b - 1)
    return starts[np.asarray(first, np.int64)], ends[np.asarray(last, np.int64)]
