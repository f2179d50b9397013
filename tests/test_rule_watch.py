"""Rule processing skips a scan of the rules when none applied at the last one and nothing they read
has changed since (``abilities.rule_watch``: rules reading only zone counts and 'lost'). Skipping
must not change anything a run records: every shipped scenario and ruling gives the same entries,
result and final state with the watches as with every scan made; and on a game whose rules read
only zone counts, scans are skipped."""
from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from tcgtiming.core import model as m
from tcgtiming.frontend.pipeline import compile_file
from tcgtiming.runtime.engine import SimulationError, simulate
from tcgtiming.runtime.engine.program import Program

ROOT = Path(__file__).resolve().parent.parent
PATHS = sorted((ROOT / "rules").glob("*/scenarios/*.yaml")) + sorted((ROOT / "rules").glob("*/rulings/*.yaml"))


def load(path):
    res = compile_file(path, str(path.relative_to(ROOT)))
    return res.game, (res.scenario if res.scenario is not None else res.ruling.scenario)


def program(game, sc, watching: bool) -> Program:
    prog = Program(game, players=len(sc.players))
    if not watching:  # every scan made, as without the watches
        prog.interrupt_watch = prog.check_watch = None
    return prog


def outcome(game, sc, prog, **kw):
    try:
        r = simulate(game, sc, program=prog, **kw)
    except SimulationError as exc:
        return ("error", exc.code, exc.message)
    return (r.entries, r.result, r.losers, r.zones, r.board, r.fingerprint[:-1], r.policy_decisions)


@pytest.mark.parametrize("path", PATHS, ids=lambda p: f"{p.parent.parent.name}/{p.parent.name}/{p.stem}")
@pytest.mark.parametrize("how", [dict(strict=True), dict(policy="random"), dict(policy="first", trace=False)],
                         ids=["strict", "random", "first-untraced"])
def test_watching_the_rules_changes_nothing_recorded(path, how):
    game, sc = load(path)
    assert outcome(game, sc, program(game, sc, True), **how) == outcome(game, sc, program(game, sc, False), **how)


def zones_counted(cond) -> set:
    """The zones the count predicates of a condition name."""
    if isinstance(cond, m.Not):
        return zones_counted(cond.cond)
    if isinstance(cond, (m.All, m.AnyOf)):
        return set().union(*(zones_counted(c) for c in cond.conds))
    return {dict(cond.args)["zone"]} if cond.name == "count" else set()


def test_rules_reading_zone_counts_are_scanned_only_after_such_a_move():
    path = next(p for p in PATHS if p.parent.parent.name == "ws")
    game, sc = load(path)
    kinds = {rp.type for rp in game.rule_processes.values()}
    assert kinds == {"interrupt", "check"}  # (the game this test is about)
    prog = program(game, sc, True)
    for rules, watch in ((prog.interrupt_rules, prog.interrupt_watch), (prog.check_rules, prog.check_watch)):
        assert watch == set().union(*(zones_counted(rp.when) for rp in rules if rp.when is not None))
    scans = {}
    for watching in (True, False):
        prog = program(game, sc, watching)
        counted = [0]
        scan, pairs = prog.interrupt_scan

        def counting(st, k, scan=scan, counted=counted):
            counted[0] += 1
            return scan(st, k)
        prog.interrupt_scan = (counting, pairs)
        simulate(game, sc, program=prog, strict=True)
        scans[watching] = counted[0]
    assert 0 < scans[True] < scans[False]


def test_a_rule_reading_more_than_zone_counts_is_scanned_every_time():
    path = next(p for p in PATHS if p.parent.parent.name == "ws")
    game, sc = load(path)
    rp = next(r for r in game.rule_processes.values() if r.type == "interrupt")
    other = m.Pred("player_value", (("le", 0), ("player", "self"), ("value", "life")))
    rp_when = rp.when
    try:
        object.__setattr__(rp, "when", m.All((rp_when, other)))
        prog = program(game, sc, True)
    finally:
        object.__setattr__(rp, "when", rp_when)
    assert prog.interrupt_watch is None and prog.check_watch is not None


def test_a_rule_reading_a_seat_is_scanned_again_when_the_seats_turn():
    """A rule reading the turn player's deck: when the turn passes, the seats turn and the rule reads
    another player's deck, with no card moved. Its scan is due again (as every scan made finds)."""
    path = next(p for p in PATHS if p.parent.parent.name == "gundam" and p.parent.name == "scenarios")
    game, sc = load(path)
    rp = next(r for r in game.rule_processes.values() if r.type == "interrupt")
    seated = m.All((m.Pred("count", (("eq", 0), ("player", "attack_side"), ("zone", "deck"))),
                    m.Not(m.Pred("lost", (("player", "self"),)))))
    p1, p2 = sc.players[0], sc.players[1]
    empty = (p2[0], p2[1], tuple((z, cards) for z, cards in p2[2] if z != "deck"))
    two_turns = dataclasses.replace(sc, turns=2, choices=(), players=[p1, empty] + list(sc.players[2:]))
    rp_when = rp.when
    try:
        object.__setattr__(rp, "when", seated)
        runs = [outcome(game, two_turns, program(game, two_turns, watching), policy="pass") for watching in (True, False)]
    finally:
        object.__setattr__(rp, "when", rp_when)
    assert runs[0] == runs[1]
    assert runs[1][0] != "error" and runs[1][1] != "ongoing"  # the rule ended the game in the second turn
