"""Combat with several attackers and blockers, combat damage by step, and life (``engine.melee``) on
the Magic: The Gathering rules: the events and states of the runs, the refusals, and the diagnostics
that guard the new keys."""
import shutil
from pathlib import Path

import pytest

from conftest import ROOT
from tcgtiming.present import site
from tcgtiming.frontend.pipeline import compile_file
from tcgtiming.runtime.engine import SimulationError, simulate
from test_stack_window import run as run_on, variant

MTG = ROOT / "rules" / "mtg"
RULES = MTG / "game.yaml"
TWO = MTG / "scenarios" / "two-attackers-one-blocked.yaml"
FIRST = MTG / "scenarios" / "first-strike-kills-blocker.yaml"
DOUBLE = MTG / "scenarios" / "double-strike-both-steps.yaml"
ZERO = MTG / "scenarios" / "zero-life-loses.yaml"


def compiled(path, rules=RULES):
    return compile_file(path, rules=str(rules))


def run(path, rules=RULES, **kw):
    return run_on(path, rules, **kw)


def at(r, node):
    return [e for e in r.entries if e.node == node]


def hits(r, node):
    (e,) = at(r, node)
    assert e.event[0] == "combat_damage"
    return e.event[2]


def test_two_attackers_one_blocked_deal_their_damage_at_once():
    r = run(TWO, strict=True)
    (decl,) = at(r, "combat.attackers.declare.attack.1")
    assert decl.event == ("attackers", ("bear", "ogre"), "p2")
    assert ("state", "bear", "stand", "rest") in decl.changes and ("state", "ogre", "stand", "rest") in decl.changes
    (block,) = at(r, "combat.blockers.declare")
    assert block.event[1] == ("blockers", (("elf", "bear"),))
    assert hits(r, "combat.damage.deal") == (("bear", "elf", None, 2), ("elf", "bear", None, 1), ("ogre", None, "p2", 3))
    (deal,) = at(r, "combat.damage.deal")
    assert ("value", "p2", "life", 20, 17) in deal.changes
    assert r.machine.values == {"p1": {"life": 20}, "p2": {"life": 17}}
    # the blocker dies to the state-based action before anyone has priority in the damage step
    i = r.entries.index(deal)
    rest = r.entries[i + 1:]
    rule = next(e for e in rest if e.kind == "rule")
    assert rule.event[1:3] == ("lethal_damage", "p2") and ("move", "elf", "battlefield", "graveyard") in rule.changes
    first_pass = next(e for e in rest if e.event[0] == "pass")
    assert first_pass.seq > rule.seq and first_pass.actor == "p1"
    assert not any(e.kind == "rule" and e.event[2] == "p1" for e in r.entries)  # the bear survives 1 damage


def test_first_strike_removes_the_blocker_which_then_deals_nothing():
    r = run(FIRST, strict=True)
    assert hits(r, "combat.first_strike.deal") == (("knight", "bear", None, 2),)
    assert hits(r, "combat.damage.deal") == ()
    final = dict(r.machine.final_zones())
    assert dict(final["p2"])["graveyard"] == ("bear",) and dict(final["p1"])["battlefield"] == ("knight",)
    assert not any(c[0] == "damage" and c[1] == "knight" for e in r.entries for c in e.changes)


def test_without_first_strike_both_creatures_die_in_the_regular_step(tmp_path):
    p = variant(tmp_path, FIRST, ("traits: [first_strike], ", ""), ("visits: [combat.first_strike.deal, combat.damage.deal]\n", ""),
                ("expect:", "expect_not_used:"))
    text = p.read_text(encoding="utf-8").split("expect_not_used:")[0]
    p.write_text(text, encoding="utf-8")
    r = run(p, strict=True)
    assert at(r, "combat.first_strike.begin")[0].event == ("skipped",)
    assert hits(r, "combat.damage.deal") == (("knight", "bear", None, 2), ("bear", "knight", None, 2))
    moved = [c for e in r.entries if e.kind == "rule" for c in e.changes if c[0] == "move"]
    assert sorted(c[1] for c in moved) == ["bear", "knight"]


def test_double_strike_deals_in_both_steps_and_the_others_in_the_regular_one():
    r = run(DOUBLE, strict=True)
    assert hits(r, "combat.first_strike.deal") == (("champion", None, "p2", 1),)
    assert hits(r, "combat.damage.deal") == (("champion", None, "p2", 1), ("bear", None, "p2", 2))
    assert r.machine.values["p2"]["life"] == 16


def test_a_player_at_zero_life_loses_before_anyone_has_priority():
    r = run(ZERO, strict=True)
    assert r.result == "lose" and r.losers == ("p2",)
    last = r.entries[-1]
    assert last.event == ("game_over", "lose", ("p2",)) and last.node == "priority.window"
    rule = r.entries[-2]
    assert rule.kind == "rule" and rule.event[1:3] == ("no_life", "p2")
    deal = at(r, "combat.damage.deal")[0]
    assert not any(e.event[0] in ("pass", "window_play") for e in r.entries if e.seq > deal.seq)
    assert not at(r, "combat.end_of_combat.begin")


def test_the_scenario_sets_a_players_life_and_the_rule_file_the_others():
    res = compiled(ZERO)
    assert res.game.player_values["life"].get("start") == 20
    assert dict(res.scenario.values) == {"p2": (("life", 3),)}


def test_several_blockers_share_the_attackers_damage_in_the_order_listed(tmp_path):
    p = variant(tmp_path, TWO,
                ("battlefield: [elf]}", "battlefield: [elf, wall]}"),
                ("  - {id: elf,", "  - {id: wall, name: Wall, type: creature, stats: {power: 0, toughness: 4}}\n  - {id: elf,"),
                ("blocks: {elf: bear}", "blocks: {elf: ogre, wall: ogre}"),
                ("expect:", "expect_not_used:"))
    p.write_text(p.read_text(encoding="utf-8").split("expect_not_used:")[0], encoding="utf-8")
    r = run(p, strict=True)
    # the ogre (3) gives the elf what is lethal to it (1) and the rest (2) to the wall; the wall deals 0
    assert hits(r, "combat.damage.deal") == (("bear", None, "p2", 2), ("ogre", "elf", None, 1), ("ogre", "wall", None, 2),
                                              ("elf", "ogre", None, 1))
    assert r.machine.values["p2"]["life"] == 18


@pytest.mark.parametrize("pairs,code,names", [
    ((("battlefield: [elf]}", "battlefield: [elf]}\n"), ("{id: elf, name: Llanowar Elves, type: creature,",
                                                         "{id: elf, name: Llanowar Elves, type: creature, state: rest,")),
     "R503", ["elf"]),
    ((("blocks: {elf: bear}", "blocks: {elf: a1}"),), "R503", ["a1", "not attacking"]),
    ((("blocks: {elf: bear}", "blocks: {bear: ogre}"),), "R503", ["bear"]),
])
def test_a_block_that_cannot_be_made_is_refused_naming_the_cards(tmp_path, pairs, code, names):
    p = variant(tmp_path, TWO, *pairs)
    with pytest.raises(SimulationError) as exc:
        run(p, strict=True)
    assert exc.value.code == code and all(n in exc.value.message for n in names)
    assert exc.value.loc is not None and exc.value.loc.file.endswith("x.yaml")


def test_only_the_players_own_ready_creatures_attack(tmp_path):
    p = variant(tmp_path, TWO, ("cards: [bear, ogre]", "cards: [bear, elf]"))
    with pytest.raises(SimulationError) as exc:
        run(p, strict=True)
    assert exc.value.code == "R503" and "elf" in exc.value.message and "bear, ogre" in exc.value.message
    assert "does not belong to Alice" in exc.value.message
    assert exc.value.loc.file.endswith("x.yaml")


def test_unscripted_attackers_are_refused_with_strict(tmp_path):
    p = variant(tmp_path, TWO, ("take: attack, cards: [bear, ogre]}", "take: attack}"))
    with pytest.raises(SimulationError) as exc:
        run(p, strict=True)
    assert exc.value.code == "R501"
    r = run(p)  # without --strict: the first card that can attack
    assert at(r, "combat.attackers.declare.attack.1")[0].event == ("attackers", ("bear",), "p2")


@pytest.mark.parametrize("pairs,code,where", [
    ((("blocks: {elf: bear}", "blocks: {elf: baer}"),), "C302", "baer"),
    ((("blocks: {elf: bear}", "blocks: {elfe: bear}"),), "C302", "elfe"),
    ((("zones: {library: [b1], battlefield: [elf]}}", "zones: {library: [b1], battlefield: [elf]}, values: {lief: 3}}"),),
     "C302", "lief"),
    ((("values: {p1: {life: 20}, p2: {life: 17}}", "values: {p1: {lief: 20}}"),), "C302", "lief"),
])
def test_scenario_keys_of_combat_and_life_are_checked_with_a_location(tmp_path, pairs, code, where):
    p = variant(tmp_path, TWO, *pairs)
    res = compiled(p)
    bad = [d for d in res.diagnostics if d.code == code and where in d.message]
    assert bad and bad[0].line > 0 and bad[0].file.endswith("x.yaml"), [(d.code, d.message) for d in res.diagnostics]


@pytest.mark.parametrize("old,new,where", [
    ("start: starting_life", "start: starting_lief", "starting_lief"),
    ("when: {player_value: {player: self, value: life, le: 0}}", "when: {player_value: {player: self, value: lief, le: 0}}", "lief"),
    ("life: life}}\n            - {kind: call, procedure: priority}\n        - id: end",
     "life: lif}}\n            - {kind: call, procedure: priority}\n        - id: end", "lif"),
])
def test_rule_file_player_values_are_checked(tmp_path, old, new, where):
    text = RULES.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    p = tmp_path / "game.yaml"
    p.write_text(text.replace(old, new), encoding="utf-8")
    res = compile_file(p)
    bad = [d for d in res.diagnostics if d.code == "C302" and where in d.message]
    assert bad and bad[0].line > 0 and res.game is None, [(d.code, d.message) for d in res.diagnostics]


def test_a_keyword_test_in_combat_ignores_creatures_outside_it(tmp_path):
    # a first striker that does not attack: the first-strike step is skipped all the same
    p = variant(tmp_path, TWO,
                ("battlefield: [bear, ogre]}", "battlefield: [bear, ogre, knight]}"),
                ("  - {id: ogre,", "  - {id: knight, name: White Knight, type: creature, traits: [first_strike], "
                                   "stats: {power: 2, toughness: 2}}\n  - {id: ogre,"))
    r = run(p, strict=True)
    assert at(r, "combat.first_strike.begin")[0].event == ("skipped",)
    q = variant(tmp_path, TWO,
                ("battlefield: [bear, ogre]}", "battlefield: [bear, ogre, knight]}"),
                ("  - {id: ogre,", "  - {id: knight, name: White Knight, type: creature, traits: [first_strike], "
                                   "stats: {power: 2, toughness: 2}}\n  - {id: ogre,"),
                ("cards: [bear, ogre]", "cards: [bear, ogre, knight]"), ("expect:", "expect_not_used:"), name="y.yaml")
    q.write_text(q.read_text(encoding="utf-8").split("expect_not_used:")[0], encoding="utf-8")
    r = run(q, strict=True)
    assert hits(r, "combat.first_strike.deal") == (("knight", None, "p2", 2),)
    assert [h[0] for h in hits(r, "combat.damage.deal")] == ["bear", "elf", "ogre"]


def test_in_combat_reads_the_blockers_of_the_combat(tmp_path):
    text = RULES.read_text(encoding="utf-8")
    i = text.index("          skip_if:\n            not:\n              any:\n                - {has_keyword")
    j = text.index("          nodes:", i)
    rules = tmp_path / "game.yaml"
    rules.write_text(text[:i] + "          skip_if: {not: {in_combat: nonactive_player}}\n" + text[j:], encoding="utf-8")
    r = run(TWO, rules, strict=True)  # Bob blocks: he has a card in combat, the step is entered
    assert at(r, "combat.first_strike.begin")[0].event == ("begin",)
    assert hits(r, "combat.first_strike.deal") == ()
    p = variant(tmp_path, TWO, ('take: "yes", blocks: {elf: bear}', 'take: "no"'), ("expect:", "expect_not_used:"))
    p.write_text(p.read_text(encoding="utf-8").split("expect_not_used:")[0], encoding="utf-8")
    r = run(p, rules, strict=True)
    assert at(r, "combat.first_strike.begin")[0].event == ("skipped",)
    assert hits(r, "combat.damage.deal") == (("bear", None, "p2", 2), ("ogre", None, "p2", 3))


def test_an_attacker_removed_by_a_first_strike_blocker_deals_no_regular_damage(tmp_path):
    p = variant(tmp_path, FIRST, ("traits: [first_strike], ", ""),
                ("{id: bear, name: Grizzly Bears, type: creature,", "{id: bear, name: Grizzly Bears, type: creature, traits: [first_strike],"),
                ("expect:", "expect_not_used:"))
    p.write_text(p.read_text(encoding="utf-8").split("expect_not_used:")[0], encoding="utf-8")
    r = run(p, strict=True)
    assert hits(r, "combat.first_strike.deal") == (("bear", "knight", None, 2),)
    assert hits(r, "combat.damage.deal") == ()
    assert dict(dict(r.machine.final_zones())["p1"])["graveyard"] == ("knight",)


def test_a_card_effect_changes_a_player_value_and_the_loss_comes_before_priority():
    r = run(MTG / "scenarios" / "spell-to-zero-life.yaml", strict=True)
    res = next(e for e in r.entries if e.event[0] == "resolved")
    assert res.event[4] == (("change_value", "p2", "life", 3, 0),) and ("value", "p2", "life", 3, 0) in res.changes
    i = r.entries.index(res)
    assert r.entries[i + 1].kind == "rule" and r.entries[i + 1].event[1:3] == ("no_life", "p2")
    assert r.entries[i + 2].event == ("game_over", "lose", ("p2",)) and r.entries[i + 2] is r.entries[-1]
    assert r.machine.values["p2"]["life"] == 0 and r.result == "lose"


def test_the_trace_player_carries_and_shows_each_players_life(tmp_path):
    from tcgtiming.present.site.inputs import collect
    from tcgtiming.present.site.player import player_data

    shutil.copytree(MTG, tmp_path / "rules" / "mtg")
    inputs = collect(str(tmp_path / "rules"))
    (game,) = inputs.games
    sr = next(r for r in inputs.runs["mtg"] if r.stem == "two-attackers-one-blocked")
    data = player_data(game, sr, "en", "mtg/scenarios/two-attackers-one-blocked.html")
    assert data["values"] == {"p1": [("life", 20)], "p2": [("life", 20)]} and data["value_names"] == {"life": "life"}
    assert [c for e in data["entries"] for c in e[10] if c[0] == "value"] == [["value", "p2", "life", 20, 17]]
    pytest.importorskip("playwright.sync_api", reason="playwright is installed by `make test`")
    if not Path("/usr/bin/chromium").exists():
        pytest.skip("Debian chromium is installed by `make test`")
    from playwright.sync_api import sync_playwright

    out = site.build(str(tmp_path / "rules"), tmp_path / "out", cache=tmp_path / "cache").out / "site"
    page_file = out / "ja" / "mtg" / "scenarios" / "two-attackers-one-blocked.html"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        page = browser.new_page()
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(page_file.as_uri())
        page.locator("[data-act=last]").click()
        captions = page.locator(".tcg-player-zones caption").all_text_contents()
        assert captions == ["Alice · ライフ 20", "Bob · ライフ 17"], captions
        cells = page.locator(".tcg-player-zones td").all_text_contents()
        assert not any("×" in c for c in cells if "Llanowar" in c)  # damage goes with a card leaving play
        page.locator("[data-act=first]").click()
        assert page.locator(".tcg-player-zones caption").all_text_contents() == ["Alice · ライフ 20", "Bob · ライフ 20"]
        assert not errors, errors
        browser.close()


def test_a_card_named_twice_among_the_attackers_is_refused(tmp_path):
    p = variant(tmp_path, TWO, ("cards: [bear, ogre]", "cards: [bear, bear]"))
    with pytest.raises(SimulationError) as exc:
        run(p, strict=True)
    assert exc.value.code == "R503" and "twice" in exc.value.message and "bear" in exc.value.message


def test_a_keyword_test_limited_to_combat_says_so_in_words():
    from tcgtiming.core import model as m
    from tcgtiming.core.words import word
    from tcgtiming.present.site.phrases import cond_words

    game = compiled(TWO).game
    skip = game.containers["combat.first_strike"].skip_if
    for lang in ("ja", "en"):
        flag = word("cond.has_keyword.in_combat", lang)
        assert cond_words(game, skip, lang).count(flag) == 2
        plain = m.Pred("has_keyword", (("keyword", "first_strike"), ("player", "any")))
        assert flag not in cond_words(game, plain, lang)


def test_a_branch_tells_the_player_value_it_read(tmp_path):
    from tcgtiming.runtime.narrate import Narrator

    old = '''          cite: "cr#cr-511"
          nodes:
'''
    new = old + '''            - kind: branch
              id: low
              label: {ja: ライフは少ないか, en: is life low?}
              cases:
                - id: "yes"
                  label: {ja: 少ない, en: low}
                  when: {player_value: {player: nonactive_player, value: life, le: 17}}
                  then: [{kind: auto, label: {ja: 何もしない, en: nothing}, do: pass}]
'''
    text = RULES.read_text(encoding="utf-8")
    assert text.count(old) == 1
    rules = tmp_path / "game.yaml"
    rules.write_text(text.replace(old, new), encoding="utf-8")
    res = compiled(TWO, rules)
    r = simulate(res.game, res.scenario, strict=True)
    (e,) = at(r, "combat.end_of_combat.low")
    assert e.event[:2] == ("case", "yes")
    assert ("player_value", "p2", 17, ("life",), True) in [f for _, facts in e.event[2] for f in facts]
    assert "Bob's life: 17" in Narrator(res.game, res.scenario, "en").entry(e)
    assert "Bobのライフ: 17" in Narrator(res.game, res.scenario, "ja").entry(e)
