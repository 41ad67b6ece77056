"""The options `ndcg-inspect` and `ndcg-gui` share: the file, its qrels, the query, k and which NDCG.

Qt-free, so either program can parse its command line before deciding what to import.
"""

from __future__ import annotations

import argparse

from ndcg_gui import __version__

EXIT_BAD_INPUT = 2

FILES_HELP = """\
Files: a CSV/TSV table (delimiter and header detected; columns named e.g. query/qid,
doc/docid/id, grade/relevance/label, score, rank; other columns are kept), a header-less
list of grades or of "document,grade" pairs, a TREC run (qid Q0 docno rank score tag) with
its --qrels, or a TREC qrels file alone; Parquet, Feather/Arrow IPC and JSON Lines files with
the same column names; any of these text files gzip, bz2, xz or zstd compressed (recognised by
content). An empty grade cell means "unjudged" (gain 0). A TREC run holds no grades: it needs
--qrels. A pipe or device (<(cmd), /dev/stdin) is read once, up to 1 GiB; a named pipe
that no program writes to within 10 s is refused.

Limits: k from 1 to 1,000,000; a line of at most 4 MiB; JSON Lines nested at most 64
levels deep."""


def positive_int(text: str) -> int:
    """A cut-off k: a whole number from 1 to `MAX_K`."""
    from ndcg_gui.core.config import MAX_K

    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if not 1 <= value <= MAX_K:
        raise argparse.ArgumentTypeError(f"{value} is not from 1 to {MAX_K:,}")
    return value


def add_common(parser: argparse.ArgumentParser, file_required: bool, k_help: str) -> None:
    """FILE, --qrels, --query, -k, --preset, --gain, --discount and --version."""
    from ndcg_gui.core.config import PRESETS
    from ndcg_gui.core.options import DISCOUNT_HELP, GAIN_HELP

    parser.add_argument("file", metavar="FILE", nargs=None if file_required else "?",
                        help="a CSV/TSV ranked list, or a TREC run (with --qrels) or qrels file")
    parser.add_argument("--qrels", help="TREC qrels with the judgments for FILE")
    parser.add_argument("--query", help="the query to open or export (default: the first)")
    from ndcg_gui.core.config import MAX_K

    parser.add_argument("-k", type=positive_int, default=None, help=f"{k_help}; 1 to {MAX_K:,}")
    parser.add_argument(
        "--preset", choices=list(PRESETS),
        help="a named definition of NDCG (default: trec_eval): "
        + "; ".join(f"{name} = {p.label}" for name, p in PRESETS.items()),
    )
    parser.add_argument("--gain", help=GAIN_HELP + " (overrides the preset's)")
    parser.add_argument("--discount", help=DISCOUNT_HELP + " (overrides the preset's)")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")


def needs_qrels_hint(message: str) -> str:
    """The core's "give its qrels too" message, with how this command line gives them."""
    return f"{message} (--qrels QRELS)"
