"""The command line, `ndcg-inspect`: Qt-free, the core alone.

    main.py       the program: its options, which mode runs, the one safety net (`main`, `run`)
    arguments.py  the options both programs take (`ndcg-gui` too), and the bounds of their counts
    compare.py    runs compared;  overlap.py  runs compared without judgments (or beside them)
    gate.py       the CI gate;  report.py  --report and --table;  check.py  `ndcg-inspect check`
    engine.py     --engine auto|duckdb|spark
    output.py     what the modes share for output (imports none of them)
"""

from __future__ import annotations


def run() -> None:
    """The console script `ndcg-inspect` (pyproject.toml)."""
    # lazy: the window's entry point imports `cli.arguments` alone, not the whole command line
    from ndcg_gui.cli.main import run as run_program

    run_program()
