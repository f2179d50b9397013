"""Timing charts drawn from the compiled model: graphviz DOT / SVG / PNG, Mermaid, trace overlays.

Only this module and ``tables`` know about chart formats. The DOT text is generated here, never by
a library, so that it is byte-for-byte deterministic: nodes and edges come in the model's document
order (which is stable), attributes are sorted by name, ids are the model's ids. SVG and PNG are
made by the ``dot`` binary of graphviz (run in parallel, cached by content hash).

Charts of a game (each one file per language and format):

  ``turn``          the overview: phases in order (a phase with steps is a cluster of its steps),
                    the loops between them, the next turn with the role swap
  ``<phase id>``    one phase: every node, its steps as clusters, every branch and loop;
                    check timings and calls link to the procedure's own chart
  ``<procedure>``   one procedure (the check timing, damage, ...)

The visual language follows the Weiß Schwarz source: player actions green (#009f00), automatic
actions blue (#0000ff), check timings red (#ff0000); see ``NODE_STYLE`` and ``EDGE_STYLE``.
"""
from __future__ import annotations

import concurrent.futures
import functools
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from ..core.model import Game, Node, Text
from ..core.text import LANGS, width, wrap
from .formats import EXT
from ..core.words import WORDS, word

FONT = "IPAexGothic"  # pinned (Debian fonts-ipaexfont-gothic): reproducible charts, no tofu

GREEN, BLUE, RED = "#009f00", "#0000ff", "#ff0000"  # the colours of the Weiß Schwarz source
PURPLE = "#7030a0"  # loops: loop nodes, back edges
ORANGE = "#b36200"  # priority windows
GREY = "#7f7f7f"
HIGHLIGHT = "#d4007f"  # trace overlay
FADE = "55"  # alpha of what a trace did not visit

# --- words -----------------------------------------------------------------------------------

def ui(key: str, lang: str, *args) -> str:
    """A word of the charts, from the catalogue."""
    return word(f"chart.{key}", lang, *args)


# --- the site link -------------------------------------------------------------------------------


def page_of(node: Node) -> str:
    """The page a node lives on: its procedure, its phase, or the turn (the overview)."""
    return node.procedure or node.phase or "turn"


def node_url(game: Game, node: Node) -> str:
    """Where a node is explained on the site (relative, the site does not exist yet)."""
    return f"../{game.id}/{page_of(node)}.md#{node.id}"


def _q(s: str) -> str:
    """A DOT quoted string (escString: newlines become \\n)."""
    if "\\" not in s and '"' not in s and "\n" not in s:
        return f'"{s}"'
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def _h(s: str) -> str:
    """Text for a DOT HTML-like label."""
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def _alpha(color: str, faded: bool) -> str:
    return color + FADE if faded and color.startswith("#") and len(color) == 7 else color


# --- the visual language --------------------------------------------------------------------------

# style key -> DOT attributes (colour keys: color = border, fontcolor = text, fillcolor)
NODE_STYLE: dict[str, dict[str, str]] = {
    "begin": {"shape": "box", "style": "rounded,filled", "color": "#404040", "fillcolor": "#404040",
              "fontcolor": "#ffffff"},
    "player": {"shape": "box", "style": "rounded,filled,bold", "color": GREEN, "fillcolor": "#effaef",
               "fontcolor": GREEN},
    "choice": {"shape": "diamond", "style": "filled,bold", "color": GREEN, "fillcolor": "#effaef",
               "fontcolor": GREEN},
    "auto": {"shape": "box", "style": "filled", "color": BLUE, "fillcolor": "#f1f1ff", "fontcolor": BLUE},
    "check": {"shape": "box", "style": "filled,bold", "color": RED, "fillcolor": "#fff1f1", "fontcolor": RED,
              "peripheries": "2"},
    "call": {"shape": "box", "style": "filled", "color": "#202020", "fillcolor": "#ffffff",
             "fontcolor": "#202020", "peripheries": "2"},
    "trigger": {"shape": "cds", "style": "filled", "color": BLUE, "fillcolor": "#f1f1ff", "fontcolor": BLUE,
                "margin": "0.16,0.11"},
    "window": {"shape": "tab", "style": "filled,bold", "color": ORANGE, "fillcolor": "#fff4d6",
               "fontcolor": "#6b3a00"},
    "closed": {"shape": "box", "style": "filled,dashed", "color": "#606060", "fillcolor": "#d9d9d9",
               "fontcolor": "#404040"},
    "branch": {"shape": "diamond", "style": "filled", "color": "#000000", "fillcolor": "#ffffff",
               "fontcolor": "#000000"},
    "loop": {"shape": "hexagon", "style": "filled,bold", "color": PURPLE, "fillcolor": "#f6effb",
             "fontcolor": PURPLE},
    "goto": {"shape": "rarrow", "style": "filled", "color": PURPLE, "fillcolor": "#f6effb", "fontcolor": PURPLE},
    "exit": {"shape": "rarrow", "style": "filled", "color": GREY, "fillcolor": "#f4f4f4", "fontcolor": "#404040"},
    "end_game": {"shape": "doubleoctagon", "style": "filled", "color": "#000000", "fillcolor": "#000000",
                 "fontcolor": "#ffffff"},
    "stub": {"shape": "box", "style": "rounded,dashed", "color": GREY, "fillcolor": "#ffffff",
             "fontcolor": "#404040"},
    "phase": {"shape": "box", "style": "rounded,filled,bold", "color": "#000000", "fillcolor": "#f4f4f4",
              "fontcolor": "#000000"},
    "step": {"shape": "box", "style": "rounded,filled", "color": "#000000", "fillcolor": "#ffffff",
             "fontcolor": "#000000"},
}

EDGE_STYLE: dict[str, dict[str, str]] = {
    "next": {"color": "#000000"},
    "option": {"color": GREEN, "fontcolor": GREEN},
    "case": {"color": "#000000"},
    "else": {"color": "#000000", "style": "dashed"},
    "loop": {"color": PURPLE, "fontcolor": PURPLE},
    "exit": {"color": GREY, "style": "dashed", "fontcolor": "#404040"},
    "back": {"color": PURPLE, "fontcolor": PURPLE, "penwidth": "2", "style": "bold"},
    "jump": {"color": "#404040", "style": "dashed", "penwidth": "1.5"},
    "after": {"color": "#000000"},
    "call": {"color": RED, "style": "dashed", "fontcolor": RED},
    "return": {"color": GREY, "style": "dashed"},
    "turn": {"color": "#000000", "penwidth": "2.5", "style": "bold"},
}

KIND_ORDER = ("begin", "player", "choice", "auto", "trigger", "check", "call", "window", "closed", "branch",
              "loop", "goto", "exit", "end_game", "phase", "step", "stub")
EDGE_ORDER = ("next", "option", "case", "else", "loop", "exit", "back", "jump", "after", "call", "return",
              "turn")


def style_key(game: Game, node: Node) -> str:
    k = node.kind
    if k == "end":
        return "begin"
    if k == "player" and node.choices:
        return "choice"
    if k == "foreach":
        return "loop"
    if k == "check":
        return "check"
    if k == "call":
        return "check" if node.callee and node.callee == game.check_timing else "call"
    if k == "goto":
        return "goto" if any(e.kind == "back" for e in game.successors(node.id)) else "exit"
    return k


# --- the chart, before it is written in a format ---------------------------------------------------


@dataclass
class GNode:
    id: str
    kind: str  # a NODE_STYLE key
    lines: list[str]
    head: str = ""
    extra: list[str] = field(default_factory=list)
    url: str | None = None
    tooltip: str = ""
    cluster: str | None = None
    visits: tuple[int, ...] | None = None  # None: no trace; () not visited
    sub: list[str] = field(default_factory=list)  # key facts under the label (a window's priority)
    group: str | None = None  # the spine: a container's own numbered items, kept in one straight column


@dataclass
class GEdge:
    src: str
    dst: str
    kind: str  # an EDGE_STYLE key
    label: list[str] = field(default_factory=list)
    tooltip: str = ""
    visits: tuple[int, ...] | None = None


@dataclass
class GCluster:
    id: str
    label: str
    url: str | None = None
    tooltip: str = ""


@dataclass
class Chart:
    game: str
    id: str  # 'turn', a phase id or a procedure id
    kind: str  # overview | phase | procedure
    lang: str
    title: str
    nodes: list[GNode]
    edges: list[GEdge]
    clusters: list[GCluster]
    traced: bool = False


def chart_ids(game: Game) -> list[str]:
    """Every chart of a game: the overview, the phases in turn order, the procedures."""
    return ["turn"] + list(game.turn.children) + [p.id for p in game.procedures]


def resolve_chart_id(game: Game, wanted: str) -> str | None:
    if wanted in ("turn", "overview"):
        return "turn"
    c = game.containers.get(wanted)
    if c is None:
        return None
    if c.kind == "step":
        return c.parent
    return c.id


WRAP = {"ja": 28, "en": 30}  # display columns per line of a node label
WRAP_EDGE = {"ja": 20, "en": 22}


def _text(t: Text | None, lang: str) -> str:
    return t.get(lang) if t is not None else ""


def role_label(game: Game, role: str | None, lang: str) -> str:
    if role in ("any", "both"):
        return ui(role, lang)
    r = game.roles.get(role or "")
    return r.name.get(lang) if r else (role or "")


def _cites(game: Game, node, lang: str) -> list[str]:
    out = []
    for c in node.cites:
        src = game.sources.get(c.source)
        if src is None:
            out.append(str(c))
            continue
        title = src.title
        if c.section:
            sec = next((s.title for s in src.sections if s.id == c.section), c.section)
            out.append(f"{c}: {title} § {sec}")
        else:
            out.append(f"{c}: {title}")
    return out


def _tooltip(game: Game, node, lang: str) -> str:
    parts = [node.id]
    note = _text(getattr(node, "note", None), lang)
    if note:
        parts.append(note)
    cites = _cites(game, node, lang)
    if cites:
        parts.append(ui("sources", lang) + ":\n" + "\n".join(cites))
    return "\n\n".join(parts)


def local_label(node: Node) -> str:
    """The node's number as the sources write it: its id inside its step / phase / procedure
    (``3.attack.1``); deep ids keep their last two parts (``…mental.1``)."""
    prefix = node.container + "."
    local = node.id[len(prefix):] if node.id.startswith(prefix) else node.id
    parts = local.split(".")
    return local if len(parts) <= 3 else "…" + ".".join(parts[-2:])


def short_role(game: Game, role: str | None, lang: str) -> str:
    """A role's name without its parenthetical gloss: 攻撃側プレイヤー（このターンの自軍） -> 攻撃側プレイヤー."""
    name = role_label(game, role, lang)
    for op, cl in (("（", "）"), (" (", ")")):
        if name.endswith(cl) and op in name and name.index(op) > 0:
            return name[: name.index(op)]
    return name


def window_lines(game: Game, node: Node, lang: str) -> tuple[list[str], list[str]]:
    """The priority lines (who first, who may act, what) and the small print (closing, resolving)."""
    w = node.window
    if w is None:
        return [], []
    sep = "、" if lang == "ja" else ", "
    order = [w.first] + [r for r in w.who if r != w.first]
    if len(order) == 1:
        key = [ui("only", lang, short_role(game, w.first, lang))]
    else:
        key = [ui("priority", lang, " → ".join(short_role(game, r, lang) for r in order))]
    plays = sep.join(game.plays[p].name.get(lang) if p in game.plays else p for p in w.plays)
    if plays:
        key += wrap(ui("plays", lang, plays), WRAP[lang] + 16)
    close = ui("c." + w.close, lang, w.passes) if "chart.c." + w.close in WORDS else w.close
    bits = [close,
            ui("ap." + w.after_play, lang) if "chart.ap." + w.after_play in WORDS else w.after_play,
            ui("r." + w.resolve, lang) if "chart.r." + w.resolve in WORDS else w.resolve,
            ui("ar." + w.after_resolve, lang) if "chart.ar." + w.after_resolve in WORDS else w.after_resolve]
    small: list[str] = []
    for bit in bits:  # whole phrases, packed
        if small and width(small[-1] + " · " + bit) <= WRAP[lang] + 24:
            small[-1] += " · " + bit
        else:
            small.append(bit)
    return key, small


def _gnode(game: Game, node: Node, lang: str, cluster: str | None) -> GNode:
    key = style_key(game, node)
    head = ""
    extra: list[str] = []
    sub: list[str] = []
    if node.kind not in ("begin", "end"):
        head = local_label(node) + "."
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
            extra.append(", ".join(f"{k}={v}" for k, v in node.call_args))
    url = node_url(game, node)
    if node.kind in ("call", "check") and node.callee and node.callee in game.containers:
        url = node_url(game, game.nodes[game.containers[node.callee].begin])  # the call links to the procedure
    limit = {"branch": WRAP[lang] - 6, "choice": WRAP[lang] - 6, "window": WRAP[lang] + 12}.get(key, WRAP[lang])
    own = node.kind in ("begin", "end") or "." not in node.id[len(node.container) + 1:]
    return GNode(node.id, key, wrap(node.label.get(lang), limit), head, extra, url, _tooltip(game, node, lang),
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


# --- trace overlays -------------------------------------------------------------------------------


@dataclass
class Overlay:
    """What a trace visited in one game: node -> seqs, model edge (src, dst) -> seqs of arrival,
    (call node, node after the call) -> seqs, and the path itself."""

    path: list[tuple[int, str]]
    nodes: dict[str, list[int]]
    edges: dict[tuple[str, str], list[int]]
    after: dict[tuple[str, str], list[int]]
    hops: list[tuple[int, object]]  # (seq of arrival, model edge), in order
    gaps: int = 0


def _hops(game: Game, a: str, b: str, stack: list[str]):
    """The model edges walked from a to b: the direct edge, or a path through start/end nodes only
    (a trace may leave out the synthetic begin/end nodes). None when there is no such path."""
    def ok(e) -> bool:
        return e.kind != "return" or not stack or e.via == stack[-1]

    direct = [e for e in game.successors(a) if e.dst == b]
    if direct:
        good = [e for e in direct if ok(e)]
        return [(good or direct)[0]]
    frontier = [(a, [], list(stack))]
    seen = {a}
    for _ in range(6):
        nxt = []
        for node, path, st in frontier:
            for e in game.successors(node):
                if e.kind == "return" and st and e.via != st[-1]:
                    continue
                st2 = st[:-1] if e.kind == "return" and st else (st + [e.src] if e.kind == "call" else st)
                if e.dst == b:
                    return path + [e]
                if e.dst not in seen and game.nodes[e.dst].kind in ("begin", "end"):
                    seen.add(e.dst)
                    nxt.append((e.dst, path + [e], st2))
        frontier = nxt
        if not frontier:
            break
    return None


def build_overlay(game: Game, steps: list[tuple[int, str]]) -> Overlay:
    path = sorted(steps)
    ov = Overlay(path, {}, {}, {}, [])
    for seq, n in path:
        ov.nodes.setdefault(n, []).append(seq)
    stack: list[str] = []
    for (_, a), (seq, b) in zip(path, path[1:]):
        if a == b:  # still at the same node (another pass or play in a priority window)
            continue
        hops = _hops(game, a, b, stack)
        if hops is None:
            ov.gaps += 1
            continue
        for e in hops:
            ov.edges.setdefault((e.src, e.dst), []).append(seq)
            ov.hops.append((seq, e))
            if e.kind == "call":
                stack.append(e.src)
            elif e.kind == "return":
                via = stack.pop() if stack else e.via
                ov.after.setdefault((via, e.dst), []).append(seq)
            if game.nodes[e.dst].kind in ("begin", "end") and e.dst != b:
                ov.nodes.setdefault(e.dst, []).append(seq)
    for v in ov.nodes.values():
        v.sort()
    return ov


def _seqs(seqs: list[int] | tuple[int, ...], limit: int = 4) -> str:
    shown = " ".join(f"#{s}" for s in seqs[:limit])
    return shown + (" …" if len(seqs) > limit else "")


# --- building the three kinds of chart ------------------------------------------------------------


def build_chart(game: Game, chart_id: str, lang: str, overlay: Overlay | None = None) -> Chart:
    if chart_id == "turn":
        return _overview(game, lang, overlay)
    c = game.containers[chart_id]
    title = ui("title", lang, game.name.get(lang), c.label.get(lang))
    ids = game.time_order(chart_id)
    inside = set(ids)
    clusters = [GCluster(s, game.containers[s].label.get(lang), node_url(game, game.nodes[game.containers[s].begin]),
                         _tooltip(game, game.containers[s], lang))
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
            else:
                name = game.containers[page_of(n)].label.get(lang) + ": " + n.label.get(lang)
            arrow = "→ " if outgoing else "← "
            stubs[sid] = GNode(sid, "stub", wrap(arrow + name, WRAP[lang]), url=node_url(game, n), tooltip=n.id)
        return sid

    for e in game.edges:
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
    ch = Chart(game.id, chart_id, "phase" if c.kind == "phase" else "procedure", lang, title, nodes, edges, clusters)
    if overlay is not None:
        _apply_overlay(ch, game, overlay)
    return ch


def _into_own_loop(game: Game, src: str, dst: str) -> bool:
    """An edge from inside a loop's body back to the loop node itself."""
    d = game.nodes.get(dst)
    return d is not None and d.kind in ("loop", "foreach") and src.startswith(dst + ".")


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


def _summary(game: Game, cid: str, lang: str) -> str:
    counts = {"player": 0, "window": 0, "check": 0, "call": 0}
    for n in game.time_order(cid):
        k = game.nodes[n].kind
        if k in counts:
            counts[k] += 1
    sep = "・" if lang == "ja" else " · "
    return sep.join(ui("s." + k, lang, v, "" if v == 1 else "s") for k, v in counts.items() if v)


_STRENGTH = {"back": 4, "turn": 4, "next": 3, "after": 3, "option": 2, "case": 2, "else": 2, "loop": 2,
             "exit": 1, "jump": 1}


def _overview(game: Game, lang: str, ov: Overlay | None) -> Chart:
    title = ui("title", lang, game.name.get(lang), ui("overview", lang))
    turn = game.turn
    nodes: list[GNode] = []
    clusters: list[GCluster] = []
    unit: dict[str, str | None] = {}  # model node -> overview node (None: passed through)
    tb, te = game.nodes[turn.begin], game.nodes[turn.end]
    nodes.append(GNode(turn.begin, "begin", wrap(tb.label.get(lang), WRAP[lang]), url=node_url(game, tb),
                       tooltip=_tooltip(game, turn, lang)))
    unit[turn.begin] = turn.begin
    for p in game.phases:
        pb = game.nodes[p.begin]
        if not p.children:
            nodes.append(GNode(p.id, "phase", wrap(p.label.get(lang), WRAP[lang]), extra=[_summary(game, p.id, lang)],
                               url=node_url(game, pb), tooltip=_tooltip(game, p, lang)))
            for n in game.time_order(p.id):
                unit[n] = p.id
            continue
        clusters.append(GCluster(p.id, p.label.get(lang), node_url(game, pb), _tooltip(game, p, lang)))
        own = [n for n in p.nodes if game.nodes[n].container == p.id and n not in (p.begin, p.end)]
        unit[p.begin] = unit[p.end] = None
        if own:
            nodes.append(GNode(p.id, "phase", wrap(p.label.get(lang), WRAP[lang]),
                               extra=[_summary(game, p.id, lang)], url=node_url(game, pb),
                               tooltip=_tooltip(game, p, lang), cluster=p.id))
            for n in own:
                unit[n] = p.id
        for s in p.children:
            sc = game.containers[s]
            nodes.append(GNode(s, "step", wrap(sc.label.get(lang), WRAP[lang]), extra=[_summary(game, s, lang)],
                               url=node_url(game, game.nodes[sc.begin]), tooltip=_tooltip(game, sc, lang),
                               cluster=p.id))
            for n in game.time_order(s):
                unit[n] = s
    nodes.append(GNode(turn.end, "begin", wrap(te.label.get(lang), WRAP[lang]), url=node_url(game, te),
                       tooltip=_tooltip(game, turn, lang)))
    unit[turn.end] = turn.end

    # the flow between units: model edges (calls replaced by 'after' edges), seen through pass-through nodes
    flow: dict[str, list] = {}
    for e in game.edges:
        if e.kind == "call":
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
        if src.kind == "goto":
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
                        todo.append((d2, k if _STRENGTH.get(k, 0) >= _STRENGTH.get(k2, 0) or k == "back" else k2))
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


# --- DOT ------------------------------------------------------------------------------------------


def _attrs(d: dict[str, str]) -> str:
    parts = []
    for k in sorted(d):
        v = d[k]
        parts.append(f"{k}={v}" if v.startswith("<") and v.endswith(">") else f"{k}={_q(v)}")
    return "[" + ", ".join(parts) + "]"


def _node_attrs(n: GNode, lang: str, traced: bool) -> dict[str, str]:
    st = dict(NODE_STYLE[n.kind])
    faded = traced and not n.visits
    fc = st.get("fontcolor", "#000000")
    rows = []
    if traced and n.visits:
        dark = st.get("fillcolor", "#ffffff") in ("#404040", "#000000")
        rows.append(f'<FONT POINT-SIZE="9" COLOR="{"#ffa6dc" if dark else HIGHLIGHT}"><B>{_h(_seqs(n.visits))} '
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
        st["label"] = "<" + rows[0] + ">"
    else:  # one table row per part: clean line spacing between the small and the large print
        st["label"] = ('<<TABLE BORDER="0" CELLBORDER="0" CELLSPACING="0" CELLPADDING="1">'
                       + "".join(f"<TR><TD>{r}</TD></TR>" for r in rows) + "</TABLE>>")
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
            mark = _seqs(e.visits, 3)
            if e.kind == "back" or len(e.visits) > 1:
                mark = ui("visits", lang, len(e.visits)) + " " + mark
            label = [mark] + label
        else:
            for k in ("color", "fontcolor"):
                if k in st:
                    st[k] = _alpha(st[k], True)
    if label:
        st["label"] = "\n".join(label)
    if e.kind == "back" and not back_constraint:
        st["constraint"] = "false"
    if e.kind == "back" and e.src != e.dst:  # loops go up the right-hand side, into the target's side
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


def to_dot(ch: Chart, back_constraint: bool = False) -> str:
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
    for e in ch.edges:
        out.append(f"  {_q(e.src)} -> {_q(e.dst)} {_attrs(_edge_attrs(e, lang, ch.traced, back_constraint))}")
    # keep time order for a node nothing flows into (a step left only by a goto): below its predecessor
    has_in = {e.dst for e in ch.edges if e.kind not in ("back",)}
    real = [n for n in ch.nodes if not n.id.startswith(("from:", "to:"))]
    for prev, n in zip(real, real[1:]):
        if n.id not in has_in and n.kind == "begin":
            out.append(f"  {_q(prev.id)} -> {_q(n.id)} [style=invis]")
    out += _legend_dot(ch)
    out.append("}")
    return "\n".join(out) + "\n"


# --- Mermaid --------------------------------------------------------------------------------------

_MM_SHAPE = {
    "begin": ('(["', '"])'), "player": ('("', '")'), "choice": ('{"', '"}'), "auto": ('["', '"]'),
    "check": ('[["', '"]]'), "call": ('[["', '"]]'), "trigger": ('>"', '"]'), "window": ('[/"', '"/]'),
    "closed": ('["', '"]'), "branch": ('{"', '"}'), "loop": ('{{"', '"}}'), "goto": ('>"', '"]'),
    "exit": ('>"', '"]'), "end_game": ('((("', '")))'), "stub": ('("', '")'), "phase": ('("', '")'),
    "step": ('("', '")'),
}
_MM_ARROW = {"next": "-->", "option": "-->", "case": "-->", "else": "-.->", "loop": "-->", "exit": "-.->",
             "back": "==>", "jump": "-.->", "after": "-->", "call": "-.->", "return": "-.->", "turn": "==>"}


def _mm_text(s: str) -> str:
    """Text inside a quoted Mermaid label (entity codes for what Mermaid would read as syntax)."""
    return (s.replace("#", "#35;").replace("&", "&amp;").replace('"', "#quot;").replace("<", "&lt;").replace(">", "&gt;")
            .replace("|", "#124;"))


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

    out = ["---", "title: " + json.dumps(ch.title, ensure_ascii=False), "---", "flowchart TD"]

    def node_line(n: GNode) -> str:
        a, b = _MM_SHAPE[n.kind]
        parts = []
        if ch.traced and n.visits:
            parts.append(_mm_text(_seqs(n.visits) + " " + ui("visits", lang, len(n.visits))))
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
    for i, e in enumerate(ch.edges):
        label = list(e.label)
        if ch.traced and e.visits:
            label = [_seqs(e.visits, 3)] + label
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
    for i, e in enumerate(ch.edges):
        st = EDGE_STYLE[e.kind]
        if i in visited_links:
            out.append(f"  linkStyle {i} stroke:{HIGHLIGHT},stroke-width:3px")
        elif st["color"] != "#000000":
            out.append(f"  linkStyle {i} stroke:{st['color']}")
    for n in ch.nodes:
        if n.url:
            tip = _mm_text(n.tooltip.split("\n\n")[0] if n.tooltip else n.id)
            out.append(f'  click {mid(n.id)} href "{n.url}" "{tip}" _top')
    return "\n".join(out) + "\n"


# --- running graphviz -----------------------------------------------------------------------------


class RenderError(Exception):
    pass


@functools.lru_cache(maxsize=None)
def graphviz_version(dot: str = "dot") -> str:
    try:
        p = subprocess.run([dot, "-V"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError) as exc:
        raise RenderError(f"graphviz is not available ({exc}): install the Debian package 'graphviz'") from None
    return (p.stderr or p.stdout).strip()


def cache_dir() -> Path:
    env = os.environ.get("TCGTIMING_CACHE_DIR")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "tcgtiming" / "charts"


def cache_key(dot_text: str, fmt: str, version: str) -> str:
    h = hashlib.sha256()
    for part in (dot_text.encode("utf-8"), fmt.encode(), version.encode()):
        h.update(len(part).to_bytes(8, "big"))
        h.update(part)
    return h.hexdigest()


def run_dot(dot_text: str, fmt: str, cache: Path | None = None) -> tuple[bytes, bool]:
    """SVG or PNG bytes for DOT text, and whether they came from the cache."""
    version = graphviz_version()
    path = None
    if cache is not None:
        key = cache_key(dot_text, fmt, version)
        path = cache / key[:2] / f"{key}.{fmt}"
        try:
            return path.read_bytes(), True
        except OSError:
            pass
    p = subprocess.run(["dot", f"-T{fmt}"], input=dot_text.encode("utf-8"), capture_output=True)
    if p.returncode != 0 or not p.stdout:
        raise RenderError(f"dot failed ({p.returncode}): {p.stderr.decode('utf-8', 'replace').strip()}")
    if path is not None:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
            with os.fdopen(fd, "wb") as fh:
                fh.write(p.stdout)
            os.replace(tmp, path)
        except OSError:
            pass  # a cache that cannot be written is no reason to fail
    return p.stdout, False


def render_file(dot_text: str, fmt: str, target: Path, cache: Path | None = None) -> bool:
    """Draw DOT text into a file (SVG or PNG); True when it came from the cache. dot writes the file
    itself (no output through Python: the threads of a parallel run do not wait for each other)."""
    cached = None
    if cache is not None:
        key = cache_key(dot_text, fmt, graphviz_version())
        cached = cache / key[:2] / f"{key}.{fmt}"
        try:
            shutil.copyfile(cached, target)
            return True
        except OSError:
            pass
    p = subprocess.run(["dot", f"-T{fmt}", "-o", str(target)], input=dot_text.encode("utf-8"),
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if p.returncode != 0 or not target.is_file() or target.stat().st_size == 0:
        raise RenderError(f"dot failed ({p.returncode}): {p.stderr.decode('utf-8', 'replace').strip()}")
    if cached is not None:
        try:
            cached.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=cached.parent, prefix=".tmp-")
            os.close(fd)
            shutil.copyfile(target, tmp)
            os.replace(tmp, cached)
        except OSError:
            pass  # a cache that cannot be written is no reason to fail
    return False


@dataclass
class Job:
    rel: str  # path under the output folder
    fmt: str  # svg | png (run dot) | dot | mermaid | text (written as is)
    text: str  # DOT or Mermaid text


def run_jobs(jobs, folder: Path, cache: Path | None, workers: int | None = None) -> int:
    """Write every job's output under folder; graphviz runs in parallel, each job starting as soon as
    it is produced (jobs may be a generator: the DOT text of the next chart is written while dot
    draws the previous ones). Returns the number of cache hits."""
    def one(job: Job) -> bool:
        target = folder / job.rel
        target.parent.mkdir(parents=True, exist_ok=True)
        if job.fmt in ("dot", "mermaid", "text"):
            target.write_text(job.text, encoding="utf-8", newline="\n")
            return False
        return render_file(job.text, job.fmt, target, cache)

    workers = workers or os.cpu_count() or 1
    if workers == 1:
        return sum(one(j) for j in jobs)
    with concurrent.futures.ThreadPoolExecutor(max_workers=workers) as pool:
        futures = [pool.submit(one, j) for j in jobs]
        return sum(f.result() for f in futures)


# --- the command ----------------------------------------------------------------------------------


def read_trace(path: str):
    """Entries (seq, node, game, line) of a JSON Lines trace, and diagnostics for what is wrong in it.
    Unknown fields are ignored."""
    from ..core.diagnostics import Diagnostic

    diags: list[Diagnostic] = []
    entries: list[tuple[int, str, str, int]] = []
    try:
        with open(path, "rb") as fh:
            raw = fh.read()
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return [], [Diagnostic("Y108", f"the trace is not UTF-8 text ({exc.reason})", path, 0, 0)], []
    except OSError as exc:
        return [], [Diagnostic("Y100", f"cannot read the trace: {exc.strerror}", path, 0, 0)], []
    lines = text.splitlines()
    seen: dict[int, int] = {}
    for i, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            diags.append(Diagnostic("Y101", f"not valid JSON: {exc.msg}", path, i, exc.colno))
            continue
        if not isinstance(obj, dict):
            diags.append(Diagnostic("S203", "a trace line must be a JSON object", path, i, 1, len(line)))
            continue
        bad = False
        for key, typ in (("seq", int), ("node", str), ("game", str)):
            if key not in obj:
                diags.append(Diagnostic("S202", f"missing key '{key}' in a trace entry", path, i, 1, len(line)))
                bad = True
            elif not isinstance(obj[key], typ) or isinstance(obj[key], bool):
                col = line.find(f'"{key}"') + 1 or 1
                diags.append(Diagnostic("S203", f"'{key}' must be {'an integer' if typ is int else 'a string'}",
                                        path, i, col, len(key) + 2))
                bad = True
        if bad:
            continue
        col = line.find('"seq"') + 1 or 1
        if obj["seq"] < 1:
            diags.append(Diagnostic("S204", f"'seq' must be 1 or more, not {obj['seq']}", path, i, col, 5))
            continue
        if obj["seq"] in seen:
            diags.append(Diagnostic("S204", f"seq {obj['seq']} appears twice (first on line {seen[obj['seq']]})",
                                    path, i, col, 5))
            continue
        seen[obj["seq"]] = i
        entries.append((obj["seq"], obj["node"], obj["game"], i))
    if not entries and not diags:
        diags.append(Diagnostic("Y109", "the trace holds no entry", path, 0, 0))
    return entries, diags, lines


def _check_trace(entries, games: dict[str, Game], path: str, lines: list[str]):
    from ..core.diagnostics import Diagnostic, did_you_mean

    diags = []
    for seq, node, gid, line in entries:
        text = lines[line - 1]
        if gid not in games:
            col = text.find(json.dumps(gid, ensure_ascii=False)) + 1 or 1
            diags.append(Diagnostic("C302", f"unknown game '{gid}' in the trace (rendering: "
                                    f"{', '.join(sorted(games))})", path, line, col, len(gid) + 2,
                                    help=did_you_mean(gid, games)))
        elif node not in games[gid].nodes:
            col = text.find(json.dumps(node, ensure_ascii=False)) + 1 or 1
            diags.append(Diagnostic("C302", f"unknown node '{node}' in game '{gid}'", path, line, col,
                                    len(node) + 2, help=did_you_mean(node, games[gid].nodes)))
    return diags


def _print_located(diags, lines: list[str]) -> None:
    from .report import Style, format_text, summary, use_color

    style = Style(use_color(sys.stdout))
    for d in diags:
        src = lines[d.line - 1] if d.line and d.line <= len(lines) else None
        sys.stdout.write(format_text(d, src, style) + "\n\n")
    sys.stdout.write(summary(diags, 1) + "\n")


def _move_into_place(tmp: Path, out: Path) -> list[Path]:
    """Move every file of tmp to the same place under out (each os.replace is atomic)."""
    moved = []
    for p in sorted(tmp.rglob("*")):
        if p.is_file():
            dest = out / p.relative_to(tmp)
            dest.parent.mkdir(parents=True, exist_ok=True)
            os.replace(p, dest)
            moved.append(dest)
    return moved


SKIP_DIRS = {"scenarios", "rulings"}  # below a game's folder: not rule files


def _chart_size(game: Game, cid: str) -> int:
    return len(game.nodes) if cid == "turn" else len(game.containers[cid].nodes)


def chart_jobs(game: Game, chart_ids_: list[str], langs, formats, overlay: Overlay | None = None):
    """The jobs that draw the given charts of a game, the biggest chart first (so that no long dot
    run is left alone at the end)."""
    suffix = ".trace" if overlay is not None else ""
    for cid in sorted(chart_ids_, key=lambda c: -_chart_size(game, c)):
        for lang in langs:
            ch = build_chart(game, cid, lang, overlay)
            for fmt in formats:
                text = to_mermaid(ch) if fmt == "mermaid" else to_dot(ch)
                yield Job(f"{game.id}/{cid}{suffix}.{lang}.{EXT[fmt]}", fmt, text)


def write_jobs(jobs, out: Path, cache: Path | None = None, workers: int | None = None) -> tuple[list[Path], int]:
    """Run the jobs into a temporary folder inside out and move the files into place only when all
    succeeded (nothing half-written). Returns the files written and the cache hits; raises
    RenderError or OSError."""
    out.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(dir=out, prefix=".render-"))
    try:
        hits = run_jobs(jobs, tmp, cache, workers)
        return _move_into_place(tmp, out), hits
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def write_charts(games, out: Path, langs=("ja",), formats=("svg",), cache: Path | None = None,
                 workers: int | None = None) -> tuple[list[Path], int]:
    """Every chart of the compiled games (overview, phases, procedures) into out/<game>/."""
    def jobs():
        for game in games:
            yield from chart_jobs(game, chart_ids(game), langs, formats)
    return write_jobs(jobs(), out, cache, workers)


def _first_missing(path: Path) -> Path | None:
    """The outermost folder of path that does not exist yet (removed again when nothing is written)."""
    missing = None
    for p in [path, *path.parents]:
        if p.exists():
            break
        missing = p
    return missing


def _remove_empty(path: Path, upto: Path | None) -> None:
    if upto is None:
        return
    p = path
    while True:
        try:
            p.rmdir()
        except OSError:
            return
        if p == upto:
            return
        p = p.parent


def cmd_render(args) -> int:
    from ..cli.common import inputs as _inputs, print_diags as _print_diags  # the same reporting as 'validate'
    from ..core.diagnostics import Diagnostic, did_you_mean
    from ..frontend.pipeline import compile_file
    from .report import format_text

    langs = list(dict.fromkeys(args.lang or ["ja"]))
    formats = list(dict.fromkeys(args.formats or ["svg"]))
    chart_formats = [f for f in formats if f != "table"]
    if args.jobs is not None and args.jobs < 1:
        sys.stderr.write("tcgtiming render: error: --jobs must be 1 or more\n")
        return 2
    files, problems = _inputs([args.rules])
    if args.trace and not os.path.isfile(args.trace):
        problems.append(Diagnostic("U401", f"no such trace file: {args.trace}", args.trace, 0, 0))
    if not problems and os.path.isdir(args.rules):  # the rule files of a folder: not its scenarios, rulings
        files = [f for f in files if not set(Path(os.path.relpath(f, args.rules)).parts[:-1]) & SKIP_DIRS]
        if not files:
            problems.append(Diagnostic("U401", f"no rule file under {args.rules}", args.rules, 0, 0))
    if problems:
        for d in problems:
            sys.stderr.write(format_text(d, None) + "\n")
        return 2

    results: dict[str, object] = {}
    games: dict[str, Game] = {}

    def compile_one(f: str) -> Game | None:
        r = results[f] = compile_file(f)
        if r.game is not None and not r.errors and r.game.id not in games:
            games[r.game.id] = r.game
            return r.game
        return None

    def failed() -> bool:
        return any(r.errors for r in results.values())

    tables_to_files = "table" in formats and args.out is not None
    # Compile as the charts are drawn (the biggest file first: dot starts early and Python's work
    # overlaps with it), unless a trace must first be checked against every game, or nothing is
    # drawn at all.
    streaming = not args.trace and bool(chart_formats)
    overlays: dict[str, Overlay] = {}
    if not streaming:
        for f in files:
            compile_one(f)
        if failed():
            _print_diags([results[f] for f in files], "text", files)
            return 1
    if args.trace:
        entries, diags, lines = read_trace(args.trace)
        diags = sorted(diags + _check_trace(entries, games, args.trace, lines), key=lambda d: d.sort_key())
        if diags:
            _print_located(diags, lines)
            return 1
        by_game: dict[str, list[tuple[int, str]]] = {}
        for seq, node, gid, _line in entries:
            by_game.setdefault(gid, []).append((seq, node))
        overlays = {g: build_overlay(games[g], steps) for g, steps in by_game.items()}
        for g, ov in overlays.items():
            if ov.gaps:
                sys.stderr.write(f"note: trace {args.trace}: {ov.gaps} consecutive entr"
                                 f"{'y pair has' if ov.gaps == 1 else 'y pairs have'} no edge between them in "
                                 f"game '{g}' (not drawn)\n")
        for g in [g for g in games if g not in overlays]:  # a trace draws only its own games
            del games[g]

    selected: dict[str, list[str]] = {}

    def charts_of(game: Game) -> list[str]:
        if args.phase:
            cid = resolve_chart_id(game, args.phase)
            cids = [cid] if cid is not None else []
        else:
            cids = chart_ids(game)
        if cids:
            selected[game.id] = cids
        return cids

    def jobs():
        if streaming:
            for f in sorted(files, key=lambda f: -os.path.getsize(f)):
                game = compile_one(f)
                if game is not None and not failed():
                    yield from chart_jobs(game, charts_of(game), langs, chart_formats)
        else:
            for game in list(games.values()):
                yield from chart_jobs(game, charts_of(game), langs, chart_formats, overlays.get(game.id))
        if tables_to_files and not failed():
            from . import tables
            for gid in selected:
                for lang in langs:
                    yield Job(f"{gid}/timing-table.{lang}.md", "text", tables.table_markdown(games[gid], lang))
                    yield Job(f"{gid}/timing-table.{lang}.html", "text", tables.table_html(games[gid], lang))
                    yield Job(f"{gid}/timing-table.{lang}.txt", "text", tables.table_text(games[gid], lang))

    def no_such_chart() -> int:
        cands = sorted({c for g in games.values() for c in chart_ids(g)})
        hint = did_you_mean(args.phase, cands)
        sys.stderr.write(f"tcgtiming render: error: no phase, procedure or 'turn' named '{args.phase}' in "
                         f"{', '.join(sorted(games))}" + (f": {hint}" if hint else "") + "\n")
        return 2

    if not chart_formats and not tables_to_files:  # tables on standard output only
        for game in games.values():
            charts_of(game)
        if args.phase and not selected:
            return no_such_chart()
        from . import tables
        for gid in selected:
            for lang in langs:
                sys.stdout.write(tables.table_text(games[gid], lang) + "\n")
        return 0

    out = Path(args.out or os.path.join("build", "charts"))
    created = _first_missing(out)
    try:
        out.mkdir(parents=True, exist_ok=True)
        probe = tempfile.mkdtemp(dir=out, prefix=".render-")  # can we write there at all?
        os.rmdir(probe)
    except OSError as exc:
        sys.stderr.write(f"tcgtiming render: error: cannot write to {out}: {exc.strerror}\n")
        return 2

    class Abort(Exception):
        pass

    def checked():  # stop before anything is moved into place when an input turned out invalid
        yield from jobs()
        if failed() or (args.phase and not selected):
            raise Abort

    moved: list[Path] = []
    try:
        moved, hits = write_jobs(checked(), out, None if args.no_cache else cache_dir(), args.jobs)
    except Abort:
        if failed():
            _print_diags([results[f] for f in files], "text", files)
            return 1
        return no_such_chart()
    except RenderError as exc:
        sys.stderr.write(f"tcgtiming render: error: {exc}\n")
        return 1
    except OSError as exc:
        sys.stderr.write(f"tcgtiming render: error: cannot write {exc.filename or out}: {exc.strerror}\n")
        return 1
    finally:
        if not moved:
            _remove_empty(out, created)
    if "table" in formats and args.out is None:
        from . import tables
        for gid in selected:
            for lang in langs:
                sys.stdout.write(tables.table_text(games[gid], lang) + "\n")
    per_dir: dict[Path, int] = {}
    for p in moved:
        per_dir[p.parent] = per_dir.get(p.parent, 0) + 1
    if len(moved) <= 12:
        for p in moved:
            sys.stdout.write(f"wrote {p}\n")
    else:
        for d, n in per_dir.items():
            sys.stdout.write(f"wrote {n} files to {d}/\n")
    cached = f" ({hits} from the cache)" if hits else ""
    sys.stdout.write(f"{len(moved)} files in {out}/{cached}\n")
    return 0


__all__ = ["cmd_render", "build_chart", "build_overlay", "chart_ids", "chart_jobs", "node_url", "read_trace",
           "render_file", "run_dot", "run_jobs", "to_dot", "to_mermaid", "wrap", "write_charts", "write_jobs",
           "NODE_STYLE", "EDGE_STYLE"]
