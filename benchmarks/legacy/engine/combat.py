"""Actions of an attack (``core.vocab.ACTIONS``): declaring attacks and blocks, changing values,
trigger checks and icons, damage, battles, encores. One function each, ``act_<name>(it, node,
args)``, entered in ``COMBAT_ACTIONS``."""
from __future__ import annotations

from tcgtiming.core import model as m
from tcgtiming.core.scenario import Ability
from .conditions import active, attackers
from .state import Attack, Pending, Registry, SimulationError

COMBAT_ACTIONS = Registry("act_")


@COMBAT_ACTIONS
def act_declare_attack(it, node, a):
    pid = it.player_of(a["player"])
    scripted = it.choice_at(node)
    ch = it.cards.get(scripted.card) if scripted is not None and scripted.card else it.chosen
    candidates = [c for c in attackers(it, pid) if c.state in ("stand", "active")]
    card = ch if ch is not None and ch in candidates else None
    if ch is not None and card is None:
        raise SimulationError("R503", f"{ch.name} [{ch.id}] cannot attack now (it must be a standing character on the stage)", node.loc)
    if card is None:
        if it.strict:
            raise SimulationError("R501", f"unscripted attacker at '{node.id}'", node.loc, help=f"add card: <id> to the choice at {node.id}")
        card = candidates[0] if candidates else None
    if card is None:
        return m.Text("アタックできるキャラがいない", "no character can attack")
    opp = it.other(pid)
    defender = None
    if "stage" in it.game.zones:
        defender = next((c for c in it.zone(opp, "stage") if c.slot == card.slot and c.spec.type == "character"), None)
    it.attack = Attack(card, defender, pid)
    it.attacks_this_turn += 1
    it.fire("attack_declared", subject=card)
    vs = f" → {defender.name} [{defender.id}]" if defender else (" (no character in front)" if "stage" in it.game.zones else "")
    return m.Text(f"{card.name}でアタック{vs}", f"attacks with {card.name} [{card.id}]{vs}")


@COMBAT_ACTIONS
def act_forced_attack(it, node, a):
    party = it.vars.get(a.get("party"), a.get("party"))
    card = active(it, it.turn_player, party)
    if card is None:
        return m.Text("アクティブキャラがいない", "no active character")
    it.attack = Attack(card, None, it.turn_player)
    it.fire("attack_declared", subject=card)
    return m.Text(f"{card.name}がアタック（コストなし）", f"{card.name} [{card.id}] attacks (no attack cost)")


@COMBAT_ACTIONS
def act_declare_block(it, node, a):
    pid = it.player_of(a["player"])
    ch = it.choice_at(node)
    card = it.card_for(ch)
    if it.attack is None:
        return m.Text("アタックがない", "no attack to block")
    if card is None:
        return m.Text("防御しない", "does not defend")
    if card.owner != pid:
        raise SimulationError("R503", f"{card.name} [{card.id}] does not belong to {it.who(pid)}", node.loc)
    if card not in attackers(it, pid) or card.state not in (None, "stand", "active"):
        raise SimulationError("R503", f"{card.name} [{card.id}] cannot block or guard: it must be a standing/active "
                              f"character in play (it is in {card.zone}, {card.state or 'no state'})", node.loc)
    it.attack.defender = card
    return m.Text(f"{card.name}で防御（ブロック・ガード）", f"defends with {card.name} [{card.id}]")


@COMBAT_ACTIONS
def act_modify(it, node, a):
    if it.attack is None:
        return m.Text("対象なし", "no attack: nothing to modify")
    card = it.attack.attacker if a["target"] == "attacker" else it.attack.defender
    if card is None:
        return m.Text("対象なし", "no such character")
    if a.get("by_level_of"):
        other = it.attack.attacker if a["by_level_of"] == "attacker" else it.attack.defender
        by = other.stat("level") if other else 0
    else:
        by = it.const(a.get("by", 0))
    if a.get("negate"):
        by = -by
    card.mods.append((a["stat"], by))
    return m.Text(f"{card.name}の{a['stat']}{by:+d}", f"{card.name}: {a['stat']} {by:+d} (now {card.stat(a['stat'])})")


@COMBAT_ACTIONS
def act_trigger_check(it, node, a):
    pid = it.player_of(a["player"])
    deck = it.zone(pid, "deck")
    if not deck:
        return m.Text("山札なし", "no card to reveal")
    card = deck[0]
    it.move_card(card, "resolution" if "resolution" in it.game.zones else "hand")
    it.revealed.append(card)
    if "soul" in card.spec.triggers and it.attack:
        it.attack.attacker.mods.append(("soul", 1))
    return m.Text(f"トリガー: {card.name}", f"trigger check: {card.name} [{card.id}] {card.spec.triggers or '(no icon)'}")


@COMBAT_ACTIONS
def act_trigger_icon(it, node, a):
    card = it.revealed[-1] if it.revealed else None
    if card is None:
        return m.Text("公開したカードなし", "no revealed card")
    done = []
    for icon in card.spec.triggers:
        if icon == "soul" and it.attack is not None:
            it.attack.attacker.mods.append(("soul", 1))
            done.append("soul +1")
        elif icon == "draw":
            it.draw(it.player_of(a["player"]), 1)
            done.append("draw 1")
        else:
            done.append(f"{icon}: no built-in effect")
    what = ", ".join(done) or "no trigger icon"
    return m.Text(f"{card.name}のトリガー: {what}", f"{card.name} [{card.id}] trigger: {what}")


@COMBAT_ACTIONS
def act_deal_damage(it, node, a):
    pid = it.player_of(a["player"])
    if it.attack is None:
        return m.Text("ダメージなし", "no damage")
    amount = max(0, it.attack.attacker.stat(a["amount"]))
    zone = next((z for z in ("clock", "damage", "damage_zone") if z in it.game.zones), None)
    if zone is None:
        it.damage_left = amount
        return m.Text(f"{amount}ダメージ", f"{amount} damage to {it.names[pid]}")
    for _ in range(amount):
        if it.zone(pid, "deck"):
            it.move_card(it.zone(pid, "deck")[0], zone)
    return m.Text(f"{it.names[pid]}に{amount}ダメージ", f"{amount} damage to {it.names[pid]}")


@COMBAT_ACTIONS
def act_damage_judgment(it, node, a):
    pid = it.player_of(a["player"])
    if it.attack is None:
        return m.Text("アタックがない", "no attack")
    amount = max(0, it.attack.attacker.stat(a["amount"]))
    flipped = []
    for _ in range(amount):
        deck = it.zone(pid, "deck")
        if not deck:
            break
        card = deck[0]
        if card.spec.type == "character" and "faction_area" in it.game.zones:
            it.move_card(card, "faction_area", top=True)
        else:
            it.move_card(card, "damage" if "damage" in it.game.zones else "discard")
        flipped.append(card)
        limit = it.game.constants.get("damage_limit")
        if isinstance(limit, int) and "damage" in it.game.zones and len(it.zone(pid, "damage")) >= limit:
            break
    return m.Text(f"ダメージ判定{amount}: {it.names_of(flipped)}",
                  f"damage judgment of {amount}: {it.names_of(flipped)} (damage zone: {len(it.zones[pid].get('damage', []))})")


@COMBAT_ACTIONS
def act_battle(it, node, a):
    if it.attack is None or it.attack.defender is None:
        return m.Text("バトルなし", "no battle")
    att, dfn = it.attack.attacker, it.attack.defender
    if a["compare"] == "power":
        pa, pd = att.stat("power"), dfn.stat("power")
        losers = [c for c, lose in ((att, pa <= pd), (dfn, pd <= pa)) if lose]
        for c in losers:
            c.state = "reverse"
            it.fire("reversed", subject=c)
        return m.Text(f"パワー{pa}対{pd}: {it.names_of(losers)}がリバース",
                      f"power {pa} vs {pd}: {it.names_of(losers) if losers else 'nobody'} reversed")
    hit, hp = ("ap", "dp") if a["compare"] == "ap_dp" else ("attack", "defense")
    # both deal their damage at once; it stays on the card until a damage reset
    dealt = [(c, other.stat(hit)) for c, other in ((dfn, att), (att, dfn))]
    for c, amount in dealt:
        c.damage += max(0, amount)
    gone = [c for c, _ in dealt if c.damage >= c.stat(hp)]
    marks = ", ".join(f"{c.name} {c.damage}/{c.stat(hp)}" for c, _ in dealt)
    to = a.get("to") or next((z for z in ("discard", "waiting_room", "junk_yard") if z in it.game.zones), None)
    if gone and to is None:
        return m.Text(f"バトル（{marks}）: {it.names_of(gone)}が破壊されるが、行き先の領域がルールにない",
                      f"battle ({marks}): {it.names_of(gone)} destroyed, but the rules name no zone for it: it stays")
    if a.get("destroy") == "by_abolish_effect":
        # the attacking player's units' effects first: they start as one cut, in that player's order
        for c in sorted(gone, key=lambda c: c.owner != it.turn_player):
            abolish = Ability(f"{c.id}.abolish", "abolish (to the " + to + ")", "auto", None, "self", None, None,
                              None, None, (), (m.Action("move", (("from", c.zone), ("to", to), ("which", "self"),
                                                                 ("who", "controller"))),))
            it.pending[c.owner].append(Pending(abolish, c, c.owner))
        return m.Text(f"バトル（{marks}）: {it.names_of(gone) or 'なし'}が破壊（廃棄の効果が待機）",
                      f"battle ({marks}): {it.names_of(gone) if gone else 'nobody'} destroyed"
                      + (" - abolish effects wait" if gone else ""))
    for c in gone:
        it.move_card(c, to)
    return m.Text(f"バトル（{marks}）: {it.names_of(gone) or 'なし'}が破壊", 
                  f"battle ({marks}): {it.names_of(gone) if gone else 'nobody'} destroyed")


@COMBAT_ACTIONS
def act_encore(it, node, a):
    return m.Text("アンコール", "encore")


@COMBAT_ACTIONS
def act_reset_damage(it, node, a):
    had = [c for pid in it.players for z in it.zones[pid].values() for c in z if c.damage]
    for c in had:
        c.damage = 0
    return m.Text(f"ダメージリセット: {it.names_of(had) if had else 'ダメージなし'}",
                  f"damage reset: {', '.join(c.name + ' [' + c.id + ']' for c in had) if had else 'no damage on any unit'}")
