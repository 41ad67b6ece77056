"""Reader faults found in review: each one's file, and what the reader must say or do."""

from __future__ import annotations

import math
import pickle

import numpy as np
import pytest

from ndcg_gui.core.errors import InputError
from ndcg_gui.core.lists.typed_dataset import TypedDataset
from ndcg_gui.core.reading import load
from ndcg_gui.core.reading.packed import pack, unpack
from ndcg_gui.core.writing.writers import write_csv


def write(tmp_path, text, name):
    path = tmp_path / name
    path.write_text(text)
    return path


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("1 Q0 a 1 2 t\n1 Q0 b 2 1\n", "run.txt:2: 5 fields, but a TREC run line has 6"),
        ("1 Q0 a 1 2\n1 Q0 b 2 1\n", "run.txt:1: 5 fields, but a TREC run line has 6"),
        ("# c\n1\tQ0\ta\t1\t2\tt\n\n1\tQ0\tb\t2\t1\n", "run.txt:4: 5 fields, but a TREC run line has 6"),
    ],
)
def test_a_run_line_without_its_tag_is_refused_with_its_line(tmp_path, text, message):
    with pytest.raises(InputError) as caught:
        load(write(tmp_path, text, "run.txt"), need_grades=False)
    assert str(caught.value).startswith(message)
    assert "tag is missing" in str(caught.value) and "trec_eval" in str(caught.value)


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("1 Q0 a 1 2 t\n  # an indented note\n1 Q0 b 2 1 t\n1 Q0 c 3 x t\n", 4),
        ("1 Q0 a 1 2 t\n\t# tab-indented\n\t# twice\n1 Q0 c 3 x t\n", 4),
        ("  # first\n1 Q0 a 1 2 t\n1 Q0 c 3 x t\n", 3),
    ],
)
def test_line_numbers_after_an_indented_comment(tmp_path, text, line):
    with pytest.raises(InputError) as caught:
        load(write(tmp_path, text, "run.txt"), need_grades=False)
    assert caught.value.line == line
    assert str(caught.value).startswith(f'run.txt:{line}: score "x" (field 5) is not a finite number')


def test_an_indented_comment_is_not_a_document(tmp_path):
    dataset = load(write(tmp_path, "1 Q0 a 1 2 t\n   # note\n1 Q0 b 2 1 t\n", "run.txt"), need_grades=False)
    assert dataset.ranked_list("1").docs.tolist() == ["a", "b"]


@pytest.mark.parametrize("text", ["3\n\n2\n", "grade\n3\n\n2\n", "3\r\n  \r\n2\r\n", "\n3\n\n2\n"])
def test_a_blank_line_in_a_one_column_grade_file_is_an_unjudged_document(tmp_path, text):
    rl = load(write(tmp_path, text, "grades.csv")).ranked_list("")
    assert rl.docs.tolist() == ["d1", "d2", "d3"]
    assert np.array_equal(rl.grades, [3, np.nan, 2], equal_nan=True)


def test_a_bad_grade_after_a_blank_line_is_reported_on_its_own_line(tmp_path):
    with pytest.raises(InputError, match=r'grades\.csv:3: grade "x" is not a number'):
        load(write(tmp_path, "3\n\nx\n", "grades.csv"))


def test_an_unjudged_last_or_first_document_of_a_grade_list_survives_a_save(tmp_path):
    path = write(tmp_path, "3\n2\n", "grades.csv")
    dataset = load(path)
    for grades in ([3, math.nan], [math.nan, 2]):
        rl = dataset.ranked_list("")
        rl = rl.with_grade(0, grades[0]).with_grade(1, grades[1])
        write_csv(dataset.with_lists({"": rl}), tmp_path / "out.csv")
        back = load(tmp_path / "out.csv").ranked_list("")
        assert np.array_equal(back.grades, grades, equal_nan=True)


def test_quoted_ids_keep_their_spaces_unquoted_ones_are_trimmed(tmp_path):
    path = write(tmp_path, 'doc,grade\n" a ",1\n  b  ,2\n"c" ,3\n', "ids.csv")
    assert load(path).ranked_list("").docs.tolist() == [" a ", "b", "c"]


def test_extra_columns_and_the_files_format_survive_the_loader_process(tmp_path):
    path = write(tmp_path, "query;doc;grade;title\nq;a;1,5;Alpha\nq;b;0;Beta\n", "in.csv")
    dataset = load(path)
    back = unpack(pickle.loads(pickle.dumps(pack(dataset))))
    assert back.extra_columns == ("title",) and back.ranked_list("q") == dataset.ranked_list("q")
    write_csv(back, tmp_path / "out.csv")
    assert (tmp_path / "out.csv").read_bytes() == path.read_bytes()


def test_typed_lists_have_no_origin_and_no_format():
    from ndcg_gui.core.lists.ranked_list import RankedList

    dataset = TypedDataset.of(RankedList.from_grades([1, 2]))
    assert dataset.file_format is None and dataset.ranked_list("").origin is None


def test_a_blank_line_in_a_one_column_list_of_documents_is_no_document(tmp_path):
    run = write(tmp_path, "doc\na\n\nb\n", "docs.csv")
    qrels = write(tmp_path, "x 0 a 1\n", "q.qrels")
    assert load(run, qrels).ranked_list("").docs.tolist() == ["a", "b"]
