"""The effects of card abilities in scenarios (``core.vocab.EFFECTS``), also paid as costs. One
compiler each, ``eff_<name>(cx, args)``, entered in ``EFFECTS``; it returns the effect, a function
``(st, card, controller, item, target)`` (item: the stack item, if any; target: the card chosen when
the ability was played) that returns the event."""
from __future__ import annotations

from .cards import choice_naming, ids
from .melee import change_value
from .state import Pending, Registry, SimulationError, engine_ability

EFFECTS = Registry("eff_")


@EFFECTS
def eff_draw(cx, a):
    mine, n, draw = a["who"] == "controller", cx.int(a["count"]), cx.drawer()  # mine: the controller, else the other

    def run(st, card, controller, item, target):
        pid = controller if mine else st.other(controller)
        return ("draw", pid, ids(draw(st, pid, n)))
    return run


@EFFECTS
def eff_move(cx, a):
    mine, which, frm, to = a["who"] == "controller", a.get("which", "top"), a["from"], a["to"]
    n = cx.int(a.get("count", 1))

    def run(st, card, controller, item, target):
        if which == "self":
            cards = [card]
        elif which == "target" and target:
            cards = [target]
        else:  # the top cards of the controller's zone, or the other player's
            cards = st.zones[controller if mine else st.other(controller)][frm][:n]
        for c in cards:
            st.move_card(c, to)
        return ("move", ids(cards), frm, to)
    return run


def _target(st, which, card, target):
    if which == "self":
        return card
    if which == "target":
        return target
    if st.attack is None:
        return None
    return st.attack.attacker if which == "attacker" else st.attack.defender


NO_TARGET = ("no_target",)


@EFFECTS
def eff_set_state(cx, a):
    which, to = a["target"], a["to"]

    def run(st, card, controller, item, target):
        c = card if which == "self" else _target(st, which, card, target)  # (self: no call)
        if c is None:
            return NO_TARGET
        st.set_state(c, to)
        if to == "reverse":
            st.fire("reversed", c)
        return ("set_state", (c.id,), to)
    return run


@EFFECTS
def eff_modify(cx, a):
    which, stat, by = a["target"], a["stat"], cx.int(a["by"])

    def run(st, card, controller, item, target):
        c = card if which == "self" else _target(st, which, card, target)  # (self: no call)
        if c is None:
            return NO_TARGET
        return ("modify", c.id, stat, by, st.modify(c, stat, by))
    return run


@EFFECTS
def eff_damage(cx, a):
    which, amount, to, deck = a["target"], cx.int(a["amount"]), a.get("to"), cx.zone_or_none("deck")

    def run(st, card, controller, item, target):
        c = card if which == "self" else _target(st, which, card, target)  # (self: no call)
        if c is None or c.zone is None or c.zone == deck:
            return NO_TARGET
        limit = c.stat("dp") or c.stat("defense")
        st.deal(c, amount)
        if to is not None and c.damage >= limit:
            st.move_card(c, to)
            return ("damage_card", c.id, amount, to)
        return ("damage_card", c.id, amount, None)
    return run


@EFFECTS
def eff_change_value(cx, a):
    mine, name, by = a["who"] == "controller", a["value"], cx.int(a["by"])

    def run(st, card, controller, item, target):
        pid = controller if mine else st.other(controller)
        old = change_value(st, pid, name, by)
        return ("change_value", pid, name, old, old + by)
    return run


@EFFECTS
def eff_negate(cx, a):
    def run(st, card, controller, item, target):
        if item is None or item.answers is None:
            return ("nothing_to_negate",)
        st.negate(item.answers)
        return ("negate", item.answers.card.id, item.answers.ability.id)
    return run


@EFFECTS
def eff_pending(cx, a):
    def run(st, card, controller, item, target):
        st.add_pending(Pending(engine_ability("extra", card.id), card, controller))
        return ("extra_pending",)
    return run


def payable(st, zone, frm, pid, kind=None):
    """The cards of the zone that can pay a cost: those in the state it is paid from (any, if none),
    and of the card type that pays (any, if none)."""
    return [c for c in st.zones[pid][zone] if (frm is None or c.state == frm) and (kind is None or c.spec.type == kind)]


@EFFECTS
def eff_pay(cx, a):
    zone, n, frm, to, kind = a["zone"], cx.int(a["count"]), a.get("from"), a["to"], a.get("type")

    def run(st, card, controller, item, target):
        usable = payable(st, zone, frm, controller, kind)
        if len(usable) < n:
            raise SimulationError("R503", f"{card.name} [{card.id}] costs {n} card(s)" + (f" of type {kind}" if kind else "")
                                  + f" of {zone}" + (f" in state {frm}" if frm else "")
                                  + f"; {st.who(controller)} has {len(usable)}, {n - len(usable)} missing",
                                  choice_naming(st, card))
        paid = usable[:n]
        for c in paid:
            st.set_state(c, to)
        return ("pay", n, card.id, ids(paid), to)
    return run
