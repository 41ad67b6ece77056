"""Ties in run comparisons: does the verdict hold whatever order a run's tied documents take?

A run's tied documents (equal scores in one query) may come in any order; its tie rule picks one.
For each run compared with the baseline (the baseline kept as scored, under its own tie rule):

- the **worst tie order** puts, in every query, the run's tied documents in the order that gives
  its least NDCG@k (`tie_range`'s `least`: within each group of equal scores, the lowest gains at
  the ranks with the largest discounts);
- the **best tie order** puts them in the order that gives its greatest NDCG@k (`greatest`).

Queries are scored independently, so these two orders give the least and the greatest mean
difference from the baseline over every order of every tie of the run, exactly: the sign of
Δ mean is the same for every order if and only if it is the same at both. The verdict
(`Comparison.verdict`: the randomization test's p, Holm's when several runs are compared, with
the same draws and seed) is worked out at these two orders; a p-value is not monotone in each
query's difference, so significance is said at the two orders, not bounded over all of them.

Cheap when nothing can move: a run without tied scores is not scored again, and one whose ties
change no query's NDCG@k (none crosses the cut-off, or the tied documents have equal gains) adds
one scoring (`tie_range`) and no statistics.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ndcg_gui.core.analysis.runs.compare import Comparison
from ndcg_gui.core.analysis.tie_range import tie_range
from ndcg_gui.core.lists.dataset import Dataset

MOVES = 1e-12  # a query's NDCG@k range narrower than this is no range (rounding)


@dataclass(frozen=True)
class TieVerdict:
    """One compared run's verdict under its worst and its best tie order (see the module doc).
    `queries`: how many compared queries' NDCG@k depend on the order of the run's ties."""

    run: str
    queries: int
    delta: tuple[float, float]  # Δ mean under the worst and the best tie order
    verdicts: tuple[str, str]  # the verdict under the worst and the best tie order
    p: tuple[float, float]  # the p the verdict reads (Holm's when several runs), worst and best

    @property
    def changes(self) -> bool:
        """Whether the verdict or the sign of Δ mean differs between the two tie orders."""
        low, high = self.delta
        return self.verdicts[0] != self.verdicts[1] or bool(np.sign(low) != np.sign(high))

    def text(self) -> str:
        """One line for people: what the ties can do to the verdict."""
        if not self.queries:
            return f"{self.run}: no tie changes a query's NDCG: the verdict holds for any order of ties"
        n = f"{self.queries} quer{'y' if self.queries == 1 else 'ies'}"
        low, high = self.delta
        said = f"{self.run}: ties move {n}; Δ mean in [{low:+.4f}, {high:+.4f}] over every order of ties"
        if not self.changes:
            return said + f"; the verdict ({self.verdicts[0]}) holds at the worst and the best order"
        return (said + f"; the verdict changes: {self.verdicts[0]} (p {self.p[0]:.3g}) under the worst "
                f"order, {self.verdicts[1]} (p {self.p[1]:.3g}) under the best")

    def short(self) -> str:
        """What a comparison line adds ('' when no tie moves a figure)."""
        if not self.queries:
            return ""
        (low, high), (worst, best) = self.delta, self.verdicts
        if not self.changes:
            return f"ties: {worst} under any order (Δ mean in [{low:+.4f}, {high:+.4f}])"
        return f"⚠ ties: {worst} (Δ {low:+.4f}) under the worst order, {best} (Δ {high:+.4f}) under the best"

    def as_dict(self) -> dict:
        return {"queries": self.queries, "delta_worst": self.delta[0], "delta_best": self.delta[1],
                "verdict_worst": self.verdicts[0], "verdict_best": self.verdicts[1],
                "p_worst": self.p[0], "p_best": self.p[1], "changes": self.changes}


def tie_verdicts(cmp: Comparison, runs: Mapping[str, pd.DataFrame | Dataset],
                 qrels: pd.DataFrame | Dataset | None = None) -> dict[str, TieVerdict]:
    """For each run `cmp` compares with its baseline, its verdict under the worst and the best
    order of its tied documents. `runs` and `qrels`: what `compare_runs` was given."""
    pool = qrels.qrels if isinstance(qrels, Dataset) else qrels
    out = {}
    for name in cmp.summary.index:
        same = _as_scored(cmp, name)
        frames = _frames(runs[name], pool)
        if frames is None:
            out[name] = same
            continue
        table = tie_range(frames[0], frames[1], cmp.measure.per_query())
        table = table.reindex(cmp.per_query.index).dropna(subset=["least"])
        moving = table[(table["greatest"] - table["least"]) > MOVES]
        if not len(moving):
            out[name] = same
            continue
        at = [_at(cmp.with_scores(name, moving[bound]), name) for bound in ("least", "greatest")]
        out[name] = TieVerdict(name, len(moving), (at[0][0], at[1][0]), (at[0][1], at[1][1]),
                               (at[0][2], at[1][2]))
    return out


def _at(cmp: Comparison, run: str) -> tuple[float, str, float]:
    """(Δ mean, verdict, the p it reads) of `run` in `cmp`."""
    row = cmp.summary.loc[run]
    p = row["p_holm"] if len(cmp.summary) > 1 else row["rand_p"]
    return float(row["delta"]), cmp.verdict(run), float(p)


def _as_scored(cmp: Comparison, run: str) -> TieVerdict:
    delta, verdict, p = _at(cmp, run)
    return TieVerdict(run, 0, (delta, delta), (verdict, verdict), (p, p))


def _frames(run: pd.DataFrame | Dataset, qrels: pd.DataFrame | None
            ) -> tuple[pd.DataFrame, pd.DataFrame | None] | None:
    """The run's rows (query, doc, score; grade when there are no qrels) and the judgments, or
    None when it has no tied scores (nothing to order). A query with a row without a score, or
    (a loaded `Dataset`, its lists in ranked order) whose scores rise down its list, keeps the
    order it has: a list edited in the window is in the order the person made."""
    if isinstance(run, Dataset):
        if not run.has_scores:
            return None
        qrels = qrels if qrels is not None else run.qrels
        frame = run.run
    else:
        if "score" not in run:
            return None
        frame = run
    score = frame["score"].to_numpy(dtype=float)
    query = frame["query"].to_numpy(dtype=object)
    fixed = ~np.isfinite(score)
    if isinstance(run, Dataset) and len(score) > 1:
        same = query[1:] == query[:-1]
        fixed[1:] |= same & (score[1:] > score[:-1])
    if fixed.any():
        frame = frame[~frame["query"].isin(set(query[fixed]))]
    if not frame.duplicated(["query", "score"]).any():
        return None
    keep = ["query", "doc", "score"] + (["grade"] if qrels is None else [])
    return frame[keep], qrels
