"""The DOT writer: generated here, never by a library, so that it is byte-for-byte deterministic (nodes
and edges in the chart's order, attributes sorted by name, ids the model's ids).

Text from rule files never becomes DOT syntax: every attribute value is a quoted string, except an
``HtmlLabel``, the one type of value written as a DOT HTML-like label, which only this module makes
(from escaped text and its own markup). Characters no output carries (``core.text.UNSAFE_CHARS``)
are shown as U+FFFD, so ``dot`` never fails on a label."""
from __future__ import annotations

import functools
from dataclasses import dataclass

from ...core.text import visible, wrap
from .graph import Chart, GCluster, GEdge, GNode
from .overlay import visits_text
from .style import EDGE_ORDER, EDGE_STYLE, FADE, HIGHLIGHT, KIND_ORDER, NODE_STYLE, ui


FONT = "IPAexGothic"  # pinned (Debian fonts-ipaexfont-gothic): reproducible charts, no tofu


@dataclass(frozen=True, slots=True)
class HtmlLabel:
    """A DOT HTML-like label: markup made by this module, its text escaped by ``_h``. Any other value,
    whatever its shape (``<a>, URL="…", x=<b>`` included), is written as a quoted string."""

    markup: str


def _q(s: str) -> str:
    """A DOT quoted string (escString: newlines become \\n, a backslash is a backslash)."""
    s = visible(s)
    if "\\" not in s and '"' not in s and "\n" not in s:
        return f'"{s}"'
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def _h(s: str) -> str:
    """Text for a DOT HTML-like label."""
    return visible(s).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def _alpha(color: str, faded: bool) -> str:
    return color + FADE if faded and color.startswith("#") and len(color) == 7 else color


def _attrs(d: dict[str, str | HtmlLabel]) -> str:
    parts = []
    for k in sorted(d):
        v = d[k]
        parts.append(f"{k}=<{v.markup}>" if isinstance(v, HtmlLabel) else f"{k}={_q(v)}")
    return "[" + ", ".join(parts) + "]"


def _node_attrs(n: GNode, lang: str, traced: bool) -> dict[str, str | HtmlLabel]:
    st: dict[str, str | HtmlLabel] = dict(NODE_STYLE[n.kind])
    faded = traced and not n.visits
    fc = st.get("fontcolor", "#000000")
    rows = []
    if traced and n.visits:
        dark = st.get("fillcolor", "#ffffff") in ("#404040", "#000000")
        rows.append(f'<FONT POINT-SIZE="9" COLOR="{"#ffa6dc" if dark else HIGHLIGHT}"><B>{_h(visits_text(n.visits))} '
                    f'{_h(ui("visits", lang, len(n.visits)))}</B></FONT>')
    if n.head:
        rows.append(f'<FONT POINT-SIZE="8" COLOR="{_alpha(fc, faded)}">{_h(n.head)}</FONT>')
    body = "<BR/>".join(_h(x) for x in n.lines) or " "
    rows.append(f'<FONT COLOR="{_alpha(fc, faded)}">{body}</FONT>' if faded else body)
    if n.sub:
        rows.append(f'<FONT POINT-SIZE="9.5" COLOR="{_alpha(fc, faded)}"><B>' + "<BR/>".join(_h(x) for x in n.sub)
                    + "</B></FONT>")
    extra = [x for x in n.extra if x]
    if extra:
        rows.append(f'<FONT POINT-SIZE="8" COLOR="{_alpha(fc, faded)}">' + "<BR/>".join(_h(x) for x in extra)
                    + "</FONT>")
    if len(rows) == 1:
        st["label"] = HtmlLabel(rows[0])
    else:  # one table row per part: clean line spacing between the small and the large print
        st["label"] = HtmlLabel('<TABLE BORDER="0" CELLBORDER="0" CELLSPACING="0" CELLPADDING="1">'
                                + "".join(f"<TR><TD>{r}</TD></TR>" for r in rows) + "</TABLE>")
    if faded:
        for k in ("color", "fillcolor", "fontcolor"):
            if k in st:
                st[k] = _alpha(st[k], True)
    if traced and n.visits:
        st["penwidth"] = "3"
    st["id"] = "n:" + n.id
    if n.group:
        st["group"] = n.group
    if n.url:
        st["URL"] = n.url
        st["target"] = "_top"
    st["tooltip"] = n.tooltip or n.id
    return st


def _edge_attrs(e: GEdge, lang: str, traced: bool, back_constraint: bool) -> dict[str, str]:
    st = dict(EDGE_STYLE[e.kind])
    label = list(e.label)
    if traced:
        if e.visits:
            st["color"] = HIGHLIGHT
            st["fontcolor"] = HIGHLIGHT
            st["penwidth"] = "3"
            mark = visits_text(e.visits, 3)
            if e.kind == "back" or len(e.visits) > 1:
                mark = ui("visits", lang, len(e.visits)) + " " + mark
            label = [mark] + label
        else:
            for k in ("color", "fontcolor"):
                if k in st:
                    st[k] = _alpha(st[k], True)
    if label:  # dot sets a label's left side against its line: an empty first cell keeps the text off it
        st["label"] = HtmlLabel('<TABLE BORDER="0" CELLBORDER="0" CELLSPACING="0" CELLPADDING="0"><TR><TD WIDTH="6">'
                                '</TD><TD>' + "<BR/>".join(_h(x) for x in label) + "</TD></TR></TABLE>")
    if e.kind == "back" and not back_constraint:  # loops go up the right-hand side, into the target's side
        st["constraint"] = "false"
        if e.src != e.dst:
            st["tailport"] = "e"
            st["headport"] = "e"
    if e.kind in ("turn",):
        st["constraint"] = "false"
    st["tooltip"] = e.tooltip or f"{e.src} → {e.dst}"
    st["id"] = f"e:{e.src}->{e.dst}:{e.kind}"
    return st


def _legend_dot(ch: Chart) -> list[str]:
    """The legend: a cluster of sample nodes (the real shapes and colours) and sample edges, laid
    out in a few rows, with only what the chart uses."""
    used, eused = {n.kind for n in ch.nodes}, {e.kind for e in ch.edges}
    kinds = tuple(k for k in KIND_ORDER if k in used)
    ekinds = tuple(k for k in EDGE_ORDER if k in eused)
    return list(_legend_lines(ch.lang, kinds, ekinds, ch.traced, ch.kind == "overview"))


@functools.lru_cache(maxsize=256)
def _legend_lines(lang: str, kinds: tuple, ekinds: tuple, traced: bool, overview: bool) -> tuple[str, ...]:
    out = ["  subgraph cluster_legend {",
           "    graph " + _attrs({"label": ui("legend", lang), "style": "rounded", "color": "#999999",
                                  "fontsize": "12", "labeljust": "l", "margin": "8", "id": "legend",
                                  "tooltip": ui("legend", lang)})]
    samples: list[str] = []
    for k in list(kinds) + (["visited"] if traced else []):
        st = dict(NODE_STYLE[k if k != "visited" else "step"])
        st.update({"label": ui("k." + k, lang), "fontsize": "9", "height": "0.3", "margin": "0.06,0.03",
                   "tooltip": k, "id": "legend:" + k})
        if k == "visited":
            st.update({"penwidth": "3", "fontcolor": HIGHLIGHT})
        out.append(f"    {_q('legend:' + k)} {_attrs(st)}")
        samples.append("legend:" + k)
    rows = [samples[i:i + 4] for i in range(0, len(samples), 4)]
    pairs = []
    for k in list(ekinds) + (["visited"] if traced else []):
        a, b = f"legend:e:{k}:a", f"legend:e:{k}:b"
        out.append(f"    {_q(a)} {_attrs({'shape': 'plaintext', 'label': ui('e.' + k, lang), 'fontsize': '9', 'height': '0.2', 'margin': '0.12,0', 'tooltip': k})}")
        out.append(f"    {_q(b)} {_attrs({'shape': 'point', 'width': '0.04', 'color': '#999999', 'tooltip': k})}")
        est = dict(EDGE_STYLE.get(k, {})) if k != "visited" else {"color": HIGHLIGHT, "penwidth": "3"}
        est.update({"minlen": "1", "tooltip": k, "id": f"legend:e:{k}"})
        out.append(f"    {_q(a)} -> {_q(b)} {_attrs(est)}")
        pairs.append([a, b])
    rows += [sum(pairs[i:i + 3], []) for i in range(0, len(pairs), 3)]
    hint = ui("hint", lang) + ("\n" + ui("s.hint", lang) if overview else "")
    out.append(f"    {_q('legend:hint')} {_attrs({'shape': 'plaintext', 'label': chr(10).join(ln for part in hint.split(chr(10)) for ln in wrap(part, 44)), 'fontsize': '8', 'fontcolor': '#666666', 'tooltip': hint})}")
    rows.append(["legend:hint"])
    for row in rows:
        if len(row) > 1:
            out.append("    { rank=same; " + " ".join(_q(x) for x in row) + " }")
            for a, b in zip(row, row[1:]):  # left to right in this order
                if not (a.endswith(":a") and b.endswith(":b")):
                    out.append(f"    {_q(a)} -> {_q(b)} [style=invis]")
    for r1, r2 in zip(rows, rows[1:]):  # the rows, top to bottom
        out.append(f"    {_q(r1[0])} -> {_q(r2[0])} [style=invis]")
    out.append("  }")
    return tuple(out)


def _merged(edges: list[GEdge]) -> list[GEdge]:
    """Options of one decision that lead to the same place drawn as one arrow carrying all their
    labels (side by side, two arrows' labels run into each other); a trace's visits are the union."""
    out: list[GEdge] = []
    seen: dict[tuple[str, str], GEdge] = {}
    for e in edges:
        first = seen.get((e.src, e.dst)) if e.kind == "option" else None
        if first is None:
            if e.kind == "option":
                seen[(e.src, e.dst)] = e = GEdge(e.src, e.dst, e.kind, list(e.label), e.tooltip, e.visits)
            out.append(e)
            continue
        first.label += ["／"] + list(e.label)
        first.tooltip = "\n".join(x for x in (first.tooltip, e.tooltip) if x)
        if e.visits is not None or first.visits is not None:
            first.visits = tuple(sorted(set(first.visits or ()) | set(e.visits or ())))
    return out


def _option_rows(ch: Chart) -> list[str]:
    """The options (or cases) of a decision side by side in the rule file's order, left to right, as
    the sources list them: one row of the first items of their bodies. Only bodies of their own (the
    first item entered from the decision alone) are lined up; dot orders the rest."""
    ins: dict[str, list[GEdge]] = {}
    for e in ch.edges:
        if e.kind != "back":
            ins.setdefault(e.dst, []).append(e)
    kinds = {n.id: n.kind for n in ch.nodes}
    rows: dict[str, list[str]] = {}
    for e in ch.edges:
        if e.kind in ("option", "case") and kinds.get(e.dst) not in (None, "begin", "end") \
                and [x.src for x in ins.get(e.dst, ())] == [e.src] and e.dst not in rows.get(e.src, ()):
            rows.setdefault(e.src, []).append(e.dst)
    out = []
    for row in rows.values():
        if len(row) > 1:
            out.append("  { rank=same; " + " -> ".join(_q(x) for x in row) + " [style=invis] }")
    return out


def to_dot(ch: Chart, back_constraint: bool = True, legend: bool = True) -> str:
    """The DOT text of a chart; legend=False leaves the legend out (the site shows it beside the chart).
    back_constraint: the edges going back take part in the layout (dot turns them round), so that the
    loops find their own side and do not cross the flow; False draws them up the right-hand side."""
    lang = ch.lang
    out = [f"digraph {_q(ch.game + ':' + ch.id)} {{",
           "  graph " + _attrs({"charset": "UTF-8", "fontname": FONT, "fontsize": "18", "label": ch.title,
                                "labelloc": "t", "labeljust": "l", "rankdir": "TB", "newrank": "true",
                                "nodesep": "0.3", "ranksep": "0.32", "compound": "true",
                                "tooltip": ch.title, "id": f"chart:{ch.game}:{ch.id}:{lang}"}),
           "  node " + _attrs({"fontname": FONT, "fontsize": "11", "margin": "0.14,0.06"}),
           "  edge " + _attrs({"fontname": FONT, "fontsize": "9", "arrowsize": "0.7"})]
    by_cluster: dict[str | None, list[GNode]] = {}
    for n in ch.nodes:
        by_cluster.setdefault(n.cluster, []).append(n)
    emitted_clusters = set()
    for n in ch.nodes:  # nodes in order; a cluster is written where its first node comes
        if n.cluster is None:
            out.append(f"  {_q(n.id)} {_attrs(_node_attrs(n, lang, ch.traced))}")
            continue
        if n.cluster in emitted_clusters:
            continue
        emitted_clusters.add(n.cluster)
        cl = next((c for c in ch.clusters if c.id == n.cluster), GCluster(n.cluster, n.cluster))
        cattrs = {"label": cl.label, "style": "rounded", "color": "#8c8c8c", "fontsize": "13",
                  "labeljust": "l", "id": "c:" + cl.id, "tooltip": cl.tooltip or cl.label, "margin": "12"}
        if cl.url:
            cattrs["URL"] = cl.url
            cattrs["target"] = "_top"
        out.append(f"  subgraph {_q('cluster_' + cl.id)} {{")
        out.append("    graph " + _attrs(cattrs))
        for m in by_cluster[n.cluster]:
            out.append(f"    {_q(m.id)} {_attrs(_node_attrs(m, lang, ch.traced))}")
        out.append("  }")
    for e in _merged(ch.edges):
        out.append(f"  {_q(e.src)} -> {_q(e.dst)} {_attrs(_edge_attrs(e, lang, ch.traced, back_constraint))}")
    # keep time order for a node nothing flows into (a step left only by a goto): below its predecessor
    has_in = {e.dst for e in ch.edges if e.kind not in ("back",)}
    pairs = {(e.src, e.dst) for e in ch.edges}
    real = [n for n in ch.nodes if not n.id.startswith(("from:", "to:"))]
    for prev, n in zip(real, real[1:]):  # and each step below the one before it
        if n.kind == "begin" and (n.id not in has_in or (n.cluster is not None and prev.cluster != n.cluster
                                                         and (prev.id, n.id) not in pairs)):
            out.append(f"  {_q(prev.id)} -> {_q(n.id)} [style=invis]")
    out += _option_rows(ch)
    if legend:
        out += _legend_dot(ch)
    out.append("}")
    return "\n".join(out) + "\n"
