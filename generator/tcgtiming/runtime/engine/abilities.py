"""Events and triggered abilities, rule processing and pending abilities: an event queues the
abilities it triggers (found through the index of abilities by event); rule processing applies
check-type rules until none applies, and interrupt-type rules whenever a card moves; pending
abilities resolve one at a time. Every rule applied and every ability resolved without a node of
its own is a trace entry of its own, and a step of the budget."""
from __future__ import annotations

from ...core import model as m
from ...core.scenario import Ability
from .cards import LABEL
from .effects import payable
from .melee import NO_LOSER
from .state import Pending, Registry, SimulationError, StackItem

def marker(event: str, card, ab) -> str:
    """The key, among the event counts, of the firing of the event at which the ability last triggered."""
    return f"{event}@{card.id}/{ab.id}"


SCOPE = (None, None)  # in the record stream: the work of an entry of its own begins
CARD_EVENTS = frozenset({"attack_declared", "reversed", "placed", "played", "revealed", "left_stage", "entered"})

ABILITY_ACTIONS = Registry("act_")


class Abilities:
    """Events, triggered abilities and rule processing (a part of ``Machine``)."""

    def fire(self, event: str, subject=None) -> None:
        listeners = self.listen.get(event)
        if listeners is None:
            return
        counts = self.event_counts
        n = counts[event] = counts.get(event, 0) + 1
        deck = self.deck
        of_card = event in CARD_EVENTS
        found = []
        # each listener: (card, ability, every, zone, only its own card, condition), read once per run
        for card, ab, every, zone, own, cond in listeners:
            if every and n % every:
                continue
            z = card.zone
            if z is None or z == deck:
                continue
            if zone is not None and z != zone:
                continue
            if own and subject is not card and of_card:
                continue
            to = ab.to
            if to is not None and (subject is None or subject.zone != to):
                continue
            if cond is not None and not self.holds_for(cond, card):
                continue
            found.append((card, ab))
        if not found:
            return
        if len(found) > 1:  # the turn player's first (then in turn order), by zone, position in the zone, ability
            rank, order, pos = {p: i for i, p in enumerate(self.order)}, self.zone_order, {}

            def key(item):
                c = item[0]
                where = (c.owner, c.zone)
                if where not in pos:
                    pos[where] = {id(x): i for i, x in enumerate(self.zones[c.owner][c.zone])}
                return (rank[c.owner], order[c.zone], pos[where][id(c)])
            found.sort(key=key)
        if event in self.prog.cx.__dict__.get("watched", ()):  # read by 'untriggered': which firing each took
            for card, ab in found:
                counts[marker(event, card, ab)] = n
        for card, ab in found:
            self.add_pending(Pending(ab, card, card.owner))

    def could_trigger(self, event: str, card, ab) -> bool:
        """The auto ability would trigger if the event fired now (its card where it works, its condition)."""
        z = card.zone
        if z is None or z == self.deck or (ab.zone is not None and z != ab.zone):
            return False
        return ab.condition is None or self.holds_for(ab.condition, card)

    def trigger(self, event: str) -> tuple:
        """A trigger node: the event fires; the event of the entry names the abilities it made pending."""
        if event not in self.listen:
            return ("trigger", event, ())
        before = {p: len(q.log) for p, q in self.pending.items()}
        self.fire(event)
        new = tuple((pid,) + p.ref for pid in self.players for p in self.pending[pid].log[before[pid]:])
        return ("trigger", event, new)

    def holds_for(self, cond, card) -> bool:
        seat = self.seat
        saved = seat[2], seat[3]
        seat[2], seat[3] = card.owner, self.other(card.owner)
        try:
            return self.prog.condition(cond)(self)
        finally:
            seat[2], seat[3] = saved

    def resolve_effects(self, ability, card, controller, item, target) -> tuple:
        if not ability.effect:
            return ()
        effect = self.prog.effect
        return tuple([effect(eff)(self, card, controller, item, target) for eff in ability.effect])

    # --- rule processing -------------------------------------------------------------------------
    def rule_applies(self, rp, pid) -> bool:
        test = self.prog.rule_when.get(rp.id)
        if test is None:
            return False
        seat = self.seat
        saved, seat[2] = seat[2], pid
        try:
            return test(self)
        finally:
            seat[2] = saved

    def apply_rule(self, rp, pid, kind: str) -> None:
        """Apply a rule process for a player: its own trace entry (``kind``: rule or interrupt)."""
        self.tick()
        out = self.out
        if out is not None:
            out(SCOPE)
        seat = self.seat
        saved, seat[2], self.rule_key = seat[2], pid, rp.id
        try:
            done = tuple(act(self) for act in self.prog.rule_do[rp.id])
        finally:
            seat[2], self.rule_key = saved, None
        if out is not None:
            out((self.at, (kind, rp.id, pid, done)))

    def interrupts(self) -> int:
        """Interrupt-type rules, applied until none applies (each rule for each player, in order);
        how many were applied. When the last full scan found none and nothing they read has changed
        since (``interrupt_due`` false: see ``rule_watch``), none applies: no scan."""
        if self.in_interrupt or not self.interrupt_due:
            return 0
        prog = self.prog
        if not prog.interrupt_rules:
            return 0
        scan, pairs = prog.interrupt_scan
        k = scan(self, 0)  # (a scan applies nothing: the usual answer, none, without the set-up below)
        if k < 0:
            self.interrupt_due = prog.interrupt_watch is None
            return 0
        self.in_interrupt = True
        n = 0
        try:
            fired = False
            while True:
                if k < 0:
                    if not fired:  # a whole scan from the first rule found none that applies
                        self.interrupt_due = prog.interrupt_watch is None
                        return n
                    k, fired = scan(self, 0), False  # again from the first rule
                    continue
                rp, j = pairs[k]
                self.apply_rule(rp, self.seat[j], "interrupt")
                fired, n = True, n + 1
                k = scan(self, k + 1)
        finally:
            self.in_interrupt = False

    def resolve_now(self, p: Pending) -> None:
        """Resolve a pending ability with no node of its own (a closed timing): an entry of its own."""
        self.tick()
        out = self.out
        if out is not None:
            out(SCOPE)
        done = self.resolve_effects(p.ability, p.card, p.controller, None, None)
        if out is not None:
            out((self.at, ("resolved", p.controller, p.card.id, p.ability.id, done)))


def rule_watch(prog, rules):
    """The zones whose card counts are all that the rules' conditions read (``count`` predicates,
    through all/any/not; ``lost``, whose list changes only in ``Machine.lose``): only a move into or
    out of one of them (or a player losing) can make a rule apply that did not. None when a condition
    reads anything else (the rules are scanned every time, as before).

    This holds while every change to the cards of a zone goes through ``Machine.move_card``: where
    the game has interrupt-type rules (the fast tier writes moves in place only where it has none),
    and the seats turn only in ``Machine.seat_order``, which makes the rules due again (a rule reading
    the turn player's zones reads another player's then)."""
    if not prog.interrupt_rules:
        return None
    from .conditions import PREDICATES  # (conditions imports this module)
    count, lost = PREDICATES.get("count"), PREDICATES.get("lost")
    table = prog.predicate_table
    zones = set()

    def reads(cond) -> bool:
        if isinstance(cond, m.Not):
            return reads(cond.cond)
        if isinstance(cond, (m.All, m.AnyOf)):
            return all(reads(c) for c in cond.conds)
        fn = table.get(cond.name)
        if fn is count and count is not None:
            zones.add(dict(cond.args).get("zone"))
            return True
        return fn is lost and lost is not None
    if all(rp.when is None or reads(rp.when) for rp in rules):
        return frozenset(zones)
    return None


NOTHING_TO_DO = ("rule_processing", 0)
NOTHING_STACKED = ("stack_pending", ())
IDLE = (NOTHING_TO_DO, NOTHING_STACKED, NO_LOSER)  # results of a window's before_priority actions that did nothing


@ABILITY_ACTIONS
def act_rule_processing(cx, node, a):
    if not cx.game.rule_processes:
        nothing = lambda st: NOTHING_TO_DO  # noqa: E731
        nothing.const = NOTHING_TO_DO
        return nothing

    # the game's interrupt-type rules (none: no call to ask them; ``interrupt_due`` false: none applies)
    interrupting = any(rp.type == "interrupt" for rp in cx.game.rule_processes.values())

    def run(st):
        if not st.check_due and not (interrupting and st.interrupt_due):
            return NOTHING_TO_DO  # none applied at the last scan, and nothing they read has changed since
        # every rule that applies: an interrupt-type rule already due (from the starting state, or a
        # value that changed without a card moving) is applied here too, each an entry of its own
        scan, pairs = st.prog.check_scan
        n = st.interrupts() if interrupting and st.interrupt_due else 0
        k, applied = 0, False
        while True:
            k = scan(st, k)
            if k < 0:  # a round is over
                if not st.losers and applied:
                    k, applied = 0, False
                    continue
                m = st.interrupts() if interrupting and st.interrupt_due and not st.losers else 0
                if not m:  # the game's own end_game nodes end the game (they read 'lost')
                    if not applied:  # a whole scan found no check-type rule that applies
                        st.check_due = st.prog.check_watch is None
                    return ("rule_processing", n) if n else NOTHING_TO_DO
                n += m
                k, applied = 0, False
                continue
            rp, j = pairs[k]
            st.apply_rule(rp, st.seat[j], "rule")
            n += 1
            applied = True
            k += 1
    return run


@ABILITY_ACTIONS
def act_lose(cx, node, a):
    seats = cx.seats(a["player"])

    def run(st):
        for i in seats:
            st.lose(st.seat[i])
        return ("loses", tuple(st.seat[i] for i in seats))
    return run


@ABILITY_ACTIONS
def act_resolve_pending(cx, node, a):
    i = cx.seat(a["player"])

    def run(st):
        pid = st.seat[i]
        q = st.pending[pid]
        if not q.n:
            return ("no_pending",)
        p0 = q.log[q.head]
        decision = q.n > 1 or bool(p0.ability.cost)
        ch = st.choice_at(node, decision=decision, forced=not decision)
        idx = pick_pending(st, node, pid, q, ch)
        p = st.pop_pending(pid, idx)
        cost = p.ability.cost
        if cost and not can_pay(st, cost, pid):
            return ("cannot_pay", pid, p.card.id, p.ability.id)
        if cost:
            pay = ch.take != "no" if ch is not None and ch.take in ("yes", "no") else None
            if pay is None:
                if st.strict:
                    raise SimulationError("R501", f"unscripted decision at '{node.id}': does {st.who(pid)} pay the cost of "
                                          f"{p.card.name}: {p.ability.label}?", node.loc,
                                          help=f"add take: yes or take: no to the choice at {node.id}")
                st.policy_decisions += 1
                j = None if st.explorer is None else st.explorer.pick(st, node.id, (("pay", "yes"), ("pay", "no")))
                pay = st.policy != "pass" if j is None else j == 0
            if not pay:
                return ("not_paid", pid, p.card.id, p.ability.id)
            effect = st.prog.effect
            paid = tuple(effect(c)(st, p.card, pid, None, None) for c in cost)
            return ("resolve", pid, p.card.id, p.ability.id, paid + st.resolve_effects(p.ability, p.card, p.controller, None, None))
        return ("resolve", pid, p.card.id, p.ability.id, st.resolve_effects(p.ability, p.card, p.controller, None, None))
    return run


def pick_pending(st, node, pid, q, ch) -> int:
    """Which of the player's pending abilities comes first: the scripted choice's ability (or card),
    else the explorer's or the policy's pick (the oldest); unscripted with --strict when several wait."""
    if ch is not None and (ch.ability or ch.card):
        idx = next((k for k, p in enumerate(q.items())
                    if (ch.ability in (None, p.ability.id)) and (ch.card in (None, p.card.id))), -1)
        if idx < 0:
            labels = ", ".join(f"{p.card.name}: {p.ability.label or p.ability.id}" for p in q.items())
            raise SimulationError("R503", f"ability {ch.ability or ''} {('of ' + ch.card) if ch.card else ''} is not pending "
                                  f"for {st.who(pid)} (pending: {labels})", ch.loc)
        return idx
    if q.n > 1 and st.explorer is not None and \
            (j := st.explorer.pick(st, node.id, tuple(("ability", p.card.id, p.ability.id) for p in q.items()))) is not None:
        return j
    if q.n > 1 and st.strict:
        raise SimulationError("R501", f"unscripted order at '{node.id}': {st.who(pid)} has "
                              f"{len(q)} pending abilities", node.loc,
                              help=f"add a choice: {{at: {node.id}, ability: <ability id>}}")
    return 0


@ABILITY_ACTIONS
def act_stack_pending(cx, node, a):
    def run(st):
        put = []
        for pid in st.order:  # APNAP: the turn player's first, then each other in turn order
            q = st.pending[pid]
            while q.n:
                ch = st.next_choice(node.id, decision=True) if q.n > 1 else None
                p = st.pop_pending(pid, pick_pending(st, node, pid, q, ch))
                st.push(StackItem(p.ability, p.card, p.controller, st.stack[-1] if st.stack else None))
                put.append((pid, p.card.id, p.ability.id))
        return ("stack_pending", tuple(put))
    return run


def can_pay(st, cost, pid) -> bool:
    for c in cost:
        a = dict(c.args)
        if c.name == "move" and a.get("which", "top") == "top":
            who = pid if a.get("who", "controller") == "controller" else st.other(pid)
            if len(st.zone(who, a["from"])) < st.prog.cx.int(a.get("count", 1)):
                return False
        if c.name == "pay" and len(payable(st, a["zone"], a.get("from"), pid, a.get("type"))) < st.prog.cx.int(a["count"]):
            return False
    return True


@ABILITY_ACTIONS
def act_resolve_triggered(cx, node, a):
    event = a["event"]

    def run(st):
        if event in st.listen:  # (else nothing listens: no call)
            st.fire(event)
        n = 0
        pending = st.pending
        for pid in st.order:
            q = pending[pid]
            while q.n:
                st.resolve_now(st.pop_pending(pid, 0))
                n += 1
        return ("at_once", n)
    return run


EXTRA = ("extra_pending",)


@ABILITY_ACTIONS
def act_built_in_return(cx, node, a):
    """A built-in auto ability every card of a type has (WS: encore), without a scenario stating it:
    the card the player has just put into the zone gets it as a pending ability (unless the card has
    its own of the same id); paying the cost returns the card to the zone it left, in a state."""
    i, aid, zone, ctype, back = cx.seat(a["player"]), a["id"], a["zone"], a["type"], a["back_to"]
    cost = (m.Action("move", (("who", "controller"), ("from", a["pay_from"]), ("to", a["pay_to"]),
                              ("count", cx.int(a["cost"])), ("which", "top"))),)
    effect = (m.Action("move", (("who", "controller"), ("from", zone), ("to", back), ("which", "self"))),
              m.Action("set_state", (("target", "self"), ("to", a["state"]))))
    built_in = Ability(aid, "", "auto", None, "self", None, None, None, None, cost, effect)

    def run(st):
        cards = st.zones[st.seat[i]][zone]
        card = cards[-1] if cards else None  # the card just put there
        if card is None or card.spec.type != ctype or any(ab.id == aid for ab in card.spec.abilities):
            return LABEL
        st.add_pending(Pending(built_in, card, card.owner))
        return EXTRA
    return run
