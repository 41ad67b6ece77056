"""Progress of an engine's job: DuckDB's `query_progress` polled while a statement runs, told on
stderr (a line rewritten on a terminal, a line per tenth into a log, nothing for short jobs,
nothing ever on stdout), and a report that returns False stops the job."""

from __future__ import annotations

import io
import threading
from pathlib import Path

import pytest

from ndcg_gui.core.ndcg.measure import Measure
from ndcg_gui.core.sql import progress
from ndcg_gui.core.sql.progress import Cancelled, StderrProgress, watching

duckdb = pytest.importorskip("duckdb")

SLOW = "SELECT COUNT(DISTINCT (i * 7919) % 100000007) FROM range({n}) t(i)"


def _until_reported(con, report, n=2_000_000):
    """Run ever larger statements until the poll has seen one running (no wall time assumed)."""
    seen = []

    def keep(step, percent):
        seen.append((step, percent))
        return report(step, percent)

    with watching(con, keep, every=0.001) as steps:
        steps("counting")
        while not seen and n < 2_000_000_000:
            con.sql(SLOW.format(n=n)).fetchall()
            n *= 4
    return seen


def test_a_running_statement_is_reported_with_its_step():
    con = duckdb.connect()
    con.execute("SET threads = 1")
    seen = _until_reported(con, lambda step, percent: None)
    assert seen and all(step == "counting" and 0 <= percent <= 100 for step, percent in seen)
    assert all(t.name != "engine progress" for t in threading.enumerate())  # (joined at the end)
    # DuckDB's own bar (which prints to stdout) stays off.
    assert con.sql("SELECT current_setting('enable_progress_bar_print')").fetchall() == [(False,)]


def test_a_report_returning_false_interrupts_the_statement():
    con = duckdb.connect()
    con.execute("SET threads = 1")
    with pytest.raises(duckdb.InterruptException):
        _until_reported(con, lambda step, percent: False)


def test_score_files_stopped_by_its_report_raises_cancelled(tmp_path, monkeypatch):
    from ndcg_gui.core.sql.duckdb_engine import score_files

    monkeypatch.setattr(progress, "POLL", 0.001)
    run, qrels = _parquet(tmp_path, 3_000_000)
    with pytest.raises(Cancelled):
        score_files(str(run), str(qrels), Measure(k=10, ties="trec"), threads=1, progress=lambda step,
                    percent: False)


def _parquet(folder: Path, rows: int) -> tuple[Path, Path]:
    run, qrels = folder / "run.parquet", folder / "qrels.parquet"
    duckdb.sql("COPY (SELECT CAST(i // 1000 AS VARCHAR) AS query, 'D' || CAST(i % 1000 AS VARCHAR) AS doc, "
               f"CAST(hash(i) % 1000 AS DOUBLE) AS score FROM range({rows}) t(i)) "
               f"TO '{run}' (FORMAT parquet)")
    duckdb.sql("COPY (SELECT CAST(i // 10 AS VARCHAR) AS query, 'D' || CAST(i % 10 * 7 AS VARCHAR) AS doc, "
               f"CAST(i % 4 AS INTEGER) AS grade FROM range({rows // 100}) t(i)) "
               f"TO '{qrels}' (FORMAT parquet)")
    return run, qrels


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


class Terminal(io.StringIO):
    def isatty(self):
        return True


def test_a_terminal_gets_one_line_rewritten_after_a_second_and_wiped():
    clock, out = Clock(), Terminal()
    shown = StderrProgress(out, "ndcg-inspect: ", clock=clock)
    shown("scoring", 5.0)
    assert out.getvalue() == ""  # a short job says nothing
    clock.now = 1.5
    shown("scoring", 42.4)
    shown("scoring", 7.0)
    assert out.getvalue() == "\rndcg-inspect: scoring:  42 %\rndcg-inspect: scoring:   7 %"
    shown.close()
    assert out.getvalue().endswith("\r" + " " * len("ndcg-inspect: scoring:   7 %") + "\r")
    assert "\n" not in out.getvalue()


def test_a_log_gets_a_line_per_tenth_once_the_job_is_long():
    clock, out = Clock(), io.StringIO()
    shown = StderrProgress(out, "ndcg-inspect: ", clock=clock)
    clock.now = 9.0
    shown("reading run.txt", 50.0)
    assert out.getvalue() == ""
    clock.now = 10.5
    for percent in (51.0, 55.0, 61.0, 62.0, 99.0):
        shown("reading run.txt", percent)
    shown("scoring", 3.0)
    shown.close()
    assert out.getvalue() == ("ndcg-inspect: reading run.txt: 51 %\nndcg-inspect: reading run.txt: 61 %\n"
                              "ndcg-inspect: reading run.txt: 99 %\nndcg-inspect: scoring: 3 %\n")


def test_the_command_line_tells_progress_on_stderr_and_prints_the_same_lines(tmp_path, monkeypatch, capsys):
    from ndcg_gui.cli.main import main

    run, qrels = _parquet(tmp_path, 3_000_000)
    args = [str(run), "--qrels", str(qrels), "--engine", "duckdb", "--threads", "1", "--format", "tsv"]
    assert main(args) == 0
    quiet_out, quiet_err = capsys.readouterr()
    assert "%" not in quiet_err  # a short job into a log: nothing
    monkeypatch.setattr(progress, "POLL", 0.001)
    monkeypatch.setattr(progress, "AFTER_LOG", 0.0)
    assert main(args) == 0
    out, err = capsys.readouterr()
    assert out == quiet_out
    told = [line for line in err.splitlines() if line.endswith(" %")]
    assert told and all(line.startswith("ndcg-inspect: ") for line in told), err
    assert [line for line in err.splitlines() if not line.endswith(" %")] == quiet_err.splitlines()


def test_step_fraction_goes_through_the_steps_never_back_and_never_to_one():
    from ndcg_gui.core.sql.progress import StepFraction

    fraction = StepFraction(4)
    assert fraction("reading run", 50.0) == 0.125
    assert fraction("reading run", 10.0) == 0.125  # (a statement's percentage going back)
    assert fraction("checking run", 0.0) == 0.25
    assert fraction("reading run", 100.0) == 0.25  # (a step told again does not move on)
    assert fraction("scoring", 100.0) == 0.75
    assert fraction("finding", 100.0) == 0.99 and fraction("more than expected", 100.0) == 0.99


def test_a_step_of_several_statements_is_told_as_one_percentage_that_never_goes_back():
    from ndcg_gui.core.sql.progress import Steps

    steps = Steps()
    steps("scoring")
    steps.part(0, 4)
    assert steps.percent(50.0) == 12.5
    steps.part(1, 4)
    assert steps.percent(100.0) == 50.0  # (the last statement's 100 % read after the switch)
    assert steps.percent(0.0) == 50.0 and steps.percent(60.0) == 50.0  # (40 %: less than told)
    assert steps.percent(90.0) == 50.0  # (47.5 %: still less)
    steps.part(3, 4)
    assert steps.percent(100.0) == 100.0
    steps("finding the queries without judgments")  # another step starts at 0
    assert steps.percent(10.0) == 10.0


def test_the_scoring_step_names_each_of_its_statements(tmp_path, monkeypatch):
    """Each statement of the scoring is told as its part, in order, so its percentage goes on."""
    from ndcg_gui.core.sql import progress
    from ndcg_gui.core.sql.duckdb_engine import score_files

    run, qrels = _parquet(tmp_path, 30_000)
    parts: list[tuple[str, int, int]] = []
    real = progress.Steps.part
    monkeypatch.setattr(progress.Steps, "part", lambda self, i, n: (parts.append((self.now, i, n)),
                                                                    real(self, i, n)))
    score_files(str(run), str(qrels), Measure(k=10), progress=lambda step, percent: True)
    count = parts[0][2]
    assert count > 5 and parts == [("scoring", i, count) for i in range(count)]
