"""Where each line of a text starts and ends, as the readers count lines: the file's format (for
saving) and the source (for naming a line too long) both ask it, so it lives below both."""

from __future__ import annotations

import numpy as np

_CHUNK = 16 << 20


def line_bounds(data: bytes) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Start, end of text and end with the line break of every line of `data` (byte offsets;
    a line break is "\n", "\r\n" or a lone "\r", as the readers count lines)."""
    arr = np.frombuffer(data, np.uint8)
    nl_parts, cr_parts = [np.zeros(0, np.int64)], [np.zeros(0, np.int64)]
    for offset in range(0, len(arr), _CHUNK):  # in pieces: a comparison makes a byte per byte
        part = arr[offset:offset + _CHUNK]
        nl_parts.append(np.flatnonzero(part == 10) + offset)
        cr_parts.append(np.flatnonzero(part == 13) + offset)
    nl, cr = np.concatenate(nl_parts), np.concatenate(cr_parts)
    last = max(len(arr) - 1, 0)
    lone = cr[(cr + 1 > last) | (arr[np.minimum(cr + 1, last)] != 10)] if len(arr) else cr
    after_cr = (nl > 0) & (arr[np.maximum(nl - 1, 0)] == 13) if len(arr) else nl > 0
    brk = np.concatenate([nl, lone])
    text = np.concatenate([np.where(after_cr, nl - 1, nl), lone])
    order = np.argsort(brk, kind="stable")
    full, text = brk[order] + 1, text[order]
    if not len(full) or full[-1] < len(data):  # a last line without a line break
        full = np.append(full, len(data))
        text = np.append(text, len(data))
    starts = np.concatenate([[0], full[:-1]])
    return starts.astype(np.int64), text.astype(np.int64), full.astype(np.int64)
