"""Which NDCG: the definition of gain, discount, ideal ranking and negative grades.

The variants that tools silently disagree on are all fields of one frozen `MetricConfig`,
and the named presets reproduce the tools they are named after.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal, get_args

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
MISSING = ("zero", "skip")  # a judged query the run returned nothing for: scored 0, or left out


def score_precision(config: MetricConfig, ties: str) -> PrecisionName:
    """The precision at which the tie rule compares scores: the definition's own, or the rule's
    usual one (trec_eval's float32 for "trec", the numbers as given otherwise). Every scorer
    ranks with this (`core.arrays.order.score_key`), in memory and in SQL."""
    if config.precision is not None:
        return config.precision
    return "float32" if ties == "trec" else "float64"


def check_rules(ties: str, missing: str = "zero") -> None:
    """A ValueError naming the choices when the tie rule or the missing-query rule is unknown."""
    for what, value, choices in (("ties", ties, TIES), ("missing", missing, MISSING)):
        if value not in choices:
            raise ValueError(f"{what} must be one of {', '.join(choices)}, not {value!r}")

DEFAULT_K = 10  # the cut-off the window opens with and the summary export uses unless told
# The largest cut-off, for both command lines and the window's k box (its range before). The work
# is min(k, list length), never k.
MAX_K = 1_000_000
# The most random draws (and bootstrap resamples) a comparison of runs makes: the bootstrap keeps
# one mean per resample, and a p-value's resolution of 1e-7 is past what any test set supports.
MAX_SAMPLES = 10_000_000
# The definition the window's first session and the command lines (without --preset) use; the
# library's `MetricConfig()` is the same but keeps negative grades.
DEFAULT_PRESET = "trec_eval"


class GainTable(Mapping[float, float]):
    """A read-only, hashable grade → gain mapping (so `MetricConfig` stays frozen and hashable)."""

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


@dataclass(frozen=True)
class MetricConfig:
    """One definition of NDCG.

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
    precision the precision at which tied scores are found and the list is ranked: "float32"
              (trec_eval 9.x and pytrec_eval keep `float sim`; XGBoost's predictions), "float64"
              (trec_eval 10.0, scikit-learn, LightGBM), or None: the tie rule's usual one
              (`score_precision`).
    truncate_grades  grades cut to their whole part before anything else, as trec_eval reads
              them (C `atol`: 2.5 is 2, -0.5 is 0), or used as given.
    """

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
    precision: PrecisionName | None = None
    truncate_grades: bool = False
    gain_table: GainTable | None = field(init=False, repr=False, compare=False, default=None)
    discount_table: DiscountTable | None = field(init=False, repr=False, compare=False, default=None)

    def __post_init__(self) -> None:
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
        if not isinstance(self.judged_only, bool):
            raise ValueError(f"judged_only must be True or False, not {self.judged_only!r}")
        for name, kind in (("idcg_zero", IdcgZeroName), ("ideal_order", IdealOrderName),
                           ("ideal_depth", IdealDepthName)):
            if getattr(self, name) not in get_args(kind):
                choices = " or ".join(repr(c) for c in get_args(kind))
                raise ValueError(f"{name} must be {choices}, not {getattr(self, name)!r}")
        if self.precision not in (None, *get_args(PrecisionName)):
            raise ValueError(f"precision must be 'float32', 'float64' or None, not {self.precision!r}")
        if not isinstance(self.truncate_grades, bool):
            raise ValueError(f"truncate_grades must be True or False, not {self.truncate_grades!r}")
        r = self.rounding
        if r is not None and (isinstance(r, bool) or not isinstance(r, int) or not 0 <= r <= 15):
            raise ValueError(f"rounding must be a whole number of decimals 0..15 or None, not {r!r}")

    @classmethod
    def preset(cls, name: str) -> MetricConfig:
        """The definition a named tool uses: see `PRESETS`."""
        try:
            return PRESETS[name].config
        except KeyError:
            raise ValueError(
                f"unknown preset {name!r}; choose one of: {', '.join(PRESETS)}"
            ) from None

    def with_(self, **changes: object) -> MetricConfig:
        """A copy with some fields changed (the gain table is rebuilt from `gain`)."""
        return replace(self, **changes)  # type: ignore[arg-type]

    def describe(self) -> str:
        """One line that says which NDCG this is, for headlines, tooltips and file headers."""
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
        return more

    def preset_name(self) -> str | None:
        """The name of the preset this definition equals, if any."""
        for name, preset in PRESETS.items():
            # (a definition that leaves the precision to its tie rule equals the preset it otherwise is)
            if preset.config == self or (self.precision is None
                                         and preset.config.with_(precision=None) == self):
                return name
        return None


@dataclass(frozen=True)
class Preset:
    config: MetricConfig
    ties: TiesName
    label: str
    description: str


PRESETS: dict[str, Preset] = {
    "trec_eval": Preset(
        MetricConfig(gain="linear", discount="log2", ideal="judged", negative="zero",
                     precision="float32", truncate_grades=True),
        ties="trec",
        label="trec_eval",
        description=(
            "trec_eval ndcg / ndcg_cut: gain = grade, 1/log2(i+1), ideal from every judged "
            "document, negative grades as 0, tied scores by docno descending; as trec_eval 9.x "
            "and pytrec_eval, which keep scores as float32 (`float sim`: 1.0 and 1.0000001 tie; "
            "trec_eval 10.0 compares double: precision='float64'); a grade is read with C atol, "
            "its whole part (2.5 is 2, 0.5 is 0; the text 1e1 is 1), where pytrec_eval refuses "
            "a fractional grade"
        ),
    ),
    "sklearn": Preset(
        MetricConfig(gain="linear", discount="log2", ideal="retrieved", negative="keep", precision="float64"),
        ties="average",
        label="scikit-learn",
        description=(
            "sklearn.metrics.ndcg_score: gain = grade, 1/log2(i+1), ideal from the list's own "
            "grades, tied scores (equal as the float64 numbers given) share their average gain"
        ),
    ),
    "ranx_burges": Preset(
        MetricConfig(gain="exponential", discount="log2", ideal="judged", negative="zero",
                     precision="float64", truncate_grades=True),
        ties="trec",
        label="ranx (Burges)",
        description=(
            "ranx ndcg_burges: gain 2^rel − 1, 1/log2(i+1), ideal from every judged document, "
            "cut at k. ranx counts only judgments with grade ≥ 1 (rel_lvl=1): zero and negative "
            "grades add nothing, as here; ranx keeps grades as integers (Qrels: a grade of 2.5 "
            "is 2), so grades are cut to their whole part here too. Scores are float64; ranx "
            "leaves the order of tied scores to its sort; here they go by docno, as trec_eval"
        ),
    ),
    "jarvelin2002": Preset(
        MetricConfig(gain="linear", discount="jarvelin", base=2, ideal="judged", negative="keep",
                     precision="float64"),
        ties="file",
        label="Järvelin–Kekäläinen 2002",
        description=(
            "Järvelin & Kekäläinen (2002): gain = grade, ranks below b = 2 undiscounted, "
            "then 1/log2(i)"
        ),
    ),
}

# Tools whose NDCG is one of the definitions above, named after the tool. Lines cited from: XGBoost
# master 379b29f (checked against xgboost 3.2.0), LightGBM master bae0b7b (checked against 4.7.0),
# ranx 0.3.21, Elasticsearch main, Quepid main, Spark master (mllib RankingMetrics.scala).
PRESETS.update({
    "trec_eval_J": Preset(
        MetricConfig(gain="linear", discount="log2", ideal="judged", negative="zero", judged_only=True,
                     precision="float32", truncate_grades=True),
        ties="trec",
        label="trec_eval -J",
        description=(
            "trec_eval -J ndcg_cut (= pytrec_eval judged_docs_only_flag=True, ir_measures "
            "nDCG(judged_only=True)): as trec_eval, on condensed lists: unjudged documents are "
            "removed before ranking; quirk: a negative grade is 'in the pool, unjudged' "
            "(RELVALUE_UNJUDGED) and is removed too (trec_eval form_res_rels.c, "
            "te_form_res_rels: judged_docs_only_flag keeps only docs with rel >= 0); scores as "
            "float32 and grades cut to their whole part, as trec_eval (a grade of -0.5 is 0: judged)"
        ),
    ),
    "ranx": Preset(
        MetricConfig(gain="linear", discount="log2", ideal="judged", negative="zero",
                     precision="float64", truncate_grades=True),
        ties="trec",
        label="ranx (ndcg)",
        description=(
            "ranx ndcg (Järvelin gain: the grade): ranx/metrics/ndcg.py:36 rel/log2(i+1); "
            "_idcg = _dcg(qrels, qrels, k) (line 52), the judged pool cut at k; quirk: "
            "clean_qrels(qrels, rel_lvl=1) (line 13) drops judgments below 1 and "
            "Qrels keeps grades as integers (2.5 is 2), so grades are cut to their whole part "
            "here and those in (0, 1) count 0 as in ranx; scores are float64; IDCG = 0 is "
            "replaced by 1 (line 62), "
            "which gives 0 as DCG is 0 then. Tied scores: ranx's sort, here by docno as trec_eval"
        ),
    ),
    "xgboost": Preset(
        MetricConfig(gain="exponential", discount="log2", ideal="retrieved", negative="keep",
                     idcg_zero="one", precision="float32"),
        ties="file",
        label="XGBoost ndcg",
        description=(
            "XGBoost eval_metric ndcg@k: gain 2^label − 1 (src/common/ranking_utils.h:43, "
            "ndcg_exp_gain=true), 1/log2(i+1) (line 47), ideal from the group's own labels cut at "
            "k (src/common/ranking_utils.cc:96-105); quirks: a group with IDCG = 0 scores 1 "
            "(src/metric/rank_metric.cc:384-385, 'ndcg-' scores 0); tied predictions keep the "
            "data order (StableSort in src/common/algorithm.h:85) and predictions are float32 "
            "(bst_float), so scores equal as float32 are tied; "
            "labels must be whole numbers ≥ 0"
        ),
    ),
    "xgboost_minus": Preset(
        MetricConfig(gain="exponential", discount="log2", ideal="retrieved", negative="keep",
                     precision="float32"),
        ties="file",
        label="XGBoost ndcg-",
        description=(
            "XGBoost eval_metric ndcg@k- (the trailing minus): as XGBoost ndcg, but a group "
            "with IDCG = 0 scores 0 (src/metric/rank_metric.cc:385, minus_ ? 0.0 : 1.0)"
        ),
    ),
    "lightgbm": Preset(
        MetricConfig(gain="exponential", discount="log2", ideal="retrieved", negative="keep",
                     idcg_zero="one", precision="float64"),
        ties="file",
        label="LightGBM ndcg",
        description=(
            "LightGBM metric ndcg, eval_at k: label_gain 2^i − 1 by default "
            "(src/metric/dcg_calculator.cpp:37-42; another label_gain is a gain table), "
            "1/log2(2+i) (line 52), ideal from the query's own labels, cut at min(k, n) "
            "(CalMaxDCGAtK, lines 56-80), ties by std::stable_sort on score (line 122: data "
            "order; scores are double); quirk: a query with IDCG ≤ 0 scores 1 "
            "(src/metric/rank_metric.hpp:99-101); "
            "labels are whole numbers ≥ 0"
        ),
    ),
    "elasticsearch": Preset(
        MetricConfig(gain="exponential", discount="log2", ideal="judged", negative="keep",
                     ideal_depth="list", precision="float64"),
        ties="file",
        label="Elasticsearch rank_eval dcg (normalize)",
        description=(
            "Elasticsearch rank_eval dcg with normalize: true (DiscountedCumulativeGain.java, "
            "evaluate and computeDCG): gain 2^rating − 1, 1/log2(rank+1), unrated hits add "
            "nothing (unknown_doc_rating null) but keep their rank; quirk: the ideal is every "
            "rated document sorted, cut at the number of hits, "
            "allRatings.subList(0, Math.min(ratingsInSearchHits.size(), allRatings.size())), "
            "not at k; IDCG = 0 gives 0; hits in the engine's order"
        ),
    ),
    "quepid": Preset(
        MetricConfig(gain="exponential", discount="log2", ideal="judged", negative="keep",
                     ideal_depth="all", precision="float64"),
        ties="file",
        label="Quepid nDCG@10",
        description=(
            "Quepid scorer db/scorers/ndcg@10.js: DCG of the first k ratings (missing rating "
            "0), gain 2^r − 1, 1/log2(i+2) from 0; quirk: nDCG divides by "
            "DCG(ideal, ideal.length): every rated document sorted, never cut at k; 0 when "
            "that is 0; results in the engine's order"
        ),
    ),
    "spark": Preset(
        MetricConfig(gain="exponential", discount="log", base=math.e, ideal="judged", negative="keep",
                     ideal_order="given", precision="float64"),
        ties="file",
        label="Spark MLlib ndcgAt (graded)",
        description=(
            "Spark mllib RankingMetrics.ndcgAt with relevance values (RankingMetrics.scala, "
            "ndcgAt; lines of Spark 3.5.9): gain 2^rel − 1 over ln(i+2) (lines 188, 191; DCG is "
            "log2's times 1/ln 2, NDCG the same), positions min(max(|pred|, |labels|), k) (line "
            "171), which equals the cut at k; quirks: the ideal takes the labels in the order "
            "given, lab(i), not sorted (line 191), so NDCG can pass 1; a query without labels "
            "scores 0 and counts in the mean (lines 203-204); an ideal of 0 scores 0 (lines "
            "196-198). Without relevance values (binary, line 179) every label has gain 1: grades "
            "1; PySpark's RankingMetrics drops relevance values (PythonMLLibAPI.scala:1066-1067) "
            "and RankingEvaluator takes none: both are binary"
        ),
    ),
    "tf_ranking": Preset(
        MetricConfig(gain="exponential", discount="log2", ideal="retrieved", negative="zero",
                     judged_only=True, precision="float32"),
        ties="file",
        label="TF-Ranking NDCGMetric",
        description=(
            "TF-Ranking metrics_impl.NDCGMetric: _DEFAULT_GAIN_FN 2^label − 1, "
            "_DEFAULT_RANK_DISCOUNT_FN log(2)/log1p(rank), ideal from the list's own labels, "
            "divide_no_nan (IDCG = 0 gives 0); quirks: a label < 0 is padding "
            "(utils.is_label_valid: labels >= 0) and leaves the list, as a condensed list drops "
            "it here; tied scores are shuffled at random (utils.sort_by_scores, "
            "shuffle_ties=True), so its figure is one draw within the tie range, here file "
            "order; a custom gain_fn or rank_discount_fn is a gain table or a discount table"
        ),
    ),
    "opensearch": Preset(
        MetricConfig(gain="exponential", discount="log2", ideal="judged", negative="keep", rounding=2,
                     precision="float64"),
        ties="file",
        label="OpenSearch Search Relevance (NDCG@k)",
        description=(
            "OpenSearch search-relevance metrics/calculator/Evaluation.java calculateNDCGAtK: "
            "gain 2^rating − 1 over log2(i+2), unjudged hits 0, ideal from every judgment "
            "sorted and cut at k (calculateIDCG); quirk: each query's NDCG is rounded to two "
            "decimals, Math.round(value * 100) / 100 (roundToTwoDecimals), before any mean; "
            "0 unless IDCG > 0; hits in the engine's order"
        ),
    ),
    "torchmetrics": Preset(
        MetricConfig(gain="linear", discount="log2", ideal="retrieved", negative="keep", precision="float64"),
        ties="average",
        label="torchmetrics retrieval_normalized_dcg",
        description=(
            "torchmetrics retrieval_normalized_dcg / RetrievalNormalizedDCG "
            "(functional/retrieval/ndcg.py): scikit-learn's definition, ported: gain = target, "
            "1/log2(i+1), ideal from the query's own targets, tied predictions share their "
            "average gain (_tie_average_dcg), IDCG = 0 gives 0 (empty_target_action='neg')"
        ),
    ),
    # ir_measures 0.4.3's gdeval provider (providers/gdeval_provider.py) runs its bin/gdeval.pl
    # (TREC 2010 Web track, version 1.2a) under perl; lines cited from those two files.
    "gdeval": Preset(
        MetricConfig(gain="exponential", discount="log", base=math.e, ideal="judged", negative="zero",
                     rounding=5, precision="float64"),
        ties="trec",
        label="gdeval (ir_measures)",
        description=(
            "gdeval.pl 1.2a as ir_measures' gdeval provider runs it (nDCG(dcg='exp-log2')@k): "
            "gain 2^judgment − 1 over ln(i+2) (gdeval.pl:151; NDCG is log2's), ideal from every "
            "judgment > 0 sorted and cut at k (lines 43-49, 73); quirks: judgments ≤ 0 are "
            "dropped (line 43), so a negative grade counts 0 and leaves the ideal; the run is "
            "sorted by score (perl numbers: double), ties by docno descending (runOrder, lines "
            "124-142), its rank "
            "column ignored; each query's NDCG is printed to 5 decimals, printf '%.5f' (line "
            "181); a topic without a judgment > 0 is not printed (line 175) and one the run "
            "lacks is never reached, both then 0 through ir_measures (providers/base.py:22-27, "
            "measure.DEFAULT); judgments must be whole numbers ≤ 4 and topics numbers "
            "(lines 39-42), anything up to a topic's last '-' is cut off (line 38)"
        ),
    ),
})
