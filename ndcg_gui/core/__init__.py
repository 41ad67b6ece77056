"""The scoring core and file formats: numpy and pandas only, no Qt. Usable from scripts and notebooks.

    >>> from ndcg_gui.core import ndcg_at
    >>> round(ndcg_at([3, 2, 3, 0, 1], k=5), 4)
    0.9724
"""

from ndcg_gui.core.compare import Comparison, compare_runs, paired_summary
from ndcg_gui.core.config import PRESETS, GainTable, MetricConfig, Preset
from ndcg_gui.core.dataset import Dataset
from ndcg_gui.core.definitions import compare_definitions
from ndcg_gui.core.errors import InputError, LoadCancelled
from ndcg_gui.core.evaluate import evaluate, mean_ndcg
from ndcg_gui.core.metrics import dcg_idcg_at, discounts, gains, ndcg_at, per_rank
from ndcg_gui.core.options import config_from_options
from ndcg_gui.core.reading import load
from ndcg_gui.core.unjudged import judge_first, unjudged_band, unjudged_bounds
from ndcg_gui.core.whatif import best_moves, move_effects
from ndcg_gui.core.writing.writers import (
    write_csv,
    write_metrics_csv,
    write_qrels,
    write_summary_csv,
    write_trec_run,
)

__all__ = [
    "PRESETS",
    "Comparison",
    "Dataset",
    "GainTable",
    "InputError",
    "LoadCancelled",
    "MetricConfig",
    "Preset",
    "best_moves",
    "compare_definitions",
    "compare_runs",
    "config_from_options",
    "dcg_idcg_at",
    "discounts",
    "evaluate",
    "gains",
    "judge_first",
    "load",
    "mean_ndcg",
    "move_effects",
    "ndcg_at",
    "paired_summary",
    "per_rank",
    "unjudged_band",
    "unjudged_bounds",
    "write_csv",
    "write_metrics_csv",
    "write_qrels",
    "write_summary_csv",
    "write_trec_run",
]
