"""`ndcg-inspect RUN --qrels Q --format tsv` beside pytrec_eval and trec_eval's C program, whole
processes, on every shape of issue 36: one command for all of it.

    .venv/bin/python benchmarks/bench_shapes.py                  # 4 shapes, 3 counted rounds each
    .venv/bin/python benchmarks/bench_shapes.py --rounds 5 --shapes 300000x10
    .venv/bin/python benchmarks/bench_shapes.py --base /work/wt/base   # and an older checkout's code
    .venv/bin/python benchmarks/bench_shapes.py --quick          # small shapes: check it runs

The contenders, each a fresh process printing every query's NDCG@10 into a file:
- ours: the installed `ndcg-inspect RUN --qrels QRELS --format tsv` (k=10 by default);
- pytrec_eval: a script that parses both files with `parse_run` / `parse_qrel`, evaluates
  `ndcg_cut.10` and prints each query (`PYTREC` below; imports included, as for ours);
- trec_eval: `trec_eval -q -m ndcg_cut.10 QRELS RUN`, built by this script from the C source
  vendored in tests/data/trec_eval/src (version 10.0, as tests/core/test_against_trec_eval_program.py
  builds it) when `cc` and `make` are there, else left out;
- base (with --base DIR): the same command as ours run from another checkout's code
  (`PYTHONPATH=DIR`), e.g. a `git worktree` of the commit before a change.

Rounds: one warm-up (the page cache, compiled modules), then `--rounds` counted ones; in a
round every contender runs once, in an order that rotates from round to round, so a machine
that slows down midway slows everyone. Each figure is the median of the counted runs; a ratio
is taken round by round (ours / peer in the same round) and its median quoted with the min and
max. Time is wall-clock seconds from start to exit (the goal's figure), CPU the process's user +
system seconds (steadier than wall time on a busy machine, and beside it the cost to a shared
one); memory is the process's own peak resident set (`wait4`'s `ru_maxrss`). trec_eval's time
grows with the square of the number of queries (it looks each query up in a list): a run that
passes `--trec-eval-timeout` is stopped and reported as "> T s", once, not again in later rounds.

The per-query figures are compared too: ours against pytrec_eval's to 1e-9, ours against
trec_eval's four decimals (half a unit of the last one).

Files (`shapes_data.py`): seeded TREC runs and qrels made once in benchmarks/.data/.
"""

from __future__ import annotations

import argparse
import math
import os
import shutil
import statistics
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from shapes_data import DATA, make_shape  # noqa: E402

ROOT = HERE.parent
PYTHON = sys.executable
SOURCE = ROOT / "tests" / "data" / "trec_eval" / "src"
SHAPES = ["2000x1000", "300000x10", "10x200000", "50000x100"]
QUICK = ["200x100", "20000x10", "2x20000"]
GOALS = {"pytrec_eval": 0.5, "trec_eval": 0.6}  # time, ours / theirs at most
TREC_SHAPE_DOCS = 1000  # memory at most 1.5x trec_eval's on the TREC shape (1,000 documents a query)


def _verdict(peer: str, time_ratio: float, memory_ratio: float, docs: int) -> tuple[str, str]:
    """What the goals of issue 36 say of a pair of ratios, as notes to print."""
    if peer not in GOALS:
        return "", ""
    goal = GOALS[peer]
    timed = f" (goal ≤ {goal}: {'met' if time_ratio <= goal else 'missed'})"
    if peer == "pytrec_eval":
        return timed, f" (goal < 1: {'met' if memory_ratio < 1 else 'missed'})"
    if docs == TREC_SHAPE_DOCS:
        return timed, f" (goal ≤ 1.5: {'met' if memory_ratio <= 1.5 else 'missed'})"
    return timed, ""

PYTREC = """
import sys
import pytrec_eval
with open(sys.argv[1]) as f:
    run = pytrec_eval.parse_run(f)
with open(sys.argv[2]) as f:
    qrels = pytrec_eval.parse_qrel(f)
result = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg_cut.10"}).evaluate(run)
sys.stdout.writelines(f"{q}\\t{m['ndcg_cut_10']!r}\\n" for q, m in result.items())
"""

# As an installed copy runs: compiled modules cached (with PYTHONDONTWRITEBYTECODE=1, as on this
# machine, every launch would compile ndcg_gui's modules again). Cached beside the data.
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
ENV["PYTHONPYCACHEPREFIX"] = str(DATA / "pycache")


@dataclass
class Contender:
    name: str
    command: list[str]
    env: dict[str, str] = field(default_factory=lambda: dict(ENV))
    walls: list[float] = field(default_factory=list)
    peaks: list[float] = field(default_factory=list)
    cpus: list[float] = field(default_factory=list)  # user + system seconds
    timed_out: float | None = None  # the bound it passed, if it did
    output: Path | None = None


def build_trec_eval() -> Path | None:
    """trec_eval built from the vendored source into benchmarks/.data (once), or None."""
    compiler, make = shutil.which("cc") or shutil.which("gcc"), shutil.which("make")
    if compiler is None or make is None:
        print("trec_eval: left out (no C compiler or make to build tests/data/trec_eval/src)")
        return None
    folder = DATA / "trec_eval"
    binary = folder / "trec_eval"
    if not binary.exists():
        shutil.copytree(SOURCE, folder, dirs_exist_ok=True)
        flags = 'CFLAGS=-O2 -I. -w -DVERSIONID=\\"10.0\\"'
        built = subprocess.run([make, "-s", "trec_eval", f"CC={compiler}", flags], cwd=folder,
                               capture_output=True, text=True, check=False)
        if built.returncode:
            print(f"trec_eval: left out (the build failed: {built.stderr.strip()[-300:]})")
            return None
    return binary


# A small process that starts the command and reports its wall time and peak memory: the kernel
# counts into a child's peak the memory of the process it was forked from (kept through `exec`),
# so the command is forked from this ~5 MB launcher, not from the benchmark's own process.
LAUNCH = """
import os, sys, time
start = time.perf_counter()
pid = os.fork()
if pid == 0:
    os.execvp(sys.argv[2], sys.argv[2:])
_, status, usage = os.wait4(pid, 0)
wall = time.perf_counter() - start
with open(sys.argv[1], "w") as out:
    cpu = usage.ru_utime + usage.ru_stime
    out.write(f"{wall} {usage.ru_maxrss / 1024} {cpu} {os.waitstatus_to_exitcode(status)}")
"""


def run_once(who: Contender, out: Path, timeout: float | None) -> tuple[float, float, float] | None:
    """(wall seconds, peak MB, CPU seconds) of one run writing its stdout into `out`; None when it passed
    `timeout` (then killed)."""
    report = out.with_suffix(".measured")
    report.unlink(missing_ok=True)
    with open(out, "wb") as sink:
        process = subprocess.Popen([PYTHON, "-S", "-E", "-c", LAUNCH, str(report), *who.command], stdout=sink,
                                   stderr=subprocess.PIPE, env=who.env, start_new_session=True)
        try:
            _, errors = process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, 9)
            process.communicate()
            return None
    wall, peak, cpu, code = report.read_text().split()
    if int(code):
        said = errors.decode(errors="replace")
        raise SystemExit(f"{who.name} failed ({code}): {' '.join(who.command)}\n{said}")
    return float(wall), float(peak), float(cpu)


def per_query(who: str, path: Path) -> dict[str, float]:
    """query -> NDCG@10 as printed by each program."""
    found: dict[str, float] = {}
    with open(path) as f:
        for line in f:
            fields = line.split()
            if who == "trec_eval":
                if len(fields) == 3 and fields[1] != "all":
                    found[fields[1]] = float(fields[2])
            elif who == "pytrec_eval":
                found[fields[0]] = float(fields[1])
            elif fields and fields[0] == "query":  # ours: the header says where ndcg is
                column = fields.index("ndcg")
            elif fields and fields[0] != "all":
                found[fields[0]] = float(fields[column])
    return found


def agreement(ours: dict[str, float], theirs: dict[str, float], tolerance: float) -> str:
    if set(ours) != set(theirs):
        return f"query sets differ ({len(set(ours) ^ set(theirs))} queries in one only)"
    differ = sum(not math.isclose(ours[q], v, rel_tol=0, abs_tol=tolerance) for q, v in theirs.items())
    if differ:
        return f"{differ:,} of {len(theirs):,} queries differ"
    return f"the same ({len(theirs):,} queries)"


def bench_shape(shape: str, trec_eval: Path | None, base: Path | None, rounds: int, timeout: float
                ) -> list[str]:
    queries, docs = map(int, shape.split("x"))
    run, qrels = make_shape(queries, docs)
    contenders = [
        Contender("ours", [str(Path(PYTHON).with_name("ndcg-inspect")), str(run), "--qrels", str(qrels),
                           "--format", "tsv"]),
        Contender("pytrec_eval", [PYTHON, "-c", PYTREC, str(run), str(qrels)]),
    ]
    if trec_eval is not None:
        command = [str(trec_eval), "-q", "-m", "ndcg_cut.10", str(qrels), str(run)]
        contenders.append(Contender("trec_eval", command))
    if base is not None:
        code = "from ndcg_gui.cli import run; run()"
        # (-P: the working directory's own ndcg_gui never goes before PYTHONPATH's)
        command = [PYTHON, "-P", "-c", code, str(run), "--qrels", str(qrels), "--format", "tsv"]
        contenders.append(Contender("base", command, env={**ENV, "PYTHONPATH": str(base)}))
    size = run.stat().st_size / 2**20
    print(f"\n{shape}: {queries * docs:,} run lines ({size:.0f} MiB), qrels "
          f"{qrels.stat().st_size / 2**20:.0f} MiB", flush=True)
    for i in range(rounds + 1):
        turn = contenders[i % len(contenders):] + contenders[:i % len(contenders)]
        for who in turn:
            if who.timed_out is not None:
                continue
            who.output = DATA / f"out-{shape}-{who.name}.txt"
            measured = run_once(who, who.output, timeout if who.name == "trec_eval" else None)
            if measured is None:
                who.timed_out = timeout
                who.walls.clear()
                print(f"  {who.name}: stopped after {timeout:.0f} s (round {i})", flush=True)
                continue
            if i:  # (round 0 warms up)
                who.walls.append(measured[0])
                who.peaks.append(measured[1])
                who.cpus.append(measured[2])
    ours = contenders[0]
    figures = per_query("ours", ours.output)
    rows = []
    for who in contenders:
        if who.timed_out is not None:
            print(f"  {who.name:<12} > {who.timed_out:.0f} s")
            continue
        runs = ", ".join(f"{w:.2f}" for w in who.walls)
        print(f"  {who.name:<12} {statistics.median(who.walls):6.2f} s ({runs}), "
              f"CPU {statistics.median(who.cpus):6.2f} s, peak {statistics.median(who.peaks):5.0f} MB",
              flush=True)
    for who in contenders[1:]:
        line = f"| {shape} | {who.name} | "
        if who.timed_out is not None:
            low = statistics.median(ours.walls) / who.timed_out
            line += f"{statistics.median(ours.walls):.2f} s | > {who.timed_out:.0f} s | < {low:.3f} | — | "
            line += f"— | {statistics.median(ours.peaks):.0f} / — MB | not compared |"
            rows.append(line)
            print(f"  ours / {who.name}: < {low:.3f} (it did not finish)")
            continue
        ratios = [a / b for a, b in zip(ours.walls, who.walls, strict=True)]
        memory = statistics.median(ours.peaks) / statistics.median(who.peaks)
        cpu = statistics.median(a / b for a, b in zip(ours.cpus, who.cpus, strict=True))
        tolerance = 5e-5 + 1e-9 if who.name == "trec_eval" else 1e-9
        same = agreement(figures, per_query(who.name, who.output), tolerance) if who.name != "base" else \
            agreement(figures, per_query("ours", who.output), 0.0)
        time_goal, memory_goal = _verdict(who.name, statistics.median(ratios), memory, docs)
        print(f"  ours / {who.name}: time {statistics.median(ratios):.2f} (min {min(ratios):.2f}, max "
              f"{max(ratios):.2f}){time_goal}; CPU {cpu:.2f}; peak memory {memory:.2f}{memory_goal}; "
              f"per-query NDCG@10 {same}", flush=True)
        rows.append(f"| {shape} | {who.name} | {statistics.median(ours.walls):.2f} s | "
                    f"{statistics.median(who.walls):.2f} s | **{statistics.median(ratios):.2f}** | "
                    f"{min(ratios):.2f}-{max(ratios):.2f} | {cpu:.2f} | "
                    f"{statistics.median(ours.peaks):.0f} / "
                    f"{statistics.median(who.peaks):.0f} MB ({memory:.2f}) | {same} |")
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--shapes", nargs="+", metavar="QxD",
                        help=f"queries x docs (default {' '.join(SHAPES)})")
    parser.add_argument("--rounds", type=int, default=3, help="counted rounds after the warm-up (default 3)")
    parser.add_argument("--trec-eval-timeout", type=float, default=120.0, metavar="S",
                        help="stop trec_eval after S seconds (default 120)")
    parser.add_argument("--base", type=Path, metavar="DIR", help="also time the command from this checkout")
    parser.add_argument("--quick", action="store_true", help="small shapes, one round: check the script runs")
    options = parser.parse_args()
    shapes = options.shapes or (QUICK if options.quick else SHAPES)
    rounds = 1 if options.quick else options.rounds
    trec_eval = build_trec_eval()
    load = os.getloadavg()[0]
    print(f"{os.cpu_count()} cores, load average {load:.1f} at the start; {rounds} counted rounds")
    rows = []
    for shape in shapes:
        rows += bench_shape(shape, trec_eval, options.base, rounds, options.trec_eval_timeout)
    print(f"\nload average {os.getloadavg()[0]:.1f} at the end\n")
    print("| shape | peer | ours | peer's | ours / peer (median) | min-max | CPU ours / peer "
          "| peak memory ours / peer (ratio) | per-query NDCG@10 |")
    print("|---|---|---|---|---|---|---|---|---|")
    print("\n".join(rows))


if __name__ == "__main__":
    main()
