"""Saving from the window (qt/window/file_flow.py): a file another program changed since it was
opened is not overwritten unasked; odd paths are one message, never an unexpected error."""

from __future__ import annotations

import os

import pytest

from ndcg_gui.qt.widgets import dialogs

CSV = "doc,grade\na,3\nb,1\nc,0\n"


@pytest.fixture
def opened(window, tmp_path):
    path = tmp_path / "list.csv"
    path.write_text(CSV)
    assert window.files.open(path, ask=False)
    window.document.reverse()
    return path


@pytest.mark.parametrize("overwrite", [False, True])
def test_a_file_changed_on_disk_is_not_overwritten_unasked(window, opened, dialog_log, monkeypatch,
                                                           overwrite):
    asked = []
    monkeypatch.setattr(dialogs, "ask_overwrite_changed",
                        lambda _parent, path: asked.append(path.name) or overwrite)
    theirs = "doc,grade\nz,2\n"
    opened.write_text(theirs)  # another program (an editor, a script) saved it meanwhile
    assert window.files.save_to(opened) is overwrite
    assert asked == ["list.csv"]
    if overwrite:
        assert opened.read_text().splitlines()[1:] == ["c,0", "b,1", "a,3"]
        assert window.document.is_clean()
    else:
        assert opened.read_text() == theirs and not window.document.is_clean()


def test_a_file_replaced_by_another_program_counts_as_changed(window, opened, monkeypatch):
    asked = []
    monkeypatch.setattr(dialogs, "ask_overwrite_changed",
                        lambda _parent, path: asked.append(path.name) or False)
    other = opened.with_name("other.csv")
    other.write_text(CSV)  # same bytes, another file renamed over it (as editors save)
    os.replace(other, opened)
    assert not window.files.save_to(opened)
    assert asked == ["list.csv"]


def test_saving_again_after_a_save_asks_nothing(window, opened, monkeypatch):
    asked = []
    monkeypatch.setattr(dialogs, "ask_overwrite_changed",
                        lambda _parent, path: asked.append(path.name) or False)
    assert window.files.save_to(opened)
    window.document.reverse()
    assert window.files.save_to(opened)
    assert asked == [] and opened.read_text() == CSV


def test_save_to_a_symbolic_link_loop_is_one_message(window, opened, tmp_path, dialog_log):
    (tmp_path / "a.csv").symlink_to("b.csv")
    (tmp_path / "b.csv").symlink_to("a.csv")
    assert not window.files.save_to(tmp_path / "a.csv")
    title, message = dialog_log[-1]
    assert title == "Could not save" and message.startswith("a.csv: is a symbolic link that loops")
    assert os.readlink(tmp_path / "a.csv") == "b.csv"


def test_save_to_a_name_too_long_is_one_message(window, opened, tmp_path, dialog_log):
    assert not window.files.save_to(tmp_path / ("x" * 300 + ".csv"))
    title, message = dialog_log[-1]
    assert title == "Could not save" and "name is too long" in message and "\n" not in message


@pytest.mark.parametrize("name", ["loop.csv", "x" * 300 + ".csv"])
def test_opening_an_odd_path_is_one_message(window, tmp_path, dialog_log, name):
    (tmp_path / "loop.csv").symlink_to("loop2.csv")
    (tmp_path / "loop2.csv").symlink_to("loop.csv")
    assert not window.files.open(tmp_path / name, ask=False)
    title, message = dialog_log[-1]
    assert title == "Could not open the file" and "\n" not in message
    assert ("loops" in message) if name == "loop.csv" else ("name is too long" in message)


def test_save_as_never_replaces_the_qrels_or_a_run_compared(window, files, tmp_path, dialog_log, monkeypatch):
    """Save rewrites the document's own file; Save As over its qrels or a run compared, by name or
    through a link, is refused with one message (issue 33, finding 1)."""
    monkeypatch.setattr(dialogs, "ask_rescore", lambda *_args, **_kw: "scores")
    assert window.files.open(files[0], files[1], ask=False)
    window.compare.add_run(files[2])
    window.compare.flush()
    window.document.move_to(3, 1)
    link = tmp_path / "saved.run"
    link.symlink_to(files[1])
    before = [f.read_bytes() for f in files]
    for out in (files[1], files[2], link):
        assert not window.files.save_to(out, ".run")
        assert dialog_log[-1][0] == "Could not save" and "an input too" in dialog_log[-1][1], dialog_log
    assert [f.read_bytes() for f in files] == before
    assert window.files.save_to(files[0], ".run")  # its own file: saved
    assert files[0].read_bytes() != before[0] and files[2].read_bytes() == before[2]
