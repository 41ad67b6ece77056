"""ndcg-inspect --explain A B and --which MEAN."""

from pathlib import Path

from ndcg_gui.cli.main import main

EXAMPLES = Path(__file__).resolve().parents[1] / "resources" / "examples"


def test_explain_prints_the_walk_and_which_finds_the_preset(capsys):
    args = [str(EXAMPLES / "sample.run"), "--qrels", str(EXAMPLES / "sample.qrels")]
    assert main([*args, "--explain", "trec_eval", "sklearn"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("trec_eval → sklearn: mean ") and "ideal pool and order" in out
    first, _last = out.splitlines()[0].split(": mean ")[1].split(" → ")
    assert main([*args, "--which", first]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].startswith(f"mean NDCG@10 {first}: trec_eval")


def test_explain_names_an_unknown_preset(capsys):
    args = [str(EXAMPLES / "sample.run"), "--qrels", str(EXAMPLES / "sample.qrels"), "--explain", "trec", "x"]
    assert main(args) == 2
    assert '--explain "trec": expected one of trec_eval' in capsys.readouterr().err
