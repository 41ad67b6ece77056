"""Every output of `ndcg-inspect` (--summary-csv, --metrics-csv, --report, --table-out, --junit-xml,
stdout) is refused, before any work, when it would replace an input, by its own name or through a
symbolic or hard link (issue 33, finding 1): status 2, one line, every input as it was. The
inputs a report or the gate names are named by the sha256 of the bytes read, a pipe's included,
and a stream that never ends is refused as a read refuses it (findings 5 and 8)."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import subprocess
import sys
import threading
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from ndcg_gui.cli.main import main
from ndcg_gui.core.formats.source import FIFO_WAIT
from tests.test_cli_gate import runs  # noqa: F401 (the fixture: runs built from one qrels)

ROOT = Path(__file__).resolve().parents[1]
COMPARED = ["@base.run", "@worse.run", "--qrels", "@qrels"]
ONE = ["@base.run", "--qrels", "@qrels"]
# (the command without its output, the output option, and which input it is aimed at)
CASES = [
    (ONE, ["--summary-csv"], "qrels"),
    (ONE, ["--metrics-csv"], "base.run"),
    (ONE, ["--report"], "base.run"),
    (COMPARED, ["--report"], "worse.run"),
    (COMPARED, ["--table", "md", "--table-out"], "qrels"),
    (COMPARED, ["--fail-if-worse", "--junit-xml"], "worse.run"),
]


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file() and not p.is_symlink()}


@pytest.mark.parametrize("how", ["itself", "symbolic link", "hard link"])
@pytest.mark.parametrize(("args", "option", "victim"), CASES)
def test_no_output_replaces_an_input(runs, capsys, tmp_path, args, option, victim, how):  # noqa: F811
    target = Path(runs(victim))
    out = {"itself": target, "symbolic link": tmp_path / "link.out", "hard link": tmp_path / "hard.out"}[how]
    if how == "symbolic link":
        out.symlink_to(target)
    elif how == "hard link":
        os.link(target, out)
    before = _snapshot(target.parent)
    argv = [runs(a[1:]) if a.startswith("@") else a for a in args]
    assert main([*argv, *option, str(out)]) == 2
    stdout, err = capsys.readouterr()
    assert stdout == "" and err.count("\n") == 1, err
    assert f"{option[-1]} is {victim}, an input too" in err, err
    assert _snapshot(target.parent) == before


def test_stdout_appended_to_an_input_is_refused(runs):  # noqa: F811
    qrels = Path(runs("qrels"))
    before = qrels.read_bytes()
    with open(qrels, "ab") as appended:  # `ndcg-inspect base.run --qrels qrels >> qrels`
        argv = [sys.executable, "-m", "ndcg_gui.cli", runs("base.run"), "--qrels", str(qrels)]
        result = subprocess.run(argv, stdout=appended, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    assert result.returncode == 2
    assert result.stderr == ("ndcg-inspect: stdout: is qrels, an input too; writing there would change it "
                             "(choose another name)\n")
    assert qrels.read_bytes() == before


def test_two_outputs_in_one_file_are_refused(runs, capsys, tmp_path):  # noqa: F811
    out = tmp_path / "both.out"
    argv = [runs(a[1:]) if a.startswith("@") else a for a in COMPARED]
    again = tmp_path / "." / "both.out"
    assert main([*argv, "--report", str(out), "--table", "md", "--table-out", str(again)]) == 2
    assert "--report and --table-out name one file" in capsys.readouterr().err
    assert not out.exists()


# ---- the sha256 of what was read (findings 5 and 8) -------------------------------------------------
def piped(data: bytes) -> str:
    """A path that reads `data` from a pipe, as `<(cat file)` gives (a thread writes it)."""
    read, write = os.pipe()

    def feed() -> None:
        with os.fdopen(write, "wb") as f, contextlib.suppress(BrokenPipeError):
            f.write(data)

    threading.Thread(target=feed, daemon=True).start()
    return f"/dev/fd/{read}"


def _sha(path: str) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def test_the_gate_names_a_pipe_by_the_bytes_that_came_through_it(runs, capsys, tmp_path):  # noqa: F811
    pipe = piped(Path(runs("worse.run")).read_bytes())
    xml = tmp_path / "gate.xml"
    try:
        code = main([runs("base.run"), pipe, "--qrels", runs("qrels"), "--fail-if-worse", "--format", "json",
                     "--junit-xml", str(xml)])
    finally:
        os.close(int(pipe.rsplit("/", 1)[1]))
    assert code == 1
    inputs = json.loads(capsys.readouterr().out)["inputs"]
    assert inputs == {"base.run": _sha(runs("base.run")), pipe: _sha(runs("worse.run")),
                      "qrels": _sha(runs("qrels"))}
    properties = {p.get("name"): p.get("value") for p in ET.parse(xml).iter("property")}
    assert properties[f"sha256 {pipe}"] == _sha(runs("worse.run"))


@pytest.mark.parametrize("piped_input", ["qrels", "run"])
def test_a_report_reads_a_pipe_once_and_names_it(runs, capsys, tmp_path, piped_input):  # noqa: F811
    out = tmp_path / "r.html"
    pipe = piped(Path(runs("qrels" if piped_input == "qrels" else "base.run")).read_bytes())
    run, qrels = (runs("base.run"), pipe) if piped_input == "qrels" else (pipe, runs("qrels"))
    try:
        assert main([run, "--qrels", qrels, "--report", str(out)]) == 0, capsys.readouterr().err
    finally:
        os.close(int(pipe.rsplit("/", 1)[1]))
    html = out.read_text(encoding="utf-8")
    assert _sha(runs("qrels")) in html and _sha(runs("base.run")) in html
    assert hashlib.sha256(b"").hexdigest() not in html


@pytest.mark.parametrize("qrels", ["fifo", "/dev/zero"])
def test_a_report_on_a_stream_that_never_ends_is_refused_as_a_read_is(runs, tmp_path, qrels):  # noqa: F811
    """A FIFO nobody writes to, /dev/zero: refused by the reader's own bounds (`FIFO_WAIT`, binary
    bytes), where the hash pass waited or read for ever."""
    if qrels == "fifo":
        os.mkfifo(tmp_path / "fifo")
        qrels = str(tmp_path / "fifo")
    argv = [sys.executable, "-m", "ndcg_gui.cli", runs("base.run"), "--qrels", qrels, "--report",
            str(tmp_path / "r.html")]
    # (the limit is only there so that a hang fails the test: the FIFO's refusal takes FIFO_WAIT)
    result = subprocess.run(argv, capture_output=True, text=True, cwd=ROOT, timeout=FIFO_WAIT + 120)
    assert result.returncode == 2 and result.stderr.count("\n") == 1, result.stderr
    assert ("no program wrote to" if qrels.endswith("fifo") else "is a binary file") in result.stderr
    assert not (tmp_path / "r.html").exists()


# ---- names from outside, escaped where they are written (finding 7) -------------------------------------
HOSTILE_RUNS = ["c\x01\x0bctl.run", "esc\x1b[31mred.run", "new\nline.run", os.fsdecode(b"bad\xff.run"),
                "c1\u009b2J.run"]
RAW_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")  # (a line break aside)


@pytest.fixture
def hostile_runs(runs, tmp_path):  # noqa: F811
    """The worse run under every hostile name, beside the base run and the qrels."""
    text = Path(runs("worse.run")).read_bytes()
    for name in HOSTILE_RUNS:
        (tmp_path / name).write_bytes(text)
    return [runs("base.run"), *(str(tmp_path / n) for n in HOSTILE_RUNS), "--qrels", runs("qrels"),
            "--engine", "memory"]  # (a name with "[" read as that file, not as a pattern)


@pytest.mark.parametrize("mode", [[], ["-q"], ["--format", "csv"], ["--format", "json"], ["--fail-if-worse"],
                                  ["--fail-if-worse", "--format", "json"], ["--table", "md"],
                                  ["--table", "latex"]])
def test_hostile_run_names_never_reach_a_terminal_raw(hostile_runs, capsys, mode):
    """ESC sequences, line breaks, control characters and undecodable bytes of file names: on
    stdout and stderr as escapes, each run on its own line (issue 33, finding 7)."""
    code = main([*hostile_runs, *mode])
    out, err = capsys.readouterr()
    assert code == (1 if "--fail-if-worse" in mode else 0) and "internal error" not in err, err
    for text in (out, err):
        text.encode("utf-8")  # (a lone surrogate cannot be written: it was an internal error)
        assert not RAW_CONTROL.search(text), text
    if "json" in mode:
        json.loads(out)
    elif mode in ([], ["--table", "md"]):
        rows = [line for line in out.splitlines() if "0.5296" in line]
        assert len(rows) == len(HOSTILE_RUNS), out  # (a line break in a name split a row)


def test_hostile_run_names_in_junit_xml_and_a_report(hostile_runs, capsys, tmp_path):
    xml, html = tmp_path / "gate.xml", tmp_path / "c.html"
    assert main([*hostile_runs, "--fail-if-worse", "--junit-xml", str(xml)]) == 1, capsys.readouterr().err
    root = ET.parse(xml).getroot()  # (raises on a character XML 1.0 does not take)
    assert r"c\x01\x0bctl not worse than base" in [case.get("name") for case in root.iter("testcase")]
    assert main([*hostile_runs, "--report", str(html)]) == 0
    page = html.read_text(encoding="utf-8")
    assert not RAW_CONTROL.search(page) and r"esc\x1b[31mred" in page


@pytest.mark.parametrize("compared", [False, True])
def test_a_query_id_with_an_escape_sequence_is_printed_as_escapes(tmp_path, capsys, compared):
    """The text tables show ids from files as a terminal should: escaped (the run alone, and the
    runs compared query by query)."""
    run, qrels = tmp_path / "run.txt", tmp_path / "qrels.txt"
    run.write_text("q\x1b[2J 0 d1 1 2.0 x\nq\x1b[2J 0 d2 2 1.0 x\n")
    qrels.write_text("q\x1b[2J 0 d1 1\nq\x1b[2J 0 d2 2\n")
    assert main([str(run), *([str(run), "-q"] if compared else []), "--qrels", str(qrels)]) == 0
    out, err = capsys.readouterr()
    assert not RAW_CONTROL.search(out + err) and r"q\x1b[2J" in out, out
