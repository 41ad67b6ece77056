"""Which presets give a mean someone has from another tool ("0.4127 from ranx")? The figure is
read from the text with the decimals it was written to, and every preset's mean NDCG@k of the run
(`difference.presets_giving`) is compared with it at that precision, at each cut-off tried (the
one in use first, then those papers and tools use most, then the whole list).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import pandas as pd

from ndcg_gui.core.analysis.difference import preset_means
from ndcg_gui.core.errors import InputError
from ndcg_gui.core.ndcg.presets import LABELS, PRESETS

COMMON_K = (5, 10, 20, 100, 1000, None)  # None: the whole list
_NUMBER = re.compile(r"(?<![\w.])([01]?\.\d+|[01](?:\.\d*)?)(?![\w.])")


@dataclass(frozen=True)
class Figure:
    """A mean as written: its value, its decimals, and the presets the text names (a tool's name
    or the first word of its preset's label: "ranx" names ranx and ranx_burges)."""

    value: float
    digits: int
    text: str
    named: tuple[str, ...]


def read_figure(text: str) -> Figure:
    """The first number in [0, 1] of `text` ("0.4127 from ranx", "ranx: .4127"), or an InputError
    saying what was expected."""
    found = _NUMBER.search(text)
    if found is None:
        raise InputError(f'"{text.strip()}": expected a mean NDCG between 0 and 1, such as 0.4127')
    number = found.group(1)
    digits = len(number.split(".")[1]) if "." in number else 0
    words = set(re.findall(r"[\w-]+", text.casefold()))
    named = tuple(name for name in PRESETS
                  if name.casefold() in words or LABELS[name].split()[0].casefold() in words)
    return Figure(float(number), digits, number, named)


def presets_giving_figure(figure: Figure, run: pd.DataFrame, qrels: pd.DataFrame | None,
                          ks: tuple[int | None, ...]) -> pd.DataFrame:
    """Each preset's mean at each k of `ks` (duplicates dropped, order kept): columns preset,
    label, k, mean, match (the mean rounds to `figure` at its decimals)."""
    table = preset_means(run, qrels, tuple(dict.fromkeys(ks)))
    table["match"] = [round(v, figure.digits) == round(figure.value, figure.digits) for v in table["mean"]]
    return table


def frames_of(dataset) -> tuple[pd.DataFrame, pd.DataFrame | None]:
    """A loaded `Dataset`'s run (query, doc, score when it has scores; grade when it has no
    qrels) and qrels (query, doc, grade), as `presets_giving` and the checks take them."""
    keep = [c for c in ("query", "doc", "score") if c in dataset.run]
    if dataset.qrels is None:
        return dataset.run[[*keep, "grade"]], None
    return dataset.run[keep], dataset.qrels[["query", "doc", "grade"]]


def _at(k: int | None) -> str:
    return "the whole list" if k is None else f"k = {k}"


def _ats(ks: list[int | None]) -> str:
    """'k = 10, 20 and the whole list'."""
    said = ["k = " + ", ".join(str(k) for k in ks if k is not None)] if any(k is not None for k in ks) else []
    said += ["the whole list"] if None in ks else []
    return " and ".join(said)


def answer(figure: Figure, table: pd.DataFrame) -> str:
    """What to tell the person: the presets giving the figure and at which k (presets that give it
    at the same cut-offs said once); a tool the text names that does not give it, with its own
    figure at the first k."""
    hits = table[table["match"]]
    shown = f"{figure.text} (to {figure.digits} decimal{'s' if figure.digits != 1 else ''})"
    if len(hits):
        by_k: dict[str, list[str]] = {}
        for row in hits.itertuples():
            by_k.setdefault(_at(row.k), []).append(row.preset)
        same: dict[tuple[str, ...], list[int | None]] = {}
        for row in hits.drop_duplicates(subset=["k"]).itertuples():
            same.setdefault(tuple(by_k[_at(row.k)]), []).append(row.k)
        said = f"{shown} is what " + "; ".join(
            f"{', '.join(presets)} give{'s' if len(presets) == 1 else ''} at {_ats(ks)}"
            for presets, ks in same.items()) + "."
    else:
        said = f"No preset gives {shown} on this run at {_ats(list(dict.fromkeys(table['k'])))}."
    first = table["k"].iloc[0] if len(table) else None
    for name in figure.named:
        if name in set(hits["preset"]):
            continue
        own = table[(table["preset"] == name) & (table["k"].map(_at) == _at(first))]
        if len(own):
            said += (f" {name} gives {own['mean'].iloc[0]:.{max(figure.digits, 4)}f} at {_at(first)}: "
                     "not this figure.")
    return said
