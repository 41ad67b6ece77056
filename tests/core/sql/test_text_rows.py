"""`core.sql.text_rows`: TREC text parsed by pyarrow into the DuckDB job's Parquet file. The files it
reads give the rows the in-memory reader gives (in file order); the ones it does not read as they
are (comments, empty fields, runs of blanks, numbers it cannot parse, text not UTF-8) are left to
the DuckDB path. Either way `--engine duckdb` prints what the in-memory path prints, its messages
byte for byte; the job's progress and Cancel work while pyarrow reads."""

from __future__ import annotations

import bz2
import gzip
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from ndcg_gui.cli.main import main
from ndcg_gui.core.ndcg.measure import Measure
from ndcg_gui.core.sql import duckdb_engine, progress, text_rows
from ndcg_gui.core.sql.progress import Cancelled, Steps

duckdb = pytest.importorskip("duckdb")

RUN = "1 Q0 a 1 3.5 t\n1 Q0 b 2 2 t\n2 Q0 a 1 1e-3 t\n10 Q0 c 1 -4 t\n"
QRELS = "1 0 a 1\n1 0 b 0\n2 0 c 2\n10 0 c 1.5\n"

# (name, bytes) of runs pyarrow reads as they are
READ = [
    ("plain.run", RUN.encode()),
    ("crlf.run", RUN.replace("\n", "\r\n").encode()),
    ("bom.run", b"\xef\xbb\xbf" + RUN.encode()),
    ("gz.run.gz", gzip.compress(RUN.encode())),
    ("tabs.run", RUN.replace(" ", "\t").encode()),
    ("no-last-break.run", RUN.rstrip("\n").encode()),
    ("blank-lines.run", ("\n" + RUN.replace("\n", "\n\n")).encode()),
    ("not-finite.run", RUN.replace("3.5", "inf").replace("1e-3", "NaN").encode()),
    ("utf8-ids.run", RUN.replace(" a ", " \u00e9t\u00e9 ").encode()),
    ("tab-in-a-tag.run", (RUN + "3 Q0 a 1 2 t\tx\n").encode()),  # (after the number: no field moves)
    ("twice.run", (RUN + "1 Q0 a 9 0 t\n").encode()),
    ("gz-not-named.run", gzip.compress(RUN.encode())),  # (gzip by its first bytes, as in memory)
    ("gz-twice.run", gzip.compress((RUN + "1 Q0 a 9 0 t\n").encode())),
]
# (name, bytes) of runs left to the DuckDB path
LEFT = [
    ("comment.run", ("# six fields in this comment\n" + RUN).encode()),
    ("short-comment.run", (RUN + "# the end\n").encode()),
    ("double-blank.run", RUN.replace("Q0 b", "Q0  b").encode()),
    ("empty-field.run", RUN.replace(" b 2 ", "  2 ").encode()),  # 6 fields, doc empty
    ("empty-q0.run", RUN.replace("Q0 b", " b").encode()),  # 6 fields, Q0 empty
    ("indented.run", (" " + RUN).encode()),
    ("trailing-blank.run", RUN.replace(" t\n", " t \n").encode()),
    ("extra-field.run", RUN.replace(" t\n", " t x\n").encode()),
    ("short.run", (RUN + "3 Q0 a 1 2\n").encode()),
    ("tab-in-first-tag.run", RUN.replace(" t\n", " t\tx\n").encode()),  # (its separator: a tab)
    ("tab-in-doc.run", RUN.replace(" b ", " b\tx ").encode()),
    ("space-in-tab-doc.run", RUN.replace(" ", "\t").replace("\tb\t", "\tb x\t").encode()),
    ("word-score.run", RUN.replace("2 t", "high t").encode()),
    ("empty-score.run", RUN.replace(" 2 t", "  t").encode()),
]
# Left to the DuckDB path, which refuses them where the in-memory reader reads them (as before)
REFUSED = [
    ("latin1-doc.run", RUN.replace(" a ", " \u00e9t\u00e9 ").encode("latin-1")),
    ("bz2.run.bz2", bz2.compress(RUN.encode())),
    ("only-comments.run", b"# nothing\n"),
]


def _written(tmp_path: Path, name: str, data: bytes) -> tuple[bool, Path]:
    (tmp_path / name).write_bytes(data)
    target = tmp_path / "rows.parquet"
    return text_rows.write_trec([str(tmp_path / name)], "trec_run", target, Steps()), target


@pytest.mark.parametrize(("name", "data"), READ, ids=[n for n, _ in READ])
def test_what_pyarrow_reads_are_the_in_memory_readers_rows_in_file_order(tmp_path, name, data):
    read, target = _written(tmp_path, name, data)
    assert read
    rows = pq.read_table(target).to_pydict()
    got = list(zip(rows["query"], rows["doc"], map(repr, rows["score"]), strict=True))
    assert got == _lines(tmp_path / name)


def _lines(path: Path) -> list[tuple[str, str, str]]:
    """(query, doc, repr(score)) of each line, as the in-memory reader splits it."""
    data = path.read_bytes()
    text = (gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data).decode("utf-8-sig")
    return [(f[0], f[2], repr(float(f[4]))) for f in (line.split() for line in text.splitlines()) if f]


@pytest.mark.parametrize(("name", "data"), LEFT + REFUSED, ids=[n for n, _ in LEFT + REFUSED])
def test_what_pyarrow_does_not_read_as_it_is_is_left_with_no_file(tmp_path, name, data):
    try:
        read, target = _written(tmp_path, name, data)
    except text_rows.Irregular:  # (to be read line by line)
        read, target = False, tmp_path / "rows.parquet"
    assert not read and not target.exists()


def _output(capsys, *args) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(("name", "data"), READ + LEFT, ids=[n for n, _ in READ + LEFT])
def test_the_engine_prints_what_the_in_memory_path_prints(capsys, tmp_path, name, data):
    """The per-query rows, or the one line refusing the file, byte for byte."""
    (tmp_path / name).write_bytes(data)
    (tmp_path / "qrels").write_text(QRELS)
    args = [tmp_path / name, "--qrels", tmp_path / "qrels", "--format", "tsv", "-k", "2"]
    memory = _output(capsys, *args)
    assert _output(capsys, *args, "--engine", "duckdb") == memory


def test_qrels_and_several_files_of_a_glob_read_in_order(capsys, tmp_path):
    (tmp_path / "a.run").write_text(RUN)
    (tmp_path / "b.run").write_text(RUN.replace("1 Q0", "7 Q0").replace("\t", " "))
    (tmp_path / "c.run").write_bytes(gzip.compress(RUN.replace("2 Q0", "8 Q0").replace(" ", "\t").encode()))
    target = tmp_path / "rows.parquet"
    files = [str(tmp_path / n) for n in ("a.run", "b.run", "c.run")]
    assert text_rows.write_trec(files, "trec_run", target, Steps())
    want = [q for f in files for q, _, _ in _lines(Path(f))]
    assert pq.read_table(target).column("query").to_pylist() == want
    (tmp_path / "qrels").write_text(QRELS)
    assert text_rows.write_trec([str(tmp_path / "qrels")], "qrels", target, Steps())
    assert pq.read_table(target).to_pydict() == {"query": ["1", "1", "2", "10"], "doc": ["a", "b", "c", "c"],
                                                 "grade": [1.0, 0.0, 2.0, 1.5]}
    # A pair twice across the files of a glob: named by its own file's line, as before.
    (tmp_path / "d.run").write_text("3 Q0 z 1 1 t\n1 Q0 a 2 1 t\n")
    code, out, err = _output(capsys, tmp_path / "[ad].run", "--qrels", tmp_path / "qrels",
                             "--engine", "duckdb")
    assert (code, out) == (2, "") and err.startswith(
        "ndcg-inspect: note: [ad].run is a pattern (no file has that name): 2 files\n"
        'ndcg-inspect: d.run:2: document "a" is listed twice for query "1" (first at a.run:1)'), err


class _Counted(Steps):
    """Steps that record what is told, and ask to stop after `stop_after` tellings."""

    def __init__(self, stop_after: int | None = None) -> None:
        super().__init__()
        self.told: list[float] = []
        self.stop_after = stop_after

    def tell(self, percent: float) -> None:
        super().tell(percent)
        self.told.append(percent)
        if self.stop_after is not None and len(self.told) >= self.stop_after:
            self.stopped = True


def _big_run(path: Path, lines: int) -> None:
    path.write_text("".join(f"q{i // 100} Q0 d{i % 100} {i % 100 + 1} {i % 7}.5 t\n" for i in range(lines)))


def test_progress_is_told_by_bytes_read_and_a_stop_is_prompt(tmp_path, monkeypatch):
    monkeypatch.setattr(text_rows, "BLOCK", 1 << 14)  # (many batches from a small file)
    _big_run(tmp_path / "big.run", 20_000)
    steps = _Counted()
    assert text_rows.write_trec([str(tmp_path / "big.run")], "trec_run", tmp_path / "rows.parquet", steps)
    assert len(steps.told) > 10 and steps.told == sorted(steps.told) and steps.told[-1] == 100.0
    stopping = _Counted(stop_after=3)
    with pytest.raises(Cancelled):
        text_rows.write_trec([str(tmp_path / "big.run")], "trec_run", tmp_path / "stopped.parquet", stopping)
    assert len(stopping.told) == 3 and not (tmp_path / "stopped.parquet").exists()


def test_a_window_or_command_line_sees_the_reading_and_can_cancel_it(tmp_path, monkeypatch):
    """The job's report is told the reading's percentage (DuckDB runs no statement meanwhile) and
    its False stops the job with `Cancelled`."""
    monkeypatch.setattr(progress, "POLL", 0.001)
    monkeypatch.setattr(text_rows, "BLOCK", 1 << 12)
    (tmp_path / "qrels").write_text("q1 0 d1 1\n")
    lines, seen = 20_000, []
    while not seen and lines < 5_000_000:  # (a larger file until the poll sees the reading: no time assumed)
        _big_run(tmp_path / "big.run", lines)

        def report(step: str, percent: float) -> bool:
            if step == "reading big.run" and percent > 0:
                seen.append(percent)
                return False
            return True

        try:
            duckdb_engine.score_files(str(tmp_path / "big.run"), str(tmp_path / "qrels"), Measure(k=10),
                                      threads=1, progress=report)
        except Cancelled:
            break
        lines *= 4
    assert seen and 0 < seen[0] <= 100
