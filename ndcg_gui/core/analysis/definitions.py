"""One list under every named definition of NDCG, and why each figure differs from the first.

Why a figure differs is found by trying each differing setting alone on the first row's definition:
the settings that change the figure on their own are the reason; when none does alone, all the
differing settings are named (their effect is joint).

Ties: grades alone carry no scores, so without `scores` there are no ties and every row keeps the
list's order. With `scores` every row ranks the documents by score, high first, and breaks ties by
its own rule (a preset's `ties`; "file" for the current row unless told): "trec" by document id in
descending byte order (list order when `docs` is not given), "file" in list order, "average" gives
each tied document the mean gain of its group (scikit-learn). "ties" is named as a reason only when
the scores have ties that the two rules order differently enough to change the figure.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from ndcg_gui.core.ndcg.measure import PRESETS, TIES, MetricConfig, TiesName, _num, check_rules
from ndcg_gui.core.ndcg.metrics import as_grades, check_k, dcg_idcg_at, discounts, finish, gains
from ndcg_gui.core.ndcg.ties import averaged

DEFINITION_COLUMNS = ["preset", "ndcg", "dcg", "idcg", "ties", "reason", "config"]
_CLOSE = 1e-12


class _List:
    """The list to score: grades in list order, and scores / docs when known."""

    def __init__(self, grades, k, judged, scores, docs) -> None:
        self.grades = as_grades(grades)
        self.k = check_k(k)
        self.judged = None if judged is None else as_grades(judged, "judged grades")
        n = len(self.grades)
        self.scores = None if scores is None else as_grades(scores, "scores")
        if self.scores is not None and len(self.scores) != n:
            raise ValueError(f"{n} grades but {len(self.scores)} scores")
        self.docs = None if docs is None else np.asarray([str(d) for d in docs], dtype=object)
        if self.docs is not None and len(self.docs) != n:
            raise ValueError(f"{n} grades but {len(self.docs)} documents")

    def score(self, config: MetricConfig, ties: TiesName) -> tuple[float, float, float]:
        """(ndcg, dcg, idcg) under one definition and tie rule."""
        if self.scores is None:
            dcg, idcg = dcg_idcg_at(self.grades, self.k, config, self.judged)
        else:
            order = self._ranked(ties)
            grades = self.grades[order]
            dcg, idcg = dcg_idcg_at(grades, self.k, config, self.judged)
            if ties == "average":
                dcg = self._tie_averaged_dcg(grades, self.scores[order], config)
        return float(finish(np.array([dcg]), np.array([idcg]), config)[0]), dcg, idcg

    def _ranked(self, ties: TiesName) -> np.ndarray:
        if ties == "trec" and self.docs is not None:
            # np.unique sorts str as Python does: by code point, which is UTF-8 byte order.
            _, doc_rank = np.unique(self.docs, return_inverse=True)
            # trec_eval keeps scores as float32: scores equal there tie.
            return np.lexsort((-doc_rank, -self.scores.astype(np.float32)))
        return np.argsort(-self.scores, kind="stable")

    def _tie_averaged_dcg(self, grades: np.ndarray, scores: np.ndarray, config: MetricConfig) -> float:
        mean = averaged(gains(grades, config), scores)
        cut = len(mean) if self.k is None else min(self.k, len(mean))
        return float(mean[:cut] @ discounts(cut, config))

    def has_ties(self) -> bool:
        return self.scores is not None and len(np.unique(self.scores)) < len(self.scores)


def compare_definitions(
    grades: Sequence[float] | np.ndarray | pd.Series,
    k: int | None = None,
    judged: Sequence[float] | np.ndarray | None = None,
    config: MetricConfig | None = None,
    *,
    scores: Sequence[float] | np.ndarray | None = None,
    docs: Sequence[str] | np.ndarray | None = None,
    ties: TiesName | None = None,
) -> pd.DataFrame:
    """One row per preset (and first a "current" row when `config` is given): preset, ndcg, dcg,
    idcg, ties (the tie rule used), reason (one line: why the figure differs from the first row's)
    and config (the `MetricConfig`, to apply a row). `ties` is the current row's tie rule
    (default "file": the list's own order). Cut-off and ideal follow `ndcg_at`.
    """
    if ties is not None:
        check_rules(ties)
    target = _List(grades, k, judged, scores, docs)
    rows: list[tuple[str, MetricConfig, TiesName]] = []
    if config is not None:
        rows.append(("current", config, ties or "file"))
        if scores is not None and target.has_ties():  # the same definition under each tie rule
            rows += [(f"current, ties: {rule}", config, rule) for rule in TIES if rule != (ties or "file")]
    # A preset whose ideal takes the judgments in the order given (Spark) needs that order, which
    # one list's judged grades do not carry: it is left out here.
    rows += [(name, preset.config, preset.ties) for name, preset in PRESETS.items()
             if preset.config.ideal_order == "sorted"]
    _, ref_config, ref_ties = rows[0]
    ref = target.score(ref_config, ref_ties)
    out = []
    for i, (name, row_config, row_ties) in enumerate(rows):
        figures = target.score(row_config, row_ties)
        reason = "the reference" if i == 0 else _reason(
            target, (ref_config, ref_ties), ref[0], (row_config, row_ties), figures[0]
        )
        out.append((name, *figures, row_ties, reason, row_config))
    return pd.DataFrame(out, columns=DEFINITION_COLUMNS)


# --- reasons ------------------------------------------------------------------------------------

_FIELDS = ("gain", "discount", "ideal", "negative", "judged_only", "ideal_order", "ideal_depth",
           "idcg_zero", "rounding", "truncate_grades", "precision", "ties")


def _setting(config: MetricConfig, ties: TiesName, field: str) -> object:
    if field == "discount":
        return (config.discount, config.base if config.discount in ("jarvelin", "log") else None)
    if field == "ties":
        return ties
    return getattr(config, field)


def _swapped(ref: tuple[MetricConfig, TiesName], row: tuple[MetricConfig, TiesName], field: str):
    config, ties = ref
    if field == "ties":
        return config, row[1]
    if field == "discount":
        return config.with_(discount=row[0].discount, base=row[0].base), ties
    return config.with_(**{field: getattr(row[0], field)}), ties


def _reason(target: _List, ref, ref_ndcg: float, row, row_ndcg: float) -> str:
    differing = [f for f in _FIELDS if _setting(*ref, f) != _setting(*row, f)]
    if not target.has_ties() and "ties" in differing:
        differing.remove("ties")  # no tied scores: the tie rule orders nothing
    if abs(row_ndcg - ref_ndcg) <= _CLOSE:
        if not differing:
            return "same definition"
        phrases = "; ".join(_phrase(target, f, *row, *ref) for f in differing)
        return f"same figure: {phrases} — {'makes' if len(differing) == 1 else 'make'} no difference here"
    alone = [f for f in differing if abs(target.score(*_swapped(ref, row, f))[0] - ref_ndcg) > _CLOSE]
    named = alone or differing
    lead = "higher" if row_ndcg > ref_ndcg else "lower"
    together = "" if alone or len(named) < 2 else " (together)"
    return f"{lead}: " + "; ".join(_phrase(target, f, *row, *ref) for f in named) + together


def _phrase(target: _List, field: str, config, ties, ref_config, ref_ties) -> str:
    if field == "gain":
        return f"{_gain(config)} instead of {_gain(ref_config)}"
    if field == "discount":
        return f"{_discount(config)} instead of {_discount(ref_config)}"
    if field == "negative":
        return "negative grades kept" if config.negative == "keep" else "negative grades count as 0"
    if field == "ties":
        return f"tied scores {_TIE_WORDS[ties]} instead of {_TIE_WORDS[ref_ties]}"
    if field in _MORE_WORDS:
        return _MORE_WORDS[field](config)
    # ideal
    if config.ideal == "retrieved":
        text = "ideal from the list's own grades, not every judged document"
    else:
        text = "ideal from every judged document, not only the list's"
    n = len(target.grades)
    pool = len(target.judged) if target.judged is not None else n
    if pool > n and (target.k is None or target.k > n):
        # The judged ideal is longer than any list of n documents can be: the cut-off at work.
        cut = "no cut-off" if target.k is None else f"cut at k = {target.k}"
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


def _gain(config: MetricConfig) -> str:
    if isinstance(config.gain, Mapping):
        return f"gain table {config.gain!r}"
    return "gain 2^g − 1" if config.gain == "exponential" else "gain g"


def _discount(config: MetricConfig) -> str:
    if config.discount_table is not None or config.discount == "log":
        return config.describe().split("; ")[1]
    if config.discount == "log2":
        return "discount 1/log2(i+1)"
    b = _num(config.base)
    return f"discount 1 below rank {b}, then 1/log_{b}(i) (Järvelin–Kekäläinen)"
