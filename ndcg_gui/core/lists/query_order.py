"""The order people expect query ids in: q2 before q10, topic 2 before topic 10."""

from __future__ import annotations

import re

import numpy as np

_DIGITS = re.compile(r"(\d+)")


def natural_key(query: str) -> list[tuple[int, int, str]]:
    """A sort key that compares runs of digits by value and the rest as text."""
    return [(0, int(p), "") if p.isdigit() else (1, 0, p) for p in _DIGITS.split(str(query)) if p]


# The keys of the last few big tables of queries, by their pandas Index (held, so that its id is
# not another's): worked out in a worker (`summary.score`), read by the window's query table.
_KEPT: list[tuple[object, tuple]] = []
KEEP_FROM = 50_000  # ids: the keys of fewer are made where needed, too few to cost a frame


def order_keys_of(index) -> tuple:
    """`order_keys` of a pandas Index of query ids, kept for the last few big ones."""
    keys = _kept_keys(index)
    if keys is None:
        keys = order_keys(index.to_numpy(dtype=object))
        if len(index) >= KEEP_FROM:
            _KEPT[:] = [(index, keys), *_KEPT[:1]]
    return keys


def kept_text(index):
    """The ids of `index` as Arrow text if its keys are kept (`order_keys_of`), else None."""
    keys = _kept_keys(index)
    return None if keys is None else keys[2]


def _kept_keys(index) -> tuple | None:
    for kept, keys in _KEPT:
        if kept is index:
            return keys
    return None


def position_of(text, queries, query: str) -> int:
    """Where `query` is among `queries` (unique ids; `text`: the same as Arrow text, or None), or
    -1, by a scan: Arrow compares the bytes, numpy makes a Python string per id (slower); a dict
    or pandas' hash table of every id costs more to make, by far,
    than the few lookups a change makes."""
    if text is not None:
        import pyarrow.compute as pc  # lazy: start-up (the first paint shows one list)

        return int(pc.index(text, query).as_py())
    hits = np.flatnonzero(np.asarray(queries == query))
    return int(hits[0]) if len(hits) else -1


def natural_order(queries: np.ndarray) -> np.ndarray:
    """The position of each id in natural order (a rank per id, 0 first): the query sort key."""
    return order_keys(queries)[0]


def order_keys(queries: np.ndarray) -> tuple:
    """(`natural_order(queries)`, each id's length in characters, the ids as Arrow text or None,
    the ids' positions in natural order: the rank's inverse), the ids made Arrow text once: what a
    table of 500,000 queries sorts, sizes its column and finds a row by (a Python `len` per id, and
    inverting the rank, lengthened the frame that shows them)."""
    text = _text(queries)
    if text is None:
        none = np.zeros(0, dtype=np.int64)
        return none, none, None, none
    import pyarrow.compute as pc  # lazy: start-up (the first paint shows one list)

    lengths = pc.utf8_length(text).to_numpy(zero_copy_only=False).astype(np.int64)
    values = _numbers(text)
    if values is not None:
        # All numbers (TREC topics): by value, then by text ("01" next to "1"), without a key per id.
        # (Among equal values the texts differ by leading zeros only: the longer sorts first as
        # text, "007" < "07" < "7", but zeros alone the shorter, "0" < "00".)
        order = np.lexsort((np.where(values == 0, lengths, -lengths), values))
    else:
        ids = list(map(str, queries))
        order = sorted(range(len(ids)), key=lambda i: natural_key(ids[i]))
    order = np.asarray(order, dtype=np.int64)
    rank = np.empty(len(queries), dtype=np.int64)
    rank[order] = np.arange(len(queries))
    return rank, lengths, text, order


def _text(queries: np.ndarray):
    """The ids as an Arrow string array (None: no ids)."""
    if not len(queries):
        return None
    import pyarrow as pa  # lazy: start-up (the first paint shows one list)

    try:
        return pa.array(queries, pa.string())
    except (pa.ArrowInvalid, pa.ArrowTypeError):
        return pa.array(list(map(str, queries)), pa.string())


def _numbers(text) -> np.ndarray | None:
    """The value of each id when every id is ASCII digits, 18 at most (an int64); else None. In
    Arrow's kernels, several times faster than numpy's text arrays and a Python int per id
    in the frame that shows them."""
    import pyarrow as pa  # lazy: start-up
    import pyarrow.compute as pc  # lazy: start-up

    if not pc.all(pc.match_substring_regex(text, "^[0-9]{1,18}$")).as_py():
        return None
    return pc.cast(text, pa.int64()).to_numpy(zero_copy_only=False)
