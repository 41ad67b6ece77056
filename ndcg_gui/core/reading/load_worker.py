"""`python -m ndcg_gui.core.reading.load_worker`: reads files for the window in a separate process.

A separate process rather than a thread because parsing and joining millions of strings holds
Python's GIL for seconds at a time, which would freeze the window. Protocol: one pickled request
{path, qrels, then} (or {call, nice}: any other such work, e.g. the input checks of a big file,
at a lower priority when `nice`) on stdin; on stdout, length-prefixed pickled messages (protocol
5, their large buffers after them, out of band): ("progress", fraction), then one of ("done",
packed dataset, then's result) (for a call: ("done", None, its result)), ("error", InputError),
("bug", text). Cancelling is the parent ending the process.
"""

from __future__ import annotations

import os
import pickle
import struct
import sys
import traceback
from typing import Any, BinaryIO

import numpy as np

from ndcg_gui.core import memory
from ndcg_gui.core.errors import InputError
from ndcg_gui.core.reading import load
from ndcg_gui.core.reading.packed import pack

HEADER = struct.Struct("<Q")
WORKER_FLAG = "--load-worker"  # how the frozen bundle's executable is asked to be a worker


def command() -> list[str]:
    """How to start a worker: this module under the running Python, or, in a frozen bundle (no
    Python to run -m with), the bundle's own executable with WORKER_FLAG."""
    if getattr(sys, "frozen", False):
        return [sys.executable, WORKER_FLAG]
    return [sys.executable, "-m", "ndcg_gui.core.reading.load_worker"]


def write_message(out: BinaryIO, message: tuple) -> None:
    """`message` pickled (protocol 5): its large buffers (a packed dataset's Arrow data) are
    written after the pickle as they are, not copied into it."""
    buffers: list[pickle.PickleBuffer] = []
    data = pickle.dumps(message, protocol=5, buffer_callback=buffers.append)
    raws = [buffer.raw() for buffer in buffers]
    out.write(HEADER.pack(len(data)) + HEADER.pack(len(raws)))
    for raw in raws:
        out.write(HEADER.pack(raw.nbytes))
    out.write(data)
    for raw in raws:
        out.write(raw)
    out.flush()


def read_message(stream: BinaryIO) -> Any:
    """The next message, or None at the end of the stream (the process ended)."""
    header = _read(stream, 2 * HEADER.size)
    if header is None:
        return None
    (size,), (count,) = HEADER.unpack(header[:HEADER.size]), HEADER.unpack(header[HEADER.size:])
    sizes = _read(stream, count * HEADER.size)
    data = _read(stream, size)
    if sizes is None or data is None:
        return None
    buffers = []
    for (length,) in HEADER.iter_unpack(sizes):
        # Read into in place (the GIL is free while the bytes come); numpy's empty does not write
        # zeros first, as bytearray(length) would, holding the GIL over hundreds of MB.
        buffer = np.empty(length, dtype=np.uint8)
        if stream.readinto(buffer) != length:
            return None
        buffers.append(buffer)
    return pickle.loads(data, buffers=buffers)


def _read(stream: BinaryIO, size: int) -> bytes | None:
    data = stream.read(size)
    return data if len(data) == size else None


def serve(request: dict, out: BinaryIO) -> None:

    last = [-1]

    def progress(fraction: float) -> None:
        step = int(max(0.0, min(1.0, fraction)) * 100)
        if step != last[0]:
            last[0] = step
            write_message(out, ("progress", step / 100))

    try:
        if "call" in request:
            if request.get("nice") and hasattr(os, "nice"):
                os.nice(request["nice"])  # (work nobody waits for yields the cores to what they wait for)
            write_message(out, ("done", None, request["call"]()))
            return
        dataset = load(request["path"], request.get("qrels"), progress=progress)
        then = request.get("then")
        extra = then(dataset) if then is not None else None
        write_message(out, ("done", pack(dataset), extra))
    except InputError as err:
        write_message(out, ("error", err))
    except Exception:
        write_message(out, ("bug", traceback.format_exc()))


def main() -> int:
    memory.tune_process()  # a process of the program's own
    out = sys.stdout.buffer
    sys.stdout = sys.stderr  # nothing else may write into the message stream
    request = pickle.load(sys.stdin.buffer)
    serve(request, out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
