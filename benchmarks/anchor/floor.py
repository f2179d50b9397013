"""The semantic floor: the anchor turn (game.yaml) written by hand, keeping tcgtiming's state model.

The hand-written anchor (c) keeps counters only. tcgtiming's engine keeps a state a judge can
fingerprint, and this module does the same work by hand, as plain functions in the style of (c),
with no interpretation, no generated code and nothing imported from tcgtiming:

- card objects (``Card``) in per-player zone lists, made anew for every run; a card knows its zone,
  state, stage slot, modifiers, damage and used flag; a move updates them as the engine's
  ``move_card`` does (stage slots, modifiers and damage dropped off the stage);
- pending abilities as objects (card, ability, controller) in per-player queues kept as the engine's
  ``Queue`` (an append-only log and a head, so that a snapshot is O(1)); resolved oldest first;
- the count of each event (the tickers fire at every n-th check timing);
- the step budget (``max_steps``), one step per node visited, as the engine counts it: the same
  number is left at the end of a run;
- decisions read from the scenario's script, node by node (the 'pass' policy takes the last option
  when the script has none; the discard, never scripted, counts as a policy decision);
- the end of the turn: modifiers and used flags reset on every card, the seats swap, the decisions
  of the turn forgotten.

``run`` is (f), without a trace; ``floor_trace.run_traced`` is (f'): it also records the engine's record
stream, record for record (the entries' facts, the moves as changes, the context with the pending
queues' O(1) snapshots whenever they change). ``fingerprint`` is the engine's fingerprint layout;
the parts of the state this game never touches (stack, windows, attack, player values, ...) are
the constants a run of the engine leaves in them. benchmarks/anchor_turn.py checks, for every
anchor scenario, that (f') makes the engine's records and (f) ends in the engine's state.

``Plan`` turns an anchor Scenario into what every run of it starts from (made once, like the
engine's compiled scenario). floor_variants.py times the floor without one obligation at a time (the
table in README.md); tests/test_floor.py checks the floor against the engine.
"""
from __future__ import annotations

HAND_LIMIT = 7
ZONES = ("deck", "hand", "stage", "clock", "climax", "waiting_room", "reversed", "returning", "abilities")
PLAYERS = ("p1", "p2")
MAX_STEPS = 20000
# the program's nodes, in its order (the records name a node by its index; anchor_turn checks the order)
NODES = (
    "turn.begin", "turn.end", "ct.begin", "ct.end", "ct.rule_processing", "ct.2", "ct.2.tp.resolve_tp", "ct.2.tp.2",
    "ct.2.ntp.resolve_ntp", "ct.2.ntp.2",
    "stand.begin", "stand.end", "stand.start", "stand.2", "stand.action", "stand.4",
    "draw.begin", "draw.end", "draw.start", "draw.2", "draw.action", "draw.4",
    "clock.begin", "clock.end", "clock.start", "clock.2", "clock.action", "clock.draw2", "clock.5",
    "main.begin", "main.end", "main.start", "main.2", "main.choose", "main.choose.play.play", "main.choose.play.2",
    "main.choose.play.3",
    "climax.begin", "climax.end", "climax.start", "climax.2", "climax.action", "climax.4",
    "attack.begin", "attack.end", "attack.start", "attack.2", "attack.choose",
    "attack.choose.front.declare", "attack.choose.front.2", "attack.choose.front.trigger", "attack.choose.front.4",
    "attack.choose.front.counter", "attack.choose.front.6", "attack.choose.front.damage", "attack.choose.front.8",
    "attack.choose.front.battle", "attack.choose.front.10", "attack.choose.front.11",
    "attack.choose.side.declare", "attack.choose.side.2", "attack.choose.side.trigger", "attack.choose.side.4",
    "attack.choose.side.damage", "attack.choose.side.6", "attack.choose.side.7",
    "attack.choose.stop.encore", "attack.choose.stop.2", "attack.choose.stop.3", "attack.choose.stop.3.encore_remove",
    "attack.choose.stop.3.2",
    "end.begin", "end.end", "end.start", "end.2", "end.discard", "end.cleanup", "end.5", "end.6", "end.6.1.1",
)
N = {nid: i for i, nid in enumerate(NODES)}
MAIN_CHOOSE, ATTACK_CHOOSE = N["main.choose"], N["attack.choose"]


class OutOfSteps(Exception):
    """The step budget ran out."""


class Card:
    __slots__ = ("id", "owner", "zone", "state", "slot", "mods", "damage", "used")

    def __init__(self, cid, owner, zone, slot):
        self.id = cid
        self.owner = owner
        self.zone = zone
        self.slot = slot
        self.state = None
        self.mods = ()
        self.damage = 0
        self.used = False


class Ability:
    """An auto ability of a scenario card (shared by every run, never changed)."""
    __slots__ = ("id", "event", "every")

    def __init__(self, aid, event, every):
        self.id, self.event, self.every = aid, event, every


class Pending:
    __slots__ = ("ability", "card", "controller")

    def __init__(self, ability, card, controller):
        self.ability = ability
        self.card = card
        self.controller = controller


class Queue:
    """Pending abilities, oldest first: an append-only log and the index of the oldest."""
    __slots__ = ("log", "head", "n")

    def __init__(self):
        self.log = []
        self.head = 0
        self.n = 0


class Plan:
    """What every run of an anchor Scenario starts from: the cards in their zones, the tickers, the
    script of decisions, the budget."""

    def __init__(self, sc, max_steps=MAX_STEPS):
        def ids(prefix, n):
            return tuple((f"{prefix}{i}", None) for i in range(n))

        p1 = {"deck": ids("d", 12), "hand": ids("h", sc.hand), "returning": ids("r", sc.end_repeats)}
        p2 = {"stage": tuple((f"o{i}", i) for i in range(len(sc.attacks)))}  # stage cards keep their slot
        self.listen = []  # (player, zone, index, ability): the scenario's check-timing abilities, in card order
        if sc.tp_every:
            p1["abilities"] = (("tick1", None),)
            self.listen.append(("p1", "abilities", 0, Ability("tp", "check_timing", sc.tp_every)))
        if sc.ntp_every:
            p2["abilities"] = (("tick2", None),)
            self.listen.append(("p2", "abilities", 0, Ability("ntp", "check_timing", sc.ntp_every)))
        # per player, each zone of the game with the arguments of its cards' ``Card`` calls
        self.layout = tuple((pid, tuple((z, tuple((cid, pid, z, slot) for cid, slot in layout.get(z, ()))) for z in ZONES))
                            for pid, layout in zip(PLAYERS, (p1, p2)))
        self.main = ("play",) * sc.plays + ("stop",)
        self.attack = tuple("front" if front else "side" for front in sc.attacks) + ("stop",)
        self.max_steps = max_steps
        self.seat = PLAYERS  # the turn player, the other


class Turn:
    """A run's state."""
    __slots__ = ("zones", "seat", "queues", "order", "tq", "nq", "z1", "z2", "listeners", "count", "left", "node",
                 "decisions", "used", "policy", "main", "attack", "out", "ext", "records")


def start(plan, out=None) -> Turn:
    s = Turn()
    zones = s.zones = {}
    for pid, layout in plan.layout:
        pz = zones[pid] = {}
        for z, cards in layout:
            if cards:
                pz[z] = here = []
                for args in cards:
                    here.append(Card(*args))
            else:
                pz[z] = []
    return rest(s, plan, zones, out)


def rest(s, plan, zones, out) -> Turn:
    """The run state besides the zones: seats, queues, listeners, budget, decisions, record stream."""
    tp, ntp = s.seat = plan.seat
    qa, qb = s.order = Queue(), Queue()  # the queues in the players' order (the context's pending)
    s.queues = queues = {PLAYERS[0]: qa, PLAYERS[1]: qb}
    s.tq, s.nq = queues[tp], queues[ntp]
    s.z1, s.z2 = zones[tp], zones[ntp]
    s.listeners = listeners = []
    for pid, z, i, ab in plan.listen:
        card = zones[pid][z][i]
        listeners.append((card, ab, ab.every, queues[pid]))
    s.count = s.used = s.policy = 0
    s.left = plan.max_steps
    s.node = None
    s.decisions = {}
    s.main, s.attack = iter(plan.main), iter(plan.attack)
    s.records = out
    s.out, s.ext = (None, None) if out is None else (out.append, out.extend)
    return s


def out_of_steps(s):
    raise OutOfSteps(f"the step budget ran out ({s.count} check timings into the turn)")


def decide(s, script, ni, last):
    """The next scripted option for player node ``ni``; without one, the 'pass' policy's (the last)."""
    take = next(script, None)
    if take is None:
        take, s.policy = last, s.policy + 1
    else:
        s.used += 1
    s.node = ni
    s.decisions[NODES[ni]] = take
    return take


def move(card, dest, to):
    """A card to the end of a zone other than the stage (it keeps no modifiers or damage there)."""
    dest.append(card)
    card.zone = to
    if card.mods:
        card.mods = ()
    if card.damage:
        card.damage = 0


def to_stage(src, stage):
    """The top card of ``src`` onto the stage: its slot (the old one if free, else the first free),
    kept in slot order; the card, or None."""
    if not src:
        return None
    card = src[0]
    del src[0]
    slot = card.slot
    taken = [c.slot for c in stage]
    if slot is None or slot in taken:
        slot = 0
        while slot in taken:
            slot += 1
        card.slot = slot
    stage.append(card)
    if len(stage) > 1 and stage[-2].slot > slot:
        stage.sort(key=_slot)
    card.zone = "stage"
    return card


def _slot(c):
    return c.slot


def end_of_turn(s):
    for pid in PLAYERS:
        for cards in s.zones[pid].values():
            for c in cards:
                if c.mods:
                    c.mods = ()
                c.used = False
    s.seat = (s.seat[1], s.seat[0])
    s.decisions.clear()


# --- (f): no trace ---------------------------------------------------------------------------------
def check(s, k):
    """A check node's work: the check_timing event (the tickers), then the check timing procedure:
    rule processing (the game has none), then one pending ability resolved (the turn player's
    first), until none is left. ``k``: the steps of the nodes visited since the last budget update,
    which this one makes (with the procedure's steps)."""
    n = s.count = s.count + 1
    for card, ability, every, queue in s.listeners:
        if not n % every:
            trigger(card, ability, queue)
    tq, nq = s.tq, s.nq
    if tq.n or nq.n:
        left = s.left - k - 1  # ct.begin
        while True:
            left -= 2  # rule processing, the branch
            if tq.n:
                q = tq
            elif nq.n:
                q = nq
            else:
                break
            left -= 2  # the resolution (the abilities have no effect), the goto
            h = q.head + 1
            q.head, q.n = h, q.n - 1
            if h > 64 and h * 2 > len(q.log):
                q.log, q.head = q.log[h:], 0
            if left < 0:
                out_of_steps(s)
        left = s.left = left - 1  # ct.end
    else:
        left = s.left = s.left - k - 4  # ct.begin, rule processing, the branch, ct.end
    if left < 0:
        out_of_steps(s)


def trigger(card, ability, queue):
    """An auto ability's event happened: it is pending unless its card is in the deck (or nowhere)."""
    z = card.zone
    if z is not None and z != "deck":
        queue.log.append(Pending(ability, card, card.owner))
        queue.n += 1
        return True
    return False


def steps(s, n):
    s.left -= n
    if s.left < 0:
        out_of_steps(s)


def stand(s):
    check(s, 3)  # the phase's begin and start, the check node
    for c in s.z1["stage"]:
        c.state = "stand"
    check(s, 3)  # the action, the check node, the phase's end


def top(src, dest, to):
    """The top card of ``src`` to the end of ``dest`` (a zone other than the stage, where it keeps no
    modifiers or damage): the card, or None."""
    if src:
        c = src[0]
        del src[0]
        move(c, dest, to)
        return c
    return None


def action_phase(s, frm, to):
    """A phase whose action puts the top card of the turn player's ``frm`` into ``to`` (draw, climax)."""
    check(s, 3)
    z = s.z1
    top(z[frm], z[to], to)
    check(s, 3)  # the action, the check node, the phase's end


def clock(s):
    check(s, 3)
    z = s.z1
    hand, deck = z["hand"], z["deck"]
    top(hand, z["clock"], "clock")
    top(deck, hand, "hand")
    top(deck, hand, "hand")
    check(s, 4)


def main_phase(s):
    check(s, 3)
    z = s.z1
    hand, stage = z["hand"], z["stage"]
    while True:
        s.left -= 1  # the decision
        if decide(s, s.main, MAIN_CHOOSE, "stop") == "stop":
            break
        to_stage(hand, stage)
        check(s, 3)  # the play, the check node, the goto
    steps(s, 1)  # the phase's end


def attack(s):
    check(s, 3)
    stage, reversed_ = s.z2["stage"], s.z2["reversed"]
    while True:
        s.left -= 1
        take = decide(s, s.attack, ATTACK_CHOOSE, "stop")
        if take == "front":
            check(s, 2)  # declare
            check(s, 2)  # trigger
            check(s, 2)  # counter
            check(s, 2)  # damage
            top(stage, reversed_, "reversed")  # the battle: the defender is reversed
            check(s, 3)  # the battle, the check node, the goto
        elif take == "side":
            check(s, 2)
            check(s, 2)
            check(s, 3)
        else:
            break
    check(s, 2)  # encore
    waiting = s.z2["waiting_room"]
    while reversed_:
        top(reversed_, waiting, "waiting_room")
        check(s, 3)  # the loop's test, the move, the check node
    steps(s, 2)  # the loop's last test, the phase's end


def discard(s, hand, waiting):
    """Down to the hand limit: the policy discards the newest cards (no choice is scripted)."""
    excess = len(hand) - HAND_LIMIT
    if excess <= 0:
        return ()
    if excess < len(hand):
        s.policy += 1
    cards = hand[:-excess - 1:-1]
    del hand[-excess:]
    for c in cards:
        move(c, waiting, "waiting_room")
    return cards


def end_phase(s):
    z = s.z1
    hand, returning, waiting = z["hand"], z["returning"], z["waiting_room"]
    k = 1  # the phase's begin
    while True:
        check(s, k + 2)  # the start, the check node
        discard(s, hand, waiting)
        top(returning, hand, "hand")
        check(s, 3)  # the discard, the clean-up, the check node
        k = 2  # the branch, then the goto or the phase's end
        if not (len(hand) > HAND_LIMIT or s.tq.n or s.nq.n):
            break
    steps(s, 2)


def run(plan) -> Turn:
    """(f): one turn, no trace; the run's state."""
    s = start(plan)
    s.left -= 1  # the turn's begin (its end: below)
    stand(s)
    action_phase(s, "deck", "hand")
    clock(s)
    main_phase(s)
    action_phase(s, "hand", "climax")
    attack(s)
    end_phase(s)
    steps(s, 1)
    end_of_turn(s)
    return s


def fingerprint(s) -> tuple:
    """The run's state in the engine's fingerprint layout (``Machine.fingerprint``); the engine counts
    an event only when a card listens to it."""
    return (
        0, s.seat, "ongoing", (),
        tuple((pid, tuple((z, tuple((c.id, c.state, c.slot, c.damage, tuple(c.mods), c.used) for c in cards))
                          for z, cards in s.zones[pid].items())) for pid in PLAYERS),
        tuple((pid, tuple((p.card.id, p.ability.id) for p in q.log[q.head:])) for pid, q in s.queues.items()),
        (), None, None, (), NODES[s.node], None, None, tuple((pid, ()) for pid in PLAYERS), 0, (), 0,
        tuple(sorted(s.decisions.items())), None, (("check_timing", s.count),) if s.count and s.listeners else (), (), (),
        s.used, 0,
    )


def budget_is_exact(sc) -> bool:
    """A budget of exactly the steps a run takes lets it finish; one step less stops it (both tiers)."""
    import floor_trace
    steps = MAX_STEPS - run(Plan(sc)).left
    for go in (run, floor_trace.run_traced):
        go(Plan(sc, steps))
        try:
            go(Plan(sc, steps - 1))
        except OutOfSteps:
            continue
        return False
    return True
