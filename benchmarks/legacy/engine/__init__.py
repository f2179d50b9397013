"""The interpreter: runs turns of a compiled game (``model.Game``) from a scenario, and returns a
trace of immutable entries.

It walks the model's graph - the same nodes and edges the charts draw - with one small method per
node kind (``visit_<kind>``: override it in a subclass to change semantics, the ``sismic`` way),
and one small function per predicate (``pred_<name>``), action (``act_<name>``) and card effect
(``eff_<name>``), each entered by name in a registry (``Interpreter.predicates``, ``.actions``,
``.effects``): a subclass extends or replaces entries with a table of its own, e.g.
``actions = {**Interpreter.actions, "draw": my_draw}``. Like boardgame.io's flow, events queue
pending abilities instead of recursing, priority windows loop with a pass counter, and a step
budget stops a runaway definition with an error that names the cycle of node ids.

Decisions come from the scenario's choices (keyed by node id, taken in order); an unscripted
decision is an error in strict mode, otherwise a named policy decides it (``pass``: decline
optional actions and take the last option; ``first``: take the first available option; ``random``:
seeded). Same scenario and seed -> the same trace, byte for byte.

The modules, by concern:

``state``        run-time errors, cards, pending abilities, stack items, attacks, call frames; the registry
``result``       the trace entry, the run's result, and ``verify`` (the scenario's expectations)
``interpreter``  ``Interpreter``: roles, zones, the walk, the trace, decisions, dispatch by name
``flow``         node kinds: begin/end, calls, gotos and exits, branches, loops, for-each, player actions
``windows``      priority windows and the stack
``abilities``    events and triggered abilities, rule processing, pending abilities
``conditions``   the predicates
``cards``        actions on cards and zones (draw, move, reveal, place, play, pay, ...)
``combat``       actions of an attack (declare, block, modify, damage, battle, ...)
``effects``      the effects of card abilities

Knows nothing of YAML, jinja2 or graphviz.
"""
from __future__ import annotations

from tcgtiming.core import model as m
from tcgtiming.core.scenario import BUILTIN_EVENTS, Scenario
from .interpreter import Interpreter
from .result import Entry, Run, verify
from .state import Attack, Frame, Pending, RCard, SimulationError, StackItem  # noqa: F401  (importable as before)


def simulate(game: m.Game, scenario: Scenario, *, strict: bool = False, policy: str | None = None) -> Run:
    return Interpreter(game, scenario, strict=strict, policy=policy).run()


__all__ = ["simulate", "verify", "Interpreter", "Run", "Entry", "SimulationError", "BUILTIN_EVENTS"]
