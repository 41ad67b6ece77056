"""Rows as Arrow and numpy arrays, the ground the readers, `Dataset` and `evaluate` share: ids
grouped by query (`ids.py`), each row's judgment looked up by (query, doc) (`join.py`), rows
ranked under a tie rule (`order.py`) and each query's first k picked without sorting (`topk.py`).
"""

from __future__ import annotations

import pyarrow as pa  # noqa: F401  (every module here works on Arrow arrays)

from ndcg_gui.core import memory

if memory.tuned():  # one of the program's own processes (never a host that imports the library)
    memory.use_returning_pool()
