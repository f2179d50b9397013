"""The compiled model: stable ids, explicit edges, resolved references, immutability."""
import dataclasses

import pytest

from conftest import MINI
from tcgtiming.frontend.pipeline import compile_file


@pytest.fixture(scope="module")
def game():
    res = compile_file(MINI, "tests/fixtures/mini/game.yaml")
    assert res.game is not None, res.diagnostics
    return res.game


def edges(game, src, kind=None):
    return [(e.dst, e.kind) for e in game.successors(src) if kind is None or e.kind == kind]


def test_ids_follow_positions_and_explicit_ids(game):
    assert game.nodes["start.1"].kind == "trigger"
    assert game.nodes["main.play"].kind == "player"
    assert game.nodes["main.play.character.1"].kind == "auto"
    assert game.nodes["battle.lanes.1.1.1.1"].kind == "call"
    assert game.nodes["battle.lanes.1.1.else.1"].kind == "exit"


def test_containers_and_their_begin_end(game):
    assert game.turn.children == ("start", "main", "battle", "end")
    battle = game.containers["battle"]
    assert battle.children == ("battle.free", "battle.lanes")
    assert edges(game, "battle.begin") == [("battle.free.begin", "next")]
    assert edges(game, "battle.free.end") == [("battle.lanes.begin", "next")]
    assert edges(game, "battle.lanes.end") == [("battle.end", "next")]
    assert edges(game, "battle.end") == [("end.begin", "next")]
    assert "battle.free.1" in battle.nodes and "battle.free.1" in game.containers["battle.free"].nodes


def test_check_timing_is_a_call_with_an_explicit_return(game):
    assert game.nodes["start.2"].callee == "check"
    assert edges(game, "start.2") == [("check.begin", "call")]
    returns = [e for e in game.successors("check.end") if e.via == "start.2"]
    assert [(e.dst, e.kind) for e in returns] == [("start.3", "return")]


def test_goto_resolves_to_the_containers_numbering(game):
    # "back to 1." inside a case body means the procedure's item 1, as in the sources
    assert game.nodes["check.2.1.2"].target == "check.1"
    assert edges(game, "check.2.1.2") == [("check.1", "back")]
    assert game.nodes["main.play.character.2"].target == "main.1"


def test_branch_cases_and_else(game):
    node = game.nodes["check.2"]
    assert [c.entry for c in node.choices] == ["check.2.1.1", "check.2.2.1"]
    assert node.otherwise == "check.end"
    assert node.choices[0].when.name == "has_pending"
    assert node.choices[0].when.arg("player") == "turn_player"
    assert edges(game, "check.2", "else") == [("check.end", "else")]


def test_player_options_lead_to_their_bodies_or_onwards(game):
    node = game.nodes["main.play"]
    assert node.actor == "turn_player"
    assert [(c.id, c.entry) for c in node.choices] == [("character", "main.play.character.1"), ("pass", "main.end")]
    labels = [e.label.en for e in game.successors("main.play")]
    assert labels == ["play a character", "pass"]


def test_loop_edges(game):
    assert edges(game, "end.2") == [("end.2.1", "loop"), ("end.end", "exit")]
    assert edges(game, "end.2.1") == [("end.2", "back")]
    cond = game.nodes["end.2"].condition
    assert cond.name == "count" and dict(cond.args) == {"gt": "hand_limit", "player": "turn_player", "zone": "hand"}


def test_foreach_and_exit_loop(game):
    fe = game.nodes["battle.lanes.1"]
    assert (fe.over, fe.var) == ("lanes", "lane")
    assert [n.id for n in game.lists["lanes"]] == ["left", "centre", "right"]
    assert edges(game, "battle.lanes.1.1.else.1") == [("battle.lanes.end", "exit")]


def test_window_spec(game):
    w = game.nodes["battle.free.1"].window
    assert (w.first, w.close, w.passes, w.resolve, w.after_resolve, w.after_play) == (
        "turn_player", "consecutive_passes", 2, "stack", "reopen", "alternate")
    assert w.who == ("turn_player", "non_turn_player") and w.plays == ("quick",)


def test_end_game_is_terminal(game):
    node = game.nodes["damage.2.1.1"]
    assert (node.kind, node.result, node.player) == ("end_game", "lose", "non_turn_player")
    assert game.successors("damage.2.1.1") == ()


def test_turn_edge_swaps_roles(game):
    assert edges(game, "turn.end") == [("turn.begin", "turn")]
    assert game.roles_swap and game.roles["turn_player"].get("seat") == "turn"


def test_citations_inherit_and_locations_point_at_the_yaml(game):
    node = game.nodes["start.1"]
    assert [str(c) for c in node.cites] == ["mini#start"]
    assert [str(c) for c in game.nodes["check.1"].cites] == ["mini#check-timing"]
    text = MINI.read_text(encoding="utf-8").splitlines()
    assert "kind: trigger" in text[node.loc.line - 1]
    assert str(node.loc).startswith("tests/fixtures/mini/game.yaml:")


def test_derived_labels(game):
    assert game.nodes["start.2"].label.en == "check timing"
    assert game.nodes["start.1"].label.ja == "ターン開始時の自動能力が待機状態になる"
    assert game.nodes["check.2.1.2"].label.en == "go to: rule processing"


def test_every_edge_joins_known_nodes(game):
    for e in game.edges:
        assert e.src in game.nodes and e.dst in game.nodes, e
    for nid, node in game.nodes.items():
        if node.kind not in ("end_game", "turn") and nid != "turn.end" and not nid.endswith(".end"):
            assert game.successors(nid), f"{nid} has no way on"


def test_model_is_immutable(game):
    with pytest.raises(dataclasses.FrozenInstanceError):
        game.nodes["start.1"].label = None
    with pytest.raises(TypeError):
        game.nodes["x"] = None
    with pytest.raises(TypeError):
        game.containers["turn"] = None


def test_stats(game):
    s = game.stats()
    assert (s["phases"], s["steps"], s["procedures"], s["check_timings"], s["priority_windows"]) == (4, 2, 2, 2, 1)


def test_same_input_same_model(game):
    again = compile_file(MINI, "tests/fixtures/mini/game.yaml").game
    assert again == game
