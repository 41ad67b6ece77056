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
print(os.environ["JE_ARROW_MALLOC_CONF"], pa.default_memory_pool().backend_name)
"""


def test_importing_the_library_changes_nothing_in_its_host_process(tmp_path):
    """Issue 21.5: a notebook that imports ndcg_gui.core and loads a file keeps its environment and
    Arrow's memory pool; only the program's own entry points tune them."""
    path = tmp_path / "l.csv"
    path.write_text("doc,grade\na,3\nb,0\n")
    env = {k: v for k, v in os.environ.items() if k != "JE_ARROW_MALLOC_CONF"}
    out = subprocess.run([sys.executable, "-c", LIBRARY_USE, str(path)], capture_output=True, text=True,
                         env=env, timeout=120)
    assert out.returncode == 0, out.stderr
    conf, pool = out.stdout.split()
    assert conf == "dirty_decay_ms:0,muzzy_decay_ms:0"
    import pyarrow as pa
    if hasattr(pa, "jemalloc_memory_pool"):
        try:
            pa.jemalloc_memory_pool()
        except NotImplementedError:
            return
        assert pool == "jemalloc"
