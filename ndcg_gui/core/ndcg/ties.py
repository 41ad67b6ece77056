"""Tied scores in a list as shown: which rows tie, in which order a tie rule puts them, and the
gains scikit-learn's averaging gives them.

A tie is a run of neighbouring rows with equal scores in the list's order (what the window shades):
a list as loaded is in score order, so those are all its tied scores; a row dragged into the middle
of a run splits it, as the shading shows. trec_eval keeps scores as float32, so under its rule
scores equal as float32 tie.
"""

from __future__ import annotations

import numpy as np


def tie_runs(scores: np.ndarray, float32: bool = False, lists: np.ndarray | None = None) -> np.ndarray:
    """A run number for each row: neighbours with equal scores share one (NaN never ties).
    `lists`: each row's list (query) when several lists follow one another; runs end with a list."""
    s = np.asarray(scores, dtype=np.float32 if float32 else float)
    if len(s) == 0:
        return np.zeros(0, np.int64)
    new_run = np.ones(len(s), bool)
    new_run[1:] = ~(s[1:] == s[:-1])
    if lists is not None:
        new_run[1:] |= lists[1:] != lists[:-1]
    return np.cumsum(new_run) - 1


def averaged(values: np.ndarray, scores: np.ndarray, lists: np.ndarray | None = None) -> np.ndarray:
    """Each row's value replaced by the mean over its run of tied scores (scikit-learn's rule:
    tied documents share their gains equally, so their order does not matter); `lists` as in
    `tie_runs`."""
    values = np.asarray(values, dtype=float)
    if scores is None or len(values) < 2:
        return values
    runs = tie_runs(scores, lists=lists)
    return (np.bincount(runs, values) / np.bincount(runs))[runs]


def run_scores(scores: np.ndarray) -> np.ndarray:
    """Scores that keep the list's order and tie exactly the neighbours that tie: what a scorer that
    sorts by score (`evaluate`) needs to average ties of the list as shown, whatever its order."""
    return -tie_runs(scores).astype(float)
