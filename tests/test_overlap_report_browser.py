"""The report of runs compared without judgments (issue 35.3) in headless Chromium: the page
`ndcg-inspect A B --report` writes without --qrels lays out its overlap table, the most different
first, and the lists side by side; a click on the RBO header sorts by it; a PNG is made to look at
(NDCG_REPORT_SHOTS keeps it). Skipped as tests/test_report_browser.py is, without Chromium."""

from __future__ import annotations

import re

import pytest
from test_report_browser import EXAMPLES, chromium, rendered_text, screenshot

from ndcg_gui.cli.main import main

pytestmark = pytest.mark.system


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    folder = tmp_path_factory.mktemp("overlap")
    run = EXAMPLES / "sample.run"
    # a second run: each query's first and fourth documents swapped, its last one left out
    by_query: dict[str, list[list[str]]] = {}
    for line in run.read_text().splitlines():
        by_query.setdefault(line.split()[0], []).append(line.split())
    out = []
    for rows in by_query.values():
        rows[0], rows[3] = rows[3], rows[0]
        out += [f"{r[0]} Q0 {r[2]} {n} {100 - n} moved" for n, r in enumerate(rows[:-1], start=1)]
    moved = folder / "moved.run"
    moved.write_text("\n".join(out) + "\n")
    page = folder / "overlap.html"
    assert main([str(run), str(moved), "--report", str(page)]) == 0
    return page


def test_the_report_without_judgments_renders_the_overlap_most_different_first(report, tmp_path):
    text = rendered_text(report.as_uri())
    assert "Rankings compared without judgments: moved against sample" in text
    assert "How differently the runs rank each query" in text
    assert "moved against sample, the most different first" in text
    assert "No judgments: the runs are compared by their rankings alone" in text
    first = re.search(r"query RBO ⇅? ?Jaccard@10 ⇅? ?τ ⇅? ?(\S+) (\d\.\d{4})", text)
    assert first is not None, text[:3000]
    assert f"Query {first.group(1)}: RBO {first.group(2)}" in text  # its lists follow, side by side
    assert "sample: document moved: document in sample" in text and "↓3 (was 1)" in text
    screenshot(report.as_uri(), tmp_path / "overlap-report.png")


def test_clicking_rbo_sorts_the_table_by_it(report, tmp_path):
    html = report.read_text()
    click = ("<script>var th = Array.prototype.filter.call(document.querySelectorAll('table.sortable th'),"
             " function (h) { return h.textContent.indexOf('RBO') === 0; })[0]; th.click(); th.click();"
             "</script>")
    clicked = tmp_path / "clicked.html"
    clicked.write_text(html.replace("</body>", click + "</body>"))
    dom = chromium("--dump-dom", clicked.as_uri()).stdout
    table = dom[dom.index('<table class="sortable">'):]
    table = table[:table.index("</table>")]
    rows = re.findall(r"<tr><td>[^<]*</td><td class=\"num\" data-v=\"([-+.\de]+)\">", table)
    values = [float(v) for v in rows]
    assert len(values) == 25 and values == sorted(values, reverse=True)  # (two clicks: highest first)
