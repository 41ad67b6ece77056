"""`ndcg-gui [FILE] [options]`: the window. Its command line is parsed and checked before Qt is
imported, so `--help`, `--version` and a wrong option answer at once, without a display."""

from __future__ import annotations

import argparse
import gc
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path

from ndcg_gui.cli.arguments import EXIT_BAD_INPUT, FILES_HELP, add_common, needs_qrels_hint

PROG = "ndcg-gui"

_EPILOG = FILES_HELP + """

With no FILE the window opens on a worked example; with RUN files after FILE it compares
them with FILE (ndcg-gui RUN_A RUN_B --qrels QRELS). For exports without a window, use
ndcg-inspect (same FILE and options). A wrong option or a TREC run without --qrels exits
with status 2 and a one-line message.
"""


def build_parser() -> argparse.ArgumentParser:
    from ndcg_gui.core.ndcg.measure import DEFAULT_K

    parser = argparse.ArgumentParser(
        prog=PROG,
        description="NDCG Inspector: load or type a ranked list, reorder it, and see CG, DCG, IDCG "
        "and NDCG at every rank.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_common(parser, file_required=False, k_help=f"cut-off k (default {DEFAULT_K})")
    parser.add_argument("runs", metavar="RUN", nargs="*",
                        help="further runs of the same topics: the window compares them with FILE, as "
                        "ndcg-inspect FILE RUN --qrels QRELS does (needs --qrels)")
    parser.add_argument("--screenshot", metavar="OUT.png",
                        help="save a PNG of the window and exit ('-': stdout; /dev/stdout or a FIFO "
                        "is written into, never replaced)")
    parser.add_argument("--size", metavar="WxH", type=window_size, default=None,
                        help=f"the window's size for --screenshot, each side 1 to {MAX_SIDE} "
                        "(default 1280x800)")
    parser.add_argument("--color-scheme", choices=("desktop", "light", "dark"), default=None,
                        help="the window light or dark for this run (default: as chosen in View ▸ "
                        "Colours, else the desktop's); with --screenshot, a picture of either")
    return parser


# The widest and tallest screenshot: its image is held whole (4 bytes a pixel), and 8K screens
# are 7680 wide.
MAX_SIDE = 8192


def window_size(text: str) -> tuple[int, int]:
    """`1366x768` -> (1366, 768), each side from 1 to MAX_SIDE."""
    width, _, height = text.lower().partition("x")
    try:
        size = (int(width), int(height))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a size such as 1366x768") from None
    if not all(1 <= side <= MAX_SIDE for side in size):
        raise argparse.ArgumentTypeError(f"{text!r}: each side is from 1 to {MAX_SIDE} pixels, "
                                         "as in 1366x768")
    return size


def main(argv: Sequence[str] | None = None) -> int:
    from ndcg_gui.core.memory import tune_process
    from ndcg_gui.dataclass_code import cached

    tune_process()  # before pyarrow is imported (cheap: no pyarrow yet)
    # The dataclasses imported from here to the window's modules: their methods' code as compiled
    # at an earlier launch (kept beside the bytecode cache), not compiled from text at every one.
    with cached():
        options = build_parser().parse_args(argv)
        problem = check(options)
        if problem is not None:
            print(f"{PROG}: {problem}", file=sys.stderr)
            return EXIT_BAD_INPUT
        # No garbage collection until the window is painted (ndcg_gui.qt.app enables it then):
        # start-up makes about a million objects that live as long as the window, and the ~150
        # collections their allocation triggers would find almost nothing, for work the first
        # paint waits for.
        gc.disable()
        # numpy's overflow warnings (a gain of 2^1024) name source lines: the window shows inf or nan
        warnings.simplefilter("ignore", RuntimeWarning)
        try:
            from ndcg_gui.qt.window.pyside_scan import skip_source_scan

            skip_source_scan()  # before the window's modules are imported: PySide6 reads none of their files
            from ndcg_gui.qt.app import run_gui  # Qt only now
        except BaseException:
            gc.enable()
            raise
    try:
        return run_gui(options)
    finally:
        gc.enable()


def check(options: argparse.Namespace) -> str | None:
    """What makes the command line unusable before any window: a wrong --preset/--gain/--discount,
    a --screenshot over a file it opens, or a TREC run without --qrels (runs to compare without
    them are compared by their rankings).
    Other faults of the file are shown in the window, which then opens on the example."""
    from ndcg_gui.core.errors import InputError
    from ndcg_gui.core.ndcg.options import measure_from_options

    try:
        measure_from_options(options.preset, options.gain, options.discount)
    except InputError as err:
        return str(err)
    if getattr(options, "screenshot", None):  # never over a file it opens (`refuse_inputs`)
        from ndcg_gui.core.writing.atomic import refuse_inputs

        try:
            refuse_inputs(options.screenshot, [options.file, options.qrels, *options.runs], "--screenshot")
        except InputError as err:
            return str(err)
    if options.file and not options.qrels and not options.runs and _is_trec_run(Path(options.file)):
        from ndcg_gui.core.errors import NeedsQrels

        return needs_qrels_hint(str(NeedsQrels.of(options.file)))
    return None


def _is_trec_run(path: Path) -> bool:
    """Whether the start of `path` reads as a TREC run (any problem: not known, so no)."""
    from ndcg_gui.core.formats.source import decode, head_bytes
    from ndcg_gui.core.reading import sniff

    try:
        head = head_bytes(path)
        return sniff(decode(path, head)) == "trec_run"
    except Exception:  # unreadable, binary…: the window says what is wrong with the file
        return False


if __name__ == "__main__":
    sys.exit(main())
