"""A run's own `segment` and `weight` columns as each query's segment and weight: the one rule the
window's loader (`qt/document/own_columns.py`), `ndcg-inspect`'s columns (`cli.segments`, through
the same `core.formats.query_map.column_map`) and a notebook's `ndcg_gui.inspect` and
`ndcg_gui.report` read them by, a weight checked by `core.analysis.weights.parse_weight`. A bad cell
is one line naming the file and its line (a frame's: the query), kept in `problems`: the window
opens the run all the same, without that column's map; a notebook refuses it."""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING

from ndcg_gui.core.errors import InputError

if TYPE_CHECKING:
    from ndcg_gui.core.formats.query_map import QueryMap
    from ndcg_gui.core.lists.dataset import Dataset


@dataclass(frozen=True)
class OwnColumns:
    """The maps the run's columns give (None: no such column, or a bad cell in it) and, for a bad
    cell, the one line saying so (`problems`)."""

    segments: QueryMap[str] | None = None
    weights: QueryMap[float] | None = None
    problems: tuple[str, ...] = ()


def own_columns(dataset: Dataset) -> OwnColumns:
    """The `segment` and `weight` columns of the dataset's run, if it has them (any case)."""
    from ndcg_gui.core.formats.query_map import named_column  # lazy: start-up (the window imports this)

    names = tuple(dataset.extra_columns)
    wanted: dict[str, str | None] = {}
    ambiguous: list[str] = []
    for what in ("segment", "weight"):
        try:
            wanted[what] = named_column(names, what, dataset.path)
        except InputError as err:  # (two columns that could be it: neither is read)
            wanted[what] = None
            ambiguous.append(str(err))
    if not any(wanted.values()) or not dataset.in_memory:
        return OwnColumns(problems=tuple(ambiguous))
    from ndcg_gui.core.analysis.weights import parse_weight  # lazy: start-up (pyarrow)
    from ndcg_gui.core.formats.query_map import column_map  # lazy: start-up (the window imports this)

    run = _in_file_order(dataset.run)  # (a query's two values are then named as the file has them)
    from ndcg_gui.core.reading.dispatch import columnar_line, columnar_row  # lazy: start-up (pyarrow)

    # (a Parquet cell by its row, as the command line names it; a file with lines by its line)
    columnar = dataset.file_format is None
    line_of = partial(columnar_line, dataset.path) if columnar else _line_of(dataset, run)
    row_of = partial(columnar_row, dataset.path) if columnar else None
    found: dict[str, QueryMap | None] = {}
    problems: list[str] = ambiguous
    fmt = dataset.file_format
    weight = partial(parse_weight, decimal_comma=fmt is not None and fmt.comma_may_be_decimal())
    for what, parse in (("segment", str), ("weight", weight)):
        column = wanted[what]
        if column is None:
            found[what] = None
            continue
        try:
            found[what] = column_map(run, column, dataset.path, what, parse, line_of, row_of)
        except InputError as err:
            found[what] = None
            problems.append(str(err))
    return OwnColumns(found["segment"], found["weight"], tuple(problems))


def _in_file_order(run):
    from ndcg_gui.core.lists.dataset import ORIGIN  # lazy: start-up (pandas)

    if ORIGIN not in run.columns:
        return run
    return run.iloc[run[ORIGIN].to_numpy().argsort(kind="stable")]


def _line_of(dataset: Dataset, run):
    """A row's record in the file (its `ORIGIN`) -> its line (None: a row added since, or a file
    without lines), read from the file's kept text only when a cell is refused."""
    from ndcg_gui.core.lists.dataset import ORIGIN  # lazy: start-up (pandas)

    fmt = dataset.file_format
    if fmt is None or ORIGIN not in run.columns or dataset.path is None:
        return None

    def line_of(record: int) -> int | None:
        from ndcg_gui.core.formats.source import Source  # lazy: only a refused cell reads its line

        if record < 0:
            return None
        try:
            source = Source(path=dataset.path, data=fmt.text_bytes(), encoding=fmt.encoding)
        except InputError:  # (changed on disk since: the message names the query alone)
            return None
        line, _fields = source.record(record, fmt.delimiter, blank_rows=fmt.blank_rows)
        return line

    return line_of
