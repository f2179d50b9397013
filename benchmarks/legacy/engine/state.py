"""The run state: run-time errors, cards in play, pending abilities, stack items, the attack, call
frames; and the registry that maps the names a rule file uses to their implementations."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from tcgtiming.core import model as m
from tcgtiming.core.scenario import Ability


class SimulationError(Exception):
    """A run-time problem: a code (R5xx), a message, and where (a node or a scenario choice)."""

    def __init__(self, code: str, message: str, loc: m.Loc | None = None, help: str | None = None):
        super().__init__(message)
        self.code, self.message, self.loc, self.help = code, message, loc, help


class RCard:
    __slots__ = ("id", "spec", "owner", "state", "mods", "zone", "used", "slot", "damage")

    def __init__(self, spec, owner):
        self.id, self.spec, self.owner = spec.id, spec, owner
        self.state = spec.state
        self.mods: list[tuple[str, int]] = []
        self.zone = None
        self.used = False
        self.slot: int | None = None  # its stage position (kept when it leaves, so an encore returns it there)
        self.damage = 0  # damage dealt to it and not yet reset (battle damage stays until a damage reset)

    def stat(self, name: str) -> int:
        base = dict(self.spec.stats).get(name, 0)
        return base + sum(v for k, v in self.mods if k == name)

    @property
    def name(self) -> str:
        return self.spec.name


@dataclass
class Pending:
    ability: Ability
    card: RCard
    controller: str

    @property
    def label(self) -> str:
        return f"{self.card.name}: {self.ability.label}"


@dataclass
class StackItem:
    ability: Ability
    card: RCard
    controller: str
    answers: "StackItem | None" = None
    target: RCard | None = None
    negated: bool = False

    @property
    def label(self) -> str:
        return f"{self.card.name}: {self.ability.label}" + (" (negated)" if self.negated else "")


@dataclass
class Attack:
    attacker: RCard
    defender: RCard | None
    side: str  # player id of the attacker


@dataclass
class Frame:
    call: str  # the call node id
    args: dict = field(default_factory=dict)


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
