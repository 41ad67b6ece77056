"""Writing a loaded file back: the records of unedited queries byte for byte, edited queries anew.

`splice` takes the file's bytes (`FileFormat.text_bytes`) and swaps each rewritten query's records for
its new lines, placed where the query's first record was (a query new to the file goes at the end).
Blank lines, comments and the header stay where they were. `cells`/`joined` split a record into its
fields as written and put it back together with some fields replaced, so a rewritten line keeps its
quoting and spacing wherever its values did not change.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Mapping, Sequence
from dataclasses import fields

import numpy as np

from ndcg_gui.core.formats.csv_text import split_raw
from ndcg_gui.core.formats.file_format import FileFormat, record_spans

_BLANKS = re.compile(r"([ \t]+)")


class Records:
    """The records of a loaded file, as text (decoded one at a time, when asked)."""

    def __init__(self, fmt: FileFormat) -> None:
        self.fmt = fmt
        self.data = fmt.text_bytes()  # read once per save (`FileChanged` when the file changed)
        self.starts, self.ends = record_spans(fmt, self.data)

    def __len__(self) -> int:
        return len(self.starts)

    def text(self, index: int) -> str | None:
        """Record `index` without its line break, or None when there is no such record."""
        if not 0 <= index < len(self.starts):
            return None
        raw = self.data[self.starts[index]:self.ends[index]].decode(self.fmt.encoding)
        if raw.endswith("\r\n"):
            return raw[:-2]
        return raw[:-1] if raw.endswith(("\r", "\n")) else raw


def rewritten_queries(queries: Sequence[str], edited: frozenset[str], fmt: FileFormat) -> list[str]:
    """The queries whose lines are written anew: those edited since loading (among them any that
    has no line left) and those the file did not have."""
    present = set(queries)
    gone = [q for q in fmt.queries if q in edited and q not in present]
    return [q for q in queries if q in edited or q not in fmt.queries] + gone


def splice(records: Records, blocks: Mapping[str, Sequence[str]]) -> bytes:
    """The file with the records of every query in `blocks` replaced by that query's lines."""
    fmt = records.fmt
    data, starts, ends = records.data, records.starts, records.ends
    codes = {q: i for i, q in enumerate(fmt.queries)}
    rq = np.full(len(starts), -1, np.int64)
    known = min(len(rq), len(fmt.record_query))
    rq[:known] = fmt.record_query[:known]
    rewritten = [codes[q] for q in blocks if q in codes]
    dropped = np.flatnonzero(np.isin(rq, rewritten)) if rewritten else np.zeros(0, np.int64)
    anchors = {r: q for q, r in fmt.first_records().items() if q in blocks}
    ending = fmt.line_ending.encode(fmt.encoding)
    pieces: list[bytes] = []
    cursor, last_is_block = 0, False

    def add_block(query: str) -> None:
        nonlocal last_is_block
        lines = blocks[query]
        if not lines:
            return
        if pieces and pieces[-1] and not pieces[-1].endswith((b"\n", b"\r")):
            pieces.append(ending)
        pieces.append(_encode(fmt.line_ending.join(lines) + fmt.line_ending, fmt))
        last_is_block = True

    for r in dropped.tolist():
        if cursor < starts[r]:
            pieces.append(data[cursor:starts[r]])
            last_is_block = False
        if r in anchors:
            add_block(anchors[r])
        cursor = int(ends[r])
    if cursor < len(data):
        pieces.append(data[cursor:])
        last_is_block = False
    placed = set(anchors.values())
    for query in blocks:
        if query not in placed:
            add_block(query)
    out = b"".join(pieces)
    if last_is_block and not fmt.final_newline and out.endswith(ending):
        out = out[: -len(ending)]
    return out


class _NotEncodable(Exception):
    pass


def _encode(text: str, fmt: FileFormat) -> bytes:
    try:
        return text.encode(fmt.encoding)
    except UnicodeEncodeError as exc:
        raise _NotEncodable from exc


def file_bytes(fmt: FileFormat, records: Records, blocks: Mapping[str, Sequence[str]]) -> bytes:
    """`splice` in the file's own encoding, after its byte-order mark. When a new value cannot be
    written in a single-byte encoding (a "→" in a Windows-1252 file), the whole file is written
    as UTF-8 with a byte-order mark instead: nothing is lost, and spreadsheets read it right."""
    try:
        body = splice(records, blocks)
    except _NotEncodable:
        utf8 = FileFormat(**{**_fields(fmt), "data": records.data.decode(fmt.encoding).encode("utf-8"),
                             "disk": None,
                             "encoding": "utf-8", "file_encoding": "utf-8", "bom": codecs.BOM_UTF8})
        return file_bytes(utf8, Records(utf8), blocks)
    if fmt.file_encoding != fmt.encoding:  # UTF-16: read as UTF-8, written back as it was
        body = body.decode(fmt.encoding).encode(fmt.file_encoding)
    return fmt.bom + body


def _fields(fmt: FileFormat) -> dict:

    return {f.name: getattr(fmt, f.name) for f in fields(fmt)}


# ---- fields of one record ---------------------------------------------------------------------
def cells(text: str, delimiter: str | None) -> list[str]:
    """A record's fields as written (quotes and spaces kept). With `delimiter` None (runs of spaces
    and tabs) the separators are kept too: fields and separators alternate, so `joined` can put
    the line back exactly."""
    if delimiter is None:
        return _BLANKS.split(text)

    return split_raw(text, delimiter)


def field_positions(parts: list[str], delimiter: str | None) -> list[int]:
    """Index in `parts` of each field (with `delimiter` None, separators are skipped)."""
    if delimiter is not None:
        return list(range(len(parts)))
    return [i for i in range(0, len(parts), 2) if parts[i] != ""]


def joined(parts: list[str], delimiter: str | None) -> str:
    return "".join(parts) if delimiter is None else delimiter.join(parts)
