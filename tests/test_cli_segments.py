"""`ndcg-inspect --segments FILE --weights FILE` (and the run's own `segment` and `weight` columns):
the all:SEGMENT lines against pandas' groupby of the per-query lines the same command prints, weighted
means against numpy's `average`, a comparison's segments against the comparison of each segment's
queries alone, Judged@k against ir_measures, and every bad input refused in one line."""

from __future__ import annotations

import io
import itertools
import json
import re
from fractions import Fraction
from pathlib import Path

import ir_measures
import numpy as np
import pandas as pd
import pytest

from ndcg_gui.cli.main import main
from ndcg_gui.core.analysis.runs.compare import paired_summary

EXAMPLES = Path(__file__).resolve().parents[1] / "resources" / "examples"
RUN, RERANK = EXAMPLES / "sample.run", Path(__file__).resolve().parents[1] / "docs" / "tour" / "rerank.run"
QRELS = EXAMPLES / "sample.qrels"
DEVICES = ("mobile", "desktop", "tablet")


def run_cli(capsys, *args) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def judged_queries() -> list[str]:
    return sorted({line.split()[0] for line in QRELS.read_text().splitlines()})


@pytest.fixture
def segments(tmp_path) -> tuple[Path, dict[str, str]]:
    """A segment for most judged queries (three left out), and a query no run has."""
    chosen = {q: DEVICES[i % 3] for i, q in enumerate(judged_queries()) if i % 8 != 7}
    path = tmp_path / "segments.tsv"
    path.write_text("query\tsegment\n" + "".join(f"{q}\t{s}\n" for q, s in {**chosen, "999": "tv"}.items()))
    return path, chosen


@pytest.fixture
def weights(tmp_path) -> tuple[Path, dict[str, float]]:
    chosen = {q: float((i * 7) % 5) + 0.5 * (i % 2) for i, q in enumerate(judged_queries())}
    path = tmp_path / "weights.tsv"
    path.write_text("".join(f"{q}\t{w:g}\n" for q, w in chosen.items()))
    return path, chosen


def tsv(text: str) -> pd.DataFrame:
    return pd.read_csv(io.StringIO(text), sep="\t", dtype={"query": str}).set_index("query")


def test_segment_lines_are_the_groupby_of_the_query_lines(capsys, segments):
    path, chosen = segments
    code, out, err = run_cli(capsys, RUN, "--qrels", QRELS, "--segments", path, "--format", "tsv")
    assert code == 0, err
    table = tsv(out)
    rows = [q for q in table.index if not q.startswith("all")]
    per_query = table.loc[rows]
    _, plain, _ = run_cli(capsys, RUN, "--qrels", QRELS, "--format", "tsv")
    plain = tsv(plain)
    pd.testing.assert_frame_equal(per_query.drop(columns="queries"), plain.drop(index="all"))
    labelled = per_query.assign(segment=[chosen.get(q) for q in rows]).dropna(subset=["segment"])
    groups = labelled.groupby("segment")
    names = [q for q in table.index if q.startswith("all:")]
    assert names == [f"all:{s}" for s in sorted(DEVICES)] and list(table.index)[-1] == "all"
    for name in names:
        group = groups.get_group(name.split(":", 1)[1])
        line = table.loc[name]
        for column in ("dcg", "idcg", "ndcg", "judged"):
            assert line[column] == pytest.approx(group[column].mean(), rel=1e-12), (name, column)
        assert line[["n_docs", "n_judged", "queries"]].tolist() == [
            group["n_docs"].sum(), group["n_judged"].sum(), len(group)]
    assert table.loc["all", "ndcg"] == pytest.approx(per_query["ndcg"].mean(), rel=1e-12)
    assert table.loc["all", "queries"] == len(rows)
    assert err.count("in no segment") == 1
    missing = [q for q in rows if q not in chosen]
    assert f"note: {len(missing)} judged queries are in no segment of segments.tsv, counted in all only: " \
        + ", ".join('"' + q + '"' for q in missing) in err
    assert 'segments.tsv names 1 query that no judged query of the run is: "999"' in err


def test_text_and_json_carry_the_same_lines(capsys, segments):
    path, _ = segments
    _, out, _ = run_cli(capsys, RUN, "--qrels", QRELS, "--segments", path, "--format", "tsv")
    table = tsv(out)
    _, text, _ = run_cli(capsys, RUN, "--qrels", QRELS, "--segments", path)
    lines = text.splitlines()
    assert lines[0].split() == ["query", "n_docs", "n_judged", "dcg@10", "idcg@10", "ndcg@10", "judged@10",
                                "queries"]
    assert [line.split()[0] for line in lines[-4:]] == ["all:desktop", "all:mobile", "all:tablet", "all"]
    for line in lines[-4:]:
        fields = line.split()
        assert float(fields[5]) == pytest.approx(table.loc[fields[0], "ndcg"], abs=5e-5)
        assert int(fields[7]) == table.loc[fields[0], "queries"]
    _, out, _ = run_cli(capsys, RUN, "--qrels", QRELS, "--segments", path, "--format", "json")
    data = json.loads(out)
    assert [s["segment"] for s in data["segments"]] == ["desktop", "mobile", "tablet"]
    for s in data["segments"]:
        assert s["ndcg"] == pytest.approx(table.loc[f"all:{s['segment']}", "ndcg"], rel=1e-12)
        assert s["queries"] == table.loc[f"all:{s['segment']}", "queries"]
    assert data["all"]["ndcg"] == pytest.approx(table.loc["all", "ndcg"], rel=1e-12)


def test_weights_weight_the_all_lines_not_the_query_lines(capsys, segments, weights):
    seg_path, chosen = segments
    path, w = weights
    code, out, err = run_cli(capsys, RUN, "--qrels", QRELS, "--weights", path, "--segments", seg_path,
                             "--format", "tsv")
    assert code == 0, err
    table = tsv(out)
    rows = [q for q in table.index if not q.startswith("all")]
    _, plain, _ = run_cli(capsys, RUN, "--qrels", QRELS, "--format", "tsv")
    pd.testing.assert_frame_equal(table.loc[rows].drop(columns="queries"), tsv(plain).drop(index="all"))
    weight = np.array([w[q] for q in rows])
    assert table.loc["all", "ndcg"] == pytest.approx(np.average(table.loc[rows, "ndcg"], weights=weight),
                                                     rel=1e-12)
    for device in DEVICES:
        members = [i for i, q in enumerate(rows) if chosen.get(q) == device]
        want = np.average(table.loc[rows, "ndcg"].to_numpy()[members], weights=weight[members])
        assert table.loc[f"all:{device}", "ndcg"] == pytest.approx(want, rel=1e-12)
    assert "the all lines are weighted by weights.tsv" in err
    _, out, _ = run_cli(capsys, RUN, "--qrels", QRELS, "--weights", path, "--format", "json")
    data = json.loads(out)
    assert data["weighted"] == "weights.tsv" and "segments" not in data
    assert data["all"]["ndcg"] == pytest.approx(table.loc["all", "ndcg"], rel=1e-12)


@pytest.mark.parametrize(("line", "said"), [
    ("401\t-2", 'weights.tsv:1: query "401": weight "-2" is negative; expected a number of at least 0'),
    ("401\tnan", 'weights.tsv:1: query "401": weight "nan" is not a number (NaN)'),
    ("401\tinf", 'weights.tsv:1: query "401": weight "inf" is not a finite number'),
    ("401 2", "weights.tsv:1: expected query<TAB>weight, found no tab (the two fields are split by spaces"),
])
def test_bad_weights_are_refused_in_one_line(capsys, tmp_path, line, said):
    path = tmp_path / "weights.tsv"
    path.write_text(line + "\n")
    code, out, err = run_cli(capsys, RUN, "--qrels", QRELS, "--weights", path)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith(f"ndcg-inspect: {said}"), err


def test_a_judged_query_without_a_weight_is_refused(capsys, tmp_path):
    path = tmp_path / "weights.tsv"
    path.write_text("".join(f"{q}\t1\n" for q in judged_queries() if q != "412"))
    code, out, err = run_cli(capsys, RUN, "--qrels", QRELS, "--weights", path)
    assert code == 2 and out == ""
    assert err.endswith('ndcg-inspect: weights.tsv: a judged query has no weight: "412"; give every judged '
                        "query a weight (0 to leave it out)\n")


def test_a_query_in_two_segments_is_refused_naming_both_lines(capsys, tmp_path):
    path = tmp_path / "segments.tsv"
    path.write_text("401\tmobile\n402\tdesktop\n401\tdesktop\n")
    code, _, err = run_cli(capsys, RUN, "--qrels", QRELS, "--segments", path)
    assert code == 2
    assert err == 'ndcg-inspect: segments.tsv:3: query "401" has two segments: "mobile" (line 1) and ' \
        '"desktop"; give each query one\n'


def test_no_output_replaces_a_segments_file(capsys, segments):
    path, _ = segments
    before = path.read_bytes()
    code, _, err = run_cli(capsys, RUN, "--qrels", QRELS, "--segments", path, "--summary-csv", path)
    assert code == 2 and "segments.tsv" in err and err.count("\n") == 1
    assert path.read_bytes() == before


def test_a_csv_runs_own_segment_and_weight_columns(capsys, tmp_path):
    rows = [("q1", "a", 2, "mobile", 3), ("q1", "b", 0, "mobile", 3), ("q2", "c", 1, "web", 1),
            ("q2", "d", 0, "web", 1), ("q3", "e", 0, "web", 2), ("q3", "f", 1, "web", 2)]
    path = tmp_path / "ranking.csv"
    pd.DataFrame(rows, columns=["query", "doc", "grade", "segment", "weight"]).to_csv(path, index=False)
    code, out, err = run_cli(capsys, path, "--format", "tsv")
    assert code == 0, err
    table = tsv(out)
    ndcg = table.loc[["q1", "q2", "q3"], "ndcg"].to_numpy()
    assert table.loc["all:mobile", "ndcg"] == pytest.approx(ndcg[0])
    assert table.loc["all:web", "ndcg"] == pytest.approx(np.average(ndcg[1:], weights=[1, 2]))
    assert table.loc["all", "ndcg"] == pytest.approx(np.average(ndcg, weights=[3, 1, 2]))
    # a file given wins over the column
    seg = tmp_path / "s.tsv"
    seg.write_text("q1\tone\nq2\tone\nq3\ttwo\n")
    _, out, _ = run_cli(capsys, path, "--format", "tsv", "--segments", seg)
    assert [q for q in tsv(out).index if q.startswith("all:")] == ["all:one", "all:two"]
    # a query whose rows disagree
    bad = tmp_path / "bad.csv"
    pd.DataFrame([(*r[:3], "mobile" if i else "web", 1) for i, r in enumerate(rows)],
                 columns=["query", "doc", "grade", "segment", "weight"]).to_csv(bad, index=False)
    code, _, err = run_cli(capsys, bad)
    assert code == 2 and err == ('ndcg-inspect: bad.csv:3: column "segment": query "q1" has two segments on '
                                 'its rows: "web" and "mobile"; give every row of a query its one segment\n')


def test_judged_column_is_ir_measures_judged_at_k(capsys):
    for preset in ("trec_eval", "trec_eval_J"):  # condensed lists: the share of the run as retrieved
        code, out, err = run_cli(capsys, RUN, "--qrels", QRELS, "-k", "5", "--preset", preset,
                                 "--format", "tsv")
        assert code == 0, err
        table = tsv(out).drop(index="all")
        qrels = list(ir_measures.read_trec_qrels(str(QRELS)))
        run = list(ir_measures.read_trec_run(str(RUN)))
        measured = ir_measures.judged.iter_calc([ir_measures.Judged @ 5], qrels, run)
        want = {m.query_id: m.value for m in measured}
        assert set(want) == set(table.index)
        for query, value in want.items():
            assert table.loc[query, "judged"] == pytest.approx(value, rel=1e-12), (preset, query)


# --- runs compared ---------------------------------------------------------------------------------


def test_a_comparison_by_segment_is_the_comparison_of_each_segments_queries(capsys, segments):
    path, chosen = segments
    code, out, err = run_cli(capsys, RUN, RERANK, "--qrels", QRELS, "--segments", path, "--format", "tsv")
    assert code == 0, err
    got = pd.read_csv(io.StringIO(out), sep="\t").set_index(["run", "segment"])
    _, per_query, _ = run_cli(capsys, RUN, RERANK, "--qrels", QRELS, "-q", "--format", "tsv")
    per_query = tsv(per_query)[["sample", "rerank"]]
    for device in DEVICES:
        alone = per_query[[chosen.get(q) == device for q in per_query.index]]
        want = paired_summary(alone, "sample").loc["rerank"]
        row = got.loc[("rerank", device)]
        assert row["queries"] == len(alone)
        for column in ("mean", "delta", "rand_p", "ci_low", "ci_high", "wins", "ties", "losses"):
            assert row[column] == pytest.approx(want[column], rel=1e-12, abs=1e-15), column
    assert "note: segments: rerank against sample: " in err
    _, text, _ = run_cli(capsys, RUN, RERANK, "--qrels", QRELS, "--segments", path)
    assert "By segment (Holm over the segments of each run):" in text
    assert "Where each run won and lost:\n  rerank against sample: " in text
    _, out, _ = run_cli(capsys, RUN, RERANK, "--qrels", QRELS, "--segments", path, "--format", "json")
    data = json.loads(out)["segments"]
    assert {(r["run"], r["segment"]) for r in data["rows"]} == {("rerank", d) for d in DEVICES}
    assert data["where"]["rerank"].startswith("rerank against sample: ")


def exact_weighted_p(d: list[float], w: list[float]) -> float:
    d, w = [Fraction(x) for x in d], [Fraction(x) for x in w]
    observed = abs(sum(a * b for a, b in zip(w, d, strict=True)))
    hits = sum(abs(sum(s * a * b for s, a, b in zip(signs, w, d, strict=True))) >= observed
               for signs in itertools.product((1, -1), repeat=len(d)))
    return hits / 2 ** len(d)


def test_a_weighted_comparison(capsys, tmp_path):
    queries = judged_queries()[:12]
    qrels = tmp_path / "qrels"
    kept = [line for line in QRELS.read_text().splitlines() if line.split()[0] in queries]
    qrels.write_text("".join(line + "\n" for line in kept))
    w = {q: float(i % 4) for i, q in enumerate(queries)}
    weights = tmp_path / "w.tsv"
    weights.write_text("".join(f"{q}\t{v:g}\n" for q, v in w.items()))
    code, out, err = run_cli(capsys, RUN, RERANK, "--qrels", qrels, "--weights", weights, "--format", "json")
    assert code == 0, err
    data = json.loads(out)
    _, per_query, _ = run_cli(capsys, RUN, RERANK, "--qrels", qrels, "-q", "--format", "tsv")
    per_query = tsv(per_query)
    weight = np.array([w[q] for q in per_query.index])
    run = {r["run"]: r for r in data["runs"]}
    assert run["sample"]["mean"] == pytest.approx(np.average(per_query["sample"], weights=weight), rel=1e-12)
    d = per_query["rerank"] - per_query["sample"]
    assert run["rerank"]["delta"] == pytest.approx(np.average(d, weights=weight), rel=1e-12)
    d = np.where(np.abs(d) <= 1e-9, 0.0, d)
    assert run["rerank"]["exact"] and run["rerank"]["rand_p"] == pytest.approx(exact_weighted_p(d, weight),
                                                                                abs=1e-12)
    assert run["rerank"]["t_p"] is None and run["rerank"]["effect_size"] is None
    assert data["weighted"] == "w.tsv"
    assert "weighted" in data["methods"]["rand_p"]
    assert "not given with weighted queries" in data["methods"]["t_p"]


def test_a_report_with_segments_names_the_file_and_holds_the_table(capsys, tmp_path, segments):
    import hashlib

    path, _ = segments
    out = tmp_path / "r.html"
    code, _, err = run_cli(capsys, RUN, RERANK, "--qrels", QRELS, "--segments", path, "--report", out)
    assert code == 0, err
    html = out.read_text(encoding="utf-8")
    assert hashlib.sha256(path.read_bytes()).hexdigest() in html
    assert "<h2>By segment</h2>" in html and "rerank against sample: " in html
    code, _, err = run_cli(capsys, RUN, "--qrels", QRELS, "--segments", path, "--report", out)
    assert code == 0, err
    html = out.read_text(encoding="utf-8")
    assert "<h2>By segment</h2>" in html and "Judged@10" in html


def test_a_reports_segments_count_the_queries_its_mean_counts(capsys, tmp_path):
    """One run's report under --missing skip: its mean leaves out the judged query the run has no
    results for (q3), and so does each segment's mean, as the page says."""
    run, qrels, seg, out = (tmp_path / n for n in ("r.run", "r.qrels", "seg.tsv", "r.html"))
    run.write_text("q1 Q0 a 1 2.0 t\nq1 Q0 b 2 1.0 t\nq2 Q0 c 1 1.0 t\n")
    qrels.write_text("q1 0 a 0\nq1 0 b 2\nq2 0 c 1\nq3 0 x 1\n")
    seg.write_text("q1\ts\nq2\ts\nq3\ts\n")
    for missing, counted in (("zero", 3), ("skip", 2)):
        code, _, err = run_cli(capsys, run, "--qrels", qrels, "--segments", seg, "--missing", missing,
                               "--report", out)
        assert code == 0, err
        html = out.read_text(encoding="utf-8")
        section = html[html.index("<h2>By segment</h2>"):]
        said = "left out" if missing == "skip" else "count as 0"
        assert f"(judged queries with no results {said};" in section
        cells = [c for c in re.findall(r"<td[^>]*>([^<]*)</td>", section)][:8]
        assert cells[0] == "s" and cells[2:4] == [str(counted), "3"], cells
        assert cells[4] == "all" and cells[6:8] == [str(counted), "3"], cells


@pytest.mark.parametrize(("extra", "said"), [
    (["--explain", "trec_eval", "sklearn"], "--explain"),
    (["--summary-csv", "OUT"], "--summary-csv"),
])
def test_segments_where_nothing_uses_them_are_refused(capsys, tmp_path, segments, extra, said):
    path, _ = segments
    extra = [str(tmp_path / "out.csv") if e == "OUT" else e for e in extra]
    code, out, err = run_cli(capsys, RUN, "--qrels", QRELS, "--segments", path, *extra)
    assert code == 2 and out == ""
    assert err == "ndcg-inspect: --segments goes with the per-query lines, a comparison, --report or the " \
        f"gate, not with {said}\n"
    code, _, err = run_cli(capsys, RUN, RERANK, "--weights", path)
    assert code == 2 and err.endswith("not with runs compared without judgments (--overlap)\n")


@pytest.mark.parametrize("runs", [[RUN], [RUN, RERANK]], ids=["one run", "compared"])
def test_duckdb_gives_the_same_lines(capsys, segments, weights, runs):
    pytest.importorskip("duckdb")
    seg, _ = segments
    w, _ = weights
    args = [*runs, "--qrels", QRELS, "--segments", seg, "--weights", w, "--format", "json"]
    code, memory, err = run_cli(capsys, *args)
    assert code == 0, err
    code, engine, err = run_cli(capsys, *args, "--engine", "duckdb")
    assert code == 0, err
    engine, memory = json.loads(engine), json.loads(memory)
    if len(runs) == 1:
        same(engine["segments"], memory["segments"])
        same(engine["all"], memory["all"])
    else:
        same(engine["segments"]["rows"], memory["segments"]["rows"])
        assert engine["segments"]["where"] == memory["segments"]["where"]


def same(a, b) -> None:
    """Equal JSON values, numbers to 1e-12."""
    if isinstance(a, dict):
        assert a.keys() == b.keys()
        for key in a:
            same(a[key], b[key])
    elif isinstance(a, list):
        assert len(a) == len(b)
        for x, y in zip(a, b, strict=True):
            same(x, y)
    elif isinstance(a, float):
        assert a == pytest.approx(b, rel=1e-12, abs=1e-15)
    else:
        assert a == b
