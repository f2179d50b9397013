"""The Gundam War timing chart (seeds/gundam-war-play-timing.ja.txt, タイミングチャート): each of its
35 rows of a turn is run and stated as facts (issue 11). ``ROWS`` lists them in the chart's order,
each with the node that models it and the line of the row in the source; the test checks that the
run visits the rows in that order, that a fact of the chart scenario or a chart ruling names every
row, that every row where no one may play has a ruling refusing a play there, and that all of them
hold."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import yaml

from tcgtiming.frontend.pipeline import compile_file
from tcgtiming.runtime.engine import simulate
from tcgtiming.runtime.expect import check

ROOT = Path(__file__).resolve().parent.parent
GUNDAM = ROOT / "rules" / "gundam"
TURN = GUNDAM / "scenarios" / "chart-turn.yaml"
RULINGS = sorted((GUNDAM / "rulings").glob("chart-*.yaml"))

# (node, the row's label in the chart, its line in the source)
ROWS = [
    ("reroll.start", "フェイズ開始", 23), ("reroll.rule_effect", "規定の効果", 26), ("reroll.free", "フリータイミング", 27),
    ("reroll.finish", "フェイズ終了", 28),
    ("draw.start", "フェイズ開始", 30), ("draw.free_before", "フリータイミング", 32), ("draw.rule_effect", "規定の効果", 33),
    ("draw.free_after", "フリータイミング", 34), ("draw.finish", "フェイズ終了", 35),
    ("deploy.start", "フェイズ開始", 37), ("deploy.free", "フリータイミング", 39), ("deploy.finish", "フェイズ終了", 40),
    ("battle.attack.start", "ステップ開始", 43), ("battle.attack.free_before", "フリータイミング", 46),
    ("battle.attack.rule_effect", "規定の効果", 47), ("battle.attack.free_after", "フリータイミング", 48),
    ("battle.attack.finish", "フェイズ終了", 49),
    ("battle.defense.start", "ステップ開始", 51), ("battle.defense.free_before", "フリータイミング", 53),
    ("battle.defense.rule_effect", "規定の効果", 54), ("battle.defense.free_after", "フリータイミング", 55),
    ("battle.defense.finish", "フェイズ終了", 56),
    ("battle.damage.start", "ステップ開始", 58), ("battle.damage.free_before", "フリータイミング", 60),
    ("battle.damage.rule_effect", "規定の効果", 61), ("battle.damage.free_after", "フリータイミング", 62),
    ("battle.damage.finish", "フェイズ終了", 63),
    ("battle.return.start", "ステップ開始", 65), ("battle.return.free_before", "フリータイミング", 67),
    ("battle.return.rule_effect", "規定の効果", 68), ("battle.return.free_after", "フリータイミング", 69),
    ("battle.return.damage_reset", "ダメージリセット", 71), ("battle.return.effect_resolution", "効果解決", 73),
    ("battle.return.hand_adjustment", "手札調整", 74), ("battle.return.effects_end", "効果終了・ターン終了", 75),
]


def test_the_rows_are_the_charts_35_in_order():
    source = (ROOT.parent / "shared" / "seeds" / "gundam-war-play-timing.ja.txt")
    assert len(ROWS) == 35 and len({n for n, _, _ in ROWS}) == 35
    if source.exists():  # the row's label is on the line cited
        lines = source.read_text(encoding="utf-8").splitlines()
        for _, label, line in ROWS:
            assert lines[line - 1].startswith(label), (line, label)
    res = compile_file(str(TURN))
    assert res.scenario is not None, [(d.code, d.line, d.message) for d in res.diagnostics]
    run = simulate(res.game, res.scenario, strict=True)
    rows = {n for n, _, _ in ROWS}
    visited = []
    for e in run.entries:
        if e.node in rows and (not visited or visited[-1] != e.node):
            visited.append(e.node)
    assert visited == [n for n, _, _ in ROWS]
    assert check(run, res.scenario) == []


def _named(expect: dict) -> set:
    """The nodes the facts of an expect section name."""
    out = set()

    def match(m):
        if isinstance(m, dict) and m.get("node"):
            out.add(m["node"])
    for o in expect.get("order") or ():
        match(o)
        match(o.get("before"))
        match(o.get("after"))
    for x in list(expect.get("at") or ()) + list(expect.get("events") or ()):
        match(x)
    out.update((expect.get("refused") or {}).get("names") or ())
    return out


def test_every_row_is_named_by_a_fact_and_every_closed_row_is_refused():
    named = _named(yaml.safe_load(TURN.read_text(encoding="utf-8"))["expect"])
    refused = set()
    for path in RULINGS:
        ex = yaml.safe_load(path.read_text(encoding="utf-8"))["expect"]
        named |= _named(ex)
        refused.update((ex.get("refused") or {}).get("names") or ())
    assert [n for n, _, _ in ROWS if n not in named] == []
    game = compile_file(str(GUNDAM / "game.yaml")).game
    closed = [n for n, _, _ in ROWS if game.nodes[n].kind == "closed"]
    assert len(closed) == 11 and [n for n in closed if n not in refused] == []
    # every row where no one may play and a play can be scripted (closed timings, trigger points,
    # automatic rule effects) refuses one; the free timings are where both players play
    no_play = [n for n, _, _ in ROWS if game.nodes[n].kind in ("closed", "trigger", "auto")]
    assert len(no_play) == 20 and [n for n in no_play if n not in refused] == []
    assert len([n for n, _, _ in ROWS if game.nodes[n].kind == "window"]) == 12


def test_the_chart_rulings_hold():
    p = subprocess.run([sys.executable, "-m", "tcgtiming", "check", *map(str, RULINGS)], cwd=ROOT, capture_output=True,
                       text=True, env=dict(os.environ, PYTHONPATH=str(ROOT / "generator")), timeout=600)
    assert p.returncode == 0, p.stdout + p.stderr
    assert p.stdout.splitlines()[-1] == f"{len(RULINGS)} passed, 0 failed"
