"""``Interpreter``: the run state of a game and a scenario, roles and players, zones and cards, the
walk over the graph and its trace, the scripted and policy decisions, and the dispatch of
predicates, actions and effects by name to the concern modules' registries."""
from __future__ import annotations

import random
from collections import Counter

from tcgtiming.core import model as m
from tcgtiming.core.scenario import Scenario
from .abilities import ABILITY_ACTIONS, Abilities
from .cards import CARD_ACTIONS
from .combat import COMBAT_ACTIONS
from .conditions import PREDICATES
from .effects import EFFECTS
from .flow import Flow
from .result import Entry, Run
from .state import Attack, Frame, Pending, RCard, Registry, SimulationError, StackItem
from .windows import WINDOW_ACTIONS, Windows


class Interpreter(Flow, Windows, Abilities):
    """Runs the turns of a scenario (``run``); the node kinds come from the mixins, the names of
    predicates, actions and effects from the registries below."""

    # what the names of a rule file and a scenario run: name -> function(interpreter, ...)
    actions = Registry.merged(ABILITY_ACTIONS, CARD_ACTIONS, COMBAT_ACTIONS, WINDOW_ACTIONS)
    effects = Registry.merged(EFFECTS)
    predicates = Registry.merged(PREDICATES)

    def __init__(self, game: m.Game, scenario: Scenario, *, strict: bool = False, policy: str | None = None):
        self.game, self.sc, self.strict = game, scenario, strict
        self.policy = policy or scenario.policy
        self.rng = random.Random(scenario.seed)
        self.players = [p[0] for p in scenario.players]
        self.names = {p[0]: p[1] for p in scenario.players}
        self.zones: dict[str, dict[str, list[RCard]]] = {}
        self.cards: dict[str, RCard] = {}
        for pid, _, zones in scenario.players:
            self.zones[pid] = {z: [] for z in game.zones}
            for z, ids in zones:
                for i, cid in enumerate(ids):
                    card = RCard(scenario.cards[cid], pid)
                    card.zone = z
                    if z == "stage":
                        card.slot = i
                    self.zones[pid][z].append(card)
                    self.cards[cid] = card
        self.turn_player = scenario.turn_player
        self.turn_index = 0
        self.pending: dict[str, list[Pending]] = {p: [] for p in self.players}
        self.stack: list[StackItem] = []
        self.attack: Attack | None = None
        self.attacks_this_turn = 0
        self.revealed: list[RCard] = []
        self.damage_left = 0
        self.decisions: dict[str, str] = {}
        self.chosen: RCard | None = None
        self.event_counts: Counter = Counter()
        self.losers: list[str] = []
        self.result = "ongoing"
        self.frames: list[Frame] = []
        self.loops: dict[str, int] = {}
        self.vars: dict[str, str] = {}
        self.entries: list[Entry] = []
        self.priority: str | None = None
        self.self_player: str | None = None
        self.in_interrupt = False
        self.policy_decisions = 0
        self.choices: dict[str, list] = {}
        for ch in scenario.choices:
            self.choices.setdefault(ch.at, []).append(ch)
        self.used_choices: set = set()
        self.seat_roles: dict[str, str] = {}
        for r in game.roles.values():
            self.seat_roles.setdefault(r.get("seat"), r.id)
        self.cite_text = {nid: tuple(str(c) for c in n.cites) for nid, n in game.nodes.items()}
        self.no_pending = tuple((p, ()) for p in self.players)
        self.player_choice_node: str | None = None
        self.player_choice = None
        self.rule_log: list[str] = []  # rule processes applied, reported on the next trace entry

    # --- roles and players --------------------------------------------------------------------
    def other(self, pid: str) -> str:
        return self.players[1] if pid == self.players[0] else self.players[0]

    def player_of(self, role: str | None) -> str | None:
        if role is None:
            return None
        if role == "self":
            return self.self_player
        r = self.game.roles.get(role)
        if r is None:
            return None
        return self.turn_player if r.get("seat") == "turn" else self.other(self.turn_player)

    def players_of(self, role: str) -> list[str]:
        if role in ("any", "both"):
            return [self.turn_player, self.other(self.turn_player)]
        p = self.player_of(role)
        return [p] if p else []

    def role_of(self, pid: str) -> str | None:
        return self.seat_roles.get("turn" if pid == self.turn_player else "non_turn")

    def who(self, pid: str | None) -> str:
        if pid is None:
            return "-"
        return f"{self.names[pid]} ({pid})"

    def const(self, value) -> int:
        if isinstance(value, str):
            v = self.game.constants.get(value)
            if isinstance(v, int):
                return v
            raise SimulationError("R503", f"'{value}' is not an integer constant of the game")
        return int(value)

    # --- zones and cards ----------------------------------------------------------------------
    def zone(self, pid: str, z: str) -> list[RCard]:
        if z not in self.zones[pid]:
            raise SimulationError("R503", f"the game has no zone '{z}'")
        return self.zones[pid][z]

    def move_card(self, card: RCard, to: str, *, top: bool = False) -> None:
        src = self.zones[card.owner].get(card.zone) if card.zone else None
        if src is not None and card in src:
            src.remove(card)
        dest = self.zone(card.owner, to)
        if to == "stage":
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
        if to not in ("stage",):
            card.mods = []
            card.damage = 0
        if came_from == "stage" and to != "stage":
            card.state = None  # a card off the stage is neither standing, rested nor reversed
            self.fire("left_stage", subject=card)
        self.fire("entered", subject=card)
        self.interrupts()

    def draw(self, pid, n):
        drawn = []
        for _ in range(n):
            deck = self.zone(pid, "deck")
            if not deck:
                self.interrupts()
                deck = self.zone(pid, "deck")
                if not deck:
                    break
            card = deck[0]
            self.move_card(card, "hand")
            drawn.append(card)
        return m.Text(f"{self.names[pid]}が{len(drawn)}枚引く: {self.names_of(drawn)}",
                      f"{self.names[pid]} draws {len(drawn)}: {self.names_of(drawn)}")

    def names_of(self, cards) -> str:
        return ", ".join(f"{c.name} [{c.id}]" for c in cards) or "-"

    # --- the walk -----------------------------------------------------------------------------
    def run(self) -> Run:
        game = self.game
        steps = 0
        recent: list[str] = []
        for t in range(self.sc.turns):
            self.turn_index = t
            nid: str | None = "turn.begin"
            while nid is not None:
                steps += 1
                recent.append(nid)
                if len(recent) > 4000:
                    del recent[:2000]
                if steps > self.sc.max_steps:
                    raise SimulationError("R502", self._budget_message(recent), game.nodes[nid].loc,
                                          help="the definition loops without end: give the loop an exit, or raise max_steps")
                node = game.nodes[nid]
                nid = getattr(self, f"visit_{node.kind}")(node)
                if self.result != "ongoing":
                    break
            if self.result != "ongoing":
                break
            self.end_of_turn()
        unused = tuple((ch.at, ch.loc) for lst in self.choices.values() for ch in lst if id(ch) not in self.used_choices)
        zones = tuple((pid, tuple((z, tuple(c.id for c in cards)) for z, cards in self.zones[pid].items() if cards))
                      for pid in self.players)
        return Run(game.id, self.sc.id, tuple(self.entries), self.result, tuple(self.losers), zones, unused,
                   self.policy_decisions)

    def _budget_message(self, recent: list[str]) -> str:
        tail = recent[-400:]
        for period in range(1, len(tail) // 3 + 1):
            cyc = tail[-period:]
            if tail[-2 * period:-period] == cyc and tail[-3 * period:-2 * period] == cyc:
                order = {nid: i for i, nid in enumerate(self.game.nodes)}
                k = min(range(len(cyc)), key=lambda i: order.get(cyc[i], 0))
                cyc = cyc[k:] + cyc[:k]  # start at the node defined first, so the message is stable
                shown = " -> ".join(cyc + [cyc[0]])
                return f"step budget of {self.sc.max_steps} exceeded: the run repeats the cycle {shown}"
        return f"step budget of {self.sc.max_steps} exceeded (no short repeating cycle; last nodes: {' -> '.join(tail[-6:])})"

    def end_of_turn(self) -> None:
        for pid in self.players:
            for z in self.zones[pid].values():
                for c in z:
                    c.mods = []
                    c.used = False
        if self.game.roles_swap:
            self.turn_player = self.other(self.turn_player)
        self.attacks_this_turn = 0
        self.attack = None
        self.decisions.clear()

    SEQUENTIAL = ("next", "back", "jump", "exit")

    def edge(self, node: m.Node, kind: str = "next") -> str:
        """The successor along an edge of this kind ('next' also follows the back/jump/exit edge
        that ends a body)."""
        kinds = self.SEQUENTIAL if kind == "next" else (kind,)
        for e in self.game.successors(node.id):
            if e.kind in kinds:
                return e.dst
        raise SimulationError("R503", f"no '{kind}' edge leaves '{node.id}'", node.loc)

    def record(self, node: m.Node, what: m.Text, *, actor: str | None = None, decided_by: str | None = None) -> None:
        if self.rule_log:
            interrupts = "; ".join(self.rule_log)
            self.rule_log = []
            what = m.Text(f"{what.ja}（割り込み: {interrupts}）", f"{what.en} (interrupt: {interrupts})")
        if any(self.pending.values()):
            pending = tuple((p, tuple(x.label for x in v) if v else ()) for p, v in self.pending.items())
        else:
            pending = self.no_pending
        self.entries.append(Entry(
            len(self.entries) + 1, self.turn_index + 1, node.id, node.kind, node.phase, node.step, node.procedure,
            node.label, actor, self.role_of(actor) if actor else None, what, pending,
            tuple(x.label for x in self.stack) if self.stack else (), self.priority, self.cite_text[node.id], decided_by))

    # --- decisions ----------------------------------------------------------------------------
    def next_choice(self, node_id: str, decision: bool = False):
        """The next choice scripted for the node; for a player decision (an option, yes/no, priority in
        a window, which pending ability first) with none keyed to the node, the next unkeyed choice."""
        lst = self.choices.get(node_id)
        if not lst and decision:
            lst = self.choices.get(None)
        while lst:
            ch = lst[0]
            if id(ch) not in self.used_choices:
                self.used_choices.add(id(ch))
                lst.pop(0)
                return ch
            lst.pop(0)
        return None

    def card_for(self, ch) -> RCard | None:
        """The card a scripted choice names, else the card chosen at the last decision."""
        return self.cards.get(ch.card) if ch is not None and ch.card else self.chosen

    def choice_at(self, node, decision: bool = False):
        """The scripted choice for this visit of the node: at a player node, the one its decision
        took (so the node's own action uses it); elsewhere, the next one scripted for the node."""
        if node is None:
            return None
        if node.kind == "player" and self.player_choice_node == node.id and self.player_choice is not None:
            return self.player_choice
        return self.next_choice(node.id, decision)

    def decide(self, node, actor):
        if not node.choices and not node.may:
            # a player action with only 'do': its action takes a choice only when it needs one
            # (a discard when the hand is over the limit), so a repeated visit does not use it up
            self.player_choice_node, self.player_choice = node.id, None
            return None, None
        ch = self.next_choice(node.id, decision=True)
        self.player_choice_node, self.player_choice = node.id, ch
        if ch is not None:
            return ch, "scenario"
        needs = bool(node.choices) or node.may
        if needs:
            if self.strict:
                raise SimulationError("R501", f"unscripted decision at '{node.id}' ({node.label.en}) for {self.who(actor)}",
                                      node.loc, help=f"add a choice: {{at: {node.id}, take: ...}}")
            self.policy_decisions += 1
            return None, f"policy:{self.policy}"
        return None, None

    def policy_pick(self, node, available):
        if self.policy == "first":
            return available[0]
        if self.policy == "random":
            return self.rng.choice(available)
        return available[-1]

    # --- conditions and actions, by name --------------------------------------------------------
    def holds(self, cond, node=None) -> bool:
        if cond is None:
            return True
        if isinstance(cond, m.Not):
            return not self.holds(cond.cond, node)
        if isinstance(cond, m.All):
            return all(self.holds(c, node) for c in cond.conds)
        if isinstance(cond, m.AnyOf):
            return any(self.holds(c, node) for c in cond.conds)
        return bool(self.predicates[cond.name](self, dict(cond.args)))

    def perform(self, node, action: m.Action | None, actor: str | None) -> m.Text:
        if action is None:
            return node.label
        fn = self.actions[action.name]
        result = fn(self, node, dict(action.args))
        return result if isinstance(result, m.Text) else node.label
