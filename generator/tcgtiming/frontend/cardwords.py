"""The words of a scenario's card (its type, traits, faction and trigger icons) against the game's
registries: the lists of the rule file that declare them (``core.vocab.CARD_WORD_LISTS``).

A word is an item's id, or the item's name in either language (Japanese as written, English in
any case), which stands for the id: ``traits: [補充]`` is the trait ``hoju``, ``faction: WIZ-DOM``
the faction ``wizdom``. Anything else is refused with its location and a did-you-mean, so that a
misspelt word cannot make a card's behaviour vanish silently.
"""
from __future__ import annotations

from ..core import model as m
from ..core.diagnostics import did_you_mean, one_of
from ..core.vocab import CARD_WORD_LISTS

WHAT = {"type": "card type", "traits": "trait", "faction": "faction", "triggers": "trigger icon"}


def aliases(game: m.Game, field: str) -> dict[str, str] | None:
    """Every word the field admits -> the id it stands for (None: the game declares no such list)."""
    lists = [game.lists[k] for k in CARD_WORD_LISTS[field] if k in game.lists]
    if not lists:
        return None
    items = [it for li in lists for it in li]
    out: dict[str, str] = {}
    for it in items:
        out.setdefault(it.name.ja, it.id)
        out.setdefault(it.name.en.casefold(), it.id)
    out.update({it.id: it.id for it in items})
    return out


def word_id(words: dict[str, str] | None, word: str) -> str | None:
    if words is None:
        return None
    return words.get(word) or words.get(word.casefold())


def _values(card, field) -> list[tuple[str, tuple]]:
    value = getattr(card, field)
    if value is None:
        return []
    if isinstance(value, str):
        return [(value, (field,))]
    return [(w, (field, j)) for j, w in enumerate(value)]


def check_card(game: m.Game, card, path: tuple, fail) -> None:
    """Report each word of the card (a ``CardSpec``) that the game does not declare."""
    for field, list_ids in CARD_WORD_LISTS.items():
        words = aliases(game, field)
        for word, at in _values(card, field):
            if word_id(words, word) is not None:
                continue
            what = WHAT[field]
            if words is None:
                fail("C302", f"{game.id} declares no {what} ('{word}' cannot be checked)", path + at,
                     help=f"declare the words in a list '{list_ids[0]}' of the rule file, or leave '{field}' out")
                continue
            items = [it for k in list_ids for it in game.lists.get(k, ())]
            ids = [it.id for it in items]
            names = ids + [it.name.ja for it in items] + [it.name.en for it in items]
            fail("C302", f"unknown {what} '{word}' in {game.id}", path + at,
                 help=did_you_mean(word, names) or one_of(ids))


def normal(game: m.Game, field: str, value):
    """The field's value with every word replaced by the id it stands for (the checks passed)."""
    words = aliases(game, field)
    if value is None or words is None:
        return value
    if isinstance(value, str):
        return word_id(words, value) or value
    return tuple(word_id(words, w) or w for w in value)
