"""The regression gate (`core.analysis.runs.gate`) as a JUnit XML file, the format CI dashboards read
(GitLab, Jenkins, GitHub test reporters): one <testsuite>, one <testcase> per candidate run,
a <failure> when the candidate is significantly worse than the baseline. Every text is XML 1.0's
(`escaping.xml_text`): a run named with a control character still gives a file that parses."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from ndcg_gui import __version__
from ndcg_gui.core.analysis.runs.gate import Gate
from ndcg_gui.core.reports.escaping import xml_text
from ndcg_gui.core.writing.writers import atomic_write_bytes

SUITE = "ndcg-inspect gate"


def junit_xml(gate: Gate, definition: str = "", inputs: dict[str, str] | None = None) -> bytes:
    """The XML document (UTF-8, with declaration). `inputs`: file name -> sha256, as properties."""
    suites = ET.Element("testsuites", name=SUITE, tests=str(len(gate.verdicts)),
                        failures=str(len(gate.worse)), errors="0", time="0")
    suite = ET.SubElement(suites, "testsuite", name=SUITE, tests=str(len(gate.verdicts)),
                          failures=str(len(gate.worse)), errors="0", skipped="0", time="0")
    props = ET.SubElement(suite, "properties")
    at = f"@{gate.k}" if gate.k is not None else ""
    def element(parent: ET.Element, tag: str, text: str | None = None, **attributes: str) -> ET.Element:
        made = ET.SubElement(parent, tag, {k: xml_text(v) for k, v in attributes.items()})
        if text is not None:
            made.text = xml_text(text)
        return made

    for name, value in [
        ("program", f"ndcg-inspect {__version__}"), ("baseline", gate.baseline),
        (f"baseline mean NDCG{at}", f"{gate.baseline_mean:.4f}"), ("alpha", f"{gate.alpha:g}"),
        ("min delta", f"{gate.min_delta:g}"), ("queries", str(gate.n_queries)),
        ("definition", definition), *((f"sha256 {n}", h) for n, h in (inputs or {}).items()),
    ]:
        element(props, "property", name=name, value=value)
    for v in gate.verdicts:
        case = element(suite, "testcase", classname=f"ndcg.{gate.baseline}",
                       name=f"{v.run} not worse than {gate.baseline}", time="0")
        if v.worse:
            element(case, "failure", gate.line(), type="SignificantlyWorse", message=v.reason)
        element(case, "system-out", f"mean NDCG{at} {v.mean:.4f} (baseline {gate.baseline_mean:.4f}); "
                f"{v.reason}; randomization p {v.p:.4g} before Holm")
    ET.indent(suites)
    return ET.tostring(suites, encoding="utf-8", xml_declaration=True) + b"\n"


def write_junit(gate: Gate, path: str | Path, definition: str = "",
                inputs: dict[str, str] | None = None) -> None:

    atomic_write_bytes(path, junit_xml(gate, definition, inputs))
