"""Timing-chart tables: the table the Gundam War source draws, generated for every game.

One row per timing of the turn, in time order (phase start, rule effect, free timing, phase end…),
and two columns seen from one player: their own turn (they hold the turn seat: turn player,
attacking player) and the opponent's turn (they hold the other seat). Each cell says what that
player may do at that timing: play (a priority window: who has priority first, what may be
played), act without playing, or nothing (×). A row where no one may play is *closed*: the grey
rows of the source.

A play timing is a priority window. In a game without priority windows (Weiß Schwarz: the turn
player plays at their own actions), a player action is a play timing too; in a game with windows,
a player action elsewhere is not (the Gundam War source: no play outside free timings), unless it
plays a card itself (the vocabulary's ``play``, as the Aquarian Age main phase declares its cards).

Rows follow the document order of each phase and step, which is the order the sources number
their items; nodes inside an option, case or loop body come right after the decision, indented,
with the option's label on the first one. Procedures (the check timing, damage) are one row at
each call: their inside is a chart of its own. Each phase and step opens with a generated boundary
row (its start, marked —); ends get no row, so nothing comes after the timing that ends the turn.

Two views (``VIEWS``): ``full`` (every row) and ``seed`` (the source's own rows: each phase's and
step's numbered items; no boundary rows, nothing inside an option, case or loop, which the
decision's row names). ``seed_rows`` is the seed view; the site shows it by default.

Formats: Markdown and HTML (for the site), text (for the terminal).
"""
from __future__ import annotations

import html
from dataclasses import dataclass

from ..core.model import Game, Node
from ..core.text import md_cell, md_text, width, wrap
from ..core.words import word
from .charts import Job, short_role, style_key, ui


def w(key: str, lang: str, *args) -> str:
    """A word of the timing tables, from the catalogue."""
    return word(f"table.{key}", lang, *args)


VIEWS = ("full", "seed")  # every row / the source's own rows only


@dataclass(frozen=True)
class Cell:
    open: bool  # the player may play here
    text: str
    act: bool = False  # the player acts here (a choice…) without playing


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
    origin: str = "source"  # source: an item of the rule file's container; nested: inside an option,
    # case or loop; structure: a generated boundary (a phase's or step's start)

    @property
    def closed(self) -> bool:
        """No one may play here (the source's grey rows)."""
        return not (self.own.open or self.opp.open)

    @property
    def structure(self) -> bool:
        return self.origin == "structure"


def _readers(game: Game, seat: str) -> set[str]:
    return {r.id for r in game.roles.values() if r.get("seat") == seat}


def _has_windows(game: Game) -> bool:
    return any(n.kind == "window" for n in game.nodes.values())


def _plays(game: Game, node: Node) -> bool:
    """Whether a player action is a play timing (see the module's docstring)."""
    if not _has_windows(game):
        return True

    def plays(n: Node | None) -> bool:
        return n is not None and n.action is not None and n.action.name == "play"

    return plays(node) or any(plays(game.nodes.get(c.entry)) for c in node.choices)


def _acts(game: Game, node: Node, readers: set[str]) -> bool:
    return node.kind == "player" and (node.actor in ("any", "both") or node.actor in readers)


def _can_play(game: Game, node: Node, readers: set[str]) -> bool:
    if node.kind == "window" and node.window is not None:
        return bool(readers & set(node.window.who))
    return _acts(game, node, readers) and _plays(game, node)


def _act_text(game: Game, node: Node, lang: str, label: bool = True) -> str:
    """'acts: <label> (optional) [option / option]', or without the label (it is in the timing column)."""
    text = node.label.get(lang)
    may = w("may", lang)
    suffix = may if node.may and not text.endswith(may.strip()) else ""
    if node.choices:
        suffix += w("choose", lang, " / ".join(c.label.get(lang) for c in node.choices if c.label is not None))
    return w("act", lang, text) + suffix if label else suffix


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
        if not _acts(game, node, readers):
            return Cell(False, w("other_acts", lang))
        if _plays(game, node):
            return Cell(True, _act_text(game, node, lang))
        return Cell(False, w("act_only", lang, _act_text(game, node, lang, label=False)), act=True)
    if node.kind in ("check", "call") and node.callee and node.callee in game.containers:
        proc = game.containers[node.callee]
        inner = [game.nodes[n] for n in proc.nodes]
        if any(_can_play(game, n, readers) for n in inner):
            return Cell(True, w("call_open", lang, proc.label.get(lang), w("inside", lang)))
        if any(_acts(game, n, readers) for n in inner):
            return Cell(False, w("call", lang, proc.label.get(lang)) + ("" if lang == "ja" else " ") + w("act_inside", lang),
                        act=True)
        return Cell(False, w("check", lang) if node.kind == "check" else w("call", lang, proc.label.get(lang)))
    return Cell(False, w("closed", lang))


def rows(game: Game, lang: str, view: str = "full") -> list[Row]:
    """The rows of the game's timing-chart table, in time order: every row (``full``) or the
    source's own rows (``seed``: see the module's docstring)."""
    if view not in VIEWS:
        raise ValueError(f"unknown table view {view!r} (one of {', '.join(VIEWS)})")
    own_seat, opp_seat = _readers(game, "turn"), _readers(game, "non_turn")
    out: list[Row] = []
    depth: dict[str, int] = {}
    first_of_body: set[tuple[str, str]] = set()
    last_section = None
    shut = Cell(False, w("structure_mark", lang))
    for phase in game.phases:
        for nid in game.time_order(phase.id):
            node = game.nodes[nid]
            if node.kind == "end":
                continue  # a boundary: the next start says it, and nothing follows the end of the turn
            section = phase.label.get(lang)
            if node.step:
                section += " / " + game.containers[node.step].label.get(lang)
            parent, body = game.enclosing(node)
            d = depth.get(parent.id, 0) + 1 if parent is not None else 0
            depth[nid] = d
            origin = "structure" if node.kind == "begin" else ("nested" if d else "source")
            if view == "seed" and origin != "source":
                continue
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
            if origin == "structure":
                own = opp = shut
                kind_label = w("k.structure", lang)
            else:
                own, opp = _cell(game, node, own_seat, lang), _cell(game, node, opp_seat, lang)
                kind_label = ui("k." + key, lang)
            out.append(Row(len(out) + 1, nid, section, section != last_section, d, context,
                           node.label.get(lang), key, kind_label, own, opp, origin))
            last_section = section
    return out


def seed_rows(game: Game, lang: str) -> list[Row]:
    """The source's own rows: the view the site shows by default."""
    return rows(game, lang, "seed")


def _mark(r: Row, lang: str) -> str:
    if r.structure:
        return w("structure_mark", lang)
    return w("closed", lang) if r.closed else w("open_mark", lang)


def _note(lang: str, view: str) -> str:
    return w("note", lang) + (("" if lang == "ja" else " ") + w("note_seed", lang) if view == "seed" else "")


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




def table_markdown(game: Game, lang: str, view: str = "full") -> str:
    """A Markdown table; boundary rows in italics."""
    hs = _headers(game, lang)
    out = [f"# {md_text(w('title', lang, game.name.get(lang)))}", "", _note(lang, view), "",
           "| " + " | ".join(md_cell(h) for h in hs) + " |", "|---:|:---:|---|---|---|---|---|"]
    for r in rows(game, lang, view):
        timing = md_cell(_timing_text(r, lang)).replace("  ", "&nbsp;&nbsp;")
        kind = md_cell(r.kind_label)
        if r.structure:
            timing, kind = f"*{timing}*", f"*{kind}*"
        out.append(f"| {r.n} | {_mark(r, lang)} | {md_cell(r.section) if r.new_section else ''} | {timing} | "
                   f"{kind} | {md_cell(r.own.text)} | {md_cell(r.opp.text)} |")
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
table.tcg-timing td.cell.act { color: #2f6b2f; font-style: italic; }
table.tcg-timing tr.structure td { background: #f7f7fb; color: #6a6a80; font-style: italic; font-size: 12px; }
table.tcg-timing tr.structure td.section { font-style: normal; font-size: 14px; }
table.tcg-timing td.section { background: #f4f4f4; font-weight: bold; }
table.tcg-timing .k-player, table.tcg-timing .k-choice { color: #009f00; }
table.tcg-timing .k-auto, table.tcg-timing .k-trigger, table.tcg-timing .k-branch, table.tcg-timing .k-loop,
table.tcg-timing .k-goto, table.tcg-timing .k-exit, table.tcg-timing .k-call { color: #0000ff; }
table.tcg-timing .k-check { color: #ff0000; }
table.tcg-timing .k-window { color: #b36200; font-weight: bold; }
table.tcg-timing .ctx { color: #555; }
""".strip()


def table_html(game: Game, lang: str, document: bool = True, view: str = "full") -> str:
    """An HTML table (a whole page unless document=False): closed rows grey, open cells green,
    generated boundary rows pale and italic (``tr.structure``)."""
    e = html.escape
    hs = _headers(game, lang)
    rs = rows(game, lang, view)
    spans: dict[int, int] = {}
    start = None
    for r in rs:
        if r.new_section:
            start = r.n
        spans[start] = spans.get(start, 0) + 1
    body = [f'<table class="tcg-timing" data-game="{e(game.id)}" data-view="{view}" lang="{lang}">',
            "<thead><tr>" + "".join(f"<th>{e(h)}</th>" for h in hs) + "</tr></thead>", "<tbody>"]
    for r in rs:
        cls = "structure" if r.structure else ("closed" if r.closed else "open")
        cells = [f'<td class="n">{r.n}</td>', f'<td class="mark">{e(_mark(r, lang))}</td>']
        if r.new_section:
            cells.append(f'<td class="section" rowspan="{spans[r.n]}">{e(r.section)}</td>')
        pad = "&#12288;" * r.depth if lang == "ja" else "&nbsp;&nbsp;" * r.depth
        ctx = f'<span class="ctx">{e(("［%s］" if lang == "ja" else "[%s] ") % r.context)}</span>' if r.context else ""
        cells.append(f'<td class="timing k-{r.kind}" id="{e(r.node)}">{pad}{ctx}{e(r.timing)}</td>')
        cells.append(f'<td class="kind k-{r.kind}">{e(r.kind_label)}</td>')
        for c in (r.own, r.opp):
            state = "open" if c.open else ("shut act" if c.act else "shut")
            cells.append(f'<td class="cell {state}">{e(c.text)}</td>')
        body.append(f'<tr class="{cls}" data-node="{e(r.node)}">' + "".join(cells) + "</tr>")
    body += ["</tbody>", "</table>"]
    table = "\n".join(body)
    if not document:
        return table + "\n"
    title = w("title", lang, game.name.get(lang))
    return (f'<!DOCTYPE html>\n<html lang="{lang}">\n<head>\n<meta charset="utf-8">\n<title>{e(title)}</title>\n'
            f"<style>\n{_CSS}\n</style>\n</head>\n<body>\n<h1>{e(title)}</h1>\n<p>{e(_note(lang, view))}</p>\n"
            f"{table}\n</body>\n</html>\n")


def _pad(s: str, n: int) -> str:
    return s + " " * max(0, n - width(s))


def table_text(game: Game, lang: str, color: bool = False, columns: int = 140, view: str = "full") -> str:
    """The table for a terminal: wrapped cells, display-width aligned (wide characters count 2);
    closed rows marked × (and dimmed when color is on), boundary rows marked —."""
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
    for r in rows(game, lang, view):
        if r.new_section and r.n > 1:
            lines.append("-+-".join("-" * x for x in widths))
        emit([str(r.n), _mark(r, lang),
              r.section if r.new_section else "", _timing_text(r, lang).replace("　", "  "), r.kind_label,
              r.own.text, r.opp.text], dim=r.closed)
    lines += ["", _note(lang, view)]
    return "\n".join(lines) + "\n"


def table_jobs(game: Game, langs):
    """The table of a game as files (Markdown, HTML and text, for each language), as render jobs."""
    for lang in langs:
        yield Job(f"{game.id}/timing-table.{lang}.md", "text", table_markdown(game, lang))
        yield Job(f"{game.id}/timing-table.{lang}.html", "text", table_html(game, lang))
        yield Job(f"{game.id}/timing-table.{lang}.txt", "text", table_text(game, lang))
