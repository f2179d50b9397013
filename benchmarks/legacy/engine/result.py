"""What a run gives back: the trace entries, the result and the final zones; and ``verify``, the
facts a scenario's ``expect`` states that do not hold of a run."""
from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from tcgtiming.core import model as m
from tcgtiming.core.scenario import Scenario


class Entry(NamedTuple):
    """One trace entry (immutable; a named tuple because a turn makes hundreds of them)."""

    seq: int
    turn: int
    node: str
    kind: str
    phase: str | None
    step: str | None
    procedure: str | None
    label: m.Text
    actor: str | None  # player id
    role: str | None
    what: m.Text  # what happened
    pending: tuple[tuple[str, tuple[str, ...]], ...]  # player id -> pending ability labels
    stack: tuple[str, ...]  # bottom first
    priority: str | None  # player id holding priority (priority windows)
    cites: tuple[str, ...]
    decided_by: str | None = None  # "scenario" | "policy:<name>" for decisions


@dataclass(frozen=True, slots=True)
class Run:
    game: str
    scenario: str
    entries: tuple[Entry, ...]
    result: str  # ongoing | lose | draw
    losers: tuple[str, ...]
    zones: tuple[tuple[str, tuple[tuple[str, tuple[str, ...]], ...]], ...]  # player -> zone -> card ids
    unused_choices: tuple = ()
    policy_decisions: int = 0


def verify(run: Run, scenario: Scenario) -> list[str]:
    """The facts the scenario's ``expect`` states that do not hold of the run (empty: all hold)."""
    ex = scenario.expect
    if ex is None:
        return []
    problems = []
    nodes = [e.node for e in run.entries]
    if ex.visits:
        pos = 0
        for want in ex.visits:
            try:
                pos = nodes.index(want, pos) + 1
            except ValueError:
                seen = "visited earlier only" if want in nodes else "never visited"
                problems.append(f"expected a visit to '{want}' after the previous expected visit ({seen})")
                break
    for nid in ex.never or []:
        if nid in nodes:
            problems.append(f"expected no visit to '{nid}', but trace entry {nodes.index(nid) + 1} visits it")
    zones = {pid: dict(z) for pid, z in run.zones}
    for pid, wanted in (ex.zones or {}).items():
        for z, value in wanted.items():
            have = zones.get(pid, {}).get(z, ())
            if isinstance(value, int) and len(have) != value:
                problems.append(f"expected {value} card(s) in {pid}'s {z}, found {len(have)}: {', '.join(have) or 'none'}")
            elif isinstance(value, tuple) and tuple(have) != value:
                problems.append(f"expected {pid}'s {z} to be [{', '.join(value)}], found [{', '.join(have)}]")
    if ex.result is not None and ex.result != run.result:
        problems.append(f"expected the result '{ex.result}', got '{run.result}'")
    if ex.loser is not None and tuple(run.losers) != (ex.loser,):
        problems.append(f"expected {ex.loser} to lose, got: {', '.join(run.losers) or 'nobody'}")
    return problems
