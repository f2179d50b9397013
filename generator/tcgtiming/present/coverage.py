"""Coverage: which nodes and edges of a game the shipped runs visit (scenarios now; any other kind of
input, such as rulings, is one more ``Visit`` list), and why each node that none visits cannot be
visited, as far as the model tells.

The reasons come from the graph, never from node ids:

  synthetic    a generated begin/end node of a container that no edge from the turn's start
               reaches (control leaves that step or phase by a jump before its end)
  unreachable  any other node no path from the start of the turn reaches
  gap          reachable: a scenario could visit it, none does yet

Reachability follows every edge (calls, returns, jumps, the next turn), so it never calls a node
unreachable that a run could visit.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..core.model import Game
from ..core.words import word
from .charts import build_overlay

REASONS = ("synthetic", "unreachable", "gap")


@dataclass(frozen=True)
class Visit:
    """One input's path through a game: what it is (``kind``: scenario, ruling…), its name, and the
    (seq, node) entries of its trace."""

    game: str
    kind: str
    name: str
    steps: tuple[tuple[int, str], ...]


@dataclass
class GameCoverage:
    game: Game
    inputs: list[Visit]
    nodes: dict[str, int] = field(default_factory=dict)  # node -> visits, over every input
    by: dict[str, list[str]] = field(default_factory=dict)  # node -> the inputs visiting it
    edges: dict[tuple[str, str, str], int] = field(default_factory=dict)  # (src, dst, kind) -> visits (two edges alike: one)
    reasons: dict[str, str] = field(default_factory=dict)  # unvisited node -> reason
    edge_reasons: dict[tuple[str, str, str], str] = field(default_factory=dict)  # unvisited edge -> its source's reason

    @property
    def visited_nodes(self) -> int:
        return sum(1 for n in self.game.nodes if self.nodes.get(n))

    @property
    def visited_edges(self) -> int:
        return sum(1 for v in self.edges.values() if v)


def scenario_visits(inputs) -> list[Visit]:
    """The shipped scenarios' runs (``inputs.runs``: game id -> the site's ``ScenarioRun`` list)."""
    return [Visit(sr.scenario.game, "scenario", sr.stem, tuple((e.seq, e.node) for e in sr.run.entries))
            for game_runs in inputs.runs.values() for sr in game_runs]


def ruling_visits(inputs) -> list[Visit]:
    """The rulings' runs (``inputs.rulings``), those that run to their end (not a refusal)."""
    return [Visit(rr.ruling.game, "ruling", rr.stem, tuple((e.seq, e.node) for e in rr.run.entries))
            for game_rulings in getattr(inputs, "rulings", {}).values() for rr in game_rulings if rr.run is not None]


# What the coverage counts: each entry turns the collected inputs (the site's ``Inputs``) into visits.
VISIT_SOURCES = [scenario_visits, ruling_visits]


def all_visits(inputs) -> list[Visit]:
    return [v for source in VISIT_SOURCES for v in source(inputs)]


def reachable(game: Game) -> set[str]:
    seen = {game.turn.begin}
    todo = [game.turn.begin]
    while todo:
        for e in game.successors(todo.pop()):
            if e.dst not in seen:
                seen.add(e.dst)
                todo.append(e.dst)
    return seen


def reason(game: Game, nid: str, reach: set[str]) -> str:
    if nid in reach:
        return "gap"
    return "synthetic" if game.nodes[nid].kind in ("begin", "end") else "unreachable"


def coverage(game: Game, visits: list[Visit]) -> GameCoverage:
    mine = [v for v in visits if v.game == game.id]
    cov = GameCoverage(game, mine, {n: 0 for n in game.nodes}, {n: [] for n in game.nodes},
                       {(e.src, e.dst, e.kind): 0 for e in game.edges})
    kinds_of: dict[tuple[str, str], list[tuple[str, str, str]]] = {}
    for e in game.edges:
        kinds_of.setdefault((e.src, e.dst), []).append((e.src, e.dst, e.kind))
    for v in mine:
        ov = build_overlay(game, list(v.steps))
        for nid, seqs in ov.nodes.items():
            if nid in cov.nodes:
                cov.nodes[nid] += len(seqs)
                cov.by[nid].append(v.name)
        for _seq, e in ov.hops:
            cov.edges[(e.src, e.dst, e.kind)] += 1
    reach = reachable(game)
    cov.reasons = {n: reason(game, n, reach) for n, k in cov.nodes.items() if not k}
    cov.edge_reasons = {e: reason(game, e[0], reach) for e, k in cov.edges.items() if not k}
    return cov


def heat(count: int) -> int:
    """A visit count as a heat level: 0 (never), 1 (once), 2 (2-3), 3 (4-9), 4 (10 or more)."""
    return 0 if count <= 0 else 1 if count == 1 else 2 if count < 4 else 3 if count < 10 else 4


# --- outputs -------------------------------------------------------------------------------------


def wd(key: str, lang: str, *args) -> str:
    return word(f"cov.{key}", lang, *args)


def as_data(covs: list[GameCoverage]) -> dict:
    out = []
    for c in covs:
        g = c.game
        out.append({
            "game": g.id,
            "inputs": [{"kind": v.kind, "name": v.name} for v in c.inputs],
            "nodes": {"total": len(g.nodes), "visited": c.visited_nodes},
            "edges": {"total": len(c.edges), "visited": c.visited_edges},
            "unvisited": [{"node": n, "kind": g.nodes[n].kind, "reason": r} for n, r in c.reasons.items()],
            "reasons": {r: sum(1 for x in c.reasons.values() if x == r) for r in REASONS},
            "visits": {n: k for n, k in c.nodes.items() if k},
            "unvisited_edges": [{"src": s, "dst": d, "kind": k, "reason": r} for (s, d, k), r in c.edge_reasons.items()],
            "edge_visits": [{"src": s, "dst": d, "kind": k, "visits": n} for (s, d, k), n in c.edges.items()],
        })
    return {"games": out}


def as_text(covs: list[GameCoverage], lang: str) -> str:
    lines = []
    for c in covs:
        g = c.game
        lines.append(wd("title", lang, g.name.get(lang)))
        lines.append("  " + wd("summary", lang, c.visited_nodes, len(g.nodes), c.visited_edges, len(c.edges), len(c.inputs)))
        for r in REASONS:
            ids = [n for n, x in c.reasons.items() if x == r]
            if ids:
                lines.append(f"  {wd('reason.' + ('none' if r == 'gap' else r), lang)}: {len(ids)}")
                lines += [f"    {n}" for n in ids]
        if c.edge_reasons:
            lines.append(f"  {wd('edges_unvisited', lang)}: {len(c.edge_reasons)}")
            lines += [f"    {s} → {d} ({k}) [{wd('reason.' + ('none' if r == 'gap' else r), lang)}]"
                      for (s, d, k), r in c.edge_reasons.items()]
        lines.append("")
    return "\n".join(lines)
