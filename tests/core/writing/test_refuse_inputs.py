"""No output replaces an input (`core.writing.atomic.refuse_inputs`): the file itself is compared
(device and inode), so a symbolic link, a hard link or stdout redirected onto an input are refused
as the input's own name is; a folder or a pattern read whole protects what it holds."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from ndcg_gui.core.errors import InputError
from ndcg_gui.core.writing.atomic import refuse_inputs


@pytest.fixture
def run(tmp_path) -> Path:
    path = tmp_path / "base.run"
    path.write_text("1 Q0 d1 1 1.0 x\n")
    return path


def _refused(out, inputs, what="") -> str:
    with pytest.raises(InputError) as caught:
        refuse_inputs(out, inputs, what)
    return str(caught.value)


def test_the_input_itself_by_any_name(run, tmp_path):
    os.symlink(run, tmp_path / "link.html")
    os.link(run, tmp_path / "hard.xml")
    (tmp_path / "sub").mkdir()
    for out in (run, tmp_path / "link.html", tmp_path / "hard.xml", tmp_path / "sub" / ".." / "base.run"):
        message = _refused(str(out), [None, run], "--report")
        assert "--report is base.run, an input too" in message and message.count("\n") == 0


def test_an_input_given_as_a_link_is_its_target(run, tmp_path):
    os.symlink(run, tmp_path / "via.run")
    assert "is via.run, an input too" in _refused(run, [tmp_path / "via.run"])


def test_stdout_appended_to_an_input(run):
    with open(run, "ab") as f:  # (descriptor 1 is the test runner's: another one stands for it)
        fd, message = f.fileno(), _refused(f.fileno(), [run])
    assert message.startswith(f"/dev/fd/{fd}: is base.run, an input too; writing there would change it")


def test_what_a_pattern_or_a_folder_reads(run, tmp_path):
    assert "matched by *.run" in _refused(run, [str(tmp_path / "*.run")])
    assert "lies in" in _refused(tmp_path / "new.csv", [tmp_path])  # a new part of a hive folder


@pytest.mark.parametrize("out", ["new.html", "-", None])
def test_other_outputs_pass(run, tmp_path, out):
    refuse_inputs(str(tmp_path / out) if out not in ("-", None) else out, [run, tmp_path / "missing.qrels"])


def test_a_fifo_or_device_is_written_into_not_replaced(run, tmp_path):
    os.mkfifo(tmp_path / "fifo")
    refuse_inputs(tmp_path / "fifo", [tmp_path / "fifo"])
    refuse_inputs("/dev/null", ["/dev/null", run])
