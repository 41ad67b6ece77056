import os
import subprocess
import sys


def test_importing_the_core_does_not_load_qt():
    code = (
        "import sys, ndcg_gui.core; "
        "bad = [m for m in sys.modules if m.split('.')[0] in ('PySide6', 'pyqtgraph', 'shiboken6')]; "
        "print(bad); sys.exit(1 if bad else 0)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


LIBRARY_USE = """
import os, sys
import pyarrow as pa
env, pool = dict(os.environ), pa.default_memory_pool().backend_name
import ndcg_gui, ndcg_gui.core
from ndcg_gui.core import evaluate
from ndcg_gui.core.reading import load
data = load(sys.argv[1])
assert dict(os.environ) == env, set(os.environ.items()) ^ set(env.items())
assert pa.default_memory_pool().backend_name == pool, (pool, pa.default_memory_pool().backend_name)
from ndcg_gui.core.memory import tune_process
tune_process()  # what the program's own entry points do
print(os.environ["JE_ARROW_MALLOC_CONF"], pa.default_memory_pool().backend_name,
      os.environ["NUMPY_MADVISE_HUGEPAGE"])
"""


def test_importing_the_library_changes_nothing_in_its_host_process(tmp_path):
    """Issue 21.5: a notebook that imports ndcg_gui.core and loads a file keeps its environment and
    Arrow's memory pool; only the program's own entry points tune them."""
    path = tmp_path / "l.csv"
    path.write_text("doc,grade\na,3\nb,0\n")
    env = {k: v for k, v in os.environ.items() if k not in ("JE_ARROW_MALLOC_CONF", "NUMPY_MADVISE_HUGEPAGE")}
    out = subprocess.run([sys.executable, "-c", LIBRARY_USE, str(path)], capture_output=True, text=True,
                         env=env, timeout=120)
    assert out.returncode == 0, out.stderr
    conf, pool, hugepages = out.stdout.split()
    assert conf == "dirty_decay_ms:0,muzzy_decay_ms:0"
    assert hugepages == "0"  # numpy's huge pages off in the program's own processes (issue 36)
    import pyarrow as pa
    if hasattr(pa, "jemalloc_memory_pool"):
        try:
            pa.jemalloc_memory_pool()
        except NotImplementedError:
            return
        assert pool == "jemalloc"


def test_every_import_inside_a_function_of_the_core_says_why_it_is_late():
    """The core's layers are import-linter's contract; an import inside a function would dodge
    it, so each one names its reason (`lazy: start-up`, `lazy: optional extra`, …) on its line or
    the comment above it (issue 21)."""
    import ast
    from pathlib import Path

    core = Path(__file__).resolve().parents[2] / "ndcg_gui" / "core"
    unsaid = []
    for path in sorted(core.rglob("*.py")):
        lines = path.read_text(encoding="utf-8").splitlines()
        for function in ast.walk(ast.parse("\n".join(lines))):
            if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            for node in ast.walk(function):
                if isinstance(node, ast.Import | ast.ImportFrom):
                    said = "\n".join(lines[max(node.lineno - 2, 0):node.end_lineno])
                    if "lazy:" not in said:
                        unsaid.append(f"{path.relative_to(core)}:{node.lineno}")
    assert not unsaid, unsaid
