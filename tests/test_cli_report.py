"""`ndcg-inspect … --report OUT.html` and `--table md|latex [--table-out OUT]`: written from files,
with the inputs' sha256; together with the gate; bad combinations are status 2 with one line."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from ndcg_gui.cli.main import main
from tests.test_cli import cli
from tests.test_cli_gate import runs  # noqa: F401 (the fixture: runs built from one qrels)


def test_a_run_report_from_files(runs, capsys, tmp_path):  # noqa: F811
    out = tmp_path / "r.html"
    assert main([runs("base.run"), "--qrels", runs("qrels"), "--report", str(out)]) == 0
    html = out.read_text(encoding="utf-8")
    assert "NDCG@10 of base" in html and "Mean NDCG@10 = <b>0.9225</b> over 12 of 12" in html
    digest = hashlib.sha256(Path(runs("qrels")).read_bytes()).hexdigest()
    assert digest in html
    assert capsys.readouterr().err.strip() == f"ndcg-inspect: wrote {out}"


def test_a_comparison_report_and_table(runs, capsys, tmp_path):  # noqa: F811
    out = tmp_path / "c.html"
    assert main([runs("base.run"), runs("worse.run"), runs("better.run"), "--qrels", runs("qrels"),
                 "--report", str(out), "--table", "md"]) == 0
    md = capsys.readouterr().out
    assert md.splitlines()[:5] == [
        "| # | Run | NDCG@10 |", "|---|---|---:|", "| a | base | 0.9225<sup>b</sup> |",
        "| b | worse | 0.5296 |", "| c | better | **1.0000**<sup>ab</sup> |"]
    html = out.read_text(encoding="utf-8")
    assert "worse is worse than base" in html and "better is better than base" in html


def test_table_to_a_file_with_the_gate(runs, capsys, tmp_path):  # noqa: F811
    table, report = tmp_path / "t.tex", tmp_path / "c.html"
    code = main([runs("base.run"), runs("worse.run"), "--qrels", runs("qrels"), "--table", "latex",
                 "--table-out", str(table), "--report", str(report), "--fail-if-worse"])
    assert code == 1 and capsys.readouterr().out.startswith("FAIL")
    assert r"a & base & \textbf{0.9225}$^{b}$ \\" in table.read_text() and report.exists()


def test_alpha_sets_the_level_of_the_marks(runs, capsys):  # noqa: F811
    # six.run loses on 6 queries: p = 2/64 = 0.03125, significant at 0.05, not at 0.01
    args = [runs("base.run"), runs("six.run"), "--qrels", runs("qrels"), "--table", "md"]
    assert main(args) == 0 and "<sup>b</sup>" in capsys.readouterr().out
    assert main([*args, "--alpha", "0.01"]) == 0 and "<sup>" not in capsys.readouterr().out


@pytest.mark.parametrize(("args", "message"), [
    (["--table", "md"], "--table compares runs"),
    (["@worse.run", "--table-out", "x.md"], "add --table md"),
    (["@worse.run", "--table", "md", "--fail-if-worse"], "--table-out"),
    (["@worse.run", "--report", "@nowhere/r.html"], "r.html"),
    (["--report", "x.html", "--format", "json"], "leave out -q and --format"),
])
def test_bad_combinations_are_status_2(runs, capsys, args, message):  # noqa: F811
    args = [runs(a[1:]) if a.startswith("@") else a for a in args]
    assert main([runs("base.run"), *args, "--qrels", runs("qrels")]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and message in err, err


def test_reports_without_qt(runs, tmp_path):  # noqa: F811
    out = tmp_path / "c.html"
    result = cli(runs("base.run"), runs("better.run"), "--qrels", runs("qrels"), "--report", out,
                 "--table", "latex")
    assert result.returncode == 0, result.stderr
    assert out.exists() and result.stdout.startswith("% needs")
