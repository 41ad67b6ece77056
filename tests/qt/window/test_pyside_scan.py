"""Issue 36: PySide6 reads the source of every module imported after it (PYSIDE-2029); the window's
entry point has it take each module as using PySide instead, without reading the file. Each case
runs in a fresh interpreter: the hook is process-wide."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

IMPORT_ONE = """
import inspect, sys
import PySide6.QtCore
from PySide6.support import feature
sys.path.insert(0, sys.argv[1])
read = []
original = inspect.getsource
inspect.getsource = lambda obj, *a, **k: read.append(getattr(obj, "__name__", "")) or original(obj, *a, **k)
if sys.argv[2] == "skip":
    from ndcg_gui.qt.window.pyside_scan import skip_source_scan
    print(skip_source_scan())
else:
    print(None)
import plain_module  # names no Qt module
print("plain_module" in read, feature.pyside_feature_dict.get("plain_module"))
"""


def run(tmp_path, mode: str) -> list[str]:
    (tmp_path / "plain_module.py").write_text("VALUE = 1\n")
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONDONTWRITEBYTECODE": "1"}
    done = subprocess.run([sys.executable, "-c", IMPORT_ONE, str(tmp_path), mode], env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


def test_pyside_reads_the_source_of_a_module_imported_after_it(tmp_path):
    # What the window avoids: the file read, and a module without "PySide6" in it set to -1.
    replaced, was_read, selection = run(tmp_path, "as is")
    if was_read != "True":
        pytest.fail("this PySide6 no longer reads imported modules' sources: pyside_scan can go")
    assert (replaced, selection) == ("None", "-1")


def test_skipped_the_module_is_not_read_and_takes_the_default_of_no_feature(tmp_path):
    assert run(tmp_path, "skip") == ["True", "False", "0"]
