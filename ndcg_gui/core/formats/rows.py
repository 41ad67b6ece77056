"""What a reader found in a file, before the join: one entry per record, in file order."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pyarrow as pa

from ndcg_gui.core.errors import InputError

_PIECE = 1 << 16


def empty_id_problem(role: str) -> str:
    """A row missing its query or doc id, in one set of words for every reader and engine."""
    return f"{role} is empty; expected an id"


def record_numbers(start: int, stop: int) -> np.ndarray:
    """Record indices start..stop-1 (`Rows.record`): int32 when they fit, as they do but for
    files of billions of lines (one of the loader's arrays of a value a row: half the memory)."""
    return np.arange(start, stop, dtype=np.int32 if stop < 2**31 else np.int64)


def chunks_of(values: pa.Array | pa.ChunkedArray) -> list[pa.Array]:
    """The chunks of an Arrow column, in a list that can let each go (`_taken`)."""
    return list(values.chunks) if isinstance(values, pa.ChunkedArray) else [values]


def _taken(chunks: list[pa.Array], order: np.ndarray, still_needed: np.ndarray) -> pa.ChunkedArray:
    """The rows of the column `chunks` (its only reference: emptied) in `order`, made `_PIECE`
    rows at a time while the parsed chunks that no later row needs are let go: a ranked
    file's order stays near the file's (ties swap neighbours), so the old and the new text are not
    both whole in memory at once. `still_needed[j]`: the lowest row taken from piece j on."""
    kind = chunks[0].type
    starts = np.cumsum([0] + [len(c) for c in chunks])
    pieces, first = [], 0  # chunks[:first] are let go
    for at in range(0, len(order), _PIECE):
        rows = order[at:at + _PIECE]
        lo = int(np.searchsorted(starts, rows.min(), side="right")) - 1
        hi = int(np.searchsorted(starts, rows.max(), side="right"))
        part = pa.chunked_array(chunks[lo:hi], type=kind)
        pieces.append(part.take(pa.array(rows - starts[lo])).combine_chunks())
        del part
        if at + _PIECE < len(order):
            free_below = int(np.searchsorted(starts, still_needed[at // _PIECE + 1], side="right")) - 1
            for i in range(first, free_below):
                chunks[i] = None
            first = max(first, free_below)
    chunks.clear()
    return pa.chunked_array(pieces, type=kind)


@dataclass
class Rows:
    """The used columns of one file.

    query   Arrow text, or None: the file has no query column (one list, query "")
    doc     Arrow text, or None: a bare list of grades (documents are named d1, d2… per query)
    grade   float, NaN = unjudged (None: the file has no grade column)
    score   float (None: no score column); rank likewise
    record  each row's record index in the file (0-based; a CSV header is record 0), for messages
            and for writing the file back (`FileFormat.record_query`)
    extras  the file's other columns, as text, by name (in file order)
    path    the file, for messages
    line_of the line of a record as an editor counts it (None for a file without lines: Parquet,
            Feather, whose messages name the row)
    """

    query: pa.Array | pa.ChunkedArray | None
    doc: pa.Array | pa.ChunkedArray | None
    record: np.ndarray
    path: Path
    line_of: Callable[[int], int | None] | None
    grade: np.ndarray | None = None
    score: np.ndarray | None = None
    rank: np.ndarray | None = None
    extras: dict[str, pa.Array | pa.ChunkedArray] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.record)

    def error(self, message: str, record: int, column: int | None = None) -> InputError:
        """An `InputError` about record `record` (its line, or its row), maybe one column (1-based)."""
        if self.line_of is None:
            return InputError(f"row {record + 1}: {message}", self.path)
        return InputError(message, self.path, self.line_of(record), column)

    def where(self, record: int) -> str:
        """"line N" or "row N" of a record, for a message about two places."""
        if self.line_of is None:
            return f"row {record + 1}"
        return f"line {self.line_of(record)}"

    def reorder(self, order: np.ndarray, same_queries: bool = False) -> None:
        """Put the rows in `order`, in place (the old arrays are let go as each is replaced).
        `same_queries`: the order only moves rows within runs of one query (the query column stays)."""
        # The lowest row taken from each piece of `_PIECE` rows on (one value a piece, not a row).
        lowest = np.minimum.reduceat(order, np.arange(0, len(order), _PIECE)) if len(order) else order
        still_needed = np.minimum.accumulate(lowest[::-1])[::-1]
        for name in ("doc", "grade", "score", "rank", "record") + (() if same_queries else ("query",)):
            values = getattr(self, name)
            if values is None:
                continue
            setattr(self, name, None)  # (this object's reference goes: the old chunks can be freed)
            if isinstance(values, pa.Array | pa.ChunkedArray):
                chunks = chunks_of(values)
                del values  # (the list is then the chunks' only holder)
                setattr(self, name, _taken(chunks, order, still_needed))
            else:
                setattr(self, name, values[order])
                del values
        for name in list(self.extras):
            chunks = chunks_of(self.extras.pop(name))
            self.extras[name] = _taken(chunks, order, still_needed)

    def take(self, keep: np.ndarray) -> Rows:
        """The rows at positions `keep`, in that order."""
        index = pa.array(keep)

        def pick(values):
            if values is None:
                return None
            return values.take(index) if isinstance(values, pa.Array | pa.ChunkedArray) else values[keep]

        return Rows(pick(self.query), pick(self.doc), self.record[keep], self.path, self.line_of,
                    pick(self.grade), pick(self.score), pick(self.rank),
                    {n: pick(v) for n, v in self.extras.items()})
