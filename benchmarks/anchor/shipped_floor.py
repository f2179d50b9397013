"""The semantic floor of shipped scenarios: the state every run of one starts from, and what the
turns written by hand for it share (``shipped_aquarian.py``, ``shipped_gundam.py``).

Like ``floor.py`` for the anchor turn, this imports nothing from tcgtiming. It keeps the state the
engine's ``Machine`` gets from its scenario's generated ``start`` (``template.py``), made anew for
every run:

- card objects (``Card``, the slots of the engine's ``RCard``) in per-player zone lists holding every
  zone of the game, and a dict of the cards by id;
- seats, turn order, the two pending queues (``Queue``, the engine's O(1)-snapshot layout), the stack
  and its snapshot (a cons list of refs), the losers, the decisions, the for-each positions and
  their variables, the players' values, the event counts, the revealed cards;
- the scenario's choices as deques by node, consumed as the engine consumes them: the next choice
  taken from the front, its id added to ``used_choices`` and a ``Taken`` record (the choice and the
  data the run read of it) appended to ``taken``;
- the step budget (``left``), counted as the engine counts it;
- the constants every run of the engine starts with (``Machine.START``), all of them.

What a scenario reads from its YAML (cards, zones, choices) is worked out once (``Plan``), as the
engine's ``Setup`` is. ``fingerprint`` is the engine's fingerprint layout. ``main`` (in
``shipped_bench.py``) times the floors against the engine and the interpreter before it.
"""
from __future__ import annotations

from collections import deque
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent.parent
MAX_STEPS = 20000


class OutOfSteps(Exception):
    """The step budget ran out."""


class GameOver(Exception):
    """An end_game node ended the game: unwinds the turn."""


class Spec:
    """A card of the scenario (shared by every run, never changed)."""
    __slots__ = ("id", "name", "type", "faction", "traits", "state", "abilities", "stats")

    def __init__(self, d):
        self.id, self.name, self.type = d["id"], d["name"], d.get("type")
        self.faction, self.traits, self.state = d.get("faction"), tuple(d.get("traits", ())), d.get("state")
        self.stats = dict(d.get("stats", {}))
        self.abilities = tuple(Ability(a) for a in d.get("abilities", ()))


class Ability:
    __slots__ = ("id", "kind", "play", "effect", "cost")

    def __init__(self, d):
        self.id, self.kind, self.play = d["id"], d["kind"], d.get("play")
        self.effect = tuple(e if isinstance(e, str) else next(iter(e.items())) for e in d.get("effect", ()))
        self.cost = tuple(d.get("cost", ()))


class Choice:
    """A scripted choice (shared by every run)."""
    __slots__ = ("at", "take", "card", "cards", "ability", "target")

    def __init__(self, d):
        self.at, self.take, self.card = d["at"], d.get("take"), d.get("card")
        self.cards, self.ability, self.target = tuple(d.get("cards", ())), d.get("ability"), d.get("target")


class Card:
    """A card in a run: the slots of the engine's ``RCard``."""
    __slots__ = ("id", "spec", "owner", "state", "mods", "zone", "used", "slot", "damage", "base", "name")

    def stat(self, name):
        v = self.base.get(name, 0)
        for k, x in self.mods:
            if k == name:
                v += x
        return v


class Queue:
    """Pending abilities, oldest first: an append-only log and the index of the oldest."""
    __slots__ = ("log", "head", "n")


class Taken:
    """A scripted choice as the run took it, with the data of it the run read."""
    __slots__ = ("choice", "read")


class Attack:
    __slots__ = ("attacker", "defender", "side")

    def __init__(self, attacker, defender, side):
        self.attacker, self.defender, self.side = attacker, defender, side


class StackItem:
    __slots__ = ("ability", "card", "controller", "answers", "target", "negated")

    def __init__(self, ability, card, controller, answers=None, target=None):
        self.ability, self.card, self.controller = ability, card, controller
        self.answers, self.target, self.negated = answers, target, False

    @property
    def ref(self):
        return (self.card.id, self.ability.id, self.negated)


class Run:
    """A run's state: the fields of the engine's ``Machine`` (the ones it sets at its start)."""
    __slots__ = ("left", "out", "players", "names", "zone_order", "stateful", "first_turn", "deck", "stage", "rng",
                 "turn_index", "ssnap", "attack", "combat", "attacks_this_turn", "damage_left", "chosen", "chosen_by",
                 "result", "priority", "window_state", "in_interrupt", "rule_key", "policy_decisions",
                 "player_choice_node", "player_choice", "at", "node", "play_turn", "play_counts", "pay_with", "zones",
                 "cards", "listen", "seat", "order", "pending", "queues", "stack", "revealed", "decisions",
                 "event_counts", "losers", "frames", "loops", "vars", "values", "choices", "by_timing", "used_choices",
                 "all_choices", "taken")


class Plan:
    """What every run of a shipped scenario starts from, read once from its YAML: the cards with their
    zones, the players, the choices by node, the budget."""

    def __init__(self, game, scenario, zones, stateful=(), max_steps=None):
        doc = yaml.load((ROOT / "rules" / game / "scenarios" / f"{scenario}.yaml").read_text(encoding="utf-8"),
                        Loader=yaml.CSafeLoader)
        specs = {d["id"]: Spec(d) for d in doc["cards"]}
        self.players = tuple(p["id"] for p in doc["players"])
        self.names = {p["id"]: p["name"] for p in doc["players"]}
        self.zone_order = {z: i for i, z in enumerate(zones)}
        self.stateful = frozenset(stateful)  # the zones a card has a state in (it loses it when it leaves)
        self.seed = doc["scenario"].get("seed")
        self.turns = doc["scenario"].get("turns", 1)
        # per player, each zone of the game with its cards: (spec, its values (shared), slot)
        self.layout = tuple((p["id"], tuple((z, tuple((specs[cid], specs[cid].stats, None)
                                                      for cid in (p.get("zones") or {}).get(z, ()) if cid is not None))
                                            for z in zones)) for p in doc["players"])
        self.all_choices = tuple(Choice(d) for d in doc.get("choices", ()))
        grouped = {}
        for ch in self.all_choices:
            grouped.setdefault(ch.at, []).append(ch)
        self.choices = tuple((at, tuple(chs)) for at, chs in grouped.items())
        tp = doc["scenario"].get("turn_player", self.players[0])
        i = self.players.index(tp)
        self.order = self.players[i:] + self.players[:i]
        self.max_steps = max_steps if max_steps is not None else doc["scenario"].get("max_steps", MAX_STEPS)


def start(plan, out=None) -> Run:
    """A run's state as the engine's generated ``start`` makes it, with ``Machine.__init__``'s part."""
    return rest(head(plan, out), plan, *cards_of(plan))


def head(plan, out) -> Run:
    """The run state's constants: the budget, the record stream, what every run shares or starts with."""
    st = Run()
    st.left = plan.max_steps
    st.out = out
    st.players = plan.players
    st.names = plan.names
    st.zone_order = plan.zone_order
    st.stateful = plan.stateful
    st.first_turn, st.deck, st.stage = False, "deck", None
    st.rng = None
    st.turn_index = 0
    st.ssnap = st.attack = st.combat = None
    st.attacks_this_turn = st.damage_left = 0
    st.chosen = st.chosen_by = None
    st.result = "ongoing"
    st.priority = st.window_state = st.rule_key = st.player_choice_node = st.player_choice = None
    st.in_interrupt = False
    st.policy_decisions = st.at = st.node = 0
    st.play_turn, st.play_counts, st.pay_with = -1, {}, ()
    return st


def cards_of(plan):
    """The run's card objects in their zones (player -> zone -> cards), and the cards by id."""
    zones, cards = {}, {}
    for pid, layout in plan.layout:
        pz = zones[pid] = {}
        for z, row in layout:
            here = pz[z] = []
            for spec, base, slot in row:
                c = Card()
                c.id = cid = spec.id
                c.spec = spec
                c.owner = pid
                c.state = spec.state
                c.mods = ()
                c.zone = z
                c.used = False
                c.slot = slot
                c.damage = 0
                c.base = base
                c.name = spec.name
                here.append(c)
                cards[cid] = c
    return zones, cards


def rest(st, plan, zones, cards) -> Run:
    """The run state besides the cards: seats, queues, the stack, decisions, choices, ..."""
    st.zones, st.cards = zones, cards
    st.listen = {}
    order = st.order = plan.order
    st.seat = [order[0], order[1], None, None]
    q0, q1 = Queue(), Queue()
    q0.log, q0.head, q0.n = [], 0, 0
    q1.log, q1.head, q1.n = [], 0, 0
    st.queues = [q0, q1]
    st.stack = []
    st.revealed = []
    st.decisions = {}
    st.event_counts = {}
    st.losers = []
    st.frames, st.loops, st.vars = [], {}, {}
    p1, p2 = plan.players
    st.values = {p1: {}, p2: {}}
    st.pending = {p1: q0, p2: q1}
    st.choices = choices = {}
    for at, chs in plan.choices:
        choices[at] = deque(chs)
    st.by_timing = False
    st.used_choices = set()
    st.all_choices = plan.all_choices
    st.taken = []
    return st


def out_of_steps(st):
    raise OutOfSteps(f"the step budget ran out at node {st.at}")


def take(st, lst, read):
    """The next choice of a node's deque, taken as the engine takes it (used, a Taken record)."""
    ch = lst.popleft()
    st.used_choices.add(id(ch))
    t = Taken()
    t.choice, t.read = ch, read
    st.taken.append(t)
    return ch, t


def queues(st):
    """Each player's pending queue as an O(1) snapshot."""
    a, b = st.queues
    return (a.log, a.head, len(a.log)), (b.log, b.head, len(b.log))


def context(st):
    """The context record: turn, turn player, the pending queues' snapshot, the stack's snapshot, priority."""
    st.out((None, (st.turn_index, st.seat[0], queues(st), st.ssnap, st.priority)))


def run_traced(plan, turn):
    """One run of ``turn(st)`` per turn with the engine's records: (state, records); the context
    recorded at each turn's start, as ``simulate`` does."""
    records = []
    st = start(plan, records.append)
    for t in range(plan.turns):
        st.turn_index = t
        context(st)
        try:
            turn(st)
        except GameOver:
            break
        end_of_turn(st)
    return st, records


def run_plain(plan, turn):
    """One run of ``turn(st)`` per turn without records: the state."""
    st = start(plan)
    for t in range(plan.turns):
        st.turn_index = t
        try:
            turn(st)
        except GameOver:
            break
        end_of_turn(st)
    return st


def end_of_turn(st):
    """The end of a turn: modifiers and used flags reset on every card, the seats passed on (the game
    swaps roles), the attack and the decisions of the turn forgotten."""
    for c in st.cards.values():
        if c.mods:
            c.mods = ()
        if c.used:
            c.used = False
    order = st.order = st.order[1:] + st.order[:1]
    st.seat[:] = [order[0], order[1], None, None]
    st.attacks_this_turn = 0
    st.attack = st.combat = None
    st.decisions.clear()


def fingerprint(st, plan, node_ids) -> tuple:
    """The run's state in the engine's fingerprint layout (``Machine.fingerprint``); ``node_ids``: the
    program's node ids by index."""
    at = st.attack
    return (
        st.turn_index, tuple(st.seat[:2]), st.result, tuple(st.losers),
        tuple((pid, tuple((z, tuple((c.id, c.state, c.slot, c.damage, tuple(c.mods), c.used) for c in cards))
                          for z, cards in st.zones[pid].items())) for pid in st.players),
        tuple((pid, tuple((p.card.id, p.ability.id) for p in st.pending[pid].log[st.pending[pid].head:]))
              for pid in st.players),
        tuple(x.ref for x in st.stack), st.priority, st.window_state, tuple(node_ids[f] for f in st.frames),
        node_ids[st.node], (at.attacker.id, at.defender.id if at.defender else None, at.side) if at else None,
        None, tuple((p, tuple(sorted(v.items()))) for p, v in st.values.items()), st.attacks_this_turn,
        tuple(c.id for c in st.revealed), st.damage_left, tuple(sorted(st.decisions.items())),
        st.chosen.id if st.chosen else None, tuple(sorted(st.event_counts.items())), tuple(sorted(st.loops.items())),
        tuple(sorted(st.vars.items())), len(st.used_choices), plan.seed,
    )


def plain(rec):
    """A context record with its snapshots made plain (refs), so that the records of two runs compare."""
    if rec[0] is not None or rec[1] is None:
        return rec
    turn, tp, queues, ssnap, prio = rec[1]
    stack = []
    while ssnap is not None:
        stack.append(ssnap[0])
        ssnap = ssnap[1]
    return None, (turn, tp, tuple(tuple((p.card.id, p.ability.id) for p in log[h:e]) for log, h, e in queues),
                  tuple(reversed(stack)), prio)
