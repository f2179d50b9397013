"""What a chart says about a node: its site link, its number, its roles, its priority window, its tooltip."""
from __future__ import annotations

from ...core.model import Game, Node, Section, Text
from ...core.text import call_text, width, wrap
from ...core.words import WORDS, word
from .style import ui


# --- the site link -------------------------------------------------------------------------------


def page_of(node: Node) -> str:
    """The page a node lives on: its procedure, its phase, or the turn (the overview)."""
    return node.procedure or node.phase or "turn"


def node_url(game: Game, node: Node) -> str:
    """Where a node is explained on the site (relative, the site does not exist yet)."""
    return f"../{game.id}/{page_of(node)}.md#{node.id}"


# --- labels --------------------------------------------------------------------------------------

WRAP = {"ja": 28, "en": 30}  # display columns per line of a node label
WRAP_EDGE = {"ja": 20, "en": 22}


def _text(t: Text | None, lang: str) -> str:
    return t.get(lang) if t is not None else ""


def role_label(game: Game, role: str | None, lang: str) -> str:
    if role in ("any", "both"):
        return ui(role, lang)
    r = game.roles.get(role or "")
    return r.name.get(lang) if r else (role or "")


def _cites(game: Game, node, lang: str) -> list[str]:
    out = []
    for c in node.cites:
        src = game.sources.get(c.source)
        if src is None:
            out.append(str(c))
            continue
        title = src.title
        if c.section:
            sec = next((s for s in src.sections if s.id == c.section), None)
            out.append(f"{c}: {title} § {section_locator(sec, lang) if sec else c.section}")
        else:
            out.append(f"{c}: {title}")
    return out


def section_locator(sec: Section, lang: str) -> str:
    """Where a section is: its heading or our label, and its lines when it has them."""
    if not sec.lines:
        return sec.title
    a, b = sec.lines
    return sec.title + (ui("line", lang, a) if a == b else ui("lines", lang, a, b))


def tooltip(game: Game, node, lang: str) -> str:
    parts = [node.id]
    note = _text(getattr(node, "note", None), lang)
    if note:
        parts.append(note)
    readings = getattr(node, "readings", ())
    if readings:
        parts.append(ui("readings", lang) + ":\n" + "\n".join(
            f"({r.id}) {r.says.get(lang)}" + (" " + ui("runs", lang) if r.runs else "") for r in readings))
    cites = _cites(game, node, lang)
    if cites:
        parts.append(ui("sources", lang) + ":\n" + "\n".join(cites))
    return "\n\n".join(parts)


_NUMBERS: dict[int, tuple[Game, dict[str, str]]] = {}


def item_numbers(game: Game) -> dict[str, str]:
    """Every item's number as the sources write it, the same on the chart and the phase page: its
    place in its own list (``3``), under the number of the decision or loop whose body holds it
    (``3.1``, ``3.1.2``); each step, phase and procedure numbers its own list from 1, and each body of
    a decision (each option, each case) from 1 again. Start and end have none."""
    hit = _NUMBERS.get(id(game))
    if hit is not None and hit[0] is game:
        return hit[1]
    kids: dict[tuple, list[str]] = {}
    seen: set[str] = set()
    order = game.time_order(game.turn.id) + [n for p in game.procedures for n in game.time_order(p.id)]
    for nid in order:
        n = game.nodes[nid]
        if nid in seen or n.kind in ("begin", "end"):
            continue
        seen.add(nid)
        kids.setdefault((n.parent, n.body, n.container if n.parent is None else ""), []).append(nid)
    out: dict[str, str] = {}

    def number(nid: str) -> str:
        if nid not in out:
            n = game.nodes[nid]
            own = str(kids[(n.parent, n.body, n.container if n.parent is None else "")].index(nid) + 1)
            out[nid] = own if n.parent is None else number(n.parent) + "." + own
        return out[nid]

    for nid in seen:
        number(nid)
    _NUMBERS[id(game)] = (game, out)
    return out


def local_label(game: Game, node: Node) -> str:
    """The node's number (``item_numbers``) with its full stop: ``3.`` ``3.1.``; '' for start and end."""
    no = item_numbers(game).get(node.id)
    return "" if no is None else no + "."


def call_args_text(node: Node, lang: str) -> str:
    """A call's arguments in words: their values, a stat or state by the engine's word for it
    (``amount=soul`` -> ソウル / soul); the names are the rule file's, in the code form."""
    vals = [ui_value(v, lang) for _, v in node.call_args]
    return ("（" + "、".join(vals) + "）") if lang == "ja" else "(" + ", ".join(vals) + ")"


def ui_value(v, lang: str) -> str:
    for ns in ("stat", "state"):
        if f"{ns}.{v}" in WORDS:
            return word(f"{ns}.{v}", lang)
    return str(v)


def short_role(game: Game, role: str | None, lang: str) -> str:
    """A role's name without its parenthetical gloss: 攻撃側プレイヤー（このターンの自軍） -> 攻撃側プレイヤー."""
    name = role_label(game, role, lang)
    for op, cl in (("（", "）"), (" (", ")")):
        if name.endswith(cl) and op in name and name.index(op) > 0:
            return name[: name.index(op)]
    return name


def window_facts(game: Game, node: Node, lang: str, said=None) -> tuple[list[str], list[str]]:
    """The window's facts as whole phrases: who has priority first and who may act, what they may
    play; then how it closes, who acts after a play, how it resolves, what follows a resolution and
    what happens before each priority (``said`` puts an action in words; by default its catalogue
    words, else its code)."""
    w = node.window
    if w is None:
        return [], []
    sep = "、" if lang == "ja" else ", "
    order = [w.first] + [r for r in w.who if r != w.first]
    if len(order) == 1:
        key = [ui("only", lang, short_role(game, w.first, lang))]
    else:
        key = [ui("priority", lang, " → ".join(short_role(game, r, lang) for r in order))]
    plays = sep.join(game.plays[p].name.get(lang) if p in game.plays else p for p in w.plays)
    if plays:
        key.append(ui("plays", lang, plays))
    close = ui("c." + w.close, lang, w.passes) if "chart.c." + w.close in WORDS else w.close
    bits = [close,
            ui("ap." + w.after_play, lang) if "chart.ap." + w.after_play in WORDS else w.after_play,
            ui("r." + w.resolve, lang) if "chart.r." + w.resolve in WORDS else w.resolve,
            ui("ar." + w.after_resolve, lang) if "chart.ar." + w.after_resolve in WORDS else w.after_resolve]
    if w.before_priority:
        say = said or _action_said
        bits.append(ui("before_priority", lang, " → ".join(say(game, a, lang) for a in w.before_priority)))
    return key, bits


def _action_said(game: Game, action, lang: str) -> str:
    return word(f"act.{action.name}", lang) if f"act.{action.name}" in WORDS and not action.args \
        else call_text(action.name, action.args)


def window_lines(game: Game, node: Node, lang: str) -> tuple[list[str], list[str]]:
    """The window's facts (``window_facts``) as a chart's lines: the priority lines, wrapped, and the
    small print, whole phrases packed."""
    key, bits = window_facts(game, node, lang)
    key = key[:1] + [line for k in key[1:] for line in wrap(k, WRAP[lang] + 16)]
    small: list[str] = []
    for bit in bits:  # whole phrases, packed; a phrase longer than a line is wrapped
        if small and width(small[-1] + " · " + bit) <= WRAP[lang] + 24:
            small[-1] += " · " + bit
        elif width(bit) > WRAP[lang] + 24:
            small += wrap(bit, WRAP[lang] + 24)
        else:
            small.append(bit)
    return key, small
