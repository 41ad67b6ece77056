"""The report's per-segment tables (`core.reports.segment_report`): every row the analysis made, its
figures as the analysis computed them, names from outside escaped."""

from __future__ import annotations

from html import escape as html_escape
from html.parser import HTMLParser

import numpy as np
import pandas as pd
import pytest

from ndcg_gui.core.analysis.runs.segment_compare import compare_segments
from ndcg_gui.core.analysis.segments import segment_means
from ndcg_gui.core.ndcg.evaluate import evaluate
from ndcg_gui.core.ndcg.measure import Measure
from ndcg_gui.core.reports.segment_report import segment_comparison_section, segment_means_section

HOSTILE = '<script>alert("x")</script>&amp;'


class Tables(HTMLParser):
    """The text of every cell of every table, row by row."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: list[list[list[str]]] = []
        self.cell: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self.tables.append([])
        elif tag == "tr":
            self.tables[-1].append([])
        elif tag in ("td", "th"):
            self.cell = []

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self.cell is not None:
            self.tables[-1][-1].append("".join(self.cell))
            self.cell = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell.append(data)


def tables_of(html: str) -> list[list[list[str]]]:
    parser = Tables()
    parser.feed(html)
    return parser.tables


def result() -> pd.DataFrame:
    rng = np.random.default_rng(0)
    run = pd.DataFrame([(f"q{q}", f"d{d}", float(rng.random())) for q in range(12) for d in range(6)],
                       columns=["query", "doc", "score"])
    qrels = pd.DataFrame([(f"q{q}", f"d{d}", float(rng.integers(0, 3))) for q in range(12) for d in range(4)],
                         columns=["query", "doc", "grade"])
    return evaluate(run, qrels, Measure(k=3))


def test_segment_means_table_holds_each_segment_and_all_and_escapes_names():
    scored = result()
    segments = {q: (HOSTILE if i % 2 else "mobile") for i, q in enumerate(scored.index[:-2])}
    means = segment_means(scored, segments)
    html = segment_means_section(means, "@3")
    assert "<script>" not in html and "&lt;script&gt;" in html
    (table,) = tables_of(html)
    body = table[1:]
    assert [r[0] for r in body] == [*means.table.index, "all"]
    for row in body[:-1]:
        want = means.table.loc[row[0]]
        assert float(row[1]) == pytest.approx(want["mean"], abs=5e-5)
        assert [int(row[2]), int(row[3])] == [want["counted"], want["total"]]
    assert "2 queries are in no segment, counted in the mean of all only: " in html


def test_segment_comparison_table_says_where_the_run_won_and_lost():
    rng = np.random.default_rng(2)
    queries = pd.Index([f"q{i}" for i in range(120)], name="query")
    base = rng.random(120)
    segment = np.array(["up", "down", HOSTILE])[np.arange(120) % 3]
    shift = np.where(segment == "up", 0.3, np.where(segment == "down", -0.3, 0.0))
    per_query = pd.DataFrame({"base": base, "new": np.clip(base + shift + rng.normal(0, 0.02, 120), 0, 1)},
                             index=queries)
    cmp = compare_segments(per_query, "base", dict(zip(queries, segment, strict=True)))
    html = segment_comparison_section(cmp, "@10")
    assert "<script>" not in html
    (table,) = tables_of(html)
    rows = {r[0]: r for r in table[1:]}
    assert rows["up"][-1] == "better" and rows["down"][-1] == "worse"
    assert rows[HOSTILE][-1] == "no detectable difference"
    for name, row in rows.items():
        want = cmp.table.loc[("new", name)]
        assert float(row[4]) == pytest.approx(want["delta"], abs=5e-5)
        assert [int(row[5]), int(row[6]), int(row[7])] == [want["wins"], want["ties"], want["losses"]]
    where = cmp.where("new")
    assert where.startswith("new against base: better on up (Δ +0.2") and html_escape(where) in html
