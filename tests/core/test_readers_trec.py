"""TREC runs and qrels: recognised by shape, ordered as trec_eval orders them, checked against it."""

from __future__ import annotations

import numpy as np
import pytest
import pytrec_eval
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pytrec_child import evaluate as pytrec_evaluate

from ndcg_gui.core.errors import InputError
from ndcg_gui.core.ndcg.presets import PRESETS
from ndcg_gui.core.reading import load

RUN = """\
# produced by a test
301 Q0 d1 1 2.0 tag
301 Q0 d2 2 3.0 tag extra fields are ignored
301 Q0 d3 3 3.0 tag

302 Q0 a 1 1 tag
"""
QRELS = "301 0 d1 2\n301 0 d9 3\n301 0 d3 0\n303 0 x 1\n"


def write(tmp_path, text, name):
    path = tmp_path / name
    path.write_text(text)
    return path


def test_a_run_without_qrels_is_refused_with_one_line_naming_the_qrels(tmp_path):
    from ndcg_gui.core.errors import NeedsQrels

    with pytest.raises(NeedsQrels) as caught:
        load(write(tmp_path, RUN, "run.txt"))
    assert str(caught.value) == "run.txt: is a TREC run, which holds no grades: give its qrels too"


def test_run_without_qrels_opens_all_unjudged_when_asked(tmp_path):
    dataset = load(write(tmp_path, RUN, "run.txt"), need_grades=False)
    assert dataset.kind == "trec_run" and not dataset.has_pool
    assert dataset.queries() == ["301", "302"]
    rl = dataset.ranked_list("301")
    assert list(rl.docs) == ["d3", "d2", "d1"]  # score desc, ties by docno descending
    assert list(rl.scores) == [3.0, 3.0, 2.0]
    assert np.isnan(rl.grades).all()


def test_run_with_qrels_has_grades_pool_and_judged_queries_without_results(tmp_path):
    dataset = load(write(tmp_path, RUN, "run.txt"), write(tmp_path, QRELS, "qrels.txt"))
    assert dataset.queries() == ["301", "302", "303"]
    rl = dataset.ranked_list("301")
    assert np.array_equal(rl.grades, [0.0, np.nan, 2.0], equal_nan=True)
    assert rl.unretrieved == {"d9": 3.0}
    empty = dataset.ranked_list("303")
    assert len(empty) == 0 and empty.unretrieved == {"x": 1.0}


def test_qrels_alone_opens_as_lists_of_judged_documents(tmp_path):
    dataset = load(write(tmp_path, QRELS, "qrels.txt"))
    assert dataset.kind == "qrels" and dataset.has_pool
    assert dataset.queries() == ["301", "303"]
    rl = dataset.ranked_list("301")
    assert list(rl.docs) == ["d1", "d9", "d3"] and list(rl.grades) == [2, 3, 0]
    assert rl.unretrieved == {}


def test_tab_separated_run_and_crlf(tmp_path):
    text = "1\tQ0\td\t1\t0.5\tt\r\n1\tQ0\te\t2\t0.7\tt\r\n"
    dataset = load(write(tmp_path, text, "run.tsv"), need_grades=False)
    assert list(dataset.ranked_list("1").docs) == ["e", "d"]


def _random_trec(rng, n_queries=15, depth=40):
    run, qrels = [], []
    for q in range(n_queries):
        docs = [f"D{rng.integers(0, 80)}" for _ in range(depth)]
        docs = list(dict.fromkeys(docs))
        for rank, d in enumerate(docs, 1):
            run.append(f"q{q} Q0 {d} {rank} {rng.integers(0, 6) / 2} tag")  # many tied scores
        for d in {f"D{rng.integers(0, 80)}" for _ in range(30)}:
            qrels.append(f"q{q} 0 {d} {rng.integers(-1, 4)}")
    qrels.append("qx 0 only-judged 2")  # a judged query the run did not answer
    return "\n".join(run) + "\n", "\n".join(qrels) + "\n"


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("k", [5, 10, 1000])
def test_scores_match_pytrec_eval(tmp_path, seed, k):
    run_text, qrels_text = _random_trec(np.random.default_rng(seed))
    run_path, qrels_path = write(tmp_path, run_text, "run"), write(tmp_path, qrels_text, "qrels")
    dataset = load(run_path, qrels_path)
    preset = PRESETS["trec_eval"]
    ours = dataset.evaluate(preset.with_(k=k))

    with open(run_path) as f:
        run = pytrec_eval.parse_run(f)
    with open(qrels_path) as f:
        qrels = pytrec_eval.parse_qrel(f)
    # k=1000 is deeper than any list: whole-list "ndcg".
    key = f"ndcg_cut_{k}" if k != 1000 else "ndcg"
    theirs = pytrec_evaluate(qrels, {"ndcg_cut" if k != 1000 else "ndcg"}, run)
    assert theirs
    for q, values in theirs.items():
        assert ours.loc[q, "ndcg"] == pytest.approx(values[key], abs=1e-4), q
    # trec_eval leaves out queries the run did not answer; we list them with NDCG 0.
    assert set(ours.index) - set(theirs) == {"qx"} and ours.loc["qx", "ndcg"] == 0


_ROW = st.tuples(
    st.sampled_from(["q1", "q2", "q10"]),
    st.text("abAB1_-é", min_size=1, max_size=3),
    st.sampled_from([0.0, 0.5, 1.0, 2.0, -1.0]),
)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rows=st.lists(_ROW, min_size=1, max_size=40, unique_by=lambda r: (r[0], r[1])))
def test_order_is_trec_evals_whatever_the_file_order(tmp_path, rows):
    path = tmp_path / "run.txt"
    path.write_text("".join(f"{q} Q0 {d} {i} {s} t\n" for i, (q, d, s) in enumerate(rows)))
    dataset = load(path, need_grades=False)
    first_seen = list(dict.fromkeys(q for q, _, _ in rows))
    assert dataset.queries() == first_seen
    for q in first_seen:
        # score descending, then doc id descending in UTF-8 byte order (trec_eval's strcmp)
        expected = sorted(
            ((s, d.encode()) for qq, d, s in rows if qq == q), reverse=True
        )
        assert list(dataset.ranked_list(q).docs) == [d.decode() for _, d in expected]


@pytest.mark.parametrize("odd", ["7 Q0  123 1 2 t", " 7 Q0 124 1 2 t", "7\tQ0\t125\t1\t2\tt"])
def test_irregular_spacing_after_the_first_megabyte(tmp_path, odd):
    # The fast single-space parse must not mistake a shifted line for a good one.
    regular = "".join(f"1 Q0 doc{i} {i} {1 / (i + 1)} t\r\n" for i in range(40_000))
    path = write(tmp_path, regular + odd + "\n", "run.txt")
    dataset = load(path, need_grades=False)
    assert dataset.queries() == ["1", "7"]
    assert list(dataset.ranked_list("7").docs) == [odd.split()[2]]
    assert len(dataset.ranked_list("1")) == 40_000


def test_ties_between_very_long_ids(tmp_path):
    long = ["x" * 150 + c for c in "bca"]
    path = write(tmp_path, "".join(f"1 Q0 {d} 1 0.5 t\n" for d in long), "run.txt")
    assert list(load(path, need_grades=False).ranked_list("1").docs) == sorted(long, reverse=True)


def test_hash_collisions_fall_back_to_exact_matching(tmp_path, monkeypatch):
    from ndcg_gui.core.arrays import join

    # Every id hashes alike: each match must be confirmed on the strings, and is not.
    monkeypatch.setattr(join, "hash_strings", lambda ids: np.zeros(len(ids), np.uint64))
    dataset = load(write(tmp_path, RUN, "run.txt"), write(tmp_path, QRELS, "qrels.txt"))
    assert np.array_equal(dataset.ranked_list("301").grades, [0.0, np.nan, 2.0], equal_nan=True)
    with pytest.raises(InputError, match=r'run\.txt:3: document "a" is listed twice'):
        load(write(tmp_path, "1 Q0 a 1 2 t\n1 Q0 b 2 1 t\n1 Q0 a 3 0 t\n", "run.txt"))


def test_a_hash_match_between_different_ids_is_not_a_judgment(tmp_path, monkeypatch):
    from ndcg_gui.core.arrays import join

    # Ids hash by their last byte: run "d2" and judged "e2" collide, but are different documents.
    monkeypatch.setattr(join, "hash_strings", lambda ids: np.array(
        [ord(d[-1]) for d in ids.to_pylist()], np.uint64))
    dataset = load(write(tmp_path, RUN, "run.txt"), write(tmp_path, "301 0 e2 3\n301 0 d1 1\n", "q.txt"))
    rl = dataset.ranked_list("301")
    assert list(rl.docs) == ["d3", "d2", "d1"]
    assert np.array_equal(rl.grades, [np.nan, np.nan, 1.0], equal_nan=True)
    assert rl.unretrieved == {"e2": 3.0}


def test_trec_evals_own_truncated_run_loads():
    """results.trunc (trec_eval's test data) has extra trailing fields on its first line."""
    from pathlib import Path

    from ndcg_gui.core.reading import load

    folder = Path(__file__).resolve().parents[1] / "data" / "trec_eval"
    ds = load(folder / "results.trunc", folder / "qrels.test")
    assert set(ds.queries()) >= {"301", "303"}


def test_extra_fields_on_the_first_line_are_ignored(tmp_path):
    from ndcg_gui.core.reading import load

    path = tmp_path / "x.run"
    path.write_text("q1 Q0 d1 1 2.0 tag junk\nq1 Q0 d2 2 1.0 tag\n")
    assert load(path, need_grades=False).ranked_list("q1").docs.tolist() == ["d1", "d2"]
