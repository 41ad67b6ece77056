"""The command lines: `ndcg-inspect` (headless: per-query lines like trec_eval -q, exports, exit status 2
with one line for bad input, and no Qt) and `ndcg-gui`'s own parser (checked before Qt is imported)."""

from __future__ import annotations

import io
import itertools
import json
import math
import os
import signal
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from ndcg_gui.cli.main import main
from ndcg_gui.core.errors import InputError
from ndcg_gui.core.ndcg.measure import Measure
from ndcg_gui.core.ndcg.options import measure_from_options, parse_discount, parse_gain

RUN = "1 Q0 a 1 3 t\n1 Q0 b 2 2 t\n1 Q0 c 3 1 t\n2 Q0 x 1 1 t\n"
QRELS = "1 0 a 3\n1 0 b 2\n1 0 c 3\n1 0 z 1\n2 0 x 0\n3 0 y 2\n"

# Runs main() in a fresh interpreter and fails if any Qt module was imported on the way.
_NO_QT = (
    "import sys\n"
    "from ndcg_gui.cli.main import main\n"
    "code = main(sys.argv[1:])\n"
    "qt = [m for m in sys.modules if m.split('.')[0] in ('PySide6', 'pyqtgraph', 'shiboken6')]\n"
    "assert not qt, qt\n"
    "sys.exit(code)\n"
)


def cli(*args, cwd=None) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}  # this code, from any cwd
    return subprocess.run(
        [sys.executable, "-c", _NO_QT, *map(str, args)], capture_output=True, text=True, cwd=cwd, env=env
    )


@pytest.fixture
def files(tmp_path):
    (tmp_path / "run.txt").write_text(RUN)
    (tmp_path / "qrels.txt").write_text(QRELS)
    return tmp_path / "run.txt", tmp_path / "qrels.txt"


def test_summary_csv_without_qt(tmp_path, files):
    run, qrels = files
    out = tmp_path / "summary.csv"
    result = cli(run, "--qrels", qrels, "-k", "3", "--summary-csv", out)
    assert result.returncode == 0, result.stderr
    assert result.stderr == "ndcg-inspect: note: 1 query judged but without results, scored 0: \"3\"\n"
    table = pd.read_csv(out, dtype={"query": str})
    assert table["query"].tolist() == ["1", "2", "3"]
    assert table.loc[2, "ndcg"] == 0 and table.loc[2, "n_docs"] == 0  # judged, no results
    assert table.loc[1, "ndcg"] == 0  # only a grade-0 judgment: IDCG 0, reported as 0
    assert table.loc[0, "dcg"] == pytest.approx(3 + 2 / 1.5849625007211562 + 1.5)


def test_metrics_csv_of_a_chosen_query_with_options(tmp_path, files):
    run, qrels = files
    out = tmp_path / "m.csv"
    result = cli(run, "--qrels", qrels, "--query", "1", "--gain", "exponential",
                 "--discount", "jarvelin:3", "--metrics-csv", out)
    assert result.returncode == 0, result.stderr
    table = pd.read_csv(out)
    assert table["doc"].tolist() == ["a", "b", "c"]
    assert table["gain"].tolist() == [7, 3, 7]
    assert table["discount"].tolist()[:2] == [1, 1]


def test_metrics_csv_defaults_to_the_first_query_and_cuts_at_k(tmp_path, files):
    run, qrels = files
    out = tmp_path / "m.csv"
    assert main([str(run), "--qrels", str(qrels), "-k", "2", "--metrics-csv", str(out)]) == 0
    table = pd.read_csv(out)
    assert table["doc"].tolist() == ["a", "b"] and table["judged"].all()


def test_example_csv_through_the_cli(tmp_path):
    from ndcg_gui.assets import resource_path

    out = tmp_path / "s.csv"
    with resource_path("examples/e1.csv") as example:
        assert main([str(example), "-k", "5", "--preset", "sklearn", "--summary-csv", str(out)]) == 0
    assert pd.read_csv(out)["ndcg"].iloc[0] == pytest.approx(0.9724, abs=1e-4)


@pytest.mark.parametrize(
    ("content", "args", "message"),
    [
        ("doc,grade\na,1\nb,high\n", [], 'bad.csv:3: grade "high" is not a number'),
        (None, [], "bad.csv: file not found"),
        ("doc,grade\na,1\n", ["--query", "nope"], 'bad.csv: no query "nope" among the 1 in the run: ""'),
        ("doc,grade\na,1\n", ["--gain", "1=x"], '--gain "1=x": "1=x" is not grade=gain'),
        ("doc,grade\na,1\n", ["--discount", "jarvelin:1"], "the base must be a number greater than 1"),
    ],
)
def test_bad_input_exits_2_with_one_line(tmp_path, content, args, message):
    bad = tmp_path / "bad.csv"
    if content is not None:
        bad.write_text(content)
    out = tmp_path / "out.csv"
    result = cli(bad, *args, "--metrics-csv", out)
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and message in result.stderr
    assert result.stderr.startswith("ndcg-inspect: ") and "Traceback" not in result.stderr
    assert not out.exists()


def test_unwritable_output_exits_2(tmp_path, files):
    run, qrels = files
    result = cli(run, "--qrels", qrels, "--summary-csv", tmp_path / "missing" / "s.csv")
    assert result.returncode == 2 and "s.csv: cannot write here" in result.stderr


@pytest.mark.parametrize("args", [["-k", "0"], ["-k", "x"], ["-k", str(2**63)], ["-k", "2147483648"],
                                  ["--preset", "nope"], []])
def test_option_errors_exit_2(tmp_path, files, args):
    run, _ = files
    out = ["--summary-csv", tmp_path / "s.csv"]
    result = cli(*([run, *args, *out] if args else out))
    assert result.returncode == 2 and "usage:" in result.stderr


def test_help_describes_the_headless_use():
    result = cli("--help")
    assert result.returncode == 0
    assert result.stdout.startswith("usage: ndcg-inspect ")
    for text in ("--metrics-csv", "--summary-csv", "--qrels", "--gain", "--discount", "jarvelin[:BASE]",
                 "exits with status 2", "1=3,2=9,4=4.5", "No window", "--format", "trec_eval -q"):
        assert text in result.stdout


def test_parse_gain_and_discount():
    assert parse_gain("Linear") == "linear" and parse_gain(" exponential") == "exponential"
    assert dict(parse_gain("1=3, 2=9,4=4.5")) == {1.0: 3.0, 2.0: 9.0, 4.0: 4.5}
    assert parse_discount("log2") == ("log2", 2.0)
    assert parse_discount("jarvelin") == ("jarvelin", 2.0)
    assert parse_discount("JARVELIN:10") == ("jarvelin", 10.0)
    for bad in ("", "quadratic", "1=", "=2", "1=inf"):
        with pytest.raises(InputError, match="--gain"):
            parse_gain(bad)
    for bad in ("log3", "jarvelin:x", "jarvelin:0.5", "log2:2", "jarvelin:inf"):
        with pytest.raises(InputError, match="--discount"):
            parse_discount(bad)


def test_with_no_preset_the_definition_is_trec_evals(tmp_path, capsys):
    """The output is trec_eval -q's: with no --preset, its definition, negative grades as 0 (as
    the window's first session). A negative judgment changes nothing under it; kept, it would."""
    run, qrels = tmp_path / "run.txt", tmp_path / "qrels.txt"
    run.write_text("1 Q0 a 1 3 t\n1 Q0 b 2 2 t\n1 Q0 c 3 1 t\n")
    qrels.write_text("1 0 a -2\n1 0 b 1\n1 0 c 2\n")
    outputs = {}
    for name, extra in (("default", []), ("trec_eval", ["--preset", "trec_eval"]),
                        ("zeroed", [])):
        if name == "zeroed":
            qrels.write_text("1 0 a 0\n1 0 b 1\n1 0 c 2\n")
        assert main([str(run), "--qrels", str(qrels), *extra]) == 0
        outputs[name] = capsys.readouterr().out
    assert outputs["default"] == outputs["trec_eval"] == outputs["zeroed"]
    assert measure_from_options(None) == measure_from_options("trec_eval")


def test_options_override_the_preset():
    measure = measure_from_options("trec_eval", gain="exponential")
    assert (measure.gain, measure.negative, measure.ideal, measure.ties) == ("exponential", "zero", "judged",
                                                                             "trec")
    measure = measure_from_options(None, discount="jarvelin:3")
    assert (measure.discount, measure.base, measure.ties) == ("jarvelin", 3.0, "trec")
    with pytest.raises(InputError, match="--preset"):
        measure_from_options("nope")


def test_an_internal_error_is_one_line_too(tmp_path, files, monkeypatch, capsys):
    import ndcg_gui.core.reading as readers

    def broken(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(readers, "load", broken)
    assert main([str(files[0]), "--summary-csv", str(tmp_path / "s.csv")]) == 1
    err = capsys.readouterr().err
    assert err == "ndcg-inspect: internal error (RuntimeError: boom); please report it\n"


def test_summary_without_k_has_the_windows_numbers(tmp_path):
    """No -k: the cut-off the window opens with (10), so the export and the query panel agree."""
    from ndcg_gui.assets import resource_path
    from ndcg_gui.core.ndcg.measure import DEFAULT_K
    from ndcg_gui.core.reading import load

    out = tmp_path / "summary.csv"
    with resource_path("examples/sample.run") as run, resource_path("examples/sample.qrels") as qrels:
        assert main([str(run), "--qrels", str(qrels), "--summary-csv", str(out)]) == 0
        expected = load(run, qrels).summary(Measure(k=DEFAULT_K))
    written = pd.read_csv(out, dtype={"query": str})
    assert DEFAULT_K == 10
    pd.testing.assert_series_equal(written["ndcg"], expected["ndcg"], check_exact=False, rtol=1e-12)
    assert written["query"].tolist() == expected["query"].tolist()


# ---- the per-query lines, like trec_eval -q ------------------------------------------------------
TREC_EVAL = Path(__file__).resolve().parent / "data" / "trec_eval"


def trec_eval_output(name: str, measure: str) -> dict[str, str]:
    """{topic or 'all': value as printed} of one measure in one of trec_eval's own output files."""
    lines = (TREC_EVAL / name).read_text().splitlines()
    return {f[1]: f[2] for f in map(str.split, lines) if f and f[0] == measure}


@pytest.mark.parametrize(
    ("run", "qrels", "out"),
    [
        ("results.test", "qrels.test", "out.test.aq"),
        ("results.test", "qrels.rel_level", "out.test.aql"),  # graded, with -1 grades
        ("results.trunc", "qrels.test", "out.test.aqc"),  # a judged topic without results (-c)
    ],
)
def test_text_lines_are_trec_evals_ndcg_cut_10(run, qrels, out):
    result = cli(TREC_EVAL / run, "--qrels", TREC_EVAL / qrels, "--preset", "trec_eval")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["query", "n_docs", "n_judged", "dcg@10", "idcg@10", "ndcg@10", "judged@10"]
    printed = {fields[0]: fields[5] for fields in map(str.split, lines[1:])}
    assert printed == trec_eval_output(out, "ndcg_cut_10")  # every topic and "all", to 4 decimals
    assert list(printed)[-1] == "all"


def test_tsv_figures_equal_pytrec_eval_and_all_is_their_mean(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(Path(__file__).parent / "core"))
    from pytrec_child import evaluate as pytrec_evaluate  # trec_eval's C code, in a child process

    run_path, qrels_path = TREC_EVAL / "results.test", TREC_EVAL / "qrels.rel_level"
    result = cli(run_path, "--qrels", qrels_path, "-k", "20", "--preset", "trec_eval", "--format", "tsv")
    assert result.returncode == 0, result.stderr
    table = pd.read_csv(io.StringIO(result.stdout), sep="\t", dtype={"query": str})
    run: dict[str, dict[str, float]] = {}
    for q, _, d, _, s, *_ in map(str.split, run_path.read_text().splitlines()):
        run.setdefault(q, {})[d] = float(s)
    qrels: dict[str, dict[str, int]] = {}
    for q, _, d, g in map(str.split, qrels_path.read_text().splitlines()):
        qrels.setdefault(q, {})[d] = int(g)
    want = pytrec_evaluate(qrels, {"ndcg_cut_20"}, run)
    per_query = table[table["query"] != "all"].set_index("query")["ndcg"]
    assert per_query.to_dict() == pytest.approx({q: v["ndcg_cut_20"] for q, v in want.items()}, abs=1e-12)
    everything = table.set_index("query").loc["all"]
    assert everything["ndcg"] == pytest.approx(per_query.mean(), abs=1e-15)
    assert everything["n_docs"] == table[table["query"] != "all"]["n_docs"].sum()


@pytest.mark.parametrize("form", ["csv", "json"])
def test_csv_and_json_carry_the_same_figures_as_the_summary(tmp_path, files, form):
    run, qrels = files
    summary = tmp_path / "s.csv"
    assert cli(run, "--qrels", qrels, "-k", "3", "--summary-csv", summary).returncode == 0
    expected = pd.read_csv(summary, dtype={"query": str})
    assert set(expected["k"]) == {3} and expected["definition"].nunique() == 1  # the file says what it is
    expected = expected.drop(columns=["k", "definition"])  # (the command line printing it says that)
    result = cli(run, "--qrels", qrels, "-k", "3", "--format", form)
    assert result.returncode == 0 and "judged but without results, scored 0: \"3\"" in result.stderr
    if form == "csv":
        got = pd.read_csv(io.StringIO(result.stdout), dtype={"query": str}).iloc[:-1]
    else:
        data = json.loads(result.stdout)
        assert data["k"] == 3 and data["all"]["query"] == "all"
        got = pd.DataFrame(data["queries"])
    # Judged@k beside them (not in --summary-csv): the share of the first k documents judged
    depth = np.minimum(got["n_docs"], 3)
    np.testing.assert_allclose(got.pop("judged"), np.where(depth > 0, got["n_judged"] / depth.clip(1), 0))
    pd.testing.assert_frame_equal(got.reset_index(drop=True), expected, check_dtype=False)


def test_query_option_prints_that_querys_line(files):
    run, qrels = files
    result = cli(run, "--qrels", qrels, "--query", "2", "--format", "tsv")
    assert [line.split("\t")[0] for line in result.stdout.splitlines()] == ["query", "2", "all"]


def test_a_run_without_qrels_is_refused_by_both_programs(files):
    run, _ = files
    want = "run.txt: is a TREC run, which holds no grades: give its qrels too (--qrels QRELS)\n"
    inspect = cli(run, "--summary-csv", run.parent / "s.csv")
    assert (inspect.returncode, inspect.stderr) == (2, "ndcg-inspect: " + want)
    assert not (run.parent / "s.csv").exists()
    assert cli(run).stderr == "ndcg-inspect: " + want
    gui = subprocess.run([sys.executable, "-c", _NO_QT_GUI, str(run)], capture_output=True, text=True)
    assert (gui.returncode, gui.stderr) == (2, "ndcg-gui: " + want)


# `ndcg-gui`'s command line, run up to the point where it would import Qt.
_NO_QT_GUI = _NO_QT.replace("from ndcg_gui.cli.main import main", "from ndcg_gui.gui_main import main")


@pytest.mark.parametrize("args", [["--gain", "1=x"], ["--preset", "nope"], ["-k", "0"]])
def test_gui_options_are_checked_before_qt(args):
    result = subprocess.run([sys.executable, "-c", _NO_QT_GUI, *args], capture_output=True, text=True)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert result.stderr.splitlines()[-1].startswith("ndcg-gui: ")  # after the usage, for argparse's


def test_each_program_names_itself_in_help_and_version():
    from ndcg_gui import __version__

    for script, name in ((_NO_QT, "ndcg-inspect"), (_NO_QT_GUI, "ndcg-gui")):
        shown = subprocess.run([sys.executable, "-c", script, "--help"], capture_output=True, text=True)
        assert shown.returncode == 0 and shown.stdout.startswith(f"usage: {name} [-h]")
        version = subprocess.run([sys.executable, "-c", script, "--version"], capture_output=True, text=True)
        assert version.stdout.split() == [name, __version__]


# ---- comparing runs: ndcg-inspect RUN_A RUN_B [RUN_C …] --qrels QRELS ------------------------------


def pytrec_ndcg(run_path: Path, qrels_path: Path, k: int, judged: list[str]) -> pd.Series:
    """trec_eval's ndcg_cut_k per judged query (pytrec_eval in a child process); 0 for a judged
    query the run returned nothing for (trec_eval -c)."""
    import importlib

    pytrec = importlib.import_module("pytrec_child")
    run: dict[str, dict[str, float]] = {}
    for q, _, d, _, s, *_ in map(str.split, run_path.read_text().splitlines()):
        run.setdefault(q, {})[d] = float(s)
    qrels: dict[str, dict[str, int]] = {}
    for q, _, d, g in map(str.split, qrels_path.read_text().splitlines()):
        qrels.setdefault(q, {})[d] = int(g)
    got = pytrec.evaluate(qrels, {f"ndcg_cut_{k}"}, run)
    return pd.Series({q: got.get(q, {}).get(f"ndcg_cut_{k}", 0.0) for q in judged}, dtype=float)


def exact_sign_flip_p(d: np.ndarray) -> float:
    """Two-sided paired randomization test by listing every sign pattern of the differences."""
    observed = abs(d.mean())
    means = [abs((d * signs).mean()) for signs in itertools.product((1, -1), repeat=len(d))]
    return float(np.mean([m >= observed - 1e-12 for m in means]))


@pytest.fixture
def real_runs(monkeypatch):
    """trec_eval's own test runs: results.trunc lacks topic 302, which results.test has."""
    monkeypatch.syspath_prepend(str(Path(__file__).parent / "core"))
    return TREC_EVAL / "results.test", TREC_EVAL / "results.trunc", TREC_EVAL / "qrels.test"


def test_two_real_runs_compared_against_trec_eval_and_scipy(real_runs):
    full, trunc, qrels = real_runs
    args = [full, trunc, "--qrels", qrels, "--preset", "trec_eval"]
    per_query = cli(*args, "-q", "--format", "tsv")
    assert per_query.returncode == 0, per_query.stderr
    assert "results.trunc returned nothing for 1 of 3 judged queries, scored 0 there" in per_query.stderr
    rows = pd.read_csv(io.StringIO(per_query.stdout), sep="\t", dtype={"query": str}).set_index("query")
    judged = ["301", "302", "303"]
    a, b = pytrec_ndcg(full, qrels, 10, judged), pytrec_ndcg(trunc, qrels, 10, judged)
    assert rows["results.test"].to_dict() == pytest.approx(a.to_dict(), abs=1e-12)
    assert rows["results.trunc"].to_dict() == pytest.approx(b.to_dict(), abs=1e-12)
    assert rows["delta results.trunc"].to_dict() == pytest.approx((b - a).to_dict(), abs=1e-12)

    table = cli(*args, "--format", "csv")
    assert table.returncode == 0, table.stderr
    got = pd.read_csv(io.StringIO(table.stdout)).set_index("run")
    assert list(got.index) == ["results.test", "results.trunc"] and got["judged"].tolist() == [3, 3]
    assert got["scored"].tolist() == [3, 2]
    r = got.loc["results.trunc"]
    d = (b - a).to_numpy()
    assert r["mean"] == pytest.approx(b.mean()) and r["delta"] == pytest.approx(d.mean())
    counts = ((d > 1e-9).sum(), (abs(d) <= 1e-9).sum(), (d < -1e-9).sum())
    assert (r["wins"], r["ties"], r["losses"]) == counts
    assert r["t_p"] == pytest.approx(stats.ttest_rel(b, a).pvalue, rel=1e-9)
    assert r["rand_p"] == pytest.approx(exact_sign_flip_p(d))  # 3 queries: every pattern counted
    ci = stats.bootstrap((d,), np.mean, n_resamples=10_000, method="percentile",
                         rng=np.random.default_rng(0)).confidence_interval
    assert (r["ci_low"], r["ci_high"]) == pytest.approx((ci.low, ci.high), abs=1e-12)
    assert r["effect_size"] == pytest.approx(d.mean() / d.std(ddof=1))
    assert r["p_holm"] == pytest.approx(r["rand_p"])  # one comparison: nothing to correct
    # How each figure was made comes with it (stderr, beside a table meant for a pipe).
    assert "all 4 sign patterns of its 2 non-zero differences" in table.stderr  # 301 is a tie
    assert "Student's paired t-test" in table.stderr


def test_text_states_each_figure_with_its_test_draws_and_seed(tmp_path, monkeypatch):
    run, qrels = TREC_EVAL / "results.test", TREC_EVAL / "qrels.test"
    noisy = tmp_path / "noisy.run"
    rng = np.random.default_rng(5)
    lines = run.read_text().splitlines()
    noisy.write_text("".join(f"{q} Q0 {d} {r} {float(s) + rng.normal(0, 0.3):.4f} noisy\n"
                             for q, _, d, r, s, *_ in map(str.split, lines)))
    args = [run, noisy, "--qrels", qrels, "--samples", "500", "--seed", "3", "-k", "20"]
    result = cli(*args)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    header = next(line for line in out.splitlines() if line.startswith("run"))
    assert header.split() == ["run", "scored", "mean", "ndcg@20", "delta", "W/T/L", "t-test", "p", "rand.",
                              "p", "95", "%", "CI", "effect", "Holm", "p", "verdict"]
    table = cli(*args, "--format", "csv")
    figures = pd.read_csv(io.StringIO(table.stdout)).set_index("run")
    baseline = next(line for line in out.splitlines() if line.startswith("results.test")).split()
    assert baseline[1:] == ["3/3", f"{figures.loc['results.test', 'mean']:.4f}", "(baseline)"]
    assert "How each figure was made:" in out
    assert "NDCG@20 over 3 queries" in out
    assert "500 resamples of the queries, numpy default_rng(3)" in out
    assert "Holm's correction of the randomization p over the 1 run compared" in out
    # The same figures as numbers: against trec_eval's NDCG, every sign pattern, scipy's bootstrap.
    r = figures.loc["noisy"]
    judged = ["301", "302", "303"]
    monkeypatch.syspath_prepend(str(Path(__file__).parent / "core"))
    d = (pytrec_ndcg(noisy, qrels, 20, judged) - pytrec_ndcg(run, qrels, 20, judged)).to_numpy()
    assert r["rand_p"] == pytest.approx(exact_sign_flip_p(d))
    ci = stats.bootstrap((d,), np.mean, n_resamples=500, method="percentile",
                         rng=np.random.default_rng(3)).confidence_interval
    assert (r["ci_low"], r["ci_high"]) == pytest.approx((ci.low, ci.high), abs=1e-12)


def test_missing_skip_compares_only_what_every_run_answered(real_runs):
    full, trunc, qrels = real_runs
    result = cli(full, trunc, "--qrels", qrels, "--missing", "skip", "-q", "--format", "json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["missing"] == "skip" and data["judged"] == 3 and data["compared"] == 2
    assert [q["query"] for q in data["queries"]] == ["301", "303"]
    assert [r["scored"] for r in data["runs"]] == [3, 2]
    assert data["runs"][0]["delta"] is None and data["runs"][1]["exact"] is True
    assert "1 of 3 judged queries left out" in result.stderr
    assert set(data["methods"]) == {"mean", "delta", "wins", "losses", "ties", "t_p", "rand_p", "ci_low",
                                    "ci_high", "effect_size", "p_holm", "verdict"}
    assert data["runs"][1]["verdict"] == "no detectable difference" and data["runs"][0]["verdict"] is None


def test_three_runs_with_holms_correction_and_a_chosen_baseline(tmp_path, real_runs):
    full, trunc, qrels = real_runs
    third = tmp_path / "third.run"
    third.write_text("".join(line.replace("STANDARD", "third") + "\n"
                             for i, line in enumerate(full.read_text().splitlines()) if i % 3))
    result = cli(full, trunc, third, "--qrels", qrels, "--baseline", "third", "--format", "csv")
    assert result.returncode == 0, result.stderr
    got = pd.read_csv(io.StringIO(result.stdout)).set_index("run")
    compared = ["results.test", "results.trunc"]
    assert list(got.index) == ["third", *compared]
    p = got.loc[compared, "rand_p"].to_numpy()
    order = np.argsort(p)
    holm = np.maximum.accumulate(np.minimum(1, (2 - np.arange(2)) * p[order]))
    assert got.loc[compared, "p_holm"].to_numpy()[order] == pytest.approx(holm)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--baseline", "nope"], "--baseline 'nope' is not one of the runs: results.test, results.trunc"),
        (["--summary-csv", "{tmp}/s.csv"],
         "--summary-csv writes the table of one file, not of 2 compared runs"),
        (["-q", "--query", "999"], 'no query "999" among the 3 compared: "301", "302", "303"'),
    ],
)
def test_comparison_errors_are_one_line(real_runs, tmp_path, args, message):
    full, trunc, qrels = real_runs
    result = cli(full, trunc, "--qrels", qrels, *(a.format(tmp=tmp_path) for a in args))
    assert result.returncode == 2 and result.stdout == "" and not (tmp_path / "s.csv").exists()
    assert result.stderr.strip().splitlines()[-1] == f"ndcg-inspect: {message}"


def test_compared_runs_need_their_qrels_for_the_gate(real_runs):
    full, trunc, _ = real_runs  # (without --qrels and the gate: their overlap, tests/test_cli_overlap.py)
    result = cli(full, trunc, "--fail-if-worse")
    assert result.returncode == 2 and "give its qrels too (--qrels QRELS)" in result.stderr


# ---- the command itself: cli.run leaves without the interpreter's teardown ---------------------------


@pytest.fixture
def many(tmp_path):
    """A run of 2,000 judged queries: more output than a pipe holds (64 KiB), so a lost buffer or a
    closed pipe would show."""
    rng = np.random.default_rng(7)
    run = tmp_path / "many.run"
    qrels = tmp_path / "many.qrels"
    run.write_text("".join(f"q{q} Q0 d{d} {r + 1} {20 - r} t\n"
                           for q in range(2000) for r, d in enumerate(rng.permutation(20))))
    qrels.write_text("".join(f"q{q} 0 d{d} {rng.integers(0, 4)}\n" for q in range(2000) for d in range(10)))
    return run, qrels


# Output block-buffered as in a user's shell (PYTHONUNBUFFERED would hide an unflushed buffer).
_BUFFERED = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}


def command(*args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "ndcg_gui.cli", *map(str, args)], capture_output=True,
                          text=True, env=_BUFFERED)


def test_the_command_prints_and_writes_everything_before_it_leaves(tmp_path, many, files):
    small = command(*files[:1], "--qrels", files[1])  # less than a buffer: printed only once flushed
    assert small.returncode == 0 and small.stdout.splitlines()[-1].startswith("all ")
    run, qrels = many
    printed = command(run, "--qrels", qrels, "--format", "tsv")
    assert (printed.returncode, printed.stderr) == (0, "")
    lines = printed.stdout.splitlines()
    assert len(lines) == 1 + 2000 + 1 and lines[-1].startswith("all\t")
    out = tmp_path / "summary.csv"
    written = command(run, "--qrels", qrels, "--summary-csv", out)
    assert written.returncode == 0
    table = pd.read_csv(out, dtype={"query": str})
    assert len(table) == 2000
    printed_ndcg = [float(line.split("\t")[5]) for line in lines[1:-1]]
    assert table["ndcg"].tolist() == pytest.approx(printed_ndcg, abs=1e-9)
    compared = command(run, run, "--qrels", qrels, "-q", "--format", "tsv", "--samples", "100")
    assert compared.returncode == 0 and len(compared.stdout.splitlines()) == 1 + 2000
    bad = command(tmp_path / "absent.run", "--qrels", qrels)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1


def test_the_command_is_quiet_when_its_reader_stops_early(many):
    run, qrels = many
    process = subprocess.Popen([sys.executable, "-m", "ndcg_gui.cli", str(run), "--qrels", str(qrels)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=_BUFFERED)
    assert process.stdout.readline().startswith("query")
    process.stdout.close()  # as `| head -1` does
    assert process.wait(timeout=60) == 0
    assert process.stderr.read() == ""


@pytest.mark.parametrize("direct", [True, False])
def test_ctrl_c_during_a_load_is_one_line_and_status_130(files, monkeypatch, capsys, direct):
    from ndcg_gui.core import reading
    from ndcg_gui.core.reading import direct as scored_directly

    def interrupted(*_args, **_kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(*((scored_directly, "summarise") if direct else (reading, "load")), interrupted)
    run, qrels = files
    assert main([str(run), "--qrels", str(qrels)], direct=direct) == 130
    assert capsys.readouterr().err == "ndcg-inspect: interrupted\n"


def test_the_command_writes_its_table_with_its_output_streams_closed(tmp_path, files):
    run, qrels = files
    out = tmp_path / "s.csv"
    script = f'"{sys.executable}" -m ndcg_gui.cli "{run}" --qrels "{qrels}" --summary-csv "{out}" >&- 2>&-'
    result = subprocess.run(["sh", "-c", script], env=_BUFFERED)
    assert result.returncode == 0 and len(pd.read_csv(out)) == 3


# ---- where the tables go: special files, `-`, the inputs, odd paths (issue 20) ------------------
_ROOT = Path(__file__).resolve().parents[1]  # this worktree: shells run its code


def shell(line: str, cwd: Path) -> subprocess.CompletedProcess:
    """`line` run by sh, `$CLI` standing for `ndcg-inspect`."""
    env = {**_BUFFERED, "PYTHONPATH": str(_ROOT), "CLI": f'"{sys.executable}" -m ndcg_gui.cli'}
    process = subprocess.Popen(["sh", "-c", line.replace("$CLI", env["CLI"])], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, cwd=cwd, env=env, start_new_session=True)
    try:
        out, err = process.communicate(timeout=120)
    except subprocess.TimeoutExpired:  # (a reader left waiting on a FIFO nobody writes into)
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
        pytest.fail(f"hangs: {line}")
    return subprocess.CompletedProcess(line, process.returncode, out, err)


@pytest.mark.parametrize("option", ["--summary-csv", "--metrics-csv"])
def test_a_table_to_dev_stdout_appends_to_the_file_behind_it(tmp_path, files, option):
    (tmp_path / "results.csv").write_text("before\n")
    done = shell(f"$CLI run.txt --qrels qrels.txt {option} /dev/stdout >> results.csv", tmp_path)
    assert done.returncode == 0, done.stderr
    lines = (tmp_path / "results.csv").read_text().splitlines()
    assert lines[0] == "before" and lines[1].startswith(("query,n_docs", "rank,doc")) and len(lines) > 2
    logged = shell(f"$CLI run.txt --qrels qrels.txt {option} /dev/stderr 2>> results.csv", tmp_path)
    assert logged.returncode == 0
    assert (tmp_path / "results.csv").read_text().startswith("\n".join(lines) + "\n")


def test_a_lone_dash_is_stdout(tmp_path, files):
    done = shell("$CLI run.txt --qrels qrels.txt --summary-csv - | cat", tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("query,n_docs,n_judged,dcg,idcg,ndcg,k,definition\n1,3,3,")
    assert not (tmp_path / "-").exists()


def test_a_table_into_a_fifo_keeps_the_fifo(tmp_path, files):
    fifo = tmp_path / "out.fifo"
    os.mkfifo(fifo)
    done = shell("cat out.fifo > got.csv & $CLI run.txt --qrels qrels.txt --summary-csv out.fifo; wait",
                 tmp_path)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "got.csv").read_text().startswith("query,n_docs")
    assert fifo.is_fifo()


@pytest.mark.parametrize("which", ["run.txt", "qrels.txt"])
def test_an_output_that_is_an_input_is_refused(tmp_path, files, which):
    before = (tmp_path / which).read_bytes()
    (tmp_path / "link").symlink_to(which)
    for name in (which, "link"):
        done = cli(tmp_path / "run.txt", "--qrels", tmp_path / "qrels.txt", "--summary-csv", tmp_path / name)
        assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
        assert f"{name}: --summary-csv is {which}, an input too" in done.stderr
        assert (tmp_path / which).read_bytes() == before


def test_odd_paths_are_one_line_and_status_2(tmp_path, files):
    (tmp_path / "loop.a").symlink_to("loop.b")
    (tmp_path / "loop.b").symlink_to("loop.a")
    long = "x" * 300
    cases = [
        (["loop.a", "--qrels", "qrels.txt"], "loop.a: is a symbolic link that loops"),
        (["run.txt", "--qrels", "loop.a"], "loop.a: is a symbolic link that loops"),
        (["run.txt", "--qrels", "qrels.txt", "--summary-csv", "loop.a"], "loop.a: is a symbolic link"),
        ([long, "--qrels", "qrels.txt"], "the name is too long"),
        (["run.txt", "--qrels", long], "the name is too long"),
        (["run.txt", "--qrels", "qrels.txt", "--metrics-csv", long], "the name is too long"),
    ]
    for args, message in cases:
        done = cli(*args, cwd=tmp_path)
        assert done.returncode == 2, (args, done.stderr)
        assert done.stderr.count("\n") == 1 and message in done.stderr, (args, done.stderr)
    assert os.readlink(tmp_path / "loop.a") == "loop.b"

@pytest.mark.parametrize("form", ["json", "text", "tsv"])
def test_a_gain_no_double_holds_is_refused_by_its_line(tmp_path, form):
    """2^1024 - 1 is inf: the grade is named by its line, not printed as a figure (issue 35)."""
    path = tmp_path / "huge.csv"
    path.write_text("doc,grade\nb,1\na,1024\n")
    result = cli(path, "--gain", "exponential", "--format", form)
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == ('ndcg-inspect: huge.csv:3: grade 1024 (query "", doc "a") gives an infinite '
                             "gain under 2^g - 1; expected a grade below 1024 under the exponential gain\n")


@pytest.mark.parametrize(("text", "args"), [
    ("doc,grade\na,1.5e308\nb,1.5e308\nc,1\n", []),  # each fits, their sum does not
])
@pytest.mark.parametrize("form", ["json", "text", "tsv"])
def test_figures_too_big_for_a_double_are_null_in_json_and_said_once(tmp_path, text, args, form):
    """Valid JSON whatever the grades (null where a figure is not finite, as trec_eval-minded
    readers expect a missing value); a note on stderr says which queries; no RuntimeWarning."""
    path = tmp_path / "huge.csv"
    path.write_text(text)
    result = cli(path, *args, "--format", form)
    assert result.returncode == 0, result.stderr
    assert result.stderr.splitlines() == [
        'ndcg-inspect: note: huge.csv: 1 query has figures too big for a floating-point number '
        '(shown as null in JSON, nan or inf otherwise): ""']
    if form == "json":
        data = json.loads(result.stdout, parse_constant=lambda c: pytest.fail(f"{c} is not JSON"))
        assert data["queries"][0]["dcg"] is None or math.isfinite(data["queries"][0]["dcg"])
        assert data["all"]["ndcg"] is None


def test_json_lines_nested_20000_deep_are_refused_not_a_crash(tmp_path):
    """pyarrow's JSON reader segfaulted on it (exit 139, no message)."""
    path = tmp_path / "deep.jsonl"
    nested = "[" * 20000 + "]" * 20000
    path.write_text('{"doc": "a", "grade": 1}\n{"doc": "b", "grade": 2, "x": ' + nested + "}\n")
    result = cli(path)
    assert result.returncode == 2
    assert result.stderr.startswith("ndcg-inspect: deep.jsonl:2: arrays and objects nested more than 64")
    assert result.stderr.count("\n") == 1


def test_help_states_the_limits():
    """Each limit in --help is the one the code applies (both programs share the text)."""
    from ndcg_gui.core.formats import columnar, source
    from ndcg_gui.core.ndcg.measure import MAX_K

    text = " ".join(cli("--help").stdout.split())
    for limit in (f"k from 1 to {MAX_K:,}", f"a line of at most {source.LINE_LIMIT_TEXT}",
                  f"nested at most {columnar.NESTING_LIMIT} levels", f"up to {source.STREAM_LIMIT_TEXT}",
                  f"within {source.FIFO_WAIT:g} s"):
        assert limit in text
