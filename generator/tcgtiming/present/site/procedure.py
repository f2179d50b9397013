"""A phase or procedure as the sources write it: numbered lists (1., 2., 3.), the options and cases of
a decision nested under it with their own numbered lists, "back to 2." links for the ways back, each
item in the colour of its kind, conditions said in words from the catalogue, and the rule file's code
form for rule writers behind one switch of the page. Start and end are anchors, not items: a step is a
heading with its chart (large phases) or without."""
from __future__ import annotations

from markupsafe import Markup

from ...core.model import Game, Node
from .markup import (
    call_text,
    cite,
    code,
    cond_text,
    h,
    join,
    link_node,
    named,
    role_text,
    tx,
    value_text,
    w,
)
from .nodes import readings_block
from .phrases import action_words, cond_words

# --- the numbered lists --------------------------------------------------------------------------


class Numbers:
    """Each item's number as the chart shows it too (``charts.item_numbers``: ``3.``, ``3.1.``), the
    items of each list, and the way to say an item in a link: its number, with the option or case
    whose list holds it (``3.1.（置いたら）``)."""

    def __init__(self, game: Game, ids: list[str], lang: str):
        from ..charts import item_numbers

        self.game, self.lang = game, lang
        self.kids: dict[tuple[str | None, str, str], list[str]] = {}  # (parent, body, container) -> items
        for nid in ids:
            n = game.nodes[nid]
            if n.kind in ("begin", "end"):
                continue
            self.kids.setdefault((n.parent, n.body, n.container if n.parent is None else ""), []).append(nid)
        self.label = item_numbers(game)

    def items(self, parent: str | None, body: str, container: str = "") -> list[str]:
        return self.kids.get((parent, body, container if parent is None else ""), [])

    def no(self, nid: str) -> str:
        return self.label[nid] + "." if nid in self.label else ""

    def path(self, nid: str) -> str:
        n = self.game.nodes[nid]
        if n.kind in ("begin", "end"):
            c = self.game.containers.get(n.container)
            return tx(c.label, self.lang) if c is not None else nid
        if n.parent is None:
            return self.no(nid)
        p = self.game.nodes[n.parent]
        ch = next((x for x in p.choices if x.id == n.body), None)
        via = tx(ch.label, self.lang) if ch is not None and ch.label is not None else (
            w("else", self.lang) if n.body == "else" else "")
        return self.no(nid) + (("（" + via + "）" if self.lang == "ja" else f" ({via})") if via else "")


def _meta(game: Game, node: Node, page: str, key: str, nums: Numbers, lang: str) -> list:
    """What the item says beside its label, in words: who acts, the procedure it runs, where it goes."""
    from ..charts.labels import call_args_text, window_facts

    out: list = []
    if node.action is not None and node.action.name != "pass":  # what happens, in words (the code is behind the switch)
        out.append(h("span", action_words(game, node.action, lang), class_="tcg-does"))
    if node.kind == "player" and node.actor:
        out.append(role_text(game, node.actor, lang) + (f" · {w('may', lang)}" if node.may else ""))
    if node.kind == "window" and node.window is not None:
        big, small = window_facts(game, node, lang, action_words)
        out.append(" · ".join(big + small))
    if node.kind == "closed":
        out.append(w("no_play", lang))
    if node.kind == "trigger" and node.event:
        out.append(named(game.events, node.event, lang))
    if node.kind in ("check", "call") and node.callee and node.callee in game.containers:
        proc = game.containers[node.callee]
        name = tx(proc.label, lang)  # the procedure's name, or the word 'procedure' when the label says it already
        out.append(link_node(game, page, proc.begin, "→ " + (name if name != tx(node.label, lang) else w("procedure", lang))))
        if node.call_args:
            out.append(call_args_text(node, lang))
    if node.kind in ("goto", "exit") and node.target and node.target in game.nodes:
        back = key == "goto"
        out.append(link_node(game, page, node.target, ("↩ " if back else "→ ")
                             + w("back_to" if back else "go_to", lang, nums.path(node.target))))
    if node.kind == "loop" and node.condition is not None:
        out.append(h("span", w("while", lang), ": ", cond_words(game, node.condition, lang), class_="tcg-cond"))
    if node.kind == "foreach" and node.over:
        out.append(" → ".join(tx(i.name, lang) for i in game.lists.get(node.over, ())))
    if node.kind == "end_game" and node.player:
        out.append(role_text(game, node.player, lang))
    return out


def _code(node: Node) -> Markup:
    parts = [node.id, node.kind]
    if node.action is not None:
        parts += [call_text(a.name, a.args) for a in (node.action,) + node.also]
    if node.condition is not None:
        parts.append("while " + cond_text(node.condition))
    if node.callee:
        parts.append("call " + node.callee + ("(" + ", ".join(f"{k}={value_text(v)}" for k, v in node.call_args) + ")"
                                              if node.call_args else ""))
    if node.result:
        parts.append(f"result={node.result}")
    return h("span", code(" · ".join(parts)), class_="tcg-code")


def _item(game: Game, nid: str, page: str, nums: Numbers, lang: str) -> Markup:
    from ..charts import style_key

    node = game.nodes[nid]
    key = style_key(game, node)
    meta = _meta(game, node, page, key, nums, lang)
    line = [h("a", tx(node.label, lang), href=f"#{nid}", class_="tcg-label")]
    if meta:
        line.append(h("span", join(" · ", meta), class_="tcg-meta"))
    line.append(_code(node))
    body: list[Markup] = [h("p", *line, class_="tcg-line")]
    small = []
    if node.note is not None:
        small.append(h("p", tx(node.note, lang), class_="tcg-inote"))
    if node.cites:
        small.append(h("p", w("cites", lang), ": ", join("; ", [cite(game, c, page) for c in node.cites]), class_="tcg-icite"))
    body += small
    if node.readings:
        body.append(readings_block(game, node.readings, page, lang))
    if node.choices or node.otherwise:
        cases = []
        for ch in node.choices:
            label = tx(ch.label, lang) if ch.label is not None else ch.id
            when = h("span", " — ", cond_words(game, ch.when, lang), h("span", code(cond_text(ch.when)), class_="tcg-code"),
                     class_="tcg-cond") if ch.when is not None else ""
            note = h("p", tx(ch.note, lang), class_="tcg-inote") if ch.note is not None else ""
            cases.append(h("li", h("span", label, class_="tcg-case-label"), when, note,
                           _list(game, nums.items(nid, ch.id), page, nums, lang), class_="tcg-case", data_case=ch.id))
        if node.otherwise and (nums.items(nid, "else") or node.otherwise not in game.nodes or
                               (nid, node.otherwise, "else") not in _never(game)):
            cases.append(h("li", h("span", w("else", lang), class_="tcg-case-label"),
                           _list(game, nums.items(nid, "else"), page, nums, lang), class_="tcg-case", data_case="else"))
        body.append(h("ul", *cases, class_=f"tcg-cases k-{key}"))
    if node.kind in ("loop", "foreach"):
        body.append(_list(game, nums.items(nid, ""), page, nums, lang))
    # each node is a search record of its own (search.node_records): its entry is left out of the page's
    return h("li", *body, class_=f"tcg-node k-{key}", id=nid, data_no=nums.no(nid), data_pagefind_ignore="all")


def _never(game: Game):
    from ..charts import never_taken

    return never_taken(game)


def _list(game: Game, ids: list[str], page: str, nums: Numbers, lang: str) -> Markup:
    if not ids:
        return Markup()
    return h("ol", *(_item(game, i, page, nums, lang) for i in ids), class_="tcg-proc")


def _anchor(nid: str) -> Markup:
    return h("span", "", id=nid, class_="tcg-anchor")


def procedure_list(game: Game, cid: str, page: str, lang: str, step_chart=None) -> Markup:
    """A phase or procedure as numbered lists: its own items, then each step under its heading (the
    heading holds the step's start; step_chart(step id) gives what goes under it, e.g. its chart)."""
    from .pages import heading, note

    c = game.containers[cid]
    nums = Numbers(game, game.time_order(cid), lang)
    toggle = h("label", h("input", type="checkbox", class_="tcg-code-switch"), " ", w("code_toggle", lang), class_="tcg-code-toggle")
    out = [toggle, _anchor(c.begin), _list(game, nums.items(None, "", cid), page, nums, lang)]
    for s in c.children:
        sc = game.containers[s]
        out.append(_anchor(sc.begin))  # where the charts' links to the step land: its heading
        out.append(heading(3, tx(sc.label, lang)))
        if sc.note is not None:
            out.append(note(sc.note, lang))
        if sc.cites:
            out.append(h("p", w("cites", lang), ": ", join("; ", [cite(game, x, page) for x in sc.cites]), class_="tcg-icite"))
        out.append(readings_block(game, sc.readings, page, lang))
        if step_chart is not None:
            out.append(step_chart(s))
        out.append(_list(game, nums.items(None, "", s), page, nums, lang))
        out.append(_anchor(sc.end))
    out.append(_anchor(c.end))
    return h("div", join("\n", out), class_="tcg-procedure")
