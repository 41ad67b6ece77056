"""The fuzz suite: every input format's grammar and its mutations, through `ndcg-inspect`.

Invariants (issue 20):
- a valid file exits 0 with each query's NDCG@k equal to pytrec_eval's (trec_eval's C code), by
  both of the command's ways (a TREC run scored from its rows, or through a loaded dataset), and
  the same figures from the file's JSON Lines, Parquet and gzip twins;
- any file, mutated as a hostile world would (bytes changed, cut short, quotes, NULs, huge and
  non-finite numbers, nesting, long lines), exits 0 or 2, and 2 with exactly one stderr line naming
  the file at fault: never another status, a traceback, an internal error or a RuntimeWarning;
- a text file that loads is written back in its own format byte for byte;
- a few runs as a real process: no signal, status 0 or 2 (`test_as_a_process`);
- hostile file names (glob characters, line breaks, control characters, ESC, very long) at every
  output and at a run's input: each output written at exactly its name or the command refused in
  one line, JUnit XML that parses, no raw control character on stdout or stderr, every input as
  it was (`test_hostile_names_at_every_output`).

Budget: max_examples below; an example may take up to a minute (pytrec_eval forks, a loaded CI
machine): a slower one is a defect (a quadratic step on a megabyte line) and fails by name, where a
whole-test timeout would be swallowed by hypothesis' replay.
A long run multiplies every budget: `NDCG_FUZZ_LONG=1` (x50) or `NDCG_FUZZ_LONG=N` (xN), e.g.

    NDCG_FUZZ_LONG=1 .venv/bin/python -m pytest tests/core/test_fuzz_inputs.py --hypothesis-seed=20

Long runs done (command, seed, result) are listed in benchmarks/README.md ("Fuzz runs"): seed 101
at x10 found a quoted cell over 128 KiB taken for an internal error (fixed); seed 2020 at x50
(44 min) found nothing new.
"""

from __future__ import annotations

import contextlib
import gzip
import io
import json
import math
import os
import re
import subprocess
import sys
import tempfile
import threading
import warnings
import xml.etree.ElementTree as ET
from datetime import timedelta
from pathlib import Path

from fuzz_files import (
    NAME_MAX,
    Lists,
    budget,
    csv_table,
    graded_only,
    gzipped,
    hostile_names,
    json_lines,
    lists,
    mutated,
    parquet,
    trec_qrels,
    trec_run,
)
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from pytrec_child import evaluate as pytrec_evaluate

import ndcg_gui.cli.main as cli
from ndcg_gui.core.reading import load
from ndcg_gui.core.writing.writers import write_csv, write_qrels, write_trec_run

K = st.integers(1, 15)


def fuzz(examples: int) -> settings:
    """The suite's settings: `examples` (times NDCG_FUZZ_LONG), a minute's deadline an example."""
    return settings(max_examples=budget(examples), deadline=timedelta(seconds=60),
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def run_cli(*args: str | Path, direct: bool = True) -> tuple[int, str, str]:
    """`ndcg-inspect ARGS` in this process: (status, stdout, stderr). A warning of any kind that
    would reach stderr fails the test."""
    out, err = io.StringIO(), io.StringIO()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = cli.main([str(a) for a in args], direct=direct)
    return code, out.getvalue(), err.getvalue()


def scored(stdout: str) -> dict[str, float | None]:
    """Each query's NDCG from `--format json` (which must be valid JSON: no NaN, no Infinity)."""
    data = json.loads(stdout, parse_constant=lambda c: (_ for _ in ()).throw(AssertionError(c)))
    return {row["query"]: row["ndcg"] for row in data["queries"]}


def assert_same_as_pytrec_eval(ours: dict[str, float | None], data: Lists, k: int) -> None:
    theirs = pytrec_evaluate(data.qrels, {f"ndcg_cut.{k}"}, data.run)
    assert theirs, "pytrec_eval scored no query: the case tests nothing"
    for query, values in theirs.items():
        assert query in ours, (query, sorted(ours))
        assert math.isclose(ours[query], values[f"ndcg_cut_{k}"], rel_tol=1e-9, abs_tol=1e-12), query


def assert_refused_or_scored(code: int, stdout: str, stderr: str, names: list[str]) -> None:
    """Exit 0 with valid JSON, or 2 with one line naming one of the files; nothing else."""
    assert code in (0, 2), (code, stderr)
    assert "Traceback" not in stderr and "internal error" not in stderr and "Warning" not in stderr, stderr
    lines = stderr.splitlines()
    if code == 2:
        assert len(lines) == 1 and stderr.endswith("\n"), stderr
        assert any(lines[0].startswith(f"ndcg-inspect: {name}") for name in names), (lines[0], names)
        assert lines[0].isprintable(), lines[0]
    else:
        assert all(line.startswith("ndcg-inspect: note: ") for line in lines), stderr
        scored(stdout)


def assert_round_trip(path: Path, folder: Path) -> None:
    """A text file that loads (alone) is written back in its own format, byte for byte."""
    try:
        dataset = load(path, need_grades=False)
    except Exception:  # (refused: the command line checked how)
        return
    fmt = dataset.file_format
    if fmt is None or (fmt.kind == "csv" and "grade" not in fmt.columns):
        return  # Parquet, Feather, JSON Lines: not written back; a table without grades gets a column
    out = folder / "written"
    {"csv": write_csv, "trec_run": write_trec_run, "qrels": write_qrels}[fmt.kind](dataset, out)
    expected = path.read_bytes()
    if fmt.compression == "gzip":
        expected = gzip.decompress(expected)
    assert out.read_bytes() == expected, (fmt.kind, expected[:300])


# ---- valid files: pytrec_eval's figures ---------------------------------------------------------------
@fuzz(60)
@given(data=lists(), k=K, st_data=st.data(), direct=st.booleans())
def test_a_trec_run_and_qrels_score_as_pytrec_eval(data, k, st_data, direct):
    with tempfile.TemporaryDirectory() as tmp:
        run, qrels = Path(tmp) / "run.txt", Path(tmp) / "qrels.txt"
        run.write_bytes(st_data.draw(trec_run(data)))
        qrels.write_bytes(st_data.draw(trec_qrels(data)))
        code, out, err = run_cli(run, "--qrels", qrels, "-k", str(k), "--format", "json", direct=direct)
        assert code == 0, err
        assert_same_as_pytrec_eval(scored(out), data, k)
        assert_round_trip(run, Path(tmp))
        assert_round_trip(qrels, Path(tmp))
        zipped = Path(tmp) / "run.gz"
        zipped.write_bytes(gzipped(run.read_bytes()))
        assert run_cli(zipped, "--qrels", qrels, "-k", str(k), "--format", "json")[1] == out


@fuzz(40)
@given(data=lists(), k=K, st_data=st.data())
def test_a_csv_run_with_trec_qrels_scores_as_pytrec_eval(data, k, st_data):
    with tempfile.TemporaryDirectory() as tmp:
        run, qrels = Path(tmp) / "run.csv", Path(tmp) / "qrels.txt"
        run.write_bytes(st_data.draw(csv_table(data, graded=False)))
        qrels.write_bytes(st_data.draw(trec_qrels(data)))
        code, out, err = run_cli(run, "--qrels", qrels, "-k", str(k), "--format", "json")
        assert code == 0, err
        assert_same_as_pytrec_eval(scored(out), data, k)
        assert_round_trip(run, Path(tmp))
        assert_round_trip(qrels, Path(tmp))


@fuzz(40)
@given(data=lists(), k=K, st_data=st.data())
def test_a_graded_table_and_its_twins_score_as_pytrec_eval(data, k, st_data):
    """A CSV with its own grades, and the same rows as JSON Lines, Parquet and gzip."""
    graded = graded_only(data)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        table = folder / "list.csv"
        table.write_bytes(st_data.draw(csv_table(data, graded=True)))
        code, out, err = run_cli(table, "-k", str(k), "--format", "json")
        if not graded.qrels:
            assert code == 0, err
            return
        assert code == 0, err
        assert_same_as_pytrec_eval(scored(out), graded, k)
        assert_round_trip(table, folder)
        twins = {"list.jsonl": json_lines(data), "list.parquet": parquet(data),
                 "list.csv.gz": gzipped(table.read_bytes())}
        for name, content in twins.items():
            (folder / name).write_bytes(content)
            code, twin_out, err = run_cli(folder / name, "-k", str(k), "--format", "json")
            assert (code, scored(twin_out)) == (0, scored(out)), (name, err)


@fuzz(25)
@given(data=lists(), k=K, st_data=st.data())
def test_qrels_alone_score_their_file_order_as_pytrec_eval(data, k, st_data):
    with tempfile.TemporaryDirectory() as tmp:
        qrels = Path(tmp) / "qrels.txt"
        qrels.write_bytes(st_data.draw(trec_qrels(data)))
        code, out, err = run_cli(qrels, "-k", str(k), "--format", "json")
        assert code == 0, err
        in_order = {q: {d: float(len(docs) - i) for i, d in enumerate(docs)}
                    for q, docs in data.qrels.items()}
        assert_same_as_pytrec_eval(scored(out), Lists(in_order, data.qrels), k)
        assert_round_trip(qrels, Path(tmp))


# ---- mutations: status 0 or 2, one line naming the file -----------------------------------------------
FORMATS = ["trec run", "trec qrels", "csv", "graded csv", "jsonl", "parquet", "gzip run"]


@st.composite
def valid_pair(draw) -> tuple[str, bytes, bytes]:
    """(format, file bytes, qrels bytes) of one valid case."""
    data = draw(lists())
    form = draw(st.sampled_from(FORMATS))
    qrels = draw(trec_qrels(data))
    content = {
        "trec run": lambda: draw(trec_run(data)), "trec qrels": lambda: qrels,
        "csv": lambda: draw(csv_table(data, graded=False)), "graded csv": lambda: draw(csv_table(data, True)),
        "jsonl": lambda: json_lines(data), "parquet": lambda: parquet(data),
        "gzip run": lambda: gzipped(draw(trec_run(data))),
    }[form]()
    return form, content, qrels


@fuzz(400)
@given(case=valid_pair(), st_data=st.data(), which=st.sampled_from(["file", "qrels", "both", "alone"]),
       direct=st.booleans())
def test_a_mutated_file_is_scored_or_refused_in_one_line(case, st_data, which, direct):
    _form, content, qrels_bytes = case
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        path, qrels = folder / "input.dat", folder / "judgments.txt"
        path.write_bytes(st_data.draw(mutated(content)) if which in ("file", "both", "alone") else content)
        qrels.write_bytes(st_data.draw(mutated(qrels_bytes)) if which in ("qrels", "both") else qrels_bytes)
        args = [path, "--format", "json", "-k", "5"] + ([] if which == "alone" else ["--qrels", qrels])
        code, out, err = run_cli(*args, direct=direct)
        assert_refused_or_scored(code, out, err, [path.name, qrels.name])
        assert_round_trip(path, folder)
        assert_round_trip(qrels, folder)


def piped(data: bytes) -> str:
    """A path that reads `data` from a pipe, as `<(cat file)` gives (a thread writes it)."""
    read, write = os.pipe()

    def feed() -> None:
        with os.fdopen(write, "wb") as f, contextlib.suppress(BrokenPipeError):
            f.write(data)

    threading.Thread(target=feed, daemon=True).start()
    return f"/dev/fd/{read}"


@fuzz(40)
@given(case=valid_pair(), st_data=st.data(), mutate=st.booleans())
def test_a_file_through_a_pipe_gives_what_the_file_gives(case, st_data, mutate):
    """Inputs are read once: the bytes that recognise the format are the reader's too."""
    _form, content, qrels_bytes = case
    content = st_data.draw(mutated(content)) if mutate else content
    with tempfile.TemporaryDirectory() as tmp:
        path, qrels = Path(tmp) / "input.dat", Path(tmp) / "judgments.txt"
        path.write_bytes(content)
        qrels.write_bytes(qrels_bytes)
        code, out, err = run_cli(path, "--qrels", qrels, "--format", "json")
        pipe = piped(content)
        try:
            got = run_cli(pipe, "--qrels", qrels, "--format", "json")
        finally:
            os.close(int(pipe.rsplit("/", 1)[1]))
        assert got == (code, out, err.replace("input.dat", pipe))


@fuzz(6)
@given(case=valid_pair(), st_data=st.data())
def test_as_a_process_no_signal_and_status_0_or_2(case, st_data):
    """The same through a real `ndcg-inspect` process: a crash in C code (a segfault) shows here."""
    _form, content, qrels_bytes = case
    with tempfile.TemporaryDirectory() as tmp:
        path, qrels = Path(tmp) / "input.dat", Path(tmp) / "judgments.txt"
        path.write_bytes(st_data.draw(mutated(content)))
        qrels.write_bytes(qrels_bytes)
        result = subprocess.run([sys.executable, "-c", "from ndcg_gui.cli.main import run; run()", str(path),
                                 "--qrels", str(qrels), "--format", "json"],
                                capture_output=True, text=True, timeout=120)
        assert_refused_or_scored(result.returncode, result.stdout, result.stderr, [path.name, qrels.name])


# ---- hostile file names at every output (issue 33) ----------------------------------------------------
RAW_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")  # (a line break aside)


def assert_one_line_or_written(code: int, out: str, err: str, outputs: list[Path]) -> None:
    """Status 0 with every output at its exact name, or 2 with one line (a name too long, an
    output over an input); a terminal gets escapes, never a raw control character."""
    for text in (out, err):
        text.encode("utf-8")
        assert not RAW_CONTROL.search(text), text
    assert "internal error" not in err and "Traceback" not in err, err
    too_long = any(len(os.fsencode(p.name)) > NAME_MAX for p in outputs)
    if code == 2:
        assert err.count("\n") == 1, err
        assert not too_long or "too long" in err, err
        return
    assert code == 0 and not too_long, (code, err)
    for path in outputs:
        assert path.is_file(), path


@settings(fuzz(25), phases=[Phase.explicit, Phase.reuse, Phase.generate])  # (shrinking long names took
# minutes: a failure is shown as drawn)
@given(case=valid_pair(), names=st.lists(hostile_names(), min_size=5, max_size=5, unique=True),
       run_name=hostile_names(fits=True))
def test_hostile_names_at_every_output(case, names, run_name):
    _form, content, qrels_bytes = case
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        path, qrels, other = folder / "input.dat", folder / "judgments.txt", folder / run_name
        path.write_bytes(content)
        qrels.write_bytes(qrels_bytes)
        if other.exists() or run_name in names:  # (a name another file takes)
            return
        other.write_bytes(content)
        inputs = {p: p.read_bytes() for p in (path, qrels, other)}
        summary, metrics, junit, report, table = (folder / n for n in names)
        code, out, err = run_cli(path, "--qrels", qrels, "--summary-csv", summary, "--metrics-csv", metrics)
        assert_one_line_or_written(code, out, err, [summary, metrics])
        # The same file as a second run, under a hostile name: the gate passes, the report and the
        # table are written (read by the in-memory reader: a name is that file, not a pattern).
        code, out, err = run_cli(path, other, "--qrels", qrels, "--engine", "memory", "--fail-if-worse",
                                 "--junit-xml", junit, "--report", report, "--table", "md",
                                 "--table-out", table)
        assert_one_line_or_written(code, out, err, [junit, report, table])
        if code == 0:
            ET.parse(junit)
            written = report.read_text(encoding="utf-8") + table.read_text(encoding="utf-8")
            assert not RAW_CONTROL.search(written), written
        assert {p: p.read_bytes() for p in inputs} == inputs
        leftovers = [p.name for p in folder.iterdir() if p.name.endswith(".tmp")]
        assert not leftovers, leftovers
