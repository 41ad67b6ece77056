"""A comparison as a Markdown or LaTeX table for a paper or a pull request, with significance marks
as ranx prints them: the runs are lettered a, b, c… and a run's figure carries the letters of the
runs it is significantly better than.

Each pair is tested with the comparison's own paired randomization test (same draws and seed):
for every run taken as the baseline, the other runs' p-values, Holm-corrected over those other
runs (`compare.paired_summary`). A letter means: higher mean and corrected p < alpha."""

from __future__ import annotations

import re
import string

from ndcg_gui.core.analysis.runs.compare import Comparison, paired_summary
from ndcg_gui.core.errors import printable

FORMATS = ("md", "latex")


def letters(cmp: Comparison) -> dict[str, str]:
    """Run -> its letter, in the comparison's order (a…z, then aa, ab…)."""
    abc = string.ascii_lowercase
    names = [abc[i] if i < 26 else abc[i // 26 - 1] + abc[i % 26] for i in range(len(cmp.runs))]
    return dict(zip(cmp.runs, names, strict=True))


def better_than(cmp: Comparison, alpha: float = 0.05) -> dict[str, list[str]]:
    """Run -> the runs it is significantly better than (see the module's docstring)."""
    out: dict[str, list[str]] = {run: [] for run in cmp.runs}
    if cmp.n_queries == 0 or len(cmp.runs) < 2:
        return out
    for base in cmp.runs:
        summary = paired_summary(cmp.per_query, base, cmp.samples, cmp.seed, cmp.confidence, cmp.weights)
        for run, row in summary.iterrows():
            if row["delta"] > 0 and row["p_holm"] < alpha:
                out[str(run)].append(base)
    return out


def _rows(cmp: Comparison, alpha: float):
    """(letter, run, mean, marks, is best) per run, and the footnote."""
    names = letters(cmp)
    marks = better_than(cmp, alpha)
    means = cmp.means
    best = means.max() if cmp.n_queries else None
    rows = [(names[r], r, float(means[r]), "".join(names[b] for b in marks[r]),
             best is not None and means[r] == best) for r in cmp.runs]
    at = f"@{cmp.k}" if cmp.k is not None else ""
    weighted = "weighted " if cmp.weights is not None else ""
    what = f"Weighted mean NDCG{at}" if weighted else f"NDCG{at}"
    note = (f"{what} over {cmp.n_queries:,} queries; {cmp.measure.describe()}. A superscript letter marks "
            f"a run significantly better than the run of that letter ({weighted}paired randomization test, "
            f"{cmp.samples:,} draws, seed {cmp.seed}, Holm-corrected, p < {alpha:g}); "
            "bold: the highest mean.")
    return rows, note, at


_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+!|<>~])")


def _md(text: str) -> str:
    """A name in a Markdown cell: on one line, controls written as escapes, specials escaped."""
    return _MD_SPECIAL.sub(r"\\\1", printable(text))


_LATEX_SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
                  "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
                  "<": r"\textless{}", ">": r"\textgreater{}"}


def _latex(text: str) -> str:
    """A name in LaTeX: on one line (a blank line ends a cell), controls as escapes, specials escaped."""
    return "".join(_LATEX_SPECIAL.get(c, c) for c in printable(text))


def markdown_table(cmp: Comparison, alpha: float = 0.05) -> str:
    rows, note, at = _rows(cmp, alpha)
    lines = [f"| # | Run | NDCG{at} |", "|---|---|---:|"]
    for letter, run, mean, marks, best in rows:
        figure = f"**{mean:.4f}**" if best else f"{mean:.4f}"
        lines.append(f"| {letter} | {_md(run)} | {figure}{f'<sup>{marks}</sup>' if marks else ''} |")
    return "\n".join(lines) + f"\n\n{note}\n"


def latex_table(cmp: Comparison, alpha: float = 0.05) -> str:
    rows, note, at = _rows(cmp, alpha)
    lines = [r"% needs \usepackage{booktabs}", r"\begin{table}[t]", r"\centering", r"\begin{tabular}{clr}",
             r"\toprule", rf"\# & Run & NDCG{at} \\", r"\midrule"]
    for letter, run, mean, marks, best in rows:
        figure = rf"\textbf{{{mean:.4f}}}" if best else f"{mean:.4f}"
        lines.append(rf"{letter} & {_latex(run)} & {figure}{f'$^{{{marks}}}$' if marks else ''} \\")
    lines += [r"\bottomrule", r"\end{tabular}", rf"\caption{{{_latex(note)}}}", r"\end{table}"]
    return "\n".join(lines) + "\n"


def comparison_table(cmp: Comparison, form: str, alpha: float = 0.05) -> str:
    if form not in FORMATS:
        raise ValueError(f"table format must be one of {', '.join(FORMATS)}, not {form!r}")
    return markdown_table(cmp, alpha) if form == "md" else latex_table(cmp, alpha)
