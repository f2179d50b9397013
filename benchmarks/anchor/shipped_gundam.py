"""The semantic floor of the shipped Gundam War scenario rules/gundam/scenarios/cut-in-chain.yaml: its turn
written by hand, keeping the engine's state (``shipped_floor``), as plain functions. ``run_t`` records
the engine's record stream, ``run_u`` records nothing.

The turn is the one the scenario takes through rules/gundam/game.yaml: the reroll, draw and deploy
phases and the battle phase's four steps, with eleven free timings (``shipped_window``: scripted
passes, three plays cutting in on each other, the stack resolved newest first, the window opened
again), the closed timings' pending abilities resolved at once, the rule effects, the damage reset,
the hand limit and the end of effects. Every test the engine makes at run time on that path is made
here too; the interrupt rule (a player whose deck is empty loses) is tested after every move, as the
engine does. A branch the scenario never takes raises ``NotImplementedError``. Nothing listens to an
event in the scenario, so a compile for it would fire nothing: neither does this.
"""
from __future__ import annotations

from shipped_floor import Plan, out_of_steps, run_plain, run_traced, take
from shipped_window import negate_t, negate_u, window_t, window_u

ZONES = ("deck", "hand", "junk_yard", "field")
SCENARIOS = ("cut-in-chain",)
HAND_LIMIT = 7
PLAYS = frozenset({"card", "text", "own_turn_text", "enemy_turn_text", "own_battle_text", "enemy_battle_text"})
TIMED = {"own_turn_text": 0, "own_battle_text": 0, "enemy_turn_text": 1, "enemy_battle_text": 1}  # -> the seat
WHEN = frozenset({"own_battle_text", "enemy_battle_text"})  # play kinds with a condition of their own
# the program's node indices the records name (tests/test_floor_shipped.py checks them)
NODES = {"turn.begin": 0, "turn.end": 1, "reroll.begin": 2, "reroll.end": 3, "reroll.start": 4, "reroll.rule_effect": 5,
         "reroll.free": 6, "reroll.finish": 7, "draw.begin": 8, "draw.end": 9, "draw.start": 10, "draw.free_before": 11,
         "draw.rule_effect": 12, "draw.rule_effect.else.draw": 14, "draw.rule_effect.else.nation_empty": 15,
         "draw.free_after": 19, "draw.finish": 20, "deploy.begin": 21, "deploy.end": 22, "deploy.start": 23,
         "deploy.free": 24, "deploy.finish": 25, "battle.begin": 26, "battle.end": 27}
# each battle step: (its name, its first node index); its nodes are begin, end, start, free_before, rule_effect,
# free_after, finish from there (the return step has its own last nodes)
STEPS = (("attack", 28), ("defense", 35), ("damage", 42), ("return", 49))
NODES.update((f"battle.{s}.{n}", i + k) for s, i in STEPS for k, n in enumerate(
    ("begin", "end", "start", "free_before", "rule_effect", "free_after",
     "finish" if s != "return" else "damage_reset")))
NODES.update({"battle.return.effect_resolution": 56, "battle.return.hand_adjustment": 57,
              "battle.return.effects_end": 58})


def plan(name, max_steps=None):
    return Plan("gundam", name, ZONES, ("field",), max_steps)


def interrupts(st):
    """The interrupt rule 'defeat', tested after a move: a player whose deck is empty, not lost yet, loses."""
    if st.in_interrupt:
        return
    zones, losers, s = st.zones, st.losers, st.seat
    for p in (s[0], s[1]):
        if not zones[p]["deck"] and p not in losers:
            raise NotImplementedError("a player loses by an empty deck")


def draw(st, pid, n, o):
    """``n`` cards drawn (``Machine.draw``): each move followed by the interrupt rule's test; ``o``: the
    record stream or None."""
    zones = st.zones[pid]
    deck, hand = zones["deck"], zones["hand"]
    drawn = []
    for _ in range(n):
        if not deck:
            interrupts(st)
            if not deck:
                break
        c = deck[0]
        del deck[0]
        hand.append(c)
        came, c.zone = c.zone, "hand"
        if o is not None:
            o(("move", c.id, came, "hand"))
        c.mods = ()
        c.damage = 0
        interrupts(st)
        drawn.append(c.id)
    return tuple(drawn)


def draw_effect(st, item, e):
    """The draw effect of a resolving stack item: its controller (or the other player) draws."""
    args = e[1]
    pid = item.controller
    if args.get("who", "controller") != "controller":
        pid = st.players[pid == st.players[0]]
    return ("draw", pid, draw(st, pid, args.get("count", 1), st.out))


EFFECTS_T = {"negate": negate_t, "draw": draw_effect}
EFFECTS_U = {"negate": negate_u, "draw": draw_effect}


def at_once(st):
    """A closed timing's triggered abilities resolved at once (nothing listens to its event): how many."""
    n = 0
    for pid in st.order:
        if st.pending[pid].n:
            raise NotImplementedError("a pending ability resolved at once")
    return ("at_once", n)


def set_state(st, cards, to, o):
    """The cards put into a state (a change recorded for each card whose state changes)."""
    for c in cards:
        if c.state != to:
            if o is not None:
                o(("state", c.id, c.state, to))
            c.state = to
    return ("set_state", tuple(c.id for c in cards), to)


def rule_effect(st, ni, nid):
    """A step's rule effect the player may decline, its choice scripted: taken as the engine takes a
    player's choice (the decision, the chosen card, the position)."""
    lst = st.choices.get(nid)
    if not lst:  # (no choice listed twice: the engine tests for one taken already only then)
        raise NotImplementedError("an unscripted rule effect")
    st.at = st.node = ni
    ch, t = take(st, lst, {"take"})
    st.player_choice_node, st.player_choice = nid, t
    c = ch.card
    st.chosen, st.chosen_by = (st.cards.get(c) if c else None), t
    if ch.take != "no":
        raise NotImplementedError("a rule effect done")
    st.decisions[nid] = "no"


def attack_cards(st, pid, which):
    """The attacking or defending card on the player's field (``pick_cards``)."""
    at = st.attack
    if at is None:
        return []
    card = at.attacker if which == "attacker" else at.defender
    return [card] if card in st.zones[pid]["field"] else []


def reset_damage(st, o):
    """The damage on every card reset (none is damaged in this turn, but every card is looked at)."""
    had = [c for pid in st.players for z in st.zones[pid].values() for c in z if c.damage]
    for c in had:
        if o is not None:
            o(("damage", c.id, -c.damage, 0))
        c.damage = 0
    return ("reset_damage", tuple(c.id for c in had))


def end_effects(st):
    for pid in st.players:
        for z in st.zones[pid].values():
            for c in z:
                if c.mods:
                    raise NotImplementedError("a modifier ends")
    return ("end_effects",)


def run_t(plan):
    """One run with the engine's records: (state, records)."""
    return run_traced(plan, turn_t)


def _w(st, ni, nid):
    window_t(st, ni, nid, st.seat[0], True, EFFECTS_T, PLAYS, TIMED, WHEN)


def turn_t(st):
    o = st.out
    SE = st.seat
    st.left -= 7
    if st.left < 0:
        out_of_steps(st)
    o((0, ("begin",)))
    # the reroll phase
    o((2, ("begin",)))
    st.at = 4
    o((4, ("closed", at_once(st))))
    st.at = 5
    o((5, set_state(st, list(st.zones[SE[0]]["field"]), "stand", o), SE[0]))
    _w(st, 6, "reroll.free")
    st.at = 7
    o((7, ("closed", at_once(st))))
    o((3, ("end",)))
    # the draw phase
    st.left -= 4
    if st.left < 0:
        out_of_steps(st)
    o((8, ("begin",)))
    st.at = 10
    o((10, ("trigger", "draw_phase_start", ())))
    _w(st, 11, "draw.free_before")
    if st.first_turn and st.turn_index == 0:
        raise NotImplementedError("the first turn of the game")
    o((12, ("otherwise", (("first_turn", (("first_turn_of_game", None, False, (), False),)),))))
    st.left -= 2
    if st.left < 0:
        out_of_steps(st)
    st.at = 14
    o((14, ("draw", SE[0], draw(st, SE[0], 1, o)), SE[0]))
    a, b = SE[0] in st.losers, SE[1] in st.losers
    if a or b:
        raise NotImplementedError("a player lost")
    o((15, ("otherwise", (("both", (("lost", SE[0], a, (), False), ("lost", SE[1], b, (), False))),
                          ("attack_side", (("lost", SE[0], a, (), False),)),
                          ("defense_side", (("lost", SE[1], b, (), False),))))))
    st.left -= 3
    if st.left < 0:
        out_of_steps(st)
    _w(st, 19, "draw.free_after")
    st.at = 20
    o((20, ("closed", at_once(st))))
    o((9, ("end",)))
    # the deploy phase
    st.left -= 5
    if st.left < 0:
        out_of_steps(st)
    o((21, ("begin",)))
    st.at = 23
    o((23, ("trigger", "deploy_phase_start", ())))
    _w(st, 24, "deploy.free")
    st.at = 25
    o((25, ("closed", at_once(st))))
    o((22, ("end",)))
    # the battle phase: its four steps
    st.left -= 1
    if st.left < 0:
        out_of_steps(st)
    o((26, ("begin",)))
    for (step, i), seat in zip(STEPS[:2], (0, 1)):
        st.left -= 7
        if st.left < 0:
            out_of_steps(st)
        o((i, ("begin",)))
        st.at = i + 2
        o((i + 2, ("trigger", f"{step}_step_start", ())))
        _w(st, i + 3, f"battle.{step}.free_before")
        rule_effect(st, i + 4, f"battle.{step}.rule_effect")
        o((i + 4, ("declines",), SE[seat], "scenario"))
        _w(st, i + 5, f"battle.{step}.free_after")
        st.at = i + 6
        o((i + 6, ("closed", at_once(st))))
        o((i + 1, ("end",)))
    st.left -= 7
    if st.left < 0:
        out_of_steps(st)
    o((42, ("begin",)))
    st.at = 44
    o((44, ("trigger", "damage_step_start", ())))
    _w(st, 45, "battle.damage.free_before")
    st.at = 46
    at = st.attack
    if at is not None and at.defender is not None:
        raise NotImplementedError("a battle")
    o((46, ("no_battle",)))
    _w(st, 47, "battle.damage.free_after")
    st.at = 48
    o((48, ("closed", at_once(st))))
    o((43, ("end",)))
    st.left -= 10
    if st.left < 0:
        out_of_steps(st)
    o((49, ("begin",)))
    st.at = 51
    o((51, ("trigger", "return_step_start", ())))
    _w(st, 52, "battle.return.free_before")
    st.at = 53
    o((53, ("together", (set_state(st, attack_cards(st, SE[0], "attacker"), "rest", o),
                         set_state(st, attack_cards(st, SE[1], "defender"), "rest", o))), SE[0]))
    _w(st, 54, "battle.return.free_after")
    st.at = 55
    o((55, ("closed", reset_damage(st, o))))
    st.at = 56
    o((56, ("closed", at_once(st))))
    st.at = 57
    hand = st.zones[SE[0]]["hand"]
    if len(hand) > HAND_LIMIT:
        raise NotImplementedError("a discard to the hand limit")
    o((57, ("closed", ("within_limit", len(hand), HAND_LIMIT))))
    st.at = 58
    o((58, ("closed", end_effects(st))))
    o((50, ("end",)))
    st.left -= 1
    if st.left < 0:
        out_of_steps(st)
    o((27, ("end",)))
    st.left -= 1
    if st.left < 0:
        out_of_steps(st)
    o((1, ("end",)))


# --- untraced ------------------------------------------------------------------------------------------
def run_u(plan):
    """One run without records: the state."""
    return run_plain(plan, turn_u)


def _wu(st, ni, nid, window=window_u, effects=EFFECTS_U):
    window(st, ni, nid, st.seat[0], True, effects, PLAYS, TIMED, WHEN)


def turn_u(st):
    SE = st.seat
    st.left -= 7
    if st.left < 0:
        out_of_steps(st)
    at_once(st)
    set_state(st, list(st.zones[SE[0]]["field"]), "stand", None)
    _wu(st, 6, "reroll.free")
    at_once(st)
    st.left -= 4
    if st.left < 0:
        out_of_steps(st)
    _wu(st, 11, "draw.free_before")
    if st.first_turn and st.turn_index == 0:
        raise NotImplementedError("the first turn of the game")
    st.left -= 2
    if st.left < 0:
        out_of_steps(st)
    draw(st, SE[0], 1, None)
    if SE[0] in st.losers or SE[1] in st.losers:
        raise NotImplementedError("a player lost")
    st.left -= 3
    if st.left < 0:
        out_of_steps(st)
    _wu(st, 19, "draw.free_after")
    at_once(st)
    st.left -= 5
    if st.left < 0:
        out_of_steps(st)
    _wu(st, 24, "deploy.free")
    at_once(st)
    st.left -= 1
    if st.left < 0:
        out_of_steps(st)
    for step, i in STEPS[:2]:
        st.left -= 7
        if st.left < 0:
            out_of_steps(st)
        _wu(st, i + 3, f"battle.{step}.free_before")
        rule_effect(st, i + 4, f"battle.{step}.rule_effect")
        _wu(st, i + 5, f"battle.{step}.free_after")
        at_once(st)
    st.left -= 7
    if st.left < 0:
        out_of_steps(st)
    _wu(st, 45, "battle.damage.free_before")
    at = st.attack
    if at is not None and at.defender is not None:
        raise NotImplementedError("a battle")
    _wu(st, 47, "battle.damage.free_after")
    at_once(st)
    st.left -= 10
    if st.left < 0:
        out_of_steps(st)
    _wu(st, 52, "battle.return.free_before")
    set_state(st, attack_cards(st, SE[0], "attacker"), "rest", None)
    set_state(st, attack_cards(st, SE[1], "defender"), "rest", None)
    _wu(st, 54, "battle.return.free_after")
    reset_damage(st, None)
    at_once(st)
    if len(st.zones[SE[0]]["hand"]) > HAND_LIMIT:
        raise NotImplementedError("a discard to the hand limit")
    end_effects(st)
    st.left -= 2
    if st.left < 0:
        out_of_steps(st)
