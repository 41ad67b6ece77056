"""`ndcg-inspect RUN --qrels QRELS`'s summary scored straight from the parsed rows
(`core.reading.direct`) against the same command through a whole `Dataset` (`main(direct=False)`):
byte for byte the same stdout, stderr, exit status and summary CSV, for generated files (ties at
the k-th place, scores equal only as float32, interleaved queries, repeated documents, unjudged
queries and judged ones without results, negative and fractional grades, bad lines, CSV qrels) and
for trec_eval's own test files."""

from __future__ import annotations

import contextlib
import gzip
import io
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from ndcg_gui.cli.main import main

TREC_EVAL = Path(__file__).resolve().parent / "data" / "trec_eval"

QUERY = st.sampled_from(["1", "2", "10", "q", "ü", "01"])
DOC = st.sampled_from(["a", "b", "aa", "B", "a1", "é", "d-2", "z", "zz", "0", "00"])
# Few values: many ties; 1.0 and 1.00000001 are equal only as float32 (trec_eval's tie rule).
SCORE = st.sampled_from(["1", "1.0", "1.00000001", "2", "-1", "0", "3.5", "1e39", "-1e39", "0.1", "7"])
GRADE = st.sampled_from(["0", "1", "2", "3", "-1", "0.5", "2.5"])
OPTIONS = st.sampled_from([
    [], ["--preset", "trec_eval"], ["--preset", "ranx_burges"], ["--preset", "sklearn"],
    ["--preset", "jarvelin2002"], ["--gain", "exponential"], ["--gain", "1=3,2=9,-1=2"],
    ["--discount", "jarvelin:3"], ["--preset", "trec_eval", "--gain", "1=0.5"],
])
OUTPUT = st.sampled_from([
    ["--summary-csv", "{out}"], ["--format", "text"], ["--format", "tsv"], ["--format", "csv"],
    ["--format", "json"], ["--query", "2"], ["--query", "absent"], ["--query", "q", "--format", "json"],
    ["--summary-csv", "{out}", "--query", "1"],
])


@st.composite
def runs(draw) -> str:
    """A TREC run's text: lines of `qid Q0 docno rank score tag`, grouped by query or not, now and
    then a repeated document, a bad score, a comment or a line that is not a TREC line."""
    lines = []
    for query in draw(st.lists(QUERY, min_size=1, max_size=4, unique=True)):
        docs = draw(st.lists(DOC, min_size=1, max_size=8, unique=draw(st.integers(0, 19)) > 0))
        lines += [f"{query} Q0 {doc} {rank} {draw(SCORE)} tag" for rank, doc in enumerate(docs, 1)]
    if draw(st.booleans()):
        lines = draw(st.permutations(lines))  # queries interleaved
    fault = draw(st.sampled_from(["none"] * 16 + ["score", "short", "comment", "spaces"]))
    at = draw(st.integers(0, len(lines) - 1))
    if fault == "score":
        lines[at] = lines[at].replace(" tag", "x tag")
    elif fault == "short":
        lines[at] = lines[at].rsplit(" ", 1)[0]
    elif fault == "comment":
        lines.insert(at, "# a comment")
    elif fault == "spaces":
        lines[at] = lines[at].replace(" ", "  ") + " extra"
    return "".join(f"{line}\n" for line in lines)


@st.composite
def qrels(draw) -> tuple[str, str]:
    """(text, file name): TREC qrels (now and then a repeated judgment) or a CSV with empty grades."""
    queries = draw(st.lists(QUERY, min_size=draw(st.sampled_from([1, 1, 1, 0])), max_size=4, unique=True))
    rows = [(query, doc, draw(GRADE))
            for query in queries
            for doc in draw(st.lists(DOC, min_size=1, max_size=6, unique=draw(st.integers(0, 19)) > 0))]
    if draw(st.booleans()):
        rows = draw(st.permutations(rows))
    if draw(st.sampled_from([False] * 5 + [True])):
        cells = [f"{q},{d},{g if draw(st.booleans()) else ''}\n" for q, d, g in rows]  # (empty: unjudged)
        return "query,doc,grade\n" + "".join(cells), "qrels.csv"
    return "".join(f"{q} 0 {d} {g}\n" for q, d, g in rows) or "# nothing judged\n", "qrels.txt"


def both_ways(args: list[str], out: Path | None) -> list[tuple]:
    """(exit status, stdout, stderr, the summary CSV's bytes) of `main(args)`, directly and through
    a `Dataset`."""
    results = []
    for direct in (True, False):
        stdout, stderr = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
            code = main(args, direct=direct)
        written = None
        if out is not None and out.exists():
            written = out.read_bytes()
            out.unlink()
        results.append((code, stdout.getvalue(), stderr.getvalue(), written))
    return results


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(run=runs(), judged=qrels(), k=st.sampled_from([None, 1, 2, 3, 5, 20]), options=OPTIONS,
       output=OUTPUT, compressed=st.sampled_from([False] * 9 + [True]),
       there=st.sampled_from([True] * 19 + [False]))
def test_direct_summary_equals_the_datasets(run, judged, k, options, output, compressed, there):
    with tempfile.TemporaryDirectory() as folder:
        run_path, out = Path(folder) / "run.txt", Path(folder) / "summary.csv"
        if compressed:
            run_path.write_bytes(gzip.compress(run.encode()))
        else:
            run_path.write_text(run, encoding="utf-8")
        text, name = judged
        qrels_path = Path(folder) / name
        if there:
            qrels_path.write_text(text, encoding="utf-8")
        args = [str(run_path), "--qrels", str(qrels_path), *(["-k", str(k)] if k else []), *options,
                *(a.format(out=out) for a in output)]
        direct, through_dataset = both_ways(args, out if "--summary-csv" in output else None)
    event(f"exit status {direct[0]}")
    assert direct == through_dataset


@pytest.mark.parametrize(("run", "judged"), [
    ("results.test", "qrels.test"), ("results.test", "qrels.rel_level"), ("results.trunc", "qrels.test"),
])
@pytest.mark.parametrize("k", ["1", "10", "100", "1000"])
@pytest.mark.parametrize("options", [["--preset", "trec_eval"], ["--gain", "exponential"], []])
def test_direct_summary_of_trec_evals_files_equals_the_datasets(tmp_path, run, judged, k, options):
    out = tmp_path / "summary.csv"
    for output in (["--summary-csv", str(out)], ["--format", "tsv"]):
        args = [str(TREC_EVAL / run), "--qrels", str(TREC_EVAL / judged), "-k", k, *options, *output]
        direct, through_dataset = both_ways(args, out if output[0] == "--summary-csv" else None)
        assert direct == through_dataset and direct[0] == 0


def test_a_trec_runs_summary_is_scored_without_loading_a_dataset(tmp_path, monkeypatch):
    """The comparisons above compare two ways only if the direct one is taken."""
    from ndcg_gui.core import reading

    def refused(*_args, **_kwargs):
        raise AssertionError("loaded")

    monkeypatch.setattr(reading, "load", refused)
    out = tmp_path / "summary.csv"
    args = [str(TREC_EVAL / "results.trunc"), "--qrels", str(TREC_EVAL / "qrels.test"),
            "--summary-csv", str(out)]
    stderr = io.StringIO()
    with contextlib.redirect_stderr(stderr):
        assert main(args) == 0
    assert stderr.getvalue() == "ndcg-inspect: note: 1 query judged but without results, scored 0: \"302\"\n"
    assert out.read_text().count("\n") == 1 + 3  # a header, queries 301, 302 (without results), 303
