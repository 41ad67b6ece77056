"""The query table's columns of a run comparison: one NDCG column per other run and one difference
(Δ) column per run against the baseline, after the fixed columns (`query_model.py`). Holds no
metric logic: it shows what the comparison's frames say."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
from PySide6.QtCore import Qt

from ndcg_gui.qt.models.cells import ALIGN_RIGHT, font
from ndcg_gui.qt.models.colours import current

if TYPE_CHECKING:
    import pandas as pd

QUERY_ROLE = Qt.ItemDataRole.UserRole + 2
FIXED_COLUMNS = 5  # the edited mark, query, docs, judged, NDCG (`query_model.py`)
NAME_CHARS = 9  # a run's name in a header is cut to this many characters (the tooltip has it all)


@dataclass(frozen=True)
class RunColumns:
    """What the table shows of a run comparison (frames indexed by query; queries they lack show
    empty cells).

    runs      the other runs, one NDCG column each after the open run's
    deltas    the runs compared with the baseline, one Δ column each
    baseline  the run the others are compared with; open_run: the open document's run
    ndcg      NDCG per query (index) and run (columns, every run)
    answered  True where the run returned a document for the query
    delta     per query, each run of `deltas` minus the baseline; NaN: not compared
    waiting   the figures of before a change, being worked out again (shown grey)
    failed    waiting, because working them out again failed
    """

    runs: list[str]
    deltas: list[str]
    baseline: str
    open_run: str = ""
    ndcg: pd.DataFrame = field(default_factory=lambda: _no_frame())
    answered: pd.DataFrame = field(default_factory=lambda: _no_frame())
    delta: pd.DataFrame = field(default_factory=lambda: _no_frame())
    waiting: bool = False
    failed: bool = False

    @property
    def layout(self) -> tuple:
        return tuple(self.runs), tuple(self.deltas), self.baseline, self.open_run


def _no_frame() -> pd.DataFrame:
    import pandas as pd  # (only when runs are compared: not before the window's first paint)

    return pd.DataFrame()


def short_name(name: str) -> str:
    return name if len(name) <= NAME_CHARS else name[: NAME_CHARS - 1] + "…"


SEPARATORS = "-_.:/+ "
_PARTS = re.compile(r"[-_.:/+ ]+|[^-_.:/+ ]+")  # words and the separators between them


def distinct_names(names: Sequence[str], chars: int = NAME_CHARS) -> dict[str, str]:
    """Each name as a header shows it, told apart from the others: the words every name starts or
    ends with are dropped ("…" says so), and what is left is cut in its middle to `chars`
    characters, longer where two would read the same. Cut at their ends, "dlhard-passage-bm25"
    and "dlhard-passage-monot5" were both "dlhard-p…"."""
    unique = list(dict.fromkeys(names))
    words = [_PARTS.findall(name) for name in unique]
    head = tail = 0
    if len(unique) > 1:
        shortest = min(len(w) for w in words)
        while head < shortest - 1 and len({w[head] for w in words}) == 1:
            head += 1
        while head + tail < shortest - 1 and len({w[-1 - tail] for w in words}) == 1:
            tail += 1
    cores = []
    for name, parts in zip(unique, words, strict=True):
        core = "".join(parts[head:len(parts) - tail])
        core = core.lstrip(SEPARATORS) if head else core
        core = core.rstrip(SEPARATORS) if tail else core
        cores.append(("…" if head else "") + core + ("…" if tail else "") if core else name)
    if len(set(cores)) < len(cores):  # (what is left reads the same: the names whole, cut)
        cores = unique
    for budget in range(chars, max(map(len, cores), default=0) + 1):
        shown = [_cut_middle(core, budget) for core in cores]
        if len(set(shown)) == len(shown):
            break
    else:
        shown = cores
    return dict(zip(unique, shown, strict=True))


def _cut_middle(text: str, chars: int) -> str:
    if len(text) <= chars:
        return text
    end = (chars - 1) // 2
    return text[: chars - 1 - end] + "…" + text[len(text) - end:]


class RunColumnsPart:
    """Mixed into `QueryTableModel`: the comparison's columns, their headers, cells and tooltips.
    Its arrays are in the model's frame order (`_queries`)."""

    def _run_cells(self) -> dict[str, np.ndarray]:
        """The comparison's shown arrays, column by column (for `differing_rows`)."""
        cells = {f"ndcg {j}": self._run_ndcg[:, j] for j in range(self._run_ndcg.shape[1])}
        cells |= {f"answered {j}": self._run_answered[:, j] for j in range(self._run_answered.shape[1])}
        return cells | {f"delta {j}": self._delta[:, j] for j in range(self._delta.shape[1])}

    def _align_runs(self) -> None:
        """The comparison's frames as arrays in the table's row order."""
        runs, n = self._runs, len(self._queries)
        self._run_names = {} if runs is None else distinct_names([runs.open_run, *runs.runs, *runs.deltas])
        if runs is None:
            self._run_ndcg = self._delta = np.zeros((n, 0), dtype=float)
            self._run_answered = np.zeros((n, 0), dtype=bool)
            return
        import pandas as pd

        index = pd.Index(self._queries, dtype=object)
        self._run_ndcg = runs.ndcg.reindex(index=index, columns=runs.runs).to_numpy(dtype=float)
        self._run_answered = runs.answered.reindex(index=index, columns=runs.runs).fillna(False) \
            .to_numpy(dtype=bool)
        self._delta = runs.delta.reindex(index=index, columns=runs.deltas).to_numpy(dtype=float)

    def run_column(self, col: int) -> tuple[str, int] | None:
        """("ndcg", j) for the j-th other run's NDCG column, ("delta", j) for the j-th Δ column,
        None for the fixed columns."""
        j = col - FIXED_COLUMNS
        if j < 0:
            return None
        n = self._run_ndcg.shape[1]
        return ("ndcg", j) if j < n else ("delta", j - n)

    def column_of(self, kind: str, run: str) -> int:
        """The column of a run's NDCG ("ndcg") or difference ("delta"), or -1."""
        if self._runs is None:
            return -1
        names = self._runs.runs if kind == "ndcg" else self._runs.deltas
        if run not in names:
            return -1
        return FIXED_COLUMNS + (0 if kind == "ndcg" else len(self._runs.runs)) + names.index(run)

    def _run_header(self, kind: str, j: int, role: int):
        runs = self._runs
        if runs is None:
            return None
        name = runs.open_run if kind == "open" else runs.runs[j] if kind == "ndcg" else runs.deltas[j]
        at = f"@{self._k}" if self._k is not None else ""
        if role == Qt.ItemDataRole.DisplayRole:
            shown = self._run_names.get(name) or short_name(name)
            return f"Δ {shown}" if kind == "delta" else shown
        if role == Qt.ItemDataRole.ToolTipRole:
            if kind == "open":
                return f"NDCG{at} of {name}, the open run (with your edits); 0 where IDCG = 0"
            if kind == "ndcg":
                return f"NDCG{at} of {name} (a run compared with the open one)"
            return (f"{name} − {runs.baseline} (the baseline): NDCG{at} difference per query; "
                    "sort ascending for the biggest losses first")
        return None

    def _run_data(self, row: int, kind: str, j: int, role: int):
        if role == Qt.ItemDataRole.DisplayRole:
            if kind == "ndcg":
                value = self._run_ndcg[row, j]
                return "" if np.isnan(value) else f"{round(value, 4) + 0.0:.4f}"  # never "-0.0000"
            d = self._delta[row, j]
            return "" if np.isnan(d) else ("0" if d == 0 else f"{d:+.4f}")
        if role == QUERY_ROLE:
            return str(self._queries[row])
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return ALIGN_RIGHT
        if role == Qt.ItemDataRole.ForegroundRole:
            if self._runs.waiting:
                return current().brush("muted")
            if kind == "ndcg":
                return current().brush("muted") if not self._run_answered[row, j] else None
            d = self._delta[row, j]
            return None if np.isnan(d) or d == 0 else current().brush("up" if d > 0 else "down")
        if role == Qt.ItemDataRole.FontRole and str(self._queries[row]) in self._edited:
            return font(bold=True)
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._run_tooltip(row, kind, j)
        return None

    def _run_tooltip(self, row: int, kind: str, j: int) -> str | None:
        runs = self._runs
        if runs is None:
            return None
        at = f"@{self._k}" if self._k is not None else ""
        if runs.failed:
            return ("The figures before the last change: scoring them again failed (change k or the "
                    "definition to try again)")
        if runs.waiting:
            return "The figures before the last change, being worked out again"
        if kind == "ndcg":
            name = runs.runs[j]
            if not self._run_answered[row, j]:
                return f"{name} returned no document for this query: NDCG{at} 0"
            return f"NDCG{at} of {name}: {self._run_ndcg[row, j]:.4f}"
        name, d = runs.deltas[j], self._delta[row, j]
        if np.isnan(d):
            return ("Not compared: a run returned no document for this query (judged queries with no "
                    "results are left out)")
        query = str(self._queries[row])
        try:
            a, b = runs.ndcg.at[query, name], runs.ndcg.at[query, runs.baseline]
        except KeyError:
            return None
        return f"{name} − {runs.baseline}: {a:.4f} − {b:.4f} = {d:+.4f}" + (" (a tie)" if d == 0 else "")

