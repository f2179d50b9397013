"""tcgtiming points: every decision point of a game (node id, who decides, options, how a choice
answers it), from the model; the same on the site's node entries."""
import json
from pathlib import Path

import pytest

from tcgtiming.frontend.pipeline import compile_file
from tcgtiming.present.points import points

ROOT = Path(__file__).resolve().parent.parent
GAMES = ("ws", "gundam", "versus", "aquarian")


def game(gid):
    return compile_file(str(ROOT / "rules" / gid / "game.yaml")).game


@pytest.mark.parametrize("gid", GAMES)
def test_every_scripted_choice_of_the_shipped_scenarios_is_at_a_listed_point(gid):
    """A point for every node (or rule process) a shipped scenario's choice names: the list covers
    what scenario writers have needed."""
    g = game(gid)
    listed = {p.node for p in points(g)}
    for path in sorted((ROOT / "rules" / gid / "scenarios").glob("*.yaml")):
        sc = compile_file(str(path)).scenario
        for ch in sc.choices:
            if ch.at is not None:
                assert ch.at in listed or _holds_a_point(g, ch.at, listed), (path.name, ch.at)


def _holds_a_point(g, box, listed) -> bool:
    """A choice keyed to a phase or step: a listed point is in it, or in a procedure called from it."""
    if box not in g.containers or g.containers[box].kind not in ("phase", "step"):
        return False
    inside = [n for n in g.nodes.values() if box in (n.phase, n.step)]
    called = {n.callee for n in inside if n.callee}
    return any(p in g.nodes and (g.nodes[p] in inside or g.nodes[p].procedure in called) for p in listed)


def test_points_name_who_decides_and_the_options():
    g = game("ws")
    by = {p.node: p for p in points(g)}
    clock = by["clock.3"]
    assert clock.who == g.nodes["clock.3"].actor and [o for o, _ in clock.options] == [c.id for c in g.nodes["clock.3"].choices]
    assert "take: placed|not_placed" in clock.choice()
    assert by["level_up"].kind == "rule" and by["level_up"].asks == ("card",)
    gw = {p.node: p for p in points(game("gundam"))}
    w = gw["deploy.free"]
    assert w.asks == ("window",) and set(w.plays) == set(game("gundam").nodes["deploy.free"].window.plays)
    assert not any(p.kind in ("branch", "goto", "exit", "trigger") for p in gw.values())


def test_cli_points_text_and_json(cli):
    code, out, err = cli("points", ROOT / "rules/gundam/game.yaml", "--format", "json")
    assert code == 0, err
    data = json.loads(out)
    assert {d["node"] for d in data} == {p.node for p in points(game("gundam"))}
    assert all(d["choice"].startswith("{at: ") for d in data)
    code, en, _ = cli("points", ROOT / "rules/ws/game.yaml")
    assert code == 0 and "clock.3" in en and "level_up" in en
    code, ja, _ = cli("points", ROOT / "rules/ws/game.yaml", "--lang", "ja")
    assert code == 0 and "decided by" not in ja and "決めるのは" in ja
    code, _, _ = cli("points", ROOT / "no/such/game.yaml")
    assert code == 2


def test_site_node_entry_shows_the_decision():
    from tcgtiming.present.site.nodes import node_entry
    g = game("gundam")
    html = str(node_entry(g, "deploy.free", "x.html", 0, "en"))
    assert "{at: deploy.free, take: pass|play" in html.replace("&lt;", "<").replace("&gt;", ">")
    assert "{at: " not in str(node_entry(g, "deploy.finish", "x.html", 0, "en"))
