"""A play kind's cost paid by turning cards of one card type (MTG: a spell's mana value paid by
tapping untapped lands, CR 202, 601.2, 106, 605): which cards pay, which do not, the refusal naming
what is missing, an ability of a card already in play paying only its own cost, the `pay` effect's
`type`, and the checks of the cost's words. Facts of the run, not narration."""
from pathlib import Path

import pytest

from tcgtiming.frontend.pipeline import compile_file
from tcgtiming.runtime.engine import SimulationError, simulate

ROOT = Path(__file__).resolve().parent.parent
MTG = ROOT / "rules" / "mtg"
TAPS = MTG / "scenarios" / "spell-taps-lands.yaml"
SHORT = MTG / "rulings" / "spell-needs-untapped-lands.yaml"


def copy(tmp_path, src: Path, *pairs, name: str | None = None) -> Path:
    text = src.read_text(encoding="utf-8")
    for old, new in pairs:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    path = tmp_path / (name or src.name)
    path.write_text(text, encoding="utf-8")
    return path


def scenario_of(path: Path, rules: Path = MTG / "game.yaml"):
    res = compile_file(path, str(path), rules=str(rules))
    sc = res.scenario if res.scenario is not None else (res.ruling.scenario if res.ruling is not None else None)
    assert sc is not None, [(d.code, d.line, d.message) for d in res.diagnostics]
    return res.game, sc


def played(run, card):
    return next(e for e in run.entries if e.event and e.event[0] == "window_play" and e.event[1] == card)


def test_a_spell_taps_as_many_untapped_lands_as_its_mana_value_and_nothing_else():
    run = simulate(*scenario_of(TAPS), strict=True)
    e = played(run, "divination")
    pays = [p for p in e.event[4:] for p in p if p[0] == "pay"]
    # the creature stands first in the battlefield's order, yet only lands pay; the land played this phase too
    assert pays == [("pay", 3, "divination", ("island-a", "mountain", "island-c"), "rest")]
    tapped = {c[1] for c in e.changes if c[0] == "state" and c[-1] == "rest"}
    assert tapped == {"island-a", "mountain", "island-c"}
    assert not any(c[0] == "state" and c[1] == "bear" for x in run.entries for c in x.changes if x.node != "beginning.untap.1")
    assert [x[0] for x in e.stack] == ["divination"]


def test_a_spell_with_too_few_untapped_lands_is_refused_naming_what_is_missing():
    with pytest.raises(SimulationError) as err:
        simulate(*scenario_of(SHORT), strict=True)
    msg = err.value.message
    assert err.value.code == "R503"
    assert "divination" in msg and "land" in msg and "stand" in msg and "1 missing" in msg
    assert "island-b" in msg and "island-c" in msg and "island-a" not in msg  # island-a was tapped for Opt


def test_with_a_fourth_land_the_same_sorcery_is_cast(tmp_path):
    path = copy(tmp_path, SHORT, ("battlefield: [island-a, island-b, island-c]", "battlefield: [island-a, island-b, island-c, island-d]"),
                ("  - {id: island-c, name: Island, type: land}\n",
                 "  - {id: island-c, name: Island, type: land}\n  - {id: island-d, name: Island, type: land}\n"))
    game, sc = scenario_of(path)
    run = simulate(game, sc, strict=False)
    pays = [p for p in played(run, "divination").event[4:] for p in p if p[0] == "pay"]
    assert pays == [("pay", 3, "divination", ("island-b", "island-c", "island-d"), "rest")]


def test_an_ability_of_a_card_in_play_pays_only_its_own_cost(tmp_path):
    ability = ("abilities: [{id: pump, kind: activated, play: instant, effect: [{modify: {target: self, stat: power, by: 1}}]}]")
    path = copy(tmp_path, TAPS,
                ("stats: {cost: 2, power: 2, toughness: 2}, state: rest}",
                 "stats: {cost: 2, power: 2, toughness: 2}, state: rest, " + ability + "}"),
                ("  - {at: main1, take: play, card: island-c}\n",
                 "  - {at: main1, take: play, card: bear}\n  - {at: main1, take: pass}\n  - {at: main1, take: pass}\n"
                 "  - {at: main1, take: play, card: island-c}\n"))
    game, sc = scenario_of(path)
    run = simulate(game, sc, strict=False)
    assert not [p for p in played(run, "bear").event[4:] for p in p if p[0] == "pay"]
    pays = [p for p in played(run, "divination").event[4:] for p in p if p[0] == "pay"]
    assert pays and pays[0][3] == ("island-a", "mountain", "island-c")  # the lands were all still untapped


def test_the_pay_effect_may_name_the_card_type_that_pays(tmp_path):
    cost = "cost: [{move: {who: controller, from: hand, to: graveyard, which: self}}]"
    typed = ("cost: [{pay: {zone: battlefield, count: 2, from: stand, to: rest, type: land}}, "
             "{move: {who: controller, from: hand, to: graveyard, which: self}}]")
    path = copy(tmp_path, TAPS, ("    traits: [blue]\n    stats: {cost: 3}\n", ""), ("play: sorcery, " + cost, "play: sorcery, " + typed))
    game, sc = scenario_of(path)
    run = simulate(game, sc, strict=False)
    pays = [p for p in played(run, "divination").event[4:] for p in p if p[0] == "pay"]
    assert pays == [("pay", 2, "divination", ("island-a", "mountain"), "rest")]  # not the creature before them


COST = "cost: {stat: cost, zone: battlefield, from: stand, to: rest, type: land, card_from: hand, colours: colours}\n    when"


@pytest.mark.parametrize("old,new,word", [
    ("stat: cost,", "stat: cots,", "cots"),
    ("type: land,", "type: lands,", "lands"),
    ("card_from: hand,", "card_from: hnad,", "hnad"),
    ("colours: colours}", "colours: colors}", "colors"),
])
def test_the_words_of_a_play_cost_are_checked_with_a_located_did_you_mean(tmp_path, old, new, word):
    path = copy(tmp_path, MTG / "game.yaml", (COST, COST.replace(old, new)), name="game.yaml")
    res = compile_file(path)
    ds = [d for d in res.diagnostics if d.severity == "error"]
    assert [d.code for d in ds] == ["C302"], [(d.code, d.message) for d in ds]
    text = path.read_text(encoding="utf-8").split("\n")
    line = text[ds[0].line - 1]
    assert new in line and line.index(new) <= ds[0].col - 1 < line.index(new) + len(new)
    assert word in ds[0].message and ds[0].help


COUNTER = MTG / "rulings" / "counterspell-needs-blue.yaml"


def test_each_coloured_symbol_needs_a_land_of_its_colour():
    with pytest.raises(SimulationError) as err:  # two blue symbols, one Island and two Mountains untapped
        simulate(*scenario_of(COUNTER), strict=True)
    assert err.value.code == "R503" and "blue" in err.value.message and "missing" not in err.value.message


def test_a_land_of_two_colours_pays_the_symbol_only_it_can_pay(tmp_path):
    # blue and red needed; the dual land comes first in the zone, yet the lone Island takes blue and the dual red
    path = copy(tmp_path, COUNTER, ("traits: [blue, blue]", "traits: [blue, red]"),
                ("battlefield: [mountain-a, island, mountain-b]", "battlefield: [dual, island]"),
                ("  - {id: mountain-a,", "  - {id: dual, name: Volcanic Island, type: land, traits: [blue, red], state: stand}\n  - {id: mountain-a,"))
    text = path.read_text(encoding="utf-8")
    path.write_text(text[:text.index("expect:")] + "expect:\n  events:\n    - {played: counterspell, count: 1}\n",
                    encoding="utf-8")
    run = simulate(*scenario_of(path), strict=False)
    pays = [p for p in played(run, "counterspell").event[4:] for p in p if p[0] == "pay"]
    assert pays == [("pay", 2, "counterspell", ("dual", "island"), "rest")]


def test_a_play_the_player_cannot_pay_for_is_not_offered(tmp_path):
    """After Opt taps one of three lands, Divination (3) cannot be paid: holding only it, Alice has
    nothing to play, so her passes are forced (no unscripted decision under --strict), and the
    'first' policy, which plays whatever it may, does not try it."""
    text = SHORT.read_text(encoding="utf-8")
    head = text[:text.index("choices:")] + ("choices:\n  - {at: beginning.upkeep, take: pass}\n  - {at: beginning.upkeep, take: pass}\n"
                                             "  - {at: main1, take: play, card: opt}\n")
    path = tmp_path / SHORT.name
    path.write_text(head + "expect:\n  zones: {p1: {hand: [divination, a1]}}\n", encoding="utf-8")
    game, sc = scenario_of(path)
    run = simulate(game, sc, strict=True)
    assert not [e for e in run.entries if e.event and e.event[0] == "window_play" and e.event[1] == "divination"]
    assert dict(dict(run.zones)["p1"])["hand"] == ("divination", "a1")
    path.write_text(head.replace("seed: 1\n", "seed: 1\n  policy: first\n") + "expect:\n  zones: {p1: {hand: 2}}\n",
                    encoding="utf-8")
    game, sc = scenario_of(path)
    assert dict(dict(simulate(game, sc).zones)["p1"])["hand"] == ("divination", "a1")


CHOOSE = MTG / "rulings" / "player-chooses-lands.yaml"


@pytest.mark.parametrize("named,why", [
    ("[mountain-a]", "mountain-a"),                    # one card for a cost of two
    ("[mountain-a, a1]", "a1"),                        # a card in the hand cannot pay
    ("[island, mountain-a, mountain-b]", "island"),    # three for two
])
def test_the_lands_a_choice_names_must_be_as_many_as_the_cost_and_able_to_pay(tmp_path, named, why):
    path = copy(tmp_path, CHOOSE, ("cards: [mountain-a, mountain-b]", f"cards: {named}"))
    with pytest.raises(SimulationError) as err:
        simulate(*scenario_of(path), strict=True)
    assert err.value.code == "R503" and why in err.value.message
    lines = path.read_text(encoding="utf-8").split("\n")
    assert f"cards: {named}" in lines[err.value.loc.line - 1]  # located at the choice that names them


def test_the_lands_a_choice_names_must_cover_the_colours(tmp_path):
    path = copy(tmp_path, CHOOSE, ("cards: [mountain-a, mountain-b]", "cards: [island, mountain-b]"),
                ("    traits: [red]\n    stats: {cost: 2}\n", "    traits: [red, red]\n    stats: {cost: 2}\n"))
    with pytest.raises(SimulationError) as err:
        simulate(*scenario_of(path), strict=True)
    assert err.value.code == "R503" and "red" in err.value.message and "unpaid" in err.value.message


def test_lands_named_for_a_play_that_costs_nothing_are_refused(tmp_path):
    path = copy(tmp_path, TAPS, ("  - {at: main1, take: play, card: island-c}\n",
                                 "  - {at: main1, take: play, card: island-c, cards: [island-a]}\n"))
    with pytest.raises(SimulationError) as err:
        simulate(*scenario_of(path), strict=True)
    assert err.value.code == "R503" and "island-a" in err.value.message and "no cost" in err.value.message
