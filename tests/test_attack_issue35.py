"""Issue 35's last items attacked as a hostile user would (weights, segments, infinite gains): each
case found broken, kept as a test that failed on the code before its fix."""

from __future__ import annotations

import json

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
