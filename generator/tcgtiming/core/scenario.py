"""A scenario as data: the starting state of a turn, its cards with simple abilities, the players'
choices and the facts expected of the run. The front end builds it from a scenario file
(``frontend.scenario``); the engine runs it. Immutable, and free of YAML and pydantic.
"""
from __future__ import annotations

from dataclasses import dataclass

from . import model as m
from .expect import Facts

STATS = ("level", "cost", "power", "soul", "ap", "dp", "attack", "mental_attack", "defense", "guard_cost", "encore_cost", "e",
         "toughness")
STATES = ("stand", "rest", "reverse", "active", "sleep", "face_up", "face_down")
# Events the engine raises by itself, besides the game's own events (its trigger points).
BUILTIN_EVENTS = {
    "attack_declared": "an attack is declared (subject: the attacking card)",
    "reversed": "a card becomes reversed (subject: that card)",
    "placed": "a card is put onto the stage (subject: that card)",
    "played": "a card or ability is played (subject: that card)",
    "revealed": "a card is revealed from a deck (subject: that card)",
    "left_stage": "a card leaves the stage for another zone (subject: that card)",
    "entered": "a card enters a zone (subject: that card; with the ability's 'to', only that zone)",
    "check_timing": "a check timing begins",
}


@dataclass(frozen=True, slots=True)
class Expect:
    """The facts a scenario states of its run (None: not stated)."""
    visits: tuple[str, ...] | None = None
    never: tuple[str, ...] | None = None
    zones: m.Mapping[str, m.Mapping[str, int | tuple[str, ...]]] | None = None
    result: str | None = None
    loser: str | None = None
    facts: Facts | None = None  # order, facts at a node, events, a refusal; where each is written


@dataclass(frozen=True, slots=True)
class Ability:
    id: str
    label: str
    kind: str
    event: str | None
    subject: str
    every: int | None
    zone: str | None  # the zone this card must be in for the ability to work (scenario key: while_in)
    condition: m.Condition | None
    play: str | None
    cost: tuple[m.Action, ...]
    effect: tuple[m.Action, ...]
    text: m.Text | None = None  # the label in both languages, when the scenario gives both (``label``: the English)
    to: str | None = None  # card events: only when the event's card is then in this zone (where it went)


@dataclass(frozen=True, slots=True)
class Card:
    id: str
    name: str
    type: str
    stats: tuple[tuple[str, int], ...]
    traits: tuple[str, ...]
    faction: str | None
    triggers: tuple[str, ...]
    state: str | None
    abilities: tuple[Ability, ...]


@dataclass(frozen=True, slots=True)
class Choice:
    at: str
    take: str | None
    card: str | None
    cards: tuple[str, ...]
    ability: str | None
    target: str | None
    loc: m.Loc
    blocks: tuple[tuple[str, str], ...] = ()  # (blocker, the attacker it blocks), in the order written


@dataclass(frozen=True, slots=True)
class Scenario:
    id: str
    game: str
    file: str
    title: m.Text
    demonstrates: m.Text | None
    seed: int
    first_turn: bool
    turn_player: str
    turns: int
    policy: str
    max_steps: int
    players: tuple[tuple[str, str, tuple[tuple[str, tuple[str, ...]], ...]], ...]  # (id, name, zones)
    cards: m.Mapping[str, Card]
    choices: tuple[Choice, ...]
    expect: Expect | None
    cites: tuple[m.Citation, ...] = ()
    values: tuple[tuple[str, tuple[tuple[str, int], ...]], ...] = ()  # player -> player values set at the start (life)
