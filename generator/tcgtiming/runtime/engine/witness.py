"""What a branch tested: for each predicate of the conditions of the cases it tried, the value the
run state had (a count, a number compared, the option chosen, the card looked at) and whether the
predicate held. A branch entry records these facts (``("case", id, tested)``, ``("otherwise",
tested)``), and a loop entry the facts behind its condition (``("loop", holds, tested)``), so a
trace says which case held and why, and ``expect:`` can assert the values.

A fact is ``(predicate, player or None, value, extra, held)``: ``value`` an int, a bool, a card or
option id, a pair of ints, or None; ``extra`` what the narration names besides (a zone, a state,
the node of a choice); ``held`` whether the predicate held. One witness per predicate, ``wit_<name>(cx, args)`` in ``WITNESSES``; a
predicate without one records whether it held."""
from __future__ import annotations

from ...core import model as m
from .state import READY, Registry

WITNESSES = Registry("wit_")


def _each(cx, player, value, extra=(), src: str | None = None):
    """A witness of a value per player (each player of 'any' or 'both'). ``src``: the value as a Python
    expression of ``st``, ``{}`` standing for the player (the fast tier writes it in place)."""
    seats = cx.seats(player) if player is not None else (0,)
    if len(seats) == 1:
        i = seats[0]

        def one(st, name, ok):
            pid = st.seat[i]
            return ((name, pid, value(st, pid), extra, ok),)
        wit = one
    elif len(seats) == 2:
        i, j = seats

        def two(st, name, ok):
            a, b = st.seat[i], st.seat[j]
            return ((name, a, value(st, a), extra, ok), (name, b, value(st, b), extra, ok))
        wit = two
    else:
        def every(st, name, ok):  # more than two players: each in turn order
            return tuple((name, p, value(st, p), extra, ok) for p in (st.seat[i] for i in seats))
        wit = every
    wit.src = (tuple(seats), src, extra) if src is not None else None
    return wit


@WITNESSES
def wit_count(cx, a):
    z = a["zone"]
    return _each(cx, a["player"], lambda st, pid: len(st.zones[pid][z]), (z,), f"len(st.zones[{{}}][{z!r}])")


@WITNESSES
def wit_has_state(cx, a):
    z, state = a.get("zone") or cx.zone("stage"), a["state"]
    return _each(cx, a["player"], lambda st, pid: sum(1 for c in st.zones[pid][z] if c.state == state), (z, state))


@WITNESSES
def wit_has_pending(cx, a):
    return _each(cx, a["player"], lambda st, pid: st.pending[pid].n, (), "st.pending[{}].n")


@WITNESSES
def wit_has_type(cx, a):
    t, zones = a["type"], ([a["zone"]] if a.get("zone") else list(cx.game.zones))
    return _each(cx, a["player"], lambda st, pid: sum(1 for z in zones for c in st.zones[pid][z] if c.spec.type == t))


@WITNESSES
def wit_has_keyword(cx, a):
    from .conditions import keyword_cards
    kw, cards = a["keyword"], keyword_cards(cx, a)
    return _each(cx, a["player"], lambda st, pid: sum(1 for c in cards(st, pid) if kw in c.spec.traits))


@WITNESSES
def wit_player_value(cx, a):
    name = a["value"]
    return _each(cx, a["player"], lambda st, pid: st.values[pid].get(name, 0), (name,))


@WITNESSES
def wit_played_this_turn(cx, a):
    kind = a["kind"]
    return _each(cx, a["player"], lambda st, pid: st.plays_made(pid, kind))


@WITNESSES
def wit_can_attack(cx, a):
    attackers = cx.attackers()
    return _each(cx, a["player"], lambda st, pid: sum(1 for c in attackers(st, pid) if c.state in READY))


@WITNESSES
def wit_lost(cx, a):
    return _each(cx, a["player"], lambda st, pid: pid in st.losers, (), "{} in st.losers")


def _source(wit, value: str, extra=()):
    """A witness of a value of no player, with the value as a Python expression of ``st``."""
    wit.src = (None, value, extra)
    return wit


def _number(get, src: str | None = None):
    def make(cx, a):
        wit = lambda st, name, ok: ((name, None, get(st), (), ok),)  # noqa: E731
        return _source(wit, src) if src is not None else wit
    return make


WITNESSES.update({
    "attacks_this_turn": _number(lambda st: st.attacks_this_turn, "st.attacks_this_turn"),
    "player_count": _number(lambda st: len(st.players), "len(st.players)"),
    "first_attack_of_turn": _number(lambda st: st.attacks_this_turn, "st.attacks_this_turn"),
    "damage_left": _number(lambda st: st.damage_left, "st.damage_left"),
    "stack_empty": _number(lambda st: len(st.stack), "len(st.stack)"),
    "revealed_is": _number(lambda st: st.revealed[-1].id if st.revealed else None),
    "chosen_has": _number(lambda st: st.chosen.id if st.chosen is not None else None),
})


@WITNESSES
def wit_chose(cx, a):
    node, extra = a["node"], (a["node"],)
    return _source(lambda st, name, ok: ((name, None, st.decisions.get(node), extra, ok),),
                   f"st.decisions.get({node!r})", extra)


@WITNESSES
def wit_stat_at_least(cx, a):
    who, stat, than, than_stat = a["who"], a["stat"], a["than"], a["than_stat"]

    extra = (who, stat, than, than_stat)

    def facts(st, name, ok):
        at = st.attack
        if at is None or at.defender is None:
            return ((name, None, None, extra, ok),)
        side = {"attacker": at.attacker, "defender": at.defender}
        return ((name, None, (side[who].stat(stat), side[than].stat(than_stat)), extra, ok),)
    return facts


@WITNESSES
def wit_active_has(cx, a):
    party, active = a.get("party"), cx.active()

    def facts(st, name, ok):
        card = active(st, st.seat[0], st.vars.get(party, party))
        return ((name, None, card.id if card is not None else None, (), ok),)
    return facts


def leaves(cond) -> list:
    """The predicates of a condition, in the order they are written."""
    if isinstance(cond, m.Pred):
        return [cond]
    if isinstance(cond, m.Not):
        return leaves(cond.cond)
    if isinstance(cond, (m.All, m.AnyOf)):
        return [p for c in cond.conds for p in leaves(c)]
    return []


def _held(st, name, ok):
    """The witness of a predicate without one: whether it held."""
    return ((name, None, ok, (), ok),)


def _witnesses(prog, cond) -> tuple:
    """(predicate, witness, test) for each predicate of a condition."""
    items = []
    for p in leaves(cond) if cond is not None else ():
        make = WITNESSES.get(p.name)
        items.append((p.name, make(prog.cx, dict(p.args)) if make is not None else _held, prog.condition(p)))
    return tuple(items)


def _facts(st, items) -> tuple:
    facts = []
    for name, wit, held in items:
        facts += wit(st, name, True if held(st) else False)
    return tuple(facts)


def _facts_source(prog, cond, const, known: bool | None = None) -> str:
    """``_facts`` of a condition's predicates as one Python expression of ``st`` (the same tuple):
    a witness with a value expression and a predicate with one are written in place, another is
    called (``const(prefix, value)`` names a value the code reads). ``known``: whether the condition
    holds, when the code has just tested it (a condition of one predicate is not tested again)."""
    parts = []
    for name, wit, held in _witnesses(prog, cond):
        expr = getattr(held, "expr", None)
        if known is not None and isinstance(cond, m.Pred):
            ok = repr(known)
        elif expr:
            ok = f"(True if {expr} else False)"
        else:
            ok = f"(True if {const('C', held)}(st) else False)"
        spec = getattr(wit, "src", None)
        if wit is _held and expr is not None:  # whether it held is the value
            parts.append(f"({name!r}, None, (wv := {ok}), (), wv)")
        elif spec is not None and expr is not None and spec[0] is None:  # a value of no player
            parts.append(f"({name!r}, None, {spec[1]}, {const('X', spec[2])}, {ok})")
        elif spec is not None and expr is not None:
            seats, value, extra = spec
            parts += [f"({name!r}, st.seat[{i}], {value.format(f'st.seat[{i}]')}, {const('X', extra)}, {ok})"
                      for i in seats]
        else:
            parts.append(f"*{const('W', wit)}(st, {name!r}, {ok})")
    return "(" + "".join(x + ", " for x in parts) + ")"


def tested_source(prog, node, k, const) -> str:
    """What ``branch_tester(prog, node)(st, k)`` (k None: ``loop_tester(prog, node)(st)``) returns, as source."""
    if k is None:
        return f"((None, {_facts_source(prog, node.condition, const)}),)"
    # the cases before k did not hold; case k (unless k is the 'otherwise') did
    return "(" + "".join(f"({c.id!r}, {_facts_source(prog, c.when, const, j == k)}), "
                         for j, c in enumerate(node.choices[:k + 1])) + ")"


def branch_tester(prog, node):
    """``tested(st, k)``: the facts behind the cases of a branch tried up to case k (k = number of cases:
    all of them, none held)."""
    per_case = tuple((c.id, _witnesses(prog, c.when)) for c in node.choices)
    upto = [per_case[:k + 1] for k in range(len(per_case) + 1)]

    def tested(st, k):
        return tuple([(cid, _facts(st, items)) for cid, items in upto[k]])
    return tested


def loop_tester(prog, node):
    """``tested(st)``: the facts behind a loop's condition, as one case (``None``)."""
    items = _witnesses(prog, node.condition)
    return lambda st: ((None, _facts(st, items)),)


__all__ = ["WITNESSES", "branch_tester", "leaves", "loop_tester", "tested_source"]
