"""What the bundle holds: the distributions `ndcg-gui[duckdb]` needs at run time, found from the
installed metadata (the package's requirements, followed through theirs), and nothing else of the
build's environment. The spec excludes every other installed top-level module: a development venv
holds the test tools too (numba, Jupyter, scikit-learn…), which the window's imports reach only
through optional imports of its dependencies. tests/packaging/test_bundle.py checks both ways."""

from __future__ import annotations

import sys
from importlib.metadata import PackageNotFoundError, distribution, packages_distributions

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = "ndcg-gui"
EXTRAS = ("duckdb",)  # the one optional engine the window uses
# Top-level modules of the build tools themselves (PyInstaller's hooks import some at build time).
BUILD_TOOLS = {"PyInstaller", "_pyinstaller_hooks_contrib", "pyinstaller_hooks_contrib", "setuptools",
               "_distutils_hack", "pkg_resources", "pip", "wheel"}


def runtime_distributions(root: str = ROOT, extras: tuple[str, ...] = EXTRAS) -> set[str]:
    """The canonical names of `root[extras]` and every distribution it requires, transitively."""
    wanted: set[str] = set()
    todo: list[tuple[str, frozenset[str]]] = [(root, frozenset(extras))]
    while todo:
        name, wanted_extras = todo.pop()
        key = canonicalize_name(name)
        if key in wanted and not wanted_extras:
            continue
        try:
            dist = distribution(name)
        except PackageNotFoundError:
            continue  # (a requirement for another platform)
        wanted.add(key)
        for text in dist.requires or []:
            req = Requirement(text)
            envs = [{"extra": e} for e in wanted_extras] or [{"extra": ""}]
            if req.marker is None or any(req.marker.evaluate(env) for env in envs):
                todo.append((req.name, frozenset(req.extras)))
    return wanted


def modules_outside(wanted: set[str]) -> list[str]:
    """Installed top-level modules that belong to no wanted distribution: the bundle leaves them out."""
    found = packages_distributions()
    return sorted(
        module for module, dists in found.items()
        if module.isidentifier() and module not in sys.stdlib_module_names
        and not any(canonicalize_name(d) in wanted for d in dists)
    )


def modules_of(wanted: set[str]) -> list[str]:
    """The top-level modules of the wanted distributions (what the bundle must hold)."""
    return sorted(
        module for module, dists in packages_distributions().items()
        if module.isidentifier() and any(canonicalize_name(d) in wanted for d in dists)
    )
