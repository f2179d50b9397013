"""Coverage (``tcgtiming coverage``): every node of every game is visited by a shipped scenario or
listed with a reason the graph gives; more inputs (rulings) extend it."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from tcgtiming.cli.coverage import visits
from tcgtiming.present import coverage
from tcgtiming.present.site import collect

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def shipped():
    inputs = collect(str(ROOT / "rules"))
    return inputs, visits(inputs)


def test_every_node_is_visited_or_has_a_reason_from_the_graph(shipped):
    inputs, vs = shipped
    for g in inputs.games:
        cov = coverage.coverage(g, vs)
        reach = coverage.reachable(g)
        assert set(cov.nodes) == set(g.nodes)
        for nid, count in cov.nodes.items():
            if count:
                assert nid not in cov.reasons and cov.by[nid]
                assert nid in reach  # a run never visits what the graph cannot reach
                continue
            r = cov.reasons[nid]
            assert r in coverage.REASONS
            assert (r == "gap") == (nid in reach)
            if r == "synthetic":
                assert g.nodes[nid].kind in ("begin", "end")
        assert cov.visited_nodes + len(cov.reasons) == len(g.nodes)
        assert g.turn.begin in cov.by and cov.nodes[g.turn.begin] >= len(inputs.runs.get(g.id, []))


def test_a_boundary_no_path_reaches_is_synthetic_and_every_other_one_is_reachable(shipped):
    inputs, vs = shipped
    for g in inputs.games:
        cov = coverage.coverage(g, vs)
        reach = coverage.reachable(g)
        for nid, node in g.nodes.items():
            if node.kind not in ("begin", "end"):
                continue
            if cov.reasons.get(nid) == "synthetic":  # e.g. the end of the WS damage step: every path jumps out
                assert all(e.src not in reach for e in g.in_edges.get(nid, ()))
            else:
                assert nid in reach


def test_visits_count_each_input_and_another_kind_of_input_extends_them(shipped):
    inputs, vs = shipped
    ws = next(g for g in inputs.games if g.id == "ws")
    base = coverage.coverage(ws, vs)
    gap = next(n for n, r in base.reasons.items() if r == "gap")
    path = [ws.turn.begin] + [gap]
    ruling = coverage.Visit("ws", "ruling", "r1", tuple(enumerate(path, 1)))
    more = coverage.coverage(ws, vs + [ruling])
    assert more.nodes[gap] == 1 and more.by[gap] == ["r1"] and gap not in more.reasons
    assert more.nodes[ws.turn.begin] == base.nodes[ws.turn.begin] + 1
    assert len(more.inputs) == len(base.inputs) + 1


def test_edges_are_counted_from_the_runs(shipped):
    inputs, vs = shipped
    g = next(g for g in inputs.games if g.id == "gundam")
    cov = coverage.coverage(g, vs)
    first = [e for e in g.successors(g.turn.begin)]
    assert all(cov.edges[(e.src, e.dst, e.kind)] >= 1 for e in first)
    assert 0 < cov.visited_edges <= len(g.edges)


def test_heat_levels():
    assert [coverage.heat(n) for n in (0, 1, 2, 3, 4, 9, 10, 500)] == [0, 1, 2, 2, 3, 3, 4, 4]


def test_cli(cli, shipped):
    inputs, vs = shipped
    code, out, err = cli("coverage", "--format", "json", "--rules", ROOT / "rules")
    assert code == 0, err
    data = {g["game"]: g for g in json.loads(out)["games"]}
    assert set(data) == {g.id for g in inputs.games}
    for g in inputs.games:
        cov = coverage.coverage(g, vs)
        assert data[g.id]["nodes"] == {"total": len(g.nodes), "visited": cov.visited_nodes}
        assert len(data[g.id]["unvisited"]) == len(g.nodes) - cov.visited_nodes
    code, out, _ = cli("coverage", "--game", "ws", "--lang", "ja", "--rules", ROOT / "rules")
    assert code == 0 and "attack.damage.end" in out
    assert cli("coverage", "--game", "wss", "--rules", ROOT / "rules")[0] == 2
    assert cli("coverage", "--rules", ROOT / "nowhere")[0] == 2


def test_a_new_kind_of_input_joins_through_the_visit_sources(cli, monkeypatch):
    def rulings(inputs):
        ws = next(g for g in inputs.games if g.id == "ws")
        return [coverage.Visit("ws", "ruling", "r-loss", ((1, ws.turn.begin), (2, "check_timing.loss.draw.1")))]

    before = json.loads(cli("coverage", "--format", "json", "--game", "ws", "--rules", ROOT / "rules")[1])["games"][0]
    monkeypatch.setattr(coverage, "VISIT_SOURCES", coverage.VISIT_SOURCES + [rulings])
    code, out, err = cli("coverage", "--format", "json", "--game", "ws", "--rules", ROOT / "rules")
    assert code == 0, err
    ws = json.loads(out)["games"][0]
    assert {"kind": "ruling", "name": "r-loss"} in ws["inputs"]
    # one visit more than the shipped inputs make (ws/level-up-due-at-start ends in a draw too)
    assert ws["visits"]["check_timing.loss.draw.1"] == before["visits"].get("check_timing.loss.draw.1", 0) + 1
    assert "check_timing.loss.draw.1" not in {u["node"] for u in ws["unvisited"]}


def test_an_edge_no_run_takes_has_the_reason_of_its_source(shipped):
    inputs, vs = shipped
    for g in inputs.games:
        cov = coverage.coverage(g, vs)
        reach = coverage.reachable(g)
        assert set(cov.edge_reasons) == {e for e, n in cov.edges.items() if not n}
        for (src, _dst, _kind), r in cov.edge_reasons.items():
            assert r == coverage.reason(g, src, reach)
        assert cov.visited_edges + len(cov.edge_reasons) == len(cov.edges) == len({(e.src, e.dst, e.kind) for e in g.edges})


def test_heat_svg_classes_each_model_node_and_edge_by_its_visits(shipped):
    from tcgtiming.present.site.lookups import heat_svg

    inputs, vs = shipped
    ws = next(g for g in inputs.games if g.id == "ws")
    cov = coverage.coverage(ws, vs)
    gap = next(n for n, r in cov.reasons.items() if r == "gap")
    edge = next(e for e, n in cov.edges.items() if n >= 10)
    svg = ("<svg><style>text {}</style>"
           f'<g id="n:{ws.turn.begin}" class="node"></g><g id="n:attack.damage.end" class="node"></g>'
           f'<g id="n:{gap}" class="node"></g><g id="n:legend:x" class="node"></g>'
           f'<g id="e:{edge[0]}&#45;&gt;{edge[1]}:{edge[2]}" class="edge"></g></svg>')
    out = heat_svg(svg, cov)
    assert f'<g id="n:{ws.turn.begin}" class="node heat-{coverage.heat(cov.nodes[ws.turn.begin])} heat-dark">' in out
    assert '<g id="n:attack.damage.end" class="node heat-0 heat-dark">' in out
    assert f'<g id="n:{gap}" class="node heat-0 heat-gap' in out
    assert '<g id="n:legend:x" class="node">' in out  # not a node of the model: left as drawn
    assert 'class="edge eheat-4"' in out and ".heat-1 polygon" in out


def test_the_overview_heat_of_a_phase_is_the_heat_of_its_start(shipped):
    from tcgtiming.present.site.lookups import heat_svg

    inputs, vs = shipped
    ws = next(g for g in inputs.games if g.id == "ws")
    cov = coverage.coverage(ws, vs)
    out = heat_svg('<svg><style></style><g id="n:attack.counter" class="node"></g></svg>', cov)
    level = coverage.heat(cov.nodes[ws.containers["attack.counter"].begin])
    assert level > 0 and f'class="node heat-{level}"' in out


def test_an_invalid_scenario_is_reported_located_and_nothing_is_counted(cli, tmp_path):
    import shutil

    rules = tmp_path / "rules"
    shutil.copytree(ROOT / "rules" / "gundam", rules / "gundam")
    bad = rules / "gundam" / "scenarios" / "battle-four-steps.yaml"
    bad.write_text(bad.read_text(encoding="utf-8").replace("game: gundam", "game: gundm", 1), encoding="utf-8")
    code, out, _ = cli("coverage", "--rules", rules)
    assert code == 1 and "battle-four-steps.yaml:" in out and "error[" in out and "nodes" not in out
