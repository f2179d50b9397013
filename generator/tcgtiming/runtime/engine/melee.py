"""Combat with several attackers and blockers (``core.vocab.ACTIONS``): declaring attackers and
blockers (``st.combat``, a ``state.Combat``), combat damage dealt in a first-strike or a regular
step, and the players' values (life) with the end of the game once a player has lost. One compiler
each, ``act_<name>(cx, node, args)``, entered in ``MELEE_ACTIONS``. The single attack of the other
games (``combat``: ``st.attack``) is untouched.

Which keyword deals damage in which step, which value is dealt and which player value damage
lowers are arguments the rule file gives; the engine knows no keyword of its own."""
from __future__ import annotations

from .cards import ids
from .state import READY, Combat, GameOver, Registry, SimulationError

MELEE_ACTIONS = Registry("act_")
NO_LOSER = ("no_loser",)  # end_if_lost with no one lost (a window's before_priority leaves it out)


def start_values(game, scenario) -> dict:
    """Each player's values (life) as the run starts: the rule file's start, or the scenario's."""
    if not game.player_values and not scenario.values:  # most games: no value, a run pays next to nothing
        return {p[0]: {} for p in scenario.players}
    start = {k: v.get("start", 0) for k, v in (game.player_values or {}).items()}
    own = dict(scenario.values)
    return {pid: {**start, **dict(own.get(pid, ()))} for pid, *_ in scenario.players}


def change_value(st, pid: str, name: str, by: int) -> int:
    """A player value changes (a fact of the current entry: ``("value", player, name, old, new)``);
    the value it had."""
    vals = st.values[pid]
    old = vals.get(name, 0)
    vals[name] = old + by
    st.note(("value", pid, name, old, old + by))
    return old


def fighting(st, play, pid: str | None = None) -> list:
    """The cards attacking or blocking in the current combat that are still in play (the zones
    ``play``), of the player if given: a card that left play has left the combat."""
    cb = st.combat
    if cb is None:
        return []
    return [c for c in cb.cards() if c.zone in play and (pid is None or c.owner == pid)]


def _refuse(st, what: str, card, pid: str, able, where):
    """A card named by a choice that cannot attack or block: why (whose it is, where it is), and the
    cards that can."""
    if card is None:
        raise SimulationError("R503", f"a card named there cannot {what}: it is in no zone", where)
    why = f"it does not belong to {st.who(pid)}" if card.owner != pid else f"it is {st.where(card)}"
    raise SimulationError("R503", f"{card.name} [{card.id}] cannot {what}: {why}; the cards that can are "
                          f"{', '.join(c.id for c in able) or 'none'}", where)


@MELEE_ACTIONS
def act_declare_attackers(cx, node, a):
    i, can, to = cx.seat(a["player"]), cx.attackers(), a.get("state")
    j = cx.seat(a["defender"]) if a.get("defender") else None

    def run(st):
        pid = st.seat[i]
        by = st._chosen_by  # the decision that chose to attack names the attackers (card or cards)
        wanted = (list(by.cards) or ([by.card] if by.card else [])) if by is not None else []
        able = [c for c in can(st, pid) if c.state in READY]
        chosen = []
        for cid in wanted:
            c = st.cards.get(cid)
            if c is None or c not in able or c in chosen:
                _refuse(st, "attack now" if c not in chosen else "attack twice", c, pid, able, by.choice.loc)
            chosen.append(c)
        if not wanted:
            if st.strict and len(able) > 1:  # the only card that can attack: forced
                raise SimulationError("R501", f"unscripted attackers at '{node.id}'", node.loc,
                                      help=f"add cards: [<id>, ...] to the choice that decides to attack before {node.id}")
            chosen = able[:1]
        if not chosen:
            return ("no_attacker",)
        defender = st.seat[j] if j is not None else st.other(pid)
        st.combat = Combat(pid, defender, chosen)
        st.attacks_this_turn += 1
        for c in chosen:
            if to is not None:
                st.set_state(c, to)
            st.fire("attack_declared", c)
        return ("attackers", ids(chosen), defender)
    return run


@MELEE_ACTIONS
def act_declare_blockers(cx, node, a):
    i, can, play = cx.seat(a["player"]), cx.attackers(), cx.in_play()

    def run(st):
        pid, cb = st.seat[i], st.combat
        if cb is None or not cb.attackers:
            return ("no_attack_to_block",)
        ch = st.choice_at(node)
        pairs = ch.blocks if ch is not None else ()
        able = [c for c in can(st, pid) if c.state in (None,) + READY and c not in cb.attackers]
        where = ch.loc if ch is not None else node.loc
        for b, at in pairs:
            blocker, attacker = st.cards.get(b), st.cards.get(at)
            if blocker is None or attacker is None:
                _refuse(st, "block", None, pid, able, where)
            if blocker not in able:
                _refuse(st, "block", blocker, pid, able, where)
            if attacker not in cb.attackers or attacker.zone not in play:
                raise SimulationError("R503", f"{blocker.name} [{b}] cannot block {attacker.name} [{at}]: it is not "
                                      f"attacking; the attackers are {', '.join(ids(cb.attackers))}", where)
            cb.blocks.setdefault(at, []).append(blocker)
        return ("blockers", tuple(pairs))
    return run


def assign(amount: int, blockers: list, lethal: str) -> list:
    """An attacker's damage among the cards blocking it, in their order: to each but the last, what
    is lethal to it (its value ``lethal`` less the damage it has); all the rest to the last one."""
    out, left = [], amount
    for k, b in enumerate(blockers):
        n = left if k == len(blockers) - 1 else min(left, max(0, b.stat(lethal) - b.damage))
        out.append((b, n))
        left -= n
    return out


@MELEE_ACTIONS
def act_combat_damage(cx, node, a):
    step, stat, first, double, lethal, life = a["step"], a["stat"], a["first"], a["double"], a["lethal"], a["life"]
    play = cx.in_play()
    if step == "first":
        deals = lambda c: first in c.spec.traits or double in c.spec.traits  # noqa: E731
    else:
        deals = lambda c: first not in c.spec.traits or double in c.spec.traits  # noqa: E731

    def run(st):
        cb = st.combat
        if cb is None:
            return ("combat_damage", step, ())
        hits = []  # (source, card dealt damage or None, player dealt damage or None, amount): all at once
        for att in cb.attackers:
            if att.zone not in play:
                continue  # gone before this step: it deals and is dealt no combat damage
            blockers = [b for b in cb.blocks.get(att.id, ()) if b.zone in play]
            power = max(0, att.stat(stat))
            if deals(att) and power:
                if att.id not in cb.blocks:
                    hits.append((att.id, None, cb.defender, power))
                else:  # blocked: its blockers share the damage (none left: it deals none)
                    hits += [(att.id, b.id, None, n) for b, n in assign(power, blockers, lethal) if n]
            hits += [(b.id, att.id, None, max(0, b.stat(stat))) for b in blockers if deals(b) and b.stat(stat) > 0]
        for _, cid, pid, n in hits:
            if cid is not None:
                st.deal(st.cards[cid], n)
            else:
                change_value(st, pid, life, -n)
        return ("combat_damage", step, tuple(hits))
    return run


@MELEE_ACTIONS
def act_end_if_lost(cx, node, a):
    def run(st):
        if not st.losers:
            return NO_LOSER
        st.result = "draw" if len(st.losers) == len(st.players) else "lose"
        st.note((st.at, ("game_over", st.result, tuple(st.losers))))
        raise GameOver
    return run
