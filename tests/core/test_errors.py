"""One-line messages (`core.errors`): whatever a file's name or a value holds, a message is one
line a terminal prints as text."""

from __future__ import annotations

from pathlib import Path

import pytest

from ndcg_gui.core.errors import InputError
from ndcg_gui.core.reading import load


@pytest.mark.parametrize(("name", "shown"), [
    ("two\nlines.csv", "two\\nlines.csv"),
    ("red\x1b[31m.csv", "red\\x1b[31m.csv"),
    ("bell\a\r.csv", "bell\\x07\\r.csv"),
])
def test_a_file_name_with_control_characters_is_escaped(tmp_path, name, shown):
    path = tmp_path / name
    path.write_text("doc,grade\na,high\n")
    with pytest.raises(InputError) as caught:
        load(path)
    assert str(caught.value).startswith(f'{shown}:2: grade "high" is not a number')


def test_a_pipe_is_named_by_its_path():
    assert str(InputError("the file is empty", Path("/dev/fd/63"))) == "/dev/fd/63: the file is empty"
    assert str(InputError("the file is empty", Path("/dev/stdin"))) == "/dev/stdin: the file is empty"
    assert str(InputError("x", Path("/tmp/run.txt"), 3)) == "run.txt:3: x"
