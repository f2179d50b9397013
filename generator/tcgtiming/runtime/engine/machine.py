"""``Machine``: the run state of a game's program and a scenario - seats and players, zones and
cards, pending abilities, the stack, the attack, the decisions taken - and the services the
program's code and the compiled actions call: moving cards (each move, state change, value change
and loss noted as a fact of the current entry), the step budget that every loop of the engine
counts against, the context a trace entry holds, and the state's fingerprint."""
from __future__ import annotations

import random

from ...core.scenario import Scenario
from .abilities import Abilities
from .flow import Flow
from .state import OutOfSteps, Queue, RCard, SimulationError
from .windows import Windows


class Machine(Flow, Windows, Abilities):
    """Runs the turns of a scenario on a game's ``Program``; ``R`` records an entry (None: no trace)."""

    def __init__(self, prog, scenario: Scenario, *, strict: bool = False, policy: str | None = None, R=None,
                 ring=None):
        game = prog.game
        self.prog, self.sc, self.strict = prog, scenario, strict
        self.policy = policy or scenario.policy
        self.rng = random.Random(scenario.seed)
        self.players = [p[0] for p in scenario.players]
        self.names = {p[0]: p[1] for p in scenario.players}
        self.first_turn = scenario.first_turn
        stage = prog.cx.zone_or_none("stage")
        self.deck = prog.cx.zone_or_none("deck")
        self.stage = stage
        self.zone_order = {z: i for i, z in enumerate(game.zones)}
        self.zones: dict[str, dict[str, list[RCard]]] = {}
        self.cards: dict[str, RCard] = {}
        listen: dict[str, list] = {}
        for pid, _, zones in scenario.players:
            self.zones[pid] = {z: [] for z in game.zones}
            for z, card_ids in zones:
                for i, cid in enumerate(card_ids):
                    card = RCard(scenario.cards[cid], pid)
                    card.zone = z
                    if z == stage:
                        card.slot = i
                    self.zones[pid][z].append(card)
                    self.cards[cid] = card
                    for ab in card.spec.abilities:
                        if ab.kind == "auto" and ab.event is not None:
                            listen.setdefault(ab.event, []).append((card, ab))
        self.listen = listen  # the index of auto abilities by event
        other = [p for p in self.players if p != scenario.turn_player]
        self.seat = [scenario.turn_player, other[0] if other else scenario.turn_player, None]  # turn, non-turn, self
        self.turn_index = 0
        self.pending = {p: Queue() for p in self.players}
        self.stack: list = []
        self.ssnap = None  # the stack as a cons list (newest first): an entry's O(1) snapshot
        self.attack = None
        self.attacks_this_turn = 0
        self.revealed: list[RCard] = []
        self.damage_left = 0
        self.decisions: dict[str, str] = {}
        self.chosen: RCard | None = None
        self.event_counts: dict[str, int] = {}
        self.losers: list[str] = []
        self.result = "ongoing"
        self.frames: list[int] = []  # the call nodes of the procedures being run
        self.loops: dict[str, int] = {}
        self.vars: dict[str, str] = {}
        self.priority: str | None = None
        self.window_state = None
        self.in_interrupt = False
        self.rule_key: str | None = None
        self.policy_decisions = 0
        self.player_choice_node: str | None = None
        self.player_choice = None
        self.script(scenario.choices)
        self.left = scenario.max_steps  # steps left in the budget
        self.at = 0  # the node being run (for entries made inside its work; kept up to date with the trace)
        self.node = 0  # the latest decision's node (player action, window, for-each): the state's position
        self.R = R
        self.ring = ring  # the recent entries, when a run is repeated to name the cycle it is caught in
        self.chg = [] if R is not None else None  # the facts of the entry being made
        self.ctx = None

    # --- players --------------------------------------------------------------------------------
    def other(self, pid: str) -> str:
        return self.players[1] if pid == self.players[0] else self.players[0]

    def who(self, pid: str | None) -> str:
        return "-" if pid is None else f"{self.names[pid]} ({pid})"

    def zone(self, pid: str, z: str) -> list[RCard]:
        if z not in self.zones[pid]:
            raise SimulationError("R503", f"the game has no zone '{z}'")
        return self.zones[pid][z]

    # --- changes, each a fact of the current entry ----------------------------------------------
    def note(self, fact) -> None:
        if self.chg is not None:
            self.chg.append(fact)

    def move_card(self, card: RCard, to: str, *, top: bool = False) -> None:
        src = self.zones[card.owner].get(card.zone) if card.zone else None
        if src is not None and card in src:
            src.remove(card)
        dest = self.zone(card.owner, to)
        stage = self.stage
        if to == stage:
            taken = {c.slot for c in dest}
            if card.slot is None or card.slot in taken:
                card.slot = next(i for i in range(len(dest) + 1) if i not in taken)
            dest.append(card)
            dest.sort(key=lambda c: c.slot)
        elif top:
            dest.insert(0, card)
        else:
            dest.append(card)
        came_from = card.zone
        card.zone = to
        if self.chg is not None:
            self.chg.append(("move", card.id, came_from, to))
        if to != stage:
            card.mods = []
            card.damage = 0
        if stage is not None and came_from == stage and to != stage:
            if card.state is not None:
                self.set_state(card, None)  # a card off the stage is neither standing, rested nor reversed
            self.fire("left_stage", card)
        self.fire("entered", card)
        self.interrupts()

    def draw(self, pid: str, n: int, deck: str, hand: str) -> list[RCard]:
        drawn = []
        zones = self.zones[pid]
        for _ in range(n):
            if not zones[deck]:
                self.interrupts()
                if not zones[deck]:
                    break
            card = zones[deck][0]
            self.move_card(card, hand)
            drawn.append(card)
        return drawn

    def set_state(self, card: RCard, to) -> None:
        if self.chg is not None and card.state != to:
            self.chg.append(("state", card.id, card.state, to))
        card.state = to

    def modify(self, card: RCard, stat: str, by: int) -> None:
        old = card.stat(stat)
        card.mods.append((stat, by))
        if self.chg is not None:
            self.chg.append(("stat", card.id, stat, old, old + by))

    def deal(self, card: RCard, amount: int) -> None:
        card.damage += amount
        if self.chg is not None:
            self.chg.append(("damage", card.id, amount, card.damage))

    def lose(self, pid: str) -> None:
        if pid not in self.losers:
            self.losers.append(pid)
            self.note(("lose", pid))

    # --- pending abilities, the stack, priority: the context of the entries -----------------------
    def add_pending(self, p) -> None:
        self.pending[p.controller].append(p)
        self.ctx = None

    def pop_pending(self, pid: str, i: int):
        self.ctx = None
        return self.pending[pid].pop(i)

    def push(self, item) -> None:
        self.stack.append(item)
        self.ssnap = (item.ref, self.ssnap)
        self.ctx = None

    def pop_stack(self):
        self.ssnap = self.ssnap[1]
        self.ctx = None
        return self.stack.pop()

    def negate(self, item) -> None:
        item.negated = True
        snap = None
        for x in self.stack:
            snap = (x.ref, snap)
        self.ssnap = snap
        self.ctx = None

    def set_priority(self, pid) -> None:
        if self.priority != pid:
            self.priority = pid
            self.ctx = None

    def make_ctx(self) -> tuple:
        self.ctx = ctx = (self.turn_index, self.seat[0], tuple(self.pending[p].snap() for p in self.players),
                          self.ssnap, self.priority)
        return ctx

    # --- the budget ------------------------------------------------------------------------------
    def tick(self) -> None:
        """One step of a loop inside the engine (a window's decision, a rule applied, an ability resolved)."""
        self.left -= 1
        if self.left < 0:
            self.out_of_steps()

    def out_of_steps(self):
        if self.ring is None:
            raise OutOfSteps  # run again with the recent entries kept, to name the cycle
        from .budget import budget_message
        node = self.prog.nodes[self.at]
        raise SimulationError("R502", budget_message(self.prog, self.sc.max_steps, self.ring), node.loc,
                              help="the definition loops without end: give the loop an exit, or raise max_steps")

    # --- turns -----------------------------------------------------------------------------------
    def end_of_turn(self) -> None:
        for pid in self.players:
            for z in self.zones[pid].values():
                for c in z:
                    c.mods = []
                    c.used = False
        if self.prog.game.roles_swap:
            self.seat[0], self.seat[1] = self.seat[1], self.seat[0]
        self.attacks_this_turn = 0
        self.attack = None
        self.decisions.clear()
        self.ctx = None

    def no_edge(self, ni: int):
        node = self.prog.nodes[ni] if ni >= 0 else None
        raise SimulationError("R503", f"no edge leaves '{node.id if node else '?'}'", node.loc if node else None)

    def final_zones(self) -> tuple:
        return tuple((pid, tuple((z, tuple(c.id for c in cards)) for z, cards in self.zones[pid].items() if cards))
                     for pid in self.players)

    def unused_choices(self) -> tuple:
        return tuple((ch.at, ch.loc) for ch in self.all_choices if id(ch) not in self.used_choices)

    def fingerprint(self) -> tuple:
        """A canonical, hashable snapshot of the game state: zones (each card with its state,
        position, damage, modifiers), pending abilities, the stack, priority and the window, the
        position (the procedures being run and the node), and what the rules read later (the attack,
        the decisions, the revealed cards, event counts, for-each positions, the random state)."""
        at = self.attack
        return (
            self.turn_index, tuple(self.seat[:2]), self.result, tuple(self.losers),
            tuple((pid, tuple((z, tuple((c.id, c.state, c.slot, c.damage, tuple(c.mods), c.used) for c in cards))
                              for z, cards in self.zones[pid].items())) for pid in self.players),
            tuple((pid, tuple(p.ref for p in self.pending[pid].items())) for pid in self.players),
            tuple(x.ref for x in self.stack), self.priority, self.window_state,
            tuple(self.prog.ids[f] for f in self.frames), self.prog.ids[self.node],
            (at.attacker.id, at.defender.id if at.defender else None, at.side) if at else None,
            self.attacks_this_turn, tuple(c.id for c in self.revealed), self.damage_left,
            tuple(sorted(self.decisions.items())), self.chosen.id if self.chosen else None,
            tuple(sorted(self.event_counts.items())), tuple(sorted(self.loops.items())), tuple(sorted(self.vars.items())),
            len(self.used_choices), hash(self.rng.getstate()),
        )
