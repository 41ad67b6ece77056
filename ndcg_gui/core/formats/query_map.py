"""A value for each query: its segment or its weight, from a two-column file or a column of a run.

A file holds lines `query<TAB>value` (`ndcg-inspect --segments FILE`, `--weights FILE`): blank
lines and lines starting with `#` are skipped, a first line `query<TAB>segment` (the value's name)
is a header, and spaces around either field are trimmed, as the readers trim CSV ids. It is read
by `read_source`, as a run is: a pipe or /dev/stdin once, a named pipe that no program writes to
refused after a wait, a binary file or device (/dev/zero) refused from its first bytes, compressed
text decompressed; and refused past `MAX_MAP_BYTES`, as the recovery files are, since one line
per query never comes near it. A column of a run (`segment`, `weight`) gives each query the value
of its rows, which must agree.

Either way a query has one value: a query given two (two segments, two weights) is refused in one
line naming both, so a mean is never counted under the wrong segment without a word.
"""

from __future__ import annotations

import math
import os
import re
import stat as stat_kind
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Generic, TypeVar

from ndcg_gui.core.errors import InputError, file_name, shown
from ndcg_gui.core.formats.source import LINE_BREAK, check_readable, read_source

if TYPE_CHECKING:
    import pandas as pd

V = TypeVar("V")
# Far past one line per query of the largest runs read (tens of bytes a query): a bigger file is
# another file given by mistake, refused before it is read.
MAX_MAP_BYTES = 256 << 20
MAX_MAP_TEXT = "256 MiB"
_QUERY_NAMES = ("query", "qid", "query_id", "topic")
_ORIGIN = "_origin"  # (`core.lists.dataset.ORIGIN`: each row's record in the file it was read from)


class ValueProblem(ValueError):
    """What is wrong with one value, in words: a `parse` raises it, the reader names the line."""


@dataclass(frozen=True)
class QueryMap(Generic[V]):
    """Each query's value (`values`), read from `origin` (a file, or a run's column).

    what    the value's name in messages: "segment", "weight"
    lines   where each query was first given, for messages ("line 4"; a column: "rows of query")
    """

    values: dict[str, V]
    what: str
    origin: str  # "segments.tsv", or 'column "segment" of run.csv'
    path: Path | None = None
    lines: dict[str, int] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.values)

    def error(self, message: str, query: str | None = None) -> InputError:
        """An `InputError` about this map (about `query`'s line when the file gave one)."""
        line = self.lines.get(query) if query is not None else None
        if self.path is None:
            return InputError(f"{self.origin}: {message}")
        return InputError(message, self.path, line)


def respelled(keys: Iterable[str], left: Iterable[str], limit: int = 3) -> str:
    """A tail for a message about queries `left` without a value while the map has `keys`: the
    keys that are another spelling of one of their numbers (a file's "1.0" against a Parquet float
    id read as "1", `formats.columnar`; "01" against "1"), as `ids match as text: "1.0" is not "1"`;
    "" when none is. Keys match ids as text, for segments and weights alike: no spelling is guessed."""
    by_number: dict[float, str] = {}
    for query in left:
        if (number := _number(query)) is not None:
            by_number.setdefault(number, query)
    if not by_number:
        return ""
    ids = set(by_number.values())
    pairs = [(key, by_number[number]) for key in keys
             if key not in ids and (number := _number(key)) is not None and number in by_number]
    if not pairs:
        return ""
    listed = ", ".join(f"{shown(key)} is not {shown(query)}" for key, query in pairs[:limit])
    return f"ids match as text: {listed}" + (", ..." if len(pairs) > limit else "")


def _number(text: str) -> float | None:
    """The number an id spells (Python's float; what it reads is only compared), else None."""
    try:
        value = float(text)
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def _text_value(text: str) -> str:
    return text


def read_query_map(path: str | Path, what: str, parse: Callable[[str], V] = _text_value) -> QueryMap[V]:
    """The file's `query<TAB>value` lines as a `QueryMap`; `parse` turns a value's text into the
    value (raising `ValueProblem` to refuse it). An `InputError` naming the file and line for a
    line that is not two fields split by a tab, an empty query or value, a value `parse` refuses,
    or a query given two different values."""
    path = check_readable(path)
    _refuse_too_big(path, os.stat(path))
    source = read_source(path)
    if source.container != "text":
        raise InputError(f"is a {source.container.capitalize()} file; expected text lines "
                         f"query<TAB>{what}", path)
    if len(source.data) > MAX_MAP_BYTES:  # (a pipe, or a compressed file, read past the limit)
        raise InputError(f"holds more than {MAX_MAP_TEXT}, the most a {what}s file may; expected one "
                         f"line query<TAB>{what} per query", path)
    values: dict[str, V] = {}
    first_line: dict[str, int] = {}
    header_seen = False
    # (split in one call: a pattern search per line was most of the read)
    for number, line in enumerate(LINE_BREAK.split(source.text), start=1):
        if not line.strip(" \t") or line.startswith("#"):
            continue
        fields = line.split("\t")
        if not header_seen:
            header_seen = True
            if _is_header(fields, what):
                continue
        if len(fields) != 2:
            raise InputError(_shape_problem(fields, what), path, number)
        query, text = fields[0].strip(" "), fields[1].strip(" ")
        if not query:
            raise InputError(f"the query is empty; expected query<TAB>{what}", path, number)
        if not text:
            raise InputError(f"the {what} of query {shown(query)} is empty; expected query<TAB>{what}",
                             path, number)
        try:
            value = parse(text)
        except ValueProblem as problem:
            raise InputError(f"query {shown(query)}: {problem}", path, number) from None
        if query in values and values[query] != value:
            raise InputError(f"query {shown(query)} has two {what}s: {shown(_said(values[query]))} "
                             f"(line {first_line[query]}) and {shown(text)}; give each query one",
                             path, number)
        values.setdefault(query, value)
        first_line.setdefault(query, number)
    if not values:
        raise InputError(f"holds no line query<TAB>{what}", path)
    return QueryMap(values, what, file_name(path), path, first_line)


def column_map(
    run: pd.DataFrame, column: str, path: str | Path | None, what: str,
    parse: Callable[[str], V] = _text_value,
    line_of: Callable[[int], int | None] | None = None,
    row_of: Callable[[int], int | None] | None = None,
) -> QueryMap[V]:
    """Each query's value from `column` of `run` (columns `query` and `column`, cells as text):
    every row of a query holds the same value (spaces around it trimmed; `1` and `1.0` are one
    weight: values are compared as `parse` reads them); a query whose cells are all empty has
    none. An `InputError` naming the query for two values (an empty cell beside a value counts as
    a second one) or a value `parse` refuses, and the line: `line_of` a row's record (the run's
    `_origin` column), when both are known; else its row, `row_of` a record (Parquet's, 1-based),
    as the readers name a Parquet cell."""
    origin = f"column {shown(column)}" + (f" of {file_name(path)}" if path is not None else "")
    cells = run[column].fillna("").astype(str).str.strip(" ")
    distinct = cells.groupby(run["query"].astype(str), sort=False).unique()
    records = run.get(_ORIGIN)

    def error(message: str, query: str, cell: str) -> InputError:
        """`message` about the first row of `query` holding `cell`, by its line when known."""
        line = row = None
        if records is not None and (line_of or row_of) is not None and path is not None:
            at = ((run["query"].astype(str) == query) & (cells == cell)).to_numpy().argmax()
            line = line_of(int(records.iloc[at])) if line_of is not None else None
            row = row_of(int(records.iloc[at])) if line is None and row_of is not None else None
        if row is not None:
            return InputError(f"row {row}: column {shown(column)}: {message}", path)
        if line is None:
            return InputError(f"{origin}: {message}")
        return InputError(f"column {shown(column)}: {message}", path, line)

    values: dict[str, V] = {}
    for query, found in distinct.items():
        query = str(query)
        read: dict[str, V | None] = {}
        for cell in found:
            try:
                read[cell] = parse(cell) if cell != "" else None
            except ValueProblem as problem:
                raise error(f"query {shown(query)}: {problem}", query, cell) from None
        kinds = list({repr(v): c for c, v in read.items()}.values())  # (one cell a value)
        if len(kinds) > 1:
            named = " and ".join(shown(c) if c else "an empty cell" for c in kinds[:2])
            raise error(f"query {shown(query)} has two {what}s on its rows: {named}; "
                        f"give every row of a query its one {what}", query, kinds[1])
        if read[found[0]] is not None:
            values[query] = read[found[0]]
    return QueryMap(values, what, origin, None, {})


def named_column(columns: list[str] | tuple[str, ...], name: str, path: str | None = None) -> str | None:
    """The column called `name` (case and surrounding spaces aside), or None. Two such columns
    (`weight` and `Weight`, or `weight` twice, which the CSV reader names `weight (2)`) are
    refused in one line: the first was taken without a word."""
    same = [c for c in columns if re.fullmatch(rf"{re.escape(name)}(?: \(\d+\))?", str(c).strip().lower())]
    if len(same) > 1:
        raise InputError(f"has {len(same)} columns that could be its {name}: {', '.join(map(shown, same))}; "
                         f"expected one (rename the others)", path)
    return same[0] if same and str(same[0]).strip().lower() == name else None


def _is_header(fields: list[str], what: str) -> bool:
    return (len(fields) == 2 and fields[0].strip(" ").lower() in _QUERY_NAMES
            and fields[1].strip(" ").lower() == what)


def _shape_problem(fields: list[str], what: str) -> str:
    expected = f"expected query<TAB>{what}"
    if len(fields) == 1:
        spaced = len(fields[0].split()) > 1
        hint = " (the two fields are split by spaces: use a tab)" if spaced else ""
        return f"{expected}, found no tab{hint}"
    return f"{expected}, found {len(fields)} fields split by tabs"


def _said(value: object) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def _refuse_too_big(path: Path, info: os.stat_result) -> None:
    if stat_kind.S_ISREG(info.st_mode) and info.st_size > MAX_MAP_BYTES:
        raise InputError(f"is {info.st_size / (1 << 20):,.0f} MiB, over the {MAX_MAP_TEXT} a file of one "
                         "line per query may hold; is it the right file?", path)
