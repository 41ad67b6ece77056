"""Run every benchmarks/bench_*.py script in turn, each in its own process.

    .venv/bin/python benchmarks/run_all.py            # full sizes (several minutes)
    .venv/bin/python benchmarks/run_all.py --quick    # small sizes: check every script runs

Arguments are passed to every script unchanged. Exits non-zero if any script failed.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main(argv: list[str]) -> int:
    scripts = sorted(HERE.glob("bench_*.py"))
    failed = []
    for script in scripts:
        print(f"\n=== {script.name} {' '.join(argv)}", flush=True)
        start = time.perf_counter()
        code = subprocess.call([sys.executable, str(script), *argv], cwd=HERE.parent)
        print(
            f"=== {script.name}: {'ok' if code == 0 else f'failed ({code})'} "
            f"in {time.perf_counter() - start:.0f} s",
            flush=True,
        )
        if code != 0:
            failed.append(script.name)
    if failed:
        print(f"\nfailed: {', '.join(failed)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
