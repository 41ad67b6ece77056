"""Which NDCG: the definition of gain, discount, ideal ranking and negative grades.

The variants that tools silently disagree on are all fields of one frozen `MetricConfig`,
and the named presets reproduce the tools they are named after.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import Literal, get_args

GainName = Literal["linear", "exponential"]
DiscountName = Literal["log2", "jarvelin"]
IdealName = Literal["judged", "retrieved"]
NegativeName = Literal["keep", "zero"]
TiesName = Literal["trec", "file", "average"]
TIES: tuple[str, ...] = get_args(TiesName)
MISSING = ("zero", "skip")  # a judged query the run returned nothing for: scored 0, or left out


def check_rules(ties: str, missing: str = "zero") -> None:
    """A ValueError naming the choices when the tie rule or the missing-query rule is unknown."""
    for what, value, choices in (("ties", ties, TIES), ("missing", missing, MISSING)):
        if value not in choices:
            raise ValueError(f"{what} must be one of {', '.join(choices)}, not {value!r}")

DEFAULT_K = 10  # the cut-off the window opens with and the summary export uses unless told
# The largest cut-off, for both command lines and the window's k box (its range before). The work
# is min(k, list length), never k.
MAX_K = 1_000_000
# The definition the window's first session and the command lines (without --preset) use; the
# library's `MetricConfig()` is the same but keeps negative grades.
DEFAULT_PRESET = "trec_eval"


class GainTable(Mapping[float, float]):
    """A read-only, hashable grade → gain mapping (so `MetricConfig` stays frozen and hashable)."""

    def __init__(self, table: Mapping[float, float]) -> None:
        items = {}
        for grade, gain in table.items():
            g, v = float(grade), float(gain)
            if not (math.isfinite(g) and math.isfinite(v)):
                raise ValueError(f"gain table entry {grade!r}: {gain!r} is not a pair of finite numbers")
            items[g] = v
        self._items = dict(sorted(items.items()))

    def __getitem__(self, grade: float) -> float:
        return self._items[float(grade)]

    def __iter__(self) -> Iterator[float]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __hash__(self) -> int:
        return hash(tuple(self._items.items()))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Mapping) and dict(self._items) == {
            float(k): float(v) for k, v in other.items()
        }

    def __repr__(self) -> str:
        return "{" + ", ".join(f"{_num(k)}: {_num(v)}" for k, v in self._items.items()) + "}"


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else repr(x)


@dataclass(frozen=True)
class MetricConfig:
    """One definition of NDCG.

    gain      "linear" (the grade), "exponential" (2^grade − 1), or a mapping grade → gain
              (grades not in the mapping keep their own value, as in trec_eval's `ndcg_1=3,...`).
    discount  "log2": 1/log2(i+1) at rank i. "jarvelin": the original Järvelin–Kekäläinen form with
              base `base`: 1 for i < base, 1/log_base(i) for i ≥ base.
    base      the logarithm base of the "jarvelin" discount (> 1). Ignored by "log2".
    ideal     "judged": the ideal ranking is built from every judged document of the query when the
              judged pool is known (trec_eval, ranx, ir_measures); "retrieved": from the list's own
              grades only (scikit-learn).
    negative  "keep": negative grades are used as given (NDCG may leave [0, 1]); "zero": they get
              gain 0 and so never enter the ideal ranking (trec_eval).
    """

    gain: GainName | Mapping[float, float] = "linear"
    discount: DiscountName = "log2"
    base: float = 2
    ideal: IdealName = "judged"
    negative: NegativeName = "keep"
    gain_table: GainTable | None = field(init=False, repr=False, compare=False, default=None)

    def __post_init__(self) -> None:
        if isinstance(self.gain, Mapping):
            table = self.gain if isinstance(self.gain, GainTable) else GainTable(self.gain)
            object.__setattr__(self, "gain", table)
            object.__setattr__(self, "gain_table", table)
        elif self.gain not in ("linear", "exponential"):
            raise ValueError(
                f"gain must be 'linear', 'exponential' or a grade → gain mapping, not {self.gain!r}"
            )
        if self.discount not in ("log2", "jarvelin"):
            raise ValueError(f"discount must be 'log2' or 'jarvelin', not {self.discount!r}")
        try:
            base = float(self.base)
        except (TypeError, ValueError):
            raise ValueError(f"base must be a number greater than 1, not {self.base!r}") from None
        if not (math.isfinite(base) and base > 1):
            raise ValueError(f"base must be a number greater than 1, not {self.base!r}")
        object.__setattr__(self, "base", base)
        if self.ideal not in ("judged", "retrieved"):
            raise ValueError(f"ideal must be 'judged' or 'retrieved', not {self.ideal!r}")
        if self.negative not in ("keep", "zero"):
            raise ValueError(f"negative must be 'keep' or 'zero', not {self.negative!r}")

    @classmethod
    def preset(cls, name: str) -> MetricConfig:
        """The definition a named tool uses: see `PRESETS`."""
        try:
            return PRESETS[name].config
        except KeyError:
            raise ValueError(
                f"unknown preset {name!r}; choose one of: {', '.join(PRESETS)}"
            ) from None

    def with_(self, **changes: object) -> MetricConfig:
        """A copy with some fields changed (the gain table is rebuilt from `gain`)."""
        return replace(self, **changes)  # type: ignore[arg-type]

    def describe(self) -> str:
        """One line that says which NDCG this is, for headlines, tooltips and file headers."""
        if isinstance(self.gain, Mapping):
            gain = f"gain table {self.gain!r}"
        elif self.gain == "exponential":
            gain = "gain 2^rel − 1"
        else:
            gain = "gain = rel"
        if self.discount == "log2":
            disc = "discount 1/log2(i+1)"
        else:
            b = _num(self.base)
            disc = f"discount 1 for i < {b}, else 1/log_{b}(i) (Järvelin–Kekäläinen)"
        ideal = (
            "ideal from all judged documents"
            if self.ideal == "judged"
            else "ideal from the list's own grades"
        )
        neg = "negative grades kept" if self.negative == "keep" else "negative grades count as 0"
        return f"{gain}; {disc}; {ideal}; {neg}"

    def preset_name(self) -> str | None:
        """The name of the preset this definition equals, if any."""
        for name, preset in PRESETS.items():
            if preset.config == self:
                return name
        return None


@dataclass(frozen=True)
class Preset:
    config: MetricConfig
    ties: TiesName
    label: str
    description: str


PRESETS: dict[str, Preset] = {
    "trec_eval": Preset(
        MetricConfig(gain="linear", discount="log2", ideal="judged", negative="zero"),
        ties="trec",
        label="trec_eval",
        description=(
            "trec_eval ndcg / ndcg_cut: gain = grade, 1/log2(i+1), ideal from every judged "
            "document, negative grades as 0, tied scores by docno descending"
        ),
    ),
    "sklearn": Preset(
        MetricConfig(gain="linear", discount="log2", ideal="retrieved", negative="keep"),
        ties="average",
        label="scikit-learn",
        description=(
            "sklearn.metrics.ndcg_score: gain = grade, 1/log2(i+1), ideal from the list's own "
            "grades, tied scores share their average gain"
        ),
    ),
    "ranx_burges": Preset(
        MetricConfig(gain="exponential", discount="log2", ideal="judged", negative="zero"),
        ties="trec",
        label="ranx (Burges)",
        description=(
            "ranx ndcg_burges: gain 2^rel − 1, 1/log2(i+1), ideal from every judged document, "
            "cut at k. ranx counts only judgments with grade ≥ 1 (rel_lvl=1): zero and negative "
            "grades add nothing, as here; fractional grades below 1 would also count 0 in ranx. "
            "ranx leaves the order of tied scores to its sort; here they go by docno, as trec_eval"
        ),
    ),
    "jarvelin2002": Preset(
        MetricConfig(gain="linear", discount="jarvelin", base=2, ideal="judged", negative="keep"),
        ties="file",
        label="Järvelin–Kekäläinen 2002",
        description=(
            "Järvelin & Kekäläinen (2002): gain = grade, ranks below b = 2 undiscounted, "
            "then 1/log2(i)"
        ),
    ),
}
