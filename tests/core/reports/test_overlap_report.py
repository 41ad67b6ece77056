"""The report of runs compared by their rankings (issue 35.3): `ndcg-inspect A B --report` without
--qrels writes how differently the runs rank each query, the most different first, with the same
figures as `ndcg-inspect A B --format json`; with --qrels and --overlap the comparison report gains
that table with NDCG and Δ beside it and the judging holes named; every text from a file escaped."""

from __future__ import annotations

import html as html_lib
import json
import re

import pandas as pd
import pytest

from ndcg_gui.cli.main import main
from ndcg_gui.core.ndcg.presets import preset
from ndcg_gui.core.reports.compare_report import overlap_report
from ndcg_gui.core.reports.run_report import Sources

EVIL = '<img src=x onerror="alert(1)">'


@pytest.fixture
def files(tmp_path):
    """"hole": both runs put the one judged document first and nothing else in common; "moved":
    the judged document falls; "same": one ranking; "q10", "q2": tied at RBO 1 (natural order)."""
    base = ["hole Q0 j1 1 9 a", *[f"hole Q0 u{i} {i + 2} {8 - i} a" for i in range(6)],
            "moved Q0 r1 1 9 a", "moved Q0 x1 2 8 a", "moved Q0 x2 3 7 a",
            "q10 Q0 s1 1 2 a", "q10 Q0 s2 2 1 a", "q2 Q0 s1 1 2 a", "q2 Q0 s2 2 1 a"]
    cand = ["hole Q0 j1 1 9 b", *[f"hole Q0 v{i} {i + 2} {8 - i} b" for i in range(6)],
            "moved Q0 x1 1 9 b", "moved Q0 x2 2 8 b", "moved Q0 r1 3 7 b",
            "q10 Q0 s1 1 2 b", "q10 Q0 s2 2 1 b", "q2 Q0 s1 1 2 b", "q2 Q0 s2 2 1 b"]
    paths = tmp_path / "base.run", tmp_path / "cand.run", tmp_path / "j.qrels"
    paths[0].write_text("\n".join(base) + "\n")
    paths[1].write_text("\n".join(cand) + "\n")
    paths[2].write_text("hole 0 j1 2\nmoved 0 r1 2\nq2 0 s1 1\nq10 0 s1 1\n")
    return paths


def cli_json(capsys, *args) -> pd.DataFrame:
    assert main([*map(str, args), "--format", "json"]) == 0
    return pd.DataFrame(json.loads(capsys.readouterr().out)["queries"]).set_index("query")


def overlap_rows(html: str) -> list[list[str]]:
    """The cells of the overlap table (the one after "the most different first"), as text."""
    part = html[html.index("the most different first</h3>"):]
    table = part[part.index("<table"):part.index("</table>")]
    rows = re.findall(r"<tr>(.*?)</tr>", table[table.index("<tbody>"):], flags=re.S)
    return [[html_lib.unescape(re.sub(r"<[^>]+>", "", c)) for c in re.findall(r"<td[^>]*>(.*?)</td>", r)]
            for r in rows]


def figure(x) -> str:
    return "n/a" if x is None or x != x else f"{x:.4f}"


def test_without_qrels_the_report_is_the_overlap_most_different_first(tmp_path, files, capsys):
    base, cand, _ = files
    out = tmp_path / "r.html"
    assert main([str(base), str(cand), "--report", str(out)]) == 0
    capsys.readouterr()
    want = cli_json(capsys, base, cand)
    html = out.read_text()
    assert "Rankings compared without judgments: cand against base" in html
    assert "No judgments: the runs are compared by their rankings alone" in html
    rows = overlap_rows(html)
    assert [r[0] for r in rows] == list(want.index)  # the command line's order: the most different first
    assert [r[0] for r in rows][-2:] == ["q2", "q10"]  # (ties at RBO 1 in natural order)
    for row in rows:
        q = row[0]
        assert row[1:] == [figure(want.at[q, c]) for c in ("rbo", "jaccard", "tau")]
    # The most different query's two lists side by side, each document with its rank in the baseline.
    first = want.index[0]
    assert f"Query {first}: RBO {want.at[first, 'rbo']:.4f}" in html
    assert "new (not in base)" in html and "Webber, Moffat &amp; Zobel 2010" in html


def test_with_qrels_and_overlap_the_comparison_report_gains_the_table_and_the_holes(tmp_path, files, capsys):
    base, cand, qrels = files
    out = tmp_path / "r.html"
    assert main([str(base), str(cand), "--qrels", str(qrels), "--overlap", "--report", str(out)]) == 0
    capsys.readouterr()
    want = cli_json(capsys, base, cand, "--qrels", qrels, "--overlap")
    html = out.read_text()
    assert "Statistics" in html and "How differently the runs rank each query" in html
    rows = overlap_rows(html)
    assert [r[0] for r in rows] == list(want.index)
    for row in rows:
        q = row[0]
        delta = want.at[q, "delta"]
        assert row[1:4] == [figure(want.at[q, c]) for c in ("rbo", "jaccard", "tau")]
        assert row[4:6] == [figure(want.at[q, "ndcg_baseline"]), figure(want.at[q, "ndcg"])]
        assert row[6] == ("0" if delta == 0 else f"{delta:+.4f}")
        assert row[7] == ("yes" if want.at[q, "judging_hole"] else "")
    assert [r[0] for r in rows if r[7] == "yes"] == ["hole"]
    assert ("cand: 1 query ranked very differently with the same NDCG (judging holes: unjudged "
            "documents?): hole") in html_lib.unescape(html)
    # Without --overlap the report is as it was: NDCG alone.
    plain = tmp_path / "plain.html"
    assert main([str(base), str(cand), "--qrels", str(qrels), "--report", str(plain)]) == 0
    assert "How differently" not in plain.read_text()


def test_a_table_of_ndcg_without_qrels_is_refused_in_one_line(tmp_path, files, capsys):
    base, cand, _ = files
    assert main([str(base), str(cand), "--report", str(tmp_path / "r.html"), "--table", "md"]) != 0
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["ndcg-inspect: --table and --fail-if-worse compare NDCG: give the runs' --qrels"]
    assert not (tmp_path / "r.html").exists()


def test_names_and_ids_from_files_are_escaped():
    lists = {EVIL: {EVIL: ["<b>d1</b>", "d2"]}, "b&c": {EVIL: ["d2", "<b>d1</b>", "d3"]}}
    html = overlap_report(lists, EVIL, preset("trec_eval").at(10), Sources({EVIL: "0" * 64}))
    assert EVIL not in html and "<b>d1</b>" not in html
    assert "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;" in html and "&lt;b&gt;d1&lt;/b&gt;" in html
    assert "b&amp;c against" in html
