"""CSV/TSV ranked lists: delimiter and header detected, column names matched by common aliases.

Parsing is pandas' C engine with every cell read as text; numbers are then converted column-wise,
so a bad cell is found by a vectorised check and reported with its line and column.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ndcg_gui.core.errors import shown
from ndcg_gui.core.reading.legacy.source import (
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
_CHUNK_ROWS = 500_000
# A cell the writer protected against spreadsheet formulas: one quote added before = + - @.
_PROTECTED = re.compile(r"^'(?='*[=+\-@])")


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


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def _header_roles(fields: list[str]) -> dict[str, int] | None:
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


def read_csv(source: Source, need_grade: bool, cancel: Cancel = None) -> pd.DataFrame:
    """`read_table`'s rows."""
    return read_table(source, need_grade, cancel)[0]


def read_table(source: Source, need_grade: bool, cancel: Cancel = None) -> tuple[pd.DataFrame, CsvLayout]:
    """Columns query, doc, grade (float, NaN unjudged), and score / rank when the file has them;
    rows in file order. Also column `_record` (0-based record index, header counted) for messages,
    and one text column per extra column of the file (named as in `CsvLayout.extras`)."""
    delim = detect_delimiter(source)
    records = source.records(delim)
    try:
        first_line, first = next(records)
    except StopIteration:
        raise source.error("the file is empty") from None
    roles = _header_roles(first)
    header = roles is not None
    if header and next(records, None) is None:
        raise source.error("has a header but no rows", first_line)
    if roles is None:
        roles = _headerless_roles(source, first, first_line, delim)
    n_fields = len(first)
    blank_rows = n_fields == 1 and roles.get("grade") == 0  # a list of grades: a blank line is unjudged
    _check_ragged(source, delim, n_fields, header)
    check_cancel(cancel, source.path)

    if need_grade and "grade" not in roles:
        found = ", ".join(shown(f.strip()) for f in first)
        raise source.error(
            f"no grade column: found {found}; a grade column is named one of "
            f"{', '.join(ALIASES['grade'])} (or give --qrels)",
            first_line,
        )
    extra_cols = [c for c in range(n_fields) if c not in roles.values()]
    extra_names = _unique_names([first[c] for c in extra_cols], extra_cols)
    text_cols = [roles[r] for r in ("query", "doc") if r in roles] + extra_cols
    usecols = sorted([*roles.values(), *extra_cols])
    frame = _parse(source, delim, header, usecols, text_cols, cancel, blank_rows, first_line)
    first_record = 1 if header else 0
    columns: dict[str, object] = {}
    n = len(frame)
    strip = _may_need_strip(source.data, delim)
    for role in ("query", "doc"):
        if role in roles:
            columns[role] = _ids(source, frame[roles[role]], strip, delim, roles[role], first_record)
    if "query" not in columns:
        columns["query"] = np.full(n, "", dtype=object)
    if "doc" not in columns:  # a bare list of grades: documents named d1, d2, ... per query
        pos = pd.Series(columns["query"]).groupby(columns["query"], sort=False).cumcount() + 1
        columns["doc"] = ("d" + pos.astype(str)).to_numpy(dtype=object)
    comma = False
    for role, empty_ok in (("grade", True), ("score", False), ("rank", False)):
        if role in roles:
            columns[role], used = _numbers(
                source, frame[roles[role]], role, roles[role], delim, first_record, empty_ok, blank_rows
            )
            comma = comma or used
    if "grade" not in columns:
        columns["grade"] = np.full(n, np.nan)
    columns["_record"] = np.arange(first_record, first_record + n)
    for name, c in zip(extra_names, extra_cols, strict=True):
        columns[name] = frame[c].astype(object).to_numpy(dtype=object)
    layout = CsvLayout(
        delimiter=delim,
        columns=tuple(next((r for r, c in roles.items() if c == i), "") for i in range(n_fields)),
        header=tuple(first) if header else None,
        extras=tuple(extra_names),
        decimal_comma=comma,
        quote_all=_quoted_everywhere(source, delim, first_line),
        blank_rows=blank_rows,
    )
    return pd.DataFrame(columns), layout


RESERVED = frozenset({"query", "doc", "grade", "score", "rank", "_record", "_origin"})


def _unique_names(cells: list[str], positions: list[int]) -> list[str]:
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
    if len(cells) == 1 and _is_number(cells[0]):
        return {"grade": 0}
    if len(cells) == 2 and (_is_number(cells[1]) or cells[1] == ""):
        return {"doc": 0, "grade": 1}
    found = ", ".join(shown(c) for c in cells)
    accepted = "; ".join(f"{role}: {', '.join(names)}" for role, names in ALIASES.items())
    raise source.error(
        f"no header naming the columns: found {found}; expected a header with a grade column "
        f"({accepted}), or a header-less list of grades or of document, grade pairs",
        line,
    )


def _check_ragged(source: Source, delim: str | None, expected: int, header: bool) -> None:
    """Every record must have as many fields as the first one (pandas would pad short rows)."""
    if delim is not None and '"' not in source.text:
        # Fast path for big unquoted files: count delimiters per line with numpy.
        arr = np.frombuffer(source.data, np.uint8)
        newline = 10 if b"\n" in source.data else 13
        breaks = np.flatnonzero(arr == newline)
        delims = np.flatnonzero(arr == ord(delim))
        bounds = np.concatenate([[0], breaks + 1, [len(arr) + 1]])
        counts = np.diff(np.searchsorted(delims, bounds)) + 1
        for i in np.flatnonzero(counts != expected).tolist():  # blank lines, or ragged ones
            raw = source.data[bounds[i]: max(bounds[i], bounds[i + 1] - 1)]
            line = raw.decode(source.encoding, "replace")
            if not is_blank(line.rstrip("\r"), delim):
                _ragged(source, i + 1, len(line.split(delim)), expected, header)
        return
    for line, fields in source.records(delim):
        if len(fields) != expected:
            _ragged(source, line, len(fields), expected, header)


def _ragged(source: Source, line: int, found: int, expected: int, header: bool) -> None:
    what = "the header has" if header else "the first line has"
    raise source.error(f"{found} fields, but {what} {expected}", line)


def _parse(
    source: Source,
    delim: str | None,
    header: bool,
    usecols: list[int],
    text_cols: list[int],
    cancel: Cancel,
    blank_rows: bool = False,
    first_line: int = 1,
) -> pd.DataFrame:
    """The used columns: ids as text (never numbers: "007" stays "007"), numbers parsed by the C
    engine with an empty cell as NaN; a number column with a bad cell comes back as text.
    With `blank_rows`, every line after the header (or from the first record on) is a row."""
    numeric = [c for c in usecols if c not in text_cols]
    skip = first_line if header else (first_line - 1 if blank_rows else None)
    try:
        reader = pd.read_csv(
            io.BytesIO(source.data),
            sep=delim if delim is not None else r"\s+",
            header=None,
            skiprows=skip or None,
            usecols=usecols,
            dtype=dict.fromkeys(text_cols, object),
            keep_default_na=False,
            na_values={c: [""] for c in numeric},
            skip_blank_lines=not blank_rows,
            encoding=source.encoding,
            engine="c",
            chunksize=_CHUNK_ROWS,
        )
        chunks = []
        with reader:
            for chunk in reader:
                check_cancel(cancel, source.path)
                chunks.append(chunk)
                source.parsed(sum(map(len, chunks)))
    except (pd.errors.ParserError, ValueError, UnicodeDecodeError) as exc:
        raise source.error(f"cannot be read as a table: {_first_line(exc)}") from None
    if not chunks:
        return pd.DataFrame(columns=usecols)
    return pd.concat(chunks, ignore_index=True) if len(chunks) > 1 else chunks[0]


def _first_line(exc: Exception) -> str:
    return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__


def _may_need_strip(data: bytes, delim: str | None) -> bool:
    """Whether some cell may start or end with a space or tab (checked on the bytes, as stripping
    millions of cells that have none costs seconds)."""
    if delim is None:
        return False  # split on whitespace: no cell has any
    if b'"' in data:
        return True
    spaces = [b" "] if delim == "\t" else [b" ", b"\t"]
    if not any(sp in data for sp in spaces):
        return False
    arr = np.frombuffer(data, np.uint8)
    at = np.flatnonzero(np.isin(arr, [ord(sp) for sp in spaces]))
    edges = np.frombuffer(b"\r\n" + delim.encode(), np.uint8)
    before = np.where(at > 0, arr[np.maximum(at - 1, 0)], ord("\n"))
    after = np.where(at + 1 < len(arr), arr[np.minimum(at + 1, len(arr) - 1)], ord("\n"))
    return bool(np.isin(before, edges).any() or np.isin(after, edges).any())


def _ids(
    source: Source, values: pd.Series, strip: bool, delim: str | None, column: int, first_record: int
) -> np.ndarray:
    """Ids as text: spaces around an unquoted id dropped, a quoted id kept exactly (so an id that
    starts or ends with a space survives a save), the writer's formula protection removed."""
    s = values.astype(object)
    if strip:
        stripped = s.str.strip()
        edged = np.flatnonzero((stripped != s).to_numpy())
        s = stripped
        if len(edged) and b'"' in source.data:
            s = s.copy()
            raw = _raw_cells(source, delim, column, first_record + edged)
            for row, cell in zip(edged.tolist(), raw, strict=True):
                if cell.strip(" \t").startswith('"'):
                    s.iat[row] = unquote(cell, delim or ",")
    if b"'" in source.data and s.str.startswith("'").any():
        s = s.str.replace(_PROTECTED, "", regex=True)
    return s.to_numpy(dtype=object)


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
    values: pd.Series,
    role: str,
    column: int,
    delim: str | None,
    first_record: int,
    empty_ok: bool,
    blank_rows: bool = False,
) -> tuple[np.ndarray, bool]:
    """A column as floats (an empty cell is NaN where allowed: grade, unjudged), and whether some
    cell had a decimal comma."""
    comma = False
    if values.dtype.kind in "iuf":  # the C engine parsed every cell (empty ones as NaN)
        nums = values.to_numpy(dtype=float)
        bad = _bad(nums, np.isnan(nums), empty_ok)
    else:  # some cell is not a plain number: look at the text (decimal commas, messages)
        text = values.map(_cell_text).str.strip()
        empty = (text == "").to_numpy()
        nums = pd.to_numeric(text, errors="coerce").to_numpy(dtype=float)
        bad = _bad(nums, empty, empty_ok)
    # A decimal comma, as spreadsheets in many locales write it.
    if bad.any() and delim != "," and values.dtype.kind not in "iuf":
        fixed = pd.to_numeric(text.str.replace(",", ".", regex=False), errors="coerce").to_numpy(float)
        comma = bool((bad & np.isfinite(fixed)).any())
        nums = np.where(bad & np.isfinite(fixed), fixed, nums)
        bad = _bad(nums, empty, empty_ok)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        line, fields = source.record(first_record + i, delim, blank_rows=blank_rows)
        cell = fields[column].strip() if column < len(fields) else ""  # as the file has it
        if cell == "":
            problem = f"{role} is empty; expected a number"
        elif np.isinf(nums[i]):
            problem = f"{role} {shown(cell)} is not a finite number"
        else:
            problem = f"{role} {shown(cell)} is not a number"
            if role == "grade":
                problem += " (leave the cell empty for an unjudged document)"
        raise source.error(problem, line, column + 1)
    return nums, comma


def _cell_text(value: object) -> str:
    if isinstance(value, float):
        return "" if np.isnan(value) else repr(value)
    return str(value)


def _bad(nums: np.ndarray, empty: np.ndarray, empty_ok: bool) -> np.ndarray:
    bad = (np.isnan(nums) & ~empty) | np.isinf(nums)
    return bad if empty_ok else bad | empty
