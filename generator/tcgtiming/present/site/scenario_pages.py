"""The pages of the example scenarios, in one language: the list of a game's scenarios, and one page
per scenario (what it demonstrates, its set-up and outcome, its path drawn over the turn chart, the
brief trace with its node ids linked, the board at the end, the full trace folded, the scenario
file)."""
from __future__ import annotations

from markupsafe import Markup

from ...core.model import Game, Text
from ..explore import outcome_words
from .inputs import ScenarioRun
from .markup import a, cite, code, h, join, link_node, tx, w
from .legend import traced_legend
from .pages import Page, Pages, crumbs, heading, table
from .player import player


def trace_table(game: Game, sr: ScenarioRun, page: str, lang: str, brief: bool) -> Markup:
    """The run as a table: #, node (linked to its entry), who, what happened, and the state beside
    it (pending abilities, the stack, priority)."""
    from ...runtime.trace import Formatter, compact

    fmt = Formatter(game, sr.scenario, lang)
    names = sr.names
    rows = []
    for e, folded in (compact(sr.run.entries) if brief else [(e, False) for e in sr.run.entries]):
        node = game.nodes.get(e.node)
        nid = link_node(game, page, e.node, code(e.node)) if node is not None else code(e.node)
        state = []
        pend = fmt.pending(e)
        if pend:
            state.append(f"{w('pending', lang)}: {pend}")
        if e.stack:
            state.append(f"{w('stack', lang)}: {fmt.stack(e)}")
        if e.priority:
            state.append(f"{w('window', lang)}: {names.get(e.priority, e.priority)}")
        rows.append([str(e.seq), nid, names.get(e.actor, e.actor) or "", fmt.what(e, folded), " · ".join(state)])
    head = ["#", w("node", lang), w("who", lang), w("what", lang), w("state", lang)]
    return table(head, rows, "tcg-trace-table")


def board(game: Game, sr: ScenarioRun, lang: str) -> Markup:
    """The zones of each player at the end of the run, the cards by name."""
    cards = sr.scenario.cards
    rows = []
    for pid, zones in sr.run.zones:
        for z, ids in zones:
            zone = game.zones.get(z)
            rows.append([f"{sr.names.get(pid, pid)}", tx(zone.name, lang) if zone is not None else z,
                         ", ".join(cards[c].name if c in cards else c for c in ids) or "—", str(len(ids))])
    return table([w("players", lang), w("zones", lang), w("cards", lang), "#"], rows, "tcg-board")


def scenario_page(p: Pages, game: Game, sr: ScenarioRun) -> Page:
    lang = p.lang
    sc, run = sr.scenario, sr.run
    page = f"{game.id}/scenarios/{sr.stem}.html"
    title = tx(sc.title, lang)
    names = sr.names
    out = [heading(1, title),
           crumbs(link_node(game, page, game.turn.begin, tx(game.name, lang)), a("index.html", w("scenarios", lang)),
                  code(sc.id))]
    out.append(heading(2, w("demonstrates", lang)))
    out.append(h("div", h("p", tx(sc.demonstrates, lang) or "—"), class_="tcg-demo"))
    said = outcome_words(run.result, [names.get(x, x) for x in run.losers], lang)
    facts = [
        [w("turn_player", lang), ": ", names.get(sc.turn_player, sc.turn_player), " (", code(sc.turn_player), ")"],
        [w("first_turn", lang), ": ", w("yes" if sc.first_turn else "no", lang)],
        [w("turns_run", lang), f": {sc.turns} · ", w("seed", lang), f": {sc.seed} · ", w("policy", lang), ": ",
         code(sc.policy)],
        [w("players", lang), ": ", join(", ", [join("", [name, " (", code(pid), ")"]) for pid, name, _ in sc.players])],
        [w("outcome", lang), ": ", said, " (", code(run.result), f") · {len(run.entries)} ", w("entries", lang)],
    ]
    if sc.cites:
        facts.append([w("cites", lang), ": ", join("; ", [cite(game, c, page) for c in sc.cites])])
    out.append(heading(2, w("setup", lang)))
    out.append(h("ul", *(h("li", *f) for f in facts)))
    out.append(heading(2, w("trace_chart", lang)))
    out.append(h("p", w("player_note", lang), class_="tcg-cnote"))
    chart = p.chart(page, f"overlays/{game.id}/{sr.stem}", Text(f"{sc.title.ja}のトレース", f"the trace of {sc.title.en}"),
                    traced_legend(game, p.lang))
    out.append(player(game, sr, lang, page, chart))
    out.append(heading(2, w("trace_brief", lang)))
    out.append(h("p", w("trace_brief_note", lang), class_="tcg-cnote"))
    out.append(h("div", trace_table(game, sr, page, lang, True), class_="tcg-trace", data_pagefind_ignore="all"))
    out.append(heading(2, w("board", lang)))
    out.append(board(game, sr, lang))
    out.append(h("details", h("summary", w("trace_full", lang), f" ({len(run.entries)})"),
                 h("div", trace_table(game, sr, page, lang, False), class_="tcg-trace"),
                 class_="tcg-full-trace", data_pagefind_ignore="all"))
    out.append(h("details", h("summary", w("scenario_file", lang), ": ", code(sr.shown)),
                 h("pre", h("code", sr.text)), class_="tcg-source", data_pagefind_ignore="all"))
    return Page(page, f"{title} — {tx(game.name, lang)}", join("\n", out), game.id, scripts=("assets/player.js",))


def scenarios_index(game: Game, runs: list[ScenarioRun], lang: str) -> Page:
    page = f"{game.id}/scenarios/index.html"
    title = f"{w('scenarios', lang)} — {tx(game.name, lang)}"
    out = [heading(1, title), crumbs(link_node(game, page, game.turn.begin, tx(game.name, lang)))]
    for sr in runs:
        sc = sr.scenario
        out.append(h("h2", a(f"{sr.stem}.html", tx(sc.title, lang)), id=sr.stem))
        if sc.demonstrates is not None:
            out.append(h("p", tx(sc.demonstrates, lang)))
        out.append(h("p", code(sc.id), " · ", code(sr.run.result), f" · {len(sr.run.entries)} ", w("entries", lang),
                     class_="tcg-crumbs"))
    return Page(page, title, join("\n", out), game.id)

