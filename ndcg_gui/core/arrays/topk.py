"""Each group's n best rows under a long sort key, without sorting the rows (a radix select).

NDCG@k needs only each query's first k documents. They are found by comparing keys a slice of bits
at a time: a row's key is a stream of 64-bit words (a score as order-preserving bits, a file
position) that may go on with the bytes of a string (trec_eval breaks tied scores by doc id). Each
round packs (group, next slice of the key) into one uint64, sorts those values (numpy sorts plain
integers far faster than it argsorts), reads off each group's n-th largest slice, keeps the rows
above it, drops the rows below it, and goes on with the rows equal to it only. One round settles
distinct float scores; tied ones go on to the doc id bytes. The cost is a few passes over the rows,
whatever the scores look like (few distinct values, integers, a different scale per query).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

_U64 = np.uint64


def score_bits(key: np.ndarray) -> np.ndarray:
    """Finite floats as uint64 that sort in the same order (and -0.0 equal to 0.0)."""
    bits = (np.asarray(key, dtype=np.float64) + 0.0).view(_U64)
    negative = (bits >> _U64(63)).astype(bool)
    return np.where(negative, ~bits, bits | _U64(1 << 63))


def first_rows_word(n: int) -> Callable[[np.ndarray], np.ndarray]:
    """A key word that puts earlier rows first (file order among equal keys)."""
    return lambda rows: (n - 1 - rows).astype(_U64)


class StringBytes:
    """Bytes of an Arrow string array read as big-endian words, zero-padded: word order is
    strcmp order (unsigned bytes; a prefix sorts before its extensions), as trec_eval compares."""

    def __init__(self, strings: pa.Array):
        self.strings = strings
        large = pa.types.is_large_string(strings.type) or pa.types.is_large_binary(strings.type)
        width = np.int64 if large else np.int32
        _, offsets, data = strings.buffers()
        self.offsets = np.frombuffer(offsets, width, len(strings) + 1, strings.offset * width(0).nbytes)
        self.data = np.frombuffer(data, np.uint8) if data is not None else np.zeros(0, np.uint8)
        # Every 8-byte window of the data as a big-endian integer (unaligned, no copy).
        self.windows = np.ndarray((max(len(self.data) - 7, 0),), ">u8", self.data, strides=(1,))

    def common_prefix(self, rows: np.ndarray) -> int:
        """The number of leading bytes that the strings of `rows` all share."""
        some = self.strings if 8 * len(rows) >= len(self.strings) else self.strings.take(rows)
        bounds = pc.min_max(some)  # the first and last string in byte order
        low, high = bounds["min"].as_py(), bounds["max"].as_py()
        if isinstance(low, str):
            low, high = (x.encode("utf-8", "surrogatepass") for x in (low, high))
        same = [a == b for a, b in zip(low, high, strict=False)] + [False]
        return same.index(False)

    def word(self, rows: np.ndarray, start: int, n_bytes: int) -> np.ndarray | None:
        """Bytes start..start+n_bytes-1 (n_bytes <= 7) of each row's string as one integer; None
        when no row's string reaches `start` (every string fully compared)."""
        if len(rows) == len(self.offsets) - 1:  # every row (rows are distinct and ascending)
            begin, end = self.offsets[:-1].astype(np.int64), self.offsets[1:]
        else:
            begin, end = self.offsets[rows].astype(np.int64), self.offsets[rows + 1]
        left = end - begin - start  # bytes from `start` to the string's end
        if not len(rows) or left.max() <= 0:
            return None
        begin += start
        # Read 8 bytes at once, keep the first n_bytes, then clear those past a string's end.
        if begin.max() < len(self.windows):
            out = self.windows[begin].astype(_U64) >> _U64(64 - 8 * n_bytes)
        else:  # the last strings of the buffer: byte by byte
            out = np.zeros(len(rows), _U64)
            fast = np.flatnonzero(begin < len(self.windows))
            out[fast] = self.windows[begin[fast]].astype(_U64) >> _U64(64 - 8 * n_bytes)
            slow = np.flatnonzero(begin >= len(self.windows))
            for j in range(n_bytes):
                has = slow[left[slow] > j]
                out[slow] <<= _U64(8)
                out[has] |= self.data[begin[has] + j]
        short = np.flatnonzero(left < n_bytes)
        if len(short):
            cut = (8 * (n_bytes - np.maximum(left[short], 0))).astype(_U64)
            out[short] = (out[short] >> cut) << cut
        return out


def leading_rows(key: np.ndarray | None, starts: np.ndarray, sizes: np.ndarray, k: int) -> np.ndarray:
    """The rows (ascending) of each group's first k, and with `key` those after them whose key
    equals the k-th's, for rows grouped (group g is rows starts[g] .. starts[g]+sizes[g]-1) and
    ranked (key never rises within a group). Tied rows after the k-th follow it, so each group
    keeps a leading run, whose end a binary search per group finds: no array a row long (a
    million rows' temporaries were a command's peak of memory)."""
    starts, sizes = np.asarray(starts, np.int64), np.asarray(sizes, np.int64)
    ends = np.minimum(sizes, k)
    if key is not None and len(starts):
        kth = key[starts + ends - 1]
        # Only groups whose next row ties with the k-th go on past it.
        more = np.flatnonzero(ends < sizes)
        more = more[key[starts[more] + ends[more]] == kth[more]]
        low, high = ends[more] + 1, sizes[more]  # rows before `low` tie; from `high` on they fall
        while len(more):
            done = low >= high
            ends[more[done]] = low[done]
            more, low, high = more[~done], low[~done], high[~done]
            mid = (low + high) // 2
            ties = key[starts[more] + mid] == kth[more]
            low, high = np.where(ties, mid + 1, low), np.where(ties, high, mid)
    return _ranges(starts, ends)


def _ranges(starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """starts[g] .. starts[g]+lengths[g]-1 for every g, one after another."""
    total = int(lengths.sum())
    offsets = np.cumsum(lengths) - lengths
    return np.repeat(starts - offsets, lengths) + np.arange(total, dtype=np.int64)


def select_top(
    rows: np.ndarray,
    group: np.ndarray,
    need: np.ndarray,
    words: Sequence[Callable[[np.ndarray], np.ndarray]],
    strings: StringBytes | None = None,
    keep_ties: bool = False,
) -> np.ndarray:
    """The rows (ascending) that hold each group's `need` largest keys.

    rows   candidate row numbers (ascending); group: the group of each (0..G-1); need: per group.
    words  the key, most significant first: functions of row numbers giving uint64 words;
    strings  then the bytes of each row's string (larger bytes first), if given.
    Rows whose whole key equals a group's need-th largest are all kept with `keep_ties`; otherwise
    the earliest rows among them fill the count.
    """
    rows, group = np.asarray(rows, np.int64), np.asarray(group, np.int64)
    need = np.asarray(need, np.int64)
    chosen = []
    word_at, bit_at = 0, 0  # position in the key stream: a word and a bit in it, or string bytes
    shared_checked = False
    last_word = (-1, None, None)  # (word, rows, value): a word read in full is read once
    while len(rows):
        # Groups with no more rows than they need take them all; the others are numbered anew
        # (fewer bits to pack).
        count = np.bincount(group, minlength=len(need))
        small = count <= need
        if small.any():
            whole = small[group]
            chosen.append(rows[whole])
            rows, group = rows[~whole], group[~whole]
            if not len(rows):
                break
            group, need, count = (np.cumsum(~small) - 1)[group], need[~small], count[~small]
        group_bits = max(1, (len(need) - 1).bit_length())
        width = 64 - group_bits
        if word_at < len(words):
            width = min(width, 64 - bit_at)
            if last_word[0] != word_at or last_word[1] is not rows:
                last_word = (word_at, rows, words[word_at](rows))
            digit = (last_word[2] << _U64(bit_at)) >> _U64(64 - width)
            bit_at += width
            if bit_at == 64:
                word_at, bit_at = word_at + 1, 0
        else:
            if strings is not None and not shared_checked and len(rows) >= 1 << 16:
                # Long ids often share a prefix ("clueweb09-en"): rounds that compare it are skipped.
                bit_at, shared_checked = max(bit_at, 8 * strings.common_prefix(rows)), True
            digit = None if strings is None else strings.word(rows, bit_at // 8, width // 8)
            bit_at += width // 8 * 8
        if digit is None:  # every key compared in full: the rest are equal keys
            chosen.append(rows if keep_ties else _earliest(rows, group, need))
            break
        if digit.min() == digit.max():  # no row differs here (one score for all rows)
            continue
        packed = np.sort((group.astype(_U64) << _U64(width)) | digit)
        nth = packed[np.cumsum(count) - need] & _U64((1 << width) - 1)
        at = nth[group]
        above = digit > at
        chosen.append(rows[above])
        need = need - np.bincount(group[above], minlength=len(need))
        same = digit == at
        rows, group = rows[same], group[same]
    return np.sort(np.concatenate(chosen)) if chosen else np.zeros(0, np.int64)


def _earliest(rows: np.ndarray, group: np.ndarray, need: np.ndarray) -> np.ndarray:
    """The first need[g] rows (by row number) of each group g."""
    order = np.lexsort((rows, group))
    count = np.bincount(group, minlength=len(need))
    pos = np.empty(len(rows), np.int64)
    pos[order] = np.arange(len(rows)) - np.repeat(np.cumsum(count) - count, count)
    return rows[pos < need[group]]
