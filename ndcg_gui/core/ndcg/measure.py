"""Which NDCG: one frozen, hashable `Measure` carries every choice of it, as ir_measures'
`nDCG(cutoff=10, judged_only=True)` does: the gain, the discount, the ideal ranking, negative
grades, condensed lists, IDCG = 0, rounding, how grades are read, the cut-off k, the tie rule and
the precision at which it compares scores, and which queries the mean counts. Every scorer, the
SQL writer, the reports, the explanations, the command line and the window take it whole; the
named presets (`presets.py`) are measures.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal, get_args

# Where every path's rounded NDCG is snapped first (`metrics.round_half_away`, the SQL's `rounded`):
# well below the places any preset rounds to (2 and 5).
SNAP_DECIMALS = 12

GainName = Literal["linear", "exponential"]
DiscountName = Literal["log2", "log", "jarvelin"]
IdealName = Literal["judged", "retrieved"]
NegativeName = Literal["keep", "zero"]
IdcgZeroName = Literal["zero", "one"]
IdealOrderName = Literal["sorted", "given"]
IdealDepthName = Literal["k", "list", "all"]
TiesName = Literal["trec", "file", "average"]
TIES: tuple[str, ...] = get_args(TiesName)
PrecisionName = Literal["float32", "float64"]
DocWeightsName = Literal["none", "tf_ranking"]
DOC_WEIGHT_COLUMN = "doc_weight"  # the run's column of document weights (not `weight`: a query's)
Treatment = Literal["zero", "skip"]  # a query the mean counts as 0, or leaves out
TREATMENTS: tuple[str, ...] = get_args(Treatment)

DEFAULT_K = 10  # the cut-off the window opens with and the summary export uses unless told
# The largest cut-off, for both command lines and the window's k box (its range before). The work
# is min(k, list length), never k.
MAX_K = 1_000_000
# The most random draws (and bootstrap resamples) a comparison of runs makes: the bootstrap keeps
# one mean per resample, and a p-value's resolution of 1e-7 is past what any test set supports.
MAX_SAMPLES = 10_000_000
# The choices of the mean: each query's own figure never depends on them (`Measure.per_query`).
MEAN_FIELDS = ("empty", "undefined")


def check_k(k: int | None) -> int | None:
    """A cut-off as a whole number 1..MAX_K, or None (no cut-off); ValueError otherwise."""
    if k is None:
        return None
    if isinstance(k, bool) or not isinstance(k, numbers.Integral) or not 1 <= k <= MAX_K:
        raise ValueError(f"k must be a whole number from 1 to {MAX_K:,} (or None for no cut-off), not {k!r}")
    return int(k)


class GainTable(Mapping[float, float]):
    """A read-only, hashable grade → gain mapping (so a `Measure` stays frozen and hashable)."""

    def __init__(self, table: Mapping[float, float]) -> None:
        items = {}
        for grade, gain in table.items():
            g, v = float(grade), float(gain)
            if not (math.isfinite(g) and math.isfinite(v)):
                raise ValueError(f"gain table entry {grade!r}: {gain!r} is not a pair of finite numbers")
            items[g] = v
        self._items = dict(sorted(items.items()))

    def __getitem__(self, grade: float) -> float:
        return self._items[float(grade)]

    def __iter__(self) -> Iterator[float]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __hash__(self) -> int:
        return hash(tuple(self._items.items()))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Mapping) and dict(self._items) == {
            float(k): float(v) for k, v in other.items()
        }

    def __repr__(self) -> str:
        return "{" + ", ".join(f"{_num(k)}: {_num(v)}" for k, v in self._items.items()) + "}"


class DiscountTable(tuple):
    """A read-only discount per rank, rank 1 first; ranks past its end get discount 0 (a list is
    scored no deeper than its table, as a tool with a discount per position does)."""

    def __new__(cls, values) -> DiscountTable:
        try:
            items = tuple(float(v) for v in values)
        except (TypeError, ValueError):
            raise ValueError(f"a discount table must be numbers, not {values!r:.80}") from None
        if not items:
            raise ValueError("a discount table needs at least one rank")
        if not all(math.isfinite(v) and v >= 0 for v in items):
            raise ValueError(f"discount table entries must be finite numbers ≥ 0, not {values!r:.80}")
        return super().__new__(cls, items)

    def __repr__(self) -> str:
        return "(" + ", ".join(_num(v) for v in self) + ")"


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else repr(x)


@dataclass(frozen=True, kw_only=True)
class Measure:
    """One NDCG, every choice of it.

    k         the cut-off: NDCG@k; None scores whole lists against the whole ideal ranking
              (trec_eval's ndcg, ir_measures' nDCG without a cutoff).
    gain      "linear" (the grade), "exponential" (2^grade − 1), or a mapping grade → gain
              (grades not in the mapping keep their own value, as in trec_eval's `ndcg_1=3,...`).
    discount  "log2": 1/log2(i+1) at rank i. "jarvelin": the original Järvelin–Kekäläinen form with
              base `base`: 1 for i < base, 1/log_base(i) for i ≥ base.
    base      the logarithm base of the "jarvelin" discount (> 1). Ignored by "log2".
    ideal     "judged": the ideal ranking is built from every judged document of the query when the
              judged pool is known (trec_eval, ranx, ir_measures); "retrieved": from the list's own
              grades only (scikit-learn).
    negative  "keep": negative grades are used as given (NDCG may leave [0, 1]); "zero": they get
              gain 0 and so never enter the ideal ranking (trec_eval).
    ties      equal scores: "trec" orders them by doc id in descending byte order (trec_eval);
              "file" keeps the file's order (a stable sort: XGBoost, LightGBM); "average" gives
              each the mean gain of its group (scikit-learn). Equal ranks keep file order.
    precision the precision at which tied scores are found and the list is ranked: "float32"
              (trec_eval 9.x and pytrec_eval keep `float sim`; XGBoost's predictions), "float64"
              (trec_eval 10.0, scikit-learn, LightGBM), or None: the tie rule's usual one
              (`score_precision`: float32 under "trec", float64 otherwise).
    empty     a judged query the run returned nothing for: "zero" scores it 0 and counts it in
              the mean (trec_eval -c), "skip" leaves it out (trec_eval without -c, pytrec_eval).
    undefined a query with IDCG = 0 (no relevant judged document) in the mean: "zero" counts its
              figure (trec_eval, ranx), "skip" leaves it out.

    The choices below are those some tools make; their defaults are the common ones.
    discount  also "log": 1/log_base(i+1) at rank i (scikit-learn's `log_base`: DCG changes,
              NDCG does not), or a sequence: the discount of ranks 1, 2, … (a discount table;
              ranks past its end get 0).
    judged_only  condensed lists: unjudged documents are removed from the list before it is
              scored, the documents below them move up (trec_eval -J, pytrec_eval
              judged_docs_only_flag, ir_measures judged_only). With negative="zero" a negative
              grade counts as unjudged too, as in trec_eval (a grade < 0 is "in the pool but
              unjudged": trec_eval form_res_rels.c, RELVALUE_UNJUDGED).
    idcg_zero "zero": NDCG is 0 where IDCG = 0 (trec_eval, XGBoost ndcg-); "one": 1 (XGBoost
              ndcg, LightGBM).
    ideal_order  "sorted": the ideal ranking is the pool sorted by gain; "given": the pool in the
              order it is given (the qrels' file order; Spark MLlib ndcgAt), so NDCG can pass 1.
    ideal_depth  how deep the ideal ranking goes at cut-off k: "k" (trec_eval, scikit-learn),
              "list": min(k, the list's length) (Elasticsearch rank_eval), "all": the whole
              ideal ranking, never cut (Quepid's nDCG@k).
    rounding  each query's NDCG rounded half away from zero to this many decimals (OpenSearch
              Search Relevance Workbench: 2), or None.
    truncate_grades  grades cut to their whole part before anything else, as trec_eval reads
              them (C `atol`: 2.5 is 2, -0.5 is 0), or used as given.
    doc_weights  "none": a run's `doc_weight` column is only carried; "tf_ranking": each
              document's weight applies as TF-Ranking's per-example weights do
              (tensorflow_ranking/python/metrics_impl.py: NDCGMetric._compute_impl, lines
              652-670; _per_example_weights_to_per_list_weights, lines 63-118; metrics.py:503,
              tf.compat.v1.metrics.mean(per_list_ndcg, per_list_weights)): it multiplies
              the document's gain in DCG, the ideal ranking is the list's documents sorted by
              weight × gain (so IDCG is weighted too), a document of weight 0 leaves the list
              (the mask, line 261), and the mean over lists is weighted by each list's weight:
              the gain-weighted mean of its documents' weights, Σ w·g / Σ g; a list without gain
              gets the mean of the other lists' weights, a list whose weights are all 0 gets 0.
              Needs the ideal from the list (ideal="retrieved", as TF-Ranking has no other),
              sorted, and ties by doc id or file order.
    """

    k: int | None = None
    gain: GainName | Mapping[float, float] = "linear"
    discount: DiscountName | Sequence[float] = "log2"
    base: float = 2
    ideal: IdealName = "judged"
    negative: NegativeName = "keep"
    judged_only: bool = False
    idcg_zero: IdcgZeroName = "zero"
    ideal_order: IdealOrderName = "sorted"
    ideal_depth: IdealDepthName = "k"
    rounding: int | None = None
    truncate_grades: bool = False
    ties: TiesName = "trec"
    precision: PrecisionName | None = None
    empty: Treatment = "zero"
    undefined: Treatment = "zero"
    doc_weights: DocWeightsName = "none"
    gain_table: GainTable | None = field(init=False, repr=False, compare=False, default=None)
    discount_table: DiscountTable | None = field(init=False, repr=False, compare=False, default=None)

    def __post_init__(self) -> None:
        object.__setattr__(self, "k", check_k(self.k))
        if isinstance(self.gain, Mapping):
            table = self.gain if isinstance(self.gain, GainTable) else GainTable(self.gain)
            object.__setattr__(self, "gain", table)
            object.__setattr__(self, "gain_table", table)
        elif self.gain not in ("linear", "exponential"):
            raise ValueError(
                f"gain must be 'linear', 'exponential' or a grade → gain mapping, not {self.gain!r}"
            )
        if isinstance(self.discount, str):
            if self.discount not in get_args(DiscountName):
                raise ValueError(
                    f"discount must be 'log2', 'log', 'jarvelin' or a sequence of discounts, "
                    f"not {self.discount!r}"
                )
        else:
            table = DiscountTable(self.discount)
            object.__setattr__(self, "discount", table)
            object.__setattr__(self, "discount_table", table)
        try:
            base = float(self.base)
        except (TypeError, ValueError):
            raise ValueError(f"base must be a number greater than 1, not {self.base!r}") from None
        if not (math.isfinite(base) and base > 1):
            raise ValueError(f"base must be a number greater than 1, not {self.base!r}")
        object.__setattr__(self, "base", base)
        if self.ideal not in ("judged", "retrieved"):
            raise ValueError(f"ideal must be 'judged' or 'retrieved', not {self.ideal!r}")
        if self.negative not in ("keep", "zero"):
            raise ValueError(f"negative must be 'keep' or 'zero', not {self.negative!r}")
        for name in ("judged_only", "truncate_grades"):
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"{name} must be True or False, not {getattr(self, name)!r}")
        for name, kind in (("idcg_zero", IdcgZeroName), ("ideal_order", IdealOrderName),
                           ("ideal_depth", IdealDepthName), ("ties", TiesName), ("empty", Treatment),
                           ("undefined", Treatment)):
            if getattr(self, name) not in get_args(kind):
                choices = " or ".join(repr(c) for c in get_args(kind))
                raise ValueError(f"{name} must be {choices}, not {getattr(self, name)!r}")
        if self.precision not in (None, *get_args(PrecisionName)):
            raise ValueError(f"precision must be 'float32', 'float64' or None, not {self.precision!r}")
        self._check_doc_weights()
        r = self.rounding
        if r is not None and (isinstance(r, bool) or not isinstance(r, int) or not 0 <= r <= 15):
            raise ValueError(f"rounding must be a whole number of decimals 0..15 or None, not {r!r}")

    def _check_doc_weights(self) -> None:
        if self.doc_weights not in get_args(DocWeightsName):
            raise ValueError(f"doc_weights must be 'none' or 'tf_ranking', not {self.doc_weights!r}")
        if self.doc_weights == "none":
            return
        # (TF-Ranking's ideal is the list's own documents, sorted by weight × gain)
        if self.ideal != "retrieved" or self.ideal_order != "sorted" or self.ties == "average":
            raise ValueError("doc_weights='tf_ranking' needs ideal='retrieved', ideal_order='sorted' and "
                             f"ties 'trec' or 'file' (TF-Ranking's), not ideal={self.ideal!r}, "
                             f"ideal_order={self.ideal_order!r}, ties={self.ties!r}")

    def with_(self, **changes: object) -> Measure:
        """A copy with some choices changed (the gain table is rebuilt from `gain`)."""
        return replace(self, **changes) if changes else self  # type: ignore[arg-type]

    def at(self, k: int | None) -> Measure:
        """This measure at cut-off k (ir_measures' `nDCG@10`): itself at its own k (a measure is
        immutable; making one checks every choice again)."""
        if k == self.k and type(k) is type(self.k):
            return self
        return self.with_(k=k)

    @property
    def score_precision(self) -> PrecisionName:
        """The precision at which the tie rule compares scores: the measure's own, or the rule's
        usual one (trec_eval's float32 for "trec", the numbers as given otherwise). Every scorer
        ranks with this (`core.arrays.order.score_key`), in memory and in SQL."""
        if self.precision is not None:
            return self.precision
        return "float32" if self.ties == "trec" else "float64"

    def per_query(self) -> Measure:
        """The choices each query's figure depends on: this measure with the mean's at their
        defaults, so every judged query is listed (a query the run left empty scores 0). A
        table scored under it serves every mean policy (`mean.mean_summary` applies this one's),
        which is what the window, the reports and the caches keep."""
        if (self.empty, self.undefined) == ("zero", "zero"):
            return self
        return self.with_(empty="zero", undefined="zero")

    def describe(self) -> str:
        """One line that says which NDCG this is (its gain, discount, ideal, negative grades and
        rarer choices; not k, the tie rule or the mean), for headlines, tooltips and file headers."""
        if isinstance(self.gain, Mapping):
            gain = f"gain table {self.gain!r}"
        elif self.gain == "exponential":
            gain = "gain 2^rel − 1"
        else:
            gain = "gain = rel"
        if self.discount_table is not None:
            disc = f"discount table {self.discount_table!r}, 0 past rank {len(self.discount_table)}"
        elif self.discount == "log2":
            disc = "discount 1/log2(i+1)"
        elif self.discount == "log":
            disc = f"discount 1/log_{_num(self.base)}(i+1)"
        else:
            b = _num(self.base)
            disc = f"discount 1 for i < {b}, else 1/log_{b}(i) (Järvelin–Kekäläinen)"
        ideal = (
            "ideal from all judged documents"
            if self.ideal == "judged"
            else "ideal from the list's own grades"
        )
        neg = "negative grades kept" if self.negative == "keep" else "negative grades count as 0"
        return "; ".join([gain, disc, ideal, neg, *self._describe_more()])

    def _describe_more(self) -> list[str]:
        """The rarer choices, said only when they differ from the default (so the common
        definitions keep their one line)."""
        more = []
        if self.truncate_grades:
            more.append("grades cut to their whole part (atol: 2.5 is 2)")  # (one headline line at 1366)
        if self.precision is not None:
            more.append(f"scores compared as {self.precision}")
        if self.judged_only:
            more.append("unjudged documents removed (condensed list)")
        if self.ideal_order == "given":
            more.append("ideal in the order the judgments are given, not sorted")
        if self.ideal_depth == "list":
            more.append("ideal cut at min(k, list length)")
        elif self.ideal_depth == "all":
            more.append("ideal never cut (the whole ideal ranking at every k)")
        if self.idcg_zero == "one":
            more.append("IDCG = 0 scores 1")
        if self.rounding is not None:
            more.append(f"each query's NDCG rounded to {self.rounding} decimals")
        if self.doc_weights == "tf_ranking":
            more.append("document weights × gain, lists weighted as TF-Ranking weights them")
        return more

    def describe_mean(self) -> str:
        """Which queries the mean counts, in words."""
        empty = (
            "judged queries with no results count as 0"
            if self.empty == "zero"
            else "judged queries with no results left out"
        )
        undefined = "queries with IDCG = 0 " + (
            "count as 0" if self.undefined == "zero" else "left out"
        )
        return f"{empty}; {undefined}"
