"""The Mermaid writer: a flowchart with the same nodes, edges, clusters, legend and links as the DOT.

Text from rule files never becomes Mermaid syntax: it is written only inside quoted labels, through
``_mm_text`` (entity codes for every character Mermaid or HTML would read as syntax, U+FFFD for the
characters no output carries); ids are made here from the model's ids (ASCII letters, digits, _);
the ``<br/>`` between lines, the shapes, classes and links are this module's own."""
from __future__ import annotations

import json

from ...core.text import visible
from .graph import GCluster, GNode, Chart
from .overlay import visits_text
from .style import EDGE_STYLE, HIGHLIGHT, KIND_ORDER, NODE_STYLE, ui


_MM_SHAPE = {
    "begin": ('(["', '"])'), "player": ('("', '")'), "choice": ('{"', '"}'), "auto": ('["', '"]'),
    "check": ('[["', '"]]'), "call": ('[["', '"]]'), "call_mixed": ('[["', '"]]'),
    "trigger": ('>"', '"]'), "window": ('[/"', '"/]'),
    "closed": ('["', '"]'), "branch": ('{"', '"}'), "loop": ('{{"', '"}}'), "goto": ('>"', '"]'),
    "exit": ('>"', '"]'), "end_game": ('((("', '")))'), "stub": ('("', '")'), "phase": ('("', '")'),
    "step": ('("', '")'),
}
_MM_ARROW = {"next": "-->", "option": "-->", "case": "-->", "else": "-.->", "loop": "-->", "exit": "-.->",
             "back": "==>", "jump": "-.->", "after": "-->", "call": "-.->", "return": "-.->", "turn": "==>"}


def _mm_text(s: str) -> str:
    """Text inside a quoted Mermaid label (entity codes for what Mermaid would read as syntax: a
    backtick would start a Markdown string; a new line is a line break)."""
    return (visible(s).replace("#", "#35;").replace("&", "&amp;").replace('"', "#quot;").replace("<", "&lt;")
            .replace(">", "&gt;").replace("|", "#124;").replace("`", "#96;").replace("\n", "<br/>"))


def to_mermaid(ch: Chart) -> str:
    lang = ch.lang
    ids: dict[str, str] = {}

    def mid(x: str) -> str:
        if x not in ids:
            base = "n_" + "".join(c if c.isascii() and c.isalnum() else "_" for c in x)
            cand, i = base, 2
            while cand in ids.values():
                cand, i = f"{base}_{i}", i + 1
            ids[x] = cand
        return ids[x]

    out = ["---", "title: " + json.dumps(visible(ch.title), ensure_ascii=False), "---", "flowchart TD"]

    def node_line(n: GNode) -> str:
        a, b = _MM_SHAPE[n.kind]
        parts = []
        if ch.traced and n.visits:
            parts.append(_mm_text(visits_text(n.visits) + " " + ui("visits", lang, len(n.visits))))
        if n.head:
            parts.append(_mm_text(n.head))
        parts.append("<br/>".join(_mm_text(x) for x in n.lines))
        parts += [_mm_text(x) for x in n.sub + n.extra if x]
        return f"{mid(n.id)}{a}{'<br/>'.join(parts)}{b}"

    by_cluster: dict[str | None, list[GNode]] = {}
    for n in ch.nodes:
        by_cluster.setdefault(n.cluster, []).append(n)
    done = set()
    for n in ch.nodes:
        if n.cluster is None:
            out.append("  " + node_line(n))
        elif n.cluster not in done:
            done.add(n.cluster)
            cl = next((c for c in ch.clusters if c.id == n.cluster), GCluster(n.cluster, n.cluster))
            out.append(f'  subgraph {mid("cluster:" + cl.id)}["{_mm_text(cl.label)}"]')
            out += ["    " + node_line(m) for m in by_cluster[n.cluster]]
            out.append("  end")
    visited_links = []
    drawn = [e for e in ch.edges if e.kind != "order"]  # an order kept for dot only: Mermaid keeps its own
    for i, e in enumerate(drawn):
        label = list(e.label)
        if ch.traced and e.visits:
            label = [visits_text(e.visits, 3)] + label
            visited_links.append(i)
        lab = "<br/>".join(_mm_text(x) for x in label)
        arrow = _MM_ARROW[e.kind]
        shown = f'|"{lab}"|' if lab else ""
        out.append(f"  {mid(e.src)} {arrow}{shown} {mid(e.dst)}")
    # the legend
    kinds = [k for k in KIND_ORDER if any(n.kind == k for n in ch.nodes)]
    out.append(f'  subgraph legend["{_mm_text(ui("legend", lang))}"]')
    for k in kinds:
        a, b = _MM_SHAPE[k]
        out.append(f"    legend_{k}{a}{_mm_text(ui('k.' + ('begin' if k == 'begin' else k), lang))}{b}")
    out.append("  end")
    for k in KIND_ORDER:
        st = NODE_STYLE[k]
        dash = ",stroke-dasharray:4 3" if "dashed" in st.get("style", "") else ""
        out.append(f"  classDef {k} fill:{st['fillcolor']},stroke:{st['color']},color:{st['fontcolor']}{dash}")
    out.append("  classDef visited stroke-width:4px")
    for k in kinds:
        members = [mid(n.id) for n in ch.nodes if n.kind == k] + [f"legend_{k}"]
        out.append(f"  class {','.join(members)} {k}")
    visited = [mid(n.id) for n in ch.nodes if ch.traced and n.visits]
    if visited:
        out.append(f"  class {','.join(visited)} visited")
    for i, e in enumerate(drawn):
        st = EDGE_STYLE[e.kind]
        if i in visited_links:
            out.append(f"  linkStyle {i} stroke:{HIGHLIGHT},stroke-width:3px")
        elif st["color"] != "#000000":
            out.append(f"  linkStyle {i} stroke:{st['color']}")
    for n in ch.nodes:
        if n.url:
            tip = _mm_text((n.tooltip.split("\n\n")[0] if n.tooltip else n.id).replace("\n", " "))
            out.append(f'  click {mid(n.id)} href "{n.url}" "{tip}" _top')
    return "\n".join(out) + "\n"
