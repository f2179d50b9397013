"""Conditions, actions and effects as a typed tree: parsed once, where the schema reads the file.

A rule file writes them as named predicates / actions with arguments, combined with ``not`` /
``all`` / ``any`` (see ``core.vocab``)::

    when: {all: [first_turn_of_game, {count: {zone: hand, player: turn_player, gt: hand_limit}}]}
    do:   {draw: {player: turn_player, count: 2}}

The schema's validators (``schema.Condition``, ``schema.Action``, ``scenario.Effect``) turn each
into a ``Term``; ``resolve.Resolver`` checks the terms against the vocabulary and the game's
registries, and ``lower_condition`` / ``lower_action`` turn them into the model's ``Condition`` /
``Action``. Nothing parses the raw data again.

The tree::

    Term      = Use | Logic | Malformed
    Use       a predicate, action or effect: its name, its vocabulary entry (None: unknown) and its
              arguments, bound to the entry's parameters (``{has_pending: turn_player}`` binds
              turn_player to the one parameter 'player')
    Arg       one argument: name, value as written, its parameter (None: a comparator, or a name
              the entry does not define)
    Logic     not / all / any over terms (conditions only)
    Malformed neither a name nor a one-key mapping (or 'all'/'any' without a non-empty list)

Every node carries ``at``, its data path relative to the term's root: a checker prefixes the path
of the field holding the term (``(..., "when")``) to locate a diagnostic.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Union

from ..core import model as m
from ..core.vocab import ACTIONS, EFFECTS, PREDICATES, Entry, Param

LOGIC = ("not", "all", "any")


@dataclass(frozen=True, slots=True)
class Arg:
    name: str  # the parameter or comparator; '_' for a lone value that the entry cannot bind
    value: object  # as written: a string, a number, a boolean (a list or mapping is an error)
    param: Param | None  # None: a comparator (gt, ge, ...), or a name the entry does not define
    at: tuple  # where the value is


@dataclass(frozen=True, slots=True)
class Use:
    name: str
    entry: Entry | None  # None: the vocabulary has no such name
    args: tuple[Arg, ...]  # in the order written
    at: tuple  # where the name is: the bare string, or the one key of the mapping
    bare: bool = False  # written as a bare name
    unnamed: bool = False  # one argument written without its name ({has_pending: turn_player})


@dataclass(frozen=True, slots=True)
class Logic:
    op: str  # not | all | any
    parts: tuple["Term", ...]  # one part for 'not'
    at: tuple


@dataclass(frozen=True, slots=True)
class Malformed:
    at: tuple
    op: str | None = None  # 'all' / 'any' given something other than a non-empty list


Term = Union[Use, Logic, Malformed]


# --- parsing --------------------------------------------------------------------------------
def parse_condition(value: object) -> Term:
    return _condition(value, ())


def _condition(value: object, at: tuple) -> Term:
    if isinstance(value, dict) and len(value) == 1:
        (name, arg), = value.items()
        if name == "not":
            return Logic("not", (_condition(arg, at + ("not",)),), at)
        if name in ("all", "any"):
            if not isinstance(arg, list) or not arg:
                return Malformed(at + (name,), name)
            return Logic(name, tuple(_condition(c, at + (name, i)) for i, c in enumerate(arg)), at)
    return _use(value, at, PREDICATES)


def parse_action(value: object) -> Term:
    return _use(value, (), ACTIONS)


def parse_actions(value: object):
    """One action, or a non-empty list of them (done together): a term, or a tuple of terms."""
    if isinstance(value, list) and value:
        return tuple(_use(v, (i,), ACTIONS) for i, v in enumerate(value))
    return parse_action(value)


def parse_effect(value: object) -> Term:
    return _use(value, (), EFFECTS)


def _use(value: object, at: tuple, registry: dict[str, Entry]) -> Term:
    if isinstance(value, str):
        return Use(value, registry.get(value), (), at, bare=True)
    if not (isinstance(value, dict) and len(value) == 1):
        return Malformed(at)
    (name, arg), = value.items()
    entry = registry.get(name)
    at = at + (name,)
    if arg is None:
        return Use(name, entry, (), at)
    if isinstance(arg, dict):
        return Use(name, entry, tuple(Arg(k, v, entry.param(k) if entry else None, at + (k,)) for k, v in arg.items()), at)
    params = entry.params if entry else ()
    lone = Arg(params[0].name, arg, params[0], at) if len(params) == 1 else Arg("_", arg, None, at)
    return Use(name, entry, (lone,), at, unnamed=True)


# --- lowering to the model ------------------------------------------------------------------
Resolve = Callable[[object, tuple], object]  # (a node reference, its path) -> the node id, or None


def lower_condition(term: Term, resolve_node: Resolve | None = None) -> m.Condition:
    """The model's condition; ``resolve_node`` turns the value of a 'node' argument into a node id
    (the compiler's relative-reference rules); without it, the value stays as written."""
    if isinstance(term, Logic):
        parts = tuple(lower_condition(t, resolve_node) for t in term.parts)
        return m.Not(parts[0]) if term.op == "not" else m.All(parts) if term.op == "all" else m.AnyOf(parts)
    if isinstance(term, Use):
        return m.Pred(term.name, _args(term, resolve_node))
    return m.Pred("?")  # reported by the checks: the model is discarded


def lower_action(term: Term) -> m.Action:
    """The model's action (effects of card abilities lower the same way)."""
    if isinstance(term, Use):
        return m.Action(term.name, _args(term, None))
    return m.Action("?")  # reported by the checks: the model is discarded


def _args(use: Use, resolve_node: Resolve | None) -> tuple[tuple[str, object], ...]:
    out = []
    for a in sorted(use.args, key=lambda a: a.name):
        value = a.value
        if resolve_node is not None and a.param is not None and a.param.type == "node":
            value = resolve_node(value, a.at) or value
        out.append((a.name, value))
    return tuple(out)
