"""The compiled model: stable ids, explicit edges, resolved references, immutability."""
import dataclasses

import pytest

from conftest import MINI, ROOT
from tcgtiming.core.model import as_data
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


# --- structure stored on the nodes ------------------------------------------------------------
GAMES = sorted(ROOT.glob("rules/*/game.yaml")) + [MINI]


@pytest.fixture(scope="module")
def games():
    out = [compile_file(p).game for p in GAMES]
    assert all(out)
    return out


def _enclosing_from_ids(game, node):
    """Game.enclosing as it was written before the structure was stored: by splitting ids."""
    parts = node.id.split(".")
    for i in range(len(parts) - 1, 0, -1):
        cand = game.nodes.get(".".join(parts[:i]))
        if cand is None or cand.container != node.container:
            continue
        if cand.kind in ("loop", "foreach"):
            return cand, ""
        if cand.kind in ("player", "branch") and i < len(parts) - 1:
            return cand, parts[i]
    return None, ""


def test_the_stored_structure_says_what_the_ids_said(games):
    for game in games:
        loops = [n for n in game.nodes.values() if n.kind in ("loop", "foreach")]
        for node in game.nodes.values():
            assert game.enclosing(node) == _enclosing_from_ids(game, node), node.id
            # the engine's and the charts' former test "inside the loop": the id starts with the loop's
            assert node.loops == tuple(x.id for x in loops if node.id.startswith(x.id + ".")), node.id


def test_an_exit_says_what_it_leaves(games):
    exits = [(g, n) for g in games for n in g.nodes.values() if n.kind == "exit"]
    assert {g.containers.get(n.leaves, g.nodes.get(n.leaves)).kind for g, n in exits} >= {"foreach", "phase", "procedure"}
    for game, node in exits:
        left = game.nodes.get(node.leaves)
        if left is not None:  # from: loop
            assert node.leaves == node.loops[-1] and node.target == left.cont
        else:
            assert node.target == game.containers[node.leaves].end


def test_structure_of_the_fixture(game):
    stop = game.nodes["battle.lanes.1.1.else.1"]
    assert (stop.parent, stop.body, stop.loops, stop.leaves) == ("battle.lanes.1.1", "else", ("battle.lanes.1",), "battle.lanes.1")
    call = game.nodes["battle.lanes.1.1.1.1"]
    assert (call.parent, call.body, call.loops) == ("battle.lanes.1.1", "1", ("battle.lanes.1",))
    assert (game.nodes["battle.lanes.1.1"].parent, game.nodes["battle.lanes.1.1"].body) == ("battle.lanes.1", "")
    assert (game.nodes["main.play.character.2"].parent, game.nodes["main.play.character.2"].body) == ("main.play", "character")
    top = game.nodes["main.play"]
    assert (top.parent, top.body, top.loops, top.leaves) == (None, "", (), None)


def test_the_structure_stays_out_of_the_compiled_json(game):
    for node in game.nodes.values():
        assert not {"parent", "body", "loops", "leaves"} & set(as_data(node))
    assert "out_edges" not in as_data(game) and "in_edges" not in as_data(game)


def test_kinds_are_the_models_declared_kinds(games):
    from tcgtiming.core.model import EDGE_KINDS, NODE_KINDS

    assert {e.kind for g in games for e in g.edges} == set(EDGE_KINDS)
    assert {n.kind for g in games for n in g.nodes.values()} == set(NODE_KINDS)
