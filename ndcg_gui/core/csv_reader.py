"""CSV/TSV ranked lists: delimiter and header detected, column names matched by common aliases.

Parsing is pandas' C engine with every cell read as text; numbers are then converted column-wise,
so a bad cell is found by a vectorised check and reported with its line and column.
"""

from __future__ import annotations

import csv
import io
import re

import numpy as np
import pandas as pd

from ndcg_gui.core.errors import shown
from ndcg_gui.core.source import Cancel, Source, check_cancel, is_blank, split_whitespace

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
    names = [f.strip().strip("\ufeff").lower() for f in fields]
    roles: dict[str, int] = {}
    for role, aliases in ALIASES.items():
        for alias in aliases:  # the first alias listed wins (doc over id)
            if alias in names and names.index(alias) not in roles.values():
                roles[role] = names.index(alias)
                break
    return roles or None


def read_csv(source: Source, need_grade: bool, cancel: Cancel = None) -> pd.DataFrame:
    """Columns query, doc, grade (float, NaN unjudged), and score / rank when the file has them;
    rows in file order. Also column `_record` (0-based record index, header counted) for messages."""
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
    _check_ragged(source, delim, n_fields, header)
    check_cancel(cancel, source.path)

    if need_grade and "grade" not in roles:
        found = ", ".join(shown(f.strip()) for f in first)
        raise source.error(
            f"no grade column: found {found}; a grade column is named one of "
            f"{', '.join(ALIASES['grade'])} (or give --qrels)",
            first_line,
        )
    text_cols = [roles[r] for r in ("query", "doc") if r in roles]
    frame = _parse(source, delim, header, sorted(roles.values()), text_cols, cancel)
    first_record = 1 if header else 0
    columns: dict[str, object] = {}
    n = len(frame)
    strip = _may_need_strip(source.data, delim)
    for role in ("query", "doc"):
        if role in roles:
            columns[role] = _text(frame[roles[role]], strip, b"'" in source.data)
    if "query" not in columns:
        columns["query"] = np.full(n, "", dtype=object)
    if "doc" not in columns:  # a bare list of grades: documents named d1, d2, ... per query
        pos = pd.Series(columns["query"]).groupby(columns["query"], sort=False).cumcount() + 1
        columns["doc"] = ("d" + pos.astype(str)).to_numpy(dtype=object)
    for role, empty_ok in (("grade", True), ("score", False), ("rank", False)):
        if role in roles:
            columns[role] = _numbers(
                source, frame[roles[role]], role, roles[role], delim, first_record, empty_ok
            )
    if "grade" not in columns:
        columns["grade"] = np.full(n, np.nan)
    columns["_record"] = np.arange(first_record, first_record + n)
    return pd.DataFrame(columns)


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
) -> pd.DataFrame:
    """The used columns: ids as text (never numbers: "007" stays "007"), numbers parsed by the C
    engine with an empty cell as NaN; a number column with a bad cell comes back as text."""
    numeric = [c for c in usecols if c not in text_cols]
    try:
        reader = pd.read_csv(
            io.BytesIO(source.data),
            sep=delim if delim is not None else r"\s+",
            header=None,
            skiprows=_header_skip(source, delim) if header else None,
            usecols=usecols,
            dtype=dict.fromkeys(text_cols, object),
            keep_default_na=False,
            na_values={c: [""] for c in numeric},
            skip_blank_lines=True,
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


def _header_skip(source: Source, delim: str | None) -> int:
    """Lines up to and including the header (blank lines before it included)."""
    line, _ = next(source.records(delim))
    return line


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


def _text(values: pd.Series, strip: bool, quotes: bool) -> np.ndarray:
    """Cells as text (stripped when `strip`), with the writer's formula protection removed."""
    s = values.astype(object)
    if strip:
        s = s.str.strip()
    if quotes and s.str.startswith("'").any():
        s = s.str.replace(_PROTECTED, "", regex=True)
    return s.to_numpy(dtype=object)


def _numbers(
    source: Source,
    values: pd.Series,
    role: str,
    column: int,
    delim: str | None,
    first_record: int,
    empty_ok: bool,
) -> np.ndarray:
    """A column as floats; an empty cell is NaN where allowed (grade: unjudged)."""
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
        nums = np.where(bad & np.isfinite(fixed), fixed, nums)
        bad = _bad(nums, empty, empty_ok)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        line, fields = source.record(first_record + i, delim)
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
    return nums


def _cell_text(value: object) -> str:
    if isinstance(value, float):
        return "" if np.isnan(value) else repr(value)
    return str(value)


def _bad(nums: np.ndarray, empty: np.ndarray, empty_ok: bool) -> np.ndarray:
    bad = (np.isnan(nums) & ~empty) | np.isinf(nums)
    return bad if empty_ok else bad | empty
