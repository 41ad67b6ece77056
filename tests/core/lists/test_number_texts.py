"""`number_texts` (every figure of a column at once, Arrow and integer casts) against
`number_text` (Python's float repr, one value at a time): the same text for every double."""

from __future__ import annotations

import struct

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from ndcg_gui.core.lists.numbers import number_text, number_texts

# Where the two ways of writing a float change: Python's positional range is [1e-4, 1e16),
# Arrow's [1e-6, 1e10); integers are written as such below 1e15.
EDGES = [0.0, -0.0, float("nan"), float("inf"), -float("inf"), 5e-324, -5e-324, 2.2250738585072014e-308,
         1e-6, 1e-5, 9.999999999999999e-5, 1e-4, 1.0000000000000002e-4, 0.1, 0.30000000000000004, 1 / 3,
         0.5, 1.0, -1.0, 2.5, 9999999999.5, 1e10 - 1, 1e10, 1e10 + 0.5, 12345678901.25, 1e15 - 1, 1e15,
         1e15 + 1, 1e16, 2.0**53, 2.0**53 + 2, 1e21, 1e22, 1.7976931348623157e308, -1e-7, -123.456]


@given(st.lists(st.floats(allow_nan=True, allow_infinity=True), max_size=60))
@settings(max_examples=300, deadline=None)
def test_every_double_is_written_as_number_text_writes_it(values):
    x = np.array(values, dtype=np.float64)
    assert number_texts(x).to_pylist() == [number_text(v) for v in x.tolist()]


def test_the_edges_of_both_notations_and_random_bit_patterns():
    rng = np.random.default_rng(36)
    bits = np.frombuffer(rng.bytes(8 * 50_000), np.float64)  # every exponent, NaN payloads included
    scaled = rng.random(50_000) * 10.0 ** rng.integers(-12, 20, 50_000)
    finite = np.abs(np.array(EDGES[5:]))
    finite = finite[finite < 1e308]
    near = np.nextafter(np.repeat(finite, 2), np.tile([0.0, np.inf], len(finite)))  # a ulp either side
    x = np.concatenate([EDGES, bits, scaled, -scaled, near])
    assert number_texts(x).to_pylist() == [number_text(v) for v in x.tolist()]


def test_nothing_gives_nothing():
    assert number_texts(np.zeros(0)).to_pylist() == []


def test_a_nan_with_a_payload_is_empty_too():
    payload = struct.unpack("<d", struct.pack("<Q", 0x7FF8_0000_0000_1234))[0]
    assert number_texts(np.array([payload, 1.5])).to_pylist() == ["", "1.5"]
