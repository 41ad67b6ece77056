"""A regression gate: is any candidate run significantly worse than the baseline?

    >>> gate = decide(compare_runs({"bm25": base, "rerank": new}, qrels), alpha=0.05, min_delta=0.01)
    >>> gate.failed, gate.line()

A candidate is *worse* when both hold:
  - the paired randomization test finds it different from the baseline at level `alpha`, with
    Holm's correction over the candidates (`Comparison.summary["p_holm"]`; with one candidate
    Holm's p is the test's own p): p_holm < alpha;
  - and its mean NDCG difference is below -min_delta (a drop no larger than `min_delta` is
    tolerated even when significant: a large test set finds tiny drops significant).
A significant *rise* never fails the gate. Nothing else is tested here: the statistics are the
comparison's, made once in `compare.py`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ndcg_gui.core.analysis.runs.compare import Comparison
from ndcg_gui.core.analysis.runs.run_diff import p_texts
from ndcg_gui.core.ndcg.measure import MAX_SAMPLES


@dataclass(frozen=True)
class Verdict:
    """One candidate against the baseline."""

    run: str
    mean: float
    delta: float
    wins: int
    ties: int
    losses: int
    p: float
    p_holm: float
    worse: bool
    reason: str


@dataclass(frozen=True)
class Gate:
    baseline: str
    baseline_mean: float
    alpha: float
    min_delta: float
    k: int | None
    n_queries: int
    verdicts: tuple[Verdict, ...]

    @property
    def failed(self) -> bool:
        return any(v.worse for v in self.verdicts)

    @property
    def worse(self) -> list[str]:
        return [v.run for v in self.verdicts if v.worse]

    def line(self) -> str:
        """The one-line reason a CI log shows: FAIL with the worse candidates, else PASS with
        every candidate's figures."""
        shown = [v for v in self.verdicts if v.worse] or list(self.verdicts)
        reasons = "; ".join(v.reason for v in shown)
        what = f"(α {self.alpha:g}, Holm over {len(self.verdicts)}" if len(self.verdicts) > 1 else \
            f"(α {self.alpha:g}"
        what += f", min Δ {self.min_delta:g})" if self.min_delta else ")"
        if self.failed:
            return f"FAIL: significantly worse than {self.baseline} {what}: {reasons}"
        return f"PASS: no candidate significantly worse than {self.baseline} {what}: {reasons}"


def check_levels(alpha: float, min_delta: float) -> None:
    """ValueError unless 0 < alpha < 1 and min_delta >= 0 (both finite)."""
    if not (math.isfinite(alpha) and 0 < alpha < 1):
        raise ValueError(f"alpha must be between 0 and 1, not {alpha:g}")
    if not (math.isfinite(min_delta) and min_delta >= 0):
        raise ValueError(f"min delta must be 0 or more, not {min_delta:g}")


def min_samples(alpha: float, candidates: int = 1) -> int:
    """The fewest random draws with which the randomization test can give p_holm < alpha: a
    sampled p is at least 1 / (samples + 1), and Holm multiplies the smallest by the number of
    candidates, so fewer draws make a gate that passes whatever the runs."""
    check_levels(alpha, 0.0)
    samples = max(1, math.floor(candidates / alpha) - 1)
    while candidates / (samples + 1) >= alpha:  # (the floor, then up past rounding)
        samples += 1
    return samples


def check_samples(samples: int, alpha: float, candidates: int = 1) -> None:
    """ValueError when `samples` draws cannot reach `alpha` (`min_samples`)."""
    needed = min_samples(alpha, candidates)
    if needed > MAX_SAMPLES:
        raise ValueError(f"α {alpha:g} needs {needed:,} random draws or more, over the {MAX_SAMPLES:,} "
                         f"allowed: give an α above {candidates / (MAX_SAMPLES + 1):.2g}")
    if samples < needed:
        holm = f", Holm over {candidates} candidates" if candidates > 1 else ""
        raise ValueError(f"the smallest p that {samples:,} random draws give is {candidates} / "
                         f"{samples + 1:,}{holm}, not below α {alpha:g}: no candidate could fail; "
                         f"give {needed:,} or more")


def decide(cmp: Comparison, alpha: float = 0.05, min_delta: float = 0.0) -> Gate:
    """The gate's decision on every run of `cmp` but its baseline (see the module's docstring)."""
    check_levels(alpha, min_delta)
    if cmp.summary.empty:
        raise ValueError("the gate needs a baseline and at least one candidate run")
    check_samples(cmp.samples, alpha, len(cmp.summary))
    if cmp.n_queries == 0:
        raise ValueError("no query to compare: the runs and the qrels have no judged query in common")
    at = f"@{cmp.k}" if cmp.k is not None else ""
    p_name = "p (Holm)" if len(cmp.summary) > 1 else "p"
    verdicts = []
    for run, row in cmp.summary.iterrows():
        delta, p_holm = float(row["delta"]), float(row["p_holm"])
        significant = not math.isnan(p_holm) and p_holm < alpha
        worse = significant and delta < -min_delta
        shown = p_texts(cmp, run)[1]  # ('< 0.0001' where no random draw reached the difference)
        figures = (f"{run} Δ NDCG{at} {delta:+.4f} (W/T/L {int(row['wins'])}/{int(row['ties'])}/"
                   f"{int(row['losses'])}), {p_name} {shown}")
        if worse:
            reason = f"{figures} < {alpha:g}"
        elif significant and delta < 0:
            reason = f"{figures} < {alpha:g} but the drop is within {min_delta:g}"
        else:
            reason = figures
        verdicts.append(Verdict(
            run=str(run), mean=float(row["mean"]), delta=delta, wins=int(row["wins"]),
            ties=int(row["ties"]), losses=int(row["losses"]), p=float(row["rand_p"]), p_holm=p_holm,
            worse=worse, reason=reason,
        ))
    return Gate(cmp.baseline, cmp.baseline_mean, alpha, min_delta, cmp.k, cmp.n_queries, tuple(verdicts))
