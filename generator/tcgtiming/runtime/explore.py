"""Does the order matter? Every legal combination of a scenario's unscripted decisions, explored.

The engine is deterministic: a run is fixed by the scenario and the answers to its unscripted
decisions (which option, yes or no, pass or which play in a window, which pending ability first,
pay a cost or not, which card or cards to pick). The explorer answers them itself: the first run takes the first alternative at
every decision and queues the others; each queued run replays the answers that led to its decision
and then goes on the same way. At every decision the state is fingerprinted (the engine's canonical
snapshot: zones, cards, pending abilities, the stack, priority, the position in the turn); a run
that reaches a state already met stops there, since everything from that state on has been (or
will be) explored once. The decisions form a graph whose nodes are distinct states, so the number
of runs grows with the number of distinct states and their alternatives (k pending abilities that
do not interact: 2^k states, k*2^(k-1) runs) rather than with the number of orders (k!).

Where the runs end (the state at the end of the scenario's turns, or the error that stopped them)
are the outcomes; each is reported with how many combinations reach it and one of them, written as
scenario choices a judge can paste into the scenario to see that trace.

``explore(game, scenario, at=None, limit=...)``: ``at`` (a node id) leaves the decisions before the
first decision at that node to the scenario and its policy. ``merge=False`` turns the merging off
(brute force: one run per combination) for comparison.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from ..core import model as m
from ..core.scenario import Scenario
from .engine import SimulationError, program_for, simulate
from .engine.state import OutOfSteps


class Merged(Exception):
    """A run reached a state already explored: it ends here."""


class Diverged(Exception):
    """A replayed run met a different decision than the run it replays (a nondeterministic engine)."""


@dataclass(frozen=True)
class Outcome:
    """Where some combinations end: ``result`` (ongoing, lose, draw, or ``error``), the losers, the
    cards (player, zone, card id, state, damage, modifiers) and the error's code and message."""
    result: str
    losers: tuple
    cards: tuple
    error: tuple = ()


@dataclass
class Reached:
    """An outcome with how many combinations reach it and one of them: ``(node id, alternative)``
    pairs, the alternative a tuple of facts such as ``("ability", card, ability)``."""
    outcome: Outcome
    combinations: int
    example: tuple


@dataclass
class Exploration:
    runs: int
    states: int
    decisions: int
    complete: bool
    limit: int
    cycles: int
    reached_at: bool  # a decision was made at the node explored from (always True without one)
    outcomes: list[Reached] = field(default_factory=list)

    @property
    def matters(self) -> bool:
        return len(self.outcomes) > 1


class _Explorer:
    """The engine's hook for unscripted decisions during an exploration (``Machine.explorer``)."""

    def __init__(self, at: str | None, merge: bool):
        self.at, self.merge = at, merge
        self.states: list[tuple] = []  # state id -> (node id, alternatives)
        self.edges: dict[tuple, tuple] = {}  # (state id, alternative index) -> ("state", id) | ("end", Outcome)
        self.seen: dict[tuple, int] = {}
        self.root: tuple | None = None
        self.cycles = 0  # alternatives that lead back to a state on their own path
        self.reached_at = at is None

    def begin(self, prefix: tuple, parent) -> None:
        self.prefix, self.depth, self.parent = prefix, 0, parent
        self.active = self.at is None

    def _link(self, target: tuple) -> None:
        if self.parent is None:
            self.root = target
        else:
            self.edges[self.parent] = target

    def pick(self, st, at: str, alternatives: tuple) -> int | None:
        """The index of the alternative to take, or None: not exploring yet (the policy decides)."""
        if not self.active:
            if at != self.at:
                return None
            self.active = self.reached_at = True
        d = self.depth
        self.depth += 1
        if d < len(self.prefix):
            k = self.prefix[d]
            if k >= len(alternatives):
                raise Diverged(at)
            return k
        key = (at, alternatives, st.fingerprint()) if self.merge else None
        if key is not None and key in self.seen:
            self._link(("state", self.seen[key]))
            raise Merged
        sid = len(self.states)
        self.states.append((at, alternatives))
        if key is not None:
            self.seen[key] = sid
        self._link(("state", sid))
        for k in range(len(alternatives) - 1, 0, -1):
            self.queue.append((self.prefix + (k,), (sid, k)))
        self.prefix += (0,)
        self.parent = (sid, 0)
        return 0

    def end(self, outcome: Outcome) -> None:
        self._link(("end", outcome))


def _outcome(machine) -> Outcome:
    cards = tuple((pid, z, c.id, c.state, c.damage, tuple(c.mods))
                  for pid in machine.players for z, cards in machine.zones[pid].items() for c in cards)
    return Outcome(machine.result, tuple(machine.losers), cards)


def explore(game: m.Game, scenario: Scenario, *, at: str | None = None, limit: int = 100_000,
            merge: bool = True, open_at: tuple[str, ...] = ()) -> Exploration:
    """Explore every combination of the unscripted decisions (from the first decision at ``at``);
    ``open_at``: nodes whose scripted choices are set aside, so that their decisions are explored too."""
    if open_at:
        scenario = dataclasses.replace(scenario, choices=tuple(c for c in scenario.choices if c.at not in open_at))
    prog = program_for(game, len(scenario.players))
    ex = _Explorer(at, merge)
    ex.queue = [((), None)]
    runs = 0
    while ex.queue and runs < limit:
        prefix, parent = ex.queue.pop()
        runs += 1
        ex.begin(prefix, parent)
        try:
            run = simulate(game, scenario, strict=False, trace=False, program=prog, explorer=ex)
        except Merged:
            continue
        except SimulationError as exc:
            ex.end(Outcome("error", (), (), (exc.code, exc.message)))
            continue
        except OutOfSteps:
            ex.end(Outcome("error", (), (), ("R502", f"step budget of {scenario.max_steps} exceeded")))
            continue
        ex.end(_outcome(run.machine))
    reached = _reached(ex)
    return Exploration(runs, len(ex.states), sum(len(a) for _, a in ex.states), not ex.queue, limit, ex.cycles,
                       ex.reached_at, reached)


def _reached(ex: _Explorer) -> list[Reached]:
    """Per outcome: the number of combinations reaching it and the first of them (in the order
    explored), worked out over the graph of states, each state once (depth first, iteratively). An
    alternative leading back to a state on its own path (the rules let a player repeat an action
    that changes nothing) adds no outcome: the combinations go on from that state by its other
    alternatives, which are counted there."""
    if ex.root is None:
        return []
    below: dict[int, dict] = {}  # state id -> {outcome: [count, example suffix]}
    open_: set[int] = set()

    def of(target) -> dict:
        if target[0] == "end":
            return {target[1]: [1, ()]}
        if target[1] in open_:
            ex.cycles += 1
            return {}
        return below.get(target[1], {})

    if ex.root[0] == "state":
        todo = [(ex.root[1], False)]
        while todo:
            sid, done = todo.pop()
            if done:
                at, alternatives = ex.states[sid]
                acc: dict = {}
                for k, alt in enumerate(alternatives):
                    target = ex.edges.get((sid, k))
                    if target is None:  # not explored (the limit was hit)
                        continue
                    for o, (n, path) in of(target).items():
                        if o in acc:
                            acc[o][0] += n
                        else:
                            acc[o] = [n, ((at, alt),) + path]
                open_.discard(sid)
                below[sid] = acc
                continue
            if sid in below or sid in open_:
                continue
            open_.add(sid)
            todo.append((sid, True))
            for k in range(len(ex.states[sid][1]) - 1, -1, -1):
                target = ex.edges.get((sid, k))
                if target is not None and target[0] == "state" and target[1] not in below and target[1] not in open_:
                    todo.append((target[1], False))
    return [Reached(o, n, path) for o, (n, path) in of(ex.root).items()]


def differences(outcomes: list[Reached]) -> list[tuple]:
    """The cards whose place or state is not the same in every outcome: (card id, [(player, zone,
    state, damage) or None per outcome])."""
    where = [{c[2]: (c[0], c[1], c[3], c[4]) for c in r.outcome.cards} for r in outcomes]
    ids = sorted(set().union(*where)) if where else []
    return [(cid, [w.get(cid) for w in where]) for cid in ids if len({w.get(cid) for w in where}) > 1]
