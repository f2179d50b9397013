"""The node entries of a page: every node in time order, each a block with its stable id as anchor,
its label, what it does and where it leads, its notes and citations, in the page's language."""
from __future__ import annotations

from markupsafe import Markup

from ...core.model import Game
from ..points import by_node, summary
from .markup import (call_text, cite, code, cond_text, h, join, kind_word, link_node, local_no, named, role_text,
                     tx, value_text, w)


def _item(key: str, lang: str, *value) -> Markup:
    return h("li", h("span", w(key, lang), class_="tcg-k"), ": ", *value)


def readings_block(game: Game, readings, page: str, lang: str) -> Markup:
    """The readings of the sources at a node or container: each in the page's language with its
    citations, the one the engine follows marked; a heading says whether the sources disagree
    (the readings cite different documents) or can only be read more than one way."""
    if not readings:
        return Markup("")
    sources = {c.source for r in readings for c in r.cites}
    title = w("readings_disagree" if len(sources) > 1 else "readings_open", lang)
    items = []
    for r in readings:
        mark = h("strong", "✔ ", w("reading_runs", lang)) if r.runs else h("span", w("reading_other", lang))
        cites = join("; ", [cite(game, c, page) for c in r.cites]) if r.cites else ""
        items.append(h("li", mark, ": ", tx(r.says, lang), h("br"), h("small", w("cites", lang), ": ", cites) if cites else "",
                       class_="tcg-reading tcg-runs" if r.runs else "tcg-reading", data_reading=r.id))
    return h("div", h("p", h("strong", w("readings", lang)), " — ", title), h("ul", *items), class_="tcg-readings")


def _to(game: Game, page: str, nid: str, lang: str, arrow: str = "") -> Markup:
    t = game.nodes[nid]
    return link_node(game, page, t.id, f"{arrow}{local_no(game, t)} {tx(t.label, lang)}".strip())


def node_entry(game: Game, nid: str, page: str, depth: int, lang: str) -> Markup:
    from ..charts import style_key, window_facts
    from .phrases import action_words

    node = game.nodes[nid]
    key = style_key(game, node)
    no = local_no(game, node)
    head = h("p", h("span", no, class_="tcg-no") if no else "", h("span", kind_word(game, node, lang), class_="tcg-kind"),
             " ", h("a", nid, class_="tcg-id", href=f"#{nid}", title=nid), class_="tcg-head")
    items: list[Markup] = []
    if node.kind == "player" and node.actor:
        may = f" ({w('may', lang)})" if node.may else ""
        items.append(_item("actor", lang, role_text(game, node.actor, lang) + may))
    if node.action is not None:
        for a in (node.action,) + node.also:
            items.append(_item("does", lang, code(call_text(a.name, a.args))))
    if node.kind == "loop" and node.condition is not None:
        items.append(_item("while", lang, code(cond_text(node.condition))))
    if node.kind == "foreach" and node.over:
        names = " → ".join(tx(i.name, lang) for i in game.lists.get(node.over, ()))
        items.append(_item("over", lang, code(node.over), f" ({names})"))
    if node.kind == "trigger" and node.event:
        items.append(_item("event", lang, named(game.events, node.event, lang), " ", code(node.event)))
    if node.kind == "window" and node.window is not None:
        big, small = window_facts(game, node, lang, action_words)
        items.append(_item("window", lang, " · ".join(big + small)))
    if node.kind == "closed":
        items.append(h("li", w("no_play", lang)))
    if node.kind in ("check", "call") and node.callee and node.callee in game.containers:
        proc = game.containers[node.callee]
        args = join("", [" — ", w("args", lang), ": ", code(", ".join(f"{k}={value_text(v)}" for k, v in node.call_args))]) \
            if node.call_args else ""
        items.append(_item("procedure", lang, link_node(game, page, proc.begin, tx(proc.label, lang)), args))
    if node.kind in ("goto", "exit") and node.target and node.target in game.nodes:
        items.append(_item("goes_to", lang, _to(game, page, node.target, lang)))
    if node.kind == "end_game":
        who = f" — {role_text(game, node.player, lang)}" if node.player else ""
        items.append(_item("result", lang, code(node.result or ""), who))
    if node.choices or node.otherwise:
        sub = []
        for ch in node.choices:
            label = tx(ch.label, lang) if ch.label is not None else ch.id
            when = join("", [" — ", w("when", lang), ": ", code(cond_text(ch.when))]) if ch.when is not None else ""
            note = h("ul", h("li", w("note", lang), ": ", tx(ch.note, lang))) if ch.note is not None else ""
            sub.append(h("li", code(ch.id), " ", h("strong", label), when, " ", _to(game, page, ch.entry, lang, "→ "), note))
        if node.otherwise and node.otherwise in game.nodes:
            sub.append(h("li", h("strong", w("else", lang)), " ", _to(game, page, node.otherwise, lang, "→ ")))
        items.append(_item("options" if node.kind == "player" else "cases", lang, h("ul", *sub)))
    point = by_node(game).get(nid)
    if point is not None:  # a decision point: who decides, and how a scenario's choice answers it
        items.append(_item("decision", lang, summary(game, point, lang), " ", code(point.choice())))
    if node.note is not None:
        items.append(_item("note", lang, tx(node.note, lang)))
    if node.cites:
        cites = [cite(game, c, page) for c in node.cites]
        items.append(_item("cites", lang, cites[0]) if len(cites) == 1 else
                     _item("cites", lang, h("ul", *(h("li", c) for c in cites))))
    body = [head, h("p", tx(node.label, lang), class_="tcg-label")]
    if items:
        body.append(h("ul", *items))
    if node.readings:
        body.append(readings_block(game, node.readings, page, lang))
    # each node is a search record of its own (search.node_records): its entry is left out of the page's
    return h("div", *body, class_=f"tcg-node k-{key} tcg-d{min(depth, 6)}", id=nid, data_pagefind_ignore="all")


def node_entries(game: Game, ids: list[str], page: str, lang: str) -> Markup:
    """Every node in time order; a container's step starts a section; nodes inside an option, case or
    loop body are indented under the option's label, like the sources' lists."""
    from .pages import heading, note

    out: list[Markup] = []
    depth: dict[str, int] = {}
    first_of_body: set[tuple[str, str]] = set()
    for nid in ids:
        node = game.nodes[nid]
        c = game.containers.get(node.container)
        if c is not None and c.kind == "step" and nid == c.begin:
            out.append(heading(3, tx(c.label, lang)))
            if c.note is not None:
                out.append(note(c.note, lang))
            out.append(readings_block(game, c.readings, page, lang))
        parent, body = game.enclosing(node)
        d = depth.get(parent.id, 0) + 1 if parent is not None else 0
        depth[nid] = d
        if parent is not None and (parent.id, body) not in first_of_body:
            first_of_body.add((parent.id, body))
            if parent.kind in ("loop", "foreach"):
                context = f"↻ {local_no(game, parent)} {tx(parent.label, lang)}"
            elif body == "else":
                context = f"◇ {local_no(game, parent)} {w('else', lang)}"
            else:
                ch = next((x for x in parent.choices if x.id == body), None)
                mark = "▸" if parent.kind == "player" else "◇"
                label = tx(ch.label, lang) if ch is not None and ch.label is not None else body
                context = f"{mark} {local_no(game, parent)} {label}"
            out.append(h("p", context, class_=f"tcg-context tcg-d{min(d, 6)}"))
        out.append(node_entry(game, nid, page, d, lang))
    return join("\n", out)
