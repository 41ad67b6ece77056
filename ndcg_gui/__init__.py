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


def report(run, qrels=None, **options):
    """The HTML report of a run (or of runs compared) from a notebook: DataFrames, dicts of dicts,
    ranx or ir_measures objects, paths. Shown inline in Jupyter; `.to_html(path)` writes the page.
    See `ndcg_gui.core.reports.notebook.report` for the options."""
    from ndcg_gui.core.reports.notebook import report as make

    return make(run, qrels, **options)
