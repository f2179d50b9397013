"""Windows that resolve the top object only and run their own actions before priority
(``resolve: top``, ``before_priority``, ``stack_pending``) on the stack fixture game: facts of
the trace, and the diagnostics that guard them."""
import pytest

from conftest import ROOT
from tcgtiming.frontend.pipeline import compile_file
from tcgtiming.runtime.engine import SimulationError, simulate

STACK = ROOT / "tests" / "fixtures" / "stack" / "game.yaml"
RESPOND = ROOT / "tests" / "fixtures" / "stack" / "scenarios" / "respond.yaml"


def run(path, rules=STACK, **kw):
    res = compile_file(path, rules=str(rules))
    assert res.scenario is not None, [(d.code, d.line, d.message) for d in res.diagnostics]
    return simulate(res.game, res.scenario, **kw)


def variant(tmp_path, src, *pairs, name="x.yaml"):
    text = src.read_text(encoding="utf-8")
    for old, new in pairs:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def test_the_top_object_resolves_alone_and_priority_comes_back():
    r = run(RESPOND, strict=True)
    w = [e for e in r.entries if e.node == "main.1"]
    kinds = [e.event[0] for e in w]
    assert "stack_resolved" not in kinds  # never the whole stack at once
    resolved = [i for i, k in enumerate(kinds) if k == "resolved"]
    assert [w[i].event[2] for i in resolved] == ["watcher", "watcher", "counter", "shock"]  # newest first, one by one
    for i in resolved[:-1]:  # after each resolution the turn player gets priority again, before the next one
        nxt = next(e for e in w[i + 1:] if e.event[0] in ("pass", "window_play"))
        assert nxt.actor == "p1" and nxt.priority == "p1"
    assert len(w[resolved[0]].stack) == 1 and w[resolved[0]].stack[0][0] == "shock"
    assert w[resolved[-1]].event[4] is None  # the shock was negated by the counter
    assert kinds[-1] == "window_closes"


def test_before_priority_puts_triggers_on_the_stack_and_runs_rule_processing():
    r = run(RESPOND, strict=True)
    w = [e for e in r.entries if e.node == "main.1"]
    hooks = [e for e in w if e.event[0] == "before_priority"]
    stacked = [d for e in hooks for d in e.event[1] if d[0] == "stack_pending"]
    assert stacked == [("stack_pending", (("p2", "watcher", "watch"),))] * 2
    # the watcher's trigger from the shock is on the stack above the shock before anyone has priority again
    first = hooks[0]
    assert first.stack == (("shock", "shock", False), ("watcher", "watch", False)) and all(not q for _, q in first.pending)
    # the rule applied after the watcher's draw (Bob's hand of 3) comes before Alice's next priority
    rule = next(e for e in r.entries if e.event[0] == "rule")
    assert rule.event[1:3] == ("too_many", "p2") and rule.changes == (("move", "b4", "hand", "discard"),)
    i = r.entries.index(rule)
    assert r.entries[i + 1].event == ("before_priority", (("rule_processing", 1),))
    assert r.entries[i + 2].event[0] == "pass" and r.entries[i + 2].actor == "p1"


TWO = """
  - id: seer
    name: Seer
    type: creature
    abilities: [{id: see, kind: auto, event: played, subject: any, effect: [{draw: {who: controller, count: 1}}]}]
"""


def test_a_player_orders_their_own_simultaneous_triggers(tmp_path):
    base = (("field: [watcher]", "field: [watcher, seer]"), ("choices:\n", TWO + "choices:\n"))
    text = variant(tmp_path, RESPOND, *base).read_text(encoding="utf-8")
    head = text[:text.index("choices:\n")] + "choices:\n  - {at: main.1, take: play, card: shock}\n"
    plain, chosen = tmp_path / "plain.yaml", tmp_path / "chosen.yaml"
    plain.write_text(head, encoding="utf-8")
    chosen.write_text(head + "  - {at: main.1, ability: see}\n", encoding="utf-8")
    with pytest.raises(SimulationError) as err:  # two of Bob's own at once: his decision
        run(plain, strict=True)
    assert err.value.code == "R501" and "main.1" in str(err.value)
    hook = next(e for e in run(chosen).entries if e.event[0] == "before_priority")
    assert hook.event[1][0] == ("stack_pending", (("p2", "seer", "see"), ("p2", "watcher", "watch")))
    assert hook.stack[-1] == ("watcher", "watch", False)  # put on the stack last: resolves first
    hook = next(e for e in run(plain).entries if e.event[0] == "before_priority")
    assert hook.event[1][0][1][0] == ("p2", "watcher", "watch")  # the policy keeps the order they triggered in


def test_a_stacking_window_without_before_priority_under_a_check_timing_is_warned(tmp_path):
    p = variant(tmp_path, STACK, ("          before_priority: [rule_processing, stack_pending]\n", ""))
    res = compile_file(str(p))
    hits = [d for d in res.diagnostics if d.code == "C321"]
    assert len(hits) == 1 and hits[0].severity == "warning" and res.game is not None
    assert hits[0].line == p.read_text().splitlines().index("          resolve: top") + 1
    assert "before_priority" in hits[0].help


def test_an_unknown_action_before_priority_is_located(tmp_path):
    p = variant(tmp_path, STACK, ("before_priority: [rule_processing, stack_pending]",
                                  "before_priority: [rule_processing, stack_pendin]"))
    res = compile_file(str(p))
    hits = [d for d in res.diagnostics if d.code == "C310"]
    assert len(hits) == 1 and res.game is None
    assert hits[0].line == next(i for i, ln in enumerate(p.read_text().splitlines(), 1) if "stack_pendin]" in ln)
    assert "stack_pending" in hits[0].help


def test_a_run_stuck_with_pending_abilities_says_so(tmp_path):
    again = ("          after_resolve: reopen\n"
             "        - kind: branch\n"
             "          label: {ja: 待機中の能力は？, en: any pending ability?}\n"
             "          cases:\n"
             "            - label: {ja: ある, en: some}\n"
             "              when: {has_pending: non_turn_player}\n"
             "              then: [{kind: goto, target: w}]\n")
    rules = variant(tmp_path, STACK, ("          before_priority: [rule_processing, stack_pending]\n", ""),
                    ("        - kind: window\n", "        - kind: window\n          id: w\n"),
                    ("          after_resolve: reopen\n", again), name="game.yaml")
    sc = variant(tmp_path, RESPOND, ("seed: 1", "seed: 1\n  max_steps: 300"), name="s.yaml")
    sc.write_text(sc.read_text(encoding="utf-8").replace("at: main.1", "at: main.w"), encoding="utf-8")
    with pytest.raises(SimulationError) as err:
        run(sc, rules=rules)
    assert err.value.code == "R502" and "pending abilit" in err.value.help
    plain = variant(tmp_path, RESPOND, ("field: [watcher]", "field: []"), ("seed: 1", "seed: 1\n  max_steps: 300"),
                    name="p.yaml")
    plain.write_text(plain.read_text(encoding="utf-8").replace("at: main.1", "at: main.w"), encoding="utf-8")
    assert run(plain, rules=rules).result == "ongoing"  # without the watcher's trigger the window is left


def test_a_skipped_step_is_not_entered(tmp_path):
    first = variant(tmp_path, RESPOND, ("seed: 1", "seed: 1\n  first_turn: true"))
    draw = [e for e in run(first).entries if e.step == "beginning.draw" or e.node.startswith("beginning.draw")]
    assert [(e.node, e.event) for e in draw] == [("beginning.draw.begin", ("skipped",))]
    later = [(e.node, e.event[0]) for e in run(RESPOND).entries if e.node.startswith("beginning.draw")]
    assert later == [("beginning.draw.begin", "begin"), ("beginning.draw.1", "draw"), ("beginning.draw.end", "end")]


def test_an_unknown_predicate_in_skip_if_is_located(tmp_path):
    p = variant(tmp_path, STACK, ("skip_if: first_turn_of_game", "skip_if: first_turn_of_gme"))
    res = compile_file(str(p))
    hits = [d for d in res.diagnostics if d.code == "C309"]
    assert len(hits) == 1 and res.game is None and "first_turn_of_game" in hits[0].help
    assert hits[0].line == next(i for i, ln in enumerate(p.read_text().splitlines(), 1) if "first_turn_of_gme" in ln)


KINDS = """
  - id: rite
    name: Rite
    type: spell
    abilities: [{id: rite, kind: activated, play: sorcery, cost: [{move: {who: controller, from: hand, to: discard, which: self}}], effect: [{draw: {who: controller, count: 1}}]}]
  - id: forest
    name: Forest
    type: spell
    abilities: [{id: forest, kind: activated, play: land, effect: [{move: {who: controller, from: hand, to: field, which: self}}]}]
  - id: rite2
    name: Rite
    type: spell
    abilities: [{id: rite, kind: activated, play: sorcery, effect: [{draw: {who: controller, count: 1}}]}]
"""


def kinds_scenario(tmp_path, choices: str, name: str, hand="rite, forest"):
    # the first turn (no draw) and two cards in each hand: the fixture's hand-size rule stays out of it
    text = variant(tmp_path, RESPOND, ("hand: [shock]", f"hand: [{hand}]"), ("seed: 1", "seed: 1\n  first_turn: true"),
                   ("hand: [b4, counter]", "hand: [counter, rite2]"), ("field: [watcher]", "field: []"),
                   ("choices:\n", KINDS + "choices:\n")).read_text(encoding="utf-8")
    p = tmp_path / name
    p.write_text(text[:text.index("choices:\n")] + ("choices:\n" + choices if choices else ""), encoding="utf-8")
    return p


def test_a_play_kind_condition_limits_when_it_may_be_played(tmp_path):
    busy = kinds_scenario(tmp_path, "  - {at: main.1, take: play, card: shock}\n  - {at: main.1, take: play, card: rite}\n",
                          "busy.yaml", hand="shock, rite")
    with pytest.raises(SimulationError) as err:  # the stack is not empty
        run(busy)
    assert err.value.code == "R503" and "sorcery" in str(err.value) and "stack_empty" in str(err.value)
    theirs = kinds_scenario(tmp_path, "  - {at: main.1, take: pass}\n  - {at: main.1, take: play, card: rite2}\n",
                            "theirs.yaml")
    with pytest.raises(SimulationError) as err:  # not the turn player
        run(theirs)
    assert err.value.code == "R503" and "holds_role" in str(err.value)
    ok = kinds_scenario(tmp_path, "  - {at: main.1, take: play, card: rite}\n", "ok.yaml")
    plays = [e for e in run(ok).entries if e.event[0] == "window_play"]
    assert plays[0].event[1] == "rite" and plays[0].stack == (("rite", "rite", False),)
    # the policy offers only what may be played now: Bob's sorcery never, Alice's once the stack is empty
    r = run(kinds_scenario(tmp_path, "", "policy.yaml"), policy="first")
    played = [(e.actor, e.event[1]) for e in r.entries if e.event[0] == "window_play"]
    assert ("p2", "rite2") not in played and ("p1", "rite") in played
    for e in r.entries:
        if e.event[0] == "window_play" and e.event[1] == "rite":
            assert e.stack == (("rite", "rite", False),)  # played onto an empty stack


def test_a_special_action_resolves_at_once_in_a_stacking_window(tmp_path):
    p = kinds_scenario(tmp_path, "  - {at: main.1, take: play, card: rite}\n  - {at: main.1, take: play, card: forest}\n",
                       "land.yaml")
    w = [e for e in run(p).entries if e.event[0] == "window_play"]
    assert [x.event[1] for x in w] == ["rite", "forest"]
    land = w[1]
    assert land.event[3] is not None and ("move", "forest", "hand", "field") in land.changes  # done there and then
    assert land.stack == (("rite", "rite", False),)  # never on the stack: the sorcery still waits under nothing
    assert land.actor == "p1" and land.priority == "p1"  # played while holding priority, with the sorcery waiting


def test_an_unquoted_comma_in_a_text_gets_a_quote_it_hint(tmp_path):
    p = variant(tmp_path, STACK, ("label: {ja: 優先権, en: priority}", "label: {ja: 優先権, en: priority, then the stack}"))
    res = compile_file(str(p))
    hits = [d for d in res.diagnostics if d.code == "S201"]
    assert len(hits) == 1 and "then the stack" in hits[0].message and "quote" in hits[0].help
    assert hits[0].line == next(i for i, ln in enumerate(p.read_text().splitlines(), 1) if "then the stack" in ln)
    typo = variant(tmp_path, STACK, ("label: {ja: 優先権, en: priority}", "label: {ja: 優先権, en: priority, ne: x}"),
                   name="typo.yaml")
    hit = next(d for d in compile_file(str(typo)).diagnostics if d.code == "S201")
    assert "quote" not in (hit.help or "")  # a key with a value is a misspelt key, not a comma


def test_a_choice_keyed_by_its_phase_answers_the_decisions_made_in_it(tmp_path):
    text = RESPOND.read_text(encoding="utf-8")
    by_phase = tmp_path / "phase.yaml"
    by_phase.write_text(text.replace("at: main.1", "at: main"), encoding="utf-8")
    a, b = run(RESPOND, strict=True), run(by_phase, strict=True)
    assert [(e.node, e.event, e.actor) for e in a.entries] == [(e.node, e.event, e.actor) for e in b.entries]
    assert b.zones == a.zones and not b.unused_choices
    # a choice keyed by the node comes before one keyed by its phase
    first = tmp_path / "first.yaml"
    first.write_text(text.replace("  - {at: main.1, take: play, card: shock}\n",
                                  "  - {at: main, take: play, card: shock}\n  - {at: main.1, take: pass}\n", 1)
                     .replace("at: main.1, take: pass}\n  - {at: main.1, take: pass}\n  - {at: main.1, take: pass}\n"
                              "  - {at: main.1, take: play", "at: main, take: pass}\n  - {at: main, take: pass}\n"
                              "  - {at: main, take: pass}\n  - {at: main, take: play", 1), encoding="utf-8")
    plays = [e for e in run(first).entries if e.event[0] in ("pass", "window_play")]
    assert plays[0].event[0] == "pass" and plays[0].actor == "p1"
    unknown = tmp_path / "unknown.yaml"
    unknown.write_text(text.replace("at: main.1", "at: mian", 1), encoding="utf-8")
    res = compile_file(str(unknown), rules=str(STACK))
    assert res.scenario is None and [d.code for d in res.diagnostics] == ["C302"]


def test_several_actions_of_one_node_are_one_entry(tmp_path):
    r = run(RESPOND, strict=True)
    ending = [e for e in r.entries if e.node == "ending.1"]
    assert len(ending) == 1
    closed, inner = ending[0].event
    assert closed == "closed" and inner[0] == "together"
    assert [x[0] for x in inner[1]] == ["reset_damage", "end_effects"]
    res = compile_file(str(STACK))
    node = res.game.nodes["ending.1"]
    assert (node.action.name, [a.name for a in node.also]) == ("reset_damage", ["end_effects"])
    bad = variant(tmp_path, STACK, ("do: [reset_damage, end_effects]", "do: [reset_damage, end_efects]"))
    hits = [d for d in compile_file(str(bad)).diagnostics if d.code == "C310"]
    assert len(hits) == 1 and "end_effects" in hits[0].help
    line = next(i for i, ln in enumerate(bad.read_text().splitlines(), 1) if "end_efects" in ln)
    assert (hits[0].line, hits[0].col) == (line, bad.read_text().splitlines()[line - 1].index("end_efects") + 1)


SBA = """
  - id: zap
    name: Zap
    type: spell
    abilities: [{id: zap, kind: activated, play: instant, effect: [{damage: {target: target, amount: 2, to: discard}}]}]
  - id: weaken
    name: Weaken
    type: spell
    abilities: [{id: weaken, kind: activated, play: instant, effect: [{modify: {target: target, stat: defense, by: -1}}]}]
  - {id: ogre, name: Ogre, type: creature, stats: {defense: 3}}
"""


def test_rule_processing_reads_damage_and_values_before_priority(tmp_path):
    text = variant(tmp_path, RESPOND, ("hand: [shock]", "hand: [zap, weaken]"), ("field: [watcher]", "field: [ogre]"),
                   ("seed: 1", "seed: 1\n  first_turn: true"), ("choices:\n", SBA + "choices:\n")).read_text(encoding="utf-8")
    p = tmp_path / "sba.yaml"
    p.write_text(text[:text.index("choices:\n")] + "choices:\n"
                 "  - {at: main.1, take: play, card: zap, target: ogre}\n  - {at: main.1, take: pass}\n"
                 "  - {at: main.1, take: pass}\n  - {at: main.1, take: play, card: weaken, target: ogre}\n", encoding="utf-8")
    r = run(p)
    zap = next(e for e in r.entries if e.event[0] == "resolved" and e.event[2] == "zap")
    assert zap.event[4] == (("damage_card", "ogre", 2, None),)  # 2 damage, defense 3: it stays
    weak = next(e for e in r.entries if e.event[0] == "resolved" and e.event[2] == "weaken")
    i = r.entries.index(weak)
    rule = r.entries[i + 1]  # defense 2 now: the rule moves it before anyone gets priority again
    assert rule.event[:3] == ("rule", "lethal", "p2") and rule.event[3] == (("move", ("ogre",), "field", "discard"),)
    assert r.entries[i + 2].event == ("before_priority", (("rule_processing", 1),))
    assert dict(dict(r.zones)["p2"])["discard"][-1] == "ogre"


MTG = ROOT / "rules" / "mtg" / "game.yaml"


def test_a_zone_names_the_card_types_that_attack_from_it(tmp_path):
    sc = tmp_path / "attack.yaml"
    sc.write_text("""
scenario: {id: t, game: mtg, title: {ja: t, en: t}, turn_player: p1, first_turn: true, seed: 1}
players:
  - {id: p1, name: Alice, zones: {library: [a1], battlefield: [bear]}}
  - {id: p2, name: Bob, zones: {library: [b1]}}
cards:
  - {id: a1, name: Forest, type: land}
  - {id: b1, name: Forest, type: land}
  - {id: bear, name: Bear, type: creature, stats: {power: 2, toughness: 2}}
choices:
  - {at: combat.attackers.declare, take: attack, card: bear}
  - {at: combat.blockers.declare, take: "no"}
""", encoding="utf-8")
    r = run(sc, rules=MTG, strict=True)
    assert any(e.event[:2] == ("attackers", ("bear",)) for e in r.entries)  # a creature attacks: the zone says so
    bad = variant(tmp_path, MTG, ("combatants: [creature]", "combatants: [creatur]"), name="game.yaml")
    hits = [d for d in compile_file(str(bad)).diagnostics if d.code == "C302"]
    assert len(hits) == 1 and "creature" in hits[0].help
    assert hits[0].line == next(i for i, ln in enumerate(bad.read_text().splitlines(), 1) if "creatur]" in ln)
    plain = variant(tmp_path, MTG, (", combatants: [creature]", ""), name="plain.yaml")
    with pytest.raises(SimulationError) as err:  # by default only characters and units attack: a creature cannot
        run(sc, rules=plain)
    assert err.value.code == "R503" and "available: no_attack" in str(err.value)


WINDOW = """        - kind: window
          label: {ja: 優先権, en: priority}
          cite: "stack#priority"
          first: turn_player
          plays: [instant, sorcery, land]
          close: consecutive_passes
          after_play: keep
          resolve: top
          after_resolve: reopen
          before_priority: [rule_processing, stack_pending]
"""


def with_kinds(tmp_path, kinds: str, name: str):
    """The fixture with its window in a procedure whose parameter gives the kinds of play."""
    proc = ("  - id: prio\n    label: {ja: 優先権, en: priority}\n    cite: \"stack#priority\"\n    params: [kinds]\n"
            "    nodes:\n" + WINDOW.replace("        ", "      ").replace("[instant, sorcery, land]", "[kinds]"))
    return variant(tmp_path, STACK, (WINDOW, f"        - {{kind: call, procedure: prio, with: {{kinds: {kinds}}}}}\n"),
                   ("procedures:\n", "procedures:\n" + proc), name=name)


def test_plays_may_be_a_parameter_of_the_procedure(tmp_path):
    sc = tmp_path / "s.yaml"
    sc.write_text(RESPOND.read_text(encoding="utf-8").replace("at: main.1", "at: main"), encoding="utf-8")
    a = run(RESPOND, strict=True)
    b = run(sc, rules=with_kinds(tmp_path, "[instant, sorcery, land]", "all.yaml"), strict=True)
    assert [e.event for e in a.entries if e.node == "main.1"] == [e.event for e in b.entries if e.node == "prio.1"]
    with pytest.raises(SimulationError) as err:  # this call allows sorceries only: the shock is refused
        run(sc, rules=with_kinds(tmp_path, "[sorcery]", "sorcery.yaml"))
    assert err.value.code == "R503" and "allowed here: sorcery" in str(err.value)
    bad = with_kinds(tmp_path, "[instant, sorcry]", "bad.yaml")
    hits = [d for d in compile_file(str(bad)).diagnostics if d.code == "C302"]
    assert len(hits) == 1 and "sorcery" in hits[0].help
    assert hits[0].line == next(i for i, ln in enumerate(bad.read_text().splitlines(), 1) if "sorcry" in ln)
