"""overlap: RBO_ext equal to the `rbo` package and to its definition summed depth by depth, Kendall's
τ-b equal to scipy on the union (missing documents tied at the bottom), Jaccard@k equal to sets,
and each list ranked as the loader ranks the run (score high first, ties by trec_eval's rule)."""

import math

import numpy as np
import pandas as pd
import pytest
import rbo
from hypothesis import example, given, settings
from hypothesis import strategies as st
from scipy import stats

from ndcg_gui.core.analysis.runs.overlap import (
    jaccard_at,
    judging_holes,
    kendall_tau,
    overlap_table,
    rbo_ext,
)
from ndcg_gui.core.ndcg.measure import Measure
from ndcg_gui.core.reading import load

DOCS = [f"d{i}" for i in range(12)]
ranking = st.lists(st.sampled_from(DOCS), unique=True, max_size=12)
persistence = st.floats(0.05, 0.98)


def rbo_by_definition(a: list, b: list, p: float) -> float:
    """RBO = (1 - p) Σ_d p^(d-1) A_d summed far past both lists, with Webber et al.'s extrapolation
    stated as overlaps: past the short list's end its unseen documents agree at its last rate
    X_s / s; past the long list's end the agreement stays what it was there."""
    short, long = (a, b) if len(a) <= len(b) else (b, a)
    s, l = len(short), len(long)  # noqa: E741
    if s == 0:
        return 1.0 if l == 0 else 0.0
    x_s = len(set(short) & set(long[:s]))
    total, agreement = 0.0, 0.0
    for d in range(1, l + 2000):
        if d <= l:
            seen = len(set(short[:d]) & set(long[:d]))
            agreement = (seen + (d - s) * x_s / s if d > s else seen) / d
        total += (1 - p) * p ** (d - 1) * agreement
    return total


@settings(max_examples=300, deadline=None)
@given(ranking, ranking, persistence)
def test_rbo_is_the_package_and_the_definition(a, b, p):
    ours = rbo_ext(a, b, p)
    assert ours == pytest.approx(rbo.RankingSimilarity(a, b).rbo_ext(p), abs=1e-12)
    assert ours == pytest.approx(rbo_by_definition(a, b, p), abs=1e-9)
    assert ours == pytest.approx(rbo_ext(b, a, p), abs=1e-15)  # symmetric
    assert -1e-12 <= ours <= 1 + 1e-12


def test_rbo_at_its_ends():
    assert rbo_ext(["a", "b", "c"], ["a", "b", "c"]) == pytest.approx(1)
    assert rbo_ext(["a", "b"], ["c", "d"]) == 0
    assert rbo_ext([], []) == 1 and rbo_ext([], ["a"]) == 0
    # The top weighs most: a swap at the top costs more than one at the bottom.
    assert rbo_ext(list("bacde"), list("abcde")) < rbo_ext(list("abced"), list("abcde"))
    with pytest.raises(ValueError, match="p must be"):
        rbo_ext(["a"], ["a"], p=1.0)


@settings(max_examples=300, deadline=None)
@given(ranking, ranking)
def test_tau_is_scipys_tau_b_with_missing_documents_tied_at_the_bottom(a, b):
    union = sorted(set(a) | set(b))
    ours = kendall_tau(a, b)
    if not a or not b or len(union) < 2:
        assert math.isnan(ours)
        return
    rank_a = [a.index(d) + 1 if d in a else len(a) + 1 for d in union]
    rank_b = [b.index(d) + 1 if d in b else len(b) + 1 for d in union]
    want = stats.kendalltau(rank_a, rank_b, variant="b").statistic
    assert ours == pytest.approx(want, abs=1e-12, nan_ok=True)
    # τ-b by its pairs, brute force: concordant minus discordant over the untied pairs of each side.
    pairs = [(rank_a[i] - rank_a[j], rank_b[i] - rank_b[j])
             for i in range(len(union)) for j in range(i + 1, len(union))]
    c_minus_d = sum(np.sign(x) * np.sign(y) for x, y in pairs)
    untied_a, untied_b = sum(x != 0 for x, _ in pairs), sum(y != 0 for _, y in pairs)
    if untied_a and untied_b:
        assert ours == pytest.approx(c_minus_d / math.sqrt(untied_a * untied_b), abs=1e-12)


def test_tau_of_a_reversed_list_and_of_disjoint_lists():
    assert kendall_tau(list("abcd"), list("dcba")) == pytest.approx(-1)
    assert kendall_tau(list("abcd"), list("abcd")) == pytest.approx(1)
    # Disjoint: each list puts its own documents above the other's, tied at its bottom: the four
    # pairs across are discordant, and of the six pairs five are untied on each side: -4 / 5.
    assert kendall_tau(["a", "b"], ["c", "d"]) == pytest.approx(-0.8)


@settings(max_examples=200, deadline=None)
@given(ranking, ranking, st.one_of(st.none(), st.integers(1, 14)))
def test_jaccard_is_sets(a, b, k):
    top_a, top_b = set(a if k is None else a[:k]), set(b if k is None else b[:k])
    want = len(top_a & top_b) / len(top_a | top_b) if top_a | top_b else 1.0
    assert jaccard_at(a, b, k) == want


def write_run(path, rows) -> None:
    path.write_text("".join(f"{q} Q0 {d} {i + 1} {s!r} tag\n" for i, (q, d, s) in enumerate(rows)))


def trec_ranked(rows, query) -> list[str]:
    """The query's docs as NDCG ranks them under the default preset, trec_eval (worked out here
    without the core): by score high first, compared as float32 as trec_eval 9.x keeps them (1.0
    and 1.0000000001 tie), tied scores by doc id descending (trec_eval's strcmp). The loader's
    order (exact float64 scores) differs from it on such ties: the table must not take that one."""
    mine = sorted(((d, s) for q, d, s in rows if q == query), key=lambda r: r[0], reverse=True)
    return [d for d, _ in sorted(mine, key=lambda r: -float(np.float32(r[1])))]


run_rows = st.lists(
    st.tuples(st.sampled_from(["q1", "q2", "q3"]), st.sampled_from(DOCS),
              st.sampled_from([0.5, 1.0, 1.0000000001, 2.0, 3.25])),
    min_size=1, max_size=30, unique_by=lambda r: (r[0], r[1]))


@settings(max_examples=40, deadline=None)
@given(run_rows, run_rows, persistence, st.integers(1, 12))
# (1.0 and 1.0000000001 tie as float32: d1 before d0 by doc id, not d0 first as the exact scores say)
@example(rows_a=[("q2", "d0", 0.5)], rows_b=[("q2", "d0", 1.0000000001), ("q2", "d1", 1.0)], p=0.5, k=1)
def test_table_ranks_each_list_as_the_run_is_ranked(tmp_path_factory, rows_a, rows_b, p, k):
    folder = tmp_path_factory.mktemp("runs")
    write_run(folder / "a.run", rows_a)
    write_run(folder / "b.run", rows_b)
    run_a = load(folder / "a.run", need_grades=False).run
    run_b = load(folder / "b.run", need_grades=False).run
    table = overlap_table(run_a, run_b, Measure(k=k), p=p)
    queries = {q for q, _, _ in rows_a} | {q for q, _, _ in rows_b}
    assert set(table.index) == queries
    for q in queries:
        a, b = trec_ranked(rows_a, q), trec_ranked(rows_b, q)
        assert table.at[q, "rbo"] == pytest.approx(rbo.RankingSimilarity(a, b).rbo_ext(p), abs=1e-12)
        assert table.at[q, "jaccard"] == jaccard_at(a, b, k)
        assert table.at[q, "tau"] == pytest.approx(kendall_tau(a, b), nan_ok=True)
    # Most different first: RBO never falls down the table.
    assert (np.diff(table["rbo"].to_numpy()) >= 0).all()


def test_judging_holes_are_big_ranking_changes_without_an_ndcg_change():
    rbo_col = pd.Series({"same": 1.0, "moved": 0.2, "better": 0.2, "unjudged": 0.2}, name="rbo")
    delta = pd.Series({"same": 0.0, "moved": 0.0, "better": 0.3})  # "unjudged": no NDCG figure
    assert list(judging_holes(rbo_col, delta)) == ["moved"]


# ---- the window's and the report's order, and the overlap of a document's runs (issue 35.3) -------
@given(st.lists(st.tuples(st.sampled_from(["q1", "q2", "q10", "Q2", "a", "q3"]),
                          st.sampled_from([0.0, 0.25, 1.0])), unique_by=lambda r: r[0], max_size=6))
def test_most_different_first_is_lowest_rbo_then_query_ids_as_people_order_them(rows):
    from ndcg_gui.core.analysis.runs.overlap import most_different_first
    from ndcg_gui.core.lists.query_order import natural_key

    table = pd.DataFrame({"rbo": [r for _, r in rows], "jaccard": 0.0, "tau": 0.0},
                         index=pd.Index([q for q, _ in rows], dtype=object))
    want = [q for q, _ in sorted(rows, key=lambda r: (r[1], natural_key(r[0])))]
    assert list(most_different_first(table).index) == want


def test_a_documents_runs_overlap_with_the_open_runs_lists_as_edited(tmp_path):
    """`run_overlap` over a window's state: each list ranked as NDCG ranks it, the open run's edited
    list as it stands; the `rbo` package, sets and scipy on those lists are the truth."""
    import dataclasses

    from ndcg_gui.core.analysis.workspace_report import run_overlap
    from ndcg_gui.core.state.workspace import Workspace

    rng = np.random.default_rng(5)
    texts = []
    for name in ("a", "b"):
        rows = [(q, f"d{d}", round(float(rng.random()), 1)) for q in ("q1", "q2", "q10")
                for d in rng.choice(15, 8, replace=False)]
        (tmp_path / f"{name}.run").write_text("".join(f"{q} Q0 {d} {i} {s} t\n" for i, (q, d, s) in
                                                      enumerate(rows, 1)))
        texts.append(rows)
    a, b = (load(tmp_path / f"{n}.run", need_grades=False) for n in ("a", "b"))
    state, name = Workspace.of(a).with_run(b, tmp_path / "b.run", open_name="a")
    lst = state.list_for("q2")
    edited = dataclasses.replace(lst, docs=lst.docs[::-1].copy(), grades=lst.grades[::-1].copy(),
                                 scores=None)
    state = state.with_list("q2", edited)
    got = run_overlap(state, "a", "a", name)

    def ranked(rows, q):  # trec_eval's rule: score (float32) high first, ties by doc id descending
        mine = sorted(((d, s) for qq, d, s in rows if qq == q), key=lambda r: r[0], reverse=True)
        return [d for d, _ in sorted(mine, key=lambda r: -float(np.float32(r[1])))]

    for q in ("q1", "q2", "q10"):
        x = list(edited.docs) if q == "q2" else ranked(texts[0], q)
        y = ranked(texts[1], q)
        assert got.at[q, "rbo"] == pytest.approx(rbo.RankingSimilarity(x, y).rbo_ext(0.9), abs=1e-12)
        assert got.at[q, "jaccard"] == len(set(x[:10]) & set(y[:10])) / len(set(x[:10]) | set(y[:10]))
        union = list(dict.fromkeys(x + y))
        tau = stats.kendalltau([x.index(d) if d in x else len(x) for d in union],
                               [y.index(d) if d in y else len(y) for d in union]).statistic
        assert got.at[q, "tau"] == pytest.approx(tau, abs=1e-12)
    assert run_overlap(state, "a", "a", name, queries=["q2"]).index.tolist() == ["q2"]
    assert not state.has_judgments()  # (runs without qrels: compared by their rankings alone)


def test_a_run_with_grades_of_its_own_but_no_qrels_is_not_compared(tmp_path):
    from ndcg_gui.core.state.workspace import Workspace

    (tmp_path / "a.csv").write_text("query,doc,score,grade\nq,x,2,1\nq,y,1,0\n")
    a = load(tmp_path / "a.csv")
    with pytest.raises(ValueError, match="runs are compared on judgments"):
        Workspace.of(a).with_run(a, tmp_path / "a.csv", open_name="a")


def test_the_windows_lines_and_cells_of_the_overlap_say_the_means_and_the_most_different():
    from ndcg_gui.core.analysis.runs.overlap import holes_line, overlap_cells, overlap_line

    table = pd.DataFrame({"rbo": [0.9, 0.2, 0.2], "jaccard": [1.0, 0.5, 0.0], "tau": [0.5, np.nan, 0.1]},
                         index=pd.Index(["q3", "q10", "q2"], dtype=object))
    line = overlap_line(table, "A", "B", 10)
    assert line == ("B against A, no judgments: mean RBO 0.4333 · Jaccard@10 0.5000 · τ 0.3000 (3 queries) "
                    "· most different: q2 (RBO 0.2000)")
    columns, rows = overlap_cells(table, "A", "B", 10)
    assert [c for c, _ in columns] == ["Run", "RBO (mean)", "J@10 (mean)", "τ (mean)", "Most different"]
    assert rows == [["A", "", "", "", ""], ["B", "0.4333", "0.5000", "0.3000", "q2 (RBO 0.2000)"]]
    assert holes_line([], "B") == ""
    assert holes_line(["q2"], "B").startswith("B: 1 query ranked very differently with the same NDCG")
