"""compare_definitions against `dcg_idcg_at` under each preset's own config, scikit-learn's
ndcg_score / dcg_score for the sklearn row (tied scores averaged), and pytrec_eval (trec_eval's C
code) for the trec_eval row with scores and document ids (ties by docno)."""

import math

import numpy as np
import pytest
from definition_strategies import CUTOFF, GRADE, configs, judged_pools
from hypothesis import given, settings
from hypothesis import strategies as st
from pytrec_child import evaluate as pytrec_evaluate
from sklearn.metrics import dcg_score, ndcg_score

from ndcg_gui.core import PRESETS, Measure, compare_definitions, dcg_idcg_at, ndcg_at
from ndcg_gui.core.ndcg.presets import preset

SCORES = st.sampled_from([0.0, 0.5, 1.0, 2.0, -1.0])  # few values: ties are common
DOC_IDS = st.text(alphabet="abAB01é中", min_size=1, max_size=3)


def close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)


@st.composite
def cases(draw):
    grades = draw(st.lists(GRADE, max_size=10))
    return grades, draw(CUTOFF), draw(judged_pools(grades)), draw(st.one_of(st.none(), configs()))


@settings(max_examples=300, deadline=None)
@given(case=cases())
def test_without_scores_each_row_is_its_definition_scored(case):
    grades, k, judged, config = case
    current = config is not None
    table = compare_definitions(grades, (config or Measure()).at(k), judged, current=current)
    listed = [name for name, p in PRESETS.items() if p.ideal_order == "sorted"]  # not Spark's
    names = (["current"] if current else []) + listed
    assert list(table["preset"]) == names
    for row in table.itertuples():
        own = (config if row.preset == "current" else PRESETS[row.preset]).at(k)
        assert row.measure == own
        dcg, idcg = dcg_idcg_at(grades, own, judged)
        assert close(row.dcg, dcg) and close(row.idcg, idcg)
        assert close(row.ndcg, ndcg_at(grades, own, judged))
    assert table["reason"].iloc[0] == "the reference"
    # No scores, no ties: the tie rule is never a reason.
    assert not table["reason"].str.contains("tied").any()


@settings(max_examples=300, deadline=None)
@given(
    grades=st.lists(st.one_of(st.integers(0, 4).map(float), st.floats(0, 5).map(lambda x: round(x, 2))),
                    min_size=2, max_size=12),
    k=CUTOFF,
    data=st.data(),
)
def test_sklearn_row_is_ndcg_score_with_ties_averaged(grades, k, data):
    scores = data.draw(st.lists(SCORES, min_size=len(grades), max_size=len(grades)))
    table = compare_definitions(grades, Measure(k=k), scores=scores, current=False).set_index("preset")
    y_true, y_score = np.array([grades]), np.array([scores])
    assert close(table.loc["sklearn", "ndcg"], ndcg_score(y_true, y_score, k=k))
    assert close(table.loc["sklearn", "dcg"], dcg_score(y_true, y_score, k=k))
    # Without scores the list's order is the ranking: scores that fall with the rank say so.
    plain = compare_definitions(grades, Measure(k=k), current=False).set_index("preset")
    order = np.arange(len(grades), 0, -1, dtype=float)
    assert close(plain.loc["sklearn", "ndcg"], ndcg_score(y_true, order[None, :], k=k))


@settings(max_examples=60, deadline=None)
@given(
    docs=st.lists(DOC_IDS, min_size=1, max_size=10, unique=True),
    extra=st.lists(st.integers(-1, 3), max_size=4),
    k=st.sampled_from([1, 3, 5, 10, 20]),
    data=st.data(),
)
def test_trec_eval_row_is_pytrec_eval_with_ties_by_docno(docs, extra, k, data):
    n = len(docs)
    grades = data.draw(st.lists(st.integers(-1, 3), min_size=n, max_size=n))
    scores = data.draw(st.lists(SCORES, min_size=n, max_size=n))
    judged = [float(g) for g in grades + extra]
    qrels = {"q": {**dict(zip(docs, grades, strict=True)), **{f"u{i}": g for i, g in enumerate(extra)}}}
    run = {"q": dict(zip(docs, scores, strict=True))}
    theirs = pytrec_evaluate(qrels, {f"ndcg_cut.{k}"}, run)["q"][f"ndcg_cut_{k}"]
    table = compare_definitions(grades, Measure(k=k), judged, scores=scores, docs=docs, current=False)
    table = table.set_index("preset")
    assert close(table.loc["trec_eval", "ndcg"], theirs)


FIELDS = {"gain": "gain", "discount": "discount", "ideal": "ideal", "negative": "negative",
          "judged_only": "unjudged", "ideal_order": "judgments", "ideal_depth": "depth",
          "idcg_zero": "IDCG", "rounding": "rounded", "truncate_grades": "grades", "precision": "scores"}


def swapped(ref: Measure, row: Measure, field: str) -> Measure:
    if field == "discount":
        return ref.with_(discount=row.discount, base=row.base)
    return ref.with_(**{field: getattr(row, field)})


def differs(ref: Measure, row: Measure, field: str) -> bool:
    if field == "discount":
        return (ref.discount, ref.base if ref.discount in ("jarvelin", "log") else 0) != (
            row.discount, row.base if row.discount in ("jarvelin", "log") else 0)
    return getattr(ref, field) != getattr(row, field)


@settings(max_examples=300, deadline=None)
@given(case=cases())
def test_the_reason_names_the_settings_that_change_the_figure_alone(case):
    grades, k, judged, config = case
    current = config is not None
    table = compare_definitions(grades, (config or Measure()).at(k), judged, current=current)
    ref = table["measure"].iloc[0]
    ref_ndcg = ndcg_at(grades, ref, judged)
    for row in table.iloc[1:].itertuples():
        differing = {f for f in FIELDS if differs(ref, row.measure, f)}
        if math.isclose(row.ndcg, ref_ndcg, rel_tol=0, abs_tol=1e-12):
            assert row.reason.startswith("same")
            continue
        lead, _, rest = row.reason.partition(": ")
        assert lead == ("higher" if row.ndcg > ref_ndcg else "lower")
        named = {phrase.split()[0] for phrase in rest.removesuffix(" (together)").split("; ")}
        alone = {
            f for f in differing
            if not math.isclose(ndcg_at(grades, swapped(ref, row.measure, f), judged), ref_ndcg,
                                rel_tol=0, abs_tol=1e-12)
        }
        assert named == {FIELDS[f] for f in (alone or differing)}


def test_reasons_read_as_the_issue_asks():
    table = compare_definitions([3, 2, 3, 0, 1], Measure(k=5), [3, 2, 3, 0, 1, 3], current=False)
    table = table.set_index("preset")
    assert table.loc["sklearn", "reason"] == (
        "higher: ideal from the list's own grades, not every judged document"
    )
    assert table.loc["ranx_burges", "reason"] == "lower: gain 2^g − 1 instead of gain g"
    assert "Järvelin" in table.loc["jarvelin2002", "reason"]
    # Ties: the same grades and scores, ordered by docno (trec_eval) or averaged (scikit-learn).
    tied = compare_definitions([3, 1, 0, 0, 2], Measure(k=3), scores=[3, 2, 2, 2, 1], docs=list("abcde"),
                               current=False)
    tied = tied.set_index("preset")
    assert tied.loc["sklearn", "reason"] == (
        "higher: tied scores averaged instead of by document id, descending"
    )
    # A cut-off past the list with a longer judged pool: the ideal runs past the list's end.
    long = compare_definitions([1, 0], Measure(k=10), [1, 0, 2, 2], current=False).set_index("preset")
    assert "past the list's 2 documents" in long.loc["sklearn", "reason"]
    same = compare_definitions([1, 0], preset("trec_eval").with_(k=10, ties="file")).set_index("preset")
    assert same.loc["trec_eval", "reason"] == "same definition"


def test_bad_arguments_are_refused():
    with pytest.raises(ValueError, match="scores"):
        compare_definitions([1, 2], scores=[1])
    with pytest.raises(ValueError, match="ties"):
        compare_definitions([1, 2], Measure(ties="random"))


def test_tied_scores_show_the_current_definition_under_each_tie_rule():
    from ndcg_gui.core.analysis.definitions import compare_definitions
    from ndcg_gui.core.ndcg.measure import Measure

    grades, scores, docs = [0, 3, 1, 2], [2.0, 2.0, 1.0, 1.0], ["a", "b", "c", "d"]
    frame = compare_definitions(grades, Measure(k=2, ties="file"), scores=scores, docs=docs)
    rows = frame.set_index("preset")
    assert list(frame["preset"][:3]) == ["current", "current, ties: trec", "current, ties: average"]
    # file order: a (0) then b (3); trec: docno descending, b before a; average: each gets 1.5
    assert rows.loc["current", "ndcg"] < rows.loc["current, ties: trec", "ndcg"]
    assert rows.loc["current", "ndcg"] < rows.loc["current, ties: average", "ndcg"] < \
        rows.loc["current, ties: trec", "ndcg"]
    assert "tied scores" in rows.loc["current, ties: trec", "reason"]
    untied = compare_definitions(grades, Measure(k=2, ties="file"), scores=[4, 3, 2, 1], docs=docs)
    assert not any(p.startswith("current, ties") for p in untied["preset"])
