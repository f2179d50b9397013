"""``Program``: a game compiled once for every run of it. Node ids become indices; each node's
action, each condition (branch cases, loop conditions, option conditions, rule processes) and each
card effect is compiled by its registry entry into a function of the run state with its arguments
resolved (``context``); the graph becomes Python code, one function per container (``source``),
with and without the trace. Compiling the same game again returns the same program (a small cache
keyed by the game object)."""
from __future__ import annotations

from collections import OrderedDict

from ...core import model as m
from .abilities import ABILITY_ACTIONS, rule_watch
from .cards import CARD_ACTIONS
from .combat import COMBAT_ACTIONS
from .conditions import PREDICATES, compiled
from .context import AMBIGUOUS, Cx
from .effects import EFFECTS
from .melee import MELEE_ACTIONS
from .state import Registry, SimulationError
from .template import Setup
from .windows import WINDOW_ACTIONS

# what the names of a rule file and a scenario run: name -> compiler
ACTIONS = Registry.merged(ABILITY_ACTIONS, CARD_ACTIONS, COMBAT_ACTIONS, MELEE_ACTIONS, WINDOW_ACTIONS)


def _failing(err: SimulationError):
    def fail(*_):
        raise err
    return fail


def together(acts):
    """Several actions of one node, done in order as one entry: the event lists what each did."""
    def run(st):
        return ("together", tuple([act(st) for act in acts]))
    return run


class Program:
    def __init__(self, game: m.Game, *, actions: dict | None = None, predicates: dict | None = None,
                 effects: dict | None = None, players: int = 2):
        self.game = game
        self.players = players  # how many players the scenarios it runs have (seats: ``context``)
        self.action_table = ACTIONS if actions is None else actions
        self.predicate_table = PREDICATES if predicates is None else predicates
        self.effect_table = EFFECTS if effects is None else effects
        self.cx = cx = Cx(game, players)
        self.ids = list(game.nodes)
        self.index = {nid: i for i, nid in enumerate(self.ids)}
        self.nodes = [game.nodes[nid] for nid in self.ids]
        self._conds: dict = {}
        self._effects: dict = {}
        self.actions: dict[int, object] = {}
        self.option_when: dict[int, list] = {}
        self.case_when: dict[int, list] = {}
        self.loop_when: dict[int, object] = {}
        self.actor_seat: dict[int, int] = {}
        self.windows: dict[int, tuple] = {}
        self.window_params: dict[int, frozenset] = {}  # a window whose plays name parameters of its procedure
        self.before_priority: dict[int, tuple] = {}  # a window's own actions before priority (when it has them)
        self.refused: dict[int, SimulationError] = {}  # a node naming one player ambiguously (more than two players)
        for ni, node in enumerate(self.nodes):
            cx.node = node
            if node.action is not None:
                self.actions[ni] = self.compile_action(node.action, node)
            if node.also:
                self.actions[ni] = together((self.actions[ni],) + tuple(self.compile_action(a, node) for a in node.also))
            if node.kind == "auto" and node.action is not None and node.action.arg("player") in game.roles:
                self.actor_seat[ni] = self._seat(node.action.arg("player"))
            if node.kind == "player":
                self.actor_seat[ni] = 0 if node.actor in ("any", "both") else self._seat(node.actor, ni)
                self.option_when[ni] = [self.condition(c.when) if c.when is not None else None for c in node.choices]
            if node.kind == "branch":
                self.case_when[ni] = [self.condition(c.when) if c.when is not None else (lambda st: True)
                                      for c in node.choices]
            if node.kind == "loop":
                self.loop_when[ni] = self.condition(node.condition) if node.condition is not None else (lambda st: True)
            if node.kind == "window":
                w = node.window
                who = tuple(sorted({i for r in w.who for i in cx.role_seats(r)}))
                passes = w.passes if players == 2 else max(w.passes, players)  # more players: one pass each at least
                need = passes if w.close == "consecutive_passes" else \
                    (len(who) if w.close == "all_pass" else 1)
                self.windows[ni] = (self._seat(w.first, ni), who, need)
                params = game.containers[node.procedure].params if node.procedure else ()
                if any(p in params for p in w.plays):  # kinds given by the call: worked out at each visit
                    self.window_params[ni] = frozenset(p for p in w.plays if p in params)
                if w.before_priority is not None:
                    self.before_priority[ni] = tuple(self.compile_action(a, node) for a in w.before_priority)
        cx.node = None
        # play kinds only some roles may play (a timing the text names, seen from the player): their seats
        self.play_by = {k: frozenset(i for r in p.get("by") for i in cx.role_seats(r))
                        for k, p in game.plays.items() if p.get("by")}
        self.rule_when = {rp.id: self.condition(rp.when) for rp in game.rule_processes.values() if rp.when is not None}
        self.rule_do = {rp.id: tuple(self.compile_action(a, None) for a in rp.actions) for rp in game.rule_processes.values()}
        # play kinds: the condition each needs (tested with 'self' the player), the ones that never stack
        self.play_when = {k: self.condition(p.get("when")) for k, p in game.plays.items() if p.get("when") is not None}
        self.no_stack = frozenset(k for k, p in game.plays.items() if p.get("stack") is False)
        # the zones whose cards keep a state (the rule file's keeps_state): leaving one clears it
        self.stateful = frozenset(z for z, zone in game.zones.items() if zone.get("keeps_state"))
        self.interrupt_rules = tuple(rp for rp in game.rule_processes.values() if rp.type == "interrupt")
        self.check_rules = tuple(rp for rp in game.rule_processes.values() if rp.type == "check")
        # the zones each kind of rule reads (None: more than zones, or no interrupt-type rule)
        self.interrupt_watch, self.check_watch = rule_watch(self, self.interrupt_rules), rule_watch(self, self.check_rules)
        from .source import rule_scan
        self.interrupt_scan = rule_scan(self, self.interrupt_rules)
        self.check_scan = rule_scan(self, self.check_rules)
        # what an entry shows of its node: id, kind, phase, step, procedure, label, citations
        self.info = [(n.id, n.kind, n.phase, n.step, n.procedure, n.label, tuple(str(c) for c in n.cites))
                     for n in self.nodes]
        self._turn: dict[bool, object] = {}
        self.sources: dict[bool, str] = {}  # the code of the turn, with and without the trace (for reading)
        self._setups: OrderedDict = OrderedDict()

    def _seat(self, role, ni: int | None = None):
        try:
            return self.cx.seat(role)
        except SimulationError as err:
            if ni is not None and err.code == AMBIGUOUS:  # refused when a run reaches the node
                self.refused[ni] = err
            return 0

    # --- compiling names ---------------------------------------------------------------------------
    def compile_action(self, action: m.Action, node: m.Node | None):
        self.cx.node = node
        try:
            return self.action_table[action.name](self.cx, node, dict(action.args))
        except SimulationError as err:
            return _failing(err)

    def source_of(self, cond) -> str | None:
        """A condition as a Python expression of ``st``, when each of its predicates has one."""
        if isinstance(cond, m.Not):
            inner = self.source_of(cond.cond)
            return f"(not {inner})" if inner else None
        if isinstance(cond, (m.All, m.AnyOf)):
            parts = [self.source_of(c) for c in cond.conds]
            if not parts or None in parts:
                return None
            return "(" + (" and " if isinstance(cond, m.All) else " or ").join(parts) + ")"
        return getattr(self.condition(cond), "expr", None)

    def condition(self, cond):
        hit = self._conds.get(id(cond))
        if hit is not None:
            return hit[1]
        fn = self._condition(cond)
        self._conds[id(cond)] = (cond, fn)
        return fn

    def _condition(self, cond):
        src = self.source_of(cond) if isinstance(cond, (m.Not, m.All, m.AnyOf)) else None
        if src is not None:  # every part has its source: one function of it (no call per part)
            return compiled(src)
        if isinstance(cond, m.Not):
            inner = self.condition(cond.cond)
            return lambda st: not inner(st)
        if isinstance(cond, m.All):
            parts = tuple(self.condition(c) for c in cond.conds)

            def every(st):
                for f in parts:
                    if not f(st):
                        return False
                return True
            return every
        if isinstance(cond, m.AnyOf):
            parts = tuple(self.condition(c) for c in cond.conds)

            def some(st):
                for f in parts:
                    if f(st):
                        return True
                return False
            return some
        try:
            return self.predicate_table[cond.name](self.cx, dict(cond.args))
        except SimulationError as err:
            return _failing(err)

    def effect(self, action: m.Action):
        hit = self._effects.get(id(action))
        if hit is not None:
            return hit[1]
        self.cx.node = None
        try:
            fn = self.effect_table[action.name](self.cx, dict(action.args))
        except SimulationError as err:
            fn = _failing(err)
        self._effects[id(action)] = (action, fn)
        return fn

    def setup(self, scenario):
        """What every run of a scenario starts from (cached for the last 64 scenarios)."""
        hit = self._setups.get(id(scenario))
        if hit is not None and hit[0] is scenario:
            return hit[1]
        s = Setup(self, scenario)
        self._setups[id(scenario)] = (scenario, s)
        while len(self._setups) > 64:
            self._setups.popitem(last=False)
        return s

    # --- the code ------------------------------------------------------------------------------------
    def turn(self, traced: bool):
        """The function that runs one turn (``F(st, None)``), with or without the trace."""
        fn = self._turn.get(traced)
        if fn is None:
            from .source import build
            fn = self._turn[traced] = build(self, traced)
        return fn


_CACHE: OrderedDict = OrderedDict()


def program_for(game: m.Game, players: int = 2) -> Program:
    """The program of a game for scenarios of that many players, compiled once (the last 16 kept)."""
    key = (id(game), players)
    hit = _CACHE.get(key)
    if hit is not None and hit[0] is game:
        _CACHE.move_to_end(key)
        return hit[1]
    prog = Program(game, players=players)
    _CACHE[key] = (game, prog)
    while len(_CACHE) > 16:
        _CACHE.popitem(last=False)
    return prog
