"""The pages of a game: the overview of the turn, one page per phase and per procedure, the
timing-chart table and the sources; and ``Pages``, the pages generated so far with the chart files
beside them."""
from __future__ import annotations

import html
import posixpath
import re
from pathlib import Path

from ...core.model import Game, Text
from ...core.words import WORDS
from .inputs import ScenarioRun
from .markup import (attr, bi, both, call_text, chart_file, cite_md, code, cond_text, esc, front_matter, hb,
                     heading, html_url, link_node, node_page, note_para, para, rel, value_text, w)
from .nodes import node_entries


class Pages:
    """The generated pages (docs path -> text) and the files beside them (charts, hand-written assets)."""

    def __init__(self, drawn: Path):
        self.drawn = drawn  # the folder draw_charts wrote (charts/, overlays/)
        self.pages: dict[str, str] = {}
        self.files: dict[str, object] = {}  # docs path -> text, or a file to copy (Path or Traversable)

    def chart(self, page: str, svg_rel: str, alt: str, lang: str) -> str:
        """A chart on a page: the SVG file beside the page (charts/), shown in an <object> so that its
        links and tooltips work, drawn 1 point = 1 CSS pixel (11 px labels)."""
        at = posixpath.join(posixpath.dirname(page), "charts", posixpath.basename(svg_rel))
        text, width, height = chart_file((self.drawn / svg_rel).read_text(encoding="utf-8"), at)
        self.files[at] = text
        href = attr(rel(html_url(page), at))
        return (f'<div class="tcg-chart" lang="{lang}">\n<object type="image/svg+xml" data="{href}" '
                f'width="{width:g}" height="{height:g}" aria-label="{attr(alt)}"></object>\n</div>\n'
                f'<p class="tcg-chart-link"><a href="{href}">{html.escape(w("full_size", lang))}</a></p>\n')

    def charts_block(self, page: str, svg_base: str, alt: Text) -> str:
        """The Japanese chart, and the English one folded below it."""
        ja = self.chart(page, f"{svg_base}.ja.svg", alt.ja, "ja")
        en = self.chart(page, f"{svg_base}.en.svg", alt.en, "en")
        return (f"{ja}\n<details class=\"tcg-en-chart\">\n<summary>{html.escape(both('chart_en'))}</summary>\n\n"
                f"{en}\n</details>\n")

# --- pages ----------------------------------------------------------------------------------------


def _counts(game: Game, cid: str) -> dict[str, int]:
    ids = [n for n in game.time_order(cid) if game.nodes[n].kind not in ("begin", "end")]
    kinds = [game.nodes[n].kind for n in ids]
    return {"nodes": len(ids), "player": kinds.count("player"), "check": kinds.count("check"),
            "window": kinds.count("window")}


def container_page(p: Pages, game: Game, cid: str) -> str:
    c = game.containers[cid]
    page = f"{game.id}/{cid}.md"
    out = [front_matter(f"{c.label.ja} / {c.label.en} — {game.name.ja}")]
    out.append(f"# {heading(c.label.ja, c.label.en)}\n")
    out.append(para(f"{link_node(game, page, game.turn.begin, bi(game.name))} · "
                    f"{esc(both('phases' if c.kind == 'phase' else 'procedures'))} · {code(cid)}", "tcg-crumbs"))
    if c.note is not None:
        out.append(note_para(c.note))
    if c.cites:
        out.append(f"{both('cites')}: " + "; ".join(cite_md(game, x, page) for x in c.cites) + "\n")
    if c.params:
        out.append(f"{both('args')}: " + ", ".join(code(x) for x in c.params) + "\n")
    if c.kind == "procedure":
        callers = sorted({e.src for e in game.edges if e.kind == "call" and e.dst == c.begin},
                         key=list(game.nodes).index)
        if callers:
            out.append(f"{both('called_from')}: " + ", ".join(link_node(game, page, x) for x in callers) + "\n")
    if c.children:
        out.append(f"{both('steps')}: " + " → ".join(
            link_node(game, page, game.containers[s].begin, bi(game.containers[s].label)) for s in c.children) + "\n")
    out.append(f"\n## {heading(w('chart', 'ja'), w('chart', 'en'))}\n")
    out.append(p.charts_block(page, f"charts/{game.id}/{cid}", Text(f"{c.label.ja}のチャート", f"chart of the {c.label.en}")))
    out.append(f"\n## {heading(w('nodes', 'ja'), w('nodes', 'en'))}\n")
    out.append(node_entries(game, game.time_order(cid), page))
    return "\n".join(out)


def overview_page(p: Pages, game: Game, runs: list[ScenarioRun]) -> str:
    page = f"{game.id}/turn.md"
    turn = game.turn
    out = [front_matter(f"{game.name.ja} / {game.name.en}")]
    out.append(f"# {heading(game.name.ja, game.name.en)}\n")
    if game.note is not None:
        out.append(note_para(game.note))
    out.append(f"\n## {heading(WORDS['site.turn'][0], WORDS['site.turn'][1])}\n")
    out.append(p.charts_block(page, f"charts/{game.id}/turn", Text(f"{game.name.ja}のターンの流れ", f"the turn of {game.name.en}")))
    swap = both("roles_swap" if game.roles_swap else "no_swap")
    out.append(f"\n{swap}\n")
    out.append(f"\n## {heading(WORDS['site.phases'][0], WORDS['site.phases'][1])}\n")
    out.append(f"| # | {hb('phases')} | {hb('steps')} | {hb('count.nodes')} | {hb('count.player')} | "
               f"{hb('count.check')} | {hb('count.window')} |")
    out.append("|---:|---|---|---:|---:|---:|---:|")
    for i, ph in enumerate(game.phases, 1):
        k = _counts(game, ph.id)
        steps = "<br>".join(link_node(game, page, game.containers[s].begin, bi(game.containers[s].label))
                            for s in ph.children) or "—"
        out.append(f"| {i} | {link_node(game, page, ph.begin, bi(ph.label))} | {steps} | {k['nodes']} | "
                   f"{k['player']} | {k['check']} | {k['window']} |")
    if game.procedures:
        out.append(f"\n## {heading(WORDS['site.procedures'][0], WORDS['site.procedures'][1])}\n")
        out.append(f"| {hb('procedures')} | id | {hb('count.nodes')} | {hb('called_from')} |")
        out.append("|---|---|---:|---:|")
        for pr in game.procedures:
            calls = sum(1 for e in game.edges if e.kind == "call" and e.dst == pr.begin)
            out.append(f"| {link_node(game, page, pr.begin, bi(pr.label))} | {code(pr.id)} | "
                       f"{_counts(game, pr.id)['nodes']} | {calls} |")
    out.append(f"\n## {heading(WORDS['site.roles'][0], WORDS['site.roles'][1])}\n")
    out.append(f"| id | {hb('roles')} | {hb('seat')} |")
    out.append("|---|---|---|")
    for r in game.roles.values():
        seat = r.get("seat")
        out.append(f"| {code(r.id)} | {bi(r.name)} | {both('seat.' + seat) if ('site.seat.' + str(seat)) in WORDS else esc(str(seat))} |")
    if game.rule_processes:
        out.append(f"\n## {heading(WORDS['site.rule_processes'][0], WORDS['site.rule_processes'][1])}\n")
        out.append(f"| id | {hb('rule_processes')} | type | {hb('when')} | {hb('does')} |")
        out.append("|---|---|---|---|---|")
        for rp in game.rule_processes.values():
            t = both("type." + rp.type) if ("site.type." + rp.type) in WORDS else esc(rp.type)
            when = code(cond_text(rp.when)) if rp.when is not None else "—"
            does = "<br>".join(code(call_text(a.name, a.args)) for a in rp.actions) or "—"
            out.append(f"| {code(rp.id)} | {bi(rp.name)} | {t} | {when} | {does} |")
    for key, reg in (("zones", game.zones), ("events", game.events), ("plays", game.plays)):
        if reg:
            out.append("\n## " + heading(*WORDS["site." + key]) + "\n")
            out.append(f"| id | {both(key)} |")
            out.append("|---|---|")
            out += [f"| {code(x.id)} | {bi(x.name)} |" for x in reg.values()]
    if game.lists:
        out.append(f"\n## {heading(WORDS['site.lists'][0], WORDS['site.lists'][1])}\n")
        for lid, items in game.lists.items():
            out.append(f"- {code(lid)}: " + " → ".join(bi(i.name) for i in items))
    if game.constants:
        out.append(f"\n## {heading(WORDS['site.constants'][0], WORDS['site.constants'][1])}\n")
        out.append("| id | value |")
        out.append("|---|---|")
        out += [f"| {code(k)} | {code(value_text(v))} |" for k, v in game.constants.items()]
    out.append(f"\n## {heading(WORDS['site.scenarios'][0], WORDS['site.scenarios'][1])}\n")
    out.append(f"[{esc(both('scenario_list'))}](scenarios/index.md) ({len(runs)}) · "
               f"[{esc(both('timing'))}](timing/index.md) · [{esc(both('sources'))}](sources/index.md)\n")
    ids = [turn.begin] + [n for n in game.time_order("turn") if game.nodes[n].container == "turn"
                          and n not in (turn.begin, turn.end)] + [turn.end]
    out.append(f"\n## {heading('ターンの開始と終了', 'start and end of the turn')}\n")
    out.append(node_entries(game, ids, page))
    return "\n".join(out)


_TIMING_CELL = re.compile(r'<td class="timing (k-[\w-]+)" id="([^"]+)">(.*?)</td>')


def timing_page(game: Game) -> str:
    from .. import tables

    page = f"{game.id}/timing/index.md"

    def table(lang: str) -> str:
        def cell(mo):
            nid = html.unescape(mo.group(2))
            href = rel(html_url(page), html_url(node_page(game, game.nodes[nid])), nid)
            return f'<td class="timing {mo.group(1)}"><a href="{attr(href)}">{mo.group(3)}</a></td>'

        return _TIMING_CELL.sub(cell, tables.table_html(game, lang, document=False))

    out = [front_matter(f"{WORDS['site.timing'][0]} / {WORDS['site.timing'][1]} — {game.name.ja}")]
    out.append(f"# {heading(tables.w('title', 'ja', game.name.ja), tables.w('title', 'en', game.name.en))}\n")
    out.append(note_para(Text(tables.w("note", "ja"), tables.w("note", "en")), ""))
    out.append(f'<div class="tcg-table-wrap" markdown="0">\n{table("ja")}</div>\n')
    out.append(f"<details class=\"tcg-en-table\">\n<summary>{esc(both('table_en'))}</summary>\n\n"
               f'<div class="tcg-table-wrap" markdown="0">\n{table("en")}</div>\n\n</details>\n')
    return "\n".join(out)


def sources_page(game: Game, runs: list[ScenarioRun]) -> str:
    page = f"{game.id}/sources/index.md"
    by_section: dict[tuple[str, str | None], list[str]] = {}
    for n in game.nodes.values():
        for c in n.cites:
            by_section.setdefault((c.source, c.section), []).append(n.id)
    others: dict[tuple[str, str | None], list[str]] = {}
    for c in game.containers.values():
        for x in c.cites:
            others.setdefault((x.source, x.section), []).append(
                link_node(game, page, c.begin, code(c.id)))
    for sr in runs:
        for x in sr.scenario.cites:
            others.setdefault((x.source, x.section), []).append(
                f"[{code(sr.scenario.id)}]({rel(page, f'{game.id}/scenarios/{sr.stem}.md')})")
    out = [front_matter(f"{WORDS['site.sources'][0]} / {WORDS['site.sources'][1]} — {game.name.ja}")]
    out.append(f"# {heading(WORDS['site.sources'][0] + ' — ' + game.name.ja, WORDS['site.sources'][1] + ' — ' + game.name.en)}\n")
    for src in game.sources.values():
        out.append(f'\n<div class="tcg-anchor" id="{attr("src:" + src.id)}"></div>\n')
        out.append(f"## {esc(src.title)}\n")
        facts = [f"id: {code(src.id)}"]
        if src.file:
            facts.append(f"{both('file')}: {code(src.file)}")
        if src.url:
            facts.append(f"{both('url')}: <{src.url}>")
        out.append("\n".join(f"- {x}" for x in facts) + "\n")
        if src.note is not None:
            out.append(note_para(src.note))
        rows = [(None, "—")] + [(s.id, s.title) for s in src.sections]
        out.append(f"| {hb('section')} | id | {hb('cited_by')} |")
        out.append("|---|---|---|")
        for sid, title in rows:
            nodes = by_section.get((src.id, sid), [])
            more = others.get((src.id, sid), [])
            if sid is None and not nodes and not more:
                continue
            anchor = f"src:{src.id}" + (f":{sid}" if sid else "")
            cell = ", ".join(link_node(game, page, n) for n in nodes)
            if more:
                cell += ("<br>" if cell else "") + f"{both('cited_by_other')}: " + ", ".join(more)
            name = f'<span class="tcg-anchor" id="{attr(anchor)}"></span>{esc(title)}' if sid else \
                esc(both("sources"))
            out.append(f"| {name} | {code(sid) if sid else '—'} | {cell or esc(both('not_cited'))} |")
    return "\n".join(out)

