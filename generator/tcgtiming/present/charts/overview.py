"""The overview chart of a game ('turn'): its phases in order (a phase with steps is a cluster of its
steps), the loops between them, the next turn with the role swap."""
from __future__ import annotations

from ...core.model import Game
from ...core.text import wrap
from .graph import Chart, GCluster, GEdge, GNode
from .labels import WRAP, WRAP_EDGE, node_url, tooltip
from .overlay import Overlay
from .reach import never_reached, never_taken
from .style import ui


def summary(game: Game, cid: str, lang: str) -> str:
    """What a phase or step holds, counted: player actions, priority windows, check timings, calls."""
    counts = {"player": 0, "window": 0, "check": 0, "call": 0}
    for n in game.time_order(cid):
        k = game.nodes[n].kind
        if k in counts:
            counts[k] += 1
    sep = "・" if lang == "ja" else " · "
    return sep.join(ui("s." + k, lang, v, "" if v == 1 else "s") for k, v in counts.items() if v)


_STRENGTH = {"back": 4, "turn": 4, "next": 3, "after": 3, "option": 2, "case": 2, "else": 2, "loop": 2,
             "exit": 1, "jump": 1}


def build_overview(game: Game, lang: str, ov: Overlay | None) -> Chart:
    title = ui("title", lang, game.name.get(lang), ui("overview", lang))
    turn = game.turn
    nodes: list[GNode] = []
    clusters: list[GCluster] = []
    unit: dict[str, str | None] = {}  # model node -> overview node (None: passed through)
    tb, te = game.nodes[turn.begin], game.nodes[turn.end]
    nodes.append(GNode(turn.begin, "begin", wrap(tb.label.get(lang), WRAP[lang]), url=node_url(game, tb),
                       tooltip=tooltip(game, turn, lang)))
    unit[turn.begin] = turn.begin
    for p in game.phases:
        pb = game.nodes[p.begin]
        if not p.children:
            nodes.append(GNode(p.id, "phase", wrap(p.label.get(lang), WRAP[lang]), extra=[summary(game, p.id, lang)],
                               url=node_url(game, pb), tooltip=tooltip(game, p, lang)))
            for n in game.time_order(p.id):
                unit[n] = p.id
            continue
        clusters.append(GCluster(p.id, p.label.get(lang), node_url(game, pb), tooltip(game, p, lang)))
        own = [n for n in p.nodes if game.nodes[n].container == p.id and n not in (p.begin, p.end)]
        unit[p.begin] = unit[p.end] = None
        if own:
            nodes.append(GNode(p.id, "phase", wrap(p.label.get(lang), WRAP[lang]),
                               extra=[summary(game, p.id, lang)], url=node_url(game, pb),
                               tooltip=tooltip(game, p, lang), cluster=p.id))
            for n in own:
                unit[n] = p.id
        for s in p.children:
            sc = game.containers[s]
            nodes.append(GNode(s, "step", wrap(sc.label.get(lang), WRAP[lang]), extra=[summary(game, s, lang)],
                               url=node_url(game, game.nodes[sc.begin]), tooltip=tooltip(game, sc, lang),
                               cluster=p.id))
            for n in game.time_order(s):
                unit[n] = s
    nodes.append(GNode(turn.end, "begin", wrap(te.label.get(lang), WRAP[lang]), url=node_url(game, te),
                       tooltip=tooltip(game, turn, lang)))
    unit[turn.end] = turn.end

    # the flow between units: model edges (calls replaced by 'after' edges), seen through pass-through nodes
    flow: dict[str, list] = {}
    never, gone = never_taken(game), never_reached(game)  # what the engine can never take is not drawn
    for e in game.edges:
        if e.kind == "call" or (e.src, e.dst, e.kind) in never or (e.via is not None and e.via in gone):
            continue
        if e.kind == "return":
            flow.setdefault(e.via, []).append((e.via, e.dst, "after", None))
            continue
        flow.setdefault(e.src, []).append((e.src, e.dst, e.kind, e))
    merged: dict[tuple[str, str], dict] = {}

    def label_of(e, self_loop: bool) -> str | None:
        if e is None:
            return None
        src = game.nodes[e.src]
        if src.kind == "goto" and self_loop:
            return src.label.get(lang)
        dst = game.nodes[e.dst]
        if e.kind == "back" and dst.kind in ("loop", "foreach"):
            return dst.label.get(lang)  # the next round of a loop: say which loop
        if src.kind in ("goto", "exit"):  # a way out of a step or phase: the option that takes it, or its label
            ins = [i for i in game.in_edges.get(src.id, ()) if i.kind in ("option", "case") and i.label]
            return (ins[0].label if len(game.in_edges.get(src.id, ())) == 1 and ins else src.label).get(lang)
        if e.kind in ("option", "case") and e.label is not None:
            return e.label.get(lang)
        return None

    for src_id in [n for n in game.nodes if unit.get(n) is not None]:
        u = unit[src_id]
        for (_s, dst, kind, e) in flow.get(src_id, ()):
            targets = []
            todo, seen = [(dst, kind)], set()
            while todo:
                d, k = todo.pop(0)
                if d in seen:
                    continue
                seen.add(d)
                if d in unit and unit[d] is None:
                    for (_s2, d2, k2, _e2) in flow.get(d, ()):
                        todo.append((d2, k if _STRENGTH.get(k, 0) >= _STRENGTH.get(k2, 0) or k in ("back", "exit", "jump")
                                       else k2))  # a way out stays one through the ends it passes
                elif d in unit:
                    targets.append((unit[d], k))
            for v, k in targets:
                if kind == "turn" or k == "turn":
                    k = "turn"
                if u == v and k != "back":
                    continue
                m = merged.setdefault((u, v), {"kinds": [], "labels": [], "edges": []})
                m["kinds"].append(k)
                lab = label_of(e, u == v)
                if lab and lab not in m["labels"]:
                    m["labels"].append(lab)
    edges: list[GEdge] = []
    for (u, v), m in merged.items():
        kinds = m["kinds"]
        if "turn" in kinds:
            k = "turn"
        elif "back" in kinds:
            k = "back"
        elif any(x in ("next", "after", "else", "option", "case", "loop") for x in kinds):
            k = "next"
        else:
            k = "jump"
        label: list[str] = []
        if k == "turn":
            te_edge = next((e for e in game.edges if e.kind == "turn"), None)
            if te_edge is not None and te_edge.label is not None:
                label += wrap(te_edge.label.get(lang), WRAP_EDGE[lang] + 8)
            if game.roles_swap:
                turn_roles = [r for r in game.roles.values() if r.get("seat") == "turn"]
                other = [r for r in game.roles.values() if r.get("seat") == "non_turn"]
                if turn_roles and other:
                    label += wrap(ui("swap", lang, turn_roles[0].name.get(lang), other[0].name.get(lang)),
                                  WRAP_EDGE[lang] + 8)
        else:
            for lab in m["labels"][:3]:
                label += wrap(lab, WRAP_EDGE[lang])
        edges.append(GEdge(u, v, k, label, tooltip=f"{k}: {u} → {v}"))
    for a, b in zip(nodes, nodes[1:]):  # the phases and steps one below the other, in time order
        if (a.id, b.id) not in merged:
            edges.append(GEdge(a.id, b.id, "order"))
    ch = Chart(game.id, "turn", "overview", lang, title, nodes, edges, clusters)
    if ov is not None:
        _apply_overview_overlay(ch, game, ov, unit)
    return ch


def _apply_overview_overlay(ch: Chart, game: Game, ov: Overlay, unit: dict) -> None:
    ch.traced = True
    visits: dict[str, list[int]] = {}
    moves: dict[tuple[str, str], list[int]] = {}
    prev = None
    for seq, n in ov.path:
        u = unit.get(n)
        if u is None:
            continue
        if u != prev:
            visits.setdefault(u, []).append(seq)
            if prev is not None:
                moves.setdefault((prev, u), []).append(seq)
        prev = u
    for seq, e in ov.hops:  # loops inside one unit, and the next turn
        u, v = unit.get(e.src), unit.get(e.dst)
        if e.kind == "back" and u is not None and u == v:
            moves.setdefault((u, u), []).append(seq)
        if e.kind == "turn":
            moves.setdefault((e.src, e.dst), []).append(seq)
    for n in ch.nodes:
        n.visits = tuple(visits.get(n.id, ()))
    for e in ch.edges:
        e.visits = tuple(moves.get((e.src, e.dst), ()))
