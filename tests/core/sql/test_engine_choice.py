"""`core.sql.inputs`: the files of an input (a file, a glob, a hive folder), the in-memory path's
peak estimated from their bytes, and the choice it makes against the machine's memory."""

from __future__ import annotations

import pytest

from ndcg_gui.core.sql import inputs
from ndcg_gui.core.sql.inputs import Estimate, engine_only, estimate, files_of, too_big_for_memory


def test_the_files_of_a_file_a_glob_and_a_hive_folder(tmp_path):
    (tmp_path / "by-query" / "query=2").mkdir(parents=True)
    (tmp_path / "by-query" / "query=1").mkdir()
    for part in ("query=2/b.parquet", "query=1/a.parquet", "query=1/notes.txt"):
        (tmp_path / "by-query" / part).write_bytes(b"x" * 10)
    (tmp_path / "part-1.run").write_text("1 Q0 a 1 1 t\n")
    (tmp_path / "part-0.run").write_text("1 Q0 b 1 1 t\n")
    assert files_of(str(tmp_path / "by-query")) == [str(tmp_path / "by-query/query=1/a.parquet"),
                                                     str(tmp_path / "by-query/query=2/b.parquet")]
    parts = [str(tmp_path / "part-0.run"), str(tmp_path / "part-1.run")]
    assert files_of(str(tmp_path / "part-*.run")) == parts
    assert files_of(str(tmp_path / "part-0.run")) == [str(tmp_path / "part-0.run")]
    assert engine_only(str(tmp_path / "by-query")) and engine_only(str(tmp_path / "part-*.run"))
    assert not engine_only(str(tmp_path / "part-0.run")) and not engine_only(str(tmp_path / "none-*.run"))
    (tmp_path / "empty").mkdir()
    assert not engine_only(str(tmp_path / "empty"))  # a folder without Parquet: the reader says so


def test_the_peak_is_estimated_from_the_bytes_by_format(tmp_path):
    (tmp_path / "run.txt").write_bytes(b"x" * 1000)
    (tmp_path / "run.parquet").write_bytes(b"x" * 100)
    got = estimate([str(tmp_path / "run.txt"), str(tmp_path / "run.parquet")])
    per_byte = inputs.PEAK_PER_BYTE
    assert got == Estimate(1100, int(1000 * per_byte["text"]) + int(100 * per_byte["parquet"]))
    assert estimate([str(tmp_path / "absent.txt")]) is None


@pytest.mark.parametrize(("peak", "memory", "big"),
                         [(499, 1000, False), (501, 1000, True), (10**12, None, False)])
def test_too_big_is_more_than_half_the_memory(monkeypatch, peak, memory, big):
    monkeypatch.setattr(inputs, "machine_memory", lambda: memory)
    assert too_big_for_memory(Estimate(1, peak)) is big


def test_the_machine_memory_is_known_here():
    memory = inputs.machine_memory()
    assert memory is None or memory > 2**26


def test_the_choice_imports_neither_numpy_nor_pandas():
    """`--engine auto` looks at the inputs on every run: pandas stays for the in-memory path to
    import while it reads (`cli.importing_meanwhile`), not before."""
    import subprocess
    import sys

    code = ("import sys; import ndcg_gui.core.sql.inputs; "
            "print(sorted(m for m in ('numpy', 'pandas', 'duckdb') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout == "[]\n"
