"""Inputs that are not regular files (`core.formats.source`): pipes, process substitution,
/dev/stdin, devices and named pipes are read once, with a bound, and never waited on for ever."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import pytest

import ndcg_gui.cli.main as cli
from ndcg_gui.core.errors import InputError
from ndcg_gui.core.formats import source
from ndcg_gui.core.ndcg.measure import Measure
from ndcg_gui.core.reading import load


def big_run(queries: int = 40, docs: int = 100) -> str:
    """A run over 64 KiB (the bytes that recognise a format), its first 64 KiB ending on a line break."""
    lines = [f"q{q} Q0 doc-{q}-{d} {d + 1} {1000 - d} tag" for q in range(queries) for d in range(docs)]
    text = "\n".join(lines) + "\n"
    pad = (1 << 16) - (text.rfind("\n", 0, 1 << 16) + 1)  # spaces after the first line's tag
    return lines[0] + " " * pad + text[len(lines[0]):]


def qrels_for(queries: int = 40, docs: int = 100) -> str:
    return "".join(f"q{q} 0 doc-{q}-{d} {d % 3}\n" for q in range(queries) for d in range(0, docs, 7))


def piped(data: bytes) -> str:
    """A path reading `data` from a pipe (as `<(cat file)` gives): written by a thread."""
    read, write = os.pipe()

    def feed() -> None:
        with os.fdopen(write, "wb") as f:
            f.write(data)

    threading.Thread(target=feed, daemon=True).start()
    return f"/dev/fd/{read}"


def test_a_run_from_a_pipe_is_read_whole(tmp_path):
    text = big_run()
    # The case that lost a query silently: the first 64 KiB end on a line break.
    assert len(text) > 1 << 16 and text.index("\n", (1 << 16) - 2) == (1 << 16) - 1
    run, qrels = tmp_path / "run.txt", tmp_path / "qrels.txt"
    run.write_text(text)
    qrels.write_text(qrels_for())
    expected = load(run, qrels).summary(Measure(k=10))
    got = load(piped(text.encode()), piped(qrels.read_bytes())).summary(Measure(k=10))
    assert got.equals(expected)


def test_the_command_line_reads_a_piped_run_once(tmp_path, capsys):
    """`ndcg-inspect <(cat run) --qrels qrels`: the first bytes recognise it, the reader gets all."""
    run, qrels = tmp_path / "run.txt", tmp_path / "qrels.txt"
    run.write_text(big_run())
    qrels.write_text(qrels_for())
    assert cli.main([str(run), "--qrels", str(qrels)]) == 0
    expected = capsys.readouterr().out
    assert cli.main([piped(run.read_bytes()), "--qrels", piped(qrels.read_bytes())]) == 0
    assert capsys.readouterr().out == expected
    assert cli.main([piped(run.read_bytes()), "--qrels", str(qrels)], direct=False) == 0
    assert capsys.readouterr().out == expected


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_an_endless_device_is_refused_from_its_first_bytes(tmp_path, capsys, device):
    run = tmp_path / "run.txt"
    run.write_text(big_run(2, 5))
    assert cli.main([device]) == 2
    err = capsys.readouterr().err
    assert f"{device}" in err and "binary" in err and err.count("\n") == 1
    assert cli.main([str(run), "--qrels", device]) == 2  # the qrels are blamed, not the run
    err = capsys.readouterr().err
    assert device in err and "run.txt" not in err


def test_a_stream_longer_than_the_limit_is_refused(monkeypatch):
    monkeypatch.setattr(source, "STREAM_LIMIT", 1 << 17)
    with pytest.raises(InputError, match="is a pipe or device that gives more than"):
        load(piped(big_run(40, 100).encode() * 2), need_grades=False)


def test_a_named_pipe_without_a_writer_is_refused_after_a_wait(tmp_path, monkeypatch):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    monkeypatch.setattr(source, "FIFO_WAIT", 0.3)
    said: list[str] = []

    def read() -> None:
        with pytest.raises(InputError) as caught:
            load(fifo, need_grades=False)
        said.append(str(caught.value))

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    reader.join(120)  # (it blocked for ever: a hang fails here, whatever the machine's speed)
    assert not reader.is_alive()
    assert said == ["pipe: is a named pipe that no program wrote to within 0.3 s; start the writer first, "
                    "or give a file"]


def test_a_named_pipe_whose_writer_comes_later_is_read(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    text = big_run(3, 10)

    def write_later() -> None:
        time.sleep(0.3)
        Path(fifo).write_text(text)

    threading.Thread(target=write_later, daemon=True).start()
    assert len(load(fifo, need_grades=False).queries()) == 3


def test_a_recording_keeps_the_sha256_of_the_bytes_as_read(tmp_path):
    """A gzip file is named by its stored bytes (what `sha256sum` says), a pipe by what came
    through it; nothing is read again (issue 33, finding 5)."""
    import gzip
    import hashlib

    run, qrels = tmp_path / "run.txt.gz", tmp_path / "qrels.txt"
    run.write_bytes(gzip.compress(big_run().encode()))
    qrels.write_text(qrels_for())
    pipe = piped(qrels.read_bytes())
    assert source.read_digests(run) == set()
    with source.recording_digests():
        load(run, pipe)
        load(run, pipe)  # (the pipe's bytes as kept: the same version)
        assert source.read_digests(run) == {hashlib.sha256(run.read_bytes()).hexdigest()}
        assert source.read_digests(pipe) == {hashlib.sha256(qrels.read_bytes()).hexdigest()}
        qrels.write_text(qrels_for(docs=50))  # changed between two reads: both versions kept
        source.read_source(qrels)
        qrels.write_text(qrels_for())
        source.read_source(qrels)
        assert len(source.read_digests(qrels)) == 2
    assert source.read_digests(run) == set()  # (kept while the block runs only)
