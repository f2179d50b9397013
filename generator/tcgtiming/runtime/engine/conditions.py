"""The predicates of conditions (``core.vocab.PREDICATES``): one compiler each, ``pred_<name>(cx,
args)``, entered in ``PREDICATES``; it resolves the arguments once (roles to seats, constants to
integers, zones to ids) and returns the test, a function of the run state. A test may also carry
``expr``: the same test as a Python expression of ``st`` (the run state), which the program's code
writes in place of the call."""
from __future__ import annotations

import operator

from .abilities import marker
from .combat import lethal
from .melee import fighting
from .state import READY, Registry

PREDICATES = Registry("pred_")

_OPS = {"gt": (lambda n: lambda v: v > n, ">"), "ge": (lambda n: lambda v: v >= n, ">="),
        "lt": (lambda n: lambda v: v < n, "<"), "le": (lambda n: lambda v: v <= n, "<="),
        "eq": (lambda n: lambda v: v == n, "==")}


def compare(cx, a):
    """The comparison of a predicate's gt/ge/lt/le/eq argument: (test of a value, its source ``{} > 7``)."""
    for k, (make, op) in _OPS.items():
        if k in a:
            n = cx.int(a[k])
            return make(n), "{} " + op + " " + repr(n)
    return (lambda v: False), "False"


def inline(fn, expr: str):
    fn.expr = expr
    return fn


def compiled(src: str):
    """A test made from its source (the expression of ``st`` it carries as ``expr``): one function,
    where a closure calling the predicate's own test for a seat is two calls."""
    fn = eval(compile(f"lambda st: {src}", "<tcgtiming condition>", "eval"), {})
    fn.expr = src
    return fn


def per_player(cx, player, test, expr: str | None = None):
    """``test(st, pid)`` for the players of a player argument: all of them for 'both', any for 'any'.
    ``expr``: the test as source, ``{}`` standing for the player (then the test is made from it)."""
    seats = cx.seats(player)
    if len(seats) == 1:
        i = seats[0]
        fn = lambda st: test(st, st.seat[i])  # noqa: E731
        src = f"({expr.format(f'st.seat[{i}]')})" if expr else None
    else:  # every player ('both': all of them; 'any': one of them)
        every = player == "both"
        if seats == (0, 1):  # two players (the common case: no loop)
            fn = (lambda st: test(st, st.seat[0]) and test(st, st.seat[1])) if every else \
                (lambda st: test(st, st.seat[0]) or test(st, st.seat[1]))
        else:
            fn = (lambda st: all(test(st, st.seat[i]) for i in seats)) if every else \
                (lambda st: any(test(st, st.seat[i]) for i in seats))
        src = "(" + (" and " if every else " or ").join(expr.format(f"st.seat[{i}]") for i in seats) + ")" if expr else None
    return compiled(src) if src else fn


@PREDICATES
def pred_first_turn_of_game(cx, a):
    return inline(lambda st: st.first_turn and st.turn_index == 0, "(st.first_turn and st.turn_index == 0)")


@PREDICATES
def pred_first_attack_of_turn(cx, a):
    return inline(lambda st: st.attacks_this_turn == 0, "(st.attacks_this_turn == 0)")


def compared(cx, a, attr: str):
    """A predicate comparing a number the run state keeps (``st.<attr>``) with the argument."""
    test, src = compare(cx, a)
    get = operator.attrgetter(attr)
    return inline(lambda st: test(get(st)), "(" + src.format(f"st.{attr}") + ")")


@PREDICATES
def pred_attacks_this_turn(cx, a):
    return compared(cx, a, "attacks_this_turn")


@PREDICATES
def pred_player_count(cx, a):
    test, src = compare(cx, a)  # the program is made for one number of players: a constant
    held = test(cx.players)
    return inline(lambda st: held, repr(held))


@PREDICATES
def pred_count(cx, a):
    (test, src), z = compare(cx, a), a["zone"]
    return per_player(cx, a["player"], lambda st, pid: test(len(st.zones[pid][z])),
                      src.format(f"len(st.zones[{{}}][{z!r}])"))


@PREDICATES
def pred_has_pending(cx, a):
    return per_player(cx, "any" if a["player"] == "both" else a["player"], lambda st, pid: st.pending[pid].n > 0,
                      "st.pending[{}].n > 0")


@PREDICATES
def pred_has_state(cx, a):
    z, state = a.get("zone") or cx.zone("stage"), a["state"]
    return per_player(cx, "any" if a["player"] == "both" else a["player"],
                      lambda st, pid: any(c.state == state for c in st.zones[pid][z]),
                      source(f"any(c.state == {state!r} for c in st.zones[{{}}][{z!r}])", state, z))


def source(expr: str, *names) -> str | None:
    """A predicate's source, unless a name written in it has a brace (read as a place for the player)."""
    return None if any("{" in str(n) or "}" in str(n) for n in names) else expr


@PREDICATES
def pred_can_attack(cx, a):
    i, attackers = cx.seat(a["player"]), cx.attackers()
    return lambda st: any(c.state in READY for c in attackers(st, st.seat[i]))


@PREDICATES
def pred_opposing_character(cx, a):
    return inline(lambda st: st.attack is not None and st.attack.defender is not None,
                  "(st.attack is not None and st.attack.defender is not None)")


@PREDICATES
def pred_attacker_present(cx, a):
    play = cx.in_play()
    return lambda st: st.attack is not None and st.attack.attacker.zone in play


@PREDICATES
def pred_defender_present(cx, a):
    play = cx.in_play()
    return lambda st: st.attack is not None and st.attack.defender is not None and st.attack.defender.zone in play


@PREDICATES
def pred_chose(cx, a):
    node, option = a["node"], a["option"]
    return inline(lambda st: st.decisions.get(node) == option, f"(st.decisions.get({node!r}) == {option!r})")


@PREDICATES
def pred_revealed_is(cx, a):
    t = a["type"]
    return lambda st: bool(st.revealed) and st.revealed[-1].spec.type == t


@PREDICATES
def pred_active_has(cx, a):
    trait, party, active = a["trait"], a.get("party"), cx.active()

    def test(st):
        card = active(st, st.seat[0], st.vars.get(party, party))
        return card is not None and (trait in card.spec.traits or card.stat(trait) > 0)
    return test


@PREDICATES
def pred_lost(cx, a):
    return per_player(cx, a["player"], lambda st, pid: pid in st.losers, "{} in st.losers")


@PREDICATES
def pred_stack_empty(cx, a):
    return inline(lambda st: not st.stack, "(not st.stack)")


@PREDICATES
def pred_damage_left(cx, a):
    return compared(cx, a, "damage_left")


def keyword_cards(cx, a):
    """The cards of a player that a keyword test looks at: those in the zone (any zone), or, with
    in_combat, those attacking or blocking (still in the zone, if one is given)."""
    zones = [a["zone"]] if a.get("zone") else list(cx.game.zones)
    if a.get("in_combat"):
        play = cx.in_play()
        return lambda st, pid: [c for c in fighting(st, play, pid) if c.zone in zones]
    return lambda st, pid: [c for z in zones for c in st.zones[pid][z]]


@PREDICATES
def pred_has_keyword(cx, a):
    kw, cards = a["keyword"], keyword_cards(cx, a)
    zones = tuple([a["zone"]] if a.get("zone") else cx.game.zones)
    expr = None if a.get("in_combat") else \
        source(f"any({kw!r} in c.spec.traits for z in {zones!r} for c in st.zones[{{}}][z])", kw, *zones)
    return per_player(cx, "any" if a["player"] == "both" else a["player"],
                      lambda st, pid: any(kw in c.spec.traits for c in cards(st, pid)), expr)


@PREDICATES
def pred_in_combat(cx, a):
    play = cx.in_play()
    return per_player(cx, "any" if a["player"] == "both" else a["player"], lambda st, pid: bool(fighting(st, play, pid)))


@PREDICATES
def pred_player_value(cx, a):
    (test, src), name = compare(cx, a), a["value"]
    return per_player(cx, a["player"], lambda st, pid: test(st.values[pid].get(name, 0)),
                      src.format(f"st.values[{{}}].get({name!r}, 0)"))


@PREDICATES
def pred_has_type(cx, a):
    t, zones = a["type"], ([a["zone"]] if a.get("zone") else list(cx.game.zones))
    return per_player(cx, "any" if a["player"] == "both" else a["player"],
                      lambda st, pid: any(c.spec.type == t for z in zones for c in st.zones[pid][z]))


@PREDICATES
def pred_stat_at_least(cx, a):
    who, stat, than, than_stat = a["who"], a["stat"], a["than"], a["than_stat"]

    def test(st):
        at = st.attack
        if at is None or at.defender is None:
            return False
        side = {"attacker": at.attacker, "defender": at.defender}
        return side[who].stat(stat) >= side[than].stat(than_stat)
    return test


@PREDICATES
def pred_chosen_has(cx, a):
    kw, t = a.get("keyword"), a.get("type")
    return lambda st: (st.chosen is not None and (kw is None or kw in st.chosen.spec.traits)
                       and (t is None or st.chosen.spec.type == t))


@PREDICATES
def pred_untriggered(cx, a):
    """An auto ability waiting for the event that did not trigger when it last fired (its card arrived
    later, or its condition came to hold later) and would trigger now."""
    event = a["event"]
    cx.__dict__.setdefault("watched", set()).add(event)

    def test(st):
        fired = st.event_counts.get(event, 0)
        return any(st.event_counts.get(marker(event, c, ab)) != fired and st.could_trigger(event, c, ab)
                   for c, ab, *_ in st.listen.get(event, ()))
    return test


@PREDICATES
def pred_holds_role(cx, a):
    i, held = cx.seats(a["player"]), cx.role_seats(a["role"])
    if len(i) != 1:  # any / both: one of the players holds it
        return inline(lambda st: True, "True")
    i = i[0]
    if len(held) > 1:  # more than two players: a non_turn role is held by every player but the turn player
        return inline(lambda st: st.seat[i] != st.seat[0], f"(st.seat[{i}] != st.seat[0])")
    j = cx.seat(a["role"])
    return inline(lambda st: st.seat[i] == st.seat[j], f"(st.seat[{i}] == st.seat[{j}])")


@PREDICATES
def pred_during(cx, a):
    t = a["timing"]
    inside = frozenset(ni for ni, nid in enumerate(cx.game.nodes) if cx.game.nodes[nid].phase == t
                       or cx.game.nodes[nid].step == t)
    # the node being run, or a call being run from it (a procedure called in the main phase is in it)
    return lambda st: st.at in inside or any(f in inside for f in st.frames)


@PREDICATES
def pred_played_this_turn(cx, a):
    (test, _), kind = compare(cx, a), a["kind"]
    return per_player(cx, a["player"], lambda st, pid: test(st.plays_made(pid, kind)))


@PREDICATES
def pred_damage_reaches(cx, a):
    zone, stat = a["zone"], a["stat"]
    # as source: ``lethal`` finding a card (what a window's rule processing tests before each priority)
    return per_player(cx, a["player"], lambda st, pid: bool(lethal(st, pid, zone, stat)),
                      f"any({stat!r} in c.base and c.damage >= (c.stat({stat!r}) if c.mods else c.base[{stat!r}]) "
                      f"for c in st.zones[{{}}][{zone!r}])")  # (no modifiers: the value is the card's own)
