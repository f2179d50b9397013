"""The semantic floor of shipped scenarios (benchmarks/anchor/shipped_*.py: three shipped scenarios'
turns written by hand with the engine's state model) does what the engine does: its traced run makes
the engine's records, record for record; both its runs end in the engine's final state (fingerprint,
budget left, result, losers, final zones, the choices taken and what was read of each); its budget is
exact; it imports nothing from tcgtiming (the benchmark times it against the engine)."""
from __future__ import annotations

import ast
import dataclasses
import sys
from pathlib import Path

import pytest

from tcgtiming.frontend.pipeline import compile_file
from tcgtiming.runtime.engine import Program, simulate
from tcgtiming.runtime.engine.state import SimulationError

ROOT = Path(__file__).resolve().parent.parent
ANCHOR = ROOT / "benchmarks" / "anchor"
sys.path.insert(0, str(ANCHOR))

import shipped_aquarian  # noqa: E402
import shipped_floor  # noqa: E402
import shipped_gundam  # noqa: E402

FLOORS = [(shipped_aquarian, "aquarian", name) for name in shipped_aquarian.SCENARIOS] + [
    (shipped_gundam, "gundam", name) for name in shipped_gundam.SCENARIOS]
IDS = [f"{game}/{name}" for _, game, name in FLOORS]


def compiled(game, name):
    path = ROOT / "rules" / game / "scenarios" / f"{name}.yaml"
    res = compile_file(path, str(path.relative_to(ROOT)))
    assert res.scenario is not None, [(d.code, d.message) for d in res.diagnostics]
    return res


def final(st):
    """What a run ends in besides the fingerprint: result, losers, the final zones, the choices taken
    (the engine's through ``taken_choices``; the floor keeps them as the engine does: a ``Taken``
    or the pair (choice, keys read))."""
    zones = tuple((pid, tuple((z, tuple(c.id for c in cards)) for z, cards in st.zones[pid].items() if cards))
                  for pid in st.players)
    pairs = st.taken_choices() if hasattr(st, "taken_choices") else (
        t if type(t) is tuple else (t.choice, t.read) for t in st.taken)
    taken = tuple((ch.at, ch.take, tuple(sorted(read))) for ch, read in pairs)
    return st.result, tuple(st.losers), zones, taken, st.policy_decisions, st.priority


@pytest.mark.parametrize("mod, game, name", FLOORS, ids=IDS)
def test_floor_makes_the_engines_records_and_state(mod, game, name):
    res = compiled(game, name)
    prog = Program(res.game)
    for nid, i in mod.NODES.items():  # the records name nodes by the program's numbering
        assert prog.ids[i] == nid
    traced = simulate(res.game, res.scenario, program=prog)
    untraced = simulate(res.game, res.scenario, program=prog, trace=False)
    plan = mod.plan(name)
    mine, records = mod.run_t(plan)
    assert [shipped_floor.plain(r) for r in records] == [shipped_floor.plain(r) for r in traced.records]
    assert len(records) > 20
    engine = traced.machine
    state = (traced.fingerprint, engine.left, final(engine))
    assert untraced.fingerprint == traced.fingerprint
    for run in (mine, mod.run_u(plan)):
        assert (shipped_floor.fingerprint(run, plan, prog.ids), run.left, final(run)) == state


@pytest.mark.parametrize("mod, game, name", FLOORS, ids=IDS)
def test_floor_budget_is_exact(mod, game, name):
    """A budget of exactly the steps the engine's run takes lets the floor's runs finish; one step less
    stops them, as it stops the engine's."""
    res = compiled(game, name)
    used = res.scenario.max_steps - simulate(res.game, res.scenario, trace=False).machine.left
    for go in (mod.run_t, mod.run_u):
        go(mod.plan(name, used))
        with pytest.raises(shipped_floor.OutOfSteps):
            go(mod.plan(name, used - 1))
    simulate(res.game, dataclasses.replace(res.scenario, max_steps=used), trace=False)
    with pytest.raises(SimulationError):
        simulate(res.game, dataclasses.replace(res.scenario, max_steps=used - 1), trace=False)


def test_floor_differs_when_its_turn_differs(monkeypatch):
    """The comparison sees a difference: with a damage limit of nine the judgment stops a card earlier."""
    mod, game, name = FLOORS[0]
    res = compiled(game, name)
    traced = simulate(res.game, res.scenario)
    monkeypatch.setattr(mod, "DAMAGE_LIMIT", 9)
    st, records = mod.run_t(mod.plan(name))
    assert [shipped_floor.plain(r) for r in records] != [shipped_floor.plain(r) for r in traced.records]
    assert shipped_floor.fingerprint(st, mod.plan(name), Program(res.game).ids) != traced.fingerprint


def test_floor_imports_nothing_from_tcgtiming():
    for name in ("shipped_floor", "shipped_window", "shipped_aquarian", "shipped_gundam"):
        path = ANCHOR / f"{name}.py"
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imported = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        imported |= {n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
        assert not any(m.split(".")[0] == "tcgtiming" for m in imported), (path.name, imported)
