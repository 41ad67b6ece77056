"""`ndcg-inspect A B` without --qrels (issue 35.3): each query's RBO, Jaccard@k and Kendall's τ,
the most different first, equal to the `rbo` package, sets and scipy on the lists ranked from the
files; with --qrels and --overlap the NDCG and its Δ beside them, and a judging hole named."""

from __future__ import annotations

import io
import json
import math

import numpy as np
import pandas as pd
import pytest
import rbo
from scipy import stats
from test_cli import cli


def trec_lines(rows) -> str:
    return "".join(f"{q} Q0 {d} {i + 1} {s} tag\n" for i, (q, d, s) in enumerate(rows))


@pytest.fixture
def runs(tmp_path):
    """Two runs of six queries with tied scores, and "hole": the runs share their one judged
    document at the top and nothing below it (all unjudged), so the NDCG is the same. "lonely"
    is in the baseline only."""
    rng = np.random.default_rng(3)
    rows = {"base": [], "cand": []}
    for name in rows:
        for q in range(6):
            for d in rng.choice(20, 10, replace=False):
                rows[name].append((f"q{q}", f"d{d}", round(float(rng.random()), 1)))
    rows["base"] += [("hole", "j1", 9.0), *[("hole", f"u{i}", 1.0) for i in range(6)], ("lonely", "d1", 1.0)]
    rows["cand"] += [("hole", "j1", 9.0), *[("hole", f"v{i}", 1.0) for i in range(6)]]
    qrels = "".join(f"q{q} 0 d{d} {q % 3 + 1}\n" for q in range(6) for d in range(0, 20, 2)) + "hole 0 j1 2\n"
    paths = tmp_path / "base.run", tmp_path / "cand.run", tmp_path / "q.qrels"
    for path, text in zip(paths, (trec_lines(rows["base"]), trec_lines(rows["cand"]), qrels), strict=True):
        path.write_text(text)
    return paths, rows


def ranked(rows, query) -> list[str]:
    """Score high first as float32, tied scores by doc id descending (trec_eval's rule)."""
    mine = sorted(((d, s) for q, d, s in rows if q == query), key=lambda r: r[0], reverse=True)
    return [d for d, _ in sorted(mine, key=lambda r: -float(np.float32(r[1])))]


def expected(rows, k: int, p: float) -> pd.DataFrame:
    out = {}
    for q in sorted({q for q, _, _ in rows["base"]} | {q for q, _, _ in rows["cand"]}):
        a, b = ranked(rows["base"], q), ranked(rows["cand"], q)
        union = list(dict.fromkeys(a + b))
        tau = (stats.kendalltau([a.index(d) if d in a else len(a) for d in union],
                                [b.index(d) if d in b else len(b) for d in union]).statistic
               if a and b and len(union) > 1 else math.nan)
        out[q] = {"rbo": rbo.RankingSimilarity(a, b).rbo_ext(p) if a and b else float(a == b),
                  "jaccard": len(set(a[:k]) & set(b[:k])) / len(set(a[:k]) | set(b[:k])), "tau": tau}
    return pd.DataFrame(out).T


@pytest.mark.parametrize(("args", "k", "p"), [((), 10, 0.9), (("-k", "3", "--rbo-p", "0.5"), 3, 0.5)])
def test_runs_without_qrels_give_each_querys_overlap_most_different_first(runs, args, k, p):
    (base, cand, _), rows = runs
    result = cli(base, cand, "--format", "tsv", *args)
    assert result.returncode == 0, result.stderr
    table = pd.read_csv(io.StringIO(result.stdout), sep="\t", dtype={"query": str})
    per_query, mean = table[table["query"] != "all"], table[table["query"] == "all"]
    want = expected(rows, k, p)
    got = per_query.set_index("query")[["rbo", "jaccard", "tau"]]
    pd.testing.assert_frame_equal(got.sort_index(), want.sort_index().astype(float), check_names=False,
                                  rtol=0, atol=1e-12)
    assert list(per_query["rbo"]) == sorted(per_query["rbo"])  # the most different first
    assert per_query["query"].iloc[0] == "lonely" and (per_query["run"] == "cand").all()
    assert mean[["rbo", "jaccard", "tau"]].iloc[0].to_numpy() == pytest.approx(want.mean().to_numpy())
    assert "Webber" in result.stderr and f"p = {p:g}" in result.stderr  # how it was made


def test_every_format_carries_the_same_figures(runs):
    (base, cand, _), _ = runs
    tsv = pd.read_csv(io.StringIO(cli(base, cand, "--format", "tsv").stdout), sep="\t", dtype={"query": str})
    csv = pd.read_csv(io.StringIO(cli(base, cand, "--format", "csv").stdout), dtype={"query": str})
    pd.testing.assert_frame_equal(tsv, csv)
    data = json.loads(cli(base, cand, "--format", "json").stdout)
    assert data["baseline"] == "base" and data["p"] == 0.9 and data["k"] == 10
    queries = pd.DataFrame(data["queries"])
    pd.testing.assert_frame_equal(queries, tsv[tsv["query"] != "all"].reset_index(drop=True))
    text = cli(base, cand).stdout.splitlines()
    assert text[0].split() == ["query", "run", "rbo", "jaccard@10", "tau"]
    for line, row in zip(text[1:], tsv.itertuples(index=False), strict=False):
        cells = line.split()
        assert cells[0] == row.query and float(cells[2]) == pytest.approx(row.rbo, abs=5e-5)
    assert text[len(tsv)].split()[0] == "all"


def test_with_qrels_the_ndcg_stands_beside_the_overlap_and_a_judging_hole_is_named(runs):
    (base, cand, qrels), _ = runs
    both = cli(base, cand, "--qrels", qrels, "--overlap", "--format", "json", "-k", "5")
    assert both.returncode == 0, both.stderr
    data = json.loads(both.stdout)
    ndcg = json.loads(cli(base, cand, "--qrels", qrels, "-q", "--format", "json", "-k", "5").stdout)
    want = {r["query"]: r for r in ndcg["queries"]}
    rows = {r["query"]: r for r in data["queries"]}
    for q, r in want.items():
        assert (rows[q]["ndcg_baseline"], rows[q]["ndcg"], rows[q]["delta"]) == (
            r["base"], r["cand"], r["delta cand"])
    assert rows["lonely"]["ndcg"] is None  # not judged: no NDCG, still an overlap
    assert rows["hole"]["delta"] == 0 and rows["hole"]["rbo"] < 0.5
    holes = [q for q, r in rows.items() if r["delta"] == 0 and r["rbo"] < 0.5]  # in the table's order
    assert "hole" in holes and data["judging_holes"] == {"cand": holes}
    assert all(r["judging_hole"] == (q in holes) for q, r in rows.items())
    text = cli(base, cand, "--qrels", qrels, "--overlap", "-k", "5").stdout
    assert (f"cand: {len(holes)} queries ranked very differently with the same NDCG (judging holes: "
            f"judge them to tell the runs apart): {', '.join(holes)}") in text
    assert next(line for line in text.splitlines() if line.startswith("hole ")).split()[-1] == "yes"


def test_runs_with_their_own_grades_are_still_compared_by_ndcg(tmp_path):
    for name, order in (("a", "xyz"), ("b", "zyx")):
        (tmp_path / f"{name}.csv").write_text("query,doc,score,grade\n" + "".join(
            f"1,{d},{3 - i},{'xyz'.index(d)}\n" for i, d in enumerate(order)))
    plain = cli(tmp_path / "a.csv", tmp_path / "b.csv")
    assert plain.returncode == 0 and "W/T/L" in plain.stdout and "rbo" not in plain.stdout
    both = cli(tmp_path / "a.csv", tmp_path / "b.csv", "--overlap")
    assert both.returncode == 0 and both.stdout.split()[:5] == ["query", "run", "rbo", "jaccard@10", "tau"]
    assert "ndcg@10" in both.stdout.splitlines()[0]


@pytest.mark.parametrize(("args", "message"), [
    (("--rbo-p", "1"), "--rbo-p must be between 0 and 1 (exclusive), not 1"),
    (("--query", "nope"), 'no query "nope" among the 8 compared: "lonely", "hole", "q2", "q3", "q4", "q0", '
                          '"q1", "q5"'),
    (("--baseline", "other"), "--baseline 'other' is not one of the runs: base, cand"),
    (("--overlap",), "--overlap compares runs: give two files or more"),
])
def test_bad_options_are_one_line(runs, args, message):
    (base, cand, _), _ = runs
    result = cli(*([base] if "--overlap" in args else [base, cand]), *args)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.strip() == f"ndcg-inspect: {message}"


@pytest.mark.parametrize("form", ["text", "json"])
def test_an_id_with_a_terminal_escape_is_shown_not_obeyed(tmp_path, form):
    """A query id from a file may hold an escape sequence: the text and the JSON show it safely."""
    odd = "q\x1b[2J"
    (tmp_path / "a.run").write_text(trec_lines([(odd, "d1", 2.0), (odd, "d2", 1.0)]))
    (tmp_path / "b.run").write_text(trec_lines([(odd, "d2", 2.0), (odd, "d1", 1.0)]))
    (tmp_path / "q.qrels").write_text(f"{odd} 0 x 1\n")  # judged, but neither run found it: a hole
    result = cli(tmp_path / "a.run", tmp_path / "b.run", "--qrels", tmp_path / "q.qrels", "--overlap",
                 "--format", form, "--rbo-p", "0.1")
    assert result.returncode == 0, result.stderr
    assert "\x1b" not in result.stdout and "judging hole" in result.stdout.replace("_", " ")
    if form == "json":
        assert json.loads(result.stdout)["judging_holes"] == {"b": [odd]}
