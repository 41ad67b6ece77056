"""`ndcg_gui.report(run, qrels)`: the HTML report inline in a notebook (Jupyter, Colab, a remote
kernel: wherever a window cannot open), and the same page written to a file.

    >>> r = report(frame, {"q1": {"d1": 3, "d2": 1}}, k=10)
    >>> r                      # in a notebook: the report in the cell (`_repr_html_`)
    >>> r.to_html("run.html")  # the self-contained page, to share

One query: the headline, the per-rank table and the curves. Many: the mean, the histogram, the
worst queries with their fixes, every query. With `runs_to_compare`: the comparison's report.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ndcg_gui.core.analysis.runs.compare import compare_runs
from ndcg_gui.core.config import DEFAULT_PRESET, PRESETS
from ndcg_gui.core.lists.dataset import Dataset
from ndcg_gui.core.lists.ranked_list import RankedList
from ndcg_gui.core.lists.typed_dataset import TypedDataset
from ndcg_gui.core.metrics import check_k
from ndcg_gui.core.reports import page
from ndcg_gui.core.reports.compare_report import compare_parts
from ndcg_gui.core.reports.inputs import load_objects
from ndcg_gui.core.reports.run_report import Setting, run_parts
from ndcg_gui.core.writing.writers import atomic_write


class Report:
    """A report: `_repr_html_` for a notebook's cell (its CSS scoped to the report), `to_html`
    for a file, `html` the whole page."""

    def __init__(self, title: str, parts: list[str]) -> None:
        self.title, self.parts = title, parts

    def _repr_html_(self) -> str:
        return page.body(self.parts)

    @property
    def html(self) -> str:
        return page.document(self.title, self.parts)

    def to_html(self, path: str | Path) -> Path:
        """Write the self-contained page (atomically); returns its path."""
        atomic_write(path, lambda f: f.write(self.html))
        return Path(path)

    def __repr__(self) -> str:
        return f"<Report: {self.title}>"


def _dataset(obj: Any, qrels: Any, name: str):
    """(Dataset, inputs) of a run given as an object, a path, a `Dataset`, a `RankedList` or a
    list of grades."""
    if isinstance(obj, Dataset):
        if qrels is not None:
            raise ValueError("a Dataset holds its judgments already: give the qrels to `load`")
        return obj, {}
    if isinstance(obj, RankedList):
        return TypedDataset.of(obj), {}
    if isinstance(obj, Sequence) and not isinstance(obj, str) and obj and all(
            isinstance(g, int | float) and not isinstance(g, bool) for g in obj):
        return TypedDataset.of(RankedList.from_grades(list(obj), query=name)), {}
    loaded = load_objects(obj, qrels, name)
    return loaded.dataset, loaded.inputs


def report(run: Any, qrels: Any = None, *, k: int = 10, preset: str | None = None, config=None,
           ties: str | None = None, name: str = "run", runs_to_compare: Mapping[str, Any] | None = None,
           alpha: float = 0.05, samples: int = 10_000, seed: int = 0) -> Report:
    """The report of `run` (with its `qrels`), or of its comparison with `runs_to_compare`
    (name -> run, judged by the same qrels). `preset` names a definition (default trec_eval's);
    `config` a `MetricConfig` of your own (with `ties`, default "trec")."""
    k = check_k(k)
    if config is None:
        chosen = PRESETS[preset or DEFAULT_PRESET]
        config, ties = chosen.config, ties or chosen.ties
    ties = ties or "trec"
    dataset, inputs = _dataset(run, qrels, name)
    if not runs_to_compare:
        setting = Setting(k, config, ties, inputs)
        return Report(f"NDCG@{k} of {name}", run_parts(dataset, setting, name))

    runs = {name: dataset}
    for other, obj in runs_to_compare.items():
        if other in runs:
            raise ValueError(f"two runs are named {other!r}")
        runs[other], more = _dataset(obj, qrels, other)
        inputs |= {key: value for key, value in more.items() if not key.startswith("qrels")}
    pool = dataset.qrels
    cmp = compare_runs(runs, pool, k=k, config=config, ties=ties, samples=samples, seed=seed)
    setting = Setting(k, config, ties, inputs)
    return Report(f"NDCG@{k}: {', '.join(cmp.summary.index)} against {name}",
                  compare_parts(runs, cmp, setting, alpha=alpha))
