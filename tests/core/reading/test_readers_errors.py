"""Every way a file can be wrong gives one `InputError` naming the file, line and what was expected."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ndcg_gui.core.errors import InputError, LoadCancelled
from ndcg_gui.core.lists.dataset import Dataset
from ndcg_gui.core.reading import load


def write(tmp_path, text: str | bytes, name: str = "ranking.csv") -> Path:
    path = tmp_path / name
    path.write_bytes(text.encode("utf-8") if isinstance(text, str) else text)
    return path


def error_of(path, qrels=None) -> InputError:
    with pytest.raises(InputError) as info:
        load(path, qrels)
    err = info.value
    assert "\n" not in str(err)
    return err


def test_the_issue_example(tmp_path):
    err = error_of(write(tmp_path, "doc,grade\na,3\nb,2\nc,high\n"))
    assert str(err) == (
        'ranking.csv:4: grade "high" is not a number (leave the cell empty for an unjudged document)'
    )
    assert (err.path.name, err.line, err.column) == ("ranking.csv", 4, 2)


def test_missing_file(tmp_path):
    err = error_of(tmp_path / "nope.csv")
    assert str(err).startswith("nope.csv: file not found") and str(tmp_path) in str(err)


def test_directory(tmp_path):
    assert str(error_of(tmp_path)) == f"{tmp_path.name}: is a folder, not a file"


def test_unreadable_file(tmp_path, monkeypatch):
    path = write(tmp_path, "doc,grade\na,1\n")

    def refuse(self, *args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(Path, "open", refuse)
    assert str(error_of(path)) == "ranking.csv: cannot be read: permission denied"


@pytest.mark.parametrize("text", ["", "\n\n  \n", "\ufeff"])
def test_empty_file(tmp_path, text):
    assert str(error_of(write(tmp_path, text))) == "ranking.csv: the file is empty"


def test_header_only(tmp_path):
    err = error_of(write(tmp_path, "query,doc,grade\n\n"))
    assert str(err) == "ranking.csv:1: has a header but no rows"


def test_no_grade_column_lists_what_was_found_and_what_is_accepted(tmp_path):
    err = error_of(write(tmp_path, "doc,stars\na,3\n"))
    assert str(err) == (
        'ranking.csv:1: no grade column: found "doc", "stars"; a grade column is named one of '
        "grade, relevance, rel, label, judgment, rating (or give --qrels)"
    )


def test_headerless_table_of_unknown_shape(tmp_path):
    err = error_of(write(tmp_path, "apple,pear,plum\n1,2,3\n"))
    assert str(err).startswith('ranking.csv:1: no header naming the columns: found "apple", "pear", "plum"')
    assert "grade: grade, relevance, rel, label, judgment, rating" in str(err)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("doc,grade\na,inf\n", 'ranking.csv:2: grade "inf" is not a finite number'),
        ("doc,grade\na,1\nb,-Infinity\n", 'ranking.csv:3: grade "-Infinity" is not a finite number'),
        ("doc,grade,score\na,1,0.5\nb,1,\n", "ranking.csv:3: score is empty; expected a number"),
        ("doc,grade,rank\na,1,first\n", 'ranking.csv:2: rank "first" is not a number'),
        ("doc,grade\n\n\na,1\n\nb,x\n", 'ranking.csv:6: grade "x" is not a number'),
        ('doc,grade\n"multi\nline",1\nb,x\n', 'ranking.csv:4: grade "x" is not a number'),
    ],
)
def test_bad_numbers_with_editor_line_numbers(tmp_path, text, message):
    assert str(error_of(write(tmp_path, text))).startswith(message)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("doc,grade\na,1\nb,2,3\n", "ranking.csv:3: 3 fields, but the header has 2"),
        ("doc,grade\na,1\nb\n", "ranking.csv:3: 1 fields, but the header has 2"),
        ('doc,grade\n"a",1\n"b,c"\n', "ranking.csv:3: 1 fields, but the header has 2"),
        ("doc\tgrade\r\na\t1\r\n\r\nb\t2\tx\r\n", "ranking.csv:4: 3 fields, but the header has 2"),
        ("doc grade\na 1\nb 2 3\n", "ranking.csv:3: 3 fields, but the header has 2"),
        ("x,1\ny,2,3\n", "ranking.csv:2: 3 fields, but the first line has 2"),
    ],
)
def test_ragged_rows(tmp_path, text, message):
    assert str(error_of(write(tmp_path, text))) == message


@pytest.mark.parametrize(
    ("data", "hint"),
    [
        (b"doc,grade\na,1\x00\x00\x00\n", ""),
        (b"PK\x03\x04\x14\x00\x06\x00" + bytes(range(256)), "an .xlsx workbook"),
        (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(64), "old Excel .xls"),
        (bytes(range(1, 32)) * 20, ""),
    ],
)
def test_binary_garbage(tmp_path, data, hint):
    message = str(error_of(write(tmp_path, data)))
    assert "is a binary file, not a text table" in message and hint in message
    assert "Parquet, Arrow/Feather or JSON Lines" in message  # (issue 19.11: the formats we read)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("1 Q0 a 1 0.5 t\n1 Q0 b 2\n", "run.txt:2: 4 fields, but a TREC run line has 6: qid Q0 docno"),
        ("1 Q0 a 1 .5 t\n# c\n1 Q0 b 2 high t\n", 'run.txt:3: score "high" (field 5) is not a finite number'),
        ("1 Q0 a 1 0.5 t\n1 Q0 b 2 nan t\n", 'run.txt:2: score "nan" (field 5) is not a finite number'),
        ("1 0 a 1\n1 0 b\n", "run.txt:2: 3 fields, but a TREC qrels line has 4: qid iter docno grade"),
        ("1 0 a 1\n1 0 b x\n", 'run.txt:2: grade "x" (field 4) is not a finite number'),
    ],
)
def test_malformed_trec_lines(tmp_path, text, message):
    assert str(error_of(write(tmp_path, text, "run.txt"))).startswith(message)


@pytest.mark.parametrize(
    ("text", "name", "message"),
    [
        ("doc,grade\na,1\nb,2\na,0\n", "r.csv", 'r.csv:4: document "a" is listed twice (first at line 2)'),
        (
            "query,doc,grade\nq1,a,1\nq2,a,1\nq1,b,1\n\nq1,a,0\n",
            "r.csv",
            'r.csv:6: document "a" is listed twice for query "q1" (first at line 2)',
        ),
        (
            "# run\n7 Q0 x 1 2 t\n7 Q0 y 2 1 t\n7 Q0 x 3 0 t\n",
            "run.txt",
            'run.txt:4: document "x" is listed twice for query "7" (first at line 2)',
        ),
    ],
)
def test_duplicate_document_within_a_query(tmp_path, text, name, message):
    assert str(error_of(write(tmp_path, text, name))).startswith(message)


def test_duplicate_judgment_in_qrels(tmp_path):
    run = write(tmp_path, "1 Q0 a 1 1 t\n", "run.txt")
    qrels = write(tmp_path, "1 0 a 1\n1 0 b 0\n1 0 a 2\n", "qrels.txt")
    assert str(error_of(run, qrels)).startswith('qrels.txt:3: document "a" is listed twice for query "1"')


def test_qrels_option_given_a_run(tmp_path):
    run = write(tmp_path, "1 Q0 a 1 1 t\n", "run.txt")
    err = error_of(run, write(tmp_path, "1 Q0 a 1 1 t\n", "other.txt"))
    assert str(err) == "other.txt:1: is a TREC run, not qrels; expected lines of qid iter docno grade"


def test_missing_qrels_file(tmp_path):
    run = write(tmp_path, "1 Q0 a 1 1 t\n", "run.txt")
    assert str(error_of(run, tmp_path / "q.txt")).startswith("q.txt: file not found")


def test_cancel_stops_a_load(tmp_path):
    path = write(tmp_path, "doc,grade\na,1\n")
    with pytest.raises(LoadCancelled):
        load(path, cancel=lambda: True)
    fractions = []
    load(path, progress=fractions.append)
    assert fractions == sorted(fractions) and fractions[-1] == 1.0


def test_progress_moves_while_a_big_file_is_parsed(tmp_path):
    # Over a million lines: the parse reports between reading (0.3) and ordering (0.8).
    path = write(tmp_path, "".join(f"1 Q0 d{i} {i} {i} t\n" for i in range(1_200_000)), "big.txt")
    fractions = []
    load(path, progress=fractions.append, need_grades=False)
    assert fractions == sorted(fractions) and fractions[-1] == 1.0
    assert any(0.4 < f < 0.8 for f in fractions)


# ---- nothing but InputError, whatever the bytes ---------------------------------------------
def _load_or_error(path) -> None:
    try:
        result = load(path)
    except InputError as err:
        assert str(err).startswith(path.name) and "\n" not in str(err)
    else:
        assert isinstance(result, Dataset) and result.queries()


_FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@_FUZZ
@given(data=st.binary(max_size=300))
def test_random_bytes(tmp_path, data):
    _load_or_error(write(tmp_path, data, "fuzz.csv"))


VALID = [
    "query,doc,grade,score\nq1,a,3,0.9\nq1,b,,0.5\nq2,c,1,0.1\n",
    "1 Q0 a 1 0.5 t\n1 Q0 b 2 0.4 t\n2 Q0 c 1 1 t\n",
    "1 0 a 2\n1 0 b 0\n2 0 c 1\n",
    '"doc";"grade"\n"x";1,5\n"y";2\n',
    "3\n2\n3\n0\n1\n",
]
_PIECES = st.sampled_from(
    [",", ";", "\t", " ", "\n", "\r\n", '"', "'", "#", "x", "1", "-", "=", "inf", "", "é", "\x00", "\x0c"]
)


@_FUZZ
@given(
    base=st.sampled_from(VALID),
    edits=st.lists(st.tuples(st.integers(0, 400), st.integers(0, 3), _PIECES), max_size=6),
)
def test_random_mutations_of_valid_files(tmp_path, base, edits):
    text = base
    for at, remove, piece in edits:
        at %= len(text) + 1
        text = text[:at] + piece + text[at + remove:]
    _load_or_error(write(tmp_path, text, "mutated.csv"))


@pytest.mark.parametrize("suffix, text", [
    (".csv", "query,doc,grade\nq,a,1\nq,b,high\n"),
    (".jsonl", '{"query": "q", "doc": "a", "grade": 1}\n{"query": "q", "doc": "b", "grade": "high"}\n'),
])
def test_a_bad_grade_says_how_to_leave_it_unjudged_in_every_format(tmp_path, suffix, text):
    path = tmp_path / f"ranking{suffix}"
    path.write_text(text)
    with pytest.raises(InputError) as err:
        load(path)
    line = 3 if suffix == ".csv" else 2
    assert str(err.value) == (f'ranking{suffix}:{line}: grade "high" is not a number '
                              "(leave the cell empty for an unjudged document)")


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("1 Q0 a 1 2 t\n1 Q0 b 2 1 t\n1 Q0 {long} 3 0 t\n", "run.txt"),
        ("doc,grade\na,1\n{long},2\nc,0\n", "list.csv"),
        ('doc,grade\na,1\n"{long}",2\nc,0\n', "quoted.csv"),
    ],
)
def test_a_line_longer_than_the_limit_is_named_as_such(tmp_path, text, name):
    """An 8 MiB line: not "cannot be read as a TREC run" or "a quoted cell is not closed"."""
    from ndcg_gui.core.formats.source import LINE_LIMIT

    path = tmp_path / name
    path.write_text(text.format(long="x" * (2 * LINE_LIMIT)))
    with pytest.raises(InputError) as caught:
        load(path, need_grades=False)
    limit = "the line is 8.0 MiB long, longer than the limit of 4 MiB for one line"
    assert str(caught.value) == f"{name}:3: {limit}"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("1 Q0 a 1 inf t\n1 Q0 b 2 1 t\n", 'run.txt:1: score "inf" (field 5) is not a finite number'),
        ("1 Q0 a 1 nan t\n", 'run.txt:1: score "nan" (field 5) is not a finite number'),
        ("1 0 a NaN\n1 0 b 1\n", 'run.txt:1: grade "NaN" (field 4) is not a finite number'),
        ("1 0 a 1e999\n", 'run.txt:1: grade "1e999" (field 4) is not a finite number'),
    ],
)
def test_a_non_finite_number_on_a_trec_files_first_line_is_named(tmp_path, text, message):
    path = tmp_path / "run.txt"
    path.write_text(text)
    with pytest.raises(InputError) as caught:
        load(path, need_grades=False)
    assert str(caught.value).startswith(message)
