"""Timing-chart tables: the table the Gundam War source draws, generated for every game.

One row per timing of the turn, in time order (phase start, rule effect, free timing, phase end…),
and two columns seen from one player: their own turn (they hold the turn seat: turn player,
attacking player) and the opponent's turn (they hold the other seat). Each cell says what that
player may do at that timing: play (a priority window: who has priority first, what may be
played), act (a player action or choice), or nothing (×). A row where neither player may play or
act is *closed*, the grey rows of the source.

Rows follow the document order of each phase and step, which is the order the sources number
their items; nodes inside an option, case or loop body come right after the decision, indented,
with the option's label on the first one. Procedures (the check timing, damage) are one row at
each call: their inside is a chart of its own.

Formats: Markdown and HTML (for the site), text (for the terminal).
"""
from __future__ import annotations

import html
from dataclasses import dataclass

from ..core.model import Game, Node
from ..core.text import md_cell, width, wrap
from ..core.words import word
from .charts import Job, short_role, style_key, ui


def w(key: str, lang: str, *args) -> str:
    """A word of the timing tables, from the catalogue."""
    return word(f"table.{key}", lang, *args)


@dataclass(frozen=True)
class Cell:
    open: bool
    text: str


@dataclass(frozen=True)
class Row:
    n: int
    node: str  # the model node id
    section: str  # phase (and step) label
    new_section: bool  # the first row of its phase / step
    depth: int  # nesting inside options, cases, loops
    context: str  # the option / case label the row is the first of, or ""
    timing: str  # the node's label
    kind: str  # a style key of the charts (begin, auto, window, closed, …)
    kind_label: str
    own: Cell
    opp: Cell

    @property
    def closed(self) -> bool:
        return not (self.own.open or self.opp.open)


def _readers(game: Game, seat: str) -> set[str]:
    return {r.id for r in game.roles.values() if r.get("seat") == seat}


def _can_act(game: Game, node: Node, readers: set[str]) -> bool:
    if node.kind == "window" and node.window is not None:
        return bool(readers & set(node.window.who))
    if node.kind == "player":
        return node.actor in ("any", "both") or node.actor in readers
    return False


def _cell(game: Game, node: Node, readers: set[str], lang: str) -> Cell:
    sep = "、" if lang == "ja" else ", "
    if node.kind == "window" and node.window is not None:
        win = node.window
        if not readers & set(win.who):
            return Cell(False, w("closed", lang))
        plays = sep.join(game.plays[p].name.get(lang) if p in game.plays else p for p in win.plays)
        key = "play_first" if win.first in readers else "play_after"
        return Cell(True, w(key, lang, plays) if plays else w("play_any", lang))
    if node.kind == "player":
        if node.actor in ("any", "both") or node.actor in readers:
            text = w("act", lang, node.label.get(lang)) + (w("may", lang) if node.may else "")
            if node.choices:
                labels = [c.label.get(lang) for c in node.choices if c.label is not None]
                text += w("choose", lang, " / ".join(labels))
            return Cell(True, text)
        return Cell(False, w("other_acts", lang))
    if node.kind in ("check", "call") and node.callee and node.callee in game.containers:
        proc = game.containers[node.callee]
        inner = [game.nodes[n] for n in proc.nodes]
        if any(_can_act(game, n, readers) for n in inner):
            return Cell(True, w("call_open", lang, proc.label.get(lang), w("inside", lang)))
        return Cell(False, w("check", lang) if node.kind == "check" else w("call", lang, proc.label.get(lang)))
    return Cell(False, w("closed", lang))


def rows(game: Game, lang: str) -> list[Row]:
    """The rows of the game's timing-chart table, in time order."""
    own_seat, opp_seat = _readers(game, "turn"), _readers(game, "non_turn")
    out: list[Row] = []
    depth: dict[str, int] = {}
    first_of_body: set[tuple[str, str]] = set()
    last_section = None
    for phase in game.phases:
        for nid in game.time_order(phase.id):
            node = game.nodes[nid]
            section = phase.label.get(lang)
            if node.step:
                section += " / " + game.containers[node.step].label.get(lang)
            parent, body = game.enclosing(node)
            d = depth.get(parent.id, 0) + 1 if parent is not None else 0
            depth[nid] = d
            context = ""
            if parent is not None and (parent.id, body) not in first_of_body:
                first_of_body.add((parent.id, body))
                if parent.kind in ("loop", "foreach"):
                    context = w("loop", lang)
                elif body == "else":
                    context = w("else", lang)
                else:
                    ch = next((c for c in parent.choices if c.id == body), None)
                    context = ch.label.get(lang) if ch is not None and ch.label is not None else body
            key = style_key(game, node)
            kind_label = w("k." + node.kind, lang) if node.kind in ("begin", "end") else ui("k." + key, lang)
            out.append(Row(len(out) + 1, nid, section, section != last_section, d, context,
                           node.label.get(lang), key, kind_label, _cell(game, node, own_seat, lang),
                           _cell(game, node, opp_seat, lang)))
            last_section = section
    return out


def _headers(game: Game, lang: str) -> list[str]:
    sep = "、" if lang == "ja" else ", "
    own = sep.join(short_role(game, r, lang) for r in sorted(_readers(game, "turn")))
    opp = sep.join(short_role(game, r, lang) for r in sorted(_readers(game, "non_turn")))
    return [w("col.n", lang), w("col.open", lang), w("col.section", lang), w("col.timing", lang),
            w("col.kind", lang), w("col.own", lang, own), w("col.opp", lang, opp)]


def _timing_text(r: Row, lang: str) -> str:
    pad = "　" * r.depth if lang == "ja" else "  " * r.depth
    ctx = (f"［{r.context}］" if lang == "ja" else f"[{r.context}] ") if r.context else ""
    return pad + ctx + r.timing




def table_markdown(game: Game, lang: str) -> str:
    hs = _headers(game, lang)
    out = [f"# {w('title', lang, game.name.get(lang))}", "", w("note", lang), "",
           "| " + " | ".join(hs) + " |", "|---:|:---:|---|---|---|---|---|"]
    for r in rows(game, lang):
        mark = w("closed", lang) if r.closed else w("open_mark", lang)
        timing = md_cell(_timing_text(r, lang)).replace("  ", "&nbsp;&nbsp;")
        out.append(f"| {r.n} | {mark} | {md_cell(r.section) if r.new_section else ''} | {timing} | "
                   f"{md_cell(r.kind_label)} | {md_cell(r.own.text)} | {md_cell(r.opp.text)} |")
    return "\n".join(out) + "\n"


_CSS = """
body { font-family: "IPAexGothic", sans-serif; margin: 1.5em; color: #111; }
table.tcg-timing { border-collapse: collapse; font-size: 14px; }
table.tcg-timing th, table.tcg-timing td { border: 1px solid #999; padding: 3px 8px; vertical-align: top; }
table.tcg-timing th { background: #404040; color: #fff; }
table.tcg-timing tr.closed td.cell, table.tcg-timing tr.closed td.timing,
table.tcg-timing tr.closed td.kind, table.tcg-timing tr.closed td.mark { background: #d9d9d9; color: #555; }
table.tcg-timing td.cell.open { background: #effaef; color: #006400; }
table.tcg-timing td.cell.shut { color: #666; }
table.tcg-timing td.section { background: #f4f4f4; font-weight: bold; }
table.tcg-timing .k-player, table.tcg-timing .k-choice { color: #009f00; }
table.tcg-timing .k-auto, table.tcg-timing .k-trigger, table.tcg-timing .k-branch, table.tcg-timing .k-loop,
table.tcg-timing .k-goto, table.tcg-timing .k-exit, table.tcg-timing .k-call { color: #0000ff; }
table.tcg-timing .k-check { color: #ff0000; }
table.tcg-timing .k-window { color: #b36200; font-weight: bold; }
table.tcg-timing .ctx { color: #555; }
""".strip()


def table_html(game: Game, lang: str, document: bool = True) -> str:
    """An HTML table (a whole page unless document=False): closed rows grey, open cells green."""
    e = html.escape
    hs = _headers(game, lang)
    rs = rows(game, lang)
    spans: dict[int, int] = {}
    start = None
    for r in rs:
        if r.new_section:
            start = r.n
        spans[start] = spans.get(start, 0) + 1
    body = [f'<table class="tcg-timing" data-game="{e(game.id)}" lang="{lang}">',
            "<thead><tr>" + "".join(f"<th>{e(h)}</th>" for h in hs) + "</tr></thead>", "<tbody>"]
    for r in rs:
        cls = "closed" if r.closed else "open"
        cells = [f'<td class="n">{r.n}</td>',
                 f'<td class="mark">{e(w("closed", lang) if r.closed else w("open_mark", lang))}</td>']
        if r.new_section:
            cells.append(f'<td class="section" rowspan="{spans[r.n]}">{e(r.section)}</td>')
        pad = "&#12288;" * r.depth if lang == "ja" else "&nbsp;&nbsp;" * r.depth
        ctx = f'<span class="ctx">{e(("［%s］" if lang == "ja" else "[%s] ") % r.context)}</span>' if r.context else ""
        cells.append(f'<td class="timing k-{r.kind}" id="{e(r.node)}">{pad}{ctx}{e(r.timing)}</td>')
        cells.append(f'<td class="kind k-{r.kind}">{e(r.kind_label)}</td>')
        for c in (r.own, r.opp):
            cells.append(f'<td class="cell {"open" if c.open else "shut"}">{e(c.text)}</td>')
        body.append(f'<tr class="{cls}" data-node="{e(r.node)}">' + "".join(cells) + "</tr>")
    body += ["</tbody>", "</table>"]
    table = "\n".join(body)
    if not document:
        return table + "\n"
    title = w("title", lang, game.name.get(lang))
    return (f'<!DOCTYPE html>\n<html lang="{lang}">\n<head>\n<meta charset="utf-8">\n<title>{e(title)}</title>\n'
            f"<style>\n{_CSS}\n</style>\n</head>\n<body>\n<h1>{e(title)}</h1>\n<p>{e(w('note', lang))}</p>\n"
            f"{table}\n</body>\n</html>\n")


def _pad(s: str, n: int) -> str:
    return s + " " * max(0, n - width(s))


def table_text(game: Game, lang: str, color: bool = False, columns: int = 140) -> str:
    """The table for a terminal: wrapped cells, display-width aligned (wide characters count 2);
    closed rows marked × (and dimmed when color is on)."""
    hs = _headers(game, lang)
    fixed = [4, max(2, width(hs[1]))]  # '#', the ×/○ mark
    free = max(columns - sum(fixed) - 3 * 6, 60)
    widths = fixed + [int(free * f) for f in (0.15, 0.29, 0.14, 0.21, 0.21)]
    lines = [w("title", lang, game.name.get(lang)), ""]

    def cell_lines(i: int, c: str) -> list[str]:
        if i < 2:
            return [c]
        indent = c[: len(c) - len(c.lstrip(" "))]  # the nesting of the timing column
        return [indent + x for x in wrap(c.strip(), max(widths[i] - len(indent), 8))]

    def emit(cells: list[str], dim: bool = False, bold: bool = False) -> None:
        wrapped = [cell_lines(i, c) for i, c in enumerate(cells)]
        for k in range(max(len(x) for x in wrapped)):
            parts = []
            for i, x in enumerate(wrapped):
                t = x[k] if k < len(x) else ""
                parts.append(t.rjust(widths[i]) if i == 0 else _pad(t, widths[i]))
            ln = " | ".join(parts).rstrip()
            if color and dim:
                ln = f"\x1b[2m{ln}\x1b[0m"
            elif color and bold:
                ln = f"\x1b[1m{ln}\x1b[0m"
            lines.append(ln)

    emit(hs, bold=True)
    lines.append("-+-".join("-" * x for x in widths))
    for r in rows(game, lang):
        if r.new_section and r.n > 1:
            lines.append("-+-".join("-" * x for x in widths))
        emit([str(r.n), w("closed", lang) if r.closed else w("open_mark", lang),
              r.section if r.new_section else "", _timing_text(r, lang).replace("　", "  "), r.kind_label,
              r.own.text, r.opp.text], dim=r.closed)
    lines += ["", w("note", lang)]
    return "\n".join(lines) + "\n"


def table_jobs(game: Game, langs):
    """The table of a game as files (Markdown, HTML and text, for each language), as render jobs."""
    for lang in langs:
        yield Job(f"{game.id}/timing-table.{lang}.md", "text", table_markdown(game, lang))
        yield Job(f"{game.id}/timing-table.{lang}.html", "text", table_html(game, lang))
        yield Job(f"{game.id}/timing-table.{lang}.txt", "text", table_text(game, lang))
