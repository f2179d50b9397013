"""A ruling as data: a judge's question and its answer (both languages, in our own words), the
sources it rests on, and the scenario whose run proves it with the facts it expects (order,
facts at a node, events, refusals). The front end builds it from a ruling file
(``frontend.ruling``); ``runtime.rulings`` checks it. Immutable, free of YAML and pydantic.
"""
from __future__ import annotations

from dataclasses import dataclass

from . import model as m
from .scenario import Expect, Scenario

# What a ruling is about (a ruling has one or more); the site groups rulings by them, and a test
# asks each game for rulings on the first six.
TOPICS = ("check_timing", "priority", "closed", "loop", "cost", "game_end", "battle", "other")


@dataclass(frozen=True, slots=True)
class Ruling:
    id: str
    game: str
    file: str
    question: m.Text
    answer: m.Text
    topics: tuple[str, ...]
    cites: tuple[m.Citation, ...]
    scenario: Scenario  # the run that proves it (its own, or a shipped one's)
    expect: Expect  # the facts it checks of that run
    uses: str | None = None  # the shipped scenario file it runs, as written (None: its own)
