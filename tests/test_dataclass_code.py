"""The dataclasses' methods taken from the file of compiled texts (`ndcg_gui.dataclass_code`): a
class made with them behaves as one made without (its __init__, defaults, __repr__, __eq__,
__hash__, frozen fields, `replace`, `fields`); a second launch compiles none of the texts the first
did; a damaged or another Python's file is ignored; nothing is written where bytecode would not
be; outside the block `dataclasses` compiles as it does; the window's entry point uses it."""

from __future__ import annotations

import dataclasses
import importlib.util
import marshal
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ndcg_gui import dataclass_code
from ndcg_gui.dataclass_code import CompiledTexts, cached

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def bytecode_written(monkeypatch):
    """As an installed copy runs (this machine may set PYTHONDONTWRITEBYTECODE)."""
    monkeypatch.setattr(sys, "dont_write_bytecode", False)


def make_classes():
    @dataclasses.dataclass(frozen=True)
    class Point:
        x: int
        y: float = 0.5
        tags: tuple[str, ...] = ()
        notes: list[str] = dataclasses.field(default_factory=list, compare=False)

    @dataclasses.dataclass(order=True)
    class Rank:
        rank: int
        doc: str = "d"

    return Point, Rank


def behaviour(point_cls, rank_cls) -> list[object]:
    p = point_cls(1, tags=("a",))
    q = point_cls(1, 0.5, ("a",), ["other notes"])
    seen = [repr(p), p == q, hash(p) == hash(q), dataclasses.replace(p, x=3),
            [f.name for f in dataclasses.fields(p)], p.notes]
    with pytest.raises(dataclasses.FrozenInstanceError):
        p.x = 2
    with pytest.raises(dataclasses.FrozenInstanceError):
        del p.y
    with pytest.raises(TypeError):
        point_cls()
    r = rank_cls(2)
    r.doc = "e"
    seen += [repr(r), sorted([rank_cls(3), r, rank_cls(1, "z")]), r < rank_cls(2, "f"), r.__hash__ is None]
    return [s if isinstance(s, bool) else repr(s) for s in seen]


def test_a_class_made_from_the_file_behaves_as_one_made_without(tmp_path):
    plain = behaviour(*make_classes())
    path = tmp_path / "texts.marshal"
    with cached(path) as first:
        compiled = behaviour(*make_classes())
    assert first.compiled == 0 and path.exists()  # (saved: the count reset)
    with cached(path) as second:
        from_file = behaviour(*make_classes())
    assert second.compiled == 0 and len(second.known) >= 7  # every method read, none compiled
    assert plain == compiled == from_file


def test_outside_the_block_dataclasses_compiles_as_before(tmp_path):
    with cached(tmp_path / "texts.marshal"):
        assert dataclasses.exec.__self__ is not None
    assert "exec" not in vars(dataclasses)
    make_classes()


@pytest.mark.parametrize("content", [b"", b"not marshal", marshal.dumps((b"\x00\x00\r\n", (("x", 1),)))])
def test_a_damaged_or_another_pythons_file_is_ignored(tmp_path, content):
    path = tmp_path / "texts.marshal"
    path.write_bytes(content)
    with cached(path) as texts:
        assert texts.known == {}
        behaviour(*make_classes())
    assert texts.compiled == 0  # written anew
    assert marshal.loads(path.read_bytes())[0] == importlib.util.MAGIC_NUMBER


def test_nothing_is_written_where_bytecode_would_not_be(tmp_path, monkeypatch):
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    path = tmp_path / "texts.marshal"
    with cached(path):
        make_classes()
    assert not path.exists()
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    folder = tmp_path / "read-only"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        texts = CompiledTexts(folder / "sub" / "texts.marshal")
        texts.compiled = 1
        assert texts.save() is False or os.geteuid() == 0  # (root writes anywhere)
    finally:
        folder.chmod(0o700)


def test_the_file_sits_beside_the_bytecode_cache(monkeypatch, tmp_path):
    monkeypatch.setattr(sys, "pycache_prefix", str(tmp_path))
    path = dataclass_code.cache_file()
    assert path is not None and str(path).startswith(str(tmp_path)) and path.suffix == ".marshal"


def test_a_second_launch_of_the_window_compiles_no_dataclass_text(tmp_path):
    """The window's entry point keeps the texts (a screenshot run: options parsed, modules
    imported); the next launch's imports then compile none of them."""
    env = {**os.environ, "PYTHONPYCACHEPREFIX": str(tmp_path / "pycache"), "QT_QPA_PLATFORM": "offscreen",
           "PYTHONPATH": str(ROOT), "XDG_CONFIG_HOME": str(tmp_path / "config"),
           "XDG_DATA_HOME": str(tmp_path / "data"), "NDCG_RECOVERY_DIR": str(tmp_path / "recovery")}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    subprocess.run([sys.executable, "-m", "ndcg_gui", "--screenshot", str(tmp_path / "shot.png")], env=env,
                   capture_output=True, check=True, timeout=120)
    written = list((tmp_path / "pycache").rglob("*.marshal"))
    assert len(written) == 1
    probe = ("from ndcg_gui.dataclass_code import cached\n"
             "with cached() as texts:\n"
             "    import ndcg_gui.qt.app\n"
             "    print(texts.compiled, len(texts.used))\n")
    out = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True, check=True,
                         timeout=120).stdout.split()
    compiled, used = int(out[0]), int(out[1])
    assert compiled == 0 and used > 100, out


@pytest.mark.parametrize("planted", ["fifo", "link", "shared", "huge"])
def test_a_file_planted_at_its_name_is_passed_over_and_replaced(tmp_path, planted, monkeypatch):
    """Read as the engines' caches are (core.kept): a FIFO at the name is not waited on, a link not
    followed (nor written through), a file others may write is not trusted, a giant one not read."""
    path, elsewhere = tmp_path / "texts.marshal", tmp_path / "elsewhere"
    with cached(path):  # (a good file of this launch's texts, to plant instead of)
        make_classes()
    good = path.read_bytes()
    path.unlink()
    if planted == "fifo":
        os.mkfifo(path)
    elif planted == "link":
        elsewhere.write_bytes(good)
        path.symlink_to(elsewhere)
    elif planted == "shared":
        path.write_bytes(good)
        path.chmod(0o666)
    else:
        monkeypatch.setattr("ndcg_gui.dataclass_code.MAX_BYTES", len(good) - 1)
        path.write_bytes(good)
    texts = CompiledTexts(path)  # (returns: no read waits on the FIFO)
    assert texts.known == {}
    if planted == "huge":
        return  # (its own texts are over the bound: nothing is written either)
    with cached(path) as again:
        assert again.known == {}
        make_classes()
    assert not path.is_symlink() and path.is_file()  # (a file of its own written over the name)
    assert marshal.loads(path.read_bytes())[0] == importlib.util.MAGIC_NUMBER
    assert CompiledTexts(path).known  # (and trusted at the next launch)
    if planted == "link":
        assert elsewhere.read_bytes() == good  # (the link's target untouched)
