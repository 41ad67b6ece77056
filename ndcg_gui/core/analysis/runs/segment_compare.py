"""Run against baseline, segment by segment: where the run won and where it lost.

From a comparison's per-query NDCG (`Comparison.per_query`: a column per run, the queries compared)
and a query -> segment map: for each compared run and each segment, the mean of both, Δ, the
queries won, tied and lost, the paired randomization test's p and the bootstrap interval of Δ
(weighted when the queries carry weights: `weighted`), and Holm's correction over the segments of
that run, which gives the verdict. The same rows for all the queries compared (`paired_rows` with
one group) are the comparison's own figures, weighted or not.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ndcg_gui.core.analysis.runs import significance as sig
from ndcg_gui.core.analysis.runs.weighted import (
    BOOTSTRAP_WORDS,
    TEST_WORDS,
    weighted_bootstrap_ci,
    weighted_sign_flip_p,
)
from ndcg_gui.core.analysis.segments import members_of, segment_codes, segment_of
from ndcg_gui.core.analysis.weights import weighted_mean, weights_of

ALPHA = 0.05  # as `compare.ALPHA`: the level a verdict is given at
ROW_COLUMNS = ["queries", "baseline_mean", "mean", "delta", "wins", "losses", "ties",
               "rand_p", "exact", "ci_low", "ci_high"]
SEGMENT_COLUMNS = [*ROW_COLUMNS, "p_holm", "verdict"]
NO_DIFFERENCE = "no detectable difference"


def paired_rows(
    per_query: pd.DataFrame,
    baseline: str,
    groups: Mapping[str, np.ndarray],
    weights: Mapping[str, float] | None = None,
    samples: int = 10_000,
    seed: int = 0,
    confidence: float = 0.95,
) -> pd.DataFrame:
    """One row per (run, group) for every run but the baseline (index run, group; `ROW_COLUMNS`):
    `groups` names the rows of `per_query` each (their positions, or a boolean mask). Δ and the
    means are weighted by `weights` (query -> weight, every query of `per_query`) when given; the
    tests follow."""
    runs = [c for c in per_query.columns if c != baseline]
    base = per_query[baseline].to_numpy(dtype=float)
    w_all = weights_of(weights, per_query.index) if weights is not None else np.ones(len(per_query))
    rows, index = [], []
    for run in runs:
        values = per_query[run].to_numpy(dtype=float)
        deltas = sig.snap_ties(values - base)
        for name, mask in groups.items():
            d, w = deltas[mask], w_all[mask]
            if weights is None:
                p, exact = sig.sign_flip_p(d, samples, seed)
                low, high = sig.bootstrap_ci(d, samples, seed, confidence)
            else:
                p, exact = weighted_sign_flip_p(d, w, samples, seed)
                low, high = weighted_bootstrap_ci(d, w, samples, seed, confidence)
            rows.append({
                "queries": len(d),
                "baseline_mean": weighted_mean(base[mask], w),
                "mean": weighted_mean(values[mask], w),
                "delta": weighted_mean(d, w),
                "wins": int(np.count_nonzero(d > 0)),
                "losses": int(np.count_nonzero(d < 0)),
                "ties": int(np.count_nonzero(d == 0)),
                "rand_p": p,
                "exact": exact,
                "ci_low": low,
                "ci_high": high,
            })
            index.append((run, name))
    out = pd.DataFrame(rows, columns=ROW_COLUMNS,
                       index=pd.MultiIndex.from_tuples(index, names=["run", "segment"]))
    return out.astype({c: np.int64 for c in ("queries", "wins", "losses", "ties")} | {"exact": bool})


def verdict(delta: float, p: float, alpha: float = ALPHA) -> str:
    """'better', 'worse' or 'no detectable difference', as `Comparison.verdict` says it."""
    if np.isnan(p) or p >= alpha or delta == 0 or np.isnan(delta):
        return NO_DIFFERENCE
    return "better" if delta > 0 else "worse"


@dataclass(frozen=True)
class SegmentComparison:
    """Each compared run in each segment: `table` (index run, segment; `SEGMENT_COLUMNS`).

    unassigned  the compared queries in no segment (in the comparison of all queries only)
    """

    table: pd.DataFrame
    baseline: str
    unassigned: list[str]
    weighted: bool
    samples: int
    seed: int
    confidence: float
    alpha: float = ALPHA

    @property
    def runs(self) -> list[str]:
        return list(dict.fromkeys(self.table.index.get_level_values("run")))

    @property
    def segments(self) -> list[str]:
        return list(dict.fromkeys(self.table.index.get_level_values("segment")))

    def where(self, run: str) -> str:
        """Where `run` won and where it lost, in words: 'better on mobile (Δ +0.0312, p 0.004
        Holm); worse on desktop (…); no detectable difference on tablet, web'."""
        rows = self.table.xs(run, level="run")
        parts = []
        for word in ("better", "worse"):
            picked = rows[rows["verdict"] == word]
            if len(picked):
                each = [f"{segment} (Δ {row.delta:+.4f}, p {row.p_holm:.3g} Holm)"
                        for segment, row in picked.iterrows()]
                parts.append(f"{word} on " + ", ".join(each))
        rest = rows.index[rows["verdict"] == NO_DIFFERENCE].tolist()
        if rest:
            parts.append(f"{NO_DIFFERENCE} on " + ", ".join(map(str, rest)))
        return f"{run} against {self.baseline}: " + ("; ".join(parts) if parts else "no segment")

    def methods(self) -> str:
        """How the figures were made, in one paragraph."""
        m = len(self.segments)
        weighted = "weighted by the queries' weights, " if self.weighted else ""
        test = TEST_WORDS if self.weighted else "paired randomization test, two-sided (random sign flips)"
        interval = BOOTSTRAP_WORDS if self.weighted else "percentile bootstrap of the mean difference"
        return (f"per segment, {weighted}over the queries compared in it: Δ = run - baseline; p: {test}, "
                f"{self.samples:,} draws, numpy default_rng({self.seed}) (exact where the sign patterns "
                f"are fewer); {self.confidence * 100:g} % interval: {interval}; Holm's correction over "
                f"the {m} segment{'' if m == 1 else 's'} of each run; verdict: better / worse when "
                f"Holm's p < {self.alpha:g}, else {NO_DIFFERENCE}")


def compare_segments(
    per_query: pd.DataFrame,
    baseline: str,
    segments: Mapping[str, str],
    weights: Mapping[str, float] | None = None,
    samples: int = 10_000,
    seed: int = 0,
    confidence: float = 0.95,
    alpha: float = ALPHA,
) -> SegmentComparison:
    """Every run of `per_query` but `baseline` against it, in each segment of `segments` (query ->
    segment) that holds compared queries, with Holm's correction over the segments of each run."""
    if baseline not in per_query.columns:
        names = ", ".join(map(str, per_query.columns))
        raise ValueError(f"baseline {baseline!r} is not one of the runs ({names})")
    of = segment_of(per_query.index, segments)
    names, codes = segment_codes(of)
    groups = dict(zip(names, members_of(codes, len(names)), strict=True))
    table = paired_rows(per_query, baseline, groups, weights, samples, seed, confidence)
    table["p_holm"] = np.nan
    for run in dict.fromkeys(table.index.get_level_values("run")):
        at = table.index.get_level_values("run") == run
        table.loc[at, "p_holm"] = sig.holm(table.loc[at, "rand_p"].to_numpy())
    table["verdict"] = [verdict(d, p, alpha) for d, p in zip(table["delta"], table["p_holm"], strict=True)]
    return SegmentComparison(
        table=table[SEGMENT_COLUMNS],
        baseline=baseline,
        unassigned=[str(q) for q in of.index[of.isna().to_numpy()]],
        weighted=weights is not None,
        samples=samples,
        seed=seed,
        confidence=confidence,
        alpha=alpha,
    )
