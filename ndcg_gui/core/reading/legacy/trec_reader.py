"""TREC runs (`qid Q0 docno rank score tag`) and qrels (`qid iter docno grade`), recognised by shape.

Whitespace-separated, read by pandas' C engine; `#` comment lines are skipped and fields after the
sixth (run) or fourth (qrels) are ignored, as trec_eval does.
"""

from __future__ import annotations

import csv
import io
import re

import numpy as np
import pandas as pd

from ndcg_gui.core.errors import shown
from ndcg_gui.core.reading.legacy.source import Cancel, Source, check_cancel

RUN_SHAPE = "qid Q0 docno rank score tag"
QRELS_SHAPE = "qid iter docno grade"
_COMMENT_LINES = re.compile(rb"(?m)^[ \t]*#[^\r\n]*(?:\r\n|\r|\n|$)")
_CHUNK_ROWS = 1_000_000


def _is_number(text: str) -> bool:
    try:
        return np.isfinite(float(text))
    except ValueError:
        return False


def shape_of(fields: list[str]) -> str | None:
    """'trec_run' or 'qrels' when a line's whitespace-separated fields have that shape (a run line
    that lacks its tag too, so the reader can say so)."""
    if len(fields) >= 6 and _is_number(fields[3]) and _is_number(fields[4]):
        return "trec_run"
    if len(fields) == 5 and fields[1] == "Q0" and _is_number(fields[3]) and _is_number(fields[4]):
        return "trec_run"
    if len(fields) == 4 and _is_number(fields[3]) and (_is_number(fields[1]) or fields[1] == "Q0"):
        return "qrels"
    return None


def read_run(source: Source, cancel: Cancel = None) -> pd.DataFrame:
    """Columns query, doc, score, grade (all NaN: a run holds no judgments), `_record`."""
    # The rank field is not read: trec_eval ranks by score and ignores it too. The tag is read
    # only to check it is there (trec_eval refuses a line without it).
    frame = _parse(source, 6, {0: "query", 2: "doc", 4: "score", 5: "tag"}, cancel, "trec_run")
    return pd.DataFrame(
        {
            "query": frame["query"].to_numpy(dtype=object),
            "doc": frame["doc"].to_numpy(dtype=object),
            "grade": np.full(len(frame), np.nan),
            "score": frame["score"].to_numpy(dtype=float),
            "_record": np.arange(len(frame)),
        }
    )


def separator(source: Source) -> str:
    """The column separator of the first record: a tab or a space (for lines written anew)."""
    for line in source.data[: 1 << 16].splitlines():
        if line.strip() and not line.lstrip().startswith(b"#"):
            return "\t" if b"\t" in line.strip() else " "
    return " "


def run_tag(source: Source) -> str | None:
    """The tag (sixth field) of the run's first line, so a saved run keeps its name."""
    for line in source.data[: 1 << 16].splitlines():
        fields = line.split()
        if fields and not fields[0].startswith(b"#"):
            return fields[5].decode(source.encoding, "replace") if len(fields) >= 6 else None
    return None


def read_qrels(source: Source, cancel: Cancel = None) -> pd.DataFrame:
    """Columns query, doc, grade, `_record` (0-based record index), in file order."""
    frame = _parse(source, 4, {0: "query", 2: "doc", 3: "grade"}, cancel, "qrels")
    return pd.DataFrame(
        {
            "query": frame["query"].to_numpy(dtype=object),
            "doc": frame["doc"].to_numpy(dtype=object),
            "grade": frame["grade"].to_numpy(dtype=float),
            "_record": np.arange(len(frame)),
        }
    )


def _parse(
    source: Source, width: int, columns: dict[int, str], cancel: Cancel, kind: str
) -> pd.DataFrame:
    """The named columns, numbers checked; an `InputError` for the first malformed line.

    Files whose fields are separated by single spaces (most) are parsed with sep=" ", about
    twice as fast as runs of whitespace; if that finds any bad line, the general pattern decides.
    """
    data = source.data
    if b"#" in data:  # comment lines, indented ones too (a "#" inside an id is left alone)
        data = _COMMENT_LINES.sub(b"", data)
    numbers = [name for name in columns.values() if name not in ("query", "doc", "tag")]
    first = next((line.split() for line in data[: 1 << 16].splitlines() if line.strip()), [])
    if len(first) < width:  # a first line short of a field: said here, as pandas' message is not ours
        line, fields = source.record(0, None, comments=True)
        raise source.error(describe_line(fields, kind), line)
    head = data[: 1 << 20]
    single = not (b"\t" in head or b"  " in head or b"\n " in head or head.startswith(b" "))
    for sep in ([" "] if single else []) + [r"\s+"]:
        frame = _read(source, data, sep, width, columns, cancel)
        bad = np.zeros(len(frame), bool)
        for name in numbers:  # a line short of a field lacks its last number too
            frame[name] = _numeric(frame[name])
            bad |= ~np.isfinite(frame[name].to_numpy(float))
        if sep == " ":  # a stray double space would shift fields: an id left empty shows it
            bad |= frame["query"].isna().to_numpy() | frame["doc"].isna().to_numpy()
        if "tag" in frame:  # a line one field short
            bad |= frame["tag"].isna().to_numpy()
        if not bad.any():
            return frame
    _raise_first(source, bad, kind)
    return frame


def _read(
    source: Source, data: bytes, sep: str, width: int, columns: dict[int, str], cancel: Cancel
) -> pd.DataFrame:
    # As many names as the first line has fields: pandas refuses a first line wider than `names`
    # (extra trailing fields are allowed, and trec_eval's own results.trunc has them).
    first = next((line.split() for line in data[:1 << 16].splitlines() if line.strip()), [])
    try:
        reader = pd.read_csv(
            io.BytesIO(data),
            sep=sep,
            header=None,
            names=range(max(width, len(first))),
            usecols=list(columns),
            dtype={c: object if name in ("query", "doc") else "category"
                   for c, name in columns.items() if name in ("query", "doc", "tag")},
            keep_default_na=False,
            na_values=[""],
            quoting=csv.QUOTE_NONE,  # a quote is an ordinary character in TREC files
            encoding=source.encoding,
            engine="c",
            chunksize=_CHUNK_ROWS,
        )
        chunks = []
        with reader:
            for chunk in reader:
                check_cancel(cancel, source.path)
                chunks.append(chunk)
                source.parsed(sum(map(len, chunks)))
    except (pd.errors.ParserError, ValueError, UnicodeDecodeError) as exc:
        raise source.error(f"cannot be read as a TREC file: {str(exc).strip()[:200]}") from None
    frame = pd.concat(chunks, ignore_index=True) if len(chunks) > 1 else chunks[0]
    return frame.rename(columns=columns)


def _numeric(values: pd.Series) -> pd.Series:
    if values.dtype.kind in "if":
        return values.astype(float)
    return pd.to_numeric(values, errors="coerce").astype(float)


def _raise_first(source: Source, bad: np.ndarray, kind: str) -> None:
    if not bad.any():
        return
    index = int(np.flatnonzero(bad)[0])
    line, fields = source.record(index, None, comments=True)
    raise source.error(describe_line(fields, kind), line)


def describe_line(fields: list[str], kind: str) -> str:
    """What is wrong with one line of a TREC run or qrels file."""
    if kind == "trec_run":
        shape, need = RUN_SHAPE, 6
        numbers = {3: "rank", 4: "score"}
    else:
        shape, need = QRELS_SHAPE, 4
        numbers = {3: "grade"}
    if len(fields) < need:
        missing = " (the tag is missing, and trec_eval refuses such a line)" if len(fields) == 5 and \
            kind == "trec_run" else ""
        return f"{len(fields)} fields, but a TREC {_what(kind)} line has {need}: {shape}{missing}"
    for i, name in numbers.items():
        if not _is_number(fields[i]):
            return f"{name} {shown(fields[i])} (field {i + 1}) is not a finite number; expected {shape}"
    return f"malformed line; expected {shape}"


def _what(kind: str) -> str:
    return "run" if kind == "trec_run" else "qrels"
