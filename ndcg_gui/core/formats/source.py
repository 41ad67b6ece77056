"""A file's bytes, read safely: path checks, decompression, binary detection, encoding, and
finding a record's line.

Compressed files (gzip, bzip2, xz, zstd) and columnar ones (Parquet, Arrow IPC / Feather) are
recognised by their first bytes, whatever their name. Readers parse the text with pyarrow (fast);
when something is wrong they come back here to find the line as an editor counts it and the fields
of that line, to say exactly what is wrong.

A pipe, device or /dev/stdin (`<(zcat run.gz)`) can be read only once and may never end: it is
read whole, once, up to `STREAM_LIMIT`, and kept (`stream_bytes`), so the first bytes that
recognise a format (`head_bytes`) and the reader see the same bytes; a binary stream such as
/dev/zero is refused from its first bytes, and a named pipe without a writer after `FIFO_WAIT`.

What a report names by its sha256 is what was read: inside `recording_digests`, each read keeps
the sha256 of the bytes it read (as stored, compressed or not), so nothing is read a second time
to hash it (a pipe cannot be, and a file may have changed since).
"""

from __future__ import annotations

import codecs
import contextlib
import csv
import hashlib
import io
import itertools
import os
import re
import select
import stat
import stat as stat_kind
import time
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path

from ndcg_gui.core.errors import InputError, LoadCancelled, path_problem
from ndcg_gui.core.formats.compression import COLUMNAR, columnar_kind, compression_of, decompress

Cancel = Callable[[], bool] | None
Progress = Callable[[float], None] | None

_CHUNK = 8 << 20
# Python's csv module refuses a cell over 128 KiB by default; pyarrow reads any: the walk that
# names a bad line must read what the parser read (a quoted cell may span many lines).
csv.field_size_limit(max(csv.field_size_limit(), (1 << 31) - 1))
# A pipe, device or /dev/stdin is read once, whole, up to this many bytes (/dev/zero never ends).
STREAM_LIMIT = 1 << 30
STREAM_LIMIT_TEXT = "1 GiB"
FIFO_WAIT = 10.0  # seconds a named pipe may wait for a writer before it is refused
# pyarrow reads text in blocks of this size; a longer line may not be read (it says so then).
LINE_LIMIT = 4 << 20
LINE_LIMIT_TEXT = "4 MiB"
_HEAD = 1 << 16  # the first bytes that recognise a format (`dispatch.sniff` looks no further)
_SPOOLED: dict[tuple, bytes] = {}  # a stream's bytes, as read once (`stream_bytes`)
# path as read -> the sha256 of each version of it read, while `recording_digests` runs
_DIGESTS: ContextVar[dict[str, set[str]] | None] = ContextVar("digests", default=None)
LINE_BREAK = re.compile(r"\r\n|\r|\n")
_BYTE_BREAK = re.compile(rb"\r\n|\r|\n")
_SPACES = re.compile(r"[ \t]+")
_NOT_SPACE = re.compile(rb"\S")
# Control bytes that never appear in a text table (tab, LF, VT, FF, CR and ESC-free text aside).
_CONTROL = bytes(range(0, 9)) + bytes(range(14, 27)) + bytes(range(28, 32))


@dataclass
class Source:
    """The bytes of one input file (UTF-8, or a single-byte encoding; BOM removed).

    `bom` is the byte-order mark the file started with (b"" for none) and `file_encoding` the
    encoding of the file itself: a UTF-16 file is converted to UTF-8 `data` when read, and a save
    converts it back."""

    path: Path
    data: bytes
    encoding: str
    _text: str | None = None
    bom: bytes = b""
    file_encoding: str = ""
    compression: str | None = None  # "gzip", "bz2", "xz" or "zstd": the file as stored
    container: str = "text"  # or "parquet" / "feather": `data` is that file, not text
    stat: os.stat_result | None = None  # the file's, when it was read
    progress: Progress = None  # told the fraction of lines parsed so far
    _lines: int | None = None
    _done: float = 0.0

    def parsed(self, rows: int) -> None:
        """Report that `rows` records are parsed (for a loader's progress bar)."""
        if self.progress is not None:
            if self._lines is None:
                self._lines = max(1, self.data.count(b"\n"))
            self._done = max(self._done, min(1.0, rows / self._lines))  # a re-parse never goes back
            self.progress(self._done)

    @property
    def text(self) -> str:
        if self._text is None:
            self._text = self._bytes().decode(self.encoding)
        return self._text

    def head(self, size: int = 1 << 16) -> str:
        """The first bytes as text (a broken multi-byte character at the cut is dropped)."""
        return self._bytes()[:size].decode(self.encoding, errors="ignore")

    def release(self) -> None:
        """Let the bytes go (a big file's, once parsed): a message about a line reads them again."""
        if self.stat is not None:
            self.data, self._text = None, None  # type: ignore[assignment]

    def _bytes(self) -> bytes:
        if self.data is None:
            self.data = read_source(self.path).data
        return self.data

    def error(self, message: str, line: int | None = None, column: int | None = None) -> InputError:
        return InputError(message, self.path, line, column)

    def refuse_long_lines(self) -> None:
        """An `InputError` naming the first line longer than `LINE_LIMIT`, if one is (a parse
        failed: such a line, rather than what the parser said, is then the reason)."""
        data = self._bytes()
        if len(data) <= LINE_LIMIT:
            return
        start, line = 0, 1
        for found in itertools.chain(_BYTE_BREAK.finditer(data), [None]):  # (only after a failed parse)
            end = found.start() if found is not None else len(data)
            if end - start > LINE_LIMIT:
                raise self.error(f"the line is {(end - start) / (1 << 20):.1f} MiB long, longer than the "
                                 f"limit of {LINE_LIMIT_TEXT} for one line", line)
            if found is not None:
                start, line = found.end(), line + 1

    def records(
        self, delimiter: str | None = None, comments: bool = False, blank_rows: bool = False
    ) -> Iterator[tuple[int, list[str]]]:
        """(line number, fields) of each record as pandas' C parser sees them: lines of only
        spaces and tabs skipped (a tab counts when it is the delimiter), `#` lines skipped when
        `comments`; `delimiter` None splits on runs of spaces and tabs. Quoted fields (which may
        span lines) are honoured for a one-character delimiter. With `blank_rows` (a one-column
        file, where an empty cell is a blank line) blank lines after the first record are records."""
        for first, _last, fields in self.record_lines(delimiter, comments, blank_rows):
            yield first, fields

    def record_lines(
        self, delimiter: str | None = None, comments: bool = False, blank_rows: bool = False
    ) -> Iterator[tuple[int, int, list[str]]]:
        """`records`, with the last line of each record too (a quoted field may span lines)."""
        started = False
        if delimiter is not None and '"' in self.text:
            reader = csv.reader(io.StringIO(self.text, newline=""), delimiter=delimiter)
            start = 1
            while True:
                try:
                    fields = next(reader)
                except StopIteration:
                    return
                except csv.Error as exc:  # (what pyarrow read, Python's csv should too: a last resort)
                    raise self.error(f"cannot be read as a table ({exc})", start) from None
                line, start = start, reader.line_num + 1
                if not fields or (len(fields) == 1 and is_blank(fields[0], delimiter)):
                    if not (blank_rows and started):
                        continue
                    fields = [""]
                started = True
                yield line, reader.line_num, fields
        for number, raw in enumerate(lines(self.text), start=1):
            if is_blank(raw, delimiter):
                if not (blank_rows and started):
                    continue
                yield number, number, [""]
                continue
            if comments and raw.lstrip(" \t").startswith("#"):
                continue
            started = True
            yield number, number, (raw.split(delimiter) if delimiter is not None else split_whitespace(raw))

    def record(
        self, index: int, delimiter: str | None = None, comments: bool = False, blank_rows: bool = False
    ) -> tuple[int | None, list[str]]:
        """Line number and fields of record `index` (0-based, the header being record 0);
        (None, []) if the count went past the end (a message then names no line)."""
        for i, found in enumerate(self.records(delimiter, comments, blank_rows)):
            if i == index:
                return found
        return None, []


def lines(text: str) -> Iterator[str]:
    """The lines of `text` (ended by \\n, \\r\\n or \\r), lazily: finding the first records of a
    big file must not split all of it."""
    pos, end = 0, len(text)
    while pos < end:
        match = LINE_BREAK.search(text, pos)
        if match is None:
            yield text[pos:]
            return
        yield text[pos:match.start()]
        pos = match.end()


def is_blank(line: str, delimiter: str | None = None) -> bool:
    """True for a line pandas skips: only spaces and tabs (a tab delimiter is not blank)."""
    return not line.strip(" " if delimiter == "\t" else " \t")


def split_whitespace(line: str) -> list[str]:
    """Fields split on runs of spaces and tabs, as pandas' `sep=r"\\s+"` does (not str.split,
    which also splits on form feeds and Unicode spaces)."""
    return [f for f in _SPACES.split(line) if f]


def read_source(path: str | Path, cancel: Cancel = None, progress: Progress = None) -> Source:
    """The file's bytes (decompressed), or an `InputError` saying why they cannot be used. A pipe
    or device is read once (`stream_bytes`); its `Source` has no `stat`, so its bytes are kept."""
    path = check_readable(path)
    if is_stream(path):
        data = stream_bytes(path, cancel)
        _record(path, data)
        return decode(path, data, whole=True)
    try:
        with path.open("rb") as f:
            stat = os.fstat(f.fileno())
            data = _read_all(f, stat.st_size, path, cancel, progress)
    except PermissionError:
        raise InputError("cannot be read: permission denied", path) from None
    except OSError as exc:
        raise InputError(f"cannot be read: {exc.strerror or exc}", path) from None
    _record(path, data)
    source = decode(path, data, whole=True)
    source.stat = stat
    return source


@contextlib.contextmanager
def recording_digests() -> Iterator[None]:
    """Keep the sha256 of every file `read_source` reads while the block runs (`read_digests`);
    a block inside another records into the outer one."""
    if _DIGESTS.get() is not None:
        yield
        return
    token = _DIGESTS.set({})
    try:
        yield
    finally:
        _DIGESTS.reset(token)


def _record(path: Path, data: bytes) -> None:
    if digests_wanted():
        record_digest(path, hashlib.sha256(data).hexdigest())


def digests_wanted() -> bool:
    """Whether a read is to keep the sha256 of what it read (inside `recording_digests`)."""
    return _DIGESTS.get() is not None


def record_digest(path: Path, sha256: str) -> None:
    """Keep the sha256 of a file's bytes as read by a reader that reads it without `read_source`."""
    digests = _DIGESTS.get()
    if digests is not None:
        digests.setdefault(os.fspath(path), set()).add(sha256)


def read_digests(path: str | Path) -> set[str]:
    """The sha256 of each version of `path` read inside `recording_digests` (two: it changed
    between reads); empty when it was not read there."""
    return set((_DIGESTS.get() or {}).get(os.fspath(Path(path)), ()))


def spooled_bytes(path: str | Path) -> bytes | None:
    """A stream's bytes as this process read them (`stream_bytes`), without reading it; None
    when they are not kept."""
    with contextlib.suppress(OSError):
        return _SPOOLED.get(_stream_key(Path(path)))
    return None


def head_bytes(path: str | Path, size: int = _HEAD) -> bytes:
    """The first `size` bytes, to recognise the format before reading: a stream's come from its
    one read (`stream_bytes`), so the reader that follows still gets all of it."""
    path = Path(path)
    if is_stream(path):
        return stream_bytes(path)[:size]
    with path.open("rb") as f:
        return f.read(size)


def is_stream(path: Path) -> bool:
    """Whether `path` is a pipe, device or socket (process substitution, /dev/stdin, a FIFO),
    which can be read only once and may never end."""
    try:
        mode = path.stat().st_mode
    except OSError:
        return False
    return not (stat_kind.S_ISREG(mode) or stat_kind.S_ISDIR(mode))


def stream_bytes(path: Path, cancel: Cancel = None) -> bytes:
    """A stream's bytes, read once and kept (a second reader gets the same), up to `STREAM_LIMIT`.
    A binary stream (/dev/zero, /dev/urandom) is refused from its first bytes; a named pipe that
    no writer opens within `FIFO_WAIT` seconds is refused rather than waited on for ever."""
    if (data := _SPOOLED.get(_stream_key(path))) is not None:
        return data
    try:
        fd, first = _open_stream(path, cancel)
        try:
            data = _read_stream(fd, first, path, cancel)
        finally:
            os.close(fd)
    except PermissionError:
        raise InputError("cannot be read: permission denied", path) from None
    except OSError as exc:
        raise InputError(f"cannot be read: {exc.strerror or exc}", path) from None
    while len(_SPOOLED) >= 2:  # a run and its qrels: older streams are not read again
        del _SPOOLED[next(iter(_SPOOLED))]
    _SPOOLED[_stream_key(path)] = data
    return data


def _stream_key(path: Path) -> tuple:
    """Which stream `path` is: a pipe's inode, and its last write (a named pipe written again
    by a new writer is another stream)."""
    st = path.stat()
    return str(path), st.st_dev, st.st_ino, st.st_rdev, st.st_mtime_ns


def _open_stream(path: Path, cancel: Cancel) -> tuple[int, bytes]:
    """A descriptor open for blocking reads, and what was read while waiting for a writer. A FIFO
    is opened without blocking (a plain open waits for a writer, silently) and read until a writer
    shows: bytes, or a read that would block (a read without a writer is an end of file)."""
    if not stat_kind.S_ISFIFO(path.stat().st_mode):
        return os.open(path, os.O_RDONLY), b""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        poll, deadline = select.poll(), time.monotonic() + FIFO_WAIT
        poll.register(fd, select.POLLIN)
        first = b""
        while True:
            events = poll.poll(100)
            try:
                first = os.read(fd, _CHUNK)
            except BlockingIOError:
                break  # a writer, with nothing written yet
            if first or any(e & select.POLLHUP for _, e in events):
                break  # bytes, or a writer that came and went
            check_cancel(cancel, path)
            if time.monotonic() >= deadline:
                raise InputError(f"is a named pipe that no program wrote to within {FIFO_WAIT:g} s; "
                                 "start the writer first, or give a file", path)
        os.set_blocking(fd, True)
        return fd, first
    except BaseException:
        os.close(fd)
        raise


def _read_stream(fd: int, first: bytes, path: Path, cancel: Cancel) -> bytes:
    pieces, size, checked = [first], len(first), False
    while True:
        if not checked and size >= _HEAD:
            checked = True
            _refuse_binary_start(path, b"".join(pieces)[:_HEAD])
        check_cancel(cancel, path)
        piece = os.read(fd, min(_CHUNK, STREAM_LIMIT + 1 - size))
        if not piece:
            return b"".join(pieces)
        pieces.append(piece)
        size += len(piece)
        if size > STREAM_LIMIT:
            raise InputError(f"is a pipe or device that gives more than {STREAM_LIMIT_TEXT}, the most "
                             "read from one; save it to a file first", path)


def _refuse_binary_start(path: Path, head: bytes) -> None:
    """Refuse a stream from its first bytes when they are binary and not a format of ours (a
    device such as /dev/zero would otherwise be read to the limit first)."""
    if compression_of(head) is None and columnar_kind(head) not in COLUMNAR:
        _check_text(path, head)


def check_readable(path: str | Path) -> Path:
    """`path`, or the `InputError` reading it would give: not found, a folder, not allowed."""
    path = Path(path)
    try:
        path.stat()
    except FileNotFoundError:
        raise InputError(f"file not found (looked in {path.resolve().parent})", path) from None
    except OSError as exc:  # a symbolic-link loop, a name too long…
        raise InputError(path_problem(exc), path) from None
    if path.is_dir():
        raise InputError("is a folder, not a file", path)
    if is_stream(path):  # opening a FIFO may block, and a reopened pipe may lose bytes: asked only
        if not os.access(path, os.R_OK):
            raise InputError("cannot be read: permission denied", path)
        return path
    try:
        with path.open("rb"):
            pass
    except PermissionError:
        raise InputError("cannot be read: permission denied", path) from None
    except OSError as exc:
        raise InputError(f"cannot be read: {exc.strerror or exc}", path) from None
    return path


def _read_all(f, size: int, path: Path, cancel: Cancel, progress: Progress) -> bytearray:
    """The whole file, read into one buffer in pieces (cancel and progress between them; joining
    pieces read separately would hold the file twice). A bytearray: `bytes` of it would copy it."""
    buffer = bytearray(size)
    view, done = memoryview(buffer), 0
    while done < size:
        if cancel is not None and cancel():
            raise LoadCancelled(str(path))
        got = f.readinto(view[done:done + _CHUNK])
        if not got:
            break
        done += got
        if progress is not None:
            progress(min(1.0, done / size))
    view.release()
    rest = f.read()  # (a file that grew while being read)
    if done < size:
        del buffer[done:]
    if rest:
        buffer += rest
    return buffer


def decode(path: Path, data: bytes, whole: bool = False) -> Source:
    """The `Source` of a file's bytes (or of its first bytes, unless `whole`): decompressed,
    recognised as columnar or text, the text's encoding picked (UTF-16 with a BOM, UTF-8 with or
    without, else Windows-1252 / Latin-1)."""
    compression = compression_of(data)
    if compression is not None:
        data = decompress(path, data, compression, whole)
    container = columnar_kind(data)
    if container in COLUMNAR:
        return Source(path, data, "utf-8", compression=compression, container=container)
    source = decode_text(path, data)
    source.compression = compression
    return source


def decode_text(path: Path, data: bytes) -> Source:
    """Pick the encoding: UTF-16 with a BOM, UTF-8 (BOM or not), else Windows-1252 / Latin-1."""
    bom, file_encoding = b"", ""
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        bom = bytes(data[:2])
        file_encoding = "utf-16-le" if bom == codecs.BOM_UTF16_LE else "utf-16-be"
        try:
            data = data[2:].decode(file_encoding).encode("utf-8")
        except UnicodeDecodeError:
            raise InputError("starts like UTF-16 text but is not valid UTF-16", path) from None
    elif data.startswith(codecs.BOM_UTF8):
        bom = codecs.BOM_UTF8
        data = data[len(codecs.BOM_UTF8):]
    if not _NOT_SPACE.search(data):  # (data.strip() would copy a big file)
        raise InputError("the file is empty", path)
    _check_text(path, data)
    encoding = next((e for e in ("utf-8", "cp1252") if _decodes(data, e)), "latin-1")
    # latin-1 decodes any byte: a wrong letter beats a refusal (and it writes every byte back).
    return Source(path, data, encoding, bom=bom, file_encoding=file_encoding or encoding)


def _decodes(data: bytes, encoding: str) -> bool:
    """Whether `data` is valid in `encoding`, checked in pieces (decoding a big file at once
    would hold a second copy of it as text)."""
    if data.isascii():
        return True
    decoder = codecs.getincrementaldecoder(encoding)()
    try:
        with memoryview(data) as view:
            for start in range(0, len(data), _CHUNK):
                decoder.decode(view[start:start + _CHUNK])
            decoder.decode(b"", final=True)
    except UnicodeDecodeError:
        return False
    return True


def _check_text(path: Path, data: bytes) -> None:
    """Refuse binary files (spreadsheets, archives, images) with a message that says so."""
    head = data[: 1 << 16]
    nul = data.find(b"\x00")
    controls = len(head) - len(head.translate(None, _CONTROL))
    if nul >= 0 or controls > max(2, len(head) // 100):
        hint = ""
        if data.startswith(b"PK\x03\x04"):
            hint = " (a zip archive, such as an .xlsx workbook: save it as CSV first)"
        elif data.startswith(b"\xd0\xcf\x11\xe0"):
            hint = " (an old Excel .xls workbook: save it as CSV first)"
        line = data.count(b"\n", 0, nul if nul >= 0 else 0) + 1 if nul >= 0 else None
        raise InputError(
            f"is a binary file, not a text table{hint}; expected CSV/TSV text, a TREC run or qrels, "
            "or a Parquet, Arrow/Feather or JSON Lines file",
            path,
            line,
        )


def check_cancel(cancel: Cancel, path: Path) -> None:
    if cancel is not None and cancel():
        raise LoadCancelled(str(path))


def file_kind(mode: int) -> str:
    """What a file that is not a regular file is, in words."""
    for test, what in ((stat.S_ISLNK, "a symbolic link"), (stat.S_ISFIFO, "a named pipe"),
                       (stat.S_ISDIR, "a folder"), (stat.S_ISCHR, "a device"), (stat.S_ISBLK, "a device"),
                       (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return what
    return "not a regular file"
