"""CSV/TSV reading: delimiters, encodings, headers, aliases, ordering and unjudged cells."""

from __future__ import annotations

import numpy as np
import pytest

from ndcg_gui.core.ndcg.measure import Measure
from ndcg_gui.core.reading import load


def write(tmp_path, text: str | bytes, name: str = "ranking.csv"):
    path = tmp_path / name
    path.write_bytes(text.encode("utf-8") if isinstance(text, str) else text)
    return path


def lists(dataset):
    return {q: (list(rl.docs), [None if np.isnan(g) else g for g in rl.grades])
            for q in dataset.queries() for rl in [dataset.ranked_list(q)]}


@pytest.mark.parametrize(
    "text",
    [
        "doc,grade\na,3\nb,2\nc,0\n",
        "doc\tgrade\na\t3\nb\t2\nc\t0\n",
        "doc;grade\na;3\nb;2\nc;0\n",
        "doc grade\na   3\nb 2\n  c\t0  \n",
        "doc,grade\r\na,3\r\nb,2\r\nc,0\r\n",
        "\ufeffdoc,grade\na,3\nb,2\nc,0",
        '"doc","grade"\n"a","3"\n"b",2\nc,"0"\n',
        "\n\ndoc,grade\n\na,3\nb,2\n\nc,0\n\n",
        "DocID,Relevance\na,3\nb,2\nc,0\n",
        " Document , LABEL \na,3\nb,2\nc,0\n",
    ],
)
def test_the_same_list_in_every_reasonable_spelling(tmp_path, text):
    dataset = load(write(tmp_path, text))
    assert lists(dataset) == {"": (["a", "b", "c"], [3.0, 2.0, 0.0])}
    assert dataset.kind == "csv" and not dataset.has_pool


def test_utf16_with_bom_is_read(tmp_path):
    dataset = load(write(tmp_path, "doc,grade\nä,3\nb,1\n".encode("utf-16")))
    assert lists(dataset) == {"": (["ä", "b"], [3.0, 1.0])}


def test_non_utf8_bytes_fall_back_to_a_single_byte_encoding(tmp_path):
    dataset = load(write(tmp_path, "doc;grade\ncafé;2\n€uro;1\n".encode("cp1252")))
    assert lists(dataset) == {"": (["café", "€uro"], [2.0, 1.0])}


def test_quoted_fields_keep_delimiters_quotes_and_newlines(tmp_path):
    dataset = load(write(tmp_path, 'doc,grade\n"a, b",1\n"say ""hi""",2\n"two\nlines",0\n'))
    assert lists(dataset)[""][0] == ["a, b", 'say "hi"', "two\nlines"]


def test_semicolon_files_may_use_a_decimal_comma(tmp_path):
    dataset = load(write(tmp_path, "doc;grade\na;0,5\nb;1,25\n"))
    assert lists(dataset)[""][1] == [0.5, 1.25]


def test_headerless_single_column_is_grades_in_ranked_order(tmp_path):
    dataset = load(write(tmp_path, "3\n2\n3\n0\n1\n"))
    rl = dataset.ranked_list("")
    assert list(rl.docs) == ["d1", "d2", "d3", "d4", "d5"]
    assert list(rl.grades) == [3, 2, 3, 0, 1]
    assert round(float(rl.metrics()["ndcg"].iloc[-1]), 4) == 0.9724  # E1 of the worked examples


def test_headerless_two_columns_are_doc_and_grade(tmp_path):
    dataset = load(write(tmp_path, "x,1\ny,\nz,2\n"))
    assert lists(dataset) == {"": (["x", "y", "z"], [1.0, None, 2.0])}


def test_empty_grade_cell_is_unjudged_not_an_error(tmp_path):
    rl = load(write(tmp_path, "doc,grade\na,3\nb,\nc,1\n")).ranked_list("")
    assert list(rl.judged) == [True, False, True]
    table = rl.metrics()
    assert table["gain"].tolist() == [3.0, 0.0, 1.0]


def test_grade_only_header_names_documents(tmp_path):
    rl = load(write(tmp_path, "grade\n1\n0\n")).ranked_list("")
    assert list(rl.docs) == ["d1", "d2"]


def test_query_column_gives_many_queries_in_file_order(tmp_path):
    text = "qid,doc,rel\nq2,a,1\nq1,b,2\nq2,c,0\nq1,d,1\n"
    dataset = load(write(tmp_path, text))
    assert dataset.queries() == ["q2", "q1"]
    assert lists(dataset) == {"q2": (["a", "c"], [1.0, 0.0]), "q1": (["b", "d"], [2.0, 1.0])}


def test_order_by_rank_column_when_present(tmp_path):
    text = "doc,grade,score,rank\na,1,0.1,3\nb,2,0.9,1\nc,0,0.5,2\n"
    assert lists(load(write(tmp_path, text)))[""][0] == ["b", "c", "a"]


def test_order_by_score_high_first_ties_by_doc_id_descending(tmp_path):
    # trec_eval sorts equal scores by docno in descending (strcmp) order.
    text = "doc,grade,score\nb,1,0.5\nz,1,0.1\na,1,0.5\nc,1,0.5\nB,1,0.5\n"
    rl = load(write(tmp_path, text)).ranked_list("")
    assert list(rl.docs) == ["c", "b", "a", "B", "z"]
    assert list(rl.scores) == [0.5, 0.5, 0.5, 0.5, 0.1]


def test_file_order_without_rank_or_score(tmp_path):
    assert lists(load(write(tmp_path, "doc,grade\nz,0\na,1\nm,2\n")))[""][0] == ["z", "a", "m"]


def test_unknown_columns_are_ignored_and_doc_wins_over_id(tmp_path):
    text = "id,title,doc,grade\n1,First,a,2\n2,Second,b,1\n"
    assert lists(load(write(tmp_path, text)))[""][0] == ["a", "b"]


def test_ids_are_read_as_the_file_has_them_quote_and_all(tmp_path):
    """Reading never changes a cell: an id `'-abc` stays `'-abc` (it was read as `-abc`, no
    longer matched its qrels line, and NDCG was wrong with exit 0)."""
    text = "doc,grade\n'=SUM(A1),1\n'-x,2\n''@y,0\n'plain,1\n-3,2\n=x,1\n"
    docs = lists(load(write(tmp_path, text)))[""][0]
    assert docs == ["'=SUM(A1)", "'-x", "''@y", "'plain", "-3", "=x"]


def test_an_id_starting_with_a_quote_matches_its_qrels_line(tmp_path):
    run = write(tmp_path, "query,doc,score\nq,'-abc,2\nq,'=b,1\nq,c,0\n", "run.csv")
    qrels = write(tmp_path, "q 0 '-abc 2\nq 0 '=b 1\nq 0 c 0\n", "qrels.txt")
    dataset = load(run, qrels)
    assert dataset.ranked_list("q").grades.tolist() == [2, 1, 0]
    assert dataset.summary(Measure(k=10))["ndcg"].tolist() == [1.0]


def test_ids_that_look_like_numbers_or_na_stay_text(tmp_path):
    text = "query,doc,grade\n007,1.50,1\n007,NA,2\n007,nan,0\n"
    dataset = load(write(tmp_path, text))
    assert lists(dataset) == {"007": (["1.50", "NA", "nan"], [1.0, 2.0, 0.0])}


def test_negative_and_real_valued_grades(tmp_path):
    assert lists(load(write(tmp_path, "doc,grade\na,-1\nb,0.25\nc,1e1\n")))[""][1] == [-1, 0.25, 10]


def test_csv_with_qrels_takes_grades_from_the_qrels(tmp_path):
    csv = write(tmp_path, "query,doc,score\n1,a,0.2\n1,b,0.9\n1,c,0.5\n")
    qrels = write(tmp_path, "1 0 a 2\n1 0 z 3\n2 0 y 1\n", "qrels.txt")
    dataset = load(csv, qrels)
    rl = dataset.ranked_list("1")
    assert list(rl.docs) == ["b", "c", "a"]
    assert np.array_equal(rl.grades, [np.nan, np.nan, 2.0], equal_nan=True)
    assert rl.unretrieved == {"z": 3.0} and rl.has_pool
    assert dataset.queries() == ["1", "2"]
    assert dataset.qrels_path == qrels


@pytest.mark.parametrize(
    "text",
    [
        "doc,grade\na ,3\n b,2\n",
        "doc\tgrade\na \t3\n b\t2\n",
        "doc;grade\r\na ;3\r\n\tb;2\r\n",
        "doc,grade\na,3\nb,2 \n",
    ],
)
def test_spaces_around_cells_are_stripped(tmp_path, text):
    assert lists(load(write(tmp_path, text))) == {"": (["a", "b"], [3.0, 2.0])}


def test_inner_spaces_in_ids_are_kept(tmp_path):
    assert lists(load(write(tmp_path, "doc,grade\nmy doc,1\n")))[""][0] == ["my doc"]


@pytest.mark.parametrize(("text", "line"), [
    ('doc,grade,title\na,1,x\nb,2,"open\nc,1,y\nd,0,z\n', 3),  # the rows after it were swallowed
    ('doc,grade,title\na,1,"x"\nb,2,"""quoted"" and open\nc,1,y\n', 3),
    ('doc\tgrade\ttitle\r\na\t1\t"two\r\nlines"\r\nb\t2\t"open\r\nc\t1\ty\r\n', 4),
    ('doc,grade\na,1\nb,"2\n', 3),
])
def test_a_quote_left_open_to_the_end_is_refused_naming_its_line(tmp_path, text, line):
    from ndcg_gui.core.errors import InputError

    with pytest.raises(InputError) as caught:
        load(write(tmp_path, text))
    assert str(caught.value) == f'ranking.csv:{line}: a quote opened on this line is never closed ' \
        '(expected a closing " before the end of the file)'


def test_quoted_cells_over_several_lines_are_still_read(tmp_path):
    text = 'doc,grade,title\na,1,"two\nlines"\nb,2,"say ""hi"""\nc,0,5" screen\n'
    dataset = load(write(tmp_path, text))
    lst = dataset.ranked_list(dataset.queries()[0])
    assert lst.docs.tolist() == ["a", "b", "c"]
    assert list(lst.extras["title"]) == ["two\nlines", 'say "hi"', '5" screen']


def test_a_quoted_cell_over_128_kib_is_read(tmp_path):
    """Python's csv module refuses a cell over 128 KiB unless told: the reader's walk over quoted
    records then ended in an internal error (found by the fuzz suite)."""
    long = "x" * (200 << 10)
    dataset = load(write(tmp_path, f'doc,grade,title\n"{long}",1,"t"\nb,2,u\n'))
    assert dataset.ranked_list("").docs.tolist() == [long, "b"]
