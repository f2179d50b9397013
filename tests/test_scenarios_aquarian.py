"""Aquarian Age example scenarios: the facts of each trace, entry by entry.

test_scenarios.py already runs every shipped scenario strictly and checks its `expect:`; here the
timing each scenario demonstrates is asserted on the trace itself: which faction is checked when,
which active character attacks and in which check, who holds priority in a response, what resolves
before the battle, when the damage judgment stops, and where the flipped cards end up.
"""
from pathlib import Path

from tcgtiming.frontend.pipeline import compile_file
from tcgtiming.runtime.engine import simulate

ROOT = Path(__file__).resolve().parent.parent
SCEN = ROOT / "rules" / "aquarian" / "scenarios"

CHECKS = "faction.checks"
DECLARE = "faction.checks.aggressive.attack.declare"
GUARD = "faction.checks.aggressive.attack.guard"
RESPONSE = "faction.checks.aggressive.attack.response"
JUDGMENT = "faction.checks.aggressive.attack.outcome.damage.judgment.else.1"
BATTLE = "faction.checks.aggressive.attack.outcome.battle.1"
NO_ATTACK = "faction.checks.aggressive.else.1"
ORDER = ["ego", "arayashiki", "wizdom", "darklore", "kyokusei", "eraser", "done"]


def run(name):
    path = SCEN / name
    res = compile_file(path, str(path.relative_to(ROOT)))
    assert res.scenario is not None, [(d.code, d.line, d.message) for d in res.diagnostics]
    r = simulate(res.game, res.scenario, strict=True)
    assert r.unused_choices == () and r.policy_decisions == 0
    return r


def idx(es, node, when=None, start=0):
    """Index of the first entry at `node` (of which `when` holds) from `start`."""
    return next(i for i, e in enumerate(es) if i >= start and e.node == node and (when is None or when(e)))


def item(e):
    """The faction a for-each entry checks ('done' when every faction is done)."""
    return e.event[2] if e.event[0] == "item" else "done"


def checking(faction):
    return lambda e: item(e) == faction


def check_of(es, i):
    """The faction being checked at entry i: the item of the latest for-each entry before it."""
    return next(item(e) for e in reversed(es[:i]) if e.node == CHECKS)


def mentions(e, card):
    return card in repr(e.event)


def phases(es):
    seen = []
    for e in es:
        if e.phase and (not seen or seen[-1] != e.phase):
            seen.append(e.phase)
    return seen


# --- 1. faction checks in the fixed order -------------------------------------------------------
def test_faction_checks_go_in_the_fixed_order_not_the_order_cards_lie_in():
    r = run("faction-check-order.yaml")
    es = r.entries
    assert [item(e) for e in es if e.node == CHECKS] == ORDER  # each faction once, in the fixed order
    assert [e.event for e in es if e.node == CHECKS][:2] == [("item", "factions", "ego", 1, 6),
                                                            ("item", "factions", "arayashiki", 2, 6)]
    attacks = [(check_of(es, i), e.event) for i, e in enumerate(es) if e.node == DECLARE]
    # the Eraser character lies first in the faction area, yet WIZ-DOM attacks first
    assert attacks == [("wizdom", ("forced_attack", "a-wiz")), ("eraser", ("forced_attack", "a-era"))]
    assert all(e.actor is None for e in es if e.node == DECLARE)  # declared by the rules, not by a player


def test_only_the_top_card_of_a_party_is_active():
    es = run("faction-check-order.yaml").entries
    i = idx(es, CHECKS, checking("arayashiki"))
    # the aggressive Zealot lies under the non-aggressive Monk: no attack in Arayashiki's check
    assert es[i + 2].node == "faction.checks.aggressive" and es[i + 2].event[:1] == ("otherwise",)
    assert es[i + 3].node == NO_ATTACK
    assert not any(mentions(e, "a-ara-under") for e in es)


def test_each_damage_judgment_ends_before_the_next_faction_is_checked():
    es = run("faction-check-order.yaml").entries
    wiz_judgment = idx(es, JUDGMENT)
    assert es[wiz_judgment].event == ("damage_judgment", 1, ("a-flip1",), 1)
    assert es[wiz_judgment].changes == (("move", "a-flip1", "deck", "damage"),)
    assert es[wiz_judgment].actor == "p1" and es[wiz_judgment].role == "turn_player"
    assert idx(es, DECLARE) < wiz_judgment < idx(es, CHECKS, checking("darklore"))
    era_judgment = idx(es, JUDGMENT, start=wiz_judgment + 1)
    assert es[era_judgment].event == ("damage_judgment", 1, ("a-flip2",), 2)
    assert idx(es, CHECKS, checking("eraser")) < era_judgment < idx(es, CHECKS, checking("done"))


def test_the_attacked_turn_player_may_respond_first_to_a_faction_attack():
    es = run("faction-check-order.yaml").entries
    resp = [e for e in es if e.node == RESPONSE][:3]
    assert [(e.actor, e.role, e.priority, e.event) for e in resp] == [
        ("p1", "turn_player", "p1", ("pass", 1)),
        ("p2", "non_turn_player", "p2", ("pass", 2)),
        (None, None, None, ("window_closes",)),
    ]
    assert all(e.stack == () for e in resp)
    # the guard decision comes before the response opens
    assert idx(es, GUARD) < idx(es, RESPONSE)
    assert es[idx(es, GUARD)].actor == "p1" and es[idx(es, GUARD)].event == ("choose", "no_guard", None)


def test_the_turn_visits_every_phase_in_order_and_ends_with_the_right_zones():
    r = run("faction-check-order.yaml")
    assert phases(r.entries) == ["draw", "faction", "main", "power"]
    assert r.result == "ongoing"
    assert dict(dict(r.zones)["p1"]) == {
        "deck": ("a-rest",), "hand": ("a-draw",), "faction_area": ("a-era", "a-ara-top", "a-ara-under", "a-wiz"),
        "damage": ("a-flip1", "a-flip2")}


# --- 2. a guard leading to a battle -------------------------------------------------------------
def test_guard_then_response_then_battle_last():
    es = run("guard-battle.yaml").entries
    decl = idx(es, DECLARE)
    assert es[decl].event == ("forced_attack", "k-agg") and check_of(es, decl) == "kyokusei"
    g = idx(es, GUARD + ".guard.1")
    assert es[g].actor == "p1" and es[g].role == "turn_player" and es[g].event == ("block", "g-guard")
    effect = ("g-guard", "steadfast", False)
    resp = [e for e in es[g:idx(es, BATTLE)] if e.node == RESPONSE]
    assert [(e.kind, e.actor, e.priority, e.stack) for e in resp] == [
        ("window", "p1", "p1", (effect,)),   # the attacked turn player declares first: the effect goes on the stack
        ("window", "p2", "p2", (effect,)),   # then the opponent passes
        ("window", "p1", "p1", (effect,)),   # two passes in a row
        ("resolve", None, None, ()),         # the effect resolves
        ("window", None, None, ()),          # and the window closes
    ]
    assert resp[0].event == ("window_play", "g-guard", "steadfast", None)
    assert resp[3].event == ("resolved", "p1", "g-guard", "steadfast", (("modify", "g-guard", "defense", 1, 4),))
    assert resp[4].event == ("stack_resolved", 1)
    # the battle comes after the effect has resolved: attack 3 meets durability 4, the guard survives
    b = idx(es, BATTLE)
    assert es.index(resp[4]) < b
    assert es[b].event == ("battle", (("g-guard", 3, 4), ("k-agg", 2, 3)), (), None, False)
    assert es[b - 1].node == "faction.checks.aggressive.attack.outcome" and es[b - 1].event[:2] == ("case", "battle")  # labelled "guarded"


def test_a_guarded_attack_makes_no_damage_judgment_and_the_checks_go_on():
    r = run("guard-battle.yaml")
    es = r.entries
    b = idx(es, BATTLE)
    assert es[b + 1].node == CHECKS and item(es[b + 1]) == "eraser"  # straight on to the next faction
    judgments = [i for i, e in enumerate(es) if e.node == JUDGMENT]
    assert len(judgments) == 1 and check_of(es, judgments[0]) == "eraser"  # only the unguarded attack
    assert es[judgments[0]].event == ("damage_judgment", 1, ("d-top",), 1)
    eraser_guard = idx(es, GUARD, start=b)
    assert es[eraser_guard].event == ("choose", "no_guard", None)


def test_power_card_phase_sets_a_power_card_on_the_controlled_character():
    r = run("guard-battle.yaml")
    es = r.entries
    s = idx(es, "power.set.controlled.1")
    assert es[s].actor == "p1" and es[s].event == ("place", "p-pow", "hand", "control_area")
    assert es[s + 1].node == "power.control" and es[s + 1].event[:1] == ("otherwise",)  # no control gained
    assert phases(es) == ["draw", "faction", "main", "power"]
    assert dict(dict(r.zones)["p1"]) == {
        "deck": ("d-rest",), "hand": ("a-draw",), "faction_area": ("k-agg", "x-agg"),
        "control_area": ("g-guard", "p-pow"), "damage": ("d-top",)}


# --- 3. the WIZ-DOM example: flipped characters and factions already checked --------------------
def test_damage_judgment_sends_characters_to_their_party_and_others_to_damage():
    r = run("damage-judgment-no-recheck.yaml")
    es = r.entries
    j = idx(es, JUDGMENT)
    assert check_of(es, j) == "wizdom"
    assert es[j].event == ("damage_judgment", 4, ("f-ego", "f-wiz", "f-brk", "f-dark"), 1)
    assert es[j].changes == (("move", "f-ego", "deck", "faction_area"), ("move", "f-wiz", "deck", "faction_area"),
                             ("move", "f-brk", "deck", "damage"), ("move", "f-dark", "deck", "faction_area"))
    zones = dict(dict(r.zones)["p1"])
    # each flipped character is now the top card (first listed) of its faction's party
    assert zones["faction_area"] == ("f-dark", "f-wiz", "f-ego", "w-agg")
    assert zones["damage"] == ("f-brk", "f-proj")
    assert zones["deck"] == ("a-rest",)


def test_factions_already_checked_are_not_checked_again():
    es = run("damage-judgment-no-recheck.yaml").entries
    assert [item(e) for e in es if e.node == CHECKS] == ORDER  # no faction is revisited
    attacks = [(check_of(es, i), e.event) for i, e in enumerate(es) if e.node == DECLARE]
    # the new aggressive actives of E.G.O. and WIZ-DOM never attack; Darklore's new active does, in its own check
    assert attacks == [("wizdom", ("forced_attack", "w-agg")), ("darklore", ("forced_attack", "f-dark"))]
    assert not any(e.node == DECLARE and (mentions(e, "f-ego") or mentions(e, "f-wiz")) for e in es)
    first_j = idx(es, JUDGMENT)
    assert first_j < idx(es, CHECKS, checking("darklore")) < idx(es, DECLARE, lambda e: e.event == ("forced_attack", "f-dark"))
    second_j = idx(es, JUDGMENT, start=first_j + 1)
    assert es[second_j].event == ("damage_judgment", 1, ("f-proj",), 2)
    assert check_of(es, second_j) == "darklore"


# --- 4. the tenth damage ends the match at once -------------------------------------------------
def test_tenth_damage_stops_the_judgment_and_ends_the_match():
    r = run("tenth-damage-ends-game.yaml")
    es = r.entries
    j = idx(es, JUDGMENT)
    assert check_of(es, j) == "ego"
    # attack 4, but only three cards are flipped: the third makes ten
    assert es[j].event == ("damage_judgment", 4, ("j-brk", "j-chr", "j-fast"), 10)
    assert [e.node for e in es[j + 1:]] == ["faction.checks.aggressive.attack.outcome.damage.ten",
                                            "faction.checks.aggressive.attack.outcome.damage.ten.lost.1"]
    assert es[-1].kind == "end_game" and es[-1].event == ("end_game", "lose", ("p1",))
    assert r.result == "lose" and r.losers == ("p1",)


def test_nothing_after_the_tenth_damage_happens():
    r = run("tenth-damage-ends-game.yaml")
    es = r.entries
    # no later faction check (the aggressive Eraser Hunter never attacks), no main or power card phase
    assert [item(e) for e in es if e.node == CHECKS] == ["ego"]
    assert not any(mentions(e, "x-agg") for e in es)
    assert phases(es) == ["draw", "faction"]
    zones = dict(dict(r.zones)["p1"])
    assert zones["deck"] == ("j-left",)  # the fourth card is never flipped
    assert zones["faction_area"] == ("j-chr", "e-agg", "x-agg")  # a flipped character is not damage
    assert zones["damage"] == ("dm1", "dm2", "dm3", "dm4", "dm5", "dm6", "dm7", "dm8", "j-brk", "j-fast")


# --- 5. a main phase attack ---------------------------------------------------------------------
def test_main_phase_attack_the_opponent_responds_first_and_judges_the_damage():
    r = run("main-attack-response.yaml")
    es = r.entries
    d = idx(es, "main.act.attack.declare")
    assert es[d].actor == "p1" and es[d].role == "turn_player" and es[d].event == ("attack", "m-att", None, False)
    g = idx(es, "main.act.attack.guard")
    assert g == d + 1 and es[g].actor == "p2" and es[g].role == "non_turn_player"
    resp = [e for e in es if e.node == "main.response"]
    assert [(e.actor, e.role, e.priority, e.event) for e in resp] == [
        ("p2", "non_turn_player", "p2", ("pass", 1)),  # the opponent holds priority first
        ("p1", "turn_player", "p1", ("pass", 2)),
        (None, None, None, ("window_closes",)),
    ]
    j = idx(es, "main.outcome.damage.1")
    assert es.index(resp[-1]) < j
    assert es[j].actor == "p2" and es[j].role == "non_turn_player"
    assert es[j].event == ("damage_judgment", 2, ("b-chr", "b-brk"), 1)
    # after the attack the turn player picks the next action
    acts = [e.event for e in es if e.node == "main.act"]
    assert acts == [("choose", "attack", None), ("choose", "end", None)]
    assert idx(es, "main.4") < idx(es, "main.act", lambda e: e.event == ("choose", "end", None))
    zones = {pid: dict(z) for pid, z in r.zones}
    assert zones["p2"] == {"deck": ("b-rest",), "faction_area": ("b-chr",), "damage": ("b-brk",)}
    assert zones["p1"] == {"hand": ("a-draw",), "control_area": ("m-att",)}


def test_scenarios_together_visit_every_phase():
    seen = set()
    for name in ("faction-check-order.yaml", "guard-battle.yaml", "damage-judgment-no-recheck.yaml",
                 "tenth-damage-ends-game.yaml", "main-attack-response.yaml"):
        seen |= {e.phase for e in run(name).entries if e.phase}
    assert seen == {"draw", "faction", "main", "power"}
