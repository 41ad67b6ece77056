"""What each make target installs on a fresh clone (`make -n` with a venv that does not exist yet):
`make run` the window's dependencies only, `make check` the Python test tools and nothing from
Debian past Qt's libraries, `make test` everything."""

from __future__ import annotations

import shutil
import subprocess

import pytest
from install_checks import ROOT

pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="needs make")


def planned(target: str, tmp_path) -> str:
    """The commands `make TARGET` would run with nothing installed."""
    result = subprocess.run(["make", "-n", target, f"VENV={tmp_path / 'venv'}"], cwd=ROOT,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    return result.stdout


def pip_installs(commands: str) -> list[str]:
    """What uv installs into the venv (after `--python VENV/bin/python`); uv itself comes first."""
    lines = commands.splitlines()
    assert any(line.endswith("-m pip install --quiet uv") for line in lines), commands
    return [line.split("--python ", 1)[1].split(" ", 1)[1].strip() for line in lines
            if "uv pip install " in line]


def test_make_run_installs_the_window_and_nothing_of_the_tests(tmp_path):
    commands = planned("run", tmp_path)
    assert pip_installs(commands) == ["-e ."]
    assert "install-debian-deps.sh --" not in commands  # (the runtime set only)
    assert "-m ndcg_gui" in commands


def test_make_check_needs_no_chromium_java_spark_or_xvfb(tmp_path):
    commands = planned("check", tmp_path)
    # (rbo, which the overlap tests check RBO against, is installed without its stale numpy pin)
    assert pip_installs(commands) == ["-e .", "-e '.[test]'", "--no-deps rbo"]
    assert "install-debian-deps.sh --" not in commands
    assert "xvfb-run" not in commands and "mkdocs" not in commands
    assert '-m "not slow and not system and not xvfb"' in commands


def test_make_test_installs_everything_and_builds_the_docs_strictly(tmp_path):
    commands = planned("test", tmp_path)
    assert "-e '.[test,spark,package,docs]'" in pip_installs(commands)
    for step in ("install-debian-deps.sh --test", "install-debian-deps.sh --java",
                 "mkdocs build --strict", "xvfb-run"):
        assert step in commands, step
