"""The order people expect query ids in: q2 before q10, topic 2 before topic 10."""

from __future__ import annotations

import re

import numpy as np

_DIGITS = re.compile(r"(\d+)")


def natural_key(query: str) -> list[tuple[int, int, str]]:
    """A sort key that compares runs of digits by value and the rest as text."""
    return [(0, int(p), "") if p.isdigit() else (1, 0, p) for p in _DIGITS.split(str(query)) if p]


def natural_order(queries: np.ndarray) -> np.ndarray:
    """The position of each id in natural order (a rank per id, 0 first): the query sort key."""
    values, lengths = _numbers(queries)
    if values is not None:
        # All numbers (TREC topics): by value, then by text ("01" next to "1"), without a key per id.
        # (Among equal values the texts differ by leading zeros only: the longer sorts first as
        # text, "007" < "07" < "7", but zeros alone the shorter, "0" < "00".)
        order = np.lexsort((np.where(values == 0, lengths, -lengths), values))
    else:
        ids = list(map(str, queries))
        order = sorted(range(len(ids)), key=lambda i: natural_key(ids[i]))
    rank = np.empty(len(queries), dtype=np.int64)
    rank[order] = np.arange(len(queries))
    return rank


def _numbers(queries: np.ndarray) -> tuple[np.ndarray | None, np.ndarray | None]:
    """(value, length) of each id when every id is ASCII digits, 18 at most (an int64); else
    (None, None). In Arrow's kernels: 500,000 ids in ~45 ms, where numpy's text arrays and a
    Python int per id took ~220 ms of the frame that shows them."""
    if not len(queries):
        return None, None
    import pyarrow as pa  # lazy: start-up (the first paint shows one list)
    import pyarrow.compute as pc  # lazy: start-up

    try:
        text = pa.array(queries, pa.string())
    except (pa.ArrowInvalid, pa.ArrowTypeError):
        text = pa.array(list(map(str, queries)), pa.string())
    if not pc.all(pc.match_substring_regex(text, "^[0-9]{1,18}$")).as_py():
        return None, None
    return (pc.cast(text, pa.int64()).to_numpy(zero_copy_only=False),
            pc.utf8_length(text).to_numpy(zero_copy_only=False).astype(np.int64))
