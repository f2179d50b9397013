"""The node entries of a page: every node in time order, each a block with its stable id as anchor,
its labels in both languages, what it does and where it leads, its notes and citations."""
from __future__ import annotations

from ...core.model import Game
from .markup import (attr, bi, both, call_text, cite_md, code, cond_text, esc, heading, kind_words, link_node,
                     local_no, named, note_para, para, role_text, value_text)


def node_entry(game: Game, nid: str, page: str, depth: int, context: str) -> str:
    from ..charts import window_lines, style_key

    node = game.nodes[nid]
    key = style_key(game, node)
    kja, ken = kind_words(game, node)
    out = []
    if context:
        out.append(para(context, f"tcg-context tcg-d{min(depth, 6)}"))
    out.append(f'<div class="tcg-node k-{key} tcg-d{min(depth, 6)}" id="{attr(nid)}" markdown="1">\n')
    no = local_no(node)
    head = [f'<span class="tcg-no">{esc(no)}</span>'] if no else []
    head.append(f'<span class="tcg-kind">{esc(kja)} · <span lang="en">{esc(ken)}</span></span>')
    head.append(f'<a class="tcg-id" href="#{attr(nid)}" title="{attr(nid)}">{esc(nid)}</a>')
    out.append(" ".join(head) + "\n{: .tcg-head }\n")
    out.append(f'<span lang="ja">{esc(node.label.ja)}</span><br>\n<span lang="en">{esc(node.label.en)}</span>\n'
               "{: .tcg-label }\n")
    items: list[str] = []
    if node.kind == "player" and node.actor:
        may = f" ({both('may')})" if node.may else ""
        items.append(f"{both('actor')}: {role_text(game, node.actor)}{may}")
    if node.action is not None:
        items.append(f"{both('does')}: {code(call_text(node.action.name, node.action.args))}")
    if node.kind == "loop" and node.condition is not None:
        items.append(f"{both('while')}: {code(cond_text(node.condition))}")
    if node.kind == "foreach" and node.over:
        names = " → ".join(bi(i.name) for i in game.lists.get(node.over, ()))
        items.append(f"{both('over')}: {code(node.over)} ({names})")
    if node.kind == "trigger" and node.event:
        items.append(f"{both('event')}: {named(game.events, node.event)} {code(node.event)}")
    if node.kind == "window" and node.window is not None:
        ja_key, ja_small = window_lines(game, node, "ja")
        en_key, en_small = window_lines(game, node, "en")
        items.append(f"{both('window')}: {esc(' '.join(ja_key))} · {esc(' · '.join(ja_small))}<br>"
                     f'<span lang="en">{esc(" ".join(en_key))} · {esc(" · ".join(en_small))}</span>')
    if node.kind == "closed":
        items.append(both("no_play"))
    if node.kind in ("check", "call") and node.callee and node.callee in game.containers:
        proc = game.containers[node.callee]
        target = link_node(game, page, proc.begin, bi(proc.label))
        args = f" — {both('args')}: {code(', '.join(f'{k}={value_text(v)}' for k, v in node.call_args))}" \
            if node.call_args else ""
        items.append(f"{both('procedure')}: {target}{args}")
    if node.kind in ("goto", "exit") and node.target and node.target in game.nodes:
        t = game.nodes[node.target]
        items.append(f"{both('goes_to')}: {link_node(game, page, t.id, f'{esc(local_no(t))} {bi(t.label)}'.strip())}")
    if node.kind == "end_game":
        who = f" — {role_text(game, node.player)}" if node.player else ""
        items.append(f"{both('result')}: {code(node.result or '')}{who}")
    if node.choices or node.otherwise:
        word = "options" if node.kind == "player" else "cases"
        sub = []
        for ch in node.choices:
            label = bi(ch.label) if ch.label is not None else esc(ch.id)
            when = f" — {both('when')}: {code(cond_text(ch.when))}" if ch.when is not None else ""
            t = game.nodes[ch.entry]
            to = link_node(game, page, t.id, f"→ {esc(local_no(t))} {bi(t.label)}")
            sub.append(f"    - {code(ch.id)} **{label}**{when} {to}")
            if ch.note is not None:
                sub.append(f"        - {both('note')}: {bi(ch.note, '<br>')}")
        if node.otherwise and node.otherwise in game.nodes:
            t = game.nodes[node.otherwise]
            sub.append(f"    - **{both('else')}** {link_node(game, page, t.id, f'→ {esc(local_no(t))} {bi(t.label)}')}")
        items.append(f"{both(word)}:\n" + "\n".join(sub))
    if node.note is not None:
        items.append(f'{both("note")}:<br>\n    <span lang="ja">{esc(node.note.ja)}</span><br>\n'
                     f'    <span lang="en">{esc(node.note.en)}</span>')
    if node.cites:
        cites = [cite_md(game, c, page) for c in node.cites]
        if len(cites) == 1:
            items.append(f"{both('cites')}: {cites[0]}")
        else:
            items.append(f"{both('cites')}:\n" + "\n".join(f"    - {c}" for c in cites))
    if items:
        out.append("\n" + "\n".join(f"- {x}" for x in items) + "\n")
    out.append("\n</div>\n")
    return "\n".join(out)


def node_entries(game: Game, ids: list[str], page: str) -> str:
    """Every node in time order; a container's step starts a section; nodes inside an option, case or
    loop body are indented under the option's label, like the sources' lists."""
    out: list[str] = []
    depth: dict[str, int] = {}
    first_of_body: set[tuple[str, str]] = set()
    for nid in ids:
        node = game.nodes[nid]
        c = game.containers.get(node.container)
        if c is not None and c.kind == "step" and nid == c.begin:
            out.append(f"\n### {heading(c.label.ja, c.label.en)}\n")
            if c.note is not None:
                out.append(note_para(c.note))
        parent, body = game.enclosing(node)
        d = depth.get(parent.id, 0) + 1 if parent is not None else 0
        depth[nid] = d
        context = ""
        if parent is not None and (parent.id, body) not in first_of_body:
            first_of_body.add((parent.id, body))
            if parent.kind in ("loop", "foreach"):
                context = f"↻ {esc(local_no(parent))} {bi(parent.label)}"
            elif body == "else":
                context = f"◇ {esc(local_no(parent))} {both('else')}"
            else:
                ch = next((x for x in parent.choices if x.id == body), None)
                mark = "▸" if parent.kind == "player" else "◇"
                label = bi(ch.label) if ch is not None and ch.label is not None else esc(body)
                context = f"{mark} {esc(local_no(parent))} {label}"
        out.append(node_entry(game, nid, page, d, context))
    return "\n".join(out)

