"""The headless command line: exports, exit status 2 with one line for bad input, and no Qt."""

from __future__ import annotations

import subprocess
import sys

import pandas as pd
import pytest

from ndcg_gui.cli import main
from ndcg_gui.core.errors import InputError
from ndcg_gui.core.options import config_from_options, parse_discount, parse_gain

RUN = "1 Q0 a 1 3 t\n1 Q0 b 2 2 t\n1 Q0 c 3 1 t\n2 Q0 x 1 1 t\n"
QRELS = "1 0 a 3\n1 0 b 2\n1 0 c 3\n1 0 z 1\n2 0 x 0\n3 0 y 2\n"

# Runs main() in a fresh interpreter and fails if any Qt module was imported on the way.
_NO_QT = (
    "import sys\n"
    "from ndcg_gui.cli import main\n"
    "code = main(sys.argv[1:])\n"
    "qt = [m for m in sys.modules if m.split('.')[0] in ('PySide6', 'pyqtgraph', 'shiboken6')]\n"
    "assert not qt, qt\n"
    "sys.exit(code)\n"
)


def cli(*args, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", _NO_QT, *map(str, args)], capture_output=True, text=True, cwd=cwd
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
    assert result.stderr == ""
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
    run, _ = files
    out = tmp_path / "m.csv"
    assert main([str(run), "-k", "2", "--metrics-csv", str(out)]) == 0
    table = pd.read_csv(out)
    assert table["doc"].tolist() == ["a", "b"] and not table["judged"].any()


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
        ("doc,grade\na,1\n", ["--query", "nope"], 'bad.csv: no query "nope"; it has 1: '),
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
    assert result.stderr.startswith("ndcg-gui: ") and "Traceback" not in result.stderr
    assert not out.exists()


def test_unwritable_output_exits_2(tmp_path, files):
    run, _ = files
    result = cli(run, "--summary-csv", tmp_path / "missing" / "s.csv")
    assert result.returncode == 2 and "s.csv: cannot write here" in result.stderr


@pytest.mark.parametrize("args", [["-k", "0"], ["-k", "x"], ["--preset", "nope"], []])
def test_option_errors_exit_2(tmp_path, files, args):
    run, _ = files
    out = ["--summary-csv", tmp_path / "s.csv"]
    result = cli(*([run, *args, *out] if args else out))
    assert result.returncode == 2 and "usage:" in result.stderr


def test_help_describes_the_headless_use():
    result = cli("--help")
    assert result.returncode == 0
    for text in ("--metrics-csv", "--summary-csv", "--qrels", "--gain", "--discount", "jarvelin[:BASE]",
                 "exits with status 2", "1=3,2=9,4=4.5", "no window"):
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


def test_options_override_the_preset():
    config, ties = config_from_options("trec_eval", gain="exponential")
    assert (config.gain, config.negative, config.ideal, ties) == ("exponential", "zero", "judged", "trec")
    config, ties = config_from_options(None, discount="jarvelin:3")
    assert (config.discount, config.base, ties) == ("jarvelin", 3.0, "trec")
    with pytest.raises(InputError, match="--preset"):
        config_from_options("nope")


def test_an_internal_error_is_one_line_too(tmp_path, files, monkeypatch, capsys):
    import ndcg_gui.core.readers as readers

    def broken(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(readers, "load", broken)
    assert main([str(files[0]), "--summary-csv", str(tmp_path / "s.csv")]) == 1
    err = capsys.readouterr().err
    assert err == "ndcg-gui: internal error (RuntimeError: boom); please report it\n"


def test_summary_without_k_has_the_windows_numbers(tmp_path):
    """No -k: the cut-off the window opens with (10), so the export and the query panel agree."""
    from ndcg_gui.assets import resource_path
    from ndcg_gui.core.config import DEFAULT_K
    from ndcg_gui.core.readers import load

    out = tmp_path / "summary.csv"
    with resource_path("examples/sample.run") as run, resource_path("examples/sample.qrels") as qrels:
        assert main([str(run), "--qrels", str(qrels), "--summary-csv", str(out)]) == 0
        expected = load(run, qrels).summary(DEFAULT_K)
    written = pd.read_csv(out, dtype={"query": str})
    assert DEFAULT_K == 10
    pd.testing.assert_series_equal(written["ndcg"], expected["ndcg"], check_exact=False, rtol=1e-12)
    assert written["query"].tolist() == expected["query"].tolist()
