"""Hypothesis strategies shared by the what-if, unjudged and definitions tests: every preset and
hand-made definitions (gain tables that need not rise with the grade, Järvelin bases), negative and
fractional grades, judged pools that hold grades the list does not, cut-offs below and above the
list length."""

from hypothesis import strategies as st

from ndcg_gui.core import PRESETS, MetricConfig

GRADE = st.one_of(
    st.integers(-2, 4).map(float),
    st.floats(-2, 4, allow_nan=False).map(lambda x: round(x, 2)),
)
SMALL_GRADE = st.sampled_from([-1.0, 0.0, 0.0, 1.0, 2.0, 3.0, 0.5])
CUTOFF = st.one_of(st.none(), st.integers(1, 14))


@st.composite
def configs(draw) -> MetricConfig:
    if draw(st.booleans()):
        return MetricConfig.preset(draw(st.sampled_from(sorted(PRESETS))))
    # Gains as people write them (to 3 decimals): a gain of 1e-293 only tests floating-point noise.
    table = st.dictionaries(
        st.sampled_from([-1.0, 0.0, 0.5, 1.0, 2.0, 3.0]),
        st.floats(-3, 9, allow_nan=False).map(lambda x: round(x, 3)), max_size=4
    )
    return MetricConfig(
        gain=draw(st.one_of(st.sampled_from(["linear", "exponential"]), table)),
        discount=draw(st.sampled_from(["log2", "jarvelin"])),
        base=draw(st.sampled_from([2, 2.5, 3, 1.5])),
        ideal=draw(st.sampled_from(["judged", "retrieved"])),
        negative=draw(st.sampled_from(["keep", "zero"])),
    )


def judged_pools(known: list[float], grade=GRADE):
    """None (no pool known) or the list's judged grades plus documents it did not retrieve."""
    return st.one_of(st.none(), st.lists(grade, max_size=5).map(lambda extra: [*known, *extra]))
