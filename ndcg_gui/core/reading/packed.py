"""A `Dataset` as plain bytes and numeric arrays, to hand a big file from a loader process to the
window's process quickly.

Why: pickling millions of Python strings is slow, and unpickling them is one long call that would
stall the window. Text columns travel as chunks of NUL-joined UTF-8 instead; rebuilding them is many
short calls (about 10 ms each), so the window's thread gets its turn between them.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ndcg_gui.core.dataset import Dataset

CHUNK = 50_000
_SEP = "\0"


def _pack_column(values: pd.Series) -> dict[str, Any]:
    if values.dtype.kind in "biuf":
        return {"numbers": values.to_numpy()}
    text = values.to_numpy(dtype=object)
    if not all(isinstance(v, str) for v in text[:1000]) or any(_SEP in str(v) for v in text[:1000]):
        return {"objects": text, "dtype": values.dtype}  # unusual values: pickle carries them as they are
    chunks = []
    for i in range(0, len(text), CHUNK):
        joined = _SEP.join(text[i:i + CHUNK].tolist())
        if joined.count(_SEP) != min(CHUNK, len(text) - i) - 1:  # a value holding NUL itself
            return {"objects": text, "dtype": values.dtype}
        chunks.append(joined.encode("utf-8", "surrogatepass"))
    return {"text": chunks, "length": len(text), "dtype": values.dtype}


def _unpack_column(packed: dict[str, Any]) -> pd.Series:
    if "numbers" in packed:
        return pd.Series(packed["numbers"], copy=False)
    if "objects" in packed:
        return pd.Series(packed["objects"], dtype=packed["dtype"])
    dtype = packed["dtype"]
    # Typed chunk by chunk: one call over millions of values would hold the GIL too long; and the
    # GIL is handed over after each chunk (sleep(0)), so the window's thread runs between them.
    parts = []
    for chunk in packed["text"]:
        values = np.array(chunk.decode("utf-8", "surrogatepass").split(_SEP), dtype=object)
        parts.append(pd.Series(values, dtype=dtype))
        time.sleep(0)
    if not parts:
        return pd.Series([], dtype=dtype)
    return pd.concat(parts, ignore_index=True) if len(parts) > 1 else parts[0]


def _pack_frame(frame: pd.DataFrame | None) -> dict[str, Any] | None:
    if frame is None:
        return None
    return {name: _pack_column(frame[name]) for name in frame.columns}


def _unpack_frame(packed: dict[str, Any] | None) -> pd.DataFrame | None:
    if packed is None:
        return None
    return pd.DataFrame({name: _unpack_column(col) for name, col in packed.items()}, copy=False)


def pack(dataset: Dataset) -> dict[str, Any]:
    """Everything `unpack` needs to rebuild `dataset`, in a form that pickles fast."""
    return {
        "run": _pack_frame(dataset.run),
        "qrels": _pack_frame(dataset.qrels),
        "path": None if dataset.path is None else str(dataset.path),
        "qrels_path": None if dataset.qrels_path is None else str(dataset.qrels_path),
        "kind": dataset.kind,
        "tag": dataset.tag,
        # Small records and one bytes object each: pickle carries them as they are.
        "extra_columns": dataset.extra_columns,
        "file_format": dataset.file_format,
        "qrels_format": dataset.qrels_format,
        "edited": dataset.edited,
    }


def unpack(packed: dict[str, Any]) -> Dataset:
    run = _unpack_frame(packed["run"])
    assert run is not None
    return Dataset(
        run,
        _unpack_frame(packed["qrels"]),
        path=None if packed["path"] is None else Path(packed["path"]),
        qrels_path=None if packed["qrels_path"] is None else Path(packed["qrels_path"]),
        kind=packed["kind"],
        tag=packed.get("tag"),
        extra_columns=packed.get("extra_columns", ()),
        file_format=packed.get("file_format"),
        qrels_format=packed.get("qrels_format"),
        edited=packed.get("edited", frozenset()),
    )
