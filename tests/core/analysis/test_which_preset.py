"""Which presets give a mean someone has from another tool (issue 22.2): the figure read as written,
and the answer checked against the tools themselves (ranx, scikit-learn) on a run with ties."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest
from ranx_width import one_width

from ndcg_gui.core.analysis.difference import presets_giving
from ndcg_gui.core.analysis.which_preset import answer, presets_giving_figure, read_figure
from ndcg_gui.core.errors import InputError


def run_and_qrels(seed: int = 3):
    rng = np.random.default_rng(seed)
    rows = [(f"q{q}", f"d{d}", float(rng.integers(0, 4))) for q in range(6) for d in range(12)]
    run = pd.DataFrame(rows, columns=["query", "doc", "score"])  # scores 0-3: many ties
    qrels = run[["query", "doc"]].assign(grade=rng.integers(0, 4, len(run)).astype(float))
    return run, qrels


@pytest.mark.parametrize(("text", "value", "digits", "named"), [
    ("0.4127 from ranx", 0.4127, 4, ("ranx_burges", "ranx")),
    ("scikit-learn said .41", 0.41, 2, ("sklearn",)),
    ("trec_eval: 0.5", 0.5, 1, ("trec_eval", "trec_eval_J")),  # (its -J preset is trec_eval too)
    ("1", 1.0, 0, ()),
])
def test_the_figure_is_read_with_its_decimals_and_the_tool_named(text, value, digits, named):
    figure = read_figure(text)
    assert (figure.value, figure.digits) == (value, digits)
    assert set(figure.named) == set(named)


def test_text_without_a_mean_is_one_line_saying_what_was_expected():
    with pytest.raises(InputError, match="expected a mean NDCG between 0 and 1"):
        read_figure("ranx said 12.5")


@pytest.mark.slow  # (ranx compiles its numba functions first: once, on one worker)
@pytest.mark.xdist_group("ranx")
def test_ranx_own_mean_is_answered_with_ranx_at_its_k():
    from ranx import Qrels, Run
    from ranx import evaluate as ranx_evaluate

    run, qrels = run_and_qrels()
    # (ties broken in the scores: ranx's tie order is its sort's)
    run = run.assign(score=run["score"] + 1e-6 * np.arange(len(run))[::-1])
    run_dict = {q: dict(zip(g["doc"], g["score"], strict=True)) for q, g in run.groupby("query")}
    qrels_dict = {q: dict(zip(g["doc"], g["grade"].astype(int), strict=True))
                  for q, g in qrels.groupby("query")}
    run_dict, qrels_dict = one_width(run_dict, qrels_dict)  # (one compile: ranx_width.py)
    theirs = float(ranx_evaluate(Qrels(qrels_dict), Run(run_dict), "ndcg@5"))
    figure = read_figure(f"{theirs:.4f} from ranx")
    table = presets_giving_figure(figure, run, qrels, (5, 10))
    hit = table[(table["preset"] == "ranx") & (table["k"] == 5)]
    assert bool(hit["match"].iloc[0])
    said = answer(figure, table)
    assert said.startswith(f"{theirs:.4f} (to 4 decimals) is what ")
    assert 5 in ks_of(said, "ranx")


def test_scikit_learn_mean_on_tied_scores_and_a_tool_that_does_not_give_it():
    from sklearn.metrics import ndcg_score

    run, qrels = run_and_qrels(5)
    grades = qrels.set_index(["query", "doc"])["grade"]
    per_query = [ndcg_score([grades.loc[q].reindex(g["doc"]).to_numpy()], [g["score"].to_numpy()], k=10)
                 for q, g in run.groupby("query")]
    theirs = float(np.mean(per_query))
    figure = read_figure(f"{theirs:.4f}, from trec_eval they say")
    table = presets_giving_figure(figure, run, qrels, (10, 5, None))
    assert set(table["k"].map(str)) == {"10", "5", "None"} and len(table) == 3 * table["preset"].nunique()
    sk = table[(table["preset"] == "sklearn") & (table["k"] == 10)]
    assert bool(sk["match"].iloc[0])
    trec = presets_giving(theirs, run, qrels, 10, 4).set_index("preset").loc["trec_eval"]
    said = answer(figure, table)
    if not trec["match"]:  # trec_eval's tie order gives another figure: said with its own
        assert f"trec_eval gives {trec['mean']:.4f} at k = 10: not this figure." in said


def ks_of(said: str, preset: str) -> set:
    """The cut-offs at which the answer says `preset` gives the figure (None: the whole list)."""
    found: set = set()
    body = said.split(" is what ", 1)[1].split(".")[0] if " is what " in said else ""
    for part in body.split("; "):
        names, _, at = part.partition(" at ")
        if preset in names.removesuffix(" gives").removesuffix(" give").split(", "):
            found |= {None} if "the whole list" in at else set()
            found |= {int(k) for k in re.findall(r"\d+", at.split(" and the whole list")[0])}
    return found


def test_presets_giving_it_at_the_same_cut_offs_are_said_once():
    run, qrels = run_and_qrels()
    figure = read_figure("0.5")
    table = presets_giving_figure(figure, run, qrels, (10, 5, None))
    table["match"] = table["preset"].isin(["ranx", "trec_eval"]) | ((table["preset"] == "sklearn")
                                                                  & (table["k"] == 5))
    said = answer(figure, table)
    assert said == ("0.5 (to 1 decimal) is what trec_eval, ranx give at k = 10 and the whole list; "
                    "trec_eval, sklearn, ranx give at k = 5.")
    assert ks_of(said, "ranx") == {10, 5, None} and ks_of(said, "sklearn") == {5}


def test_no_preset_gives_it():
    run, qrels = run_and_qrels()
    figure = read_figure("0.00001")
    said = answer(figure, presets_giving_figure(figure, run, qrels, (10, None)))
    assert said == "No preset gives 0.00001 (to 5 decimals) on this run at k = 10 and the whole list."
