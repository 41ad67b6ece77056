"""Run A against run B (and C …): per-query NDCG side by side, and whether the differences are real.

    >>> cmp = compare_runs({"bm25": run_a, "rerank": run_b}, qrels, Measure(k=10))
    >>> cmp.summary          # one row per run against the baseline: delta, W/L/T, p-values, CI
    >>> print(cmp.describe())  # which test gave which figure, with its draws and seed

Each run is scored by `evaluate` (so `per_query` equals it), and each run's per-query differences
from the baseline go to `significance`. The statistics are kept apart from the scoring
(`paired_summary`), so a window that rescored one query can update them without scoring again.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ndcg_gui.core.analysis.runs import significance as sig
from ndcg_gui.core.analysis.runs.segment_compare import paired_rows
from ndcg_gui.core.analysis.runs.weighted import BOOTSTRAP_WORDS, TEST_WORDS
from ndcg_gui.core.analysis.weights import query_weights, weighted_mean, weights_of
from ndcg_gui.core.formats.query_map import QueryMap
from ndcg_gui.core.lists.dataset import Dataset
from ndcg_gui.core.ndcg.evaluate import evaluate
from ndcg_gui.core.ndcg.measure import MAX_SAMPLES, Measure

SUMMARY_COLUMNS = [
    "mean", "delta", "wins", "losses", "ties",
    "t_p", "rand_p", "ci_low", "ci_high", "effect_size", "p_holm",
]
TABLE_COLUMNS = ["scored", *SUMMARY_COLUMNS]
COUNT_COLUMNS = ["wins", "losses", "ties"]
ALPHA = 0.05  # the level a verdict is given at
# What each summary column is called where people read it (the method text, the window's table).
COLUMN_NAMES = {
    "mean": "NDCG", "delta": "Δ mean", "wins": "wins", "losses": "losses", "ties": "ties",
    "t_p": "p (t-test)", "rand_p": "p (randomization)", "ci_low": "CI of Δ", "ci_high": "CI of Δ",
    "effect_size": "effect (d)", "p_holm": "p (Holm)", "verdict": "verdict",
}

Run = pd.DataFrame | Dataset


@dataclass(frozen=True, eq=False)
class Comparison:
    """The result of `compare_runs`; every frame is plain pandas, ready for a table or a plot.

    per_query  index query (sorted as text, as `evaluate`), one NDCG@k column per run in the
               order given: the queries compared (see `measure.empty`).
    summary    index run, every run but the baseline; columns SUMMARY_COLUMNS (see `methods`).
    baseline   the run the others are compared with.
    scored     per run: how many judged queries it returned at least one document for.
    judged     how many judged queries there are in all (runs' queries without any judgment are
               never scored, as in trec_eval).
    exact      per compared run: True when rand_p enumerated every sign pattern.
    measure    which NDCG, at which k; its `empty` says which queries are compared.
    weights    query -> weight when the queries are weighted (`weighted_by`): the means, Δ, the
               randomization test and the bootstrap are then the weighted ones (`weighted`), the
               t-test and the effect size are not given; None: unweighted.
    """

    per_query: pd.DataFrame
    summary: pd.DataFrame
    baseline: str
    scored: pd.Series
    judged: int
    exact: pd.Series
    measure: Measure
    samples: int
    seed: int
    confidence: float
    weights: Mapping[str, float] | None = None
    weights_from: str = ""  # where the weights were read, for the method text

    @property
    def k(self) -> int | None:
        return self.measure.k

    @property
    def runs(self) -> list[str]:
        return list(self.per_query.columns)

    @property
    def n_queries(self) -> int:
        """Queries compared: every judged one (empty="zero") or those every run answered."""
        return len(self.per_query)

    @property
    def means(self) -> pd.Series:
        """Mean NDCG@k of every run, the baseline included, over the queries compared."""
        if not self.n_queries:
            return pd.Series(np.nan, index=self.per_query.columns, dtype=float)
        if self.weights is not None:
            w = weights_of(self.weights, self.per_query.index)
            return pd.Series({r: weighted_mean(self.per_query[r].to_numpy(dtype=float), w)
                              for r in self.per_query.columns}, dtype=float)
        return self.per_query.mean()

    @property
    def baseline_mean(self) -> float:
        return float(self.means[self.baseline])

    @property
    def deltas(self) -> pd.DataFrame:
        """Per query, each compared run's NDCG minus the baseline's, as the tests see it:
        differences within 1e-9 of 0 are exactly 0 (ties)."""
        return _deltas(self.per_query, self.baseline)

    def at_floor(self, run: str) -> bool:
        """Whether `run`'s randomization p is the smallest the sampled test can give (no random sign
        pattern reached the observed difference): the true p is below it, not equal to it."""
        p = self.summary.at[run, "rand_p"]
        return bool(not self.exact[run] and p <= 1.0 / (self.samples + 1) * (1 + 1e-9))

    def verdict(self, run: str, alpha: float = ALPHA) -> str:
        """'better', 'worse' or 'no detectable difference' than the baseline: the randomization
        test's p at level `alpha` (Holm's correction when several runs are compared), the sign of
        the mean difference saying which way."""
        row = self.summary.loc[run]
        p = row["p_holm"] if len(self.summary) > 1 else row["rand_p"]
        if np.isnan(p) or p >= alpha or row["delta"] == 0:
            return "no detectable difference"
        return "better" if row["delta"] > 0 else "worse"

    @property
    def methods(self) -> dict[str, str]:
        """For each summary column, how it was computed: enough to reproduce it."""
        return _methods(self)

    def describe(self) -> str:
        """Several lines: what was compared, then each figure with its test, draws and seed."""
        at = f"@{self.k}" if self.k is not None else ""
        gone = self.judged - self.n_queries
        what = (
            "judged queries a run returned nothing for score 0"
            if self.measure.empty == "zero"
            else f"only queries every run returned results for ({gone:,} of {self.judged:,} left out)"
        )
        lines = [
            f"NDCG{at} over {self.n_queries:,} queries ({what}); baseline {self.baseline}; "
            f"{self.measure.describe()}; tied scores: {self.measure.ties}",
            "queries scored: " + ", ".join(f"{r} {n:,} of {self.judged:,}" for r, n in self.scored.items()),
        ]
        grouped: dict[str, list[str]] = {}
        for column, text in self.methods.items():  # columns with one explanation share a line
            name = COLUMN_NAMES.get(column, column)
            if name not in grouped.setdefault(text, []):
                grouped[text].append(name)
        lines += [f"{', '.join(columns)}: {text}" for text, columns in grouped.items()]
        return "\n".join(lines)

    def table(self) -> pd.DataFrame:
        """One row per run, the baseline first (its comparison cells empty), with `scored`:
        what a command line prints."""
        base = pd.DataFrame(
            {"scored": [self.scored[self.baseline]], "mean": [self.baseline_mean]},
            index=pd.Index([self.baseline], name="run"),
        )
        rows = self.summary.assign(scored=self.scored.reindex(self.summary.index))
        out = pd.concat([base, rows])[TABLE_COLUMNS] if len(rows) else base.reindex(columns=TABLE_COLUMNS)
        for column in ["scored", *COUNT_COLUMNS]:
            out[column] = out[column].astype("Int64")
        out.index.name = "run"
        return out

    def skipping(self, answered: pd.DataFrame) -> Comparison:
        """This comparison over only the queries every run answered: what `compare_runs` gives
        with empty="skip", without scoring the runs again. `answered`: True where a run returned
        at least one document for a query (a row per compared query, a column per run)."""
        keep = answered.reindex(index=self.per_query.index, columns=self.per_query.columns,
                                fill_value=False).all(axis=1).to_numpy()
        per_query = self.per_query[keep]
        summary, exact = _paired(per_query, self.baseline, self.samples, self.seed, self.confidence,
                                 self.weights)
        return dataclasses.replace(self, per_query=per_query, summary=summary, exact=exact,
                                   measure=self.measure.with_(empty="skip"))

    def weighted_by(self, weights: Mapping[str, float], source: str = "") -> Comparison:
        """This comparison with the queries weighted (query -> weight, at least 0, every compared
        query given one; `source` says where they come from): weighted means and Δ, the weighted
        randomization test and bootstrap (`weighted`), no t-test or effect size. The per-query
        NDCG stay."""
        weights = {str(q): float(w) for q, w in weights.items()}
        missing = [q for q in map(str, self.per_query.index) if q not in weights]
        if missing:
            raise ValueError(f"no weight for query {missing[0]!r} ({len(missing)} compared queries "
                             "have none)")
        summary, exact = _paired(self.per_query, self.baseline, self.samples, self.seed, self.confidence,
                                 weights)
        return dataclasses.replace(self, summary=summary, exact=exact, weights=weights, weights_from=source)

    def with_scores(self, run: str, ndcg: Mapping[str, float] | pd.Series) -> Comparison:
        """A copy in which `run` has the given NDCG on the given (compared) queries, its
        statistics recomputed with the same draws and seed: for a list edited in a window."""
        if run not in self.per_query.columns:
            raise KeyError(f"no run {run!r}")
        values = pd.Series(ndcg, dtype=float)
        unknown = values.index.difference(self.per_query.index)
        if len(unknown):
            raise KeyError(f"query {unknown[0]!r} is not among the queries compared")
        per_query = self.per_query.copy()
        per_query.loc[values.index, run] = values.to_numpy()
        summary, exact = _paired(per_query, self.baseline, self.samples, self.seed, self.confidence,
                                 self.weights)
        return dataclasses.replace(self, per_query=per_query, summary=summary, exact=exact)


def weighed(cmp: Comparison, weights: QueryMap[float] | None) -> Comparison:
    """`cmp` weighted by the queries' `weights` (a file's or a run's column), as every caller weighs
    a comparison (`ndcg-inspect`, `ndcg_gui.report`, the window): the weights of the queries
    compared, checked by `query_weights` (an `InputError` in its one line), then `weighted_by`;
    `cmp` as it is without weights."""
    if weights is None:
        return cmp
    each = compared_weights(cmp, weights)
    if cmp.weights == each and cmp.weights_from == weights.origin:
        return cmp  # (weighted so already: the command line's comparison, then its output)
    return cmp.weighted_by(each, weights.origin)


def compared_weights(cmp: Comparison, weights: QueryMap[float]) -> dict[str, float]:
    """The weight of each query `cmp` compares, checked by `query_weights` (`InputError`)."""
    return query_weights(weights, cmp.per_query.index, "compared")


def compare_runs(
    runs: Mapping[str, Run],
    qrels: pd.DataFrame | Dataset | None = None,
    measure: Measure | None = None,
    baseline: str | None = None,
    samples: int = 10_000,
    seed: int = 0,
    confidence: float = 0.95,
) -> Comparison:
    """Score every run with `evaluate` and compare each with the baseline, query by query.

    runs      name -> run: a DataFrame as `evaluate` takes it (query, doc, and score or rank), or
              a loaded `Dataset` (scored in its loaded order, as the window shows it).
    qrels     DataFrame (query, doc, grade) or a Dataset holding qrels, used for every run. None:
              each run's own grades (a `grade` column, or a Dataset's own qrels).
    measure   which NDCG (default: `Measure(k=10)`); its `empty`, for a judged query a run
              returned nothing for: "zero" scores it 0 (every judged query is compared); "skip"
              compares only the queries every run returned results for.
    baseline  the run the others are compared with; the first one when None.
    samples   random draws of the randomization test, and resamples of the bootstrap; each
              comparison draws from a fresh np.random.default_rng(seed).
    confidence  of the bootstrap interval (0.95: the 2.5 % and 97.5 % quantiles).
    """
    measure = measure or Measure(k=10)
    names = _check(runs, baseline, samples, seed, confidence)
    baseline = names[0] if baseline is None else baseline
    pool = qrels.qrels if isinstance(qrels, Dataset) else qrels
    if isinstance(qrels, Dataset) and pool is None:
        raise ValueError("the qrels dataset holds no judgments")
    scored_frames = {name: _score(runs[name], pool, measure) for name in names}
    return compare_scored(scored_frames, measure, baseline, samples, seed, confidence)


def compare_scored(
    scored: Mapping[str, pd.DataFrame],
    measure: Measure | None = None,
    baseline: str | None = None,
    samples: int = 10_000,
    seed: int = 0,
    confidence: float = 0.95,
) -> Comparison:
    """`compare_runs` from runs already scored: name -> `evaluate`'s table under
    `measure.per_query()` (index query; columns ndcg and n_retrieved at least), made by `evaluate`
    or by an engine that reads files larger than memory (`core.sql`)."""
    measure = measure or Measure(k=10)
    names = _check(scored, baseline, samples, seed, confidence)
    baseline = names[0] if baseline is None else baseline
    scored_frames = {name: scored[name] for name in names}
    queries = _union_index([f.index for f in scored_frames.values()])
    ndcg = pd.DataFrame(
        {n: f["ndcg"].reindex(queries, fill_value=0.0).astype(float) for n, f in scored_frames.items()},
        index=queries,
    )
    answered = pd.DataFrame(
        {n: f["n_retrieved"].reindex(queries, fill_value=0).to_numpy() > 0 for n, f in scored_frames.items()},
        index=queries,
    )
    if measure.empty == "skip":
        ndcg = ndcg[answered.all(axis=1)]
    ndcg.columns.name = "run"
    summary, exact = _paired(ndcg, baseline, samples, seed, confidence)
    return Comparison(
        per_query=ndcg,
        summary=summary,
        baseline=baseline,
        scored=answered.sum().astype(np.int64).rename("scored"),
        judged=len(queries),
        exact=exact,
        measure=measure,
        samples=samples,
        seed=seed,
        confidence=confidence,
    )


def paired_summary(
    per_query: pd.DataFrame,
    baseline: str | None = None,
    samples: int = 10_000,
    seed: int = 0,
    confidence: float = 0.95,
    weights: Mapping[str, float] | None = None,
) -> pd.DataFrame:
    """The summary of `compare_runs` from per-query NDCG alone (one column per run, no NaN);
    weighted as `Comparison.weighted_by` weighs it when `weights` (query -> weight) are given."""
    names = list(per_query.columns)
    _check(dict.fromkeys(names), baseline, samples, seed, confidence)
    if per_query.isna().any().any():
        raise ValueError("per-query NDCG has missing values; score them 0 or leave the query out")
    return _paired(per_query, names[0] if baseline is None else baseline, samples, seed, confidence,
                   weights)[0]


# --- the work -----------------------------------------------------------------------------------


def _check(runs, baseline, samples, seed, confidence) -> list[str]:
    names = list(runs)
    if not names:
        raise ValueError("compare_runs needs at least one run")
    if not all(isinstance(n, str) for n in names):
        raise ValueError("run names must be text")
    if baseline is not None and baseline not in names:
        raise ValueError(f"baseline {baseline!r} is not one of the runs ({', '.join(names)})")
    if isinstance(samples, bool) or not isinstance(samples, int | np.integer) or \
            not 1 <= samples <= MAX_SAMPLES:
        raise ValueError(f"samples must be a whole number from 1 to {MAX_SAMPLES:,}, not {samples!r}")
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer) or seed < 0:
        raise ValueError(f"seed must be a whole number of at least 0, not {seed!r}")
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be between 0 and 1, not {confidence!r}")
    return names


def _score(run: Run, qrels: pd.DataFrame | None, measure: Measure) -> pd.DataFrame:
    # Every judged query listed (`per_query`): the frame then says which judged queries the run
    # left empty, and compare_runs decides about them once for all runs.
    if isinstance(run, Dataset):
        dataset = run if qrels is None else run.with_qrels(qrels)  # (the one join of these lists)
        return dataset.evaluate(measure.per_query())
    return evaluate(run, qrels, measure.per_query())


def _union_index(indexes: list[pd.Index]) -> pd.Index:
    union = indexes[0]
    for index in indexes[1:]:
        if not union.equals(index):
            union = union.union(index, sort=False)
    values = np.sort(np.asarray(union, dtype=object).astype(str).astype(object))
    return pd.Index(values, name="query", dtype=object)


def _deltas(per_query: pd.DataFrame, baseline: str) -> pd.DataFrame:
    others = [c for c in per_query.columns if c != baseline]
    base = per_query[baseline].to_numpy(dtype=float)
    values = sig.snap_ties(per_query[others].to_numpy(dtype=float) - base[:, None])
    return pd.DataFrame(values, index=per_query.index, columns=pd.Index(others, name="run"))


def _paired(per_query, baseline, samples, seed, confidence,
            weights=None) -> tuple[pd.DataFrame, pd.Series]:
    if weights is not None:
        return _weighted_paired(per_query, baseline, samples, seed, confidence, weights)
    deltas = _deltas(per_query, baseline)
    rows, exact = [], []
    for name in deltas.columns:
        d = deltas[name].to_numpy()
        p, is_exact = sig.sign_flip_p(d, samples, seed)
        low, high = sig.bootstrap_ci(d, samples, seed, confidence)
        n = len(d)
        rows.append({
            "mean": float(per_query[name].mean()) if n else np.nan,
            "delta": float(d.mean()) if n else np.nan,
            "wins": int(np.count_nonzero(d > 0)),
            "losses": int(np.count_nonzero(d < 0)),
            "ties": int(np.count_nonzero(d == 0)),
            "t_p": sig.t_test_p(d),
            "rand_p": p,
            "ci_low": low,
            "ci_high": high,
            "effect_size": sig.effect_size(d),
        })
        exact.append(is_exact)
    index = pd.Index(deltas.columns, name="run")
    summary = pd.DataFrame(rows, index=index, columns=SUMMARY_COLUMNS[:-1])
    summary["p_holm"] = sig.holm(summary["rand_p"].to_numpy())
    for column in COUNT_COLUMNS:
        summary[column] = summary[column].astype(np.int64)
    return summary, pd.Series(exact, index=index, dtype=bool, name="exact")


def _weighted_paired(per_query, baseline, samples, seed, confidence,
                     weights) -> tuple[pd.DataFrame, pd.Series]:
    """`_paired` with the queries weighted: the rows of `segment_compare.paired_rows` over every
    query compared, Holm over the runs; no t-test or effect size (no weighted form is given)."""
    rows = paired_rows(per_query, baseline, {"all": np.ones(len(per_query), bool)}, weights, samples, seed,
                       confidence).droplevel("segment")
    summary = rows.reindex(columns=SUMMARY_COLUMNS[:-1])
    summary.index.name = "run"
    summary["p_holm"] = sig.holm(summary["rand_p"].to_numpy())
    for column in COUNT_COLUMNS:
        summary[column] = summary[column].astype(np.int64)
    return summary, rows["exact"].rename("exact").astype(bool)


def _methods(cmp: Comparison) -> dict[str, str]:
    draws, seed = f"{cmp.samples:,}", cmp.seed
    exact = [
        f"{run} (all {2 ** m:,} sign patterns of its {m} non-zero differences, p = count / {2 ** m:,})"
        if m else f"{run} (no non-zero difference: p = 1)"
        for run, m in (cmp.summary["wins"] + cmp.summary["losses"]).items()
        if cmp.exact[run] and not np.isnan(cmp.summary.at[run, "rand_p"])
    ]
    exact_note = f"; exact where there are at most {draws} patterns: {'; '.join(exact)}" if exact else ""
    m = int(cmp.summary["rand_p"].notna().sum())
    counts = (
        f"queries where the run is above / below / within {sig.TIE:g} of the baseline "
        "(a tie is a difference of 0 in every test)"
    )
    interval = (
        f"{cmp.confidence * 100:g} % percentile bootstrap interval of the mean difference: {draws} "
        f"resamples of the queries, numpy default_rng({seed}) (equal to scipy.stats.bootstrap(..., "
        f"method='percentile', rng=numpy.random.default_rng({seed})))"
    )
    return {
        "mean": f"mean NDCG over the {cmp.n_queries:,} queries compared "
        f"(baseline {cmp.baseline}: {cmp.baseline_mean:.4f})",
        "delta": "mean over the queries of (run NDCG - baseline NDCG)",
        "wins": counts,
        "losses": counts,
        "ties": counts,
        "t_p": "Student's paired t-test, two-sided (scipy.stats.ttest_rel); empty when the "
        "differences have no spread (fewer than 2 queries, or all equal)",
        "rand_p": f"paired randomization test, two-sided: {draws} random sign flips of the per-query "
        f"differences, numpy default_rng({seed}); p = (1 + flips with |mean| >= |observed mean|) / "
        f"({draws} + 1){exact_note}",
        "ci_low": interval,
        "ci_high": interval,
        "effect_size": "mean difference / standard deviation of the differences (ddof 1, Cohen's "
        "d_z); empty when that deviation is 0",
        "p_holm": f"Holm's correction of the randomization p over the {m} run{'' if m == 1 else 's'} "
        "compared",
        "verdict": f"better / worse: the randomization p (Holm's when several runs are compared) below "
        f"{ALPHA:g}, the sign of Δ mean saying which; otherwise no detectable difference",
    } | (_weighted_methods(cmp, draws, seed, exact_note) if cmp.weights is not None else {})


def _weighted_methods(cmp: Comparison, draws: str, seed: int, exact_note: str) -> dict[str, str]:
    """What a weighted comparison's figures are, where they differ from the unweighted ones."""
    source = f" ({cmp.weights_from})" if cmp.weights_from else ""
    interval = (f"{cmp.confidence * 100:g} % {BOOTSTRAP_WORDS}; {draws} resamples, numpy default_rng({seed})")
    return {
        "mean": f"weighted mean NDCG over the {cmp.n_queries:,} queries compared, each query weighted by "
        f"its weight{source} (baseline {cmp.baseline}: {cmp.baseline_mean:.4f})",
        "delta": "weighted mean over the queries of (run NDCG - baseline NDCG): sum(w * d) / sum(w)",
        "t_p": "not given with weighted queries (the randomization test is the weighted one)",
        "rand_p": f"{TEST_WORDS}: {draws} random sign flips, numpy default_rng({seed}); p = (1 + flips "
        f"with |sum(w * d)| >= |observed|) / ({draws} + 1){exact_note}",
        "ci_low": interval,
        "ci_high": interval,
        "effect_size": "not given with weighted queries",
    }
