"""`make package` builds dist/ndcg-gui/ndcg-gui, a one-folder bundle with its own Python, which draws
the same window as the source tree when run from elsewhere."""

from __future__ import annotations

import fcntl
import os
import re
import subprocess
import sys

import pytest
from install_checks import ROOT, assert_same_window, clean_env, reference_screenshot, run

from ndcg_gui.core.ndcg.measure import Measure

# (the file's tests on one worker where --dist loadgroup keeps them together; `bundle` holds if not)
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("bundle")]

BINARY = ROOT / "dist" / "ndcg-gui" / "ndcg-gui"


@pytest.fixture(scope="session")
def bundle() -> None:
    """`make package`, once for the whole run: whichever worker comes first builds under a lock,
    the others wait and use it (two workers' builds into one dist/ removed each other's files,
    and a worker that runs another file's tests between this file's set a module fixture up again)."""
    build = ROOT / "build"
    build.mkdir(exist_ok=True)
    stamp = build / "bundle-run"
    run_id = os.environ.get("PYTEST_XDIST_TESTRUNUID", f"pid {os.getpid()}")
    with open(build / "bundle.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (BINARY.is_file() and stamp.is_file() and stamp.read_text() == run_id):
            result = subprocess.run(["make", "package"], cwd=ROOT, capture_output=True, text=True,
                                    timeout=900)
            assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
            stamp.write_text(run_id)
    assert BINARY.is_file()


def test_bundle_carries_its_own_python_and_resources(bundle):
    internal = BINARY.parent / "_internal"
    assert list(internal.glob("libpython3*")), "no Python runtime in the bundle"
    for name in ("icons/ndcg-gui.svg", "icons/ndcg-gui-256.png", "examples/e1.csv", "__init__.py"):
        assert (internal / "ndcg_gui" / "resources" / name).is_file(), name


def test_bundle_reports_its_version(bundle, tmp_path):
    from ndcg_gui import __version__

    assert run([str(BINARY), "--version"], cwd=tmp_path).stdout.split() == ["ndcg-gui", __version__]


def test_bundle_renders_the_window(bundle, tmp_path):
    # A PATH without the build's virtualenv: the bundle must not need any Python of the machine's.
    env = clean_env() | {"PATH": "/usr/bin:/bin"}
    shot = tmp_path / "bundle.png"
    run([str(BINARY), "--screenshot", str(shot)], cwd=tmp_path, env=env)
    assert_same_window(shot, reference_screenshot(tmp_path / "reference.png"))


def test_bundle_reads_big_files_in_its_own_worker_process(bundle, tmp_path):
    """The window starts `ndcg-gui --load-worker` for big files (the bundle has no Python to run
    `-m` with): it answers a request with the packed dataset, as the source tree's worker does."""
    import io
    import pickle

    from ndcg_gui.assets import resource_path
    from ndcg_gui.core.reading import load
    from ndcg_gui.core.reading.load_worker import WORKER_FLAG, read_message
    from ndcg_gui.core.reading.packed import unpack

    with resource_path("examples/sample.run") as run_path, resource_path("examples/sample.qrels") as qrels:
        request = pickle.dumps({"path": str(run_path), "qrels": str(qrels), "then": None})
        env = clean_env() | {"PATH": "/usr/bin:/bin"}
        done = subprocess.run([str(BINARY), WORKER_FLAG], input=request, capture_output=True,
                              cwd=tmp_path, env=env, timeout=120)
        expected = load(run_path, qrels)
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    stream = io.BytesIO(done.stdout)
    messages = iter(lambda: read_message(stream), None)
    last = [m for m in messages if m[0] != "progress"][-1]
    assert last[0] == "done"
    dataset = unpack(last[1])
    assert dataset.queries() == expected.queries()
    assert dataset.evaluate(Measure(k=10)).equals(expected.evaluate(Measure(k=10)))


def bundled_modules() -> set[str]:
    """The dotted names of every module the bundle holds: those in its PYZ archive (pure Python) and
    the top-level packages and extension modules beside the binary."""
    from PyInstaller.archive.readers import CArchiveReader

    executable = CArchiveReader(str(BINARY))
    (pyz,) = [name for name in executable.toc if name.endswith(".pyz")]
    names = set(executable.open_embedded_archive(pyz).toc)
    for path in (BINARY.parent / "_internal").iterdir():
        names.add(path.name.split(".")[0])
    return names


def test_bundle_holds_the_windows_dependencies_and_nothing_of_the_tests(bundle):
    """A development venv holds the test tools too (numba, Jupyter, scikit-learn…): the bundle leaves
    out every module outside `ndcg-gui[duckdb]`'s requirements, and keeps what comparing runs
    imports late (scipy.stats) as well as what the window imports at start."""
    sys.path.insert(0, str(ROOT / "packaging"))
    from bundle_contents import modules_outside, runtime_distributions

    names = bundled_modules()
    top = {name.split(".")[0] for name in names}
    assert not top & set(modules_outside(runtime_distributions()))
    for needed in ("ndcg_gui", "PySide6", "pyqtgraph", "pandas", "numpy", "pyarrow", "scipy", "duckdb"):
        assert needed in top, needed
    assert {"scipy.stats", "ndcg_gui.core.analysis.runs.significance", "duckdb"} <= names


def test_readme_states_the_bundles_size(bundle):
    """README's figure is this build's size on disk, to 5 %."""
    files = [f for f in BINARY.parent.rglob("*") if f.is_file() and not f.is_symlink()]
    size = sum(f.stat().st_size for f in files) / 2**20
    stated = re.search(r"builds `dist/ndcg-gui/` \((\d+) MiB\)", (ROOT / "README.md").read_text())
    assert stated, "README says how big the bundle is"
    assert abs(size - int(stated[1])) <= 0.05 * int(stated[1]), f"the bundle is {size:.0f} MiB"
