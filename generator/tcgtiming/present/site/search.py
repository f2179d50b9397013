"""The search: a Pagefind index per language (its extended build, which segments Japanese), built
after the pages are written, and the search page that reads it.

Why Pagefind's extended build: it ships as a Python wheel (no Node, no download at build time), the
index is static files fetched in small chunks (nothing loads until a reader searches), and it
segments Japanese, so that compound terms such as 勢力チェック or ダメージ判定, which the former
lunr-based index could not find, are found whole and in part (measured: guide/site.md).

What is indexed: every node as a record of its own (its label, kind, note, options and where it
is; its URL the node's anchor), and the pages' own text with the node entries, the timing tables
and the traces left out (``data-pagefind-ignore``), so that a term lands on the node, not on a
long page that happens to contain it. The search page puts node records first.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ...core.model import Game
from .markup import kind_word, local_no, node_page, tx
from .phrases import action_words


@dataclass(frozen=True)
class Record:
    url: str  # inside the language's folder, with the node's anchor: "ws/attack.html#attack.counter.3"
    title: str
    content: str
    where: str  # the game and the phase / step / procedure


def node_records(game: Game, lang: str) -> list[Record]:
    out = []
    for node in game.nodes.values():
        if node.kind in ("begin", "end") and node.container != "turn":
            continue
        where = [tx(game.name, lang)] + [tx(game.containers[c].label, lang) for c in (node.phase, node.step)
                                         if c and c in game.containers]
        if node.container in game.containers and game.containers[node.container].kind == "procedure":
            where.append(tx(game.containers[node.container].label, lang))
        words = [tx(node.label, lang), kind_word(game, node, lang), tx(node.note, lang)]
        words += [tx(ch.label, lang) for ch in node.choices if ch.label is not None]
        if node.action is not None and node.action.name != "pass":
            words.append(action_words(game, node.action, lang))  # what happens, in words: found by them too
        if node.event and node.event in game.events:
            words.append(tx(game.events[node.event].name, lang))
        title = f"{local_no(game, node)} {tx(node.label, lang)}".strip()
        out.append(Record(f"{node_page(game, node)}#{node.id}", title, " ".join(x for x in words if x),
                          " › ".join(dict.fromkeys(where))))
    return out


def record_pages(records: list[Record], lang: str, game: str) -> dict[str, str]:
    """One small page per node record of a game (``nodes/<game>/<n>.html``: a change in one game
    leaves the others' as they are), indexed by Pagefind: its ``url`` meta is the node's anchor,
    where the search page links (opened on its own, it shows that link)."""
    from markupsafe import Markup

    from .markup import h

    out = {}
    for n, r in enumerate(records, 1):
        target = f"../../{r.url}"
        head = Markup('<meta charset="utf-8">') + h("meta", name="robots", content="noindex") + h("title", r.title)
        body = h("main", h("h1", r.title, data_pagefind_meta="title"), h("p", r.content.removeprefix(r.title)),
                 h("p", r.where, data_pagefind_meta="where"), h("a", r.url, href=target, data_pagefind_meta="url[href]"),
                 h("span", "node", data_pagefind_meta="kind", hidden=True), data_pagefind_body=True)
        out[f"nodes/{game}/{n}.html"] = f"<!DOCTYPE html>\n{h('html', h('head', head), h('body', body), lang=lang)}\n"
    return out


def build_index(folder: Path, lang: str) -> str:
    """Pagefind's extended build over one language's folder (its pages and the node records), into
    folder/pagefind; returns what it said. Raises OSError when it fails."""
    import subprocess
    import sys

    p = subprocess.run([sys.executable, "-m", "pagefind", "--site", str(folder), "--force-language", lang, "--quiet"],
                       check=False, capture_output=True, text=True)
    if p.returncode != 0:
        raise OSError(f"pagefind exited with {p.returncode}: {(p.stderr or p.stdout).strip()[-500:]}")
    return p.stdout
