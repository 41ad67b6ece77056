"""Every count a user gives either program (k, --samples, --threads, --memory-limit, --size) is
bounded to what this machine can run: 0, -1, huge, non-numeric and fractional values are refused
at once, with status 2 and a last line naming the option, before any file is read (issue 33.8).
A generator of such values feeds every option of both programs."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ndcg_gui.cli.main as cli
from ndcg_gui import gui_main
from ndcg_gui.cli.arguments import MIN_MEMORY_LIMIT, THREADS_PER_CORE, cores
from ndcg_gui.core.ndcg.measure import MAX_K, MAX_SAMPLES
from ndcg_gui.core.sql.inputs import machine_memory

# No file is read: a refusal comes before (a file that does not exist would be a different line).
MISSING = "/nonexistent/run.txt"


def _whole_outside(low: int, high: int) -> st.SearchStrategy[str]:
    """Whole numbers below `low` or above `high` (up to far past any machine), as typed."""
    return st.one_of(st.integers(max_value=low - 1), st.integers(min_value=high + 1),
                     st.sampled_from([low - 1, high + 1, 10**11, 10**30, -(10**11)])).map(str)


NOT_WHOLE = st.one_of(
    st.sampled_from(["", " ", "x", "ten", "1.5", "2.0", "1e3", "nan", "inf", "-inf", "0x10", "1,000",
                     "9" * 5000]),
    st.floats(allow_nan=True, allow_infinity=True).filter(lambda f: not float(f).is_integer()).map(repr),
    st.text(alphabet=st.characters(blacklist_categories=("Nd", "Cs")), min_size=1, max_size=8),
)


def counts():
    """(program, option, strategy of refused values, fixed arguments) for every count."""
    threads = THREADS_PER_CORE * cores()
    return [
        ("inspect", "-k", st.one_of(_whole_outside(1, MAX_K), NOT_WHOLE), []),
        ("inspect", "--samples", st.one_of(_whole_outside(1, MAX_SAMPLES), NOT_WHOLE), [MISSING]),
        ("inspect", "--threads", st.one_of(_whole_outside(1, threads), NOT_WHOLE), ["--engine", "duckdb"]),
        ("inspect", "--memory-limit", MEMORY_REFUSED, ["--engine", "duckdb"]),
        ("inspect", "--spark-master", st.one_of(_whole_outside(1, threads), NOT_WHOLE).filter(
            lambda n: n.strip() != "*" and "]" not in n and "," not in n).map(lambda n: f"local[{n}]"),
         ["--engine", "spark"]),
        ("check", "-k", st.one_of(_whole_outside(1, MAX_K), NOT_WHOLE), []),
        ("gui", "-k", st.one_of(_whole_outside(1, MAX_K), NOT_WHOLE), []),
        ("gui", "--size", SIZE_REFUSED, ["--screenshot", "/nonexistent/out.png"]),
    ]


def _memory_refused() -> st.SearchStrategy[str]:
    memory = machine_memory() or 10**12
    units = st.sampled_from(["KB", "MB", "GB", "TB", "KiB", "MiB", "GiB", "TiB", "B", "kb", "gib"])
    below = st.tuples(st.integers(0, MIN_MEMORY_LIMIT // 10**6 - 1), st.just("MB"))
    above = st.tuples(st.integers(memory // 10**9 + 1, 10**20), st.just("GB"))
    return st.one_of(
        st.sampled_from(["0", "-1", "-1GB", "huge", "lots", "1KB", "0GB", "1B", "1e99GB", "99999999999999TB",
                         "0%", "101%", "-5%", "GB", "2 GB B", "nan GB", "inf", "2XB", "", "1.5"]),
        st.one_of(below, above).map(lambda pair: f"{pair[0]}{pair[1]}"),
        st.integers(0, 10**6).map(str),  # a number without a unit
        st.tuples(st.integers(10**7, 10**12), units).map(lambda pair: f"{pair[0]}{pair[1]}").filter(
            lambda text: _bytes(text) > memory),
    )


def _bytes(text: str) -> float:
    for unit, size in (("kib", 1 << 10), ("mib", 1 << 20), ("gib", 1 << 30), ("tib", 1 << 40),
                       ("kb", 10**3), ("mb", 10**6), ("gb", 10**9), ("tb", 10**12), ("b", 1)):
        if text.lower().endswith(unit):
            return float(text[: -len(unit)]) * size
    raise AssertionError(text)


MEMORY_REFUSED = _memory_refused()
SIZE_REFUSED = st.one_of(
    st.tuples(st.one_of(_whole_outside(1, gui_main.MAX_SIDE), NOT_WHOLE), st.just("768")).map("x".join),
    st.tuples(st.just("1366"), st.one_of(_whole_outside(1, gui_main.MAX_SIDE), NOT_WHOLE)).map("x".join),
    st.sampled_from(["99999999999x99999999999", "0x0", "-1x-1", "100000x100000", "1366", "x"]),
)


def refused(program: str, argv: list[str], capsys) -> str:
    """The last line the program says, after checking it exits with status 2 and prints nothing."""
    with pytest.raises(SystemExit) as exit_:
        if program == "gui":
            gui_main.main(argv)
        elif program == "check":
            cli.main(["check", MISSING, *argv])
        else:
            cli.main([MISSING, "--qrels", MISSING, *argv])
    out, err = capsys.readouterr()
    assert exit_.value.code == 2 and out == "", (argv, out, err)
    return err.strip().splitlines()[-1]


@pytest.mark.parametrize(("program", "option", "values", "fixed"), counts(),
                         ids=[f"{p} {o}" for p, o, *_ in counts()])
def test_every_count_out_of_bounds_is_refused_naming_its_option(program, option, values, fixed, capsys):
    @settings(max_examples=60, deadline=None)
    @given(value=values)
    def check(value: str) -> None:
        given_as = f"{option}={value}" if option.startswith("--") else f"{option}{value}"  # (-k=5: "=5")
        line = refused(program, [*fixed, given_as], capsys)
        assert f"argument {option}" in line and "Traceback" not in line, (value, line)

    check()


def test_threads_past_what_the_machine_runs_are_refused_before_duckdb_starts(capsys):
    """`--threads 99999999999` aborted in std::bad_alloc (status 134), and 100000 threads ran for
    82 s: both are refused in one line saying the bound."""
    for value in ("99999999999", "100000", str(THREADS_PER_CORE * cores() + 1)):
        line = refused("inspect", ["--engine", "duckdb", "--threads", value], capsys)
        assert line.endswith(f"is not from 1 to {THREADS_PER_CORE * cores()} ({THREADS_PER_CORE} for each "
                             f"of this machine's {cores()} cores)"), line


def test_samples_past_the_bound_are_refused_instead_of_running_out_of_memory(capsys):
    """`--samples 100000000000` on identical runs exited 1 (the gate's "worse") with "base.run:
    not enough memory to load it"."""
    line = refused("inspect", [MISSING, "--fail-if-worse", "--samples", "100000000000"], capsys)
    assert line == (f"ndcg-inspect: error: argument --samples: 100,000,000,000 is not from 1 to "
                    f"{MAX_SAMPLES:,} (the bootstrap keeps a mean per resample)")


@pytest.mark.parametrize("value", ["1", str(MAX_SAMPLES)])
def test_the_bounds_themselves_are_taken(value):
    assert cli.build_parser().parse_args([MISSING, "--samples", value]).samples == int(value)


def test_memory_limits_duckdb_reads_within_the_machine_are_taken():
    parser = cli.build_parser()
    for text in ("64MiB", "200MB", "1.5GiB", "50%", "100%", " 2gb "):
        if machine_memory() is None or _share(text) <= machine_memory():
            assert parser.parse_args([MISSING, "--memory-limit", text]).memory_limit == text.strip()


def _share(text: str) -> float:
    return 0 if text.endswith("%") else _bytes(text.strip())


def test_spark_masters_as_spark_writes_them_are_taken():
    parser = cli.build_parser()
    for master in ("local[*]", "local[1]", f"local[{THREADS_PER_CORE * cores()}]", "local[2,3]", "yarn",
                   "spark://host:7077", "sc://host:15002"):
        assert parser.parse_args([MISSING, "--spark-master", master]).spark_master == master
