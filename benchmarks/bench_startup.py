"""Start-up to the first painted window, whole process: `ndcg-gui` (worked example E1) next to a
bare PySide6 window holding a QTableView and a pyqtgraph PlotWidget (benchmarks/bare_window.py).

    QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/bench_startup.py            # 15 runs each
    QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/bench_startup.py --quick    # 3 runs each
    QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/bench_startup.py --importtime  # what loads

Each run is a fresh process launched with NDCG_GUI_FIRST_PAINT_PROBE=1: both programs print
`first-paint` once their window has been painted (the event loop is back after the first Paint
event) and end at once. The time is from launch to that line. The two alternate, run after run,
so a busy machine slows both alike; the ratio is of the medians. Settings and the recovery folder
point at an empty temporary folder, so no saved layout or recovery dialog is measured.
Goal (issue 14): ndcg-gui at most 1.3x the bare window.

`--importtime` runs `ndcg-gui` once under `python -X importtime` and prints the modules that took
longest to import (cumulative), and whether pandas, pyarrow and scipy were imported at all.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
GOAL = 1.3


def environment(folder: Path) -> dict[str, str]:
    return {**os.environ, "QT_QPA_PLATFORM": os.environ.get("QT_QPA_PLATFORM", "offscreen"),
            "NDCG_GUI_FIRST_PAINT_PROBE": "1", "XDG_CONFIG_HOME": str(folder / "config"),
            "XDG_DATA_HOME": str(folder / "data"), "NDCG_RECOVERY_DIR": str(folder / "recovery"),
            "PYTHONPATH": os.pathsep.join(filter(None, [str(HERE.parent), os.environ.get("PYTHONPATH")]))}


def first_paint(cmd: list[str], env: dict[str, str]) -> float:
    """Seconds from launch until the process says its window was painted."""
    start = time.perf_counter()
    process = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    line = process.stdout.readline()
    elapsed = time.perf_counter() - start
    process.wait()
    if line.strip() != "first-paint":
        raise RuntimeError(f"{' '.join(cmd)} ended without painting (exit {process.returncode})")
    return elapsed


def bench(runs: int, env: dict[str, str]) -> None:
    programs = {"bare PySide6 window (QTableView + PlotWidget)":
                [sys.executable, str(HERE / "bare_window.py")],
                "ndcg-gui on E1": [sys.executable, "-m", "ndcg_gui"]}
    for cmd in programs.values():  # warm the file cache: the first launch reads every .so from disk
        first_paint(cmd, env)
    times: dict[str, list[float]] = {name: [] for name in programs}
    for _ in range(runs):
        for name, cmd in programs.items():
            times[name].append(first_paint(cmd, env) * 1000)
    medians = {}
    for name, values in times.items():
        medians[name] = statistics.median(values)
        print(f"{name:48s} median {medians[name]:5.0f} ms  (min {min(values):.0f}, max {max(values):.0f}, "
              f"{runs} runs)")
    bare, ours = medians.values()
    print(f"ratio ndcg-gui / bare window: {ours / bare:.2f}  (goal <= {GOAL})")


def importtime(env: dict[str, str], top: int = 25) -> None:
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "ndcg_gui"], env=env,
                          capture_output=True, text=True, check=False)
    rows = []
    for line in done.stderr.splitlines():
        if line.startswith("import time:") and "cumulative" not in line:
            self_us, cumulative, name = line.removeprefix("import time:").split("|")
            rows.append((int(cumulative), int(self_us), name.rstrip()))
    names = {name.strip() for _, _, name in rows}
    print(f"{len(names)} modules imported; pandas {'yes' if 'pandas' in names else 'no'}, "
          f"pyarrow {'yes' if 'pyarrow' in names else 'no'}, scipy {'yes' if 'scipy' in names else 'no'}")
    for cumulative, self_us, name in sorted(rows, reverse=True)[:top]:
        print(f"{cumulative / 1000:7.1f} ms cumulative {self_us / 1000:6.1f} ms self  {name}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="3 runs each, to check the script runs")
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--importtime", action="store_true",
                        help="what ndcg-gui imports before its first paint")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        env = environment(Path(folder))
        if args.importtime:
            importtime(env)
        else:
            bench(3 if args.quick else args.runs, env)
    return 0


if __name__ == "__main__":
    sys.exit(main())
