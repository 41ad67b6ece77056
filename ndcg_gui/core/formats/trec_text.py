"""TREC runs (`qid Q0 docno rank score tag`) and qrels (`qid iter docno grade`), recognised by shape.

Whitespace-separated, read by pyarrow's CSV parser (several threads, ids straight into Arrow
arrays); `#` comment lines are skipped and fields after the sixth (run) or fourth (qrels) are
ignored, as trec_eval does. Most files separate fields by one space (or one tab) and are parsed as
they are; others (runs of spaces, indented lines, extra fields) are first rewritten to that form.
A line that is still wrong is found by walking the records (`Source.records`) to name its line.
"""

from __future__ import annotations

import codecs
import hashlib
import os
import re
import stat as stat_kind
from collections.abc import Iterable, Iterator
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pa_csv

from ndcg_gui.core.arrays.ids import whole
from ndcg_gui.core.errors import InputError, shown
from ndcg_gui.core.formats.compression import COLUMNAR, columnar_kind, compression_of
from ndcg_gui.core.formats.number_text import is_finite_number, is_number_text, looks_numeric
from ndcg_gui.core.formats.rows import Rows, record_numbers
from ndcg_gui.core.formats.source import Cancel, Source, check_cancel, decode, digests_wanted, record_digest

RUN_SHAPE = "qid Q0 docno rank score tag"
QRELS_SHAPE = "qid iter docno grade"
_BLANKS = re.compile(rb"[ \t]+")
_EDGE_SPACE = re.compile(rb"(?:(?<=[\r\n])|\A) | (?=[\r\n]|\Z)")
_LINE_START = b"(?:(?<=[\r\n])|\\A)"


def shape_of(fields: list[str]) -> str | None:
    """'trec_run' or 'qrels' when a line's whitespace-separated fields have that shape (a run line
    that lacks its tag too, or with "inf", "nan" or a mistyped number such as `1.5e` for a number,
    so the reader can say so: no header ever has this shape)."""
    number = looks_numeric
    if len(fields) >= 6 and number(fields[3]) and number(fields[4]):
        return "trec_run"
    if len(fields) == 5 and fields[1] == "Q0" and number(fields[3]) and number(fields[4]):
        return "trec_run"
    if len(fields) == 4 and number(fields[3]) and (is_number_text(fields[1]) or fields[1] == "Q0"):
        return "qrels"
    return None


def read_run(source: Source, cancel: Cancel = None) -> Rows:
    """Query, doc and score of every line (no grades: a run holds no judgments)."""
    # The rank field is not read: trec_eval ranks by score and ignores it too.
    columns = _parse(source, 6, _RUN, cancel, "trec_run")
    return _rows(source, columns, score=columns["score"])


def read_plain_run(path: str | Path, score_type: type = np.float64) -> Rows | None:
    """`read_run(read_source(path))` for most runs, parsed as the file is read, a piece at a time:
    its bytes are never whole in memory beside the parsed columns (a TREC-sized run's were the
    command's peak). Only a plain file goes this way: a regular file, not compressed, UTF-8 with
    no byte-order mark, one space (or one tab) alone between fields, no `#`, every line six
    non-empty fields with finite numbers. Any other, or one it cannot open: None (`read_run`
    then reads it whole and names what is wrong).

    score_type  the scores' type: np.float32 for a caller that ranks at single precision
                (`score_key(score, "float32")` is then `score.astype(np.float64)`), half the
                memory; finite as float64, beyond float32's range they are infinite."""
    path = Path(path)
    try:
        with path.open("rb") as f:
            status = os.fstat(f.fileno())
            if not stat_kind.S_ISREG(status.st_mode):
                return None
            sep = _plain_separator(path, f.read(_HEAD))
            if sep is None:
                return None
            f.seek(0)
            digest = hashlib.sha256() if digests_wanted() else None
            try:
                columns, wrong, _ = _read("utf-8", _plain_pieces(f, sep, digest), sep.decode(), 6, _RUN,
                                          score_type)
            except _NotPlain:
                return None
    except OSError:
        return None
    if columns is None or wrong or not len(columns["doc"]):
        return None
    if digest is not None:
        record_digest(path, digest.hexdigest())
    source = Source(path, None, "utf-8", file_encoding="utf-8", stat=status)  # type: ignore[arg-type]
    return _rows(source, columns, score=columns["score"])


_HEAD = 1 << 16  # `_simple_separator` looks for the separator in these first bytes
_RUN = {0: "query", 2: "doc", 4: "score"}
_BOMS = (codecs.BOM_UTF8, codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)


class _NotPlain(Exception):
    """A piece of the file is not plain (`read_plain_run`): read it whole instead."""


def _plain_separator(path: Path, head: bytes) -> bytes | None:
    """The separator `_simple_separator` would find, as far as the first bytes tell (the other
    one is looked for in every piece as it is read), or None when the file is not plain text."""
    if compression_of(head) is not None or columnar_kind(head) in COLUMNAR or head.startswith(_BOMS):
        return None
    try:
        decode(path, head)  # a binary or blank file: `read_source` says so
    except InputError:
        return None
    for sep, other in ((b" ", b"\t"), (b"\t", b" ")):
        if sep in head and other not in head:
            return sep
    return None


def _plain_pieces(f, sep: bytes, digest) -> Iterator[pa.Buffer]:
    """The file in the pieces `_pieces` cuts its bytes into, each read, checked (UTF-8, no NUL,
    no `#`, not the other separator: else `_NotPlain`) and hashed into `digest` (if any). A
    piece is a view of what was read (no copy); only the part line after it is carried over."""
    other = b"\t" if sep == b" " else b" "
    pending, at_end = b"", False

    def fill(size: int) -> None:
        nonlocal pending, at_end
        more = f.read(size)
        at_end = not more
        pending = pending + more if pending else more

    while True:
        if not at_end and len(pending) < _PIECE + _SLACK:
            fill(_PIECE + _SLACK - len(pending))
        if not pending:
            return
        end = pending.find(b"\n", min(_PIECE, len(pending)) - 1)
        while end < 0 and not at_end:
            fill(_SLACK)
            end = pending.find(b"\n", min(_PIECE, len(pending)) - 1)
        end = len(pending) if end < 0 else end + 1
        for wrong in (other, b"#", b"\0"):
            if pending.find(wrong, 0, end) >= 0:
                raise _NotPlain
        piece = memoryview(pending)[:end]
        if not (pending.isascii() or _utf8(piece)):
            raise _NotPlain
        if digest is not None:
            digest.update(piece)
        yield pa.py_buffer(piece)
        pending = pending[end:]


_SLACK = 1 << 16  # read past a piece's size, to find the line's end without a second read


def _utf8(data: memoryview) -> bool:
    decoder = codecs.getincrementaldecoder("utf-8")()
    try:
        for start in range(0, len(data), 1 << 20):  # (not a second copy of the piece as text)
            decoder.decode(data[start:start + (1 << 20)])
        decoder.decode(b"", final=True)
    except UnicodeDecodeError:
        return False
    return True


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


def read_qrels(source: Source, cancel: Cancel = None) -> Rows:
    """Query, doc and grade of every line, in file order."""
    columns = _parse(source, 4, {0: "query", 2: "doc", 3: "grade"}, cancel, "qrels")
    return _rows(source, columns, grade=columns["grade"])


def _rows(source: Source, columns: dict, **numbers) -> Rows:
    n = len(columns["doc"])
    return Rows(columns["query"], columns["doc"], record_numbers(0, n), source.path,
                lambda record: source.record(record, None, comments=True)[0], **numbers)


def _parse(source: Source, width: int, wanted: dict[int, str], cancel: Cancel, kind: str) -> dict:
    """The wanted columns (ids as Arrow text, numbers as float arrays) of every record; an
    `InputError` for the first line that is not a TREC line of `width` fields."""
    check_cancel(cancel, source.path)
    data = source.data
    separator = _simple_separator(data)
    if separator is not None:  # (most files) fields as they are
        columns, wrong, _ = _read(source.encoding, _pieces(_without_comments(data)), separator, width, wanted)
        if columns is not None and not wrong:
            return columns
    check_cancel(cancel, source.path)  # the general way: it also finds the line at fault
    text = _normalised(data)
    columns, wrong, longer = _read(source.encoding, _pieces(text), " ", width, wanted)
    if longer and columns is not None:  # extra fields, as trec_eval's own results.trunc has
        columns, wrong, longer = _read(source.encoding, _pieces(_truncated(text, width)), " ", width, wanted)
    if columns is not None and not wrong:
        return columns
    raise _first_bad(source, width, wanted, kind)


def _simple_separator(data: bytes) -> str | None:
    """" " or "\t" when the file uses that character alone between its fields (the other one
    nowhere: a one-byte search is fast), else None. Doubled or edge separators show up in the
    parse as empty fields or lines with too many fields, which send the file the general way."""
    for sep, other in ((b" ", b"\t"), (b"\t", b" ")):
        if sep in data[: 1 << 16] and other not in data:
            return sep.decode()
    return None


def _without_comments(data: bytes) -> bytes:
    """`data` without its `#` lines (found by byte searches: most files have none, or a few)."""
    if b"#" not in data:
        return data
    starts = [0] if data.startswith(b"#") else []
    for brk in (b"\n#", b"\r#"):
        at = data.find(brk)
        while at >= 0:
            starts.append(at + 1)
            at = data.find(brk, at + 1)
    if not starts:
        return data
    pieces, cursor = [], 0
    for start in sorted(starts):
        if start < cursor:
            continue
        pieces.append(data[cursor:start])
        end = min((e for e in (data.find(b"\n", start), data.find(b"\r", start)) if e >= 0),
                  default=len(data))
        cursor = end  # the line break stays: the comment becomes an empty line
    pieces.append(data[cursor:])
    return b"".join(pieces)


def _normalised(data: bytes) -> bytes:
    """Runs of spaces and tabs made one space, lines stripped of them, comments removed."""
    return _without_comments(_EDGE_SPACE.sub(b"", _BLANKS.sub(b" ", data)))


def _truncated(data: bytes, width: int) -> bytes:
    """Normalised lines cut after their `width`-th field (trec_eval ignores the rest)."""
    pattern = _LINE_START + rb"([^ \r\n]+(?: [^ \r\n]+){%d}) [^\r\n]*" % (width - 1)
    return re.sub(pattern, rb"\1", data)


def _read(encoding: str, pieces: Iterable[pa.Buffer], sep: str, width: int, wanted: dict[int, str],
          number_type: type = np.float64):
    """(columns, whether some line had the wrong number of fields or an empty one, whether some
    line had more) of the text in `pieces` (whole lines each); columns None when a number field
    is not a finite number (as float64). Numbers are numpy arrays of `number_type`."""
    counts: list[int] = []

    def odd_line(row) -> str:
        counts.append(row.actual_columns)
        return "skip"

    names = [f"f{i}" for i in range(width)]
    # Every field is read, the unused ones as bytes (cheapest), to see that none is empty.
    types = {name: pa.binary() for name in names}
    types.update({names[i]: pa.string() if name in ("query", "doc") else pa.float64()
                  for i, name in wanted.items()})
    read = pa_csv.ReadOptions(column_names=names, encoding=_codec(encoding), block_size=_BLOCK)
    parse = pa_csv.ParseOptions(delimiter=sep, quote_char=False, invalid_row_handler=odd_line)
    convert = pa_csv.ConvertOptions(column_types=types, strings_can_be_null=False,
                                    quoted_strings_can_be_null=False, null_values=[])
    empty = False
    texts = {role: [] for role in wanted.values() if role in ("query", "doc")}
    numbers: dict[str, list[np.ndarray]] = {role: [] for role in wanted.values() if role not in texts}
    # In pieces of whole lines: a piece's unused fields (a run's Q0, rank and tag: half its
    # parsed size) are checked and let go before the next piece is parsed, and its numbers made
    # numpy (so the whole column is never both Arrow's and numpy's at once).
    for piece in pieces:
        try:
            table = pa_csv.read_csv(pa.BufferReader(piece), read, parse, convert)
        except (pa.ArrowInvalid, UnicodeDecodeError):  # a field that is not a number (or is empty)
            return None, True, False
        for i, name in enumerate(names):
            values = table.column(name)
            role = wanted.get(i)
            if role in (None, "query", "doc"):
                empty = empty or (len(values) > 0 and pc.min(pc.binary_length(values)).as_py() == 0)
            if role in texts:
                texts[role].append(values)
            elif role is not None:
                parsed = _floats(whole(values))
                if not np.isfinite(parsed).all():
                    return None, True, False
                with np.errstate(over="ignore"):  # (float32: beyond its range, infinite)
                    numbers[role].append(parsed.astype(number_type))
        del table, values
    if not all(texts.values()):  # no text at all (a file of comments alone): no TREC line
        return None, True, False
    longer = any(c > width for c in counts)
    empty = empty or bool(counts)
    columns: dict = {}
    for role, parts in texts.items():
        columns[role] = pa.chunked_array([c for p in parts for c in p.chunks], parts[0].type)
    for role, parts in numbers.items():
        columns[role] = _joined(parts, number_type)
    return columns, empty, longer


def _joined(parts: list[np.ndarray], dtype: type) -> np.ndarray:
    """The parts as one array; `parts` emptied as they are copied, so each goes as the whole
    fills (the whole's untouched pages take no memory yet): about one column, not two."""
    if len(parts) == 1:
        return parts.pop()
    joined = np.empty(sum(len(p) for p in parts), dtype)
    at = 0
    parts.reverse()
    while parts:
        part = parts.pop()
        joined[at:at + len(part)] = part
        at += len(part)
        del part
    return joined


def _floats(values: pa.Array) -> np.ndarray:
    """A float64 column without nulls (as parsed here) as numpy, a view of its buffer. Not
    `to_numpy`: pyarrow imports pandas on its first conversion, and the command line imports it
    in another thread meanwhile, so the files are parsed before the reader waits for it."""
    if not len(values):  # (a piece whose lines were all skipped: maybe no buffer at all)
        return np.zeros(0)
    return np.frombuffer(values.buffers()[1], np.float64, len(values), values.offset * 8)


# A piece's bytes and its parse are in memory beside the columns made so far (a run's peak while
# it is read): small pieces, each parsed as two blocks, one a core.
_PIECE = 4 << 20
_BLOCK = _PIECE // 2


def _pieces(data: bytes) -> Iterator[pa.Buffer]:
    """`data` in pieces of about `_PIECE` bytes, each ending after a line feed (no copy)."""
    whole_data = pa.py_buffer(data)
    at = 0
    while at < len(data):
        end = data.find(b"\n", min(at + _PIECE, len(data)) - 1)
        end = len(data) if end < 0 else end + 1
        yield whole_data.slice(at, end - at)
        at = end


def _codec(encoding: str) -> str:
    return "utf8" if encoding == "utf-8" else encoding


def _first_bad(source: Source, width: int, wanted: dict[int, str], kind: str):
    """The `InputError` of the first record that is short of a field or has a bad number."""
    source.refuse_long_lines()
    numbers = [i for i, name in wanted.items() if name not in ("query", "doc")]
    for line, fields in source.records(None, comments=True):
        if len(fields) < width or not all(is_finite_number(fields[i]) for i in numbers):
            return source.error(describe_line(fields, kind), line)
    return source.error(f"cannot be read as a TREC {_what(kind)} file")


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
        if not is_finite_number(fields[i]):
            return f"{name} {shown(fields[i])} (field {i + 1}) is not a finite number; expected {shape}"
    return f"malformed line; expected {shape}"


def _what(kind: str) -> str:
    return "run" if kind == "trec_run" else "qrels"
