"""The predicates of conditions (``core.vocab.PREDICATES``): one function each, ``pred_<name>(it,
args)``, entered in ``PREDICATES``."""
from __future__ import annotations

from .state import Registry


COMPARE = {"gt": lambda a, b: a > b, "ge": lambda a, b: a >= b, "lt": lambda a, b: a < b,
           "le": lambda a, b: a <= b, "eq": lambda a, b: a == b}

PREDICATES = Registry("pred_")


def compare(it, value: int, args: dict) -> bool:
    for k, fn in COMPARE.items():
        if k in args:
            return fn(value, it.const(args[k]))
    return False


@PREDICATES
def pred_first_turn_of_game(it, a):
    return it.sc.first_turn and it.turn_index == 0


@PREDICATES
def pred_first_attack_of_turn(it, a):
    return it.attacks_this_turn == 0


@PREDICATES
def pred_attacks_this_turn(it, a):
    return compare(it, it.attacks_this_turn, a)


@PREDICATES
def pred_count(it, a):
    players = it.players_of(a["player"])
    test = all if a["player"] == "both" else any
    return test(compare(it, len(it.zone(p, a["zone"])), a) for p in players)


@PREDICATES
def pred_has_pending(it, a):
    return any(it.pending[p] for p in it.players_of(a["player"]))


@PREDICATES
def pred_has_state(it, a):
    z = a.get("zone", "stage")
    return any(c.state == a["state"] for p in it.players_of(a["player"]) for c in it.zone(p, z))


@PREDICATES
def pred_can_attack(it, a):
    pid = it.player_of(a["player"])
    return any(c.state in ("stand", "active") for c in attackers(it, pid))


def attackers(it, pid):
    zone = "stage" if "stage" in it.game.zones else next((z for z in ("control_area", "field") if z in it.game.zones), None)
    if zone is None:
        return []
    cards = it.zone(pid, zone)
    if zone == "stage":
        cards = [c for c in cards if c.slot is not None and c.slot < 3]  # the centre stage: the three front slots
    return [c for c in cards if c.spec.type in ("character", "unit")]


@PREDICATES
def pred_opposing_character(it, a):
    return it.attack is not None and it.attack.defender is not None


@PREDICATES
def pred_attacker_present(it, a):
    return it.attack is not None and it.attack.attacker.zone in ("stage", "control_area", "faction_area", "field")


@PREDICATES
def pred_defender_present(it, a):
    return (it.attack is not None and it.attack.defender is not None
            and it.attack.defender.zone in ("stage", "control_area", "faction_area", "field"))


@PREDICATES
def pred_chose(it, a):
    return it.decisions.get(a["node"]) == a["option"]


@PREDICATES
def pred_revealed_is(it, a):
    return bool(it.revealed) and it.revealed[-1].spec.type == a["type"]


def active(it, pid, party):
    for c in it.zones[pid].get("faction_area", []):
        if c.spec.faction == party:
            return c
    return None


@PREDICATES
def pred_active_has(it, a):
    party = it.vars.get(a.get("party"), a.get("party"))
    card = active(it, it.turn_player, party)
    return card is not None and (a["trait"] in card.spec.traits or card.stat(a["trait"]) > 0)


@PREDICATES
def pred_lost(it, a):
    test = all if a["player"] == "both" else any
    return test(p in it.losers for p in it.players_of(a["player"]))


@PREDICATES
def pred_stack_empty(it, a):
    return not it.stack


@PREDICATES
def pred_damage_left(it, a):
    return compare(it, it.damage_left, a)


@PREDICATES
def pred_has_keyword(it, a):
    zones = [a["zone"]] if a.get("zone") else list(it.game.zones)
    return any(a["keyword"] in c.spec.traits for p in it.players_of(a["player"]) for z in zones for c in it.zone(p, z))


@PREDICATES
def pred_stat_at_least(it, a):
    if it.attack is None or it.attack.defender is None:
        return False
    side = {"attacker": it.attack.attacker, "defender": it.attack.defender}
    return side[a["who"]].stat(a["stat"]) >= side[a["than"]].stat(a["than_stat"])
