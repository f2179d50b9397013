"""The decision points of a game: every place a scenario's ``choices`` can answer - a player action
(its options, or yes/no when optional), a priority window (pass or play, who holds priority first,
who may act), an action that uses a chosen card or cards, the order of a player's pending
abilities, a rule process that lets its player choose a card - with who decides and how a scenario
writes the answer. Read from the compiled model only; shown by ``tcgtiming points`` and on the
site's node entries."""
from __future__ import annotations

from typing import NamedTuple

from ..core import model as m
from ..core.words import word

CARD_ACTIONS = {"declare_attack": "card", "declare_block": "card", "play": "card", "place": "card", "pay_cost": "cards",
                "choose_card": "card",
                "swap_slots": "cards", "discard_to_limit": "cards"}


class Point(NamedTuple):
    node: str  # node id (or rule process id)
    kind: str  # node kind, or "rule" for a rule process
    who: str | None  # the role that decides (window: who holds priority first)
    asks: tuple[str, ...]  # option, may, card, cards, window, pending
    options: tuple[tuple[str, m.Text | None], ...] = ()
    plays: tuple[str, ...] = ()  # window: the play kinds allowed
    may_act: tuple[str, ...] = ()  # window: the roles that may act
    label: m.Text | None = None

    def choice(self) -> str:
        """How a scenario answers it (a choice written in YAML flow style)."""
        parts = [f"at: {self.node}"]
        if "option" in self.asks:
            parts.append("take: " + "|".join(o for o, _ in self.options))
        elif "may" in self.asks or "pending" in self.asks:
            parts.append("take: yes|no")
        elif "window" in self.asks:
            parts.append("take: pass|play")
        if "window" in self.asks or "card" in self.asks:
            parts.append("card: <card id>")
        if "cards" in self.asks or "paying" in self.asks:
            parts.append("cards: [<card id>, ...]")
        if "pending" in self.asks:
            parts.append("ability: <ability id>")
        return "{" + ", ".join(parts) + "}"


def _card_ask(action: m.Action | None) -> str | None:
    if action is None:
        return None
    if action.name in CARD_ACTIONS:
        return CARD_ACTIONS[action.name]
    return "card" if action.arg("which") in ("chosen", "reversed") else None  # the engine asks which one


def points(game: m.Game) -> list[Point]:
    """Every decision point: the turn's nodes in time order, then each procedure's, then the rule processes."""
    out = []
    order = game.time_order(game.turn.id) + [n for p in game.procedures for n in game.time_order(p.id)]
    seen = set(order)
    order += [n for n in game.nodes if n not in seen]
    for nid in dict.fromkeys(order):
        node = game.nodes[nid]
        asks: list[str] = []
        who = node.actor
        action = node.action
        if node.kind == "player":
            asks.append("option" if node.choices else ("may" if node.may else ""))
        if node.kind == "window" and node.window is not None:
            w = node.window
            paid = any(k in game.plays and game.plays[k].get("cost") for k in w.plays)  # cards: the ones that pay
            out.append(Point(nid, node.kind, w.first, ("window", "paying") if paid else ("window",), (), tuple(w.plays),
                             tuple(w.who), node.label))
            continue
        if action is not None and action.name == "resolve_pending":
            asks.append("pending")
            who = who or action.arg("player")
        card = _card_ask(action)
        if card is not None:
            asks.append(card)
            who = who or action.arg("player")
        asks = [a for a in asks if a]
        if asks:
            out.append(Point(nid, node.kind, who, tuple(asks),
                             tuple((c.id, c.label) for c in node.choices) if node.kind == "player" else (), label=node.label))
    for rp in game.rule_processes.values():
        if any(_card_ask(a) for a in rp.actions):
            who = next((a.arg("player") for a in rp.actions if a.arg("player")), None)
            out.append(Point(rp.id, "rule", who, ("card",), label=rp.name))
    return out


_BY_NODE: dict = {}


def by_node(game: m.Game) -> dict[str, Point]:
    """The decision points of a game by node id (worked out once per game)."""
    hit = _BY_NODE.get(id(game))
    if hit is None or hit[0] is not game:
        hit = _BY_NODE[id(game)] = (game, {p.node: p for p in points(game)})
    return hit[1]


def summary(game: m.Game, p: Point, lang: str) -> str:
    """Who decides and what, in one line (the site's node entries)."""
    asks = word("trace.sep", lang).join(word(f"points.ask.{a}", lang) for a in p.asks)
    return word("points.line", lang, word("points.who", lang, _role(game, p.who, lang)), asks)


def _role(game: m.Game, role: str | None, lang: str) -> str:
    if role is None:
        return word("points.nobody", lang)
    if role == "self":  # a rule process: the player it applies to
        return word("points.self", lang)
    r = game.roles.get(role)
    return r.name.get(lang) if r is not None and r.name is not None else role


def as_text(game: m.Game, lang: str = "en") -> str:
    ps = points(game)
    lines = [word("points.title", lang, game.name.get(lang), len(ps))]
    for p in ps:
        label = p.label.get(lang) if p.label is not None else ""
        lines.append(f"{p.node}  [{p.kind}] {label}")
        lines.append(f"    {summary(game, p, lang)}")
        for oid, olabel in p.options:
            lines.append(f"    - {oid}: {olabel.get(lang) if olabel is not None else oid}")
        if p.plays:
            lines.append("    " + word("points.plays", lang, ", ".join(p.plays),
                                        word("trace.sep", lang).join(_role(game, r, lang) for r in p.may_act)))
        lines.append(f"    {p.choice()}")
    return "\n".join(lines) + "\n"


def as_data(game: m.Game) -> list[dict]:
    return [{"game": game.id, "node": p.node, "kind": p.kind, "who": p.who, "asks": list(p.asks),
             "options": [{"id": o, "label": {"ja": lbl.ja, "en": lbl.en} if lbl is not None else None} for o, lbl in p.options],
             "plays": list(p.plays), "may_act": list(p.may_act),
             "label": {"ja": p.label.ja, "en": p.label.en} if p.label is not None else None, "choice": p.choice()}
            for p in points(game)]
