"""The query table's columns of a run comparison: one NDCG column per other run and one difference
(Δ) column per run against the baseline, after the fixed columns (`query_model.py`), then how
differently the focus run ranks each query than the baseline (RBO, Jaccard@k, Kendall's τ; a
judging hole marked). Without judgments the NDCG columns say so, and the overlap still compares
the runs. Holds no metric logic: it shows what the comparison's frames say."""

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
OVERLAP = ("rbo", "jaccard", "tau")  # the overlap columns, in order
UNJUDGED = "no judgments"  # an NDCG cell of runs compared without judgments
HOLE_WORD = "hole"  # beside the RBO of a judging hole (`core.analysis.runs.overlap.is_hole`)


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
    overlap   per query, rbo, jaccard, tau and hole of `overlap_of`'s runs (baseline, focus);
              None: no overlap columns
    judged    False: the runs have no judgments (the NDCG columns say so)
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
    overlap: pd.DataFrame | None = None
    overlap_of: tuple[str, str] = ("", "")
    judged: bool = True

    @property
    def layout(self) -> tuple:
        return (tuple(self.runs), tuple(self.deltas), self.baseline, self.open_run,
                self.overlap is not None, self.overlap_of, self.judged)


def _hole_text() -> str:
    from ndcg_gui.core.analysis.runs.overlap import HOLE_TEXT  # lazy: start-up (pandas)

    return HOLE_TEXT


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
        cells |= {f"overlap {j}": self._overlap[:, j] for j in range(self._overlap.shape[1])}
        cells |= {f"delta {j}": self._delta[:, j] for j in range(self._delta.shape[1])}
        return cells | {"hole": self._hole}

    def _align_runs(self) -> None:
        """The comparison's frames as arrays in the table's row order."""
        runs, n = self._runs, len(self._queries)
        self._run_names = {} if runs is None else distinct_names([runs.open_run, *runs.runs, *runs.deltas])
        self._overlap = np.zeros((n, 0), dtype=float)
        self._hole = np.zeros(n, dtype=bool)
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
        if runs.overlap is not None:
            self._overlap = runs.overlap.reindex(index=index, columns=list(OVERLAP)).to_numpy(dtype=float)
            self._hole = runs.overlap["hole"].reindex(index).fillna(False).to_numpy(dtype=bool)

    def run_column(self, col: int) -> tuple[str, int] | None:
        """("ndcg", j) for the j-th other run's NDCG column, ("delta", j) for the j-th Δ column,
        ("overlap", j) for OVERLAP[j]'s, None for the fixed columns."""
        j = col - FIXED_COLUMNS
        if j < 0:
            return None
        n, d = self._run_ndcg.shape[1], self._delta.shape[1]
        return ("ndcg", j) if j < n else ("delta", j - n) if j < n + d else ("overlap", j - n - d)

    def overlap_column(self, name: str = "rbo") -> int:
        """The column of an overlap figure (OVERLAP), or -1 (none shown)."""
        if not self._overlap.shape[1]:
            return -1
        return FIXED_COLUMNS + self._run_ndcg.shape[1] + self._delta.shape[1] + OVERLAP.index(name)

    def has_holes(self) -> bool:
        """Whether a query shown is a judging hole (`core.analysis.runs.overlap.is_hole`)."""
        return bool(self._hole.any())

    def run_texts(self, col: int) -> list[str]:
        """The texts wider than a figure a run's column may show (a view fits the column to them)."""
        run = self.run_column(col) if col >= FIXED_COLUMNS else ("open", 0)
        if self._runs is None or run is None:
            return []
        if run[0] == "overlap":
            return [f"0.0000 {HOLE_WORD}"] if run[1] == 0 and self._hole.any() else []
        return [UNJUDGED] if not self._runs.judged and run[0] != "delta" else []

    def _run_column_count(self) -> int:
        return self._run_ndcg.shape[1] + self._delta.shape[1] + self._overlap.shape[1]

    def _run_sort_keys(self, kind: str, j: int) -> np.ndarray:
        values = {"ndcg": self._run_ndcg, "delta": self._delta, "overlap": self._overlap}[kind][:, j]
        return np.where(np.isnan(values), np.inf, values)  # not compared: last, ascending

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
        if kind == "overlap":
            return self._overlap_header(j, role)
        name = runs.open_run if kind == "open" else runs.runs[j] if kind == "ndcg" else runs.deltas[j]
        at = f"@{self._k}" if self._k is not None else ""
        if role == Qt.ItemDataRole.DisplayRole:
            shown = self._run_names.get(name) or short_name(name)
            return f"Δ {shown}" if kind == "delta" else shown
        if role == Qt.ItemDataRole.ToolTipRole:
            if not runs.judged and kind != "delta":
                return f"NDCG{at} of {name}: no judgments (open the runs with their qrels to score them)"
            if kind == "open":
                return f"NDCG{at} of {name}, the open run (with your edits); 0 where IDCG = 0"
            if kind == "ndcg":
                return f"NDCG{at} of {name} (a run compared with the open one)"
            return (f"{name} − {runs.baseline} (the baseline): NDCG{at} difference per query; "
                    "sort ascending for the biggest losses first")
        return None

    def _overlap_header(self, j: int, role: int):
        base, focus = self._runs.overlap_of
        k = self._k
        if role == Qt.ItemDataRole.DisplayRole:
            return ["RBO", f"J@{k}" if k is not None else "Jaccard", "τ"][j]
        if role == Qt.ItemDataRole.ToolTipRole:
            return [f"Rank-biased overlap of {focus} with {base} (extrapolated, p = 0.9): 1 the same "
                    "ranking, 0 no document in common; sort ascending (Go ▸ Most different first) for "
                    f"the queries ranked most differently first. “{HOLE_WORD}”: {_hole_text()}",
                    f"Jaccard@{k or 'all'}: the documents {focus} and {base} share among their first "
                    f"{k or 'all'}, over those of either",
                    f"Kendall's τ-b of {focus} and {base} over the documents of either (one a run lacks "
                    "tied below its last); – with fewer than two documents"][j]
        return None

    def _overlap_data(self, row: int, j: int, role: int):
        value = self._overlap[row, j]
        hole = j == 0 and bool(self._hole[row])
        if role == Qt.ItemDataRole.DisplayRole:
            text = "–" if np.isnan(value) else f"{round(value, 4) + 0.0:.4f}"
            return f"{text} {HOLE_WORD}" if hole else text
        if role in (QUERY_ROLE, Qt.ItemDataRole.TextAlignmentRole, Qt.ItemDataRole.FontRole):
            return self._cell_role(row, role)
        if role == Qt.ItemDataRole.ForegroundRole:
            if self._runs.waiting:
                return current().brush("muted")
            return current().brush("down") if hole else None
        if role == Qt.ItemDataRole.ToolTipRole:
            base, focus = self._runs.overlap_of
            names = ["RBO", f"Jaccard@{self._k or 'all'}", "Kendall's τ"]
            said = [("undefined (fewer than two documents)" if np.isnan(v) else f"{v:.4f}")
                    for v in self._overlap[row]]
            if j == 0:  # (Jaccard and τ may be hidden: the RBO cell gives all three)
                text = f"{focus} against {base}: " + ", ".join(
                    f"{n} {v}" for n, v in zip(names, said, strict=True))
            else:
                text = f"{names[j]} of {focus} with {base}: {said[j]}"
            return text + (f" — {_hole_text()}" if hole else "")
        return None

    def _cell_role(self, row: int, role: int):
        """What every run's cell of `row` says alike: its query, its alignment, bold if edited."""
        if role == QUERY_ROLE:
            return str(self._queries[row])
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return ALIGN_RIGHT
        return font(bold=True) if str(self._queries[row]) in self._edited else None

    def _run_data(self, row: int, kind: str, j: int, role: int):
        if kind == "overlap":
            return self._overlap_data(row, j, role)
        if not self._runs.judged and role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ForegroundRole):
            if role == Qt.ItemDataRole.ForegroundRole:
                return current().brush("muted")
            return UNJUDGED if kind in ("ndcg", "open") else "–"
        if role == Qt.ItemDataRole.DisplayRole:
            if kind == "ndcg":
                value = self._run_ndcg[row, j]
                return "" if np.isnan(value) else f"{round(value, 4) + 0.0:.4f}"  # never "-0.0000"
            d = self._delta[row, j]
            return "" if np.isnan(d) else ("0" if d == 0 else f"{d:+.4f}")
        if role in (QUERY_ROLE, Qt.ItemDataRole.TextAlignmentRole, Qt.ItemDataRole.FontRole):
            return self._cell_role(row, role)
        if role == Qt.ItemDataRole.ForegroundRole:
            if self._runs.waiting:
                return current().brush("muted")
            if kind == "ndcg":
                return current().brush("muted") if not self._run_answered[row, j] else None
            d = self._delta[row, j]
            return None if np.isnan(d) or d == 0 else current().brush("up" if d > 0 else "down")
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
        if not runs.judged:
            return ("No judgments: NDCG needs qrels (open the runs with them); the runs are compared "
                    "by their rankings in the RBO, Jaccard and τ columns")
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

