"""The worked examples NDCG is taught with (E1–E7), each a list with its own definition, its right
figures, and the figures some teaching material printed, with why they differ.

The data is `resources/examples/worked_examples.json` (a copy made for the project: a clone needs
nothing else); whether a printed figure is wrong is decided here, against the core, not stored.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import cache, cached_property
from importlib.resources import files
from typing import TYPE_CHECKING

from ndcg_gui.core.analysis.list_report import list_summary
from ndcg_gui.core.lists.ranked_list import RankedList
from ndcg_gui.core.lists.typed_dataset import TypedDataset
from ndcg_gui.core.ndcg.measure import Measure
from ndcg_gui.core.state.workspace import FileRef, Workspace

if TYPE_CHECKING:
    from collections.abc import Mapping

RESOURCE = ("ndcg_gui.resources", "examples", "worked_examples.json")
_FIGURE = re.compile(r"^(DCG|IDCG|NDCG)@(\d+)$")


@dataclass(frozen=True)
class Printed:
    """A figure as some teaching material printed it (`printed`, text: its decimals are its
    precision), the definition's right one, and why they differ (or that it is right)."""

    what: str  # "DCG@5", "IDCG@5", "NDCG@3"
    printed: str
    why: str
    list: RankedList = field(repr=False, compare=False)
    measure: Measure = field(repr=False, compare=False)

    @cached_property
    def right(self) -> float:
        """The core's figure (worked out when first asked: the menus list the examples at start-up)."""
        return figure(self.list, self.measure, self.what)

    @property
    def decimals(self) -> int:
        return len(self.printed.partition(".")[2])

    @property
    def wrong(self) -> bool:
        """Whether the printed figure is off by a unit of its last decimal or more: a figure
        rounded or cut to its decimals is right (8.32 for 8.3255), one rounded too early is not."""
        return abs(float(self.printed) - self.right) >= 10.0 ** -self.decimals - 1e-12

    def line(self) -> str:
        said = f"{self.what} = {self.printed}"
        if self.wrong:
            return f"Printed {said}: wrong, the right figure is {self.right:.4f} — {self.why}."
        return f"Printed {said}: right ({self.right:.4f}) — {self.why}."


@dataclass(frozen=True)
class WorkedExample:
    id: str
    title: str
    about: str
    list: RankedList
    measure: Measure
    figures: Mapping[str, float]  # the reference's DCG@k, IDCG@k, NDCG@k (those it gives)
    table: tuple[tuple[float, ...], ...]  # rank, grade, CG, DCG, IDCG, NDCG (the reference's)
    printed: tuple[Printed, ...]

    @property
    def name(self) -> str:
        """What the window calls the document it opens as."""
        return f"Worked example {self.id}"

    @property
    def k(self) -> int:
        return self.measure.k  # type: ignore[return-value]  (an example's measure has its k)

    def workspace(self) -> Workspace:
        """The example as a typed list under its own definition; not unsaved work (a file opened
        is not), so opening another asks nothing until it is edited."""
        return Workspace.of(TypedDataset.of(self.list), self.measure, FileRef(None, None, self.name))

    def note(self) -> str:
        """What the window says beside the headline: the example, and each printed figure against
        the right one."""
        lines = [f"{self.id}: {self.title}. {self.about}"]
        lines += [p.line() for p in self.printed]
        return "\n".join(lines)


def figure(lst: RankedList, measure: Measure, what: str) -> float:
    """`what` ("DCG@5", "IDCG@5", "NDCG@3") of `lst` under `measure` (at the figure's k), from the
    core."""
    match = _FIGURE.match(what)
    if match is None:
        raise ValueError(f"a figure is DCG@k, IDCG@k or NDCG@k, not {what!r}")
    summary = list_summary(lst, measure.at(int(match[2])))
    return {"DCG": summary.dcg, "IDCG": summary.idcg, "NDCG": summary.ndcg}[match[1]]


def _example(item: dict) -> WorkedExample:
    unretrieved = {str(d): float(g) for d, g in item.get("unretrieved", {}).items()}
    lst = RankedList(docs=item["docs"], grades=item["grades"], scores=item.get("scores"),
                     unretrieved=unretrieved, has_pool=bool(unretrieved))
    measure = Measure(k=int(item["k"]), **item["config"], ties=item["ties"])
    printed = tuple(Printed(p["what"], p["printed"], p["why"], lst, measure) for p in item["printed"])
    return WorkedExample(item["id"], item["title"], item["about"], lst, measure,
                         dict(item["figures"]), tuple(tuple(row) for row in item["table"]), printed)


def parse_examples(text: str) -> tuple[WorkedExample, ...]:
    return tuple(_example(item) for item in json.loads(text)["examples"])


@cache
def worked_examples() -> tuple[WorkedExample, ...]:
    """Every worked example shipped, E1 first."""
    package, *path = RESOURCE
    return parse_examples(files(package).joinpath(*path).read_text("utf-8"))


def example_named(name: str) -> WorkedExample | None:
    """The example a document named `name` was opened from, if any."""
    return next((e for e in worked_examples() if e.name == name), None)
