"""The pages of a game in one language: the overview of the turn, one page per phase and per
procedure, the timing-chart table and the sources; and ``Pages``, the pages made so far with the
chart files beside them."""
from __future__ import annotations

import html
import posixpath
import re
from dataclasses import dataclass, field
from pathlib import Path

from markupsafe import Markup

from ...core.model import Game, Text
from ...core.text import LANGS
from .inputs import ScenarioRun
from .markup import (a, call_text, chart_file, cite, code, cond_text, h, join, link_node, local_no, node_page, rel, slug, tx,
                     url_link, value_text, w)
from .legend import chart_frame, legend_html
from .nodes import node_entries, readings_block
from .procedure import procedure_list
from ..charts import build_chart
from ..charts.steps import large_phases


@dataclass
class Page:
    path: str  # inside the language's folder: "ws/attack.html"
    title: str
    body: Markup
    game: str | None = None  # the game whose section of the navigation it is in
    search: str = "page"  # how the search indexes it: "page", "node" (node entries first) or "none"
    lang_body: str | None = None  # the language of the body when it is not the page's (the guide: English)
    scripts: tuple[str, ...] = ()  # more scripts of assets/ the page loads
    template: str | None = None  # a body rendered at writing time by this template (overridable), from context
    context: dict | None = None


@dataclass
class Pages:
    """One language's pages (path -> Page) and the files beside them (path -> text, or a file to copy)."""

    drawn: Path  # the folder draw_charts wrote (charts/, overlays/)
    lang: str
    pages: dict[str, Page] = field(default_factory=dict)
    files: dict[str, object] = field(default_factory=dict)

    def add(self, page: Page) -> None:
        self.pages[page.path] = page

    def chart(self, page: str, svg_base: str, alt: Text, legend: Markup = Markup()) -> Markup:
        """The chart in this language on a page: the SVG file beside the page (charts/), in an <object>
        so that its links and tooltips work, as wide as the page's content (never wider than drawn),
        with pan and zoom and its legend beside it; the chart alone and the other language's chart
        a click away."""
        lang = self.lang
        name = posixpath.basename(svg_base)
        href, width, height = self.chart_file(page, svg_base)
        at = posixpath.join(posixpath.dirname(page), "charts", f"{name}.{lang}.svg")
        other = next(x for x in LANGS if x != lang)
        other_href = rel(page, f"../{other}/{posixpath.dirname(at)}/{name}.{other}.svg")
        obj = h("object", type="image/svg+xml", data=href, aria_label=tx(alt, lang),
                style=f"max-width:{width:g}px;aspect-ratio:{width:g}/{height:g}")
        links = h("p", a(href, w("full_size", lang)), " · ", a(other_href, w("chart_other", lang), hreflang=other),
                  class_="tcg-chart-link")
        return chart_frame(obj, legend, lang) + links

    def chart_file(self, page: str, svg_base: str) -> tuple[str, float, float]:
        """A drawn chart as a file beside the page (charts/): its link from the page and its size."""
        at = posixpath.join(posixpath.dirname(page), "charts", f"{posixpath.basename(svg_base)}.{self.lang}.svg")
        text, width, height = chart_file((self.drawn / f"{svg_base}.{self.lang}.svg").read_text(encoding="utf-8"), at)
        self.files[at] = text
        return rel(page, at), width, height


def heading(level: int, text: str, anchor: str | None = None) -> Markup:
    """A heading with an id (its words, Japanese kept) and a permalink."""
    anchor = anchor or slug(text)
    return h(f"h{level}", text, a(f"#{anchor}", "¶", class_="tcg-permalink", aria_hidden="true", data_pagefind_ignore=True),
             id=anchor)


def note(t: Text | None, lang: str, cls: str = "tcg-cnote") -> Markup:
    return h("p", tx(t, lang), class_=cls) if t is not None else Markup()


def table(head: list, rows: list[list], cls: str | None = None) -> Markup:
    """A table: header cells, then rows of cells (text or Markup)."""
    return h("div", h("table", h("thead", h("tr", *(h("th", x) for x in head))),
                      h("tbody", *(h("tr", *(h("td", x) for x in r)) for r in rows)), class_=cls),
             class_="tcg-table-wrap")


def crumbs(*parts) -> Markup:
    return h("p", join(" · ", parts), class_="tcg-crumbs")


def _counts(game: Game, cid: str) -> dict[str, int]:
    ids = [n for n in game.time_order(cid) if game.nodes[n].kind not in ("begin", "end")]
    kinds = [game.nodes[n].kind for n in ids]
    return {"nodes": len(ids), "player": kinds.count("player"), "check": kinds.count("check"),
            "window": kinds.count("window")}


def _place(game: Game, page: str, nid: str, lang: str) -> Markup:
    """A link to a node by where it is, in words: its step, phase or procedure and its number."""
    node = game.nodes[nid]
    where = tx(game.containers[node.container].label, lang) if node.container in game.containers else nid
    return link_node(game, page, nid, f"{where} {local_no(game, node)}".strip())


def container_page(p: Pages, game: Game, cid: str) -> Page:
    lang = p.lang
    c = game.containers[cid]
    page = f"{game.id}/{cid}.html"
    label = tx(c.label, lang)
    out = [heading(1, label),
           crumbs(link_node(game, page, game.turn.begin, tx(game.name, lang)),
                  w("phases" if c.kind == "phase" else "procedures", lang), code(cid))]
    out.append(note(c.note, lang))
    out.append(readings_block(game, c.readings, page, lang))
    facts = []
    if c.cites:
        facts.append(h("li", w("cites", lang), ": ", join("; ", [cite(game, x, page) for x in c.cites])))
    if c.params:
        facts.append(h("li", w("args", lang), ": ", join(", ", [code(x) for x in c.params])))
    if c.kind == "procedure":
        callers = sorted({e.src for e in game.edges if e.kind == "call" and e.dst == c.begin}, key=list(game.nodes).index)
        if callers:
            facts.append(h("li", w("called_from", lang), ": ", join(", ", [_place(game, page, x, lang) for x in callers])))
    if c.children:
        facts.append(h("li", w("steps", lang), ": ", join(" → ", [
            link_node(game, page, game.containers[s].begin, tx(game.containers[s].label, lang)) for s in c.children])))
    if facts:
        out.append(h("ul", *facts, class_="tcg-facts"))
    out.append(heading(2, w("chart", lang)))
    alt = Text(f"{c.label.ja}のチャート", f"chart of the {c.label.en}")
    step_chart = None
    if cid in large_phases(game):  # the steps first, each step's own chart under its heading
        out.append(h("p", w("step_overview", lang), class_="tcg-cnote"))
        out.append(p.chart(page, f"pages/{game.id}/{cid}.steps", alt, legend_html(build_chart(game, f"{cid}.steps", lang), lang)))
        href = p.chart_file(page, f"pages/{game.id}/{cid}")[0]
        out.append(h("p", a(href, w("whole_phase", lang)), class_="tcg-chart-link"))

        def step_chart(s: str) -> Markup:
            st = game.containers[s]
            return p.chart(page, f"pages/{game.id}/{s}", Text(f"{st.label.ja}のチャート", f"chart of the {st.label.en}"),
                           legend_html(build_chart(game, s, lang), lang))
    else:
        out.append(p.chart(page, f"pages/{game.id}/{cid}", alt, legend_html(build_chart(game, cid, lang), lang)))
    out.append(heading(2, w("nodes", lang)))
    out.append(procedure_list(game, cid, page, lang, step_chart))
    return Page(page, f"{label} — {tx(game.name, lang)}", join("\n", out), game.id, "node")


def overview_page(p: Pages, game: Game, runs: list[ScenarioRun]) -> Page:
    lang = p.lang
    page = f"{game.id}/turn.html"
    turn = game.turn
    name = tx(game.name, lang)
    out = [heading(1, name), note(game.note, lang), readings_block(game, turn.readings, page, lang),
           heading(2, w("turn", lang))]
    out.append(p.chart(page, f"pages/{game.id}/turn", Text(f"{game.name.ja}のターンの流れ", f"the turn of {game.name.en}"),
                       legend_html(build_chart(game, "turn", lang), lang)))
    out.append(h("p", w("roles_swap" if game.roles_swap else "no_swap", lang)))
    out.append(h("p", a("scenarios/index.html", w("scenario_list", lang)), f" ({len(runs)}) · ",
                 a("timing/index.html", w("timing", lang)), " · ", a("when/index.html", _word("when.link", lang)), " · ",
                 a("coverage/index.html", _word("cov.link", lang)), " · ",
                 a("sources/index.html", w("sources", lang)), class_="tcg-crumbs"))
    out.append(heading(2, w("phases", lang)))
    rows = []
    for i, ph in enumerate(game.phases, 1):
        k = _counts(game, ph.id)
        steps = join(Markup("<br>"), [link_node(game, page, game.containers[s].begin, tx(game.containers[s].label, lang))
                                      for s in ph.children]) or "—"
        rows.append([str(i), link_node(game, page, ph.begin, tx(ph.label, lang)), steps, str(k["nodes"]),
                     str(k["player"]), str(k["check"]), str(k["window"])])
    out.append(table(["#"] + [w(x, lang) for x in ("phases", "steps", "count.nodes", "count.player", "count.check",
                                                   "count.window")], rows, "tcg-numbers"))
    if game.procedures:
        out.append(heading(2, w("procedures", lang)))
        rows = [[link_node(game, page, pr.begin, tx(pr.label, lang)), code(pr.id), str(_counts(game, pr.id)["nodes"]),
                 str(sum(1 for e in game.edges if e.kind == "call" and e.dst == pr.begin))] for pr in game.procedures]
        out.append(table([w("procedures", lang), "id", w("count.nodes", lang), w("called_from", lang)], rows))
    out.append(heading(2, w("roles", lang)))
    out.append(table(["id", w("roles", lang), w("seat", lang)], [
        [code(r.id), tx(r.name, lang), w("seat." + str(r.get("seat")), lang)
         if f"site.seat.{r.get('seat')}" in _words() else str(r.get("seat"))] for r in game.roles.values()]))
    if game.rule_processes:
        out.append(heading(2, w("rule_processes", lang)))
        rows = []
        for rp in game.rule_processes.values():
            kind = w("type." + rp.type, lang) if f"site.type.{rp.type}" in _words() else rp.type
            when = code(cond_text(rp.when)) if rp.when is not None else "—"
            does = join(Markup("<br>"), [code(call_text(x.name, x.args)) for x in rp.actions]) or "—"
            rows.append([code(rp.id), tx(rp.name, lang), kind, when, does])
        out.append(table(["id", w("rule_processes", lang), w("type", lang), w("when", lang), w("does", lang)], rows))
    for key, reg in (("zones", game.zones), ("events", game.events), ("plays", game.plays)):
        if reg:
            out.append(heading(2, w(key, lang)))
            out.append(table(["id", w(key, lang)], [[code(x.id), tx(x.name, lang)] for x in reg.values()]))
    if game.lists:
        out.append(heading(2, w("lists", lang)))
        out.append(h("ul", *(h("li", code(lid), ": ", " → ".join(tx(i.name, lang) for i in items))
                             for lid, items in game.lists.items())))
    if game.constants:
        out.append(heading(2, w("constants", lang)))
        out.append(table(["id", w("value", lang)], [[code(k), code(value_text(v))] for k, v in game.constants.items()]))
    ids = [turn.begin] + [n for n in game.time_order("turn") if game.nodes[n].container == "turn"
                          and n not in (turn.begin, turn.end)] + [turn.end]
    out.append(heading(2, w("turn_ends", lang)))
    out.append(node_entries(game, ids, page, lang))
    return Page(page, name, join("\n", out), game.id, "node")


def _words():
    from ...core.words import WORDS

    return WORDS


def _word(key: str, lang: str) -> str:
    from ...core.words import word

    return word(key, lang)


_TIMING_CELL = re.compile(r'<td class="timing (k-[\w-]+)" id="([^"]+)">(.*?)</td>')


def timing_page(game: Game, lang: str) -> Page:
    from .. import tables

    page = f"{game.id}/timing/index.html"

    def cell(mo):  # each timing links to its node entry (the table's text is escaped by tables.table_html)
        nid = html.unescape(mo.group(2))
        href = rel(page, node_page(game, game.nodes[nid]), nid)
        return f'<td class="timing {mo.group(1)}"><a href="{html.escape(href, quote=True)}">{mo.group(3)}</a></td>'

    title = tables.w("title", lang, tx(game.name, lang))

    def grid(view: str) -> Markup:
        return h("div", Markup(_TIMING_CELL.sub(cell, tables.table_html(game, lang, document=False, view=view))),
                 class_="tcg-table-wrap tcg-timing-wrap", data_pagefind_ignore="all")

    # the source's own rows first; every row (the generated boundaries, the bodies of decisions) a click away
    body = join("\n", [heading(1, title), h("p", tables.w("note", lang), "" if lang == "ja" else " ", tables.w("note_seed", lang), class_="tcg-cnote"),
                       grid("seed"), h("details", h("summary", w("timing_full", lang)), grid("full"), class_="tcg-timing-full")])
    return Page(page, title, body, game.id)


def sources_page(game: Game, runs: list[ScenarioRun], lang: str) -> Page:
    page = f"{game.id}/sources/index.html"
    by_section: dict[tuple[str, str | None], list[str]] = {}
    for n in game.nodes.values():
        for c in n.cites:
            by_section.setdefault((c.source, c.section), []).append(n.id)
    others: dict[tuple[str, str | None], list[Markup]] = {}
    for c in game.containers.values():
        for x in c.cites:
            others.setdefault((x.source, x.section), []).append(link_node(game, page, c.begin, code(c.id)))
    for sr in runs:
        for x in sr.scenario.cites:
            others.setdefault((x.source, x.section), []).append(
                a(rel(page, f"{game.id}/scenarios/{sr.stem}.html"), code(sr.scenario.id)))
    title = f"{w('sources', lang)} — {tx(game.name, lang)}"
    out = [heading(1, title)]
    for src in game.sources.values():
        out.append(heading(2, src.title, f"src:{src.id}"))
        facts = [h("li", "id: ", code(src.id))]
        if src.file:
            facts.append(h("li", w("file", lang), ": ", code(src.file)))
        if src.url:
            facts.append(h("li", w("url", lang), ": ", url_link(src.url)))
        out.append(h("ul", *facts))
        out.append(note(src.note, lang))
        rows = []
        for sid, stitle in [(None, "—")] + [(s.id, s.title) for s in src.sections]:
            nodes = by_section.get((src.id, sid), [])
            more = others.get((src.id, sid), [])
            if sid is None and not nodes and not more:
                continue
            cell = join(", ", [link_node(game, page, n) for n in nodes])
            if more:
                cell = join("", [cell, Markup("<br>") if nodes else "", w("cited_by_other", lang), ": ", join(", ", more)])
            name = h("span", stitle, class_="tcg-anchor", id=f"src:{src.id}:{sid}") if sid else w("sources", lang)
            rows.append([name, code(sid) if sid else "—", cell or w("not_cited", lang)])
        out.append(table([w("section", lang), "id", w("cited_by", lang)], rows))
    return Page(page, title, join("\n", out), game.id)
