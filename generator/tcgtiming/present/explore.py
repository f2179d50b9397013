"""An exploration (``runtime.explore``) for people and programs: the verdict (does the order
matter?), each outcome with how many combinations reach it and one of them written as scenario
choices, and the cards that end differently; as text in one language, or as JSON."""
from __future__ import annotations

import json
import re

from ..core.words import WORDS, word
from ..runtime.explore import Exploration, Reached, differences

_PLAIN = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.\-]*\Z")


def _scalar(v) -> str:
    """A YAML flow scalar: plain when it is an id, else quoted (JSON strings are YAML)."""
    s = str(v)
    return s if _PLAIN.match(s) and s not in ("yes", "no", "true", "false", "null", "on", "off") else json.dumps(s)


def choice(at: str, alt: tuple) -> dict:
    """An alternative taken at a node as a scenario choice."""
    kind = alt[0]
    if kind in ("take", "pay"):  # an option, yes/no, pass; paying a cost: yes/no
        return {"at": at, "take": alt[1]}
    if kind == "ability":
        return {"at": at, "card": alt[1], "ability": alt[2]}
    if kind == "cards":  # a card pick: which card(s)
        return {"at": at, "card": alt[1][0]} if len(alt[1]) == 1 else {"at": at, "cards": list(alt[1])}
    out = {"at": at, "take": "play", "card": alt[1], "ability": alt[2]}
    if alt[3] is not None:
        out["target"] = alt[3]
    return out


def choice_line(at: str, alt: tuple) -> str:
    c = choice(at, alt)
    return "- {" + ", ".join(f"{k}: {_scalar(v)}" for k, v in c.items()) + "}"


def _state(state: str, lang: str) -> str:
    return word(f"state.{state}", lang) if f"state.{state}" in WORDS else state


def _result(r: Reached, names: dict, lang: str) -> str:
    o = r.outcome
    return outcome_words(o.result, [names.get(p, p) for p in o.losers], lang, o.error)


def outcome_words(result: str, losers: list[str], lang: str, error=()) -> str:
    """How a run ended, in the catalogue's words: an error, who lost (by name), a draw, or the game
    going on."""
    if result == "error":
        return word("explore.error", lang, *error)
    if result == "lose":
        return word("explore.lose", lang, ("・" if lang == "ja" else " and ").join(losers))
    return word("explore.draw" if result == "draw" else "explore.ongoing", lang)


def as_text(ex: Exploration, game, scenario, lang: str, at: str | None = None) -> str:
    names = {pid: name for pid, name, _ in scenario.players}
    cards = {cid: c.name for cid, c in scenario.cards.items()}
    lines = [word("explore.title", lang, scenario.title.get(lang)),
             word("explore.from", lang, at) if at else word("explore.all", lang),
             word("explore.counts", lang, ex.runs, ex.states, ex.cycles)]
    if not ex.complete:
        lines.append(word("explore.limit", lang, ex.limit, "--limit"))
    total = sum(r.combinations for r in ex.outcomes)
    lines.append("")
    lines.append(word("explore.unreached", lang, at) if at and not ex.reached_at else
                 word("explore.none", lang) if not ex.states else
                 word("explore.matters", lang, len(ex.outcomes)) if ex.matters else word("explore.same", lang, total))
    for i, r in enumerate(ex.outcomes, 1):
        lines += ["", word("explore.outcome", lang, i, r.combinations, _result(r, names, lang)) if r.combinations != 1
                  else word("explore.outcome_one", lang, i, _result(r, names, lang))]
        if r.example:
            lines.append("  " + word("explore.example", lang))
            lines += ["    " + choice_line(at_, alt) for at_, alt in r.example]
    diff = differences(ex.outcomes)
    if diff:
        lines += ["", word("explore.differs", lang)]
        for cid, places in diff:
            where = []
            for i, p in enumerate(places, 1):
                if p is None:
                    where.append(f"{i}: {word('explore.nowhere', lang)}")
                    continue
                pid, zone, state, damage = p
                z = game.zones[zone].name.get(lang) if zone in game.zones else zone
                where.append(" / ".join([f"{i}: {names.get(pid, pid)}", z] + ([_state(state, lang)] if state else [])
                                        + ([str(damage)] if damage else [])))
            lines.append(f"  {cards.get(cid, cid)} [{cid}]  " + "; ".join(where))
    return "\n".join(lines) + "\n"


def as_json(ex: Exploration, scenario, at: str | None = None) -> str:
    data = {
        "scenario": scenario.id, "game": scenario.game, "at": at,
        "reached_at": ex.reached_at, "runs": ex.runs, "states": ex.states, "decisions": ex.decisions, "cycles": ex.cycles,
        "complete": ex.complete, "limit": ex.limit, "matters": ex.matters,
        "outcomes": [{"result": r.outcome.result, "losers": list(r.outcome.losers),
                      "error": list(r.outcome.error) or None, "combinations": r.combinations,
                      "example": [choice(a, alt) for a, alt in r.example],
                      "cards": [{"player": c[0], "zone": c[1], "card": c[2], "state": c[3], "damage": c[4],
                                 "mods": [list(x) if isinstance(x, tuple) else x for x in c[5]]}
                                for c in r.outcome.cards]}
                     for r in ex.outcomes],
        "differences": [{"card": cid, "places": [None if p is None else {"player": p[0], "zone": p[1], "state": p[2],
                                                                          "damage": p[3]} for p in places]}
                        for cid, places in differences(ex.outcomes)],
    }
    return json.dumps(data, ensure_ascii=False, indent=2, sort_keys=False) + "\n"
