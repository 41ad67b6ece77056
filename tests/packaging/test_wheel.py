"""The wheel carries everything the app needs: built from a copy of the source, installed into a fresh
virtual environment outside the source tree, its `ndcg-gui` draws the same window as the source tree."""

from __future__ import annotations

import shutil
import sys
import zipfile
from pathlib import Path

import pytest
from install_checks import ROOT, assert_same_window, pip_install, reference_screenshot, run, uv

# Builds the sdist and wheel, and installs PySide6 & co. into a new venv: once, on one worker.
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("wheel")]

# Left out of the copy the wheel is built from: caches, the venv, and earlier build output (a stale
# build/lib would hide a file missing from the package list).
IGNORE = shutil.ignore_patterns(".git", ".venv", "build", "dist", "*.egg-info", "__pycache__", ".*cache*")


@pytest.fixture(scope="module")
def release(tmp_path_factory) -> Path:
    """What `make dist` makes, from a clean copy of the source: `python -m build` (the sdist, then the
    wheel built from the sdist, so a file missing from the sdist fails here), in dist/."""
    src = tmp_path_factory.mktemp("src") / "ndcg-gui"
    shutil.copytree(ROOT, src, ignore=IGNORE)
    out = tmp_path_factory.mktemp("dist")
    installer = ["--installer", "uv"] if uv() else []  # the build's isolated env, made by uv too
    run([sys.executable, "-m", "build", *installer, "--outdir", str(out), str(src)], cwd=out)
    return out


@pytest.fixture(scope="module")
def wheel(release) -> Path:
    (built,) = release.glob("ndcg_gui-*.whl")
    return built


def test_the_release_is_an_sdist_and_a_wheel_of_one_version_that_twine_accepts(release):
    from ndcg_gui import __version__

    assert sorted(p.name for p in release.iterdir()) == [
        f"ndcg_gui-{__version__}-py3-none-any.whl", f"ndcg_gui-{__version__}.tar.gz"]
    checked = run([sys.executable, "-m", "twine", "check", "--strict", *map(str, release.iterdir())],
                  cwd=release).stdout
    assert checked.count("PASSED") == 2, checked


@pytest.fixture(scope="module")
def venv(wheel, tmp_path_factory) -> Path:
    """A fresh venv (no --system-site-packages) holding the wheel and its dependencies."""
    env_dir = tmp_path_factory.mktemp("venv") / "env"
    run([sys.executable, "-m", "venv", str(env_dir)], cwd=env_dir.parent)
    pip_install(env_dir, str(wheel))
    return env_dir


def test_wheel_holds_the_resources_in_their_folders(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    for shipped in (ROOT / "resources").rglob("*"):
        if shipped.is_file() and "__pycache__" not in shipped.parts:
            rel = shipped.relative_to(ROOT / "resources").as_posix()
            assert f"ndcg_gui/resources/{rel}" in names


def test_installed_package_is_the_venvs_not_the_source_tree(venv, tmp_path):
    code = (
        "import ndcg_gui, ndcg_gui.assets as a;"
        "print(ndcg_gui.__file__);"
        "print(a.resource('icons/ndcg-gui.svg').is_file(), a.resource(a.EXAMPLE).is_file())"
    )
    out = run([str(venv / "bin" / "python"), "-c", code], cwd=tmp_path).stdout.splitlines()
    assert Path(out[0]).is_relative_to(venv)
    assert out[1] == "True True"


def test_installed_app_loads_its_icon(venv, tmp_path):
    code = (
        "from ndcg_gui.qt.app import make_application;"
        "app = make_application();"
        "print(sorted(s.width() for s in app.windowIcon().availableSizes()))"
    )
    from ndcg_gui.qt.app import ICON_SIZES

    sizes = run([str(venv / "bin" / "python"), "-c", code], cwd=tmp_path).stdout.strip()
    assert sizes == str(sorted(ICON_SIZES))  # every PNG the app asks for was found in the wheel


def test_installed_gui_script_renders_the_window(venv, tmp_path):
    shot = tmp_path / "installed.png"
    run([str(venv / "bin" / "ndcg-gui"), "--screenshot", str(shot)], cwd=tmp_path)
    assert_same_window(shot, reference_screenshot(tmp_path / "reference.png"))


def test_installed_gui_script_reports_its_version(venv, tmp_path):
    from ndcg_gui import __version__

    out = run([str(venv / "bin" / "ndcg-gui"), "--version"], cwd=tmp_path).stdout
    assert out.split() == ["ndcg-gui", __version__]


def test_installed_programs_name_themselves(venv, tmp_path):
    from ndcg_gui import __version__

    for program in ("ndcg-gui", "ndcg-inspect"):
        assert run([str(venv / "bin" / program), "--version"], cwd=tmp_path).stdout.split() == [
            program, __version__]
        assert run([str(venv / "bin" / program), "--help"], cwd=tmp_path).stdout.startswith(
            f"usage: {program} ")


def test_installed_inspect_prints_every_query_without_a_display(venv, tmp_path):
    """`ndcg-inspect` of the sample run: one line per query and "all", with no display at all
    (no QT_QPA_PLATFORM, no DISPLAY): it never imports Qt."""
    from install_checks import clean_env

    env = {k: v for k, v in clean_env().items() if k not in ("QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY")}
    examples = ROOT / "resources" / "examples"
    out = run([str(venv / "bin" / "ndcg-inspect"), str(examples / "sample.run"), "--qrels",
               str(examples / "sample.qrels"), "--format", "tsv"], cwd=tmp_path, env=env).stdout
    lines = out.splitlines()
    assert lines[0].split("\t")[:6] == ["query", "n_docs", "n_judged", "dcg", "idcg", "ndcg"]
    assert lines[-1].startswith("all\t") and len(lines) > 3
    # The installed program prints what the source tree prints, byte for byte.
    source = run([sys.executable, "-m", "ndcg_gui.cli.main", str(examples / "sample.run"), "--qrels",
                  str(examples / "sample.qrels"), "--format", "tsv"], cwd=ROOT).stdout
    assert out == source
