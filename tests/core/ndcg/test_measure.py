"""Measure: the named presets, validation, immutability and the one-line description."""

import dataclasses
import math

import numpy as np
import pandas as pd
import pytest

from ndcg_gui.core import PRESETS, GainTable, Measure, evaluate, ndcg_at
from ndcg_gui.core.ndcg.presets import DESCRIPTIONS, LABELS, preset, preset_name


def test_the_first_four_presets_and_what_they_are():
    assert list(PRESETS)[:4] == ["trec_eval", "sklearn", "ranx_burges", "jarvelin2002"]
    expected = {
        "trec_eval": ("linear", "log2", "judged", "zero", "trec"),
        "sklearn": ("linear", "log2", "retrieved", "keep", "average"),
        "ranx_burges": ("exponential", "log2", "judged", "zero", "trec"),
        "jarvelin2002": ("linear", "jarvelin", "judged", "keep", "file"),
    }
    for name, (gain, discount, ideal, negative, ties) in expected.items():
        config = preset(name)
        assert (config.gain, config.discount, config.ideal, config.negative) == (
            gain,
            discount,
            ideal,
            negative,
        )
        assert PRESETS[name].ties == ties
        assert preset_name(config, ignoring_ties=True) == name
        assert LABELS[name] and DESCRIPTIONS[name]
    assert preset("jarvelin2002").base == 2.0


def test_unknown_preset_names_the_choices():
    with pytest.raises(ValueError, match="unknown preset 'ndcg'; choose one of: trec_eval, sklearn"):
        preset("ndcg")


def test_default_is_linear_log2_judged_keep():
    config = Measure()
    assert (config.gain, config.discount, config.base, config.ideal, config.negative) == (
        "linear",
        "log2",
        2.0,
        "judged",
        "keep",
    )
    assert preset_name(config, ignoring_ties=True) is None  # negative grades kept: not trec_eval


def test_frozen_hashable_and_equal_by_value():
    a = Measure(gain={1: 3, 2: 9, 4: 4.5})
    b = Measure(gain={4: 4.5, 2: 9.0, 1: 3})
    assert a == b and hash(a) == hash(b)
    assert isinstance(a.gain, GainTable) and a.gain_table is a.gain
    assert a.gain == {1: 3, 2: 9, 4: 4.5}
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.base = 3  # type: ignore[misc]
    assert len({a, b, Measure()}) == 2


def test_with_changes_one_field():
    trec = preset("trec_eval")
    exp = trec.with_(gain="exponential")
    assert exp.gain == "exponential" and exp.negative == "zero" and trec.gain == "linear"
    # ranx_burges is that, with ranx's float64 scores (trec_eval 9.x keeps float32)
    assert exp.with_(precision="float64") == preset("ranx_burges")
    table = trec.with_(gain={1: 3})
    assert table.gain_table == {1: 3}


@pytest.mark.parametrize(("choice", "message"), [
    ({"k": 0}, "k must be a whole number from 1"),
    ({"k": 2.5}, "k must be a whole number from 1"),
    ({"k": True}, "k must be a whole number from 1"),
    ({"ties": "random"}, "ties must be 'trec' or 'file' or 'average', not 'random'"),
    ({"empty": "drop"}, "empty must be 'zero' or 'skip', not 'drop'"),
    ({"undefined": "drop"}, "undefined must be 'zero' or 'skip', not 'drop'"),
    ({"precision": "float16"}, "precision must be 'float32', 'float64' or None"),
])
def test_every_choice_of_the_measure_is_checked_when_it_is_made(choice, message):
    with pytest.raises(ValueError, match=message):
        Measure(**choice)
    with pytest.raises(ValueError, match=message):  # a copy with a choice changed is checked too
        Measure().with_(**choice)


def test_a_measure_carries_its_cut_off_tie_rule_precision_and_mean():
    sklearn = PRESETS["sklearn"]
    at10 = sklearn.at(10)
    assert sklearn.k is None and at10.k == 10 and at10 != sklearn and at10.at(None) == sklearn
    assert Measure(k=np.int64(5)).k == 5 and type(Measure(k=np.int64(5)).k) is int
    assert at10.ties == "average" and at10.score_precision == "float64"
    assert Measure(ties="trec").score_precision == "float32"  # the rule's usual precision
    assert Measure(ties="file").score_precision == "float64"
    assert Measure(ties="trec", precision="float64").score_precision == "float64"
    # The mean's choices are the measure's too; each query's figure does not depend on them.
    skipping = at10.with_(empty="skip", undefined="skip")
    assert skipping != at10 and skipping.per_query() == at10 and at10.per_query() is at10
    assert "left out" in skipping.describe_mean() and "count as 0" in at10.describe_mean()


def test_a_preset_is_named_whatever_its_cut_off_and_mean():
    assert preset_name(PRESETS["lightgbm"].at(5).with_(empty="skip")) == "lightgbm"
    assert preset_name(PRESETS["lightgbm"].with_(ties="trec")) is None  # another tie rule: not it
    assert preset_name(PRESETS["lightgbm"].with_(ties="trec"), ignoring_ties=True) == "lightgbm"
    # A measure leaving the precision to its tie rule is the preset it otherwise is.
    assert preset_name(PRESETS["sklearn"].with_(precision=None)) == "sklearn"


def test_base_is_a_float_and_integral_grades_print_plainly():
    assert Measure(discount="jarvelin", base=3).base == 3.0
    assert repr(GainTable({1: 3, 2: 4.5})) == "{1: 3, 2: 4.5}"


def test_describe_says_every_choice():
    text = preset("trec_eval").describe()
    assert "gain = rel" in text and "1/log2(i+1)" in text
    assert "ideal from all judged documents" in text and "negative grades count as 0" in text
    text = Measure(gain="exponential", discount="jarvelin", base=2.5, ideal="retrieved").describe()
    assert "2^rel − 1" in text and "log_2.5" in text and "list's own grades" in text
    assert "negative grades kept" in text
    assert "gain table {1: 3}" in Measure(gain={1: 3}).describe()


def ranx_ndcg_burges(qrels: dict[str, float], run: list[str], k: int) -> float:
    """ranx's ndcg_burges, as its source computes it: judgments with grade >= 1 only, gain
    2^rel - 1 over log2(i+1) for the first k of the run, ideal = the same over the judgments
    sorted by grade and cut at k, and IDCG = 0 replaced by 1."""
    rel = {d: g for d, g in qrels.items() if g >= 1}
    dcg = sum((2 ** rel.get(d, 0) - 1) / math.log2(i + 2) for i, d in enumerate(run[:k]))
    ideal = sorted(rel.values(), reverse=True)[:k]
    idcg = sum((2**g - 1) / math.log2(i + 2) for i, g in enumerate(ideal)) or 1.0
    return dcg / idcg


@pytest.mark.parametrize("k", [1, 2, 3, 5, 10])
def test_ranx_burges_preset_matches_ranx_formula(k):
    qrels = {"d1": 3, "d2": 1, "d3": 0, "d5": -1, "d9": 2}  # d9 judged, never retrieved
    ranked = ["d3", "d1", "d4", "d5", "d2", "d6"]
    run = pd.DataFrame({"query": "q", "doc": ranked, "score": [6.0, 5, 4, 3, 2, 1]})
    judged = pd.DataFrame({"query": "q", "doc": list(qrels), "grade": list(qrels.values())})
    ours = evaluate(run, judged, preset("ranx_burges").with_(k=k)).loc["q", "ndcg"]
    assert ours == pytest.approx(ranx_ndcg_burges(qrels, ranked, k), rel=1e-12)


def test_sklearn_preset_ignores_unretrieved_judgments_and_trec_eval_does_not():
    grades, judged = [3, 2, 3, 0, 1], [3, 2, 3, 0, 1, 3]
    assert ndcg_at(grades, preset("sklearn").with_(k=5), judged) == pytest.approx(0.9724, abs=5e-5)
    assert ndcg_at(grades, preset("trec_eval").with_(k=5), judged) == pytest.approx(0.8047, abs=5e-5)
