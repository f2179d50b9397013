"""Whether a kind of play may be played at a timing by a seat, from the compiled model only: the
kind's ``by`` (the roles that may play it) and its ``when`` condition, settled as far as the model
can settle it (``present.when`` reads it for the lookup).

A condition is settled per timing and seat: ``holds_role`` of the player who would play (``self``)
or of a role is known from the seat, ``during`` from the timing's phase and step; ``not``, ``all``
and ``any`` combine what is known. Every other predicate depends on the state of the game (the
stack empty, the first turn of the game …): what is left of the condition is returned, to be said
as "only if …" rather than answered yes or no.
"""
from __future__ import annotations

from ..core import model as m
from ..core.model import Game

SEATS = ("turn", "non_turn")


def seat_roles(game: Game, seat: str) -> set[str]:
    return {r.id for r in game.roles.values() if r.get("seat") == seat} | {"any", "both"}


def role_seat(game: Game, role) -> str | None:
    r = game.roles.get(str(role))
    return r.get("seat") if r is not None else None


def settle(game: Game, cond, seat: str, phase: str | None, step: str | None):
    """True or False when the model decides the condition for a player of the seat at a timing of the
    phase and step, else the part of it that depends on the state of the game (a condition)."""
    if isinstance(cond, m.Not):
        v = settle(game, cond.cond, seat, phase, step)
        return (not v) if isinstance(v, bool) else m.Not(v)
    if isinstance(cond, (m.All, m.AnyOf)):
        decisive = isinstance(cond, m.AnyOf)  # any: one True decides it; all: one False does
        rest = []
        for c in cond.conds:
            v = settle(game, c, seat, phase, step)
            if v is decisive:
                return decisive
            if not isinstance(v, bool):
                rest.append(v)
        if not rest:
            return not decisive
        return rest[0] if len(rest) == 1 else type(cond)(tuple(rest))
    if not isinstance(cond, m.Pred):
        return cond
    if cond.name == "holds_role":
        player = str(cond.arg("player"))
        if player in ("any", "both"):
            return True  # one of the players holds it (as the engine reads it)
        who = seat if player == "self" else role_seat(game, player)
        role = role_seat(game, cond.arg("role"))
        return cond if who is None or role is None else who == role
    if cond.name == "during":
        return str(cond.arg("timing")) in (phase, step)
    if cond.arg("player") == "self":  # the player who would play: a role of the seat, to be said by name
        role = next((r.id for r in game.roles.values() if r.get("seat") == seat), None)
        if role is not None:
            return m.Pred(cond.name, tuple((k, role if k == "player" else v) for k, v in cond.args))
    return cond


def kind_at(game: Game, kind: str, seat: str, phase: str | None, step: str | None, window: bool = True):
    """May a player of the seat play the kind at a timing of the phase and step? True, False, or the
    condition still to hold then (it depends on the state of the game). The kind's ``when`` is tested
    in priority windows (as the engine tests it), not at a player action's option."""
    p = game.plays.get(kind)
    if p is None:
        return True
    by = p.get("by")
    if by and not seat_roles(game, seat) & set(by):
        return False
    cond = p.get("when") if window else None
    return True if cond is None else settle(game, cond, seat, phase, step)
