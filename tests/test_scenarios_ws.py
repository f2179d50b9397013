"""Weiß Schwarz example scenarios: the timing facts each one demonstrates, asserted entry by entry.

test_scenarios.py runs every shipped scenario strictly and checks its `expect:`; here the specific order of
entries, who acted, what happened and the final zones are asserted again, and some scenarios are re-run with
one thing changed (the first turn flag, the order of a deck, a player's pick) to show that the outcome comes
from the timing rule and not from the script.
"""
import dataclasses
from pathlib import Path

import pytest

from tcgtiming.frontend.pipeline import compile_file
from tcgtiming.runtime.engine import SimulationError, simulate, verify
from tcgtiming.core.scenario import Choice

ROOT = Path(__file__).resolve().parent.parent
WS = ROOT / "rules" / "ws" / "scenarios"
NAMES = ["front-attack-counter", "both-players-pending", "damage-cancel", "encore", "end-phase-again",
         "first-turn-one-attack"]


def load(name):
    path = WS / f"{name}.yaml"
    res = compile_file(path, str(path.relative_to(ROOT)))
    assert res.scenario is not None, [(d.code, d.line, d.message) for d in res.diagnostics]
    return res.game, res.scenario


def run(name, **changes):
    game, sc = load(name)
    if changes:
        sc = dataclasses.replace(sc, **changes)
    return simulate(game, sc, strict=True)


def zones(r):
    return {pid: dict(z) for pid, z in r.zones}


def at(es, node):
    """The entries at a node, in order."""
    return [e for e in es if e.node == node]


def index(es, node, after=-1):
    """Position of the first entry at `node` after position `after`."""
    return next(i for i, e in enumerate(es) if i > after and e.node == node)


def with_choices(sc, choices):
    loc = sc.choices[0].loc
    return tuple(Choice(at=c["at"], take=c.get("take"), card=c.get("card"), cards=tuple(c.get("cards", ())),
                        ability=c.get("ability"), target=None, loc=loc) for c in choices)


# --- all of them together ------------------------------------------------------------------------
def test_the_ws_scenarios_visit_every_phase_and_every_attack_step():
    game, _ = load("encore")
    phases, steps = set(), set()
    for name in NAMES:
        for e in run(name).entries:
            phases.add(e.phase)
            steps.add(e.step)
    want_phases = {c.id for c in game.containers.values() if c.kind == "phase"}
    want_steps = {c.id for c in game.containers.values() if c.kind == "step"}
    assert want_phases == {"stand", "draw", "clock", "main", "climax", "attack", "end"}
    assert want_phases <= phases
    assert want_steps <= steps


def test_a_ws_check_timing_is_not_a_priority_window():
    # Weiß Schwarz has no priority windows: nobody ever holds priority, nothing waits on a stack
    for name in NAMES:
        for e in run(name).entries:
            assert e.priority is None and e.stack == (), (name, e.seq, e.node)


# --- pending abilities of both players ---------------------------------------------------------
def resolutions(es, end_node):
    stop = index(es, end_node)
    return [e for e in es[:stop] if e.node in ("check_timing.2.pending.1", "check_timing.3.pending.1")]


def test_both_pending_all_trigger_at_the_start_of_the_turn():
    es = run("both-players-pending").entries
    trig = at(es, "stand.1")[0]
    assert dict(trig.pending) == {"p1": (("a-herald", "herald"),), "p2": (("b-sniper", "sniper"), ("b-watcher", "watcher"))}
    assert trig.event == ("trigger", "turn_start", (("p1", "a-herald", "herald"), ("p2", "b-sniper", "sniper"),
                                                    ("p2", "b-watcher", "watcher")))


def test_both_pending_turn_player_first_and_again_after_every_resolution():
    es = run("both-players-pending").entries
    res = resolutions(es, "stand.3")
    assert [(e.actor, e.role) for e in res] == [("p1", "turn_player"), ("p2", "non_turn_player"),
                                                ("p1", "turn_player"), ("p2", "non_turn_player")]
    assert [e.event[:3] for e in res] == [
        ("resolve", "p1", "a-herald"), ("resolve", "p2", "b-sniper"), ("resolve", "p1", "a-martyr"), ("resolve", "p2", "b-watcher")]
    # Sniper sent Martyr to the waiting room; Martyr's ability is pending next to Bob's Watcher ...
    sniper = res[1]
    assert sniper.event[4] == (("move", ("a-martyr",), "stage", "waiting_room"),)
    assert sniper.changes == (("move", "a-martyr", "stage", "waiting_room"), ("state", "a-martyr", "rest", None))
    assert dict(sniper.pending) == {"p1": (("a-martyr", "martyr"),), "p2": (("b-watcher", "watcher"),)}
    # ... and it is the turn player's, so it resolves before Bob's second ability
    assert res[2].event == ("resolve", "p1", "a-martyr", "martyr", (("draw", "p1", ("a-d2",)),))
    # one ability at a time: rule processing (1.) runs again between any two resolutions
    for a, b in zip(res, res[1:]):
        between = [e.node for e in es[a.seq:b.seq - 1]]
        assert between[:2] == ["check_timing.2.pending.2" if a.actor == "p1" else "check_timing.3.pending.2",
                               "check_timing.1"], between
    # all of it happens in the check timing at stand.2, before the characters are stood up
    assert res[-1].seq < index(es, "stand.3")
    assert at(es, "stand.3")[0].event == ("set_state", ("a-herald",), "stand")


def test_both_pending_the_interleaving_comes_from_the_new_trigger_not_from_alternation():
    # Bob resolves Watcher first: nothing new triggers, so Bob resolves twice in a row, then Martyr waits
    game, sc = load("both-players-pending")
    choices = [{"at": "check_timing.3.pending.1", "ability": "watcher"}] + [
        {"at": c.at, "take": c.take} for c in sc.choices if c.at != "check_timing.3.pending.1"]
    r = simulate(game, dataclasses.replace(sc, choices=with_choices(sc, choices)), strict=True)
    res = resolutions(r.entries, "stand.3")
    assert [e.event[:3] for e in res] == [
        ("resolve", "p1", "a-herald"), ("resolve", "p2", "b-watcher"), ("resolve", "p2", "b-sniper"), ("resolve", "p1", "a-martyr")]


def test_both_pending_final_zones():
    z = zones(run("both-players-pending"))
    assert z["p1"]["hand"] == ("a-d1", "a-d2", "a-d3")  # Herald, Martyr, then the draw phase
    assert z["p1"]["stage"] == ("a-herald",) and z["p1"]["waiting_room"] == ("a-martyr",)
    assert z["p2"]["hand"] == ("b-d1",)


# --- a damage cancelled by a climax -------------------------------------------------------------
def test_damage_cancel_the_climax_cancels_the_whole_damage():
    es = run("damage-cancel").entries
    soul = at(es, "attack.declaration.3.attack.1.direct.1")[0]
    assert soul.event == ("modify", "a-att", "soul", 1, 3) and soul.changes == (("stat", "a-att", "soul", 2, 3),)
    reveals = at(es, "damage.1.1")
    assert [e.event for e in reveals] == [("reveal", ("b-d1",)), ("reveal", ("b-cx",))]  # 3 points, 2 cards
    assert all(e.actor == "p2" and e.role == "non_turn_player" for e in reveals)
    cancel = at(es, "damage.1.2.cancel.1")[0]
    assert cancel.event == ("move", ("b-d1", "b-cx"), "resolution", "waiting_room")
    i = index(es, "damage.1.2.cancel.2")
    assert es[i + 1].node == "damage.end"  # the third point is never dealt
    assert not at(es, "damage.2")  # nothing goes to the clock


def test_damage_cancel_final_zones():
    z = zones(run("damage-cancel"))
    assert "clock" not in z["p2"]
    assert z["p2"]["waiting_room"] == ("b-d1", "b-cx")
    assert z["p2"]["deck"] == ("b-d3", "b-d4")


def test_damage_cancel_without_a_climax_in_reach_all_three_go_to_the_clock():
    game, sc = load("damage-cancel")
    players = tuple((pid, name, tuple((zn, ("b-d1", "b-d3", "b-d4", "b-cx") if pid == "p2" and zn == "deck" else ids)
                                      for zn, ids in zs)) for pid, name, zs in sc.players)
    r = simulate(game, dataclasses.replace(sc, players=players), strict=True)
    assert not at(r.entries, "damage.1.2.cancel.1")
    assert at(r.entries, "damage.2")[0].event == ("move", ("b-d1", "b-d3", "b-d4"), "resolution", "clock")
    assert zones(r)["p2"]["clock"] == ("b-d1", "b-d3", "b-d4")


# --- the encore step ---------------------------------------------------------------------------
def test_encore_the_tie_reverses_both():
    es = run("encore").entries
    battle = at(es, "attack.battle.4")[0]
    assert battle.event == ("battle_power", 3000, 3000, ("a-att", "b-def"))
    assert battle.changes == (("state", "a-att", "rest", "reverse"), ("state", "b-def", "stand", "reverse"))


def test_encore_turn_player_first_each_followed_by_its_check_timing():
    es = run("encore").entries
    alice_out = index(es, "attack.encore.3.reversed.1")
    built_in = index(es, "attack.encore.3.reversed.2", alice_out)
    check = index(es, "attack.encore.3.reversed.3", alice_out)
    back = index(es, "attack.encore.3.reversed.4", check)
    resolve = index(es, "check_timing.2.pending.1", check)
    bob_out = index(es, "attack.encore.4.reversed.1")
    assert alice_out < built_in < check < resolve < back < bob_out
    a, b = es[alice_out], es[bob_out]
    assert (a.actor, a.role, a.event) == ("p1", "turn_player", ("move", ("a-att",), "stage", "waiting_room"))
    assert dict(es[built_in].pending)["p1"] == (("a-att", "encore"),)  # the rule file's built-in encore
    assert (b.actor, b.role, b.event) == ("p2", "non_turn_player", ("move", ("b-def",), "stage", "waiting_room"))
    r = es[resolve]
    assert (r.actor, r.role) == ("p1", "turn_player")
    assert r.event == ("resolve", "p1", "a-att", "encore", (
        ("move", ("a-s1", "a-s2", "a-trig"), "stock", "waiting_room"),  # the cost
        ("move", ("a-att",), "waiting_room", "stage"), ("set_state", ("a-att",), "rest")))
    # after the encore Alice has no reversed character: 3. goes on, only then Bob's 4.
    assert es[back + 1].node == "attack.encore.3" and es[back + 2].node == "attack.encore.3.else.1"
    bob_encore = [e for e in es[bob_out:] if e.node.endswith("pending.1")]  # Bob's Wall: 2 stock, no encore
    assert [(e.actor, e.event) for e in bob_encore] == [("p2", ("cannot_pay", "p2", "b-def", "encore"))]


def test_encore_final_zones():
    z = zones(run("encore"))
    assert z["p1"]["stage"] == ("a-att", "a-aide")
    assert z["p1"]["waiting_room"] == ("a-s1", "a-s2", "a-trig") and "stock" not in z["p1"]
    assert z["p2"]["waiting_room"] == ("b-def",) and "stage" not in z["p2"]
    assert z["p2"]["clock"] == ("b-d1",)


# --- the end phase repeating -------------------------------------------------------------------
def test_end_phase_again_the_climax_draws_after_the_hand_was_trimmed():
    es = run("end-phase-again").entries
    first_trim = index(es, "end.3")
    cx = index(es, "end.4", first_trim)
    draw = index(es, "check_timing.2.pending.1", cx)
    again = index(es, "end.6.again.1", draw)
    second_trim = index(es, "end.3", again)
    assert first_trim < cx < draw < again < second_trim
    assert es[first_trim].event == ("within_limit", 7, 7)
    assert es[cx].event == ("move", ("a-cx",), "climax", "waiting_room")
    assert dict(es[cx].pending)["p1"] == (("a-cx", "gift"),)
    assert es[draw].event[4][-1] == ("draw", "p1", ("a-d2", "a-d3"))
    again_entry = at(es, "end.6")[0]
    assert again_entry.event[:2] == ("case", "again")
    # what the repeat tested: 9 cards in hand (over the limit) held; no ability was left untriggered
    (case, facts), = again_entry.event[2]
    assert case == "again" and ("count", "p1", 9, ("hand",), True) in facts
    assert es[second_trim].event == ("discard", 2, ("a-h1", "a-h2"))
    assert (es[second_trim].actor, es[second_trim].role) == ("p1", "turn_player")


def test_end_phase_again_the_whole_phase_runs_twice_then_the_turn_ends():
    es = run("end-phase-again").entries
    assert len(at(es, "end.begin")) == 2
    assert len(at(es, "end.1")) == 2  # the end-of-turn trigger point comes again
    assert [e.event[:2] if e.event[0] == "case" else e.event[:1] for e in at(es, "end.6")] == [("case", "again"), ("otherwise",)]
    assert es[-1].node == "turn.end"


def test_end_phase_again_final_zones():
    z = zones(run("end-phase-again"))
    assert z["p1"]["hand"] == ("a-h3", "a-h4", "a-h5", "a-h6", "a-d1", "a-d2", "a-d3")
    assert z["p1"]["waiting_room"] == ("a-cx", "a-h1", "a-h2")
    assert "climax" not in z["p1"]


# --- the first turn of the game ----------------------------------------------------------------
def test_first_turn_only_one_attack():
    es = run("first-turn-one-attack").entries
    decl = at(es, "attack.declaration.3")
    assert [e.event for e in decl] == [("choose", "attack", None), ("choose", "stop", None)]
    assert len(at(es, "attack.declaration.3.attack.1")) == 1
    assert at(es, "attack.declaration.3.attack.1")[0].event == ("choose", "direct", ("attack", "a-left", None, True))
    assert zones(run("first-turn-one-attack"))["p2"]["clock"] == ("b-d1", "b-d2")


def two_attacks(sc):
    return with_choices(sc, [
        {"at": "clock.3", "take": "not_placed"}, {"at": "main.3", "take": "nothing"},
        {"at": "climax.3", "take": "not_placed"},
        {"at": "attack.declaration.3", "take": "attack"},
        {"at": "attack.declaration.3.attack.1", "take": "direct", "card": "a-left"},
        {"at": "attack.declaration.3", "take": "attack"},
        {"at": "attack.declaration.3.attack.1", "take": "direct", "card": "a-centre"},
        {"at": "attack.declaration.3", "take": "stop"}])


def test_first_turn_a_second_attack_is_refused():
    game, sc = load("first-turn-one-attack")
    with pytest.raises(SimulationError) as exc:
        simulate(game, dataclasses.replace(sc, choices=two_attacks(sc)), strict=True)
    assert exc.value.code == "R503"
    assert "option 'attack' of 'attack.declaration.3' is not available now (available: stop)" in exc.value.message


def test_not_the_first_turn_the_second_character_attacks_too():
    game, sc = load("first-turn-one-attack")
    r = simulate(game, dataclasses.replace(sc, first_turn=False, choices=two_attacks(sc)), strict=True)
    attacks = at(r.entries, "attack.declaration.3.attack.1")
    assert [e.event[2] for e in attacks] == [("attack", "a-left", None, True), ("attack", "a-centre", None, True)]
    assert zones(r)["p2"]["clock"] == ("b-d1", "b-d2", "b-d3", "b-d4")
    assert r.result == "ongoing"


# --- scenarios that once waited for interpreter fixes ----------------------------------------
def run_pending(name):
    path = WS / f"{name}.yaml"
    res = compile_file(path, str(path.relative_to(ROOT)), rules=str(ROOT / "rules" / "ws" / "game.yaml"))
    assert res.scenario is not None, [(d.code, d.line, d.message) for d in res.diagnostics]
    r = simulate(res.game, res.scenario, strict=True)
    return res.scenario, r


def test_end_phase_again_one_choice_per_decision():
    sc, r = run_pending("end-phase-again")
    assert verify(r, sc) == [] and r.unused_choices == ()
    assert [e.event for e in at(r.entries, "end.3")] == [("within_limit", 7, 7), ("discard", 2, ("a-h1", "a-h2"))]


def test_a_single_loss_at_rule_processing_is_not_a_draw():
    sc, r = run_pending("loss-at-check-timing")
    assert (r.result, r.losers) == ("lose", ("p1",))
    assert verify(r, sc) == []
    rule, rp = at(r.entries, "check_timing.1")[-2:]  # the rule applied is an entry of its own
    assert (rule.kind, rule.event, rule.changes) == ("rule", ("rule", "loss_no_cards", "p1", (("loses", ("p1",)),)), (("lose", "p1"),))
    assert rp.event == ("rule_processing", 1)
    assert r.entries[-1].node == "check_timing.loss.turn_player.1"


def test_encore_paid_as_a_cost_and_back_to_its_slot():
    sc, r = run_pending("encore")
    z = zones(r)
    assert z["p1"]["stage"] == ("a-att", "a-aide")  # back in its own slot, left of Aide
    assert z["p1"]["waiting_room"] == ("a-s1", "a-s2", "a-trig")  # the 3 stock paid
    assert z["p2"]["stock"] == ("b-s1", "b-s2") and z["p2"]["waiting_room"] == ("b-def",)  # 2 stock: no encore
    assert verify(r, sc) == [] and r.unused_choices == ()
