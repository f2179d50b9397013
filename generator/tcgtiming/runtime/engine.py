"""The interpreter: runs turns of a compiled game (``model.Game``) from a scenario, and returns a
trace of immutable entries.

It walks the model's graph - the same nodes and edges the charts draw - with one small method per
node kind (``visit_<kind>``), one per predicate (``pred_<name>``), one per action (``act_<name>``)
and one per card effect (``eff_<name>``): extend or override those to change semantics (the
``sismic`` way). Like boardgame.io's flow, events queue pending abilities instead of recursing,
priority windows loop with a pass counter, and a step budget stops a runaway definition with an
error that names the cycle of node ids.

Decisions come from the scenario's choices (keyed by node id, taken in order); an unscripted
decision is an error in strict mode, otherwise a named policy decides it (``pass``: decline
optional actions and take the last option; ``first``: take the first available option; ``random``:
seeded). Same scenario and seed -> the same trace, byte for byte.

Knows nothing of YAML, jinja2 or graphviz.
"""
from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import NamedTuple

from ..core import model as m
from ..core.scenario import BUILTIN_EVENTS, Ability, Scenario

CARD_EVENTS = {"attack_declared", "reversed", "placed", "played", "revealed", "left_stage", "entered"}
COMPARE = {"gt": lambda a, b: a > b, "ge": lambda a, b: a >= b, "lt": lambda a, b: a < b,
           "le": lambda a, b: a <= b, "eq": lambda a, b: a == b}


class SimulationError(Exception):
    """A run-time problem: a code (R5xx), a message, and where (a node or a scenario choice)."""

    def __init__(self, code: str, message: str, loc: m.Loc | None = None, help: str | None = None):
        super().__init__(message)
        self.code, self.message, self.loc, self.help = code, message, loc, help


# --- trace -------------------------------------------------------------------------------------
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


# --- runtime state -----------------------------------------------------------------------------
class RCard:
    __slots__ = ("id", "spec", "owner", "state", "mods", "zone", "used", "slot", "damage")

    def __init__(self, spec, owner):
        self.id, self.spec, self.owner = spec.id, spec, owner
        self.state = spec.state
        self.mods: list[tuple[str, int]] = []
        self.zone = None
        self.used = False
        self.slot: int | None = None  # its stage position (kept when it leaves, so an encore returns it there)
        self.damage = 0  # damage dealt to it and not yet reset (battle damage stays until a damage reset)

    def stat(self, name: str) -> int:
        base = dict(self.spec.stats).get(name, 0)
        return base + sum(v for k, v in self.mods if k == name)

    @property
    def name(self) -> str:
        return self.spec.name


@dataclass
class Pending:
    ability: Ability
    card: RCard
    controller: str

    @property
    def label(self) -> str:
        return f"{self.card.name}: {self.ability.label}"


@dataclass
class StackItem:
    ability: Ability
    card: RCard
    controller: str
    answers: "StackItem | None" = None
    target: RCard | None = None
    negated: bool = False

    @property
    def label(self) -> str:
        return f"{self.card.name}: {self.ability.label}" + (" (negated)" if self.negated else "")


@dataclass
class Attack:
    attacker: RCard
    defender: RCard | None
    side: str  # player id of the attacker


@dataclass
class Frame:
    call: str  # the call node id
    args: dict = field(default_factory=dict)


class Interpreter:
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

    # --- zones --------------------------------------------------------------------------------
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

    # --- node kinds ---------------------------------------------------------------------------
    def visit_begin(self, node):
        c = self.game.containers[node.container]
        prefix = c.id + "."
        for nid in [k for k in self.loops if k.startswith(prefix)]:
            del self.loops[nid]  # entering a container afresh: its for-each loops start over
        self.record(node, m.Text(f"{c.label.ja}開始", f"{c.label.en}: start"))
        return self.edge(node)

    def visit_end(self, node):
        c = self.game.containers[node.container]
        self.record(node, m.Text(f"{c.label.ja}終了", f"{c.label.en}: end"))
        if c.kind == "procedure":
            frame = self.frames.pop()
            for e in self.game.successors(node.id):
                if e.kind == "return" and e.via == frame.call:
                    return e.dst
            raise SimulationError("R503", f"no return edge from '{node.id}' to the caller '{frame.call}'", node.loc)
        if c.kind == "turn":
            return None
        return self.edge(node)

    def visit_auto(self, node):
        actor = self.player_of(node.action.arg("player")) if node.action and node.action.arg("player") else None
        what = self.perform(node, node.action, actor)
        self.record(node, what, actor=actor)
        return self.edge(node)

    def visit_closed(self, node):
        what = self.perform(node, node.action, None)
        self.record(node, m.Text(f"（プレイ不可）{what.ja}", f"(no plays) {what.en}"))
        return self.edge(node)

    def visit_trigger(self, node):
        before = {p: len(v) for p, v in self.pending.items()}
        self.fire(node.event)
        new = [x.label for p in self.players for x in self.pending[p][before[p]:]]
        ev = self.game.events[node.event].name
        what = m.Text(f"「{ev.ja}」で待機: {', '.join(new) or 'なし'}",
                      f"'{ev.en}' triggers: {', '.join(new) or 'nothing'}")
        self.record(node, what)
        return self.edge(node)

    def visit_check(self, node):
        return self.visit_call(node)

    def visit_call(self, node):
        args = {}
        for k, v in node.call_args:
            args[k] = v
        if "amount" in args:  # a call that deals damage sets the points still to deal
            self.damage_left = self.value_of(args["amount"])
        self.frames.append(Frame(node.id, args))
        if node.callee == "check_timing" or node.kind == "check":
            self.fire("check_timing", quiet=True)
        self.record(node, m.Text(f"{node.label.ja}", f"{node.label.en}" + (f" ({', '.join(f'{k}={v}' for k, v in node.call_args)})" if node.call_args else "")))
        return self.edge(node, "call")

    def value_of(self, v) -> int:
        if isinstance(v, int):
            return v
        if isinstance(v, str) and v in self.game.constants:
            return self.const(v)
        if isinstance(v, str) and self.attack is not None:
            return max(0, self.attack.attacker.stat(v))
        return 0

    def visit_goto(self, node):
        self.record(node, node.label)
        return node.target

    def visit_exit(self, node):
        self.record(node, node.label)
        for nid in [k for k in self.loops if node.id.startswith(k + ".")]:
            del self.loops[nid]  # leaving a for-each early: it starts over next time
        return node.target

    def visit_end_game(self, node):
        if node.result == "draw":
            self.result = "draw"
            self.losers = list(self.players)
        else:
            pids = self.players_of(node.player)
            loser = pids if node.result == "lose" else [self.other(p) for p in pids]
            self.result = "lose"
            self.losers = loser
        self.record(node, m.Text(f"ゲーム終了: {node.label.ja}", f"game over: {node.label.en}"))
        return None

    def visit_branch(self, node):
        for choice in node.choices:
            if self.holds(choice.when, node):
                lbl = choice.label or m.Text(choice.id, choice.id)
                self.record(node, m.Text(f"{lbl.ja}", f"{lbl.en}"))
                return choice.entry
        self.record(node, m.Text("どれにも当たらない", "no case holds: otherwise"))
        return node.otherwise

    def visit_loop(self, node):
        if self.holds(node.condition, node):
            self.record(node, m.Text("続ける", "condition holds: once more"))
            return self.edge(node, "loop")
        self.record(node, m.Text("終わる", "condition no longer holds: done"))
        return self.edge(node, "exit")

    def visit_foreach(self, node):
        items = self.game.lists[node.over]
        i = self.loops.get(node.id, 0)
        if i < len(items):
            self.loops[node.id] = i + 1
            self.vars[node.var] = items[i].id
            self.record(node, m.Text(f"{items[i].name.ja}（{i + 1}/{len(items)}）", f"{items[i].name.en} ({i + 1}/{len(items)})"))
            return self.edge(node, "loop")
        self.loops.pop(node.id, None)
        self.vars.pop(node.var, None)
        self.record(node, m.Text("すべて終えた", "every item done"))
        return self.edge(node, "exit")

    def visit_player(self, node):
        actor = self.player_of(node.actor) if node.actor not in ("any", "both") else self.turn_player
        ch, by = self.decide(node, actor)
        if node.choices or node.may:  # a decision: what it chose (a do-only action keeps the earlier choice)
            self.chosen = self.cards.get(ch.card) if ch is not None and ch.card else None
        if node.choices:
            did = self.perform(node, node.action, actor) if node.action else None  # e.g. choose the attacker first
            available = [c for c in node.choices if c.when is None or self.holds(c.when, node)]
            if not available:
                raise SimulationError("R503", f"no option of '{node.id}' is available", node.loc)
            if ch is not None and ch.take is not None:
                pick = next((c for c in available if c.id == ch.take), None)
                if pick is None:
                    raise SimulationError("R503", f"option '{ch.take}' of '{node.id}' is not available now "
                                          f"(available: {', '.join(c.id for c in available)})", ch.loc)
            else:
                pick = self.policy_pick(node, available)
            self.decisions[node.id] = pick.id
            lbl = pick.label or m.Text(pick.id, pick.id)
            pre = f"{did.en}; " if did else ""
            pre_ja = f"{did.ja}、" if did else ""
            self.record(node, m.Text(f"{pre_ja}「{lbl.ja}」を選ぶ", f"{pre}chooses '{lbl.en}'"), actor=actor, decided_by=by)
            return pick.entry
        if node.may:
            yes = (ch.take != "no") if ch is not None else self.policy != "pass"
            self.decisions[node.id] = "yes" if yes else "no"
            if yes:
                did = self.perform(node, node.action, actor)
                self.record(node, m.Text(f"行う: {did.ja}", f"does it: {did.en}"), actor=actor, decided_by=by)
            else:
                self.record(node, m.Text("行わない", "declines"), actor=actor, decided_by=by)
            return self.edge(node)
        did = self.perform(node, node.action, actor)
        self.record(node, did, actor=actor, decided_by=by if ch is not None or node.action else None)
        return self.edge(node)

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

    # --- conditions ---------------------------------------------------------------------------
    def holds(self, cond, node=None) -> bool:
        if cond is None:
            return True
        if isinstance(cond, m.Not):
            return not self.holds(cond.cond, node)
        if isinstance(cond, m.All):
            return all(self.holds(c, node) for c in cond.conds)
        if isinstance(cond, m.AnyOf):
            return any(self.holds(c, node) for c in cond.conds)
        return bool(getattr(self, f"pred_{cond.name}")(dict(cond.args)))

    def compare(self, value: int, args: dict) -> bool:
        for k, fn in COMPARE.items():
            if k in args:
                return fn(value, self.const(args[k]))
        return False

    def pred_first_turn_of_game(self, a):
        return self.sc.first_turn and self.turn_index == 0

    def pred_first_attack_of_turn(self, a):
        return self.attacks_this_turn == 0

    def pred_attacks_this_turn(self, a):
        return self.compare(self.attacks_this_turn, a)

    def pred_count(self, a):
        players = self.players_of(a["player"])
        test = all if a["player"] == "both" else any
        return test(self.compare(len(self.zone(p, a["zone"])), a) for p in players)

    def pred_has_pending(self, a):
        return any(self.pending[p] for p in self.players_of(a["player"]))

    def pred_has_state(self, a):
        z = a.get("zone", "stage")
        return any(c.state == a["state"] for p in self.players_of(a["player"]) for c in self.zone(p, z))

    def pred_can_attack(self, a):
        pid = self.player_of(a["player"])
        return any(c.state in ("stand", "active") for c in self.attackers(pid))

    def attackers(self, pid):
        zone = "stage" if "stage" in self.game.zones else next((z for z in ("control_area", "field") if z in self.game.zones), None)
        if zone is None:
            return []
        cards = self.zone(pid, zone)
        if zone == "stage":
            cards = [c for c in cards if c.slot is not None and c.slot < 3]  # the centre stage: the three front slots
        return [c for c in cards if c.spec.type in ("character", "unit")]

    def pred_opposing_character(self, a):
        return self.attack is not None and self.attack.defender is not None

    def pred_attacker_present(self, a):
        return self.attack is not None and self.attack.attacker.zone in ("stage", "control_area", "faction_area", "field")

    def pred_defender_present(self, a):
        return (self.attack is not None and self.attack.defender is not None
                and self.attack.defender.zone in ("stage", "control_area", "faction_area", "field"))

    def pred_chose(self, a):
        return self.decisions.get(a["node"]) == a["option"]

    def pred_revealed_is(self, a):
        return bool(self.revealed) and self.revealed[-1].spec.type == a["type"]

    def active(self, pid, party):
        for c in self.zones[pid].get("faction_area", []):
            if c.spec.faction == party:
                return c
        return None

    def pred_active_has(self, a):
        party = self.vars.get(a.get("party"), a.get("party"))
        card = self.active(self.turn_player, party)
        return card is not None and (a["trait"] in card.spec.traits or card.stat(a["trait"]) > 0)

    def pred_lost(self, a):
        test = all if a["player"] == "both" else any
        return test(p in self.losers for p in self.players_of(a["player"]))

    def pred_stack_empty(self, a):
        return not self.stack

    def pred_damage_left(self, a):
        return self.compare(self.damage_left, a)

    def pred_has_keyword(self, a):
        zones = [a["zone"]] if a.get("zone") else list(self.game.zones)
        return any(a["keyword"] in c.spec.traits for p in self.players_of(a["player"]) for z in zones for c in self.zone(p, z))

    def pred_stat_at_least(self, a):
        if self.attack is None or self.attack.defender is None:
            return False
        side = {"attacker": self.attack.attacker, "defender": self.attack.defender}
        return side[a["who"]].stat(a["stat"]) >= side[a["than"]].stat(a["than_stat"])

    # --- actions ------------------------------------------------------------------------------
    def perform(self, node, action: m.Action | None, actor: str | None) -> m.Text:
        if action is None:
            return node.label
        fn = getattr(self, f"act_{action.name}")
        result = fn(node, dict(action.args))
        return result if isinstance(result, m.Text) else node.label

    def pick_cards(self, node, pid, zone, count, which):
        cards = self.zone(pid, zone)
        if which in (None, "top"):
            return cards[:count]
        if which == "all":
            return list(cards)
        if which == "revealed":
            return [c for c in self.revealed if c.zone == zone]
        if which == "attacker":
            return [self.attack.attacker] if self.attack and self.attack.attacker in cards else []
        if which == "defender":
            return [self.attack.defender] if self.attack and self.attack.defender in cards else []
        if which == "reversed":
            rev = [c for c in cards if c.state == "reverse"]
            return self.chosen_from(node, rev, count)
        if which == "chosen":
            return self.chosen_from(node, cards, count)
        if which in ("sleeping", "face_down"):
            state = {"sleeping": "sleep", "face_down": "face_down"}[which]
            return [c for c in cards if c.state == state][:count]
        return cards[:count]

    def chosen_from(self, node, cards, count):
        if node is None:  # inside rule processing: scripted as {at: <rule process id>, card: ...}
            ch = self.next_choice(self.rule_key) if self.rule_key else None
            wanted = (list(ch.cards) or [ch.card]) if ch is not None else []
            picked = [c for c in cards if c.id in wanted] or cards
            return picked[:count]
        ch = self.choice_at(node)
        wanted = []
        if ch is not None:
            wanted = list(ch.cards) or ([ch.card] if ch.card else [])
        elif self.chosen is not None:
            wanted = [self.chosen.id]
        picked = [c for c in cards if c.id in wanted]
        if wanted and len(picked) < len([w for w in wanted]):
            where = ch.loc if ch is not None else node.loc
            raise SimulationError("R503", f"chosen card(s) {', '.join(wanted)} not available at '{node.id}' "
                                  f"(there: {', '.join(c.id for c in cards) or 'none'})", where)
        if not wanted:
            if self.strict and cards:
                raise SimulationError("R501", f"unscripted card choice at '{node.id}' ({node.label.en})", node.loc,
                                      help=f"add a choice: {{at: {node.id}, card: <card id>}}")
            picked = cards[:count or 1]
        return picked[:count or len(picked)]

    STATE_JA = {"stand": "スタンド", "rest": "レスト", "reverse": "リバース", "active": "活動", "sleep": "睡眠",
                "face_up": "表向き", "face_down": "裏向き"}

    def zja(self, zone: str) -> str:
        """A zone's Japanese name, for the Japanese narration (the English one keeps the zone id)."""
        z = self.game.zones.get(zone)
        return z.name.ja if z is not None and z.name.ja else zone

    def names_of(self, cards) -> str:
        return ", ".join(f"{c.name} [{c.id}]" for c in cards) or "-"

    def act_rule_processing(self, node, a):
        applied = []
        for _ in range(50):
            round_applied = False
            for rp in self.game.rule_processes.values():
                if rp.type != "check":
                    continue
                for pid in (self.turn_player, self.other(self.turn_player)):
                    if self.rule_applies(rp, pid):
                        self.apply_rule(rp, pid)
                        applied.append(f"{rp.name.en} ({pid})")
                        round_applied = True
            if self.losers:
                break  # the game's own end_game nodes end the game (they read the 'lost' predicate)
            if not round_applied:
                break
        return m.Text(f"ルール処理: {', '.join(applied) or 'なし'}", f"rule processing: {', '.join(applied) or 'nothing to do'}")

    def rule_applies(self, rp, pid) -> bool:
        if rp.when is None:
            return False
        saved, self.self_player = self.self_player, pid
        try:
            return self.holds(rp.when)
        finally:
            self.self_player = saved

    rule_key: str | None = None

    def apply_rule(self, rp, pid):
        saved, self.self_player, self.rule_key = self.self_player, pid, rp.id
        try:
            for action in rp.actions:
                getattr(self, f"act_{action.name}")(None, dict(action.args))
        finally:
            self.self_player, self.rule_key = saved, None

    def interrupts(self):
        if self.in_interrupt:
            return
        self.in_interrupt = True
        try:
            for _ in range(20):
                fired = False
                for rp in self.game.rule_processes.values():
                    if rp.type == "interrupt":
                        for pid in (self.turn_player, self.other(self.turn_player)):
                            if self.rule_applies(rp, pid):
                                self.apply_rule(rp, pid)
                                self.rule_log.append(f"{rp.name.en} ({self.names[pid]})")
                                fired = True
                if not fired:
                    break
        finally:
            self.in_interrupt = False

    def act_lose(self, node, a):
        for p in self.players_of(a["player"]):
            if p not in self.losers:
                self.losers.append(p)

    def act_shuffle(self, node, a):
        cards = self.zone(self.player_of(a["player"]), a["zone"])
        self.rng.shuffle(cards)
        return m.Text("シャッフル", "shuffled")

    def act_resolve_pending(self, node, a):
        pid = self.player_of(a["player"])
        if not self.pending[pid]:
            return m.Text("待機中の能力なし", "no pending ability")
        p0 = self.pending[pid][0]
        ch = self.choice_at(node, decision=len(self.pending[pid]) > 1 or bool(p0.ability.cost))
        idx = 0
        if ch is not None and (ch.ability or ch.card):
            idx = next((i for i, p in enumerate(self.pending[pid])
                        if (ch.ability in (None, p.ability.id)) and (ch.card in (None, p.card.id))), -1)
            if idx < 0:
                raise SimulationError("R503", f"ability {ch.ability or ''} {('of ' + ch.card) if ch.card else ''} is not pending "
                                      f"for {self.who(pid)} (pending: {', '.join(x.label for x in self.pending[pid])})", ch.loc)
        elif len(self.pending[pid]) > 1 and self.strict:
            raise SimulationError("R501", f"unscripted order at '{node.id}': {self.who(pid)} has "
                                  f"{len(self.pending[pid])} pending abilities", node.loc,
                                  help=f"add a choice: {{at: {node.id}, ability: <ability id>}}")
        p = self.pending[pid].pop(idx)
        if p.ability.cost and not self.can_pay(p.ability, p.card, pid):
            return m.Text(f"{p.label}のコストを払えない", f"{self.names[pid]} cannot pay for {p.label}: no effect")
        if p.ability.cost:
            pay = ch.take != "no" if ch is not None and ch.take in ("yes", "no") else None
            if pay is None:
                if self.strict:
                    raise SimulationError("R501", f"unscripted decision at '{node.id}': does {self.who(pid)} pay the cost of "
                                          f"{p.label}?", node.loc, help=f"add take: yes or take: no to the choice at {node.id}")
                self.policy_decisions += 1
                pay = self.policy != "pass"
            if not pay:
                return m.Text(f"{self.names[pid]}は{p.label}のコストを払わない", f"{self.names[pid]} does not pay for {p.label}: no effect")
            paid = [getattr(self, f"eff_{cost.name}")(dict(cost.args), p.card, pid, None, None) for cost in p.ability.cost]
            done = "; ".join(paid + [self.resolve_effects(p.ability, p.card, p.controller, None, None)])
            return m.Text(f"{self.names[pid]}が{p.label}を解決: {done}", f"{self.names[pid]} resolves {p.label}: {done}")
        done = self.resolve_effects(p.ability, p.card, p.controller, None, None)
        return m.Text(f"{self.names[pid]}が{p.label}を解決: {done}", f"{self.names[pid]} resolves {p.label}: {done}")

    def can_pay(self, ability, card, pid) -> bool:
        for cost in ability.cost:
            a = dict(cost.args)
            if cost.name == "move" and a.get("which", "top") == "top":
                who = pid if a.get("who", "controller") == "controller" else self.other(pid)
                if len(self.zone(who, a["from"])) < self.const(a.get("count", 1)):
                    return False
        return True

    def act_resolve_triggered(self, node, a):
        self.fire(a["event"])
        done = []
        for pid in (self.turn_player, self.other(self.turn_player)):
            while self.pending[pid]:
                p = self.pending[pid].pop(0)
                done.append(f"{p.label}: {self.resolve_effects(p.ability, p.card, p.controller, None, None)}")
        return m.Text(f"即時解決: {'; '.join(done) or 'なし'}", f"resolved at once: {'; '.join(done) or 'nothing'}")

    def act_draw(self, node, a):
        pid = self.player_of(a["player"])
        return self.draw(pid, self.const(a["count"]))

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

    def act_draw_per_card(self, node, a):
        pid = self.player_of(a["player"])
        zones = [a["zone"]] if a.get("zone") else list(self.game.zones)
        n = sum(1 for z in zones for c in self.zone(pid, z) if a["keyword"] in c.spec.traits)
        return self.draw(pid, n)

    def act_draw_modified(self, node, a):
        pid = self.player_of(a["player"])
        n = self.const(a["base"])
        skill = a["skill"]
        for z in ("control_area", "stage"):
            for c in self.zones[pid].get(z, []):
                for t in c.spec.traits:
                    if t.startswith(skill + "+") and t[len(skill) + 1:].isdigit():
                        n += int(t[len(skill) + 1:])
                    elif t.startswith(skill + "-") and t[len(skill) + 1:].isdigit():
                        n -= int(t[len(skill) + 1:])
        n = max(n, self.const(a.get("min", 0)))
        if n > len(self.zone(pid, "deck")):
            if pid not in self.losers:
                self.losers.append(pid)  # the rule file's own end_game node ends the game (it reads 'lost')
            return m.Text(f"{self.names[pid]}は山札から引けない: 敗北", f"{self.names[pid]} cannot draw from an empty deck: loses")
        return self.draw(pid, n)

    def act_set_state(self, node, a):
        pid = self.player_of(a["player"])
        z = a.get("zone", "stage")
        cards = self.pick_cards(node, pid, z, 99, a.get("which", "all")) if a.get("which") != "chosen" else self.chosen_from(node, self.zone(pid, z), 1)
        for c in cards:
            c.state = a["to"]
            if a["to"] == "reverse":
                self.fire("reversed", subject=c)
        return m.Text(f"{self.names_of(cards)} → {self.STATE_JA.get(a['to'], a['to'])}", f"{self.names_of(cards)} → {a['to']}")

    def act_move(self, node, a):
        pid = self.player_of(a["player"])
        count = self.const(a["count"]) if a.get("count") is not None else (None if a.get("which") in ("chosen", "reversed") else 99)
        cards = self.pick_cards(node, pid, a["from"], count, a.get("which", "top"))
        for c in cards:
            self.move_card(c, a["to"])
        if a.get("which") == "revealed":
            self.revealed = [c for c in self.revealed if c not in cards]
        if not cards:
            return m.Text(f"{self.zja(a['from'])}に動かすカードなし", f"nothing to move from {a['from']}")
        return m.Text(f"{self.names_of(cards)}: {self.zja(a['from'])} → {self.zja(a['to'])}",
                      f"{self.names_of(cards)}: {a['from']} → {a['to']}")

    def act_reveal(self, node, a):
        pid = self.player_of(a["player"])
        out = []
        for _ in range(self.const(a["count"])):
            deck = self.zone(pid, "deck")
            if not deck:
                self.interrupts()
                if not self.zone(pid, "deck"):
                    self.damage_left = 0  # nothing left to reveal: the damage being dealt ends here
                    break
            card = self.zone(pid, "deck")[0]
            self.move_card(card, a["to"])
            self.revealed.append(card)
            out.append(card)
            if self.damage_left > 0:
                self.damage_left -= 1
            self.fire("revealed", subject=card)
        return m.Text(f"公開: {self.names_of(out)}", f"revealed: {self.names_of(out)} ({', '.join(c.spec.type for c in out)})")

    def act_discard_to_limit(self, node, a):
        pid = self.player_of(a["player"])
        limit = self.const(a["limit"])
        hand = self.zone(pid, "hand")
        excess = max(0, len(hand) - limit)
        if not excess:
            return m.Text(f"手札{len(hand)}枚: 上限以内", f"hand of {len(hand)}: within the limit of {limit}")
        ch = self.choice_at(node)
        wanted = list(ch.cards) if ch is not None and ch.cards else ([ch.card] if ch is not None and ch.card else [])
        if ch is None:
            if self.strict:
                raise SimulationError("R501", f"unscripted discard at '{node.id}'", node.loc,
                                      help=f"add a choice: {{at: {node.id}, cards: [...]}}")
            self.policy_decisions += 1
        cards = [c for c in hand if c.id in wanted][:excess]
        cards += [c for c in reversed(hand) if c not in cards][: excess - len(cards)]
        for c in cards:
            self.move_card(c, a["to"])
        return m.Text(f"{excess}枚捨てる: {self.names_of(cards)}", f"discards {excess}: {self.names_of(cards)}")

    def act_place(self, node, a):
        pid = self.player_of(a["player"])
        src = self.zone(pid, a["from"])
        cards = self.chosen_from(node, src, 1)
        if not cards:
            return m.Text("置けるカードなし", "no card to place")
        card = cards[0]
        self.move_card(card, a["to"])
        if a.get("state"):
            card.state = a["state"]
        elif card.state is None:
            card.state = "stand"
        self.fire("placed", subject=card)
        return m.Text(f"{card.name} [{card.id}] を{self.zja(a['to'])}に置く", f"{card.name} [{card.id}] placed: {a['from']} → {a['to']}")

    def act_play(self, node, a):
        pid = self.player_of(a["player"])
        ch = self.choice_at(node)
        card = self.card_for(ch)
        if card is None:
            return m.Text("プレイしない", "plays nothing")
        ability = self.ability_of(card, a["kind"], ch.ability if ch else None)
        if ability is None:
            raise SimulationError("R503", f"{card.name} [{card.id}] has no '{a['kind']}' ability to play", (ch.loc if ch else node.loc))
        target = self.cards.get(ch.target) if ch is not None and ch.target else None
        done = self.resolve_effects(ability, card, pid, None, target)
        return m.Text(f"{card.name}をプレイ: {done}", f"plays {card.name}: {done}")

    def ability_of(self, card, kind, ability_id):
        for ab in card.spec.abilities:
            if ab.kind == "activated" and (ability_id is None or ab.id == ability_id) and (kind is None or ab.play == kind):
                return ab
        return None

    def act_resolve(self, node, a):
        if not self.stack and self.chosen is not None:
            ab = next((x for x in self.chosen.spec.abilities if x.kind == "activated"), None)
            if ab is not None:
                done = self.resolve_effects(ab, self.chosen, self.chosen.owner, None, None)
                return m.Text(f"{self.chosen.name}を解決: {done}", f"{self.chosen.name} resolves: {done}")
            return m.Text("解決するものなし", "nothing to resolve")
        return self.resolve_stack()

    def act_declare_attack(self, node, a):
        pid = self.player_of(a["player"])
        scripted = self.choice_at(node)
        ch = self.cards.get(scripted.card) if scripted is not None and scripted.card else self.chosen
        candidates = [c for c in self.attackers(pid) if c.state in ("stand", "active")]
        card = ch if ch is not None and ch in candidates else None
        if ch is not None and card is None:
            raise SimulationError("R503", f"{ch.name} [{ch.id}] cannot attack now (it must be a standing character on the stage)", node.loc)
        if card is None:
            if self.strict:
                raise SimulationError("R501", f"unscripted attacker at '{node.id}'", node.loc, help=f"add card: <id> to the choice at {node.id}")
            card = candidates[0] if candidates else None
        if card is None:
            return m.Text("アタックできるキャラがいない", "no character can attack")
        opp = self.other(pid)
        defender = None
        if "stage" in self.game.zones:
            defender = next((c for c in self.zone(opp, "stage") if c.slot == card.slot and c.spec.type == "character"), None)
        self.attack = Attack(card, defender, pid)
        self.attacks_this_turn += 1
        self.fire("attack_declared", subject=card)
        vs = f" → {defender.name} [{defender.id}]" if defender else (" (no character in front)" if "stage" in self.game.zones else "")
        return m.Text(f"{card.name}でアタック{vs}", f"attacks with {card.name} [{card.id}]{vs}")

    def act_forced_attack(self, node, a):
        party = self.vars.get(a.get("party"), a.get("party"))
        card = self.active(self.turn_player, party)
        if card is None:
            return m.Text("アクティブキャラがいない", "no active character")
        self.attack = Attack(card, None, self.turn_player)
        self.fire("attack_declared", subject=card)
        return m.Text(f"{card.name}がアタック（コストなし）", f"{card.name} [{card.id}] attacks (no attack cost)")

    def act_declare_block(self, node, a):
        pid = self.player_of(a["player"])
        ch = self.choice_at(node)
        card = self.card_for(ch)
        if self.attack is None:
            return m.Text("アタックがない", "no attack to block")
        if card is None:
            return m.Text("防御しない", "does not defend")
        if card.owner != pid:
            raise SimulationError("R503", f"{card.name} [{card.id}] does not belong to {self.who(pid)}", node.loc)
        if card not in self.attackers(pid) or card.state not in (None, "stand", "active"):
            raise SimulationError("R503", f"{card.name} [{card.id}] cannot block or guard: it must be a standing/active "
                                  f"character in play (it is in {card.zone}, {card.state or 'no state'})", node.loc)
        self.attack.defender = card
        return m.Text(f"{card.name}で防御（ブロック・ガード）", f"defends with {card.name} [{card.id}]")

    def act_modify(self, node, a):
        if self.attack is None:
            return m.Text("対象なし", "no attack: nothing to modify")
        card = self.attack.attacker if a["target"] == "attacker" else self.attack.defender
        if card is None:
            return m.Text("対象なし", "no such character")
        if a.get("by_level_of"):
            other = self.attack.attacker if a["by_level_of"] == "attacker" else self.attack.defender
            by = other.stat("level") if other else 0
        else:
            by = self.const(a.get("by", 0))
        if a.get("negate"):
            by = -by
        card.mods.append((a["stat"], by))
        return m.Text(f"{card.name}の{a['stat']}{by:+d}", f"{card.name}: {a['stat']} {by:+d} (now {card.stat(a['stat'])})")

    def act_trigger_check(self, node, a):
        pid = self.player_of(a["player"])
        deck = self.zone(pid, "deck")
        if not deck:
            return m.Text("山札なし", "no card to reveal")
        card = deck[0]
        self.move_card(card, "resolution" if "resolution" in self.game.zones else "hand")
        self.revealed.append(card)
        if "soul" in card.spec.triggers and self.attack:
            self.attack.attacker.mods.append(("soul", 1))
        return m.Text(f"トリガー: {card.name}", f"trigger check: {card.name} [{card.id}] {card.spec.triggers or '(no icon)'}")

    def act_deal_damage(self, node, a):
        pid = self.player_of(a["player"])
        if self.attack is None:
            return m.Text("ダメージなし", "no damage")
        amount = max(0, self.attack.attacker.stat(a["amount"]))
        zone = next((z for z in ("clock", "damage", "damage_zone") if z in self.game.zones), None)
        if zone is None:
            self.damage_left = amount
            return m.Text(f"{amount}ダメージ", f"{amount} damage to {self.names[pid]}")
        for _ in range(amount):
            if self.zone(pid, "deck"):
                self.move_card(self.zone(pid, "deck")[0], zone)
        return m.Text(f"{self.names[pid]}に{amount}ダメージ", f"{amount} damage to {self.names[pid]}")

    def act_damage_judgment(self, node, a):
        pid = self.player_of(a["player"])
        if self.attack is None:
            return m.Text("アタックがない", "no attack")
        amount = max(0, self.attack.attacker.stat(a["amount"]))
        flipped = []
        for _ in range(amount):
            deck = self.zone(pid, "deck")
            if not deck:
                break
            card = deck[0]
            if card.spec.type == "character" and "faction_area" in self.game.zones:
                self.move_card(card, "faction_area", top=True)
            else:
                self.move_card(card, "damage" if "damage" in self.game.zones else "discard")
            flipped.append(card)
            limit = self.game.constants.get("damage_limit")
            if isinstance(limit, int) and "damage" in self.game.zones and len(self.zone(pid, "damage")) >= limit:
                break
        return m.Text(f"ダメージ判定{amount}: {self.names_of(flipped)}",
                      f"damage judgment of {amount}: {self.names_of(flipped)} (damage zone: {len(self.zones[pid].get('damage', []))})")

    def act_battle(self, node, a):
        if self.attack is None or self.attack.defender is None:
            return m.Text("バトルなし", "no battle")
        att, dfn = self.attack.attacker, self.attack.defender
        if a["compare"] == "power":
            pa, pd = att.stat("power"), dfn.stat("power")
            losers = [c for c, lose in ((att, pa <= pd), (dfn, pd <= pa)) if lose]
            for c in losers:
                c.state = "reverse"
                self.fire("reversed", subject=c)
            return m.Text(f"パワー{pa}対{pd}: {self.names_of(losers)}がリバース",
                          f"power {pa} vs {pd}: {self.names_of(losers) if losers else 'nobody'} reversed")
        hit, hp = ("ap", "dp") if a["compare"] == "ap_dp" else ("attack", "defense")
        # both deal their damage at once; it stays on the card until a damage reset
        dealt = [(c, other.stat(hit)) for c, other in ((dfn, att), (att, dfn))]
        for c, amount in dealt:
            c.damage += max(0, amount)
        gone = [c for c, _ in dealt if c.damage >= c.stat(hp)]
        marks = ", ".join(f"{c.name} {c.damage}/{c.stat(hp)}" for c, _ in dealt)
        to = a.get("to") or next((z for z in ("discard", "waiting_room", "junk_yard") if z in self.game.zones), None)
        if gone and to is None:
            return m.Text(f"バトル（{marks}）: {self.names_of(gone)}が破壊されるが、行き先の領域がルールにない",
                          f"battle ({marks}): {self.names_of(gone)} destroyed, but the rules name no zone for it: it stays")
        if a.get("destroy") == "by_abolish_effect":
            # the attacking player's units' effects first: they start as one cut, in that player's order
            for c in sorted(gone, key=lambda c: c.owner != self.turn_player):
                abolish = Ability(f"{c.id}.abolish", "abolish (to the " + to + ")", "auto", None, "self", None, None,
                                  None, None, (), (m.Action("move", (("from", c.zone), ("to", to), ("which", "self"),
                                                                     ("who", "controller"))),))
                self.pending[c.owner].append(Pending(abolish, c, c.owner))
            return m.Text(f"バトル（{marks}）: {self.names_of(gone) or 'なし'}が破壊（廃棄の効果が待機）",
                          f"battle ({marks}): {self.names_of(gone) if gone else 'nobody'} destroyed"
                          + (" - abolish effects wait" if gone else ""))
        for c in gone:
            self.move_card(c, to)
        return m.Text(f"バトル（{marks}）: {self.names_of(gone) or 'なし'}が破壊", 
                      f"battle ({marks}): {self.names_of(gone) if gone else 'nobody'} destroyed")

    def act_encore(self, node, a):
        return m.Text("アンコール", "encore")

    def act_reset_damage(self, node, a):
        had = [c for pid in self.players for z in self.zones[pid].values() for c in z if c.damage]
        for c in had:
            c.damage = 0
        return m.Text(f"ダメージリセット: {self.names_of(had) if had else 'ダメージなし'}",
                      f"damage reset: {', '.join(c.name + ' [' + c.id + ']' for c in had) if had else 'no damage on any unit'}")

    def act_end_effects(self, node, a):
        for pid in self.players:
            for z in self.zones[pid].values():
                for c in z:
                    c.mods = []
        return m.Text("「ターン終了時まで」の効果が終わる", "'until end of turn' effects end")

    def act_pay_cost(self, node, a):
        pid = self.player_of(a["player"])
        if self.chosen is None:
            return m.Text("支払うものなし", "no card chosen: nothing to pay")
        n = max(0, self.chosen.stat(a["stat"]))
        frm = a.get("from")
        usable = [c for c in self.zone(pid, a["zone"]) if c.state == frm or (frm is None and c.state in (None, "face_up"))]
        ch = self.choice_at(node)
        wanted = list(ch.cards) or ([ch.card] if ch.card else []) if ch is not None else []
        if wanted:
            picked = [c for c in usable if c.id in wanted]
            if len(picked) != len(wanted):
                raise SimulationError("R503", f"{', '.join(wanted)}: not all usable in {a['zone']} "
                                      f"(usable: {', '.join(c.id for c in usable) or 'none'})", ch.loc)
        else:
            picked = usable[:n]
        if len(picked) != n:
            where = ch.loc if ch is not None and wanted else node.loc
            raise SimulationError("R503", f"{self.chosen.name} [{self.chosen.id}] costs {n} ({a['stat']}); "
                                  f"{len(picked)} chosen/usable in {a['zone']}", where)
        for c in picked:
            c.state = a["to"]
        return m.Text(f"{self.chosen.name}のコスト{n}: {self.names_of(picked)}", 
                      f"pays {n} for {self.chosen.name}: {self.names_of(picked) or 'nothing'} → {a['to']}")

    def act_trigger_icon(self, node, a):
        card = self.revealed[-1] if self.revealed else None
        if card is None:
            return m.Text("公開したカードなし", "no revealed card")
        done = []
        for icon in card.spec.triggers:
            if icon == "soul" and self.attack is not None:
                self.attack.attacker.mods.append(("soul", 1))
                done.append("soul +1")
            elif icon == "draw":
                self.draw(self.player_of(a["player"]), 1)
                done.append("draw 1")
            else:
                done.append(f"{icon}: no built-in effect")
        what = ", ".join(done) or "no trigger icon"
        return m.Text(f"{card.name}のトリガー: {what}", f"{card.name} [{card.id}] trigger: {what}")

    def act_swap_slots(self, node, a):
        pid = self.player_of(a["player"])
        ch = self.choice_at(node)
        stage = self.zone(pid, "stage")
        if ch is None or len(ch.cards) != 2:
            return m.Text("入れ替えなし", "no swap")
        x, y = (next(c for c in stage if c.id == cid) for cid in ch.cards)
        x.slot, y.slot = y.slot, x.slot
        stage.sort(key=lambda c: c.slot)
        return m.Text("枠を入れ替える", f"swaps {x.name} and {y.name}")

    def act_pass(self, node, a):
        return node.label if node is not None else m.Text("", "")

    # --- events, abilities and the stack ------------------------------------------------------
    def fire(self, event: str, subject: RCard | None = None, quiet: bool = False) -> None:
        self.event_counts[event] += 1
        n = self.event_counts[event]
        for pid in (self.turn_player, self.other(self.turn_player)):
            for z, cards in self.zones[pid].items():
                if z == "deck":
                    continue
                for card in cards:
                    for ab in card.spec.abilities:
                        if ab.kind != "auto" or ab.event != event:
                            continue
                        if ab.zone is not None and card.zone != ab.zone:
                            continue
                        if event in CARD_EVENTS and ab.subject == "self" and subject is not card:
                            continue
                        if ab.every and n % ab.every:
                            continue
                        if ab.condition is not None and not self.holds_for(ab.condition, card):
                            continue
                        self.pending[card.owner].append(Pending(ab, card, card.owner))

    def holds_for(self, cond, card) -> bool:
        saved = self.self_player
        self.self_player = card.owner
        try:
            return self.holds(cond)
        finally:
            self.self_player = saved

    def resolve_effects(self, ability: Ability, card: RCard, controller: str, item: StackItem | None,
                        target: RCard | None) -> str:
        out = []
        for eff in ability.effect:
            out.append(getattr(self, f"eff_{eff.name}")(dict(eff.args), card, controller, item, target))
        return "; ".join(x for x in out if x) or "no effect"

    def eff_draw(self, a, card, controller, item, target):
        pid = controller if a["who"] == "controller" else self.other(controller)
        return self.draw(pid, self.const(a["count"])).en

    def eff_move(self, a, card, controller, item, target):
        pid = controller if a["who"] == "controller" else self.other(controller)
        which = a.get("which", "top")
        cards = [card] if which == "self" else [target] if which == "target" and target else self.zone(pid, a["from"])[: self.const(a.get("count", 1))]
        for c in cards:
            self.move_card(c, a["to"])
        return f"{self.names_of(cards)}: {a['from']} → {a['to']}"

    def _target(self, which, card, target):
        if which == "self":
            return card
        if which == "target":
            return target
        if self.attack is None:
            return None
        return self.attack.attacker if which == "attacker" else self.attack.defender

    def eff_set_state(self, a, card, controller, item, target):
        c = self._target(a["target"], card, target)
        if c is None:
            return "no target"
        c.state = a["to"]
        if a["to"] == "reverse":
            self.fire("reversed", subject=c)
        return f"{c.name} → {a['to']}"

    def eff_modify(self, a, card, controller, item, target):
        c = self._target(a["target"], card, target)
        if c is None:
            return "no target"
        c.mods.append((a["stat"], self.const(a["by"])))
        return f"{c.name}: {a['stat']} {self.const(a['by']):+d} (now {c.stat(a['stat'])})"

    def eff_damage(self, a, card, controller, item, target):
        c = self._target(a["target"], card, target)
        if c is None or c.zone in (None, "deck"):
            return "no target"
        amount = self.const(a["amount"])
        limit = c.stat("dp") or c.stat("defense")
        c.damage += amount
        if c.damage >= limit:
            self.move_card(c, a["to"])
            return f"{amount} damage to {c.name}: destroyed ({a['to']})"
        return f"{amount} damage to {c.name}: survives"

    def eff_negate(self, a, card, controller, item, target):
        if item is None or item.answers is None:
            return "nothing to negate"
        item.answers.negated = True
        return f"negates {item.answers.card.name}: {item.answers.ability.label}"

    def eff_pending(self, a, card, controller, item, target):
        ab = Ability(f"{card.id}.extra", "extra pending ability", "auto", None, "any", None, None, None, None, (), ())
        self.pending[controller].append(Pending(ab, card, controller))
        return "one more pending ability"

    def resolve_stack(self) -> m.Text:
        done = []
        while self.stack:
            item = self.stack.pop()
            if item.negated:
                done.append(f"{item.card.name}: negated, no effect")
                continue
            done.append(f"{item.card.name}: {self.resolve_effects(item.ability, item.card, item.controller, item, item.target)}")
        return m.Text("新しい順に解決: " + " / ".join(done), "resolved newest first: " + " / ".join(done))

    # --- priority windows ---------------------------------------------------------------------
    def visit_window(self, node):
        w = node.window
        first = self.player_of(w.first)
        allowed = {self.player_of(r) for r in w.who}
        # abilities triggered just before a window go on the stack first (turn player's first)
        if w.resolve == "stack" and self.game.check_timing is None:
            for pid in (self.turn_player, self.other(self.turn_player)):
                while self.pending[pid]:
                    p = self.pending[pid].pop(0)
                    self.stack.append(StackItem(p.ability, p.card, p.controller, self.stack[-1] if self.stack else None))
        self.priority = first
        passes = 0
        need = w.passes if w.close == "consecutive_passes" else (len(allowed) if w.close == "all_pass" else 1)
        rounds = 0
        while True:
            rounds += 1
            if rounds > 200:
                raise SimulationError("R502", f"priority window '{node.id}' did not close after 200 decisions", node.loc)
            pid = self.priority
            play, by = self.window_decision(node, w, pid) if pid in allowed else (None, None)
            if play is None:  # a pass (a role that may not act here passes by itself)
                passes += 1
                if pid in allowed:
                    self.record(node, m.Text(f"パス（連続{passes}回）", f"passes ({passes} in a row)"), actor=pid, decided_by=by)
                self.priority = self.other(pid)
                if passes >= need:
                    if not self.close_window(node, w):
                        break
                    passes = 0
                    self.priority = first
                continue
            card, ab, target = play
            card.used = True
            item = StackItem(ab, card, pid, self.stack[-1] if self.stack else None, target)
            for cost in ab.cost:
                getattr(self, f"eff_{cost.name}")(dict(cost.args), card, pid, item, target)
            passes = 0
            self.fire("played", subject=card)
            if w.resolve == "stack":
                self.stack.append(item)
                self.record(node, m.Text(f"{card.name}をプレイ（スタックへ）", f"plays {card.name}: {ab.label} (onto the stack)"),
                            actor=pid, decided_by=by)
            else:
                done = self.resolve_effects(ab, card, pid, item, target)
                self.record(node, m.Text(f"{card.name}をプレイ: {done}", f"plays {card.name}: {ab.label}: {done}"),
                            actor=pid, decided_by=by)
            if w.after_play == "alternate":
                self.priority = self.other(pid)
        self.priority = None
        return self.edge(node)

    def window_decision(self, node, w, pid):
        """What the player holding priority does: (card, ability, target) to play, or None to pass."""
        ch = self.next_choice(node.id, decision=True)
        if ch is not None and ch.take != "pass" and ch.card:
            card = self.cards.get(ch.card)
            if card is None or card.owner != pid:
                raise SimulationError("R503", f"{ch.card} is not a card of {self.who(pid)}, who holds priority at '{node.id}'",
                                      ch.loc, help="choices at a window are taken in priority order")
            ab = next((x for x in card.spec.abilities if x.kind == "activated" and (ch.ability in (None, x.id))), None)
            if ab is None or ab.play not in w.plays:
                kinds = ", ".join(w.plays) or "none"
                raise SimulationError("R503", f"{card.name} [{card.id}] cannot be played at '{node.id}' "
                                      f"({node.label.en}): allowed here: {kinds}", ch.loc)
            return (card, ab, self.cards.get(ch.target) if ch.target else None), "scenario"
        if ch is not None:
            return None, "scenario"
        if self.strict:
            raise SimulationError("R501", f"unscripted priority decision at '{node.id}' for {self.who(pid)}", node.loc,
                                  help=f"add a choice: {{at: {node.id}, take: pass}}")
        self.policy_decisions += 1
        options = self.playable(pid, w) if self.policy in ("first", "random") else []
        if not options:
            return None, f"policy:{self.policy}"
        return (options[0] if self.policy == "first" else self.rng.choice(options)), f"policy:{self.policy}"

    def close_window(self, node, w) -> bool:
        """Both passed: resolve the stack (if any). True when the window reopens."""
        self.priority = None
        if not self.stack:
            self.record(node, m.Text("連続パスで終了", "closes: passes in a row"))
            return False
        what = self.resolve_stack()
        self.record(node, what)
        return w.after_resolve == "reopen"

    def playable(self, pid, w):
        out = []
        for z in ("hand", "stage", "control_area"):
            for card in self.zones[pid].get(z, []):
                if card.used:
                    continue
                for ab in card.spec.abilities:
                    if ab.kind == "activated" and ab.play in w.plays:
                        out.append((card, ab, None))
        return out


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


def simulate(game: m.Game, scenario: Scenario, *, strict: bool = False, policy: str | None = None) -> Run:
    return Interpreter(game, scenario, strict=strict, policy=policy).run()


__all__ = ["simulate", "verify", "Interpreter", "Run", "Entry", "SimulationError", "BUILTIN_EVENTS"]
