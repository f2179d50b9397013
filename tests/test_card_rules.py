"""Rules the game decides, not the scenario (issue 11, section 1; issue 16, item 4).

Each test runs a shipped scenario, or a copy of one with one line changed, and asserts what the
rules make of it: an error located at the scenario line that asks for something the rules refuse,
or the state the rules put a card in whatever the scenario says.
"""
from pathlib import Path

import pytest

from tcgtiming.frontend.pipeline import compile_file
from tcgtiming.runtime.engine import SimulationError, simulate

ROOT = Path(__file__).resolve().parent.parent


def compiled(path: Path, game: str):
    res = compile_file(path, str(path), rules=str(ROOT / "rules" / game / "game.yaml"))
    assert res.scenario is not None, [(d.code, d.line, d.message) for d in res.diagnostics]
    return res


def variant(tmp_path, game: str, name: str, old: str, new: str) -> tuple[Path, int]:
    """A copy of a shipped scenario with one text replaced; the line (1-based) of the replacement."""
    text = (ROOT / "rules" / game / "scenarios" / name).read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    text = text.replace(old, new)
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path, text[: text.index(new)].count("\n") + 1


def refused(path: Path, game: str, strict: bool) -> SimulationError:
    res = compiled(path, game)
    with pytest.raises(SimulationError) as info:
        simulate(res.game, res.scenario, strict=strict)
    return info.value


def run(path: Path, game: str, strict: bool = True):
    res = compiled(path, game)
    return simulate(res.game, res.scenario, strict=strict)


def zones(r):
    return {pid: dict(z) for pid, z in r.zones}


# --- discards: the number the rules ask for, exactly --------------------------------------------
@pytest.mark.parametrize("strict", [True, False])
@pytest.mark.parametrize("named", ["[b-h1, b-h2, b-h3]", "[b-h1]", "[b-h1, a-h1]"])
def test_a_discard_naming_the_wrong_number_of_cards_is_a_located_error(tmp_path, strict, named):
    path, line = variant(tmp_path, "versus", "end-hand-limit-discard.yaml",
                         "{at: end.hand.1, cards: [b-h1, b-h2]}", "{at: end.hand.1, cards: " + named + "}")
    err = refused(path, "versus", strict)
    assert err.code == "R503" and err.loc is not None and err.loc.line == line


def test_a_discard_naming_the_right_cards_discards_exactly_those():
    r = run(ROOT / "rules" / "versus" / "scenarios" / "end-hand-limit-discard.yaml", "versus")
    assert zones(r)["p2"]["discard"] == ("b-h1", "b-h2")


# --- VERSUS 臨戦: the card's keyword decides the state it enters in -------------------------------
RINSEN = "standby-rinsen.yaml"


def final_states(r):
    """card -> the state its latest ("state", card, old, new) change left it in."""
    out = {}
    for e in r.entries:
        for ch in e.changes:
            if ch[0] == "state":
                out[ch[1]] = ch[3]
    return out


def test_a_character_with_rinsen_enters_active_and_one_without_sleeping():
    r = run(ROOT / "rules" / "versus" / "scenarios" / RINSEN, "versus")
    states = final_states(r)
    assert states["a-ready"] == "active" and states["a-plain"] == "sleep"
    assert zones(r)["p1"]["field"] == ("a-ready", "a-plain")
    picks = [e.event[1] for e in r.entries if e.node == "place_character.card"]
    assert picks == ["ready", "plain"]  # the option the card's keyword makes hold, not one the scenario picked


@pytest.mark.parametrize("card,wrong", [("a-ready", "plain"), ("a-plain", "ready")])
def test_picking_the_other_keyword_option_for_a_card_is_refused_where_it_is_written(tmp_path, card, wrong):
    # the card without 臨戦 is picked first, while the one with it is still in hand
    text = (ROOT / "rules" / "versus" / "scenarios" / RINSEN).read_text(encoding="utf-8")
    first, second = "{at: place_character.card, card: a-ready}", "{at: place_character.card, card: a-plain}"
    swapped = text.replace(first, "@").replace(second, first).replace("@", second)
    new = "{at: place_character.card, take: " + wrong + ", card: " + card + "}"
    swapped = swapped.replace("{at: place_character.card, card: " + card + "}", new)
    path = tmp_path / RINSEN
    path.write_text(swapped, encoding="utf-8")
    line = swapped[: swapped.index(new)].count("\n") + 1
    err = refused(path, "versus", strict=False)
    assert err.code == "R503" and err.loc.line == line and wrong in err.message


def test_a_character_without_rinsen_cannot_attack_in_the_turn_it_is_placed(tmp_path):
    path, _ = variant(tmp_path, "versus", RINSEN, "{at: battle.attack.declare.1, card: a-ready}",
                      "{at: battle.attack.declare.1, card: a-plain}")
    err = refused(path, "versus", strict=False)
    assert err.code == "R503" and "a-plain" in err.message


def test_a_character_card_cannot_enter_the_field_through_the_support_path(tmp_path):
    # one character placed the ordinary way; the second through the support-item path
    path, line = variant(tmp_path, "versus", RINSEN,
                         "  - {at: standby.character.place.second, take: place}\n"
                         "  - {at: place_character.card, card: a-plain}\n"
                         "  - {at: place_character.pay, card: a-m1}\n",
                         "  - {at: standby.character.place.second, take: stop}\n"
                         "  - {at: standby.supports.support, take: place, card: a-plain}\n"
                         "  - {at: standby.supports.support.place.1, card: a-m1}\n")
    text = path.read_text(encoding="utf-8").replace("hand: [a-ready, a-plain]", "hand: [a-ready, a-plain, a-sup]")
    text = text.replace("cards:\n", "cards:\n  - {id: a-sup, name: Banner, type: support, stats: {e: 1}}\n")
    path.write_text(text, encoding="utf-8")
    err = refused(path, "versus", strict=False)
    assert err.code == "R503" and "a-plain" in err.message and "support" in err.message
    assert err.loc.line == line + 2  # the choice that named the character (one card line added above it)


# --- rule processing: every rule that applies, each an entry of its own --------------------------
def test_a_level_up_already_due_is_done_at_the_first_check_timing_and_both_losses_are_a_draw():
    r = run(ROOT / "rules" / "ws" / "scenarios" / "level-up-due-at-start.yaml", "ws")
    rules = [e for e in r.entries if e.node == "check_timing.1" and e.kind in ("interrupt", "rule")]
    assert [(e.event[0], e.event[1], e.event[2]) for e in rules] == [
        ("interrupt", "level_up", "p1"), ("rule", "loss_level", "p1"), ("rule", "loss_level", "p2")]
    first = next(e for e in r.entries if e.node == "check_timing.1")
    assert first.event[0] == "interrupt"  # before any card moved in the turn
    assert r.result == "draw"


# --- costs paid by turning cards of a zone (VERSUS: usable magic cards face down) ---------------
BOLT = "2 damage to a character}, kind: activated, play: standby_ability,\n"
PAID = ("2 damage to a character}, kind: activated, play: standby_ability,\n"
        "         cost: [{pay: {zone: magic, count: 1, from: face_up, to: face_down}}],\n")


def with_magic(tmp_path, old: str, new: str, magic: str) -> Path:
    """The standby example with one text replaced, a usable magic card a-m0 and Alice's magic zone."""
    path, _ = variant(tmp_path, "versus", "standby-newest-first.yaml", old, new)
    text = path.read_text(encoding="utf-8").replace("      leader: [a-leader]\n", "      leader: [a-leader]\n" + magic)
    text = text.replace("cards:\n", "cards:\n  - {id: a-m0, name: Magic card, type: magic, state: face_up}\n")
    path.write_text(text, encoding="utf-8")
    return path


def magic_variant(tmp_path, magic: str) -> Path:
    return with_magic(tmp_path, BOLT, PAID, magic)


def test_an_ability_cost_in_magic_cards_is_paid_by_turning_them_face_down(tmp_path):
    r = run(magic_variant(tmp_path, "      magic: [a-m0]\n"), "versus")
    play = next(e for e in r.entries if e.node == "standby.actions" and e.event[0] == "window_play")
    assert ("state", "a-m0", "face_up", "face_down") in play.changes
    assert zones(r)["p2"]["discard"] == ("b-char",)  # the example's outcome is unchanged


def test_an_ability_cost_that_cannot_be_paid_is_refused_where_the_play_is_written(tmp_path):
    path = magic_variant(tmp_path, "      magic: []\n")
    err = refused(path, "versus", strict=False)
    text = path.read_text(encoding="utf-8").splitlines()
    assert err.code == "R503" and "magic" in err.message and "a-leader" in err.message
    assert "card: a-leader" in text[err.loc.line - 1]


# --- Aquarian Age: the guard cost is paid from the guarding character's power --------------------
GUARD = "{at: faction.checks.aggressive.attack.guard.guard.1, card: g-guard}"


def test_the_guard_cost_is_paid_from_the_guarding_characters_power():
    r = run(ROOT / "rules" / "aquarian" / "scenarios" / "guard-battle.yaml", "aquarian")
    guard = next(e for e in r.entries if e.node == "faction.checks.aggressive.attack.guard.guard.1")
    assert ("stat", "g-guard", "power", 1, 0) in guard.changes


@pytest.mark.parametrize("strict", [True, False])
def test_a_guard_whose_cost_cannot_be_paid_is_refused_where_it_is_written(tmp_path, strict):
    path, _ = variant(tmp_path, "aquarian", "guard-battle.yaml", "guard_cost: 1, power: 1}", "guard_cost: 1, power: 0}")
    err = refused(path, "aquarian", strict)
    text = path.read_text(encoding="utf-8").splitlines()
    assert err.code == "R503" and "guard_cost" in err.message and "g-guard" in err.message
    assert GUARD in text[err.loc.line - 1]


# --- the WS end phase repeats for an end-of-turn ability that arrived after its triggering ------
def test_the_end_phase_runs_again_for_an_end_of_turn_ability_that_arrived_late():
    r = run(ROOT / "rules" / "ws" / "scenarios" / "end-phase-late-ability.yaml", "ws")
    seq = [e.node for e in r.entries if e.node in ("end.1", "end.6.again.1", "end.6.else.1")]
    assert seq == ["end.1", "end.6.again.1", "end.1", "end.6.else.1"]
    triggered = [e.event[2] for e in r.entries if e.node == "end.1"]
    assert [tuple(x[1:] for x in t) for t in triggered] == [(("a-call", "call"),), (("a-call", "call"), ("a-late", "late"))]


# --- the source's worked examples, verbatim ------------------------------------------------------
def test_the_versus_five_step_example_runs_as_written_under_strict():
    path = ROOT / "rules" / "versus" / "scenarios" / "standby-newest-first.yaml"
    res = compiled(path, "versus")
    window = [c for c in res.scenario.choices if c.at == "standby.actions"]
    assert [c.take for c in window] == ["play", "play", "play", "pass", "pass"]  # ① ② ③ ④ ⑤, nothing more
    r = simulate(res.game, res.scenario, strict=True)
    assert r.unused_choices == () and r.policy_decisions == 0
    assert zones(r)["p2"] == {"discard": ("b-char",)}


# --- WS: every character has the built-in encore (3) without the scenario stating it ------------
def test_every_character_has_the_built_in_encore_without_stating_it():
    path = ROOT / "rules" / "ws" / "scenarios" / "encore.yaml"
    res = compiled(path, "ws")
    assert all(not c.abilities for c in res.scenario.cards.values())  # no card states encore
    r = simulate(res.game, res.scenario, strict=True)
    done = [e.event for e in r.entries if e.event[0] == "resolve" and e.event[3] == "encore"]
    assert [d[:3] for d in done] == [("resolve", "p1", "a-att")]
    assert ("move", ("a-att",), "waiting_room", "stage") in done[0][4]
    assert [e.event[:3] for e in r.entries if e.event[0] == "cannot_pay"] == [("cannot_pay", "p2", "b-def")]
    assert final_states(r)["a-att"] == "rest" and zones(r)["p1"]["stage"] == ("a-att", "a-aide")


# --- WS play conditions (level, cost, colour), from the rule file --------------------------------
CX = "  - {at: climax.3, take: placed, card: a-cx}\n"


def test_a_climax_needs_a_card_of_its_colour_in_the_level_zone_or_clock(tmp_path):
    path, _ = variant(tmp_path, "ws", "end-phase-again.yaml", "    type: climax\n", "    type: climax\n    traits: [red]\n")
    err = refused(path, "ws", strict=False)
    text = path.read_text(encoding="utf-8").splitlines()
    assert err.code == "R503" and "a-cx" in err.message and "red" in err.message
    assert text[err.loc.line - 1] + "\n" == CX
    # with a red card in the clock the same climax is placed
    path.write_text(path.read_text(encoding="utf-8").replace("{id: a-c1, name: Clocked, type: character}",
                                                             "{id: a-c1, name: Clocked, type: character, traits: [red]}"),
                    encoding="utf-8")
    assert "a-cx" in zones(run(path, "ws"))["p1"]["waiting_room"]


@pytest.mark.parametrize("stats,why", [("{level: 1}", "level"), ("{cost: 1}", "cost")])
def test_a_character_above_the_players_level_or_cost_cannot_be_played(tmp_path, stats, why):
    path, _ = variant(tmp_path, "ws", "end-phase-again.yaml", "  - {at: main.3, take: nothing}\n",
                      "  - {at: main.3, take: character, card: a-h1}\n")
    text = path.read_text(encoding="utf-8").replace("{id: a-h1, name: Card, type: character}",
                                                    "{id: a-h1, name: Card, type: character, stats: " + stats + "}")
    path.write_text(text, encoding="utf-8")
    err = refused(path, "ws", strict=False)
    assert err.code == "R503" and "a-h1" in err.message and why in err.message
    assert "card: a-h1" in text.splitlines()[err.loc.line - 1]


# --- VERSUS: every magic item costs its E in usable magic cards, from the rule file's play kinds --
def magic_item_variant(tmp_path, magic: str) -> Path:
    item = "  - id: a-magic\n    name: Dispel\n    type: magic\n"
    return with_magic(tmp_path, item, item + "    stats: {e: 1}\n", magic)


def test_a_magic_item_pays_its_e_without_the_card_stating_a_cost(tmp_path):
    r = run(magic_item_variant(tmp_path, "      magic: [a-m0]\n"), "versus")
    play = [e for e in r.entries if e.node == "standby.actions" and e.event[0] == "window_play"][2]
    assert play.event[1] == "a-magic" and ("state", "a-m0", "face_up", "face_down") in play.changes


def test_a_magic_item_whose_e_cannot_be_paid_is_refused_where_it_is_played(tmp_path):
    path = magic_item_variant(tmp_path, "      magic: []\n")
    err = refused(path, "versus", strict=False)
    assert err.code == "R503" and "a-magic" in err.message and "(e)" in err.message
    assert "card: a-magic" in path.read_text(encoding="utf-8").splitlines()[err.loc.line - 1]
