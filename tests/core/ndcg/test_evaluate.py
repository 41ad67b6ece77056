"""One scoring semantics (issue 21.2): the grouped path that scores every query at once
(`evaluate.score_ranked`, behind `Dataset.evaluate`, `evaluate`, `Joined` and the command line's
direct path) is the function that scores one list (`metrics.dcg_idcg_at`, what the window's
headline shows through `list_summary`) applied to each list: every tie rule, unjudged and unscored
rows, empty lists, lists with judged documents they do not hold, any definition."""

import numpy as np
import pandas as pd
import pytest
from definition_strategies import CUTOFF, SMALL_GRADE, configs
from hypothesis import given, settings
from hypothesis import strategies as st

from ndcg_gui.core.analysis.list_report import list_summary
from ndcg_gui.core.lists.dataset import Dataset
from ndcg_gui.core.lists.ranked_list import RankedList
from ndcg_gui.core.lists.rescoring import list_row
from ndcg_gui.core.lists.typed_dataset import TypedDataset
from ndcg_gui.core.ndcg.evaluate import Joined, evaluate
from ndcg_gui.core.ndcg.measure import Measure
from ndcg_gui.core.ndcg.metrics import dcg_idcg_at, finish
from ndcg_gui.core.ndcg.presets import preset
from ndcg_gui.core.reading import direct, load

TIES = ["trec", "file", "average"]


@st.composite
def definitions(draw) -> Measure:
    """`configs()` and the rarer choices on top: condensed lists, the ideal in the given order or
    cut at the list's length or never, IDCG = 0 scoring 1, rounding."""
    config = draw(configs())
    return config.with_(
        judged_only=draw(st.booleans()),
        idcg_zero=draw(st.sampled_from(["zero", "one"])),
        ideal_order=draw(st.sampled_from(["sorted", "given"])),
        ideal_depth=draw(st.sampled_from(["k", "list", "all"])),
        rounding=draw(st.one_of(st.none(), st.integers(0, 4))),
    )


@st.composite
def lists_of_a_run(draw) -> list[RankedList]:
    """A few queries' lists as the window may hold them: grades (NaN = unjudged), scores with
    ties or none, unscored rows (typed, pasted), empty lists, judged documents not retrieved; the
    pool known for every list or for none (as in one file)."""
    has_pool = draw(st.booleans())
    scored = draw(st.booleans())
    lists = []
    for q in range(draw(st.integers(1, 4))):
        n = draw(st.integers(0, 8))
        grades = draw(st.lists(st.one_of(st.just(np.nan), SMALL_GRADE), min_size=n, max_size=n))
        scores = None
        if scored:
            score = st.sampled_from([1.0, 2.0, 3.0])
            score = st.one_of(st.just(np.nan), score) if draw(st.booleans()) else score
            scores = sorted(draw(st.lists(score, min_size=n, max_size=n)), key=lambda s: -np.nan_to_num(s))
            scores = draw(st.sampled_from([scores, draw(st.permutations(scores))]))  # as loaded, or edited
        unretrieved = (draw(st.dictionaries(st.sampled_from(["x", "y", "z"]), SMALL_GRADE, max_size=3))
                       if has_pool else {})
        lists.append(RankedList(docs=[f"d{i}" for i in range(n)], grades=grades, scores=scores,
                                query=f"q{q}", unretrieved=unretrieved, has_pool=has_pool))
    return lists


def _one_list(rl: RankedList, k: int | None, config: Measure, ties: str) -> tuple[float, float, float]:
    """(DCG, IDCG, NDCG) at k as the window's headline has them (`list_summary`; the window's k is
    never None, and `list_summary` makes the same call of `dcg_idcg_at` then)."""
    if k is not None:
        one = list_summary(rl, config.with_(k=k, ties=ties))
        return one.dcg, one.idcg, one.ndcg
    grades = rl.grades if config.judged_only else rl.scoring_grades()
    tie_scores = rl.scores if ties == "average" else None
    dcg, idcg = dcg_idcg_at(grades, config.with_(k=None), judged=rl.judged_pool(), tie_scores=tie_scores,
                            unjudged=~rl.judged)
    return dcg, idcg, float(finish(np.array([dcg]), np.array([idcg]), config)[0])


def _dataset(lists: list[RankedList]) -> Dataset:
    first, *rest = lists
    dataset = TypedDataset.of(first)
    return dataset.with_lists({rl.query: rl for rl in rest}) if rest else dataset


@pytest.mark.slow  # (minutes of examples or actions: make test, not the quick loop)
@given(lists_of_a_run(), definitions(), CUTOFF, st.sampled_from(TIES))
@settings(max_examples=400, deadline=None)
def test_every_query_at_once_is_the_one_list_function_over_each_list(lists, config, k, ties):
    result = _dataset(lists).evaluate(config.with_(k=k, ties=ties, empty="zero"))
    for rl in lists:
        listed = len(rl) > 0 or (rl.has_pool and len(rl.judgments()) > 0)
        if not listed or (rl.has_pool and not rl.judgments()):  # nothing judges it: left out
            assert rl.query not in result.index
            continue
        dcg, idcg, ndcg = _one_list(rl, k, config, ties)
        row = result.loc[rl.query]
        assert (row["dcg"], row["idcg"]) == pytest.approx((dcg, idcg), rel=1e-9, abs=1e-12)
        assert row["ndcg"] == pytest.approx(ndcg, rel=1e-9, abs=1e-12, nan_ok=True)
        assert row["n_retrieved"] == len(rl)
        # ...and one list scored alone (the window's row of the edited query) is that row too.
        pd.testing.assert_series_equal(list_row(rl, config.with_(k=k, ties=ties)).loc[rl.query], row)


@given(lists_of_a_run(), definitions(), CUTOFF, st.sampled_from(TIES))
@settings(max_examples=200, deadline=None)
def test_a_run_and_qrels_as_frames_score_as_their_dataset(lists, config, k, ties):
    """`evaluate` and `Joined` (a run and its qrels as frames, joined and ranked here) score as the
    dataset of the same lists in score order (tied scores as `ties` orders them)."""
    if not lists[0].has_pool or lists[0].scores is None:
        return
    if any(np.isnan(rl.scores).any() for rl in lists):  # a run file has a score on every line
        return
    measure = config.with_(k=k, ties=ties)
    lists = [rl.reordered(np.argsort(-rl.scores, kind="stable")).ties_ordered(measure) for rl in lists]
    run = pd.DataFrame([(rl.query, d, s) for rl in lists for d, s in zip(rl.docs, rl.scores, strict=True)],
                       columns=["query", "doc", "score"])
    qrels = pd.DataFrame([(rl.query, d, g) for rl in lists for d, g in rl.judgments().items()],
                         columns=["query", "doc", "grade"])
    expected = _dataset(lists).evaluate(measure)
    got = evaluate(run, qrels, measure)
    pd.testing.assert_frame_equal(got, expected, rtol=1e-9, atol=1e-12)
    pd.testing.assert_frame_equal(Joined.of(run, qrels, measure).score(measure), expected,
                                  rtol=1e-9, atol=1e-12)


@given(lists_of_a_run(), st.sampled_from([None, 1, 3, 10]))
@settings(max_examples=60, deadline=None)
def test_the_command_lines_direct_path_is_the_loaded_datasets(tmp_path_factory, lists, k):
    """`ndcg-inspect RUN --qrels QRELS` scores from the parsed rows (`reading.direct`): the same
    table as the loaded dataset's `summary` (trec_eval's tie rule, which `load` ranks by)."""
    if not lists[0].has_pool or lists[0].scores is None or any(np.isnan(rl.scores).any() for rl in lists):
        return
    folder = tmp_path_factory.mktemp("run")
    run, qrels = folder / "a.run", folder / "a.qrels"
    run.write_text("".join(f"{rl.query} Q0 {d} {i + 1} {s} tag\n" for rl in lists
                           for i, (d, s) in enumerate(zip(rl.docs, rl.scores, strict=True))) or "")
    qrels.write_text("".join(f"{rl.query} 0 {d} {g:g}\n" for rl in lists for d, g in rl.judgments().items()))
    if not run.read_text() or not qrels.read_text():
        return
    config = preset("trec_eval")
    summary = direct.summarise(run, qrels, config.with_(k=k))
    assert summary is not None
    loaded = load(run, qrels)
    pd.testing.assert_frame_equal(summary.table, loaded.summary(config.with_(k=k, ties="trec")))
    assert summary.queries == loaded.queries()


@pytest.mark.parametrize("ties", TIES)
def test_an_ideal_whose_negative_gains_cancel_is_zero_on_every_path(ties):
    # Gains 1, 0, -2 in the ideal order: IDCG = 1 + 0/log2(3) - 2/log2(4) = 0 exactly. Every query
    # at once took it from differences of discount prefix sums, a few ulps off 0, and reported
    # NDCG = 1.6e15 where the one-list path, the SQL and a direct sum find IDCG = 0 (hypothesis
    # found it comparing the SQL with `evaluate`, torchmetrics' preset).
    config = Measure(negative="keep", ideal="retrieved")
    rl = RankedList(docs=["d1", "d2", "d3"], grades=[-2.0, 1.0, np.nan], scores=[1.0, 1.0, 1.0],
                    query="q", unretrieved={}, has_pool=True)
    row = _dataset([rl]).evaluate(config.with_(k=3, ties=ties, empty="zero")).loc["q"]
    assert row["idcg"] == 0.0 and row["undefined"]
    assert row["ndcg"] == 0.0
    assert (row["dcg"], row["idcg"], row["ndcg"]) == pytest.approx(_one_list(rl, 3, config, ties), abs=1e-12)


def test_an_ndcg_that_is_exactly_a_half_is_rounded_alike_by_every_path():
    """Found by the property above: grades (-1 among unjudged, all tied) make NDCG exactly 1.5;
    the one-list path had 1.5 and every query at once 1.4999999999999993 (its IDCG a difference of
    discount sums), so rounded to 0 places one said 2 and the other 1. Both snap first now."""
    rl = RankedList(docs=np.array([f"d{i}" for i in range(7)], dtype=object),
                    grades=np.array([np.nan, np.nan, -1.0, np.nan, np.nan, np.nan, np.nan]),
                    scores=np.ones(7), query="q0")
    measure = Measure(gain="linear", ideal="judged", negative="keep", ties="trec", rounding=0)
    exact = _dataset([rl]).evaluate(measure.with_(rounding=None)).loc["q0"]
    assert exact["dcg"] / exact["idcg"] == pytest.approx(1.5) and exact["dcg"] / exact["idcg"] != 1.5
    assert _one_list(rl, None, measure, "trec")[2] == 2.0
    assert _dataset([rl]).evaluate(measure).loc["q0", "ndcg"] == 2.0
