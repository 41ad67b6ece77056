"""The order people expect query ids in: q2 before q10, topic 2 before topic 10."""

from __future__ import annotations

import re

import numpy as np

_DIGITS = re.compile(r"(\d+)")


def natural_key(query: str) -> list[tuple[int, int, str]]:
    """A sort key that compares runs of digits by value and the rest as text."""
    return [(0, int(p), "") if p.isdigit() else (1, 0, p) for p in _DIGITS.split(str(query)) if p]


def _all_digits(text: np.ndarray) -> bool:
    """Whether every id is ASCII digits, 18 at most (an int64): checked over the array at once
    (500,000 ids: ~20 ms; a test per id took ~10 times that)."""
    if text.dtype.kind != "U" or text.dtype.itemsize // 4 > 18 or not np.char.isdigit(text).all():
        return False
    try:
        text.astype(np.bytes_)  # (ASCII: "٣" is a digit too)
    except UnicodeEncodeError:
        return False
    return True


def natural_order(queries: np.ndarray) -> np.ndarray:
    """The position of each id in natural order (a rank per id, 0 first): the query sort key."""
    ids = list(map(str, queries))
    text = np.array(ids) if ids else None
    if text is not None and _all_digits(text):
        # All numbers (TREC topics): by value, then by text ("01" next to "1"), without a key per id.
        # (Among equal values the texts differ by leading zeros only: the longer sorts first as
        # text, "007" < "07" < "7", but zeros alone the shorter, "0" < "00".)
        values = np.fromiter(map(int, ids), np.int64, len(ids))
        lengths = np.char.str_len(text)
        order = np.lexsort((np.where(values == 0, lengths, -lengths), values))
    else:
        order = sorted(range(len(ids)), key=lambda i: natural_key(ids[i]))
    rank = np.empty(len(ids), dtype=np.int64)
    rank[order] = np.arange(len(ids))
    return rank
