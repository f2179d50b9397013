"""Checking a run against the facts a scenario or a ruling expects (``core.expect``): the order of
trace entries, facts right after an entry at a node (zones, cards' zones, states, values and
damage, the stack, pending abilities, priority, the window's pass count), events, and refusals.

The state at a node is worked out from the run's own records: the starting layout of the
scenario, then each entry's changes in order (moves, states, values, damage), the values reset
as the engine resets them (a card leaving the stage, the end of a turn); pending abilities, the
stack and priority are the snapshots each entry holds.

API for the callers (``tcgtiming simulate``, ``tcgtiming check``, the site):

    failures = check(run, scenario)            # a finished run with its entries
    c = Checking(program, scenario); c.feed(entry) ...; c.finish(run)   # entry by entry (streaming)
    failures = refusal(scenario, error)        # the run stopped with a SimulationError
    failures = check(run, scenario, expect=other)  # a ruling's facts about a scenario it names

Each failure is a ``Failure``: where the fact is written (``loc``), what was expected and what was
found (``message``), and the trace entry it concerns (``entry``, or None).
"""
from __future__ import annotations

from dataclasses import replace
from typing import NamedTuple

from ..core import model as m
from ..core.diagnostics import Diagnostic
from ..core.expect import At, Match
from .engine import Entry, Run, SimulationError
from .engine.melee import start_values
from .engine.result import verify_keyed
from .narrate import RENDER, Narrator

CODES = frozenset(RENDER) | {"lose", "rule", "interrupt", "resolved", "no_swap", "nothing_to_resolve"}


class Failure(NamedTuple):
    loc: m.Loc | None
    message: str
    entry: Entry | None = None


def _events(ev):
    """An event and the events nested in it (an ability's effects, a choice's action), depth first."""
    yield ev
    for x in ev[1:]:
        if type(x) is not tuple or not x:
            continue
        if type(x[0]) is str and x[0] in CODES:
            yield from _events(x)
        elif type(x[0]) is tuple:
            for y in x:
                if type(y) is tuple and y and type(y[0]) is str and y[0] in CODES:
                    yield from _events(y)


def _same(want, have) -> bool:
    return want is None or want == have


def matches(mt: Match, e: Entry) -> bool:
    """Whether the entry is one the matcher selects (``nth`` aside)."""
    ev = e.event
    actor = ev[2] if e.kind in ("rule", "interrupt") else e.actor  # a rule process applies to a player
    if not (_same(mt.node, e.node) and _same(mt.actor, actor) and _same(mt.turn, e.turn)):
        return False
    if mt.rule is not None and not (e.kind == "rule" and ev[1] == mt.rule):
        return False
    if mt.interrupt is not None and not (e.kind == "interrupt" and ev[1] == mt.interrupt):
        return False
    if mt.resolved is not None:
        refs = [x[2:4] for x in _events(ev) if x[0] in ("resolved", "resolve")] + \
               [x[1:3] for x in _events(ev) if x[0] == "resolve_chosen"]
        if not any(mt.resolved in r for r in refs):
            return False
    if mt.played is not None and not any(x[0] in ("window_play", "play") and x[1] == mt.played for x in _events(ev)):
        return False
    if mt.moved is not None:
        c, f, t = mt.moved
        if not any(x[0] == "move" and _same(c, x[1]) and _same(f, x[2]) and _same(t, x[3]) for x in e.changes):
            return False
    if mt.damage is not None and not _damaged(mt.damage, e):
        return False
    if mt.held is not None and not _held(mt.held, ev):
        return False
    if mt.tested is not None and not _tested(mt.tested, ev):
        return False
    if mt.state is not None:
        c, to = mt.state
        to = None if to == "none" else to
        if not any(x[0] == "state" and x[1] == c and x[3] == to for x in e.changes):
            return False
    return True


def _held(case: str, ev) -> bool:
    """A branch entry where this case held ('otherwise': none of them did)."""
    return (ev[0] == "case" and ev[1] == case) or (case == "otherwise" and ev[0] == "otherwise")


def _tested(want, ev) -> bool:
    """A branch (or loop) entry that found each (predicate, value) of ``want`` among the values it tested."""
    tested = ev[2] if ev[0] in ("case", "loop") and len(ev) > 2 else ev[1] if ev[0] == "otherwise" and len(ev) > 1 else None
    if not tested:
        return False
    found = [(f[0], f[2]) for _, facts in tested for f in facts]
    return all(any(name == p and type(v) is type(value) and v == value for name, v in found) for p, value in want)


def _damaged(want, e: Entry) -> bool:
    pid, cid, amount = want
    for x in _events(e.event):
        if x[0] == "damage" and cid is None and _same(pid, x[1]) and _same(amount, x[2]):
            return True
        if x[0] == "damage_card" and pid is None and _same(cid, x[1]) and _same(amount, x[2]):
            return True
        if x[0] == "combat_damage" and any(_same(pid, p) and _same(cid, c) and _same(amount, k) for _, c, p, k in x[2]):
            return True  # a hit of combat damage: on a card (card) or on a player (player)
        if x[0] == "damage_judgment" and cid is None and _same(pid, e.actor) and _same(amount, x[1]):
            return True  # the cards judged: the damage a player takes
        if x[0] == "call" and len(x) > 2 and pid is None and cid is None and _same(amount, x[2]):
            return True  # damage taken by a procedure of the game: the amount it is called with
    if pid is None:
        return any(x[0] == "damage" and x[2] > 0 and _same(cid, x[1]) and _same(amount, x[2]) for x in e.changes)
    return False


class Board:
    """Every card's owner, zone, state, values and damage, kept up to date entry by entry."""

    def __init__(self, program, scenario):
        setup = program.setup(scenario)
        self.stage = setup.stage
        self.turn = 1
        self.owner, self.zone, self.state, self.base, self.values, self.damage = {}, {}, {}, {}, {}, {}
        self.ahead: dict[str, list] = {}  # card -> moves already made that a later entry lists
        self.player_values = start_values(program.game, scenario)  # player -> value (life) -> number
        for pid, layout in setup.zones:
            for z, cards in layout:
                for spec, base, _slot in cards:
                    cid = spec.id
                    self.owner[cid], self.zone[cid], self.state[cid] = pid, z, spec.state
                    self.base[cid], self.values[cid], self.damage[cid] = dict(base), dict(base), 0

    def apply(self, e: Entry) -> None:
        if e.turn != self.turn:  # the modifiers of a turn end with it
            self.turn = e.turn
            for cid, base in self.base.items():
                self.values[cid] = dict(base)
        for x in e.changes:
            k = x[0]
            if k == "move":
                self.move(x[1], x[2], x[3])
            elif k == "state":
                self.state[x[1]] = x[3]
            elif k == "stat":
                self.values.setdefault(x[1], {})[x[2]] = x[4]
            elif k == "damage":
                self.damage[x[1]] = x[3]
            elif k == "value":
                self.player_values[x[1]][x[2]] = x[4]

    def move(self, cid: str, frm, to) -> None:
        """A card moved. An entry made inside a node's work (an interrupt) is recorded before the node's
        own entry, whose changes include the moves made before it: a move whose origin is not where
        the card is was made after one that a later entry lists, which is then not made again."""
        cur = self.zone.get(cid)
        ahead = self.ahead.get(cid)
        if ahead and ahead[0] == (frm, to):
            ahead.pop(0)
            return
        if frm is not None and cur != frm:
            self.ahead.setdefault(cid, []).append((cur, frm))
        self.zone[cid] = to
        if to != self.stage:
            self.values[cid] = dict(self.base.get(cid, {}))
            self.damage[cid] = 0

    def cards_in(self, pid: str, zone: str) -> list[str]:
        return sorted(c for c, z in self.zone.items() if z == zone and self.owner.get(c) == pid)


def _refs(items, want) -> bool:
    """Whether (card, ability) pairs are the ones listed (each a card id or an ability id)."""
    return len(items) == len(want) and all(w in (c, a) for (c, a, *_), w in zip(items, want))


def _ids(items) -> str:
    return "[" + ", ".join(f"{c}/{a}" for c, a, *_ in items) + "]"


def priority_fact(at: At, holder: str | None) -> list[str]:
    """Whether the holder of priority after the entry (as the next entry finds it, or at the end of
    the run) is the one ``at`` names."""
    if at.priority is not None and (holder or "none") != at.priority:
        return [f"priority: expected {at.priority} to hold priority after the entry, found {holder or 'none'}"]
    return []


def at_facts(at: At, e: Entry, board: Board) -> list[str]:
    """What of ``at`` does not hold right after entry ``e`` (the board brought up to it)."""
    bad = []
    for pid, zones in at.zones:
        for z, want in zones:
            have = board.cards_in(pid, z)
            if isinstance(want, int) and len(have) != want:
                bad.append(f"{pid}'s {z}: expected {want} card(s), found {len(have)} [{', '.join(have)}]")
            elif not isinstance(want, int) and sorted(want) != have:
                bad.append(f"{pid}'s {z}: expected [{', '.join(sorted(want))}], found [{', '.join(have)}]")
    for cid, cf in at.cards:
        if cf.zone is not None and board.zone.get(cid) != cf.zone:
            bad.append(f"{cid}: expected in {cf.zone}, found in {board.zone.get(cid)}")
        if cf.state is not None and (board.state.get(cid) or "none") != cf.state:
            bad.append(f"{cid}: expected state {cf.state}, found {board.state.get(cid) or 'none'}")
        for stat, v in cf.values:
            have = board.values.get(cid, {}).get(stat, 0)
            if have != v:
                bad.append(f"{cid}: expected {stat} {v}, found {have}")
        if cf.damage is not None and board.damage.get(cid, 0) != cf.damage:
            bad.append(f"{cid}: expected damage {cf.damage}, found {board.damage.get(cid, 0)}")
    for pid, vals in at.values:
        for k, v in vals:
            have = board.player_values.get(pid, {}).get(k, 0)
            if have != v:
                bad.append(f"{pid}'s {k}: expected {v}, found {have}")
    if at.stack is not None and not _refs(e.stack, at.stack):
        bad.append(f"stack: expected [{', '.join(at.stack)}], found {_ids(e.stack)}")
    pending = dict(e.pending)
    for pid, want in at.pending or ():
        have = pending.get(pid, ())
        if not _refs(have, want):
            bad.append(f"{pid}'s pending abilities: expected [{', '.join(want)}], found {_ids(have)}")
    if at.passes is not None:
        have = e.event[1] if e.event[0] == "pass" else 0
        if have != at.passes:
            bad.append(f"passes: expected {at.passes}, found {have} (entry: {e.event[0]})")
    return bad


class Checking:
    """The facts of a scenario's ``expect`` checked entry by entry (``feed``), then ``finish``."""

    def __init__(self, program, scenario):
        ex = scenario.expect
        self.sc = scenario
        self.facts = ex.facts if ex is not None else None
        f = self.facts
        self.order = [[o, 0, 0, None, None] for o in (f.order if f else ())]  # fact, seen a, seen b, entry a, entry b
        self.events = [[h, 0, None] for h in (f.events if f else ())]  # fact, count, first entry
        self.at = [[a, 0, None, None] for a in (f.at if f else ())]  # fact, seen, entry, problems
        self.holder_after: list = []  # the facts about priority waiting for the next entry
        self.board = Board(program, scenario) if f is not None and f.at else None
        self.last: Entry | None = None

    @property
    def needed(self) -> bool:
        return bool(self.order or self.events or self.at)

    def feed(self, e: Entry) -> None:
        self.last = e
        for a in self.holder_after:
            a[3] += priority_fact(a[0], e.priority)
        self.holder_after = []
        if self.board is not None:
            self.board.apply(e)
        for o in self.order:
            fact = o[0]
            for i, mt in ((1, fact.first), (2, fact.then)):
                if o[i + 2] is None and matches(mt, e):
                    o[i] += 1
                    if o[i] == (mt.nth or 1):
                        o[i + 2] = e
        for h in self.events:
            mt = h[0].match
            if matches(mt, e):
                h[1] += 1
                if h[2] is None and h[1] >= (mt.nth or 1):
                    h[2] = e
        for a in self.at:
            if a[2] is None and e.node == a[0].where.node and a[0].where.turn in (None, e.turn):
                a[1] += 1
                if a[1] == a[0].where.nth:
                    a[2], a[3] = e, at_facts(a[0], e, self.board)
                    if a[0].priority is not None:
                        self.holder_after.append(a)

    def finish(self, run: Run | None = None, error: SimulationError | None = None) -> list[Failure]:
        out = []
        f = self.facts
        if f is None:
            return out
        holder = run.machine.priority if run is not None and run.machine is not None else None
        for a in self.holder_after:
            a[3] += priority_fact(a[0], holder)
        self.holder_after = []
        if run is not None:
            out += [Failure(f.loc(key), msg, self.last) for key, msg in verify_keyed(run, self.sc)]
        for fact, na, nb, ea, eb in self.order:
            a, b = fact.first.words(), fact.then.words()
            if ea is None or eb is None:
                missing = [w for w, x in ((a, ea), (b, eb)) if x is None]
                out.append(Failure(fact.loc, f"expected {a} before {b}, but no trace entry matches "
                                   f"{' nor '.join(missing)}", ea or eb))
            elif ea.seq >= eb.seq:
                out.append(Failure(fact.loc, f"expected {a} before {b}, but {a} is trace entry {ea.seq} "
                                   f"({ea.node}) and {b} trace entry {eb.seq} ({eb.node})", ea))
        for h, n, first in self.events:
            want = h.count
            if want is None and first is None:
                seen = f" (only {n} match)" if n else ""
                out.append(Failure(h.loc, f"expected an entry matching {h.match.words()}, found none{seen}", self.last))
            elif want is not None and n != want:
                out.append(Failure(h.loc, f"expected {want} entries matching {h.match.words()}, found {n}", first))
        for fact, seen, e, bad in self.at:
            where = f"entry {fact.where.nth} at '{fact.where.node}'" + (f" in turn {fact.where.turn}" if fact.where.turn else "")
            if e is None:
                out.append(Failure(fact.loc, f"expected {where}, but the node has {seen} entries", self.last))
            elif bad:
                out.append(Failure(fact.loc, f"at trace entry {e.seq} ({where}): " + "; ".join(bad), e))
        out += refusal(self.sc, error)
        return out


def refusal(scenario, error: SimulationError | None) -> list[Failure]:
    """What of the expected refusal does not hold (a refusal expected and none made, or another)."""
    ex = scenario.expect
    want = ex.facts.refused if ex is not None and ex.facts is not None else None
    if want is None:
        return []
    if error is None:
        return [Failure(want.loc, "expected the run to be refused, but it ran to the end")]
    bad = []
    if want.code is not None and error.code != want.code:
        bad.append(f"code {want.code} expected, got {error.code}")
    missing = [w for w in want.names if w not in error.message]
    if missing:
        bad.append(f"the message does not name {', '.join(missing)}")
    if bad:
        return [Failure(want.loc, f"expected refusal: {'; '.join(bad)} (the refusal: {error.code} {error.message})")]
    return []


def expects_refusal(scenario) -> bool:
    ex = scenario.expect
    return ex is not None and ex.facts is not None and ex.facts.refused is not None


def check(run: Run | None, scenario, error: SimulationError | None = None, program=None, expect=None) -> list[Failure]:
    """Every fact of the scenario's ``expect`` that does not hold of a run (empty: all hold). With
    ``error`` (the run stopped): only the refusal. ``expect``: other facts than the scenario's (a
    ruling's, about a scenario it names), checked instead."""
    if expect is not None:
        scenario = replace(scenario, expect=expect)
    if run is None:
        return refusal(scenario, error)
    c = Checking(program or run.program, scenario)
    for e in run.entries:
        c.feed(e)
    return c.finish(run, error)


def diagnostics(failures: list[Failure], game: m.Game, scenario, lang: str = "en") -> list[Diagnostic]:
    """Each failure as an R505 diagnostic at the place the fact is written, with the trace entry it
    concerns as a note (narrated in ``lang``)."""
    n = Narrator(game, scenario, lang)
    out = []
    for f in failures:
        loc = f.loc
        notes = ()
        if f.entry is not None:
            e = f.entry
            notes = (f"trace entry {e.seq}, turn {e.turn}, at {e.node} ({e.kind}): {n.entry(e)}",)
        out.append(Diagnostic("R505", f.message, loc.file if loc else scenario.file, loc.line if loc else 0,
                              loc.col if loc else 0, notes=notes))
    return out


__all__ = ["Failure", "diagnostics", "Checking", "Board", "check", "refusal", "expects_refusal", "matches"]
