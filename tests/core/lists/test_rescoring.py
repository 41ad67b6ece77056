"""One list scored again as its query's row (`core/lists/rescoring.py`): equal to scoring the whole
dataset again, and to the row of a dataset of that list alone."""

import numpy as np
import pandas as pd
import pytest
from definition_strategies import CUTOFF, SMALL_GRADE, configs
from hypothesis import given, settings
from hypothesis import strategies as st

from ndcg_gui.core.lists.ranked_list import RankedList
from ndcg_gui.core.lists.rescoring import list_row
from ndcg_gui.core.lists.typed_dataset import TypedDataset
from ndcg_gui.core.ndcg.measure import Measure
from ndcg_gui.core.ndcg.presets import preset

TREC = preset("trec_eval")


# ---- rescoring one edited query equals scoring everything again ------------------------------
@pytest.fixture(scope="module")
def sample():
    from ndcg_gui.assets import resource_path
    from ndcg_gui.core.reading import load

    with resource_path("examples/sample.run") as run, resource_path("examples/sample.qrels") as qrels:
        return load(run, qrels)


def edits(rl):
    """A few edits a person makes: a move, a grade change, a removal, an insertion."""
    yield "move", rl.moved(len(rl) - 1, 1, 0)
    yield "grade", rl.with_grade(0, 3.0)
    yield "remove", rl.removed([0, 1, 2])
    yield "insert", rl.inserted(1, ["new-doc"], [2.0])


@pytest.mark.parametrize("preset", ["trec_eval", "sklearn", "ranx_burges"])
@pytest.mark.parametrize("k", [5, None])
def test_one_query_rescored_equals_the_whole_dataset_rescored(sample, preset, k):
    from ndcg_gui.core.lists.rescoring import score, with_list_rescored
    from ndcg_gui.core.ndcg.presets import PRESETS

    config, ties = PRESETS[preset], PRESETS[preset].ties
    before = score(sample, config.with_(k=k, ties=ties))
    for query in ["401", "417"]:
        for what, edited in edits(sample.ranked_list(query)):
            expected = score(sample.with_lists({query: edited}), config.with_(k=k, ties=ties))
            got = with_list_rescored(before, edited, config.with_(k=k, ties=ties))
            pd.testing.assert_frame_equal(got, expected, obj=f"{query} {what}")


def test_a_query_that_gains_its_first_results_appears(sample):
    from ndcg_gui.core.lists.rescoring import score, with_list_rescored

    before = score(sample, TREC.with_(k=10))
    assert before.loc["424", "n_retrieved"] == 0
    rl = sample.ranked_list("424")
    doc, grade = next(iter(rl.unretrieved.items()))
    edited = rl.inserted(0, [doc], [grade])
    expected = score(sample.with_lists({"424": edited}), TREC.with_(k=10))
    pd.testing.assert_frame_equal(with_list_rescored(before, edited, TREC.with_(k=10)), expected)


def test_a_query_that_loses_its_last_judgment_stays_listed():
    from ndcg_gui.core.lists.rescoring import score, with_list_rescored

    listed = RankedList(docs=["a"], grades=[1.0], query="q", unretrieved={"z": 2.0}, has_pool=True)
    result = score(TypedDataset.of(listed), Measure(k=10))
    emptied = with_list_rescored(result, RankedList.from_grades([], query="q"), Measure(k=10))
    assert emptied.loc["q", "undefined"] and emptied.loc["q", "ndcg"] == 0
    assert emptied.loc["q", "n_retrieved"] == 0


@st.composite
def scored_lists(draw):
    """A list as a person may leave it: grades (NaN = unjudged), scores with ties, unscored rows
    (pasted or typed), judged documents it does not hold, or no pool at all."""

    n = draw(st.integers(0, 9))
    grades = draw(st.lists(st.one_of(st.just(np.nan), SMALL_GRADE), min_size=n, max_size=n))
    scores = draw(st.one_of(st.none(), st.lists(st.one_of(st.just(np.nan), st.sampled_from([1.0, 2.0, 3.0])),
                                                min_size=n, max_size=n)))
    has_pool = draw(st.booleans())
    unretrieved = draw(st.dictionaries(st.sampled_from(["x", "y", "z"]), SMALL_GRADE, max_size=3)
                       if has_pool else st.just({}))
    return RankedList(docs=[f"d{i}" for i in range(n)], grades=grades, scores=scores, query="q",
                      unretrieved=unretrieved, has_pool=has_pool)


@given(scored_lists(), configs(), CUTOFF, st.sampled_from(["trec", "file", "average"]))
@settings(max_examples=300, deadline=None)
def test_one_lists_row_is_the_row_of_a_dataset_of_that_list(rl, config, k, ties):
    """`list_row` scores a list without making a dataset of it: the same row as that dataset's
    `evaluate` (the list as it stands; "average" over neighbours with equal scores)."""

    one_list = TypedDataset.of(rl)
    expected = one_list.evaluate(config.with_(k=k, ties="trec" if ties == "file" else ties))
    pd.testing.assert_frame_equal(list_row(rl, config.with_(k=k, ties=ties)), expected)


class HashCountedId(str):
    """A query id that counts how often it is hashed: what building a hash table of ids does."""

    hashed = 0

    def __hash__(self) -> int:
        HashCountedId.hashed += 1
        return str.__hash__(self)


@pytest.mark.parametrize("kept", [True, False])
def test_one_list_rescored_in_a_big_result_hashes_no_id_of_the_others(monkeypatch, kept):
    """An edit of one query of a big result finds its row by a scan, not the table of every id
    pandas makes for a lookup (~80 ms at 500,000, in the frame of a big file's first edit); the
    other rows stay as they were."""
    from ndcg_gui.core.lists import query_order, rescoring
    from ndcg_gui.core.lists.rescoring import list_row, with_list_rescored
    from ndcg_gui.core.ndcg.evaluate import RESULT_COLUMNS

    monkeypatch.setattr(rescoring, "KEEP_FROM", 100)
    monkeypatch.setattr(query_order, "KEEP_FROM", 100)
    n = 2_000
    rng = np.random.default_rng(0)
    big = pd.DataFrame({c: rng.integers(0, 5, n) for c in RESULT_COLUMNS[:5]}
                       | {c: rng.random(n) for c in RESULT_COLUMNS[5:8]} | {"undefined": np.zeros(n, bool)},
                       index=pd.Index([HashCountedId(f"q{i}") for i in range(n)], dtype=object))
    if kept:
        query_order.order_keys_of(big.index)
    lst = RankedList.from_grades([0, 2, 1, 3], query="q1234")
    HashCountedId.hashed = 0
    rescored = with_list_rescored(big, lst, Measure(k=3))
    assert HashCountedId.hashed < n // 10
    assert rescored.index is big.index
    assert rescored.loc["q1234", "ndcg"] == pytest.approx(list_row(lst, Measure(k=3))["ndcg"].iloc[0])
    others = big.index != "q1234"
    assert rescored[others].equals(big[others])
