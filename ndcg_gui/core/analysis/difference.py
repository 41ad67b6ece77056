"""Why two NDCG figures differ: walk from definition `a` to `b` one choice at a time.

The choices change in a stated order (`STEPS`): which queries count, duplicates, positions and
cut-off, gain, discount, ideal pool and order, condensing, ties, IDCG = 0, rounding, the mean.
After each step every query is scored again under the definition reached so far, so each step's
change is what that choice does given the ones before it, and the steps add up to the whole
difference (the last step is `b` itself). A step whose choice is the same in both is listed with
no change and costs nothing.

Also: which presets give a mean a person has from another tool (`presets_giving`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ndcg_gui.core.lists.ranked_list import RankedList
from ndcg_gui.core.ndcg.evaluate import Joined, mean_ndcg
from ndcg_gui.core.ndcg.measure import DEFAULT_K, Measure
from ndcg_gui.core.ndcg.presets import LABELS, PRESETS, preset, preset_name

# (step, the measure's choices it moves from a to b), in the order a walk takes them.
STEPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("queries counted", ("empty",)),
    ("duplicates", ()),  # no choice: the readers refuse a document twice in a query
    ("positions and cut-off", ("k", "ideal_depth")),
    ("gain", ("gain", "negative", "truncate_grades")),
    ("discount", ("discount", "base")),
    ("ideal pool and order", ("ideal", "ideal_order")),
    ("condensing", ("judged_only",)),
    ("ties", ("ties", "precision")),
    ("IDCG = 0", ("idcg_zero",)),
    ("rounding", ("rounding",)),
    ("mean", ("undefined",)),
)
STEP_COLUMNS = ["step", "changed", "mean", "change"]


@dataclass(frozen=True)
class Difference:
    """The walk from `a` to `b` (named `labels`: a preset's name, or "custom"). `steps`: one row
    per step (step, changed: what it changed or "", mean after it, change of the mean), first the
    row "a"; `per_query`: each query's NDCG after each step (columns as `steps.step`; NaN where a
    query is not counted)."""

    a: Measure
    b: Measure
    steps: pd.DataFrame
    per_query: pd.DataFrame
    labels: tuple[str, str] = ("custom", "custom")

    def text(self, digits: int = 4) -> str:
        """The walk as lines a person reads."""
        lines = [f"{self.labels[0]} → {self.labels[1]}: mean {self.steps['mean'].iloc[0]:.{digits}f} → "
                 f"{self.steps['mean'].iloc[-1]:.{digits}f}"]
        for row in self.steps.iloc[1:].itertuples():
            if not row.changed:
                continue
            moved = (self.per_query[row.step] - self.per_query.iloc[:, row.Index - 1]).abs() > 1e-12
            lines.append(f"  {row.step:22} {row.change:+.{digits}f} → {row.mean:.{digits}f}  "
                         f"{row.changed} ({int(moved.sum())} queries change)")
        total = self.steps["mean"].iloc[-1] - self.steps["mean"].iloc[0]
        lines.append(f"  {'total':22} {total:+.{digits}f}")
        return "\n".join(lines)


def measures_of(a: str | Measure, b: str | Measure) -> tuple[Measure, Measure, tuple[str, str]]:
    """Two measures to walk between, and their labels: a name is that preset at the other's
    cut-off (both names: at k = DEFAULT_K)."""
    k = next((m.k for m in (a, b) if isinstance(m, Measure)), DEFAULT_K)
    ma, mb = (preset(m).at(k) if isinstance(m, str) else m for m in (a, b))
    labels = tuple(m if isinstance(m, str) else preset_name(m) or "custom" for m in (a, b))
    return ma, mb, labels  # type: ignore[return-value]


def explain_difference(
    grades_or_run: Sequence[float] | np.ndarray | pd.DataFrame,
    qrels: pd.DataFrame | None,
    a: str | Measure,
    b: str | Measure,
    labels: tuple[str, str] | None = None,
) -> Difference:
    """Walk from measure `a` to `b` (`Measure`s, or preset names: `measures_of`) over a run
    (`evaluate`'s columns) and its qrels, or over one list of grades in ranked order (then qrels
    is None); `labels` name them (default: `measures_of`'s). See the module's text for the order
    and what a step means."""
    a, b, named = measures_of(a, b)
    labels = labels or named
    run = _Run(_as_run(grades_or_run), qrels)
    rows, columns = [("a", "", None, None)], {}
    current = a
    scored = _score(run, current)
    columns["a"] = scored
    for step, fields in STEPS:
        moved = [f for f in fields if getattr(current, f) != getattr(b, f)]
        if moved:
            current = current.with_(**{f: getattr(b, f) for f in fields})
            scored = _score(run, current)
            changed = "; ".join(_said(current, f) for f in moved)
        else:
            changed = ""
        columns[step] = scored
        rows.append((step, changed, None, None))
    per_query = pd.DataFrame({name: s[0] for name, s in columns.items()})
    means = [s[1] for s in columns.values()]
    steps = pd.DataFrame(rows, columns=STEP_COLUMNS)
    steps["mean"] = means
    steps["change"] = np.concatenate([[0.0], np.diff(means)])
    return Difference(a, b, steps, per_query, labels)


def explain_list(lst: RankedList, a: str | Measure, b: str | Measure,
                 labels: tuple[str, str] | None = None) -> Difference:
    """`explain_difference` for one ranked list as the window holds it: its order (its scores
    where they still rank it, so the tie rules have ties to act on) and every judgment of its
    query, the judged documents it missed included (none known without qrels: its own grades)."""
    n = len(lst)
    run = pd.DataFrame({"query": "list", "doc": [str(d) for d in lst.docs], "rank": np.arange(1, n + 1)})
    scores = None if lst.scores is None else np.asarray(lst.scores, dtype=float)
    if scores is not None and not np.isnan(scores).any() and not (np.diff(scores) > 0).any():
        run["score"] = scores  # (an edit that broke their order: the list's order alone)
    if not lst.has_pool:
        run["grade"] = np.asarray(lst.grades, dtype=float)
        return explain_difference(run, None, a, b, labels)
    judged = lst.judgments()
    qrels = pd.DataFrame({"query": "list", "doc": list(judged), "grade": list(judged.values())})
    return explain_difference(run, qrels, a, b, labels)


def presets_giving(
    mean: float, run: pd.DataFrame, qrels: pd.DataFrame | None, k: int | None = 10,
    digits: int | None = None,
) -> pd.DataFrame:
    """The presets whose mean NDCG@k of this run rounds to `mean` (to the decimals `mean` was
    written with, or `digits`): columns preset, label, mean, match. All presets, matches first."""
    if digits is None:
        text = repr(float(mean))
        digits = len(text.split(".")[1]) if "." in text and "e" not in text else 4
    table = preset_means(run, qrels, (k,)).drop(columns="k")
    table["match"] = [round(v, digits) == round(float(mean), digits) for v in table["mean"]]
    return table.sort_values("match", ascending=False, kind="stable").reset_index(drop=True)


def preset_means(run: pd.DataFrame, qrels: pd.DataFrame | None, ks: tuple[int | None, ...]
                 ) -> pd.DataFrame:
    """Every preset's mean NDCG@k of this run at each k of `ks` (the run joined and ranked once
    per tie rule for all of them): columns preset, label, k, mean; in the order of `ks`."""
    out = []
    joined = _Run(run, qrels)
    for k in ks:
        for name in PRESETS:
            out.append((name, LABELS[name], k, _score(joined, PRESETS[name].at(k))[1]))
    table = pd.DataFrame(out, columns=["preset", "label", "k", "mean"])
    table["k"] = pd.Series([k for _, _, k, _ in out], dtype=object)  # (None: the whole list)
    return table


# --- helpers ------------------------------------------------------------------------------------


def _as_run(grades_or_run) -> pd.DataFrame:
    if isinstance(grades_or_run, pd.DataFrame):
        return grades_or_run
    grades = np.asarray(grades_or_run, dtype=float)
    return pd.DataFrame({"query": "list", "doc": [f"d{i + 1}" for i in range(len(grades))],
                         "rank": np.arange(1, len(grades) + 1), "grade": grades})


class _Run:
    """A run and its qrels, joined and ranked once per ranking (a walk needs at most two)."""

    def __init__(self, run: pd.DataFrame, qrels: pd.DataFrame | None) -> None:
        self.run, self.qrels, self.joined = run, qrels, {}

    def by(self, measure: Measure) -> Joined:
        ranking = (measure.ties, measure.score_precision)
        if ranking not in self.joined:
            self.joined[ranking] = Joined.of(self.run, self.qrels, measure)
        return self.joined[ranking]


def _score(run: _Run, measure: Measure) -> tuple[pd.Series, float]:
    """Each query's NDCG@k (NaN where the mean leaves it out) and the mean, under `measure`."""
    result = run.by(measure).score(measure)
    ndcg = result["ndcg"].astype(float)
    if measure.undefined == "skip":
        ndcg = ndcg.where(~result["undefined"])
    return ndcg, mean_ndcg(result, measure)


def _said(measure: Measure, field: str) -> str:
    value = getattr(measure, field)
    if field == "gain":
        return "gain " + ("2^g − 1" if value == "exponential" else "g" if value == "linear" else repr(value))
    if field == "precision":  # (said in words, as `definitions` says it: not a bare field name)
        return f"scores compared as {value or 'the tie rule says'}"
    if field == "truncate_grades":
        return "grades cut to their whole part" if value else "grades used as given"
    if field == "k":
        return "no cut-off" if value is None else f"k → {value}"
    return f"{field} → {value}"
