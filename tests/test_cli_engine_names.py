"""`ndcg-inspect` on a file whose name holds `[`, `*` or `?` (issue 33, finding 2): the file of
that name is scored by every engine, as the in-memory path scores it, and what the name was
taken for is said on stderr (one line) when it could be either."""

from __future__ import annotations

from pathlib import Path

import pytest

from ndcg_gui.cli.main import main

pytest.importorskip("duckdb")

EXAMPLES = Path(__file__).resolve().parents[1] / "resources" / "examples"


def output(capsys, *args) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("name", ["run[1].txt", "run?.txt", "run*.txt"])
@pytest.mark.parametrize("engine", ["auto", "duckdb", "memory"])
def test_a_file_named_like_a_pattern_is_that_file(capsys, tmp_path, name, engine):
    lines = EXAMPLES.joinpath("sample.run").read_text().splitlines(keepends=True)
    (tmp_path / name).write_text("".join(lines[:300]))
    (tmp_path / "run1.txt").write_text("".join(lines[300:]))  # what the name matches as a glob
    (tmp_path / "plain.run").write_text("".join(lines[:300]))
    qrels = EXAMPLES / "sample.qrels"
    want = output(capsys, tmp_path / "plain.run", "--qrels", qrels, "--engine", "memory", "-q")
    got = output(capsys, tmp_path / name, "--qrels", qrels, "--engine", engine, "-q")
    note = (f"ndcg-inspect: note: {name} is the file of that name, not a pattern (which would match 1 "
            "other file)\n")
    assert got == (0, want[1], note + want[2])


def test_a_pattern_no_file_is_named_is_a_pattern_and_says_so(capsys, tmp_path):
    lines = EXAMPLES.joinpath("sample.run").read_text().splitlines(keepends=True)
    (tmp_path / "run1.txt").write_text("".join(lines))
    qrels = EXAMPLES / "sample.qrels"
    want = output(capsys, tmp_path / "run1.txt", "--qrels", qrels, "--engine", "memory", "-q")
    got = output(capsys, tmp_path / "run[1].txt", "--qrels", qrels, "--engine", "duckdb", "-q")
    assert got == (0, want[1], "ndcg-inspect: note: run[1].txt is a pattern (no file has that name): 1 file\n"
                   + want[2])
