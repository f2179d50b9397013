"""The rulings of a game on the site, in one language: the list (grouped by topic) and one page per
ruling - the question, the answer, its citations, the mark that ``tcgtiming check`` found every
fact of it holding during this build (a failing ruling stops the build, so no page of it is ever
written without it), the facts it checks, the run's path over the turn chart and its brief trace,
and the ruling file."""
from __future__ import annotations

from ...core.model import Game, Text
from ...core.ruling import TOPICS
from .inputs import RulingRun
from .markup import a, cite, code, h, join, link_node, tx, w
from .pages import Page, Pages, crumbs, heading
from .scenario_pages import trace_table


def ruling_page(p: Pages, game: Game, rr: RulingRun) -> Page:
    lang = p.lang
    r = rr.ruling
    page = f"{game.id}/rulings/{rr.stem}.html"
    title = tx(r.question, lang)
    out = [heading(1, title, "question"),
           crumbs(link_node(game, page, game.turn.begin, tx(game.name, lang)), a("index.html", w("rulings", lang)),
                  code(r.id))]
    out.append(h("p", "✔ ", w("ruling_checked", lang, rr.facts), class_="tcg-checked", data_checked="true"))
    out.append(heading(2, w("ruling_answer", lang), "answer"))
    out.append(h("div", h("p", tx(r.answer, lang)), class_="tcg-answer"))
    facts = [[w("topics", lang), ": ", join(", ", [w(f"topic_{t}", lang) for t in r.topics])],
             [w("cites", lang), ": ", join("; ", [cite(game, c, page) for c in r.cites])]]
    if r.uses:
        facts.append([w("ruling_uses", lang), ": ",
                      a(f"../scenarios/{rr.scenario_stem}.html", tx(r.scenario.title, lang))])
    out.append(h("ul", *(h("li", *f) for f in facts)))
    if rr.run is None:  # the answer is a refusal: the run stops before it ends
        refused = r.expect.facts.refused
        out.append(h("p", w("ruling_refused", lang, " ".join(x for x in (refused.code, *refused.names) if x))))
    else:
        out.append(heading(2, w("trace_chart", lang)))
        out.append(p.chart(page, f"overlays/{game.id}/ruling-{rr.stem}",
                           Text(f"{r.question.ja}の実行", f"the run of: {r.question.en}")))
        out.append(heading(2, w("trace_brief", lang)))
        out.append(h("div", trace_table(game, rr, page, lang, True), class_="tcg-trace", data_pagefind_ignore="all"))
    out.append(h("details", h("summary", w("ruling_file", lang), ": ", code(rr.shown)),
                 h("pre", h("code", rr.text)), class_="tcg-source", data_pagefind_ignore="all"))
    return Page(page, f"{title} — {tx(game.name, lang)}", join("\n", out), game.id)


def rulings_index(game: Game, rulings: list[RulingRun], lang: str) -> Page:
    page = f"{game.id}/rulings/index.html"
    title = f"{w('rulings', lang)} — {tx(game.name, lang)}"
    out = [heading(1, title), crumbs(link_node(game, page, game.turn.begin, tx(game.name, lang))),
           h("p", w("rulings_note", lang, len(rulings)), class_="tcg-cnote")]
    for t in TOPICS:
        here = [rr for rr in rulings if t in rr.ruling.topics]
        if not here:
            continue
        out.append(heading(2, w(f"topic_{t}", lang), f"topic-{t}"))
        out.append(h("ul", *(h("li", a(f"{rr.stem}.html", tx(rr.ruling.question, lang)), " ",
                               h("span", "✔", class_="tcg-checked", title=w("ruling_checked", lang, rr.facts)))
                             for rr in here)))
    return Page(page, title, join("\n", out), game.id)


def ruling_items(game: Game, rulings: list[RulingRun], lang: str) -> list[tuple[str, str]]:
    """(title, path) of the navigation's rulings entries."""
    return [(tx(rr.ruling.question, lang), f"{game.id}/rulings/{rr.stem}.html") for rr in rulings]

