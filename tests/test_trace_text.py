"""What the narrated trace tells a judge: the turn number and who holds which role at each turn
header, the state a card is placed in, where each card of a damage judgment or a discard went,
the amount of damage as a number, and the board at the end (states, damage). Asserted as facts
(numbers, names and catalogue words present), in both languages."""
from pathlib import Path

import pytest

from tcgtiming.core.words import word
from tcgtiming.frontend.pipeline import compile_file
from tcgtiming.runtime.engine import simulate
from tcgtiming.runtime.narrate import Narrator
from tcgtiming.runtime.trace import as_text

ROOT = Path(__file__).resolve().parent.parent


def run(rel):
    res = compile_file(str(ROOT / "rules" / rel))
    return res.game, res.scenario, simulate(res.game, res.scenario, strict=True)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_turn_headers_name_the_turn_and_the_role_holders(lang):
    game, sc, r = run("versus/scenarios/end-hand-limit-and-swap.yaml")
    heads = [line for line in as_text(r, lang=lang).splitlines() if line.startswith("==") and
             game.containers["turn"].label.get(lang) in line]
    assert len(heads) == 2 == sc.turns
    names = {pid: name for pid, name, _ in sc.players}
    seat = {r.get("seat"): r.name.get(lang) for r in game.roles.values() if r.get("seat") in ("turn", "non_turn")}
    for t, line in enumerate(heads, 1):
        assert str(t) in line
        tp = sc.turn_player if t == 1 else next(p for p in names if p != sc.turn_player)  # roles swap
        other = next(p for p in names if p != tp)
        assert word("trace.role_holder", lang, names[tp], seat["turn"]) in line
        assert word("trace.role_holder", lang, names[other], seat["non_turn"]) in line


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_placed_card_says_its_state(lang):
    game, sc, r = run("versus/scenarios/end-hand-limit-and-swap.yaml")
    n = Narrator(game, sc, lang)
    placed = [e for e in r.entries if e.event[0] == "place"]
    assert placed
    for e in placed:
        state = next(x[3] for x in e.changes if x[0] == "state" and x[1] == e.event[1])
        assert word(f"state.{state}", lang) in n.entry(e)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_damage_judgment_and_discards_say_where_each_card_went(lang):
    for rel, code in (("aquarian/scenarios/damage-judgment-no-recheck.yaml", "damage_judgment"),
                      ("versus/scenarios/end-hand-limit-discard.yaml", "discard")):
        game, sc, r = run(rel)
        n = Narrator(game, sc, lang)
        es = [e for e in r.entries if e.event[0] == code]
        assert es, rel
        for e in es:
            text = n.entry(e)
            for x in e.changes:
                if x[0] == "move":
                    assert word("trace.went.card", lang, sc.cards[x[1]].name, game.zones[x[3]].name.get(lang)) in text


def test_the_board_at_the_end_shows_states_and_damage():
    game, sc, r = run("ws/scenarios/encore.yaml")
    text = as_text(r, lang="en")
    summary = text[text.rindex(word("trace.result.ongoing", "en")):]
    sep = word("trace.sep", "en")
    # returned rested by its encore; its values, as it is in play
    assert f"a-att ({word('state.rest', 'en')}{sep}{word('stat.level', 'en')} 0{sep}{word('stat.power', 'en')} 3000" in summary
    assert r.board["a-att"] == ("rest", 0, (("level", 0), ("power", 3000), ("soul", 1)))
    assert r.board["b-def"] == (None, 0, ())  # in the waiting room: no state, no values shown


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_branch_says_what_it_asks_and_which_case_held(lang):
    game, sc, r = run("ws/scenarios/end-phase-again.yaml")
    n = Narrator(game, sc, lang)
    branches = [e for e in r.entries if e.event[0] in ("case", "otherwise")]
    assert {e.event[0] for e in branches} == {"case", "otherwise"}
    for e in branches:
        node = game.nodes[e.node]
        text = n.entry(e)
        assert node.label.get(lang) in text  # the question the rules ask
        if e.event[0] == "case":
            held = next(c for c in node.choices if c.id == e.event[1])
            assert (held.label.get(lang) if held.label else held.id) in text
        else:  # every case that did not hold is named
            for c in node.choices:
                assert (c.label.get(lang) if c.label else c.id) in text
        # why: each value the cases tried found, from the catalogue (the hand's count, as a number)
        tested = e.event[2] if e.event[0] == "case" else e.event[1]
        assert tested and all(facts for _, facts in tested)
        for _, facts in tested:
            for name, pid, value, extra, held in facts:
                if name == "count":
                    assert word("tested.count", lang, n.player(pid), n.zone(extra[0]), value) in text
                assert word("tested.holds" if held else "tested.fails", lang) in text


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_damage_to_a_player_names_its_target_as_the_rules_do(lang, tmp_path):
    """An unblocked VERSUS attack: the damage entry gives the amount (the attacker's AP) and the
    target in the rule file's words (the block side's leader); the expectation of the damage holds."""
    src = (ROOT / "rules/versus/scenarios/battle-blocker-discarded.yaml").read_text(encoding="utf-8")
    src = src.replace("  - {at: battle.attack.declare.block, take: block}\n  - {at: battle.attack.declare.block.block.1, card: b-blk}\n",
                      "  - {at: battle.attack.declare.block, take: none}\n")
    src = src[:src.index("expect:")] + "expect:\n  events:\n    - {damage: {player: p2, amount: 2}, count: 1}\n"
    p = tmp_path / "unblocked.yaml"
    p.write_text(src, encoding="utf-8")
    res = compile_file(str(p), rules=str(ROOT / "rules/versus/game.yaml"))
    assert res.scenario is not None, [d.message for d in res.diagnostics]
    r = simulate(res.game, res.scenario, strict=True)
    from tcgtiming.runtime.expect import check
    assert check(r, res.scenario) == []
    (e,) = [e for e in r.entries if e.event[0] == "damage"]
    text = Narrator(res.game, res.scenario, lang).entry(e)
    assert "2" in text and res.game.nodes[e.node].label.get(lang) in text and "Bob" in text
