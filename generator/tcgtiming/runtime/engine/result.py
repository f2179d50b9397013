"""What a run gives back: its records (one per trace entry, kept as they were made and turned
into ``Entry`` objects only when read), the result and the final zones; and ``verify``, the facts a
scenario's ``expect`` states that do not hold of a run.

An entry is a set of facts. ``event`` says what happened, as a tuple ``(code, *args)`` whose
arguments are ids (cards, players, zones, options, abilities, events, rule processes), numbers
and nested events (the effects of an ability); the narration is rendered from it by
``runtime.narrate``. ``changes`` lists the changes made while the entry's work was done, in order:
``("move", card, from, to)``, ``("state", card, old, new)``, ``("stat", card, stat, old, new)``,
``("damage", card, amount, total)``, ``("slot", card, old, new)``, ``("shuffle", player, zone)``,
``("lose", player)``, ``("value", player, name, old, new)`` (a player value such as life). ``pending`` is ``((player, ((card, ability), ...)), ...)`` and ``stack``
``((card, ability, negated), ...)``, bottom first. A rule process applied, an interrupt, and an
ability resolved inside a node's work (the stack, a closed timing) are entries of their own, of
kind ``rule``, ``interrupt`` and ``resolve``, at that node.
"""
from __future__ import annotations

from typing import NamedTuple

from ...core import model as m
from ...core.scenario import Scenario
from .state import unsnap_queue, unsnap_stack

SUB_KINDS = {"rule": "rule", "interrupt": "interrupt", "resolved": "resolve"}


class Entry(NamedTuple):
    """One trace entry (immutable)."""

    seq: int
    turn: int
    node: str
    kind: str
    phase: str | None
    step: str | None
    procedure: str | None
    label: m.Text  # the node's label
    actor: str | None  # player id
    role: str | None
    decided_by: str | None  # "scenario" | "policy:<name>" for decisions
    event: tuple  # what happened: (code, *args)
    changes: tuple  # the changes made, in order
    pending: tuple  # ((player id, ((card id, ability id), ...)), ...)
    stack: tuple  # ((card id, ability id, negated), ...), bottom first
    priority: str | None  # player id holding priority (priority windows)
    cites: tuple[str, ...]


class Entries:
    """Turns the record stream of a run (``machine``) into entries, one record at a time: the changes
    before an entry are its own, the latest context is its context (consecutive entries share the
    tuples of an unchanged context)."""

    def __init__(self, prog, scenario: Scenario):
        self.prog = prog
        self.players = [p[0] for p in scenario.players]
        self.seat_role: dict = {}
        for r in prog.game.roles.values():
            self.seat_role.setdefault(r.get("seat"), r.id)
        self.scopes: list[list] = [[]]
        self.ctx = (1, None, (), (), None)
        self.seq = 0

    def feed(self, rec) -> Entry | None:
        """The entry a record completes, or None (a change, a context, the start of a scope)."""
        k = rec[0]
        if type(k) is not int:
            if k is not None:
                self.scopes[-1].append(rec)
            elif rec[1] is None:
                self.scopes.append([])
            else:
                turn, tp, queues, ssnap, prio = rec[1]
                pending = tuple((p, unsnap_queue(q)) for p, q in zip(self.players, queues))
                self.ctx = (turn + 1, tp, pending, unsnap_stack(ssnap), prio)
            return None
        ev = rec[1]
        nid, kind, phase, step, proc, label, cites = self.prog.info[k]
        if type(ev) is tuple and ev and ev[0] in SUB_KINDS:
            kind = SUB_KINDS[ev[0]]
            if len(self.scopes) > 1:
                changes = self.scopes.pop()
            else:
                changes, self.scopes[0] = self.scopes[0], []
        else:
            changes = self.scopes[-1]
            self.scopes[-1] = []
        actor = rec[2] if len(rec) > 2 else None
        by = rec[3] if len(rec) > 3 else None
        turn, tp, pending, stack, prio = self.ctx
        role = None if actor is None else self.seat_role.get("turn" if actor == tp else "non_turn")
        self.seq += 1
        return Entry(self.seq, turn, nid, kind, phase, step, proc, label, actor, role, by, ev, tuple(changes), pending,
                     stack, prio, cites)


class Run:
    """A run: ``entries`` (made from the records when first read; none when the trace was streamed
    or not kept), ``result`` (ongoing, lose or draw), ``losers``, the final ``zones``, and the final
    state's ``fingerprint``. In slots, and what is read from the program or the scenario read when asked
    (``game``, ``scenario``): every run makes one."""

    __slots__ = ("program", "setup", "records", "machine", "result", "losers", "policy_decisions", "checker", "_entries",
                 "_fingerprint", "_zones")

    def __init__(self, prog, scenario: Scenario, records, machine, checker=None):
        self.program = prog
        self.setup = scenario
        self.records = records
        self.machine = machine
        self.result = machine.result
        self.losers = tuple(machine.losers)
        self.policy_decisions = machine.policy_decisions
        self.checker = checker
        self._entries = self._fingerprint = self._zones = None

    @property
    def game(self) -> str:
        """The game's id."""
        return self.program.game.id

    @property
    def scenario(self) -> str:
        """The scenario's id."""
        return self.setup.id

    @property
    def zones(self) -> tuple:
        """player id -> zone -> card ids, at the end (zones left empty not listed)."""
        if self._zones is None:
            self._zones = self.machine.final_zones()
        return self._zones

    @property
    def board(self) -> dict:
        """card id -> (state, damage, ((stat, value), ...)), at the end: the values of the cards in play
        (stage, field), with the modifiers in force."""
        out = {}
        in_play = set(self.program.cx.zones_of("stage", "field"))
        for cid, c in self.machine.cards.items():
            keys = set(c.base) | {k for k, _ in c.mods} if c.zone in in_play else ()
            out[cid] = (c.state, c.damage, tuple(sorted((k, c.stat(k)) for k in keys)))
        return out

    @property
    def unused_choices(self) -> tuple:
        return self.machine.unused_choices()

    @property
    def unused_choice_data(self) -> tuple:
        """(node id, location, keys) of each choice whose data the decision it answered never read."""
        return self.machine.unused_choice_data()

    @property
    def fingerprint(self) -> tuple:
        if self._fingerprint is None:
            self._fingerprint = self.machine.fingerprint()
        return self._fingerprint

    @property
    def rules(self) -> m.Game:
        return self.program.game

    @property
    def entries(self) -> tuple[Entry, ...]:
        if self._entries is None:
            feed = Entries(self.program, self.setup).feed
            self._entries = tuple(e for e in map(feed, self.records or ()) if e is not None)
        return self._entries

    def nodes(self) -> list[str]:
        ids = self.program.ids
        return [ids[r[0]] for r in self.records or () if type(r[0]) is int]


class Checker:
    """The scenario's expected visits, checked as the entries stream by (O(1) memory)."""

    def __init__(self, scenario: Scenario):
        ex = scenario.expect
        self.visits = list(ex.visits or ()) if ex is not None else []
        self.never = set(ex.never or ()) if ex is not None else set()
        self.pos = 0
        self.never_seen: dict = {}
        self.n = 0

    def feed(self, nid: str) -> None:
        self.n += 1
        if self.pos < len(self.visits) and nid == self.visits[self.pos]:
            self.pos += 1
        if nid in self.never and nid not in self.never_seen:
            self.never_seen[nid] = self.n


def verify(run: Run, scenario: Scenario) -> list[str]:
    """The facts the scenario's ``expect`` states that do not hold of the run (empty: all hold)."""
    return [msg for _, msg in verify_keyed(run, scenario)]


def verify_keyed(run: Run, scenario: Scenario) -> list[tuple[str, str]]:
    """``verify``, each message with the key of ``expect`` it is about (visits, never, zones, result, loser)."""
    ex = scenario.expect
    if ex is None:
        return []
    problems = []
    if run.records is not None or run.checker is None:
        nodes = run.nodes()
        if ex.visits:
            pos = 0
            for want in ex.visits:
                try:
                    pos = nodes.index(want, pos) + 1
                except ValueError:
                    seen = "visited earlier only" if want in nodes else "never visited"
                    problems.append(("visits", f"expected a visit to '{want}' after the previous expected visit ({seen})"))
                    break
        for nid in ex.never or []:
            if nid in nodes:
                problems.append(("never", f"expected no visit to '{nid}', but trace entry {nodes.index(nid) + 1} visits it"))
    else:
        c = run.checker
        if c.pos < len(c.visits):
            problems.append(("visits", f"expected a visit to '{c.visits[c.pos]}' after the previous expected visit (never visited)"))
        for nid in ex.never or []:
            if nid in c.never_seen:
                problems.append(("never", f"expected no visit to '{nid}', but trace entry {c.never_seen[nid]} visits it"))
    zones = {pid: dict(z) for pid, z in run.zones}
    for pid, wanted in (ex.zones or {}).items():
        for z, value in wanted.items():
            have = zones.get(pid, {}).get(z, ())
            if isinstance(value, int) and len(have) != value:
                problems.append(("zones", f"expected {value} card(s) in {pid}'s {z}, found {len(have)}: {', '.join(have) or 'none'}"))
            elif isinstance(value, tuple) and tuple(have) != value:
                problems.append(("zones", f"expected {pid}'s {z} to be [{', '.join(value)}], found [{', '.join(have)}]"))
    if ex.result is not None and ex.result != run.result:
        problems.append(("result", f"expected the result '{ex.result}', got '{run.result}'"))
    if ex.loser is not None and tuple(run.losers) != (ex.loser,):
        problems.append(("loser", f"expected {ex.loser} to lose, got: {', '.join(run.losers) or 'nobody'}"))
    return problems
