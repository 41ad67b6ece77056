"""Other tools' objects read as a `Dataset`, the same one the file readers give.

Accepted for a run or for qrels:
  - a pandas DataFrame, or anything with `to_pandas()` (polars, pyarrow): columns named as in a
    CSV header (`query`/`qid`/`query_id`, `doc`/`docno`/`doc_id`, `grade`/`label`/`relevance`,
    `score`, `rank`; PyTerrier's qid/docno/score/rank and label, ir_measures' query_id/doc_id/
    relevance, ranx's q_id/doc_id/score);
  - a dict of dicts `{query: {doc: score}}` (pytrec_eval, ranx): scores of a run, grades of qrels;
  - an object with `to_dict()` giving such a dict, or `to_dataframe()` (ranx `Run`, `Qrels`);
  - an iterable of named tuples (ir_measures' `ScoredDoc`, `Qrel`; ir_datasets' qrels iterator);
  - bytes (or a bytearray, a memoryview): a file's content, read as that file would be (TREC text,
    CSV, compressed, Parquet…);
  - a path (`str` or `Path`): the file.

The object becomes a table with the readers' column names, written as an Arrow IPC file in a
temporary folder and read by `core.reading.load`: one join, one tie order, one set of checks and
errors for a file and for an object (an error names the run, or "qrels", and the row). Ids keep
the readers' rule: a number is its text (401.0 is "401"), so ids that would become one text from
values of different types (1 and "1") are refused, not merged.
"""

from __future__ import annotations

import hashlib
import numbers
import tempfile
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pandas as pd
import pyarrow as pa

from ndcg_gui.core.errors import InputError, shown
from ndcg_gui.core.formats.csv_text import ALIASES, header_roles, no_roles_problem
from ndcg_gui.core.formats.source import recording_digests
from ndcg_gui.core.reading import load
from ndcg_gui.core.reports.provenance import sha256_of

if TYPE_CHECKING:

    from ndcg_gui.core.lists.dataset import Dataset

# Names other tools give columns that the readers' aliases do not know.
RENAMES = {"q_id": "query", "query_id": "query", "doc_id": "doc", "docno": "doc", "iteration": "iter"}
BYTES = bytes | bytearray | memoryview


@dataclass(frozen=True)
class Loaded:
    """A dataset read from objects, and what names them: a kind and a sha256 of each table."""

    dataset: Dataset
    inputs: dict[str, str]


def as_frame(obj: Any, what: str, label: str | None = None) -> pd.DataFrame:
    """`obj` as a DataFrame with the readers' column names (`what`: "run" or "qrels", which says
    what a dict's values and ranx's `score` column are; `label`: how an error names it, `what`
    unless given)."""
    label = label or what
    value = "grade" if what == "qrels" else "score"
    if isinstance(obj, pd.DataFrame):
        if obj.columns.nlevels > 1:  # (pyarrow would make each column's name a tuple's text)
            some = ", ".join(shown(c) for c in obj.columns[:3]) + ("…" if len(obj.columns) > 3 else "")
            raise InputError(f"the DataFrame's columns have {obj.columns.nlevels} levels of names ({some}); "
                             "expected one (e.g. frame.droplevel(0, axis=1))", label)
        frame = obj.reset_index(drop=not _named_index(obj))
    elif hasattr(obj, "to_pandas") and not isinstance(obj, Mapping):  # polars, pyarrow
        frame = obj.to_pandas()
    elif isinstance(obj, Mapping):
        frame = _from_mapping(obj, value, label)
    elif isinstance(dicts := _to_dict(obj), Mapping):  # ranx Run / Qrels
        frame = _from_mapping(dicts, value, label)
    elif callable(getattr(obj, "to_dataframe", None)):
        frame = obj.to_dataframe()
    elif isinstance(obj, Iterable) and not isinstance(obj, str | BYTES):
        frame = _from_tuples(obj, what, label)
    else:
        raise InputError(f"a {type(obj).__name__} cannot be read as a {what}: give a DataFrame, a dict "
                         "of dicts {query: {doc: value}}, named tuples, a file's path or its bytes", label)
    frame = frame.rename(columns={c: RENAMES.get(str(c), c) for c in frame.columns})
    names = [str(c).lower() for c in frame.columns]
    if what == "qrels" and "score" in names and not {"grade", "relevance", "rel", "label"} & set(names):
        frame = frame.rename(columns={frame.columns[names.index("score")]: "grade"})  # ranx Qrels
    for column in frame.columns:
        values = frame[column]
        # (pandas' own inference first, in C: only a mixed column is walked, to name its values)
        if values.dtype == object and pd.api.types.infer_dtype(values, skipna=True).startswith("mixed"):
            _one_kind(values.dropna(), f"column {shown(column)}", label, says="mixes types")
    return frame


def _kind(value: Any) -> str:
    """What an id is as the readers see it: text, or a number (which becomes its text)."""
    if isinstance(value, str):
        return "str"
    if isinstance(value, numbers.Real) and not isinstance(value, bool):
        return "number"
    return type(value).__name__


def _one_kind(values: Iterable, what: str, label: str, says: str = "mix types") -> None:
    """An `InputError` when `values` hold text and numbers side by side (1 and "1" would become
    one id), or for a value that is neither."""
    first: dict[str, Any] = {}
    for value in values:
        kind = _kind(value)
        if kind not in first:
            first[kind] = value
            if len(first) > 1:
                a, b = first.values()
                raise InputError(f"{what} {says}: {a!r} ({type(a).__name__}) and {b!r} ({type(b).__name__}); "
                                 "expected every one as text (or every one as a number)", label)


def _check_keys(keys: list, what: str, label: str) -> None:
    """Dict keys are ids: text or numbers, of one kind."""
    for key in keys:
        if _kind(key) not in ("str", "number"):
            raise InputError(f"{what} id {key!r} is a {type(key).__name__}; expected text (or a number)",
                             label)
    _one_kind(keys, f"{what} ids", label)


def _to_dict(obj: Any) -> Any:
    """`obj.to_dict()` when it has one that takes no argument, else None."""
    method = getattr(obj, "to_dict", None)
    if not callable(method):
        return None
    try:
        return method()
    except TypeError:
        return None


def _named_index(frame: pd.DataFrame) -> bool:
    """Whether the index holds data (a query or doc id set as index), not row numbers."""
    return any(name is not None for name in frame.index.names)


def _from_mapping(data: Mapping, value: str, label: str) -> pd.DataFrame:
    """The rows of `{query: {doc: value}}`, ids as the dict holds them: a column of numbers becomes
    text in the reader, as a DataFrame's does."""
    rows = []
    for query, docs in data.items():
        if not isinstance(docs, Mapping):
            raise InputError(f"query {query!r} maps to a {type(docs).__name__}, not to {{doc: {value}}}",
                             label)
        rows += [(query, doc, v) for doc, v in docs.items()]
    _check_keys(list(data), "query", label)
    _check_keys([doc for _, doc, _ in rows], "doc", label)
    return pd.DataFrame(rows, columns=["query", "doc", value])


def _from_tuples(items: Iterable, what: str, label: str) -> pd.DataFrame:

    rows = list(items)
    if not rows:
        return pd.DataFrame(columns=["query", "doc", "grade" if what == "qrels" else "score"])
    fields = getattr(rows[0], "_fields", None)
    if fields is None:
        raise InputError(f"a row of type {type(rows[0]).__name__} has no field names: give named tuples "
                         "(query_id, doc_id, score or relevance)", label)
    return pd.DataFrame.from_records(rows, columns=list(fields))


def _check_frame(frame: pd.DataFrame, obj: Any, what: str, label: str, grades_needed: bool) -> None:
    """What the table reader would say of the object in a file's terms (--qrels), said for Python."""
    kind = "dict" if isinstance(obj, Mapping) else type(obj).__name__
    if len(frame) == 0:
        held = "judgment" if what == "qrels" else "document"
        raise InputError(f"the {kind} holds no rows; expected at least one {held}", label)
    names = [str(c) for c in frame.columns]
    roles = header_roles(names) or {}
    found = ", ".join(shown(n) for n in names) or "no columns"
    if not roles:
        raise InputError(no_roles_problem(found), label)
    if grades_needed and "grade" not in roles:
        instead = " (or give its qrels)" if what == "run" else ""
        raise InputError(f"no grade column: found {found}; a grade column is named one of "
                         f"{', '.join(ALIASES['grade'])}{instead}", label)


def _arrow_bytes(frame: pd.DataFrame, label: str) -> bytes:

    try:
        table = pa.Table.from_pandas(frame, preserve_index=False)
    except (pa.ArrowException, TypeError, ValueError, OverflowError) as exc:  # (an int past int64)
        raise InputError(f"cannot be made a table ({exc})", label) from None
    sink = pa.BufferOutputStream()
    with pa.ipc.new_file(sink, table.schema) as writer:
        writer.write_table(table)
    return sink.getvalue().to_pybytes()


def load_objects(run: Any, qrels: Any = None, name: str = "run", need_grades: bool = True) -> Loaded:
    """Read `run` (and its `qrels`) as `load` reads files; a path is read as a file, bytes as a
    file's content."""
    if run is None:
        raise InputError("is None; expected a run: a DataFrame, a dict of dicts {query: {doc: score}}, "
                         "named tuples, a file's path or its bytes", name)
    with tempfile.TemporaryDirectory(prefix="ndcg-objects-") as folder:
        paths, inputs, labels = [], {}, {}
        for obj, what in ((run, "run"), (qrels, "qrels")):
            label = name if what == "run" else "qrels"
            if obj is None:
                paths.append(None)
            elif isinstance(obj, str | Path):
                if isinstance(obj, str) and "\n" in obj and not Path(obj).exists():
                    raise InputError("is a text of several lines, not a file's path: give a file's "
                                     "content as bytes (text.encode())", label)
                paths.append(Path(obj))
                inputs[Path(obj).name] = None  # the sha256 of what `load` reads, below
            else:
                if isinstance(obj, BYTES):  # a file's content: the file readers read it
                    data, how = bytes(obj), "bytes, read as a file"
                else:
                    frame = as_frame(obj, what, label)
                    _check_frame(frame, obj, what, label, what == "qrels" or (qrels is None and need_grades))
                    data, how = _arrow_bytes(frame, label), f"{type(obj).__name__}, as an Arrow table"
                path = Path(folder) / what
                path.write_bytes(data)
                paths.append(path)
                labels[path] = label
                inputs[f"{label} ({how})"] = hashlib.sha256(data).hexdigest()
        try:
            with recording_digests():  # (a pipe is read once: hashed as read)
                dataset = load(paths[0], paths[1], need_grades=need_grades)
                for obj in (run, qrels):
                    if isinstance(obj, str | Path):
                        inputs[Path(obj).name] = sha256_of(obj)
        except InputError as err:
            if err.path is None or Path(err.path).parent != Path(folder):
                raise
            label = labels.get(Path(folder) / err.path.name, err.path.name)
            raise InputError(err.message, label, err.line, err.column) from None
    in_memory = {f: None for f, p in (("path", paths[0]), ("qrels_path", paths[1]))
                 if p is not None and p.parent == Path(folder)}
    if in_memory:  # the temporary files are gone: the dataset names no file
        dataset = replace(dataset, **in_memory,
                          file_format=None if "path" in in_memory else dataset.file_format,
                          qrels_format=None if "qrels_path" in in_memory else dataset.qrels_format)
    return Loaded(dataset, inputs)
