"""Ruling files (``rules/<game>/rulings/*.yaml``): a judge's question as a check the tool runs.

A ruling file is a scenario file with a ``ruling:`` section - the question, the answer, what it
is about and the sources - whose ``expect:`` states what the answer says of the run::

    ruling:
      id: ws-both-players-pending
      game: ws
      question: {ja: ..., en: ...}
      answer: {ja: ..., en: ...}
      topics: [check_timing]
      cite: [ws-turn-flow-ja#check-timing]
    scenario: {...}      # the set-up, as in a scenario file
    players: [...]
    cards: [...]
    choices: [...]
    expect: {...}

or, to ask about the run of a shipped scenario, ``ruling:`` names it (``uses:``, a path from the
ruling file) and the file has only ``ruling:`` and ``expect:``. The same loader, shapes and
located diagnostics as scenario files; the expectations are checked against the game and the
scenario's players and cards.
"""
from __future__ import annotations

import dataclasses
import os
from typing import Literal, Union

from pydantic import Field, ValidationError

from ..core import model as m
from ..core.diagnostics import did_you_mean, one_of
from ..core.ruling import TOPICS, Ruling
from . import expect as expect_section
from . import scenario as scenario_mod
from .expect import ExpectSpec
from .loader import Document
from .schema import Id, Model, Text
from .shape import map_errors
from .values import cites_of, text


class RulingMeta(Model):
    id: Id
    game: Id
    question: Text = Field(description="the judge's question, in our own words")
    answer: Text = Field(description="the answer, in our own words; expect: states what it says of the run")
    topics: list[Literal[TOPICS]] = Field(default_factory=list, description="what the ruling is about")
    cite: Union[str, list[str]] = Field(description="the sources it rests on: source id, or source#section")
    uses: str | None = Field(None, description="a shipped scenario file to run (a path from this file); "
                             "the ruling file then holds only ruling: and expect:")


class RulingHead(Model):
    ruling: RulingMeta


class RulingOfScenario(Model):
    ruling: RulingMeta
    expect: ExpectSpec


def is_ruling(data) -> bool:
    return isinstance(data, dict) and "ruling" in data


def json_schema() -> dict:
    """The scenario file's schema with the ruling: section (for editors)."""
    inline = scenario_mod.json_schema()
    head = RulingMeta.model_json_schema()
    inline = dict(inline, title="tcgtiming ruling file")
    inline.setdefault("properties", {})["ruling"] = {"$ref": "#/$defs/RulingMeta"}
    inline.setdefault("$defs", {})["RulingMeta"] = {k: v for k, v in head.items() if k != "$defs"}
    inline["$defs"].update(head.get("$defs", {}))
    # its own scenario (scenario:, players: ... as in a scenario file), or ruling.uses and expect: only
    inline["required"] = ["expect", "ruling"]
    return inline


def compile_ruling(doc: Document, rules: str | None, res) -> object:
    """Fill ``res`` (a ``pipeline.Result``): its diagnostics, and ``ruling`` when it is valid."""
    from .pipeline import finish, compile_file, compile_scenario

    data = doc.data
    try:
        head = RulingHead.model_validate({"ruling": data["ruling"]}, strict=True).ruling
    except ValidationError as exc:
        res.diagnostics += map_errors(doc, exc, root=RulingHead)
        head = None
        raw = data.get("ruling")
        if isinstance(raw, dict) and "uses" in raw:  # about a shipped scenario: nothing more to check without the head
            return finish(res)
    if head is not None and head.uses is not None:
        try:
            spec = RulingOfScenario.model_validate(data, strict=True)
        except ValidationError as exc:
            res.diagnostics += map_errors(doc, exc, root=RulingOfScenario)
            return finish(res)
        where = os.path.normpath(os.path.join(os.path.dirname(doc.file), head.uses))
        if not os.path.isfile(where):
            res.diagnostics.append(doc.diag("R508", f"no scenario file '{head.uses}' (from {os.path.dirname(doc.file) or '.'})",
                                            ("ruling", "uses")))
            return finish(res)
        ref = compile_file(where, rules=rules)
        if ref.scenario is None:
            res.diagnostics.append(doc.diag("R508", f"the scenario {where} this ruling runs is invalid "
                                            f"({len(ref.errors)} errors): validate it first", ("ruling", "uses")))
            return finish(res)
        game, sc = ref.game, ref.scenario
        if head.game != sc.game:
            res.diagnostics.append(doc.diag("R508", f"the ruling is about '{head.game}' but {head.uses} is a scenario of "
                                            f"'{sc.game}'", ("ruling", "game")))
        cards = dict(sc.cards)
        expect_section.check(spec.expect, game, [p[0] for p in sc.players], cards, _fail(doc, res))
        _check_meta(head, game, doc, res)
        if not res.errors:
            res.game = game
            res.ruling = _ruling(head, doc, sc, expect_section.build(spec.expect, doc), head.uses)
        return finish(res)
    rest = dataclasses.replace(doc, data={k: v for k, v in data.items() if k != "ruling"})
    if "scenario" not in rest.data:
        res.diagnostics.append(doc.diag("S202", "a ruling needs its scenario: the scenario's sections (scenario:, "
                                        "players:, ...) or ruling.uses naming a shipped scenario", ("ruling",), key=True))
        return finish(res)
    compile_scenario(rest, rules, res)
    if head is not None and res.scenario is not None:
        sc = res.scenario
        if sc.expect is None:
            res.diagnostics.append(doc.diag("S202", "a ruling needs expect: (what its answer says of the run)", ("ruling",),
                                            key=True))
        if head.game != sc.game:
            res.diagnostics.append(doc.diag("R508", f"the ruling is about '{head.game}' but its scenario is of '{sc.game}'",
                                            ("ruling", "game")))
        _check_meta(head, res.game, doc, res)
        if not res.errors:
            res.ruling = _ruling(head, doc, sc, sc.expect, None)
    if res.errors:
        res.scenario = None
    return finish(res)


def _fail(doc: Document, res):
    def fail(code, message, path, *, key=False, help=None):
        res.diagnostics.append(doc.diag(code, message, path, key=key, help=help))
    return fail


def _check_meta(head: RulingMeta, game: m.Game, doc: Document, res) -> None:
    """The citations name sources (and sections) of the game."""
    items = [head.cite] if isinstance(head.cite, str) else list(head.cite)
    if not items:
        res.diagnostics.append(doc.diag("S202", "a ruling cites at least one source", ("ruling", "cite")))
    for i, c in enumerate(cites_of(items, ())):
        path = ("ruling", "cite") if isinstance(head.cite, str) else ("ruling", "cite", i)
        src = game.sources.get(c.source)
        if src is None:
            res.diagnostics.append(doc.diag("C303", f"citation of unknown source '{c.source}'", path,
                                            help=did_you_mean(c.source, list(game.sources)) or one_of(list(game.sources))))
        elif c.section and c.section not in {s.id for s in src.sections}:
            ids = [s.id for s in src.sections]
            res.diagnostics.append(doc.diag("C303", f"source '{c.source}' has no section '{c.section}'", path,
                                            help=did_you_mean(c.section, ids) or one_of(ids)))


def _ruling(head: RulingMeta, doc: Document, sc, expect, uses) -> Ruling:
    return Ruling(head.id, head.game, doc.file, text(head.question), text(head.answer), tuple(head.topics),
                  cites_of(head.cite, ()), sc, expect, uses)


__all__ = ["compile_ruling", "is_ruling", "json_schema", "RulingMeta"]
