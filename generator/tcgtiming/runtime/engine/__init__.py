"""The engine: runs turns of a compiled game (``model.Game``) from a scenario.

A game is compiled once into a ``Program`` (``program``): node ids become indices, every action,
condition and card effect becomes a function of the run state with its arguments resolved, and
the graph becomes Python code, one function per container (``source``). A run of the program on a
``Machine`` (the run state, ``machine``) records trace entries as facts (``result``); narration is
rendered from them at output time (``runtime.narrate``). Like boardgame.io's flow, events queue
pending abilities instead of recursing, priority windows loop with a pass counter, and one step
budget (``max_steps``) covers every loop the engine runs - node visits, window decisions, rules
applied, abilities resolved - and stops a runaway definition with an error that names the cycle.

Decisions come from the scenario's choices (keyed by node id, taken in order); an unscripted
decision is an error in strict mode, otherwise a named policy decides it (``pass``: decline
optional actions and take the last option; ``first``: take the first available option; ``random``:
seeded). Same scenario and seed -> the same trace, byte for byte, with or without the trace.

The modules, by concern:

``state``       errors, cards, pending abilities and the stack (O(1) snapshots), the registry
``context``     what the compilers resolve ahead of time: seats, constants, zones by role
``program``     ``Program``: a game compiled once; ``program_for`` (cached)
``source``      the graph as Python code (the closure tier: each node's work a compiled closure)
``codegen``     the fast tier ``simulate`` uses: the common nodes' work written into that code too
``layout``      the fast tier's blocks as straight code (the step budget's count kept exact)
``placed``      moves, draws, pending abilities and scripted decisions written in place
``wingen``      the fast tier's priority windows: each window's loop as code
``firers``      a scenario's firing functions, one per event its cards listen to
``template``    a scenario's starting state, worked out once (``Setup``), made new for each run by code
``machine``     ``Machine``: the run state (in slots) and its services (moves, facts, budget, fingerprint)
``flow``        decisions; player actions, for-each, the end of the game
``windows``     priority windows and the stack
``abilities``   events and triggered abilities, rule processing, pending abilities
``conditions``  the predicates
``cards``       actions on cards and zones
``combat``      actions of an attack
``effects``     the effects of card abilities
``result``      entries, the run, ``verify``
``budget``      the message that names the cycle a run is caught in

Knows nothing of YAML, jinja2 or graphviz.
"""
from __future__ import annotations

from collections import deque
from gc import disable as _gc_off, enable as _gc_on, isenabled as _gc_enabled

from ...core import model as m
from ...core.scenario import BUILTIN_EVENTS, Scenario
from . import codegen
from .conditions import PREDICATES
from .effects import EFFECTS
from .machine import Machine
from .program import ACTIONS, Program, program_for
from .result import Checker, Entries, Entry, Run, verify
from .state import GameOver, OutOfSteps, SimulationError


_NEW = object.__new__


def _run(prog: Program, scenario: Scenario, strict, policy, emit, ring=None, keep=None, explorer=None) -> Run:
    st = _NEW(Machine).begin(prog, scenario, strict, policy, emit, ring, explorer)
    traced = emit is not None
    # the fast tier (``codegen``; its turn function cached on the scenario's setup), unless the closure tier is forced
    turn = prog.turn(traced) if codegen.CLOSURES else st.setup.turns[traced] or codegen.turn_for(prog, st, traced)
    for t in range(scenario.turns):
        st.turn_index = t
        if traced:
            st.context()
        try:
            turn(st, None)
        except GameOver:
            break
        st.end_of_turn()
    return Run(prog, scenario, keep, st)


def simulate(game: m.Game, scenario: Scenario, *, strict: bool = False, policy: str | None = None,
             trace: bool = True, sink=None, program: Program | None = None, explorer=None) -> Run:
    """Run the scenario's turns. ``trace=False``: record nothing (the fast path; ``Run.entries`` is
    empty). ``sink``: a function given each record as it is made (streaming; nothing is kept), e.g.
    ``runtime.trace.Stream``); it gets the record stream that ``result.Entries`` turns into entries.
    ``explorer``: answers the unscripted decisions (``runtime.explore``; with no trace only)."""
    prog = program if program is not None and program.players == len(scenario.players) else \
        program_for(game, len(scenario.players))
    collecting = _gc_enabled()
    if collecting:  # a run makes no reference cycles: the cyclic collector would only walk the trace over and over
        _gc_off()
    try:
        if explorer is not None:
            return _run(prog, scenario, False, policy, None, explorer=explorer)
        try:
            if sink is not None:
                return _streamed(prog, scenario, strict, policy, sink)
            if trace:  # the records kept are the recent ones too: they name the cycle if the budget runs out
                records: list = []
                return _run(prog, scenario, strict, policy, records.append, records, records)
            return _run(prog, scenario, strict, policy, None)
        except OutOfSteps:
            ring: deque = deque(maxlen=4000)  # run again, keeping the recent entries, to name the cycle
            _run(prog, scenario, strict, policy, ring.append, ring=ring)
            raise SimulationError("R502", f"step budget of {scenario.max_steps} exceeded", None)
    finally:
        if collecting:
            _gc_on()


def _streamed(prog: Program, scenario: Scenario, strict, policy, sink) -> Run:
    """A run whose records go to ``sink`` as they are made, its expected visits checked on the way."""
    checker = Checker(scenario)
    ids, feed = prog.ids, checker.feed

    def emit(rec):
        if type(rec[0]) is int:
            feed(ids[rec[0]])
        sink(rec)
    run = _run(prog, scenario, strict, policy, emit)
    run.checker = checker
    return run


__all__ = ["simulate", "verify", "Program", "program_for", "Machine", "Run", "Entry", "Entries", "SimulationError",
           "BUILTIN_EVENTS", "ACTIONS", "PREDICATES", "EFFECTS"]
