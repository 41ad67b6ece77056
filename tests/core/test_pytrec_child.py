"""The child that runs trec_eval's C code is ended by its own CPU time, not by the clock: on a busy
machine a child that waits for a core still answers (issue 33.11: a fixed 30 s on the clock failed
tests/test_cli.py::test_tsv_figures_equal_pytrec_eval_and_all_is_their_mean under load)."""

from __future__ import annotations

import time

import pytest
from pytrec_child import call, evaluate


def _answer_after_waiting(seconds: float) -> str:
    time.sleep(seconds)  # (what a child without a core does: time passes, no CPU is used)
    return "answered"


def _spin() -> None:
    while True:
        pass


def test_a_child_that_waits_longer_than_its_cpu_limit_still_answers():
    assert call(_answer_after_waiting, 2.5, cpu_seconds=1, tries=1) == "answered"


def test_a_child_that_spins_is_ended_by_its_cpu_limit():
    with pytest.raises(TimeoutError, match="within 1 s of its own CPU time or 900 s on the clock, 1 times"):
        call(_spin, cpu_seconds=1, tries=1)


def test_pytrec_eval_answers_from_its_child():
    got = evaluate({"q": {"a": 1, "b": 0}}, {"ndcg"}, {"q": {"a": 1.0, "b": 2.0}})
    assert got["q"]["ndcg"] == pytest.approx(1 / __import__("math").log2(3))
