"""The colours that carry meaning, in two sets: one for a light window, one for a dark one, and
which set the window shows now (`current`: the one that suits the application's palette, worked
out again whenever that palette changes). Where a colour says something (a place the ideal gives a
better document, tied scores, unjudged, a run gaining or losing, which curve) it is used with a
second cue, a glyph, a word, a line style or a marker, so nobody needs the colour to read it.

Each set is plain text colours (`#rrggbb`, or `#aarrggbb` with an alpha, as QColor reads them), so
HTML written with the light set's colours (the guide) can be given the dark set's (`recolour`)."""

from __future__ import annotations

import re
from dataclasses import dataclass, fields
from functools import cache

from PySide6.QtGui import QBrush, QColor, QGuiApplication, QPalette


@dataclass(frozen=True)
class Colours:
    dark: bool
    # ---- tables and text
    up: str  # rose, gained (▲, +)
    down: str  # fell, lost (▼, −)
    same: str  # kept its rank; figures of no weight
    unjudged: str  # the word "unjudged", "?"
    muted: str  # notes and descriptions under the figures
    wasted_slot: str  # background: in the top k, a place the ideal gives a better document (↓)
    belongs_in_top_k: str  # background: past k, it belongs in the top k (↑)
    ties: tuple[str, str]  # backgrounds of neighbouring groups of tied scores (┌ │ └)
    beyond_k: str  # background of the ranks past k
    beyond_k_text: str
    relevant_fill: str  # a relevant document's grade box, side by side
    differs: str  # background: a figure that differs between two definitions (≠)
    note: str  # the worked example's note
    note_text: str
    headline: str  # the headline's background
    # ---- plots
    plot: str  # background
    plot_text: str  # axes, their numbers and titles
    plot_faint: str  # the k axis's line, the diagonal, the zero line
    outline: str  # round points and bars, against the background
    dcg: str
    idcg: str
    ndcg: str  # also the list as loaded and the unjudged band, lighter
    k: str
    cursor: str
    loss: str
    grade_low: str  # relevant ranks' ticks: lowest grade (shortest tick) …
    grade_mid: str
    grade_high: str  # … highest grade (tallest tick)
    bar: str  # the histogram's bars
    picked: str  # the bar picked, the open query's ring
    mean: str
    win: str  # a query the other run wins (▲), loses (▼), ties (●)
    lose: str
    tie: str
    readout: str  # the hover readout's background
    readout_border: str

    def brush(self, name: str) -> QBrush:
        return brush(getattr(self, name))

    def qcolor(self, name: str, alpha: int | None = None) -> QColor:
        colour = QColor(getattr(self, name))
        if alpha is not None:
            colour.setAlpha(alpha)
        return colour


LIGHT = Colours(
    dark=False,
    up="#237a35", down="#c92a2a", same="#697180", unjudged="#a84d08", muted="#555555",
    wasted_slot="#ffe3e3", belongs_in_top_k="#d3f9d8", ties=("#e7f5ff", "#d0ebff"),
    beyond_k="#eef0f3", beyond_k_text="#646b76", relevant_fill="#bbf7d0", differs="#fff3bf",
    note="#fff8db", note_text="#222222", headline="#f3f5f8",
    plot="#ffffff", plot_text="#5c5c5c", plot_faint="#c8c8c8", outline="#ffffff",
    dcg="#1f6fb5", idcg="#6b7280", ndcg="#d9480f", k="#267d38", cursor="#999999", loss="#c92a2a",
    grade_low="#9070ee", grade_mid="#6a44d4", grade_high="#4c2a9e",
    bar="#5a82c8", picked="#e68c28", mean="#c82828", win="#15803d", lose="#b91c1c", tie="#787878",
    readout="#e8ffffff", readout_border="#c8c8c8",
)
DARK = Colours(
    dark=True,
    up="#69db7c", down="#ff8787", same="#8b929c", unjudged="#fbbf24", muted="#b8b8b8",
    wasted_slot="#5c2626", belongs_in_top_k="#1f4d2b", ties=("#1d3550", "#2a4a6e"),
    beyond_k="#2a2c30", beyond_k_text="#8f96a0", relevant_fill="#1f5130", differs="#5a4a12",
    note="#3b3420", note_text="#f1e7c6", headline="#27292d",
    plot="#1e1f22", plot_text="#b4b4b4", plot_faint="#4a4d52", outline="#1e1f22",
    dcg="#5aa9f0", idcg="#a3aab5", ndcg="#ff8a4c", k="#69db7c", cursor="#8a8a8a", loss="#ff6b6b",
    grade_low="#7d62dc", grade_mid="#a58cf2", grade_high="#d4c6ff",
    bar="#6f98dc", picked="#ffa94d", mean="#ff6b6b", win="#51cf66", lose="#ff6b6b", tie="#9a9a9a",
    readout="#e828292d", readout_border="#55585e",
)

_current: Colours | None = None


def is_dark(palette: QPalette) -> bool:
    """Whether a palette draws light text on a dark window."""
    return palette.color(QPalette.ColorRole.Window).lightness() < palette.color(
        QPalette.ColorRole.WindowText).lightness()


def current() -> Colours:
    """The set for the palette the application shows. The application hears of a new palette at
    once, its widgets a moment later (a posted PaletteChange): a widget restyling then reads the
    new set."""
    global _current
    if _current is None:
        app = QGuiApplication.instance()
        if app is None:
            return LIGHT
        app.paletteChanged.connect(_follow)
        _follow(QGuiApplication.palette())
    return _current  # type: ignore[return-value]


def _follow(palette: QPalette) -> None:
    global _current
    _current = DARK if is_dark(palette) else LIGHT


def recolour(html: str, colours: Colours) -> str:
    """`html` written with the light set's colours (`#rrggbb`), given `colours`' instead."""
    if not colours.dark:
        return html
    swap = _swaps(colours)
    return _HEX.sub(lambda m: swap.get(m.group(0).lower(), m.group(0)), html)


_HEX = re.compile(r"#[0-9a-fA-F]{6}\b")


@cache
def _swaps(colours: Colours) -> dict[str, str]:
    """Each colour of the light set, and what `colours` has in its place (the first field wins)."""
    swap: dict[str, str] = {}
    for field in fields(Colours):
        light, other = getattr(LIGHT, field.name), getattr(colours, field.name)
        pairs = zip(light, other, strict=True) if isinstance(light, tuple) else [(light, other)]
        for a, b in pairs:
            if isinstance(a, str):
                swap.setdefault(a.lower(), b)
    return swap


@cache
def brush(colour: str) -> QBrush:
    """A brush of `colour`, made once (a model's `data()` is asked for every cell on each paint)."""
    return QBrush(QColor(colour))
