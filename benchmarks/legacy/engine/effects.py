"""The effects of card abilities in scenarios (``core.vocab.EFFECTS``), also paid as costs. One
function each, ``eff_<name>(it, args, card, controller, item, target)`` (item: the stack item, if
any; target: the card chosen when the ability was played), entered in ``EFFECTS``; it returns
what happened, in English."""
from __future__ import annotations

from tcgtiming.core.scenario import Ability
from .state import Pending, Registry

EFFECTS = Registry("eff_")


@EFFECTS
def eff_draw(it, a, card, controller, item, target):
    pid = controller if a["who"] == "controller" else it.other(controller)
    return it.draw(pid, it.const(a["count"])).en


@EFFECTS
def eff_move(it, a, card, controller, item, target):
    pid = controller if a["who"] == "controller" else it.other(controller)
    which = a.get("which", "top")
    cards = [card] if which == "self" else [target] if which == "target" and target else it.zone(pid, a["from"])[: it.const(a.get("count", 1))]
    for c in cards:
        it.move_card(c, a["to"])
    return f"{it.names_of(cards)}: {a['from']} → {a['to']}"


def _target(it, which, card, target):
    if which == "self":
        return card
    if which == "target":
        return target
    if it.attack is None:
        return None
    return it.attack.attacker if which == "attacker" else it.attack.defender


@EFFECTS
def eff_set_state(it, a, card, controller, item, target):
    c = _target(it, a["target"], card, target)
    if c is None:
        return "no target"
    c.state = a["to"]
    if a["to"] == "reverse":
        it.fire("reversed", subject=c)
    return f"{c.name} → {a['to']}"


@EFFECTS
def eff_modify(it, a, card, controller, item, target):
    c = _target(it, a["target"], card, target)
    if c is None:
        return "no target"
    c.mods.append((a["stat"], it.const(a["by"])))
    return f"{c.name}: {a['stat']} {it.const(a['by']):+d} (now {c.stat(a['stat'])})"


@EFFECTS
def eff_damage(it, a, card, controller, item, target):
    c = _target(it, a["target"], card, target)
    if c is None or c.zone in (None, "deck"):
        return "no target"
    amount = it.const(a["amount"])
    limit = c.stat("dp") or c.stat("defense")
    c.damage += amount
    if c.damage >= limit:
        it.move_card(c, a["to"])
        return f"{amount} damage to {c.name}: destroyed ({a['to']})"
    return f"{amount} damage to {c.name}: survives"


@EFFECTS
def eff_negate(it, a, card, controller, item, target):
    if item is None or item.answers is None:
        return "nothing to negate"
    item.answers.negated = True
    return f"negates {item.answers.card.name}: {item.answers.ability.label}"


@EFFECTS
def eff_pending(it, a, card, controller, item, target):
    ab = Ability(f"{card.id}.extra", "extra pending ability", "auto", None, "any", None, None, None, None, (), ())
    it.pending[controller].append(Pending(ab, card, controller))
    return "one more pending ability"
