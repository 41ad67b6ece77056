"""The window's dataclasses made without compiling their methods at every launch. Python 3.11's
`dataclasses` writes each class's `__init__`, `__repr__`, `__eq__`, `__hash__`, `__setattr__` and
`__delattr__` as source text and compiles it (`exec`) when the class is made: ~190 methods for the
~36 dataclasses imported before the first paint, compiled anew at every launch (measured in
benchmarks/README.md, session 10). The imported modules themselves come from the bytecode
cache; these texts never did.

`cached()` keeps the code compiled from each text in a file beside the bytecode cache
(`__pycache__`, or `sys.pycache_prefix`, as `.pyc` files are; not written where those are not:
`sys.dont_write_bytecode`, a folder not writable), keyed by the whole text and the interpreter's
bytecode version, so a text compiles the same either way: the code object is that of
`compile(text)`, the function `dataclasses` makes from it the same. A text not in the file is
compiled as before; a file that does not read is ignored. Only the window's entry point uses it,
around its imports."""

from __future__ import annotations

import builtins
import contextlib
import dataclasses
import importlib.util
import marshal
import sys
from collections.abc import Iterator
from pathlib import Path

from ndcg_gui.core.kept import open_kept

_NAME = "dataclass_code"
MAX_BYTES = 16 << 20  # the file read at most (the window's texts: a few hundred KiB)


def cache_file() -> Path | None:
    """Where the compiled texts are kept (beside the package's bytecode), or None without one."""
    if sys.implementation.cache_tag is None:
        return None
    pyc = importlib.util.cache_from_source(str(Path(__file__).with_name(f"{_NAME}_texts.py")))
    return Path(pyc).with_suffix(".marshal")


class CompiledTexts:
    """The code of each text `dataclasses` executes: read from the file, compiled when missing."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.known: dict[str, object] = {}
        self.used: dict[str, object] = {}
        self.compiled = 0  # texts compiled in this process (not in the file)
        # Read as every kept file is (`core.kept`: not through a link, not a FIFO, not another
        # user's), at most MAX_BYTES of it.
        f = None if path is None else open_kept(path)
        if f is not None:
            with f, contextlib.suppress(Exception):  # (damaged, too big, another Python's: compiled anew)
                raw = f.read(MAX_BYTES + 1)
                data = marshal.loads(raw) if len(raw) <= MAX_BYTES else None
                if isinstance(data, tuple) and len(data) == 2 and data[0] == importlib.util.MAGIC_NUMBER:
                    self.known = dict(data[1])

    def exec(self, source, globals=None, locals=None, /):
        if isinstance(source, str):
            code = self.known.get(source)
            if code is None:
                # As `exec(text)` in dataclasses compiles it: no __future__ flags of its caller.
                code = compile(source, "<string>", "exec", dont_inherit=True)
                self.compiled += 1
            self.used[source] = code
            source = code
        if globals is None:  # (as called from dataclasses: its own globals)
            globals = vars(dataclasses)
        return builtins.exec(source, globals, locals)

    def save(self) -> bool:
        """Write the texts used in this process, if any was compiled here; whether it wrote."""
        if self.path is None or not self.compiled or sys.dont_write_bytecode:
            return False
        # As the engines' caches write theirs: a new file renamed over the name (whole or not at
        # all; a link, FIFO or device there replaced, never written through).
        from ndcg_gui.core.sql.cache_files import write_new  # lazy: after the first paint's imports

        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            data = marshal.dumps((importlib.util.MAGIC_NUMBER, tuple(self.used.items())))
        except (OSError, ValueError):
            return False
        if len(data) > MAX_BYTES or not write_new(self.path, data):
            return False
        self.compiled = 0
        return True


@contextlib.contextmanager
def cached(path: Path | str | None = "default") -> Iterator[CompiledTexts]:
    """Dataclasses made inside take their methods' code from the file (then saved, when a text
    was new); outside, `dataclasses` compiles as it does. A Python whose `dataclasses` does not
    call `exec` by that name is left as it is."""
    texts = CompiledTexts(cache_file() if path == "default" else path)
    if getattr(dataclasses, "_create_fn", None) is None or "exec" in vars(dataclasses):
        yield texts
        return
    dataclasses.exec = texts.exec  # (a module global shadows the builtin it calls)
    try:
        yield texts
    finally:
        del dataclasses.exec
    texts.save()
