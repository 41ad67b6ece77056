"""README's five-minute tour works as written: the files it opens exist and hold what it says, and
its command-line step runs, each command exiting as README says."""

from __future__ import annotations

import re
import shlex

import pytest
from install_checks import ROOT

from ndcg_gui.cli.main import main
from ndcg_gui.core.reading import load

README = (ROOT / "README.md").read_text(encoding="utf-8")


def tour_commands() -> list[list[str]]:
    """The `ndcg-inspect` commands of README's sh blocks, continuation lines joined, comments dropped."""
    blocks = re.findall(r"```sh\n(.*?)```", README, flags=re.S)
    text = "\n".join(blocks).replace("\\\n", " ")
    return [shlex.split(line, comments=True)[1:] for line in text.splitlines()
            if line.startswith(".venv/bin/ndcg-inspect")]


def test_every_file_the_tour_opens_exists():
    named = set(re.findall(r"(?:docs/tour|resources/examples)/[\w.-]+", README))
    assert len(named) >= 4
    for path in named:
        assert (ROOT / path).is_file(), path


def test_the_analysts_csv_has_three_queries_each_with_an_unjudged_row():
    data = load(ROOT / "docs" / "tour" / "ranking.csv")
    assert list(data.queries()) == ["laptops", "headphones", "monitors"]
    for query in data.queries():
        grades = data.ranked_list(query).grades
        assert sum(g != g for g in grades) == 1, query  # (NaN: unjudged)
        assert "title" in data.ranked_list(query).extra_columns


@pytest.mark.parametrize("argv", tour_commands(), ids=lambda argv: " ".join(argv[:3]))
def test_the_tours_commands_run(argv, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)  # (--report run.html is written here)
    args = [str(ROOT / a) if (ROOT / a).exists() and not a.startswith("-") else a for a in argv]
    # The gate passes: rerank is no detectable difference from the sample run.
    assert main(args) == 0
    if "--report" in args:
        assert (tmp_path / args[args.index("--report") + 1]).stat().st_size > 0
    else:
        assert capsys.readouterr().out.strip()
