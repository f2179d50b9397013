"""The semantic floor of the anchor turn (benchmarks/anchor/floor.py, floor_trace.py: the turn written
by hand with the engine's state model) does what the engine does: on every anchor scenario its
traced run makes the engine's records, record for record, and both its runs end in the engine's
final state (fingerprint, budget left, policy decisions); its budget is exact; it imports nothing
from tcgtiming (the benchmark times it against the engine)."""
from __future__ import annotations

import ast
import sys
from collections import namedtuple
from pathlib import Path

import pytest

from tcgtiming.frontend.loader import load_bytes
from tcgtiming.frontend.pipeline import compile_document
from tcgtiming.runtime.engine import Program, simulate

ROOT = Path(__file__).resolve().parent.parent
ANCHOR = ROOT / "benchmarks" / "anchor"
sys.path.insert(0, str(ANCHOR))

import floor  # noqa: E402
import floor_trace  # noqa: E402
from model import GAME, scenario_yaml  # noqa: E402

P = namedtuple("P", "plays attacks hand end_repeats tp_every ntp_every")
# the anchors' nine scenarios (../shared/bench/anchors/scenario.py, VERIFY)
SCENARIOS = [P(3, (True, False, True), 10, 1, 3, 0), P(0, (), 7, 0, 3, 0), P(1, (False, False, False), 3, 0, 3, 0),
             P(5, (True, True, True), 12, 2, 3, 0), P(2, (True,), 6, 3, 3, 0), P(4, (False, True), 20, 0, 3, 0),
             P(3, (True, False, True), 10, 1, 3, 4), P(2, (True, False), 10, 2, 2, 3),
             P(3, (True, False, True), 10, 1, 1, 1)]
# and a few more: no ticker (no event counted), an empty hand (nothing to move), a long main phase
MORE = [P(5, (), 9, 1, 0, 0), P(2, (True, True), 0, 0, 2, 0), P(8, (False, True, True, False), 25, 4, 4, 2)]


def engine_runs(sc):
    res = compile_document(load_bytes(scenario_yaml(sc).encode(), "anchor.yaml"), rules=str(GAME))
    assert res.scenario is not None, [(d.code, d.message) for d in res.diagnostics]
    prog = Program(res.game)  # its own (program_for's is shared: other tests read the code it keeps)
    assert tuple(prog.ids) == floor.NODES  # the records name nodes by the program's numbering
    traced = simulate(res.game, res.scenario, program=prog)
    return traced, simulate(res.game, res.scenario, program=prog, trace=False)


@pytest.mark.parametrize("sc", SCENARIOS + MORE, ids=lambda p: "-".join(map(str, (p.plays, len(p.attacks), *p[2:]))))
def test_floor_makes_the_engines_records_and_state(sc):
    traced, untraced = engine_runs(sc)
    plan = floor.Plan(sc)
    mine = floor_trace.run_traced(plan)
    assert [floor_trace.plain(r) for r in mine.records] == [floor_trace.plain(r) for r in traced.records]
    assert len(mine.records) > 100
    state = (traced.fingerprint, traced.machine.left, traced.policy_decisions)
    assert untraced.fingerprint == traced.fingerprint
    for run in (mine, floor.run(plan)):
        assert (floor.fingerprint(run), run.left, run.policy) == state


def test_floor_differs_when_its_turn_differs(monkeypatch):
    """The comparison sees a difference: a floor with another hand limit ends elsewhere."""
    sc = SCENARIOS[5]  # 20 cards in hand: the end phase discards
    traced, _ = engine_runs(sc)
    monkeypatch.setattr(floor, "HAND_LIMIT", 6)
    monkeypatch.setattr(floor_trace, "HAND_LIMIT", 6)
    run = floor_trace.run_traced(floor.Plan(sc))
    assert [floor_trace.plain(r) for r in run.records] != [floor_trace.plain(r) for r in traced.records]
    assert floor.fingerprint(floor.run(floor.Plan(sc))) != traced.fingerprint


@pytest.mark.parametrize("sc", SCENARIOS[:3], ids=str)
def test_floor_budget_is_exact(sc):
    assert floor.budget_is_exact(sc)
    with pytest.raises(floor.OutOfSteps):
        floor.run(floor.Plan(sc, 40))


def test_floor_imports_nothing_from_tcgtiming():
    for name in ("floor.py", "floor_trace.py"):
        tree = ast.parse((ANCHOR / name).read_text(encoding="utf-8"))
        imported = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        imported |= {n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
        assert imported and not any(m.split(".")[0] == "tcgtiming" for m in imported), (name, imported)
