"""One query's two ranked lists side by side (run A against run B), the moves said in words, and
the figures a window shows of a run comparison (the delta histogram's bins, one summary line).

    >>> diff = side_by_side(["d1", "d2", "d3"], ["d3", "d1"], {"d3": 2, "d1": 0}, Measure(k=10))
    >>> biggest_moves(diff, 2)
    ['d3 (grade 2) rose from 3 to 1', 'd2 (unjudged) is not in B (was 2)']

A move's weight is its effect on DCG@k: gain x (discount at the new rank - discount at the old
one), where a rank beyond k or missing has discount 0. A relevant document rising into the top
ranks is what changed the figure, so it is said first; moves of irrelevant documents follow by
how far they went.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

import numpy as np

from ndcg_gui.core.lists.numbers import format_grade
from ndcg_gui.core.ndcg.mean import bin_index
from ndcg_gui.core.ndcg.measure import Measure
from ndcg_gui.core.ndcg.metrics import discounts, gains

if TYPE_CHECKING:
    import pandas as pd

    from ndcg_gui.core.analysis.runs.compare import Comparison

DIFF_COLUMNS = ["grade", "gain", "rank_a", "rank_b", "move", "effect"]
DELTA_STEP = 0.1  # width of a delta histogram bin; the middle one is centred on 0


def side_by_side(
    a: Sequence[str] | np.ndarray,
    b: Sequence[str] | np.ndarray,
    judgments: Mapping[str, float],
    measure: Measure | None = None,
) -> pd.DataFrame:
    """Every document of list `a` or list `b` (ranked, best first), one row each, index `doc`:

    grade    from `judgments` (NaN: unjudged); gain under `measure` (default `Measure(k=10)`; 0
             for unjudged)
    rank_a, rank_b   1-based rank in each list, NaN where the list does not hold it
    move     rank_a - rank_b: > 0 when the document is higher in b (NaN if in one list only)
    effect   its change of DCG@k from a to b: gain x (discount(rank_b) - discount(rank_a)), a
             rank beyond k or missing counting 0 (k=None: every rank counts)

    Rows in a's order, then the documents only b holds in b's order. A document listed twice in
    one list keeps its first rank (a list's later copy scores like any other row, but one line
    joins one document).
    """
    measure = measure or Measure(k=10)
    k = measure.k
    rank_a, rank_b = _first_ranks(a), _first_ranks(b)
    docs = list(rank_a) + [d for d in rank_b if d not in rank_a]
    ra = np.array([rank_a.get(d, np.nan) for d in docs], dtype=float)
    rb = np.array([rank_b.get(d, np.nan) for d in docs], dtype=float)
    grade = np.array([judgments.get(d, np.nan) for d in docs], dtype=float)
    gain = np.where(np.isnan(grade), 0.0, gains(np.nan_to_num(grade), measure))
    longest = int(np.nanmax(np.concatenate([ra, rb, [0.0]])))
    disc = np.concatenate([[0.0], discounts(longest, measure)])  # disc[0]: not ranked
    if k is not None:
        disc[k + 1:] = 0.0

    def at(ranks: np.ndarray) -> np.ndarray:
        return disc[np.nan_to_num(ranks, nan=0.0).astype(np.int64)]

    import pandas as pd  # lazy: start-up (pandas)

    frame = pd.DataFrame(
        {"grade": grade, "gain": gain, "rank_a": ra, "rank_b": rb, "move": ra - rb,
         "effect": gain * (at(rb) - at(ra))},
        index=pd.Index(docs, name="doc", dtype=object),
    )
    return frame[DIFF_COLUMNS]


def _first_ranks(docs: Sequence[str] | np.ndarray) -> dict[str, float]:
    ranks: dict[str, float] = {}
    for i, doc in enumerate(map(str, docs), start=1):
        ranks.setdefault(doc, float(i))
    return ranks


def biggest_moves(diff: pd.DataFrame, n: int = 5, names: tuple[str, str] = ("A", "B")) -> list[str]:
    """At most `n` moves of a `side_by_side` frame in words, the largest effect on DCG@k first,
    then the longest move (a document in one list only counts as moved from or to just below the
    longer list). Documents that kept their rank are not moves."""
    a, b = names
    moved = diff[~(diff["move"] == 0)]
    if not len(moved):
        return []
    below = float(np.nanmax(diff[["rank_a", "rank_b"]].to_numpy(), initial=0.0)) + 1
    distance = (moved["rank_a"].fillna(below) - moved["rank_b"].fillna(below)).abs()
    order = np.lexsort((distance.to_numpy(), moved["effect"].abs().to_numpy()))[::-1]
    return [_words(doc, row, a, b) for doc, row in moved.iloc[order[:n]].iterrows()]


def _words(doc: str, row: pd.Series, a: str, b: str) -> str:
    grade = "unjudged" if math.isnan(row["grade"]) else f"grade {format_grade(row['grade'])}"
    ra, rb = row["rank_a"], row["rank_b"]
    if math.isnan(rb):
        return f"{doc} ({grade}) is not in {b} (was {ra:.0f})"
    if math.isnan(ra):
        return f"{doc} ({grade}) is only in {b}, at {rb:.0f}"
    verb = "rose" if rb < ra else "fell"
    return f"{doc} ({grade}) {verb} from {ra:.0f} to {rb:.0f}"


# ---- figures of a comparison as a window shows them ---------------------------------------------


def delta_histogram(values: np.ndarray, step: float = DELTA_STEP) -> tuple[np.ndarray, np.ndarray]:
    """(edges, counts) of per-query differences: bins `step` wide with the middle one centred on
    0 (ties and near-ties together), as many on each side as the values reach."""
    values = np.asarray(values, dtype=float)
    values = values[~np.isnan(values)]
    half = step / 2
    lo_bins = int(np.ceil(max(0.0, -values.min() - half) / step - 1e-9)) if len(values) else 0
    hi_bins = int(np.ceil(max(0.0, values.max() - half) / step - 1e-9)) if len(values) else 0
    edges = np.arange(-lo_bins, hi_bins + 2) * step - half
    edges = np.round(edges, 12)
    counts = np.bincount(bin_index(values, edges), minlength=len(edges) - 1) if len(values) else \
        np.zeros(len(edges) - 1, dtype=np.int64)
    return edges, counts


def format_p(p: float) -> str:
    """A p-value to three significant figures ("p = 0.0213"), or 'n/a' when undefined."""
    if p is None or math.isnan(p):
        return "n/a"
    return f"{p:.3g}"


def p_texts(cmp: Comparison, run: str) -> tuple[str, str]:
    """`run`'s randomization p and Holm's, as read. A sampled test's smallest p, 1 / (draws + 1),
    says only that no draw reached the observed difference: it is shown as the bound it is
    ('< 0.0001' for 10,000 draws), and so is Holm's multiple of it."""
    row = cmp.summary.loc[run]
    p, holm = row["rand_p"], row["p_holm"]
    if not cmp.at_floor(run):
        return format_p(p), format_p(holm)
    times = holm * (cmp.samples + 1)
    holm_text = f"< {round(times) / cmp.samples:.2g}" if abs(times - round(times)) < 1e-6 else format_p(holm)
    return f"< {1 / cmp.samples:.2g}", holm_text


def summary_cells(cmp: Comparison) -> tuple[list[tuple[str, str]], list[list[str]]]:
    """The comparison's figures as a window's table shows them: ([(header, how it was made)], one
    row of cells per run, the baseline first with its mean only). Holm's column only when several
    runs are compared with the baseline."""
    at = f"@{cmp.k}" if cmp.k is not None else ""
    how = cmp.methods
    several = len(cmp.summary) > 1
    level = f"{cmp.confidence * 100:g} %"
    columns = [
        ("Run", "The baseline first, then each run compared with it"),
        (f"NDCG{at}", how["mean"]),
        ("Δ mean", how["delta"]),
        ("W / T / L", "wins / ties / losses: " + how["wins"]),
        ("p", how["rand_p"]),
        *([("p (Holm)", how["p_holm"])] if several else []),
        ("p (t-test)", how["t_p"]),
        (f"{level} CI of Δ", how["ci_low"]),
        ("Effect (d)", how["effect_size"]),
        ("Verdict", how["verdict"]),
    ]
    means = cmp.means
    rows = [[cmp.baseline, f"{means[cmp.baseline]:.4f}" if cmp.n_queries else "n/a"]
            + [""] * (len(columns) - 2)]
    for run, row in cmp.summary.iterrows():
        effect = "n/a" if math.isnan(row["effect_size"]) else f"{row['effect_size']:+.2f}"
        p, holm = p_texts(cmp, run)
        rows.append([
            str(run), f"{means[run]:.4f}" if cmp.n_queries else "n/a",
            "n/a" if math.isnan(row["delta"]) else f"{row['delta']:+.4f}",
            f"{int(row['wins'])} / {int(row['ties'])} / {int(row['losses'])}",
            p, *([holm] if several else []),
            format_p(row["t_p"]), _interval(row), effect, cmp.verdict(run),
        ])
    return columns, rows


def _interval(row: pd.Series) -> str:
    """A summary row's bootstrap interval of the difference, or 'n/a'."""
    return "n/a" if math.isnan(row["ci_low"]) else f"[{row['ci_low']:+.4f}, {row['ci_high']:+.4f}]"


def delta_line(cmp: Comparison, run: str) -> str:
    """One line of `cmp.summary[run]` for a window: the mean difference, wins/ties/losses, the
    randomization test's p with its draws and seed (Holm's when several runs are compared), and
    the bootstrap interval (its resamples and seed are the test's). `cmp.describe()` says how
    each was computed."""
    row = cmp.summary.loc[run]
    at = f"@{cmp.k}" if cmp.k is not None else ""
    if cmp.n_queries == 0:
        return f"{run} − {cmp.baseline}: no query to compare"
    m = int(row["wins"] + row["losses"])
    if cmp.exact[run]:
        test = f"paired randomization test, all {2 ** m:,} sign patterns" if m else "no difference"
    else:
        test = f"paired randomization test, {cmp.samples:,} sign flips, seed {cmp.seed}"
    p, holm = p_texts(cmp, run)
    holm = f", Holm {holm}" if len(cmp.summary) > 1 else ""
    ci = _interval(row)
    p = f"p {p}" if p.startswith("<") else f"p = {p}"
    return (
        f"{run} − {cmp.baseline}: {cmp.verdict(run)} · Δ mean NDCG{at} {row['delta']:+.4f} "
        f"({cmp.n_queries:,} queries) · W/T/L {int(row['wins'])}/{int(row['ties'])}/{int(row['losses'])} "
        f"· {p} ({test}{holm}) · {cmp.confidence * 100:g} % bootstrap CI {ci}"
    )
