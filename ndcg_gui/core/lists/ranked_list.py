"""One query's ranked list with its judged pool: the document the window edits.

Immutable: every edit returns a new `RankedList`, so undo can keep the before and after cheaply
(the arrays are shared, never written to) and the scoring never sees a half-made change.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

import numpy as np

from ndcg_gui.core.ndcg.measure import Measure
from ndcg_gui.core.ndcg.metrics import as_grades, gains, per_rank
from ndcg_gui.core.ndcg.ties import tie_runs

if TYPE_CHECKING:
    import pandas as pd


def _frozen(values: Iterable, dtype) -> np.ndarray:
    arr = np.array(list(values) if not isinstance(values, np.ndarray) else values, dtype=dtype)
    arr.setflags(write=False)
    return arr


@dataclass(frozen=True, eq=False)
class RankedList:
    """docs in ranked order, their grades (NaN = unjudged), optional scores, and the judged
    documents of the query that the list did not retrieve (`unretrieved`, doc → grade).

    `has_pool` says whether the judged pool is known beyond the list (qrels were loaded); without
    it the ideal ranking can only come from the list's own grades.

    `extras` holds the file's other columns (title, url…: name → one text per row, in file order);
    `origin` the record of the loaded file each row came from (-1 for a row added since), so a save
    rewrites only what changed. Every edit keeps both aligned with the rows.
    """

    docs: np.ndarray
    grades: np.ndarray
    scores: np.ndarray | None = None
    query: str = ""
    unretrieved: Mapping[str, float] = field(default_factory=dict)
    has_pool: bool = False
    extras: Mapping[str, np.ndarray] = field(default_factory=dict)
    origin: np.ndarray | None = None

    def __post_init__(self) -> None:
        docs = _frozen(self.docs, object)
        grades = _frozen(self.grades, float)
        if len(docs) != len(grades):
            raise ValueError(f"{len(docs)} documents but {len(grades)} grades")
        if np.isinf(grades).any():
            raise ValueError("grades must be finite (NaN marks an unjudged document)")
        object.__setattr__(self, "docs", docs)
        object.__setattr__(self, "grades", grades)
        if self.scores is not None:
            scores = _frozen(self.scores, float)
            if len(scores) != len(docs):
                raise ValueError(f"{len(docs)} documents but {len(scores)} scores")
            object.__setattr__(self, "scores", scores)
        object.__setattr__(self, "unretrieved", dict(self.unretrieved))
        extras = {str(name): _frozen(values, object) for name, values in self.extras.items()}
        for name, values in extras.items():
            if len(values) != len(docs):
                raise ValueError(f"{len(docs)} documents but {len(values)} cells in column {name!r}")
        object.__setattr__(self, "extras", extras)
        if self.origin is not None:
            origin = _frozen(self.origin, np.int64)
            if len(origin) != len(docs):
                raise ValueError(f"{len(docs)} documents but {len(origin)} origins")
            object.__setattr__(self, "origin", origin)

    @classmethod
    def from_grades(cls, grades: Sequence[float], query: str = "") -> RankedList:
        """A typed list such as `3 2 3 0 1`: documents named d1, d2, …"""
        grades = as_grades(grades)
        return cls(docs=[f"d{i + 1}" for i in range(len(grades))], grades=grades, query=query)

    def __len__(self) -> int:
        return len(self.docs)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, RankedList):
            return NotImplemented
        same_scores = (self.scores is None) == (other.scores is None) and (
            self.scores is None or np.array_equal(self.scores, other.scores, equal_nan=True)
        )
        same_origin = (self.origin is None) == (other.origin is None) and (
            self.origin is None or np.array_equal(self.origin, other.origin)
        )
        return (
            self.query == other.query
            and self.has_pool == other.has_pool
            and self.unretrieved == other.unretrieved
            and np.array_equal(self.docs, other.docs)
            and np.array_equal(self.grades, other.grades, equal_nan=True)
            and same_scores
            and list(self.extras) == list(other.extras)
            and all(np.array_equal(v, other.extras[k]) for k, v in self.extras.items())
            and same_origin
        )

    __hash__ = None  # type: ignore[assignment]

    # ---- what the scoring needs -------------------------------------------------------------
    @property
    def extra_columns(self) -> tuple[str, ...]:
        """Names of the file's other columns carried with the rows, in file order."""
        return tuple(self.extras)

    @property
    def judged(self) -> np.ndarray:
        """True where the document has a grade."""
        return ~np.isnan(self.grades)

    def scoring_grades(self) -> np.ndarray:
        """Grades with unjudged documents as 0 (they get gain 0); read-only, made once per list
        (a list's recompute asks for them several times)."""
        made = self.__dict__.get("_scoring_grades")
        if made is None:
            made = np.nan_to_num(self.grades, nan=0.0)
            made.setflags(write=False)
            object.__setattr__(self, "_scoring_grades", made)
        return made

    def judgments(self) -> dict[str, float]:
        """Every judged document of the query and its grade: the list's judged rows, then the
        judged documents it did not retrieve (what a qrels file holds for this query)."""
        judged = self.judged
        return dict(zip(self.docs[judged].tolist(), self.grades[judged].tolist(), strict=True)) | dict(
            self.unretrieved
        )

    def judged_pool(self) -> np.ndarray | None:
        """Grades of every judged document of the query, or None when only the list is known."""
        if not self.has_pool:
            return None
        return np.concatenate(
            [self.grades[self.judged], np.fromiter(self.unretrieved.values(), float)]
        )

    def metrics(self, measure: Measure | None = None) -> pd.DataFrame:
        """`per_rank` of this list, with `doc` and `judged` columns added."""
        import pandas as pd  # lazy: start-up (pandas)
        table = per_rank(self.scoring_grades(), measure, judged=self.judged_pool())
        # As objects: pandas would otherwise copy every id into an Arrow string array (ms a move).
        table.insert(1, "doc", pd.Series(self.docs, dtype=object, copy=False))
        table.insert(3, "judged", self.judged)
        return table

    # ---- edits: each returns a new list ------------------------------------------------------
    def _take(self, order: np.ndarray) -> RankedList:
        return replace(
            self,
            docs=self.docs[order],
            grades=self.grades[order],
            scores=None if self.scores is None else self.scores[order],
            extras={name: values[order] for name, values in self.extras.items()},
            origin=None if self.origin is None else self.origin[order],
        )

    def reordered(self, order: Sequence[int] | np.ndarray) -> RankedList:
        """The list in a new order: `order[i]` is the old row now at row i."""
        order = np.asarray(order, dtype=np.int64)
        if sorted(order.tolist()) != list(range(len(self))):
            raise ValueError("order must be a permutation of the rows")
        return self._take(order)

    def moved(self, first: int, count: int, destination: int) -> RankedList:
        """Rows first..first+count-1 moved to before row `destination` (Qt's moveRows rule)."""
        n = len(self)
        if count < 1 or first < 0 or first + count > n or not 0 <= destination <= n:
            raise ValueError(f"cannot move rows {first}..{first + count - 1} to {destination} of {n}")
        block = np.arange(first, first + count)
        rest = np.concatenate([np.arange(0, first), np.arange(first + count, n)])
        at = destination if destination <= first else destination - count
        return self._take(np.concatenate([rest[:at], block, rest[at:]]))

    def ideal_order(self, measure: Measure | None = None) -> np.ndarray:
        """Row order that sorts the list to its ideal: by gain, high first (stable)."""
        g = gains(self.scoring_grades(), measure or Measure())
        return np.argsort(-g, kind="stable")

    def ties_ordered(self, measure: Measure) -> RankedList:
        """The list with each run of tied scores ordered by the measure's tie rule, scores compared
        at its precision (`Measure.score_precision`): "trec" by document id, descending in byte
        order (trec_eval), "file" and "average" in the order of the file the rows came from
        (averaged gains make the order within a run irrelevant to DCG). The list as loaded is in
        exact score order, so runs at either precision are neighbours."""
        if self.scores is None or len(self) < 2:
            return self
        rule, precision = measure.ties, measure.score_precision
        runs = tie_runs(self.scores, float32=precision == "float32")
        if len(np.unique(runs)) == len(runs):
            return self  # no ties
        if rule != "trec":
            if self.origin is None:
                return self
            order = np.lexsort((np.asarray(self.origin, dtype=np.int64), runs))
        else:
            ids = np.array([str(d).encode("utf-8", "surrogatepass") for d in self.docs], dtype=object)
            desc = np.empty(len(ids), np.int64)
            desc[np.argsort(ids, kind="stable")[::-1]] = np.arange(len(ids))  # descending bytes
            order = np.lexsort((desc, runs))
        return self if np.array_equal(order, np.arange(len(order))) else self._take(order)

    def with_grade(self, row: int, grade: float) -> RankedList:
        """Grade of one row changed (NaN makes it unjudged)."""
        grades = self.grades.copy()
        grades[row] = float(grade)
        return replace(self, grades=grades)

    def with_doc(self, row: int, doc: str) -> RankedList:
        """Document id of one row changed. With a known judged pool a judgment belongs to its
        document, not to the row: the row takes the new id's judgment (unjudged when it has
        none) and the old id's judgment stays in the pool, as judged but not retrieved. Without a
        pool the row keeps its grade (the id was mistyped)."""
        docs, grades = self.docs.copy(), self.grades.copy()
        unretrieved = dict(self.unretrieved)
        old = docs[row]
        docs[row] = doc
        if self.has_pool:
            if not np.isnan(self.grades[row]) and old not in docs:
                unretrieved[old] = float(self.grades[row])
            grades[row] = unretrieved.pop(doc, np.nan)
        return replace(self, docs=docs, grades=grades, unretrieved=unretrieved)

    def inserted(
        self, row: int, docs: Sequence[str], grades: Sequence[float],
        scores: Sequence[float] | None = None,
        extras: Mapping[str, Sequence[str]] | None = None,
    ) -> RankedList:
        """Rows inserted before `row`, with blank extra cells unless `extras` gives them.
        Judged-but-unretrieved documents leave the unretrieved set."""
        docs = np.asarray(list(docs), dtype=object)
        grades = np.asarray(list(grades), dtype=float)
        n = len(docs)
        if not n:
            return self
        at = [row] * n
        unretrieved = {d: g for d, g in self.unretrieved.items() if d not in set(docs)}
        new_scores = None
        if self.scores is not None:
            fill = np.full(n, np.nan) if scores is None else np.asarray(scores, float)
            new_scores = np.insert(self.scores, at, fill)
        given = extras or {}
        new_extras = {
            name: np.insert(values, at, np.asarray(list(given.get(name, [""] * n)), dtype=object))
            for name, values in self.extras.items()
        }
        return replace(
            self,
            docs=np.insert(self.docs, at, docs),
            grades=np.insert(self.grades, at, grades),
            scores=new_scores,
            unretrieved=unretrieved,
            extras=new_extras,
            origin=None if self.origin is None else np.insert(self.origin, at, -1),
        )

    def removed(self, rows: Iterable[int]) -> RankedList:
        """Rows deleted. Judged documents stay in the judged pool (as unretrieved) when it is known."""
        rows = sorted(set(rows))
        keep = np.setdiff1d(np.arange(len(self)), rows)
        unretrieved = dict(self.unretrieved)
        if self.has_pool:
            for r in rows:
                if not np.isnan(self.grades[r]):
                    unretrieved[self.docs[r]] = float(self.grades[r])
        return replace(self._take(keep), unretrieved=unretrieved)
