"""`Dataset` (core/lists/dataset.py): per-query lists as slices, edits merged back, and scoring
that agrees with the list view; a typed list's dataset, which answers from the list until its
frames are needed; and what a loaded dataset holds once, and holds small (issue 14)."""

from __future__ import annotations

import dataclasses
import pickle
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest
from sklearn.metrics import ndcg_score

from ndcg_gui.core.arrays import ids, join
from ndcg_gui.core.lists.dataset import ORIGIN, Dataset, FrameDataset, origin_array
from ndcg_gui.core.lists.ranked_list import RankedList
from ndcg_gui.core.lists.typed_dataset import TypedDataset
from ndcg_gui.core.memory import give_back
from ndcg_gui.core.ndcg.measure import Measure
from ndcg_gui.core.ndcg.metrics import ndcg_at
from ndcg_gui.core.ndcg.presets import PRESETS
from ndcg_gui.core.reading import load
from ndcg_gui.core.writing.writers import write_qrels, write_trec_run


def random_dataset(seed: int, pool: bool) -> Dataset:
    rng = np.random.default_rng(seed)
    run_rows, qrels_rows = [], []
    for q in rng.permutation(12):
        docs = rng.choice(60, size=rng.integers(1, 25), replace=False)
        for d in docs:
            run_rows.append((f"q{q}", f"d{d}", float(rng.integers(-1, 4)) if rng.random() < 0.7 else np.nan))
        for d in rng.choice(60, size=10, replace=False):
            qrels_rows.append((f"q{q}", f"d{d}", float(rng.integers(0, 4))))
    run = pd.DataFrame(run_rows, columns=["query", "doc", "grade"])
    if not pool:
        return Dataset.of(run)
    qrels = pd.DataFrame([*qrels_rows, ("q-none", "x", 2.0)], columns=["query", "doc", "grade"])
    lookup = {(q, d): g for q, d, g in qrels_rows}
    run["grade"] = [lookup.get((q, d), np.nan) for q, d in zip(run["query"], run["doc"], strict=True)]
    return Dataset.of(run, qrels)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("pool", [False, True])
@pytest.mark.parametrize("preset", ["trec_eval", "ranx_burges", "jarvelin2002"])
def test_vectorised_scores_equal_per_list_scores(seed, pool, preset):
    dataset = random_dataset(seed, pool)
    config = PRESETS[preset]
    result = dataset.evaluate(config.with_(k=5))
    for q in dataset.queries():
        rl = dataset.ranked_list(q)
        if pool and not rl.has_pool:
            continue
        if q not in result.index:  # no judgment at all: left out, as trec_eval does
            assert pool and not (rl.judged.any() or rl.unretrieved)
            continue
        expected = ndcg_at(rl.scoring_grades(), config.with_(k=5),
                           judged=rl.judged_pool()) if len(rl) else 0.0
        assert result.loc[q, "ndcg"] == pytest.approx(expected, abs=1e-12), q
    if pool:
        assert result.loc["q-none", "ndcg"] == 0 and result.loc["q-none", "n_retrieved"] == 0


def test_average_ties_match_scikit_learn(tmp_path):
    # E5c of the worked examples: grades [3, 2, 1, 0, 0], scores [3, 2, 0, 0, 1].
    path = tmp_path / "e5c.csv"
    path.write_text("doc,grade,score\na,3,3\nb,2,2\nc,1,0\nd,0,0\ne,0,1\n")
    preset = PRESETS["sklearn"]
    result = load(path).evaluate(preset.with_(k=None))
    expected = ndcg_score([[3, 2, 1, 0, 0]], [[3, 2, 0, 0, 1]])
    assert result["ndcg"].iloc[0] == pytest.approx(expected) == pytest.approx(0.9808, abs=1e-4)


def test_queries_in_file_order_and_lists_as_slices():
    run = pd.DataFrame({"query": ["b", "a", "b", "a"], "doc": ["1", "2", "3", "4"], "grade": [1, 2, 3, 4.0]})
    dataset = Dataset.of(run)
    assert dataset.queries() == ["b", "a"]
    assert list(dataset.ranked_list("b").docs) == ["1", "3"]
    assert list(dataset.ranked_list("a").grades) == [2, 4]
    with pytest.raises(KeyError):
        dataset.ranked_list("zzz")


def test_with_lists_replaces_edited_queries_and_their_judgments():
    dataset = random_dataset(1, pool=True)
    q0, q1 = dataset.queries()[:2]
    rl = dataset.ranked_list(q0)
    edited = rl.with_grade(0, 3.0).removed([len(rl) - 1])
    new = dataset.with_lists({q0: edited})
    assert new.queries() == dataset.queries()
    assert new.ranked_list(q0) == edited
    assert new.ranked_list(q1) == dataset.ranked_list(q1)
    pool = new.qrels[new.qrels["query"] == q0].set_index("doc")["grade"]
    assert pool[edited.docs[0]] == 3.0  # the grade change reached the judged pool
    assert new.evaluate(Measure(k=10)).loc[q0, "ndcg"] == pytest.approx(
        ndcg_at(edited.scoring_grades(), Measure(k=10), judged=edited.judged_pool())
    )
    assert dataset.ranked_list(q0) == rl  # the original is untouched


def test_from_ranked_list_keeps_scores_and_pool():
    rl = RankedList(docs=["a", "b"], grades=[1, np.nan], scores=[2.0, 1.0], query="q",
                    unretrieved={"z": 3.0}, has_pool=True)
    dataset = TypedDataset.of(rl)
    assert dataset.kind == "typed" and dataset.queries() == ["q"]
    assert dataset.ranked_list("q") == rl


def test_summary_in_query_order_with_the_issue_columns():
    dataset = random_dataset(2, pool=True)
    summary = dataset.summary(Measure(k=10))
    assert list(summary.columns) == ["query", "n_docs", "n_judged", "dcg", "idcg", "ndcg"]
    order = [q for q in dataset.queries() if q in set(summary["query"])]
    assert summary["query"].tolist() == order


def test_a_runs_tag_is_kept_through_edits_and_written_again(tmp_path):
    from ndcg_gui.core.writing.writers import write_trec_run

    src = tmp_path / "in.run"
    src.write_text("# comment\nq1 Q0 a 1 3.5 myrun\nq1 Q0 b 2 2.5 myrun\n")
    ds = load(src, need_grades=False)
    assert ds.tag == "myrun"
    edited = ds.with_lists({"q1": ds.ranked_list("q1").reordered([1, 0])})
    out = tmp_path / "out.run"
    write_trec_run(edited, out)
    assert out.read_text().splitlines() == ["# comment", "q1 Q0 b 1 2 myrun", "q1 Q0 a 2 1 myrun"]
    write_trec_run(edited, out, tag="other")
    assert out.read_text().split()[5] == "other"


def test_queries_without_judgments_are_named():
    run = pd.DataFrame({"query": ["a", "a", "b"], "doc": ["x", "y", "z"], "grade": np.nan})
    qrels = pd.DataFrame({"query": ["a", "c"], "doc": ["x", "w"], "grade": [1.0, 2.0]})
    ds = Dataset.of(run, qrels)
    assert ds.unjudged_queries() == ["b"]
    assert "b" not in ds.evaluate(Measure(k=10)).index
    assert Dataset.of(run.assign(grade=1.0)).unjudged_queries() == []


def test_judged_queries_without_results_are_named_and_score_zero():
    run = pd.DataFrame({"query": ["a", "b"], "doc": ["x", "z"], "grade": [1.0, np.nan]})
    qrels = pd.DataFrame({"query": ["c", "a", "d"], "doc": ["w", "x", "v"], "grade": [2.0, 1.0, 0.0]})
    ds = Dataset.of(run, qrels)
    assert ds.queries_without_results() == ["c", "d"]
    assert ds.evaluate(Measure(k=10)).loc["c", "ndcg"] == 0
    assert Dataset.of(run).queries_without_results() == []


@pytest.mark.parametrize("ties", ["trec", "file", "average"])
def test_each_query_scores_as_the_window_scores_its_list_edited_or_not(tmp_path, ties):
    """Whole-dataset scoring (the summary export, a rescore of every query) gives each query the
    figure of its list as the window shows it: unedited lists with their ties in the rule's order,
    an edited list in the order it stands (a tied document dragged above another stays there)."""
    from ndcg_gui.core.analysis.list_report import list_summary

    path = tmp_path / "t.csv"
    path.write_text("query,doc,score,grade\nq,a,2,0\nq,b,1,3\nq,c,1,0\nq,d,1,0\nq,e,0.5,1\n"
                    "p,x,1,1\np,y,1,0\np,z,0,2\n")
    loaded = load(path)
    shown = {q: loaded.ranked_list(q).ties_ordered(Measure(ties=ties)) for q in loaded.queries()}
    shown["q"] = shown["q"].moved(3, 1, 1)  # a tied document dragged up, past its tied neighbours
    edited = loaded.with_lists({"q": shown["q"]})
    scored = edited.evaluate(Measure(k=3, ties=ties))
    for query, lst in shown.items():
        assert scored.loc[query, "ndcg"] == pytest.approx(list_summary(lst, Measure(k=3, ties=ties)).ndcg)


# --- A typed list's dataset answers from the list until scoring or a change needs its frames: it
# must answer exactly as the same rows loaded as frames do, and make no frame before.


NAN = float("nan")
LISTS = [
    RankedList.from_grades([3, 2, 3, 0, 1], query="e1"),
    RankedList.from_grades([]),
    RankedList(docs=["a", "b", "c"], grades=[3, NAN, 1], scores=[3.0, 2.0, 2.0], query="q",
               unretrieved={"z": 2.0, "y": 0.0}, has_pool=True, extras={"title": ["x", "", "é"]}),
    RankedList(docs=["a", "b"], grades=[NAN, NAN], query="7", unretrieved={"z": 1.0}, has_pool=True),
    RankedList(docs=[], grades=[], query="only judged", unretrieved={"z": 1.0}, has_pool=True),
]


def as_frames(rl: RankedList) -> Dataset:
    """The same rows handed over as frames, as a reader hands them: the path that groups them."""
    def text(values) -> pd.Series:
        return pd.Series(list(values), dtype="str")

    run = pd.DataFrame({"query": text([rl.query] * len(rl)), "doc": text(rl.docs), "grade": rl.grades})
    if rl.scores is not None:
        run["score"] = rl.scores
    for name, values in rl.extras.items():
        run[name] = text(values)
    qrels = None
    if rl.has_pool:
        judged = rl.judged
        docs = list(rl.docs[judged]) + list(rl.unretrieved)
        grades = np.array(list(rl.grades[judged]) + list(rl.unretrieved.values()), float)
        qrels = pd.DataFrame({"query": text([rl.query] * len(docs)), "doc": text(docs), "grade": grades})
    return Dataset.of(run, qrels, kind="typed", extra_columns=rl.extra_columns)


@pytest.mark.parametrize("rl", LISTS, ids=lambda rl: rl.query or "empty")
def test_a_typed_list_answers_as_its_rows_loaded_as_frames(rl):
    typed, loaded = TypedDataset.of(rl), as_frames(rl)
    assert typed.queries() == loaded.queries()
    assert (typed.has_pool, typed.has_scores, typed.unjudged_queries()) == \
           (loaded.has_pool, loaded.has_scores, loaded.unjudged_queries())
    for query in loaded.queries():
        assert typed.ranked_list(query) == loaded.ranked_list(query)
    with pytest.raises(KeyError):
        typed.ranked_list("no such query")
    for k in (1, 3, None):
        pd.testing.assert_frame_equal(typed.evaluate(Measure(k=k)), loaded.evaluate(Measure(k=k)))
    for query in loaded.queries():  # the same once its frames are made
        assert typed.ranked_list(query) == loaded.ranked_list(query)
    pd.testing.assert_frame_equal(typed.run, loaded.run)
    if rl.has_pool:
        pd.testing.assert_frame_equal(typed.qrels, loaded.qrels)


def test_edits_of_a_typed_list_make_its_frames_then():
    rl = LISTS[2]
    typed = TypedDataset.of(rl)
    edited = rl.moved(2, 1, 0)
    both = typed.with_lists({"q": edited, "new": RankedList.from_grades([1, 0])})
    assert both.queries() == ["q", "new"]
    assert both.ranked_list("q") == as_frames(edited).ranked_list("q")
    np.testing.assert_array_equal(both.run["grade"].to_numpy()[:3], edited.grades)


def test_no_pandas_or_pyarrow_until_asked():
    code = ("import sys\nfrom ndcg_gui.core.lists.typed_dataset import TypedDataset\n"
            "from ndcg_gui.core.lists.ranked_list import RankedList\n"
            "d = TypedDataset.of(RankedList.from_grades([3, 2, 3, 0, 1]))\n"
            "d.ranked_list(d.queries()[0]), d.has_pool, d.has_scores, d.unjudged_queries()\n"
            "print('pandas' in sys.modules, 'pyarrow' in sys.modules)\n"
            "from ndcg_gui.core.ndcg.measure import Measure\n"
            "d.evaluate(Measure(k=10))\nprint('pandas' in sys.modules, 'pyarrow' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.stdout.split() == ["False", "False", "True", "True"], out.stderr


# --- What a loaded dataset holds once, and holds small (issue 14, a load's peak memory): origins as
# int32 through edits and saves, one set of query groups when the lists are the judgments (a qrels
# file read alone), and ids hashed a slice at a time alike whatever the slice.


RUN = "301 Q0 a 1 3.5 sys\n301 Q0 b 2 2.25 sys\n302 Q0 c 1 9 sys\n302 Q0 d 2 8 sys\n"
QRELS = "301 0 a 1\n301 0 b 2\n301 0 z 3\n302 0 c 0\n303 0 x 1\n"
# Queries interleaved: the loader groups them, and the groups must still be the judgments'.
SHUFFLED_QRELS = "302 0 c 0\n301 0 a 1\n303 0 x 1\n301 0 b 2\n302 0 e 2\n301 0 z 3\n"


def test_origin_array_is_int32_unless_a_record_is_past_2_31():
    records = np.arange(5, dtype=np.int32)
    assert origin_array(records) is records  # the reader's numbers, not copied
    assert origin_array([3, -1, 0]).dtype == np.int32
    assert origin_array(np.array([], np.int64)).dtype == np.int32
    wide = origin_array(np.array([-1, 2**31], np.int64))
    assert wide.dtype == np.int64 and wide.tolist() == [-1, 2**31]


def test_loaded_origins_are_int32_and_stay_so_through_edits_and_saves(tmp_path):
    run, qrels = tmp_path / "in.run", tmp_path / "in.qrels"
    run.write_text(RUN)
    qrels.write_text(QRELS)
    dataset = load(run, qrels)
    assert dataset.run[ORIGIN].dtype == np.int32 and dataset.qrels[ORIGIN].dtype == np.int32
    assert dataset.ranked_list("301").origin.tolist() == [0, 1]
    edited = dataset.with_lists({"301": dataset.ranked_list("301").inserted(1, ["new"], [2.0])})
    assert edited.run[ORIGIN].dtype == np.int32 and edited.qrels[ORIGIN].dtype == np.int32
    assert edited.ranked_list("301").origin.tolist() == [0, -1, 1]
    assert edited.run[ORIGIN].tolist() == [0, -1, 1, 2, 3]
    write_trec_run(dataset, tmp_path / "same.run")
    write_qrels(dataset, tmp_path / "same.qrels")
    assert (tmp_path / "same.run").read_bytes() == run.read_bytes()
    assert (tmp_path / "same.qrels").read_bytes() == qrels.read_bytes()
    write_trec_run(edited, tmp_path / "out.run")
    write_qrels(edited, tmp_path / "out.qrels")
    assert (tmp_path / "out.run").read_text().endswith("302 Q0 c 1 9 sys\n302 Q0 d 2 8 sys\n")  # as they were
    assert load(tmp_path / "out.run", qrels).ranked_list("301").docs.tolist() == ["a", "new", "b"]
    assert (tmp_path / "out.qrels").read_text() == QRELS.replace("301 0 z 3\n", "301 0 z 3\n301 0 new 2\n")


def _fresh_copy(dataset: Dataset) -> Dataset:
    """The same rows in frames of their own (new Arrow buffers): grouped separately."""
    def copy(frame: pd.DataFrame) -> pd.DataFrame:
        numbers = {c for c in frame.columns if frame[c].dtype.kind in "fi"}
        return pd.DataFrame({c: frame[c].to_numpy().copy() if c in numbers else frame[c].tolist()
                             for c in frame.columns})

    return Dataset.of(copy(dataset.run), copy(dataset.qrels), kind="qrels", file_format=dataset.file_format,
                   qrels_format=dataset.qrels_format)


@pytest.mark.parametrize("text", [QRELS, SHUFFLED_QRELS], ids=["grouped", "interleaved"])
def test_a_qrels_file_read_alone_groups_its_rows_once_and_scores_as_two_frames_do(tmp_path, text):
    path = tmp_path / "in.qrels"
    path.write_text(text)
    dataset = load(path)
    assert dataset.rows.pool_groups is dataset.rows.groups  # one array of query codes for both frames
    apart = _fresh_copy(dataset)
    assert apart.rows.pool_groups is not apart.rows.groups
    assert dataset.queries() == apart.queries()
    for q in dataset.queries():
        assert dataset.ranked_list(q) == apart.ranked_list(q)
    for k in (None, 1, 2):
        for name, preset in PRESETS.items():
            for ties in ("trec", "file", "average"):
                got, want = (d.evaluate(preset.with_(k=k, ties=ties)) for d in (dataset, apart))
                pd.testing.assert_frame_equal(got, want, obj=f"{name} {ties}")
        pd.testing.assert_frame_equal(dataset.summary(Measure(k=k)), apart.summary(Measure(k=k)))
    # An edit makes the lists and the judgments different rows: grouped apart, scored alike.
    edited = dataset.with_lists({"301": dataset.ranked_list("301").with_grade(0, 3)})
    assert edited.rows.pool_groups is not edited.rows.groups
    pd.testing.assert_frame_equal(edited.summary(Measure(k=3)), _fresh_copy(edited).summary(Measure(k=3)))
    write_qrels(dataset, tmp_path / "out")
    assert (tmp_path / "out").read_bytes() == path.read_bytes()


def test_ids_hash_alike_in_slices_of_any_size(monkeypatch):
    rng = np.random.default_rng(7)
    n = 3 * ids._SLICE + 123
    texts = [f"doc-{i}-" + "x" * int(rng.integers(0, 30)) for i in range(n)]
    array = pa.array(texts)
    whole = ids.hash_strings(array, 4)
    codes = rng.integers(0, 50, n).astype(np.int32)
    keys = join.pair_keys(codes, whole)
    for size in (1 << 10, 1 << 18):  # a slice that small, and bigger than the array
        monkeypatch.setattr(ids, "_SLICE", size)
        monkeypatch.setattr(join, "_SLICE", size)
        assert np.array_equal(ids.hash_strings(array, 4), whole)
        assert np.array_equal(join.pair_keys(codes, whole), keys)


def test_giving_back_freed_memory_leaves_every_array_as_it_was(tmp_path):
    path = tmp_path / "in.qrels"
    path.write_text(SHUFFLED_QRELS)
    dataset = load(path)
    before = dataset.summary(Measure())
    give_back()
    pd.testing.assert_frame_equal(dataset.summary(Measure()), before)


# --- A plain value (issue 21, item 6): every field set once when made, nothing added later; one
# interface for the two kinds, a typed list's frames kept in its one documented cache.


def _attributes(dataset: Dataset) -> dict[str, object]:
    return dict(vars(dataset))


@pytest.mark.parametrize("make", ["frames", "typed"])
def test_a_dataset_is_a_value_whose_fields_are_set_once_when_made(make):
    rl = RankedList(docs=["a", "b", "c"], grades=[2.0, np.nan, 1.0], scores=[3.0, 2.0, 2.0], query="q",
                    unretrieved={"z": 3.0}, has_pool=True)
    dataset = as_frames(rl) if make == "frames" else TypedDataset.of(rl)
    before = _attributes(dataset)
    assert set(before) == {f.name for f in dataclasses.fields(dataset)}
    dataset.queries(), dataset.ranked_list("q"), dataset.unjudged_queries(), dataset.has_scores
    dataset.evaluate(Measure(k=2, ties="average")), dataset.summary(Measure(k=2)), dataset.run, dataset.qrels
    dataset.with_lists({"q": rl.moved(0, 1, 2)})
    after = _attributes(dataset)
    assert after.keys() == before.keys() and all(after[n] is before[n] for n in before)
    with pytest.raises(dataclasses.FrozenInstanceError):
        dataset.path = None


def test_both_kinds_answer_through_the_one_interface():
    typed = TypedDataset.of(RankedList.from_grades([3, 2], query="q"))
    assert isinstance(typed, Dataset) and isinstance(typed.frames(), FrameDataset)
    assert isinstance(typed.with_lists({"r": RankedList.from_grades([1])}), FrameDataset)
    with pytest.raises(TypeError):
        Dataset()  # the interface alone holds no rows


def test_a_typed_lists_frames_are_made_once_and_a_copy_makes_its_own():
    typed = TypedDataset.of(RankedList.from_grades([3, 2, 0], query="q"))
    made = []
    with ThreadPoolExecutor(4) as pool:
        made = list(pool.map(lambda _: typed.frames(), range(8)))
    assert all(m is made[0] for m in made)
    moved = dataclasses.replace(typed, path=Path("typed.csv"))
    assert moved.frames() is not made[0] and moved.frames().path == Path("typed.csv")
    assert moved.frames().kind == "typed" and made[0].path is None
    again = pickle.loads(pickle.dumps(typed))
    assert again.ranked_list("q") == typed.ranked_list("q")
    pd.testing.assert_frame_equal(again.run, typed.run)
