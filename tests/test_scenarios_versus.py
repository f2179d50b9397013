"""The VERSUS TCG example scenarios (rules/versus/scenarios/), asserted entry by entry.

test_scenarios.py already runs every shipped scenario strictly and checks its `expect:`; here each
scenario's timing is pinned down further: who acts in which order, what each entry did, the stack
and the priority in the windows, and the final zones. Every assertion would break if the timing
were wrong (resolving oldest first, the first-turn draw applied to both players, the hand limit
checked for the block side, ...).
"""
from pathlib import Path

import pytest

from tcgtiming.frontend.pipeline import compile_file
from tcgtiming.runtime.engine import PREDICATES, Program, SimulationError, simulate

ROOT = Path(__file__).resolve().parent.parent
HERE = ROOT / "rules" / "versus" / "scenarios"
RULES = str(ROOT / "rules" / "versus" / "game.yaml")


def compiled(name):
    path = HERE / name
    res = compile_file(path, str(path.relative_to(ROOT)), rules=RULES)
    assert res.scenario is not None, [(d.code, d.line, d.message) for d in res.diagnostics]
    return res


def run(name):
    res = compiled(name)
    r = simulate(res.game, res.scenario, strict=True)
    assert r.unused_choices == () and r.policy_decisions == 0
    return r


def zones(r):
    return {pid: dict(z) for pid, z in r.zones}


def at(r, node, turn=None):
    return [e for e in r.entries if e.node == node and (turn is None or e.turn == turn)]


def one(r, node, turn=None):
    found = at(r, node, turn)
    assert len(found) == 1, (node, turn, [e.event for e in found])
    return found[0]


# --- ① ② ③ in the standby phase: resolved newest first ----------------------------------------
LEADER, WARD, DISPEL = ("a-leader", "bolt", False), ("b-char", "ward", False), ("a-magic", "dispel", False)


def test_standby_exchange_alternates_from_the_attack_side_and_stacks_each_use():
    r = run("standby-newest-first.yaml")
    w = at(r, "standby.actions")
    plays = [e for e in w if e.event[0] == "window_play"]
    assert [(e.actor, e.role) for e in plays] == [("p1", "attack_side"), ("p2", "block_side"), ("p1", "attack_side")]
    assert [e.priority for e in plays] == ["p1", "p2", "p1"]  # the player acting holds priority
    # nothing resolves when used: each use only goes onto the stack, on top of the one it answers
    assert plays[0].stack == (LEADER,)
    assert plays[1].stack == (LEADER, WARD)
    assert plays[2].stack == (LEADER, WARD, DISPEL)
    assert [e.event[:4] for e in plays] == [("window_play",) + x[:2] + (None,) for x in (LEADER, WARD, DISPEL)]  # onto the stack
    assert plays[2].event[4] == (("move", ("a-magic",), "hand", "discard"),)  # what the magic item's use cost
    assert plays[2].changes == (("move", "a-magic", "hand", "discard"),)  # the magic item, used


def test_standby_one_pass_does_not_end_the_exchange_two_in_a_row_resolve_newest_first():
    r = run("standby-newest-first.yaml")
    w = at(r, "standby.actions")
    # ④ the block side passes: one pass, the stack still waits
    assert (w[3].actor, w[3].role, w[3].event) == ("p2", "block_side", ("pass", 1))
    assert w[3].stack == (LEADER, WARD, DISPEL)
    # ⑤ the attack side passes: two in a row
    assert (w[4].actor, w[4].role, w[4].event) == ("p1", "attack_side", ("pass", 2))
    assert w[4].stack == (LEADER, WARD, DISPEL)
    # then the stack resolves, by the rules (no actor, no priority), from the last use back to the first
    done = w[5:8]
    assert all(e.kind == "resolve" and e.actor is None and e.priority is None for e in done)
    assert [e.event for e in done] == [
        ("resolved", "p1", "a-magic", "dispel", (("negate", "b-char", "ward"),)),  # ③ negates ②
        ("resolved", "p2", "b-char", "ward", None),                               # ② no longer negates ①
        ("resolved", "p1", "a-leader", "bolt", (("damage_card", "b-char", 2, "discard"),)),  # ① 2 damage: DP1 -> discarded
    ]
    # a card leaving the field loses its field state (the field keeps_state): it is not active in the discard pile
    assert done[2].changes == (("damage", "b-char", 2, 2), ("move", "b-char", "field", "discard"),
                               ("state", "b-char", "active", None))
    assert (w[8].event, w[8].stack) == (("stack_resolved", 3), ())
    # after resolving, the phase ends: the example's ⑤ pass is the end (the window's after_resolve: close)
    assert len(w) == 9
    nodes = [e.node for e in r.entries]
    assert nodes.index("standby.end") == r.entries.index(w[-1]) + 1


def test_standby_example_final_zones():
    z = zones(run("standby-newest-first.yaml"))
    assert z["p2"] == {"discard": ("b-char",)}  # the AP1/DP1 character took ①'s 2 damage
    assert z["p1"]["discard"] == ("a-magic",)     # the magic item, used
    assert z["p1"]["leader"] == ("a-leader",)
    assert z["p1"]["hand"] == ("a-d1",)


# --- battle by AP/DP: the page's two examples -------------------------------------------------
def battle_order(r):
    nodes = [e.node for e in r.entries]
    closes = next(e for e in at(r, "battle.actions") if e.event == ("window_closes",))
    return nodes, r.entries.index(closes)


@pytest.mark.parametrize("name", ["battle-blocker-discarded.yaml", "battle-both-discarded.yaml"])
def test_battle_declarations_then_exchange_then_comparison(name):
    r = run(name)
    nodes, closed = battle_order(r)
    att = one(r, "battle.attack.declare.1")
    blk = one(r, "battle.attack.declare.block.block.1")
    assert (att.actor, att.role) == ("p1", "attack_side")
    assert (blk.actor, blk.role) == ("p2", "block_side") and blk.event == ("block", "b-blk")
    assert att.seq < blk.seq < closed + 1 < nodes.index("fight.result")  # AP/DP only after the exchange closed
    assert "battle.outcome.unblocked.1" not in nodes  # blocked: no damage to the block side's leader
    assert one(r, "battle.outcome").event[:2] == ("case", "blocked")


def test_battle_example_1_only_the_blocker_is_discarded():
    r = run("battle-blocker-discarded.yaml")
    # the attacker entered sleeping; reload ③ made it active, so it can attack this turn
    wake = one(r, "reload.wake")
    assert wake.event == ("set_state", ("a-att",), "active") and wake.changes == (("state", "a-att", "sleep", "active"),)
    assert wake.seq < one(r, "battle.attack.declare.1").seq
    assert one(r, "battle.attack.declare.1").event == ("attack", "a-att", None, False)
    assert one(r, "fight.result").event[:2] == ("case", "blocker")  # only the attacker's AP reaches: AP2 ≥ DP1, AP1 < DP2
    gone = one(r, "fight.result.blocker.1")
    assert (gone.actor, gone.role, gone.event) == ("p2", "block_side", ("move", ("b-blk",), "field", "discard"))
    nodes = [e.node for e in r.entries]
    assert "fight.result.both.discarded" not in nodes and "fight.result.attacker.1" not in nodes
    z = zones(r)
    assert z["p1"]["field"] == ("a-att",) and "discard" not in z["p1"]
    assert z["p2"] == {"discard": ("b-blk",)}


def test_battle_example_2_equal_ap_and_dp_discards_both():
    r = run("battle-both-discarded.yaml")
    assert one(r, "fight.result").event[:2] == ("case", "both")  # each AP reaches the other's DP: AP2 ≥ DP1 and AP1 = DP1
    # one outcome, both at once (the example's "together"): one entry of the rules moves both characters
    both = one(r, "fight.result.both.discarded")
    assert both.event == ("together", (("move", ("b-blk",), "field", "discard"), ("move", ("a-att",), "field", "discard")))
    assert [c[1] for c in both.changes if c[0] == "move"] == ["b-blk", "a-att"]
    assert [e.node for e in r.entries].count("fight.result.both.discarded") == 1
    z = zones(r)
    assert "field" not in z["p1"] and z["p1"]["discard"] == ("a-att",)
    assert z["p2"] == {"discard": ("b-blk",)}


# --- reload phase ------------------------------------------------------------------------------
def test_reload_first_turn_no_draw_only_for_the_starting_player():
    r = run("reload-first-turn-no-draw.yaml")
    t1 = one(r, "reload.draw", turn=1)
    assert t1.event[:2] == ("case", "first_turn")
    assert at(r, "reload.draw.else.1", turn=1) == [] and at(r, "reload.draw.else.replenish", turn=1) == []
    t2 = one(r, "reload.draw", turn=2)
    assert t2.event[:1] == ("otherwise",)
    drew = one(r, "reload.draw.else.1", turn=2)
    assert (drew.actor, drew.role, drew.event) == ("p2", "attack_side", ("draw", "p2", ("b-d1",)))
    z = zones(r)
    assert z["p1"] == {"deck": ("a-d1",)} and z["p2"] == {"hand": ("b-d1",)}


def test_roles_swap_between_turns():
    r = run("reload-first-turn-no-draw.yaml")
    for turn, attack, block in ((1, "p1", "p2"), (2, "p2", "p1")):
        assert (one(r, "battle.attack", turn).actor, one(r, "battle.attack", turn).role) == (attack, "attack_side")
        w = at(r, "standby.actions", turn)
        assert [(e.actor, e.role) for e in w if e.actor] == [(attack, "attack_side"), (block, "block_side")]
        assert w[0].priority == attack  # the attack side acts first in the exchange
    turn2 = [e for e in r.entries if e.turn == 2]
    assert turn2[0].node == "turn.begin" and turn2[1].node == "reload.begin"  # the next turn starts at the reload phase


def test_reload_steps_run_one_to_five_in_order():
    r = run("reload-steps-in-order.yaml")
    seq = [one(r, n) for n in ("reload.draw.else.1", "reload.draw.else.replenish.extra.1", "reload.magic_up",
                               "reload.wake", "reload.place_magic", "reload.move_to_magic.move.1")]
    assert [e.seq for e in seq] == sorted(e.seq for e in seq)
    assert all((e.actor, e.role) == ("p1", "attack_side") for e in seq)
    draw, extra, up, wake, place, move = seq
    assert draw.event == ("draw", "p1", ("a-d1",))
    assert one(r, "reload.draw.else.replenish").event[:2] == ("case", "extra")
    assert extra.event == ("draw", "p1", ("a-d2",))  # one more for the one 補充 character
    assert up.event == ("set_state", ("a-m1",), "face_up")  # ② before ④: the card put down at ④ is not in it
    assert wake.event == ("set_state", ("a-c1",), "active")  # ③ before ⑤: the sleeping one can be moved
    assert place.event == ("does", ("place", "a-m2", "hand", "magic"))
    assert move.event == ("move", ("a-c1",), "field", "magic")
    z = zones(r)
    assert z["p1"] == {"hand": ("a-d1", "a-d2"), "magic": ("a-m1", "a-m2", "a-c1")}


# --- end phase: hand limit and the swap --------------------------------------------------------
def hands_at_end_phase(game):
    """A program whose end-phase hand-limit condition also records both hands each time it is tested
    (the predicates are compiled by name, so a table of one's own can wrap one of them)."""
    seen = []

    def count(cx, a):
        test = PREDICATES["count"](cx, a)
        if cx.node is None or cx.node.id != "end.hand":
            return test

        def spy(st):
            seen.append((st.turn_index + 1, st.seat[0], {p: len(st.zones[p]["hand"]) for p in st.players}))
            return test(st)
        return spy
    return Program(game, predicates={**PREDICATES, "count": count}), seen


def test_end_phase_counts_only_the_attack_sides_hand_and_roles_swap():
    res = compiled("end-hand-limit-and-swap.yaml")
    prog, seen = hands_at_end_phase(res.game)
    r = simulate(res.game, res.scenario, strict=True, program=prog)
    # turn 1: Alice at exactly 7 (not over), Bob at 8 but he is the block side: no one discards
    # turn 2: Bob, now the attack side, drew to 9 but played two cards and is back at 7
    # (the trace's loop entry tests the condition again to record what it found: the same state)
    assert [x for k, x in enumerate(seen) if k == 0 or seen[k - 1] != x] == [(1, "p1", {"p1": 7, "p2": 8}), (2, "p2", {"p1": 7, "p2": 7})]
    assert at(r, "end.hand.1") == []
    assert [e.event[:2] for e in at(r, "end.hand")] == [("loop", False)] * 2
    # what the loop tested: the attack side's hand only, 7 cards each time
    assert [e.event[2] for e in at(r, "end.hand")] == [((None, (("count", who, 7, ("hand",), False),)),) for who in ("p1", "p2")]
    for turn, who in ((1, "p1"), (2, "p2")):
        e = one(r, "end.end_turn", turn)
        assert (e.actor, e.role) == (who, "attack_side")
        nodes = [x.node for x in r.entries if x.turn == turn]
        assert nodes.index("battle.end") < nodes.index("end.end_turn") < nodes.index("end.hand") < nodes.index("turn.end")
    assert one(r, "reload.draw.else.1", turn=2).event == ("draw", "p2", ("b-d1",))
    assert one(r, "reload.place_magic", turn=2).event == ("does", ("place", "b-m1", "hand", "magic"))
    assert one(r, "place_character.put.else.1", turn=2).event == ("place", "b-c1", "hand", "field")
    z = zones(r)
    assert z["p1"] == {"hand": ("a-h1", "a-h2", "a-h3", "a-h4", "a-h5", "a-h6", "a-d1")}
    assert z["p2"] == {"hand": ("b-h1", "b-h2", "b-h3", "b-h4", "b-h5", "b-h6", "b-d1"),
                       "magic": ("b-m0", "b-m1"), "field": ("b-c1",)}


def test_end_phase_discard_down_to_seven():
    res = compiled("end-hand-limit-discard.yaml")
    r = simulate(res.game, res.scenario, strict=True)
    d1, d2 = one(r, "end.hand.1", 1), one(r, "end.hand.1", 2)
    assert (d1.actor, d1.role, d1.event) == ("p1", "attack_side", ("discard", 1, ("a-h1",)))
    assert (d2.actor, d2.role, d2.event) == ("p2", "attack_side", ("discard", 2, ("b-h1", "b-h2")))
    z = zones(r)
    assert z["p1"]["discard"] == ("a-h1",) and len(z["p1"]["hand"]) == 7
    assert z["p2"]["discard"] == ("b-h1", "b-h2") and len(z["p2"]["hand"]) == 7


def test_every_phase_is_visited():
    phases = set()
    for path in sorted(HERE.glob("*.yaml")):
        phases |= {e.phase for e in run(path.name).entries if e.phase}
    assert phases == {"reload", "standby", "battle", "end"}


def test_placing_pays_e_in_usable_magic_and_refuses_what_cannot_be_paid(tmp_path):
    path = HERE / "end-hand-limit-and-swap.yaml"
    r = simulate(*_loaded(path))
    pay = one(r, "place_character.pay", turn=2)
    assert (pay.actor, pay.event) == ("p2", ("pay", 1, "b-c1", ("b-m0",), "face_down"))
    assert pay.changes == (("state", "b-m0", "face_up", "face_down"),)
    # the same placement with E 2 and one usable magic card cannot be paid
    text = path.read_text(encoding="utf-8").replace("stats: {e: 1, ap: 1, dp: 1}", "stats: {e: 2, ap: 1, dp: 1}")
    dear = tmp_path / "dear.yaml"
    dear.write_text(text, encoding="utf-8")
    with pytest.raises(SimulationError) as exc:
        simulate(*_loaded(dear))
    assert exc.value.code == "R503" and "Squire [b-c1] costs 2 (e); 1 chosen/usable in magic" in exc.value.message


def _loaded(path):
    res = compile_file(path, rules=str(HERE.parent / "game.yaml"))
    assert res.scenario is not None, [(d.code, d.message) for d in res.diagnostics]
    return res.game, res.scenario
