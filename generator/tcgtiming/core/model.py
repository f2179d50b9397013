"""The compiled model: one immutable graph of timing nodes that every back end reads.

Knows nothing of YAML or of the schema classes. Built by the front end (``frontend.lowering``);
read by the engine, the renderers and the site. Everything here is frozen; mappings are
read-only views.

Ids are stable and readable: a phase ``attack``, its step ``attack.declaration``, the third node
of that step ``attack.declaration.3`` (or its explicit id). Every container (the turn, a phase,
a step, a procedure) has synthetic ``<id>.begin`` and ``<id>.end`` nodes, so that edges connect
nodes only.

Edge kinds:
  next    sequence                      option  a player's choice (labelled)
  case    a rule decision (labelled)    else    the branch taken when no case holds
  loop    into a loop/foreach body      exit    out of a loop, or a jump to a container's end
  back    a loop back or a backward goto (a "back to 2.")
  jump    a forward goto
  call    into a procedure (check timings are calls of the check timing procedure)
  return  from a procedure's end back to the node after the call (``via`` names the call node)
  turn    from the end of the turn to the start of the next (roles swap)

Structure is stored, never recovered from ids: each node knows the decision or loop whose body
holds it (``parent`` and ``body``), the loops around it (``loops``) and, for an exit, what it
leaves (``leaves``). These fields are implied by the ids and edges, so ``as_data`` leaves them
out (fields marked ``DERIVED``): the compiled JSON shows only what the rule file says.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Mapping, Union

from .text import LANGS  # noqa: F401  (re-exported: the languages of every Text)

DERIVED = MappingProxyType({"as_data": False})  # field metadata: implied by other fields, left out of as_data
EDGE_KINDS = ("next", "option", "case", "else", "loop", "exit", "back", "jump", "call", "return", "turn")
NODE_KINDS = ("begin", "end", "auto", "player", "check", "trigger", "window", "closed", "branch", "loop",
              "foreach", "goto", "exit", "call", "end_game")


@dataclass(frozen=True, slots=True)
class Loc:
    file: str
    line: int
    col: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


@dataclass(frozen=True, slots=True)
class Text:
    ja: str
    en: str

    def get(self, lang: str) -> str:
        return self.ja if lang == "ja" else self.en


@dataclass(frozen=True, slots=True)
class Citation:
    source: str
    section: str | None = None

    def __str__(self) -> str:
        return f"{self.source}#{self.section}" if self.section else self.source


@dataclass(frozen=True, slots=True)
class Pred:
    name: str
    args: tuple[tuple[str, object], ...] = ()

    def arg(self, name: str, default=None):
        return next((v for k, v in self.args if k == name), default)


@dataclass(frozen=True, slots=True)
class Not:
    cond: "Condition"


@dataclass(frozen=True, slots=True)
class All:
    conds: tuple["Condition", ...]


@dataclass(frozen=True, slots=True)
class AnyOf:
    conds: tuple["Condition", ...]


Condition = Union[Pred, Not, All, AnyOf]


@dataclass(frozen=True, slots=True)
class Action:
    name: str
    args: tuple[tuple[str, object], ...] = ()

    def arg(self, name: str, default=None):
        return next((v for k, v in self.args if k == name), default)


@dataclass(frozen=True, slots=True)
class Choice:
    """An option of a player action, or a case of a branch."""

    id: str
    label: Text | None
    when: Condition | None
    entry: str  # the first node of its body, or the node after the decision when the body is empty
    note: Text | None = None
    play: str | None = None  # player options: the play kind (an id of Game.plays) choosing it plays


@dataclass(frozen=True, slots=True)
class Reading:
    """One way of reading the sources at a node or container (they can be read more than one way, or
    they disagree); ``runs`` marks the one the rule file follows."""

    id: str
    says: Text
    cites: tuple[Citation, ...] = ()
    runs: bool = False


@dataclass(frozen=True, slots=True)
class WindowSpec:
    first: str
    who: tuple[str, ...]
    plays: tuple[str, ...]
    close: str
    passes: int
    after_play: str
    resolve: str
    after_resolve: str
    pass_note: Text | None = None
    before_priority: tuple[Action, ...] | None = None  # None: the engine's default (see the window guide)


@dataclass(frozen=True, slots=True)
class Node:
    id: str
    kind: str
    label: Text
    cites: tuple[Citation, ...]
    loc: Loc
    container: str  # the innermost container (step, phase, procedure or the turn)
    phase: str | None = None
    step: str | None = None
    procedure: str | None = None
    note: Text | None = None
    actor: str | None = None  # player: the acting role
    may: bool = False  # player: the action is optional
    action: Action | None = None  # auto / player / closed: what happens
    also: tuple[Action, ...] = ()  # auto / closed: the actions done together with it, in order (do: [a, b, ...])
    choices: tuple[Choice, ...] = ()  # player options, or branch cases
    otherwise: str | None = None  # branch: where 'else' leads
    condition: Condition | None = None  # loop: while
    window: WindowSpec | None = None
    event: str | None = None  # trigger
    target: str | None = None  # goto / exit: resolved node id
    callee: str | None = None  # check / call: procedure id
    call_args: tuple[tuple[str, object], ...] = ()
    over: str | None = None  # foreach: list id
    var: str | None = None  # foreach: variable name
    result: str | None = None  # end_game
    player: str | None = None  # end_game
    cont: str | None = None  # branch/player/loop/foreach/call/check: where control goes once it is done
    readings: tuple[Reading, ...] = ()  # the readings of the sources here, exactly one of them runs
    # --- structure (DERIVED: left out of as_data) ---
    # the player, branch, loop or foreach node whose body holds this node; None at the top of its
    # container (and for begin/end nodes)
    parent: str | None = field(default=None, metadata=DERIVED)
    # which body of ``parent``: an option id (player), a case id or 'else' (branch), '' (loop, foreach, top)
    body: str = field(default="", metadata=DERIVED)
    # the loop and foreach nodes whose bodies hold this node, outermost first (through options and
    # cases too, never across a call): node B is inside the body of loop A iff A in B.loops
    loops: tuple[str, ...] = field(default=(), metadata=DERIVED)
    # exit: what it leaves, the loop/foreach node ('from: loop': loops[-1], the only loop it leaves)
    # or the step, phase, procedure or 'turn' container (it leaves every loop in ``loops`` too:
    # loops never reach beyond a container)
    leaves: str | None = field(default=None, metadata=DERIVED)


@dataclass(frozen=True, slots=True)
class Edge:
    src: str
    dst: str
    kind: str
    label: Text | None = None
    via: str | None = None  # return edges: the call node


@dataclass(frozen=True, slots=True)
class Container:
    id: str
    kind: str  # turn | phase | step | procedure
    label: Text
    cites: tuple[Citation, ...]
    loc: Loc
    begin: str
    end: str
    parent: str | None = None
    children: tuple[str, ...] = ()  # phases of the turn, steps of a phase
    nodes: tuple[str, ...] = ()  # all node ids inside, in document order (begin/end included)
    note: Text | None = None
    params: tuple[str, ...] = ()
    readings: tuple[Reading, ...] = ()  # the readings of the sources here, exactly one of them runs
    skip_if: Condition | None = None  # a phase or step: not entered at all when this holds


@dataclass(frozen=True, slots=True)
class Section:
    """A place in a source document: its own heading, or our own short label with a line range."""

    id: str
    title: str
    lines: tuple[int, int] | None = None  # first and last line (1-based, inclusive)


@dataclass(frozen=True, slots=True)
class Source:
    id: str
    title: str
    file: str | None
    url: str | None
    sections: tuple[Section, ...]
    note: Text | None = None


@dataclass(frozen=True, slots=True)
class Named:
    id: str
    name: Text
    note: Text | None = None
    extra: tuple[tuple[str, object], ...] = ()  # role: (('seat', 'turn'),); rule process: (('type', ...),)

    def get(self, key: str, default=None):
        return next((v for k, v in self.extra if k == key), default)


@dataclass(frozen=True, slots=True)
class RuleProcess:
    id: str
    name: Text
    type: str  # interrupt | check
    cites: tuple[Citation, ...] = ()
    note: Text | None = None
    when: Condition | None = None
    actions: tuple[Action, ...] = ()


@dataclass(frozen=True, slots=True)
class Game:
    id: str
    name: Text
    file: str
    sources: Mapping[str, Source]
    roles: Mapping[str, Named]
    zones: Mapping[str, Named]
    events: Mapping[str, Named]
    plays: Mapping[str, Named]
    lists: Mapping[str, tuple[Named, ...]]
    constants: Mapping[str, object]
    rule_processes: Mapping[str, RuleProcess]
    check_timing: str | None
    roles_swap: bool
    containers: Mapping[str, Container]
    nodes: Mapping[str, Node]
    edges: tuple[Edge, ...]
    out_edges: Mapping[str, tuple[Edge, ...]] = field(default_factory=dict, metadata=DERIVED)  # index of edges
    in_edges: Mapping[str, tuple[Edge, ...]] = field(default_factory=dict, metadata=DERIVED)
    note: Text | None = None
    players: tuple[int, int] = (2, 2)  # the fewest and the most players a scenario of the game may have
    player_values: Mapping[str, Named] | None = None  # a number each player has (life): extra ('start', int)

    @property
    def turn(self) -> Container:
        return self.containers["turn"]

    @property
    def phases(self) -> tuple[Container, ...]:
        return tuple(self.containers[c] for c in self.turn.children)

    @property
    def procedures(self) -> tuple[Container, ...]:
        return tuple(c for c in self.containers.values() if c.kind == "procedure")

    def successors(self, node_id: str) -> tuple[Edge, ...]:
        return self.out_edges.get(node_id, ())

    def enclosing(self, node: "Node") -> tuple["Node | None", str]:
        """The decision or loop whose body holds the node, and the body's name (an option or case id,
        'else', or '' for a loop body); (None, '') at the top of its container."""
        if node.parent is None:
            return None, ""
        return self.nodes[node.parent], node.body

    def time_order(self, container_id: str) -> list[str]:
        """A container's nodes in time order: its begin, its own nodes, each step (begin … end), its end."""
        c = self.containers[container_id]
        out = [c.begin] + [n for n in c.nodes if n not in (c.begin, c.end) and self.nodes[n].container == container_id]
        for child in c.children:
            out += self.time_order(child)
        out.append(c.end)
        return out

    def stats(self) -> dict:
        kinds: dict[str, int] = {}
        for n in self.nodes.values():
            kinds[n.kind] = kinds.get(n.kind, 0) + 1
        return {
            "phases": len(self.turn.children),
            "steps": sum(1 for c in self.containers.values() if c.kind == "step"),
            "procedures": len(self.procedures),
            "check_timings": kinds.get("check", 0),
            "priority_windows": kinds.get("window", 0),
            "nodes": sum(v for k, v in kinds.items() if k not in ("begin", "end")),
            "edges": len(self.edges),
        }


def freeze_map(d: dict) -> Mapping:
    return MappingProxyType(dict(d))


def as_data(obj):
    """Plain JSON-ready data for any model object (dataclasses, tuples, read-only mappings)."""
    from dataclasses import fields, is_dataclass

    if is_dataclass(obj):
        out = {}
        for f in fields(obj):
            if not f.metadata.get("as_data", True):
                continue  # DERIVED
            v = getattr(obj, f.name)
            if v is None or v == () or v is False and f.name == "may":
                continue
            out[f.name] = as_data(v)
        if isinstance(obj, (Pred, Not, All, AnyOf)):
            out = {"type": type(obj).__name__.lower(), **out}
        return out
    if isinstance(obj, Mapping):
        return {str(k): as_data(v) for k, v in obj.items()}
    if isinstance(obj, (tuple, list)):
        if obj and all(isinstance(x, tuple) and len(x) == 2 and isinstance(x[0], str) for x in obj):
            return {k: as_data(v) for k, v in obj}
        return [as_data(x) for x in obj]
    return obj
