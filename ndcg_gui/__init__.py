"""NDCG Inspector: see CG, DCG, IDCG and NDCG of a ranked list at every rank."""

__version__ = "0.1.0"
APP_NAME = "NDCG Inspector"

# `ndcg_gui.report` and `ndcg_gui.inspect`, for notebooks and scripts: imported when first used
# (PEP 562), so `import ndcg_gui` (every program's first line) stays light and Qt-free.
_ENTRY_POINTS = {"report": "ndcg_gui.core.reports.notebook", "inspect": "ndcg_gui.qt.inspector"}


def __getattr__(name: str):
    if name in _ENTRY_POINTS:
        import importlib

        return getattr(importlib.import_module(_ENTRY_POINTS[name]), name)
    raise AttributeError(f"module 'ndcg_gui' has no attribute {name!r}")
