"""`ndcg_gui.report(run, qrels)`: the HTML report inline in a notebook (Jupyter, Colab, a remote
kernel: wherever a window cannot open), and the same page written to a file.

    >>> r = report(frame, {"q1": {"d1": 3, "d2": 1}}, k=10)
    >>> r                      # in a notebook: the report in the cell (`_repr_html_`)
    >>> r.to_html("run.html")  # the self-contained page, to share

One query: the headline, the per-rank table and the curves. Many: the mean, the histogram, the
worst queries with their fixes, every query. With `runs_to_compare`: the comparison's report.
A run's own `segment` and `weight` columns are read as the window reads them
(`core.analysis.own_columns`): each segment's mean, the comparison in each segment, and the
means and statistics weighted, as `ndcg-inspect` gives them for the same file.
"""

from __future__ import annotations

import numbers
import os
import warnings
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ndcg_gui.core.analysis.own_columns import OwnColumns, own_columns
from ndcg_gui.core.analysis.runs.compare import Comparison, compare_runs
from ndcg_gui.core.errors import InputError
from ndcg_gui.core.formats.query_notes import notes_beside
from ndcg_gui.core.lists.dataset import Dataset
from ndcg_gui.core.lists.ranked_list import RankedList
from ndcg_gui.core.lists.typed_dataset import TypedDataset
from ndcg_gui.core.ndcg.measure import DEFAULT_K, Measure, check_k
from ndcg_gui.core.ndcg.presets import DEFAULT_PRESET, preset
from ndcg_gui.core.reports import page
from ndcg_gui.core.reports.compare_report import compare_parts
from ndcg_gui.core.reports.inputs import BYTES, load_objects
from ndcg_gui.core.reports.run_report import Sources, at, run_parts
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


def read_run(obj: Any, qrels: Any, name: str) -> tuple[Dataset, dict[str, str]]:
    """(Dataset, inputs) of a run given as an object, a path, a file's bytes (`core.reports.inputs`),
    a `Dataset`, a `RankedList` or a list of grades. What carries its own grades (the last three)
    is refused with qrels, which it would ignore."""
    if isinstance(obj, Dataset):
        if qrels is not None:
            raise ValueError("a Dataset holds its judgments already: give the qrels to `load`")
        return obj, {}
    grades = isinstance(obj, RankedList) or _is_grades(obj)
    if grades and qrels is not None:
        what = "a RankedList" if isinstance(obj, RankedList) else "a list of grades"
        raise InputError(f"{what} holds its own grades and no document ids to look up in qrels: give "
                         "it without qrels, or the run as {query: {doc: score}} (or a DataFrame) with them",
                         name)
    if isinstance(obj, RankedList):
        return TypedDataset.of(obj), {}
    if grades:
        return TypedDataset.of(RankedList.from_grades([float(g) for g in obj], query=name)), {}
    loaded = load_objects(obj, qrels, name)
    return loaded.dataset, loaded.inputs


def notes_of(run: Any) -> dict[str, str]:
    """The notes kept beside a run given as a path (`RUN.notes.tsv`, as the window and
    `ndcg-inspect --report` read them), else {}. A sidecar that cannot be read is said in one line,
    a warning, and the report made all the same (its notes are not what it is made from)."""
    if not isinstance(run, str | os.PathLike):
        return {}
    notes, problem = notes_beside(os.fspath(run))
    if problem is not None:
        warnings.warn(problem, stacklevel=3)
    return notes


def own_maps(dataset: Dataset) -> OwnColumns:
    """The run's own `segment` and `weight` columns (`own_columns`, the window's rule); a bad
    cell is refused, in its one line (a notebook is told at once, as a command line is)."""
    own = own_columns(dataset)
    if own.problems:
        raise InputError(own.problems[0])
    return own


def segment_figures(dataset: Dataset, measure: Measure, own: OwnColumns):
    """Each segment's mean (and all's), weighted by the run's weights, under the measure's mean
    policy, as `ndcg-inspect --report` makes them; None without segments or weights."""
    if own.segments is None and own.weights is None:
        return None
    from ndcg_gui.core.analysis.segments import segment_means  # lazy: start-up (only segments need it)
    from ndcg_gui.core.analysis.weights import query_weights  # lazy: start-up (pyarrow)

    result = dataset.evaluate(measure.per_query())
    weights = None if own.weights is None else query_weights(own.weights, result.index)
    return segment_means(result, own.segments.values if own.segments is not None else {}, measure,
                         weights=weights)


def weighted_comparison(cmp: Comparison, own: OwnColumns):
    """(`cmp` weighted by the first run's weights, its comparison in each segment) as `ndcg-inspect`
    weighs them (a compared query without a weight refused); (cmp, None) without them."""
    from ndcg_gui.core.analysis.runs.compare import weighed  # lazy: start-up (pandas)
    from ndcg_gui.core.analysis.runs.segment_compare import compare_segments  # lazy: only segments need it

    cmp = weighed(cmp, own.weights)
    segments = None if own.segments is None else compare_segments(
        cmp.per_query, cmp.baseline, own.segments.values, weights=cmp.weights, samples=cmp.samples,
        seed=cmp.seed, confidence=cmp.confidence)
    return cmp, segments


def _is_grades(obj: Any) -> bool:
    """A non-empty sequence of numbers (Python's or numpy's, or a numpy array of them), not the
    bytes of a file."""
    if isinstance(obj, np.ndarray):
        return obj.ndim == 1 and obj.size > 0 and obj.dtype.kind in "iuf"
    return isinstance(obj, Sequence) and not isinstance(obj, str | BYTES) and len(obj) > 0 and all(
        isinstance(g, numbers.Real) and not isinstance(g, bool) for g in obj)


def chosen_measure(measure: Measure | None, k: int | None, preset_name: str | None) -> Measure:
    """What a notebook asked for: `measure` whole, or the preset named `preset_name` (default
    trec_eval's) at cut-off `k` (default 10); a ValueError naming the presets when the name is
    unknown, or when a measure comes with k or a preset (it says both)."""
    if measure is not None:
        if k is not None or preset_name is not None:
            raise ValueError("give a measure, or k and a preset, not both (the measure has its k: "
                             "measure.at(k))")
        if not isinstance(measure, Measure):
            raise ValueError(f"measure must be a Measure, not {type(measure).__name__}")
        return measure
    return preset(preset_name or DEFAULT_PRESET).at(DEFAULT_K if k is None else check_k(k))


def compared(runs: Any) -> Mapping[str, Any]:
    """`runs_to_compare` checked: a mapping of names to runs."""
    if runs is None:
        return {}
    if not isinstance(runs, Mapping):
        raise ValueError(f"runs_to_compare must map names to runs ({{'bm25': run, …}}), not be a "
                         f"{type(runs).__name__}")
    return runs


def report(run: Any, qrels: Any = None, *, k: int | None = None, preset: str | None = None,
           measure: Measure | None = None, name: str = "run",
           runs_to_compare: Mapping[str, Any] | None = None, alpha: float = 0.05, samples: int = 10_000,
           seed: int = 0) -> Report:
    """The report of `run` (with its `qrels`), or of its comparison with `runs_to_compare`
    (name -> run, judged by the same qrels). `preset` names a definition (default trec_eval's) at
    cut-off `k` (default 10); or `measure`, a `Measure` of your own (its k and tie rule
    included), instead of both."""
    measure = chosen_measure(measure, k, preset)
    if measure.doc_weights != "none":  # (its one-list sections would show unweighted figures)
        raise ValueError("the report does not weigh documents yet (doc_weights); score them with "
                         "evaluate(run, qrels, measure) and mean_ndcg")
    runs_to_compare = compared(runs_to_compare)
    dataset, inputs = read_run(run, qrels, name)
    notes = notes_of(run)
    own = own_maps(dataset)
    if not runs_to_compare:
        parts = run_parts(dataset, measure, name, sources=Sources(inputs), notes=notes,
                          segments=segment_figures(dataset, measure, own))
        return Report(f"NDCG{at(measure)} of {name}", parts)

    runs = {name: dataset}
    for other, obj in runs_to_compare.items():
        if other in runs:
            raise ValueError(f"two runs are named {other!r}")
        runs[other], more = read_run(obj, qrels, other)
        inputs |= {key: value for key, value in more.items() if not key.startswith("qrels")}
    pool = dataset.qrels
    cmp, segments = weighted_comparison(compare_runs(runs, pool, measure, samples=samples, seed=seed), own)
    return Report(f"NDCG{at(measure)}: {', '.join(cmp.summary.index)} against {name}",
                  compare_parts(runs, cmp, Sources(inputs), alpha=alpha, notes=notes, segments=segments))
