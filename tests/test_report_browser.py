"""The HTML reports in a real browser: headless Chromium renders the run report and the comparison
report that `ndcg-inspect --report` writes, the text it lays out is checked (`--dump-dom`, after
the page's script ran), clicking a header sorts the table, and a PNG is made to look at.

Skipped only when Chromium is missing outside CI: with CI set, a missing Chromium fails (the
repo's set-up for make test, packaging/install-debian-deps.sh --test, installs it)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from ndcg_gui.cli.main import main

EXAMPLES = Path(__file__).resolve().parents[1] / "resources" / "examples"
CHROMIUM = next(
    (shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome") if shutil.which(n)), None)
IN_CI = os.environ.get("CI", "").lower() not in ("", "0", "false")
# What `chromium` waits for is the browser's exit once it has rendered the page; this only ends a
# browser that hangs. Generous: a busy machine took Chromium past a fixed 120 s.
BROWSER_SECONDS = 900

pytestmark = pytest.mark.system  # (Chromium: make test installs it, make check does without)

if CHROMIUM is None and not IN_CI:
    pytest.skip("Chromium is not installed (packaging/install-debian-deps.sh --test installs it)",
                allow_module_level=True)


def chromium(*args: str) -> subprocess.CompletedProcess:
    if CHROMIUM is None:
        pytest.fail("CI is set but Chromium is missing: run packaging/install-debian-deps.sh --test as root")
    with tempfile.TemporaryDirectory() as profile:
        try:
            return subprocess.run(
                [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run",
                 f"--user-data-dir={profile}", *args],
                capture_output=True, text=True, timeout=BROWSER_SECONDS)
        except subprocess.TimeoutExpired:
            pytest.fail(f"Chromium did not exit within {BROWSER_SECONDS} s of being asked for "
                        f"{' '.join(args)}: it hangs")


def rendered_text(url: str) -> str:
    result = chromium("--dump-dom", url)
    assert result.returncode == 0, result.stderr[-2000:]
    dom = re.sub(r"<(script|style)>.*?</\1>", "", result.stdout, flags=re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", dom)).replace("&amp;", "&")


def screenshot(url: str, out: Path) -> None:
    result = chromium(f"--screenshot={out}", "--window-size=1280,2000", url)
    assert result.returncode == 0, result.stderr[-2000:]
    data = out.read_bytes()
    assert data.startswith(b"\x89PNG") and len(data) > 20_000  # a page, not a blank square
    shots = os.environ.get("NDCG_REPORT_SHOTS")  # a folder to keep them in, to look at
    if shots:
        shutil.copy(out, Path(shots) / out.name)


@pytest.fixture(scope="module")
def reports(tmp_path_factory):
    folder = tmp_path_factory.mktemp("reports")
    run, qrels = EXAMPLES / "sample.run", EXAMPLES / "sample.qrels"
    # a second run: each query's first and third documents swapped
    lines, out = run.read_text().splitlines(), []
    by_query: dict[str, list[list[str]]] = {}
    for line in lines:
        by_query.setdefault(line.split()[0], []).append(line.split())
    for rows in by_query.values():
        rows[0], rows[2] = rows[2], rows[0]
        out += [f"{r[0]} Q0 {r[2]} {n} {100 - n} swapped" for n, r in enumerate(rows, start=1)]
    swapped = folder / "swapped.run"
    swapped.write_text("\n".join(out) + "\n")
    one, two = folder / "run.html", folder / "compare.html"
    assert main([str(run), "--qrels", str(qrels), "--report", str(one)]) == 0
    assert main([str(run), str(swapped), "--qrels", str(qrels), "--report", str(two)]) == 0
    return one, two


def test_the_run_report_renders(reports, tmp_path):
    one, _ = reports
    text = rendered_text(one.as_uri())
    assert "NDCG@10 of sample" in text and "Mean NDCG@10 = 0.5613 over 25 of 25 queries" in text
    assert "The 5 worst queries" in text and "Query 412: NDCG@10 0.0610" in text
    assert "What would fix it" in text and "move FT412-2416 (grade 2) from rank 12 to 1" in text
    assert "sample.qrels" in text and "sha256" in text
    screenshot(one.as_uri(), tmp_path / "run-report.png")


def test_the_comparison_report_renders(reports, tmp_path):
    _, two = reports
    text = rendered_text(two.as_uri())
    assert "NDCG@10: swapped against sample" in text
    assert re.search(r"(No significant difference between swapped and sample|swapped is (better|worse) than "
                     r"sample)", text)
    assert "Statistics" in text and "W / T / L" in text and "Every query" in text
    assert "The biggest losses of swapped" in text and "What moved" in text
    screenshot(two.as_uri(), tmp_path / "compare-report.png")


def test_clicking_a_header_sorts_the_table(reports, tmp_path):
    """The page's own script, in the browser: a click on "Δ swapped" sorts the rows by it."""
    _, two = reports
    html = two.read_text()
    click = ("<script>var th = Array.prototype.filter.call(document.querySelectorAll('table.sortable th'),"
             " function (h) { return h.textContent.indexOf('Δ swapped') === 0; })[0]; th.click();</script>")
    clicked = tmp_path / "clicked.html"
    clicked.write_text(html.replace("</body>", click + "</body>"))
    dom = chromium("--dump-dom", clicked.as_uri()).stdout
    table = dom[dom.index("<table class=\"sortable\">"):]
    table = table[:table.index("</table>")]
    cells = re.findall(r'<td class="num" data-v="([-+.\de]+)">[-+]?[\d.]+</td></tr>', table)
    deltas = [float(v) for v in cells]
    assert len(deltas) == 25 and deltas == sorted(deltas) and deltas[0] < 0


def test_a_browser_that_hangs_is_said_as_such(tmp_path, monkeypatch):
    """The limit ends only a browser that hangs, and says what was waited for (a stand-in browser
    that never exits, the limit made short for it)."""
    import sys

    hanging = tmp_path / "hanging-browser"
    hanging.write_text(f"#!{sys.executable}\nimport threading\nthreading.Event().wait()\n")
    hanging.chmod(0o755)
    monkeypatch.setattr(sys.modules[__name__], "CHROMIUM", str(hanging))
    monkeypatch.setattr(sys.modules[__name__], "BROWSER_SECONDS", 1)
    with pytest.raises(pytest.fail.Exception, match=r"did not exit within 1 s of being asked for "
                                                    r"--dump-dom file:///x\.html: it hangs"):
        chromium("--dump-dom", "file:///x.html")
