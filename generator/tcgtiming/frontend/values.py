"""Plain values of the model: bilingual texts, citations, and a rule file's registries (its
sources, roles, zones, events, play kinds, lists, constants and rule processes).

Shared by the compiler (``lowering``) and the scenario front end (``scenario``).
"""
from __future__ import annotations

import re

from ..core import model as m
from .terms import lower_action, lower_condition

_CJK = "\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef"
_FOLD = re.compile(f"(?<=[{_CJK}])[ \t\n]+(?=[{_CJK}])")


def text(t) -> m.Text | None:
    """A bilingual text of the model. YAML folds a long line into spaces; Japanese has no spaces
    between words, so a space left between two Japanese characters is dropped."""
    if t is None:
        return None
    return m.Text(_FOLD.sub("", t.ja or ""), t.en or "")


def parse_cite(value: str) -> m.Citation:
    src, _, sec = value.partition("#")
    return m.Citation(src.strip(), sec.strip() or None)


def cites_of(value, inherited: tuple) -> tuple:
    if value is None:
        return inherited
    items = [value] if isinstance(value, str) else list(value)
    return tuple(parse_cite(v) for v in items)


def readings_of(items) -> tuple:
    """The readings of a node or container (``schema.Reading`` -> ``model.Reading``)."""
    return tuple(m.Reading(r.id, text(r.says), cites_of(r.cite, ()), r.runs) for r in items or ())


def play_extra(p) -> tuple:
    """What a play kind says besides its name: its cost, its condition, that it does not use the stack."""
    out = []
    if p.cost is not None:
        out.append(("cost", (p.cost.stat, p.cost.zone, p.cost.from_, p.cost.to, p.cost.type, p.cost.card_from,
                             p.cost.colours)))
    if p.when is not None:
        out.append(("when", lower_condition(p.when)))
    if not p.stack:
        out.append(("stack", False))
    if p.by is not None:
        out.append(("by", tuple(p.by)))
    return tuple(out)


def player_count(players) -> tuple[int, int]:
    """The fewest and the most players of a game (``players: 3`` or ``players: {min: 2, max: 4}``)."""
    return (players, players) if isinstance(players, int) else (players.min, players.max)


def registries(rf) -> dict:
    """The game's fields that come straight from the rule file (``schema.RuleFile``): everything
    but its containers, nodes and edges."""
    def named(items):
        return m.freeze_map({x.id: m.Named(x.id, text(x.name), text(x.note)) for x in items})

    return dict(
        id=rf.game.id, name=text(rf.game.name), note=text(rf.game.note), players=player_count(rf.game.players),
        sources=m.freeze_map({x.id: m.Source(x.id, x.title, x.file, x.url,
                                             tuple(m.Section(y.id, y.title, tuple(y.lines) if y.lines else None) for y in x.sections), text(x.note))
                              for x in rf.sources}),
        roles=m.freeze_map({r.id: m.Named(r.id, text(r.name), text(r.note), (("seat", r.seat),)) for r in rf.roles}),
        zones=m.freeze_map({z.id: m.Named(z.id, text(z.name), text(z.note),
                                          tuple((k, v) for k, v in (("role", z.role), ("front", z.front),
                                                                    ("combatants", tuple(z.combatants or ()) or None),
                                                                    ("keeps_state", z.keeps_state or None))
                                                if v is not None))
                            for z in rf.zones}),
        events=named(rf.events),
        plays=m.freeze_map({p.id: m.Named(p.id, text(p.name), text(p.note), play_extra(p)) for p in rf.plays}),
        lists=m.freeze_map({li.id: tuple(m.Named(it.id, text(it.name)) for it in li.items) for li in rf.lists}),
        constants=m.freeze_map(rf.constants),
        player_values=m.freeze_map({v.id: m.Named(v.id, text(v.name), text(v.note),
                                                  (("start", rf.constants.get(v.start, 0) if isinstance(v.start, str)
                                                    else v.start),)) for v in rf.player_values}) or None,
        rule_processes=m.freeze_map({
            p.id: m.RuleProcess(p.id, text(p.name), p.type, cites_of(p.cite, ()), text(p.note),
                                lower_condition(p.when) if p.when is not None else None,
                                tuple(lower_action(a) for a in p.do or ()))
            for p in rf.rule_processes}),
        check_timing=rf.check_timing,
        roles_swap=rf.turn.roles_swap,
    )
