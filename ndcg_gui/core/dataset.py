"""What a loaded file holds: ranked lists of one or many queries, and the judged pool when known.

`Dataset.run` keeps every query's rows together (queries in order of first appearance) and each
query's rows in ranked order, so one query's list is a slice: `ranked_list` is a few array slices
whatever the size of the file.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Literal

import numpy as np
import pandas as pd

from ndcg_gui.core.config import MetricConfig, TiesName
from ndcg_gui.core.evaluate import evaluate as evaluate_frame
from ndcg_gui.core.file_format import FileFormat
from ndcg_gui.core.ranked_list import RankedList

Kind = Literal["csv", "trec_run", "qrels", "typed"]
ORIGIN = "_origin"  # column of `Dataset.run` / `Dataset.qrels`: the row's record in the loaded file
SUMMARY_COLUMNS = ["query", "n_docs", "n_judged", "dcg", "idcg", "ndcg"]


def group_codes(values: np.ndarray) -> tuple[np.ndarray, list]:
    """Integer code of each value (numbered by first appearance) and the distinct values.

    Fast path for values already grouped (each query's rows together, as files usually have
    them): comparing neighbours is much cheaper than hashing millions of strings."""
    n = len(values)
    if n == 0:
        return np.zeros(0, np.int64), []
    change = np.empty(n, bool)
    change[0] = True
    change[1:] = values[1:] != values[:-1]
    labels = values[change].tolist()
    if len(set(labels)) == len(labels):
        return np.cumsum(change, dtype=np.int64) - 1, labels
    codes, uniques = pd.factorize(values, sort=False)
    return codes.astype(np.int64), list(uniques)


def _groups(queries: np.ndarray) -> tuple[np.ndarray, list[str], dict[str, tuple[int, int]], np.ndarray]:
    """Stable order that puts each query's rows together (first appearance first), the queries,
    their row slices in that order, and the query code of each row."""
    codes, uniques = group_codes(queries)
    if len(codes) and (np.diff(codes) < 0).any():
        order = np.argsort(codes, kind="stable")
    else:
        order = np.arange(len(codes))
    counts = np.bincount(codes, minlength=len(uniques)) if len(codes) else np.zeros(0, np.int64)
    ends = np.cumsum(counts)
    names = [str(q) for q in uniques]
    slices = {q: (int(e - c), int(e)) for q, c, e in zip(names, counts, ends, strict=True)}
    return order, names, slices, codes


def _frame(query, doc, grade, score=None, origin=None, extras=None) -> pd.DataFrame:
    columns = {
        "query": np.asarray(query, dtype=object),
        "doc": np.asarray(doc, dtype=object),
        "grade": np.asarray(grade, dtype=float),
    }
    if score is not None:
        columns["score"] = np.asarray(score, dtype=float)
    if origin is not None:
        columns[ORIGIN] = np.asarray(origin, dtype=np.int64)
    for name, values in (extras or {}).items():
        columns[name] = np.asarray(values, dtype=object)
    return pd.DataFrame(columns)


def _list_frame(
    rl: RankedList, query: str, score: bool, origin: bool, extras: tuple[str, ...]
) -> pd.DataFrame:
    """One edited list as rows of `Dataset.run` (extra cells it lacks are blank)."""
    n = len(rl)
    scores = rl.scores if rl.scores is not None else np.full(n, np.nan)
    origins = rl.origin if rl.origin is not None else np.full(n, -1)
    cells = {name: rl.extras.get(name, np.full(n, "", dtype=object)) for name in extras}
    return _frame([query] * n, rl.docs, rl.grades, scores if score else None,
                  origins if origin else None, cells)


@dataclass(frozen=True, eq=False)
class Dataset:
    """Ranked lists and (optionally) the judged pool, as loaded from files or typed in.

    run    columns query (str), doc (str), grade (float, NaN = unjudged) and optionally score;
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

    run: pd.DataFrame
    qrels: pd.DataFrame | None = None
    path: Path | None = None
    qrels_path: Path | None = None
    kind: Kind = "csv"
    tag: str | None = None  # a TREC run's tag (its sixth field), written again when it is saved
    extra_columns: tuple[str, ...] = ()
    file_format: FileFormat | None = None
    qrels_format: FileFormat | None = None
    edited: frozenset[str] = frozenset()
    _slices: dict[str, tuple[int, int]] = field(init=False, repr=False)
    _queries: list[str] = field(init=False, repr=False)
    _pool: dict[str, tuple[int, int]] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        run = self.run
        order, queries, slices, _ = _groups(run["query"].to_numpy(dtype=object))
        if not np.array_equal(order, np.arange(len(order))):
            run = run.iloc[order]
        run = run.reset_index(drop=True)
        object.__setattr__(self, "run", run)
        object.__setattr__(self, "_slices", slices)
        pool: dict[str, tuple[int, int]] = {}
        all_queries = list(queries)
        if self.qrels is not None:
            qrels = self.qrels
            q_order, q_names, pool, _ = _groups(qrels["query"].to_numpy(dtype=object))
            if not np.array_equal(q_order, np.arange(len(q_order))):
                qrels = qrels.iloc[q_order]
            object.__setattr__(self, "qrels", qrels.reset_index(drop=True))
            known = set(all_queries)
            all_queries += [q for q in q_names if q not in known]
        object.__setattr__(self, "_pool", pool)
        object.__setattr__(self, "_queries", all_queries)
        # Arrays sliced by ranked_list: converted once, not per call.
        object.__setattr__(self, "_docs", run["doc"].to_numpy(dtype=object))
        object.__setattr__(self, "_grades", run["grade"].to_numpy(dtype=float))
        scores = run["score"].to_numpy(dtype=float) if "score" in run else None
        object.__setattr__(self, "_scores", scores)
        object.__setattr__(self, "extra_columns", tuple(self.extra_columns))
        object.__setattr__(self, "_extras", {n: run[n].to_numpy(dtype=object) for n in self.extra_columns})
        object.__setattr__(self, "_origin", run[ORIGIN].to_numpy(np.int64) if ORIGIN in run else None)
        object.__setattr__(self, "edited", frozenset(self.edited))
        if self.qrels is not None:
            object.__setattr__(self, "_pool_docs", self.qrels["doc"].to_numpy(dtype=object))
            object.__setattr__(self, "_pool_grades", self.qrels["grade"].to_numpy(dtype=float))

    # ---- reading ----------------------------------------------------------------------------
    @property
    def has_pool(self) -> bool:
        return self.qrels is not None

    @property
    def has_scores(self) -> bool:
        return "score" in self.run

    def queries(self) -> list[str]:
        """Every query: those with results in file order, then judged queries without results."""
        return list(self._queries)

    def unjudged_queries(self) -> list[str]:
        """Queries with results but no judgment at all while the pool is known: trec_eval (and
        `evaluate`) leave them out, as nothing can be said of them."""
        if self.qrels is None:
            return []
        return [q for q in self._slices if q not in self._pool]

    def __len__(self) -> int:
        return len(self._queries)

    def ranked_list(self, query: str) -> RankedList:
        """The ranked list of one query, with its judged but unretrieved documents."""
        if query not in self._slices and query not in self._pool:
            raise KeyError(f"no query {query!r}")
        start, stop = self._slices.get(query, (0, 0))
        docs = self._docs[start:stop]
        unretrieved: dict[str, float] = {}
        if self.qrels is not None and query in self._pool:
            a, b = self._pool[query]
            listed = set(docs.tolist())
            unretrieved = {
                d: g
                for d, g in zip(self._pool_docs[a:b].tolist(), self._pool_grades[a:b].tolist(), strict=True)
                if d not in listed
            }
        return RankedList(
            docs=docs,
            grades=self._grades[start:stop],
            scores=None if self._scores is None else self._scores[start:stop],
            query=query,
            unretrieved=unretrieved,
            has_pool=self.qrels is not None,
            extras={name: values[start:stop] for name, values in self._extras.items()},
            origin=None if self._origin is None else self._origin[start:stop],
        )

    # ---- changing ---------------------------------------------------------------------------
    def with_lists(self, lists: Mapping[str, RankedList]) -> Dataset:
        """A copy in which the given queries hold the given (edited) lists; others unchanged.

        With a known pool, an edited query's judgments become the list's judged documents plus
        its unretrieved ones, so a changed grade changes the pool too. The file's other columns
        and each row's origin travel with the lists; a query whose list differs from the one it
        had is counted in `edited`.
        """
        has_score = self.has_scores or any(rl.scores is not None for rl in lists.values())
        has_origin = ORIGIN in self.run
        extras = self.extra_columns + tuple(
            dict.fromkeys(n for rl in lists.values() for n in rl.extras if n not in self.extra_columns)
        )
        known = set(self._queries)
        order = self._queries + [q for q in lists if q not in known]
        changed = {q for q, rl in lists.items() if q not in known or rl != self.ranked_list(q)}
        run_parts, pool_parts = [], []
        for q in order:
            if q in lists:
                rl = lists[q]
                run_parts.append(_list_frame(rl, q, has_score, has_origin, extras))
                if self.qrels is not None:
                    pool_parts.append(self._pool_frame(q, rl))
            else:
                a, b = self._slices.get(q, (0, 0))
                part = self.run.iloc[a:b]
                if has_score and "score" not in part:
                    part = part.assign(score=np.nan)
                missing = [n for n in extras if n not in part]
                if missing:
                    part = part.assign(**{n: "" for n in missing})
                run_parts.append(part)
                if self.qrels is not None and q in self._pool:
                    a, b = self._pool[q]
                    pool_parts.append(self.qrels.iloc[a:b])
        columns = ["query", "doc", "grade"] + (["score"] if has_score else [])
        columns += ([ORIGIN] if has_origin else []) + list(extras)
        run = pd.concat(run_parts, ignore_index=True)[columns] if run_parts else _frame([], [], [])
        qrels = None
        if self.qrels is not None:
            pool_columns = [c for c in ("query", "doc", "grade", ORIGIN) if c in self.qrels]
            qrels = (
                pd.concat(pool_parts, ignore_index=True)[pool_columns]
                if pool_parts
                else self.qrels.iloc[:0]
            )
        return replace(self, run=run, qrels=qrels, extra_columns=extras, edited=self.edited | changed)

    def _pool_frame(self, query: str, rl: RankedList) -> pd.DataFrame:
        """The judgments of an edited list (judged rows, then unretrieved), each with the record
        it had in the qrels file when the document was judged there."""
        judged = rl.judged
        docs = list(rl.docs[judged]) + list(rl.unretrieved)
        grades = list(rl.grades[judged]) + list(rl.unretrieved.values())
        origin = None
        if ORIGIN in self.qrels:
            a, b = self._pool.get(query, (0, 0))
            records = dict(zip(self._pool_docs[a:b].tolist(), self.qrels[ORIGIN].iloc[a:b].tolist(),
                               strict=True))
            origin = [records.get(d, -1) for d in docs]
        return _frame([query] * len(docs), docs, grades, origin=origin)

    @classmethod
    def from_ranked_list(cls, rl: RankedList) -> Dataset:
        """A dataset of one (typed) list; its pool is kept when it has one."""
        run = _frame([rl.query] * len(rl), rl.docs, rl.grades, rl.scores, extras=rl.extras)
        qrels = None
        if rl.has_pool:
            judged = rl.judged
            docs = list(rl.docs[judged]) + list(rl.unretrieved)
            grades = list(rl.grades[judged]) + list(rl.unretrieved.values())
            qrels = _frame([rl.query] * len(docs), docs, grades)
        return cls(run, qrels, kind="typed", extra_columns=rl.extra_columns)

    # ---- scoring ----------------------------------------------------------------------------
    def evaluate(
        self,
        k: int | None,
        config: MetricConfig | None = None,
        ties: TiesName = "trec",
        missing: str = "zero",
    ) -> pd.DataFrame:
        """`core.evaluate` of every query, in the order the lists hold (see `Dataset.run`).

        The order was settled when loading (tied scores by trec_eval's rule), so "trec" and "file"
        both score the lists as they stand; "average" gives neighbours with equal scores their mean
        gain (scikit-learn) when every row has a score: the ties of each list as it stands, so an
        edited list is scored in its own order.
        """
        run = self.run[["query", "doc", "grade"]]
        if ties == "average" and self.has_scores and not self.run["score"].isna().any():
            scores = self.run["score"].to_numpy(dtype=float)
            queries = run["query"].to_numpy()
            new_run = np.ones(len(scores), bool)
            new_run[1:] = (scores[1:] != scores[:-1]) | (queries[1:] != queries[:-1])
            run = run.assign(score=-np.cumsum(new_run).astype(float))  # keeps the order, ties neighbours
        else:
            position = np.arange(len(run))
            if ties == "file" and self.has_scores and self._origin is not None:
                # Tied neighbours in the order of the file they came from (a row added since last).
                scores = self.run["score"].to_numpy(dtype=float)
                queries = run["query"].to_numpy()
                new_run = np.ones(len(scores), bool)
                new_run[1:] = (scores[1:] != scores[:-1]) | (queries[1:] != queries[:-1])
                origin = np.where(self._origin < 0, np.iinfo(np.int64).max, self._origin)
                order = np.lexsort((origin, np.cumsum(new_run)))
                position = np.empty(len(order), np.int64)
                position[order] = np.arange(len(order))
            rank = position.copy()
            for a, b in self._slices.values():
                rank[a:b] -= a
            run = run.assign(rank=rank + 1)
            ties = "file"
        return evaluate_frame(run, self.qrels, k=k, config=config, ties=ties, missing=missing)

    def summary(
        self, k: int | None, config: MetricConfig | None = None, ties: TiesName = "trec"
    ) -> pd.DataFrame:
        """One row per scored query, in `queries()` order: query, n_docs, n_judged, dcg, idcg,
        ndcg at k. Judged queries without results score 0; queries without any judgment are left
        out when the pool is known (as trec_eval does)."""
        result = self.evaluate(k, config, ties=ties, missing="zero")
        order = [q for q in self._queries if q in result.index]
        result = result.loc[order]
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
