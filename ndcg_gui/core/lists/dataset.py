"""What a loaded file holds: ranked lists of one or many queries, and the judged pool when known.

`Dataset` is what every reader of one sees; `FrameDataset` holds the rows as pandas frames. Its
`run` keeps every query's rows together (queries in order of first appearance) and each query's
rows in ranked order, with each row's grade: the loader joined run and judgments and ranked the
rows once (`core.arrays.join`, `core.arrays.order`), so scoring is arithmetic on these arrays and
one query's list is a slice, whatever the size of the file. Ids are held as Arrow text (pandas'
Arrow-backed `str` columns): a loaded file makes no Python string per row; a list becomes Python
strings when it is asked for (`ranked_list`). One typed list is a `TypedDataset`
(`typed_dataset.py`).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Literal

import numpy as np

from ndcg_gui.core.lists.ranked_list import RankedList
from ndcg_gui.core.ndcg.measure import Measure

# pandas, pyarrow, `core.arrays` and `evaluate` are imported where a frame or an Arrow array is made
# (`lazy: start-up`): importing this module (as `TypedDataset`, the window's first screen, does)
# imports neither.
if TYPE_CHECKING:
    import pandas as pd
    import pyarrow as pa

    from ndcg_gui.core.arrays.ids import Groups
    from ndcg_gui.core.formats.file_format import FileFormat

# What a dataset was read from: a text table, a TREC run or qrels, typed in, or a columnar file
# (which Save does not write back: the window saves it through Save As, as CSV or a run).
Kind = Literal["csv", "trec_run", "qrels", "typed", "parquet", "feather", "jsonl"]
ORIGIN = "_origin"  # column of `Dataset.run` / `Dataset.qrels`: the row's record in the loaded file
SUMMARY_COLUMNS = ["query", "n_docs", "n_judged", "dcg", "idcg", "ndcg"]


@cache
def text_dtype():
    import pandas as pd  # lazy: start-up

    try:  # pandas >= 2.3: text held in Arrow, NaN for missing (pandas 3's default `str`)
        return pd.StringDtype("pyarrow", na_value=np.nan)
    except (TypeError, ImportError):
        return object


def text_column(values) -> pd.Series:
    """Ids or cells as a text column held in Arrow (from an Arrow string array without a copy)."""
    import pandas as pd  # lazy: start-up
    import pyarrow as pa  # lazy: start-up

    from ndcg_gui.core.arrays.ids import labels  # lazy: start-up

    text = text_dtype()
    if isinstance(values, pa.Array | pa.ChunkedArray):
        if text is not object and (pa.types.is_string(values.type) or pa.types.is_large_string(values.type)):
            return values.to_pandas()
        values = labels(values if isinstance(values, pa.Array) else values.combine_chunks())
    return pd.Series(np.asarray(values, dtype=object), dtype=text)


def frame_of(query, doc, grade, score=None, origin=None, extras=None) -> pd.DataFrame:
    """Rows of `Dataset.run` / `Dataset.qrels` from their columns (ids as Arrow text)."""
    import pandas as pd  # lazy: start-up

    columns = {
        "query": text_column(query),
        "doc": text_column(doc),
        "grade": np.asarray(grade, dtype=float),
    }
    if score is not None:
        columns["score"] = np.asarray(score, dtype=float)
    if origin is not None:
        columns[ORIGIN] = origin_array(origin)
    for name, values in (extras or {}).items():
        columns[name] = text_column(values)
    return pd.DataFrame(columns)


def origin_array(records) -> np.ndarray:
    """Records as the `_origin` column holds them: int32 (one number a row of every loaded file,
    half the memory of int64), int64 only past 2**31 records (as `formats.rows` numbers them)."""
    records = np.asarray(records)
    if records.dtype == np.int32:
        return records
    wide = len(records) > 0 and (int(records.max()) >= 2**31 or int(records.min()) < -2**31)
    return records.astype(np.int64 if wide else np.int32)


def _grouped(frame: pd.DataFrame, what: str) -> tuple[pd.DataFrame, Groups]:
    """`frame` with each query's rows together (first appearance first, stable) and its groups."""
    from ndcg_gui.core.arrays.ids import Groups, strings  # lazy: start-up

    groups = Groups.of(strings(frame["query"], f"{what} query"))
    if groups.starts is None:
        order = np.argsort(groups.codes, kind="stable")
        frame = frame.iloc[order]
        groups = Groups(groups.codes[order], groups.labels, groups.sizes,
                        np.cumsum(groups.sizes) - groups.sizes)
    return frame.reset_index(drop=True), groups


def _list_frame(
    rl: RankedList, query: str, score: bool, origin: bool, extras: tuple[str, ...]
) -> pd.DataFrame:
    """One edited list as rows of `Dataset.run` (extra cells it lacks are blank)."""
    n = len(rl)
    scores = rl.scores if rl.scores is not None else np.full(n, np.nan)
    origins = rl.origin if rl.origin is not None else np.full(n, -1)
    cells = {name: rl.extras.get(name, np.full(n, "", dtype=object)) for name in extras}
    return frame_of([query] * n, rl.docs, rl.grades, scores if score else None,
                    origins if origin else None, cells)


def judgment_rows(rl: RankedList) -> tuple[list, list]:
    """A list's judgments as its qrels hold them: (docs, grades) of its judged rows, then of the
    judged documents it did not retrieve."""
    judged = rl.judged
    docs = list(rl.docs[judged]) + list(rl.unretrieved)
    return docs, list(rl.grades[judged]) + list(rl.unretrieved.values())


def _pool_frame(dataset: FrameDataset, query: str, rl: RankedList) -> pd.DataFrame:
    """The judgments of an edited list of `dataset` (`judgment_rows`), each with the record it had
    in the qrels file when the document was judged there."""
    docs, grades = judgment_rows(rl)
    origin = None
    rows = dataset.rows
    if rows.qrels is not None and ORIGIN in rows.qrels:
        a, b = rows.pool.get(query, (0, 0))
        records = dict(zip(_texts(rows.pool_docs, a, b).tolist(),
                           rows.qrels[ORIGIN].iloc[a:b].tolist(), strict=True))
        origin = [records.get(d, -1) for d in docs]
    return frame_of([query] * len(docs), docs, grades, origin=origin)


@dataclass(frozen=True, eq=False, kw_only=True)
class Dataset(ABC):
    """Ranked lists of one or many queries and (optionally) the judged pool: what the window,
    the writers and the analyses read. Two kinds, alike to every reader: `FrameDataset`, rows in
    pandas frames (a loaded file, or any dataset once edited: `Dataset.of`), and `TypedDataset`
    (`core/lists/typed_dataset.py`), one list typed in, which answers from the list itself so
    that the window's first screen imports neither pandas nor pyarrow.

    run    columns query (str), doc (str), grade (float, NaN = unjudged: the grade the list holds,
           the one scored; `with_qrels` judges the lists anew) and optionally score;
           each query's rows together and in ranked order (the order was settled when loading:
           by rank, else by score with trec_eval's tie rule, else file order). Read from a file,
           also `_origin` (the row's record in the file, -1 for a row added since) and one text
           column per name in `extra_columns` (the file's other columns: title, url…).
    qrels  columns query, doc, grade (and `_origin`): every judged document, or None when the
           pool is unknown.

    `file_format` / `qrels_format` remember how the loaded files were written (`FileFormat`), and
    `edited` the queries whose lists changed since (`with_lists`): a save keeps every other
    query's lines as they were.
    """

    path: Path | None = None
    qrels_path: Path | None = None
    kind: Kind = "csv"
    tag: str | None = None  # a TREC run's tag (its sixth field), written again when it is saved
    extra_columns: tuple[str, ...] = ()
    file_format: FileFormat | None = None
    qrels_format: FileFormat | None = None
    edited: frozenset[str] = frozenset()

    @staticmethod
    def of(run: pd.DataFrame, qrels: pd.DataFrame | None = None, **about) -> FrameDataset:
        """A dataset of these rows (`Dataset.run`, `Dataset.qrels`), grouped by query once, here;
        `about`: the fields (path, kind, tag…)."""
        return FrameDataset.of(run, qrels, **about)

    def about(self) -> dict:
        """The fields every dataset has (path, kind, tag, formats, edited), by name."""
        return {f.name: getattr(self, f.name) for f in fields(Dataset)}

    # ---- reading ----------------------------------------------------------------------------
    @property
    @abstractmethod
    def run(self) -> pd.DataFrame: ...

    @property
    @abstractmethod
    def qrels(self) -> pd.DataFrame | None: ...

    @property
    @abstractmethod
    def has_pool(self) -> bool: ...

    @property
    @abstractmethod
    def has_scores(self) -> bool: ...

    @abstractmethod
    def queries(self) -> list[str]:
        """Every query: those with results in file order, then judged queries without results."""

    @abstractmethod
    def unjudged_queries(self) -> list[str]:
        """Queries with results but no judgment at all while the pool is known: trec_eval (and
        `evaluate`) leave them out, as nothing can be said of them."""

    @abstractmethod
    def queries_without_results(self) -> list[str]:
        """Judged queries the run returned nothing for: trec_eval -c (and `evaluate`) score them 0."""

    @abstractmethod
    def __len__(self) -> int: ...

    def has_query(self, query: str) -> bool:
        """Whether `query` is one of `queries()`."""
        return query in set(self.queries())

    def answered_queries(self) -> set[str]:
        """The queries with at least one document in their list."""
        without = set(self.queries_without_results())
        return {q for q in self.queries() if q not in without}

    def row_count(self) -> int:
        """Rows the dataset stands for (run and judgments): what keeping it for undo costs, and
        whether scoring it all takes longer than a frame."""
        return len(self.run) + (0 if self.qrels is None else len(self.qrels))

    def refuses(self, measure) -> str | None:
        """Why this dataset cannot be scored under `measure` (a `Measure`), in one line; None: it
        can (every in-memory dataset can)."""
        return None

    @property
    def in_memory(self) -> bool:
        """Whether `run` and `qrels` are frames in memory (False: read where they lie by an
        engine, `core.sql.engine_dataset`; ask the methods above instead)."""
        return True

    def at_hand(self, query: str) -> bool:
        """Whether `ranked_list(query)` answers at once (False: it reads files, e.g. an engine's
        `WHERE query = ?`, which a window does in the background)."""
        return True

    def keep(self, query: str) -> None:  # noqa: B027 (a no-op for datasets that hold every list)
        """`ranked_list(query)` is asked again and again from now on (the query is edited): a
        dataset that reads lists when asked keeps this one once read (now, if it was), whatever
        is read after. It reads nothing (a read of a big file on the GUI thread froze the window):
        a list not read yet is read in the background (`Workspace.read_all`). All others hold
        every list."""

    @abstractmethod
    def ranked_list(self, query: str) -> RankedList:
        """The ranked list of one query, with its judged but unretrieved documents (KeyError for
        a query the dataset does not have)."""

    # ---- changing ---------------------------------------------------------------------------
    @abstractmethod
    def with_lists(self, lists: Mapping[str, RankedList]) -> FrameDataset:
        """A copy in which the given queries hold the given (edited) lists; others unchanged
        (`FrameDataset.with_lists`)."""

    @abstractmethod
    def with_qrels(self, qrels: pd.DataFrame | None) -> FrameDataset:
        """The same lists judged by other qrels (`FrameDataset.with_qrels`)."""

    # ---- scoring ----------------------------------------------------------------------------
    @abstractmethod
    def evaluate(self, measure: Measure | None = None) -> pd.DataFrame:
        """`core.ndcg.evaluate`'s table of every query under `measure` (`FrameDataset.evaluate`)."""

    def summary(self, measure: Measure | None = None) -> pd.DataFrame:
        """One row per scored query, in `queries()` order: query, n_docs, n_judged, dcg, idcg,
        ndcg at the measure's k. Judged queries without results score 0; queries without any
        judgment are left out when the pool is known (as trec_eval does)."""
        return summary_table(self.evaluate((measure or Measure()).per_query()), self.queries())


@dataclass(frozen=True, eq=False)
class GroupedRows:
    """A dataset's frames with each query's rows together (queries in order of first appearance),
    and what `ranked_list` and scoring slice from them: the arrays converted once, not per call
    (ids stay Arrow text). Made by `GroupedRows.of` before the dataset that holds them."""

    run: pd.DataFrame
    qrels: pd.DataFrame | None
    groups: Groups
    pool_groups: Groups | None
    slices: dict[str, tuple[int, int]]  # query -> its rows of `run`
    pool: dict[str, tuple[int, int]]  # query -> its rows of `qrels`
    queries: list[str]  # `Dataset.queries()`
    docs: pa.Array
    grades: np.ndarray
    scores: np.ndarray | None
    extras: dict[str, pa.Array]
    origin: np.ndarray | None
    pool_docs: pa.Array | None
    pool_grades: np.ndarray | None

    @classmethod
    def of(cls, run: pd.DataFrame, qrels: pd.DataFrame | None, extra_columns: tuple[str, ...]) -> GroupedRows:
        from ndcg_gui.core.arrays.ids import same_buffers, strings  # lazy: start-up

        run, groups = _grouped(run, "run")
        names = [str(q) for q in groups.labels]
        slices = _spans(names, groups)
        pool: dict[str, tuple[int, int]] = {}
        queries = list(names)
        pool_groups = pool_docs = pool_grades = None
        if qrels is not None:
            if len(qrels) == len(run) and same_buffers(strings(qrels["query"], "qrels query"),
                                                       strings(run["query"], "run query")):
                # A qrels file read alone: its lists are its judgments, the same rows, so the
                # same groups (one array of codes a row, not two).
                qrels, pool_groups = qrels.reset_index(drop=True), groups
            else:
                qrels, pool_groups = _grouped(qrels, "qrels")
            pool_names = [str(q) for q in pool_groups.labels]
            pool = _spans(pool_names, pool_groups)
            queries = every_query(names, pool_names)
            pool_docs = strings(qrels["doc"], "qrels doc")
            pool_grades = qrels["grade"].to_numpy(dtype=float)
        return cls(
            run=run,
            qrels=qrels,
            groups=groups,
            pool_groups=pool_groups,
            slices=slices,
            pool=pool,
            queries=queries,
            docs=strings(run["doc"], "run doc"),
            grades=run["grade"].to_numpy(dtype=float),
            scores=run["score"].to_numpy(dtype=float) if "score" in run else None,
            extras={n: _cells(run[n]) for n in extra_columns},
            origin=run[ORIGIN].to_numpy() if ORIGIN in run else None,
            pool_docs=pool_docs,
            pool_grades=pool_grades,
        )


def _spans(names: list[str], groups: Groups) -> dict[str, tuple[int, int]]:
    """Each query's rows (start, stop) in the grouped frame."""
    starts = groups.starts if groups.starts is not None else np.zeros(0, np.int64)
    return {q: (int(a), int(a + n)) for q, a, n in zip(names, starts, groups.sizes, strict=True)}


@dataclass(frozen=True, eq=False, kw_only=True)
class FrameDataset(Dataset):
    """A dataset whose rows are pandas frames (`Dataset.run`, `Dataset.qrels`), grouped by query
    when it is made (`Dataset.of`): `dataset.rows`. Ids are held as Arrow text (pandas'
    Arrow-backed `str` columns): a loaded file makes no Python string per row; a list becomes
    Python strings when it is asked for (`ranked_list`)."""

    rows: GroupedRows = field(repr=False)

    @classmethod
    def of(cls, run: pd.DataFrame, qrels: pd.DataFrame | None = None, **about) -> FrameDataset:
        extra_columns = tuple(about.pop("extra_columns", ()))
        edited = frozenset(about.pop("edited", ()))
        return cls(rows=GroupedRows.of(run, qrels, extra_columns), extra_columns=extra_columns,
                   edited=edited, **about)

    def _with_frames(self, run: pd.DataFrame, qrels: pd.DataFrame | None, **about) -> FrameDataset:
        """A copy holding other rows (grouped anew) and, by name, other fields."""
        extra_columns = tuple(about.get("extra_columns", self.extra_columns))
        return replace(self, rows=GroupedRows.of(run, qrels, extra_columns), **about)

    # ---- reading ----------------------------------------------------------------------------
    @property
    def run(self) -> pd.DataFrame:
        return self.rows.run

    @property
    def qrels(self) -> pd.DataFrame | None:
        return self.rows.qrels

    @property
    def has_pool(self) -> bool:
        return self.rows.qrels is not None

    @property
    def has_scores(self) -> bool:
        return self.rows.scores is not None

    def queries(self) -> list[str]:
        return list(self.rows.queries)

    def unjudged_queries(self) -> list[str]:
        if not self.has_pool:
            return []
        return [q for q in self.rows.slices if q not in self.rows.pool]

    def queries_without_results(self) -> list[str]:
        return [q for q in self.rows.queries if q not in self.rows.slices]

    def __len__(self) -> int:
        return len(self.rows.queries)

    def has_query(self, query: str) -> bool:
        return query in self.rows.slices or query in self.rows.pool

    def ranked_list(self, query: str) -> RankedList:
        r = self.rows
        if query not in r.slices and query not in r.pool:
            raise KeyError(f"no query {query!r}")
        start, stop = r.slices.get(query, (0, 0))
        docs = _texts(r.docs, start, stop)
        unretrieved: dict[str, float] = {}
        if self.has_pool and query in r.pool:
            a, b = r.pool[query]
            listed = set(docs.tolist())
            unretrieved = {
                d: g
                for d, g in zip(_texts(r.pool_docs, a, b).tolist(), r.pool_grades[a:b].tolist(), strict=True)
                if d not in listed
            }
        return RankedList(
            docs=docs,
            grades=r.grades[start:stop],
            scores=None if r.scores is None else r.scores[start:stop],
            query=query,
            unretrieved=unretrieved,
            has_pool=self.has_pool,
            extras={name: _texts(values, start, stop) for name, values in r.extras.items()},
            origin=None if r.origin is None else r.origin[start:stop],
        )

    # ---- changing ---------------------------------------------------------------------------
    def with_lists(self, lists: Mapping[str, RankedList]) -> FrameDataset:
        """A copy in which the given queries hold the given (edited) lists; others unchanged.

        With a known pool, an edited query's judgments become the list's judged documents plus
        its unretrieved ones, so a changed grade changes the pool too. The file's other columns
        and each row's origin travel with the lists; a query whose list differs from the one it
        had is counted in `edited`.
        """
        import pandas as pd  # lazy: start-up

        r = self.rows
        has_score = self.has_scores or any(rl.scores is not None for rl in lists.values())
        has_origin = ORIGIN in self.run
        extras = self.extra_columns + tuple(
            dict.fromkeys(n for rl in lists.values() for n in rl.extras if n not in self.extra_columns)
        )
        known = set(r.queries)
        order = r.queries + [q for q in lists if q not in known]
        changed = {q for q, rl in lists.items() if q not in known or rl != self.ranked_list(q)}
        run_parts, pool_parts = [], []
        for q in order:
            if q in lists:
                rl = lists[q]
                run_parts.append(_list_frame(rl, q, has_score, has_origin, extras))
                if self.qrels is not None:
                    pool_parts.append(_pool_frame(self, q, rl))
            else:
                a, b = r.slices.get(q, (0, 0))
                part = self.run.iloc[a:b]
                if has_score and "score" not in part:
                    part = part.assign(score=np.nan)
                missing = [n for n in extras if n not in part]
                if missing:
                    part = part.assign(**{n: "" for n in missing})
                run_parts.append(part)
                if self.qrels is not None and q in r.pool:
                    a, b = r.pool[q]
                    pool_parts.append(self.qrels.iloc[a:b])
        columns = ["query", "doc", "grade"] + (["score"] if has_score else [])
        columns += ([ORIGIN] if has_origin else []) + list(extras)
        run = pd.concat(run_parts, ignore_index=True)[columns] if run_parts else frame_of([], [], [])
        qrels = None
        if self.qrels is not None:
            pool_columns = [c for c in ("query", "doc", "grade", ORIGIN) if c in self.qrels]
            qrels = (
                pd.concat(pool_parts, ignore_index=True)[pool_columns]
                if pool_parts
                else self.qrels.iloc[:0]
            )
        return self._with_frames(run, qrels, extra_columns=extras, edited=self.edited | changed)

    def with_qrels(self, qrels: pd.DataFrame | None) -> FrameDataset:
        """The same lists judged by other qrels (columns query, doc, grade): each row's grade is
        looked up in them (the loader's join, done here once), and they become the pool. With
        None, every row is unjudged and the pool unknown."""
        from ndcg_gui.core.arrays.ids import strings  # lazy: start-up
        from ndcg_gui.core.arrays.join import lookup  # lazy: start-up

        if qrels is None:
            return self._with_frames(self.run.assign(grade=np.nan), None)
        r = self.rows
        pool, pool_groups = _grouped(qrels[["query", "doc", "grade"]], "qrels")
        index = {str(q): i for i, q in enumerate(r.groups.labels)}
        table = np.array([index.setdefault(str(q), len(index)) for q in pool_groups.labels], np.int64)
        pool_codes = table[pool_groups.codes] if len(pool_groups.codes) else pool_groups.codes
        grade = lookup(r.groups.codes, r.docs, pool_codes, strings(pool["doc"], "qrels doc"),
                       pool["grade"].to_numpy(dtype=float))
        return self._with_frames(self.run.assign(grade=grade), pool)

    # ---- scoring ----------------------------------------------------------------------------
    def evaluate(self, measure: Measure | None = None) -> pd.DataFrame:
        """`core.ndcg.evaluate`'s table of every query under `measure`, with the grades the lists
        hold (nothing is joined again).

        A loaded file's lists are in exact score order; each is ranked by the one rule
        (`core.arrays.order`): its runs of tied scores, compared at the definition's precision
        (`Measure.score_precision`), put by doc id ("trec") or file order ("file", "average": neighbours
        with equal scores then share their mean gain). A list of rows without a file, or an edited
        list, is scored in the order it stands (as the window scores one list,
        `metrics.dcg_idcg_at`, proven equal in `tests/core/ndcg/test_evaluate.py`).
        """
        from ndcg_gui.core.arrays.order import order_ties, score_key  # lazy: start-up
        from ndcg_gui.core.ndcg.evaluate import (  # lazy: start-up
            Pool,
            doc_weights,
            score_ranked,
            sorted_union,
        )

        measure = measure or Measure()
        ties = measure.ties
        r = self.rows
        weight = doc_weights(r.run, measure)  # (None unless the measure applies them)
        groups, pool_groups = r.groups, r.pool_groups
        labels = [groups.labels] + ([pool_groups.labels] if pool_groups is not None else [])
        queries, to_query = sorted_union(*labels)
        codes, grade, tie_key, scores = groups.codes, r.grades, None, r.scores
        if scores is not None and len(scores):
            key = score_key(scores, measure.score_precision)
            if r.origin is not None:
                rank_key = key
                if self.edited:  # an edited list as it stands: a falling key, no ties
                    edited = np.array([str(q) in self.edited for q in groups.labels], bool)
                    rank_key = np.where(edited[codes], -np.arange(len(key), dtype=float), key)
                order = order_ties(codes, rank_key, r.docs if ties == "trec" else None,
                                   None if ties == "trec" else r.origin)
                codes, grade, key = codes[order], grade[order], key[order]
                weight = None if weight is None else weight[order]
            if ties == "average":
                tie_key = key  # `score_ranked` averages runs of equal neighbours (NaN never ties)
        row_query = to_query[0][codes]
        if pool_groups is not None:
            pool = Pool(to_query[1][pool_groups.codes], r.pool_grades, judged=True)
        else:
            pool = Pool(to_query[0][groups.codes], r.grades, judged=False)
        n_retrieved = np.zeros(len(queries), np.int64)
        n_retrieved[to_query[0]] = groups.sizes
        return score_ranked(queries, row_query, grade, n_retrieved, pool, measure, tie_key, weight)


def every_query(run_queries: list[str], pool_queries: list[str]) -> list[str]:
    """`Dataset.queries()`: the run's queries (in order of first appearance), then the judged
    queries without results (likewise)."""
    known = set(run_queries)
    return [*run_queries, *(q for q in pool_queries if q not in known)]


def summary_table(result: pd.DataFrame, queries: list[str]) -> pd.DataFrame:
    """`Dataset.summary` from `evaluate`'s table (every judged query listed): its queries in the order of
    `queries` (`every_query`)."""
    import pandas as pd  # lazy: start-up

    at = result.index.get_indexer(pd.Index(queries, dtype=object))
    return summary_frame(result.iloc[at[at >= 0]])


def summary_frame(result: pd.DataFrame) -> pd.DataFrame:
    """`Dataset.summary`'s columns of `evaluate`'s table, its rows as they are."""
    import pandas as pd  # lazy: start-up

    return pd.DataFrame(
        {
            "query": result.index.to_numpy(dtype=object),
            "n_docs": result["n_retrieved"].to_numpy(),
            "n_judged": result["n_judged"].to_numpy(),
            "dcg": result["dcg"].to_numpy(),
            "idcg": result["idcg"].to_numpy(),
            "ndcg": result["ndcg"].to_numpy(),
        },
        columns=SUMMARY_COLUMNS,
    )


def _cells(values: pd.Series) -> pa.Array:
    """A text column as Arrow (missing cells as empty text)."""
    from ndcg_gui.core.arrays.ids import strings  # lazy: start-up

    return strings(values.fillna(""), "cells")


def _texts(values: pa.Array, start: int, stop: int) -> np.ndarray:
    """Rows start..stop-1 of an Arrow text array as a numpy array of `str`."""
    from ndcg_gui.core.arrays.ids import labels  # lazy: start-up

    return labels(values.slice(start, stop - start))
