"""Charts as inline SVG text, drawn here (no plotting library, nothing fetched): a histogram, a
scatter of one run's per-query NDCG against another's, and curves over the ranks. Every label is
escaped: query and run names come from files."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from ndcg_gui.core.reports.escaping import html_text as escape

W, H = 560, 260  # the drawing's size in CSS pixels (it shrinks with the page: max-width 100 %)
LEFT, RIGHT, TOP, BOTTOM = 52, 14, 14, 40
COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b")


def _ticks(lo: float, hi: float, n: int = 5) -> list[float]:
    """About `n` round numbers from lo to hi."""
    if hi <= lo:
        return [lo]
    raw = (hi - lo) / n
    step = 10 ** np.floor(np.log10(raw))
    step *= next(m for m in (1, 2, 2.5, 5, 10) if raw <= m * step)
    first = np.ceil(lo / step - 1e-9) * step
    return [round(float(v), 10) for v in np.arange(first, hi + step * 1e-6, step)]


def _fmt(v: float) -> str:
    return f"{v:g}" if abs(v) >= 1e-9 else "0"


class _Axes:
    """Maps data to drawing coordinates, and draws the frame, grid and labels."""

    def __init__(self, x: tuple[float, float], y: tuple[float, float], width: int = W, height: int = H):
        self.x0, self.x1 = x if x[1] > x[0] else (x[0] - 0.5, x[0] + 0.5)
        self.y0, self.y1 = y if y[1] > y[0] else (y[0] - 0.5, y[0] + 0.5)
        self.width, self.height = width, height

    def px(self, v) -> np.ndarray:
        return LEFT + (np.asarray(v, float) - self.x0) / (self.x1 - self.x0) * (self.width - LEFT - RIGHT)

    def py(self, v) -> np.ndarray:
        return self.height - BOTTOM - (np.asarray(v, float) - self.y0) / (self.y1 - self.y0) * (
            self.height - TOP - BOTTOM)

    def frame(self, xlabel: str, ylabel: str, xticks=None) -> list[str]:
        parts = []
        for t in _ticks(self.y0, self.y1):
            y = float(self.py(t))
            parts.append(f'<line x1="{LEFT}" x2="{self.width - RIGHT}" y1="{y:.1f}" y2="{y:.1f}" '
                         'class="grid"/>')
            parts.append(f'<text x="{LEFT - 6}" y="{y + 4:.1f}" text-anchor="end">{_fmt(t)}</text>')
        for t in (xticks if xticks is not None else _ticks(self.x0, self.x1)):
            x = float(self.px(t))
            parts.append(f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{self.height - BOTTOM}" '
                         f'y2="{self.height - BOTTOM + 4}" class="axis"/>')
            parts.append(f'<text x="{x:.1f}" y="{self.height - BOTTOM + 16}" '
                         f'text-anchor="middle">{_fmt(t)}</text>')
        parts.append(f'<rect x="{LEFT}" y="{TOP}" width="{self.width - LEFT - RIGHT}" '
                     f'height="{self.height - TOP - BOTTOM}" class="frame"/>')
        parts.append(f'<text x="{(LEFT + self.width - RIGHT) / 2:.0f}" y="{self.height - 6}" '
                     f'text-anchor="middle" class="label">{escape(xlabel)}</text>')
        parts.append(f'<text transform="translate(13 {(TOP + self.height - BOTTOM) / 2:.0f}) rotate(-90)" '
                     f'text-anchor="middle" class="label">{escape(ylabel)}</text>')
        return parts


def _svg(parts: list[str], title: str, width: int = W, height: int = H) -> str:
    return (f'<svg class="chart" role="img" viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
            f'xmlns="http://www.w3.org/2000/svg"><title>{escape(title)}</title>{"".join(parts)}</svg>')


def histogram_chart(edges: Sequence[float], counts: Sequence[int], xlabel: str, title: str,
              marker: float | None = None) -> str:
    """Bars of `counts` between `edges`; `marker`: a dashed vertical line (the mean, or 0)."""
    edges, counts = np.asarray(edges, float), np.asarray(counts, int)
    axes = _Axes((float(edges[0]), float(edges[-1])), (0.0, max(1.0, float(counts.max(initial=0)) * 1.08)))
    parts = axes.frame(xlabel, "queries", xticks=_ticks(float(edges[0]), float(edges[-1]), 10))
    base = float(axes.py(0))
    for lo, hi, n in zip(edges[:-1], edges[1:], counts, strict=True):
        x0, x1, top = float(axes.px(lo)), float(axes.px(hi)), float(axes.py(n))
        parts.append(f'<rect class="bar" x="{x0 + 1:.1f}" y="{top:.1f}" width="{max(x1 - x0 - 2, 1):.1f}" '
                     f'height="{base - top:.1f}"><title>{_fmt(lo)} to {_fmt(hi)}: {n} '
                     f'{"query" if n == 1 else "queries"}</title></rect>')
    if marker is not None and np.isfinite(marker):
        x = float(axes.px(marker))
        parts.append(f'<line class="marker" x1="{x:.1f}" x2="{x:.1f}" y1="{TOP}" y2="{base:.1f}"/>')
    return _svg(parts, title)


def scatter(x: Sequence[float], y: Sequence[float], names: Sequence[str], xlabel: str, ylabel: str,
            title: str) -> str:
    """One dot per query (hover: its name and both figures), the diagonal y = x drawn: dots above
    it are queries where the y run does better."""
    x, y = np.asarray(x, float), np.asarray(y, float)
    both = np.concatenate([x, y, [0.0, 1.0]])
    lo, hi = float(np.nanmin(both)), float(np.nanmax(both))
    size = 360
    axes = _Axes((lo, hi), (lo, hi), width=size + LEFT, height=size)
    parts = axes.frame(xlabel, ylabel)
    parts.append(f'<line class="diagonal" x1="{float(axes.px(lo)):.1f}" y1="{float(axes.py(lo)):.1f}" '
                 f'x2="{float(axes.px(hi)):.1f}" y2="{float(axes.py(hi)):.1f}"/>')
    for a, b, name in zip(x, y, names, strict=True):
        kind = "up" if b > a + 1e-9 else "down" if b < a - 1e-9 else "same"
        parts.append(f'<circle class="dot {kind}" cx="{float(axes.px(a)):.1f}" '
                     f'cy="{float(axes.py(b)):.1f}" r="3.5">'
                     f'<title>{escape(str(name))}: {a:.4f} → {b:.4f}</title></circle>')
    return _svg(parts, title, size + LEFT, size)


def curves(series: Mapping[str, Sequence[float]], xlabel: str, ylabel: str, title: str,
           k: int | None = None) -> str:
    """Lines over ranks 1..n, one per series (with a legend); `k`: a dashed line at the cut-off."""
    n = max((len(v) for v in series.values()), default=1)
    values = np.concatenate([np.asarray(v, float) for v in series.values()] + [[0.0]])
    top = float(np.nanmax(values)) * 1.05 or 1.0
    axes = _Axes((1.0, float(max(n, 2))), (min(0.0, float(np.nanmin(values))), top))
    parts = axes.frame(xlabel, ylabel)
    for i, (name, v) in enumerate(series.items()):
        v = np.asarray(v, float)
        points = " ".join(f"{float(axes.px(r)):.1f},{float(axes.py(val)):.1f}"
                          for r, val in enumerate(v, start=1))
        colour = COLOURS[i % len(COLOURS)]
        parts.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2" points="{points}"/>')
        # the legend in the lower right corner, where rising curves leave room
        y, x = H - BOTTOM - 10 - 16 * (len(series) - 1 - i), W - RIGHT - 110
        parts.append(f'<line x1="{x}" x2="{x + 20}" y1="{y - 4}" y2="{y - 4}" stroke="{colour}" '
                     f'stroke-width="2"/><text x="{x + 26}" y="{y}">{escape(name)}</text>')
    if k is not None and k < n:
        x = float(axes.px(k))
        parts.append(f'<line class="marker" x1="{x:.1f}" x2="{x:.1f}" y1="{TOP}" y2="{H - BOTTOM}"/>'
                     f'<text x="{x + 4:.1f}" y="{H - BOTTOM - 6}">k = {k}</text>')
    return _svg(parts, title)
