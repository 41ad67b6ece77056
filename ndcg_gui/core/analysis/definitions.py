"""One list under every named definition of NDCG, and why each figure differs from the first.

Why a figure differs is found by trying each differing setting alone on the first row's definition:
the settings that change the figure on their own are the reason; when none does alone, all the
differing settings are named (their effect is joint).

Ties: grades alone carry no scores, so without `scores` there are no ties and every row keeps the
list's order. With `scores` every row ranks the documents by score, high first, and breaks ties by
its own rule (a preset's `ties`, the measure's own for the current row): "trec" by document id in
descending byte order (list order when `docs` is not given), "file" in list order, "average" gives
each tied document the mean gain of its group (scikit-learn). "ties" is named as a reason only when
the scores have ties that the two rules order differently enough to change the figure.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from ndcg_gui.core.arrays.order import score_key
from ndcg_gui.core.ndcg.measure import TIES, Measure, _num
from ndcg_gui.core.ndcg.metrics import as_grades, dcg_idcg_at, discounts, finish, gains
from ndcg_gui.core.ndcg.presets import PRESETS
from ndcg_gui.core.ndcg.ties import averaged

DEFINITION_COLUMNS = ["preset", "ndcg", "dcg", "idcg", "ties", "reason", "measure"]
_CLOSE = 1e-12


class _List:
    """The list to score: grades in list order, and scores / docs when known."""

    def __init__(self, grades, judged, scores, docs) -> None:
        self.grades = as_grades(grades)
        self.judged = None if judged is None else as_grades(judged, "judged grades")
        n = len(self.grades)
        self.scores = None if scores is None else as_grades(scores, "scores")
        if self.scores is not None and len(self.scores) != n:
            raise ValueError(f"{n} grades but {len(self.scores)} scores")
        self.docs = None if docs is None else np.asarray([str(d) for d in docs], dtype=object)
        if self.docs is not None and len(self.docs) != n:
            raise ValueError(f"{n} grades but {len(self.docs)} documents")

    def score(self, measure: Measure) -> tuple[float, float, float]:
        """(ndcg, dcg, idcg) under one measure."""
        if self.scores is None:
            dcg, idcg = dcg_idcg_at(self.grades, measure, self.judged)
        else:
            key = score_key(self.scores, measure.score_precision)  # (ties at the measure's precision)
            order = self._ranked(measure, key)
            grades = self.grades[order]
            dcg, idcg = dcg_idcg_at(grades, measure, self.judged)
            if measure.ties == "average":
                dcg = self._tie_averaged_dcg(grades, key[order], measure)
        return float(finish(np.array([dcg]), np.array([idcg]), measure)[0]), dcg, idcg

    def _ranked(self, measure: Measure, key: np.ndarray) -> np.ndarray:
        if measure.ties == "trec" and self.docs is not None:
            # np.unique sorts str as Python does: by code point, which is UTF-8 byte order.
            _, doc_rank = np.unique(self.docs, return_inverse=True)
            return np.lexsort((-doc_rank, -key))
        return np.argsort(-key, kind="stable")

    def _tie_averaged_dcg(self, grades: np.ndarray, key: np.ndarray, measure: Measure) -> float:
        mean = averaged(gains(grades, measure), key)
        cut = len(mean) if measure.k is None else min(measure.k, len(mean))
        return float(mean[:cut] @ discounts(cut, measure))

    def has_ties(self) -> bool:
        return self.scores is not None and len(np.unique(self.scores)) < len(self.scores)


def compare_definitions(
    grades: Sequence[float] | np.ndarray | pd.Series,
    measure: Measure | None = None,
    judged: Sequence[float] | np.ndarray | None = None,
    *,
    scores: Sequence[float] | np.ndarray | None = None,
    docs: Sequence[str] | np.ndarray | None = None,
    current: bool = True,
) -> pd.DataFrame:
    """One row per preset at the measure's cut-off (and first, with `current`, a "current" row:
    the measure itself): preset, ndcg, dcg, idcg, ties (the tie rule used), reason (one line: why
    the figure differs from the first row's) and measure (the row's `Measure`, to apply it).
    Cut-off and ideal follow `ndcg_at`.
    """
    measure = measure or Measure()
    target = _List(grades, judged, scores, docs)
    rows: list[tuple[str, Measure]] = []
    if current:
        rows.append(("current", measure))
        if scores is not None and target.has_ties():  # the same definition under each tie rule
            rows += [(f"current, ties: {rule}", measure.with_(ties=rule))
                     for rule in TIES if rule != measure.ties]
    # A preset whose ideal takes the judgments in the order given (Spark) needs that order, which
    # one list's judged grades do not carry: it is left out here.
    rows += [(name, preset.at(measure.k)) for name, preset in PRESETS.items()
             if preset.ideal_order == "sorted"]
    ref_measure = rows[0][1]
    ref = target.score(ref_measure)
    out = []
    for i, (name, row_measure) in enumerate(rows):
        figures = target.score(row_measure)
        reason = "the reference" if i == 0 else _reason(target, ref_measure, ref[0], row_measure, figures[0])
        out.append((name, *figures, row_measure.ties, reason, row_measure))
    return pd.DataFrame(out, columns=DEFINITION_COLUMNS)


# --- reasons ------------------------------------------------------------------------------------

_FIELDS = ("gain", "discount", "ideal", "negative", "judged_only", "ideal_order", "ideal_depth",
           "idcg_zero", "rounding", "truncate_grades", "precision", "ties")


def _setting(measure: Measure, field: str) -> object:
    if field == "discount":
        return (measure.discount, measure.base if measure.discount in ("jarvelin", "log") else None)
    return getattr(measure, field)


def _swapped(ref: Measure, row: Measure, field: str) -> Measure:
    if field == "discount":
        return ref.with_(discount=row.discount, base=row.base)
    return ref.with_(**{field: getattr(row, field)})


def _reason(target: _List, ref, ref_ndcg: float, row, row_ndcg: float) -> str:
    differing = [f for f in _FIELDS if _setting(ref, f) != _setting(row, f)]
    if not target.has_ties() and "ties" in differing:
        differing.remove("ties")  # no tied scores: the tie rule orders nothing
    if abs(row_ndcg - ref_ndcg) <= _CLOSE:
        if not differing:
            return "same definition"
        phrases = "; ".join(_phrase(target, f, row, ref) for f in differing)
        return f"same figure: {phrases} — {'makes' if len(differing) == 1 else 'make'} no difference here"
    alone = [f for f in differing if abs(target.score(_swapped(ref, row, f))[0] - ref_ndcg) > _CLOSE]
    named = alone or differing
    lead = "higher" if row_ndcg > ref_ndcg else "lower"
    together = "" if alone or len(named) < 2 else " (together)"
    return f"{lead}: " + "; ".join(_phrase(target, f, row, ref) for f in named) + together


def _phrase(target: _List, field: str, measure: Measure, ref: Measure) -> str:
    if field == "gain":
        return f"{_gain(measure)} instead of {_gain(ref)}"
    if field == "discount":
        return f"{_discount(measure)} instead of {_discount(ref)}"
    if field == "negative":
        return "negative grades kept" if measure.negative == "keep" else "negative grades count as 0"
    if field == "ties":
        return f"tied scores {_TIE_WORDS[measure.ties]} instead of {_TIE_WORDS[ref.ties]}"
    if field in _MORE_WORDS:
        return _MORE_WORDS[field](measure)
    # ideal
    if measure.ideal == "retrieved":
        text = "ideal from the list's own grades, not every judged document"
    else:
        text = "ideal from every judged document, not only the list's"
    n = len(target.grades)
    pool = len(target.judged) if target.judged is not None else n
    k = measure.k
    if pool > n and (k is None or k > n):
        # The judged ideal is longer than any list of n documents can be: the cut-off at work.
        cut = "no cut-off" if k is None else f"cut at k = {k}"
        text += f" ({cut}: the judged ideal runs past the list's {n} documents)"
    return text


_MORE_WORDS = {
    "judged_only": lambda c: "unjudged documents removed (condensed list)" if c.judged_only
    else "unjudged documents kept in place (not condensed)",
    "ideal_order": lambda c: "judgments in the order given make the ideal" if c.ideal_order == "given"
    else "judgments sorted by gain make the ideal",
    "ideal_depth": lambda c: "depth of the ideal: " + {
        "k": "cut at k", "list": "cut at min(k, list length)", "all": "never cut"}[c.ideal_depth],
    "idcg_zero": lambda c: f"IDCG = 0 scores {1 if c.idcg_zero == 'one' else 0}",
    "rounding": lambda c: "rounded to full precision (not rounded)" if c.rounding is None
    else f"rounded to {c.rounding} decimals",
    "truncate_grades": lambda c: "grades cut to their whole part (as trec_eval reads them)"
    if c.truncate_grades else "grades used as given",
    "precision": lambda c: f"scores compared as {c.precision or 'the tie rule says'}",
}

_TIE_WORDS = {"trec": "by document id, descending", "file": "in list order", "average": "averaged"}


def _gain(measure: Measure) -> str:
    if isinstance(measure.gain, Mapping):
        return f"gain table {measure.gain!r}"
    return "gain 2^g − 1" if measure.gain == "exponential" else "gain g"


def _discount(measure: Measure) -> str:
    if measure.discount_table is not None or measure.discount == "log":
        return measure.describe().split("; ")[1]
    if measure.discount == "log2":
        return "discount 1/log2(i+1)"
    b = _num(measure.base)
    return f"discount 1 below rank {b}, then 1/log_{b}(i) (Järvelin–Kekäläinen)"
