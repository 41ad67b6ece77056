"""CSV/TSV ranked lists: delimiter and header detected, column names matched by common aliases.

The first records (header, delimiter, roles) are read in Python; the rows are parsed by pyarrow's
CSV reader (ids straight into Arrow arrays, numbers as floats). Anything wrong is then located by
walking the records (`Source.records`), so a message names its line and column.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pa_csv

from ndcg_gui.core.arrays.ids import edge_spaced, whole
from ndcg_gui.core.errors import shown
from ndcg_gui.core.formats.doc_weights import check_doc_weights
from ndcg_gui.core.formats.number_text import is_number_text, number_problem, to_floats
from ndcg_gui.core.formats.rows import Rows, chunks_of, empty_id_problem, record_numbers
from ndcg_gui.core.formats.source import (
    LINE_BREAK,
    Cancel,
    Source,
    check_cancel,
    is_blank,
    lines,
    split_whitespace,
)

ALIASES: dict[str, tuple[str, ...]] = {
    "query": ("query", "qid", "query_id", "topic"),
    "doc": ("doc", "docid", "doc_id", "docno", "document", "item", "id"),
    "grade": ("grade", "relevance", "rel", "label", "judgment", "rating"),
    "score": ("score", "sim", "prediction"),
    "rank": ("rank", "position"),
}
DELIMITERS = (",", "\t", ";")
_NAMES = {"\t": "tab", ",": "comma", ";": "semicolon", None: "whitespace"}
_HEAD = 1 << 20
_BLANKS = re.compile(rb"[ \t]+")
_EDGE_SPACE = re.compile(rb"(?:(?<=[\r\n])|\A) | (?=[\r\n]|\Z)")


def detect_delimiter(source: Source) -> str | None:
    """The delimiter that splits the first lines into the same number (> 1) of fields; None means
    runs of whitespace. Falls back to ',' for a single column."""
    head = source.head()
    lines = [ln for ln in re.split(r"\r\n|\r|\n", head)[:-1 if len(head) >= 1 << 16 else None] if ln.strip()]
    lines = lines[:20]
    best: tuple[int, str] | None = None
    for delim in DELIMITERS:
        counts = [len(row) for row in csv.reader(io.StringIO("\n".join(lines)), delimiter=delim)]
        counts = [c for c in counts if c]
        consistent = counts and counts[0] > 1 and all(c == counts[0] for c in counts)
        if consistent and (best is None or counts[0] > best[0]):
            best = (counts[0], delim)
    if best is not None:
        return best[1]
    first = lines[0] if lines else ""
    for delim in DELIMITERS:  # inconsistent, but clearly delimited: let the ragged check speak
        if delim in first:
            return delim
    return None if len(split_whitespace(first)) > 1 else ","


def no_roles_problem(found: str) -> str:
    """What a table whose columns no alias names lacks (`found`: its column names, quoted)."""
    return (f"no column names a query, doc, grade or score: found {found}; expected columns named "
            f"as {', '.join(a[0] for a in ALIASES.values())} (or their aliases)")


def header_roles(fields: list[str]) -> dict[str, int] | None:
    """Role → column index when the first record is a header (some name is an alias), else None."""
    # "Doc ID", "doc-id" and "doc_id" are one name.
    names = [re.sub(r"[ \-]+", "_", f.strip().strip("\ufeff").lower()) for f in fields]
    roles: dict[str, int] = {}
    for role, aliases in ALIASES.items():
        for alias in aliases:  # the first alias listed wins (doc over id)
            if alias in names and names.index(alias) not in roles.values():
                roles[role] = names.index(alias)
                break
    return roles or None


@dataclass(frozen=True)
class CsvLayout:
    """How a CSV file is laid out, for writing it back the same way.

    columns       each column's role ("query", "doc", "grade", "score", "rank"), or "" for a column
                  the reader does not use (title, url…), which is carried as an extra column
    header        the header's cells as the file spells them, or None for a header-less file
    extras        names of the extra columns, in file order (the header's, made unique)
    blank_rows    a one-column file: each line after the first record is a row (blank = unjudged)
    """

    delimiter: str | None
    columns: tuple[str, ...]
    header: tuple[str, ...] | None
    extras: tuple[str, ...] = ()
    decimal_comma: bool = False
    quote_all: bool = False
    blank_rows: bool = False


def read_csv_table(source: Source, need_grade: bool, cancel: Cancel = None) -> tuple[Rows, CsvLayout]:
    """The rows (query, doc, grade with NaN = unjudged, score / rank when the file has them, and
    the other columns as text, named as in `CsvLayout.extras`), in file order, and the layout."""
    delim = detect_delimiter(source)
    head = _first_records(source, delim)
    if not head:
        raise source.error("the file is empty")
    first_line, header_end, first = head[0]
    roles = header_roles(first)
    header = roles is not None
    if header and len(head) < 2:
        raise source.error("has a header but no rows", first_line)
    if roles is None:
        roles = _headerless_roles(source, first, first_line, delim)
    n_fields = len(first)
    blank_rows = n_fields == 1 and roles.get("grade") == 0  # a list of grades: a blank line is unjudged
    numbers = {roles[r]: r for r in ("grade", "score", "rank") if r in roles}
    table, ragged = _parse(source, delim, n_fields, header_end + 1 if header else first_line,
                           numbers, blank_rows, cancel)
    if ragged:  # the records as Python's csv module reads them decide
        _check_ragged(source, delim, n_fields, header, first_line if header else None, table.num_rows)
    _refuse_open_quote(source, delim)  # (after the faults of earlier lines: the first is named)
    check_cancel(cancel, source.path)

    if need_grade and "grade" not in roles:
        found = ", ".join(shown(f.strip()) for f in first)
        raise source.error(
            f"no grade column: found {found}; a grade column is named one of "
            f"{', '.join(ALIASES['grade'])} (or give --qrels)",
            first_line,
        )
    first_record = 1 if header else 0
    n = table.num_rows
    if n_fields == 1 and not blank_rows:  # a line of spaces in a one-column file is no row
        keep = _not_blank(whole(table.column(0)))
        if keep is not None:
            table = table.take(pa.array(keep))
            n = table.num_rows
    records = record_numbers(first_record, first_record + n)
    # The parsed columns, each let go once converted (the table would hold them all to the end);
    # chunks are kept as they are (joining them would copy every id).
    cells = dict(enumerate(table.columns))
    del table

    ids = {r: _ids(source, cells.pop(roles[r]), delim, roles[r], records)
           for r in ("query", "doc") if r in roles}
    _refuse_empty_ids(source, ids, roles, delim, records, blank_rows)
    comma = False
    values: dict[str, np.ndarray] = {}
    # An empty score is allowed beside a rank column (the rank places the row: a document
    # inserted by hand has no score of its own); without ranks the scores give the order.
    for role, empty_ok in (("grade", True), ("score", "rank" in roles), ("rank", False)):
        if role in roles:
            values[role], used = _numbers(source, cells.pop(roles[role]), role, roles[role], delim,
                                          records, empty_ok, blank_rows)
            comma = comma or used
    extra_cols = [c for c in range(n_fields) if c not in roles.values()]
    extra_names = unique_names([first[c] for c in extra_cols], extra_cols)
    rows = Rows(ids.get("query"), ids.get("doc"), records, source.path,
                lambda record: source.record(record, delim, blank_rows=blank_rows)[0],
                values.get("grade"), values.get("score"),
                values.get("rank"), {n: cells.pop(c) for n, c in zip(extra_names, extra_cols, strict=True)})
    check_doc_weights(rows, decimal_comma=delim != ",")
    layout = CsvLayout(
        delimiter=delim,
        columns=tuple(next((r for r, c in roles.items() if c == i), "") for i in range(n_fields)),
        header=tuple(first) if header else None,
        extras=tuple(extra_names),
        decimal_comma=comma,
        quote_all=_quoted_everywhere(source, delim, first_line),
        blank_rows=blank_rows,
    )
    return rows, layout


def _refuse_open_quote(source: Source, delim: str | None) -> None:
    """A quote that opens a cell and is never closed makes the rest of the file one cell (its rows
    silently gone): refused, naming the line where it opened. Quotes that open cells and close
    them come in pairs (a doubled quote inside too), so only a file with an odd count of quotes is
    walked; a quote inside an unquoted cell (`5" screen`) is text, as in the parsers."""
    data = source.data
    if delim is None or data.count(b'"') % 2 == 0:
        return
    text = source.text
    opener = re.compile(r'(?:^|(?<=[\r\n' + re.escape(delim) + r']))"', re.MULTILINE)
    pos = 0
    while (found := opener.search(text, pos)) is not None:
        close = found.end()
        while True:  # the quote that closes the cell: one not doubled
            close = text.find('"', close)
            if close < 0:
                line = len(LINE_BREAK.findall(text, 0, found.start())) + 1
                raise source.error("a quote opened on this line is never closed (expected a closing \" "
                                   "before the end of the file)", line)
            if not text.startswith('"', close + 1):
                break
            close += 2
        pos = close + 1


def _first_records(source: Source, delim: str | None) -> list[tuple[int, int, list[str]]]:
    """(first line, last line, fields) of the first two records, read from the head of the file
    when it holds them (decoding a whole big file for its header would cost seconds)."""
    if len(source.data) > _HEAD:
        cut = max(source.data.rfind(b"\n", 0, _HEAD), source.data.rfind(b"\r", 0, _HEAD))
        if cut > 0:
            part = Source(source.path, source.data[:cut + 1], source.encoding)
            found = _two_records(part, delim)
            if len(found) == 2:
                return found
    return _two_records(source, delim)


def _two_records(source: Source, delim: str | None) -> list[tuple[int, int, list[str]]]:
    found = []
    for record in source.record_lines(delim):
        found.append(record)
        if len(found) == 2:
            break
    return found


RESERVED = frozenset({"query", "doc", "grade", "score", "rank", "_record", "_origin"})


def unique_names(cells: list[str], positions: list[int]) -> list[str]:
    """Names for the extra columns: the header's (trimmed), else "column N"; a name already
    taken (by another column or the reader's own) gets " (2)", " (3)"…"""
    names: list[str] = []
    for cell, pos in zip(cells, positions, strict=True):
        base = cell.strip().strip("\ufeff") or f"column {pos + 1}"
        name, n = base, 1
        while name in RESERVED or name in names:
            n += 1
            name = f"{base} ({n})"
        names.append(name)
    return names


def _quoted_everywhere(source: Source, delim: str | None, line: int) -> bool:
    """Whether every cell of the first record is in quotes (the file quotes all cells)."""
    if delim is None or '"' not in source.head():
        return False
    text = next((raw for i, raw in enumerate(lines(source.head()), start=1) if i == line), "")
    cells = split_raw(text, delim)
    return all(c.strip(" \t").startswith('"') and c.strip(" \t").endswith('"') for c in cells)


def split_raw(text: str, delim: str) -> list[str]:
    """A record's cells as written (quotes and spaces kept), split on `delim` outside quotes."""
    cells, start, quoted = [], 0, False
    for i, ch in enumerate(text):
        if ch == '"':
            quoted = not quoted
        elif ch == delim and not quoted:
            cells.append(text[start:i])
            start = i + 1
    cells.append(text[start:])
    return cells


def unquote(cell: str, delim: str = ",") -> str:
    """The value of one raw cell: surrounding spaces dropped; a quoted cell's content exactly."""
    core = cell.strip(" \t")
    if len(core) >= 2 and core[0] == '"' and core[-1] == '"':
        return next(csv.reader([core], delimiter=delim))[0] if delim != '"' else core[1:-1]
    return core


def _headerless_roles(source: Source, first: list[str], line: int, delim: str | None) -> dict[str, int]:
    cells = [f.strip() for f in first]
    if len(cells) == 1 and is_number_text(cells[0]):
        return {"grade": 0}
    if len(cells) == 2 and (is_number_text(cells[1]) or cells[1] == ""):
        return {"doc": 0, "grade": 1}
    found = ", ".join(shown(c) for c in cells)
    accepted = "; ".join(f"{role}: {', '.join(names)}" for role, names in ALIASES.items())
    raise source.error(
        f"no header naming the columns: found {found}; expected a header with a grade column "
        f"({accepted}), or a header-less list of grades or of document, grade pairs",
        line,
    )


def _check_ragged(source: Source, delim: str | None, expected: int, header: bool, header_line: int | None,
                  rows: int) -> None:
    """The error of the first record whose number of fields is not the first one's; when there is
    none (the lines pyarrow set aside were blank ones), the records must be the rows read."""
    count = 0
    for line, fields in source.records(delim):
        if len(fields) != expected:
            if any("\n" in f or "\r" in f for f in fields):  # a quote ran on past its line
                raise source.error('a quote opened on this line is not closed on it (expected a closing ")',
                                   line)
            _ragged(source, line, len(fields), expected, header)
        count += line != header_line
    if count != rows:
        source.refuse_long_lines()
        _refuse_open_quote(source, delim)
        raise source.error("cannot be read as a table: a quoted cell is not closed, or its quotes "
                           "break the CSV rules")


def _ragged(source: Source, line: int, found: int, expected: int, header: bool) -> None:
    what = "the header has" if header else "the first line has"
    raise source.error(f"{found} fields, but {what} {expected}", line)


def _parse(source: Source, delim: str | None, width: int, start_line: int, numbers: dict[int, str],
           blank_rows: bool, cancel: Cancel) -> tuple[pa.Table, bool]:
    """Every record from line `start_line` on, by pyarrow: ids and other cells as text (never
    numbers: "007" stays "007"), number columns as floats with an empty cell as null, or as
    text when some cell is not a plain number. Also whether some line had the wrong number of
    fields (lines of spaces only are skipped, as blank). With `blank_rows`, every line is a row."""
    data = source.data
    start = _line_start(data, start_line)
    sep = delim
    if delim is None:  # runs of spaces and tabs: made single spaces, lines stripped of them
        data, start, sep = _EDGE_SPACE.sub(b"", _BLANKS.sub(b" ", data[start:])), 0, " "
    quoted = b'"' in data
    ragged: list[bool] = []

    def odd_line(row) -> str:
        if not is_blank(row.text, delim):
            ragged.append(True)  # a short or long record, or a blank one in quotes: the walk says
        return "skip"

    names = [f"c{i}" for i in range(width)]
    read = pa_csv.ReadOptions(column_names=names, encoding="utf8" if source.encoding == "utf-8" else
                              source.encoding, block_size=4 << 20)
    parse = pa_csv.ParseOptions(delimiter=sep, quote_char='"' if quoted else False, double_quote=True,
                                newlines_in_values=quoted, ignore_empty_lines=not blank_rows,
                                invalid_row_handler=odd_line)
    buffer = pa.py_buffer(data)
    if start:
        buffer = buffer.slice(start)
    for as_text in (False, True):
        types = {name: pa.float64() if i in numbers and not as_text else pa.string()
                 for i, name in enumerate(names)}
        convert = pa_csv.ConvertOptions(column_types=types, strings_can_be_null=False,
                                        quoted_strings_can_be_null=False, null_values=[""])
        ragged.clear()
        check_cancel(cancel, source.path)
        try:
            return pa_csv.read_csv(pa.BufferReader(buffer), read, parse, convert), bool(ragged)
        except pa.ArrowInvalid:
            if not as_text and numbers:
                continue  # a number column with a cell that is not a plain number
            source.refuse_long_lines()
            _refuse_open_quote(source, delim)
            raise source.error("cannot be read as a table: a quoted cell is not closed, or a "
                               "cell breaks the CSV quoting rules") from None
    raise AssertionError("unreachable")


def _line_start(data: bytes, line: int) -> int:
    """Byte offset where 1-based line `line` starts."""
    at = 0
    for _ in range(line - 1):
        nl, cr = data.find(b"\n", at), data.find(b"\r", at)
        ends = [e for e in (nl, cr) if e >= 0]
        if not ends:
            return len(data)
        end = min(ends)
        at = end + 2 if data[end:end + 2] == b"\r\n" else end + 1
    return at


def _not_blank(cells: pa.Array) -> np.ndarray | None:
    """Rows of a one-column file that are not lines of spaces (which are blank, not rows), or
    None when all are."""
    blank = pc.equal(pc.binary_length(pc.utf8_trim(cells, " \t")), 0).to_numpy(zero_copy_only=False)
    blank &= pc.greater(pc.binary_length(cells), 0).to_numpy(zero_copy_only=False)
    if not blank.any():
        return None
    return np.flatnonzero(~blank)


def _ids(source: Source, values: pa.ChunkedArray, delim: str | None, column: int, records: np.ndarray
         ) -> pa.Array | pa.ChunkedArray:
    """Ids as text: spaces around an unquoted id dropped, a quoted id kept exactly (so an id that
    starts or ends with a space survives a save). Nothing else is changed: an id `'-abc` is
    `'-abc`, as its qrels line spells it."""
    if not len(values):
        return values
    # Looked for before trimming: trimming makes a copy of every id even when none has a space.
    edged = np.flatnonzero(edge_spaced(values))
    if len(edged):
        stripped = pc.utf8_trim(values, " \t")
        values = stripped
        if b'"' in source.data:
            raw = _raw_cells(source, delim, column, records[edged])
            pairs = zip(edged.tolist(), raw, strict=True)
            quoted = [(row, unquote(cell, delim or ",")) for row, cell in pairs
                      if cell.strip(" \t").startswith('"')]
            if quoted:
                mask = np.zeros(len(values), bool)
                mask[[row for row, _ in quoted]] = True
                values = pc.replace_with_mask(whole(values), pa.array(mask), pa.array([v for _, v in quoted],
                                                                                         values.type))
    return values


def _refuse_empty_ids(source: Source, ids: dict, roles: dict[str, int], delim: str | None,
                      records: np.ndarray, blank_rows: bool) -> None:
    """A row missing its query or doc (an empty cell, or spaces only) is refused by its line, the
    first such row (its query before its doc), as DuckDB and Spark refuse it (`empty_id_problem`)."""
    lengths = [pc.binary_length(values) for values in ids.values()]
    if all(not len(n) or pc.min(n).as_py() > 0 for n in lengths):  # (one pass: no empty id)
        return
    empty = [pc.equal(n, 0).to_numpy(zero_copy_only=False) for n in lengths]
    row = int(np.flatnonzero(np.logical_or.reduce(empty))[0])
    role = next(r for r, e in zip(ids, empty, strict=True) if e[row])
    line, _ = source.record(int(records[row]), delim, blank_rows=blank_rows)
    raise source.error(empty_id_problem(role), line, roles[role] + 1)


def _raw_cells(source: Source, delim: str | None, column: int, records: np.ndarray) -> list[str]:
    """The raw text (quotes and spaces kept) of one column in some records (one pass)."""
    wanted = {int(r): i for i, r in enumerate(records)}
    starts = [0] + [m.end() for m in LINE_BREAK.finditer(source.text)]
    cells = [""] * len(records)
    for index, (first, last, _) in enumerate(source.record_lines(delim)):
        if index in wanted:
            end = starts[last] if last < len(starts) else len(source.text)
            text = source.text[starts[first - 1]:end].rstrip("\r\n")
            raw = split_raw(text, delim) if delim is not None else split_whitespace(text)
            cells[wanted[index]] = raw[column] if column < len(raw) else ""
    return cells


def _numbers(
    source: Source,
    cells: pa.ChunkedArray,
    role: str,
    column: int,
    delim: str | None,
    records: np.ndarray,
    empty_ok: bool,
    blank_rows: bool = False,
) -> tuple[np.ndarray, bool]:
    """A column as floats (an empty cell is NaN where allowed: grade, unjudged), and whether some
    cell had a decimal comma."""
    comma = False
    if pa.types.is_floating(cells.type):  # pyarrow read every cell as a number (empty: null)
        nums, empty = np.empty(len(cells)), np.empty(len(cells), bool)
        chunks = chunks_of(cells)
        del cells  # (the list is then the chunks' only holder: each is let go once copied)
        at = 0
        for i, chunk in enumerate(chunks):
            chunks[i] = None
            empty[at:at + len(chunk)] = chunk.is_null().to_numpy(zero_copy_only=False)  # ("nan" is no null)
            nums[at:at + len(chunk)] = chunk.to_numpy(zero_copy_only=False)  # (a null becomes NaN)
            at += len(chunk)
            del chunk
        bad = _bad(nums, empty, empty_ok)
    else:  # some cell is not a plain number: look at the text (decimal commas, messages)
        cells = whole(cells)
        nums, empty, bad = to_floats(cells)
        if not empty_ok:
            bad = bad | empty
        # A decimal comma, as spreadsheets in many locales write it.
        if bad.any() and delim != ",":
            fixed, _, _ = to_floats(pc.replace_substring(cells, ",", "."))
            use = bad & np.isfinite(fixed)
            comma = bool(use.any())
            nums = np.where(use, fixed, nums)
            bad = bad & ~use
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        line, fields = source.record(int(records[i]), delim, blank_rows=blank_rows)
        cell = fields[column].strip() if column < len(fields) else ""  # as the file has it
        raise source.error(number_problem(role, cell, bool(np.isinf(nums[i]))), line, column + 1)
    return nums, comma


def _bad(nums: np.ndarray, empty: np.ndarray, empty_ok: bool) -> np.ndarray:
    """Cells that are not finite numbers (NaN text, infinities; empty ones unless `empty_ok`).
    In place: one mask a row at a time, not five (this runs while the file's bytes are held)."""
    bad = np.isnan(nums)
    if empty_ok:
        bad &= ~empty  # (an empty cell is NaN too: allowed)
    else:
        bad |= empty
    bad |= np.isinf(nums)
    return bad
