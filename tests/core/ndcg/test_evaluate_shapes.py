"""`evaluate` (trec_eval preset, ties="trec") against pytrec_eval on the shapes of data that made
the old bucket path slow or wrong: integer scores, few distinct values (long ties at the k-th
place), all-equal scores, scores that differ only beyond single precision (trec_eval keeps scores as
float32), a different scale per query, doc ids shared across queries or long with a common prefix,
dense or relevant-only qrels, very uneven query sizes. Each run is scored shuffled and grouped.
"""

import math

import numpy as np
import pandas as pd
import pytest
from pytrec_child import evaluate as pytrec_evaluate

from ndcg_gui.core import Measure, evaluate
from ndcg_gui.core.ndcg.presets import preset

TREC = preset("trec_eval")


def scores_of(kind: str, q: np.ndarray, rng) -> np.ndarray:
    n = len(q)
    if kind == "float":
        return rng.random(n)
    if kind == "int":
        return rng.integers(-50, 1000, n)  # an int64 column
    if kind == "few":
        return rng.integers(0, 3, n).astype(float)
    if kind == "equal":
        return np.full(n, 2.5)
    if kind == "float32-ties":  # distinct as doubles, equal in pairs as floats (trec_eval's view)
        base = rng.integers(0, 20, n).astype(np.float32).astype(float) + 1000.0
        return base + rng.integers(0, 2, n) * 1e-9
    if kind == "scaled":  # a different offset and scale per query, heavy tail, signs and -0.0
        offset = rng.uniform(-1e6, 1e6, q.max() + 1)
        scale = 10.0 ** rng.uniform(-4, 5, q.max() + 1)
        out = offset[q] + scale[q] * rng.lognormal(0, 2, n) * rng.choice([-1, 1], n)
        out[rng.random(n) < 0.05] = -0.0
        return out
    raise ValueError(kind)


def doc_ids_of(kind: str, q: np.ndarray, pos: np.ndarray, rng) -> list[str]:
    if kind == "shared":  # one small corpus: the same ids in many queries
        a, b = rng.integers(0, 10007, q.max() + 1), rng.integers(1, 10007, q.max() + 1)
        return [f"d{x}" for x in ((a[q] + pos * b[q]) % 10007).tolist()]
    if kind == "prefixed":  # long ids sharing a prefix, some of them prefixes of others
        return [f"clueweb09-en{x % 37:04d}-{x:05d}"[: 17 + x % 5] + f"é{x}" for x in
                rng.permutation(len(q)).tolist()]
    return [f"{x}" for x in rng.permutation(len(q)).tolist()]  # unique numbers of any length


def make(scores: str, docs: str, qrels: str, sizes: str, seed: int = 0):
    rng = np.random.default_rng(seed)
    if sizes == "even":
        size = np.full(40, 120)
    else:  # one big query, many small ones, some under k
        size = np.concatenate([[3000], rng.integers(1, 15, 30), rng.integers(20, 200, 10)])
    n_out = 5
    total = size + n_out
    q_all = np.repeat(np.arange(len(size)), total)
    pos = np.arange(len(q_all)) - np.repeat(np.cumsum(total) - total, total)
    doc_all = np.array(doc_ids_of(docs, q_all, pos, rng), dtype=object)
    retrieved = pos < size[q_all]
    q, doc = q_all[retrieved], doc_all[retrieved]
    score = scores_of(scores, q, rng)
    if qrels == "dense":
        pick = np.ones(len(q_all), bool)
        grade = rng.choice([0, 1, 2, 3], len(q_all), p=[0.5, 0.25, 0.15, 0.1])
    else:
        pick = rng.random(len(q_all)) < 0.08
        grade = rng.integers(1, 4, len(q_all))
    labels = np.array([f"q{i}" for i in range(len(size))], dtype=object)
    run = pd.DataFrame({"query": labels[q], "doc": doc, "score": score})
    qrels_df = pd.DataFrame({"query": labels[q_all[pick]], "doc": doc_all[pick], "grade": grade[pick]})
    run_d: dict = {}
    for a, b, s in zip(run["query"], run["doc"], score.astype(float).tolist(), strict=True):
        run_d.setdefault(a, {})[b] = s
    qrels_d: dict = {}
    for a, b, g in zip(qrels_df["query"], qrels_df["doc"], qrels_df["grade"].tolist(), strict=True):
        qrels_d.setdefault(a, {})[b] = int(g)
    return run, qrels_df, run_d, qrels_d


SHAPES = [
    ("float", "unique", "dense", "even"),
    ("int", "shared", "relevant", "uneven"),
    ("int", "unique", "dense", "uneven"),
    ("few", "prefixed", "dense", "even"),
    ("few", "shared", "relevant", "uneven"),
    ("equal", "prefixed", "relevant", "uneven"),
    ("equal", "shared", "dense", "even"),
    ("float32-ties", "unique", "dense", "even"),
    ("float32-ties", "prefixed", "relevant", "uneven"),
    ("scaled", "shared", "dense", "uneven"),
    ("scaled", "unique", "relevant", "even"),
]


@pytest.mark.parametrize("shape", SHAPES, ids=["-".join(s) for s in SHAPES])
@pytest.mark.parametrize("k", [1, 10, 100])
def test_same_ndcg_as_pytrec_eval_on_every_shape(shape, k):
    run, qrels, run_d, qrels_d = make(*shape)
    measure = f"ndcg_cut_{k}"
    theirs = pytrec_evaluate(qrels_d, {f"ndcg_cut.{k}"}, run_d)
    shuffled = run.sample(frac=1.0, random_state=1)
    grouped = run.sort_values(["query", "score"], ascending=[True, False])
    for frame in (run, shuffled, grouped):
        ours = evaluate(frame, qrels, TREC.with_(k=k, ties="trec", empty="skip"))
        assert set(ours.index) == set(theirs)
        for query, values in theirs.items():
            assert math.isclose(ours.loc[query, "ndcg"], values[measure], rel_tol=1e-9,
                                abs_tol=1e-12), (query, shape)


def test_many_tied_long_ids_with_a_shared_prefix():
    # Over 65,536 rows tied at the k-th place: the doc-id rounds skip the prefix all ids share.
    rng = np.random.default_rng(3)
    n_queries, n_docs = 70, 1000
    q = np.repeat(np.arange(n_queries), n_docs)
    docs = [f"GX{x % 7:03d}-00-{x:07d}" for x in rng.permutation(len(q)).tolist()]
    run = pd.DataFrame({"query": [f"{301 + i}" for i in q], "doc": docs,
                        "score": rng.integers(0, 2, len(q)).astype(float)})
    judged = rng.random(len(q)) < 0.3
    qrels = pd.DataFrame({"query": run["query"][judged], "doc": run["doc"][judged],
                          "grade": rng.integers(0, 3, judged.sum())})
    run_d: dict = {}
    for a, b, s in zip(run["query"], run["doc"], run["score"], strict=True):
        run_d.setdefault(a, {})[b] = float(s)
    qrels_d: dict = {}
    for a, b, g in zip(qrels["query"], qrels["doc"], qrels["grade"], strict=True):
        qrels_d.setdefault(a, {})[b] = int(g)
    theirs = pytrec_evaluate(qrels_d, {"ndcg_cut.10"}, run_d)
    ours = evaluate(run.sample(frac=1.0, random_state=0), qrels, TREC.with_(k=10))
    for query, values in theirs.items():
        assert math.isclose(ours.loc[query, "ndcg"], values["ndcg_cut_10"], rel_tol=1e-9)


@pytest.mark.parametrize("dtype", ["object", "str", "category", "string[python]"])
def test_id_columns_of_any_pandas_type_score_the_same(dtype):
    run, qrels, _, _ = make("few", "shared", "dense", "uneven", seed=5)
    expected = evaluate(run, qrels, TREC.with_(k=10))
    ids = {"query": dtype, "doc": dtype}
    got = evaluate(run.astype(ids), qrels.astype(ids), TREC.with_(k=10))
    pd.testing.assert_frame_equal(got, expected)


def test_ids_that_are_not_valid_unicode_are_compared_as_their_bytes():
    # A lone surrogate (a badly decoded file) in an object column: matched to its judgment, and
    # tied with "b" it comes first, as its UTF-8 bytes (ED A0 80) sort after "b" (62).
    run = pd.DataFrame({"query": pd.Series(["q", "q", "q"], dtype=object),
                        "doc": pd.Series(["\ud800x", "b", "a"], dtype=object),
                        "score": [1.0, 1.0, 0.5]})
    qrels = pd.DataFrame({"query": pd.Series(["q"], dtype=object),
                          "doc": pd.Series(["\ud800x"], dtype=object), "grade": [2]})
    result = evaluate(run, qrels, TREC.with_(k=1))
    assert result.loc["q", "ndcg"] == 1.0 and result.loc["q", "n_judged"] == 1


def test_evaluate_at_the_largest_k_works_on_the_lists_not_on_k(monkeypatch):
    """The discount table is as long as the longest list, never k (k = 10^8 took 23 s and 2.5 GB)."""
    import importlib

    from ndcg_gui.core.ndcg.measure import MAX_K

    evaluate_module = importlib.import_module("ndcg_gui.core.ndcg.evaluate")

    asked: list[int] = []
    real = evaluate_module.discounts

    def counted(n, config):
        asked.append(n)
        return real(n, config)

    monkeypatch.setattr(evaluate_module, "discounts", counted)
    run = pd.DataFrame({"query": ["q"] * 5, "doc": list("abcde"), "score": [5.0, 4, 3, 2, 1]})
    qrels = pd.DataFrame({"query": ["q"] * 6, "doc": list("abcdef"), "grade": [3.0, 2, 3, 0, 1, 3]})
    row = evaluate_module.evaluate(run, qrels, Measure(k=MAX_K)).iloc[0]
    assert row["ndcg"] == pytest.approx(evaluate_module.evaluate(run, qrels, Measure(k=6)).iloc[0]["ndcg"])
    assert asked and max(asked) <= 6
