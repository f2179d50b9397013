"""Conditions and actions of the rules in words from the catalogue, in one language: what a procedure
item says happens (``action_words``) and when a case holds (``cond_words``). Each argument is said by
its type in the vocabulary: a role by its name, a zone, event or play kind by the game's name for it,
a state or stat by the engine's word, a constant by its value; the code form (``core.text``) stays for
rule writers, and is what a predicate or action without words falls back to."""
from __future__ import annotations

from ...core import model as m
from ...core.model import Game
from ...core.text import call_text, cond_text, value_text
from ...core.vocab import ACTIONS, CARD_WORD_LISTS, PREDICATES
from ...core.words import WORDS, word
from .markup import named, role_text, tx

_LISTED = tuple(lid for lids in CARD_WORD_LISTS.values() for lid in lids)  # the lists cards take words from


def _listed(game: Game, v: str, lang: str, lists=_LISTED) -> str:
    """An item of one of the game's lists by its name (a card type, trait, faction …)."""
    for lid in lists:
        for item in game.lists.get(lid, ()):
            if item.id == v:
                return tx(item.name, lang)
    return v


def arg_words(game: Game, name: str, type_: str, value, lang: str) -> str:
    """One argument of a predicate or action in words, by its type in the vocabulary."""
    v = str(value)
    if type_ in ("role", "player") and (v in game.roles or v in ("any", "both")):
        return role_text(game, v, lang)
    if type_ == "zone":
        return named(game.zones, v, lang)
    if type_ == "event":
        return named(game.events, v, lang)
    if type_ == "player_value":
        return named(game.player_values or {}, v, lang)
    if type_ == "timing" and v in game.containers:
        return tx(game.containers[v].label, lang)
    if type_ in ("card_type", "trait"):
        return _listed(game, v, lang)
    if type_ == "list":
        return ("・" if lang == "ja" else ", ").join(tx(i.name, lang) for i in game.lists.get(v, ())) or v
    if type_ == "int" and isinstance(value, str) and value in game.constants:
        return value_text(game.constants[value])
    if name == "by" and isinstance(value, int) and not isinstance(value, bool):
        return f"{value:+d}"  # a change: +1, -1
    if type_ == "play" and v in game.plays:
        return named(game.plays, v, lang)
    if type_ == "name":
        if name == "kind" and v in game.plays:
            return named(game.plays, v, lang)
        if name == "pay":
            return _first(lang, f"stat.{v}") or v
        if name == "id":
            return _first(lang, f"ability.{v}") or v
        if name == "party":
            return _listed(game, v, lang, CARD_WORD_LISTS["faction"] + tuple(game.lists))
        return _listed(game, v, lang)
    if type_.startswith("enum:") or name in ("who", "than", "target"):
        return _first(lang, f"act.{name}.{v}", f"state.{v}", f"stat.{v}", f"cond.{v}") or v
    return value_text(value)


def _first(lang: str, *keys: str) -> str:
    key = next((k for k in keys if k in WORDS), None)
    return "" if key is None else word(key, lang)


def action_words(game: Game, action: m.Action, lang: str) -> str:
    """What an action does, in words: ``act.<name>`` with the required arguments in the vocabulary's
    order, then ``act.<name>.<param>`` for each optional one given, in one pair of brackets (the code
    form when the action has no words)."""
    entry = ACTIONS.get(action.name)
    if entry is None or f"act.{action.name}" not in WORDS:
        return call_text(action.name, action.args)
    given = dict(action.args)
    said = [arg_words(game, p.name, p.type, given.get(p.name, ""), lang) for p in entry.params if p.required]
    out = word(f"act.{action.name}", lang, *said) if said else word(f"act.{action.name}", lang)
    extra = []
    for p in entry.params:
        key = f"act.{action.name}.{p.name}"
        if p.required or p.name not in given or key not in WORDS or given[p.name] is False:
            continue
        if p.name == "party" and given[p.name] == arg_words(game, p.name, p.type, given[p.name], lang):
            continue  # the foreach variable: the party the list item stands for, said by the loop
        extra.append(word(key, lang) if p.type == "bool" else word(key, lang, arg_words(game, p.name, p.type, given[p.name], lang)))
    if not extra:
        return out
    return out + ("（" + "、".join(extra) + "）" if lang == "ja" else " (" + "; ".join(extra) + ")")


def _compare(args: dict, lang: str, game: Game) -> str:
    for op in ("gt", "ge", "lt", "le", "eq"):
        if op in args:
            return word(f"cmp.{op}", lang, arg_words(game, "n", "int", args[op], lang))
    return ""


def cond_words(game: Game, c, lang: str) -> str:
    """A condition in words, in one language (the code form is ``core.text.cond_text``)."""
    if isinstance(c, m.Not):
        return word("cond.not", lang, cond_words(game, c.cond, lang))
    if isinstance(c, (m.All, m.AnyOf)):
        return word("cond.all" if isinstance(c, m.All) else "cond.any", lang).join(cond_words(game, x, lang) for x in c.conds)
    if not isinstance(c, m.Pred) or f"cond.{c.name}" not in WORDS or c.name not in PREDICATES:
        return cond_text(c)
    a = dict(c.args)
    n = c.name
    entry = PREDICATES[n]
    if n == "chose":
        node = game.nodes.get(str(a.get("node")))
        if node is None:
            return cond_text(c)
        opt = next((x for x in node.choices if x.id == a.get("option")), None)
        return word("cond.chose", lang, tx(node.label, lang), tx(opt.label, lang) if opt and opt.label else str(a.get("option")))
    said = []
    for p in entry.params:
        if p.type == "bool":  # a flag: its phrase when it is set (cond.<predicate>.<flag>)
            flag = f"cond.{n}.{p.name}"
            said.append(word(flag, lang) if a.get(p.name) is True and flag in WORDS else "")
        elif p.name in a:
            said.append(arg_words(game, p.name, p.type, a[p.name], lang))
        elif p.type == "zone":  # no zone given: anywhere in play
            said.append(word("cond.anywhere", lang))
        else:
            said.append("")
    if entry.compare:
        said.append(_compare(a, lang, game))
    return word(f"cond.{n}", lang, *said) if said else word(f"cond.{n}", lang)
