"""Numbers typed and shown (core.numbers) and rows pasted or copied (core.clipboard)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from ndcg_gui.core.lists.clipboard import parse_quick_list, parse_rows, rows_as_tsv
from ndcg_gui.core.lists.numbers import (
    decimals_for,
    format_fixed,
    format_grade,
    format_metric,
    parse_grade,
)
from ndcg_gui.core.lists.query_order import natural_order
from ndcg_gui.core.lists.ranked_list import RankedList


@pytest.mark.parametrize(("text", "value"), [("2", 2.0), (" 1.5 ", 1.5), ("0,5", 0.5), ("-1", -1.0),
                                             ("1e2", 100.0)])
def test_parse_grade(text, value):
    assert parse_grade(text) == value


@pytest.mark.parametrize("text", ["", " ", "-", "unjudged", "UNJUDGED", "nan"])
def test_parse_grade_reads_no_judgment(text):
    assert math.isnan(parse_grade(text))


@pytest.mark.parametrize("text", ["inf", "1e400", "high", "1,2,3"])
def test_parse_grade_refuses(text):
    with pytest.raises(ValueError):
        parse_grade(text)


@given(st.floats(allow_nan=False, allow_infinity=False, min_value=-1e12, max_value=1e12))
def test_a_shown_grade_reads_back_as_the_same_number(x):
    assert parse_grade(format_grade(x)) == x


def test_one_display_rule_per_kind_of_figure():
    assert [format_grade(g) for g in (2.0, 0.5, -1.0, 1.25)] == ["2", "0.5", "-1", "1.25"]
    assert format_grade(float("nan")) == ""
    assert [format_metric(x) for x in (5.0, 0.97237)] == ["5.0000", "0.9724"]
    scores = [1.0, 0.9998, 0.5]
    d = decimals_for(scores)
    assert [format_fixed(s, d) for s in scores] == ["1.0000", "0.9998", "0.5000"]
    assert decimals_for([3.0, 2.0, np.nan]) == 0
    assert decimals_for([1 / 3]) == 6  # capped


def test_paste_rows_reads_pairs_or_a_column_and_skips_a_header():
    assert parse_rows("doc\tgrade\nA\t2\nB\t\n").docs == ["A", "B"]
    assert math.isnan(parse_rows("A\t2\nB\t\n").grades[1])
    assert parse_rows("3\n2\n0.5\n").grades == [3, 2, 0.5]
    assert parse_rows("a;1\nb;2").docs == ["a", "b"]
    with pytest.raises(ValueError, match="no rows"):
        parse_rows("\n \n")
    with pytest.raises(ValueError, match="line 3"):
        parse_rows("doc grade\na 1\nb high\n")


def test_quick_list():
    assert parse_quick_list("3 2 3 0 1") == [3, 2, 3, 0, 1]
    assert parse_quick_list("3, 2;1") == [3, 2, 1]
    with pytest.raises(ValueError, match="grade in place 2"):
        parse_quick_list("3 x")
    with pytest.raises(ValueError):
        parse_quick_list("3 inf")


def test_copied_rows_paste_back_the_same():
    lst = RankedList(docs=["a", "b", "c"], grades=[2, np.nan, 0.5])
    pasted = parse_rows(rows_as_tsv(lst))
    assert pasted.docs == ["a", "b", "c"]
    np.testing.assert_array_equal(pasted.grades, lst.grades)
    assert rows_as_tsv(lst, [1]) == "doc\tgrade\nb\t\n"


def test_natural_order():
    assert list(natural_order(np.array(["10", "9", "a", "1b"], dtype=object))) == [2, 1, 3, 0]
    ids = np.array(["q10", "q2", "q1"], dtype=object)
    assert [ids[i] for i in np.argsort(natural_order(ids))] == ["q1", "q2", "q10"]
    assert list(natural_order(np.array(["2", "010", "1"], dtype=object))) == [1, 2, 0]


@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 30)), min_size=1, max_size=15))
def test_natural_order_of_numbers_is_by_value_then_by_text(parts):
    """Ids of digits (TREC topics): by value, then as text ("007" < "07" < "7", "0" < "00"),
    whatever way the order is computed (numpy over the array since issue 24's 500,000 queries)."""
    ids = ["0" * zeros + str(n) for zeros, n in parts]
    want = sorted(range(len(ids)), key=lambda i: (int(ids[i]), ids[i], i))
    rank = natural_order(np.array(ids, dtype=object))
    assert [int(i) for i in np.argsort(rank)] == want
