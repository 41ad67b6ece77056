"""Reading files: `load(path, qrels=None)` → `Dataset` (`dispatch.py`: which reader, then the join).

Sources (`source.py`, `compression.py`), one reader per format (`trec_text.py`, `csv_text.py`,
`columnar.py`) giving `Rows`, the join and the ranking order every path shares (`join.py`,
`order.py`, `ids.py`), the record of a text file's format kept for saving (`file_format.py`), and
the background loader process (`load_worker.py`, `packed.py`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pyarrow as pa  # noqa: F401  (the package's readers all need it: imported with it)

from ndcg_gui.core.reading import memory

if TYPE_CHECKING:
    from ndcg_gui.core.reading.dispatch import load, sniff

__all__ = ["load", "sniff"]


if memory.tuned():  # one of the program's own processes (never a host that imports the library)
    memory.use_returning_pool()


def __getattr__(name: str) -> object:
    # Imported when first used: `evaluate` and `Dataset` use the join and the order of this
    # package, and the loader uses them, so the loader is not imported with the package.
    if name in __all__:
        from ndcg_gui.core.reading import dispatch as module

        value = getattr(module, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
