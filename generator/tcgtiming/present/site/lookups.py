"""The lookup pages of a game, in one language: "May I play now?" (``<game>/when/index.html``, the
rows of ``present.when``, filtered in the page by assets/when.js) and the scenario coverage
(``<game>/coverage/index.html``: a table of every node, and the charts with the visits as a heat map).

Both bodies are rendered from templates (``data/templates/when.html``, ``coverage.html``) with
autoescaping (every value given to them is text) when the site is written, through the same loader as
the frame (``render.environment``), so that a folder of templates (``site --templates DIR``) replaces
them like any other.
"""
from __future__ import annotations

import html
import re

from markupsafe import Markup

from ...core.model import Game, Text
from ...core.words import WORDS
from .. import coverage as cov_mod
from ..charts import NODE_STYLE, style_key, ui
from .. import when
from .markup import kind_word, node_page, rel, tx, w
from .pages import Page, Pages

WHEN_PAGE = "{}/when/index.html"
COVERAGE_PAGE = "{}/coverage/index.html"


def _seats(game: Game, roles) -> list[str]:
    seats = []
    for r in roles:
        if r in ("any", "both"):
            return list(when.SEATS)
        seat = game.roles[r].get("seat") if r in game.roles else None
        if seat and seat not in seats:
            seats.append(seat)
    return seats


def _by(game: Game, t: when.Timing) -> str:
    """The kinds of the timing only some of the players who act there may play (a kind's ``by``, or a
    ``when`` naming the player's role), and who: "kind:seat,seat ..." (read by assets/when.js)."""
    seats = when.who_seats(game, t)
    out = []
    for k in t.plays:
        mine = [s for s in seats if when.allowed(game, t, k, s) is not False]
        if len(mine) < len(seats):
            out.append(f"{k}:{','.join(mine)}")
    return " ".join(out)


def _if(game: Game, t: when.Timing) -> str:
    """The kinds a player may play at the timing only if a condition holds then (it depends on the state
    of the game: the stack empty), and for whom: "kind:seat,seat ..." (read by assets/when.js)."""
    seats = when.who_seats(game, t)
    out = []
    for k in t.plays:
        mine = [s for s in seats if not isinstance(when.allowed(game, t, k, s), bool)]
        if mine:
            out.append(f"{k}:{','.join(mine)}")
    return " ".join(out)


def when_page(game: Game, lang: str) -> Page:
    page = WHEN_PAGE.format(game.id)
    sep = "、" if lang == "ja" else ", "
    rows = []
    where: dict[str, list[str]] = {}
    for r in when.rows(game):
        t = r.timing
        section = when.section(game, t, lang)
        for k in t.plays:
            if section not in where.setdefault(k, []):
                where[k].append(section)
        rows.append({"n": r.n, "status": r.status, "type": t.type, "phase": t.phase or "", "step": t.step or "",
                     "plays": list(t.plays), "seats": _seats(game, t.who), "section": section,
                     "by": _by(game, t), "if": _if(game, t),
                     "limits_text": " · ".join(when.limit_texts(game, t, when.Filter(), lang)),
                     "label": tx(t.label, lang), "href": rel(page, node_page(game, game.nodes[t.node]), t.node),
                     "via": t.via, "context": tx(t.context, lang), "type_text": when.type_text(t, lang),
                     "status_text": when.wd("status." + r.status, lang),
                     "plays_text": sep.join(when.kind_name(game, k, lang) for k in t.plays),
                     "who_text": when.who_text(game, t, lang), "close_text": when.close_text(t, lang)})
    kinds = [{"id": k.id, "name": tx(k.name, lang), "where": where.get(k.id, [])} for k in when.kinds(game)]
    phases = [{"id": c, "label": tx(game.containers[c].label, lang), "step": game.containers[c].kind == "step"}
              for c in when.containers_of(game)]
    words = {k: when.wd(k, lang) for k in ("intro", "any_kind", "any_player", "any_phase")}
    words.update({k: when.wd(f"col.{k[4:]}", lang) for k in ("col_n", "col_phase", "col_timing", "col_status",
                                                              "col_plays", "col_who", "col_close")})
    words.update(f_play=when.wd("f.play", lang), f_player=when.wd("f.player", lang), f_phase=when.wd("f.phase", lang),
                 shown=when.wd("f.shown", lang, "{}"), noscript=when.wd("f.noscript", lang),
                 only_open=when.wd("f.only_open", lang), turn=when.wd("player.turn", lang),
                 non_turn=when.wd("player.non_turn", lang), timing=w("timing", lang),
                 coverage=cov_mod.wd("link", lang))
    title = when.wd("title", lang, tx(game.name, lang))
    context = dict(
        title=title, t=words, kinds=kinds, phases=phases, rows=rows,
        status_words={s: when.wd("status." + s, lang) for s in when.STATUSES},
        css=rel(page, "assets/lookup.css"), game_href=rel(page, f"{game.id}/turn.html"), game_name=tx(game.name, lang),
        timing_href=rel(page, f"{game.id}/timing/index.html"), coverage_href=rel(page, COVERAGE_PAGE.format(game.id)))
    return Page(page, title, Markup(), game.id, scripts=("assets/when.js",), template="when.html", context=context)


# --- coverage -------------------------------------------------------------------------------------

_NODE_G = re.compile(r'<g id="n:([^"]+)" class="node">')
_EDGE_G = re.compile(r'<g id="e:([^"]+)" class="edge">')
HEAT_STYLE = (
    "<style>"
    ".heat-0 { opacity: 0.35; }"
    ".heat-gap polygon, .heat-gap ellipse, .heat-gap path { stroke: #d00000; stroke-dasharray: 5 3; stroke-width: 2.5; }"
    ".heat-gap { opacity: 0.75; }"
    ".heat-1 polygon, .heat-1 ellipse, .heat-1 path { fill: #fff1c1; }"
    ".heat-2 polygon, .heat-2 ellipse, .heat-2 path { fill: #ffd27a; }"
    ".heat-3 polygon, .heat-3 ellipse, .heat-3 path { fill: #ff9f4a; }"
    ".heat-4 polygon, .heat-4 ellipse, .heat-4 path { fill: #f46a2a; }"
    ".heat-dark text { fill: #1d1d1f; }"
    ".eheat-0 { opacity: 0.25; }"
    ".eheat-1 path { stroke-width: 1.5; } .eheat-2 path { stroke-width: 2.5; }"
    ".eheat-3 path { stroke-width: 3.5; } .eheat-4 path { stroke-width: 5; }"
    "</style>")


DARK = ("#404040", "#000000", "#202020")


def heat_svg(svg: str, cov: cov_mod.GameCoverage) -> str:
    """A chart (as ``chart_file`` made it) with each node and edge of the model classed by its heat
    level (``heat-0`` … ``heat-4``; ``heat-gap``: reachable, not visited) and the heat map's style; a
    phase or step of the overview takes the heat of its start."""
    def node(mo):
        nid = html.unescape(mo.group(1))
        container = cov.game.containers.get(nid) if nid not in cov.nodes else None
        if container is not None:  # the overview draws phases and steps (light boxes): the heat of their start
            nid = container.begin
        if nid not in cov.nodes:
            return mo.group(0)
        level = cov_mod.heat(cov.nodes[nid])
        extra = " heat-gap" if cov.reasons.get(nid) == "gap" else ""
        if container is None and NODE_STYLE.get(style_key(cov.game, cov.game.nodes[nid]), {}).get("fillcolor") in DARK:
            extra += " heat-dark"  # its white text stays readable on the heat colour
        return f'<g id="n:{mo.group(1)}" class="node heat-{level}{extra}">'

    def edge(mo):
        raw = html.unescape(mo.group(1))
        src, _, rest = raw.partition("->")
        dst, _, kind = rest.rpartition(":")
        count = cov.edges.get((src, dst, kind))
        if count is None:
            return mo.group(0)
        return f'<g id="e:{mo.group(1)}" class="edge eheat-{cov_mod.heat(count)}">'

    svg = _NODE_G.sub(node, svg)
    svg = _EDGE_G.sub(edge, svg)
    return svg.replace("</style>", "</style>" + HEAT_STYLE, 1) if "</style>" in svg else svg


def _inputs(names: list[str], every: list[str], lang: str) -> list[str]:
    """The inputs that visit a node: by name, or in a word when every input does."""
    return [cov_mod.wd("every_input", lang, len(every))] if len(every) > 1 and names == every else names


def coverage_page(p: Pages, game: Game, cov: cov_mod.GameCoverage) -> Page:
    from ..charts import chart_ids
    from ..when import containers_of
    from .markup import chart_file

    lang = p.lang
    page = COVERAGE_PAGE.format(game.id)
    charts = []
    for cid in chart_ids(game):
        at = f"{game.id}/coverage/charts/{cid}.{lang}.svg"
        text, width, height = chart_file((p.drawn / "charts" / game.id / f"{cid}.{lang}.svg").read_text(encoding="utf-8"), at)
        p.files[at] = heat_svg(text, cov)
        container = game.containers[cid]
        ids = game.time_order(cid) if cid != "turn" else [game.containers[c].begin for c in containers_of(game)]
        seen = sum(1 for n in ids if cov.nodes.get(n))
        charts.append({"id": cid, "label": tx(container.label, lang), "href": rel(page, at), "seen": seen, "total": len(ids),
                       "style": f"max-width:{width:g}px;aspect-ratio:{width:g}/{height:g}",
                       "alt": tx(Text(f"{container.label.ja}の網羅", f"coverage of the {container.label.en}"), lang)})
    rows = []
    every = sorted({v.name for v in cov.inputs})
    for nid, node in game.nodes.items():
        count = cov.nodes.get(nid, 0)
        reason = cov.reasons.get(nid)
        rows.append({"id": nid, "href": rel(page, node_page(game, node), nid), "label": tx(node.label, lang),
                     "kind": kind_word(game, node, lang), "visits": count, "heat": cov_mod.heat(count),
                     "inputs": _inputs(sorted(set(cov.by.get(nid, []))), every, lang),
                     "reason": cov_mod.wd("reason." + ("none" if reason == "gap" else reason), lang) if reason else "",
                     "gap": reason == "gap"})
    groups = [{"reason": r, "title": cov_mod.wd("reason." + ("none" if r == "gap" else r), lang),
               "rows": [x for x in rows if cov.reasons.get(x["id"]) == r]} for r in cov_mod.REASONS]
    edges = [{"src": src, "dst": dst, "kind": ui("e." + kind, lang) if f"chart.e.{kind}" in WORDS else kind, "href": rel(page, node_page(game, game.nodes[src]), src),
              "reason": cov_mod.wd("reason." + ("none" if r == "gap" else r), lang)}
             for (src, dst, kind), r in cov.edge_reasons.items()]
    words = {k: cov_mod.wd(k, lang) for k in ("heat", "missing", "all", "visited", "unvisited", "edges_unvisited")}
    words.update(never=cov_mod.wd("legend.never", lang), gap=cov_mod.wd("legend.gap", lang))
    words.update({f"col_{k}": cov_mod.wd(f"col.{k}", lang) for k in ("node", "visits", "inputs", "reason", "kind")})
    words.update(full_size=w("full_size", lang), when=when.wd("link", lang))
    title = cov_mod.wd("title", lang, tx(game.name, lang))
    summary = cov_mod.wd("summary", lang, cov.visited_nodes, len(game.nodes), cov.visited_edges, len(cov.edges),
                         len(cov.inputs))
    context = dict(
        title=title, summary=summary, t=words, charts=charts, rows=rows,
        groups=[g for g in groups if g["rows"]], unvisited=len(cov.reasons), edges=edges, css=rel(page, "assets/lookup.css"),
        game_href=rel(page, f"{game.id}/turn.html"), game_name=tx(game.name, lang),
        when_href=rel(page, WHEN_PAGE.format(game.id)))
    return Page(page, title, Markup(), game.id, template="coverage.html", context=context)
