"""Large phases step by step: which phases are drawn a step at a time (``step_chart_ids``), and the
overview of such a phase (``build_steps``): its steps in order, each a box linking to the step, with
the ways between the steps (on to the next, jumps ahead, the ways back) and nothing the engine can
never take."""
from __future__ import annotations

from ...core.model import Game
from ...core.text import wrap
from .graph import Chart, GEdge, GNode
from .labels import WRAP, WRAP_EDGE, node_url, tooltip
from .overview import summary
from .reach import never_reached, never_taken
from .style import ui

LARGE = 30  # a phase with steps and more nodes than this is also drawn a step at a time


def large_phases(game: Game) -> list[str]:
    return [p.id for p in game.phases if p.children and len(p.nodes) > LARGE]


def step_chart_ids(game: Game) -> list[str]:
    """The step charts of a game's large phases (chart ids: the step ids), and each phase's overview of
    its steps (``<phase>.steps``)."""
    out = []
    for pid in large_phases(game):
        out.append(f"{pid}.steps")
        out += list(game.containers[pid].children)
    return out


def build_steps(game: Game, phase_id: str, lang: str) -> Chart:
    ph = game.containers[phase_id]
    title = ui("title", lang, game.name.get(lang), ph.label.get(lang))
    gone, never = never_reached(game), never_taken(game)
    unit: dict[str, str] = {}
    nodes = [GNode(ph.begin, "begin", wrap(game.nodes[ph.begin].label.get(lang), WRAP[lang]),
                   url=node_url(game, game.nodes[ph.begin]), tooltip=ph.begin)]
    unit[ph.begin] = ph.begin
    for s in ph.children:
        sc = game.containers[s]
        nodes.append(GNode(s, "step", wrap(sc.label.get(lang), WRAP[lang]), extra=[summary(game, s, lang)],
                           url=node_url(game, game.nodes[sc.begin]), tooltip=tooltip(game, sc, lang)))
        for n in game.time_order(s):
            unit[n] = s
    for n in ph.nodes:
        unit.setdefault(n, ph.end if n == ph.end else unit.get(n, ph.begin))
    nodes.append(GNode(ph.end, "begin", wrap(game.nodes[ph.end].label.get(lang), WRAP[lang]),
                       url=node_url(game, game.nodes[ph.end]), tooltip=ph.end))
    order = {u.id: i for i, u in enumerate(nodes)}
    merged: dict[tuple[str, str], tuple[str, list[str]]] = {}
    for e in game.edges:
        if e.kind in ("call", "turn") or (e.src, e.dst, e.kind) in never or e.src in gone:
            continue
        src = e.via if e.kind == "return" else e.src
        if src is None or src in gone or src not in unit or e.dst not in unit:
            continue
        u, v = unit[src], unit[e.dst]
        if u == v and e.kind != "back":
            continue
        if u == v or order[v] <= order[u]:
            kind = "back"
        else:
            kind = "next" if e.kind in ("next", "after") and order[v] == order[u] + 1 else "jump"
        label = []
        node = game.nodes[src]
        if node.kind == "goto" and node.parent is not None:
            ch = next((c for c in game.nodes[node.parent].choices if c.id == node.body), None)
            if ch is not None and ch.label is not None:
                label = [ch.label.get(lang)]
        old = merged.get((u, v))
        if old is None:
            merged[(u, v)] = (kind, label)
        else:
            merged[(u, v)] = (old[0] if old[0] == "next" else kind, old[1] + [x for x in label if x not in old[1]])
    edges = [GEdge(u, v, kind, [ln for x in label[:2] for ln in wrap(x, WRAP_EDGE[lang])], tooltip=f"{u} → {v}")
             for (u, v), (kind, label) in merged.items()]
    for a, b in zip(nodes, nodes[1:]):  # the steps one below the other, in their order
        if (a.id, b.id) not in merged:
            edges.append(GEdge(a.id, b.id, "order"))
    return Chart(game.id, f"{phase_id}.steps", "overview", lang, title, nodes, edges, [])
