"""Compressed and columnar files, recognised by their first bytes (magic numbers), not their name.

TREC runs ship gzip-compressed (`input.NAME.gz`) and ranking logs live in Parquet: each is read as
what it holds. A compressed file is decompressed whole (its text is kept for byte-preserving saves,
and a save writes it compressed again with the same codec: `compress`).
"""

from __future__ import annotations

import bz2
import gzip
import lzma
import zlib
from pathlib import Path

from ndcg_gui.core.errors import InputError

# codec -> (magic bytes, file name suffix)
CODECS = {
    "gzip": (b"\x1f\x8b", ".gz"),
    "bz2": (b"BZh", ".bz2"),
    "xz": (b"\xfd7zXZ\x00", ".xz"),
    "zstd": (b"\x28\xb5\x2f\xfd", ".zst"),
}
_NAMES = {"gzip": "gzip", "bz2": "bzip2", "xz": "xz", "zstd": "zstd"}
COLUMNAR = ("parquet", "feather")


def compression_of(data: bytes) -> str | None:
    """The codec `data` is compressed with, from its magic number, or None."""
    return next((codec for codec, (magic, _) in CODECS.items() if data.startswith(magic)), None)


def columnar_kind(data: bytes) -> str | None:
    """"parquet" or "feather" (Arrow IPC file or stream, Feather v1 or v2) from the first bytes."""
    if data.startswith(b"PAR1"):
        return "parquet"
    if data.startswith((b"ARROW1", b"FEA1")) or (data.startswith(b"\xff\xff\xff\xff") and len(data) > 8):
        return "feather"
    return None


def codec_for_name(path: str | Path) -> str | None:
    """The codec a file name asks for by its suffix (`.gz`, `.bz2`, `.xz`, `.zst`), or None."""
    suffix = Path(path).suffix.lower()
    return next((codec for codec, (_, end) in CODECS.items() if suffix == end), None)


def decompress(path: Path, data: bytes, codec: str, whole: bool = True) -> bytes:
    """The decompressed bytes. `whole` False: `data` may be the first bytes only (what comes out of
    them is returned); otherwise a damaged or cut-short file is an `InputError`."""
    try:
        if codec == "zstd":
            return _zstd(data)
        if not whole:
            return _partial(data, codec)
        if codec == "gzip":
            return gzip.decompress(data)
        if codec == "bz2":
            return bz2.decompress(data)
        return lzma.decompress(data)
    except (OSError, EOFError, ValueError, lzma.LZMAError, zlib.error) as exc:
        if not whole:
            return b""
        raise InputError(f"is {_NAMES[codec]}-compressed but cannot be decompressed ({_reason(exc)})",
                         path) from None


def _partial(data: bytes, codec: str) -> bytes:
    if codec == "gzip":
        return zlib.decompressobj(wbits=47).decompress(data)
    return (bz2.BZ2Decompressor() if codec == "bz2" else lzma.LZMADecompressor()).decompress(data)


def _zstd(data: bytes) -> bytes:
    import pyarrow as pa  # lazy: start-up (the window's entry point sniffs a file before pyarrow loads)

    with pa.CompressedInputStream(pa.BufferReader(data), "zstd") as stream:
        return stream.read()


def compress(data: bytes, codec: str) -> bytes:
    """`data` compressed with `codec` (gzip without a timestamp, so equal text gives equal bytes)."""
    if codec == "gzip":
        return gzip.compress(data, compresslevel=6, mtime=0)
    if codec == "bz2":
        return bz2.compress(data)
    if codec == "xz":
        return lzma.compress(data)
    import pyarrow as pa  # lazy: start-up (the window's entry point sniffs a file before pyarrow loads)

    sink = pa.BufferOutputStream()
    with pa.CompressedOutputStream(sink, "zstd") as stream:
        stream.write(data)
    return sink.getvalue().to_pybytes()


def _reason(exc: Exception) -> str:
    text = str(exc).strip() or type(exc).__name__
    if isinstance(exc, EOFError):
        return "the file is cut short"
    return text.splitlines()[0][:120]
