"""core.analysis.checks and `ndcg-inspect check`: each check finds its case, with counts and
examples, and the exit status says whether a figure could change."""

from __future__ import annotations

import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

from ndcg_gui.cli.main import main
from ndcg_gui.core.analysis.checks import check, raw_frames, would_change
from ndcg_gui.core.ndcg.presets import PRESETS


def by_name(findings):
    return {f.name: f for f in findings}


RUN_CSV = """query,doc,rank,score
a,d1,1,3.0
a,d2,2,2.0
a,d3,3,2.0
a,d2,4,1.0
b,x1,1,1.0
b,x2,2,5.0
c,D7,1,1.0
c,u,2,1.0
r,z,1,1.0
"""

QRELS = """a 0 d1 2
a 0 d3 -1
b 0 x1 0
b 0 x2 0
c 0 d7 1
c 0 u 0
q 0 w 3
"""


def test_every_check_finds_its_case(tmp_path):
    (tmp_path / "run.csv").write_text(RUN_CSV)
    (tmp_path / "q.txt").write_text(QRELS)
    run, qrels = raw_frames(tmp_path / "run.csv", tmp_path / "q.txt")
    assert list(run["doc"]) == ["d1", "d2", "d3", "d2", "x1", "x2", "D7", "u", "z"]  # file order, repeat kept
    found = by_name(check(run, qrels, k=2))
    assert found["duplicate documents"].count == 1 and found["duplicate documents"].examples == ("a: d2",)
    assert found["ties across the cut-off"].count == 1  # a: d2 and d3 tie at rank 2
    assert found["ranks that disagree with scores"].examples == ("b: rank 2 has score 5 > rank 1's 1",)
    assert found["queries only in the run"].examples == ("r",)
    assert found["queries only in the qrels"].examples == ("q",)
    assert found["negative grades"].examples == ("a: d3 = -1",)
    assert found["queries without a relevant document"].examples == ("b",)
    assert found["lists whose scores are all equal"].examples == ("c",)  # r has one row: no order
    assert found["ids that differ only by case or spaces"].examples == ("c: 'D7' vs 'd7'",)
    assert would_change(list(found.values()))


def test_a_clean_run_passes():
    run = pd.DataFrame({"query": ["a", "a"], "doc": ["x", "y"], "score": [2.0, 1.0]})
    qrels = pd.DataFrame({"query": ["a"], "doc": ["x"], "grade": [1.0]})
    findings = check(run, qrels, k=10)
    assert all(f.count == 0 for f in findings) and not would_change(findings)
    assert all(f.line().startswith("ok") for f in findings)


def test_command_line_exit_status(tmp_path, capsys):
    (tmp_path / "run.csv").write_text(RUN_CSV)
    (tmp_path / "q.txt").write_text(QRELS)
    assert main(["check", str(tmp_path / "run.csv"), "--qrels", str(tmp_path / "q.txt"), "-k", "2"]) == 1
    out = capsys.readouterr().out
    assert "!  duplicate documents: 1 (a: d2)" in out
    (tmp_path / "clean.csv").write_text("query,doc,score,grade\na,x,2,1\na,y,1,0\n")
    assert main(["check", str(tmp_path / "clean.csv")]) == 0
    (tmp_path / "bad.csv").write_text("query,doc,score,grade\na,x,high,1\n")
    assert main(["check", str(tmp_path / "bad.csv")]) == 2
    assert "bad.csv" in capsys.readouterr().err


def _reference_ties(run, k):
    """Ties across k, query by query (the plain loop the vectorised check replaced)."""
    import numpy as np

    found = []
    for query, rows in run.groupby("query", sort=False):
        scores = np.sort(rows["score"].to_numpy(dtype=float))[::-1]
        if len(scores) > k and scores[k - 1] == scores[k]:
            found.append(f"{query}: {int((scores == scores[k - 1]).sum())} documents tie with score "
                         f"{scores[k - 1]:g} at rank {k}")
    return found


def _reference_ranks(run):
    import numpy as np

    found = []
    for query, rows in run.groupby("query", sort=False):
        rows = rows.sort_values("rank", kind="stable")
        s, r = rows["score"].to_numpy(dtype=float), rows["rank"].to_numpy()
        rises = np.flatnonzero(s[1:] > s[:-1])
        if len(rises):
            i = rises[0]
            found.append(f"{query}: rank {r[i + 1]:g} has score {s[i + 1]:g} > rank {r[i]:g}'s {s[i]:g}")
    return found


def test_the_checks_over_many_queries_equal_a_plain_loop_query_by_query():
    import numpy as np

    rng = np.random.default_rng(7)
    rows = [(f"q{rng.integers(0, 40)}", f"d{i}", float(rng.integers(0, 5)), float(rng.integers(1, 30)))
            for i in range(600)]
    run = pd.DataFrame(rows, columns=["query", "doc", "score", "rank"])
    for k in (1, 3, 10):
        found = by_name(check(run, None, k))
        ties = _reference_ties(run, k)
        assert found["ties across the cut-off"].count == len(ties)
        assert list(found["ties across the cut-off"].examples) == ties[:3]
        assert list(found["ties across the cut-off"].queries) == [t.split(":")[0] for t in ties[:3]]
    ranks = _reference_ranks(run)
    assert found["ranks that disagree with scores"].count == len(ranks) > 3
    assert list(found["ranks that disagree with scores"].examples) == ranks[:3]
    near = run.assign(doc=[d.upper() if i % 50 == 0 else d for i, d in enumerate(run["doc"])])
    qrels = run[["query", "doc"]].assign(grade=1.0)
    found = by_name(check(near, qrels, 10))["ids that differ only by case or spaces"]
    assert found.count == 12 and found.examples[0] == "{}: 'D0' vs 'd0'".format(run["query"].iloc[0])


def _reference_near_docs(frames) -> list[str]:
    """The documents of a query that differ only by case or spaces, by a plain loop over every
    (query, document) pair: what `check` says, in its words."""
    import re

    def key(text):
        return re.sub(r"\s+", " ", text.strip()).casefold()

    groups: dict[tuple[str, str], list[tuple[str, str]]] = {}
    seen = set()
    for frame in frames:
        for q, d in zip(frame["query"], frame["doc"], strict=True):
            if (q, d) in seen:
                continue
            seen.add((q, d))
            texts = groups.setdefault((key(q), key(d)), [])
            if d not in [t for _, t in texts]:
                texts.append((q, d))
    return [f"{same[0][0]}: " + " vs ".join(repr(d) for _, d in same)
            for same in groups.values() if len(same) > 1]


_BASES = ["d x", "D7", "straße", "STRASSE", "İd", "é x", "a-b"]
_VARIANTS = [str, str.upper, str.lower, str.swapcase, lambda t: f" {t}\t", lambda t: t.replace(" ", "  "),
             lambda t: t.replace(" ", "\x1c"), lambda t: t.replace(" ", "\u00a0 "), lambda t: f"\u2003{t}"]
_IDS = st.tuples(st.sampled_from(_BASES), st.sampled_from(_VARIANTS)).map(lambda bv: bv[1](bv[0]))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["q", "Q", " q", "r"]), _IDS), min_size=1, max_size=30),
       st.integers(0, 30))
def test_ids_that_differ_by_case_or_spaces_are_those_of_a_plain_loop(rows, split):
    # Case folding and Python's spaces beyond ASCII (ß/SS, dotted İ, no-break and em spaces, the
    # information separators str.isspace counts) on the run and the qrels side.
    run = pd.DataFrame(rows[:split] or rows[:1], columns=["query", "doc"])
    qrels = pd.DataFrame(rows[split:] or rows[:1], columns=["query", "doc"]).assign(grade=1.0)
    found = by_name(check(run, qrels, None))["ids that differ only by case or spaces"]
    queries = pd.unique(pd.concat([run["query"], qrels["query"]]))
    said = [e for e in _reference_near_docs([run, qrels])]
    query_groups = {}
    for q in queries:
        query_groups.setdefault(" ".join(q.split()).casefold(), []).append(q)
    assert found.count == sum(len(g) > 1 for g in query_groups.values()) + len(said)
    docs_said = [e for e in found.examples if not e.startswith("query ")]
    assert docs_said == said[:len(docs_said)]


def test_fractional_grades_are_named_with_what_each_preset_does(tmp_path, capsys):
    # Found in issue 32: trec_eval reads 2.5 as 2 (atol) and `check` said nothing.
    (tmp_path / "run").write_text("q Q0 a 1 3 t\nq Q0 b 2 2 t\nq Q0 c 3 1 t\n")
    (tmp_path / "qrels").write_text("q 0 a 2.5\nq 0 b 1\nq 0 c 0.5\n")
    found = by_name(check(*raw_frames(tmp_path / "run", tmp_path / "qrels"), k=10))["fractional grades"]
    assert found.count == 2 and found.examples == ("q: a = 2.5", "q: c = 0.5") and found.changes_figure
    for name, preset in PRESETS.items():  # every preset is said, with what it does
        assert name in found.why
        assert (preset.truncate_grades and "whole part" in preset.describe()) or \
            not preset.truncate_grades
    assert main(["check", str(tmp_path / "run"), "--qrels", str(tmp_path / "qrels")]) == 1
    assert "!  fractional grades: 2" in capsys.readouterr().out
