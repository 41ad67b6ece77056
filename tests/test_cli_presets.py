"""`ndcg-inspect --preset NAME` for every tool preset: the direct path (rows scored as parsed) and
the dataset path print the same table, whose last line holds the mean `evaluate` gives."""

from pathlib import Path

import pytest

from ndcg_gui.cli.main import main
from ndcg_gui.core import evaluate, load, mean_ndcg
from ndcg_gui.core.ndcg.presets import PRESETS

EXAMPLES = Path(__file__).resolve().parents[1] / "resources" / "examples"
ARGS = [str(EXAMPLES / "sample.run"), "--qrels", str(EXAMPLES / "sample.qrels"), "--format", "tsv"]


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_preset_prints_the_same_both_ways(capsys, name):
    assert main([*ARGS, "--preset", name], direct=True) == 0
    direct = capsys.readouterr().out
    assert main([*ARGS, "--preset", name], direct=False) == 0
    assert capsys.readouterr().out == direct
    dataset = load(EXAMPLES / "sample.run", qrels=EXAMPLES / "sample.qrels")
    preset = PRESETS[name]
    result = evaluate(dataset.run[["query", "doc", "score"]], dataset.qrels[["query", "doc", "grade"]],
                      preset.with_(k=10))
    last = direct.strip().splitlines()[-1].split("\t")
    assert last[0] == "all" and float(last[5]) == pytest.approx(mean_ndcg(result), abs=5e-5)  # (then judged)
