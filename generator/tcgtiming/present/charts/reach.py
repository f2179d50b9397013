"""What the engine can never take, read from the compiled model (the model and the engine stay as
they are; the charts leave these out so that no arrow suggests a flow that never happens):

* an ``otherwise`` exit of a rules' decision whose cases decide on the options of one earlier player
  decision and name every one of them, where that decision is always taken before (every way from the
  start of the turn to the branch passes it): one of the cases always holds;
* a node nothing can reach from the start of the turn once those exits are left out (a step's end
  when every way through the step leaves it by a go-to), and every arrow out of it.
"""
from __future__ import annotations

from ...core import model as m
from ...core.model import Game


def _chose_options(cond) -> tuple[str, set[str]] | None:
    """(node, options) when a condition is ``chose(node, option)`` or an ``any`` of them on one node."""
    if isinstance(cond, m.Pred) and cond.name == "chose":
        args = dict(cond.args)
        return str(args.get("node")), {str(args.get("option"))}
    if isinstance(cond, m.AnyOf):
        parts = [_chose_options(c) for c in cond.conds]
        if parts and all(p is not None for p in parts) and len({p[0] for p in parts}) == 1:
            return parts[0][0], set().union(*(p[1] for p in parts))
    return None


def _steps(game: Game, skip: str | None = None, drop: frozenset = frozenset()) -> set[str]:
    """The nodes reachable from the start of the turn (a call node leads to where its procedure
    returns), never entering ``skip`` and never taking an edge of ``drop``."""
    seen = {game.turn.begin}
    todo = [game.turn.begin]
    after: dict[str, list[str]] = {}
    for e in game.edges:
        if e.kind == "return" and e.via:
            after.setdefault(e.via, []).append(e.dst)
    while todo:
        nid = todo.pop()
        nxt = [e.dst for e in game.successors(nid) if e.kind != "return" and (e.src, e.dst, e.kind) not in drop]
        nxt += after.get(nid, [])
        for d in nxt:
            if d != skip and d not in seen:
                seen.add(d)
                todo.append(d)
    return seen


_CACHE: dict[int, tuple[Game, tuple[frozenset, frozenset]]] = {}


def _never(game: Game) -> tuple[frozenset, frozenset]:
    hit = _CACHE.get(id(game))
    if hit is not None and hit[0] is game:
        return hit[1]
    if len(_CACHE) > 32:
        _CACHE.clear()
    _CACHE[id(game)] = (game, _work(game))
    return _CACHE[id(game)][1]


def _work(game: Game) -> tuple[frozenset, frozenset]:
    impossible = set()
    for node in game.nodes.values():
        if node.kind != "branch" or not node.otherwise or not node.choices:
            continue
        found = [_chose_options(ch.when) for ch in node.choices]
        if any(f is None for f in found) or len({f[0] for f in found}) != 1:
            continue
        decided = found[0][0]
        taken = set().union(*(f[1] for f in found))
        src = game.nodes.get(decided)
        if src is None or not src.choices or {c.id for c in src.choices} - taken:
            continue
        if node.id in _steps(game, skip=decided):  # a way to the branch that does not pass the decision
            continue
        impossible.add((node.id, node.otherwise, "else"))
    drop = frozenset(impossible)
    reached = _steps(game, drop=drop)
    unreached = frozenset(n for n in game.nodes if n not in reached)
    return drop, unreached


def never_taken(game: Game) -> frozenset[tuple[str, str, str]]:
    """The edges (src, dst, kind) the engine can never take: the impossible 'otherwise' exits and every
    edge out of a node it can never reach."""
    drop, unreached = _never(game)
    return drop | frozenset((e.src, e.dst, e.kind) for e in game.edges if e.src in unreached)


def never_reached(game: Game) -> frozenset[str]:
    """The nodes the engine can never reach (once the impossible exits are left out)."""
    return _never(game)[1]
