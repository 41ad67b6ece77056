"""The notes sidecar: its name, hostile notes round-tripped, bad lines named, and what it refuses."""

from __future__ import annotations

import os

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ndcg_gui.core.errors import InputError
from ndcg_gui.core.formats.query_notes import notes_beside, notes_path, notes_text, parse_notes, read_notes
from ndcg_gui.core.writing.query_notes import write_notes

HOSTILE = {
    "301": "tabs\there\tand\nnew\r\nlines",
    "#402": "starts like a comment",
    "q\t1": "a tab in the query",
    "back\\slash": "ends with a backslash \\",
    "ünï": "ünicode — 日本語 ✓ \\n literal",
    "empty": "",
    "spaces": "   ",
}


def test_the_sidecar_lies_beside_the_run(tmp_path):
    assert notes_path(tmp_path / "bm25.run") == tmp_path / "bm25.run.notes.tsv"


def test_hostile_notes_round_trip_and_empty_ones_go(tmp_path):
    path = tmp_path / "run.txt.notes.tsv"
    assert write_notes(path, HOSTILE)
    expected = {q: n for q, n in HOSTILE.items() if n.strip()}
    assert read_notes(path) == expected
    assert len(path.read_text(encoding="utf-8").splitlines()) == 1 + len(expected)  # one line a query


@given(st.dictionaries(st.text(), st.text()))
def test_any_text_round_trips(notes):
    # (a typed list's query "" has no id to keep a note under in a file)
    assert parse_notes(notes_text(notes), "n.tsv") == {q: n for q, n in notes.items() if n.strip() and q}


def test_no_notes_left_removes_the_sidecar(tmp_path):
    path = tmp_path / "r.notes.tsv"
    write_notes(path, {"1": "why"})
    assert not write_notes(path, {"1": ""})
    assert not path.exists()
    assert read_notes(path) == {}


@pytest.mark.parametrize(("text", "line", "said"), [
    ("# header\n1\tfine\n2 no tab\n", 3, "found no tab"),
    ("1\ta\tb\n", 1, "3 fields"),
    ("1\tok\n\n2\tbad \\x escape\n", 3, "unknown escape"),
    ("1\tends \\\n", 1, "unknown escape"),
    ("\tno query\n", 1, "the query is empty"),
    ("1\ta\n1\tb\n", 2, "second note"),
])
def test_a_bad_line_is_one_line_naming_file_and_line(tmp_path, text, line, said):
    path = tmp_path / "run.notes.tsv"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as err:
        read_notes(path)
    assert str(err.value).startswith(f"run.notes.tsv:{line}: ")
    assert said in str(err.value) and "\n" not in str(err.value)


def test_not_utf8_is_refused_in_one_line(tmp_path):
    path = tmp_path / "run.notes.tsv"
    path.write_bytes(b"1\tok\n2\t\xff\n")
    with pytest.raises(InputError, match=r"run.notes.tsv:2: is not UTF-8"):
        read_notes(path)


def test_a_fifo_sidecar_is_refused_without_waiting(tmp_path):
    path = tmp_path / "run.notes.tsv"
    os.mkfifo(path)
    with pytest.raises(InputError, match="named pipe"):
        read_notes(path)  # (opening it would wait for a writer)
    with pytest.raises(InputError, match="named pipe"):
        write_notes(path, {"1": "x"})  # (writing into it would wait for a reader)


def test_a_sidecar_linked_to_the_run_is_neither_read_nor_written(tmp_path):
    run = tmp_path / "run.txt"
    run.write_text("1 Q0 d1 1 1.0 x\n")
    sidecar = notes_path(run)
    sidecar.symlink_to(run)
    with pytest.raises(InputError, match="symbolic link"):
        read_notes(sidecar)
    with pytest.raises(InputError, match="an input too"):
        write_notes(sidecar, {"1": "x"}, [run])
    with pytest.raises(InputError, match="symbolic link"):
        write_notes(sidecar, {"1": "x"})
    assert run.read_text() == "1 Q0 d1 1 1.0 x\n"


def test_a_sidecar_hard_linked_to_an_input_is_not_replaced(tmp_path):
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("1 0 d1 1\n")
    sidecar = tmp_path / "run.txt.notes.tsv"
    os.link(qrels, sidecar)
    with pytest.raises(InputError, match="an input too"):
        write_notes(sidecar, {"1": "x"}, [tmp_path / "run.txt", qrels])
    assert qrels.read_text() == "1 0 d1 1\n"


def test_notes_beside_a_run_say_a_bad_sidecar_in_one_line(tmp_path):
    run = tmp_path / "run.txt"
    assert notes_beside(run) == ({}, None)
    write_notes(notes_path(run), {"7": "kept"})
    assert notes_beside(run) == ({"7": "kept"}, None)
    notes_path(run).write_text("7 no tab\n")
    notes, problem = notes_beside(run)
    assert notes == {} and problem == "notes not read: run.txt.notes.tsv:1: expected query<TAB>note " \
        "(tabs in a note written \\t), found no tab"


def test_the_example_in_the_docs_reads_as_it_says():
    from pathlib import Path

    text = (Path(__file__).parents[3] / "docs" / "files.md").read_text(encoding="utf-8")
    section = text[text.index("## Notes on queries"):]
    start = section.index("```text\n") + len("```text\n")
    block = section[start:section.index("\n```", start)]
    assert parse_notes(block + "\n", "files.md") == {
        "301": "bm25 misses the acronym; try the expansion\nsee ticket 42",
        "402": "judging hole: 7 of the top 10 unjudged"}
    assert block.splitlines()[0] == notes_text({}).rstrip("\n")  # the header the program writes
