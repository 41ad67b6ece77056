"""`ndcg-inspect BASELINE CANDIDATE … --fail-if-worse`: the CI gate's exit status on runs built from
one qrels to be better, equal or worse than the baseline; Holm over several candidates; --alpha and
--min-delta; --format json; the JUnit XML file as CI dashboards read it; bad input is status 2."""

from __future__ import annotations

import hashlib
import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from ndcg_gui.cli.main import main
from tests.test_cli import cli

N_QUERIES = 12
GRADES = {"d1": 3, "d2": 2, "d3": 1, "d4": 0, "d5": 0}
IDEAL = ["d1", "d2", "d3", "d4", "d5"]
BASE = ["d2", "d1", "d3", "d4", "d5"]  # the first two swapped: NDCG below 1 on every query
WORST = IDEAL[::-1]


def _run(orders: dict[int, list[str]], default: list[str], tag: str) -> str:
    lines = []
    for q in range(1, N_QUERIES + 1):
        for rank, doc in enumerate(orders.get(q, default), start=1):
            lines.append(f"{q} Q0 {doc} {rank} {10 - rank} {tag}\n")
    return "".join(lines)


@pytest.fixture
def runs(tmp_path):
    qrels = "".join(f"{q} 0 {d} {g}\n" for q in range(1, N_QUERIES + 1) for d, g in GRADES.items())
    files = {
        "qrels": qrels,
        "base.run": _run({}, BASE, "base"),
        "better.run": _run({}, IDEAL, "better"),
        "equal.run": _run({}, BASE, "equal"),
        "worse.run": _run({}, WORST, "worse"),
        # worse than the baseline on 6 queries only: every sign pattern is enumerated, and only
        # "all down" and "all up" reach the observed |mean|, so p = 2 / 2**6 = 0.03125 exactly.
        "six.run": _run({q: WORST for q in range(1, 7)}, BASE, "six"),
    }
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    return lambda name: str(tmp_path / name)


def gate(runs, *names, extra=()) -> int:
    """The gate's exit status on the named runs (the first is the baseline)."""
    return main([*map(runs, names), "--qrels", runs("qrels"), "--fail-if-worse", *extra])


@pytest.mark.parametrize(("candidate", "status", "verdict"), [
    ("better.run", 0, "PASS"), ("equal.run", 0, "PASS"), ("worse.run", 1, "FAIL"),
])
def test_exit_status_of_better_equal_and_worse(runs, capsys, candidate, status, verdict):
    assert gate(runs, "base.run", candidate) == status
    out, err = capsys.readouterr()
    assert out.count("\n") == 1 and out.startswith(f"{verdict}: ")
    name = candidate.removesuffix(".run")
    assert f"{name} Δ NDCG@10" in out and "than base" in out
    assert err == ""


def test_a_significant_rise_never_fails(runs, capsys):
    # base against the ideal order: significantly different (p = 2/4096), but better
    assert gate(runs, "worse.run", "base.run", extra=["--alpha", "0.5"]) == 0
    assert capsys.readouterr().out.startswith("PASS")


def test_holm_over_several_candidates(runs, capsys):
    assert gate(runs, "base.run", "six.run") == 1  # alone: p = 0.03125 < 0.05
    assert "p 0.0312 < 0.05" in capsys.readouterr().out
    # with a second candidate Holm doubles the smallest p: 0.0625, not below 0.05
    assert gate(runs, "base.run", "six.run", "equal.run") == 0
    out = capsys.readouterr().out
    assert out.startswith("PASS") and "Holm over 2" in out and "six Δ" in out and "p (Holm) 0.0625" in out
    # a clearly worse candidate fails the gate whatever the others do
    assert gate(runs, "base.run", "equal.run", "worse.run", "better.run") == 1
    out = capsys.readouterr().out
    assert out.startswith("FAIL") and "worse Δ" in out and "equal Δ" not in out


def test_alpha_and_min_delta(runs, capsys):
    assert gate(runs, "base.run", "six.run", extra=["--alpha", "0.01"]) == 0
    capsys.readouterr()
    drop = -json.loads(_json(runs, capsys, "six.run"))["candidates"][0]["delta"]
    assert 0 < drop < 1
    # worse = significant AND a drop larger than --min-delta
    assert gate(runs, "base.run", "six.run", extra=["--min-delta", f"{drop * 1.01:.6f}"]) == 0
    assert "but the drop is within" in capsys.readouterr().out
    assert gate(runs, "base.run", "six.run", extra=["--min-delta", f"{drop * 0.99:.6f}"]) == 1


def _json(runs, capsys, candidate, *extra):
    gate(runs, "base.run", candidate, extra=["--format", "json", *extra])
    return capsys.readouterr().out


def test_json_for_machines(runs, capsys):
    assert gate(runs, "base.run", "worse.run", "equal.run", extra=["--format", "json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["verdict"] == "fail" and data["worse"] == ["worse"] and data["baseline"] == "base"
    assert data["alpha"] == 0.05 and data["min_delta"] == 0 and data["queries"] == N_QUERIES
    by_run = {c["run"]: c for c in data["candidates"]}
    assert by_run["worse"]["worse"] and by_run["worse"]["losses"] == N_QUERIES
    assert not by_run["equal"]["worse"] and by_run["equal"]["p"] == 1 and by_run["equal"]["ties"] == N_QUERIES
    expected = hashlib.sha256(Path(runs("base.run")).read_bytes()).hexdigest()
    assert data["inputs"]["base.run"] == expected and "qrels" in data["inputs"]
    assert "randomization" in data["test"] and "Holm" in data["correction"]


def test_junit_xml_as_ci_dashboards_read_it(runs, capsys, tmp_path):
    out = tmp_path / "gate.xml"
    assert gate(runs, "base.run", "worse.run", "better.run", extra=["--junit-xml", str(out)]) == 1
    line = capsys.readouterr().out.strip()
    root = ET.parse(out).getroot()
    assert root.tag == "testsuites"
    suite = root.find("testsuite")
    assert suite.get("tests") == "2" and suite.get("failures") == "1" and suite.get("errors") == "0"
    props = {p.get("name"): p.get("value") for p in suite.iter("property")}
    assert props["baseline"] == "base" and props["alpha"] == "0.05" and props["queries"] == str(N_QUERIES)
    assert "trec_eval" in props["definition"] or "log2" in props["definition"]
    assert len(props["sha256 worse.run"]) == 64
    cases = {c.get("name"): c for c in suite.iter("testcase")}
    assert set(cases) == {"worse not worse than base", "better not worse than base"}
    failure = cases["worse not worse than base"].find("failure")
    assert failure is not None and failure.get("type") == "SignificantlyWorse"
    assert failure.get("message").startswith("worse Δ NDCG@10") and failure.text == line
    assert cases["better not worse than base"].find("failure") is None
    assert all(c.get("classname") and c.get("time") == "0" for c in cases.values())


def test_junit_xml_of_a_pass_has_no_failure(runs, capsys, tmp_path):
    out = tmp_path / "gate.xml"
    assert gate(runs, "base.run", "equal.run", extra=["--junit-xml", str(out)]) == 0
    suite = ET.parse(out).getroot().find("testsuite")
    assert suite.get("failures") == "0" and suite.find("testcase/failure") is None


@pytest.mark.parametrize(("args", "message"), [
    (["--fail-if-worse"], "give BASELINE CANDIDATE"),
    (["@worse.run", "--alpha", "0.01"], "add --fail-if-worse"),
    (["@worse.run", "--fail-if-worse", "--alpha", "1.5"], "--alpha must be between 0 and 1"),
    (["@worse.run", "--fail-if-worse", "--min-delta", "-0.1"], "--min-delta must be 0 or more"),
    (["@worse.run", "--fail-if-worse", "--format", "csv"], "prints a line of text"),
    (["@missing.run", "--fail-if-worse"], "missing.run"),
])
def test_bad_input_is_status_2_with_one_line(runs, capsys, args, message):
    args = [runs(a[1:]) if a.startswith("@") else a for a in args]
    assert main([runs("base.run"), *args, "--qrels", runs("qrels")]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and message in err, err


def test_no_judged_query_in_common_is_bad_input(runs, capsys, tmp_path):
    other = tmp_path / "other.qrels"
    other.write_text("99 0 d1 1\n")
    assert main([runs("base.run"), runs("worse.run"), "--qrels", str(other), "--fail-if-worse",
                 "--missing", "skip"]) == 2
    assert "no query to compare" in capsys.readouterr().err


def test_the_gate_without_qt(runs):
    result = cli(runs("base.run"), runs("worse.run"), "--qrels", runs("qrels"), "--fail-if-worse")
    assert result.returncode == 1 and result.stdout.startswith("FAIL: significantly worse than base")


@pytest.mark.parametrize("samples", [1, 10, 19])
def test_a_sample_count_that_cannot_reach_alpha_is_refused(runs, capsys, samples):
    """Issue 33.4: 12 queries worse by far, but with fewer than 20 random draws the smallest p is
    1 / (samples + 1) >= 0.05: the gate could never fail, so it is refused, naming --samples."""
    assert gate(runs, "base.run", "worse.run", extra=["--samples", str(samples)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and f"--samples {samples}: " in err
    assert f"1 / {samples + 1}" in err and "give 20 or more" in err, err


def test_the_fewest_draws_that_can_reach_alpha_do_fail_a_worse_candidate(runs, capsys):
    """min_samples is the smallest count whose floor p (Holm: times the candidates) is below α, by
    brute force over the counts; with it (and Holm over 2) the worse run fails the gate."""
    from ndcg_gui.core.analysis.runs.gate import min_samples

    for alpha in (0.5, 0.3, 0.1, 0.05, 0.049, 0.01, 1 / 3, 0.001):
        for candidates in (1, 2, 3, 7):
            brute = next(s for s in range(1, 10**5) if candidates / (s + 1) < alpha)
            assert min_samples(alpha, candidates) == brute, (alpha, candidates)
    needed = min_samples(0.05, 2)
    assert gate(runs, "base.run", "worse.run", "equal.run", extra=["--samples", str(needed)]) == 1
    assert capsys.readouterr().out.startswith("FAIL")
    assert gate(runs, "base.run", "worse.run", "equal.run", extra=["--samples", str(needed - 1)]) == 2
    assert "Holm over 2 candidates" in capsys.readouterr().err


def test_decide_refuses_a_comparison_whose_draws_cannot_reach_alpha(runs):
    from ndcg_gui.core.analysis.runs.compare import compare_runs
    from ndcg_gui.core.analysis.runs.gate import decide
    from ndcg_gui.core.reading import load

    loaded = {name: load(runs(f"{name}.run"), runs("qrels")) for name in ("base", "worse")}
    cmp = compare_runs(loaded, loaded["base"].qrels, samples=10)
    with pytest.raises(ValueError, match="no candidate could fail"):
        decide(cmp, alpha=0.05)
    assert decide(cmp, alpha=0.1).failed  # 1 / 11 < 0.1: a gate at α 0.1 can fail, and does
