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
    ids = [str(q) for q in queries]
    if ids and all(q.isascii() and q.isdigit() and len(q) <= 18 for q in ids):
        # All numbers (TREC topics): by value, then by text ("01" next to "1"), without a key per id.
        text = np.array(ids)
        order = np.lexsort((text, text.astype(np.int64)))
    else:
        order = sorted(range(len(ids)), key=lambda i: natural_key(ids[i]))
    rank = np.empty(len(ids), dtype=np.int64)
    rank[order] = np.arange(len(ids))
    return rank
