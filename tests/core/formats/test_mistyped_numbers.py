"""A TREC line whose number is mistyped (`1.5e`, `1d3`, a decimal comma) is still a TREC line: the
message names its line and the cell, as for a mistyped number further down, not "no header naming
the columns" (the shape is recognised on the first line, where a typo used to make it a CSV)."""

from __future__ import annotations

import pytest

from ndcg_gui.core.errors import InputError
from ndcg_gui.core.reading import load

QRELS = "q 0 a 1\nq 0 b 2\n"


@pytest.mark.parametrize("typo", ["1.5e", "1d3", "1,5", "2inf", "0x1p3"])
@pytest.mark.parametrize("line", [1, 2])
def test_a_mistyped_score_names_its_line_and_cell(tmp_path, typo, line):
    lines = ["q Q0 a 1 2.5 t", "q Q0 b 2 1 t"]
    lines[line - 1] = lines[line - 1].replace(" 2.5 " if line == 1 else " 1 t", f" {typo} " if line == 1
                                              else f" {typo} t")
    (tmp_path / "r.run").write_text("\n".join(lines) + "\n")
    (tmp_path / "q.qrels").write_text(QRELS)
    with pytest.raises(InputError) as info:
        load(tmp_path / "r.run", tmp_path / "q.qrels")
    assert str(info.value) == f'r.run:{line}: score "{typo}" (field 5) is not a finite number; ' \
                              "expected qid Q0 docno rank score tag"
    assert info.value.line == line


@pytest.mark.parametrize("typo", ["1e", "1d3", "1,5"])
def test_a_mistyped_grade_on_the_first_qrels_line_names_it(tmp_path, typo):
    (tmp_path / "q.qrels").write_text(f"q 0 a {typo}\nq 0 b 2\n")
    with pytest.raises(InputError) as info:
        load(tmp_path / "q.qrels")
    assert str(info.value) == f'q.qrels:1: grade "{typo}" (field 4) is not a finite number; ' \
                              "expected qid iter docno grade"


def test_a_decimal_comma_in_a_qrels_line_is_not_a_csv_of_doc_and_grade(tmp_path):
    """`q7 0 d 1,5` used to be read as a CSV row: document "q7 0 d 1", grade 5."""
    (tmp_path / "q.qrels").write_text("q7 0 d 1,5\n")
    with pytest.raises(InputError, match=r'grade "1,5" \(field 4\)'):
        load(tmp_path / "q.qrels")


@pytest.mark.parametrize("text", [
    "query doc score\nq a 1.5\n",  # a header of three names
    "qid Q0 docno rank score tag\nq Q0 a 1 2 t\n",  # a header that has a run's shape, words only
    "doc,grade\na,1\n",
])
def test_headers_are_still_headers(tmp_path, text):
    (tmp_path / "f.csv").write_text(text)
    (tmp_path / "q.qrels").write_text(QRELS)
    data = load(tmp_path / "f.csv", tmp_path / "q.qrels")
    assert data.kind == "csv"
