"""What `ndcg-inspect`'s modes share for their output: one line on stderr, where a table goes
(`-` is stdout; an output that is an input is refused, `check_outputs`), the notes on queries
left out or too big for a double, the per-query table as text, TSV, CSV or JSON, and --query
picked. The command's modes (`cli/main.py`, `cli/engine.py`, …) import it; it imports none of them."""

from __future__ import annotations

import contextlib
import json
import math
import os
import sys
from collections.abc import Sequence

PROG = "ndcg-inspect"


def say(message: str) -> None:
    """One line on stderr, whatever `message` holds (a file name with a line break, an escape)."""
    from ndcg_gui.core.errors import printable

    print(f"{PROG}: {printable(' '.join(message.splitlines()))}", file=sys.stderr)


def output(path: str):
    """Where a table goes: a lone `-` is stdout, anything else a path (`core.writing.atomic` says how
    a path that is not a regular file, such as /dev/stdout or a FIFO, is written)."""
    return sys.stdout.buffer if path == "-" else path


# Every file option `ndcg-inspect` writes, by its `options` attribute.
OUTPUTS = ("summary_csv", "metrics_csv", "report", "table_out", "junit_xml")


def check_outputs(options) -> None:
    """An `InputError` before any work when an output would replace an input (stdout included:
    after `>> run.txt` it is that file; `core.writing.atomic.refuse_inputs`), cannot be written
    (a symbolic-link loop, a name too long), or shares its file with another output."""
    from ndcg_gui.core.errors import InputError
    from ndcg_gui.core.formats.query_notes import notes_path
    from ndcg_gui.core.writing.atomic import refuse_inputs

    runs = [options.file, *getattr(options, "runs", ())]
    # (each run's notes sidecar is read too: a report shows them)
    inputs = [*runs, options.qrels, getattr(options, "segments", None), getattr(options, "weights", None),
              *(str(notes_path(run)) for run in runs if run)]
    refuse_inputs(sys.stdout.fileno() if _has_descriptor(sys.stdout) else None, inputs)
    named = [(f"--{name.replace('_', '-')}", getattr(options, name, None)) for name in OUTPUTS]
    named = [(flag, out) for flag, out in named if out is not None and out != "-"]
    for flag, out in named:
        check_output(out, inputs, flag)
    for i, (flag, out) in enumerate(named):
        for other, there in named[i + 1:]:
            if _one_file(out, there):
                raise InputError(f"{flag} and {other} name one file: give each its own", out)


def _one_file(a: str, b: str) -> bool:
    """Whether two output paths are one file (by name through links, or a hard link's inode)."""
    if os.path.realpath(a) == os.path.realpath(b):
        return True
    with contextlib.suppress(OSError):
        return os.path.samefile(a, b)
    return False


def _has_descriptor(stream) -> bool:
    try:
        return stream is not None and stream.fileno() >= 0
    except (AttributeError, OSError, ValueError):  # (a StringIO in a test, stdout closed)
        return False


def check_output(out: str | None, inputs: Sequence[str | None], flag: str = "") -> None:
    """An `InputError` when the output `out` (of option `flag`) cannot be written (a
    symbolic-link loop, a name too long) or would replace one of the files being read."""
    from ndcg_gui.core.errors import InputError, path_problem
    from ndcg_gui.core.writing.atomic import refuse_inputs

    if out is None or out == "-":
        return
    try:
        os.stat(out)
    except FileNotFoundError:  # a new file (a missing folder: the writer says so)
        pass
    except OSError as exc:
        raise InputError(path_problem(exc), out) from None
    refuse_inputs(out, inputs, flag)


def note_left_out(without_results: list[str], unjudged: list[str]) -> None:
    """Say on stderr which queries score 0 for want of results, and which are left out."""
    for queries, what in (
        (without_results, "judged but without results, scored 0"),
        (unjudged, "with results but no judgment, left out"),
    ):
        if queries:  # (each quoted: an empty id is "", not nothing)
            listed = ", ".join(json.dumps(str(q), ensure_ascii=False) for q in queries[:10])
            listed += ", ..." if len(queries) > 10 else ""
            say(f"note: {len(queries)} {'query' if len(queries) == 1 else 'queries'} {what}: {listed}")


def note_not_finite(table, path: str) -> None:
    """Say on stderr which queries have a figure no double holds (a gain of 2^1024, grades of
    1e308): JSON shows them as null, the other formats as trec_eval prints them (nan, inf)."""
    import numpy as np

    from ndcg_gui.core.errors import file_name

    figures = table[["dcg", "idcg", "ndcg"]].to_numpy(dtype=float)
    bad = table["query"][~np.isfinite(figures).all(axis=1)].astype(str).tolist()
    if bad:
        listed = ", ".join(json.dumps(q, ensure_ascii=False) for q in bad[:10])
        listed += ", ..." if len(bad) > 10 else ""
        has = "query has" if len(bad) == 1 else "queries have"
        say(f"note: {file_name(path)}: {len(bad)} {has} figures too big for a floating-point number "
             f"(shown as null in JSON, nan or inf otherwise): {listed}")


def json_number(x: float) -> float | None:
    """A figure for JSON, which has no NaN or Infinity: null then."""
    return x if math.isfinite(x) else None


SUMMARY_FIELDS = ["query", "n_docs", "n_judged", "dcg", "idcg", "ndcg"]
COUNTS = ("n_docs", "n_judged")


def render(summary, k: int, form: str, judged=None, groups: tuple[list[dict], dict] | None = None) -> str:
    """The per-query rows and the "all" row in one of `FORMATS`. `judged`: each row's Judged@k
    (`core.analysis.judged`), a column after ndcg; `groups`: the all:SEGMENT rows and the all row
    made by `segments.summary_rows` (segments, weights), printed before the per-query rows' end
    with a column `queries`: how many queries each row averages."""
    if form in ("tsv", "csv"):
        fast = delimited(summary, "\t" if form == "tsv" else ",", judged, groups)
        if fast is not None:
            return fast
    rows = summary.to_dict("records")
    figures = ["dcg", "idcg", "ndcg", *(["judged"] if judged is not None else [])]
    if judged is not None:
        for row, share in zip(rows, judged.to_numpy(dtype=float), strict=True):
            row["judged"] = float(share)
    if groups is None:
        extra = []
        mean = _mean_row(summary)
        if judged is not None:
            mean["judged"] = float(judged.mean()) if len(judged) else 0.0
    else:
        extra, mean = groups
        for row in rows:
            row["queries"] = 1
    counts = ["n_docs", "n_judged", *(["queries"] if groups is not None else [])]
    columns = ["query", "n_docs", "n_judged", *figures, *counts[2:]]
    if form == "json":
        def clean(r: dict) -> dict:
            return {c: (str(r[c]) if c == "query" else int(r[c]) if c in counts
                        else json_number(float(r[c]))) for c in columns}
        from ndcg_gui.core.reports.escaping import json_text

        data = {"k": k, "queries": [clean(r) for r in rows]}
        if extra:
            data["segments"] = [{"segment": r["query"].split(":", 1)[1], **clean(r)} for r in extra]
        data["all"] = clean(mean)
        if mean.get("weighted_by"):  # (the all lines are weighted means: by what)
            data["weighted"] = mean["weighted_by"]
        return json_text(data) + "\n"
    if form in ("tsv", "csv"):
        return delimited_rows([*rows, *extra], mean, "\t" if form == "tsv" else ",", columns, counts)
    header = [c if c in ("query", *counts) else f"{c}@{k}" for c in columns]

    def line(r: dict, own: bool) -> list[str]:  # (a query's own line averages one query: said by none)
        return [str(r["query"]), *("" if own and c == "queries" else str(int(r[c])) if c in counts
                                   else f"{r[c]:.4f}" for c in columns[1:])]

    return aligned(header, [line(r, True) for r in rows] + [line(r, False) for r in [*extra, mean]])


def _mean_row(summary) -> dict:
    """The "all" row: counts summed, figures averaged over the queries (0 without any; nan where
    an overflowed gain made one query inf and another -inf; ±inf where the sum overflows)."""
    import numpy as np

    with np.errstate(invalid="ignore", over="ignore"):
        return {
            "query": "all",
            "n_docs": int(summary["n_docs"].sum()),
            "n_judged": int(summary["n_judged"].sum()),
            **{c: float(summary[c].mean()) if len(summary) else 0.0 for c in ("dcg", "idcg", "ndcg")},
        }


def delimited_rows(rows: list[dict], mean: dict, delimiter: str, columns=SUMMARY_FIELDS,
                   counts=COUNTS) -> str:
    """The table as TSV or CSV, a row at a time through Python's csv writer (the reference for
    `delimited`, and the way for tables it does not take): `counts` are whole numbers, the other
    columns after the query figures."""
    import csv
    import io

    from ndcg_gui.core.lists.numbers import number_text as fmt

    out = io.StringIO()
    writer = csv.writer(out, delimiter=delimiter, lineterminator="\n")
    writer.writerow(columns)
    for r in [*rows, mean]:
        writer.writerow([r["query"], *(int(r[c]) if c in counts else fmt(r[c]) for c in columns[1:])])
    return out.getvalue()


def delimited(summary, delimiter: str, judged=None,
              groups: tuple[list[dict], dict] | None = None) -> str | None:
    """`delimited_rows` of the table, column by column in Arrow's kernels (per-row Python was a
    large share of the command's time with many queries: benchmarks/README.md, issue 36); None for a
    table it does not take (ids that are not text, counts that are not integers). `judged` and
    `groups` as `render` takes them: the all:SEGMENT rows and the all row after the queries'."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc

    from ndcg_gui.core.lists.numbers import number_text, number_texts

    counts = [summary["n_docs"].to_numpy(), summary["n_judged"].to_numpy()]
    if any(c.dtype.kind not in "iu" for c in counts):
        return None
    try:
        query = pa.array(summary["query"].to_numpy(dtype=object), pa.string())
    except (pa.ArrowException, TypeError, UnicodeEncodeError):  # (not text; lone surrogates)
        return None
    # An id with the delimiter, a quote or a line break is quoted by the csv writer itself.
    special = pc.match_substring_regex(query, '[\t,"\r\n]').to_numpy(zero_copy_only=False)
    if special.any():
        import csv
        import io

        quoted = []
        for q in query.filter(pa.array(special)).to_pylist():
            out = io.StringIO()
            csv.writer(out, delimiter=delimiter, lineterminator="\n").writerow([q, ""])
            quoted.append(out.getvalue()[:-2])  # (the cell, without the empty one and the line end)
        query = pc.replace_with_mask(query, pa.array(special), pa.array(quoted, pa.string()))
    figures = [summary[c].to_numpy(dtype=float) for c in ("dcg", "idcg", "ndcg")]
    if judged is not None:  # each row's Judged@k, a column after ndcg
        figures.append(judged.to_numpy(dtype=float))
    cells = [query, *(pa.array(c.astype(np.int64)).cast(pa.string()) for c in counts),
             *(number_texts(f) for f in figures)]
    if groups is not None:  # (a query's own row averages one query)
        cells.append(pa.array(np.full(len(query), "1", dtype=object), pa.string()))
    size = sum(c.nbytes for c in cells) + 8 * len(query)
    text = pa.string() if size < 2**31 - 1 else pa.large_string()  # (32-bit offsets: below 2 GB)
    cells = [c.cast(text) for c in cells]
    # One pass: the cells with the delimiter and the line end between them, as elements.
    tab, end = pa.scalar(delimiter, text), pa.scalar("\n", text)
    lines = pc.binary_join_element_wise(*[x for c in cells for x in (c, tab)][:-1], end, pa.scalar("", text))
    header = [*SUMMARY_FIELDS, *(["judged"] if judged is not None else []),
              *(["queries"] if groups is not None else [])]
    if groups is None:
        mean = _mean_row(summary)
        if judged is not None:
            mean["judged"] = float(judged.mean()) if len(judged) else 0.0  # (as render's mean row)
        trailer = [mean]
    else:
        trailer = [*groups[0], groups[1]]
    whole = ("n_docs", "n_judged", "queries")
    last = "".join(delimiter.join([_cell(r["query"], delimiter), *(str(int(r[c])) if c in whole
                                   else number_text(r[c]) for c in header[1:])]) + "\n" for r in trailer)
    return delimiter.join(header) + "\n" + _joined(lines) + last


def _cell(text: str, delimiter: str) -> str:
    """One text cell as the csv writer writes it (quoted when it holds the delimiter, a quote or a
    line break)."""
    import csv
    import io

    if not any(c in text for c in (delimiter, '"', "\r", "\n")):
        return text
    out = io.StringIO()
    csv.writer(out, delimiter=delimiter, lineterminator="\n").writerow([text, ""])
    return out.getvalue()[:-2]


def _joined(lines) -> str:
    """The texts of an Arrow string array one after the other: the bytes between its first and
    last offsets."""
    import numpy as np
    import pyarrow as pa

    if not len(lines):
        return ""
    _, offsets, data = lines.buffers()
    width = np.int64 if pa.types.is_large_string(lines.type) else np.int32
    at = np.frombuffer(offsets, width, len(lines) + 1, lines.offset * np.dtype(width).itemsize)
    return data.slice(int(at[0]), int(at[-1] - at[0])).to_pybytes().decode()


def pick_query(queries: list[str], path: str | None, query: str | None, among: str = "scored") -> str:
    """The query asked for (--query), else the first, of `queries` (what the output can show: the
    queries `among` says, in its order); an `InputError` naming some of them when absent, in one
    message for every path (memory, DuckDB, Spark; one run, runs compared)."""
    from ndcg_gui.core.errors import InputError
    from ndcg_gui.core.errors import shown as quoted

    if query is None:
        if not queries:
            raise InputError("has no queries", path)
        return queries[0]
    if query not in queries:
        listed = ", ".join(map(quoted, queries[:10])) + (", ..." if len(queries) > 10 else "")
        raise InputError(f"no query {quoted(query)} among the {len(queries)} {among}: {listed}", path)
    return query


def judged_at(table, measure, rescored):
    """Each row's Judged@k at the measure's cut-off (`core.analysis.judged`). Condensed lists
    (judged_only) hold judged documents only, so the share is of the run as retrieved:
    `rescored(measure)` gives the table scored again under the measure without condensing."""
    from ndcg_gui.core.analysis.judged import judged_at_k

    if measure.judged_only:
        again = rescored(measure.with_(judged_only=False))
        again = again.table if hasattr(again, "table") else again
        shares = judged_at_k(again, measure.k)
        return shares.reindex(table["query"]).set_axis(table.index)
    return judged_at_k(table, measure.k).set_axis(table.index)


def refuse_infinite_gains(dataset, measure) -> None:
    """An `InputError` naming the first line (of the qrels, else the run) whose grade has a gain
    no double holds under `measure` (2^g - 1 of a grade of 1024 or more): its query's DCG and
    IDCG would be inf and its NDCG NaN."""
    import numpy as np

    if measure.gain != "exponential" or measure.gain_table is not None:  # (every other gain is finite)
        return

    from ndcg_gui.core.errors import InputError
    from ndcg_gui.core.lists.dataset import ORIGIN
    from ndcg_gui.core.ndcg.metrics import judged_gains
    from ndcg_gui.core.sql.gains import infinite_gain_problem  # (the engines' words too)

    for frame, path, form in ((dataset.qrels, dataset.qrels_path, dataset.qrels_format),
                              (dataset.run, dataset.path, dataset.file_format)):
        if frame is None or "grade" not in frame:
            continue
        grade = frame["grade"].to_numpy(dtype=float)
        with np.errstate(over="ignore"):
            infinite = np.flatnonzero(np.isinf(judged_gains(grade, measure)))
        if not len(infinite):
            continue
        # (the first in the file: the rows are grouped by query, the file's order is their ORIGIN)
        at = frame[ORIGIN].to_numpy()[infinite].argmin() if ORIGIN in frame else 0
        i = int(infinite[at])
        record = int(frame[ORIGIN].iloc[i]) if ORIGIN in frame else -1
        problem = infinite_gain_problem(grade[i], frame["query"].iloc[i], frame["doc"].iloc[i])
        line = record_line(path, form, record)
        kind = _kept_kind(path) if line is None and form is None and record >= 0 else None
        if kind == "jsonl":  # (a record a line, blank lines aside, as its reader names it)
            from ndcg_gui.core.formats.columnar import jsonl_line
            from ndcg_gui.core.formats.source import read_source

            line = jsonl_line(read_source(path), record)
        elif kind is not None:
            problem = f"row {record + 1}: {problem}"  # (a Parquet row, as the engines name it)
        raise InputError(problem, path, line)


def _kept_kind(path) -> str | None:
    """"jsonl", or the columnar kind ("parquet", "feather") of a file read without a text format
    (`record_line` gave no line), read again: an error's cost; None for anything else."""
    from ndcg_gui.core.errors import InputError
    from ndcg_gui.core.formats.source import read_source

    if path is None or str(path).startswith(("/dev/", "/proc/")):
        return None
    from ndcg_gui.core.reading.dispatch import sniff

    try:
        kind = sniff(read_source(path))
        return kind if kind in ("jsonl", "parquet", "feather") else None
    except (OSError, InputError, ValueError):
        return None


def record_line(path, form, record: int) -> int | None:
    """The line of a loaded file's record (a `Dataset` row's `_origin`) as its reader counted
    it (a JSON Lines file's too, `columnar_line`), or None (a pipe, read once, or a Parquet or
    Feather file: named by its row)."""
    from ndcg_gui.core.errors import InputError
    from ndcg_gui.core.formats.source import read_source
    from ndcg_gui.core.reading.dispatch import columnar_line

    if path is None or record < 0 or str(path).startswith(("/dev/", "/proc/")):
        return None
    if form is None:
        return columnar_line(path, record)
    try:
        source = read_source(path)
    except (OSError, InputError):
        return None
    if form.kind == "csv":
        return source.record(record, form.delimiter, blank_rows=form.blank_rows)[0]
    return source.record(record, None, comments=True)[0]


def aligned(header: list[str], rows: list[list[str]]) -> str:
    """A text table: the first column left-aligned, the others right-aligned, two spaces apart;
    each cell on its line, as a terminal shows it (`printable`: a query id from a file may hold
    a line break or an escape sequence)."""
    from ndcg_gui.core.errors import printable

    cells = [[printable(c) for c in row] for row in [header, *rows]]
    width = [max(len(row[i]) for row in cells) for i in range(len(header))]
    return "".join(
        "  ".join([row[0].ljust(width[0]), *(c.rjust(w) for c, w in zip(row[1:], width[1:], strict=True))])
        .rstrip() + "\n"
        for row in cells
    )
