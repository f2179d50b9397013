"""Priority windows and the stack: who holds priority, what they play or whether they pass, when
the window closes, and the stack resolved newest first (each item an entry of its own). No cap on
the decisions of a window: each one is a step of the run's budget."""
from __future__ import annotations

from ...core.text import cond_text
from .abilities import IDLE, SCOPE
from .costs import affordable, play_cost
from .state import Registry, SimulationError, StackItem

WINDOW_ACTIONS = Registry("act_")


class Windows:
    """Priority windows and the stack (a part of ``Machine``)."""

    # the plays made this turn: (player, play kind) -> how many, of the turn play_turn (a run makes its own
    # dict at its first play of a turn; the cards' 'used' marks tell the same apart in a fingerprint)
    play_turn = -1
    play_counts: dict = {}
    pay_with: tuple = ()  # the cards a scripted play names to pay its play kind's cost with (its choice's cards)

    def count_play(self, pid, kind) -> None:
        if self.play_turn != self.turn_index:
            self.play_counts, self.play_turn = {}, self.turn_index
        self.play_counts[pid, kind] = self.play_counts.get((pid, kind), 0) + 1

    def plays_made(self, pid, kind) -> int:
        """How many plays of the kind the player has made in windows this turn."""
        return self.play_counts.get((pid, kind), 0) if self.play_turn == self.turn_index else 0

    def window(self, ni: int) -> None:
        """A priority window, run by the machine (the fast tier writes most windows in place:
        ``wingen``; both make the same records)."""
        prog = self.prog
        node = prog.nodes[ni]
        w = node.window
        first_i, who_i, need = prog.windows[ni]
        if ni in prog.refused:  # 'first' names one player by a role several hold (R509)
            raise prog.refused[ni]
        seat, out = self.seat, self.out
        plays = self.window_plays(ni, w)
        first = seat[first_i]
        allowed = {seat[i] for i in who_i}
        self.at = self.node = ni
        hook = prog.before_priority.get(ni)
        if hook is not None:
            self.before_priority(ni, hook)
        elif w.resolve != "immediate" and prog.game.check_timing is None:
            self.stack_waiting()
        self.set_priority(first)
        passes = 0
        while True:
            self.tick()
            pid = self.priority
            play, by = self.window_decision(node, plays, pid) if pid in allowed else (None, None)
            if play is None:  # a pass (a role that may not act here passes by itself)
                passes += 1
                if pid in allowed and out is not None:
                    out((ni, ("pass", passes), pid, by))
                self.set_priority(self.other(pid))
                if passes >= need:
                    if not self.close_window(ni, w):
                        break
                    passes = 0
                    if hook is not None:
                        self.before_priority(ni, hook)
                    self.set_priority(first)
                continue
            self.window_play(ni, w, pid, play, by)
            passes = 0
            if hook is not None:
                self.before_priority(ni, hook)
            if w.after_play == "alternate":
                self.set_priority(self.other(pid))
        self.set_priority(None)

    def stack_waiting(self) -> None:
        """The default before a window: abilities triggered just before it go on the stack first (in
        turn order)."""
        for pid in self.order:
            while self.pending[pid]:
                p = self.pop_pending(pid, 0)
                self.push(StackItem(p.ability, p.card, p.controller, self.stack[-1] if self.stack else None))

    def window_play(self, ni: int, w, pid, play, by) -> None:
        """The player holding priority plays (card, ability, target): its costs paid, it goes on the
        stack (or resolves at once), and the window's entry."""
        prog, out = self.prog, self.out
        card, ab, target = play
        card.used = True
        self.count_play(pid, ab.play)
        item = StackItem(ab, card, pid, self.stack[-1] if self.stack else None, target)
        paid = play_cost(self, card, ab, pid)
        effect = prog.effect
        paid += tuple(effect(cost)(self, card, pid, item, target) for cost in ab.cost)
        paid = (paid,) if paid else ()  # what the play cost, when it cost something (the entry tells it)
        self.fire("played", card)
        if w.resolve != "immediate" and ab.play not in prog.no_stack:
            self.push(item)
            if out is not None:
                out((ni, ("window_play", card.id, ab.id, None) + paid, pid, by))
        else:
            done = self.resolve_effects(ab, card, pid, item, target)
            if out is not None:
                out((ni, ("window_play", card.id, ab.id, done) + paid, pid, by))

    def play_kinds(self) -> dict:
        """Player -> the play kinds of the activated abilities of their cards: what they could ever
        play (the same for every run of the scenario: kept on its ``Setup``, not in the run state)."""
        setup = self.setup.__dict__
        kinds = setup.get("_play_kinds")
        if kinds is None:
            found: dict = {pid: set() for pid in self.players}
            for card in self.cards.values():
                found.setdefault(card.owner, set()).update(
                    ab.play for ab in card.spec.abilities if ab.kind == "activated")
            kinds = setup["_play_kinds"] = {pid: frozenset(v) for pid, v in found.items()}
        return kinds

    def before_priority(self, ni: int, hook) -> None:
        """The window's own actions before a player receives priority (rule processing, waiting
        abilities onto the stack): an entry of the window when one of them did something."""
        if not hook:
            return
        self.tick()
        out = self.out
        if out is not None:
            out(SCOPE)
        done = tuple(d for d in (act(self) for act in hook) if d not in IDLE)
        if out is not None and done:
            out((ni, ("before_priority", done)))

    def window_plays(self, ni, w) -> tuple:
        """The kinds of play the window allows now: its plays, a parameter of its procedure standing
        for the kinds the call being run gives."""
        params = self.prog.window_params.get(ni)
        if params is None:
            return w.plays
        args = dict(self.prog.nodes[self.frames[-1]].call_args) if self.frames else {}
        out = []
        for p in w.plays:
            v = args.get(p, ()) if p in params else p
            out += list(v) if isinstance(v, tuple) else [v]
        return tuple(out)

    def window_decision(self, node, plays, pid):
        """What the player holding priority does: (card, ability, target) to play, or None to pass."""
        self.pay_with = ()
        ch = self.next_choice(node.id, decision=True)
        if ch is not None:  # read as ``ch.take != "pass" and ch.card`` reads it, without the watching calls
            ch.read.add("take")
            if ch.choice.take != "pass":
                ch.read.add("card")
                if ch.choice.card:
                    return self.scripted_play(node, plays, pid, ch), "scenario"
            return None, "scenario"
        return self.unscripted_priority(node, plays, pid)

    def choice_lists(self, node_id) -> tuple:
        """The lists of choices a decision at the node reads when none is keyed to it, in the order
        ``next_choice`` reads them: its step's and phase's (some choices keyed by timing), the unkeyed;
        the ones not empty now (a list only ever gets shorter)."""
        ch = self.choices
        out = [ch[t] for t in self.timings_of(node_id) if ch.get(t)] if self.by_timing else []
        if ch.get(None):
            out.append(ch[None])
        return tuple(out)

    def unscripted_priority(self, node, plays, pid):
        """A decision in a window with no choice scripted for it: a forced pass when nothing can be
        played (none of the player's cards has a kind the window allows, or none can be played now),
        else refused (--strict), the explorer's or the policy's."""
        if self.play_kinds()[pid].isdisjoint(plays):
            return None, None
        playable = self.playable(pid, plays)
        if not playable:
            return None, None  # nothing to play: passing is forced, not a decision
        if self.strict:
            raise SimulationError("R501", f"unscripted priority decision at '{node.id}' for {self.who(pid)}", node.loc,
                                  help=f"add a choice: {{at: {node.id}, take: pass}}")
        self.policy_decisions += 1
        if self.explorer is not None:
            j = self.explorer.pick(self, node.id, (("take", "pass"),) + tuple(
                ("play", c.id, ab.id, t.id if t is not None else None) for c, ab, t in playable))
            if j is not None:
                return (playable[j - 1] if j else None), "explore"
        options = playable if self.policy in ("first", "random") else []
        if not options:
            return None, f"policy:{self.policy}"
        return (options[0] if self.policy == "first" else self.rng.choice(options)), f"policy:{self.policy}"

    def scripted_play(self, node, plays, pid, ch):
        """The play a scripted choice names (card, ability, target), refused when the card is not the
        player's, cannot be played here or now; sets the cards it pays with."""
        card = self.cards.get(ch.card)
        if card is None or card.owner != pid:
            raise SimulationError("R503", f"{ch.card} is not a card of {self.who(pid)}, who holds priority at '{node.id}'",
                                  ch.loc, help="choices at a window are taken in priority order")
        ab = next((x for x in card.spec.abilities if x.kind == "activated" and (ch.ability in (None, x.id))), None)
        if ab is None or ab.play not in plays:
            kinds = ", ".join(plays) or "none"
            raise SimulationError("R503", f"{card.name} [{card.id}] cannot be played at '{node.id}' "
                                  f"({node.label.en}): allowed here: {kinds}", ch.loc)
        if not self.played_by(pid, ab.play):
            kinds = ", ".join(k for k in plays if self.may_play(pid, k)) or "none"
            raise SimulationError("R503", f"{card.name} [{card.id}] cannot be played at '{node.id}' "
                                  f"({node.label.en}) by {self.who(pid)}: its timing ({ab.play}) is another "
                                  f"player's; allowed to them here: {kinds}", ch.loc)
        if not self.play_when_holds(pid, ab.play):
            raise SimulationError("R503", f"{card.name} [{card.id}] cannot be played now: a play of kind '{ab.play}' "
                                  f"needs {cond_text(self.prog.game.plays[ab.play].get('when'))}", ch.loc)
        self.pay_with = tuple(ch.cards or ())  # the cards the player pays the play kind's cost with
        return (card, ab, self.cards.get(ch.target) if ch.target else None)

    def close_window(self, ni, w) -> bool:
        """Both passed: resolve the stack (if any). True when the window reopens."""
        self.set_priority(None)
        if not self.stack:
            if self.out is not None:
                self.out((ni, ("window_closes",)))
            return False
        if w.resolve == "top":
            self.resolve_top()
        else:
            n = self.resolve_stack()
            if self.out is not None:
                self.out((ni, ("stack_resolved", n)))
        return w.after_resolve == "reopen"

    def playable(self, pid, plays):
        prog = self.prog
        zones = prog.__dict__.get("_play_zones")
        if zones is None:  # where cards are played from (the same for every run of the game)
            zones = prog.__dict__["_play_zones"] = prog.cx.zones_of("hand", "stage", "field")
        out = []
        for z in zones:
            for card in self.zones[pid][z]:
                if card.used:
                    continue
                for ab in card.spec.abilities:
                    if ab.kind == "activated" and ab.play in plays and self.may_play(pid, ab.play) \
                            and affordable(self, card, ab, pid):
                        out.append((card, ab, None))
        return out

    def may_play(self, pid, kind) -> bool:
        """Whether the player may play this kind: a kind only some roles may play (``by``), and the
        kind's own condition (``when``)."""
        return self.played_by(pid, kind) and self.play_when_holds(pid, kind)

    def played_by(self, pid, kind) -> bool:
        """Whether the player may play this kind (a kind some roles only may play: ``by``)."""
        seats = self.prog.play_by.get(kind)
        return seats is None or any(self.seat[i] == pid for i in seats)

    def play_when_holds(self, pid, kind) -> bool:
        """The play kind's own condition (if it has one) holds for the player ('self')."""
        test = self.prog.play_when.get(kind)
        if test is None:
            return True
        seat = self.seat
        saved = seat[2], seat[3]
        seat[2], seat[3] = pid, self.other(pid)
        try:
            return test(self)
        finally:
            seat[2], seat[3] = saved

    def resolve_stack(self) -> int:
        """Resolve the stack newest first, each item an entry of its own; the number resolved."""
        n = 0
        while self.stack:
            self.resolve_top()
            n += 1
        return n

    def resolve_top(self) -> None:
        """The newest object of the stack resolves: an entry of its own."""
        self.tick()
        item = self.pop_stack()
        out = self.out
        if out is not None:
            out(SCOPE)
        done = None if item.negated else self.resolve_effects(item.ability, item.card, item.controller, item, item.target)
        if out is not None:
            out((self.at, ("resolved", item.controller, item.card.id, item.ability.id, done)))


@WINDOW_ACTIONS
def act_resolve(cx, node, a):
    def run(st):
        if not st.stack and st.chosen is not None:
            chosen = st.chosen
            ab = next((x for x in chosen.spec.abilities if x.kind == "activated"), None)
            if ab is not None:
                return ("resolve_chosen", chosen.id, ab.id, st.resolve_effects(ab, chosen, chosen.owner, None, None))
            return ("nothing_to_resolve",)
        return ("stack_resolved", st.resolve_stack())
    return run
