"""Verdicts of ``tcgtiming check`` as a JUnit XML report (what CI systems read): one test suite
per game, one test case per ruling, a failure element per failed ruling with its messages. Built
with ElementTree, so every text (questions, messages) is escaped by construction."""
from __future__ import annotations

import xml.etree.ElementTree as ET


def junit(verdicts: list, lang: str, failure_text) -> str:
    """``failure_text(verdict)``: the failure's message (the located diagnostics as text)."""
    root = ET.Element("testsuites", name="tcgtiming rulings", tests=str(len(verdicts)),
                      failures=str(sum(1 for v in verdicts if not v.passed)))
    games: dict[str, ET.Element] = {}
    for v in verdicts:
        r = v.ruling
        suite = games.get(r.game)
        if suite is None:
            suite = games[r.game] = ET.SubElement(root, "testsuite", name=r.game, tests="0", failures="0")
        suite.set("tests", str(int(suite.get("tests")) + 1))
        case = ET.SubElement(suite, "testcase", classname=f"rulings.{r.game}", name=r.id, file=r.file)
        ET.SubElement(case, "system-out").text = r.question.get(lang)
        if not v.passed:
            suite.set("failures", str(int(suite.get("failures")) + 1))
            f = ET.SubElement(case, "failure", message=f"{len(v.failures)} fact(s) do not hold")
            f.text = failure_text(v)
    ET.indent(root)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"
