"""``Machine``: the run state of a game's program and a scenario - seats and players, zones and
cards, pending abilities, the stack, the attack, the decisions taken - and the services the
program's code and the compiled actions call: moving cards, the step budget that every loop of the
engine counts against, and the state's fingerprint.

With a trace, everything goes into one stream of records, in the order it happens (``out``):
an entry ``(node, event[, actor[, decided_by]])``; a change ``("move", card, from, to)``, ...,
which belongs to the next entry; the context ``(None, (turn, turn player, pending, stack,
priority))`` whenever it changes; and ``(None, None)`` where the work of an entry made inside a
node's work begins (its changes are its own). ``result.Entries`` turns the stream into entries."""
from __future__ import annotations

import random
from operator import attrgetter

from ...core.scenario import Scenario
from .abilities import Abilities
from .flow import Flow
from .state import OutOfSteps, RCard, SimulationError
from .firers import firers
from .template import builder
from .windows import Windows


_SLOT = attrgetter("slot")


class Machine(Flow, Windows, Abilities):
    """The run state of a scenario on a game's ``Program``; ``out`` takes the record stream (None: no trace)."""

    # what every run starts with (set by the scenario's setup code, ``template``): name -> a constant (a
    # container written as a display: made new by each run)
    START = (
        ("_rng", None), ("turn_index", 0),
        ("ssnap", None),  # the stack as a cons list (newest first): an entry's O(1) snapshot
        ("attack", None), ("combat", None),  # a single attack; a combat with several attackers and blockers (``melee``)
        ("attacks_this_turn", 0), ("damage_left", 0),
        ("_chosen", None), ("_chosen_by", None),  # the card chosen at the last decision (Flow.chosen), the choice that chose it
        ("result", "ongoing"), ("priority", None), ("window_state", None), ("in_interrupt", False), ("rule_key", None),
        # an interrupt-type (check-type) rule may apply (false: none did at the last scan, nothing it reads moved since)
        ("interrupt_due", True), ("check_due", True),
        ("policy_decisions", 0), ("player_choice_node", None), ("player_choice", None),
        ("at", 0),  # the node being run (for entries made inside its work; kept up to date with the trace)
        ("node", 0),  # the latest decision's node (player action, window, for-each): the state's position
        ("play_turn", -1), ("play_counts", {}), ("pay_with", ()),  # the plays of a turn (``Windows.count_play``)
    )
    # the run state the program's code reads most, in slots (read faster than from the instance's dict,
    # which keeps the rest: what a part of the machine sets only when it needs it)
    __slots__ = ("prog", "sc", "strict", "policy", "left", "out", "ring", "explorer", "setup", "players", "names",
                 "zone_order", "stateful", "first_turn", "deck", "stage", "zones", "cards", "listen", "seat", "order",
                 "pending", "queues", "stack", "revealed", "decisions", "event_counts", "losers", "frames", "loops", "vars",
                 "values", "choices", "by_timing", "used_choices", "all_choices", "taken", "firers") + tuple(
                     name for name, _ in START)

    def __init__(self, prog, scenario: Scenario, *, strict: bool = False, policy: str | None = None, out=None,
                 ring=None, explorer=None):
        self.begin(prog, scenario, strict, policy, out, ring, explorer)

    def begin(self, prog, scenario: Scenario, strict: bool, policy: str | None, out, ring, explorer) -> Machine:
        """The run state at the start (``__init__``'s work; ``simulate`` calls it on ``object.__new__(Machine)``:
        a class call with keywords costs a run twice as much as this call)."""
        self.prog, self.sc, self.strict = prog, scenario, strict
        self.policy = policy or scenario.policy
        self.left = scenario.max_steps  # steps left in the budget
        self.out = out  # the record stream (None: no trace)
        self.ring = ring  # the recent records, when a run is repeated to name the cycle it is caught in
        self.explorer = explorer  # answers the unscripted decisions in an exploration (``runtime.explore``)
        self.setup = setup = prog.setup(scenario)  # what every run of the scenario starts from, worked out once
        # the rest of the run state, new for this run, made by the scenario's setup code (``template``): the
        # players, seats and turn order; the cards, zones (player -> zone -> cards), cards by id and the index
        # of auto abilities by event ((card, ability, every, zone, own card only, condition), in the order of
        # the scenario's cards); pending queues, the stack, the players' values; the scripted choices by node;
        # the scenario's firing functions (``firers``)
        (setup.start or builder(setup, self.START, firers(prog, setup)))(self)
        return self

    @property
    def rng(self) -> random.Random:
        """The scenario's seeded random numbers (made when first needed: a shuffle, the random policy)."""
        if self._rng is None:
            self._rng = random.Random(self.sc.seed)
        return self._rng

    # --- players --------------------------------------------------------------------------------
    def other(self, pid: str) -> str:
        """The next player in turn order (the scenario's order): with two, the other one."""
        ps = self.players
        return ps[(ps.index(pid) + 1) % len(ps)]

    def seat_order(self, tp: str) -> None:
        """The seats from the turn player (``template.rotation``, worked out once per scenario); ``order``:
        the players in turn order from the turn player. The seat list stays the same object (the
        program's code reads it through local names). A rule reading a seat's zones now reads another
        player's, with no card moved: the watched rules are due again (``abilities.rule_watch``)."""
        self.order, self.seat[:] = self.setup.rounds[tp]
        self.interrupt_due = self.check_due = True

    def who(self, pid: str | None) -> str:
        return "-" if pid is None else f"{self.names[pid]} ({pid})"

    def zone(self, pid: str, z: str) -> list[RCard]:
        if z not in self.zones[pid]:
            raise SimulationError("R503", f"the game has no zone '{z}'")
        return self.zones[pid][z]

    # --- changes, each a fact of the current entry ----------------------------------------------
    def note(self, fact) -> None:
        if self.out is not None:
            self.out(fact)

    def move_card(self, card: RCard, to: str, *, top: bool = False) -> None:
        came_from = card.zone
        zones = self.zones[card.owner]
        if came_from:
            src = zones.get(came_from)
            if src is not None:
                try:
                    src.remove(card)
                except ValueError:
                    pass
        dest = zones.get(to)
        if dest is None:
            dest = self.zone(card.owner, to)
        stage = self.stage
        if to == stage:
            taken = {c.slot for c in dest}
            slot = card.slot
            if slot is None or slot in taken:
                slot = 0
                while slot in taken:
                    slot += 1
                card.slot = slot
            dest.append(card)
            if len(dest) > 1 and dest[-2].slot > slot:  # kept in slot order
                dest.sort(key=_SLOT)
        elif top:
            dest.insert(0, card)
        else:
            dest.append(card)
        card.zone = to
        out = self.out
        if out is not None:
            out(("move", card.id, came_from, to))
        if to != stage:
            card.mods = ()
            card.damage = 0
        if came_from in self.stateful and to != came_from and card.state is not None:
            self.set_state(card, None)  # e.g. a card off the stage is neither standing, rested nor reversed
        listen = self.listen
        if listen:  # the card events (most games have none: no lookups)
            if stage is not None and came_from == stage and to != stage and "left_stage" in listen:
                self.fire("left_stage", card)
            if "entered" in listen:
                self.fire("entered", card)
        prog = self.prog
        if not self.check_due:
            watch = prog.check_watch
            if came_from in watch or to in watch:
                self.check_due = True
        if prog.interrupt_rules:
            if not self.interrupt_due:
                watch = prog.interrupt_watch
                if came_from not in watch and to not in watch:
                    return  # no count the rules read has changed: none applies now
                self.interrupt_due = True
            self.interrupts()

    def draw(self, pid: str, n: int, deck: str, hand: str) -> list[RCard]:
        drawn = []
        zones = self.zones[pid]
        move = self.move_card
        for _ in range(n):
            pile = zones[deck]
            if not pile:
                if self.interrupt_due:  # (false: no interrupt-type rule applies now)
                    self.interrupts()
                pile = zones[deck]
                if not pile:
                    break
            card = pile[0]
            move(card, hand)
            drawn.append(card)
        return drawn

    def set_state(self, card: RCard, to) -> None:
        if self.out is not None and card.state != to:
            self.out(("state", card.id, card.state, to))
        card.state = to

    def modify(self, card: RCard, stat: str, by: int) -> int:
        """A modifier of a value of the card (a fact: ``("stat", card, value, old, new)``); the new value."""
        mods = card.mods
        if mods:
            old = card.stat(stat)
            mods.append((stat, by))
        else:  # none in force: the shared empty tuple (or an empty list), replaced by a list of its own
            old = card.base.get(stat, 0)  # (the card's own value)
            card.mods = [(stat, by)]
        if self.out is not None:
            self.out(("stat", card.id, stat, old, old + by))
        return old + by

    def deal(self, card: RCard, amount: int) -> None:
        card.damage += amount
        if self.out is not None:
            self.out(("damage", card.id, amount, card.damage))

    def lose(self, pid: str) -> None:
        if pid not in self.losers:
            self.losers.append(pid)
            self.interrupt_due = self.check_due = True  # a rule may read 'lost'
            self.note(("lose", pid))

    # --- pending abilities, the stack, priority: the context of the entries -----------------------
    def add_pending(self, p) -> None:
        self.pending[p.controller].append(p)
        if self.out is not None:
            self.context()

    def pop_pending(self, pid: str, i: int):
        p = self.pending[pid].pop(i)
        if self.out is not None:
            self.context()
        return p

    def push(self, item) -> None:
        self.stack.append(item)
        if self.out is not None:
            self.ssnap = (item.ref, self.ssnap)
            self.context()

    def pop_stack(self):
        item = self.stack.pop()
        if self.out is not None:
            self.ssnap = self.ssnap[1]
            self.context()
        return item

    def negate(self, item) -> None:
        item.negated = True
        if self.out is None:
            return
        # the snapshot's cells from the top down to the item are made again (the item answered is
        # usually the top one: O(1)); the cells below are shared
        above, snap = [], self.ssnap
        for x in reversed(self.stack):
            above.append(x)
            snap = snap[1]
            if x is item:
                break
        else:
            return  # no longer on the stack: nothing shown changes
        for x in reversed(above):
            snap = (x.ref, snap)
        self.ssnap = snap
        self.context()

    def set_priority(self, pid) -> None:
        if self.priority != pid:
            self.priority = pid
            if self.out is not None:
                self.context()

    def context(self) -> None:
        """The context of the entries from here on: turn, turn player, pending, stack, priority (O(1))."""
        q = self.queues
        a = q[0]
        if len(q) == 2:
            b = q[1]
            snaps = ((a.log, a.head, len(a.log)), (b.log, b.head, len(b.log)))
        else:
            snaps = tuple((x.log, x.head, len(x.log)) for x in q)
        self.out((None, (self.turn_index, self.seat[0], snaps, self.ssnap, self.priority)))

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
        waiting = sum(len(self.pending[p]) for p in self.players)
        help = "the definition loops without end: give the loop an exit, or raise max_steps"
        if waiting:  # the cycle may wait for abilities that nothing resolves or puts on a stack
            help = (f"{waiting} pending abilit{'y' if waiting == 1 else 'ies'} never resolve: does a check timing, a "
                    "resolve_pending action or a window's before_priority: [stack_pending] reach them? Else " + help[4:])
        raise SimulationError("R502", budget_message(self.prog, self.sc.max_steps, self.ring), node.loc, help=help)

    # --- turns -----------------------------------------------------------------------------------
    def end_of_turn(self) -> None:
        for c in self.cards.values():  # every card is in one zone (no two places: the scenario's check)
            if c.mods:
                c.mods = ()
            if c.used:
                c.used = False
        if self.prog.game.roles_swap:  # the turn passes to the next player in turn order
            self.seat_order(self.order[1])
        self.attacks_this_turn = 0
        self.attack = self.combat = None
        self.decisions.clear()

    def no_edge(self, ni: int):
        node = self.prog.nodes[ni] if ni >= 0 else None
        raise SimulationError("R503", f"no edge leaves '{node.id if node else '?'}'", node.loc if node else None)

    def final_zones(self) -> tuple:
        return tuple((pid, tuple((z, tuple(c.id for c in cards)) for z, cards in self.zones[pid].items() if cards))
                     for pid in self.players)

    def unused_choices(self) -> tuple:
        return tuple((ch.at, ch.loc) for ch in self.all_choices if id(ch) not in self.used_choices)

    def _rng_key(self):
        """The random state as a value that is the same in every process: its version, the hash of its
        numbers (ints hash alike everywhere) and its cached gaussian, not the hash of the whole state
        (the cached gaussian is None until a gaussian is drawn, and None hashes by address before 3.12)."""
        if self._rng is None:
            return self.sc.seed
        version, numbers, gauss = self._rng.getstate()
        return version, hash(numbers), gauss

    def fingerprint(self) -> tuple:
        """A canonical, hashable snapshot of the game state: zones (each card with its state,
        position, damage, modifiers), pending abilities, the stack, priority and the window, the
        position (the procedures being run and the node), and what the rules read later (the attack,
        the decisions, the revealed cards, event counts, for-each positions, the random state)."""
        at = self.attack
        return (
            self.turn_index, tuple(self.seat[:2]) + tuple(self.seat[4:]), self.result, tuple(self.losers),
            tuple((pid, tuple((z, tuple((c.id, c.state, c.slot, c.damage, tuple(c.mods), c.used) for c in cards))
                              for z, cards in self.zones[pid].items())) for pid in self.players),
            tuple((pid, tuple(p.ref for p in self.pending[pid].items())) for pid in self.players),
            tuple(x.ref for x in self.stack), self.priority, self.window_state,
            tuple(self.prog.ids[f] for f in self.frames), self.prog.ids[self.node],
            (at.attacker.id, at.defender.id if at.defender else None, at.side) if at else None,
            self.combat.key() if self.combat else None, tuple((p, tuple(sorted(v.items()))) for p, v in self.values.items()),
            self.attacks_this_turn, tuple(c.id for c in self.revealed), self.damage_left,
            tuple(sorted(self.decisions.items())), self._chosen.id if self._chosen else None,
            tuple(sorted(self.event_counts.items())), tuple(sorted(self.loops.items())), tuple(sorted(self.vars.items())),
            len(self.used_choices), self._rng_key(),
        )
