"""Resolving terms: each predicate, action or effect of a parsed condition or action (``terms``)
against the vocabulary, and each of its arguments against the names the game defines.

One resolver serves the rule file's checks (``checks``) and the scenario's (``scenario``). Its
``Registry`` comes from the rule file's own definitions (``Registry.of_rules``, before anything
is compiled) or from a compiled game (``Registry.of_game``), widened where a place admits more
names: a rule process's ``self``, a card ability's ``controller`` / ``opponent`` and the events
the interpreter raises by itself.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Callable, Iterable, Mapping

from ..core import model as m
from ..core.diagnostics import did_you_mean, one_of
from ..core.vocab import ACTIONS, CARD_WORD_LISTS, COMPARATORS, EFFECTS, PREDICATES
from .terms import LOGIC, Logic, Malformed, Term, Use

ANY_PLAYER = ("any", "both")
CARD_WORD_TYPES = {"trait": "traits", "card_type": "type"}  # argument type -> the card field whose words it names
CARD_WORD_WHAT = {"traits": "trait", "type": "card type"}

Fail = Callable[..., None]  # fail(code, message, path, *, key=False, help=None)


@dataclass(frozen=True, slots=True)
class Registry:
    """The names an argument may refer to."""

    roles: frozenset[str]
    zones: frozenset[str]
    events: frozenset[str]
    lists: frozenset[str]
    constants: frozenset[str]  # the integer constants, which an 'int' argument may name
    items: Mapping[str, frozenset[str]] = field(default_factory=dict)  # list id -> its item ids
    timings: frozenset[str] = frozenset()  # phase ids and full step ids ('timing' arguments)
    plays: frozenset[str] = frozenset()  # the play kinds ('play' arguments)

    @classmethod
    def of_rules(cls, rf) -> "Registry":
        """From a schema-valid rule file (``schema.RuleFile``)."""
        return cls(frozenset(r.id for r in rf.roles), frozenset(z.id for z in rf.zones),
                   frozenset(e.id for e in rf.events), frozenset(li.id for li in rf.lists), _ints(rf.constants),
                   {li.id: frozenset(it.id for it in li.items) for li in rf.lists},
                   frozenset([ph.id for ph in rf.turn.phases]
                             + [f"{ph.id}.{st.id}" for ph in rf.turn.phases for st in ph.steps or ()]),
                   frozenset(p.id for p in rf.plays))

    @classmethod
    def of_game(cls, game: m.Game) -> "Registry":
        return cls(frozenset(game.roles), frozenset(game.zones), frozenset(game.events), frozenset(game.lists),
                   _ints(game.constants), {k: frozenset(it.id for it in v) for k, v in game.lists.items()},
                   frozenset(c for c, box in game.containers.items() if box.kind in ("phase", "step")),
                   frozenset(game.plays))

    def widen(self, roles: Iterable[str] = (), events: Iterable[str] = ()) -> "Registry":
        return Registry(self.roles | set(roles), self.zones, self.events | set(events), self.lists, self.constants,
                        self.items, self.timings, self.plays)


def _ints(constants: Mapping[str, object]) -> frozenset[str]:
    return frozenset(k for k, c in constants.items() if isinstance(c, int) and not isinstance(c, bool))


@dataclass
class Uses:
    """The names a file refers to, by kind ('role', 'event', 'play kind', ...), and the kinds of
    which it names one that does not exist (a misspelling: the definition it meant looks unused)."""

    found: defaultdict[str, set] = field(default_factory=lambda: defaultdict(set))
    unknown: set[str] = field(default_factory=set)


class Resolver:
    """Checks terms and references, reporting through ``fail`` (paths prefixed by the path of the
    field that holds the term); records what they name in ``uses``."""

    def __init__(self, registry: Registry, fail: Fail, uses: Uses | None = None):
        self.reg = registry
        self.fail = fail
        self.uses = uses if uses is not None else Uses()

    def widen(self, roles: Iterable[str] = (), events: Iterable[str] = ()) -> "Resolver":
        """A resolver that admits more names and records into the same ``uses``."""
        return Resolver(self.reg.widen(roles, events), self.fail, self.uses)

    # --- names ----------------------------------------------------------------------------
    def ref(self, value, pool, path, what, extra=()) -> bool:
        if isinstance(value, str) and (value in pool or value in extra):
            self.uses.found[what].add(value)
            return True
        self.uses.unknown.add(what)
        cands = list(pool) + list(extra)
        self.fail("C302", f"unknown {what} '{value}'", path, help=did_you_mean(value, cands) or (one_of(cands) if pool else None))
        return False

    def role(self, value, path, allow_any=False) -> None:
        self.ref(value, self.reg.roles, path, "role", ANY_PLAYER if allow_any else ())

    def event(self, value, path) -> None:
        self.ref(value, self.reg.events, path, "event")

    def named_list(self, value, path) -> None:
        self.ref(value, self.reg.lists, path, "list")

    def card_word(self, value, path, field: str) -> None:
        """A card word a rule names (a keyword, a card type): an item of the list that declares them."""
        list_ids = CARD_WORD_LISTS[field]
        declared = [self.reg.items[k] for k in list_ids if k in self.reg.items]
        words = frozenset().union(*declared) if declared else None
        if words is None:
            self.fail("C302", f"'{value}' names a {CARD_WORD_WHAT[field]}, but the game declares none", path,
                      help=f"declare them in a list '{list_ids[0]}'")
        else:
            self.ref(value, words, path, CARD_WORD_WHAT[field])

    # --- terms ----------------------------------------------------------------------------
    def condition(self, term: Term, path: tuple) -> None:
        if isinstance(term, Logic):
            for part in term.parts:
                self.condition(part, path)
        elif isinstance(term, Malformed):
            if term.op:
                self.fail("S203", f"'{term.op}' takes a non-empty list of conditions", path + term.at)
            else:
                self.fail("S203", "a condition is a predicate name, or a mapping with exactly one key "
                                  "(a predicate, 'not', 'all' or 'any')", path + term.at)
        else:
            self._use(term, path, "C309", "predicate", PREDICATES, LOGIC)

    def action(self, term: Term, path: tuple) -> None:
        if isinstance(term, Use):
            self._use(term, path, "C310", "action", ACTIONS)
        else:
            self.fail("S203", "an action is a name, or a mapping with exactly one key: {action: {arguments}}", path + term.at)

    def effect(self, term: Term, path: tuple) -> None:
        """An effect of a card ability: its arguments are literal (no integer constants)."""
        if not isinstance(term, Use):
            self.fail("S203", "an effect is a name, or a mapping with exactly one key: {effect: {arguments}}", path + term.at)
            return
        entry = self._known(term, path, "C310", "effect", EFFECTS)
        if entry is None:
            return
        npath = path + term.at
        for a in term.args:
            where = path + a.at
            if a.param is None:
                self.fail("C311", f"effect '{term.name}' has no argument '{a.name}'", npath + (a.name,), key=True,
                          help=did_you_mean(a.name, [q.name for q in entry.params]))
            elif a.param.type == "zone":
                if not isinstance(a.value, str) or a.value not in self.reg.zones:
                    self.fail("C302", f"unknown zone '{a.value}'", where, help=did_you_mean(a.value, self.reg.zones))
            elif a.param.type in ("int", "count"):
                if isinstance(a.value, bool) or not isinstance(a.value, int):
                    self.fail("C311", f"argument '{a.name}' of '{term.name}' must be an integer", where)
                elif a.param.type == "count" and a.value < 0:
                    self.fail("C311", f"argument '{a.name}' of '{term.name}' is {a.value}: a number of cards or "
                                      "points is 0 or more", where)
            else:
                self._value(a.param.type, a.value, where, f"argument '{a.name}' of '{term.name}'")
        self._required(term, entry, npath, "effect", key=False)

    def _known(self, use: Use, path, code, what, registry, extra=()):
        """The use's vocabulary entry, or None (reported: an unknown name)."""
        if use.entry is None:
            self.fail(code, f"unknown {what} '{use.name}'", path + use.at, key=not use.bare,
                      help=did_you_mean(use.name, list(registry) + list(extra)) or one_of(registry))
        return use.entry

    def _required(self, use: Use, entry, npath, what, key) -> None:
        for p in entry.params:
            if p.required and all(a.name != p.name for a in use.args):
                self.fail("C311", f"{what} '{use.name}' needs the argument '{p.name}'", npath, key=key)

    def _use(self, use: Use, path, code, what, registry, extra=()) -> None:
        entry = self._known(use, path, code, what, registry, extra)
        if entry is None:
            return
        npath = path + use.at
        if use.unnamed and len(entry.params) != 1:
            self.fail("C311", f"{what} '{use.name}' takes named arguments: {{{', '.join(p.name + ': ...' for p in entry.params)}}}",
                      npath)
            return
        allowed = [p.name for p in entry.params] + (list(COMPARATORS) if entry.compare else [])
        for a in use.args:
            if a.param is None and not (entry.compare and a.name in COMPARATORS):
                self.fail("C311", f"{what} '{use.name}' has no argument '{a.name}'", path + a.at, key=True,
                          help=did_you_mean(a.name, allowed) or (one_of(allowed) if allowed else f"'{use.name}' takes no arguments"))
                continue
            self._value(a.param.type if a.param else "int", a.value, path + a.at, f"argument '{a.name}' of '{use.name}'")
        self._required(use, entry, npath, what, key=not use.bare)
        if entry.compare and sum(a.name in COMPARATORS for a in use.args) != 1:
            self.fail("C311", f"{what} '{use.name}' needs exactly one comparison ({', '.join(COMPARATORS)})", npath,
                      key=not use.bare)

    def _value(self, type_, v, path, what) -> None:
        if type_.startswith("enum:"):
            words = type_[5:].split("|")
            if v not in words:
                self.fail("C311", f"{what} is '{v}'", path, help=did_you_mean(v, words) or one_of(words))
        elif type_ in ("role", "player"):
            if isinstance(v, str):
                self.role(v, path, allow_any=type_ == "player")
            else:
                self.fail("C311", f"{what} must be a role id" + (", 'any' or 'both'" if type_ == "player" else ""), path)
        elif type_ == "zone":
            self.ref(v, self.reg.zones, path, "zone")
        elif type_ == "event":
            self.event(v, path)
        elif type_ == "list":
            self.named_list(v, path)
        elif type_ == "play":
            self.ref(v, self.reg.plays, path, "play kind")
        elif type_ == "timing":
            self.ref(v, self.reg.timings, path, "phase or step")
        elif type_ in CARD_WORD_TYPES:
            self.card_word(v, path, CARD_WORD_TYPES[type_])
        elif type_ == "int":
            if isinstance(v, bool) or not isinstance(v, (int, str)):
                self.fail("C311", f"{what} must be an integer or the id of an integer constant", path)
            elif isinstance(v, str):
                self.ref(v, self.reg.constants, path, "integer constant")
        elif type_ == "bool":
            if not isinstance(v, bool):
                self.fail("C311", f"{what} must be true or false", path)
        elif type_ in ("name", "node", "text") and not isinstance(v, str):
            self.fail("C311", f"{what} must be a string", path)
