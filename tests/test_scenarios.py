"""Every shipped example scenario runs strictly (every decision scripted) and its expected facts hold.

Each scenario file states what it demonstrates and, under `expect:`, the facts of its trace (nodes
visited in order, final zones, the result). The facts specific to each game's tricky timing are
asserted again here, entry by entry.
"""
from pathlib import Path

import pytest

from tcgtiming.frontend.pipeline import compile_file
from tcgtiming.runtime.engine import simulate, verify
from tcgtiming.runtime.expect import check
from tcgtiming.runtime.trace import as_jsonl

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = sorted((ROOT / "rules").glob("*/scenarios/*.yaml"))


def run(path):
    res = compile_file(path, str(path.relative_to(ROOT)))
    assert res.scenario is not None, [(d.code, d.line, d.message) for d in res.diagnostics]
    return res.scenario, simulate(res.game, res.scenario, strict=True)


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: f"{p.parent.parent.name}/{p.stem}")
def test_scenario_runs_strictly_and_its_facts_hold(path):
    sc, r = run(path)
    assert sc.demonstrates is not None and sc.demonstrates.ja and sc.demonstrates.en
    assert sc.expect is not None, "a shipped scenario states the facts it expects"
    assert verify(r, sc) == []
    assert check(r, sc) == []  # order, facts at nodes, events too
    assert r.unused_choices == ()
    assert r.unused_choice_data == ()  # no card, ability or target given where no decision uses it
    assert r.policy_decisions == 0


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: f"{p.parent.parent.name}/{p.stem}")
def test_scenario_trace_is_byte_identical(path):
    assert as_jsonl(run(path)[1]) == as_jsonl(run(path)[1])


def entries(name):
    return run(ROOT / "rules" / name)[1].entries


def test_ws_front_attack_counter_order():
    es = entries("ws/scenarios/front-attack-counter.yaml")
    nodes = [e.node for e in es]
    # the counter step comes after the trigger step and before damage; the defender acts in it
    counter = next(e for e in es if e.node == "attack.counter.3")
    assert counter.actor == "p2" and counter.role == "non_turn_player"
    assert nodes.index("attack.trigger.3") < nodes.index("attack.counter.3") < nodes.index("attack.damage.3")
    battle = next(e for e in es if e.node == "attack.battle.4")
    assert battle.event == ("battle_power", 3000, 4500, ("a-att",))


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: f"{p.parent.parent.name}/{p.stem}")
def test_random_decisions_never_crash(path):
    """Unscripted, every decision taken by the seeded random policy, two turns: the run ends normally
    or with a located SimulationError, never with another exception; and it is reproducible."""
    import dataclasses

    from tcgtiming.runtime.engine import SimulationError

    res = compile_file(path, str(path.relative_to(ROOT)))
    ends = set()
    for seed in range(4):
        sc = dataclasses.replace(res.scenario, seed=seed, policy="random", choices=(), turns=2)
        try:
            r = simulate(res.game, sc)
        except SimulationError as exc:
            assert exc.code.startswith("R5") and exc.loc is not None
            continue
        assert as_jsonl(r) == as_jsonl(simulate(res.game, sc))
        ends.add(r.entries[-1].node)
    assert ends, "at least one random run completes"
