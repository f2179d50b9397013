"""The charts of one phase or one procedure (the overview is ``overview``'s), with a trace laid on."""
from __future__ import annotations

from ...core.model import Game, Node
from ...core.text import wrap
from .graph import Chart, GCluster, GEdge, GNode
from .labels import WRAP, WRAP_EDGE, call_args_text, local_label, node_url, page_of, role_label, tooltip, window_lines
from .overlay import Overlay
from .overview import build_overview
from .reach import never_reached, never_taken
from .style import style_key, ui


def build_chart(game: Game, chart_id: str, lang: str, overlay: Overlay | None = None) -> Chart:
    if chart_id == "turn":
        return build_overview(game, lang, overlay)
    if chart_id not in game.containers and chart_id.endswith(".steps"):
        from .steps import build_steps

        return build_steps(game, chart_id.removesuffix(".steps"), lang)
    c = game.containers[chart_id]
    title = ui("title", lang, game.name.get(lang), c.label.get(lang))
    gone = never_reached(game)  # drawn nowhere: no arrow suggests a flow that never happens
    ids = [n for n in game.time_order(chart_id) if n not in gone]
    inside = set(ids)
    never = never_taken(game)
    clusters = [GCluster(s, game.containers[s].label.get(lang), node_url(game, game.nodes[game.containers[s].begin]),
                         tooltip(game, game.containers[s], lang))
                for s in c.children]
    nodes = [_gnode(game, game.nodes[n], lang, game.nodes[n].step if c.kind == "phase" else None) for n in ids]
    edges: list[GEdge] = []
    stubs: dict[str, GNode] = {}

    def stub(nid: str, outgoing: bool) -> str:
        sid = ("to:" if outgoing else "from:") + nid
        if sid not in stubs:
            n = game.nodes[nid]
            if n.kind in ("begin", "end"):
                name = n.label.get(lang) if n.container == "turn" else game.containers[n.container].label.get(lang)
            else:  # a step's chart names the step the way comes from or goes to
                where = n.step if c.kind == "step" and n.step else page_of(n)
                name = game.containers[where].label.get(lang) + ": " + n.label.get(lang)
            arrow = "→ " if outgoing else "← "
            stubs[sid] = GNode(sid, "stub", wrap(arrow + name, WRAP[lang]), url=node_url(game, n), tooltip=n.id)
        return sid

    for e in game.edges:
        if (e.src, e.dst, e.kind) in never or e.src in gone or (e.via is not None and e.via in gone):
            continue
        if e.kind == "call" and c.kind == "procedure" and e.dst == c.begin:
            continue  # drawn once, from the 'called from' stub
        if e.kind == "call":
            continue  # the call node itself links to the procedure
        if e.kind == "return":
            if e.via in inside:
                dst = e.dst if e.dst in inside else stub(e.dst, True)
                if _into_own_loop(game, e.via, e.dst):  # the next round of the loop around the call
                    edges.append(GEdge(e.via, dst, "back", [ui("again", lang)], tooltip=f"{e.via} → {e.dst}"))
                else:
                    edges.append(GEdge(e.via, dst, "after", tooltip=f"{e.via} → {e.dst}"))
            continue
        if e.kind == "turn":
            continue
        s_in, d_in = e.src in inside, e.dst in inside
        if not (s_in or d_in):
            continue
        src = e.src if s_in else stub(e.src, False)
        dst = e.dst if d_in else stub(e.dst, True)
        edges.append(GEdge(src, dst, e.kind, _edge_label(game, e, lang), f"{e.kind}: {e.src} → {e.dst}"))
    if c.kind == "procedure":
        callers = [e.src for e in game.edges if e.kind == "call" and e.dst == c.begin]
        tip = "\n".join(callers[:40]) + ("\n…" if len(callers) > 40 else "")
        first = GNode("from:callers", "stub", wrap("← " + ui("caller" if len(callers) == 1 else "callers", lang, len(callers)), WRAP[lang]),
                      url=node_url(game, game.nodes[callers[0]]) if callers else None, tooltip=tip)
        last = GNode("to:callers", "stub", wrap("→ " + ui("back_to_caller", lang), WRAP[lang]), tooltip=tip)
        nodes = [first] + nodes + [last]
        edges = [GEdge(first.id, c.begin, "call")] + edges + [GEdge(c.end, last.id, "return")]
    # stubs go before the chart (entries) or after it (exits), in first-use order
    entries = [s for k, s in stubs.items() if k.startswith("from:")]
    exits = [s for k, s in stubs.items() if k.startswith("to:")]
    nodes = entries + nodes + exits
    ch = Chart(game.id, chart_id, c.kind if c.kind in ("phase", "step") else "procedure", lang, title, nodes, edges,
               clusters)
    if overlay is not None:
        _apply_overlay(ch, game, overlay)
    return ch


def _into_own_loop(game: Game, src: str, dst: str) -> bool:
    """An edge from inside a loop's body back to the loop node itself."""
    d = game.nodes.get(dst)
    s = game.nodes.get(src)
    return d is not None and s is not None and d.kind in ("loop", "foreach") and dst in s.loops


def _apply_overlay(ch: Chart, game: Game, ov: Overlay) -> None:
    ch.traced = True
    for n in ch.nodes:
        if n.id.startswith(("from:", "to:")):
            real = n.id.split(":", 1)[1]
            n.visits = tuple(ov.nodes.get(real, ()))
        else:
            n.visits = tuple(ov.nodes.get(n.id, ()))
    for e in ch.edges:
        src = e.src.split(":", 1)[1] if e.src.startswith("from:") else e.src
        dst = e.dst.split(":", 1)[1] if e.dst.startswith("to:") else e.dst
        if e.kind == "after" or (e.kind == "back" and game.nodes.get(src) is not None
                                 and game.nodes[src].kind in ("call", "check") and (src, dst) not in ov.edges):
            e.visits = tuple(ov.after.get((src, dst), ()))
        elif e.kind == "call" and src == "callers":
            e.visits = tuple(sorted(s for (a, b), v in ov.edges.items() if b == dst for s in v))
        elif e.kind == "return" and dst == "callers":
            e.visits = tuple(sorted(s for (a, b), v in ov.edges.items() if a == src for s in v))
        else:
            e.visits = tuple(ov.edges.get((src, dst), ()))


def _gnode(game: Game, node: Node, lang: str, cluster: str | None) -> GNode:
    key = style_key(game, node)
    head = ""
    extra: list[str] = []
    sub: list[str] = []
    if node.kind not in ("begin", "end"):
        head = local_label(game, node)
    if node.kind == "player":
        who = role_label(game, node.actor, lang)
        head += "  " + who + ("・" + ui("may", lang) if node.may and lang == "ja" else
                                (" · " + ui("may", lang) if node.may else ""))
    elif node.kind == "window":
        sub, extra = window_lines(game, node, lang)
    elif node.kind == "closed":
        extra = [ui("no_play", lang)]
    elif node.kind == "foreach" and node.over:
        items = game.lists.get(node.over, ())
        sep = " → "
        extra = wrap(ui("over", lang, sep.join(i.name.get(lang) for i in items)), WRAP[lang] + 6)
    elif node.kind in ("call", "check") and node.callee:
        proc = game.containers.get(node.callee)
        if proc is not None and proc.label.get(lang) != node.label.get(lang):
            extra = wrap("→ " + proc.label.get(lang), WRAP[lang])
        if node.call_args:
            extra.append(call_args_text(node, lang))
    url = node_url(game, node)
    if node.kind in ("call", "check") and node.callee and node.callee in game.containers:
        url = node_url(game, game.nodes[game.containers[node.callee].begin])  # the call links to the procedure
    limit = {"branch": WRAP[lang] - 6, "choice": WRAP[lang] - 6, "window": WRAP[lang] + 12}.get(key, WRAP[lang])
    own = node.kind in ("begin", "end") or "." not in node.id[len(node.container) + 1:]
    return GNode(node.id, key, wrap(node.label.get(lang), limit), head, extra, url, tooltip(game, node, lang),
                 cluster, sub=sub, group=node.container if own else None)


def _edge_label(game: Game, e, lang: str) -> list[str]:
    src = game.nodes[e.src]
    if e.kind in ("option", "case") and e.label is not None:
        return wrap(e.label.get(lang), WRAP_EDGE[lang])
    if e.kind == "else":
        return [ui("else", lang)]
    if e.kind == "loop":
        return [ui("each" if src.kind == "foreach" else "while", lang)]
    if e.kind == "exit" and src.kind in ("loop", "foreach"):
        return [ui("done", lang)]
    if e.kind == "back":
        return [ui("again" if src.kind != "goto" else "back", lang)]
    if e.kind == "turn" and e.label is not None:
        return wrap(e.label.get(lang), WRAP_EDGE[lang] + 6)
    return []
