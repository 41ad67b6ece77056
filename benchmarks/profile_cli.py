"""Where `ndcg-inspect`'s time goes: the command run in this process with timers around its steps.

    .venv/bin/python benchmarks/profile_cli.py benchmarks/.data/shape-300000x10.run \
        --qrels benchmarks/.data/shape-300000x10.qrels --format tsv

Each step named in STEPS (a function, looked up by its dotted name where it is called from) is
wrapped with a timer; the table gives each step's wall seconds and this thread's CPU seconds,
inclusive (a step inside another counts in both), and its share of the command's wall time.
Arrow's reading threads work outside this thread: the parse shows more wall than CPU. A step
that is not found (moved, renamed) is left out with a note. The output goes to /dev/null.

Memory: a thread reads the process's resident set (`/proc/self/statm`, Linux) every millisecond;
the table gives each step's resident set when it starts and the highest seen while it runs, and
the steps that were running at the process's peak.
"""

from __future__ import annotations

import functools
import importlib
import os
import sys
import threading
import time

# (module whose name is called, attribute): the direct path of `ndcg-inspect RUN --qrels Q`.
STEPS = [
    ("ndcg_gui.core.reading.direct", "read_source"),
    ("ndcg_gui.core.reading.direct", "read_pool"),
    ("ndcg_gui.core.formats.trec_text", "read_run"),
    ("ndcg_gui.core.formats.trec_text", "read_plain_run"),
    ("ndcg_gui.core.reading.direct", "_keys"),
    ("ndcg_gui.core.reading.direct", "refuse_repeats"),
    ("ndcg_gui.core.reading.direct", "label_union"),
    ("ndcg_gui.core.reading.direct", "score_key"),
    ("ndcg_gui.core.ndcg.evaluate", "_top_rows"),
    ("ndcg_gui.core.ndcg.evaluate", "ranked"),
    ("ndcg_gui.core.ndcg.evaluate", "lookup"),
    ("ndcg_gui.core.ndcg.evaluate", "score_ranked"),
    ("ndcg_gui.core.reading.direct", "summary_frame"),
    ("ndcg_gui.core.reading.direct", "summarise"),
    ("ndcg_gui.cli.main", "render"),
    ("ndcg_gui.cli.main", "note_not_finite"),
]

wall: dict[str, float] = {}
cpu: dict[str, float] = {}
entered: dict[str, float] = {}  # MB resident when the step first started
highest: dict[str, float] = {}  # MB, the most seen while it ran
running: list[str] = []
peak: list = [0.0, ()]  # MB, the steps running then


def resident_mb() -> float:
    try:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 1e6
    except OSError:  # not Linux
        return 0.0


def sample(stop: threading.Event) -> None:
    while not stop.wait(0.001):
        mb = resident_mb()
        for name in running:
            highest[name] = max(highest.get(name, 0.0), mb)
        if mb > peak[0]:
            peak[:] = [mb, tuple(running)]


def timed(name: str, function):
    @functools.wraps(function)
    def step(*args, **kwargs):
        w, c = time.perf_counter(), time.thread_time()
        entered.setdefault(name, resident_mb())
        running.append(name)
        try:
            return function(*args, **kwargs)
        finally:
            running.remove(name)
            wall[name] = wall.get(name, 0.0) + time.perf_counter() - w
            cpu[name] = cpu.get(name, 0.0) + time.thread_time() - c
    return step


def main() -> None:
    start = time.perf_counter()
    from ndcg_gui.core.memory import tune_process

    tune_process()  # as `ndcg-inspect` does
    from ndcg_gui.cli import main as cli
    from ndcg_gui.core.arrays import ids

    for module_name, attribute in STEPS:
        module = importlib.import_module(module_name)
        if not hasattr(module, attribute):
            print(f"(no {module_name}.{attribute}: left out)")
            continue
        setattr(module, attribute, timed(attribute, getattr(module, attribute)))
    groups_of = ids.Groups.of
    ids.Groups.of = timed("Groups.of", groups_of)
    imported = time.perf_counter() - start
    sys.stdout.flush()
    out, sys.stdout = sys.stdout, open(os.devnull, "w")  # noqa: SIM115
    stop = threading.Event()
    sampler = threading.Thread(target=sample, args=(stop,), daemon=True)
    before = resident_mb()
    sampler.start()
    w, c = time.perf_counter(), time.thread_time()
    code = cli.main(sys.argv[1:])
    stop.set()
    sampler.join()
    total_wall, total_cpu = time.perf_counter() - w, time.thread_time() - c
    sys.stdout.close()
    sys.stdout = out
    print(f"exit {code}; imports before the command {imported:.3f} s; the command {total_wall:.3f} s wall, "
          f"{total_cpu:.3f} s CPU (this thread)")
    print(f"resident set: {before:.0f} MB before the command, peak {peak[0]:.0f} MB during "
          f"{' > '.join(peak[1]) or 'no step'}")
    print(f"{'step':<18}{'wall s':>8}{'CPU s':>8}{'share':>7}{'MB in':>8}{'MB max':>8}")
    for name in sorted(wall, key=wall.get, reverse=True):
        print(f"{name:<18}{wall[name]:8.3f}{cpu[name]:8.3f}{wall[name] / total_wall:7.0%}"
              f"{entered.get(name, 0):8.0f}{highest.get(name, 0):8.0f}")


if __name__ == "__main__":
    main()
