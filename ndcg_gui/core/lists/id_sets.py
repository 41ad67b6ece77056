"""The query ids of a big file as a list of texts and as a set (`id_keys`), made in parts.

Python hands the GIL to a waiting thread only between calls: a worker thread making `set(ids)` or
`list(map(str, ids))` of a big file's ids in one call holds it longer than a frame, and the GUI
thread, which needs it for every event, misses its frames meanwhile (issue 24: the window over a
run too big to hold). In parts of PART ids the GUI thread gets it between them.

`id_keys` keeps ids a dataset holds for as long as it is open: a dict of texts to None, which
Python's cyclic garbage collector does not track (a set or a list of 500,000 texts it walks at
each full collection, every text read from memory: with a few of them one collection took several
frames of the window).
"""

from __future__ import annotations

from collections.abc import Sequence

PART = 50_000


def texts(ids: Sequence) -> list[str]:
    """`list(map(str, ids))`."""
    out: list[str] = []
    for start in range(0, len(ids), PART):
        out.extend(map(str, ids[start:start + PART]))
    return out


def id_keys(ids: Sequence[str], into: dict[str, None] | None = None) -> dict[str, None]:
    """The ids as the keys of a dict (membership as a set's, untracked by the collector), or
    added to `into`; in parts."""
    into = {} if into is None else into
    for start in range(0, len(ids), PART):
        into.update(dict.fromkeys(ids[start:start + PART]))
    return into
