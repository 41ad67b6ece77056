"""The HTML around a report: one self-contained page (inline CSS, a little script to sort tables,
a Content-Security-Policy that forbids fetching anything), or the same body for a notebook cell.

Every text from a file goes through `esc`; `Raw` marks HTML made here (a chart, a mark-up)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ndcg_gui.core.reports.escaping import html_text as escape

SCOPE = "ndcg-report"  # every rule is scoped to this class: a notebook's own styles are left alone

CSS = """
.ndcg-report { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", "DejaVu Sans", sans-serif;
  color: #1d1d1f; max-width: 1180px; margin: 0 auto; padding: 8px 16px 40px; }
.ndcg-report h1 { font-size: 22px; margin: 12px 0 4px; }
.ndcg-report h2 { font-size: 18px; margin: 28px 0 8px; border-bottom: 1px solid #ddd; padding-bottom: 3px; }
.ndcg-report h3 { font-size: 15px; margin: 20px 0 6px; }
.ndcg-report .meta { color: #555; font-size: 12.5px; }
.ndcg-report .meta code { font-size: 11.5px; word-break: break-all; }
.ndcg-report .headline { font-size: 18px; margin: 10px 0; }
.ndcg-report .verdict { padding: 8px 12px; border-radius: 4px; margin: 8px 0; background: #f3f3f3; }
.ndcg-report .verdict.better { background: #e6f4ea; border-left: 4px solid #2ca02c; }
.ndcg-report .verdict.worse { background: #fce8e6; border-left: 4px solid #d62728; }
.ndcg-report .verdict.same { border-left: 4px solid #999; }
.ndcg-report table { border-collapse: collapse; margin: 6px 0 10px; font-size: 13px; }
.ndcg-report th, .ndcg-report td { border: 1px solid #d8d8d8; padding: 3px 8px; text-align: left;
  vertical-align: top; }
.ndcg-report th { background: #f5f5f7; font-weight: 600; }
.ndcg-report td.num, .ndcg-report th.num { text-align: right; font-variant-numeric: tabular-nums; }
.ndcg-report table.sortable th { cursor: pointer; user-select: none; }
.ndcg-report table.sortable th::after { content: " ⇅"; color: #aaa; font-size: 11px; }
.ndcg-report table.sortable th.asc::after { content: " ▲"; color: #333; }
.ndcg-report table.sortable th.desc::after { content: " ▼"; color: #333; }
.ndcg-report .scroll { max-height: 480px; overflow: auto; display: inline-block; border: 1px solid #eee; }
.ndcg-report .scroll table { margin: 0; }
.ndcg-report .scroll th { position: sticky; top: 0; }
.ndcg-report .charts { display: flex; flex-wrap: wrap; gap: 16px; align-items: flex-start; }
.ndcg-report svg.chart { max-width: 100%; height: auto; background: #fff; }
.ndcg-report svg.chart text { font: 11px system-ui, "DejaVu Sans", sans-serif; fill: #333; }
.ndcg-report svg.chart .label { font-size: 12px; }
.ndcg-report svg.chart .grid { stroke: #eee; }
.ndcg-report svg.chart .axis { stroke: #888; }
.ndcg-report svg.chart .frame { fill: none; stroke: #bbb; }
.ndcg-report svg.chart .bar { fill: #4c78a8; }
.ndcg-report svg.chart .marker { stroke: #d62728; stroke-dasharray: 5 4; stroke-width: 1.5; }
.ndcg-report svg.chart .diagonal { stroke: #999; stroke-dasharray: 4 4; }
.ndcg-report svg.chart .dot { fill-opacity: .7; }
.ndcg-report svg.chart .dot.up { fill: #2ca02c; }
.ndcg-report svg.chart .dot.down { fill: #d62728; }
.ndcg-report svg.chart .dot.same { fill: #888; }
.ndcg-report .lists { display: flex; flex-wrap: wrap; gap: 18px; }
.ndcg-report .query { border: 1px solid #e3e3e3; border-radius: 6px; padding: 4px 14px 8px; margin: 12px 0; }
.ndcg-report tr.cut td { border-top: 2px solid #d62728; }
.ndcg-report td.out { background: #fde2e1; }
.ndcg-report td.in { background: #e2f5e4; }
.ndcg-report .key-out { background: #fde2e1; padding: 0 4px; }
.ndcg-report .key-in { background: #e2f5e4; padding: 0 4px; }
.ndcg-report td.unjudged { color: #999; font-style: italic; }
.ndcg-report ul.fix { margin: 4px 0; padding-left: 20px; }
.ndcg-report .note { color: #8a5300; }
"""

# Sorts a table.sortable by a clicked header: numbers by value (a cell's data-v first), text
# otherwise; a second click reverses. No library: the page opens from a mail attachment.
SCRIPT = """
(function () {
  function key(td) { var v = td.getAttribute('data-v'); if (v === null) v = td.textContent.trim();
    var n = parseFloat(v); return isNaN(n) || !/^[-+]?[0-9.]/.test(v) ? v.toLowerCase() : n; }
  document.querySelectorAll('.ndcg-report table.sortable').forEach(function (table) {
    table.querySelectorAll('th').forEach(function (th, col) {
      th.addEventListener('click', function () {
        var body = table.tBodies[0], rows = Array.prototype.slice.call(body.rows);
        var asc = !th.classList.contains('asc');
        table.querySelectorAll('th').forEach(function (h) { h.classList.remove('asc', 'desc'); });
        th.classList.add(asc ? 'asc' : 'desc');
        rows.sort(function (a, b) {
          var x = key(a.cells[col]), y = key(b.cells[col]);
          if (typeof x !== typeof y) { x = String(x); y = String(y); }
          return (x < y ? -1 : x > y ? 1 : 0) * (asc ? 1 : -1);
        });
        rows.forEach(function (r) { body.appendChild(r); });
      });
    });
  });
})();
"""

# Nothing is fetched: no scripts, styles, fonts or images from anywhere but this file.
CSP = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:"


@dataclass(frozen=True)
class Raw:
    """HTML made by this package, put in a page as it is."""

    html: str

    def __str__(self) -> str:
        return self.html


@dataclass(frozen=True)
class Cell:
    """A table cell: its text (escaped), a value to sort by, a CSS class, a tooltip."""

    text: str | Raw
    sort: float | str | None = None
    cls: str = ""
    tip: str = ""


def esc(value: object) -> str:
    return str(value) if isinstance(value, Raw) else escape(str(value))


def num(value: float, form: str = ".4f", cls: str = "num") -> Cell:
    """A figure, right-aligned, sorted by its value ("n/a" when NaN)."""
    if value != value:  # NaN
        return Cell("n/a", "", cls)
    return Cell(format(value, form), float(value), cls)


def table(headers: Sequence[str | tuple[str, str]], rows: Sequence[Sequence[object]], *,
          sortable: bool = False, numeric: Sequence[int] = (), scroll: bool = False,
          row_classes: Sequence[str] | None = None) -> str:
    """A table; a header may be (text, tooltip); a cell any text, `Raw` or `Cell`. No headers: no
    header row."""
    head = []
    for i, h in enumerate(headers):
        text, tip = (h if isinstance(h, tuple) else (h, ""))
        attrs = (' class="num"' if i in numeric else "") + (f' title="{escape(tip)}"' if tip else "")
        head.append(f"<th{attrs}>{esc(text)}</th>")
    body = []
    for r, row in enumerate(rows):
        cells = []
        for i, value in enumerate(row):
            cell = value if isinstance(value, Cell) else Cell(value, cls="num" if i in numeric else "")
            attrs = f' class="{cell.cls}"' if cell.cls else ""
            if cell.sort is not None:
                attrs += f' data-v="{escape(str(cell.sort))}"'
            if cell.tip:
                attrs += f' title="{escape(cell.tip)}"'
            cells.append(f"<td{attrs}>{esc(cell.text)}</td>")
        cls = f' class="{row_classes[r]}"' if row_classes and row_classes[r] else ""
        body.append(f"<tr{cls}>{''.join(cells)}</tr>")
    thead = f'<thead><tr>{"".join(head)}</tr></thead>' if head else ""
    html = f'<table{" class=sortable" if sortable else ""}>{thead}<tbody>{"".join(body)}</tbody></table>'
    return f'<div class="scroll">{html}</div>' if scroll else html


def body(parts: Sequence[str]) -> str:
    """The report's content in its scoped element, with its style (and the sorting script)."""
    return (f'<div class="{SCOPE}"><style>{CSS}</style>{"".join(parts)}'
            f"<script>{SCRIPT}</script></div>")


def document(title: str, parts: Sequence[str]) -> str:
    """A whole page that opens anywhere without a network."""
    return (
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(title)}</title></head><body>{body(parts)}</body></html>\n"
    )
