"""The Gundam War example scenarios, entry by entry.

test_scenarios.py runs every shipped scenario strictly and checks its `expect:`; this file asserts the
timing facts each Gundam War scenario exists to show: who holds priority, what waits on the stack, what
resolves first, which timings are closed, and where the cards end up. Each assertion would fail if the
timing were modelled wrongly (oldest-first resolution, a cut-in at the reroll phase's start, battle damage
before the damage judgment step, hand adjustment before the end-of-turn effects, ...).
"""
from pathlib import Path

import pytest

from tcgtiming.frontend.pipeline import compile_file
from tcgtiming.runtime.engine import simulate

ROOT = Path(__file__).resolve().parent.parent
GAME = ROOT / "rules" / "gundam" / "game.yaml"
SCENARIOS = ROOT / "rules" / "gundam" / "scenarios"


def run(name):
    path = SCENARIOS / name
    res = compile_file(path, str(path.relative_to(ROOT)))
    assert res.scenario is not None, [(d.code, d.line, d.message) for d in res.diagnostics]
    return simulate(res.game, res.scenario, strict=True)


# every player keeps a nation: a player whose nation runs out loses (the rule process defeat), so each
# scenario puts three more cards at the bottom of each nation, below the cards it draws
NATION = {p: tuple(f"{p}-nation-{k}" for k in (1, 2, 3)) for p in ("p1", "p2")}


def zones(r):
    return {pid: dict(z) for pid, z in r.zones}


def at(entries, node):
    return [e for e in entries if e.node == node]


def seq(entries, node, pred=lambda e: True):
    return next(e.seq for e in entries if e.node == node and pred(e))


def code(e):
    return e.event[0]


def plays_of(entries):
    return [e for e in entries if code(e) == "window_play"]


def resolved(entries):
    """The items resolved when a window closes (each an entry of its own), and the window's entry after them."""
    i = next(k for k, e in enumerate(entries) if e.kind == "resolve")
    j = next(k for k in range(i, len(entries)) if entries[k].kind != "resolve")
    return entries[i:j], entries[j]


# --- 1. a chain of cut-ins in the deploy phase's free timing ------------------------------------
class TestCutInChain:
    @pytest.fixture(scope="class")
    def r(self):
        return run("cut-in-chain.yaml")

    def test_plays_alternate_starting_with_the_attacking_player(self, r):
        ft = at(r.entries, "deploy.free")
        plays = plays_of(ft)
        assert [(e.actor, e.role) for e in plays] == [
            ("p1", "attack_side"), ("p2", "defense_side"), ("p1", "attack_side")]
        assert [e.priority for e in plays] == ["p1", "p2", "p1"]
        # nothing resolves when played: the stack only grows, oldest at the bottom
        assert [len(e.stack) for e in plays] == [1, 2, 3]
        assert plays[2].stack == (("a-depot", "supply", False), ("b-counter", "counter", False), ("a-jammer", "jam", False))
        assert [e.event for e in plays] == [("window_play", "a-depot", "supply", None),
                                            ("window_play", "b-counter", "counter", None),
                                            ("window_play", "a-jammer", "jam", None)]  # None: onto the stack

    def test_after_a_cut_in_the_opponent_gets_the_next_chance(self, r):
        ft = at(r.entries, "deploy.free")
        # the entry after p1's second cut-in is p2's pass, then p1's: two passes in a row
        third = plays_of(ft)[2]
        nxt = ft[ft.index(third) + 1: ft.index(third) + 3]
        assert [(e.actor, e.event) for e in nxt] == [("p2", ("pass", 1)), ("p1", ("pass", 2))]
        assert all(len(e.stack) == 3 for e in nxt)  # passing resolves nothing by itself

    def test_resolution_is_newest_first_and_the_negation_is_negated(self, r):
        items, done = resolved(at(r.entries, "deploy.free"))
        assert [e.event for e in items] == [
            ("resolved", "p1", "a-jammer", "jam", (("negate", "b-counter", "counter"),)),
            ("resolved", "p2", "b-counter", "counter", None),  # negated: no effect
            ("resolved", "p1", "a-depot", "supply", (("draw", "p1", ("a-d2",)),))]
        assert [len(e.stack) for e in items] == [2, 1, 0] and items[0].stack[-1] == ("b-counter", "counter", True)
        assert done.event == ("stack_resolved", 3)
        assert done.stack == () and done.priority is None and done.actor is None

    def test_the_free_timing_reopens_with_the_attacking_players_priority(self, r):
        ft = at(r.entries, "deploy.free")
        i = next(k for k, e in enumerate(ft) if code(e) == "stack_resolved")
        after = ft[i + 1:]
        assert [(e.actor, e.priority, e.event) for e in after] == [
            ("p1", "p1", ("pass", 1)), ("p2", "p2", ("pass", 2)), (None, None, ("window_closes",))]
        assert all(e.stack == () for e in after)

    def test_final_zones(self, r):
        z = zones(r)
        # a-d1 from the draw phase's rule effect, a-d2 from the Supply Depot that survived the chain
        assert z["p1"]["hand"] == ("a-d1", "a-d2")
        assert z["p2"] == {"field": ("b-counter",), "deck": NATION["p2"]}

    def test_all_four_battle_steps_run_though_no_unit_goes_out(self, r):
        nodes = [e.node for e in r.entries]
        begins = [n for n in nodes if n.startswith("battle.") and n.endswith(".begin") and n != "battle.begin"]
        assert begins == ["battle.attack.begin", "battle.defense.begin", "battle.damage.begin", "battle.return.begin"]
        att = at(r.entries, "battle.attack.rule_effect")[0]
        dfn = at(r.entries, "battle.defense.rule_effect")[0]
        assert (att.actor, att.event) == ("p1", ("declines",))
        assert (dfn.actor, dfn.event) == ("p2", ("declines",))
        assert at(r.entries, "battle.damage.rule_effect")[0].event == ("no_battle",)


# --- 2. the reroll phase's start: closed; other starts can be cut into --------------------------
class TestRerollStart:
    @pytest.fixture(scope="class")
    def r(self):
        return run("reroll-start-no-cut-in.yaml")

    def test_reroll_start_resolves_at_once_before_the_rule_effect(self, r):
        now, start = at(r.entries, "reroll.start")  # the ability resolved on the spot, then the node's entry
        assert (now.kind, now.event) == ("resolve", ("resolved", "p1", "a-office", "reroll_supply", (("draw", "p1", ("a-d1",)),)))
        assert start.kind == "closed" and start.event == ("closed", ("at_once", 1))
        assert start.stack == () and start.priority is None and start.actor is None
        assert all(v == () for _, v in start.pending)  # nothing left waiting for a free timing
        nodes = [e.node for e in r.entries if e.kind != "resolve"]
        i, j = nodes.index("reroll.start"), nodes.index("reroll.rule_effect")
        assert j == i + 1  # no free timing, so no chance to play, between the start and the rule effect
        assert nodes.index("reroll.free") == j + 1

    def test_rule_effect_rerolls_the_attacking_players_cards(self, r):
        e = at(r.entries, "reroll.rule_effect")[0]
        assert (e.actor, e.role, e.event) == ("p1", "attack_side", ("set_state", ("a-office",), "stand"))

    def test_draw_phase_start_waits_and_can_be_cut_into(self, r):
        start = at(r.entries, "draw.start")[0]
        assert dict(start.pending) == {"p1": (("a-office", "draw_supply"),), "p2": ()}
        ft = at(r.entries, "draw.free_before")
        first = ft[0]
        assert first.stack == (("a-office", "draw_supply", False),)
        assert (first.actor, first.priority, first.event) == ("p1", "p1", ("pass", 1))
        cut = ft[1]
        assert (cut.actor, cut.role) == ("p2", "defense_side")
        assert cut.stack == (("a-office", "draw_supply", False), ("b-counter", "counter", False))
        items, done = resolved(ft)
        assert [e.event for e in items] == [("resolved", "p2", "b-counter", "counter", (("negate", "a-office", "draw_supply"),)),
                                            ("resolved", "p1", "a-office", "draw_supply", None)]
        assert seq(r.entries, "draw.free_before") < done.seq < seq(r.entries, "draw.rule_effect.else.draw")

    def test_final_zones(self, r):
        z = zones(r)
        # a-d1 at the reroll phase's start (no cut-in possible), a-d2 from the draw phase's rule effect;
        # the draw phase's start effect was negated, so a-d3 stays in the nation
        assert z["p1"]["hand"] == ("a-d1", "a-d2")
        assert z["p1"]["deck"] == ("a-d3",) + NATION["p1"]


CLOSED = [
    ("reroll.start", "start of the phase (no cut-in)", "a closed timing: no one may play"),
    ("reroll.rule_effect", "rule effect: all of the attacking player's rolled cards are stood up (rerolled)",
     "a auto node, not a priority window"),
    ("reroll.finish", "end of the phase", "a closed timing: no one may play"),
    ("battle.attack.finish", "end of the step", "a closed timing: no one may play"),
    ("battle.return.effect_resolution", "effect resolution", "a closed timing: no one may play"),
]


@pytest.mark.parametrize("node,label,why", CLOSED, ids=[c[0] for c in CLOSED])
def test_a_play_at_a_closed_timing_is_refused_with_its_location(tmp_path, node, label, why):
    text = (SCENARIOS / "reroll-start-no-cut-in.yaml").read_text(encoding="utf-8")
    line = f"  - {{at: {node}, take: play, card: b-counter}}\n"
    assert text.count("\nexpect:\n") == 1
    text = text.replace("\nexpect:\n", "\n" + line + "expect:\n")
    bad = tmp_path / "bad.yaml"
    bad.write_text(text, encoding="utf-8")
    res = compile_file(bad, "bad.yaml", rules=str(GAME))
    assert res.scenario is None
    d = next(d for d in res.diagnostics if d.code == "R503")
    assert d.message == f"cannot play at '{node}' ({label}): it is {why}"
    assert d.line == text.split("\n").index(line.rstrip("\n")) + 1


# --- 3. the battle phase's four steps with an attack and a defense --------------------------------
class TestBattleFourSteps:
    @pytest.fixture(scope="class")
    def r(self):
        return run("battle-four-steps.yaml")

    def test_the_attacker_goes_out_first_the_defender_only_in_the_defense_step(self, r):
        att = at(r.entries, "battle.attack.rule_effect")[0]
        assert (att.actor, att.role) == ("p1", "attack_side")
        assert att.event == ("does", ("attack", "a-gundam", None, False))
        dfn = at(r.entries, "battle.defense.rule_effect")[0]
        assert (dfn.actor, dfn.role, dfn.event) == ("p2", "defense_side", ("does", ("block", "b-zaku")))
        assert att.seq < seq(r.entries, "battle.attack.finish") < seq(r.entries, "battle.defense.begin") < dfn.seq

    def test_a_modification_after_the_defender_is_chosen_counts_at_damage_judgment(self, r):
        ft = at(r.entries, "battle.defense.free_after")
        assert (ft[0].actor, ft[0].priority, ft[0].event) == ("p1", "p1", ("pass", 1))
        play = ft[1]
        assert (play.actor, play.role) == ("p2", "defense_side")
        assert play.stack == (("b-zaku", "brace", False),)
        (res,), _ = resolved(ft)
        assert res.event == ("resolved", "p2", "b-zaku", "brace", (("modify", "b-zaku", "defense", 3, 6),))
        assert res.changes == (("stat", "b-zaku", "defense", 3, 6),)
        dmg = at(r.entries, "battle.damage.rule_effect")[0]
        assert at(r.entries, "battle.defense.rule_effect")[0].seq < play.seq < res.seq < dmg.seq
        # attack 5 against defense 6, and attack 3 against defense 4: nobody is destroyed
        assert dmg.event == ("battle", (("b-zaku", 5, 6), ("a-gundam", 3, 4)), (), "junk_yard", True)
        assert dmg.changes == (("damage", "b-zaku", 5, 5), ("damage", "a-gundam", 3, 3))

    def test_battle_damage_is_dealt_only_by_the_damage_judgment_rule_effect(self, r):
        battles = [e.node for e in r.entries if code(e) in ("battle", "no_battle")]
        assert battles == ["battle.damage.rule_effect"]
        nodes = [e.node for e in r.entries]
        order = ["battle.attack.begin", "battle.attack.rule_effect", "battle.defense.begin", "battle.defense.rule_effect",
                 "battle.damage.begin", "battle.damage.free_before", "battle.damage.rule_effect", "battle.damage.free_after",
                 "battle.return.begin", "battle.return.rule_effect", "battle.return.effects_end", "battle.end"]
        assert [nodes.index(n) for n in order] == sorted(nodes.index(n) for n in order)

    def test_final_zones(self, r):
        z = zones(r)
        assert z["p1"] == {"hand": ("a-d1",), "field": ("a-gundam",), "deck": NATION["p1"]}
        assert z["p2"] == {"field": ("b-zaku",), "deck": NATION["p2"]}  # not in the junk yard: the +3 came in time


# --- 4. the end of the turn: damage reset, effect resolution, hand adjustment, effect end ---------
TURN_END = ["battle.return.damage_reset", "battle.return.effect_resolution", "battle.return.hand_adjustment",
            "battle.return.effects_end"]


class TestTurnEnd:
    @pytest.fixture(scope="class")
    def r(self):
        return run("turn-end-sequence.yaml")

    def test_the_four_timings_in_order_with_no_plays(self, r):
        nodes = [e.node for e in r.entries if e.kind != "resolve"]
        i = nodes.index(TURN_END[0])
        assert nodes[i:i + 4] == TURN_END
        assert nodes[i - 1] == "battle.return.free_after"  # the last free timing comes right before them
        assert nodes[i + 4:] == ["battle.return.end", "battle.end", "turn.end"]
        for e in [e for e in r.entries[i:] if e.node in TURN_END and e.kind != "resolve"]:
            assert e.kind == "closed" and e.actor is None and e.priority is None and e.stack == ()
            assert code(e) == "closed"
        assert "battle.return.free_after" not in nodes[i:]

    def test_the_until_end_of_turn_modification_is_played_in_the_last_free_timing(self, r):
        ft = at(r.entries, "battle.return.free_after")
        assert (ft[0].actor, ft[0].role, ft[0].priority) == ("p1", "attack_side", "p1")
        assert ft[0].event == ("window_play", "a-guncannon", "overdrive", None)
        (res,), _ = resolved(ft)
        assert res.event == ("resolved", "p1", "a-guncannon", "overdrive", (("modify", "a-guncannon", "attack", 2, 5),))

    def test_end_of_turn_effects_resolve_while_until_end_of_turn_effects_still_apply(self, r):
        *items, e = at(r.entries, "battle.return.effect_resolution")
        assert [x.event for x in items] == [  # each resolved on the spot, in an entry of its own
            ("resolved", "p1", "a-guncannon", "last_push", (("modify", "a-guncannon", "attack", 1, 6),)),
            ("resolved", "p1", "a-galley", "ration", (("draw", "p1", ("a-d2",)),))]
        assert e.event == ("closed", ("at_once", 2))
        assert all(v == () for _, v in e.pending)  # resolved on the spot: nothing waits for a free timing

    def test_hand_adjustment_counts_the_card_drawn_at_effect_resolution(self, r):
        e = at(r.entries, "battle.return.hand_adjustment")[0]
        assert e.event == ("closed", ("discard", 1, ("a-h1",)))
        end = at(r.entries, "battle.return.effects_end")[0]
        assert end.event == ("closed", ("end_effects",))
        assert e.seq + 1 == end.seq

    def test_final_zones(self, r):
        z = zones(r)
        assert z["p1"]["hand"] == ("a-h2", "a-h3", "a-h4", "a-h5", "a-h6", "a-d1", "a-d2")
        assert z["p1"]["junk_yard"] == ("a-h1",)
        assert z["p1"]["deck"] == NATION["p1"]  # the scenario's own cards all drawn; the rest of the nation stays


def test_together_the_scenarios_visit_every_phase_and_step():
    game = compile_file(GAME, "rules/gundam/game.yaml").game
    wanted = {c.id for c in game.containers.values() if c.kind in ("phase", "step")}
    seen = set()
    for p in sorted(SCENARIOS.glob("*.yaml")):
        for e in run(p.name).entries:
            seen |= {x for x in (e.phase, e.step) if x}
    assert wanted <= seen, sorted(wanted - seen)


class TestDestructionAbolish:
    """A unit destroyed by battle damage stays until its abolish effect resolves, and can be saved."""

    def test_the_abolish_effect_waits_then_resolves_in_the_free_timing(self):
        r = run("destruction-abolish.yaml")
        es = r.entries
        rule = at(es, "battle.damage.rule_effect")[0]
        assert rule.event == ("battle", (("b-zaku", 5, 3), ("a-gundam", 3, 4)), ("b-zaku",), "junk_yard", True)
        abolish = ("b-zaku", "abolish:junk_yard")
        assert dict(rule.pending)["p2"] == (abolish,)
        window = at(es, "battle.damage.free_after")
        assert [(e.actor, e.stack) for e in window[:2]] == [("p1", (abolish + (False,),)), ("p2", (abolish + (False,),))]
        assert window[2].event == ("resolved", "p2") + abolish + ((("move", ("b-zaku",), "field", "junk_yard"),),)
        z = zones(r)
        assert z["p2"]["junk_yard"] == ("b-zaku",) and "field" not in z["p2"]

    def test_a_cut_in_can_negate_the_abolish_effect_and_the_unit_stays(self, tmp_path):
        path = SCENARIOS / "destruction-abolish.yaml"
        text = path.read_text(encoding="utf-8")
        old = ("  - {at: battle.damage.free_after, take: pass}\n" * 4)
        new = ("  - {at: battle.damage.free_after, take: pass}\n"
               "  - {at: battle.damage.free_after, take: play, card: b-zaku}\n"
               + "  - {at: battle.damage.free_after, take: pass}\n" * 4)
        assert text.count(old) == 1
        saved = tmp_path / "saved.yaml"
        saved.write_text(text.replace(old, new), encoding="utf-8")
        res = compile_file(saved, rules=str(GAME))
        assert res.scenario is not None, [(d.code, d.message) for d in res.diagnostics]
        r = simulate(res.game, res.scenario, strict=True)
        window = at(r.entries, "battle.damage.free_after")
        abolish = ("b-zaku", "abolish:junk_yard")
        assert window[1].stack == (abolish + (False,), ("b-zaku", "recall", False))
        items, _ = resolved(window)
        assert [e.event for e in items] == [("resolved", "p2", "b-zaku", "recall", (("negate",) + abolish,)),
                                            ("resolved", "p2") + abolish + (None,)]
        z = zones(r)
        assert z["p2"]["field"] == ("b-zaku",) and "junk_yard" not in z["p2"]
