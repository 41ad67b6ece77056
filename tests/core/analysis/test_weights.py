"""Query weights checked against the judged queries (`core.analysis.weights`), and the weighted mean
against numpy's `average` where the weights neither overflow nor vanish."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ndcg_gui.core.analysis.weights import parse_weight, query_weights, weighted_mean, weights_of
from ndcg_gui.core.errors import InputError
from ndcg_gui.core.formats.query_map import QueryMap, ValueProblem


def weights(values: dict, path="w.tsv") -> QueryMap[float]:
    from pathlib import Path
    return QueryMap(values, "weight", "w.tsv", Path(path), {q: i + 1 for i, q in enumerate(values)})


def test_every_judged_query_needs_a_weight():
    with pytest.raises(InputError) as info:
        query_weights(weights({"a": 1.0}), ["a", "b"])
    assert str(info.value) == \
        'w.tsv: a judged query has no weight: "b"; give every judged query a weight (0 to leave it out)'
    with pytest.raises(InputError) as info:
        query_weights(weights({"a": 1.0}), ["a", *[f"q{i}" for i in range(7)]])
    assert str(info.value).startswith(
        'w.tsv: 7 judged queries have no weight: "q0", "q1", "q2", "q3", "q4", ...;')


def test_weights_of_queries_not_judged_are_left_out_and_all_zero_is_refused():
    assert query_weights(weights({"a": 2.0, "b": 0.0, "zz": 5.0}), ["a", "b"]) == {"a": 2.0, "b": 0.0}
    with pytest.raises(InputError, match="every judged query's weight is 0"):
        query_weights(weights({"a": 0.0, "b": 0.0, "zz": 5.0}), ["a", "b"])


@pytest.mark.parametrize("text", ["-0.5", "nan", "NaN", "-inf", "1e400", "", "1.5.2", "0x10", "1_000"])
def test_parse_weight_refuses(text):
    with pytest.raises(ValueProblem):
        parse_weight(text)


def test_parse_weight_reads():
    read = [parse_weight(t) for t in ("0", "-0", "2.5", "1e3", "+7", ".5")]
    assert read == [0.0, 0.0, 2.5, 1000.0, 7.0, 0.5]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.floats(0, 1), st.just(0.0) | st.floats(1e-3, 1e6)), min_size=1, max_size=30),
       st.sampled_from([1.0, 1e300, 1e-300]))
def test_weighted_mean_equals_numpy_average_at_any_scale(pairs, scale):
    x = np.array([a for a, _ in pairs])
    w = np.array([b for _, b in pairs])
    scaled = weights_of({str(i): v * scale for i, v in enumerate(w)}, [str(i) for i in range(len(w))])
    if w.sum() == 0:
        assert np.isnan(weighted_mean(x, scaled))
        return
    assert weighted_mean(x, scaled) == pytest.approx(np.average(x, weights=w), rel=1e-9, abs=1e-300)


def test_a_tiny_weight_times_a_tiny_ndcg_does_not_underflow_to_a_mean_of_0():
    """Drawn by the property above: weight 1e-300 times NDCG 3.4e-217 was 0 in the dot product."""
    assert weighted_mean(np.array([3.4e-217]), np.array([1e-300])) == pytest.approx(3.4e-217, rel=1e-12)
    assert weighted_mean(np.array([0.5, 0.25]), np.array([1e-300, 3e-300])) == pytest.approx(0.3125)
    assert weighted_mean(np.array([0.5, 0.25]), np.array([5e-324, 1.5e-323])) == pytest.approx(0.3125)
