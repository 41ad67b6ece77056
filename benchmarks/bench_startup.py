"""Start-up to the first painted window, whole process: `ndcg-gui` (worked example E1) next to a
bare PySide6 window holding a QTableView and a pyqtgraph PlotWidget (benchmarks/bare_window.py).

    QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/bench_startup.py            # 15 runs each
    QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/bench_startup.py --quick    # 3 runs each
    QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/bench_startup.py --importtime  # what loads

Each run is a fresh process started under first_paint.py, which prints `first-paint` once the
program's window has been painted (the event loop is back after the first Paint event) and ends
it at once; the time is from launch to that line, and the process's CPU time until then. The two
alternate, run after run, so a busy machine slows both alike; the ratio is of the medians.
Settings and the recovery folder point at an empty temporary folder, so no saved layout or
recovery dialog is measured. Compiled modules are cached, as in an installed copy
(`--no-bytecode-cache`: compiled at every launch). `--before DIR` also times the ndcg_gui of
another tree (e.g. `git archive COMMIT | tar -x -C DIR`), to compare commits in one run; given
more than once, each tree takes its turn in every round, and each is also compared with this tree
round by round (the median of the rounds' CPU ratios, steadier than a ratio of medians).
Goal (issue 14): ndcg-gui at most 1.3x the bare window.

`--callgrind` runs each program once under valgrind's callgrind instead and prints the
instructions each executed to its first paint (Ir) and their ratio to the bare window's: a count
that other work on the machine does not move (hash seed fixed), where the CPU time of a shared
machine moves by more than the change being measured. A count is not a time (no cache misses, no
waiting), so it decides between commits; the goal stays a ratio of times.

`--importtime` runs `ndcg-gui` once under `python -X importtime` and prints the modules that took
longest to import (cumulative), and whether pandas, pyarrow and scipy were imported at all.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
GOAL = 1.3
TIMEOUT_S = 60


def environment(folder: Path, bytecode: bool) -> dict[str, str]:
    env = {**os.environ, "QT_QPA_PLATFORM": os.environ.get("QT_QPA_PLATFORM", "offscreen"),
           "XDG_CONFIG_HOME": str(folder / "config"),
           "XDG_DATA_HOME": str(folder / "data"), "NDCG_RECOVERY_DIR": str(folder / "recovery"),
           "PYTHONPATH": str(HERE.parent)}
    if bytecode:
        # As an installed copy runs: compiled modules cached (pip compiles them when it installs; a
        # machine with PYTHONDONTWRITEBYTECODE=1 would compile ndcg_gui's ~80 modules every launch,
        # while the libraries' caches came with them). Cached in the temporary folder, not the tree.
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(folder / "pycache")
    else:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def first_paint(cmd: list[str], env: dict[str, str]) -> tuple[float, float]:
    """(wall, CPU) seconds from launch until the process says its window was painted (it ends
    there, so its CPU time is that of the start-up: less disturbed by other work on the machine)."""
    start = time.perf_counter()
    process = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    timer = threading.Timer(TIMEOUT_S, process.kill)  # a window that never paints (an error dialog)
    timer.start()
    line = process.stdout.readline()
    elapsed = time.perf_counter() - start
    _, status, usage = os.wait4(process.pid, 0)
    timer.cancel()
    process.returncode = os.waitstatus_to_exitcode(status)
    errors = process.stderr.read()
    process.stdout.close()
    process.stderr.close()
    if line.strip() != "first-paint":
        raise RuntimeError(f"{' '.join(cmd)} ended without painting:\n{errors}")
    return elapsed, usage.ru_utime + usage.ru_stime


def bench(runs: int, env: dict[str, str], before: list[Path]) -> None:
    probe = [sys.executable, str(HERE / "first_paint.py")]
    programs = [("bare PySide6 window (QTableView + PlotWidget)", [*probe, str(HERE / "bare_window.py")],
                 env), ("ndcg-gui on E1", [*probe, "-m", "ndcg_gui"], env)]
    for tree in before:
        programs.append((f"ndcg-gui on E1, from {tree}", [*probe, "-m", "ndcg_gui"],
                         {**env, "PYTHONPATH": str(tree.resolve())}))
    for _, cmd, program_env in programs:  # warm the file cache and the bytecode cache
        first_paint(cmd, program_env)
    wall: dict[str, list[float]] = {name: [] for name, _, _ in programs}
    cpu: dict[str, list[float]] = {name: [] for name, _, _ in programs}
    for _ in range(runs):
        for name, cmd, program_env in programs:
            w, c = first_paint(cmd, program_env)
            wall[name].append(w * 1000)
            cpu[name].append(c * 1000)
    bare = programs[0][0]
    for name, _, _ in programs:
        print(f"{name:46s} wall median {statistics.median(wall[name]):4.0f} ms (min {min(wall[name]):.0f}, "
              f"max {max(wall[name]):.0f}); CPU median {statistics.median(cpu[name]):4.0f} ms  ({runs} runs)")
    for name, _, _ in programs[1:]:
        ratio = statistics.median(wall[name]) / statistics.median(wall[bare])
        print(f"ratio {name} / bare window: {ratio:.2f} wall (goal <= {GOAL}); "
              f"{statistics.median(cpu[name]) / statistics.median(cpu[bare]):.2f} CPU; "
              f"{min(wall[name]) / min(wall[bare]):.2f} fastest runs")
    ours = programs[1][0]
    for name, _, _ in programs[2:]:
        paired = statistics.median(o / b for o, b in zip(cpu[ours], cpu[name], strict=True))
        print(f"this tree / {name.removeprefix('ndcg-gui on E1, from ')}: {paired:.3f} CPU "
              f"(median of the {runs} rounds' ratios)")


def instructions(cmd: list[str], env: dict[str, str]) -> int:
    """The instructions `cmd` executed (callgrind's Ir, the process's threads summed) to its first paint."""
    cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *cmd]
    done = subprocess.run(cmd, env={**env, "PYTHONHASHSEED": "0"}, capture_output=True, text=True,
                          check=False, timeout=TIMEOUT_S * 60)  # (callgrind runs ~100x slower)
    found = re.search(r"Collected : (\d+)", done.stderr)
    if "first-paint" not in done.stdout or found is None:
        raise RuntimeError(f"{' '.join(cmd)} ended without painting:\n{done.stderr[-2000:]}")
    return int(found.group(1))


def callgrind(runs: int, env: dict[str, str], before: list[Path]) -> None:
    probe = [sys.executable, str(HERE / "first_paint.py")]
    programs = [("bare PySide6 window (QTableView + PlotWidget)", [*probe, str(HERE / "bare_window.py")],
                 env), ("ndcg-gui on E1", [*probe, "-m", "ndcg_gui"], env)]
    programs += [(f"ndcg-gui on E1, from {tree}", [*probe, "-m", "ndcg_gui"],
                  {**env, "PYTHONPATH": str(tree.resolve())}) for tree in before]
    for _, cmd, program_env in programs:  # compile and cache every module first, as bench() does
        first_paint(cmd, program_env)
    counts: dict[str, list[int]] = {name: [] for name, _, _ in programs}
    for _ in range(runs):
        for name, cmd, program_env in programs:
            counts[name].append(instructions(cmd, program_env))
    bare = statistics.median(counts[programs[0][0]])
    for name, _, _ in programs:
        median = statistics.median(counts[name])
        print(f"{name:46s} {median / 1e6:8.1f} M instructions (runs: "
              f"{', '.join(f'{c / 1e6:.1f}' for c in counts[name])}); {median / bare:.3f} x the bare window")


def importtime(env: dict[str, str], top: int = 25) -> None:
    cmd = [sys.executable, "-X", "importtime", str(HERE / "first_paint.py"), "-m", "ndcg_gui"]
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False, timeout=TIMEOUT_S)
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
    parser.add_argument("--runs", type=int)
    parser.add_argument("--importtime", action="store_true",
                        help="what ndcg-gui imports before its first paint")
    parser.add_argument("--before", type=Path, action="append", default=[],
                        help="also time the ndcg_gui of this tree (e.g. an export of an older commit); "
                             "may be given more than once")
    parser.add_argument("--callgrind", action="store_true",
                        help="count instructions to the first paint under callgrind (--runs: 1 unless given)")
    parser.add_argument("--no-bytecode-cache", action="store_true",
                        help="compile every module at every launch (PYTHONDONTWRITEBYTECODE=1)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        env = environment(Path(folder), bytecode=not args.no_bytecode_cache)
        if args.importtime:
            importtime(env)
        elif args.callgrind:
            callgrind(args.runs or 1, env, args.before)
        else:
            bench(3 if args.quick else args.runs or 15, env, args.before)
    return 0


if __name__ == "__main__":
    sys.exit(main())
