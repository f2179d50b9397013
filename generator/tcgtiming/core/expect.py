"""The facts a scenario (or a ruling) expects of a run, as data: which trace entries come in
which order, what holds at a node, which events happen, and whether a play is refused. Built by
``frontend.expect`` from the ``expect:`` section of a file; checked by ``runtime.expect``. Each
fact carries the place in the file it was written (``loc``), so a failure points at it.
Immutable, and free of YAML and pydantic.
"""
from __future__ import annotations

from dataclasses import dataclass

from . import model as m


@dataclass(frozen=True, slots=True)
class Match:
    """Selects trace entries: every key given must hold of an entry (None: not stated). ``nth``
    selects the n-th entry that matches the rest (1-based)."""
    node: str | None = None
    nth: int | None = None
    rule: str | None = None  # a rule process applied in a rule-processing step (kind rule)
    interrupt: str | None = None  # a rule process applied as an interrupt
    resolved: str | None = None  # a card id or ability id: an ability resolved
    played: str | None = None  # a card id: played in a window or by a player action
    moved: tuple[str | None, str | None, str | None] | None = None  # (card, from, to)
    damage: tuple[str | None, str | None, int | None] | None = None  # (player, card, amount)
    state: tuple[str | None, str | None] | None = None  # (card, new state)
    actor: str | None = None
    turn: int | None = None
    held: str | None = None  # a branch entry: the case that held ("otherwise": none)
    tested: tuple[tuple[str, object], ...] | None = None  # a branch entry: (predicate, value found)

    def words(self) -> str:
        """The matcher as it was written (for messages)."""
        parts = []
        for key in ("node", "nth", "rule", "interrupt", "resolved", "played", "actor", "turn", "held"):
            v = getattr(self, key)
            if v is not None:
                parts.append(f"{key}: {v}")
        for key, names in (("moved", ("card", "from", "to")), ("damage", ("player", "card", "amount")),
                           ("state", ("card", "to"))):
            v = getattr(self, key)
            if v is not None:
                parts.append(key + ": {" + ", ".join(f"{k}: {x}" for k, x in zip(names, v) if x is not None) + "}")
        if self.tested is not None:
            parts.append("tested: {" + ", ".join(f"{k}: {v}" for k, v in self.tested) + "}")
        return "{" + ", ".join(parts) + "}"


@dataclass(frozen=True, slots=True)
class Order:
    """``first`` is seen in the trace before ``then`` (both are seen)."""
    first: Match
    then: Match
    loc: m.Loc


@dataclass(frozen=True, slots=True)
class CardFacts:
    zone: str | None = None
    state: str | None = None  # "none": no state
    values: tuple[tuple[str, int], ...] = ()
    damage: int | None = None


@dataclass(frozen=True, slots=True)
class At:
    """Facts that hold right after an entry's work (the n-th entry at ``where.node``)."""
    where: Match
    zones: tuple[tuple[str, tuple[tuple[str, int | tuple[str, ...]], ...]], ...] = ()  # player -> zone -> count|ids
    cards: tuple[tuple[str, CardFacts], ...] = ()
    stack: tuple[str, ...] | None = None  # card or ability ids, bottom first
    pending: tuple[tuple[str, tuple[str, ...]], ...] | None = None  # player -> card or ability ids, oldest first
    priority: str | None = None  # a player id, or "none"
    passes: int | None = None
    loc: m.Loc | None = None
    values: tuple[tuple[str, tuple[tuple[str, int], ...]], ...] = ()  # player -> player value -> number


@dataclass(frozen=True, slots=True)
class Happens:
    """An event: at least one entry matches (or exactly ``count``; 0: never)."""
    match: Match
    count: int | None
    loc: m.Loc


@dataclass(frozen=True, slots=True)
class Refused:
    """The run stops with an error (a refused play or choice) whose code is ``code`` and whose
    message names each of ``names``."""
    code: str | None
    names: tuple[str, ...]
    loc: m.Loc


@dataclass(frozen=True, slots=True)
class Facts:
    order: tuple[Order, ...] = ()
    at: tuple[At, ...] = ()
    events: tuple[Happens, ...] = ()
    refused: Refused | None = None
    locs: tuple[tuple[str, m.Loc], ...] = ()  # where visits, never, zones, result and loser are written

    def loc(self, key: str) -> m.Loc | None:
        return next((loc for k, loc in self.locs if k == key), None)
