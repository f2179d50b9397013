"""Ruling files and ``tcgtiming check``: every shipped ruling holds (CI fails when a rule-file
change breaks one); a ruling whose facts do not hold fails, located in the ruling file, with the
trace entries around it and a JUnit report; invalid ruling files get located diagnostics."""
from __future__ import annotations

import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from tcgtiming.core.ruling import TOPICS
from tcgtiming.frontend.pipeline import compile_file

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = sorted((ROOT / "rules").glob("*/rulings/*.yaml"))
BOTH = (ROOT / "rules" / "ws" / "scenarios" / "both-players-pending.yaml").as_posix()


def _check(*args, cwd=ROOT):
    return subprocess.run([sys.executable, "-m", "tcgtiming", "check", *map(str, args)], cwd=cwd, capture_output=True,
                          text=True, env=dict(os.environ, PYTHONPATH=str(ROOT / "generator")), timeout=600)


def test_every_shipped_ruling_holds(tmp_path):
    p = _check("rules", "--junit", tmp_path / "j.xml")
    assert p.returncode == 0, p.stdout + p.stderr
    assert p.stdout.splitlines()[-1] == f"{len(SHIPPED)} passed, 0 failed"
    suites = ET.parse(tmp_path / "j.xml").getroot()
    assert suites.get("tests") == str(len(SHIPPED)) and suites.get("failures") == "0"


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: f"{p.parent.parent.name}/{p.stem}")
def test_each_shipped_ruling_is_complete(path):
    res = compile_file(path)
    assert not res.errors and res.ruling is not None, [(d.code, d.line, d.message) for d in res.diagnostics]
    r = res.ruling
    assert r.game == path.parent.parent.name and r.cites and r.topics
    assert r.question.ja and r.question.en and r.answer.ja and r.answer.en
    facts = r.expect.facts
    assert facts is not None and (facts.order or facts.at or facts.events or facts.refused), \
        "a ruling states facts beyond visits: order, facts at a node, events or a refusal"


def _ruling(tmp_path: Path, body: str) -> Path:
    d = tmp_path / "ws" / "rulings"
    d.mkdir(parents=True, exist_ok=True)
    f = d / "r.yaml"
    f.write_text(body, encoding="utf-8")
    return f


HEAD = f"""ruling:
  id: t
  game: ws
  question: {{ja: 問い, en: a question}}
  answer: {{ja: 答え, en: an answer}}
  topics: [check_timing]
  cite: ["ws-flow#check-timing"]
  uses: {BOTH}
"""


def test_a_fact_that_does_not_hold_fails_located_with_the_entries_around_it(tmp_path):
    f = _ruling(tmp_path, HEAD + "expect:\n  order:\n    - {resolved: watcher, before: {resolved: martyr}}\n")
    p = _check(f, "--rules", ROOT / "rules", "--junit", tmp_path / "j.xml")
    assert p.returncode == 1
    assert f"{f}:11:7: error[R505]" in p.stdout
    assert "   > #" in p.stdout and "check_timing.3.pending.1" in p.stdout
    assert p.stdout.splitlines()[-1] == "0 passed, 1 failed"
    case = ET.parse(tmp_path / "j.xml").getroot().find("testsuite/testcase")
    assert case.get("name") == "t" and case.find("failure") is not None


def test_a_holding_ruling_passes(tmp_path):
    f = _ruling(tmp_path, HEAD + "expect:\n  order:\n    - {resolved: martyr, before: {resolved: watcher}}\n")
    p = _check(f, "--rules", ROOT / "rules")
    assert p.returncode == 0, p.stdout
    assert p.stdout.startswith("ok ")


@pytest.mark.parametrize("edit, code, line", [
    (lambda s: s.replace('cite: ["ws-flow#check-timing"]', 'cite: ["ws-flow#check-timin"]'), "C303", 7),
    (lambda s: s.replace(BOTH, BOTH.replace("both-", "bath-")), "R508", 8),
    (lambda s: s.replace("game: ws", "game: gundam"), "R508", 3),
    (lambda s: s.replace("topics: [check_timing]", "topics: [timing]"), "S204", 6),
    (lambda s: s + "players: []\n", "S201", 12),
])
def test_invalid_rulings_are_located(tmp_path, edit, code, line):
    f = _ruling(tmp_path, edit(HEAD + "expect:\n  order:\n    - {resolved: martyr, before: {resolved: watcher}}\n"))
    p = _check(f, "--rules", ROOT / "rules")
    assert p.returncode == 1, p.stdout
    assert p.stdout.startswith("INVALID")
    assert f":{line}:" in p.stdout and f"[{code}]" in p.stdout, p.stdout


def test_an_inline_ruling_runs_its_own_scenario(tmp_path):
    text = Path(BOTH).read_text(encoding="utf-8")
    f = _ruling(tmp_path, HEAD.replace(f"  uses: {BOTH}\n", "") + text.split("expect:")[0]
                + "expect:\n  events:\n    - {resolved: martyr, count: 1}\n")
    p = _check(f, "--rules", ROOT / "rules")
    assert p.returncode == 0, p.stdout


def test_usage_errors():
    assert _check("no/such/path").returncode == 2
    assert _check("generator").returncode == 2  # no rulings/*.yaml there


def test_topics_are_known():
    assert {"check_timing", "priority", "closed", "loop", "cost", "game_end"} <= set(TOPICS)


def test_the_site_publishes_rulings_only_when_they_hold(tmp_path):
    import shutil

    from tcgtiming.present import site
    from tcgtiming.present.site.inputs import InputError

    rules = tmp_path / "rules"
    shutil.copytree(ROOT / "rules" / "ws", rules / "ws")
    good = rules / "ws" / "rulings" / "turn-player-first-each-time.yaml"
    out = site.build(str(rules), tmp_path / "out", cache=tmp_path / "cache").out / "site"
    for lang in ("ja", "en"):
        page = (out / lang / "ws" / "rulings" / f"{good.stem}.html").read_text(encoding="utf-8")
        assert 'data-checked="true"' in page
        assert f'href="{good.stem}.html"' in (out / lang / "ws" / "rulings" / "index.html").read_text(encoding="utf-8")
    good.write_text(good.read_text(encoding="utf-8").replace("{resolved: martyr, before: {resolved: watcher}}",
                                                             "{resolved: watcher, before: {resolved: martyr}}"),
                    encoding="utf-8")
    with pytest.raises(InputError) as exc:
        site.build(str(rules), tmp_path / "out", cache=tmp_path / "cache")
    assert any(d.code == "R505" and d.file.endswith(good.name) for d, _ in exc.value.failed)
    assert 'data-checked="true"' in (out / "en" / "ws" / "rulings" / f"{good.stem}.html").read_text(encoding="utf-8")


def test_a_choice_the_run_never_reaches_fails_the_ruling(tmp_path):
    text = Path(BOTH).read_text(encoding="utf-8")
    scenario = text.split("expect:")[0].replace("choices:\n", "choices:\n  - {at: attack.counter.1, take: counter}\n", 1)
    f = _ruling(tmp_path, HEAD.replace(f"  uses: {BOTH}\n", "") + scenario
                + "expect:\n  events:\n    - {resolved: martyr, count: 1}\n")
    p = _check(f, "--rules", ROOT / "rules")
    assert p.returncode == 1 and "never used" in p.stdout, p.stdout
