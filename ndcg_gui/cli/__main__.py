"""`python -m ndcg_gui.cli`: `ndcg-inspect`."""

from ndcg_gui.cli.main import run

run()
