"""More than two players (issue 15, point 7): a game says how many players it allows; a scenario
lists them in turn order; priority passes round the table in turn order and a stack object
resolves only when every player has passed in a row; triggered abilities of several players go on
the stack in APNAP order; the turn passes to the next player; a role held by several players is
refused where one player is needed (R509)."""
from pathlib import Path

import pytest
import yaml

from conftest import ROOT
from tcgtiming.frontend.pipeline import compile_file
from tcgtiming.runtime.engine import SimulationError, codegen, simulate

MTG = ROOT / "rules" / "mtg"
UPKEEP = MTG / "scenarios" / "three-player-upkeep-triggers.yaml"
RESPONSES = MTG / "scenarios" / "three-player-responses.yaml"


def load(path, rules=MTG / "game.yaml"):
    res = compile_file(str(path), rules=str(rules))
    return res


def run_of(path, **kw):
    res = load(path)
    assert res.scenario is not None, [(d.code, d.line, d.message) for d in res.diagnostics]
    return res.game, res.scenario, simulate(res.game, res.scenario, strict=True, **kw)


def variant(tmp_path: Path, src: Path, change) -> Path:
    data = yaml.safe_load(src.read_text(encoding="utf-8"))
    data["scenario"].pop("cite", None)
    data.pop("expect", None)
    change(data)
    out = tmp_path / src.name
    out.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return out


def window_entries(run):
    return [e for e in run.entries if e.node == "priority.window"]


# --- APNAP for three players -------------------------------------------------------------------------
def test_three_players_triggers_go_on_the_stack_in_apnap_order_and_resolve_in_reverse():
    _, _, run = run_of(UPKEEP)
    first = window_entries(run)[0]
    # the active player's two (in the order they chose: owl first), then Bob's, then Carol's
    assert first.event[0] == "before_priority"
    stacked = dict(first.event[1])["stack_pending"] if isinstance(first.event[1][0], tuple) else None
    # (Carol, too, puts hers in the order she chose: hawk first)
    assert [e[2] for e in stacked] == ["owl-upkeep", "sage-upkeep", "seer-upkeep", "hawk-upkeep", "oracle-upkeep"]
    assert [e[0] for e in stacked] == ["p1", "p1", "p2", "p3", "p3"]
    assert [s[1] for s in first.stack] == ["owl-upkeep", "sage-upkeep", "seer-upkeep", "hawk-upkeep", "oracle-upkeep"]
    resolved = [e.event[3] for e in run.entries if e.event[0] == "resolved"]
    assert resolved == ["oracle-upkeep", "hawk-upkeep", "seer-upkeep", "sage-upkeep", "owl-upkeep"]
    # after each resolution the active player receives priority, and each controller drew
    after = [run.entries[i + 1].priority for i, e in enumerate(run.entries) if e.event[0] == "resolved"]
    assert after == ["p1"] * 5
    hands = dict((pid, dict(zones)) for pid, zones in run.machine.final_zones())
    assert hands["p3"]["hand"] == ("c1", "c2") and hands["p2"]["hand"] == ("b1",)


def test_no_draw_skip_with_three_players_on_the_first_turn():
    _, _, run = run_of(UPKEEP)
    assert any(e.node == "beginning.draw.1" for e in run.entries)
    # and the two-player game still skips it
    _, _, two = run_of(MTG / "scenarios" / "first-turn-no-draw.yaml")
    assert not any(e.node == "beginning.draw.1" for e in two.entries)


# --- priority round the table -----------------------------------------------------------------------
def test_priority_passes_in_turn_order_and_every_player_must_pass_in_a_row():
    _, _, run = run_of(RESPONSES)
    entries = window_entries(run)
    main = entries[next(i for i, e in enumerate(entries) if e.event[0] == "window_play"):]  # the main phase's
    moves = [(e.event[0], e.actor) for e in main]
    assert moves[:8] == [("window_play", "p1"), ("pass", "p1"), ("window_play", "p2"), ("pass", "p2"),
                         ("window_play", "p3"), ("pass", "p3"), ("pass", "p1"), ("pass", "p2")]
    # two passes in a row leave the three objects on the stack; Bob's pass is the third in a row
    assert main[6].event == ("pass", 2) and len(main[6].stack) == 3 and main[7].priority == "p2"
    assert main[7].event == ("pass", 3) and main[8].event[0] == "resolved" and main[8].event[3] == "negate"
    # one object at a time, each after three passes in a row, priority back to the active player
    resolved = [i for i, e in enumerate(main) if e.event[0] == "resolved"]
    assert [main[i].event[3] for i in resolved] == ["negate", "counter", "opt"]
    for i in resolved:
        assert [main[i - k].event for k in (3, 2, 1)] == [("pass", 1), ("pass", 2), ("pass", 3)]
        assert main[i + 1].actor == "p1"
    assert [len(main[i].stack) for i in resolved] == [2, 1, 0]


def test_both_tiers_give_the_same_three_player_trace():
    game, sc, run = run_of(RESPONSES)
    was = codegen.CLOSURES
    try:
        codegen.CLOSURES = not was
        other = simulate(game, sc, strict=True)
    finally:
        codegen.CLOSURES = was
    assert [(e.node, e.event, e.stack, e.priority, e.pending) for e in run.entries] == \
        [(e.node, e.event, e.stack, e.priority, e.pending) for e in other.entries]


def test_the_turn_passes_round_the_table():
    res = load(UPKEEP)
    import dataclasses
    sc = dataclasses.replace(res.scenario, turns=4, expect=None, choices=())
    run = simulate(res.game, sc, policy="pass")
    untaps = [(e.turn, e.actor, e.role) for e in run.entries if e.node == "beginning.untap.1"]
    assert untaps == [(1, "p1", "active_player"), (2, "p2", "active_player"), (3, "p3", "active_player"),
                      (4, "p1", "active_player")]
    # in Bob's turn priority starts with Bob and goes to Carol, then Alice
    turn2 = [e.actor for e in run.entries if e.turn == 2 and e.node == "priority.window" and e.event[0] == "pass"]
    assert turn2[:3] == ["p2", "p3", "p1"]


# --- how many players --------------------------------------------------------------------------------
@pytest.mark.parametrize("count", [1, 5])
def test_a_scenario_outside_the_games_player_range_is_a_located_error(tmp_path, count):
    def change(d):
        base = d["players"]
        d["players"] = [dict(base[0], id=f"p{k + 1}", zones={}) for k in range(count)]
        d["choices"] = []
    res = load(variant(tmp_path, UPKEEP, change))
    c301 = [d for d in res.diagnostics if d.code == "C301"]
    assert res.scenario is None and c301 and "2 to 4" in c301[0].message
    text = (tmp_path / UPKEEP.name).read_text(encoding="utf-8").splitlines()
    at = text.index("players:") + 1  # the key, or its list's first line
    assert c301[0].line in (at, at + 1) and c301[0].file.endswith(UPKEEP.name)


def test_a_two_player_game_refuses_three(tmp_path):
    src = ROOT / "rules" / "ws" / "scenarios" / "both-players-pending.yaml"

    def change(d):
        d["players"].append({"id": "p9", "name": "Zed", "zones": {}})
    res = compile_file(str(variant(tmp_path, src, change)), rules=str(ROOT / "rules" / "ws" / "game.yaml"))
    assert res.scenario is None and any(d.code == "C301" and "by 2 players" in d.message for d in res.diagnostics)


def test_duplicate_player_ids_are_refused(tmp_path):
    res = load(variant(tmp_path, UPKEEP, lambda d: d["players"][2].update(id="p2")))
    assert any(d.code == "C301" and "duplicate player id 'p2'" in d.message for d in res.diagnostics)


# --- a role several players hold, where one is needed ----------------------------------------------
def test_one_player_named_by_a_role_several_hold_is_refused_where_the_run_reaches_it(tmp_path):
    # attacking leads to the declare blockers step, whose actor is the nonactive player: with three
    # players there are two of them
    def change(d):
        d["choices"] = [c for c in d["choices"] if c.get("at") != "combat.attackers.declare"]
        d["choices"].append({"at": "combat.attackers.declare", "take": "attack"})
    res = load(variant(tmp_path, UPKEEP, change))
    with pytest.raises(SimulationError) as err:
        simulate(res.game, res.scenario, policy="pass")
    assert err.value.code == "R509" and "nonactive_player" in err.value.message
    node = res.game.nodes["combat.blockers.declare"]
    assert err.value.loc.file == node.loc.file and err.value.loc.line == node.loc.line
    # the same game with two players runs the node
    two = load(MTG / "scenarios" / "first-turn-no-draw.yaml")
    assert two.scenario is not None


# --- roles as sets ------------------------------------------------------------------------------------
def test_a_non_turn_role_is_every_other_player_where_a_set_is_meant():
    from tcgtiming.runtime.engine import program_for
    from tcgtiming.runtime.engine.conditions import PREDICATES
    game = load(UPKEEP).game
    three, two = program_for(game, 3), program_for(game, 2)
    test = PREDICATES["holds_role"](three.cx, {"player": "self", "role": "nonactive_player"})

    class St:
        seat = ["p1", "p2", None, None, "p3"]
    for pid, held in (("p1", False), ("p2", True), ("p3", True)):
        St.seat[2] = pid
        assert test(St) is held and eval(test.expr, {"st": St}) is held
    # a window's 'who' holds every player; the blockers step's actor is refused only with three
    ni = three.index["priority.window"]
    assert three.windows[ni][1:] == ((0, 1, 4), 3) and two.windows[ni][1:] == ((0, 1), 2)
    blockers = three.index["combat.blockers.declare"]
    assert blockers in three.refused and three.refused[blockers].code == "R509" and not two.refused


@pytest.mark.parametrize("players, code", [("{min: 4, max: 2}", "S204"), ("1", "S204"), ("{min: 2, max: 3, most: 4}", "S201")])
def test_a_bad_player_count_in_a_rule_file_is_a_located_error(tmp_path, players, code):
    text = (MTG / "game.yaml").read_text(encoding="utf-8").replace("players: {min: 2, max: 4}", f"players: {players}")
    path = tmp_path / "game.yaml"
    path.write_text(text, encoding="utf-8")
    res = compile_file(str(path))
    line = text.splitlines().index(f"  players: {players}") + 1
    assert res.game is None and any(d.code == code and d.line == line for d in res.diagnostics), \
        [(d.code, d.line, d.message) for d in res.diagnostics]


def test_a_single_number_allows_exactly_that_many(tmp_path):
    text = (MTG / "game.yaml").read_text(encoding="utf-8").replace("players: {min: 2, max: 4}", "players: 3")
    (tmp_path / "mtg").mkdir()
    (tmp_path / "mtg" / "game.yaml").write_text(text, encoding="utf-8")
    three = compile_file(str(UPKEEP), rules=str(tmp_path / "mtg" / "game.yaml"))
    assert three.game.players == (3, 3) and three.scenario is not None
    two = compile_file(str(MTG / "scenarios" / "first-turn-no-draw.yaml"), rules=str(tmp_path / "mtg" / "game.yaml"))
    assert two.scenario is None and any(d.code == "C301" and "by 3 players" in d.message for d in two.diagnostics)


@pytest.mark.parametrize("lang, active, other", [("en", "active player", "nonactive player"),
                                                 ("ja", "アクティブ・プレイヤー", "非アクティブ・プレイヤー")])
def test_the_narration_names_every_player_and_their_role_each_turn(lang, active, other):
    from tcgtiming.runtime.trace import as_text
    _, _, run = run_of(MTG / "scenarios" / "three-player-turn-order.yaml")
    heads = [line for line in as_text(run, None, lang).splitlines() if line.startswith("==") and "Alice" in line]
    assert len(heads) == 3
    seats = [("Alice", "Bob", "Carol"), ("Bob", "Carol", "Alice"), ("Carol", "Alice", "Bob")]
    for head, (tp, a, b) in zip(heads, seats):
        where = [head.index(n) for n in (tp, a, b)]
        assert where == sorted(where)  # in turn order from the active player
        assert head.count(other) == 2 and head.count(active) - head.count(other) == 1  # one contains the other
        assert head.index(active) < head.index(a)  # the active player's role comes with the turn player
    # the decisions name the player who made them: in Bob's turn, Bob passes first
    text = as_text(run, None, lang)
    turn2 = text[text.index(heads[1]):text.index(heads[2])]
    passes = [line for line in turn2.splitlines() if "priority.window" in line and ("passes" in line or "パス" in line)]
    assert [line.split()[3].rstrip(":") for line in passes[:3]] == ["Bob", "Carol", "Alice"]


def test_a_card_ability_naming_one_player_by_a_role_several_hold_is_refused_where_it_is_written(tmp_path):
    src = MTG / "scenarios" / "three-player-turn-order.yaml"

    def change(d):
        ab = d["cards"][9]["abilities"][0]
        ab["if"] = {"all": [{"count": {"player": "nonactive_player", "zone": "hand", "ge": 0}},
                            {"holds_role": {"player": "controller", "role": "nonactive_player"}}]}
    path = variant(tmp_path, src, change)
    res = load(path)
    bad = [d for d in res.diagnostics if d.code == "R509"]
    assert res.scenario is None and len(bad) == 1  # holds_role's role is a set: allowed
    line = path.read_text(encoding="utf-8").splitlines()[bad[0].line - 1]
    assert "nonactive_player" in line[bad[0].col - 1:]
    # with two players the same ability is fine
    two = load(variant(tmp_path, src, lambda d: (change(d), d["players"].pop(), d.__setitem__("choices", []))))
    assert not [d for d in two.diagnostics if d.code == "R509"]


def test_four_players_pass_round_the_table_and_all_four_must_pass(tmp_path):
    def change(d):
        d["players"].append({"id": "p4", "name": "Dave", "zones": {"library": ["d1"]}})
        d["cards"].append({"id": "d1", "name": "Plains", "type": "land"})
        d["choices"] = [c for c in d["choices"] if c["at"] not in ("beginning.upkeep", "beginning.draw")]
        d["choices"][:0] = [{"at": s, "take": "pass"} for s in ["beginning.upkeep"] * 3 + ["beginning.draw"] * 3]
    res = load(variant(tmp_path, RESPONSES, change))
    run = simulate(res.game, res.scenario, strict=True)
    entries = window_entries(run)
    main = entries[next(i for i, e in enumerate(entries) if e.event[0] == "window_play"):]
    resolved = [i for i, e in enumerate(main) if e.event[0] == "resolved"]
    assert [main[i].event[3] for i in resolved] == ["negate", "counter", "opt"]
    for i in resolved[1:]:  # between resolutions: each of the four passes once, from the active player on
        assert [(main[i - k].actor, main[i - k].event) for k in (4, 3, 2, 1)] == \
            [("p1", ("pass", 1)), ("p2", ("pass", 2)), ("p3", ("pass", 3)), ("p4", ("pass", 4))]
