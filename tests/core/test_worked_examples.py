"""Every figure of the worked examples of the NDCG literature (copied here), at every rank, to 4 decimals.

The tables are copied here as text (rank | grade | CG | DCG | IDCG | NDCG) and parsed, so a typo
in one figure fails exactly one row.
"""

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import dcg_score, ndcg_score

from ndcg_gui.core import Measure, dcg_idcg_at, evaluate, ndcg_at, per_rank

LOG2 = Measure(ideal="retrieved")
JARVELIN = Measure(discount="jarvelin", base=2, ideal="retrieved")
EXPONENTIAL = Measure(gain="exponential", ideal="retrieved")

TABLES = {
    "E1": (
        LOG2,
        """
        1 | 3 | 3 | 3.0000 | 3.0000 | 1.0000
        2 | 2 | 5 | 4.2619 | 4.8928 | 0.8710
        3 | 3 | 8 | 5.7619 | 5.8928 | 0.9778
        4 | 0 | 8 | 5.7619 | 6.3235 | 0.9112
        5 | 1 | 9 | 6.1487 | 6.3235 | 0.9724
    """,
    ),
    "E2": (
        LOG2,
        """
        1 | 4 | 4 | 4.0000 | 5.0000 | 0.8000
        2 | 2 | 6 | 5.2619 | 8.1546 | 0.6453
        3 | 5 | 11 | 7.7619 | 10.1546 | 0.7644
        4 | 3 | 14 | 9.0539 | 11.4467 | 0.7910
        5 | 5 | 19 | 10.9882 | 12.2204 | 0.8992
    """,
    ),
    "E3a": (
        JARVELIN,
        """
        1 | 2 | 2 | 2.0000 | 3.0000 | 0.6667
        2 | 3 | 5 | 5.0000 | 5.0000 | 1.0000
        3 | 1 | 6 | 5.6309 | 6.2619 | 0.8992
        4 | 2 | 8 | 6.6309 | 6.7619 | 0.9806
        5 | 1 | 9 | 7.0616 | 7.1925 | 0.9818
        6 | 0 | 9 | 7.0616 | 7.5794 | 0.9317
        7 | 1 | 10 | 7.4178 | 7.5794 | 0.9787
    """,
    ),
    "E3b": (
        JARVELIN,
        """
        1 | 3 | 3 | 3.0000 | 3.0000 | 1.0000
        2 | 2 | 5 | 5.0000 | 5.0000 | 1.0000
        3 | 2 | 7 | 6.2619 | 6.2619 | 1.0000
        4 | 1 | 8 | 6.7619 | 7.2619 | 0.9311
        5 | 2 | 10 | 7.6232 | 7.6925 | 0.9910
        6 | 1 | 11 | 8.0101 | 8.0794 | 0.9914
        7 | 0 | 11 | 8.0101 | 8.4356 | 0.9496
        8 | 0 | 11 | 8.0101 | 8.4356 | 0.9496
        9 | 1 | 12 | 8.3255 | 8.4356 | 0.9870
    """,
    ),
    "E3c": (
        EXPONENTIAL,
        """
        1 | 2 | 2 | 3.0000 | 7.0000 | 0.4286
        2 | 3 | 5 | 7.4165 | 8.8928 | 0.8340
        3 | 1 | 6 | 7.9165 | 10.3928 | 0.7617
        4 | 2 | 8 | 9.2085 | 10.8235 | 0.8508
        5 | 1 | 9 | 9.5954 | 11.2103 | 0.8559
        6 | 0 | 9 | 9.5954 | 11.5665 | 0.8296
        7 | 1 | 10 | 9.9287 | 11.5665 | 0.8584
    """,
    ),
    "E3d": (
        EXPONENTIAL,
        """
        1 | 3 | 3 | 7.0000 | 7.0000 | 1.0000
        2 | 2 | 5 | 8.8928 | 8.8928 | 1.0000
        3 | 2 | 7 | 10.3928 | 10.3928 | 1.0000
        4 | 1 | 8 | 10.8235 | 11.6848 | 0.9263
        5 | 2 | 10 | 11.9840 | 12.0717 | 0.9927
        6 | 1 | 11 | 12.3402 | 12.4279 | 0.9929
        7 | 0 | 11 | 12.3402 | 12.7612 | 0.9670
        8 | 0 | 11 | 12.3402 | 12.7612 | 0.9670
        9 | 1 | 12 | 12.6413 | 12.7612 | 0.9906
    """,
    ),
    "E4": (
        LOG2,
        """
        1 | 3 | 3 | 3.0000 | 3.0000 | 1.0000
        2 | 2 | 5 | 4.2619 | 4.8928 | 0.8710
        3 | 3 | 8 | 5.7619 | 5.8928 | 0.9778
        4 | 0 | 8 | 5.7619 | 5.8928 | 0.9778
    """,
    ),
    "E5a": (
        LOG2,
        """
        1 | 0.5 | 0.5 | 0.5000 | 0.9000 | 0.5556
        2 | 0.9 | 1.4 | 1.0678 | 1.2786 | 0.8352
        3 | 0.3 | 1.7 | 1.2178 | 1.5286 | 0.7967
        4 | 0.6 | 2.3 | 1.4762 | 1.6578 | 0.8905
        5 | 0.1 | 2.4 | 1.5149 | 1.6964 | 0.8930
    """,
    ),
    "E5b": (
        LOG2,
        """
        1 | 0.6 | 0.6 | 0.6000 | 0.9000 | 0.6667
        2 | 0.5 | 1.1 | 0.9155 | 1.2786 | 0.7160
        3 | 0.1 | 1.2 | 0.9655 | 1.5286 | 0.6316
        4 | 0.3 | 1.5 | 1.0947 | 1.6578 | 0.6603
        5 | 0.9 | 2.4 | 1.4428 | 1.6964 | 0.8505
    """,
    ),
}


def parse(text: str) -> pd.DataFrame:
    rows = [[float(x) for x in line.split("|")] for line in text.strip().splitlines()]
    return pd.DataFrame(rows, columns=["rank", "grade", "CG", "DCG", "IDCG", "NDCG"])


def assert_4dp(actual, expected) -> None:
    """Equal when rounded to 4 decimals, as the reference prints them."""
    np.testing.assert_array_equal(np.round(np.asarray(actual, float), 4), np.asarray(expected, float))


@pytest.mark.parametrize("name", TABLES)
def test_every_rank_of_the_table(name):
    config, text = TABLES[name]
    expected = parse(text)
    table = per_rank(expected["grade"], config)
    np.testing.assert_array_equal(table["rank"], expected["rank"])
    assert_4dp(table["dcg"], expected["DCG"])
    assert_4dp(table["idcg"], expected["IDCG"])
    assert_4dp(table["ndcg"], expected["NDCG"])
    grades = expected["grade"].to_numpy()
    if config.gain == "exponential":
        # In E3c/E3d the reference's CG column is the cumulative *grade*, not the cumulative gain;
        # our `cg` is the textbook cumulative gain, so the table's CG is checked against the grades.
        assert_4dp(np.cumsum(grades), expected["CG"])
        np.testing.assert_allclose(table["cg"], np.cumsum(2.0**grades - 1))
    else:
        assert_4dp(table["cg"], expected["CG"])


@pytest.mark.parametrize("name", TABLES)
def test_ndcg_at_and_evaluate_agree_with_the_table_at_every_rank(name):
    config, text = TABLES[name]
    expected = parse(text)
    run = pd.DataFrame(
        {"query": "q", "doc": [f"d{i}" for i in range(len(expected))], "grade": expected["grade"]}
    )
    for k, row in zip(expected["rank"].astype(int), expected.itertuples(), strict=True):
        assert round(ndcg_at(expected["grade"], config.with_(k=k)), 4) == row.NDCG
        dcg, idcg = dcg_idcg_at(expected["grade"], config.with_(k=k))
        assert (round(dcg, 4), round(idcg, 4)) == (row.DCG, row.IDCG)
        result = evaluate(run, measure=config.with_(k=int(k), ties="file"))
        assert round(result.loc["q", "ndcg"], 4) == row.NDCG
        assert round(result.loc["q", "dcg"], 4) == row.DCG


def test_e1_material_rounded_too_early():
    # The material prints 6.150 / 6.325; the right figures are 6.1487 / 6.3235 (code there: 6.149, 6.323).
    dcg, idcg = dcg_idcg_at([3, 2, 3, 0, 1], LOG2.with_(k=5))
    assert (round(dcg, 3), round(idcg, 3)) == (6.149, 6.323)
    assert round(ndcg_at([3, 2, 3, 0, 1], LOG2.with_(k=5)), 3) == 0.972


def test_e2_as_scikit_learn_input():
    # ndcg_score([[5,5,4,3,2]], [[3,1,5,2,4]], k=3) = 0.7644: the same list, given as scores.
    assert round(ndcg_score([[5, 5, 4, 3, 2]], [[3, 1, 5, 2, 4]], k=3), 4) == 0.7644
    run = pd.DataFrame(
        {"query": "q", "doc": list("abcde"), "grade": [5, 5, 4, 3, 2], "score": [3, 1, 5, 2, 4]}
    )
    assert (
        round(evaluate(run, measure=preset("sklearn").with_(k=3, ties="average")).loc["q", "ndcg"], 4)
        == 0.7644
    )


def test_e3_material_figures():
    # E3a: DCG 7.42 and IDCG 7.58 right, NDCG 0.989 wrong (7.4178 / 7.5794 = 0.9787).
    assert round(ndcg_at([2, 3, 1, 2, 1, 0, 1], JARVELIN.with_(k=None)), 4) == 0.9787
    # E3d: the material's 13.11 / 14.96 / 0.563 are wrong; 12.6413 / 12.7612 = 0.9906.
    dcg, idcg = dcg_idcg_at([3, 2, 2, 1, 2, 1, 0, 0, 1], EXPONENTIAL.with_(k=None))
    assert (round(dcg, 4), round(idcg, 4)) == (12.6413, 12.7612)


def test_e5_cumulative_gain_is_order_free_and_the_first_order_is_better():
    a = per_rank([0.5, 0.9, 0.3, 0.6, 0.1], LOG2)
    b = per_rank([0.6, 0.5, 0.1, 0.3, 0.9], LOG2)
    assert round(a["cg"].iloc[-1], 10) == round(b["cg"].iloc[-1], 10) == 2.4
    assert a["ndcg"].iloc[-1] > b["ndcg"].iloc[-1]


E5C = pd.DataFrame({"query": "q", "doc": list("abcde"), "grade": [3, 2, 1, 0, 0], "score": [3, 2, 0, 0, 1]})


def test_e5c_ties_averaged_like_scikit_learn():
    sk = preset("sklearn")
    result = evaluate(E5C, measure=sk.with_(ties="average")).loc["q"]
    assert (round(result["dcg"], 4), round(result["idcg"], 4), round(result["ndcg"], 4)) == (
        4.6706,
        4.7619,
        0.9808,
    )
    y_true, y_score = [E5C["grade"].tolist()], [E5C["score"].tolist()]
    assert round(dcg_score(y_true, y_score), 4) == 4.6706
    assert round(ndcg_score(y_true, y_score), 4) == 0.9808


def test_e5c_ignore_ties_is_one_fixed_order_of_the_tie():
    # sklearn's ignore_ties=True keeps the tied pair in its argsort order: here grade 0 before grade 1.
    sk = preset("sklearn")
    assert round(ndcg_score([E5C["grade"].tolist()], [E5C["score"].tolist()], ignore_ties=True), 4) == 0.9854
    assert round(ndcg_at([3, 2, 0, 1, 0], sk.with_(k=None)), 4) == 0.9854
    # Here that order is the file order of the tied pair (c before d), i.e. ties="file".
    assert round(evaluate(E5C, measure=sk.with_(ties="file")).loc["q", "ndcg"], 4) == 0.9854


def test_e6_jarvelin_on_e1_and_e2():
    dcg, idcg = dcg_idcg_at([3, 2, 3, 0, 1], JARVELIN.with_(k=5))
    # DCG@5 = 3 + 2 + 3/log2(3) + 1/log2(5) = 7.32347: the reference truncates it to 7.3234.
    assert dcg == pytest.approx(7.3234, abs=1e-4)
    assert round(idcg, 4) == 7.7619
    assert round(ndcg_at([3, 2, 3, 0, 1], JARVELIN.with_(k=5)), 4) == 0.9435
    assert round(ndcg_at([4, 2, 5, 3, 5], JARVELIN.with_(k=3)), 4) == 0.7310
    assert round(ndcg_at([3, 2, 3, 0, 1], preset("jarvelin2002").with_(k=5)), 4) == 0.9435


def test_e7_judged_versus_retrieved_ideal():
    grades, judged = [3, 2, 3, 0, 1], [3, 2, 3, 0, 1, 3]
    assert round(ndcg_at(grades, Measure(ideal="retrieved", k=5), judged=judged), 4) == 0.9724
    assert round(ndcg_at(grades, Measure(ideal="judged", k=5), judged=judged), 4) == 0.8047
    assert round(dcg_idcg_at(grades, Measure(ideal="judged", k=5), judged=judged)[1], 4) == 7.6410
    table = per_rank(grades, Measure(ideal="judged"), judged=judged)
    assert round(table["idcg"].iloc[4], 4) == 7.6410
    assert round(table["ndcg"].iloc[4], 4) == 0.8047
    # The same through evaluate, with the unretrieved document only in the qrels.
    run = pd.DataFrame({"query": "q", "doc": list("abcde"), "score": [5, 4, 3, 2, 1]})
    qrels = pd.DataFrame({"query": "q", "doc": list("abcdex"), "grade": judged})
    assert (
        round(evaluate(run, qrels, preset("trec_eval").with_(k=5)).loc["q", "ndcg"], 4)
        == 0.8047
    )
    assert (
        round(evaluate(run, qrels, preset("sklearn").with_(k=5)).loc["q", "ndcg"], 4) == 0.9724
    )


# ---- the project's own copy (resources/examples/worked_examples.json), as the window opens them ----
from ndcg_gui.core.analysis.list_report import display_table  # noqa: E402
from ndcg_gui.core.ndcg.presets import preset  # noqa: E402
from ndcg_gui.core.teaching.examples import figure, worked_examples  # noqa: E402

SHIPPED = {e.id: e for e in worked_examples()}


def test_every_example_of_the_reference_is_shipped():
    assert list(SHIPPED) == ["E1", "E2", "E3a", "E3b", "E3c", "E3d", "E4", "E5a", "E5b", "E5c", "E6a", "E6b",
                             "E7"]


@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_figures_at_k_are_the_cores(name):
    e = SHIPPED[name]
    for what, expected in e.figures.items():
        assert round(figure(e.list, e.measure, f"{what.upper()}@{e.k}"), 4) == expected, what


@pytest.mark.parametrize("name", [n for n, e in SHIPPED.items() if e.table])
def test_shipped_tables_are_the_cores_at_every_rank(name):
    e = SHIPPED[name]
    table = display_table(e.list, e.measure)
    expected = pd.DataFrame(e.table, columns=["rank", "grade", "CG", "DCG", "IDCG", "NDCG"])
    np.testing.assert_array_equal(table["grade"], expected["grade"])
    assert_4dp(table["dcg"], expected["DCG"])
    assert_4dp(table["idcg"], expected["IDCG"])
    assert_4dp(table["ndcg"], expected["NDCG"])
    if name in TABLES:  # the same figures as the reference's tables typed above
        assert_4dp(table["ndcg"], parse(TABLES[name][1])["NDCG"])


# What the material printed and whether it is wrong, from the reference's text (not from our data).
PRINTED_WRONG = {("E1", "DCG@5"), ("E1", "IDCG@5"), ("E3a", "NDCG@7"), ("E3d", "DCG@9"), ("E3d", "IDCG@9"),
                 ("E3d", "NDCG@9"), ("E4", "IDCG@4"), ("E4", "NDCG@4"), ("E7", "NDCG@5")}


def test_each_printed_figure_is_judged_against_the_core_and_the_wrong_ones_named_in_the_note():
    judged = {(e.id, p.what): p.wrong for e in SHIPPED.values() for p in e.printed}
    assert {key for key, wrong in judged.items() if wrong} == PRINTED_WRONG
    for e in SHIPPED.values():
        for p in e.printed:
            assert round(p.right, 4) == round(figure(e.list, e.measure, p.what), 4)
            line = f"Printed {p.what} = {p.printed}: " + ("wrong" if p.wrong else "right")
            assert line in e.note(), (e.id, p.what)


def test_the_notes_say_why_they_differ():
    assert "rounded too early" in SHIPPED["E1"].note()
    assert "the ideal must include the relevant documents the list missed" in SHIPPED["E7"].note()
    assert "7.4178 / 7.5794 = 0.9787" in SHIPPED["E3a"].note()


def test_each_example_opens_as_a_typed_list_under_its_own_definition():
    e = SHIPPED["E7"]
    ws = e.workspace()
    assert ws.measure == e.measure and ws.measure.ideal == "judged"
    assert ws.file.name == "Worked example E7" and ws.first_query() == ""
    assert ws.list_for("").unretrieved == {"d6": 3.0} and ws.list_for("").has_pool
    assert SHIPPED["E3a"].measure.discount == "jarvelin"
    assert SHIPPED["E3c"].measure.gain == "exponential"
    assert SHIPPED["E5c"].measure.ties == "average"
