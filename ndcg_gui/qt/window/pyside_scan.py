"""PySide6's import hook, made cheap for this program. Since PySide6 6.4 (PYSIDE-2029) every module
imported after PySide6 has its whole source file read (`inspect.getsource`) to learn whether it
names "PySide6": that decides the module's default for `from __feature__ import snake_case, ...`.
The window imports numpy, pyqtgraph and its own modules after Qt, each file read and
decoded before the first paint. This program selects no feature, so every module has the same
default either way: each is taken to use PySide (the default a module naming PySide6 gets) without
its file being read. Only the window's entry point calls it; benchmarks/README.md has its measure."""

from __future__ import annotations

from types import ModuleType


def uses_pyside(_module: ModuleType) -> bool:
    """Every module: feature selection 0 ("no feature"), what PySide6 gives one naming PySide6."""
    return True


def skip_source_scan() -> bool:
    """Whether PySide6's check was replaced (a PySide6 without it is left as it is)."""
    try:
        from PySide6.support import feature  # lazy: Qt only once the command line is checked
    except ImportError:
        return False
    if not callable(getattr(feature, "_mod_uses_pyside", None)):
        return False
    feature._mod_uses_pyside = uses_pyside
    return True
