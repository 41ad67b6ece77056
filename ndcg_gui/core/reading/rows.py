"""What a reader found in a file, before the join: one entry per record, in file order."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pyarrow as pa

from ndcg_gui.core.errors import InputError


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
        index = pa.array(order)
        for name in ("doc", "grade", "score", "rank", "record") + (() if same_queries else ("query",)):
            values = getattr(self, name)
            if values is not None:
                setattr(self, name, values.take(index) if isinstance(values, pa.Array | pa.ChunkedArray)
                        else values[order])
        for name in list(self.extras):
            self.extras[name] = self.extras[name].take(index)

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
