"""Every output of `ndcg-inspect` (--summary-csv, --metrics-csv, --report, --table-out, --junit-xml,
stdout) is refused, before any work, when it would replace an input, by its own name or through a
symbolic or hard link (issue 33, finding 1): status 2, one line, every input as it was."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from ndcg_gui.cli import main
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
