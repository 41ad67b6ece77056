"""NDCG Inspector: see CG, DCG, IDCG and NDCG of a ranked list at every rank."""

import os

__version__ = "0.1.0"
APP_NAME = "NDCG Inspector"

# Arrow's own jemalloc (`core.reading` makes it Arrow's pool) is told to give freed memory back to
# the system at once. It reads this when pyarrow is imported, which is after this line for every
# way into the program; `pyarrow.jemalloc_set_decay_ms(0)` comes too late for the arena that takes
# every large allocation (its built-in 1 s decay kept 40 - 60 MB of a load's freed arrays resident:
# bench_load.py). A setting of the user's own is kept.
os.environ.setdefault("JE_ARROW_MALLOC_CONF", "dirty_decay_ms:0,muzzy_decay_ms:0")


# `ndcg_gui.report` and `ndcg_gui.inspect`, for notebooks and scripts: imported when first used
# (PEP 562), so `import ndcg_gui` (every program's first line) stays light and Qt-free.
_ENTRY_POINTS = {"report": "ndcg_gui.core.reports.notebook", "inspect": "ndcg_gui.qt.inspector"}


def __getattr__(name: str):
    if name in _ENTRY_POINTS:
        import importlib

        return getattr(importlib.import_module(_ENTRY_POINTS[name]), name)
    raise AttributeError(f"module 'ndcg_gui' has no attribute {name!r}")
