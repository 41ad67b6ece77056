"""core.reports: the HTML report of one run and of a comparison (self-contained, every text from a
file escaped, the figures the core computes), the SVG charts, the Markdown/LaTeX tables with
ranx-style significance letters, and the inputs' hashes."""

from __future__ import annotations

import hashlib
import os
import re
import xml.etree.ElementTree as ET

import numpy as np
import pandas as pd
import pytest

from ndcg_gui import __version__
from ndcg_gui.core import Dataset, compare_runs
from ndcg_gui.core.lists.ranked_list import RankedList
from ndcg_gui.core.lists.typed_dataset import TypedDataset
from ndcg_gui.core.ndcg.presets import preset
from ndcg_gui.core.reports import svg
from ndcg_gui.core.reports.compare_report import compare_report, verdict
from ndcg_gui.core.reports.provenance import file_hashes
from ndcg_gui.core.reports.run_report import Sources, run_report
from ndcg_gui.core.reports.tables import better_than, comparison_table, letters

TREC = preset("trec_eval")
EVIL = '<img src=x onerror="alert(1)">'
GRADES = {"d1": 3, "d2": 2, "d3": 1, "d4": 0, "d5": 0}


def frame(orders: dict[str, list[str]]) -> pd.DataFrame:
    rows = [(q, d, 10.0 - r) for q, docs in orders.items() for r, d in enumerate(docs)]
    return pd.DataFrame(rows, columns=["query", "doc", "score"])


def qrels(queries) -> pd.DataFrame:
    return pd.DataFrame([(q, d, float(g)) for q in queries for d, g in GRADES.items()],
                        columns=["query", "doc", "grade"])


QUERIES = [f"q{i:02d}" for i in range(12)]
IDEAL, BASE, WORST = list(GRADES), ["d2", "d1", "d3", "d4", "d5"], list(GRADES)[::-1]


def dataset(orders: dict[str, list[str]]) -> Dataset:
    """A run with its qrels, as the file readers give it (`Dataset` of a run and a pool)."""
    pool = qrels(list(orders) if set(orders) - set(QUERIES) else QUERIES)
    run = frame(orders).merge(pool, on=["query", "doc"], how="left")
    return Dataset.of(run[["query", "doc", "grade", "score"]], pool)


@pytest.fixture(scope="module")
def runs():
    return {
        "base": dataset(dict.fromkeys(QUERIES, BASE)),
        "better": dataset(dict.fromkeys(QUERIES, IDEAL)),
        EVIL: dataset({q: (WORST if i < 8 else BASE) for i, q in enumerate(QUERIES)}),
    }


def text_of(html: str) -> str:
    """The page's visible text, roughly (tags dropped, entities kept)."""
    html = re.sub(r"<(script|style)>.*?</\1>", "", html, flags=re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_a_run_report_says_the_definition_mean_and_worst_queries():
    orders = {q: (WORST if i == 3 else IDEAL if i % 2 else BASE) for i, q in enumerate(QUERIES)}
    data = dataset(orders)
    result = data.evaluate(TREC.with_(k=10))
    html = run_report(data, TREC.at(10), name="bm25", sources=Sources({"run.txt": "ab" * 32}))
    text = text_of(html)
    assert html.startswith("<!DOCTYPE html>") and "Content-Security-Policy" in html
    assert f"Mean NDCG@10 = {result['ndcg'].mean():.4f} over 12 of 12 queries" in text
    assert TREC.describe() in text and f"NDCG Inspector {__version__}" in text and "ab" * 32 in text
    # the worst query first, with its list beside the ideal and the move that fixes it
    worst = result["ndcg"].idxmin()
    assert worst == "q03" and text.index("Query q03") < text.index("Query q00")
    assert "move d1 (grade 3) from rank 5 to 1" in text
    assert html.count('<svg class="chart"') == 1  # the histogram


def test_a_one_list_report_has_the_per_rank_table_and_curves():
    data = TypedDataset.of(RankedList.from_grades([3, 2, 3, 0, 1], query="e1"))
    html = run_report(data, TREC.at(3))
    text = text_of(html)
    assert "NDCG@3 = 0.9778" in text and "Per rank" in text
    assert "5.7619" in text  # DCG@3 of 3 2 3
    assert html.count('<svg class="chart"') == 2  # DCG/IDCG and NDCG per rank


def test_a_comparison_report_has_verdict_statistics_scatter_and_losses(runs):
    cmp = compare_runs(runs, measure=TREC.with_(k=10), samples=2000)
    html = compare_report(runs, cmp)
    text = text_of(html)
    kinds = {run: verdict(cmp, run)[0] for run in cmp.summary.index}
    assert kinds == {"better": "better", EVIL: "worse"}
    assert "better is better than base: mean NDCG@10 1.0000" in text
    assert 'class="verdict worse"' in html and "Statistics" in text and "p (Holm)" in text
    assert html.count('class="dot') == 2 * len(QUERIES)  # one scatter per compared run
    assert "The biggest losses of" in text and "What moved" in text
    assert "d1 (grade 3) fell from 2 to 5" in text
    # every query's delta, sortable
    assert html.count("<table class=sortable>") == 1 and text.count("q07") >= 1


def test_text_from_files_is_escaped(runs):
    cmp = compare_runs(runs, measure=TREC.with_(k=10), samples=200)
    html = compare_report(runs, cmp, Sources({EVIL: "0" * 64}))
    assert EVIL not in html and "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;" in html
    data = dataset({"<q>&1": BASE, "q2": IDEAL})
    html = run_report(data, TREC.at(10), name=EVIL)
    assert "<q>" not in html and EVIL not in html and "&lt;q&gt;&amp;1" in html


def test_the_page_fetches_nothing(runs):
    cmp = compare_runs(runs, measure=TREC.with_(k=10), samples=200)
    html = compare_report(runs, cmp)
    for pattern in (r"https?://(?!www\.w3\.org/2000/svg)", r"<[a-z][^>]*\ssrc=", r"<link", r"@import",
                    r"url\("):
        assert not re.search(pattern, html), pattern


def test_svg_charts_are_well_formed_xml():
    for chart in (svg.histogram_chart([0, 0.5, 1], [3, 4], "x <", "t &"),
                  svg.scatter([0.1, 0.9], [0.2, 0.1], ["a<b", "c&d"], "x", "y", "t"),
                  svg.curves({"DCG": [1, 2, 3], "I<DCG": [1, 3, 4]}, "rank", "DCG", "t", k=2)):
        root = ET.fromstring(chart)
        assert root.tag.endswith("svg") and root.find("{http://www.w3.org/2000/svg}title") is not None


def test_scatter_places_the_dots_by_their_figures():
    chart = svg.scatter([0.0, 1.0, 0.5], [1.0, 0.0, 0.5], ["up", "down", "same"], "x", "y", "t")
    dots = re.findall(r'<circle class="dot (\w+)" cx="([\d.]+)" cy="([\d.]+)"', chart)
    kinds = [d[0] for d in dots]
    (_, x_up, y_up), (_, x_down, y_down), _ = dots
    assert kinds == ["up", "down", "same"]
    assert float(x_up) < float(x_down) and float(y_up) < float(y_down)  # SVG's y grows downwards


def test_table_letters_mark_runs_significantly_better(runs):
    cmp = compare_runs(runs, measure=TREC.with_(k=10), samples=2000)
    assert letters(cmp) == {"base": "a", "better": "b", EVIL: "c"}
    marks = better_than(cmp)
    # better beats both (12 and 12 wins); base beats the worse run on 8 queries: p = 2/256, Holm x2
    assert marks == {"base": [EVIL], "better": ["base", EVIL], EVIL: []}
    md = comparison_table(cmp, "md")
    assert "| b | better | **1.0000**<sup>ac</sup> |" in md and "| a | base |" in md
    assert "&lt;img" not in md and "\\<img src=x onerror=\"alert\\(1\\)\"\\>" in md
    latex = comparison_table(cmp, "latex")
    assert r"b & better & \textbf{1.0000}$^{ac}$ \\" in latex and r"\textless{}img" in latex
    assert "Holm-corrected, p < 0.05" in md


def test_no_marks_when_nothing_is_significant():
    few = {"a": dataset({q: BASE for q in QUERIES[:3]}), "b": dataset({q: IDEAL for q in QUERIES[:3]})}
    cmp = compare_runs(few, measure=TREC.with_(k=10), samples=2000)  # 3 wins: p = 2/8 = 0.25
    assert better_than(cmp) == {"a": [], "b": []}
    assert "<sup>" not in comparison_table(cmp, "md")


def test_file_hashes_name_each_input(tmp_path):
    a, b = tmp_path / "a", tmp_path / "sub"
    b.mkdir()
    (a).write_bytes(b"one")
    (b / "a").write_bytes(b"two")
    hashes = file_hashes([a, None, b / "a"])
    assert list(hashes.values()) == [hashlib.sha256(b"one").hexdigest(), hashlib.sha256(b"two").hexdigest()]
    assert len(hashes) == 2  # the same name twice: the paths as given


def test_a_report_of_many_queries_stays_small():
    rng = np.random.default_rng(0)
    many = [f"q{i}" for i in range(2000)]
    orders = {q: list(rng.permutation(list(GRADES))) for q in many}
    run = frame(orders).merge(qrels(many), on=["query", "doc"], how="left")
    html = run_report(Dataset.of(run[["query", "doc", "grade", "score"]], qrels(many)), TREC.at(10))
    assert len(html) < 1_000_000 and html.count("<tr>") > 2000


def test_file_hashes_are_of_what_was_read(tmp_path):
    """Inside a recording, a file is named by the bytes read, even when it changed since; a stream
    whose bytes are gone, or that was never read, is refused at once instead of being read (a FIFO
    without a writer would wait for ever, /dev/zero never ends); a file read in two versions is
    refused (issue 33, findings 5 and 8)."""
    from ndcg_gui.core.errors import InputError
    from ndcg_gui.core.formats.source import read_source, recording_digests

    path = tmp_path / "run.txt"
    path.write_text("1 Q0 a 1 1.0 x\n")
    os.mkfifo(tmp_path / "fifo")
    with recording_digests():
        read_source(path)
        path.write_text("1 Q0 b 1 1.0 x\n")
        assert file_hashes([path]) == {"run.txt": hashlib.sha256(b"1 Q0 a 1 1.0 x\n").hexdigest()}
        for stream in (tmp_path / "fifo", "/dev/zero"):
            with pytest.raises(InputError, match="is a pipe or device read before, whose bytes are gone"):
                file_hashes([stream])
        read_source(path)
        with pytest.raises(InputError, match="changed while it was being read"):
            file_hashes([path])
    assert file_hashes([path]) == {"run.txt": hashlib.sha256(b"1 Q0 b 1 1.0 x\n").hexdigest()}


# Run and query names from outside: control characters, ESC, a line break, a lone surrogate (a file
# name's undecodable byte), a noncharacter, a C1 control, markup of every format.
HOSTILE = ["c\x01\x0bctl", "esc\x1b[31mred", "new\nline", "bad\udcff", "non\ufffe", "c1\x9b2J", "a|b*c_$\\"]
# What no line of a terminal, no XML 1.0 document and no HTML page takes raw.
RAW_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")


@pytest.fixture(scope="module")
def hostile():
    """A comparison whose runs and queries have hostile names (the first run the baseline; neither
    a query id, read as text, nor a run's name, `cli_compare.run_names`, is a lone surrogate: the
    inputs' names are)."""
    texts = [h for h in HOSTILE if not re.search("[\ud800-\udfff]", h)]
    queries = [f"q{i}{texts[i % len(texts)]}" for i in range(12)]
    datasets = {"base": dataset(dict.fromkeys(queries, BASE))}
    for i, name in enumerate(texts):
        datasets[name] = dataset({q: (WORST if j <= i else BASE) for j, q in enumerate(queries)})
    return datasets, compare_runs(datasets, measure=TREC.with_(k=10), samples=500)


def test_junit_xml_of_hostile_names_parses(hostile):
    """XML 1.0 takes neither control characters nor lone surrogates: written as escapes, so a CI
    dashboard still reads the file (issue 33, finding 7)."""
    from ndcg_gui.core.analysis.runs.gate import decide
    from ndcg_gui.core.reports.junit import junit_xml

    _datasets, cmp = hostile
    xml = junit_xml(decide(cmp, 0.05, 0.0), "", {f"{n}.run": "0" * 64 for n in HOSTILE})
    root = ET.fromstring(xml)  # (raises on a character XML does not take)
    names = [case.get("name") for case in root.iter("testcase")]
    assert names[:2] == [r"c\x01\x0bctl not worse than base", r"esc\x1b[31mred not worse than base"]
    assert "new\nline not worse than base" in names  # (a line break XML takes, as &#10;)
    props = {p.get("name") for p in root.iter("property")}
    assert {r"sha256 bad\udcff.run", r"sha256 non\ufffe.run", r"sha256 c1\x9b2J.run"} <= props


def test_markdown_and_latex_keep_each_run_on_its_row(hostile):
    _datasets, cmp = hostile
    md = comparison_table(cmp, "md").split("\n\n")[0].splitlines()
    assert len(md) == 2 + len(cmp.runs) and all(line.startswith("|") and line.endswith("|") for line in md)
    assert any(r"| new\\nline |" in line for line in md) and any(r"| a\|b\*c\_$\\ |" in line for line in md)
    latex = comparison_table(cmp, "latex")
    rows = [line for line in latex.splitlines() if line.endswith(r" \\") and " & " in line]
    assert len(rows) == 1 + len(cmp.runs)
    assert r"new\textbackslash{}nline" in latex and r"a|b*c\_\$\textbackslash{}" in latex
    for text in (*md, latex):
        assert not RAW_CONTROL.search(text), text


def test_html_reports_of_hostile_names_hold_only_what_html_takes(hostile):
    datasets, cmp = hostile
    sources = Sources({f"{n}.run": "0" * 64 for n in HOSTILE})
    one = run_report(datasets["non\ufffe"], TREC.at(10), "bad\udcff", sources=sources)
    for html in (compare_report(datasets, cmp, sources), one):
        assert not RAW_CONTROL.search(html)
        html.encode("utf-8")  # (a lone surrogate cannot be written)
        assert r"esc\x1b[31mred" in html and r"bad\udcff" in html
