"""A typed list's dataset answers from the list until scoring or a change needs its frames: it
must answer exactly as the same rows loaded as frames do, and make no frame before."""

import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from ndcg_gui.core.lists.dataset import Dataset
from ndcg_gui.core.lists.ranked_list import RankedList

NAN = float("nan")
LISTS = [
    RankedList.from_grades([3, 2, 3, 0, 1], query="e1"),
    RankedList.from_grades([]),
    RankedList(docs=["a", "b", "c"], grades=[3, NAN, 1], scores=[3.0, 2.0, 2.0], query="q",
               unretrieved={"z": 2.0, "y": 0.0}, has_pool=True, extras={"title": ["x", "", "é"]}),
    RankedList(docs=["a", "b"], grades=[NAN, NAN], query="7", unretrieved={"z": 1.0}, has_pool=True),
    RankedList(docs=[], grades=[], query="only judged", unretrieved={"z": 1.0}, has_pool=True),
]


def as_frames(rl: RankedList) -> Dataset:
    """The same rows handed over as frames, as a reader hands them: the path that groups them."""
    def text(values) -> pd.Series:
        return pd.Series(list(values), dtype="str")

    run = pd.DataFrame({"query": text([rl.query] * len(rl)), "doc": text(rl.docs), "grade": rl.grades})
    if rl.scores is not None:
        run["score"] = rl.scores
    for name, values in rl.extras.items():
        run[name] = text(values)
    qrels = None
    if rl.has_pool:
        judged = rl.judged
        docs = list(rl.docs[judged]) + list(rl.unretrieved)
        grades = np.array(list(rl.grades[judged]) + list(rl.unretrieved.values()), float)
        qrels = pd.DataFrame({"query": text([rl.query] * len(docs)), "doc": text(docs), "grade": grades})
    return Dataset(run, qrels, kind="typed", extra_columns=rl.extra_columns)


@pytest.mark.parametrize("rl", LISTS, ids=lambda rl: rl.query or "empty")
def test_a_typed_list_answers_as_its_rows_loaded_as_frames(rl):
    typed, loaded = Dataset.from_ranked_list(rl), as_frames(rl)
    assert typed.queries() == loaded.queries()
    assert (typed.has_pool, typed.has_scores, typed.unjudged_queries()) == \
           (loaded.has_pool, loaded.has_scores, loaded.unjudged_queries())
    for query in loaded.queries():
        assert typed.ranked_list(query) == loaded.ranked_list(query)
    with pytest.raises(KeyError):
        typed.ranked_list("no such query")
    for k in (1, 3, None):
        pd.testing.assert_frame_equal(typed.evaluate(k), loaded.evaluate(k))
    for query in loaded.queries():  # the same once its frames are made
        assert typed.ranked_list(query) == loaded.ranked_list(query)
    pd.testing.assert_frame_equal(typed.run, loaded.run)
    if rl.has_pool:
        pd.testing.assert_frame_equal(typed.qrels, loaded.qrels)


def test_edits_of_a_typed_list_make_its_frames_then():
    rl = LISTS[2]
    typed = Dataset.from_ranked_list(rl)
    edited = rl.moved(2, 1, 0)
    both = typed.with_lists({"q": edited, "new": RankedList.from_grades([1, 0])})
    assert both.queries() == ["q", "new"]
    assert both.ranked_list("q") == as_frames(edited).ranked_list("q")
    np.testing.assert_array_equal(both.run["grade"].to_numpy()[:3], edited.grades)


def test_no_pandas_or_pyarrow_until_asked():
    code = ("import sys\nfrom ndcg_gui.core.lists.dataset import Dataset\n"
            "from ndcg_gui.core.lists.ranked_list import RankedList\n"
            "d = Dataset.from_ranked_list(RankedList.from_grades([3, 2, 3, 0, 1]))\n"
            "d.ranked_list(d.queries()[0]), d.has_pool, d.has_scores, d.unjudged_queries()\n"
            "print('pandas' in sys.modules, 'pyarrow' in sys.modules)\n"
            "d.evaluate(10)\nprint('pandas' in sys.modules, 'pyarrow' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.stdout.split() == ["False", "False", "True", "True"], out.stderr
