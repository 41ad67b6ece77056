"""`core.arrays.topk.select_top` (radix select per group) against a brute-force sort in Python."""

import tracemalloc

import numpy as np
import pyarrow as pa
from hypothesis import given, settings
from hypothesis import strategies as st

from ndcg_gui.core.arrays.topk import StringBytes, first_rows_word, leading_rows, score_bits, select_top

SCORES = st.one_of(
    st.sampled_from([0.0, -0.0, 1.0, -1.0, 2.5, 1e300, -1e-300, 5e-324]),
    st.floats(allow_nan=False, allow_infinity=False),
)
# Short alphabets make shared prefixes, prefixes of other ids and equal ids common.
DOCS = st.text(alphabet="ab\x01\x7fé中😀", max_size=20)


@st.composite
def tables(draw):
    n = draw(st.integers(0, 60))
    group = draw(st.lists(st.integers(0, 4), min_size=n, max_size=n))
    score = draw(st.lists(SCORES, min_size=n, max_size=n))
    doc = draw(st.lists(DOCS, min_size=n, max_size=n))
    need = draw(st.lists(st.integers(1, 12), min_size=5, max_size=5))
    return np.array(group, np.int64), np.array(score, float), doc, np.array(need, np.int64)


def brute(group, score, doc, need, by_doc: bool, keep_ties: bool) -> set[int]:
    """Rows of each group's need best (score high first, then doc bytes high first or file order)."""
    chosen = set()
    for g in set(group.tolist()):
        rows = [i for i in range(len(group)) if group[i] == g]

        def key(i):
            second = doc[i].encode("utf-8") if by_doc else -i
            return (score[i] + 0.0, second)

        ranked = sorted(rows, key=key, reverse=True)
        top = ranked[: need[g]]
        if keep_ties and len(ranked) > need[g]:
            last = score[top[-1]] + 0.0
            top = [i for i in ranked if score[i] + 0.0 >= last]
        chosen.update(top)
    return chosen


@settings(max_examples=400, deadline=None)
@given(data=tables(), how=st.sampled_from(["doc", "file", "ties"]), large=st.booleans(),
       offset=st.integers(0, 3))
def test_select_top_is_a_brute_force_sort(data, how, large, offset):
    group, score, doc, need = data
    # A slice of a bigger array: the offsets of the Arrow buffers do not start at 0.
    strings = pa.array(["pad"] * offset + doc, pa.large_string() if large else pa.string())[offset:]
    rows = np.arange(len(group))
    words = [lambda r: score_bits(score[r])]
    if how == "file":
        words.append(first_rows_word(len(group)))
    got = select_top(rows, group, need, words, StringBytes(strings) if how == "doc" else None,
                     keep_ties=how == "ties")
    assert list(got) == sorted(got)
    expected = brute(group, score, doc, need, by_doc=how == "doc", keep_ties=how == "ties")
    if how == "doc":
        # Equal (score, id) pairs are interchangeable: compare the keys that were chosen.
        def keys(rows):
            return sorted((group[i], score[i] + 0.0, doc[i]) for i in rows)

        assert keys(got) == keys(expected)
    else:
        assert set(got.tolist()) == expected


def test_score_bits_keep_the_order_of_floats():
    values = np.array([-np.inf, -1e308, -1.0, -5e-324, -0.0, 0.0, 5e-324, 1.0, 1e308, np.inf])
    bits = score_bits(values)
    assert (np.diff(bits.astype(object)) >= 0).all()
    assert bits[4] == bits[5]  # -0.0 and 0.0 are one score
    assert (np.diff(bits[5:].astype(object)) > 0).all() and (np.diff(bits[:5].astype(object)) > 0).all()


def test_many_rows_sharing_a_long_prefix():
    # Enough rows for the shared-prefix skip (65,536 or more in the doc-id rounds).
    rng = np.random.default_rng(0)
    n = 70_000
    group = rng.integers(0, 50, n)
    docs = [f"clueweb09-en{x:07d}" + "z" * (x % 3) for x in rng.permutation(n).tolist()]
    need = rng.integers(1, 30, 50)
    got = select_top(np.arange(n), group, need, [lambda r: score_bits(np.zeros(len(r)))],
                     StringBytes(pa.array(docs)))
    expected = set()
    for g in range(50):
        rows = np.flatnonzero(group == g)
        expected.update(sorted(rows.tolist(), key=lambda i: docs[i], reverse=True)[: need[g]])
    assert set(got.tolist()) == expected


@st.composite
def ranked_groups(draw):
    """Groups of rows in a row, each ranked (scores never rise), from few distinct scores (ties)."""
    sizes = draw(st.lists(st.integers(1, 30), min_size=0, max_size=8))
    scores = [sorted(draw(st.lists(st.sampled_from([0.0, -0.0, 1.0, 2.0, 3.0]), min_size=n, max_size=n)),
                     reverse=True) for n in sizes]
    key = np.array([s for group in scores for s in group], float)
    sizes = np.array(sizes, np.int64)
    return key, np.cumsum(sizes) - sizes, sizes


@settings(max_examples=400, deadline=None)
@given(data=ranked_groups(), k=st.integers(1, 12), with_key=st.booleans())
def test_leading_rows_are_the_first_k_and_the_rows_tied_with_the_kth(data, k, with_key):
    key, starts, sizes = data
    expected = []
    for start, size in zip(starts.tolist(), sizes.tolist(), strict=True):
        kth = key[start + min(size, k) - 1]
        expected += [start + i for i in range(size) if i < k or (with_key and key[start + i] == kth)]
    got = leading_rows(key if with_key else None, starts, sizes, k)
    assert got.dtype == np.int64 and got.tolist() == expected


def test_leading_rows_hold_no_array_as_long_as_the_rows():
    # 200,000 rows in 20,000 ranked lists, a tie at every 10th place running 3 rows on.
    n_lists, size, k = 20_000, 10, 4
    key = np.tile(np.array([9.0, 8, 7, 6, 6, 6, 6, 2, 1, 0]), n_lists)
    sizes = np.full(n_lists, size)
    starts = np.arange(n_lists) * size
    tracemalloc.start()
    try:
        got = leading_rows(key, starts, sizes, k)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert len(got) == 7 * n_lists
    # The answer itself (8 bytes a row kept) and a few arrays a list long; a mask or an index a
    # row long (8 bytes x 200,000 rows each) would pass this.
    assert peak < 8 * len(got) + 12 * 8 * n_lists < 8 * len(key) * 2
