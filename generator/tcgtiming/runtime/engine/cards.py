"""Actions on cards and zones (``core.vocab.ACTIONS``): draw, move, reveal, discard, place, play,
states, shuffles, costs, slots. One compiler each, ``act_<name>(cx, node, args)`` (node is None in
a rule process), entered in ``CARD_ACTIONS``; it resolves the arguments once and returns the
action, a function of the run state that returns the event (what happened, as facts)."""
from __future__ import annotations

from itertools import combinations

from .state import Registry, SimulationError

CARD_ACTIONS = Registry("act_")


def ids(cards) -> tuple:
    return tuple([c.id for c in cards])


def picker(which):
    """The cards an action takes from a zone, ``which`` resolved once: ``pick(st, node, pid, zone,
    count)`` - the top ones (the default), all, the revealed ones, the attacker or the defender (if
    there), the reversed or any one chosen, the first sleeping or face-down ones."""
    if which in ("sleeping", "face_down"):
        state = {"sleeping": "sleep", "face_down": "face_down"}[which]
        return lambda st, node, pid, zone, count: [c for c in st.zones[pid][zone] if c.state == state][:count]
    if which in ("attacker", "defender"):
        def fighter(st, node, pid, zone, count):
            cards, at = st.zones[pid][zone], st.attack
            card = getattr(at, which) if at else None
            return [card] if at and card in cards else []
        return fighter
    return _PICKS.get(which, _top)


def _top(st, node, pid, zone, count):
    return st.zones[pid][zone][:count]


def _revealed(st, node, pid, zone, count):
    st.zones[pid][zone]  # (a zone the player has: as for the others)
    return [c for c in st.revealed if c.zone == zone]


def _reversed(st, node, pid, zone, count):
    return chosen_from(st, node, [c for c in st.zones[pid][zone] if c.state == "reverse"], count)


_PICKS = {
    "all": lambda st, node, pid, zone, count: list(st.zones[pid][zone]),
    "revealed": _revealed,
    "reversed": _reversed,
    "chosen": lambda st, node, pid, zone, count: chosen_from(st, node, st.zones[pid][zone], count),
}


def chosen_from(st, node, cards, count):
    if node is None:  # inside rule processing: scripted as {at: <rule process id>, card: ...}
        ch = st.next_choice(st.rule_key) if st.rule_key else None
        wanted = (list(ch.cards) or [ch.card]) if ch is not None else []
        too_many(wanted, count, st.rule_key, ch)
        picked = [c for c in cards if c.id in wanted] or cards
        return picked[:count]
    ch = st.choice_at(node)
    wanted = []
    if ch is not None:
        wanted = list(ch.cards) or ([ch.card] if ch.card else [])
    elif st.chosen is not None:
        wanted = [st.chosen.id]
    too_many(wanted, count, node.id, ch)
    picked = [c for c in cards if c.id in wanted]
    if wanted and len(picked) < len(wanted):
        where = st.asked_at(ch, node)
        raise SimulationError("R503", f"chosen card(s) {', '.join(wanted)} not available at '{node.id}' "
                              f"(there: {', '.join(c.id for c in cards) or 'none'})", where)
    if not wanted:
        if st.strict and len(cards) > (count or 1):  # all of them, or the only one: forced
            raise SimulationError("R501", f"unscripted card choice at '{node.id}' ({node.label.en})", node.loc,
                                  help=f"add a choice: {{at: {node.id}, card: <card id>}}")
        picked = explored_pick(st, node, cards, count or 1) or cards[:count or 1]
    return picked[:count or len(picked)]


def too_many(wanted, count, where, ch) -> None:
    """A choice naming more cards than the action takes is refused where it is written (not cut short)."""
    if ch is not None and count is not None and len(wanted) > count:
        raise SimulationError("R503", f"the choice at '{where}' names {len(wanted)} card(s) "
                              f"({', '.join(wanted)}); {count} is taken there", ch.loc)


def explored_pick(st, node, cards, n):
    """An exploration answers an unscripted card pick: every set of n of the cards (in their order) is
    an alternative; None when not exploring (the policy picks) or when nothing is left to choose."""
    if st.explorer is None or n >= len(cards):
        return None
    sets = list(combinations(range(len(cards)), n))
    j = st.explorer.pick(st, node.id, tuple(("cards", tuple(cards[i].id for i in s)) for s in sets))
    return None if j is None else [cards[i] for i in sets[j]]


@CARD_ACTIONS
def act_shuffle(cx, node, a):
    i, z = cx.seat(a["player"]), a["zone"]

    def run(st):
        pid = st.seat[i]
        st.rng.shuffle(st.zones[pid][z])
        st.note(("shuffle", pid, z))
        return ("shuffle", pid, z)
    return run


@CARD_ACTIONS
def act_draw(cx, node, a):
    i, n = cx.seat(a["player"]), cx.int(a["count"])
    draw = cx.drawer()

    def run(st):
        pid = st.seat[i]
        return ("draw", pid, ids(draw(st, pid, n)))
    return run


@CARD_ACTIONS
def act_draw_per_card(cx, node, a):
    i, kw = cx.seat(a["player"]), a["keyword"]
    zones = [a["zone"]] if a.get("zone") else list(cx.game.zones)
    draw = cx.drawer()

    def run(st):
        pid = st.seat[i]
        n = sum(1 for z in zones for c in st.zones[pid][z] if kw in c.spec.traits)
        return ("draw", pid, ids(draw(st, pid, n)))
    return run


@CARD_ACTIONS
def act_draw_modified(cx, node, a):
    i, base, skill, low = cx.seat(a["player"]), cx.int(a["base"]), a["skill"], cx.int(a.get("min", 0))
    draw, deck, play = cx.drawer(), cx.zone("deck"), cx.zones_of("field", "stage")
    plus, minus = skill + "+", skill + "-"

    def run(st):
        pid = st.seat[i]
        n = base
        for z in play:
            for c in st.zones[pid][z]:
                for t in c.spec.traits:
                    if t.startswith(plus) and t[len(plus):].isdigit():
                        n += int(t[len(plus):])
                    elif t.startswith(minus) and t[len(minus):].isdigit():
                        n -= int(t[len(minus):])
        n = max(n, low)
        if n > len(st.zones[pid][deck]):
            st.lose(pid)  # the rule file's own end_game node ends the game (it reads 'lost')
            return ("cannot_draw", pid)
        return ("draw", pid, ids(draw(st, pid, n)))
    return run


@CARD_ACTIONS
def act_set_state(cx, node, a):
    i, to, which = cx.seat(a["player"]), a["to"], a.get("which", "all")
    z = a.get("zone") or cx.zone("stage")
    pick, reversing = picker(which), to == "reverse"

    def run(st):
        pid = st.seat[i]
        cards = chosen_from(st, node, st.zones[pid][z], 1) if which == "chosen" else pick(st, node, pid, z, 99)
        set_state = st.set_state
        for c in cards:
            set_state(c, to)
            if reversing:
                st.fire("reversed", c)
        return ("set_state", ids(cards), to)
    return run


@CARD_ACTIONS
def act_move(cx, node, a):
    i, frm, to, which = cx.seat(a["player"]), a["from"], a["to"], a.get("which", "top")
    count = cx.int(a["count"]) if a.get("count") is not None else (None if which in ("chosen", "reversed") else 99)
    pick = picker(which)

    def run(st):
        cards = pick(st, node, st.seat[i], frm, count)
        move = st.move_card
        for c in cards:
            move(c, to)
        if which == "revealed":
            st.revealed = [c for c in st.revealed if c not in cards]
        if not cards:
            return ("nothing_to_move", frm)
        return ("move", ids(cards), frm, to)
    return run


@CARD_ACTIONS
def act_reveal(cx, node, a):
    i, n, to, deck = cx.seat(a["player"]), cx.int(a["count"]), a["to"], cx.zone("deck")

    def run(st):
        pid = st.seat[i]
        out = []
        for _ in range(n):
            if not st.zones[pid][deck]:
                st.interrupts()
                if not st.zones[pid][deck]:
                    st.damage_left = 0  # nothing left to reveal: the damage being dealt ends here
                    break
            card = st.zones[pid][deck][0]
            st.move_card(card, to)
            st.revealed.append(card)
            out.append(card)
            if st.damage_left > 0:
                st.damage_left -= 1
            st.fire("revealed", card)
        return ("reveal", ids(out))
    return run


@CARD_ACTIONS
def act_discard_to_limit(cx, node, a):
    i, limit, to, hand = cx.seat(a["player"]), cx.int(a["limit"]), a["to"], cx.zone("hand")

    def run(st):
        cards_in = st.zones[st.seat[i]][hand]
        excess = max(0, len(cards_in) - limit)
        if not excess:
            return ("within_limit", len(cards_in), limit)
        ch = st.choice_at(node)
        wanted = list(ch.cards) if ch is not None and ch.cards else ([ch.card] if ch is not None and ch.card else [])
        if ch is None and excess < len(cards_in):  # discarding the whole hand is forced
            if st.strict:
                raise SimulationError("R501", f"unscripted discard at '{node.id}'", node.loc,
                                      help=f"add a choice: {{at: {node.id}, cards: [...]}}")
            st.policy_decisions += 1
            wanted = ids(explored_pick(st, node, cards_in, excess) or ())
        cards = [c for c in cards_in if c.id in wanted] if wanted else []
        if ch is not None and (len(wanted) != excess or len(cards) != len(wanted)):
            raise SimulationError(
                "R503", f"{excess} card(s) must be discarded at '{node.id}' ({len(cards_in)} in hand, limit {limit}); "
                f"the choice names {len(wanted)}" + ("" if len(cards) == len(wanted) else
                f", not all in hand (hand: {', '.join(c.id for c in cards_in)})"), ch.loc)
        if cards:
            cards += [c for c in reversed(cards_in) if c not in cards][: excess - len(cards)]
        else:  # the policy's: the last ones taken into the hand, newest first
            cards = cards_in[max(0, len(cards_in) - excess):][::-1]
        for c in cards:
            st.move_card(c, to)
        return ("discard", excess, ids(cards))
    return run


def choice_naming(st, card, fallback: bool = True):
    """Where the scenario named the card (its latest used choice doing so); else the node being run
    (``fallback``), or None."""
    named = [c for c in st.all_choices if id(c) in st.used_choices and (c.card == card.id or card.id in c.cards)]
    if named:
        return named[-1].loc
    return st.prog.nodes[st.at].loc if fallback else None


@CARD_ACTIONS
def act_place(cx, node, a):
    i, frm, to, state, need = cx.seat(a["player"]), a["from"], a["to"], a.get("state"), a.get("type")
    kw, kw_state = a.get("keyword"), a.get("keyword_state")
    conditions = play_conditions(cx, a)

    def run(st):
        cards = chosen_from(st, node, st.zones[st.seat[i]][frm], 1)
        if not cards:
            return ("no_card_to_place",)
        card = cards[0]
        if need is not None and card.spec.type != need:
            where = choice_naming(st, card, fallback=False)
            fits = [c for c in st.zones[st.seat[i]][frm] if c.spec.type == need]
            if where is not None or not fits:  # named by the scenario, or nothing else to place
                raise SimulationError("R503", f"{card.name} [{card.id}] is a card of type '{card.spec.type}': only a "
                                      f"'{need}' card can be placed in {to} at '{node.id if node else to}'",
                                      where or (node.loc if node is not None else None))
            card = fits[0]  # the policy's pick, among the cards the rule allows
        conditions(st, card, node)
        st.move_card(card, to)
        if kw is not None and kw in card.spec.traits:
            st.set_state(card, kw_state)
        elif state:
            st.set_state(card, state)  # without 'state:', the card has the state it had (the rule file says which)
        st.fire("placed", card)
        return ("place", card.id, frm, to)  # the cost paid, if any, is among the entry's changes
    return run


def play_conditions(cx, a):
    """The conditions for playing a card a place action names (WS: level, cost, colour): a function
    of (st, card, node) that refuses, saying why, what does not meet them and pays the cost; the
    cards paid."""
    lz, pay_from, pay_to, cz = a.get("level_zone"), a.get("pay_from"), a.get("pay_to"), a.get("colour_zone")
    colours = frozenset(item.id for item in cx.game.lists[a["colours"]]) if a.get("colours") else frozenset()
    if lz is None and pay_from is None and not colours:
        return lambda st, card, node: ()

    def check(st, card, node):
        pid, why = card.owner, None
        zones = st.zones[pid]
        mine = colours.intersection(card.spec.traits)
        if lz is not None and card.stat("level") > len(zones[lz]):
            why = f"its level {card.stat('level')} is above the player's level {len(zones[lz])}"
        elif pay_from is not None and card.stat("cost") > len(zones[pay_from]):
            why = f"its cost {card.stat('cost')} is more than the {len(zones[pay_from])} card(s) in {pay_from}"
        elif mine and not any(mine.intersection(c.spec.traits) for z in (lz, cz) if z for c in zones[z]):
            why = f"no card of its colour ({', '.join(sorted(mine))}) is in {' or '.join(z for z in (lz, cz) if z)}"
        if why is not None:
            raise SimulationError("R503", f"{card.name} [{card.id}] cannot be played: {why}",
                                  choice_naming(st, card, fallback=False) or (node.loc if node is not None else None))
        n = card.stat("cost") if pay_from is not None else 0
        paid = zones[pay_from][:n] if n else []
        for c in paid:
            st.move_card(c, pay_to)
        return ids(paid)
    return check


@CARD_ACTIONS
def act_play(cx, node, a):
    i, kind = cx.seat(a["player"]), a["kind"]

    def run(st):
        pid = st.seat[i]
        ch = st.choice_at(node)
        card = st.card_for(ch)
        if card is None:
            return ("plays_nothing",)
        ability = ability_of(card, kind, ch.ability if ch else None)
        if ability is None:
            raise SimulationError("R503", f"{card.name} [{card.id}] has no '{kind}' ability to play", st.asked_at(ch, node))
        target = st.cards.get(ch.target) if ch is not None and ch.target else None
        return ("play", card.id, ability.id, st.resolve_effects(ability, card, pid, None, target))
    return run


def ability_of(card, kind, ability_id):
    for ab in card.spec.abilities:
        if ab.kind == "activated" and (ability_id is None or ab.id == ability_id) and (kind is None or ab.play == kind):
            return ab
    return None


@CARD_ACTIONS
def act_end_effects(cx, node, a):
    def run(st):
        for pid in st.players:
            for z in st.zones[pid].values():
                for c in z:
                    if c.mods:
                        clear_mods(st, c)
        return ("end_effects",)
    return run


def clear_mods(st, card) -> None:
    """The modifiers of a card end: each value they changed is a change of the entry (old -> base):
    a value whose modifiers add up to other than 0."""
    mods = card.mods
    card.mods = ()  # none in force: the shared empty tuple (``Machine.modify`` makes a list)
    if st.out is None:  # the changes are only recorded
        return
    by: dict = {}
    for k, x in mods:
        by[k] = by.get(k, 0) + x
    base = card.base
    for k in sorted(by):
        if by[k]:
            v = base.get(k, 0)
            st.out(("stat", card.id, k, v + by[k], v))


def _unusable(st, pid, z, frm) -> str:
    """Why the cards of a zone cannot pay: the state a paying card needs, and each card's state."""
    need = f"'{frm}'" if frm is not None else "'face_up' or none"
    states = ", ".join(f"{c.id}: {c.state or 'no state'}" for c in st.zones[pid][z]) or "no card"
    return (f"a card pays from {z} in state {need} ({states}); a scenario card starts in the state its "
            "'state:' gives, else in none")


@CARD_ACTIONS
def act_pay_cost(cx, node, a):
    i, stat, frm, z, to = cx.seat(a["player"]), a["stat"], a.get("from"), a["zone"], a["to"]
    card_from, need = a.get("card_from"), a.get("type")

    def run(st):
        pid = st.seat[i]
        if st.chosen is None and card_from is not None:
            st.chosen = card_paid_for(st, node, pid, card_from, need)
        if st.chosen is None:
            return ("nothing_to_pay",)
        n = max(0, st.chosen.stat(stat))
        usable = [c for c in st.zones[pid][z] if c.state == frm or (frm is None and c.state in (None, "face_up"))]
        ch = st.choice_at(node)
        wanted = list(ch.cards) or ([ch.card] if ch.card else []) if ch is not None else []
        if wanted:
            picked = [c for c in usable if c.id in wanted]
            if len(picked) != len(wanted):
                raise SimulationError("R503", f"{', '.join(wanted)}: not all usable in {z} "
                                      f"(usable: {', '.join(c.id for c in usable) or 'none'})", ch.loc,
                                      help=_unusable(st, pid, z, frm))
        else:
            picked = usable[:n]
        if len(picked) != n:
            where = ch.loc if ch is not None and wanted else st.asked_at(None, node)
            raise SimulationError("R503", f"{st.chosen.name} [{st.chosen.id}] costs {n} ({stat}); "
                                  f"{len(picked)} chosen/usable in {z}", where, help=_unusable(st, pid, z, frm))
        for c in picked:
            st.set_state(c, to)
        return ("pay", n, st.chosen.id, ids(picked), to)
    return run


def card_paid_for(st, node, pid, zone, need):
    """The card a cost is paid for when no decision chose one: the only card of the type in the zone, or
    the policy's pick among several (a decision: R501 under --strict). None: no such card."""
    fits = [c for c in st.zones[pid][zone] if need is None or c.spec.type == need]
    if len(fits) > 1:
        if st.strict:
            raise SimulationError("R501", f"unscripted card choice at '{node.id}' ({node.label.en}): "
                                  f"{', '.join(c.id for c in fits)}", node.loc,
                                  help="name the card at the decision before it: {at: <node>, take: ..., card: <card id>}")
        st.policy_decisions += 1
    return fits[0] if fits else None


@CARD_ACTIONS
def act_choose_card(cx, node, a):
    i, frm, need = cx.seat(a["player"]), a["from"], a.get("type")

    def run(st):
        if st.chosen is None:  # no card named at this decision: the one the rules leave (several: a decision)
            st.chosen = card_paid_for(st, node, st.seat[i], frm, need)
        return ("pick_card", st.chosen.id) if st.chosen is not None else ("no_card_to_place",)
    return run


@CARD_ACTIONS
def act_swap_slots(cx, node, a):
    i, stage = cx.seat(a["player"]), cx.zone("stage")

    def run(st):
        ch = st.choice_at(node)
        cards = st.zones[st.seat[i]][stage]
        if ch is None or len(ch.cards) != 2:
            return ("no_swap",)
        x, y = (next(c for c in cards if c.id == cid) for cid in ch.cards)
        st.note(("slot", x.id, x.slot, y.slot))
        st.note(("slot", y.id, y.slot, x.slot))
        x.slot, y.slot = y.slot, x.slot
        cards.sort(key=lambda c: c.slot)
        return ("swap", x.id, y.id)
    return run


LABEL = ("label",)


@CARD_ACTIONS
def act_pass(cx, node, a):
    run = lambda st: LABEL  # noqa: E731
    run.const = LABEL  # nothing to do: the program's code records it without calling it
    return run
