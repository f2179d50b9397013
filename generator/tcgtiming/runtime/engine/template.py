"""A scenario's starting state as code. ``Setup`` works out once per scenario what every run of it
starts from (players, seats, each zone's cards with their values, the listeners, the choices by
node, the players' values); ``builder`` turns it into one function (made at the scenario's first
run, cached on its ``Setup``) that gives a new machine its whole run state as straight-line code:
new cards, zones (player -> zone -> cards), cards by id, the index of auto abilities by event,
seats, pending queues, the scripted choices, the firing functions and the empty containers a run
fills. Nothing mutable is shared between two runs: every list, dict, queue, deque and card is made
again by each call; what is shared (specs, card values, the deques of choices each run copies, the
players, the firing functions) is never changed in place. A scenario of more than ``CODE_CARDS``
cards makes its cards by a loop (the code would take longer to compile than to run)."""
from __future__ import annotations

from collections import deque

from .melee import start_values
from .state import Queue, RCard, card

CODE_CARDS = 256


class Setup:
    """A scenario's starting point in the program's terms: players, each zone's cards (with their
    values and stage positions), the auto abilities by event (card index, ability), the choices by
    node, the players' starting values, and the seats and turn order from each turn player."""

    def __init__(self, prog, scenario):
        cx, game = prog.cx, prog.game
        self.players = [p[0] for p in scenario.players]
        self.names = {p[0]: p[1] for p in scenario.players}
        self.first_turn = scenario.first_turn
        self.deck, self.stage = cx.zone_or_none("deck"), cx.zone_or_none("stage")
        self.stateful = prog.stateful
        self.zone_order = {z: i for i, z in enumerate(game.zones)}
        zones, listen, i = [], {}, 0
        for pid, _, given in scenario.players:
            given = dict(given)
            layout = []
            for z in game.zones:
                cards = []
                for k, cid in enumerate(given.get(z, ())):
                    if cid is None:  # an empty stage slot
                        continue
                    spec = scenario.cards[cid]
                    cards.append((spec, dict(spec.stats), k if z == self.stage else None))
                    for ab in spec.abilities:
                        if ab.kind == "auto" and ab.event is not None:
                            listen.setdefault(ab.event, []).append(
                                (i, ab, ab.every, ab.zone, ab.subject == "self", ab.condition))
                    i += 1
                layout.append((z, tuple(cards)))
            zones.append((pid, tuple(layout)))
        self.zones = tuple(zones)
        self.listen = tuple((ev, tuple(items)) for ev, items in listen.items())
        grouped: dict = {}
        for ch in scenario.choices:
            grouped.setdefault(ch.at, []).append(ch)
        self.choices = tuple((at, tuple(chs)) for at, chs in grouped.items())
        self.by_timing = any(at in game.containers for at in grouped)  # some choices are keyed by a phase or step
        self.all_choices = scenario.choices
        self.values = start_values(game, scenario)  # a model: each run starts from a copy
        # from each turn player: the players in turn order from them, and the seats they fill
        self.rounds = {pid: rotation(self.players, pid) for pid in self.players}
        self.first = rotation(self.players, scenario.turn_player)
        self.start = None  # the function that starts a run (``builder``: made at the first run)
        # the fast tier's turn function, without and with the trace (``codegen.turn_for``: found at the first run)
        self.turns: list = [None, None]


def rotation(players: list, tp) -> tuple[tuple, list]:
    """The players in turn order from the turn player (the first player if ``tp`` is none of them),
    and the seats: the turn player (seat 0), the next in turn order (seat 1; with one player, the
    same), seats 2 and 3 free (bound while an ability or a rule process is done), and with more than
    two players the ones after that (seats 4, 5, ...)."""
    i = players.index(tp) if tp in players else 0
    order = tuple(players[i:] + players[:i])
    return order, [order[0], order[1] if len(order) > 1 else order[0], None, None, *order[2:]]


def builder(setup: Setup, start: tuple = (), fire: dict | None = None):
    """The function ``start(st)`` that gives a machine the scenario's starting state; ``start``: the
    constants every run starts with, (name, value); ``fire``: the scenario's firing functions (shared by
    its runs, never changed)."""
    fn = setup.start
    if fn is None:
        fn = setup.start = _make(setup, start, fire)
    return fn


_UNSET = object()


def _fresh(var: str, proto, known: dict, call: str) -> list[str]:
    """Lines that make an object like ``proto`` (of a class with slots) slot by slot - the class
    called with no ``__init__`` of its own, or an object without its ``__init__`` call: twice as fast
    as the call - where each value is a constant, a name of
    ``known`` (id -> name: a shared, never changed value) or a new empty list; else ``call``."""
    sets = []
    for name in type(proto).__slots__:
        v = getattr(proto, name, _UNSET)
        if v is _UNSET:  # a slot the call leaves unset stays unset
            continue
        if id(v) in known:
            sets.append(f"{var}.{name} = {known[id(v)]}")
        elif v is None or type(v) in (str, int, bool) or (type(v) is tuple and not v):
            sets.append(f"{var}.{name} = {v!r}")
        elif type(v) is list and not v:
            sets.append(f"{var}.{name} = []")
        else:
            return [f"{var} = {call}"]
    cls = type(proto).__name__
    return [f"{var} = {cls}()" if type(proto).__init__ is object.__init__ else f"{var} = new({cls})"] + sets


def _literal(v) -> bool:
    """A value its repr writes back exactly, made new by the code that reads it (a dict, a list)."""
    if v is None or type(v) in (str, int, bool):
        return True
    if type(v) in (dict, list, tuple):
        items = v.items() if type(v) is dict else ((x, None) for x in v)
        return all(_literal(k) and _literal(x) for k, x in items)
    return False


def _cards(setup: Setup, ns: dict) -> list[str]:
    """The lines that make the cards (``c0``, ``c1``, ... or the list ``made``), the zones and cards by id."""
    specs = [(pid, z, spec, base, slot) for pid, layout in setup.zones for z, row in layout for spec, base, slot in row]
    if len(specs) > CODE_CARDS:
        ns["SPECS"], ns["LAYOUT"] = specs, tuple((pid, tuple((z, len(row)) for z, row in layout)) for pid, layout in setup.zones)
        return ["made = [card(spec, pid, base, z, slot) for pid, z, spec, base, slot in SPECS]",
                "zones, k = {}, 0",
                "for pid, layout in LAYOUT:",
                "    zs = zones[pid] = {}",
                "    for z, n in layout:",
                "        zs[z] = made[k:k + n]",
                "        k += n",
                "st.zones = zones",
                "st.cards = {c.id: c for c in made}"]
    lines, by_zone = [], {}
    for k, (pid, z, spec, base, slot) in enumerate(specs):
        ns[f"S{k}"], ns[f"B{k}"] = spec, base
        known = {id(spec): f"S{k}", id(base): f"B{k}"}
        lines += _fresh(f"c{k}", card(spec, pid, base, z, slot), known, f"card(S{k}, {pid!r}, B{k}, {z!r}, {slot!r})")
        by_zone.setdefault(pid, {}).setdefault(z, []).append(f"c{k}")
    zones = []
    for pid, layout in setup.zones:
        have = by_zone.get(pid, {})
        row = (f"{z!r}: [{', '.join(have.get(z, ()))}]" for z, _ in layout)
        zones.append(f"{pid!r}: {{{', '.join(row)}}}")
    lines.append(f"st.zones = {{{', '.join(zones)}}}")
    lines.append(f"st.cards = {{{', '.join(f'{spec.id!r}: c{k}' for k, (_, _, spec, _, _) in enumerate(specs))}}}")
    return lines


def _make(setup: Setup, start: tuple, fire: dict | None):
    ns: dict = {"RCard": RCard, "card": card, "Queue": Queue, "new": object.__new__}

    def name(value, prefix: str) -> str:
        key = f"{prefix}{len(ns)}"
        ns[key] = value
        return key

    # what every run shares (never changed in place)
    lines = [f"st.{a} = {name(getattr(setup, a), 'K')}" for a in ("players", "names", "zone_order", "stateful")]
    lines += [f"st.{a} = {getattr(setup, a)!r}" for a in ("first_turn", "deck", "stage")]
    lines += [f"st.{a} = {v!r}" for a, v in start]
    if fire is not None:
        lines.append(f"st.firers = {name(fire, 'F')}")
    lines += _cards(setup, ns)
    made = "made[{}]" if "SPECS" in ns else "c{}"
    def const(v) -> str:  # a value every run shares, as code: written out when its repr reads back as itself
        return repr(v) if v is None or type(v) in (str, int, bool) else name(v, "L")

    listen = []
    for ev, items in setup.listen:  # each listener's tuple made in one step (no tuple joined to another)
        parts = [f"({', '.join([made.format(it[0])] + [const(v) for v in it[1:]])})" for it in items]
        listen.append(f"{ev!r}: [{', '.join(parts)}]")
    lines.append(f"st.listen = {{{', '.join(listen)}}}")
    order, seat = setup.first
    lines += [f"st.seat = {seat!r}", f"st.order = {order!r}"]
    queues = [f"q{j}" for j in range(len(setup.players))]
    for q in queues:
        lines += _fresh(q, Queue(), {}, "Queue()")
    lines.append(f"st.pending = {{{', '.join(f'{p!r}: {q}' for p, q in zip(setup.players, queues))}}}")
    lines.append(f"st.queues = [{', '.join(queues)}]")
    for a, empty in (("stack", "[]"), ("revealed", "[]"), ("decisions", "{}"), ("event_counts", "{}"), ("losers", "[]"),
                     ("frames", "[]"), ("loops", "{}"), ("vars", "{}")):
        lines.append(f"st.{a} = {empty}")
    values = setup.values
    lines.append(f"st.values = {values!r}" if _literal(values) else
                 f"st.values = {{p: dict(v) for p, v in {name(values, 'V')}.items()}}")
    # the scenario's choices by node (``None``: the choices answering decisions in order), taken in order: each
    # a copy of a deque made once (never changed: three times as fast as a deque made from the tuple)
    chosen = ", ".join(f"{at!r}: {name(deque(chs), 'C')}.copy()" for at, chs in setup.choices)
    lines += [f"st.choices = {{{chosen}}}", f"st.by_timing = {setup.by_timing!r}", "st.used_choices = set()",
              f"st.all_choices = {name(setup.all_choices, 'A')}", "st.taken = []"]
    src = "def start(st):\n" + "".join(f"    {x}\n" for x in lines)
    exec(compile(src, "<tcgtiming scenario setup>", "exec"), ns)
    ns["start"].source = src
    return ns["start"]
