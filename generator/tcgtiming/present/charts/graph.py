"""The chart as a graph, before it is written in a format: nodes, edges, clusters; which charts a game has."""
from __future__ import annotations

from dataclasses import dataclass, field

from ...core.model import Game


@dataclass
class GNode:
    id: str
    kind: str  # a NODE_STYLE key
    lines: list[str]
    head: str = ""
    extra: list[str] = field(default_factory=list)
    url: str | None = None
    tooltip: str = ""
    cluster: str | None = None
    visits: tuple[int, ...] | None = None  # None: no trace; () not visited
    sub: list[str] = field(default_factory=list)  # key facts under the label (a window's priority)
    group: str | None = None  # the spine: a container's own numbered items, kept in one straight column


@dataclass
class GEdge:
    src: str
    dst: str
    kind: str  # an EDGE_STYLE key
    label: list[str] = field(default_factory=list)
    tooltip: str = ""
    visits: tuple[int, ...] | None = None


@dataclass
class GCluster:
    id: str
    label: str
    url: str | None = None
    tooltip: str = ""


@dataclass
class Chart:
    game: str
    id: str  # 'turn', a phase id or a procedure id
    kind: str  # overview | phase | procedure
    lang: str
    title: str
    nodes: list[GNode]
    edges: list[GEdge]
    clusters: list[GCluster]
    traced: bool = False


def chart_ids(game: Game) -> list[str]:
    """Every chart of a game: the overview, the phases in turn order, the procedures."""
    return ["turn"] + list(game.turn.children) + [p.id for p in game.procedures]


def resolve_chart_id(game: Game, wanted: str) -> str | None:
    if wanted in ("turn", "overview"):
        return "turn"
    c = game.containers.get(wanted)
    if c is None:
        return None
    if c.kind == "step":
        return c.parent
    return c.id
