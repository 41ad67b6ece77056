"""`ndcg-gui [FILE] [options]`: the window, or headless exports when an output option is given.

The headless paths never import Qt, so they are fast and work on a machine without a display.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from ndcg_gui import __version__


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="ndcg-gui",
        description=(
            "NDCG Inspector: see CG, DCG, IDCG and NDCG of a ranked list at every rank. "
            "With no output option it opens the window (on a worked example when no FILE is given)."
        ),
    )
    parser.add_argument("file", nargs="?", help="a CSV/TSV ranked list, or a TREC run or qrels file")
    parser.add_argument("--qrels", help="TREC qrels with the judgments for FILE")
    parser.add_argument("--query", help="the query to open or export (default: the first)")
    parser.add_argument("-k", type=int, default=None, help="cut-off k (default: 10 in the window)")
    parser.add_argument(
        "--preset", choices=["trec_eval", "sklearn", "ranx_burges", "jarvelin2002"],
        help="a named definition of NDCG",
    )
    parser.add_argument("--gain", help="linear, exponential, or a table such as 1=3,2=9,4=4.5")
    parser.add_argument("--discount", help="log2, or jarvelin[:BASE] (default base 2)")
    parser.add_argument("--screenshot", metavar="OUT.png", help="save a PNG of the window and exit")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    options = build_parser().parse_args(argv)
    from ndcg_gui.qt.app import run_gui  # Qt only on the window's path

    return run_gui(options)


if __name__ == "__main__":
    sys.exit(main())
