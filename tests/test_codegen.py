"""The fast tier of the engine (``runtime.engine.codegen``: the work of common nodes written in place)
records exactly what the closure tier records: every shipped scenario and every shipped ruling's
scenario run both ways, traced (every entry's facts) and untraced (the final state's fingerprint),
strict and with the random policy; and the fast tier is the one ``simulate`` uses."""
from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from tcgtiming.frontend.pipeline import compile_file
from tcgtiming.runtime.engine import SimulationError, codegen, program_for, simulate

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = sorted((ROOT / "rules").glob("*/scenarios/*.yaml"))
RULINGS = sorted((ROOT / "rules").glob("*/rulings/*.yaml"))


def load(path):
    res = compile_file(path, str(path.relative_to(ROOT)))
    sc = res.scenario if res.scenario is not None else res.ruling.scenario
    return res.game, sc


def outcome(game, sc, closures: bool, **kw):
    """What a run shows: its entries (facts), result, losers, final zones and board, fingerprint;
    or the error that stopped it."""
    codegen.CLOSURES = closures
    try:
        r = simulate(game, sc, program=program_for(game), **kw)
    except SimulationError as exc:
        return ("error", exc.code, exc.message, exc.loc)
    finally:
        codegen.CLOSURES = False
    return (r.entries, r.result, r.losers, r.zones, r.board, r.fingerprint, r.policy_decisions,
            r.unused_choices, r.unused_choice_data)


@pytest.mark.parametrize("path", SCENARIOS + RULINGS, ids=lambda p: f"{p.parent.parent.name}/{p.parent.name}/{p.stem}")
@pytest.mark.parametrize("how", [dict(strict=True), dict(strict=True, trace=False), dict(policy="random"),
                                 dict(policy="first", trace=False)], ids=["strict", "strict-untraced", "random", "first"])
def test_fast_tier_records_what_the_closure_tier_records(path, how):
    game, sc = load(path)
    slow = outcome(game, sc, True, **how)
    fast = outcome(game, sc, False, **how)
    if how.get("trace", True) and slow[0] != "error":
        assert len(fast[0]) == len(slow[0])
        for a, b in zip(fast[0], slow[0]):
            assert a == b
    assert fast == slow


ANCHOR = [(3, (True, False, True), 10, 1, 3, 0), (0, (), 7, 0, 3, 0), (5, (True, True, True), 12, 2, 3, 0),
          (4, (False, True), 20, 0, 0, 0), (2, (True, False), 10, 2, 2, 3), (3, (True, False, True), 10, 1, 1, 1)]


@pytest.mark.parametrize("params", ANCHOR, ids=lambda p: "-".join(map(str, (p[0], len(p[1]), *p[2:]))))
def test_fast_tier_on_the_anchor_turn(params):
    """The benchmark's turn (benchmarks/anchor): moves, draws and pending abilities written in place."""
    import sys
    from collections import namedtuple

    from tcgtiming.frontend.loader import load_bytes
    from tcgtiming.frontend.pipeline import compile_document
    sys.path.insert(0, str(ROOT / "benchmarks" / "anchor"))
    from model import GAME, scenario_yaml

    params = namedtuple("P", "plays attacks hand end_repeats tp_every ntp_every")(*params)
    res = compile_document(load_bytes(scenario_yaml(params).encode(), "anchor.yaml"), rules=str(GAME))
    assert res.scenario is not None, [(d.code, d.message) for d in res.diagnostics]
    for how in (dict(), dict(trace=False)):  # as the benchmark runs it (the policy discards)
        slow, fast = outcome(res.game, res.scenario, True, **how), outcome(res.game, res.scenario, False, **how)
        assert fast == slow and slow[0] != "error"
    src = "".join(program_for(res.game).fast_sources.values())
    assert "del S[" in src and "q.n = 0" in src and "t = NEW(Taken)" in src  # each written in place
    # the check timing procedure at its calls (no call of its function), its branch's witnesses as expressions
    assert "pc1" not in src and "('has_pending', " in src  # its blocks laid out: no block counter
    assert not re.search(r"r = F\d+\(st, None\)", src)
    # the phases called in place with no entry node (nothing jumps into or out of them): no block counter in the turn
    assert re.search(r"def F0\(st, e\):\n(    .*\n)*?    F2\(st, None\)\n    F3\(st, None\)\n", src)
    # plays onto the stage and reversals off it without move_card (nothing listens); the stage kept in slot order
    assert "st.move_card(c, 'stage')" not in src and "D.sort(key=SLOT" in src and "st.move_card(c, 'reversed')" not in src
    # an event of ids as a literal: a record of constants built once, when the code is compiled
    assert re.search(r"o\(\(\d+, \('begin',\)\)\)", src)
    # the check timing's frame pushed only around what calls out (its resolve), not around its firing in place
    assert "FR.append(" in src and not re.search(r"FR\.append\(\d+\)\n *en = EC\[", src)
    if params.tp_every and not params.ntp_every:  # one card listens to the check timing: its firing in place
        assert "EC = st.event_counts" in src and "st.firers[" not in src


def test_simulate_uses_the_fast_tier():
    game, sc = load(SCENARIOS[0])
    prog = program_for(game)
    prog.__dict__.pop("_fast_turns", None)
    prog._setups.clear()  # each scenario's setup keeps the turn functions it found
    simulate(game, sc, program=prog)
    simulate(game, sc, program=prog, trace=False)
    assert {key[0] for key in prog._fast_turns} == {True, False}  # (traced, events, stray plays, ...)
    src = "".join(prog.fast_sources.values())
    assert "def F0(st, e):" in src


@pytest.mark.parametrize("path", SCENARIOS[::3], ids=lambda p: f"{p.parent.parent.name}/{p.stem}")
def test_setup_code_and_setup_loop_start_the_same_run(path, monkeypatch):
    """A scenario's starting state made by its generated code, or by the loop that sets up large ones."""
    from tcgtiming.runtime.engine import template

    game, sc = load(path)
    coded = outcome(game, sc, False, strict=True)
    game, sc = load(path)  # a new scenario: its set-up made again
    monkeypatch.setattr(template, "CODE_CARDS", 0)
    assert outcome(game, sc, False, strict=True) == coded
    assert template.builder(program_for(game).setup(sc)).__code__.co_filename != "<tcgtiming scenario setup>"


def test_the_budget_stops_a_loop_written_in_place(variant):
    """A check timing whose first case always holds and goes back to the branch (its resolve finds
    nothing): the procedure is written in place at each call, its branch only reads (its steps go to
    the case's block, written at the branch), and the way back still tests the budget: both tiers
    stop with the same error, naming the same cycle, at the same step."""
    from conftest import MINI
    game_path = variant(("when: {has_pending: turn_player}", "when: {count: {zone: hand, player: turn_player, ge: 0}}"),
                        ('do: {resolve_pending: turn_player}}\n              - {kind: goto, target: "1"}',
                         'do: {resolve_pending: turn_player}}\n              - {kind: goto, target: "2"}'))
    res = compile_file(MINI.parent / "scenarios" / "lanes.yaml", rules=str(game_path))
    game, sc = res.game, dataclasses.replace(res.scenario, max_steps=3_000)
    for trace in (True, False):
        slow, fast = outcome(game, sc, True, trace=trace), outcome(game, sc, False, trace=trace)
        assert fast == slow and fast[:2] == ("error", "R502") and "repeats the cycle" in fast[2]
    src = "".join(program_for(game).fast_sources.values())
    assert not re.search(r"r = F\d+\(st, None\)", src)  # every check timing in place
    # the branch's block takes no step at its head: its step is the case's, taken with the case block's two
    assert re.search(r"\n( +)if pc1 == 2:\n\1    if \(len\(st\.zones\[SE\[0\]\]\['hand'\]\) >= 0\):\n\1        "
                     r"st\.left -= 3\n\1        if st\.left < 0:\n", src)
    for steps in (2_999, 3_000, 3_001):  # the same number of steps taken when the budget runs out
        few = dataclasses.replace(sc, max_steps=steps)
        assert outcome(game, few, False, trace=True) == outcome(game, few, True, trace=True)
