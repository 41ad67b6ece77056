"""Parquet, Arrow IPC / Feather and JSON Lines: tables whose columns are named as in a CSV header.

`query`/`qid`, `doc`/`docid`, `grade`/`relevance`/`label`, `score`, `rank` (the CSV reader's
aliases); other columns are kept as text. Ids may be text or numbers (a number becomes its text;
a float id must be whole, 401.0 is the id "401"); numbers are integers, floats, decimals or text
(true/false and other types are refused). `ids_type_problem` and `number_type_problem` say so
for the DuckDB engine too, so every engine reads a column alike. A missing grade (null, or NaN in
a float column) is unjudged. A JSON Lines file is read by pyarrow
when every line has the same types, else line by line, which also names a bad line.
"""

from __future__ import annotations

import json
import re

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ndcg_gui.core.arrays.ids import is_text, whole
from ndcg_gui.core.errors import InputError, shown
from ndcg_gui.core.formats.csv_text import ALIASES, header_roles, no_roles_problem, unique_names
from ndcg_gui.core.formats.doc_weights import check_doc_weights
from ndcg_gui.core.formats.number_text import number_problem, to_floats
from ndcg_gui.core.formats.rows import Rows, empty_id_problem, record_numbers
from ndcg_gui.core.formats.source import LINE_BREAK, Source, is_blank

_NAMES = {"parquet": "Parquet", "feather": "Arrow/Feather", "jsonl": "JSON Lines"}


def read_columnar_table(source: Source, kind: str, need_grade: bool) -> Rows:
    """The rows of a Parquet, Arrow/Feather or JSON Lines file, in file order."""
    table = _table(source, kind)
    names = [str(n) for n in table.column_names]
    roles = header_roles(names) or {}

    line_of = (lambda record: jsonl_line(source, record)) if kind == "jsonl" else None
    error = Rows(None, None, np.zeros(0), source.path, line_of).error

    found = ", ".join(shown(n) for n in names) or "no columns"
    if not roles:  # (with qrels given too: asking for them would not help)
        raise source.error(no_roles_problem(found))
    if "grade" not in roles and need_grade:
        raise source.error(
            f"no grade column: found {found}; a grade column is named one of "
            f"{', '.join(ALIASES['grade'])} (or give --qrels)"
        )
    columns = {role: whole(table.column(i)) for role, i in roles.items()}
    _refuse_missing_ids(columns, error)
    ids = {role: _ids(columns[role], role, error) for role in ("query", "doc") if role in columns}
    numbers = {role: _numbers(columns[role], role, role == "grade", error)
               for role in ("grade", "score", "rank") if role in columns}
    extra = [i for i in range(len(names)) if i not in roles.values()]
    extras = {name: _cells(whole(table.column(i)))
              for name, i in zip(unique_names([names[i] for i in extra], extra), extra, strict=True)}
    rows = Rows(ids.get("query"), ids.get("doc"), record_numbers(0, table.num_rows), source.path, line_of,
                numbers.get("grade"), numbers.get("score"), numbers.get("rank"), extras)
    check_doc_weights(rows)
    return rows


def _table(source: Source, kind: str) -> pa.Table:
    try:
        if kind == "parquet":
            import pyarrow.parquet as pq  # lazy: only a file of this format needs it

            table = pq.read_table(pa.BufferReader(source.data))
        elif kind == "feather":
            table = _arrow_ipc(source.data)
        else:
            table = _jsonl(source)
        # pyarrow decodes the names only when asked: a damaged name (not UTF-8) is refused here
        table.column_names  # noqa: B018
        return table
    except InputError:
        raise
    except (pa.ArrowException, OSError, ValueError) as exc:
        reason = str(exc).strip().splitlines()[0][:160] if str(exc).strip() else type(exc).__name__
        raise source.error(f"cannot be read as a {_NAMES[kind]} file ({reason})") from None


def _arrow_ipc(data: bytes) -> pa.Table:
    """An Arrow IPC file (Feather v2), stream, or Feather v1 file."""
    if data.startswith(b"ARROW1"):
        return pa.ipc.open_file(pa.BufferReader(data)).read_all()
    if data.startswith(b"FEA1"):
        import pyarrow.feather as feather  # lazy: only a file of this format needs it

        return feather.read_table(pa.BufferReader(data))
    return pa.ipc.open_stream(pa.BufferReader(data)).read_all()


# ---- JSON Lines ---------------------------------------------------------------------------------


NESTING_LIMIT = 64  # the deepest nesting of arrays and objects read in a JSON Lines line


def _jsonl(source: Source) -> pa.Table:
    import pyarrow.json as pa_json  # lazy: only a file of this format needs it

    data = source.data if source.encoding == "utf-8" else source.text.encode("utf-8")
    _refuse_deep_nesting(source, data)
    try:
        return pa_json.read_json(pa.BufferReader(data))
    except pa.ArrowInvalid:  # a value of another type than the rows above, or a bad line
        return _jsonl_by_line(source)


def _refuse_deep_nesting(source: Source, data: bytes) -> None:
    """Refuse a line nested deeper than `NESTING_LIMIT` before a parser sees it: pyarrow's crashes
    the process (depth 20,000) and Python's raises RecursionError (from ~1,000). In pieces of
    whole lines (the scan's arrays are several times a piece's size: a whole big file at once would
    peak far above the file), and only lines with more opening brackets than the limit are scanned."""
    if data.count(b"[") + data.count(b"{") <= NESTING_LIMIT:
        return
    line, at = 1, 0
    while at < len(data):
        end = data.find(b"\n", min(at + _NESTING_PIECE, len(data)) - 1)
        end = len(data) if end < 0 else end + 1
        piece = data[at:end]
        deep = _deep_line(piece) if piece.count(b"[") + piece.count(b"{") > NESTING_LIMIT else None
        if deep is not None:
            raise source.error(f"arrays and objects nested more than {NESTING_LIMIT} levels deep, the "
                               "most read; expected one JSON object of columns per line", line + deep)
        line += piece.count(b"\n")
        at = end


_NESTING_PIECE = 4 << 20


def _deep_line(data: bytes) -> int | None:
    """The first line (0-based) of `data` nested deeper than `NESTING_LIMIT`: a scan of the bytes
    that matter (brackets, quotes, line feeds), with escapes blanked and brackets inside strings
    not counted; only lines with more opening brackets than the limit can be."""
    arr = np.frombuffer(data, np.uint8)
    breaks = np.flatnonzero(arr == 10)
    opens = np.flatnonzero((arr == 91) | (arr == 123))
    per_line = np.bincount(np.searchsorted(breaks, opens), minlength=len(breaks) + 1)
    if per_line.max(initial=0) <= NESTING_LIMIT:
        return None
    if b"\\" in data:
        data = re.sub(rb"\\.", b"__", data, flags=re.DOTALL)  # (an escaped quote is no quote)
        arr = np.frombuffer(data, np.uint8)
    at = np.flatnonzero(np.isin(arr, np.frombuffer(b'[]{}"\n', np.uint8)))
    token = arr[at]
    newline = token == 10
    line = np.cumsum(newline) - newline  # the line of each token (0-based)
    quotes = np.cumsum(token == 34)
    line_quotes = np.concatenate([[0], quotes[newline]])[line]
    in_string = (quotes - line_quotes - (token == 34)) % 2 == 1
    opens = (token == 91).astype(np.int64) + (token == 123)
    step = np.where(in_string, 0, opens - (token == 93) - (token == 125))
    depth = np.cumsum(step)
    depth -= np.concatenate([[0], depth[newline]])[line]
    deep = np.flatnonzero(depth > NESTING_LIMIT)
    return int(line[deep[0]]) if len(deep) else None


def _jsonl_by_line(source: Source) -> pa.Table:
    """The file read line by line with Python's json: slower, but any mix of types is read, and
    a line that is not a JSON object is named."""
    rows: list[dict] = []
    for number, line in enumerate(LINE_BREAK.split(source.text), start=1):
        if is_blank(line):
            continue
        try:
            value = json.loads(line)
        except json.JSONDecodeError as exc:
            raise source.error(f"not valid JSON ({exc.msg}); expected one JSON object per line "
                               "(JSON Lines)", number, exc.colno) from None
        if not isinstance(value, dict):
            raise source.error(f"a JSON {type(value).__name__}, not an object; expected one JSON object "
                               "per line (JSON Lines)", number)
        rows.append(value)
    names = list(dict.fromkeys(key for row in rows for key in row))
    return pa.table({name: _column([row.get(name) for row in rows]) for name in names})


def _column(values: list) -> pa.Array:
    """Python values as one Arrow array: as they are when they share a type, else as text."""
    try:
        return pa.array(values)
    except (pa.ArrowInvalid, pa.ArrowTypeError):
        texts = [v if v is None or isinstance(v, str) else json.dumps(v) for v in values]
        return pa.array(texts, pa.string())


def jsonl_line(source: Source, record: int) -> int | None:
    """The line of record `record` (blank lines are not records)."""
    index = -1
    for number, line in enumerate(LINE_BREAK.split(source.text), start=1):
        if not is_blank(line):
            index += 1
            if index == record:
                return number
    return None


# ---- columns ------------------------------------------------------------------------------------


_WHOLE_BELOW = 2.0**53  # a float id past this is no longer one whole number


def number_type_problem(role: str, kind: pa.DataType) -> str | None:
    """Why a column of this type cannot hold `role`'s numbers (None: it can): integers, floats,
    decimals and text (read as the text readers read it) can."""
    if pa.types.is_dictionary(kind):
        kind = kind.value_type
    if (pa.types.is_integer(kind) or pa.types.is_floating(kind) or pa.types.is_decimal(kind)
            or is_text(kind)):
        return None
    return f"{role} holds {kind} values; expected numbers"


def float_id_problem(role: str, value: float) -> str:
    """A float id that is not a whole number, said once for every engine."""
    return (f"{role} {value!r} is not a whole number; a number used as an id must be whole "
            "(or the ids written as text)")


def whole_ids(values: np.ndarray) -> np.ndarray:
    """Where the float ids are whole numbers an int64 holds exactly."""
    with np.errstate(invalid="ignore"):
        return np.isfinite(values) & (np.trunc(values) == values) & (np.abs(values) < _WHOLE_BELOW)


def _refuse_missing_ids(columns: dict[str, pa.Array], error) -> None:
    """The first row missing its query or doc (a null; its query said before its doc) refused
    before any number, as the CSV reader, DuckDB and Spark refuse it."""
    held = [(role, columns[role]) for role in ("query", "doc")
            if role in columns and columns[role].null_count]
    if not held:
        return
    row = min(int(np.flatnonzero(values.is_null().to_numpy(zero_copy_only=False))[0]) for _, values in held)
    role = next(role for role, values in held if not values[row].is_valid)
    raise error(empty_id_problem(role), row)


def _ids(values: pa.Array, role: str, error) -> pa.Array:
    kind = values.type.value_type if pa.types.is_dictionary(values.type) else values.type
    if pa.types.is_floating(kind):  # 401.0 is the id 401, as an integer column would say it
        if pa.types.is_dictionary(values.type):
            values = values.dictionary_decode()
        nums = values.to_numpy(zero_copy_only=False).astype(np.float64)
        whole = whole_ids(nums)
        if not whole.all():
            row = int(np.flatnonzero(~whole)[0])
            raise error(float_id_problem(role, float(nums[row])), row)
        values = pa.array(nums.astype(np.int64))
    return _cells(values)


def _cells(values: pa.Array) -> pa.Array:
    """Any column as text (a missing cell as empty text)."""
    if pa.types.is_dictionary(values.type):
        values = values.dictionary_decode()
    binary = pa.types.is_binary(values.type) or pa.types.is_large_binary(values.type)
    if not is_text(values.type) or binary:
        try:
            values = pc.cast(values, pa.string())
        except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
            values = pa.array([None if v is None else str(v) for v in values.to_pylist()], pa.string())
    return values.fill_null("") if values.null_count else values


def _numbers(values: pa.Array, role: str, empty_ok: bool, error) -> np.ndarray:
    """A column as floats: numbers as they are, text as the text readers read it; empty (null,
    or NaN in a float column) is NaN where allowed (an unjudged grade)."""
    if pa.types.is_dictionary(values.type):
        values = values.dictionary_decode()
    problem = number_type_problem(role, values.type)
    if problem is not None:
        raise error(problem, 0)
    if pa.types.is_integer(values.type) or pa.types.is_floating(values.type) or \
            pa.types.is_decimal(values.type):
        empty = values.is_null().to_numpy(zero_copy_only=False)
        # Unsafe: an integer above 2^53 (a nanosecond timestamp as a score) is its nearest double,
        # as the text readers read it; a safe cast refuses it.
        nums = pc.cast(values, pa.float64(), safe=False).fill_null(np.nan).to_numpy(zero_copy_only=False)
        empty |= np.isnan(nums)
        bad = np.isinf(nums)
        texts = None
    else:
        nums, empty, bad = to_floats(values.fill_null("") if values.null_count else values)
        texts = values
    if not empty_ok:
        bad |= empty
    if bad.any():
        row = int(np.flatnonzero(bad)[0])
        cell = "" if empty[row] else (texts[row].as_py() if texts is not None else repr(float(nums[row])))
        raise error(number_problem(role, cell, bool(np.isinf(nums[row]))), row)
    return nums
