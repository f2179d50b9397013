"""The ``expect:`` section of a scenario (and of a ruling): its shape, its meaning checked against
the game and the scenario's players and cards, and the ``core.scenario.Expect`` it builds (with
``core.expect.Facts``: order, facts at a node, events, a refusal; each with its place in the file).

    expect:
      visits: [node, ...]            # visited in this order (not necessarily adjacent)
      never: [node, ...]
      zones: {player: {zone: count | [card, ...]}}   # at the end
      result: lose | draw | ongoing
      loser: player
      order:                         # an entry matcher with before: or after: another
        - {rule: level_up, before: {node: ws.encore_step}}
      at:                            # facts right after the n-th entry at a node
        - {node: ws.main_window, nth: 2, priority: p2, passes: 1, stack: [card], pending: {p1: [ability]},
           zones: {p1: {hand: [a, b]}}, cards: {a: {zone: stage, state: rest, power: 3000, damage: 1}}}
      events:                        # an entry matcher (count: exactly n entries; 0: none)
        - {moved: {card: a, from: hand, to: stage}}
        - {damage: {player: p2, amount: 3}, count: 1}
      refused: {code: R503, names: [ws.climax_step]}   # the run stops with this error
"""
from __future__ import annotations

from typing import Literal, Union

from pydantic import Field

from ..core import model as m
from ..core.diagnostics import did_you_mean, one_of
from ..core.expect import At, CardFacts, Facts, Happens, Match, Order, Refused
from ..core.scenario import STATS, Expect
from ..core.vocab import PREDICATES
from ..core.words import WORDS
from .schema import Id, Model, Ref


class MovedSpec(Model):
    card: Id | None = None
    from_: Ref | None = Field(None, alias="from")
    to: Ref | None = None


class DamageSpec(Model):
    player: Id | None = None
    card: Id | None = None
    amount: int | None = None


class StateSpec(Model):
    card: Id
    to: Literal["stand", "rest", "reverse", "active", "sleep", "face_up", "face_down", "none"]


class MatchSpec(Model):
    """Selects trace entries: every key given must hold."""
    node: Ref | None = Field(None, description="the entry is at this node (a rule process or an ability resolved "
                             "inside a node's work is at that node)")
    nth: int | None = Field(None, description="the n-th entry that matches the other keys (default: the first)")
    rule: Ref | None = Field(None, description="a rule process id, applied in a rule-processing step")
    interrupt: Ref | None = Field(None, description="a rule process id, applied as an interrupt")
    resolved: Ref | None = Field(None, description="a card id or ability id: that ability resolved")
    played: Id | None = Field(None, description="a card id: the card (or its ability) is played")
    moved: MovedSpec | None = Field(None, description="a card moved (any of card, from, to)")
    damage: DamageSpec | None = Field(None, description="damage dealt to a player or a card (amount: exactly)")
    state: StateSpec | None = Field(None, description="a card's state changed to")
    held: Id | None = Field(None, description="a branch entry: this case held ('otherwise': none did)")
    tested: dict[str, Union[int, bool, str, None, list[int]]] | None = Field(
        None, description="a branch entry: each predicate of a case it tried found this value (a count, a number, "
        "yes/no as true/false, a card or option id, [a, b] for the two values stat_at_least compares)")
    actor: Id | None = None
    turn: int | None = Field(None, description="the turn (1-based)")


class OrderSpec(MatchSpec):
    before: MatchSpec | None = None
    after: MatchSpec | None = None


class EventSpec(MatchSpec):
    count: int | None = Field(None, description="exactly this many entries match (0: none)")


class CardFactsSpec(Model):
    zone: Ref | None = None
    state: Literal["stand", "rest", "reverse", "active", "sleep", "face_up", "face_down", "none"] | None = None
    damage: int | None = None
    values: dict[str, int] = Field(default_factory=dict, description="stat -> value (with the modifiers in force)")


class AtSpec(Model):
    node: Ref = Field(description="the node")
    nth: int = Field(1, description="the n-th trace entry at the node")
    turn: int | None = Field(None, description="counting only the entries of this turn (from 1)")
    zones: dict[str, dict[str, Union[int, list[Id]]]] | None = Field(
        None, description="player -> zone -> card count or card ids (any order)")
    cards: dict[str, CardFactsSpec] | None = None
    stack: list[Ref] | None = Field(None, description="card or ability ids on the stack, bottom first")
    pending: dict[str, list[Ref]] | None = Field(None, description="player -> card or ability ids pending, oldest first")
    priority: Id | None = Field(None, description="the player holding priority, or none")
    passes: int | None = Field(None, description="the window's pass count after this entry")
    values: dict[str, dict[str, int]] | None = Field(None, description="player -> player value -> number (e.g. life)")


class RefusedSpec(Model):
    code: Literal["R501", "R503"] | None = None
    names: list[str] = Field(default_factory=list, description="words the refusal's message names (node id, timing)")


class ExpectSpec(Model):
    visits: list[Ref] | None = Field(None, description="node ids visited in this order (not necessarily adjacent)")
    never: list[Ref] | None = Field(None, description="node ids never visited")
    zones: dict[str, dict[str, Union[int, list[Id]]]] | None = Field(
        None, description="player -> zone -> card count or card ids (in order) at the end")
    result: Literal["lose", "draw", "ongoing"] | None = None
    loser: Id | None = None
    order: list[OrderSpec] | None = Field(None, description="an entry before or after another")
    at: list[AtSpec] | None = Field(None, description="facts right after the n-th entry at a node")
    events: list[EventSpec] | None = Field(None, description="events that happen (count: how many times)")
    refused: RefusedSpec | None = Field(None, description="the run stops with a refusal")


for _m in (MatchSpec, OrderSpec, EventSpec, AtSpec, ExpectSpec):
    _m.model_rebuild()

MATCH_KEYS = tuple(MatchSpec.model_fields)


def check(ex: ExpectSpec, game: m.Game, pids: list, cards, fail) -> None:
    """Every id the expectations name is a node, rule process, zone, player, card or stat of the
    game and the scenario. ``fail(code, message, path, key=..., help=...)`` reports."""
    nodes = [n for n in game.nodes if not n.endswith((".begin", ".end"))]

    def node(nid, path):
        if nid not in game.nodes:
            fail("C302", f"unknown node '{nid}'", path, help=did_you_mean(nid, nodes))

    def player(pid, path, key=False):
        if pid is not None and pid not in pids:
            fail("C302", f"unknown player '{pid}'", path, key=key, help=did_you_mean(pid, pids))

    def card(cid, path, key=False):
        if cid is not None and cid not in cards:
            fail("C302", f"unknown card '{cid}'", path, key=key, help=did_you_mean(cid, cards))

    def zone(z, path, key=False):
        if z is not None and z not in game.zones:
            fail("C302", f"unknown zone '{z}'", path, key=key, help=did_you_mean(z, game.zones) or one_of(game.zones))

    def ability(ref, path):
        ids = list(cards) + [a.id or f"{cid}.{k + 1}" for cid, c in cards.items() for k, a in enumerate(c.abilities)]
        if ref not in ids and f"ability.{ref.partition(':')[0]}" not in WORDS:  # or one the engine makes (abolish, ...)
            fail("C302", f"'{ref}' is neither a card nor an ability of the scenario", path, help=did_you_mean(ref, ids))

    def zones(spec, path):
        for pid, zs in (spec or {}).items():
            player(pid, path + (pid,), key=True)
            for z in zs:
                zone(z, path + (pid, z), key=True)

    def match(ms: MatchSpec, path):
        if ms.node is not None:
            node(ms.node, path + ("node",))
        for key in ("rule", "interrupt"):
            rp = getattr(ms, key)
            if rp is not None and rp not in game.rule_processes:
                fail("C302", f"unknown rule process '{rp}'", path + (key,),
                     help=did_you_mean(rp, game.rule_processes) or one_of(game.rule_processes))
        if ms.resolved is not None:
            ability(ms.resolved, path + ("resolved",))
        card(ms.played, path + ("played",))
        if ms.moved is not None:
            card(ms.moved.card, path + ("moved", "card"))
            zone(ms.moved.from_, path + ("moved", "from"))
            zone(ms.moved.to, path + ("moved", "to"))
        if ms.damage is not None:
            player(ms.damage.player, path + ("damage", "player"))
            card(ms.damage.card, path + ("damage", "card"))
        if ms.state is not None:
            card(ms.state.card, path + ("state", "card"))
        for pred in ms.tested or {}:
            if pred not in PREDICATES:
                fail("C302", f"unknown predicate '{pred}'", path + ("tested", pred), key=True,
                     help=did_you_mean(pred, PREDICATES) or one_of(PREDICATES))
        player(ms.actor, path + ("actor",))
        for key in ("nth", "turn"):
            v = getattr(ms, key)
            if v is not None and v < 1:
                fail("S204", f"'{key}' counts from 1 (got {v})", path + (key,))
        if not any(getattr(ms, k) is not None for k in MATCH_KEYS if k != "nth"):
            fail("S202", "an entry matcher needs at least one of " + ", ".join(k for k in MATCH_KEYS if k != "nth"), path)

    for key in ("visits", "never"):
        for j, nid in enumerate(getattr(ex, key) or []):
            node(nid, ("expect", key, j))
    zones(ex.zones, ("expect", "zones"))
    player(ex.loser, ("expect", "loser"))
    for i, o in enumerate(ex.order or []):
        path = ("expect", "order", i)
        if (o.before is None) == (o.after is None):
            fail("S202", "an order fact has exactly one of 'before' and 'after'", path)
            continue
        match(o, path)
        other = "before" if o.before is not None else "after"
        match(getattr(o, other), path + (other,))
    for i, ev in enumerate(ex.events or []):
        match(ev, ("expect", "events", i))
        if ev.count is not None and ev.count < 0:
            fail("S204", f"'count' is a number of entries, 0 or more (got {ev.count})", ("expect", "events", i, "count"))
    for i, at in enumerate(ex.at or []):
        path = ("expect", "at", i)
        node(at.node, path + ("node",))
        for key in ("nth", "turn"):
            v = getattr(at, key)
            if v is not None and v < 1:
                fail("S204", f"'{key}' counts from 1 (got {v})", path + (key,))
        zones(at.zones, path + ("zones",))
        for cid, cf in (at.cards or {}).items():
            card(cid, path + ("cards", cid), key=True)
            zone(cf.zone, path + ("cards", cid, "zone"))
            for k in cf.values:
                if k not in STATS:
                    fail("S201", f"unknown stat '{k}'", path + ("cards", cid, "values", k), key=True,
                         help=did_you_mean(k, STATS) or one_of(STATS))
        for j, ref in enumerate(at.stack or []):
            ability(ref, path + ("stack", j))
        for pid, refs in (at.pending or {}).items():
            player(pid, path + ("pending", pid), key=True)
            for j, ref in enumerate(refs):
                ability(ref, path + ("pending", pid, j))
        if at.priority not in (None, "none"):
            player(at.priority, path + ("priority",))
        for pid, vals in (at.values or {}).items():
            player(pid, path + ("values", pid), key=True)
            for k in vals:
                if k not in (game.player_values or {}):
                    fail("C302", f"unknown player value '{k}'", path + ("values", pid, k), key=True,
                         help=did_you_mean(k, list(game.player_values or ())) or one_of(list(game.player_values or ())))


def _match(ms: MatchSpec) -> Match:
    mv, dm, sv = ms.moved, ms.damage, ms.state
    return Match(ms.node, ms.nth, ms.rule, ms.interrupt, ms.resolved, ms.played,
                 (mv.card, mv.from_, mv.to) if mv is not None else None,
                 (dm.player, dm.card, dm.amount) if dm is not None else None,
                 (sv.card, sv.to) if sv is not None else None, ms.actor, ms.turn, ms.held,
                 tuple((k, tuple(v) if isinstance(v, list) else v) for k, v in ms.tested.items())
                 if ms.tested is not None else None)


def _zones(spec) -> tuple:
    return tuple((pid, tuple((z, v if isinstance(v, int) else tuple(v)) for z, v in zs.items()))
                 for pid, zs in (spec or {}).items())


def build(ex: ExpectSpec | None, doc) -> Expect | None:
    """The ``Expect`` of a validated, checked ``expect:`` section (its facts located in ``doc``)."""
    if ex is None:
        return None

    def loc(*path) -> m.Loc:
        sp = doc.span(("expect",) + path)
        return m.Loc(doc.file, sp.line, sp.col)

    zones = None
    if ex.zones is not None:
        zones = m.freeze_map({pid: m.freeze_map({z: v if isinstance(v, int) else tuple(v) for z, v in zs.items()})
                              for pid, zs in ex.zones.items()})
    order = []
    for i, o in enumerate(ex.order or []):
        a, b = _match(o), _match(o.before if o.before is not None else o.after)
        order.append(Order(a, b, loc("order", i)) if o.before is not None else Order(b, a, loc("order", i)))
    at = tuple(At(Match(node=x.node, nth=x.nth, turn=x.turn), _zones(x.zones),
                  tuple((cid, CardFacts(cf.zone, cf.state, tuple(sorted(cf.values.items())), cf.damage))
                        for cid, cf in (x.cards or {}).items()),
                  tuple(x.stack) if x.stack is not None else None,
                  tuple((p, tuple(v)) for p, v in x.pending.items()) if x.pending is not None else None,
                  x.priority, x.passes, loc("at", i),
                  tuple((p, tuple(v.items())) for p, v in (x.values or {}).items())) for i, x in enumerate(ex.at or []))
    events = tuple(Happens(_match(e), e.count, loc("events", i)) for i, e in enumerate(ex.events or []))
    refused = Refused(ex.refused.code, tuple(ex.refused.names), loc("refused")) if ex.refused is not None else None
    locs = tuple((k, loc(k)) for k in ("visits", "never", "zones", "result", "loser") if getattr(ex, k) is not None)
    return Expect(tuple(ex.visits) if ex.visits is not None else None,
                  tuple(ex.never) if ex.never is not None else None, zones, ex.result, ex.loser,
                  Facts(tuple(order), at, events, refused, locs))


__all__ = ["ExpectSpec", "check", "build"]
