"""The one join and the one tie order (core.arrays.join / order), against brute force and against
trec_eval (pytrec_eval): the loader and `evaluate` share them, so a loaded dataset scores as
trec_eval does even where scores tie only as single-precision floats."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pytrec_child import evaluate as pytrec_evaluate

from ndcg_gui.core import evaluate
from ndcg_gui.core.arrays.ids import Groups, edge_spaced, hash_strings, shared_prefix
from ndcg_gui.core.arrays.join import lookup, repeated_pair
from ndcg_gui.core.arrays.order import ranked, score_key
from ndcg_gui.core.ndcg.measure import Measure
from ndcg_gui.core.ndcg.presets import PRESETS
from ndcg_gui.core.reading import load

IDS = st.text("ab\u00e9\U0001f600xyz0123456789-", max_size=20)


@settings(max_examples=200, deadline=None)
@given(ids=st.lists(IDS, min_size=1, max_size=60), cut=st.integers(0, 60))
def test_equal_ids_hash_alike_however_they_are_held(ids, cut):
    whole = hash_strings(pa.array(ids))
    cut = min(cut, len(ids))
    chunked = pa.chunked_array([pa.array(ids[:cut], pa.string()), pa.array(ids[cut:], pa.string())])
    assert np.array_equal(hash_strings(chunked), whole)
    assert np.array_equal(hash_strings(pa.array(ids, pa.large_string())), whole)
    assert np.array_equal(hash_strings(pa.array(["pad", *ids]).slice(1)), whole)
    distinct = dict(zip(ids, whole.tolist(), strict=True))
    assert len(set(distinct.values())) == len(distinct)  # no collision among these few


@settings(max_examples=30, deadline=None)
@given(ids=st.lists(st.sampled_from(["x" * 5000, "x" * 4999 + "y", "x" * 4096, "x" * 4097, "a", "é" * 3000]),
                    min_size=1, max_size=8), cut=st.integers(0, 8))
def test_ids_past_a_page_hash_alike_however_they_are_held(ids, cut):
    """A megabyte-long id (a mutated file's) is hashed by a digest, not 8 bytes a step: the same
    id still gets the same hash whole, chunked, large or sliced, and the join still sees it."""
    whole = hash_strings(pa.array(ids))
    cut = min(cut, len(ids))
    chunked = pa.chunked_array([pa.array(ids[:cut], pa.string()), pa.array(ids[cut:], pa.string())])
    assert np.array_equal(hash_strings(chunked), whole)
    assert np.array_equal(hash_strings(pa.array(ids, pa.large_string())), whole)
    assert np.array_equal(hash_strings(pa.array(["pad", *ids]).slice(1)), whole)
    distinct = dict(zip(ids, whole.tolist(), strict=True))
    assert len(set(distinct.values())) == len(distinct)
    got = lookup(np.zeros(len(ids), np.int64), pa.array(ids), np.zeros(1, np.int64), pa.array(["x" * 5000]),
                 np.array([2.0]))
    assert np.array_equal(got, [2.0 if i == "x" * 5000 else np.nan for i in ids], equal_nan=True)


PAIRS = st.lists(st.tuples(st.integers(0, 3), st.sampled_from(["a", "b", "c", "dd", "é", "a b", ""])),
                 max_size=30)


@settings(max_examples=300, deadline=None)
@given(run=PAIRS, pool=PAIRS, grades=st.lists(st.integers(-1, 3), min_size=30, max_size=30))
def test_lookup_is_a_dictionary_lookup_where_the_last_judgment_wins(run, pool, grades):
    expected = {}
    for (q, d), g in zip(pool, grades, strict=False):
        expected[(q, d)] = float(g)
    got = lookup(np.array([q for q, _ in run], np.int64), pa.array([d for _, d in run], pa.string()),
                 np.array([q for q, _ in pool], np.int64), pa.array([d for _, d in pool], pa.string()),
                 np.array(grades[: len(pool)], float))
    want = [expected.get(pair, np.nan) for pair in run]
    assert np.array_equal(got, want, equal_nan=True)


@settings(max_examples=300, deadline=None)
@given(rows=PAIRS)
def test_the_first_repeated_pair_is_found(rows):
    seen, want = {}, None
    for i, pair in enumerate(rows):
        if pair in seen:
            want = (i, seen[pair])
            break
        seen[pair] = i
    got = repeated_pair(np.array([q for q, _ in rows], np.int64), pa.array([d for _, d in rows], pa.string()))
    assert got == want


def test_a_hash_collision_is_confirmed_on_the_strings(monkeypatch):
    from ndcg_gui.core.arrays import join

    monkeypatch.setattr(join, "hash_strings", lambda ids: np.zeros(len(ids), np.uint64))
    docs = pa.array(["a", "b", "c"])
    assert join.repeated_pair(np.zeros(3, np.int64), docs) is None
    got = join.lookup(np.zeros(3, np.int64), docs, np.zeros(2, np.int64), pa.array(["c", "a"]),
                      np.array([1.0, 2.0]))
    assert np.array_equal(got, [2.0, np.nan, 1.0], equal_nan=True)


SCORES = st.sampled_from([1.0, 1.0000000001, 1.00000001, 0.5, 0.50000001, 2.0, -1.0, 1e30, 3e38, 3.5e38])


@settings(max_examples=300, deadline=None)
@given(rows=st.lists(st.tuples(st.sampled_from(["q1", "q2", "q10"]), IDS, SCORES), max_size=40))
def test_the_order_is_trec_evals_float32_scores_then_doc_ids_descending(rows):
    queries = pa.array([q for q, _, _ in rows], pa.string())
    groups = Groups.of(queries)
    docs = pa.array([d for _, d, _ in rows], pa.string())
    key = score_key(np.array([s for _, _, s in rows]), "float32")
    order = ranked(None, groups.codes, key, docs)
    first_seen = list(dict.fromkeys(q for q, _, _ in rows))
    with np.errstate(over="ignore"):
        want = sorted(range(len(rows)), key=lambda i: (first_seen.index(rows[i][0]),
                      -float(np.float32(rows[i][2])), _descending(rows[i][1]), i))
    assert order.tolist() == want


def _descending(text: str) -> tuple:
    """A key that sorts UTF-8 byte strings in descending order (a prefix after its extensions)."""
    return (*(255 - b for b in text.encode()), 256)


# ---- against trec_eval -------------------------------------------------------------------------
def test_scores_tied_in_float32_are_tied_in_a_loaded_dataset_as_in_trec_eval(tmp_path):
    # The example: 1.0000000001 and 1.0 are one float32; trec_eval then ranks doc b first.
    (tmp_path / "run").write_text("q Q0 a 1 1.0000000001 t\nq Q0 b 2 1.0 t\n")
    (tmp_path / "qrels").write_text("q 0 a 1\nq 0 b 0\n")
    dataset = load(tmp_path / "run", tmp_path / "qrels")
    # The reader keeps the exact scores' order; trec_eval's rule at float32 decides their tie.
    assert dataset.ranked_list("q").docs.tolist() == ["a", "b"]
    trec32 = Measure(ties="trec", precision="float32")
    assert dataset.ranked_list("q").ties_ordered(trec32).docs.tolist() == ["b", "a"]
    theirs = pytrec_evaluate({"q": {"a": 1, "b": 0}}, {"ndcg_cut.1"}, {"q": {"a": 1.0000000001, "b": 1.0}})
    assert theirs["q"]["ndcg_cut_1"] == 0.0
    assert dataset.evaluate(Measure(k=1)).loc["q", "ndcg"] == 0.0


@pytest.mark.parametrize("seed", range(4))
def test_loaded_datasets_and_evaluate_agree_with_trec_eval_on_float32_ties(tmp_path, seed):
    rng = np.random.default_rng(seed)
    run_lines, qrels_lines, run, qrels = [], [], {}, {}
    for q in range(12):
        base = float(rng.choice([1.0, 0.1, 123.456, 1e6]))
        docs = [f"d{rng.integers(0, 40)}" for _ in range(30)]
        for d in dict.fromkeys(docs):
            score = base + int(rng.integers(0, 4)) * base * 1e-9  # equal in float32, not in float64
            run_lines.append(f"q{q} Q0 {d} 0 {score!r} t")
            run.setdefault(f"q{q}", {})[d] = float(score)
        for d in dict.fromkeys(f"d{rng.integers(0, 40)}" for _ in range(15)):
            g = int(rng.integers(0, 3))
            qrels_lines.append(f"q{q} 0 {d} {g}")
            qrels.setdefault(f"q{q}", {})[d] = g
    (tmp_path / "run").write_text("\n".join(run_lines) + "\n")
    (tmp_path / "qrels").write_text("\n".join(qrels_lines) + "\n")
    dataset = load(tmp_path / "run", tmp_path / "qrels")
    preset = PRESETS["trec_eval"]
    theirs = pytrec_evaluate(qrels, {"ndcg_cut.1,5,10"}, run)
    frame = pd.DataFrame([(q, d, s) for q, ds in run.items() for d, s in ds.items()],
                         columns=["query", "doc", "score"])
    pool = pd.DataFrame([(q, d, g) for q, ds in qrels.items() for d, g in ds.items()],
                        columns=["query", "doc", "grade"])
    for k in (1, 5, 10):
        loaded = dataset.evaluate(preset.with_(k=k))
        direct = evaluate(frame, pool, preset.with_(k=k))
        for q, values in theirs.items():
            assert loaded.loc[q, "ndcg"] == pytest.approx(values[f"ndcg_cut_{k}"], abs=1e-9), (q, k)
            assert direct.loc[q, "ndcg"] == loaded.loc[q, "ndcg"], (q, k)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_dataset_evaluate_does_not_join_again_and_equals_evaluate(tmp_path, data):
    rows = data.draw(st.lists(st.tuples(st.sampled_from(["1", "2"]), st.sampled_from("abcdef"), SCORES),
                              min_size=1, max_size=12, unique_by=lambda r: r[:2]))
    judged = data.draw(st.lists(st.tuples(st.sampled_from(["1", "2", "3"]), st.sampled_from("abcdefg"),
                                          st.integers(0, 3)), max_size=12, unique_by=lambda r: r[:2]))
    (tmp_path / "run").write_text("".join(f"{q} Q0 {d} 0 {s!r} t\n" for q, d, s in rows))
    (tmp_path / "qrels").write_text("".join(f"{q} 0 {d} {g}\n" for q, d, g in judged) or "9 0 z 0\n")
    dataset = load(tmp_path / "run", tmp_path / "qrels")
    frame = pd.DataFrame(rows, columns=["query", "doc", "score"])
    for k in (1, 3, None):
        want = evaluate(frame, dataset.qrels, Measure(k=k))
        got = dataset.evaluate(Measure(k=k))
        pd.testing.assert_frame_equal(got, want)


@settings(max_examples=200, deadline=None)
@given(prefix=st.text("ab\u00e9-", max_size=9), rest=st.lists(IDS, min_size=1, max_size=30),
       more=st.lists(IDS, max_size=30))
def test_a_shared_prefix_is_every_ids_and_hashing_past_it_keeps_equal_ids_equal(prefix, rest, more):
    a, b = pa.array([prefix + r for r in rest]), pa.array([prefix + m for m in more], pa.string())
    skip = shared_prefix(a, b)
    common = [s.encode() for s in a.to_pylist() + b.to_pylist()]
    assert all(s[:skip] == common[0][:skip] for s in common)
    ha, hb = hash_strings(a, skip), hash_strings(b, skip)
    for i, x in enumerate(a.to_pylist()):
        for j, y in enumerate(b.to_pylist()):
            assert (ha[i] == hb[j]) == (x == y)


def test_a_saved_run_keeps_scores_that_trec_eval_orders_as_the_list_is(tmp_path):
    # b before a is trec_eval's order for 1.0 and 1.0000000001 (one float32): an edited query
    # keeps those scores rather than being renumbered.
    from ndcg_gui.core.writing.writers import write_trec_run

    (tmp_path / "run").write_text("q Q0 a 1 1.0000000001 t\nq Q0 b 2 1.0 t\n")
    dataset = load(tmp_path / "run", need_grades=False)
    shown = dataset.ranked_list("q").ties_ordered(Measure(ties="trec"))  # (as the window shows it)
    edited = dataset.with_lists({"q": shown.with_grade(0, 2)})
    write_trec_run(edited, tmp_path / "out")
    assert (tmp_path / "out").read_text().split("\n")[:2] == ["q Q0 b 1 1.0 t", "q Q0 a 2 1.0000000001 t"]


@settings(max_examples=200, deadline=None)
@given(texts=st.lists(st.text(alphabet=" \tab\u00e9\u4e2d", max_size=5), max_size=30),
       split=st.integers(0, 30), large=st.booleans(), binary=st.booleans())
def test_edge_spaced_equals_a_regex_over_every_kind_of_text_array(texts, split, large, binary):
    kind = {(False, False): pa.string(), (True, False): pa.large_string(),
            (False, True): pa.binary(), (True, True): pa.large_binary()}[large, binary]
    values = [t.encode() for t in texts] if binary else texts
    whole_array = pa.array(values, kind)
    chunked = pa.chunked_array([whole_array[:split], whole_array[split:]], kind)
    expected = [bool(re.search(r"^[ \t]|[ \t]$", t)) for t in texts]
    assert edge_spaced(chunked).tolist() == expected
    assert edge_spaced(whole_array[1:]).tolist() == expected[1:]  # an array with an offset
