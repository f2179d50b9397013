"""The engine on the fixture game: facts of the trace, determinism, strictness, budgets, windows."""
import json

import pytest

from conftest import MINI, ROOT
from tcgtiming.frontend.pipeline import compile_file
from tcgtiming.runtime.engine import SimulationError, simulate
from tcgtiming.runtime.trace import as_jsonl

LANES = ROOT / "tests" / "fixtures" / "mini" / "scenarios" / "lanes.yaml"


def run_file(path, **kw):
    res = compile_file(path, rules=str(MINI))
    assert res.scenario is not None, [(d.code, d.line, d.message) for d in res.diagnostics]
    return simulate(res.game, res.scenario, **kw)


def scenario(tmp_path, body: str, name="s.yaml"):
    p = tmp_path / name
    p.write_text(body, encoding="utf-8")
    return p


BASE = """
scenario: {id: t, game: mini, title: {ja: t, en: t}, turn_player: p1, seed: 3}
players:
  - {id: p1, name: Alice, zones: {deck: [a1, a2, a3], hand: [a4, a5], stage: [a6]}}
  - {id: p2, name: Bob, zones: {deck: [b1, b2], hand: [b4, b5], stage: [b3]}}
cards:
  - {id: a1, name: Spark, type: event}
  - {id: a2, name: Spark, type: event}
  - {id: a3, name: Spark, type: event}
  - {id: a4, name: Knight, type: character}
  - id: a5
    name: Bolt
    type: event
    abilities: [{id: bolt, kind: activated, play: quick, effect: [{draw: {who: controller, count: 1}}]}]
  - {id: a6, name: Herald, type: character}
  - {id: b1, name: Shade, type: character}
  - {id: b2, name: Shade, type: character}
  - {id: b3, name: Watcher, type: character}
  - id: b4
    name: Cancel
    type: event
    abilities: [{id: cancel, kind: activated, play: quick, effect: [negate]}]
  - id: b5
    name: Spare
    type: event
"""


def test_pending_abilities_resolve_turn_player_first():
    run = run_file(LANES)
    resolves = [e for e in run.entries if e.event[0] == "resolve"]
    assert [e.actor for e in resolves] == ["p1", "p2"]
    assert [e.event[:4] for e in resolves] == [("resolve", "p1", "a6", "herald"), ("resolve", "p2", "b3", "watcher")]
    assert resolves[0].node == "check.2.1.1" and resolves[1].node == "check.2.2.1"
    assert resolves[0].seq < resolves[1].seq
    assert resolves[0].event[4] == (("draw", "p1", ("a1",)),)
    assert resolves[0].changes == (("move", "a1", "deck", "hand"),)
    trig = next(e for e in run.entries if e.node == "start.1")
    assert trig.event == ("trigger", "turn_start", (("p1", "a6", "herald"), ("p2", "b3", "watcher")))
    assert dict(trig.pending) == {"p1": (("a6", "herald"),), "p2": (("b3", "watcher"),)}


def test_final_zones_follow_the_plays():
    run = run_file(LANES)
    zones = {pid: dict(z) for pid, z in run.zones}
    assert zones["p1"]["stage"] == ("a6", "a4")
    assert zones["p1"]["hand"] == ("a1", "a2")  # Herald's draw, then Bolt's draw
    assert zones["p1"]["discard"] == ("a5",)  # Bolt's cost
    assert zones["p2"]["hand"] == ("b1",)
    assert run.result == "ongoing"


def test_trace_visits_the_graph_in_order():
    run = run_file(LANES)
    nodes = [e.node for e in run.entries]
    assert nodes[:3] == ["turn.begin", "start.begin", "start.1"]
    assert nodes[-1] == "turn.end"
    i = nodes.index("main.play.character.2")  # the goto back to 1.
    assert nodes[i + 1] == "main.1"
    assert nodes.index("battle.lanes.1") < nodes.index("battle.lanes.1.1.else.1") < nodes.index("battle.lanes.end")


def test_window_stack_and_priority():
    run = run_file(LANES)
    w = [e for e in run.entries if e.node == "battle.free.1"]
    assert [(e.actor, e.priority) for e in w[:3]] == [("p1", "p1"), ("p2", "p2"), ("p1", "p1")]
    # the entry tells what the play cost (the card's own cost: it moves to the discard pile)
    assert w[0].event == ("window_play", "a5", "bolt", None, (("move", ("a5",), "hand", "discard"),)) and w[0].stack == (("a5", "bolt", False),)
    assert w[0].changes == (("move", "a5", "hand", "discard"),)  # the cost, paid when it is played
    assert [e.event[:2] for e in w[1:3]] == [("pass", 1), ("pass", 2)]
    # the window closes: each item resolves in an entry of its own, then the window says how many
    assert (w[3].kind, w[3].event, w[3].stack) == ("resolve", ("resolved", "p1", "a5", "bolt", (("draw", "p1", ("a2",)),)), ())
    assert (w[4].kind, w[4].event) == ("window", ("stack_resolved", 1))


def test_same_scenario_same_bytes():
    assert as_jsonl(run_file(LANES)) == as_jsonl(run_file(LANES))


def test_random_policy_is_seeded(tmp_path):
    p = scenario(tmp_path, BASE.replace("seed: 3", "seed: 3, policy: random"))
    a, b = as_jsonl(run_file(p)), as_jsonl(run_file(p))
    assert a == b
    assert any(json.loads(ln)["decided_by"] == "policy:random" for ln in a.splitlines())


def test_strict_refuses_an_unscripted_decision(tmp_path):
    p = scenario(tmp_path, BASE)
    with pytest.raises(SimulationError) as exc:
        run_file(p, strict=True)
    assert exc.value.code == "R501" and "main.play" in exc.value.message
    assert exc.value.loc.line > 0


def test_newest_first_with_negation(tmp_path):
    """The VERSUS worked example in miniature: A plays Bolt, B negates it, A negates B's negation."""
    body = BASE + """  - id: a7
    name: Counter
    type: event
    abilities: [{id: counter, kind: activated, play: quick, effect: [negate]}]
choices:
  - {at: main.play, take: pass}
  - {at: battle.free.1, take: play, card: a5}
  - {at: battle.free.1, take: play, card: b4}
  - {at: battle.free.1, take: play, card: a7}
  - {at: battle.free.1, take: pass}
  - {at: battle.free.1, take: pass}
  - {at: battle.free.1, take: pass}
  - {at: battle.free.1, take: pass}
"""
    body = body.replace("hand: [a4, a5]", "hand: [a4, a5, a7]")
    run = run_file(scenario(tmp_path, body))
    w = [e for e in run.entries if e.node == "battle.free.1"]
    assert [e.actor for e in w[:5]] == ["p1", "p2", "p1", "p2", "p1"]
    assert w[2].stack == (("a5", "bolt", False), ("b4", "cancel", False), ("a7", "counter", False))
    resolved = [e for e in w if e.kind == "resolve"]
    assert [e.event for e in resolved] == [
        ("resolved", "p1", "a7", "counter", (("negate", "b4", "cancel"),)),
        ("resolved", "p2", "b4", "cancel", None),  # negated: no effect
        ("resolved", "p1", "a5", "bolt", (("draw", "p1", ("a1",)),)),
    ]
    assert resolved[0].stack == (("a5", "bolt", False), ("b4", "cancel", True))  # the negation shows on the stack
    assert dict(dict(run.zones)["p1"])["hand"][-1] == "a1"


def test_play_at_a_closed_timing_is_refused(tmp_path):
    body = BASE + "choices:\n  - {at: end.1, take: play, card: a5}\n"
    res = compile_file(scenario(tmp_path, body), rules=str(MINI))
    d = next(d for d in res.diagnostics if d.code == "R503")
    assert "cannot play at 'end.1' (damage is removed): it is a closed timing: no one may play" == d.message


def test_a_play_out_of_priority_order_is_refused(tmp_path):
    body = BASE + """choices:
  - {at: main.play, take: pass}
  - {at: battle.free.1, take: play, card: b4}
"""
    with pytest.raises(SimulationError) as exc:
        run_file(scenario(tmp_path, body))
    assert exc.value.code == "R503" and "Alice (p1), who holds priority" in exc.value.message


def test_unavailable_option_is_reported_at_the_choice(tmp_path):
    body = BASE + "choices:\n  - {at: main.play, take: charcter}\n"
    res = compile_file(scenario(tmp_path, body), rules=str(MINI))
    d = next(d for d in res.diagnostics if d.code == "C302")
    assert d.message == "node 'main.play' has no option 'charcter'" and d.help == "did you mean 'character'?"


def test_unknown_node_in_a_choice(tmp_path):
    body = BASE + "choices:\n  - {at: main.paly, take: pass}\n"
    res = compile_file(scenario(tmp_path, body), rules=str(MINI))
    d = next(d for d in res.diagnostics if d.code == "C302")
    assert d.help == "did you mean 'main.play'?" and d.line == BASE.count("\n") + 2


def test_runaway_loop_names_the_cycle(tmp_path, mini_text):
    game = tmp_path / "game.yaml"
    game.write_text(mini_text.replace("while: {count: {zone: hand, player: turn_player, gt: hand_limit}}",
                                      "while: {count: {zone: hand, player: turn_player, ge: 0}}")
                    .replace("do: {move: {player: turn_player, from: hand, to: discard, count: 1, which: chosen}}",
                             "do: pass"), encoding="utf-8")
    p = scenario(tmp_path, BASE.replace("seed: 3", "seed: 3, max_steps: 500"))
    res = compile_file(p, rules=str(game))
    assert res.scenario is not None, res.diagnostics
    with pytest.raises(SimulationError) as exc:
        simulate(res.game, res.scenario)
    assert exc.value.code == "R502"
    assert "repeats the cycle end.2 -> end.2.1 -> end.2" in exc.value.message


def test_two_turns_swap_roles(tmp_path):
    run = run_file(scenario(tmp_path, BASE.replace("seed: 3", "seed: 3, turns: 2")))
    starts = [e for e in run.entries if e.node == "main.play"]
    assert [(e.turn, e.actor, e.role) for e in starts] == [(1, "p1", "turn_player"), (2, "p2", "turn_player")]


def test_simulate_cli_formats(cli, tmp_path):
    code, out, _ = cli("simulate", LANES, "--rules", MINI, "--format", "json")
    assert code == 0
    rows = [json.loads(ln) for ln in out.splitlines()]
    assert rows[0]["seq"] == 1 and rows[0]["node"] == "turn.begin" and rows[0]["game"] == "mini"
    assert list(rows[0]) == ["seq", "turn", "game", "scenario", "node", "kind", "phase", "step", "procedure", "actor",
                             "role", "decided_by", "event", "changes", "pending", "stack", "priority", "cite", "text"]
    assert rows[0]["event"] == ["begin"] and rows[0]["text"] == "turn: start"
    draw = next(r for r in rows if r["event"][0] == "resolve")
    assert draw["event"] == ["resolve", "p1", "a6", "herald", [["draw", "p1", ["a1"]]]]
    assert draw["changes"] == [["move", "a1", "deck", "hand"]] and draw["pending"] == {"p1": [], "p2": [["b3", "watcher"]]}
    code, out, _ = cli("simulate", LANES, "--rules", MINI, "--format", "json", "--lang", "ja")
    assert json.loads(out.splitlines()[0])["text"] == "ターン開始"
    code, out, _ = cli("simulate", LANES, "--rules", MINI, "--format", "markdown", "--lang", "ja")
    assert code == 0 and "| # | ノード | 種類 |" in out and "Aliceが" in out
    code, out, _ = cli("simulate", LANES, "--rules", MINI)
    assert code == 0 and "\x1b[" not in out and "result: the turn ended" in out


def test_simulate_cli_errors(cli, tmp_path):
    assert cli("simulate", tmp_path / "none.yaml")[0] == 2
    bad = scenario(tmp_path, BASE + "choices:\n  - {at: main.play, take: pass}\n  - {at: main.play, take: nothing}\n")
    code, out, err = cli("simulate", bad, "--rules", MINI)  # diagnostics on stderr: stdout carries only the trace
    assert code == 1 and "error[C302]: node 'main.play' has no option 'nothing'" in err and "error[" not in out
    code, out, err = cli("simulate", scenario(tmp_path, BASE, "b.yaml"), "--rules", MINI, "--strict")
    assert code == 1 and "error[R501]" in err and "main.play" in err and "error[" not in out


def test_simulate_cli_out_file(cli, tmp_path):
    out = tmp_path / "t.jsonl"
    code, _, err = cli("simulate", LANES, "--rules", MINI, "--format", "json", "--out", out)
    assert code == 0 and out.read_text(encoding="utf-8").count("\n") == len(run_file(LANES).entries)


def test_committed_scenario_schema_is_current(cli):
    code, _, err = cli("schema", "--kind", "scenario", "--check", ROOT / "schema" / "tcgtiming-scenario.schema.json")
    assert code == 0, err


def test_choices_in_order_without_node_ids(tmp_path):
    """Choices may also be given in order, without 'at': each answers the next player decision."""
    keyed = LANES.read_text(encoding="utf-8")
    unkeyed = keyed.replace("  - {at: main.play, take: character, card: a4}", "  - {take: character, card: a4}")
    unkeyed = unkeyed.replace("  - {at: main.play, take: pass}", "  - {take: pass}")
    unkeyed = unkeyed.replace("  - {at: battle.free.1, take: play, card: a5}", "  - {take: play, card: a5}")
    unkeyed = unkeyed.replace("  - {at: battle.free.1, take: pass}", "  - {take: pass}")
    assert "at:" not in unkeyed.split("choices:")[1]
    p = scenario(tmp_path, unkeyed)
    a, b = run_file(LANES), run_file(p)
    assert [(e.node, e.actor, e.event, e.changes) for e in a.entries] == [(e.node, e.actor, e.event, e.changes) for e in b.entries]
    assert b.unused_choices == ()


def test_an_unkeyed_choice_that_does_not_fit_the_decision_is_located(tmp_path):
    body = BASE + "choices:\n  - {take: nothing}\n"
    with pytest.raises(SimulationError) as exc:
        run_file(scenario(tmp_path, body))
    assert exc.value.code == "R503" and "option 'nothing' of 'main.play' is not available" in exc.value.message
    assert exc.value.loc.line == body.count("\n")


def test_brief_view_folds_uneventful_procedure_runs():
    from tcgtiming.runtime.trace import as_text, compact

    run = run_file(LANES)
    short = compact(run.entries)
    assert len(short) < len(run.entries)
    folded = [e for e, fold in short if fold]
    assert [e.node for e in folded] == ["main.1", "main.1"]  # the two check timings of the main phase
    # the check timing where both players' abilities resolve is shown in full
    shown = [e.node for e, _ in short]
    assert shown.count("check.2.1.1") == 1 and shown.count("check.2.2.1") == 1
    text = as_text(run, {"p1": "Alice", "p2": "Bob"}, brief=True)
    assert "check timing (nothing happens)" in text and "check.begin" in text


def test_the_engine_implements_exactly_the_vocabulary():
    """Each predicate, action and effect ``core.vocab`` declares has one implementation in the
    engine's registries, and each implementation a declaration."""
    from tcgtiming.core import vocab
    from tcgtiming.runtime.engine import ACTIONS, EFFECTS, PREDICATES
    for implemented, declared in ((PREDICATES, vocab.PREDICATES), (ACTIONS, vocab.ACTIONS), (EFFECTS, vocab.EFFECTS)):
        assert sorted(set(declared) - set(implemented)) == []  # declared, not implemented
        assert sorted(set(implemented) - set(declared)) == []  # implemented, not declared
        assert all(callable(fn) for fn in implemented.values())


def test_a_name_implemented_twice_is_refused():
    from tcgtiming.runtime.engine.state import Registry
    reg = Registry("act_")

    @reg
    def act_draw(it, node, a):
        return None

    assert reg == {"draw": act_draw}
    with pytest.raises(ValueError, match="'draw' is implemented twice"):
        reg(act_draw)
    with pytest.raises(ValueError, match="implemented twice: draw"):
        Registry.merged(reg, {"draw": act_draw})


def test_a_program_replaces_an_action_by_name():
    """The registries are the extension point for names: a program compiled with a table of its own."""
    from tcgtiming.runtime.engine import ACTIONS, Program

    def skip(cx, node, a):
        return lambda st: ("skipped",)

    res = compile_file(LANES, rules=str(MINI))
    prog = Program(res.game, actions={**ACTIONS, "rule_processing": skip})
    run = simulate(res.game, res.scenario, program=prog)
    done = {e.event for e in run.entries if e.node.startswith("check.")}
    assert ("skipped",) in done
    assert ACTIONS["rule_processing"] is not skip
