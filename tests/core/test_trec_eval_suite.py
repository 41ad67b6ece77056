"""trec_eval's own test suite (tests/data/trec_eval/, with its licence): every NDCG line it prints.

`evaluate` with the trec_eval preset must reproduce every `ndcg` and `ndcg_cut_K` value, per topic
and `all`, of out.test.aq, out.test.aql (graded qrels with -1 grades) and out.test.aqc (a run with a
topic missing, scored with -c), and the `ndcg_1=3,2=9,4=4.5` gain-table line of out.test.meas_params.
The TREC files are read here with a tiny local parser, so this test does not depend on our readers.
"""

from pathlib import Path

import pandas as pd
import pytest

from ndcg_gui.core import evaluate, mean_ndcg
from ndcg_gui.core.ndcg.presets import preset

SUITE = Path(__file__).resolve().parents[1] / "data" / "trec_eval"
TREC = preset("trec_eval")
CUTS = [5, 10, 15, 20, 30, 100, 200, 500, 1000]


def suite_file(name: str) -> Path:
    path = SUITE / name
    if not path.is_file():
        pytest.fail(f"trec_eval test data missing: {path}")
    return path


def read_run(name: str) -> pd.DataFrame:
    """qid Q0 docno rank score tag [extra fields ignored]."""
    frame = pd.read_csv(
        suite_file(name),
        sep=r"\s+",
        header=None,
        usecols=range(6),
        dtype={0: str, 2: str},
        names=["query", "q0", "doc", "rank", "score", "tag"],
        engine="python",
    )
    return frame[["query", "doc", "score"]]


def read_qrels(name: str) -> pd.DataFrame:
    frame = pd.read_csv(
        suite_file(name),
        sep=r"\s+",
        header=None,
        names=["query", "iter", "doc", "grade"],
        dtype={"query": str, "doc": str},
    )
    return frame[["query", "doc", "grade"]]


def expected(name: str, measure: str) -> dict[str, float]:
    """{topic or 'all': value} of one measure in a trec_eval output file."""
    out = {}
    for line in suite_file(name).read_text().splitlines():
        fields = line.split()
        if fields and fields[0] == measure:
            out[fields[1]] = float(fields[2])
    assert out, f"{measure} not found in {name}"
    return out


def check(result: pd.DataFrame, want: dict[str, float]) -> None:
    got = {q: round(v, 4) for q, v in result["ndcg"].items()}
    got["all"] = round(mean_ndcg(result), 4)
    assert got == want


CASES = [
    # output file, run, qrels, missing: -c counts a judged topic without results as 0.
    ("out.test.aq", "results.test", "qrels.test", "skip"),
    ("out.test.aql", "results.test", "qrels.rel_level", "skip"),
    ("out.test.aqc", "results.trunc", "qrels.test", "zero"),
]


@pytest.mark.parametrize(("out", "run", "qrels", "missing"), CASES)
@pytest.mark.parametrize("k", [*CUTS, None])
def test_ndcg_and_every_cut_off(out, run, qrels, missing, k):
    measure = "ndcg" if k is None else f"ndcg_cut_{k}"
    check(
        evaluate(read_run(run), read_qrels(qrels), TREC.with_(k=k, empty=missing)), expected(out, measure)
    )


@pytest.mark.parametrize(("out", "run", "qrels"), [(o, r, q) for o, r, q, _ in CASES[:2]])
def test_missing_policy_does_not_matter_when_every_topic_has_results(out, run, qrels):
    runs, judged = read_run(run), read_qrels(qrels)
    for missing in ("zero", "skip"):
        check(evaluate(runs, judged, TREC.with_(k=10, empty=missing)), expected(out, "ndcg_cut_10"))


def test_without_c_the_empty_topic_is_left_out():
    # trec_eval without -c averages over the topics that have results only: 301 and 303 of the .aqc run.
    result = evaluate(read_run("results.trunc"), read_qrels("qrels.test"), TREC.with_(k=10, empty="skip"))
    assert list(result.index) == ["301", "303"]
    with_c = expected("out.test.aqc", "ndcg_cut_10")
    assert round(mean_ndcg(result), 4) == round((with_c["301"] + with_c["303"]) / 2, 4)


def test_the_rel_level_qrels_really_has_negative_grades():
    assert (read_qrels("qrels.rel_level")["grade"] < 0).any()


def test_tied_scores_are_resolved_like_trec_eval():
    # results.test has tied scores; at ndcg_cut_100 on the graded qrels, keeping tied documents in
    # file order gives another figure than trec_eval's docno-descending order.
    run, qrels = read_run("results.test"), read_qrels("qrels.rel_level")
    assert run.duplicated(["query", "score"]).any()
    want = expected("out.test.aql", "ndcg_cut_100")
    check(evaluate(run, qrels, TREC.with_(k=100, ties="trec")), want)
    with pytest.raises(AssertionError):
        check(evaluate(run, qrels, TREC.with_(k=100, ties="file")), want)


@pytest.mark.parametrize("k", [None, 10, 20, 23])
def test_gain_table_line_of_meas_params(k):
    # `-m ndcg.1=3,2=9,4=4.5` and `-m ndcg_cut.10,20,23` on qrels.test / results.test.
    config = TREC.with_(gain={1: 3, 2: 9, 4: 4.5})
    measure = "ndcg_1=3,2=9,4=4.5" if k is None else f"ndcg_cut_{k}"
    result = evaluate(read_run("results.test"), read_qrels("qrels.test"), config.with_(k=k))
    check(result, expected("out.test.meas_params", measure))
