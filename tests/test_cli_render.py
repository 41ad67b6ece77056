"""The per-query table as TSV and CSV: `render` writes it column by column in Arrow's kernels;
`delimited_rows` writes it a row at a time through Python's csv writer, as before. Both must give
the same bytes for every table, ids that need quoting and figures of every size included."""

from __future__ import annotations

import csv
import io

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ndcg_gui.cli.output import delimited, delimited_rows, render

FIGURES = st.floats(allow_nan=True, allow_infinity=True) | st.sampled_from(
    [0.0, -0.0, 1.0, 1e-5, 1e-4, 0.5, 1 / 3, 1e10, 1e15, 1e16, 5e-324])
IDS = st.text(max_size=6) | st.sampled_from(['a\tb', 'x"y', "c,d", "e\nf", "g\rh", "", "=1+2", " s ", '"'])


def table(ids, figures, counts) -> pd.DataFrame:
    n = len(ids)
    return pd.DataFrame({
        "query": np.array(ids, dtype=object),
        "n_docs": np.array(counts[:n], np.int64),
        "n_judged": np.array(counts[n:2 * n], np.int64),
        "dcg": figures[:n], "idcg": figures[n:2 * n], "ndcg": figures[2 * n:3 * n],
    })


def by_rows(summary: pd.DataFrame, form: str) -> str:
    from ndcg_gui.cli.output import _mean_row

    return delimited_rows(summary.to_dict("records"), _mean_row(summary), "\t" if form == "tsv" else ",")


@st.composite
def tables(draw):
    ids = draw(st.lists(IDS, max_size=12, unique=True))
    n = len(ids)
    figures = draw(st.lists(FIGURES, min_size=3 * n, max_size=3 * n))
    counts = draw(st.lists(st.integers(0, 10**12), min_size=2 * n, max_size=2 * n))
    return table(ids, figures, counts)


@given(tables(), st.sampled_from(["tsv", "csv"]))
@settings(max_examples=200, deadline=None)
def test_column_by_column_is_row_by_row(summary, form):
    assert render(summary, 10, form) == by_rows(summary, form)
    surrogates = any(q.encode("utf-8", "surrogatepass").decode("utf-8", "ignore") != q
                     for q in summary["query"])
    # (lone surrogates are not text Arrow holds: those tables are written row by row)
    assert (delimited(summary, "\t" if form == "tsv" else ",") is None) == surrogates


@given(tables(), st.sampled_from(["tsv", "csv"]), st.data())
@settings(max_examples=100, deadline=None)
def test_the_judged_column_column_by_column_is_row_by_row(summary, form, data):
    """With Judged@k after ndcg (every run's table since segments came): the same bytes both ways."""
    from ndcg_gui.cli.output import _mean_row

    shares = data.draw(st.lists(st.floats(0, 1), min_size=len(summary), max_size=len(summary)))
    judged = pd.Series(shares, index=summary.index, dtype=float)
    rows = summary.to_dict("records")
    for row, share in zip(rows, shares, strict=True):
        row["judged"] = share
    mean = {**_mean_row(summary), "judged": float(judged.mean()) if len(judged) else 0.0}
    columns = ["query", "n_docs", "n_judged", "dcg", "idcg", "ndcg", "judged"]
    expected = delimited_rows(rows, mean, "\t" if form == "tsv" else ",", columns)
    assert render(summary, 10, form, judged) == expected


@pytest.mark.parametrize("form", ["tsv", "csv"])
def test_quoted_ids_read_back(form):
    ids = ['a\tb', 'x"y', "c,d", "e\nf", "plain"]
    summary = table(ids, [0.5] * 15, [3] * 10)
    text = render(summary, 10, form)
    rows = list(csv.reader(io.StringIO(text), delimiter="\t" if form == "tsv" else ","))
    assert [r[0] for r in rows[1:-1]] == ids
    assert rows[-1][0] == "all"


def test_tables_it_does_not_take_are_written_row_by_row():
    floats = table(["a", "b"], [0.5] * 6, [1, 2, 3, 4]).astype({"n_docs": float})
    numbers = table(["a", "b"], [0.5] * 6, [1, 2, 3, 4])
    numbers["query"] = np.array([1, 2], dtype=object)
    for summary in (floats, numbers):
        assert delimited(summary, "\t") is None
        assert render(summary, 10, "tsv") == by_rows(summary, "tsv")


def test_no_queries():
    summary = table([], [], [])
    expected = "query\tn_docs\tn_judged\tdcg\tidcg\tndcg\nall\t0\t0\t0\t0\t0\n"
    assert render(summary, 10, "tsv") == by_rows(summary, "tsv") == expected


@given(tables(), st.sampled_from(["tsv", "csv"]), st.lists(IDS, max_size=4), st.booleans())
@settings(max_examples=150, deadline=None)
def test_with_segments_column_by_column_is_row_by_row(summary, form, names, judged):
    """The all:SEGMENT rows, the all row and the `queries` column (segments' names needing quotes
    included), with and without the Judged@k column: the same bytes both ways."""
    n = len(summary)
    shares = pd.Series(np.linspace(0, 1, n), index=summary.index) if judged else None
    figures = ["dcg", "idcg", "ndcg", *(["judged"] if judged else [])]
    extra = [{"query": f"all:{name}", "n_docs": i, "n_judged": i, "queries": i + 1,
              **dict.fromkeys(figures, 0.25 * i)} for i, name in enumerate(names)]
    mean = {"query": "all", "n_docs": 7, "n_judged": 3, "queries": n, **dict.fromkeys(figures, 1 / 3)}
    rows = summary.to_dict("records")
    for i, row in enumerate(rows):
        row["queries"] = 1
        if judged:
            row["judged"] = float(shares.iloc[i])
    columns = ["query", "n_docs", "n_judged", *figures, "queries"]
    slow = delimited_rows([*rows, *extra], mean, "\t" if form == "tsv" else ",", columns,
                          ["n_docs", "n_judged", "queries"])
    assert render(summary, 10, form, shares, (extra, mean)) == slow
