"""One list typed or pasted in (or the worked example) as a `Dataset`: the window's first screen.

A `TypedDataset` answers what the window asks first (its query, its list, whether it has scores or
a pool) from the list itself, so showing it imports neither pandas nor pyarrow (the first paint,
`tests/qt/test_app.py`). What needs frames (scoring every query, an edit merged back, a save) is
answered by the `FrameDataset` of the same rows, made the first time and kept (`_Once`).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ndcg_gui.core.lists.dataset import Dataset, FrameDataset, Kind, frame_of, judgment_rows
from ndcg_gui.core.lists.ranked_list import RankedList
from ndcg_gui.core.ndcg.measure import Measure

if TYPE_CHECKING:
    import pandas as pd


class _Once:
    """The one thing a `TypedDataset` makes after it is made: its `FrameDataset`, made by the first
    caller that needs it and kept (under a lock: the window and a background scoring may ask at
    once). A copy (`dataclasses.replace`, a pickle) starts empty."""

    def __init__(self) -> None:
        self._value: FrameDataset | None = None
        self._lock = threading.Lock()

    def get(self, make: Callable[[], FrameDataset]) -> FrameDataset:
        with self._lock:
            if self._value is None:
                self._value = make()
            return self._value

    def __reduce__(self):
        return _Once, ()


@dataclass(frozen=True, eq=False, kw_only=True)
class TypedDataset(Dataset):
    """A dataset of one list (`TypedDataset.of`); its pool is the list's when it has one."""

    typed: RankedList
    kind: Kind = "typed"
    _frames: _Once = field(default_factory=_Once, init=False, repr=False)

    @classmethod
    def of(cls, rl: RankedList) -> TypedDataset:
        return cls(typed=rl, extra_columns=rl.extra_columns)

    def frames(self) -> FrameDataset:
        """The same rows as frames (what a reader of them would make), made once."""
        return self._frames.get(self._make_frames)

    def _make_frames(self) -> FrameDataset:
        rl = self.typed
        run = frame_of([rl.query] * len(rl), rl.docs, rl.grades, rl.scores, extras=rl.extras)
        qrels = None
        if rl.has_pool:
            docs, grades = judgment_rows(rl)
            qrels = frame_of([rl.query] * len(docs), docs, grades)
        return Dataset.of(run, qrels, **self.about())

    # ---- reading: from the list ---------------------------------------------------------------
    @property
    def run(self) -> pd.DataFrame:
        return self.frames().run

    @property
    def qrels(self) -> pd.DataFrame | None:
        return self.frames().qrels if self.has_pool else None

    @property
    def has_pool(self) -> bool:
        return self.typed.has_pool

    @property
    def has_scores(self) -> bool:
        return self.typed.scores is not None

    def _answered(self) -> bool:
        return len(self.typed) > 0

    def _judged(self) -> bool:
        rl = self.typed
        return rl.has_pool and (bool(rl.judged.any()) or len(rl.unretrieved) > 0)

    def queries(self) -> list[str]:
        return [self.typed.query] if self._answered() or self._judged() else []

    def unjudged_queries(self) -> list[str]:
        return [self.typed.query] if self.has_pool and self._answered() and not self._judged() else []

    def queries_without_results(self) -> list[str]:
        return [self.typed.query] if self._judged() and not self._answered() else []

    def __len__(self) -> int:
        return len(self.queries())

    def ranked_list(self, query: str) -> RankedList:
        if query not in self.queries():
            raise KeyError(f"no query {query!r}")
        rl = self.typed  # (as the rows made from it would give it back)
        return RankedList(docs=rl.docs, grades=rl.grades, scores=rl.scores, query=query,
                          unretrieved=rl.unretrieved if rl.has_pool else {}, has_pool=rl.has_pool,
                          extras=rl.extras)

    # ---- changing and scoring: through the frames ----------------------------------------------
    def with_lists(self, lists: Mapping[str, RankedList]) -> FrameDataset:
        return self.frames().with_lists(lists)

    def with_qrels(self, qrels: pd.DataFrame | None) -> FrameDataset:
        return self.frames().with_qrels(qrels)

    def evaluate(self, measure: Measure | None = None) -> pd.DataFrame:
        return self.frames().evaluate(measure)
