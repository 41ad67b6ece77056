"""A pytest plugin that prints, as the run ends, the CPU of the processes pytest started and has not
waited for (Spark's JVM: `/usr/bin/time` counts only waited-for children, so it misses the JVM),
with pytest's own and its waited-for children's:

    PYTHONPATH=benchmarks .venv/bin/python -m pytest -p child_cpu_plugin ...
"""

from __future__ import annotations

import os
from pathlib import Path


def _times(pid: int) -> tuple[float, float]:
    """(own user + system, waited-for children's user + system) seconds of `pid`."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    tick = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / tick, (int(fields[13]) + int(fields[14])) / tick


def _children(pid: int) -> list[int]:
    out = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            out += [int(c) for c in (task / "children").read_text().split()]
        except OSError:  # (a thread that ended since the listing)
            continue
    return out


def pytest_unconfigure(config) -> None:
    own, waited = _times(os.getpid())
    running, seen = 0.0, [os.getpid()]
    while seen:
        for child in _children(seen.pop()):
            try:
                mine, theirs = _times(child)
            except OSError:
                continue
            running += mine + theirs
            seen.append(child)
    print(f"\nchild_cpu_plugin: pytest {own:.1f} s, its waited-for children {waited:.1f} s, "
          f"its running children (the JVM) {running:.1f} s: {own + waited + running:.1f} s of CPU")
