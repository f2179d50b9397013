"""The run state's parts: errors, cards in play, pending abilities and the stack (kept so that the
snapshot a trace entry holds costs O(1) to take), the attack; and the registry that maps the names
a rule file uses to the functions that compile them."""
from __future__ import annotations

from typing import Callable

from ...core import model as m
from ...core.scenario import Ability


class SimulationError(Exception):
    """A run-time problem: a code (R5xx), a message, and where (a node or a scenario choice)."""

    def __init__(self, code: str, message: str, loc: m.Loc | None = None, help: str | None = None):
        super().__init__(message)
        self.code, self.message, self.loc, self.help = code, message, loc, help


READY = ("stand", "active")  # the states a card attacks or blocks from (standing, untapped)


class GameOver(Exception):
    """An end_game node ended the game: unwinds the turn."""


class OutOfSteps(Exception):
    """The step budget ran out in a run without a trace (it is run again with one, to name the cycle)."""


class RCard:
    """A card in a run (made by ``card``; the scenario's setup code sets its slots directly)."""

    __slots__ = ("id", "spec", "owner", "state", "mods", "zone", "used", "slot", "damage", "base", "name")

    def stat(self, name: str) -> int:
        v = self.base.get(name, 0)
        for k, x in self.mods:
            if k == name:
                v += x
        return v


def card(spec, owner, base, zone=None, slot=None) -> RCard:
    """A card as a run starts it: the spec's id, name and state, no modifiers, unused, undamaged."""
    c = RCard()
    c.id, c.spec, c.owner, c.name = spec.id, spec, owner, spec.name
    c.base = base  # the card's values (shared by every run; never changed)
    c.state = spec.state
    c.mods = ()  # the modifiers in force: [(stat, by), ...] (none: the shared empty tuple)
    c.zone = zone
    c.used = False
    c.slot = slot  # its stage position (kept when it leaves, so that it can come back there)
    c.damage = 0  # damage dealt to it and not yet reset
    return c


def engine_ability(kind: str, card_id: str, effect: tuple = (), arg: str | None = None) -> Ability:
    """An ability the engine itself makes (an abolish effect, an extra pending ability): its id is
    ``<kind>`` or ``<kind>:<arg>``, and the narration names it from the catalogue."""
    aid = kind if arg is None else f"{kind}:{arg}"
    return Ability(aid, "", "auto", None, "self", None, None, None, None, (), effect)


class Pending:
    __slots__ = ("ability", "card", "controller", "ref")

    def __init__(self, ability: Ability, card: RCard, controller: str):
        self.ability, self.card, self.controller = ability, card, controller
        self.ref = (card.id, ability.id)


class StackItem:
    __slots__ = ("ability", "card", "controller", "answers", "target", "negated")

    def __init__(self, ability, card, controller, answers=None, target=None):
        self.ability, self.card, self.controller = ability, card, controller
        self.answers, self.target, self.negated = answers, target, False

    @property
    def ref(self):
        return (self.card.id, self.ability.id, self.negated)


class Queue:
    """A player's pending abilities, oldest first. Items are only ever appended to ``log`` (a removal
    other than of the oldest starts a new log), so a snapshot is ``(log, head, end)``: O(1) to take
    and immutable in effect, and K pending abilities cost O(K), not O(K^2), to trace."""

    __slots__ = ("log", "head", "n")

    def __init__(self):
        self.log: list[Pending] = []
        self.head = 0
        self.n = 0  # how many are pending

    def __len__(self) -> int:
        return self.n

    def __bool__(self) -> bool:
        return self.n > 0

    def append(self, p: Pending) -> None:
        self.log.append(p)
        self.n += 1

    def items(self) -> list[Pending]:
        return self.log[self.head:]

    def pop(self, i: int = 0) -> Pending:
        log, h = self.log, self.head
        self.n -= 1
        if i == 0:
            p = log[h]
            self.head = h + 1
            if self.head > 64 and self.head * 2 > len(log):
                self.log, self.head = log[self.head:], 0
            return p
        p = log[h + i]
        self.log, self.head = log[h:h + i] + log[h + i + 1:], 0
        return p

    def snap(self) -> tuple:
        return (self.log, self.head, len(self.log))


def unsnap_queue(snap) -> tuple:
    log, h, e = snap
    return tuple(p.ref for p in log[h:e])


def unsnap_stack(snap) -> tuple:
    """A stack snapshot (a cons list, newest first) as a tuple, bottom first."""
    out = []
    while snap is not None:
        out.append(snap[0])
        snap = snap[1]
    return tuple(reversed(out))


class Attack:
    __slots__ = ("attacker", "defender", "side")

    def __init__(self, attacker: RCard, defender: RCard | None, side: str):
        self.attacker, self.defender, self.side = attacker, defender, side


class Combat:
    """A combat with several attackers (``declare_attackers``): the attacking player, the player attacked,
    the attackers in the order declared, and for each attacker the cards blocking it (in the order the
    scenario lists them) - an attacker once blocked stays blocked when its blockers leave."""
    __slots__ = ("side", "defender", "attackers", "blocks")

    def __init__(self, side: str, defender: str, attackers: list[RCard]):
        self.side, self.defender, self.attackers = side, defender, attackers
        self.blocks: dict[str, list[RCard]] = {}

    def cards(self) -> list[RCard]:
        """The attacking and blocking cards."""
        return self.attackers + [b for bs in self.blocks.values() for b in bs]

    def key(self) -> tuple:
        return (self.side, self.defender, tuple(c.id for c in self.attackers),
                tuple((a, tuple(b.id for b in bs)) for a, bs in self.blocks.items()))


class Registry(dict):
    """Name -> implementation, for one concern: ``@REGISTRY`` on a function named ``<prefix><name>``
    enters it under ``<name>`` (``act_draw`` -> ``draw``)."""

    def __init__(self, prefix: str):
        super().__init__()
        self.prefix = prefix

    def __call__(self, fn: Callable) -> Callable:
        name = fn.__name__.removeprefix(self.prefix)
        if name in self:
            raise ValueError(f"'{name}' is implemented twice")
        self[name] = fn
        return fn

    @staticmethod
    def merged(*tables: dict) -> dict:
        """One table of several concerns' tables (a name in two of them is an error)."""
        out: dict = {}
        for table in tables:
            twice = out.keys() & table.keys()
            if twice:
                raise ValueError(f"implemented twice: {', '.join(sorted(twice))}")
            out.update(table)
        return out
