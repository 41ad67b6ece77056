"""Other tools' objects read as a `Dataset`, the same one the file readers give.

Accepted for a run or for qrels:
  - a pandas DataFrame, or anything with `to_pandas()` (polars, pyarrow): columns named as in a
    CSV header (`query`/`qid`/`query_id`, `doc`/`docno`/`doc_id`, `grade`/`label`/`relevance`,
    `score`, `rank`; PyTerrier's qid/docno/score/rank and label, ir_measures' query_id/doc_id/
    relevance, ranx's q_id/doc_id/score);
  - a dict of dicts `{query: {doc: score}}` (pytrec_eval, ranx): scores of a run, grades of qrels;
  - an object with `to_dict()` giving such a dict, or `to_dataframe()` (ranx `Run`, `Qrels`);
  - an iterable of named tuples (ir_measures' `ScoredDoc`, `Qrel`; ir_datasets' qrels iterator).

The object becomes a table with the readers' column names, written as an Arrow IPC file in a
temporary folder and read by `core.reading.load`: one join, one tie order, one set of checks and
errors for a file and for an object (an error names "run" or "qrels" and the row).
"""

from __future__ import annotations

import hashlib
import tempfile
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pandas as pd
import pyarrow as pa

from ndcg_gui.core.errors import InputError
from ndcg_gui.core.formats.source import recording_digests
from ndcg_gui.core.reading import load
from ndcg_gui.core.reports.provenance import sha256_of

if TYPE_CHECKING:

    from ndcg_gui.core.lists.dataset import Dataset

# Names other tools give columns that the readers' aliases do not know.
RENAMES = {"q_id": "query", "query_id": "query", "doc_id": "doc", "docno": "doc", "iteration": "iter"}


@dataclass(frozen=True)
class Loaded:
    """A dataset read from objects, and what names them: a kind and a sha256 of each table."""

    dataset: Dataset
    inputs: dict[str, str]


def as_frame(obj: Any, what: str) -> pd.DataFrame:
    """`obj` as a DataFrame with the readers' column names (`what`: "run" or "qrels", which says
    what a dict's values and ranx's `score` column are)."""
    value = "grade" if what == "qrels" else "score"
    if isinstance(obj, pd.DataFrame):
        frame = obj.reset_index(drop=not _named_index(obj))
    elif hasattr(obj, "to_pandas") and not isinstance(obj, Mapping):  # polars, pyarrow
        frame = obj.to_pandas()
    elif isinstance(obj, Mapping):
        frame = _from_mapping(obj, value, what)
    elif isinstance(dicts := _to_dict(obj), Mapping):  # ranx Run / Qrels
        frame = _from_mapping(dicts, value, what)
    elif callable(getattr(obj, "to_dataframe", None)):
        frame = obj.to_dataframe()
    elif isinstance(obj, Iterable) and not isinstance(obj, str | bytes):
        frame = _from_tuples(obj, what)
    else:
        raise InputError(f"a {type(obj).__name__} cannot be read as a {what}: give a DataFrame, a dict "
                         "of dicts {query: {doc: value}}, or named tuples", what)
    frame = frame.rename(columns={c: RENAMES.get(str(c), c) for c in frame.columns})
    names = [str(c).lower() for c in frame.columns]
    if what == "qrels" and "score" in names and not {"grade", "relevance", "rel", "label"} & set(names):
        frame = frame.rename(columns={frame.columns[names.index("score")]: "grade"})  # ranx Qrels
    return frame


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


def _from_mapping(data: Mapping, value: str, what: str) -> pd.DataFrame:

    rows = []
    for query, docs in data.items():
        if not isinstance(docs, Mapping):
            raise InputError(f"query {query!r} maps to a {type(docs).__name__}, not to {{doc: {value}}}",
                             what)
        rows += [(str(query), str(doc), v) for doc, v in docs.items()]
    return pd.DataFrame(rows, columns=["query", "doc", value])


def _from_tuples(items: Iterable, what: str) -> pd.DataFrame:

    rows = list(items)
    if not rows:
        return pd.DataFrame(columns=["query", "doc", "grade" if what == "qrels" else "score"])
    fields = getattr(rows[0], "_fields", None)
    if fields is None:
        raise InputError(f"a row of type {type(rows[0]).__name__} has no field names: give named tuples "
                         "(query_id, doc_id, score or relevance)", what)
    return pd.DataFrame.from_records(rows, columns=list(fields))


def _arrow_bytes(frame: pd.DataFrame, what: str) -> bytes:

    try:
        table = pa.Table.from_pandas(frame, preserve_index=False)
    except (pa.ArrowException, TypeError, ValueError) as exc:
        raise InputError(f"cannot be made a table ({exc})", what) from None
    sink = pa.BufferOutputStream()
    with pa.ipc.new_file(sink, table.schema) as writer:
        writer.write_table(table)
    return sink.getvalue().to_pybytes()


def load_objects(run: Any, qrels: Any = None, name: str = "run", need_grades: bool = True) -> Loaded:
    """Read `run` (and its `qrels`) as `load` reads files; a path is read as a file."""
    with tempfile.TemporaryDirectory(prefix="ndcg-objects-") as folder:
        paths, inputs = [], {}
        for obj, what in ((run, "run"), (qrels, "qrels")):
            if obj is None:
                paths.append(None)
            elif isinstance(obj, str | Path):
                paths.append(Path(obj))
                inputs[Path(obj).name] = None  # the sha256 of what `load` reads, below
            else:
                data = _arrow_bytes(as_frame(obj, what), what)
                path = Path(folder) / what
                path.write_bytes(data)
                paths.append(path)
                label = f"{name if what == 'run' else 'qrels'} ({type(obj).__name__}, as an Arrow table)"
                inputs[label] = hashlib.sha256(data).hexdigest()
        try:
            with recording_digests():  # (a pipe is read once: hashed as read)
                dataset = load(paths[0], paths[1], need_grades=need_grades)
                for obj in (run, qrels):
                    if isinstance(obj, str | Path):
                        inputs[Path(obj).name] = sha256_of(obj)
        except InputError as err:
            if err.path is None or Path(err.path).parent != Path(folder):
                raise
            raise InputError(err.message, err.path.name, err.line, err.column) from None
    in_memory = {f: None for f, p in (("path", paths[0]), ("qrels_path", paths[1]))
                 if p is not None and p.parent == Path(folder)}
    if in_memory:  # the temporary files are gone: the dataset names no file
        dataset = replace(dataset, **in_memory,
                          file_format=None if "path" in in_memory else dataset.file_format,
                          qrels_format=None if "qrels_path" in in_memory else dataset.qrels_format)
    return Loaded(dataset, inputs)
