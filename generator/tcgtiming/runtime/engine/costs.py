"""The cost a play kind puts on every card played as it (``plays: [{cost: ...}]``): how many cards of
a zone pay (the card's value ``stat``), which of them (a card type, the colours the card's traits
ask for, the ones the scenario's choice names) and the state they are turned to. VERSUS: a magic
item's E in usable magic cards turned face down; MTG: a spell's mana value in untapped lands
tapped, a land of its colour for each coloured symbol."""
from __future__ import annotations

from .abilities import can_pay
from .cards import choice_naming
from .effects import payable
from .state import SimulationError


def play_cost(st, card, ab, pid) -> tuple:
    """What the rule file says every card played as this play kind costs, without the card stating it
    (VERSUS: a magic item's E in usable magic cards turned face down; MTG: a spell's mana value in
    untapped lands tapped, a land of its colour for each coloured symbol); refused, saying what is
    missing."""
    plan, named = cost_plan(st, card, ab, pid), st.pay_with
    if plan is None:
        if named:
            raise SimulationError("R503", f"the choice names cards to pay with ({', '.join(named)}), but playing "
                                  f"{card.name} [{card.id}] as '{ab.play}' has no cost they could pay",
                                  choice_naming(st, card))
        return ()
    n, picked, (stat, zone, frm, to, kind), usable, need, short = plan
    if named:  # the scenario names the cards that pay: exactly n of the usable ones, covering the colours
        chosen = [c for c in usable if c.id in named]
        if len(chosen) != len(set(named)) or len(chosen) != n:
            raise SimulationError("R503", f"{card.name} [{card.id}] costs {n} card(s) of {zone}; the choice names "
                                  f"{', '.join(named)}, of which {', '.join(c.id for c in chosen) or 'none'} can pay "
                                  f"(usable: {', '.join(c.id for c in usable) or 'none'})", choice_naming(st, card))
        picked, short = paying(chosen, n, need)
        if picked is None:
            raise SimulationError("R503", f"{card.name} [{card.id}] needs {', '.join(need)}: the cards the choice names "
                                  f"({', '.join(named)}) leave {', '.join(short)} unpaid", choice_naming(st, card))
    if picked is None:
        which = (f" of type {kind}" if kind else "") + f" in {zone}" + (f" in state {frm}" if frm else "")
        lack = (f"{n - len(usable)} missing" if len(usable) < n
                else f"none of them for the colour(s) {', '.join(short)}")
        raise SimulationError("R503", f"{card.name} [{card.id}] costs {n} ({stat}"
                              + (f"; {', '.join(need)}" if need else "") + f"): {n} card(s){which}; "
                              f"{st.who(pid)} has {len(usable)}" + (f" ({', '.join(c.id for c in usable)})" if usable else "")
                              + f", {lack}", choice_naming(st, card))
    for c in picked:
        st.set_state(c, to)
    return (("pay", n, card.id, tuple(c.id for c in picked), to),) if n else ()


def cost_plan(st, card, ab, pid):
    """The play kind's cost of playing the card now, without paying it: None (no such cost), else
    (how many, the cards that would pay or None, the cost's words, the usable cards, the colours
    needed, the colours no card is left for)."""
    spec = st.prog.game.plays.get(ab.play)
    cost = spec.get("cost") if spec is not None else None
    if cost is None:
        return None
    stat, zone, frm, to, kind, card_from, colours = cost
    if card_from is not None and card.zone != card_from:
        return None
    usable = payable(st, zone, frm, pid, kind)
    need = ()
    if colours is not None:
        items = colour_ids(st.prog, colours)
        need = tuple(t for t in card.spec.traits if t in items)
    n = max(0, card.stat(stat), len(need))
    picked, short = paying(usable, n, need)
    return n, picked, (stat, zone, frm, to, kind), usable, need, short


def colour_ids(prog, colours: str) -> frozenset:
    """The ids of a list of the game's (the colours a cost reads), made once per program."""
    known = prog.__dict__.setdefault("_colour_ids", {})
    ids = known.get(colours)
    if ids is None:
        ids = known[colours] = frozenset(it.id for it in prog.game.lists[colours])
    return ids


def affordable(st, card, ab, pid) -> bool:
    """The player can pay the play kind's cost and the ability's own costs now (what the policy and
    explore offer)."""
    plan = cost_plan(st, card, ab, pid)
    return (plan is None or plan[1] is not None) and (not ab.cost or can_pay(st, ab.cost, pid))


def paying(usable: list, n: int, need: tuple) -> tuple:
    """The n cards that pay, in the zone's order: for each needed trait (a colour) a card of its own
    having it (a matching, so that a card with two colours goes where it is needed), then the first
    others; (None, the traits no card is left for) when they cannot pay."""
    if len(usable) < n:
        return None, ()
    if not need:  # no colour to match: the first n
        return usable[:n], ()
    owner: dict[int, int] = {}  # paying card (index in usable) -> the need it pays

    def take(i: int, seen: set) -> bool:
        for j, c in enumerate(usable):
            if j not in seen and need[i] in c.spec.traits:
                seen.add(j)
                if j not in owner or take(owner[j], seen):
                    owner[j] = i
                    return True
        return False
    short = tuple(dict.fromkeys(need[i] for i in range(len(need)) if not take(i, set())))
    if short:
        return None, short
    rest = [j for j in range(len(usable)) if j not in owner][:n - len(owner)]
    return [usable[j] for j in sorted(set(owner) | set(rest))], ()
