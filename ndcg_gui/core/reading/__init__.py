"""Reading files: `load(path, qrels=None)` → `Dataset` (`dispatch.py`: which parser of
`core.formats`, then the join and the order of `core.arrays`), a TREC run's summary straight from
its rows (`direct.py`), and the background loader process (`load_worker.py`, `packed.py`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

# pyarrow, with Arrow's memory pool as the program set it (the readers all need it: imported with it)
import ndcg_gui.core.arrays  # noqa: F401

if TYPE_CHECKING:
    from ndcg_gui.core.reading.dispatch import load, sniff

__all__ = ["load", "sniff"]


def __getattr__(name: str) -> object:
    # Imported when first used (PEP 562): `python -m ...reading.load_worker` and the start-up's
    # preload import the package without the readers.
    if name in __all__:
        from ndcg_gui.core.reading import dispatch as module  # lazy: start-up

        value = getattr(module, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
