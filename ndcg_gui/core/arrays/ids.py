"""Ids as Arrow string arrays: no Python string per row, however big the file.

`strings` turns a column (pandas, numpy, Arrow) into one Arrow array; `Groups` numbers the rows by
query; `hash_strings` gives every id a 64-bit hash read straight from the Arrow buffers, so ids are
matched and checked for duplicates as integers (`core.arrays.join`).
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

_U64 = np.uint64
_LONG = 4096  # bytes: a longer id (never a real one) is hashed by a digest, the same id the same way
_SLICE = 1 << 16  # rows a step: 0.5 MB temporaries; larger were no faster and held more at a load's peak
# Bytes 0..n-1 of a little-endian word kept: mask for n = 0..8.
_KEEP = np.array([(1 << (8 * n)) - 1 for n in range(8)] + [(1 << 64) - 1], dtype=_U64)


def strings(values, what: str = "ids") -> pa.Array | pa.ChunkedArray:
    """`values` as Arrow text (numbers become their text, as `str` gives it); chunks are kept
    as they are (joining them would copy every id).

    Accepts a pandas Series (an Arrow-backed one is used without a copy), a numpy array, a list or
    an Arrow array. Empty values (None, NaN) raise ValueError naming `what`."""
    if isinstance(values, pa.ChunkedArray | pa.Array):
        arr = values
    else:
        try:
            arr = _from_pandas(values)
        except (pa.ArrowInvalid, pa.ArrowTypeError):  # mixed types: their text below
            arr = None
        except UnicodeEncodeError:  # lone surrogates (a badly decoded file): compared as bytes
            items = list(values)
            if any(v is None or v != v for v in items):
                raise ValueError(f"{what} has empty values") from None
            return pa.array([str(v).encode("utf-8", "surrogatepass") for v in items], pa.binary())
        if arr is None:
            items = np.asarray(values, dtype=object)
            if any(v is None or v != v for v in items):
                raise ValueError(f"{what} has empty values")
            arr = pa.array([str(v) for v in items], pa.string())
    if isinstance(arr, pa.ChunkedArray) and arr.num_chunks == 1:
        arr = arr.chunk(0)
    if pa.types.is_dictionary(arr.type):
        arr = whole(arr).dictionary_decode()
    if arr.null_count:
        raise ValueError(f"{what} has empty values")
    if not is_text(arr.type):
        arr = pa.array(np.asarray(arr.to_numpy(zero_copy_only=False)).astype(str), pa.string())
    return arr


def _from_pandas(values) -> pa.Array | pa.ChunkedArray:
    dtype = getattr(values, "dtype", None)
    if dtype is not None and getattr(dtype, "storage", None) == "pyarrow":
        return pa.chunked_array(values)  # the Arrow buffers pandas holds: no copy
    return pa.array(values, from_pandas=True)


def whole(arr: pa.Array | pa.ChunkedArray) -> pa.Array:
    """One contiguous array (chunks joined)."""
    if isinstance(arr, pa.ChunkedArray):
        return arr.combine_chunks() if arr.num_chunks != 1 else arr.chunk(0)
    return arr


def take(values: pa.Array | pa.ChunkedArray, rows: np.ndarray) -> pa.Array:
    """`values.take(rows)`, taken chunk by chunk: Arrow's take on a chunked column first joins
    all its chunks into one array (a copy of the whole column, for a few rows)."""
    if isinstance(values, pa.Array) or values.num_chunks <= 1 or not len(rows):
        return whole(values).take(pa.array(rows))
    chunks = values.chunks
    starts = np.cumsum([0] + [len(c) for c in chunks])
    chunk = np.searchsorted(starts, rows, side="right") - 1
    in_order = bool((chunk[1:] >= chunk[:-1]).all())
    by_chunk = np.arange(len(rows)) if in_order else np.argsort(chunk, kind="stable")
    bounds = np.searchsorted(chunk[by_chunk], np.arange(len(chunks) + 1))
    parts = [chunks[c].take(pa.array(rows[by_chunk[a:b]] - starts[c]))
             for c, (a, b) in enumerate(zip(bounds[:-1].tolist(), bounds[1:].tolist(), strict=True)) if b > a]
    taken = pa.concat_arrays(parts)
    if in_order:
        return taken
    back = np.empty(len(rows), np.int64)
    back[by_chunk] = np.arange(len(rows))
    return taken.take(pa.array(back))


def same_buffers(a: pa.Array | pa.ChunkedArray, b: pa.Array | pa.ChunkedArray) -> bool:
    """Whether `a` and `b` are views of the very same memory, chunk for chunk (equal values
    without comparing them)."""
    chunks_a = a.chunks if isinstance(a, pa.ChunkedArray) else [a]
    chunks_b = b.chunks if isinstance(b, pa.ChunkedArray) else [b]
    return len(chunks_a) == len(chunks_b) and all(
        x.type == y.type and x.offset == y.offset and len(x) == len(y)
        and [buf and buf.address for buf in x.buffers()] == [buf and buf.address for buf in y.buffers()]
        for x, y in zip(chunks_a, chunks_b, strict=True)
    )


def is_text(kind: pa.DataType) -> bool:
    return (pa.types.is_string(kind) or pa.types.is_large_string(kind) or pa.types.is_binary(kind)
            or pa.types.is_large_binary(kind))


def labels(ids: pa.Array) -> np.ndarray:
    """Ids as a numpy object array of `str` (for the few values a person sees: queries, a list)."""
    out = ids.to_numpy(zero_copy_only=False).astype(object)
    if pa.types.is_binary(ids.type) or pa.types.is_large_binary(ids.type):  # see `strings`
        out = np.array([b.decode("utf-8", "surrogatepass") for b in out], dtype=object)
    return out


# --- rows by query ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Groups:
    """Rows by query: `codes` per row (numbered by first appearance), `labels` (str) per code,
    `sizes` per code, and `starts` (first row of each code) when every query's rows are
    contiguous, codes then ascending. Codes are int32 (int64 past 2**31 queries): one a row, held
    by every loaded dataset, they are half the memory of int64."""

    codes: np.ndarray
    labels: np.ndarray
    sizes: np.ndarray
    starts: np.ndarray | None

    @classmethod
    def of(cls, ids: pa.Array) -> Groups:
        n = len(ids)
        # Comparing neighbours is cheaper than hashing every id: grouped files take this path,
        # and a shuffled one is recognised from its first rows.
        if n > 1 and 2 * changes(ids.slice(0, 4096)).sum() < min(n, 4096):
            starts = np.flatnonzero(np.concatenate([[True], changes(ids)]))
            firsts = take(ids, starts)
            if _distinct(firsts):
                sizes = np.diff(starts, append=n)
                codes = np.repeat(np.arange(len(starts), dtype=_code_type(len(starts))), sizes)
                return cls(codes, labels(firsts), sizes, starts)
        if n == 0:
            nothing = np.zeros(0, np.int64)
            return cls(nothing, np.zeros(0, object), nothing, nothing)
        encoded = pc.dictionary_encode(whole(ids))  # codes in order of first appearance
        codes = encoded.indices.to_numpy().astype(_code_type(len(encoded.dictionary)))  # (a writable copy)
        names = labels(encoded.dictionary)
        sizes = np.bincount(codes, minlength=len(names))
        grouped = n < 2 or bool((codes[1:] >= codes[:-1]).all())
        return cls(codes, names, sizes, np.cumsum(sizes) - sizes if grouped else None)


def _distinct(ids: pa.Array) -> bool:
    """Whether no id repeats: their 64-bit hashes sorted and compared (an Arrow hash table of
    300,000 query ids cost more), the strings themselves only when two hashes are equal."""
    hashes = np.sort(hash_strings(ids))
    if not (hashes[1:] == hashes[:-1]).any():
        return True
    return len(pc.unique(ids)) == len(ids)


def _code_type(n: int) -> type:
    return np.int32 if n < 2**31 else np.int64


def changes(ids: pa.Array) -> np.ndarray:
    """Whether each id differs from the one before it (one fewer than the ids)."""
    if len(ids) < 2:
        return np.zeros(0, bool)
    return pc.not_equal(ids.slice(1), ids.slice(0, len(ids) - 1)).to_numpy(zero_copy_only=False)


# --- hashing ------------------------------------------------------------------------------------


def mix(z: np.ndarray, in_place: bool = False) -> np.ndarray:
    """splitmix64's finaliser: every input bit affects every output bit. On a copy of `z`, or on
    `z` itself (`in_place`: a uint64 array the caller owns). A slice at a time: the temporaries
    stay small, which matters for arrays of millions."""
    z = z if in_place else np.array(z, dtype=_U64, copy=True)
    shifted = np.empty(min(len(z), _SLICE), _U64)
    for start in range(0, len(z), _SLICE):
        part = z[start:start + _SLICE]
        temp = shifted[:len(part)]
        for shift, factor in ((30, 0xBF58476D1CE4E5B9), (27, 0x94D049BB133111EB)):
            part ^= np.right_shift(part, _U64(shift), out=temp)
            part *= _U64(factor)
        part ^= np.right_shift(part, _U64(31), out=temp)
    return z


def hash_strings(ids: pa.Array | pa.ChunkedArray, skip: int = 0) -> np.ndarray:
    """A 64-bit hash of each id's bytes: equal ids, equal hashes; different ids differ but for a
    chance of about n²/2⁶⁴, which callers confirm on the strings. Read as 8-byte words straight
    from the Arrow buffers: no Python object and no copy of the text. `skip`: a number of leading
    bytes every id has in common (`shared_prefix`), left out (ids hashed with the same `skip`
    compare)."""
    chunks = ids.chunks if isinstance(ids, pa.ChunkedArray) else [ids]
    out = np.empty(len(ids), _U64)
    at = 0
    for chunk in chunks:  # in slices: the temporaries stay small whatever the size
        for start in range(0, len(chunk), _SLICE):
            part = chunk.slice(start, _SLICE)
            out[at:at + len(part)] = _hash_array(part, skip)
            at += len(part)
    return out


def shared_prefix(*arrays: pa.Array | pa.ChunkedArray) -> int:
    """The length in bytes of a prefix that every id of every array starts with (ids such as
    "clueweb12-0000tw-…" share a long one: hashing can skip it). Guessed from the first and last
    ids and checked on all of them; 0 when the check fails."""
    ends = [v for a in arrays if len(a) for v in (a[0].as_py(), a[len(a) - 1].as_py())]
    if not ends or not all(isinstance(v, str) for v in ends):
        return 0
    # (Linear in the ids' length: shortening a guess one character at a time was quadratic, and a
    # damaged file's line can be one id of megabytes.)
    prefix = os.path.commonprefix(ends)  # noqa: RUF071 (ids: a prefix of characters, not of paths)
    if not prefix:
        return 0
    if not all(pc.all(pc.starts_with(a, prefix)).as_py() is not False for a in arrays if len(a)):
        return 0
    return len(prefix.encode("utf-8"))


def _hash_array(ids: pa.Array, skip: int = 0) -> np.ndarray:
    n = len(ids)
    if n == 0:
        return np.zeros(0, _U64)
    offsets, data = _buffers(ids)
    begin = offsets[:-1] + skip
    length = offsets[1:] - begin
    h = length.astype(_U64) ^ _U64(0x9E3779B97F4A7C15)
    # Every 8-byte window of the data as a little-endian integer (unaligned reads, no copy).
    windows = np.ndarray((max(len(data) - 7, 0),), "<u8", data, strides=(1,))
    rows: np.ndarray | slice = slice(None)
    long = length > _LONG
    if long.any():  # one numpy step per 8 bytes would make a megabyte id take seconds: a digest each
        for i in np.flatnonzero(long).tolist():
            digest = hashlib.blake2b(data[begin[i]:begin[i] + length[i]], digest_size=8).digest()
            h[i] = int.from_bytes(digest, "little")
        rows = np.flatnonzero(~long)
        if not len(rows):
            return mix(h, in_place=True)
    for start in range(0, max(int(length[rows].max()), 1), 8):
        # A row is mixed once per 8 bytes it has (and once when empty): the hash depends on the id
        # alone, never on the other ids hashed with it.
        if start:
            alive = length[rows] > start
            if not alive.all():
                rows = np.flatnonzero(alive) if isinstance(rows, slice) else rows[alive]
        at = begin[rows] + start
        left = np.minimum(length[rows] - start, 8)
        far = at >= len(windows)
        if far.any():  # the last bytes of the buffer (or an empty one): read byte by byte
            word = np.zeros(len(at), _U64)
            word[~far] = windows[at[~far]]
            for i in np.flatnonzero(far & (left > 0)).tolist():
                word[i] = int.from_bytes(bytes(data[at[i]:at[i] + 8]).ljust(8, b"\0"), "little")
        else:
            word = windows[at]
        # A cheap step per word (multiply, fold); the full mix once at the end.
        step = (h[rows] ^ (word & _KEEP[left])) * _U64(0x9FB21C651E98DF25)
        h[rows] = step ^ (step >> _U64(29))
    return mix(h, in_place=True)


def edge_spaced(values: pa.Array | pa.ChunkedArray) -> np.ndarray:
    """The rows whose text starts or ends with a space or a tab, read from the Arrow buffers: a
    regex over every id of a big CSV was a visible share of its load, for ids that almost never have any."""
    chunks = values.chunks if isinstance(values, pa.ChunkedArray) else [values]
    parts = [np.zeros(0, bool)]
    for chunk in chunks:
        if not is_text(chunk.type) or chunk.null_count:  # (not what the CSV reader gives)
            found = pc.fill_null(pc.match_substring_regex(chunk, r"^[ \t]|[ \t]$"), False)
            parts.append(found.to_numpy(zero_copy_only=False))
            continue
        off, raw = _buffers(chunk)
        start, end = off[:-1], off[1:]
        filled = np.flatnonzero(end > start)
        first, last = raw[start[filled]], raw[end[filled] - 1]
        spaced = np.zeros(len(chunk), bool)
        spaced[filled] = (first == 32) | (first == 9) | (last == 32) | (last == 9)
        parts.append(spaced)
    return np.concatenate(parts)


def _buffers(ids: pa.Array) -> tuple[np.ndarray, np.ndarray]:
    """Offsets (int64, one more than the ids) and the data bytes of a string or binary array."""
    large = pa.types.is_large_string(ids.type) or pa.types.is_large_binary(ids.type)
    width = np.int64 if large else np.int32
    _, offsets, data = ids.buffers()[:3]
    size = np.dtype(width).itemsize
    off = np.frombuffer(offsets, width, len(ids) + 1, ids.offset * size).astype(np.int64)
    raw = np.frombuffer(data, np.uint8) if data is not None else np.zeros(0, np.uint8)
    return off, raw
