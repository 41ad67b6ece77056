"""The query ids of a big file as a list of texts and a set, made in parts.

Python hands the GIL to a waiting thread only between calls: a worker thread making `set(ids)` or
`list(map(str, ids))` of 500,000 ids in one call holds it for 25-50 ms, and the window's GUI
thread, which needs it for every event, misses its frames meanwhile (issue 24: the window over a
run too big to hold). In parts of PART ids the GUI thread gets it between them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

PART = 50_000


def texts(ids: Sequence) -> list[str]:
    """`list(map(str, ids))`."""
    out: list[str] = []
    for start in range(0, len(ids), PART):
        out.extend(map(str, ids[start:start + PART]))
    return out


def id_set(ids: Sequence[str], into: set[str] | None = None) -> set[str]:
    """`set(ids)`, or `ids` added to `into`."""
    into = set() if into is None else into
    for start in range(0, len(ids), PART):
        into.update(ids[start:start + PART])
    return into


def frozen(ids: Iterable[str] | Sequence[str]) -> frozenset[str]:
    """`frozenset(ids)` (the set made in parts; freezing a set copies it without hashing again)."""
    return frozenset(id_set(ids if isinstance(ids, Sequence) else list(ids)))
