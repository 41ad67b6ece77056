"""Which NDCG, from the words a user types: `--preset`, `--gain`, `--discount` (command line and window).

    >>> measure = measure_from_options(gain="1=3,2=9", discount="jarvelin:3")
    >>> measure.gain, measure.discount, measure.base, measure.ties
    ({1: 3, 2: 9}, 'jarvelin', 3.0, 'trec')
"""

from __future__ import annotations

from ndcg_gui.core.errors import InputError
from ndcg_gui.core.ndcg.measure import GainTable, Measure
from ndcg_gui.core.ndcg.presets import DEFAULT_PRESET, PRESETS

GAIN_HELP = "linear, exponential, or a table such as 1=3,2=9,4=4.5"
DISCOUNT_HELP = "log2, or jarvelin[:BASE] (base 2 when not given)"


def parse_gain(text: str) -> str | GainTable:
    """"linear", "exponential", or a grade → gain table written `1=3,2=9,4=4.5`."""
    word = text.strip().lower()
    if word in ("linear", "exponential"):
        return word
    table: dict[float, float] = {}
    for item in filter(None, (p.strip() for p in text.split(","))):
        grade, sep, gain = item.partition("=")
        try:
            if not sep:
                raise ValueError
            table[float(grade)] = float(gain)
        except ValueError:
            raise InputError(f'--gain "{text}": "{item}" is not grade=gain; expected {GAIN_HELP}') from None
    if not table:
        raise InputError(f'--gain "{text}": expected {GAIN_HELP}')
    try:
        return GainTable(table)
    except ValueError:
        raise InputError(f'--gain "{text}": grades and gains must be finite numbers') from None


def format_gain_table(table: GainTable) -> str:
    """A gain table as `parse_gain` reads it back: `1=3,2=9,4=4.5`."""
    return ",".join(f"{grade:g}={gain:g}" for grade, gain in table.items())


def parse_discount(text: str) -> tuple[str, float]:
    """("log2", 2) or ("jarvelin", base) from `log2`, `jarvelin` or `jarvelin:BASE`."""
    word, _, base = text.strip().lower().partition(":")
    if word == "log2" and not base:
        return "log2", 2.0
    if word == "jarvelin":
        try:
            value = float(base) if base else 2.0
        except ValueError:
            value = float("nan")
        if not value > 1 or value == float("inf"):
            raise InputError(f'--discount "{text}": the base must be a number greater than 1')
        return "jarvelin", value
    raise InputError(f'--discount "{text}": expected {DISCOUNT_HELP}')


def measure_from_options(
    preset: str | None = None, gain: str | None = None, discount: str | None = None
) -> Measure:
    """The measure: a preset's (default: trec_eval's, as the window's first session and the
    command line's trec_eval-like output), with gain and discount overriding it when given."""
    if preset is not None and preset not in PRESETS:
        raise InputError(f'--preset "{preset}": expected one of {", ".join(PRESETS)}')
    measure = PRESETS[preset or DEFAULT_PRESET]
    if gain is not None:
        measure = measure.with_(gain=parse_gain(gain))
    if discount is not None:
        name, base = parse_discount(discount)
        measure = measure.with_(discount=name, base=base)
    return measure
