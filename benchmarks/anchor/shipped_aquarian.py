"""The semantic floor of two shipped Aquarian Age scenarios (rules/aquarian/scenarios/
tenth-damage-ends-game.yaml and damage-judgment-no-recheck.yaml): their turn written by hand, keeping
the engine's state (``shipped_floor``), as plain functions. ``run_t`` records the engine's record
stream, ``run_u`` records nothing.

The turn is the one the two scenarios take through rules/aquarian/game.yaml: the draw phase, the
faction phase's checks (a for-each over the six factions: the active character of each, an
aggressive one attacking, the guard decision, the response window, the outcome, the damage
judgment, the ten-card loss), its free window, the main phase's decision and the power card phase's.
Every test the engine makes at run time on that path is made here too (the deck empty, the loser
list, the active character and its traits, the decisions, the attacker present, the damage count,
the scripted choices and their options); a branch neither scenario takes raises
``NotImplementedError``. Nothing listens to an event in these scenarios and the game's interrupt
rule has no condition, so a compile for them would fire nothing and scan nothing: neither does this.
"""
from __future__ import annotations

from shipped_floor import Attack, GameOver, Plan, out_of_steps, run_plain, run_traced, take
from shipped_window import window_t, window_u

ZONES = ("deck", "hand", "faction_area", "control_area", "damage")
SCENARIOS = ("tenth-damage-ends-game", "damage-judgment-no-recheck")
FACTIONS = ("ego", "arayashiki", "wizdom", "darklore", "kyokusei", "eraser")  # the game's list 'factions'
IN_PLAY = frozenset({"faction_area"})  # the zones a present attacker is in (the parties)
DAMAGE_LIMIT = 10
CHECKS = "faction.checks"
GUARD, RESPONSE = "faction.checks.aggressive.attack.guard", "faction.checks.aggressive.attack.response"
GUARD_OPTIONS, MAIN_OPTIONS, SET_OPTIONS = (
    frozenset({"guard", "no_guard"}),
    frozenset({"character", "break", "permanent", "project", "fast", "effect", "attack", "end"}),
    frozenset({"active", "controlled", "none"}))
# the program's node indices the records name (tests/test_floor_shipped.py checks them)
NODES = {"turn.begin": 0, "turn.end": 1, "draw.begin": 2, "draw.end": 3, "draw.draw": 4, "draw.empty_deck": 5,
         "faction.begin": 7, "faction.end": 8, CHECKS: 9, "faction.checks.look": 10, "faction.checks.aggressive": 11,
         "faction.checks.aggressive.attack.declare": 12, GUARD: 13, RESPONSE: 15,
         "faction.checks.aggressive.attack.outcome": 16, "faction.checks.aggressive.attack.outcome.damage.judgment": 18,
         "faction.checks.aggressive.attack.outcome.damage.judgment.else.1": 20,
         "faction.checks.aggressive.attack.outcome.damage.ten": 21,
         "faction.checks.aggressive.attack.outcome.damage.ten.lost.1": 22,
         "faction.checks.aggressive.attack.outcome.damage.next": 23, "faction.checks.aggressive.else.1": 25,
         "faction.free": 26, "main.begin": 27, "main.end": 28, "main.act": 29, "main.act.end.1": 39,
         "power.begin": 47, "power.end": 48, "power.set": 49, "power.control": 52}
NO_EFFECTS = {}


def plan(name, max_steps=None):
    return Plan("aquarian", name, ZONES, (), max_steps)


def active(st, pid, party):
    """The active character of a faction's party: its top card."""
    for c in st.zones[pid]["faction_area"]:
        if c.spec.faction == party:
            return c
    return None


def has(card, trait):
    return card is not None and (trait in card.spec.traits or card.stat(trait) > 0)


def choice(st, node, options):
    """The next scripted choice of a player node, when it answers the decision (else unscripted)."""
    lst = st.choices.get(node)
    if not (lst and not (ch := lst[0]).card and ch.take in options):  # (no choice listed twice: no taken-already test)
        raise NotImplementedError(f"an unscripted decision at {node}")
    ch, t = take(st, lst, {"take"})
    st.player_choice_node, st.player_choice = node, t
    st.chosen, st.chosen_by = None, t
    st.decisions[node] = ch.take
    return ch.take


def foreach(st):
    """The for-each over the factions: the next one (its id), or None when every one is done."""
    st.node = 9
    i = st.loops.get(CHECKS, 0)
    if i < 6:
        st.loops[CHECKS] = i + 1
        fid = st.vars["faction"] = FACTIONS[i]
        return fid
    st.loops.pop(CHECKS, None)
    st.vars.pop("faction", None)
    return None


def end_game(st, ni):
    st.result = "lose"
    st.losers = [st.seat[0]]
    if st.out is not None:
        st.out((ni, ("end_game", "lose", tuple(st.losers))))
    raise GameOver


def judgment(st, pid, o):
    """The damage judgment by the attacker's attack: each flipped card to the top of its party (a
    character) or the damage zone, until the tenth damage. ``o``: the record stream or None."""
    at = st.attack
    if at is None:
        raise NotImplementedError("a judgment with no attack")
    amount = max(0, at.attacker.stat("attack"))
    zones = st.zones[pid]
    pile, parties, damage = zones["deck"], zones["faction_area"], zones["damage"]
    flipped = []
    for _ in range(amount):
        if not pile:
            break
        c = pile[0]
        del pile[0]
        if c.spec.type == "character":
            parties.insert(0, c)
            to = "faction_area"
        else:
            damage.append(c)
            to = "damage"
        came, c.zone = c.zone, to
        if o is not None:
            o(("move", c.id, came, to))
        c.mods = ()
        c.damage = 0
        flipped.append(c.id)
        if len(damage) >= DAMAGE_LIMIT:
            break
    return ("damage_judgment", amount, tuple(flipped), len(damage))


def draw(st, pid, o):
    """One card drawn (none if the deck is empty: the interrupt rule has nothing to do)."""
    zones = st.zones[pid]
    deck = zones["deck"]
    if not deck:
        return ()
    c = deck[0]
    del deck[0]
    zones["hand"].append(c)
    came, c.zone = c.zone, "hand"
    if o is not None:
        o(("move", c.id, came, "hand"))
    c.mods = ()
    c.damage = 0
    return (c.id,)


# --- traced --------------------------------------------------------------------------------------------
def run_t(plan):
    """One run with the engine's records: (state, records)."""
    return run_traced(plan, turn_t)


def turn_t(st):
    o = st.out
    st.left -= 1
    if st.left < 0:
        out_of_steps(st)
    if st.loops:
        st.loops.pop(CHECKS, None)
    o((0, ("begin",)))
    SE = st.seat
    # the draw phase
    st.left -= 3
    if st.left < 0:
        out_of_steps(st)
    o((2, ("begin",)))
    st.at = 4
    pid = SE[0]
    o((4, ("draw", pid, draw(st, pid, o)), pid))
    if pid in st.losers:
        raise NotImplementedError("a draw from an empty deck")
    o((5, ("otherwise", (("lost", (("lost", pid, False, (), False),)),))))
    st.left -= 1
    if st.left < 0:
        out_of_steps(st)
    o((3, ("end",)))
    faction_t(st, o, SE)
    # the main phase
    st.left -= 2
    if st.left < 0:
        out_of_steps(st)
    o((27, ("begin",)))
    st.at = st.node = 29
    take_ = choice(st, "main.act", MAIN_OPTIONS)
    o((29, ("choose", take_, None), SE[0], "scenario"))
    if take_ != "end":
        raise NotImplementedError("a main phase action")
    st.left -= 2
    if st.left < 0:
        out_of_steps(st)
    o((39, ("exit", "main")))
    o((28, ("end",)))
    # the power card phase
    st.left -= 2
    if st.left < 0:
        out_of_steps(st)
    o((47, ("begin",)))
    st.at = st.node = 49
    take_ = choice(st, "power.set", SET_OPTIONS)
    o((49, ("choose", take_, None), SE[0], "scenario"))
    if take_ != "none":
        raise NotImplementedError("a power card set")
    st.left -= 1
    if st.left < 0:
        out_of_steps(st)
    d = st.decisions.get("power.set")
    if d == "active":
        raise NotImplementedError("a character controlled")
    o((52, ("otherwise", (("control", (("chose", None, d, ("power.set",), False),)),))))
    st.left -= 2
    if st.left < 0:
        out_of_steps(st)
    o((48, ("end",)))
    o((1, ("end",)))


def faction_t(st, o, SE):
    st.left -= 1
    if st.left < 0:
        out_of_steps(st)
    if st.loops:
        st.loops.pop(CHECKS, None)
    o((7, ("begin",)))
    ZO = st.zones
    while True:
        st.left -= 1
        if st.left < 0:
            out_of_steps(st)
        fid = foreach(st)
        if fid is None:
            o((9, ("items_done",)))
            st.left -= 2
            if st.left < 0:
                out_of_steps(st)
            window_t(st, 26, "faction.free", SE[0], True, NO_EFFECTS)
            o((8, ("end",)))
            return
        o((9, ("item", "factions", fid, st.loops[CHECKS], 6)))
        st.left -= 2
        if st.left < 0:
            out_of_steps(st)
        st.at = 10
        o((10, ("label",)))
        card = active(st, SE[0], st.vars.get("faction"))
        if not has(card, "aggressive"):
            o((11, ("otherwise", (("attack", (("active_has", None, card.id if card else None, (), False),)),))))
            st.left -= 1
            if st.left < 0:
                out_of_steps(st)
            o((25, ("label",)))
            continue
        o((11, ("case", "attack", (("attack", (("active_has", None, card.id, (), True),)),))))
        st.left -= 2
        if st.left < 0:
            out_of_steps(st)
        st.at = 12
        st.attack = Attack(card, None, SE[0])  # the forced attack of the active character
        o((12, ("forced_attack", card.id)))
        st.at = st.node = 13
        take_ = choice(st, GUARD, GUARD_OPTIONS)
        o((13, ("choose", take_, None), SE[0], "scenario"))
        if take_ == "guard":
            raise NotImplementedError("a guard")
        st.left -= 2
        if st.left < 0:
            out_of_steps(st)
        window_t(st, 15, RESPONSE, SE[0], False, NO_EFFECTS)
        d = st.decisions.get(GUARD)
        guard = d == "guard"
        at = st.attack
        ap = at is not None and at.attacker.zone in IN_PLAY
        dp = at is not None and at.defender is not None and at.defender.zone in IN_PLAY
        chose = ("chose", None, d, (GUARD,), guard)
        battle = ("battle", (chose, ("attacker_present", None, ap, (), ap), ("defender_present", None, dp, (), dp)))
        if (guard and ap and dp) or not (not guard and ap):
            raise NotImplementedError("a battle, or an attack that ends with no effect")
        o((16, ("case", "damage", (battle, ("damage", (chose, ("attacker_present", None, ap, (), ap)))))))
        st.left -= 1
        if st.left < 0:
            out_of_steps(st)
        card = active(st, SE[0], st.vars.get("faction"))
        if has(card, "mental_attack"):
            raise NotImplementedError("a mental attack")
        o((18, ("otherwise", (("mental", (("active_has", None, card.id if card else None, (), False),)),))))
        st.left -= 1
        if st.left < 0:
            out_of_steps(st)
        st.at = 20
        o((20, judgment(st, SE[0], o), SE[0]))
        st.left -= 1
        if st.left < 0:
            out_of_steps(st)
        n = len(ZO[SE[0]]["damage"])
        if n >= DAMAGE_LIMIT:
            o((21, ("case", "lost", (("lost", (("count", SE[0], n, ("damage",), True),)),))))
            st.left -= 1
            if st.left < 0:
                out_of_steps(st)
            end_game(st, 22)
        o((21, ("otherwise", (("lost", (("count", SE[0], n, ("damage",), False),)),))))
        st.left -= 1
        if st.left < 0:
            out_of_steps(st)
        o((23, ("label",)))


# --- untraced ------------------------------------------------------------------------------------------
def run_u(plan):
    """One run without records: the state."""
    return run_plain(plan, turn_u)


def turn_u(st):
    st.left -= 1
    if st.left < 0:
        out_of_steps(st)
    if st.loops:
        st.loops.pop(CHECKS, None)
    SE = st.seat
    st.left -= 3
    if st.left < 0:
        out_of_steps(st)
    pid = SE[0]
    draw(st, pid, None)
    if pid in st.losers:
        raise NotImplementedError("a draw from an empty deck")
    st.left -= 1
    if st.left < 0:
        out_of_steps(st)
    faction_u(st, SE)
    st.left -= 2
    if st.left < 0:
        out_of_steps(st)
    st.node = 29
    if choice(st, "main.act", MAIN_OPTIONS) != "end":
        raise NotImplementedError("a main phase action")
    st.left -= 4
    if st.left < 0:
        out_of_steps(st)
    st.node = 49
    if choice(st, "power.set", SET_OPTIONS) != "none":
        raise NotImplementedError("a power card set")
    st.left -= 1
    if st.left < 0:
        out_of_steps(st)
    if st.decisions.get("power.set") == "active":
        raise NotImplementedError("a character controlled")
    st.left -= 2
    if st.left < 0:
        out_of_steps(st)


def faction_u(st, SE):
    st.left -= 1
    if st.left < 0:
        out_of_steps(st)
    if st.loops:
        st.loops.pop(CHECKS, None)
    ZO = st.zones
    while True:
        st.left -= 1
        if st.left < 0:
            out_of_steps(st)
        if foreach(st) is None:
            st.left -= 2
            if st.left < 0:
                out_of_steps(st)
            window_u(st, 26, "faction.free", SE[0], True, NO_EFFECTS)
            return
        st.left -= 2
        if st.left < 0:
            out_of_steps(st)
        card = active(st, SE[0], st.vars.get("faction"))
        if not has(card, "aggressive"):
            st.left -= 1
            if st.left < 0:
                out_of_steps(st)
            continue
        st.left -= 2
        if st.left < 0:
            out_of_steps(st)
        st.attack = Attack(card, None, SE[0])
        st.node = 13
        if choice(st, GUARD, GUARD_OPTIONS) == "guard":
            raise NotImplementedError("a guard")
        st.left -= 2
        if st.left < 0:
            out_of_steps(st)
        window_u(st, 15, RESPONSE, SE[0], False, NO_EFFECTS)
        guard = st.decisions.get(GUARD) == "guard"
        at = st.attack
        ap = at is not None and at.attacker.zone in IN_PLAY
        dp = at is not None and at.defender is not None and at.defender.zone in IN_PLAY
        if (guard and ap and dp) or not (not guard and ap):
            raise NotImplementedError("a battle, or an attack that ends with no effect")
        st.left -= 1
        if st.left < 0:
            out_of_steps(st)
        if has(active(st, SE[0], st.vars.get("faction")), "mental_attack"):
            raise NotImplementedError("a mental attack")
        st.left -= 1
        if st.left < 0:
            out_of_steps(st)
        judgment(st, SE[0], None)
        st.left -= 1
        if st.left < 0:
            out_of_steps(st)
        if len(ZO[SE[0]]["damage"]) >= DAMAGE_LIMIT:
            st.left -= 1
            if st.left < 0:
                out_of_steps(st)
            end_game(st, 22)
        st.left -= 1
        if st.left < 0:
            out_of_steps(st)
