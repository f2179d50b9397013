"""Actions on cards and zones (``core.vocab.ACTIONS``): draw, move, reveal, discard, place, play,
states, shuffles, costs, slots. One function each, ``act_<name>(it, node, args)`` (node is None
inside rule processing), entered in ``CARD_ACTIONS``; it returns what happened (``m.Text``), or
None for the node's own label."""
from __future__ import annotations

from tcgtiming.core import model as m
from .state import Registry, SimulationError

CARD_ACTIONS = Registry("act_")

STATE_JA = {"stand": "スタンド", "rest": "レスト", "reverse": "リバース", "active": "活動", "sleep": "睡眠",
            "face_up": "表向き", "face_down": "裏向き"}


def pick_cards(it, node, pid, zone, count, which):
    cards = it.zone(pid, zone)
    if which in (None, "top"):
        return cards[:count]
    if which == "all":
        return list(cards)
    if which == "revealed":
        return [c for c in it.revealed if c.zone == zone]
    if which == "attacker":
        return [it.attack.attacker] if it.attack and it.attack.attacker in cards else []
    if which == "defender":
        return [it.attack.defender] if it.attack and it.attack.defender in cards else []
    if which == "reversed":
        rev = [c for c in cards if c.state == "reverse"]
        return chosen_from(it, node, rev, count)
    if which == "chosen":
        return chosen_from(it, node, cards, count)
    if which in ("sleeping", "face_down"):
        state = {"sleeping": "sleep", "face_down": "face_down"}[which]
        return [c for c in cards if c.state == state][:count]
    return cards[:count]


def chosen_from(it, node, cards, count):
    if node is None:  # inside rule processing: scripted as {at: <rule process id>, card: ...}
        ch = it.next_choice(it.rule_key) if it.rule_key else None
        wanted = (list(ch.cards) or [ch.card]) if ch is not None else []
        picked = [c for c in cards if c.id in wanted] or cards
        return picked[:count]
    ch = it.choice_at(node)
    wanted = []
    if ch is not None:
        wanted = list(ch.cards) or ([ch.card] if ch.card else [])
    elif it.chosen is not None:
        wanted = [it.chosen.id]
    picked = [c for c in cards if c.id in wanted]
    if wanted and len(picked) < len([w for w in wanted]):
        where = ch.loc if ch is not None else node.loc
        raise SimulationError("R503", f"chosen card(s) {', '.join(wanted)} not available at '{node.id}' "
                              f"(there: {', '.join(c.id for c in cards) or 'none'})", where)
    if not wanted:
        if it.strict and cards:
            raise SimulationError("R501", f"unscripted card choice at '{node.id}' ({node.label.en})", node.loc,
                                  help=f"add a choice: {{at: {node.id}, card: <card id>}}")
        picked = cards[:count or 1]
    return picked[:count or len(picked)]


def zja(it, zone: str) -> str:
    """A zone's Japanese name, for the Japanese narration (the English one keeps the zone id)."""
    z = it.game.zones.get(zone)
    return z.name.ja if z is not None and z.name.ja else zone


@CARD_ACTIONS
def act_shuffle(it, node, a):
    cards = it.zone(it.player_of(a["player"]), a["zone"])
    it.rng.shuffle(cards)
    return m.Text("シャッフル", "shuffled")


@CARD_ACTIONS
def act_draw(it, node, a):
    pid = it.player_of(a["player"])
    return it.draw(pid, it.const(a["count"]))


@CARD_ACTIONS
def act_draw_per_card(it, node, a):
    pid = it.player_of(a["player"])
    zones = [a["zone"]] if a.get("zone") else list(it.game.zones)
    n = sum(1 for z in zones for c in it.zone(pid, z) if a["keyword"] in c.spec.traits)
    return it.draw(pid, n)


@CARD_ACTIONS
def act_draw_modified(it, node, a):
    pid = it.player_of(a["player"])
    n = it.const(a["base"])
    skill = a["skill"]
    for z in ("control_area", "stage"):
        for c in it.zones[pid].get(z, []):
            for t in c.spec.traits:
                if t.startswith(skill + "+") and t[len(skill) + 1:].isdigit():
                    n += int(t[len(skill) + 1:])
                elif t.startswith(skill + "-") and t[len(skill) + 1:].isdigit():
                    n -= int(t[len(skill) + 1:])
    n = max(n, it.const(a.get("min", 0)))
    if n > len(it.zone(pid, "deck")):
        if pid not in it.losers:
            it.losers.append(pid)  # the rule file's own end_game node ends the game (it reads 'lost')
        return m.Text(f"{it.names[pid]}は山札から引けない: 敗北", f"{it.names[pid]} cannot draw from an empty deck: loses")
    return it.draw(pid, n)


@CARD_ACTIONS
def act_set_state(it, node, a):
    pid = it.player_of(a["player"])
    z = a.get("zone", "stage")
    cards = pick_cards(it, node, pid, z, 99, a.get("which", "all")) if a.get("which") != "chosen" else chosen_from(it, node, it.zone(pid, z), 1)
    for c in cards:
        c.state = a["to"]
        if a["to"] == "reverse":
            it.fire("reversed", subject=c)
    return m.Text(f"{it.names_of(cards)} → {STATE_JA.get(a['to'], a['to'])}", f"{it.names_of(cards)} → {a['to']}")


@CARD_ACTIONS
def act_move(it, node, a):
    pid = it.player_of(a["player"])
    count = it.const(a["count"]) if a.get("count") is not None else (None if a.get("which") in ("chosen", "reversed") else 99)
    cards = pick_cards(it, node, pid, a["from"], count, a.get("which", "top"))
    for c in cards:
        it.move_card(c, a["to"])
    if a.get("which") == "revealed":
        it.revealed = [c for c in it.revealed if c not in cards]
    if not cards:
        return m.Text(f"{zja(it, a['from'])}に動かすカードなし", f"nothing to move from {a['from']}")
    return m.Text(f"{it.names_of(cards)}: {zja(it, a['from'])} → {zja(it, a['to'])}",
                  f"{it.names_of(cards)}: {a['from']} → {a['to']}")


@CARD_ACTIONS
def act_reveal(it, node, a):
    pid = it.player_of(a["player"])
    out = []
    for _ in range(it.const(a["count"])):
        deck = it.zone(pid, "deck")
        if not deck:
            it.interrupts()
            if not it.zone(pid, "deck"):
                it.damage_left = 0  # nothing left to reveal: the damage being dealt ends here
                break
        card = it.zone(pid, "deck")[0]
        it.move_card(card, a["to"])
        it.revealed.append(card)
        out.append(card)
        if it.damage_left > 0:
            it.damage_left -= 1
        it.fire("revealed", subject=card)
    return m.Text(f"公開: {it.names_of(out)}", f"revealed: {it.names_of(out)} ({', '.join(c.spec.type for c in out)})")


@CARD_ACTIONS
def act_discard_to_limit(it, node, a):
    pid = it.player_of(a["player"])
    limit = it.const(a["limit"])
    hand = it.zone(pid, "hand")
    excess = max(0, len(hand) - limit)
    if not excess:
        return m.Text(f"手札{len(hand)}枚: 上限以内", f"hand of {len(hand)}: within the limit of {limit}")
    ch = it.choice_at(node)
    wanted = list(ch.cards) if ch is not None and ch.cards else ([ch.card] if ch is not None and ch.card else [])
    if ch is None:
        if it.strict:
            raise SimulationError("R501", f"unscripted discard at '{node.id}'", node.loc,
                                  help=f"add a choice: {{at: {node.id}, cards: [...]}}")
        it.policy_decisions += 1
    cards = [c for c in hand if c.id in wanted][:excess]
    cards += [c for c in reversed(hand) if c not in cards][: excess - len(cards)]
    for c in cards:
        it.move_card(c, a["to"])
    return m.Text(f"{excess}枚捨てる: {it.names_of(cards)}", f"discards {excess}: {it.names_of(cards)}")


@CARD_ACTIONS
def act_place(it, node, a):
    pid = it.player_of(a["player"])
    src = it.zone(pid, a["from"])
    cards = chosen_from(it, node, src, 1)
    if not cards:
        return m.Text("置けるカードなし", "no card to place")
    card = cards[0]
    it.move_card(card, a["to"])
    if a.get("state"):
        card.state = a["state"]
    elif card.state is None:
        card.state = "stand"
    it.fire("placed", subject=card)
    return m.Text(f"{card.name} [{card.id}] を{zja(it, a['to'])}に置く", f"{card.name} [{card.id}] placed: {a['from']} → {a['to']}")


@CARD_ACTIONS
def act_play(it, node, a):
    pid = it.player_of(a["player"])
    ch = it.choice_at(node)
    card = it.card_for(ch)
    if card is None:
        return m.Text("プレイしない", "plays nothing")
    ability = ability_of(it, card, a["kind"], ch.ability if ch else None)
    if ability is None:
        raise SimulationError("R503", f"{card.name} [{card.id}] has no '{a['kind']}' ability to play", (ch.loc if ch else node.loc))
    target = it.cards.get(ch.target) if ch is not None and ch.target else None
    done = it.resolve_effects(ability, card, pid, None, target)
    return m.Text(f"{card.name}をプレイ: {done}", f"plays {card.name}: {done}")


def ability_of(it, card, kind, ability_id):
    for ab in card.spec.abilities:
        if ab.kind == "activated" and (ability_id is None or ab.id == ability_id) and (kind is None or ab.play == kind):
            return ab
    return None


@CARD_ACTIONS
def act_end_effects(it, node, a):
    for pid in it.players:
        for z in it.zones[pid].values():
            for c in z:
                c.mods = []
    return m.Text("「ターン終了時まで」の効果が終わる", "'until end of turn' effects end")


@CARD_ACTIONS
def act_pay_cost(it, node, a):
    pid = it.player_of(a["player"])
    if it.chosen is None:
        return m.Text("支払うものなし", "no card chosen: nothing to pay")
    n = max(0, it.chosen.stat(a["stat"]))
    frm = a.get("from")
    usable = [c for c in it.zone(pid, a["zone"]) if c.state == frm or (frm is None and c.state in (None, "face_up"))]
    ch = it.choice_at(node)
    wanted = list(ch.cards) or ([ch.card] if ch.card else []) if ch is not None else []
    if wanted:
        picked = [c for c in usable if c.id in wanted]
        if len(picked) != len(wanted):
            raise SimulationError("R503", f"{', '.join(wanted)}: not all usable in {a['zone']} "
                                  f"(usable: {', '.join(c.id for c in usable) or 'none'})", ch.loc)
    else:
        picked = usable[:n]
    if len(picked) != n:
        where = ch.loc if ch is not None and wanted else node.loc
        raise SimulationError("R503", f"{it.chosen.name} [{it.chosen.id}] costs {n} ({a['stat']}); "
                              f"{len(picked)} chosen/usable in {a['zone']}", where)
    for c in picked:
        c.state = a["to"]
    return m.Text(f"{it.chosen.name}のコスト{n}: {it.names_of(picked)}", 
                  f"pays {n} for {it.chosen.name}: {it.names_of(picked) or 'nothing'} → {a['to']}")


@CARD_ACTIONS
def act_swap_slots(it, node, a):
    pid = it.player_of(a["player"])
    ch = it.choice_at(node)
    stage = it.zone(pid, "stage")
    if ch is None or len(ch.cards) != 2:
        return m.Text("入れ替えなし", "no swap")
    x, y = (next(c for c in stage if c.id == cid) for cid in ch.cards)
    x.slot, y.slot = y.slot, x.slot
    stage.sort(key=lambda c: c.slot)
    return m.Text("枠を入れ替える", f"swaps {x.name} and {y.name}")


@CARD_ACTIONS
def act_pass(it, node, a):
    return node.label if node is not None else m.Text("", "")
