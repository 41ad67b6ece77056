"""Issue 35's last items attacked as a hostile user would (weights, segments, infinite gains): each
case found broken, kept as a test that failed on the code before its fix."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from ndcg_gui.cli.main import main
from ndcg_gui.core.analysis.weights import weighted_mean


def _run_json(capsys, *args) -> tuple[int, dict | None, str]:
    code = main([*map(str, args), "--format", "json"])
    out, err = capsys.readouterr()
    return code, (json.loads(out) if code == 0 else None), err


def test_a_weighted_mean_of_subnormal_weights_is_the_plain_mean():
    """Weights all below 2^-1022 (subnormal): the power of two that brings them near 1 is past the
    largest double, so math.ldexp overflowed (an internal error in ndcg-inspect)."""
    x = np.array([1.0, 0.5, 0.25])
    for w in (np.array([1e-320, 1e-320, 1e-320]), np.array([5e-324, 1e-323, 5e-324])):
        assert weighted_mean(x, w) == pytest.approx(np.average(x, weights=w / w.max()), rel=1e-12)


def test_a_run_weighted_by_subnormal_weights_gets_its_mean(tmp_path, capsys):
    run = tmp_path / "w.csv"
    run.write_text("query,doc,grade,score,weight\nq1,a,1,3,1e-320\nq1,b,0,2,1e-320\n"
                   "q2,c,0,2,3e-320\nq2,d,1,1,3e-320\n")
    code, got, err = _run_json(capsys, run)
    assert code == 0, err
    per_query = {q["query"]: q["ndcg"] for q in got["queries"]}
    expected = np.average([per_query["q1"], per_query["q2"]], weights=[1.0, 3.0])
    assert got["all"]["ndcg"] == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize("column", ["weight", "score"])
def test_a_frame_with_an_int_past_int64_is_refused_in_one_line(column):
    """A notebook's object column holding 10**20 (a Python int): pyarrow raised OverflowError,
    which reached the user as a traceback instead of the frame's one line."""
    import pandas as pd

    from ndcg_gui.core.errors import InputError
    from ndcg_gui.core.reports.notebook import read_run

    frame = pd.DataFrame({"query": ["q1", "q2"], "doc": ["a", "b"], "grade": [1, 0], "score": [2, 1],
                          "weight": [1, 3]})
    frame[column] = pd.Series([10**20, 3], dtype=object)
    with pytest.raises(InputError) as info:
        read_run(frame, None, "run")
    assert "\n" not in str(info.value)
    assert str(info.value).startswith("run: cannot be made a table (")


RUN_ROWS = [("q1", "a", 3, 1, "x"), ("q1", "b", 2, 1, "x"), ("q2", "c", 2, 3, "y"), ("q2", "d", 1, 3, "y"),
            ("q3", "e", 1, 2, "x")]


def _own_columns_run(tmp_path, kind: str, weight_name: str = "weight"):
    import pandas as pd

    frame = pd.DataFrame(RUN_ROWS, columns=["query", "doc", "score", weight_name, "segment"])
    run = tmp_path / f"run.{kind}"
    frame.to_parquet(run) if kind == "parquet" else frame.to_csv(run, index=False)
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("q1 0 a 1\nq1 0 b 0\nq2 0 c 0\nq2 0 d 1\nq3 0 e 1\n")
    return run, qrels


@pytest.mark.parametrize("kind", ["csv", "parquet"])
@pytest.mark.parametrize("weight_name", ["weight", " Weight "])
def test_duckdb_refuses_a_run_s_own_weight_column_it_would_not_read(tmp_path, capsys, kind, weight_name):
    """The in-memory path weighs the mean by the run's own weight column; DuckDB printed the
    unweighted mean, exit 0, without a word."""
    pytest.importorskip("duckdb")
    run, qrels = _own_columns_run(tmp_path, kind, weight_name)
    segments = tmp_path / "s.tsv"
    segments.write_text("q1\tx\nq2\ty\nq3\tx\n")
    code, got, err = _run_json(capsys, run, "--qrels", qrels, "--engine", "duckdb", "--segments", segments)
    assert code == 2 and got is None
    said = weight_name.strip() if kind == "csv" else weight_name  # (both readers trim a CSV's header)
    assert err == (f'ndcg-inspect: {run.name}: has its own "{said}" column, which --engine duckdb '
                   "does not read; give it as --weights FILE (query<TAB>weight), or use --engine memory\n")
    code, _, err = _run_json(capsys, run, run, "--qrels", qrels, "--engine", "duckdb", "--segments", segments)
    assert code == 2 and "has its own" in err


@pytest.mark.parametrize("kind", ["csv", "parquet"])
def test_duckdb_given_the_files_weighs_as_memory_weighs_by_the_columns(tmp_path, capsys, kind):
    pytest.importorskip("duckdb")
    run, qrels = _own_columns_run(tmp_path, kind)
    weights, segments = tmp_path / "w.tsv", tmp_path / "s.tsv"
    weights.write_text("q1\t1\nq2\t3\nq3\t2\n")
    segments.write_text("q1\tx\nq2\ty\nq3\tx\n")
    code, memory, err = _run_json(capsys, run, "--qrels", qrels, "--engine", "memory")
    assert code == 0, err
    code, duck, err = _run_json(capsys, run, "--qrels", qrels, "--engine", "duckdb", "--weights", weights,
                                "--segments", segments)
    assert code == 0, err
    per_query = {q["query"]: q["ndcg"] for q in memory["queries"]}
    expected = np.average([per_query[q] for q in ("q1", "q2", "q3")], weights=[1, 3, 2])
    assert memory["all"]["ndcg"] == pytest.approx(expected, rel=1e-12)
    assert duck["all"]["ndcg"] == pytest.approx(memory["all"]["ndcg"], rel=1e-12)
    assert duck.get("segments") == memory.get("segments")


@pytest.mark.parametrize("engine", ["memory", "duckdb"])
def test_an_infinite_gain_in_parquet_qrels_is_named_by_its_row_on_every_path(tmp_path, capsys, engine):
    """DuckDB said "row 3:", the in-memory path the file alone."""
    import pandas as pd

    if engine == "duckdb":
        pytest.importorskip("duckdb")
    qrels = tmp_path / "qrels.parquet"
    pd.DataFrame({"query": ["q1", "q1", "q2", "q2"], "doc": list("abcd"),
                  "grade": [1.0, 0.0, 1024.5, 2000.0]}).to_parquet(qrels)
    run = tmp_path / "run.txt"
    run.write_text("q1 Q0 a 1 3 r\nq1 Q0 b 2 2 r\nq2 Q0 c 1 1 r\nq2 Q0 d 2 0 r\n")
    code, _, err = _run_json(capsys, run, "--qrels", qrels, "--gain", "exponential", "--engine", engine)
    assert code == 2
    assert err == ('ndcg-inspect: qrels.parquet: row 3: grade 1024.5 (query "q2", doc "c") gives an '
                   "infinite gain under 2^g - 1; expected a grade below 1024 under the exponential gain\n")


@pytest.mark.parametrize("missing", ["zero", "skip"])
def test_weights_refused_in_a_comparison_by_the_engine_are_one_line_as_in_memory(tmp_path, capsys, missing):
    """DuckDB's comparison said its --missing note first, then the refusal: two lines where the
    in-memory path says one."""
    pytest.importorskip("duckdb")
    a, b, qrels = tmp_path / "A.txt", tmp_path / "B.txt", tmp_path / "qrels.txt"
    a.write_text("q1 Q0 a 1 3 r\nq1 Q0 b 2 2 r\nq2 Q0 c 1 1 r\nq2 Q0 d 2 0 r\nq3 Q0 e 1 1 r\n")
    b.write_text("q1 Q0 b 1 3 r\nq1 Q0 a 2 2 r\nq2 Q0 d 1 1 r\nq2 Q0 c 2 0 r\n")
    qrels.write_text("q1 0 a 1\nq1 0 b 0\nq2 0 c 0\nq2 0 d 1\nq3 0 e 1\n")
    weights = tmp_path / "w.tsv"
    weights.write_text("q1\t1\nq2\t3\n" if missing == "zero" else "q1\t0\nq2\t0\nq3\t5\n")
    said = {}
    for engine in ("memory", "duckdb"):
        code, _, said[engine] = _run_json(capsys, a, b, "--qrels", qrels, "--weights", weights,
                                          "--missing", missing, "--engine", engine)
        assert code == 2
    assert said["duckdb"] == said["memory"]
    assert said["memory"].count("\n") == 1 and said["memory"].startswith("ndcg-inspect: w.tsv: ")


@pytest.mark.parametrize("text", ["1e-400", "2.5E-330", "0.000001e-320"])
def test_a_weight_whose_text_is_not_0_but_underflows_to_0_is_refused(tmp_path, capsys, text):
    """parse_weight read "1e-400" as 0: the query counted for nothing, unsaid."""
    from ndcg_gui.core.analysis.weights import parse_weight
    from ndcg_gui.core.formats.query_map import ValueProblem

    assert float(text) == 0.0
    with pytest.raises(ValueProblem, match="too small for a floating-point number"):
        parse_weight(text)
    assert [parse_weight(t) for t in ("0", "0.0", "-0", "0e-400", "00.000e5")] == [0.0] * 5
    run, qrels, weights = tmp_path / "run.txt", tmp_path / "qrels.txt", tmp_path / "w.tsv"
    run.write_text("q1 Q0 a 1 3 r\nq2 Q0 c 1 1 r\nq2 Q0 d 2 0 r\n")
    qrels.write_text("q1 0 a 1\nq2 0 c 0\nq2 0 d 1\n")
    weights.write_text(f"q1\t{text}\nq2\t1\n")
    code, _, err = _run_json(capsys, run, "--qrels", qrels, "--weights", weights)
    assert code == 2
    assert err.startswith(f'ndcg-inspect: w.tsv:1: query "q1": weight "{text}" is too small')


def test_an_infinite_gain_in_jsonl_qrels_is_named_by_its_line(tmp_path, capsys):
    """The in-memory path named the file alone, where its JSON Lines reader names a bad cell's line."""
    qrels = tmp_path / "qrels.jsonl"
    qrels.write_text('{"query":"q1","doc":"a","grade":1}\n\n{"query":"q2","doc":"c","grade":1100}\n')
    run = tmp_path / "run.txt"
    run.write_text("q1 Q0 a 1 3 r\nq2 Q0 c 1 1 r\n")
    code, _, err = _run_json(capsys, run, "--qrels", qrels, "--gain", "exponential")
    assert code == 2
    assert err == ('ndcg-inspect: qrels.jsonl:3: grade 1100 (query "q2", doc "c") gives an infinite gain '
                   "under 2^g - 1; expected a grade below 1024 under the exponential gain\n")


@pytest.mark.parametrize("header", ["weight,Weight", "weight,weight", "weight, weight "])
def test_two_columns_that_could_be_the_weight_are_refused_not_the_first_taken(tmp_path, capsys, header):
    """A run with `weight` and `Weight` (or `weight` twice: the reader names the second
    `weight (2)`) was weighted by the first without a word."""
    run = tmp_path / "two.csv"
    run.write_text(f"query,doc,score,grade,{header}\nq1,a,3,1,2,1\nq1,b,2,0,2,1\nq2,c,1,1,1,5\n")
    code, _, err = _run_json(capsys, run)
    assert code == 2 and err.count("\n") == 1
    assert err.startswith("ndcg-inspect: two.csv: has 2 columns that could be its weight: ")
    assert err.rstrip().endswith("expected one (rename the others)")


def test_a_column_named_like_the_weight_but_for_a_number_is_no_weight():
    from ndcg_gui.core.formats.query_map import named_column

    assert named_column(["query", "weight (2)"], "weight") is None  # (one column: not called weight)
    assert named_column(["query", " Weight "], "weight") == " Weight "
    assert named_column(["query", "weights"], "weight") is None


def test_a_notebook_frame_with_two_weight_columns_is_refused_in_one_line():
    import pandas as pd

    import ndcg_gui
    from ndcg_gui.core.errors import InputError

    frame = pd.DataFrame({"query": ["q1", "q1"], "doc": ["a", "b"], "score": [2.0, 1.0], "grade": [1, 0],
                          "weight": [1.0, 1.0], "WEIGHT": [2.0, 2.0]})
    with pytest.raises(InputError, match=r'has 2 columns that could be its weight: "weight", "WEIGHT"'):
        ndcg_gui.report(frame)


# A qrels row with query and doc but no grade. The in-memory reader reads it as unjudged (docs/files.md:
# "An empty grade cell means unjudged"), the row dropped (`dispatch.read_pool`); DuckDB refused it
# ("grade is empty; expected a number"). trec_eval, pytrec_eval, ir_measures and ranx have no empty
# cell to read (a short qrels line is malformed; their relevance is an integer), so the rule is this
# program's own, and one for every engine: unjudged.
EMPTY_GRADE_QRELS = [("q1", "a", 1.0), ("q1", "b", None), ("q2", "c", 2.0), ("q2", "d", 0.0),
                     ("q3", "e", None), ("q4", "f", None), ("q1", "b2", None), ("q1", "b2", 1.0)]
EMPTY_GRADE_RUN = ("q1 Q0 a 1 3 r\nq1 Q0 b 2 2 r\nq1 Q0 b2 3 1 r\nq2 Q0 c 1 1 r\nq2 Q0 d 2 0 r\n"
                   "q3 Q0 e 1 1 r\n")


def _empty_grade_qrels(tmp_path, kind: str, rows) -> object:
    import pandas as pd
    import pyarrow as pa
    import pyarrow.parquet as pq

    if kind == "csv":
        path = tmp_path / "qrels.csv"
        path.write_text("query,doc,grade\n" + "".join(
            f"{q},{d},{'' if g is None else int(g)}\n" for q, d, g in rows))
        return path
    path = tmp_path / "qrels.parquet"
    grades = [g for _, _, g in rows]
    if kind == "parquet-int":  # (an integer column with nulls)
        column = pa.array([None if g is None else int(g) for g in grades], pa.int64())
    else:  # a float column: null, or NaN (pandas' empty cell)
        column = pa.array([(math.nan if kind == "parquet-nan" else None) if g is None else g for g in grades])
    # Row groups of 2: statistics that leave a NaN out must not decide which rows are judged.
    pq.write_table(pa.table({"query": [q for q, _, _ in rows], "doc": [d for _, d, _ in rows],
                             "grade": column}), path, row_group_size=2)
    assert pd.read_parquet(path)["grade"].isna().sum() == sum(g is None for g in grades)
    return path


@pytest.mark.parametrize("kind", ["csv", "parquet", "parquet-nan", "parquet-int"])
@pytest.mark.parametrize("missing", ["zero", "skip"])
def test_an_empty_grade_in_qrels_is_unjudged_on_every_engine(tmp_path, capsys, kind, missing):
    """Memory, DuckDB, and the qrels with those rows deleted (an independent reading: an unjudged
    row is no row) print the same, to the byte: q3 and q4, judged by empty cells alone, are no
    judged queries (q3 said once as a query without judgment; q4 not counted as judged under
    --missing zero); b2's empty row is no second judgment of it."""
    pytest.importorskip("duckdb")
    run = tmp_path / "run.txt"
    run.write_text(EMPTY_GRADE_RUN)
    qrels = _empty_grade_qrels(tmp_path, kind, EMPTY_GRADE_QRELS)
    judged = tmp_path / "judged"
    judged.mkdir()
    without = _empty_grade_qrels(judged, kind, [r for r in EMPTY_GRADE_QRELS if r[2] is not None])
    said = {}
    for name, path, engine in (("memory", qrels, "memory"), ("duckdb", qrels, "duckdb"),
                               ("without", without, "memory")):
        code = main([str(run), "--qrels", str(path), "--missing", missing, "--engine", engine,
                     "--format", "tsv"])
        said[name] = (code, *capsys.readouterr())
    assert said["memory"][0] == 0, said
    assert said["memory"] == said["duckdb"] == said["without"]
    assert said["memory"][2] == 'ndcg-inspect: note: 1 query with results but no judgment, left out: "q3"\n'


def test_nan_written_in_a_csv_grade_is_refused_on_both_engines_alike(tmp_path, capsys):
    """Unlike an empty cell, the text "nan" is no grade: refused in the same words."""
    pytest.importorskip("duckdb")
    run, qrels = tmp_path / "run.txt", tmp_path / "qrels.csv"
    run.write_text(EMPTY_GRADE_RUN)
    qrels.write_text("query,doc,grade\nq1,a,1\nq1,b,\nq2,c,nan\n")
    said = []
    for engine in ("memory", "duckdb"):
        code = main([str(run), "--qrels", str(qrels), "--engine", engine])
        said.append((code, *capsys.readouterr()))
    assert said[0] == said[1]
    assert said[0][:2] == (2, "")
    assert said[0][2].startswith('ndcg-inspect: qrels.csv:4: grade "nan" is not a number')


@pytest.mark.parametrize("kind", ["parquet", "parquet-nan"])
def test_a_parquet_row_without_doc_nor_grade_is_refused_on_both_engines(tmp_path, capsys, kind):
    """The row's missing doc is refused before its grade is read as unjudged, as in memory."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    pytest.importorskip("duckdb")
    run, qrels = tmp_path / "run.txt", tmp_path / "qrels.parquet"
    run.write_text(EMPTY_GRADE_RUN)
    pq.write_table(pa.table({"query": ["q1", "q1"], "doc": ["a", None],
                             "grade": [1.0, math.nan if kind == "parquet-nan" else None]}), qrels)
    said = []
    for engine in ("memory", "duckdb"):
        code = main([str(run), "--qrels", str(qrels), "--engine", engine])
        said.append((code, *capsys.readouterr()))
    assert said[0] == said[1] == (2, "", "ndcg-inspect: qrels.parquet: row 2: doc is empty; expected an id\n")


@pytest.mark.parametrize("form", ["trec", "csv", "parquet"])
@pytest.mark.parametrize("runs", [1, 2])
def test_an_infinite_gain_is_refused_alone_with_nothing_said_before(tmp_path, capsys, form, runs):
    """The run has a query without judgment (q3) and the qrels one without results (q4): the
    in-memory path said its "no judgment" note, then refused; DuckDB refused alone. Refused alone on
    both, in the words of the line of the grade."""
    import pandas as pd

    pytest.importorskip("duckdb")
    rows = [("q1", "a", 1), ("q2", "c", 1100), ("q4", "f", 1)]
    if form == "trec":
        qrels = tmp_path / "qrels.txt"
        qrels.write_text("".join(f"{q} 0 {d} {g}\n" for q, d, g in rows))
    elif form == "csv":
        qrels = tmp_path / "qrels.csv"
        qrels.write_text("query,doc,grade\n" + "".join(f"{q},{d},{g}\n" for q, d, g in rows))
    else:
        qrels = tmp_path / "qrels.parquet"
        pd.DataFrame(rows, columns=["query", "doc", "grade"]).to_parquet(qrels)
    run = tmp_path / "run.txt"
    run.write_text("q1 Q0 a 1 3 r\nq2 Q0 c 1 1 r\nq3 Q0 e 1 1 r\n")
    place = "row 2: " if form == "parquet" else ""
    line = "" if form == "parquet" else (":2" if form == "trec" else ":3")
    refusal = (f'ndcg-inspect: {qrels.name}{line}: {place}grade 1100 (query "q2", doc "c") gives an infinite '
               "gain under 2^g - 1; expected a grade below 1024 under the exponential gain\n")
    for engine in ("memory", "duckdb"):
        code = main([*[str(run)] * runs, "--qrels", str(qrels), "--gain", "exponential", "--engine", engine])
        assert (code, *capsys.readouterr()) == (2, "", refusal), engine


def _three_runs_compared(tmp_path):
    a, b, qrels = tmp_path / "A.txt", tmp_path / "B.txt", tmp_path / "qrels.txt"
    a.write_text("q1 Q0 a 1 3 r\nq1 Q0 b 2 2 r\nq2 Q0 c 1 1 r\nq2 Q0 d 2 0 r\nq3 Q0 e 1 1 r\nq4 Q0 g 1 1 r\n"
                 "q4 Q0 h 2 0 r\n")
    b.write_text("q1 Q0 b 1 3 r\nq1 Q0 a 2 2 r\nq2 Q0 d 1 1 r\nq2 Q0 c 2 0 r\nq4 Q0 h 1 1 r\nq4 Q0 g 2 0 r\n")
    qrels.write_text("q1 0 a 1\nq1 0 b 0\nq2 0 c 0\nq2 0 d 1\nq3 0 e 1\nq4 0 g 2\nq4 0 h 1\n")
    return a, b, qrels


@pytest.mark.parametrize("engine", ["memory", "duckdb"])
def test_with_missing_skip_all_zero_weights_are_said_of_the_compared_queries(tmp_path, capsys, engine):
    """q3 is judged (weight 5) but B returned nothing for it: under --missing skip the queries
    compared are q1, q2, q4, all of weight 0. "every judged query's weight is 0" was untrue."""
    if engine == "duckdb":
        pytest.importorskip("duckdb")
    a, b, qrels = _three_runs_compared(tmp_path)
    weights = tmp_path / "w.tsv"
    weights.write_text("q1\t0\nq2\t0\nq3\t5\nq4\t0\n")
    code = main([str(a), str(b), "--qrels", str(qrels), "--weights", str(weights), "--missing", "skip",
                 "--engine", engine])
    assert (code, *capsys.readouterr()) == (
        2, "", "ndcg-inspect: w.tsv: every compared query's weight is 0: nothing to weight a mean by\n")
    # Under --missing zero q3 is compared, and its weight makes the mean: A 1 at q3, B 0.
    code, got, err = _run_json(capsys, a, b, "--qrels", qrels, "--weights", weights, "--engine", engine)
    assert code == 0, err
    assert got["runs"][1]["delta"] == pytest.approx(-1.0, rel=1e-12)


def test_the_cli_the_notebook_and_the_window_weigh_a_comparison_by_one_function(tmp_path):
    """`compare.weighed` behind all three: the same figures, the weighted Δ that np.average gives
    of the per-query differences, and the same one line when the weights cannot weigh it."""
    from ndcg_gui.core.analysis.own_columns import OwnColumns
    from ndcg_gui.core.analysis.runs.compare import compare_runs, weighed
    from ndcg_gui.core.analysis.workspace_report import weighted, weights_problem
    from ndcg_gui.core.errors import InputError
    from ndcg_gui.core.formats.query_map import QueryMap
    from ndcg_gui.core.ndcg.measure import Measure
    from ndcg_gui.core.reading import load
    from ndcg_gui.core.reports.notebook import weighted_comparison

    a, b, qrels = _three_runs_compared(tmp_path)
    runs = {"A": load(str(a), str(qrels)), "B": load(str(b), str(qrels))}
    cmp = compare_runs(runs, runs["A"].qrels, Measure(k=10), samples=200)
    given = {"q1": 1.0, "q2": 3.0, "q3": 0.5, "q4": 2.0}
    weights = QueryMap(given, "weight", "w.tsv")
    ours = weighed(cmp, weights)
    d = cmp.per_query["B"] - cmp.per_query["A"]
    assert ours.summary.loc["B", "delta"] == pytest.approx(
        np.average(d, weights=[given[q] for q in d.index]), rel=1e-12)
    window = weighted(cmp, weights)
    notebook, _ = weighted_comparison(cmp, OwnColumns(weights=weights))
    for other in (window, notebook):
        assert other.weights == ours.weights and other.weights_from == "w.tsv"
        assert other.summary.equals(ours.summary)
    # None of them weighs by all-zero weights of the compared queries, in the same words.
    skipped = compare_runs(runs, runs["A"].qrels, Measure(k=10, empty="skip"), samples=200)
    zero = QueryMap({"q1": 0.0, "q2": 0.0, "q3": 5.0, "q4": 0.0}, "weight", "w.tsv")
    said = "w.tsv: every compared query's weight is 0: nothing to weight a mean by"
    assert weights_problem(skipped, zero) == said
    assert weighted(skipped, zero) is skipped  # (the window shows it unweighted, saying why)
    with pytest.raises(InputError) as info:
        weighed(skipped, zero)
    assert str(info.value) == said
    with pytest.raises(InputError) as info:
        weighted_comparison(skipped, OwnColumns(weights=zero))
    assert str(info.value) == said


@pytest.mark.parametrize("engine", ["memory", "duckdb"])
def test_weights_keyed_otherwise_than_parquet_float_ids_are_read_say_how_they_were_read(
        tmp_path, capsys, engine):
    """A Parquet float query id 1.0 reads as "1" (`formats.columnar`, on every engine); a weights
    file keyed "1.0" was refused with no hint why "1" has no weight. Keys match as text, as
    --segments keys do; the message now names the unmatched keys and how the run's ids read."""
    import pandas as pd

    if engine == "duckdb":
        pytest.importorskip("duckdb")
    run = tmp_path / "run.parquet"
    pd.DataFrame({"query": [1.0, 1.0, 2.0, 2.0, 3.0], "doc": list("abcde"), "score": [3.0, 2, 1, 0, 1],
                  "grade": [1, 0, 0, 1, 1]}).to_parquet(run)
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("1 0 a 1\n1 0 b 0\n2 0 c 0\n2 0 d 1\n3 0 e 1\n")
    weights, segments = tmp_path / "w.tsv", tmp_path / "s.tsv"
    weights.write_text("1.0\t2\n2.0\t1\n3\t1\n")
    segments.write_text("1.0\tx\n2.0\ty\n3\tx\n")
    base = [run, "--qrels", qrels, "--engine", engine]
    code, _, err = _run_json(capsys, *base, "--weights", weights)
    assert (code, err) == (2, 'ndcg-inspect: w.tsv: 2 judged queries have no weight: "1", "2"; give every '
                              'judged query a weight (0 to leave it out); ids match as text: "1.0" is not '
                              '"1", "2.0" is not "2"\n')
    code, _, err = _run_json(capsys, *base, "--segments", segments)
    assert code == 0, err
    assert ('ndcg-inspect: note: s.tsv names 2 queries that no judged query of the run is: "1.0", "2.0" '
            '(ids match as text: "1.0" is not "1", "2.0" is not "2")\n') in err
    weights.write_text("1\t2\n2\t1\n3\t1\n")  # (keyed as the ids read: weighted)
    code, got, err = _run_json(capsys, *base, "--weights", weights)
    assert code == 0, err
    ndcg = {q["query"]: q["ndcg"] for q in got["queries"]}
    expected = np.average([ndcg["1"], ndcg["2"], ndcg["3"]], weights=[2, 1, 1])
    assert got["all"]["ndcg"] == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize("engine", ["memory", "duckdb"])
def test_a_weight_refused_is_said_alone_with_no_hint_about_its_own_column_s_ids(tmp_path, capsys, engine):
    """A run's own column has the run's ids: a run query without judgment (q9) is no sign of ids
    read otherwise. And the refusal comes alone: the "no judgment" note was said before it."""
    if engine == "duckdb":
        pytest.importorskip("duckdb")
    run = tmp_path / "run.csv"
    run.write_text("query,doc,score,weight\nq1,a,2,1\nq1,b,1,1\nq2,c,1,\nq9,z,1,4\n")
    qrels, weights = tmp_path / "qrels.txt", tmp_path / "w.tsv"
    qrels.write_text("q1 0 a 1\nq2 0 c 1\n")
    if engine == "memory":
        code, _, err = _run_json(capsys, run, "--qrels", qrels)
        assert (code, err) == (2, 'ndcg-inspect: column "weight" of run.csv: a judged query has no weight: '
                                  '"q2"; give every judged query a weight (0 to leave it out)\n')
    weights.write_text("q1\t1\n")  # (a file: the engines read it)
    for query in ((), ("--query", "q2")):
        code, _, err = _run_json(capsys, run, "--qrels", qrels, "--weights", weights, *query,
                                 "--engine", engine)
        assert (code, err) == (2, 'ndcg-inspect: w.tsv: a judged query has no weight: "q2"; give every '
                                  "judged query a weight (0 to leave it out)\n")


def test_respelled_names_only_keys_that_spell_a_left_id_s_number():
    from ndcg_gui.core.formats.query_map import respelled

    said = respelled(["1.0", "01", "q1", "3"], ["1", "2"])
    assert said == 'ids match as text: "1.0" is not "1", "01" is not "1"'
    assert respelled(["1", "nan", "inf", "1e400"], ["2", "q"]) == ""  # (another number, or none)
    assert respelled(["1.0"], ["1", "1.00"]) == 'ids match as text: "1.0" is not "1"'  # (the first)
    many = respelled([f"{i}.0" for i in range(5)], [str(i) for i in range(5)])
    assert many.endswith('"2.0" is not "2", ...')


@pytest.mark.parametrize("kind", ["parquet", "csv", "tsv-file", "frame"])
def test_a_bool_weight_is_refused_as_a_bool_in_one_line_like_the_others(tmp_path, capsys, kind):
    """A bool weight column (read as text "true"/"false", as the readers carry a column they do
    not use) was "not a number", where a bool score or grade "holds bool values"; in Parquet the
    cell had no row, where every other Parquet cell is named by its row."""
    import pandas as pd

    import ndcg_gui
    from ndcg_gui.core.errors import InputError

    frame = pd.DataFrame({"query": ["q1", "q1", "q2"], "doc": list("abc"), "score": [3.0, 2, 1],
                          "grade": [1, 0, 1], "weight": [True, True, False]})
    tail = 'query "q1": weight "true" is a bool value, not a number; expected a number of at least 0'
    if kind == "frame":
        with pytest.raises(InputError) as info:
            ndcg_gui.report(frame)
        assert str(info.value) == f'column "weight": {tail}'
        return
    run = tmp_path / f"run.{'parquet' if kind == 'parquet' else 'csv'}"
    frame.to_parquet(run) if kind == "parquet" else frame.assign(weight=["true", "true", "FALSE"]).to_csv(
        run, index=False)
    args = [run]
    if kind == "tsv-file":
        (tmp_path / "w.tsv").write_text("q1\ttrue\nq2\t1\n")
        args = [run, "--weights", tmp_path / "w.tsv"]
    code, _, err = _run_json(capsys, *args)
    said = {"parquet": f'run.parquet: row 1: column "weight": {tail}',
            "csv": f'run.csv:2: column "weight": {tail}', "tsv-file": f"w.tsv:1: {tail}"}[kind]
    assert (code, err) == (2, f"ndcg-inspect: {said}\n")
    if kind == "parquet":  # (the window's and the notebook's reading of the file: the same line)
        from ndcg_gui.core.analysis.own_columns import own_columns
        from ndcg_gui.core.reading import load

        assert own_columns(load(str(run))).problems == (said,)


def test_a_bool_doc_weight_is_refused_as_a_bool(tmp_path, capsys):
    import pandas as pd

    run = tmp_path / "run.parquet"
    pd.DataFrame({"query": ["q1", "q1"], "doc": ["a", "b"], "score": [2.0, 1], "grade": [1, 0],
                  "doc_weight": [True, False]}).to_parquet(run)
    code, _, err = _run_json(capsys, run, "--doc-weights", "--preset", "tf_ranking")
    assert (code, err) == (2, 'ndcg-inspect: run.parquet: row 1: doc_weight "true" is a bool value, not a '
                              "number; expected a number of at least 0 (the document's weight)\n")


def test_a_comparison_weighted_so_already_is_not_weighted_again(tmp_path, monkeypatch):
    """ndcg-inspect weighed its comparison twice (once made, once printed): the bootstrap twice."""
    from ndcg_gui.core.analysis.runs import compare
    from ndcg_gui.core.formats.query_map import QueryMap
    from ndcg_gui.core.ndcg.measure import Measure
    from ndcg_gui.core.reading import load

    a, b, qrels = _three_runs_compared(tmp_path)
    runs = {"A": load(str(a), str(qrels)), "B": load(str(b), str(qrels))}
    cmp = compare.compare_runs(runs, runs["A"].qrels, Measure(k=10), samples=200)
    weights = QueryMap({"q1": 1.0, "q2": 3.0, "q3": 0.5, "q4": 2.0}, "weight", "w.tsv")
    calls = []
    real = compare.Comparison.weighted_by
    monkeypatch.setattr(compare.Comparison, "weighted_by", lambda self, *a: calls.append(a) or real(self, *a))
    once = compare.weighed(cmp, weights)
    assert compare.weighed(once, weights) is once and len(calls) == 1
    other = QueryMap({**weights.values, "q1": 2.0}, "weight", "w.tsv")
    assert compare.weighed(once, other).weights["q1"] == 2.0 and len(calls) == 2  # (other weights: again)
    code = main([str(a), str(b), "--qrels", str(qrels), "--weights", str(_write(tmp_path / "w.tsv",
                 "q1\t1\nq2\t3\nq3\t0.5\nq4\t2\n")), "-q"])
    assert code == 0 and len(calls) == 3


def _write(path, text: str):
    path.write_text(text)
    return path


# A CSV row missing an id: the in-memory reader kept "" as an id (the row a document, or a query,
# of the empty text), DuckDB refused it without its line. One rule for every engine: refused by its
# line, its query said before its doc, before any number is looked at (docs/files.md).
EMPTY_ID_CASES = {  # (the cells of the bad row's query and doc, and which is missing)
    "doc": (("q1", ""), "doc"), "query": (("", "b"), "query"), "spaces": (("q1", "  "), "doc"),
    "quoted": (("q1", '""'), "doc"), "both": (("", ""), "query"),
}


def _empty_id_files(tmp_path, case: str, side: str):
    """A run and qrels as CSV, one of them (`side`) with the case's row on line 4, and a score
    that is not finite on line 5 (said after the id: the ids are looked at first)."""
    (query, doc), _ = EMPTY_ID_CASES[case]
    lines = {"run": ["query,doc,score", "q1,a,3", "q2,c,1", f"{query},{doc},2", "q2,d,inf"],
             "qrels": ["query,doc,grade", "q1,a,1", "q2,c,1", f"{query},{doc},0", "q2,d,inf"]}
    good = {"run": "query,doc,score\nq1,a,3\nq2,c,1\n", "qrels": "query,doc,grade\nq1,a,1\nq2,c,1\n"}
    paths = {}
    for name in ("run", "qrels"):
        paths[name] = tmp_path / f"{name}.csv"
        paths[name].write_text("\n".join(lines[name]) + "\n" if name == side else good[name])
    return paths["run"], paths["qrels"]


@pytest.mark.parametrize("side", ["run", "qrels"])
@pytest.mark.parametrize("case", sorted(EMPTY_ID_CASES))
def test_a_csv_row_missing_an_id_is_refused_by_its_line_on_both_engines(tmp_path, capsys, case, side):
    pytest.importorskip("duckdb")
    run, qrels = _empty_id_files(tmp_path, case, side)
    said = {}
    for engine in ("memory", "duckdb"):
        code = main([str(run), "--qrels", str(qrels), "--engine", engine])
        said[engine] = (code, *capsys.readouterr())
    assert said["memory"] == said["duckdb"]
    # The line and role as Python's csv module reads the file: its first record with an empty id.
    import csv

    path = run if side == "run" else qrels
    with open(path, newline="") as f:
        records = list(csv.reader(f))
    line = next(i for i, r in enumerate(records[1:], start=2) if not r[0].strip() or not r[1].strip())
    role = "query" if not records[line - 1][0].strip() else "doc"
    assert (line, role) == (4, EMPTY_ID_CASES[case][1])
    assert said["memory"] == (2, "", f"ndcg-inspect: {path.name}:{line}: {role} is empty; expected an id\n")


def test_a_parquet_row_missing_an_id_is_named_by_its_first_row_on_both_engines(tmp_path, capsys):
    """A doc missing on row 2 and a query on row 3: the first row is said (the in-memory reader
    said the query's, its column looked at first), before a score that is no number on row 1."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    pytest.importorskip("duckdb")
    run, qrels = tmp_path / "run.parquet", tmp_path / "qrels.txt"
    pq.write_table(pa.table({"query": ["q1", "q1", None], "doc": ["a", None, "c"],
                             "score": [math.nan, 2.0, 1.0]}), run)
    qrels.write_text("q1 0 a 1\n")
    said = []
    for engine in ("memory", "duckdb"):
        code = main([str(run), "--qrels", str(qrels), "--engine", engine])
        said.append((code, *capsys.readouterr()))
    assert said[0] == said[1] == (2, "", "ndcg-inspect: run.parquet: row 2: doc is empty; expected an id\n")


# --query naming no query: the in-memory lines listed the file's queries ("it has 4", a query
# without judgment among them, which then printed an empty table), DuckDB the queries scored ("it
# has 3"), a comparison "no query 'zz' among the 3 compared" after its notes, with no list. One
# function (cli.output.pick_query), one message: the queries the output would show, in its order.
def _query_files(tmp_path):
    a, b, qrels = tmp_path / "A.txt", tmp_path / "B.txt", tmp_path / "qrels.txt"
    a.write_text("q1 Q0 a 1 3 r\nq1 Q0 b 2 2 r\nq2 Q0 c 1 1 r\nq3 Q0 e 1 1 r\n")  # (q3: no judgment)
    b.write_text("q1 Q0 b 1 3 r\nq2 Q0 c 1 1 r\n")
    qrels.write_text("q2 0 c 1\nq1 0 a 1\nq4 0 z 1\n")  # (q4: judged, no results)
    return a, b, qrels


@pytest.mark.parametrize("missing", ["zero", "skip"])
@pytest.mark.parametrize("runs", [1, 2])
def test_an_unknown_query_is_refused_alike_on_every_path_naming_what_is_shown(tmp_path, capsys, missing,
                                                                             runs):
    pytest.importorskip("duckdb")
    a, b, qrels = _query_files(tmp_path)
    files = [a, b][:runs]
    base = [*map(str, files), "--qrels", str(qrels), "--missing", missing, "--format", "tsv"]
    per_query = ["-q"] if runs == 2 else []
    # What the output shows, read from it: its query column, "all" and the means left out.
    assert main([*base, *per_query]) == 0
    shown = [line.split("\t")[0] for line in capsys.readouterr().out.splitlines()[1:]]
    shown = [q for q in shown if q != "all"]
    assert shown[:2] == ["q1", "q2"] and set(shown) <= {"q1", "q2", "q4"}  # (the judged queries)
    listed = ", ".join(f'"{q}"' for q in shown)
    where = "A.txt: " if runs == 1 else ""
    what = "scored" if runs == 1 else "compared"
    for query in ("zz", "q3"):  # (q3 is in the run, without judgment: no line to show)
        said = {}
        for engine in ("memory", "duckdb"):
            code = main([*base, *per_query, "--query", query, "--engine", engine])
            said[engine] = (code, *capsys.readouterr())
        assert said["memory"] == said["duckdb"] == (
            2, "", f'ndcg-inspect: {where}no query "{query}" among the {len(shown)} {what}: {listed}\n')


@pytest.mark.parametrize("cell", ['"heavy"', "-1", "true"])
def test_a_jsonl_run_s_bad_weight_is_named_by_its_line_as_csv_names_its_own(tmp_path, capsys, cell):
    """The JSON Lines run said 'column "weight" of run.jsonl: ...' without the line, where the
    CSV run names its line and Parquet its row, and the JSON Lines reader every other cell's line."""
    from ndcg_gui.core.analysis.own_columns import own_columns
    from ndcg_gui.core.reading import load

    rows = [("q1", "a", 3, 1, "1"), ("q1", "b", 2, 0, "1"), ("q2", "c", 1, 1, cell)]
    jsonl, csv_run = tmp_path / "run.jsonl", tmp_path / "run.csv"
    lines = [f'{{"query":"{q}","doc":"{d}","score":{s},"grade":{g},"weight":{w}}}' for q, d, s, g, w in rows]
    jsonl.write_text("\n".join([*lines[:2], "", "  ", lines[2]]) + "\n")  # (blank lines: no records)
    csv_run.write_text("query,doc,score,grade,weight\n" + "".join(
        f"{q},{d},{s},{g},{w.strip(chr(34))}\n" for q, d, s, g, w in rows))
    said = {}
    for path in (jsonl, csv_run):
        code = main([str(path)])
        said[path.suffix] = (code, *capsys.readouterr())
        assert said[path.suffix][0] == 2
    # The line of the bad cell, found in the text itself: the JSON Lines file has a blank line.
    line = next(i for i, text in enumerate(jsonl.read_text().splitlines(), start=1) if '"q2"' in text)
    assert line == 5
    csv_said = said[".csv"][2]
    assert csv_said.startswith("ndcg-inspect: run.csv:4: column \"weight\": ")
    assert said[".jsonl"][2] == csv_said.replace("run.csv:4:", f"run.jsonl:{line}:")
    window = own_columns(load(str(jsonl))).problems  # (the window's and the notebook's reading)
    assert window == (said[".jsonl"][2].removeprefix("ndcg-inspect: ").strip(),)


def test_the_docs_example_of_a_missing_id_is_what_every_engine_says(tmp_path, capsys):
    """docs/files.md and docs/engines.md quote the refusal of a CSV row missing its doc: the words
    memory and DuckDB print for such a file (`_empty_id_files`: the doc missing on line 4)."""
    import re
    from pathlib import Path

    pytest.importorskip("duckdb")
    docs = Path(__file__).parents[1] / "docs"
    pattern = r"`(run\.csv:\d+: doc is empty; expected an id)`"
    quoted = {m for name in ("files.md", "engines.md")
              for m in re.findall(pattern, (docs / name).read_text())}
    assert len(quoted) == 1
    said = quoted.pop()
    run, qrels = _empty_id_files(tmp_path, "doc", "run")
    for engine in ("memory", "duckdb"):
        assert main([str(run), "--qrels", str(qrels), "--engine", engine]) == 2
        assert capsys.readouterr().err == f"ndcg-inspect: {said}\n"


@pytest.mark.parametrize(("cell", "said"), [("", "score is empty; expected a number"),
                                           ("inf", 'score "inf" is not a finite number')])
def test_a_csv_score_that_is_no_finite_number_is_named_by_its_line_on_both_engines(tmp_path, capsys, cell,
                                                                                    said):
    """DuckDB named an empty score cell by its file alone, and missed the line of a row whose ids
    have spaces at their edges (its ids trimmed, the line looked for as written)."""
    pytest.importorskip("duckdb")
    run, qrels = tmp_path / "run.csv", tmp_path / "qrels.csv"
    run.write_text(f"query,doc,score\nq1,a,3\nq1, b ,{cell}\n")
    qrels.write_text("query,doc,grade\nq1,a,1\n")
    out = []
    for engine in ("memory", "duckdb"):
        code = main([str(run), "--qrels", str(qrels), "--engine", engine])
        out.append((code, *capsys.readouterr()))
    assert out[0] == out[1] == (2, "", f"ndcg-inspect: run.csv:3: {said}\n")
