"""The options `ndcg-inspect` and `ndcg-gui` share: the file, its qrels, the query, k and which NDCG.

Qt-free, so either program can parse its command line before deciding what to import.
"""

from __future__ import annotations

import argparse
import os
import re

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

Limits: k from 1 to 1,000,000; --samples from 1 to 10,000,000; --threads up to 4 per core;
--memory-limit from 64 MiB to this machine's memory; a line of at most 4 MiB; JSON Lines nested at most 64
levels deep."""


def positive_int(text: str) -> int:
    """A cut-off k: a whole number from 1 to `MAX_K`."""
    from ndcg_gui.core.ndcg.measure import MAX_K

    return whole_number(text, 1, MAX_K)


def whole_number(text: str, low: int, high: int, why: str = "") -> int:
    """`text` as a whole number from `low` to `high`, or argparse's one-line refusal (argparse
    names the option); `why` says where the bound comes from."""
    try:
        value = int(text)
    except ValueError:  # (also a number of more digits than Python converts)
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number from {low:,} to {high:,}") from None
    if not low <= value <= high:
        raise argparse.ArgumentTypeError(f"{value:,} is not from {low:,} to {high:,}{why}")
    return value


def sample_count(text: str) -> int:
    """--samples: random draws of the randomization test and resamples of the bootstrap."""
    from ndcg_gui.core.ndcg.measure import MAX_SAMPLES

    return whole_number(text, 1, MAX_SAMPLES, " (the bootstrap keeps a mean per resample)")


# DuckDB's threads beyond the cores help only while they wait for remote files (DuckDB's guide
# suggests a few times the cores then); each one has its own buffers, so more only cost memory.
THREADS_PER_CORE = 4


def cores() -> int:
    """The cores this process may run on (its affinity, where the system says it)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # (no affinity here: macOS, Windows)
        return max(1, os.cpu_count() or 1)


def thread_count(text: str) -> int:
    """--threads: DuckDB's threads, at most THREADS_PER_CORE for each core of this machine."""
    n = cores()
    return whole_number(text, 1, THREADS_PER_CORE * n,
                        f" ({THREADS_PER_CORE} for each of this machine's {n} cores)")


_LOCAL = re.compile(r"\s*local\[([^,\]]*)(?:,([^\]]*))?\]\s*")


def spark_master(text: str) -> str:
    """--spark-master: where Spark runs, as Spark writes it; on this machine (`local[N]`,
    `local[N,F]`: N threads, F tries of a failed task) N is bounded as --threads is."""
    match = _LOCAL.fullmatch(text)
    if match is None:
        return text.strip()
    threads, tries = match.groups()
    if threads.strip() != "*":
        thread_count(threads)
    if tries is not None:
        whole_number(tries, 1, 100)
    return text.strip()


MIN_MEMORY_LIMIT = 64 << 20  # DuckDB's buffers for one job's steps: below this it stops half-way
_UNITS = {"b": 1, "kb": 10**3, "mb": 10**6, "gb": 10**9, "tb": 10**12,
          "kib": 1 << 10, "mib": 1 << 20, "gib": 1 << 30, "tib": 1 << 40}
_SIZE = re.compile(r"\s*(\d+(?:\.\d+)?)\s*([a-z]*|%)\s*", re.IGNORECASE)


def memory_limit(text: str) -> str:
    """--memory-limit: a size DuckDB reads (2GB, 1.5GiB, 800MB, 50%), from MIN_MEMORY_LIMIT to
    this machine's memory; given to DuckDB as written."""
    from ndcg_gui.core.sql.inputs import machine_memory

    match = _SIZE.fullmatch(text)
    unit = match.group(2).lower() if match else ""
    if match is None or (unit not in _UNITS and unit != "%"):
        raise argparse.ArgumentTypeError(f"{text!r} is not a size such as 2GB, 800MB or 50%")
    number = float(match.group(1))
    memory = machine_memory()
    if unit == "%":
        if not 1 <= number <= 100:
            raise argparse.ArgumentTypeError(f"{text!r} is not a share of the memory from 1% to 100%")
        size = None if memory is None else memory * number / 100
    else:
        size = number * _UNITS[unit]
    if size is not None and size < MIN_MEMORY_LIMIT:
        raise argparse.ArgumentTypeError(f"{text!r} is below the {MIN_MEMORY_LIMIT >> 20} MiB DuckDB needs "
                                         "to score a run")
    if size is not None and memory is not None and size > memory:
        raise argparse.ArgumentTypeError(f"{text!r} is over this machine's memory ({memory / 1e9:.1f} GB)")
    return text.strip()


def add_common(parser: argparse.ArgumentParser, file_required: bool, k_help: str) -> None:
    """FILE, --qrels, --query, -k, --preset, --gain, --discount and --version."""
    from ndcg_gui.core.ndcg.options import DISCOUNT_HELP, GAIN_HELP
    from ndcg_gui.core.ndcg.presets import LABELS, PRESETS

    parser.add_argument("file", metavar="FILE", nargs=None if file_required else "?",
                        help="a CSV/TSV ranked list, or a TREC run (with --qrels) or qrels file")
    parser.add_argument("--qrels", help="TREC qrels with the judgments for FILE")
    parser.add_argument("--query", help="the query to open or export (default: the first)")
    from ndcg_gui.core.ndcg.measure import MAX_K

    parser.add_argument("-k", type=positive_int, default=None, help=f"{k_help}; 1 to {MAX_K:,}")
    parser.add_argument(
        "--preset", choices=list(PRESETS),
        help="a named definition of NDCG (default: trec_eval): "
        + "; ".join(f"{name} = {LABELS[name]}" for name in PRESETS),
    )
    parser.add_argument("--gain", help=GAIN_HELP + " (overrides the preset's)")
    parser.add_argument("--discount", help=DISCOUNT_HELP + " (overrides the preset's)")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")


def measure_of(options: argparse.Namespace):
    """The measure the options say: --preset (default trec_eval's), --gain and --discount, at -k
    (default 10: the window's numbers), with --missing (a comparison's) for the queries a run
    returned nothing for. `InputError` for a preset, gain or discount it cannot read."""
    from ndcg_gui.core.errors import InputError
    from ndcg_gui.core.ndcg.measure import DEFAULT_K
    from ndcg_gui.core.ndcg.options import measure_from_options

    measure = measure_from_options(options.preset, options.gain, options.discount)
    k = options.k if options.k is not None else DEFAULT_K
    if getattr(options, "doc_weights", False):  # (ndcg-inspect's; TF-Ranking's ideal is the list's own)
        if measure.ideal != "retrieved" or measure.ideal_order != "sorted" or measure.ties == "average":
            raise InputError("--doc-weights weighs documents as TF-Ranking does, with the ideal from each "
                             "list's own documents: give --preset tf_ranking")
        measure = measure.with_(doc_weights="tf_ranking")
    return measure.with_(k=k, empty=getattr(options, "missing", None) or "zero")


def needs_qrels_hint(message: str) -> str:
    """The core's "give its qrels too" message, with how this command line gives them."""
    return f"{message} (--qrels QRELS)"
