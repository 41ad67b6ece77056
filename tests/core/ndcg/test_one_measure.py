"""One type says which NDCG: no function of the core takes the cut-off, the definition or the tie
rule beside a measure, each as a separate argument (issue 32, item 5). A static scan of every
function and method in `ndcg_gui/core`: a parameter named `config` (the definition without its
k and tie rule, which a `Measure` replaced), or `k` or `ties` beside a `measure`/`definition`."""

from __future__ import annotations

import ast
from pathlib import Path

import ndcg_gui.core

CORE = Path(ndcg_gui.core.__file__).parent
MEASURE = {"measure", "definition", "config"}
# The notebook's entry point keeps the call its documentation promises, `ndcg_gui.report(run,
# qrels, k=10, preset="sklearn")`, and resolves it to one measure at once (`chosen_measure`).
CONVENIENCE = {("reports/notebook.py", "report"), ("reports/notebook.py", "chosen_measure")}


def split_choices(root: Path) -> list[str]:
    """Every function under `root` that takes a choice of which NDCG apart from the measure."""
    found = []
    for path in sorted(root.rglob("*.py")):
        where = path.relative_to(root).as_posix()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            a = node.args
            names = {p.arg for p in (*a.posonlyargs, *a.args, *a.kwonlyargs)}
            whole = names & MEASURE
            split = "config" in names or (whole and names & {"k", "ties"})
            if split and (where, node.name) not in CONVENIENCE:
                found.append(f"{where}:{node.lineno} {node.name}({', '.join(sorted(names))})")
    return sorted(found, key=lambda line: (line.split(":")[0], int(line.split(":")[1].split()[0])))


def test_no_core_function_takes_k_config_or_ties_beside_the_measure():
    assert split_choices(CORE) == []


def test_the_scan_finds_a_function_that_does(tmp_path):
    (tmp_path / "old.py").write_text(
        "def evaluate(run, qrels, k=None, config=None, ties='trec'):\n    pass\n"
        "class Report:\n    def __init__(self, lst, k, measure):\n        pass\n"
        "def fine(grades, measure=None, judged=None):\n    pass\n"
        "def rank_steps(table, measure, ties):\n    pass\n"
    )
    assert split_choices(tmp_path) == [
        "old.py:1 evaluate(config, k, qrels, run, ties)",
        "old.py:4 __init__(k, lst, measure, self)",
        "old.py:8 rank_steps(measure, table, ties)",
    ]
