"""A `Dataset` as plain bytes and numeric arrays, to hand a big file from a loader process to the
window's process quickly.

Text columns held in Arrow (what the readers make) travel as Arrow IPC bytes: no Python string is
made on either side, and rebuilding them is a copy of buffers (milliseconds for millions of rows).
Numbers travel as numpy arrays; any other column (a typed list's objects) as it is.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa

from ndcg_gui.core.lists.dataset import Dataset, text_column


def _pack_column(values: pd.Series) -> dict[str, Any]:
    if values.dtype.kind in "biuf":
        return {"numbers": values.to_numpy()}
    if getattr(values.dtype, "storage", None) == "pyarrow":
        sink = pa.BufferOutputStream()
        table = pa.table({"v": pa.chunked_array(values)})
        with pa.ipc.new_stream(sink, table.schema) as writer:
            writer.write_table(table)
        # A pyarrow Buffer, not bytes: pickled with protocol 5 it travels out of band, never copied
        # into the pickle (see load_worker.write_message).
        return {"arrow": sink.getvalue()}
    return {"objects": values.to_numpy(dtype=object), "dtype": values.dtype}


def _unpack_column(packed: dict[str, Any]) -> pd.Series:
    if "numbers" in packed:
        return pd.Series(packed["numbers"], copy=False)
    if "arrow" in packed:
        return text_column(pa.ipc.open_stream(packed["arrow"]).read_all().column("v"))
    return pd.Series(packed["objects"], dtype=packed["dtype"])


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
        # Small records (a big file's bytes stay on disk): pickle carries them as they are.
        "extra_columns": dataset.extra_columns,
        "file_format": dataset.file_format,
        "qrels_format": dataset.qrels_format,
        "edited": dataset.edited,
    }


def unpack(packed: dict[str, Any]) -> Dataset:
    run = _unpack_frame(packed["run"])
    assert run is not None
    return Dataset.of(
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


__all__ = ["pack", "unpack"]
