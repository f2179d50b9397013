"""Every run of a scenario starts from a fresh, independent state (``runtime.engine.template``: the
scenario's starting state worked out once, made new by each run): two runs share no mutable object
(card, zone list, queue, dict, set, deque), a run's moves, modifiers and choices taken do not leak
into the next one, and what runs do share (the players, names, card values, choices) is left as
the scenario gives it. The explorer (``runtime.explore``) relies on this: it runs a scenario again
for each path it tries."""
from __future__ import annotations

from collections import deque
from pathlib import Path

import pytest

from tcgtiming.frontend.pipeline import compile_file
from tcgtiming.runtime.engine import Machine, SimulationError, program_for, simulate, template
from tcgtiming.runtime.engine.state import Queue, RCard

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = sorted((ROOT / "rules").glob("*/scenarios/*.yaml"))
SHARED = {"prog", "sc", "setup", "out", "ring", "explorer", "firers", "players", "names", "zone_order", "stateful",
          "all_choices"}  # the run's program and scenario, and what every run reads and never changes


def load(path):
    res = compile_file(path, str(path.relative_to(ROOT)))
    return res.game, res.scenario


def state_of(st) -> dict:
    """The machine's run state: attribute -> value (slots and the instance's dict)."""
    names = [n for cls in type(st).__mro__ for n in getattr(cls, "__slots__", ())] + list(vars(st))
    return {n: getattr(st, n) for n in names if n not in SHARED and hasattr(st, n)}


def mutable_parts(value, found: dict) -> dict:
    """id -> object for every mutable object reachable from ``value`` through containers, cards and
    queues (not into a card's spec or values, which every run shares and none changes)."""
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, (list, dict, set, deque, RCard, Queue)):
            if id(v) in found:
                continue
            found[id(v)] = v
        if isinstance(v, dict):
            stack.extend(v.keys())
            stack.extend(v.values())
        elif isinstance(v, (list, tuple, set, deque)):
            stack.extend(v)
        elif isinstance(v, RCard):
            stack.append(v.mods)
        elif isinstance(v, Queue):
            stack.append(v.log)
    return found


def parts(st) -> dict:
    found: dict = {}
    for v in state_of(st).values():
        mutable_parts(v, found)
    return found


@pytest.mark.parametrize("loop", [False, True], ids=["code", "loop"])
@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: f"{p.parent.parent.name}/{p.stem}")
def test_two_runs_share_no_mutable_state(path, loop, monkeypatch):
    if loop:  # the cards of a large scenario are made by a loop
        monkeypatch.setattr(template, "CODE_CARDS", 0)
    game, sc = load(path)
    prog = program_for(game, len(sc.players))
    a = simulate(game, sc, program=prog, trace=False)
    b = simulate(game, sc, program=prog, trace=False)
    pa, pb = parts(a.machine), parts(b.machine)
    assert any(isinstance(v, RCard) for v in pa.values())  # the walk reaches the cards
    shared = pa.keys() & pb.keys()
    where = sorted({n for n, v in state_of(a.machine).items() if mutable_parts(v, {}).keys() & shared})
    # a value made once per scenario that no run changes may be shared: then name it in SHARED
    assert not shared, f"both runs hold the same {sorted({type(pa[i]).__name__ for i in shared})} in {where}"


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: f"{p.parent.parent.name}/{p.stem}")
def test_a_run_does_not_leak_into_the_next(path):
    """A run, then its final state changed by hand (every card moved, modified, damaged, used; the
    queues, the stack and the containers filled), then the same scenario again: the second run
    ends as the first one did, and what runs share is as the scenario gives it."""
    game, sc = load(path)
    prog = program_for(game, len(sc.players))
    first = simulate(game, sc, program=prog, trace=False)
    want = (first.fingerprint, first.zones, first.board, first.result, first.losers, first.unused_choices)
    st = first.machine
    cards = list(st.cards.values())
    for zones in st.zones.values():
        for z in zones.values():
            z.clear()
    for pid in st.players:
        st.zones[pid][next(iter(st.zones[pid]))].extend(c for c in cards if c.owner == pid)
    for c in cards:
        c.zone, c.used, c.damage, c.state = "nowhere", True, 99, "leaked"
        st.modify(c, "leaked", 1)
    for q in st.pending.values():
        q.append(q)
    for name in ("stack", "revealed", "losers", "frames", "taken"):
        getattr(st, name).append("leaked")
    for name in ("decisions", "event_counts", "loops", "vars", "play_counts"):
        getattr(st, name)["leaked"] = 1
    for v in st.values.values():
        v["leaked"] = 1
    for chs in st.choices.values():
        chs.clear()
    st.used_choices.add(0)
    st.seat[0] = st.seat[1]
    again = simulate(game, sc, program=prog, trace=False)
    assert (again.fingerprint, again.zones, again.board, again.result, again.losers, again.unused_choices) == want
    setup = prog.setup(sc)
    assert setup.players == [p[0] for p in sc.players] and setup.all_choices is sc.choices
    assert all(base == dict(spec.stats) for _, layout in setup.zones for _, row in layout for spec, base, _ in row)


RULINGS = sorted((ROOT / "rules").glob("*/rulings/*.yaml"))


@pytest.mark.parametrize("path", SCENARIOS + RULINGS, ids=lambda p: f"{p.parent.parent.name}/{p.parent.name}/{p.stem}")
def test_the_run_state_is_in_slots(path):
    """What a run sets on its machine is in ``Machine.__slots__`` (its constants at the start in
    ``Machine.START``): nothing goes to the instance's dict, whose reads the program's code would pay
    for (the runs traced and not, strict and with each policy)."""
    res = compile_file(path, str(path.relative_to(ROOT)))
    game, sc = res.game, res.scenario if res.scenario is not None else res.ruling.scenario
    prog = program_for(game, len(sc.players))
    for how in (dict(strict=True), dict(trace=False), dict(policy="random"), dict(policy="first", trace=False)):
        try:
            st = simulate(game, sc, program=prog, **how).machine
        except SimulationError:
            continue
        assert not vars(st), f"add to Machine.__slots__ (a starting value: to Machine.START): {sorted(vars(st))}"


@pytest.mark.parametrize("path", SCENARIOS[::4], ids=lambda p: f"{p.parent.parent.name}/{p.stem}")
def test_each_run_starts_with_every_choice_and_the_same_shared_parts(path):
    """The runs before took their choices (and one cleared its lists): a new machine still starts with
    every choice of the scenario, by node, in order; the firing functions and the turn function are the
    ones found at the first run; a run tells the game's and the scenario's ids."""
    game, sc = load(path)
    prog = program_for(game, len(sc.players))
    first = simulate(game, sc, program=prog, trace=False)
    for chs in first.machine.choices.values():
        chs.clear()
    again = simulate(game, sc, program=prog, trace=False)
    want = {}
    for ch in sc.choices:
        want.setdefault(ch.at, []).append(ch)
    fresh = Machine(prog, sc)
    assert {at: list(chs) for at, chs in fresh.choices.items()} == want
    assert fresh.firers is first.machine.firers is again.machine.firers
    assert prog.setup(sc).turns[False] is not None
    assert (again.game, again.scenario) == (game.id, sc.id)
