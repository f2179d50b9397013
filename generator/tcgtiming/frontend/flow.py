"""Control-flow checks on the compiled graph: procedures that call themselves, procedures never
called (C315), nodes never reached, and loops or jumps from which the end of the turn (or of
the procedure) can never be reached.
"""
from __future__ import annotations

from collections import deque

from ..core import model as m
from ..core.diagnostics import Diagnostic


def _reach(starts, succ) -> set:
    """Everything reachable from the starts (included) by ``succ``."""
    seen = set(starts)
    todo = deque(seen)
    while todo:
        n = todo.popleft()
        for d in succ(n):
            if d not in seen:
                seen.add(d)
                todo.append(d)
    return seen


def check_graph(game: m.Game) -> list[Diagnostic]:
    diags: list[Diagnostic] = []

    def fail(code, message, node_id, help=None):
        n = game.nodes[node_id]
        diags.append(Diagnostic(code, message, n.loc.file, n.loc.line, n.loc.col, 1, help))

    out = game.out_edges
    # procedures: which can return, the call graph, recursion
    calls: dict[str, set] = {p.id: set() for p in game.procedures}
    for n in game.nodes.values():
        if n.callee and n.procedure:
            calls[n.procedure].add(n.callee)
    for p in sorted(calls):
        if p in _reach(calls[p], lambda q: calls.get(q, ())):
            n = game.containers[p]
            diags.append(Diagnostic("C317", f"procedure '{p}' calls itself (directly or through others)",
                                    n.loc.file, n.loc.line, n.loc.col))
    if any(d.code == "C317" for d in diags):
        return diags

    def local(nid):
        """Successors inside one procedure or the turn: a call goes on to its continuation."""
        yield from (e.dst for e in out.get(nid, ()) if e.kind not in ("call", "return", "turn"))
        yield from after_call(nid)

    def everywhere(nid):
        yield from (e.dst for e in out.get(nid, ()) if e.kind != "return")
        yield from after_call(nid)

    def after_call(nid):
        """Where a call node goes on once its procedure returns."""
        node = game.nodes[nid]
        if node.callee:
            yield from (e.dst for e in out.get(f"{node.callee}.end", ()) if e.kind == "return" and e.via == nid)

    reached = _reach(["turn.begin"], everywhere)
    called = {game.nodes[n].callee for n in reached if game.nodes[n].callee}
    for proc in game.procedures:
        if proc.id not in called:
            diags.append(Diagnostic("C315", f"procedure '{proc.id}' is never called", proc.loc.file, proc.loc.line, proc.loc.col))
            reached |= _reach([proc.begin], everywhere)
    for nid, node in game.nodes.items():
        if nid not in reached and node.kind not in ("begin", "end"):
            fail("C305", f"node '{nid}' can never be reached", nid,
                 help="an earlier goto/exit/end_game always leaves before it, or its branch can never be taken")
    # no way out: from every reached node the end of its container must stay reachable
    scopes = [("turn", "turn.begin", "turn.end")] + [(p.id, p.begin, p.end) for p in game.procedures]
    for cid, begin, end in scopes:
        members = _reach([begin], local)
        rev: dict[str, list] = {}
        for a in members:
            for b in local(a):
                rev.setdefault(b, []).append(a)
        ends = {end} | {x for x in members if game.nodes[x].kind == "end_game"}
        good = _reach(ends, lambda x: rev.get(x, ()))
        trapped = [x for x in members if x not in good]
        never_returns = {p.id for p in game.procedures if p.end not in _reach([p.begin], local)}
        if trapped and not any(game.nodes[x].callee in never_returns for x in trapped):
            order = {nid: i for i, nid in enumerate(game.nodes)}
            where = "the turn" if cid == "turn" else f"procedure '{cid}'"
            for sink in _sinks(trapped, local, order):
                cycle = _find_cycle(sink[0], local, set(sink))
                shown = " -> ".join(cycle)
                shown = f"cycle: {shown}" if len(cycle) > 1 and cycle[0] == cycle[-1] else f"dead end at {shown}"
                back = next((x for x in cycle if any(e.kind in ("back", "jump") for e in out.get(x, ()))), cycle[0])
                fail("C306", f"no way out: once here, the end of {where} is never reached ({shown})", back,
                     help="give the loop an exit: a branch whose other case continues, or a condition that can become false")
    return diags


def _sinks(trapped, succ, order):
    """The places where the trapped nodes end up: strongly connected groups with no way further
    (everything upstream of them is trapped only because it flows into them)."""
    within = set(trapped)
    reach = {x: _reach([x], lambda n: (d for d in succ(n) if d in within)) for x in trapped}
    sinks, seen = [], set()
    for x in sorted(trapped, key=order.__getitem__):
        if x in seen:
            continue
        if all(x in reach[y] for y in reach[x]):
            group = sorted(reach[x], key=order.__getitem__)
            seen |= set(group)
            sinks.append(group)
    return sinks


def _find_cycle(start, succ, within):
    """A cycle inside ``within`` reachable from ``start``, as a list of ids (first repeated at the end)."""
    path, index = [], {}
    node = start
    while node not in index:
        index[node] = len(path)
        path.append(node)
        nxt = next((d for d in succ(node) if d in within), None)
        if nxt is None:
            return path
        node = nxt
    return path[index[node]:] + [node]
