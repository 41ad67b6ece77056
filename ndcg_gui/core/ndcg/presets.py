"""The named presets: each a `Measure` equal to the tool it is named after (checked against the
tool itself in tests/core/test_against_*.py), with its label and, in `DESCRIPTIONS`, what the
tool does and where its source says so. A preset has no cut-off: `PRESETS["sklearn"].at(10)`.
"""

from __future__ import annotations

import math

from ndcg_gui.core.ndcg.measure import Measure

# The definition the window's first session and the command lines (without --preset) use; the
# library's `Measure()` is the same but keeps negative grades.
DEFAULT_PRESET = "trec_eval"

PRESETS: dict[str, Measure] = {}
LABELS: dict[str, str] = {}  # name -> the tool's name as a person reads it
DESCRIPTIONS: dict[str, str] = {}  # name -> what the tool does, with the lines of its source


def _preset(name: str, label: str, measure: Measure, description: str) -> None:
    PRESETS[name], LABELS[name], DESCRIPTIONS[name] = measure, label, description


def preset(name: str) -> Measure:
    """The measure a named tool uses (`PRESETS`); ValueError naming the presets otherwise."""
    try:
        return PRESETS[name]
    except KeyError:
        raise ValueError(f"unknown preset {name!r}; choose one of: {', '.join(PRESETS)}") from None


def preset_name(measure: Measure, *, ignoring_ties: bool = False) -> str | None:
    """The preset `measure` is, whatever its cut-off and mean policy, or None. `ignoring_ties`:
    the preset whose every other choice it has, whatever its tie rule (a preset's definition with
    tied scores ordered another way)."""
    own = measure.with_(k=None, empty="zero", undefined="zero")
    for name, p in PRESETS.items():
        if ignoring_ties:
            own = own.with_(ties=p.ties)
        # (a measure that leaves the precision to its tie rule is the preset it otherwise is)
        if p == own or (own.precision is None and p.with_(precision=None) == own):
            return name
    return None


_preset("trec_eval", "trec_eval",
    Measure(gain="linear", discount="log2", ideal="judged", negative="zero", precision="float32",
            truncate_grades=True, ties="trec"),
    "trec_eval ndcg / ndcg_cut: gain = grade, 1/log2(i+1), ideal from every judged "
    "document, negative grades as 0, tied scores by docno descending; as trec_eval 9.x "
    "and pytrec_eval, which keep scores as float32 (`float sim`: 1.0 and 1.0000001 tie; "
    "trec_eval 10.0 compares double: precision='float64'); a grade is read with C atol, "
    "its whole part (2.5 is 2, 0.5 is 0; the text 1e1 is 1), where pytrec_eval refuses "
    "a fractional grade"
)
_preset("sklearn", "scikit-learn",
    Measure(gain="linear", discount="log2", ideal="retrieved", negative="keep", precision="float64",
            ties="average"),
    "sklearn.metrics.ndcg_score: gain = grade, 1/log2(i+1), ideal from the list's own "
    "grades, tied scores (equal as the float64 numbers given) share their average gain"
)
_preset("ranx_burges", "ranx (Burges)",
    Measure(gain="exponential", discount="log2", ideal="judged", negative="zero", precision="float64",
            truncate_grades=True, ties="trec"),
    "ranx ndcg_burges: gain 2^rel − 1, 1/log2(i+1), ideal from every judged document, "
    "cut at k. ranx counts only judgments with grade ≥ 1 (rel_lvl=1): zero and negative "
    "grades add nothing, as here; ranx keeps grades as integers (Qrels: a grade of 2.5 "
    "is 2), so grades are cut to their whole part here too. Scores are float64; ranx "
    "leaves the order of tied scores to its sort; here they go by docno, as trec_eval"
)
_preset("jarvelin2002", "Järvelin–Kekäläinen 2002",
    Measure(gain="linear", discount="jarvelin", base=2, ideal="judged", negative="keep",
            precision="float64", ties="file"),
    "Järvelin & Kekäläinen (2002): gain = grade, ranks below b = 2 undiscounted, "
    "then 1/log2(i)"
)
# Tools whose NDCG is one of the definitions above, named after the tool. Lines cited from: XGBoost
# master 379b29f (checked against xgboost 3.2.0), LightGBM master bae0b7b (checked against 4.7.0),
# ranx 0.3.21, Elasticsearch main, Quepid main, Spark master (mllib RankingMetrics.scala).
_preset("trec_eval_J", "trec_eval -J",
    Measure(gain="linear", discount="log2", ideal="judged", negative="zero", judged_only=True,
            precision="float32", truncate_grades=True, ties="trec"),
    "trec_eval -J ndcg_cut (= pytrec_eval judged_docs_only_flag=True, ir_measures "
    "nDCG(judged_only=True)): as trec_eval, on condensed lists: unjudged documents are "
    "removed before ranking; quirk: a negative grade is 'in the pool, unjudged' "
    "(RELVALUE_UNJUDGED) and is removed too (trec_eval form_res_rels.c, "
    "te_form_res_rels: judged_docs_only_flag keeps only docs with rel >= 0); scores as "
    "float32 and grades cut to their whole part, as trec_eval (a grade of -0.5 is 0: judged)"
)
_preset("ranx", "ranx (ndcg)",
    Measure(gain="linear", discount="log2", ideal="judged", negative="zero", precision="float64",
            truncate_grades=True, ties="trec"),
    "ranx ndcg (Järvelin gain: the grade): ranx/metrics/ndcg.py:36 rel/log2(i+1); "
    "_idcg = _dcg(qrels, qrels, k) (line 52), the judged pool cut at k; quirk: "
    "clean_qrels(qrels, rel_lvl=1) (line 13) drops judgments below 1 and "
    "Qrels keeps grades as integers (2.5 is 2), so grades are cut to their whole part "
    "here and those in (0, 1) count 0 as in ranx; scores are float64; IDCG = 0 is "
    "replaced by 1 (line 62), "
    "which gives 0 as DCG is 0 then. Tied scores: ranx's sort, here by docno as trec_eval"
)
_preset("xgboost", "XGBoost ndcg",
    Measure(gain="exponential", discount="log2", ideal="retrieved", negative="keep", idcg_zero="one",
            precision="float32", ties="file"),
    "XGBoost eval_metric ndcg@k: gain 2^label − 1 (src/common/ranking_utils.h:43, "
    "ndcg_exp_gain=true), 1/log2(i+1) (line 47), ideal from the group's own labels cut at "
    "k (src/common/ranking_utils.cc:96-105); quirks: a group with IDCG = 0 scores 1 "
    "(src/metric/rank_metric.cc:384-385, 'ndcg-' scores 0); tied predictions keep the "
    "data order (StableSort in src/common/algorithm.h:85) and predictions are float32 "
    "(bst_float), so scores equal as float32 are tied; "
    "labels must be whole numbers ≥ 0"
)
_preset("xgboost_minus", "XGBoost ndcg-",
    Measure(gain="exponential", discount="log2", ideal="retrieved", negative="keep", precision="float32",
            ties="file"),
    "XGBoost eval_metric ndcg@k- (the trailing minus): as XGBoost ndcg, but a group "
    "with IDCG = 0 scores 0 (src/metric/rank_metric.cc:385, minus_ ? 0.0 : 1.0)"
)
_preset("lightgbm", "LightGBM ndcg",
    Measure(gain="exponential", discount="log2", ideal="retrieved", negative="keep", idcg_zero="one",
            precision="float64", ties="file"),
    "LightGBM metric ndcg, eval_at k: label_gain 2^i − 1 by default "
    "(src/metric/dcg_calculator.cpp:37-42; another label_gain is a gain table), "
    "1/log2(2+i) (line 52), ideal from the query's own labels, cut at min(k, n) "
    "(CalMaxDCGAtK, lines 56-80), ties by std::stable_sort on score (line 122: data "
    "order; scores are double); quirk: a query with IDCG ≤ 0 scores 1 "
    "(src/metric/rank_metric.hpp:99-101); "
    "labels are whole numbers ≥ 0"
)
_preset("elasticsearch", "Elasticsearch rank_eval dcg (normalize)",
    Measure(gain="exponential", discount="log2", ideal="judged", negative="keep", ideal_depth="list",
            precision="float64", ties="file"),
    "Elasticsearch rank_eval dcg with normalize: true (DiscountedCumulativeGain.java, "
    "evaluate and computeDCG): gain 2^rating − 1, 1/log2(rank+1), unrated hits add "
    "nothing (unknown_doc_rating null) but keep their rank; quirk: the ideal is every "
    "rated document sorted, cut at the number of hits, "
    "allRatings.subList(0, Math.min(ratingsInSearchHits.size(), allRatings.size())), "
    "not at k; IDCG = 0 gives 0; hits in the engine's order"
)
_preset("quepid", "Quepid nDCG@10",
    Measure(gain="exponential", discount="log2", ideal="judged", negative="keep", ideal_depth="all",
            precision="float64", ties="file"),
    "Quepid scorer db/scorers/ndcg@10.js: DCG of the first k ratings (missing rating "
    "0), gain 2^r − 1, 1/log2(i+2) from 0; quirk: nDCG divides by "
    "DCG(ideal, ideal.length): every rated document sorted, never cut at k; 0 when "
    "that is 0; results in the engine's order"
)
_preset("spark", "Spark MLlib ndcgAt (graded)",
    Measure(gain="exponential", discount="log", base=math.e, ideal="judged", negative="keep",
            ideal_order="given", precision="float64", ties="file"),
    "Spark mllib RankingMetrics.ndcgAt with relevance values (RankingMetrics.scala, "
    "ndcgAt; lines of Spark 3.5.9): gain 2^rel − 1 over ln(i+2) (lines 188, 191; DCG is "
    "log2's times 1/ln 2, NDCG the same), positions min(max(|pred|, |labels|), k) (line "
    "171), which equals the cut at k; quirks: the ideal takes the labels in the order "
    "given, lab(i), not sorted (line 191), so NDCG can pass 1; a query without labels "
    "scores 0 and counts in the mean (lines 203-204); an ideal of 0 scores 0 (lines "
    "196-198). Without relevance values (binary, line 179) every label has gain 1: grades "
    "1; PySpark's RankingMetrics drops relevance values (PythonMLLibAPI.scala:1066-1067) "
    "and RankingEvaluator takes none: both are binary"
)
_preset("tf_ranking", "TF-Ranking NDCGMetric",
    Measure(gain="exponential", discount="log2", ideal="retrieved", negative="zero", judged_only=True,
            precision="float32", ties="file"),
    "TF-Ranking metrics_impl.NDCGMetric: _DEFAULT_GAIN_FN 2^label − 1, "
    "_DEFAULT_RANK_DISCOUNT_FN log(2)/log1p(rank), ideal from the list's own labels, "
    "divide_no_nan (IDCG = 0 gives 0); quirks: a label < 0 is padding "
    "(utils.is_label_valid: labels >= 0) and leaves the list, as a condensed list drops "
    "it here; tied scores are shuffled at random (utils.sort_by_scores, "
    "shuffle_ties=True), so its figure is one draw within the tie range, here file "
    "order; a custom gain_fn or rank_discount_fn is a gain table or a discount table"
)
_preset("opensearch", "OpenSearch Search Relevance (NDCG@k)",
    Measure(gain="exponential", discount="log2", ideal="judged", negative="keep", rounding=2,
            precision="float64", ties="file"),
    "OpenSearch search-relevance metrics/calculator/Evaluation.java calculateNDCGAtK: "
    "gain 2^rating − 1 over log2(i+2), unjudged hits 0, ideal from every judgment "
    "sorted and cut at k (calculateIDCG); quirk: each query's NDCG is rounded to two "
    "decimals, Math.round(value * 100) / 100 (roundToTwoDecimals), before any mean; "
    "0 unless IDCG > 0; hits in the engine's order"
)
_preset("torchmetrics", "torchmetrics retrieval_normalized_dcg",
    Measure(gain="linear", discount="log2", ideal="retrieved", negative="keep", precision="float64",
            ties="average"),
    "torchmetrics retrieval_normalized_dcg / RetrievalNormalizedDCG "
    "(functional/retrieval/ndcg.py): scikit-learn's definition, ported: gain = target, "
    "1/log2(i+1), ideal from the query's own targets, tied predictions share their "
    "average gain (_tie_average_dcg), IDCG = 0 gives 0 (empty_target_action='neg')"
)
# ir_measures 0.4.3's gdeval provider (providers/gdeval_provider.py) runs its bin/gdeval.pl
# (TREC 2010 Web track, version 1.2a) under perl; lines cited from those two files.
_preset("gdeval", "gdeval (ir_measures)",
    Measure(gain="exponential", discount="log", base=math.e, ideal="judged", negative="zero", rounding=5,
            precision="float64", ties="trec"),
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
)
