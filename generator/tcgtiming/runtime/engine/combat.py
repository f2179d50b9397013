"""Actions of an attack (``core.vocab.ACTIONS``): declaring attacks and blocks, changing values,
trigger checks and icons, damage, battles. One compiler each, ``act_<name>(cx, node, args)``,
entered in ``COMBAT_ACTIONS``; the zones they need come from the zones' roles."""
from __future__ import annotations

from ...core import model as m
from .cards import ids
from .state import READY, Attack, Pending, Registry, SimulationError, engine_ability

COMBAT_ACTIONS = Registry("act_")


@COMBAT_ACTIONS
def act_declare_attack(cx, node, a):
    i, attackers, stage, pay = cx.seat(a["player"]), cx.attackers(), cx.zone_or_none("stage"), a.get("pay")
    default = cx.int(a["default"]) if a.get("default") is not None else None
    kinds = cx.combatants(stage) if stage is not None else ()

    def run(st):
        pid = st.seat[i]
        scripted = st.choice_at(node)
        ch = st.cards.get(scripted.card) if scripted is not None and scripted.card else st.chosen
        candidates = [c for c in attackers(st, pid) if c.state in READY]
        card = ch if ch is not None and ch in candidates else None
        if ch is not None and card is None:
            raise SimulationError("R503", f"{ch.name} [{ch.id}] cannot attack now: it is {st.where(ch)}; the cards that "
                                  f"can attack are {', '.join(c.id for c in candidates) or 'none'}",
                                  st.asked_at(scripted, node))
        if card is None:
            if st.strict and len(candidates) > 1:  # the only character that can attack: forced
                raise SimulationError("R501", f"unscripted attacker at '{node.id}'", node.loc, help=f"add card: <id> to the choice at {node.id}")
            card = candidates[0] if candidates else None
        if card is None:
            return ("no_attacker",)
        if pay is not None:
            pay_from_power(st, card, pay, scripted.loc if scripted is not None else node.loc, default)
        defender = None
        if stage is not None:
            defender = next((c for c in st.zones[st.other(pid)][stage] if c.slot == card.slot and c.spec.type in kinds), None)
        st.attack = Attack(card, defender, pid)
        st.attacks_this_turn += 1
        st.fire("attack_declared", card)
        return ("attack", card.id, defender.id if defender else None, stage is not None)
    return run


@COMBAT_ACTIONS
def act_forced_attack(cx, node, a):
    party, active = a.get("party"), cx.active()

    def run(st):
        card = active(st, st.seat[0], st.vars.get(party, party))
        if card is None:
            return ("no_active",)
        st.attack = Attack(card, None, st.seat[0])
        st.fire("attack_declared", card)
        return ("forced_attack", card.id)
    return run


@COMBAT_ACTIONS
def act_declare_block(cx, node, a):
    i, attackers, pay = cx.seat(a["player"]), cx.attackers(), a.get("pay")
    default = cx.int(a["default"]) if a.get("default") is not None else None

    def run(st):
        pid = st.seat[i]
        ch = st.choice_at(node)
        card = st.card_for(ch)
        if st.attack is None:
            return ("no_attack_to_block",)
        if card is None:
            return ("no_block",)
        if card.owner != pid:
            raise SimulationError("R503", f"{card.name} [{card.id}] does not belong to {st.who(pid)}", st.asked_at(ch, node))
        if card not in attackers(st, pid) or card.state not in (None,) + READY:
            raise SimulationError("R503", f"{card.name} [{card.id}] cannot block or guard: it is {st.where(card)}; the "
                                  f"cards that can are {', '.join(c.id for c in attackers(st, pid) if c.state in (None,) + READY) or 'none'}",
                                  st.asked_at(ch, node))
        if pay is not None:
            pay_from_power(st, card, pay, ch.loc if ch is not None else node.loc, default)
        st.attack.defender = card
        return ("block", card.id)
    return run


def pay_from_power(st, card, cost: str, loc, default: int | None = None) -> None:
    """A cost the character pays itself, from its power (the power cards set on it: its value
    ``power``): refused, saying why, when its power is short. ``default``: the cost of a card that
    states none (the rule file's rule for every card)."""
    stated = cost in card.base or any(k == cost for k, _ in card.mods)
    n = max(0, card.stat(cost) if stated or default is None else default)
    have = card.stat("power")
    if have < n:
        raise SimulationError("R503", f"{card.name} [{card.id}] cannot pay its {cost} of {n}: it has power {have} "
                              f"(power cards set on it)", loc)
    if n:
        st.modify(card, "power", -n)


@COMBAT_ACTIONS
def act_modify(cx, node, a):
    target, stat, by_level, negate = a["target"], a["stat"], a.get("by_level_of"), bool(a.get("negate"))
    by0 = cx.int(a.get("by", 0))

    def run(st):
        at = st.attack
        if at is None:
            return ("nothing_to_modify",)
        card = at.attacker if target == "attacker" else at.defender
        if card is None:
            return ("no_such_character",)
        if by_level:
            other = at.attacker if by_level == "attacker" else at.defender
            by = other.stat("level") if other else 0
        else:
            by = by0
        if negate:
            by = -by
        return ("modify", card.id, stat, by, st.modify(card, stat, by))
    return run


@COMBAT_ACTIONS
def act_trigger_check(cx, node, a):
    i, deck = cx.seat(a["player"]), cx.zone("deck")
    to = cx.zone_or_none("resolution") or cx.zone("hand")

    def run(st):
        pile = st.zones[st.seat[i]][deck]
        if not pile:
            return ("no_card_to_reveal",)
        card = pile[0]
        st.move_card(card, to)
        st.revealed.append(card)
        if "soul" in card.spec.triggers and st.attack:
            st.modify(st.attack.attacker, "soul", 1)
        return ("trigger_check", card.id, tuple(card.spec.triggers))
    return run


@COMBAT_ACTIONS
def act_trigger_icon(cx, node, a):
    i, draw = cx.seat(a["player"]), cx.drawer()

    def run(st):
        card = st.revealed[-1] if st.revealed else None
        if card is None:
            return ("no_revealed",)
        done = []
        for icon in card.spec.triggers:
            if icon == "soul" and st.attack is not None:
                st.modify(st.attack.attacker, "soul", 1)
                done.append(("icon_soul",))
            elif icon == "draw":
                draw(st, st.seat[i], 1)
                done.append(("icon_draw",))
            else:
                done.append(("icon_none", icon))
        return ("trigger_icon", card.id, tuple(done))
    return run


@COMBAT_ACTIONS
def act_deal_damage(cx, node, a):
    i, stat, zone, deck = cx.seat(a["player"]), a["amount"], cx.zone_or_none("damage"), cx.zone("deck")

    def run(st):
        pid = st.seat[i]
        if st.attack is None:
            return ("no_damage",)
        amount = max(0, st.attack.attacker.stat(stat))
        if zone is None:
            st.damage_left = amount
            return ("damage", pid, amount)
        for _ in range(amount):
            if st.zones[pid][deck]:
                st.move_card(st.zones[pid][deck][0], zone)
        return ("damage", pid, amount)
    return run


@COMBAT_ACTIONS
def act_damage_judgment(cx, node, a):
    i, stat, deck = cx.seat(a["player"]), a["amount"], cx.zone("deck")
    parties, damage = cx.zone_or_none("parties"), cx.zone_or_none("damage")
    elsewhere = damage or cx.zone("discard")
    limit = cx.game.constants.get("damage_limit")

    def run(st):
        pid = st.seat[i]
        if st.attack is None:
            return ("no_attack",)
        amount = max(0, st.attack.attacker.stat(stat))
        flipped = []
        for _ in range(amount):
            pile = st.zones[pid][deck]
            if not pile:
                break
            card = pile[0]
            if card.spec.type == "character" and parties is not None:
                st.move_card(card, parties, top=True)
            else:
                st.move_card(card, elsewhere)
            flipped.append(card)
            if isinstance(limit, int) and damage is not None and len(st.zones[pid][damage]) >= limit:
                break
        return ("damage_judgment", amount, ids(flipped), len(st.zones[pid][damage]) if damage else 0)
    return run


@COMBAT_ACTIONS
def act_battle(cx, node, a):
    compare, destroy = a["compare"], a.get("destroy")
    to = a.get("to") or cx.zone_or_none("discard")
    hit, hp = ("ap", "dp") if compare == "ap_dp" else ("attack", "defense")

    def run(st):
        at = st.attack
        if at is None or at.defender is None:
            return ("no_battle",)
        att, dfn = at.attacker, at.defender
        if compare == "power":
            pa, pd = att.stat("power"), dfn.stat("power")
            losers = [c for c, lose in ((att, pa <= pd), (dfn, pd <= pa)) if lose]
            for c in losers:
                st.set_state(c, "reverse")
                st.fire("reversed", c)
            return ("battle_power", pa, pd, ids(losers))
        # both deal their damage at once; it stays on the card until a damage reset
        dealt = [(c, other.stat(hit)) for c, other in ((dfn, att), (att, dfn))]
        for c, amount in dealt:
            st.deal(c, max(0, amount))
        gone = [c for c, _ in dealt if c.damage >= c.stat(hp)]
        marks = tuple((c.id, c.damage, c.stat(hp)) for c, _ in dealt)
        if gone and to is None:
            return ("battle", marks, ids(gone), None, False)
        if destroy == "by_abolish_effect":
            # the attacking player's units' effects first: they start as one cut, in that player's order
            for c in sorted(gone, key=lambda c: c.owner != st.seat[0]):
                abolish = engine_ability("abolish", c.id, (m.Action("move", (("from", c.zone), ("to", to), ("which", "self"),
                                                                            ("who", "controller"))),), to)
                st.add_pending(Pending(abolish, c, c.owner))
            return ("battle", marks, ids(gone), to, True)
        for c in gone:
            st.move_card(c, to)
        return ("battle", marks, ids(gone), to, False)
    return run


@COMBAT_ACTIONS
def act_reset_damage(cx, node, a):
    def run(st):
        had = [c for pid in st.players for z in st.zones[pid].values() for c in z if c.damage]
        for c in had:
            st.note(("damage", c.id, -c.damage, 0))
            c.damage = 0
        return ("reset_damage", ids(had))
    return run


def lethal(st, pid, zone, stat):
    """The player's cards in the zone that have the value ``stat`` and whose marked damage reaches it
    (a value brought to 0 or less is reached with no damage; a card without the value is not measured)."""
    return [c for c in st.zones[pid][zone] if stat in c.base and c.damage >= (c.stat(stat) if c.mods else c.base[stat])]


@COMBAT_ACTIONS
def act_destroy_damaged(cx, node, a):
    seats, zone, stat, to = cx.seats(a["player"]), a["zone"], a["stat"], a["to"]

    def run(st):
        gone = [c for i in seats for c in lethal(st, st.seat[i], zone, stat)]
        for c in gone:
            st.move_card(c, to)
        return ("move", ids(gone), zone, to) if gone else ("nothing_to_move", zone)
    return run
