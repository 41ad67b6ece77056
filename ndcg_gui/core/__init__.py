"""The scoring core and file formats: numpy, pandas, pyarrow and scipy, no Qt. Usable from scripts and
notebooks.

    >>> from ndcg_gui.core import Measure, ndcg_at
    >>> round(ndcg_at([3, 2, 3, 0, 1], Measure(k=5)), 4)
    0.9724
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

# Each name is imported from its module when first used (PEP 562), so `import ndcg_gui.core.ndcg.measure`
# (the window's start-up, the command line's option check) does not load pandas, pyarrow, scipy
# and the readers with it.
_WHERE = {
    "Comparison": "ndcg_gui.core.analysis.runs.compare",
    "compare_runs": "ndcg_gui.core.analysis.runs.compare",
    "paired_summary": "ndcg_gui.core.analysis.runs.compare",
    "PRESETS": "ndcg_gui.core.ndcg.presets",
    "preset": "ndcg_gui.core.ndcg.presets",
    "GainTable": "ndcg_gui.core.ndcg.measure",
    "Measure": "ndcg_gui.core.ndcg.measure",
    "Dataset": "ndcg_gui.core.lists.dataset",
    "compare_definitions": "ndcg_gui.core.analysis.definitions",
    "explain_difference": "ndcg_gui.core.analysis.difference",
    "presets_giving": "ndcg_gui.core.analysis.difference",
    "tie_range": "ndcg_gui.core.analysis.tie_range",
    "list_tie_range": "ndcg_gui.core.analysis.tie_range",
    "check": "ndcg_gui.core.analysis.checks",
    "InputError": "ndcg_gui.core.errors",
    "LoadCancelled": "ndcg_gui.core.errors",
    "evaluate": "ndcg_gui.core.ndcg.evaluate",
    "mean_ndcg": "ndcg_gui.core.ndcg.evaluate",
    "dcg_idcg_at": "ndcg_gui.core.ndcg.metrics",
    "discounts": "ndcg_gui.core.ndcg.metrics",
    "gains": "ndcg_gui.core.ndcg.metrics",
    "ndcg_at": "ndcg_gui.core.ndcg.metrics",
    "per_rank": "ndcg_gui.core.ndcg.metrics",
    "measure_from_options": "ndcg_gui.core.ndcg.options",
    "load": "ndcg_gui.core.reading",
    "judge_first": "ndcg_gui.core.analysis.unjudged",
    "unjudged_band": "ndcg_gui.core.analysis.unjudged",
    "unjudged_bounds": "ndcg_gui.core.analysis.unjudged",
    "best_moves": "ndcg_gui.core.analysis.whatif",
    "move_effects": "ndcg_gui.core.analysis.whatif",
    "write_csv": "ndcg_gui.core.writing.writers",
    "write_metrics_csv": "ndcg_gui.core.writing.writers",
    "write_qrels": "ndcg_gui.core.writing.writers",
    "write_summary_csv": "ndcg_gui.core.writing.writers",
    "write_trec_run": "ndcg_gui.core.writing.writers",
}

if TYPE_CHECKING:
    from ndcg_gui.core.analysis.checks import check
    from ndcg_gui.core.analysis.definitions import compare_definitions
    from ndcg_gui.core.analysis.difference import explain_difference, presets_giving
    from ndcg_gui.core.analysis.runs.compare import Comparison, compare_runs, paired_summary
    from ndcg_gui.core.analysis.tie_range import list_tie_range, tie_range
    from ndcg_gui.core.analysis.unjudged import judge_first, unjudged_band, unjudged_bounds
    from ndcg_gui.core.analysis.whatif import best_moves, move_effects
    from ndcg_gui.core.errors import InputError, LoadCancelled
    from ndcg_gui.core.lists.dataset import Dataset
    from ndcg_gui.core.ndcg.evaluate import evaluate, mean_ndcg
    from ndcg_gui.core.ndcg.measure import GainTable, Measure
    from ndcg_gui.core.ndcg.metrics import dcg_idcg_at, discounts, gains, ndcg_at, per_rank
    from ndcg_gui.core.ndcg.options import measure_from_options
    from ndcg_gui.core.ndcg.presets import PRESETS, preset
    from ndcg_gui.core.reading import load
    from ndcg_gui.core.writing.writers import (
        write_csv,
        write_metrics_csv,
        write_qrels,
        write_summary_csv,
        write_trec_run,
    )


def __getattr__(name: str) -> object:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


__all__ = [
    "PRESETS",
    "Comparison",
    "Dataset",
    "GainTable",
    "InputError",
    "LoadCancelled",
    "Measure",
    "best_moves",
    "check",
    "compare_definitions",
    "compare_runs",
    "dcg_idcg_at",
    "discounts",
    "evaluate",
    "explain_difference",
    "gains",
    "judge_first",
    "list_tie_range",
    "load",
    "mean_ndcg",
    "measure_from_options",
    "move_effects",
    "ndcg_at",
    "paired_summary",
    "per_rank",
    "preset",
    "presets_giving",
    "tie_range",
    "unjudged_band",
    "unjudged_bounds",
    "write_csv",
    "write_metrics_csv",
    "write_qrels",
    "write_summary_csv",
    "write_trec_run",
]
