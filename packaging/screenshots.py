"""The screenshot grid looked at before a release (issue 34): the worked example, a CSV with titles
(docs/tour/ranking.csv), a TREC run with its qrels (resources/examples/sample.*) and two runs
compared (sample.run and docs/tour/rerank.run), at 1024x700, 1366x768 and 1920x1080, light and
dark. Each is `ndcg-gui … --size WxH --color-scheme SCHEME --screenshot OUT.png`, the program
drawing itself, into packaging/screenshots/grid/NAME-WxH-SCHEME.png.

    QT_QPA_PLATFORM=offscreen .venv/bin/python packaging/screenshots.py [--only csv,compare]

`--desktop`: the states a person reaches (`desktop.py`: one typed list, a CSV with columns of its
own, a TREC run with qrels, two runs compared with and without qrels, notes on a query), each on a
real desktop: an X server of the size (xvfb-run) with a window manager (openbox: a title bar and
a frame), the window as a person starts it, the screen grabbed, frame and all, into
packaging/screenshots/desktop/STATE-WxH-SCHEME.png; beside each, one line of what it measured
(the window off its screen, texts cut in the tables in view, a Tab that never left a widget).

    .venv/bin/python packaging/screenshots.py --desktop [--only unjudged,notes]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES, TOUR = ROOT / "resources" / "examples", ROOT / "docs" / "tour"
QRELS = ["--qrels", str(EXAMPLES / "sample.qrels")]
CASES = {
    "example": [],
    "csv": [str(TOUR / "ranking.csv")],
    "trec": [str(EXAMPLES / "sample.run"), *QRELS],
    "compare": [str(EXAMPLES / "sample.run"), str(TOUR / "rerank.run"), *QRELS],
}
SIZES = ("1024x700", "1366x768", "1920x1080")
SCHEMES = ("light", "dark")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", default=None, help=f"cases, comma-separated: {', '.join(CASES)} "
                        "(with --desktop: the states of desktop.py)")
    parser.add_argument("--out", type=Path, default=None,
                        help="folder (default packaging/screenshots/grid, or …/desktop)")
    parser.add_argument("--desktop", action="store_true",
                        help="the states a person reaches, on an X server with a window manager")
    options = parser.parse_args(argv)
    if options.desktop:
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        from desktop import desktop_grid  # (beside this file)

        return desktop_grid(options.only, options.out or ROOT / "packaging" / "screenshots" / "desktop")
    options.out = options.out or ROOT / "packaging" / "screenshots" / "grid"
    cases = (options.only or ",".join(CASES)).split(",")
    unknown = sorted(set(cases) - set(CASES))
    if unknown:
        parser.error(f"unknown case {', '.join(unknown)}: one of {', '.join(CASES)}")
    options.out.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "QT_QPA_PLATFORM": os.environ.get("QT_QPA_PLATFORM", "offscreen")}
    failed = 0
    for case in cases:
        for size in SIZES:
            for scheme in SCHEMES:
                out = options.out / f"{case}-{size}-{scheme}.png"
                argv = [sys.executable, "-m", "ndcg_gui", *CASES[case], "--size", size,
                        "--color-scheme", scheme, "--screenshot", str(out)]
                done = subprocess.run(argv, env=env, capture_output=True, text=True)
                said = [line for line in done.stderr.splitlines() if "propagateSizeHints" not in line]
                shown = out.relative_to(ROOT) if out.is_relative_to(ROOT) else out  # --out may be anywhere
                print(f"{shown}" + ("" if done.returncode == 0 else f": failed, {said[-1:]}"))
                failed += done.returncode != 0
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
